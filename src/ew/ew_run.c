/* Running an element-wise plan: executing it on bound buffers (checked
 * mode first if asked, then the engine with the plan's kernel or its
 * non-temporal wrapper), running it on tensors after checking their layouts
 * and overlap, and the one-call compute entry points that plan and run. */
#include <fenv.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "bcast/elementwise.h"
#include "core/diag.h"
#include "ew/ew_plan.h"

/* Progress: the kernel wrapped so that one call does at most
 * EW_PROGRESS_PIECE elements, adding each piece to a shared count; the
 * master thread reports after its pieces. */
#define EW_PROGRESS_PIECE ((int64_t)1 << 20)

typedef struct ew_progress {
  bcast_rows_kernel_fn kernel;
  const void *params;
  int n_operands;
  int64_t elem_bytes, total_bytes;
  _Atomic int64_t done; /* elements */
  void (*report)(void *ctx, int64_t done_bytes, int64_t total_bytes);
  void *ctx;
} ew_progress;

static void progress_piece(ew_progress *pg, int64_t rows, int64_t n,
                           char *const *ptrs, const int64_t *strides,
                           const int64_t *row_strides) {
  pg->kernel(rows, n, ptrs, strides, row_strides, pg->params);
  const int64_t done = atomic_fetch_add(&pg->done, rows * n) + rows * n;
#ifdef _OPENMP
  if (omp_get_thread_num() != 0) return;
#endif
  pg->report(pg->ctx, done * pg->elem_bytes, pg->total_bytes);
}

static void progress_kernel(int64_t rows, int64_t n, char *const *ptrs,
                            const int64_t *strides, const int64_t *row_strides,
                            const void *params) {
  ew_progress *pg = (ew_progress *)(uintptr_t)params;
  char *p[EW_MAX_INPUTS + 1];
  const int64_t per = n >= EW_PROGRESS_PIECE ? 1 : EW_PROGRESS_PIECE / n;
  for (int64_t j = 0; j < rows; j += per) {
    const int64_t m = rows - j < per ? rows - j : per;
    for (int64_t i = 0; i < n; i += EW_PROGRESS_PIECE) {
      const int64_t len =
          n - i < EW_PROGRESS_PIECE ? n - i : EW_PROGRESS_PIECE;
      for (int k = 0; k < pg->n_operands; k++)
        p[k] = ptrs[k] + j * row_strides[k] + i * strides[k];
      progress_piece(pg, m, m > 1 ? n : len, p, strides, row_strides);
      if (m > 1) break;
    }
  }
}

/* Error states: the kernel wrapped so that each thread clears its
 * floating-point flags before its first piece of a run and ORs them into
 * the run's after each piece.  A thread knows its first piece by the run's
 * number: runs are numbered from 1 across the process, and a thread
 * remembers the last run it cleared its flags for.  Reading the flags
 * (fetestexcept) costs a few cycles per kernel call, against the rows of
 * elements each call computes; clearing and restoring them costs more
 * (the x87 environment is stored and loaded), so the calling thread does
 * it only when its flags are set. */
#define EW_FE_ALL (FE_DIVBYZERO | FE_OVERFLOW | FE_UNDERFLOW | FE_INVALID)

typedef struct ew_fpe {
  bcast_rows_kernel_fn kernel;
  const void *params;
  uint64_t run;
  _Atomic int raised; /* FE_* bits */
} ew_fpe;

static _Atomic uint64_t fpe_runs;
static _Thread_local uint64_t fpe_thread_run;

static void fpe_kernel(int64_t rows, int64_t n, char *const *ptrs,
                       const int64_t *strides, const int64_t *row_strides,
                       const void *params) {
  ew_fpe *f = (ew_fpe *)(uintptr_t)params;
  if (fpe_thread_run != f->run) {
    feclearexcept(EW_FE_ALL);
    fpe_thread_run = f->run;
  }
  f->kernel(rows, n, ptrs, strides, row_strides, f->params);
  const int got = fetestexcept(EW_FE_ALL);
  if (got & ~atomic_load_explicit(&f->raised, memory_order_relaxed))
    atomic_fetch_or(&f->raised, got);
}

/* The errors NumPy's loops for op never report: its comparisons, maximum,
 * minimum, fmax, fmin, where and logical ops are quiet on NaN, where a C
 * comparison raises invalid. */
static unsigned fpe_quiet(bcast_op op) {
  const bcast_op_info *info = bcast_op_get(op);
  const int quiet = info->result == BCAST_RESULT_BOOL ||
                    op == BCAST_OP_MAXIMUM || op == BCAST_OP_MINIMUM ||
                    op == BCAST_OP_FMAX || op == BCAST_OP_FMIN ||
                    op == BCAST_OP_CLAMP || op == BCAST_OP_SELECT;
  return quiet ? BCAST_FPE_INVALID : 0u;
}

/* FE_* bits as BCAST_FPE_* bits, less the op's quiet ones. */
static unsigned fpe_bits(bcast_op op, int fe) {
  static const struct {
    int fe;
    unsigned fpe;
  } map[] = {{FE_DIVBYZERO, BCAST_FPE_DIVIDE},
             {FE_OVERFLOW, BCAST_FPE_OVERFLOW},
             {FE_UNDERFLOW, BCAST_FPE_UNDERFLOW},
             {FE_INVALID, BCAST_FPE_INVALID}};
  unsigned bits = 0;
  for (size_t k = 0; k < sizeof map / sizeof map[0]; k++)
    if (fe & map[k].fe) bits |= map[k].fpe;
  return bits & ~fpe_quiet(op);
}

/* Runs kernel over the plan's engine (or, direct, in one call). */
static void run_kernel(const bcast_ew_plan *plan, char *const *base,
                       bcast_rows_kernel_fn kernel, const void *params,
                       int direct) {
  const bcast_plan *e = &plan->engine;
  if (direct)
    kernel(e->ndim > 1 ? e->extent[0] : 1, e->extent[e->ndim - 1], base,
           plan->step, plan->row_step, params);
  else
    bcast_plan_run_rows(e, base, kernel, params, plan->threads);
}

/* run_kernel, returning the FE_* flags every thread raised; the calling
 * thread's flags are left as they were. */
static int run_watched(const bcast_ew_plan *plan, char *const *base,
                       bcast_rows_kernel_fn kernel, const void *params,
                       int direct) {
  fexcept_t callers;
  const int before = fetestexcept(EW_FE_ALL);
  if (before) {
    fegetexceptflag(&callers, EW_FE_ALL);
    feclearexcept(EW_FE_ALL);
  }
  int raised;
  if (direct) {
    run_kernel(plan, base, kernel, params, 1);
    raised = fetestexcept(EW_FE_ALL);
  } else {
    ew_fpe f = {kernel, params, atomic_fetch_add(&fpe_runs, 1) + 1, 0};
    fpe_thread_run = f.run; /* this thread's flags are clear */
    run_kernel(plan, base, fpe_kernel, &f, 0);
    raised = atomic_load(&f.raised);
  }
  if (raised) feclearexcept(EW_FE_ALL);
  if (before) fesetexceptflag(&callers, EW_FE_ALL);
  return raised;
}

/* Executes the plan, reporting to options->progress when it is set and
 * ORing the errors met into *fpe when fpe is not NULL; at places a checked
 * failure's index (NULL: the output is its own). */
static bcast_status execute(const bcast_ew_plan *plan, void *out_data,
                            const void *const *in_data,
                            const bcast_ew_options *options,
                            const ew_origin *at, unsigned *fpe,
                            bcast_diag *diag) {
  char *base[EW_MAX_INPUTS + 1];
  base[0] = out_data;
  for (int k = 0; k < plan->arity; k++)
    base[k + 1] = (char *)(uintptr_t)in_data[k];
  bcast_status status = bcast_plan_check_bases(&plan->engine, base, diag);
  if (status != BCAST_OK) return status;
  if (plan->checked) {
    status = bcast__ew_check_pass(plan, out_data, in_data, at, diag);
    if (status != BCAST_OK) return status;
  }
  const int progress = options && options->progress;
  /* Small and two-dimensional: one kernel call, without the engine's walk
   * (or its fence, which only non-temporal stores need). */
  const int direct = plan->direct && !plan->nt_store && !progress;
  bcast_rows_kernel_fn kernel = plan->kernel;
  const void *params = &plan->params;
  int nt_store = plan->nt_store;
  if (nt_store == EW_NT_KERNEL) kernel = plan->kernels[plan->variant];
  /* Short runs of whole lines: by the kernels only from a line's start
   * (ew_nt_store.c). */
  if (nt_store == EW_NT_KERNEL && plan->nt_lines &&
      ((uintptr_t)out_data & 63u) != 0)
    nt_store = EW_NT_WRAPPER;
  /* An output whose pages are not in memory yet (np.empty's) is written
   * with ordinary stores (bcast__memory_resident; measured on Zen 4, a
   * 1024x4096 + 4096 float32 add into np.empty under Dask's
   * MALLOC_TRIM_THRESHOLD_: 3.86 ms with non-temporal stores, 2.86 ms
   * with ordinary ones). */
  if (nt_store != EW_NT_NONE &&
      !bcast__memory_resident(
          out_data, plan->out_c_order ? (size_t)(plan->engine.elem_count *
                                                 plan->engine.elem_bytes[0])
                                      : 1))
    nt_store = EW_NT_NONE;
  /* A racing plan's counters change on every call of a plan the caller
   * holds as const: they are the plan's own atomics, in storage that was
   * never const (bcast_ew_plan_create's, or the one-call forms'). */
  bcast_store_race *const race =
      plan->racing && nt_store != EW_NT_NONE
          ? (bcast_store_race *)(uintptr_t)&plan->race
          : NULL;
  int64_t race_t0 = 0;
  const int race_nt = race ? bcast__store_race_start(race, &race_t0) : 0;
  if (race && !race_nt) nt_store = EW_NT_NONE;
  if (nt_store == EW_NT_KERNEL) kernel = plan->kernel;
#if BCAST__HAVE_NT_STORE
  const ew_nt_store_params sp = {kernel, &plan->params,
                                 plan->engine.elem_bytes[0], plan->arity + 1};
  if (nt_store == EW_NT_WRAPPER) {
    kernel = bcast__ew_nt_store_kernel;
    params = &sp;
  }
#endif
  ew_progress pg = {kernel,
                    params,
                    plan->arity + 1,
                    plan->engine.elem_bytes[0],
                    plan->engine.elem_count * plan->engine.elem_bytes[0],
                    0,
                    progress ? options->progress : NULL,
                    progress ? options->progress_ctx : NULL};
  if (progress) {
    kernel = progress_kernel;
    params = &pg;
  }
  if (!fpe)
    run_kernel(plan, base, kernel, params, direct);
  else
    *fpe |= fpe_bits(plan->op, run_watched(plan, base, kernel, params, direct));
  if (race) bcast__store_race_end(race, race_nt, race_t0);
  if (progress)
    options->progress(options->progress_ctx, pg.total_bytes, pg.total_bytes);
  return BCAST_OK;
}

bcast_status bcast_ew_plan_execute(const bcast_ew_plan *plan, void *out_data,
                                   const void *const *in_data,
                                   bcast_diag *diag) {
  return execute(plan, out_data, in_data, NULL, NULL, NULL, diag);
}

bcast_status bcast_ew_plan_execute_fpe(const bcast_ew_plan *plan,
                                       void *out_data,
                                       const void *const *in_data,
                                       unsigned *fp_errors, bcast_diag *diag) {
  return execute(plan, out_data, in_data, NULL, NULL, fp_errors, diag);
}

/* Whether two tensors have the same type, shape and strides (the stride of
 * a dim of size 0 or 1 is never used, so it may differ). */
static int same_layout(const bcast_tensor *a, const bcast_tensor *b) {
  if (a->dtype != b->dtype || a->rank != b->rank) return 0;
  for (int32_t i = 0; i < a->rank; i++)
    if (a->shape[i] != b->shape[i] ||
        (a->shape[i] > 1 && a->stride_bytes[i] != b->stride_bytes[i]))
      return 0;
  return 1;
}

/* The bytes [lo, hi) a tensor's elements occupy. */
static void byte_span(const bcast_tensor *t, uintptr_t *lo, uintptr_t *hi) {
  intptr_t low = 0, high = 0;
  for (int32_t i = 0; i < t->rank; i++) {
    if (t->shape[i] == 0) {
      *lo = *hi = (uintptr_t)t->data;
      return;
    }
    const intptr_t reach = (intptr_t)((t->shape[i] - 1) * t->stride_bytes[i]);
    if (reach < 0)
      low += reach;
    else
      high += reach;
  }
  *lo = (uintptr_t)t->data + (uintptr_t)low;
  *hi = (uintptr_t)t->data + (uintptr_t)high +
        (uintptr_t)bcast_dtype_size(t->dtype);
}

/* Runs the plan on tensors laid out as planned, unless out partly
 * overlaps an input. */
static bcast_status run_laid_out(const bcast_ew_plan *plan,
                                 const bcast_tensor *inputs,
                                 const bcast_tensor *out, const ew_origin *at,
                                 unsigned *fpe, bcast_diag *diag) {
  const void *in_data[EW_MAX_INPUTS];
  uintptr_t out_lo, out_hi;
  byte_span(out, &out_lo, &out_hi);
  for (int k = 0; k < plan->arity; k++) {
    uintptr_t lo, hi;
    byte_span(&inputs[k], &lo, &hi);
    const int overlap = lo < out_hi && out_lo < hi;
    const int in_place = inputs[k].data == out->data &&
                         inputs[k].dtype == out->dtype &&
                         same_layout(&inputs[k], out);
    if (overlap && !in_place)
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "%s: the output overlaps operand #%d without "
                         "being it; in place needs the output's shape, "
                         "strides and type",
                         plan->label, k);
    in_data[k] = inputs[k].data;
  }
  return execute(plan, out->data, in_data, NULL, at, fpe, diag);
}

bcast_status bcast_ew_plan_run(const bcast_ew_plan *plan,
                               const bcast_tensor *inputs,
                               const bcast_tensor *out, bcast_diag *diag) {
  return bcast_ew_plan_run_fpe(plan, inputs, out, NULL, diag);
}

bcast_status bcast_ew_plan_run_fpe(const bcast_ew_plan *plan,
                                   const bcast_tensor *inputs,
                                   const bcast_tensor *out,
                                   unsigned *fp_errors, bcast_diag *diag) {
  const char *name = plan->label;
  if (!same_layout(out, &plan->out))
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "%s: the output's type, shape or strides differ "
                       "from the plan's",
                       name);
  for (int k = 0; k < plan->arity; k++)
    if (!same_layout(&inputs[k], &plan->in[k]))
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "%s: operand #%d's type, shape or strides "
                         "differ from the plan's",
                         name, k);
  return run_laid_out(plan, inputs, out, NULL, fp_errors, diag);
}

/* The numpy profile's conversions (bcast_op_operand_dtypes): each input
 * of another type than the op computes in is cast (numpy's CAST) into a
 * new C-contiguous tensor of its own shape, so a broadcast operand is
 * converted once at its unbroadcast size, within options->max_bytes.
 * Bit k of *converted says conv[k] holds input k converted (to release);
 * when any is set, use[] lists the tensors to run on.  *result is the
 * op's result type, checked with its attributes (bcast_ew_result_dtype):
 * when nothing is converted the plan need not check the types again. */
static int may_convert(bcast_op op, size_t n, const bcast_tensor *inputs,
                       const bcast_ew_options *options) {
  return options && options->profile == BCAST_PROFILE_NUMPY && inputs &&
         n > 0 && n <= EW_MAX_INPUTS && op != BCAST_OP_CAST;
}

static bcast_status convert_inputs(bcast_op op, const bcast_op_attrs *attrs,
                                   size_t n, const bcast_tensor *inputs,
                                   const bcast_ew_options *options,
                                   bcast_tensor *conv, bcast_tensor *use,
                                   unsigned *converted, bcast_dtype *result,
                                   bcast_diag *diag) {
  *converted = 0;
  bcast_dtype types[EW_MAX_INPUTS], want[EW_MAX_INPUTS];
  for (size_t k = 0; k < n; k++) types[k] = inputs[k].dtype;
  /* The op's own checks first: nothing is converted for a refused op. */
  bcast_status status = bcast__ew_result_dtype_in(
      op, options->profile, options->tables, n, types, attrs, result, diag);
  if (status != BCAST_OK) return status;
  status = bcast_op_operand_dtypes(op, options->profile, n, types, want, diag);
  if (status != BCAST_OK) return status;
  for (size_t k = 0; k < n; k++) {
    if (want[k] == types[k]) continue;
    if (!*converted)
      for (size_t j = 0; j < n; j++) use[j] = inputs[j];
    *converted |= 1u << k; /* conv[k] is set (maybe empty) from here on */
    bcast_op_attrs cast;
    bcast_op_attrs_init(&cast);
    cast.cast_to = &want[k];
    bcast_ew_options o;
    bcast_ew_options_init(&o);
    o.profile = BCAST_PROFILE_NUMPY;
    o.threads = options->threads;
    o.max_bytes = options->max_bytes;
    status = bcast_ew_compute(BCAST_OP_CAST, &cast, 1, &inputs[k], &conv[k],
                              &o, diag);
    if (status != BCAST_OK) {
      if (diag) diag->operand[0] = (int)k;
      return status;
    }
    use[k] = conv[k];
  }
  return BCAST_OK;
}

static void release_converted(bcast_tensor *conv, unsigned converted) {
  for (int k = 0; k < EW_MAX_INPUTS; k++)
    if (converted & (1u << k)) bcast_tensor_release(&conv[k]);
}

/* Plans and runs: a new *result when out is NULL, else into out (the
 * plan was made for exactly out's layout: only overlap is left to check).
 * checked_result as for bcast__ew_plan_init; at places a checked
 * failure's index (NULL: the output is its own). */
static bcast_status plan_and_run(bcast_op op, const bcast_op_attrs *attrs,
                                 size_t n_inputs, const bcast_tensor *inputs,
                                 bcast_tensor *result, const bcast_tensor *out,
                                 const bcast_ew_options *options,
                                 const bcast_dtype *checked_result,
                                 const ew_origin *at, bcast_diag *diag) {
  struct bcast_ew_plan plan;
  bcast_status status = bcast__ew_plan_init(
      &plan, op, attrs, n_inputs, inputs, out, options, checked_result, diag);
  if (status != BCAST_OK) return status;
  unsigned *fpe = options ? options->fp_errors : NULL;
  if (out) return run_laid_out(&plan, inputs, out, at, fpe, diag);
  /* A new output's pages are zeroed by the OS as they are first touched,
   * through the cache: ordinary stores then hit those lines, where
   * non-temporal stores would write each line twice (measured: 4096x1 +
   * 1x4096 float32 into a new output 9.0 ms non-temporal, 6.8 ms cached). */
  bcast__ew_plan_set_nt_store(&plan, EW_NT_NONE);
  status = bcast_ew_plan_alloc_output(&plan, result, diag);
  if (status != BCAST_OK) return status;
  const void *in_data[EW_MAX_INPUTS];
  for (size_t k = 0; k < n_inputs; k++) in_data[k] = inputs[k].data;
  status = execute(&plan, result->data, in_data, options, at, fpe, diag);
  if (status != BCAST_OK) bcast_tensor_release(result);
  return status;
}

/* The one-call forms: a new *result when out is NULL, else into out; under
 * the numpy profile, inputs of another type than the op computes in are
 * converted first (the type check is then done once, here). */
static bcast_status compute_one(bcast_op op, const bcast_op_attrs *attrs,
                                size_t n_inputs, const bcast_tensor *inputs,
                                bcast_tensor *result, const bcast_tensor *out,
                                const bcast_ew_options *options,
                                const ew_origin *at, bcast_diag *diag) {
  bcast_tensor conv[EW_MAX_INPUTS], use[EW_MAX_INPUTS];
  unsigned converted = 0;
  bcast_dtype type;
  const bcast_dtype *checked = NULL;
  bcast_status status = BCAST_OK;
  /* Other profiles (and per-call cost for small ops) skip the copies. */
  if (may_convert(op, n_inputs, inputs, options)) {
    status = convert_inputs(op, attrs, n_inputs, inputs, options, conv, use,
                            &converted, &type, diag);
    if (converted)
      inputs = use;
    else
      checked = &type;
  }
  if (status == BCAST_OK)
    status = plan_and_run(op, attrs, n_inputs, inputs, result, out, options,
                          checked, at, diag);
  release_converted(conv, converted);
  return status;
}

bcast_status bcast_ew_compute(bcast_op op, const bcast_op_attrs *attrs,
                              size_t n_inputs, const bcast_tensor *inputs,
                              bcast_tensor *result,
                              const bcast_ew_options *options,
                              bcast_diag *diag) {
  memset(result, 0, sizeof *result);
  return compute_one(op, attrs, n_inputs, inputs, result, NULL, options, NULL,
                     diag);
}

bcast_status bcast_ew_compute_into(bcast_op op, const bcast_op_attrs *attrs,
                                   size_t n_inputs, const bcast_tensor *inputs,
                                   const bcast_tensor *out,
                                   const bcast_ew_options *options,
                                   bcast_diag *diag) {
  return bcast__ew_compute_tile(op, attrs, n_inputs, inputs, out, options,
                                NULL, diag);
}

bcast_status bcast__ew_compute_tile(bcast_op op, const bcast_op_attrs *attrs,
                                    size_t n_inputs,
                                    const bcast_tensor *inputs,
                                    const bcast_tensor *out,
                                    const bcast_ew_options *options,
                                    const ew_origin *at, bcast_diag *diag) {
  return compute_one(op, attrs, n_inputs, inputs, NULL, out, options, at,
                     diag);
}
