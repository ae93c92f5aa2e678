/* Building an element-wise plan: types and attributes checked once, the
 * broadcast shape inferred, an engine plan built (output = operand 0,
 * inputs after it, broadcast dims with stride 0), the kernel variant picked
 * from the plan's innermost run and the kernel set from the CPU.  Also the
 * plan's accessors, its output allocation and the tests' hooks. */
#include <inttypes.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "bcast/elementwise.h"
#include "core/alloc.h"
#include "core/diag.h"
#include "ew/ew_plan.h"
#include "op/op_attrs.h"
#include "plan/nt_store.h"
#include "plan/tune.h"
#include "tensor/buffer.h"

#if EW_HAVE_AVX2
#include <cpuid.h>
#endif

/* Every default is zero (profile TOSA, max_bytes 0 meaning
 * BCAST_DEFAULT_MAX_BYTES), so that a zeroed struct means the defaults. */
void bcast_ew_options_init(bcast_ew_options *options) {
  memset(options, 0, sizeof *options);
}

/* A kernel set's probe, run once per process (state: 0 not yet, 1 yes,
 * 2 no).  BCAST_ISA, read by the probes, holds sets back: "portable"
 * forces the baseline kernels everywhere (the tests run the whole suite
 * that way too), "v3" keeps the v3 set where the native float16 one
 * could be taken (so that the tests can compare the two). */
static int isa_once(atomic_int *state, int (*probe)(void)) {
  int s = atomic_load_explicit(state, memory_order_relaxed);
  if (s == 0) {
    s = probe() ? 1 : 2;
    atomic_store_explicit(state, s, memory_order_relaxed);
  }
  return s == 1;
}

static int isa_is(const char *name) {
  const char *isa = getenv("BCAST_ISA");
  return isa && strcmp(isa, name) == 0;
}

/* The v3 kernel set (AVX2 and F16C, see ew_kernel.h): the CPU and the OS
 * have both. */
static int v3_probe(void) {
#if EW_HAVE_AVX2
  /* F16C from CPUID itself: clang's __builtin_cpu_supports does not know
   * "f16c"; AVX2's check covers the OS saving the AVX state. */
  unsigned eax, ebx, ecx, edx;
  return !isa_is("portable") && __builtin_cpu_supports("avx2") &&
         __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_F16C);
#else
  return 0;
#endif
}

/* The native float16 set (AVX512-FP16, see ew_k_fp16.c), for the rows
 * that have one: the v3 set may be taken, and the CPU and the OS have
 * AVX-512 (F, BW, VL: GCC's checks include the OS saving the registers)
 * and AVX512-FP16. */
static int fp16_probe(void) {
#if EW_HAVE_FP16
  unsigned eax, ebx, ecx, edx;
  return bcast__ew_use_v3() && !isa_is("v3") &&
         __builtin_cpu_supports("avx512f") &&
         __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vl") &&
         __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) &&
         (edx & (1u << 23)); /* AVX512-FP16 */
#else
  return 0;
#endif
}

/* The AVX-512 set (ew_k_v4.c), for the rows that have one: the v3 set
 * may be taken, and the CPU and the OS have AVX-512 F, BW, DQ and VL. */
static int v4_probe(void) {
#if EW_HAVE_V4
  return bcast__ew_use_v3() && !isa_is("v3") &&
         __builtin_cpu_supports("avx512f") &&
         __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512dq") &&
         __builtin_cpu_supports("avx512vl");
#else
  return 0;
#endif
}

int bcast__ew_use_v3(void) {
  static atomic_int state;
  return isa_once(&state, v3_probe);
}

int bcast__ew_use_fp16(void) {
  static atomic_int state;
  return isa_once(&state, fp16_probe);
}

int bcast__ew_use_v4(void) {
  static atomic_int state;
  return isa_once(&state, v4_probe);
}

const char *bcast__ew_kernel_sets(void) {
  return bcast__ew_use_fp16()
             ? "native float16 (AVX512-FP16) for float16 arithmetic, "
               "AVX-512 for float32 and float64 arithmetic, else v3 (AVX2 + "
               "F16C)"
         : bcast__ew_use_v4() ? "AVX-512 for float32 and float64 arithmetic, "
                                "else v3 (AVX2 + F16C)"
         : bcast__ew_use_v3() ? "v3 (AVX2 + F16C)"
                              : "portable";
}

/* The row's kernels beyond v3 where the plan may take them: the native
 * float16 set's, else the AVX-512 set's. */
static const ew_native_row *native_set(const ew_row *row) {
  const ew_native_row *h =
      bcast__ew_use_fp16() ? bcast__ew_find_fp16(row) : NULL;
  return h ? h : bcast__ew_use_v4() ? bcast__ew_find_v4(row) : NULL;
}

/* The row's kernels compiled for this CPU: a set beyond v3 where the row
 * has one and it is allowed, the v3 set where allowed (measured: 64x64 +
 * 64 float32 add 0.63 -> 0.22 us; 32x4096 float16 add in cache 0.76 ->
 * 0.13 ns per element), else the baseline set. */
static const bcast_rows_kernel_fn *kernel_set(const ew_row *row) {
  const ew_native_row *h = native_set(row);
  if (h) return h->kernels;
  return bcast__ew_use_v3() ? row->kernels_avx2 : row->kernels;
}

/* Whether a cast row's non-temporal kernels build their lines in memory
 * element by element, where reading a line back for the streaming store
 * waits for the stores (no store-to-load forwarding): a one-byte type
 * widened to an eight-byte one, a float to int64 and int64 to float64
 * (scalar conversions in AVX2).  Measured on Zen 4, 64 MiB outputs, one
 * thread, through the kernels and through the wrapper: int8 -> float64
 * 9.6 and 30 GB/s, int64 -> float64 18 and 32, float32 -> int64 10 and 16
 * (int64 -> float32 is the other way round, 22 and 14).  These take the
 * wrapper. */
static int cast_lines_stall(const ew_row *row) {
  const size_t in = bcast_dtype_size(row->in), out = bcast_dtype_size(row->out);
  const int in_float = bcast_dtype_kind_of(row->in) == BCAST_KIND_FLOAT;
  const int out_float = bcast_dtype_kind_of(row->out) == BCAST_KIND_FLOAT;
  return row->op == BCAST_OP_CAST &&
         ((in == 1 && out == 8) || (in_float && !out_float && out == 8) ||
          (!in_float && in == 8 && out_float && out == 8));
}

/* The row's non-temporal kernels where the plan may take them (the
 * native float16 set's, else the v3 set's, also for the rows of the
 * AVX-512 set, which has none; but for the casts above), else NULL. */
static const bcast_rows_kernel_fn *nt_kernel_set(const ew_row *row) {
  const ew_native_row *h = native_set(row);
  if (h && h->kernels_nt) return h->kernels_nt;
  return bcast__ew_use_v3() && !cast_lines_stall(row) ? row->kernels_nt
                                                      : NULL;
}

/* Picks the kernel variant from the engine plan's innermost run. */
static int pick_variant(const bcast_plan *engine, int arity) {
  if (!(engine->contiguous_mask & 1u)) return 0;
  int mask = 0;
  for (int k = 1; k <= arity; k++) {
    const uint32_t bit = 1u << k;
    if (engine->contiguous_mask & bit)
      mask |= 1 << (k - 1);
    else if (!(engine->broadcast_mask & bit))
      return 0;
  }
  return 1 + mask;
}

/* The op's result type for these input types and attributes, and that
 * the op computes in the inputs' own types: inputs the numpy profile
 * converts (mixed types, integers into a float op) are converted by the
 * one-call forms; a plan runs its kernel on the inputs' own types. */
static bcast_status check_types(bcast_op op, const bcast_ew_options *options,
                                size_t n, const bcast_dtype *in_types,
                                const bcast_op_attrs *attrs,
                                bcast_dtype *result, bcast_diag *diag) {
  const bcast_profile profile = options->profile;
  bcast_status status = bcast__ew_result_dtype_in(
      op, profile, options->tables, n, in_types, attrs, result, diag);
  if (status != BCAST_OK) return status;
  bcast_dtype conv[EW_MAX_INPUTS];
  status = bcast_op_operand_dtypes(op, profile, n, in_types, conv, diag);
  if (status != BCAST_OK) return status;
  for (size_t k = 0; k < n; k++)
    if (conv[k] != in_types[k])
      return bcast__fail(diag, BCAST_TYPE,
                         "%s: operand #%zu is %s but the op computes in "
                         "%s; a plan runs on the types it computes in "
                         "(bcast_ew_compute and bcast_ew_compute_into "
                         "convert)",
                         bcast_op_label(op, profile), k,
                         bcast_dtype_name(in_types[k]),
                         bcast_dtype_name(conv[k]));
  return BCAST_OK;
}

/* NumPy's order of kinds for its 'same_kind' casts: a value casts to a
 * type of its own kind or of a later one (bool, unsigned, signed, float). */
static int same_kind_rank(bcast_dtype dtype) {
  switch (bcast_dtype_kind_of(dtype)) {
  case BCAST_KIND_BOOL:
    return 0;
  case BCAST_KIND_UNSIGNED:
    return 1;
  case BCAST_KIND_SIGNED:
    return 2;
  default:
    return 3;
  }
}

/* The caller's output against the broadcast shape and the result type:
 * both exactly (bcast neither broadcasts nor casts into an output).  The
 * numpy profile words each refusal as NumPy 1.24 does where NumPy refuses
 * too, and says what NumPy would do where it would not. */
static bcast_status check_out(const char *name, bcast_profile profile,
                              size_t n, const bcast_tensor *inputs,
                              const bcast_shape *shape,
                              const bcast_tensor *out, bcast_dtype result,
                              bcast_diag *diag) {
  const int32_t rank = out->rank < 0                ? 0
                       : out->rank > BCAST_MAX_RANK ? BCAST_MAX_RANK
                                                    : out->rank;
  int same = out->rank == shape->rank;
  for (int32_t i = 0; same && i < shape->rank; i++)
    same = out->shape[i] == shape->dims[i];
  const int numpy = profile == BCAST_PROFILE_NUMPY;
  if (!same && numpy) {
    char have[BCAST_DIAG_TEXT_MAX / 2], want[BCAST_DIAG_TEXT_MAX / 2];
    size_t have_len = 0, want_len = 0;
    bcast__ew_append_numpy_shape(have, sizeof have, &have_len, rank,
                                 out->shape);
    bcast_shape pair[2] = {*shape, {.rank = rank}}, joint;
    for (int32_t i = 0; i < rank; i++) pair[1].dims[i] = out->shape[i];
    if (bcast_shape_infer(2, pair, BCAST_PROFILE_NUMPY, &joint, NULL) !=
        BCAST_OK) {
      bcast__fail(diag, BCAST_RESULT_MISMATCH, "output shape mismatch");
      if (diag) bcast__ew_numpy_mismatch(n, inputs, out, diag);
      return BCAST_RESULT_MISMATCH;
    }
    int joint_is_out = joint.rank == rank;
    for (int32_t i = 0; joint_is_out && i < rank; i++)
      joint_is_out = joint.dims[i] == out->shape[i];
    const bcast_shape *named = joint_is_out ? shape : &joint;
    bcast__ew_append_numpy_shape(want, sizeof want, &want_len, named->rank,
                                 named->dims);
    if (joint_is_out)
      return bcast__fail(diag, BCAST_RESULT_MISMATCH,
                         "output operand with shape %s is not the inputs' "
                         "broadcast shape %s: bcast writes outputs of "
                         "exactly that shape (NumPy broadcasts the inputs "
                         "to the output's)",
                         have, want);
    return bcast__fail(diag, BCAST_RESULT_MISMATCH,
                       "non-broadcastable output operand with shape %s "
                       "doesn't match the broadcast shape %s",
                       have, want);
  }
  if (!same) {
    char want[1024], have[1024];
    bcast_shape_format(shape, BCAST_SHAPE_STYLE_LIST, want, sizeof want);
    bcast_shape_format_dims(rank, out->shape, BCAST_SHAPE_STYLE_LIST, have,
                            sizeof have);
    return bcast__fail(diag, BCAST_RESULT_MISMATCH,
                       "%s: the output has shape %s; it must be the "
                       "broadcast shape %s exactly",
                       name, have, want);
  }
  if (out->dtype == result) return BCAST_OK;
  const char *from = bcast_dtype_name(result);
  const char *to = bcast_dtype_name(out->dtype);
  if (numpy && same_kind_rank(result) > same_kind_rank(out->dtype))
    return bcast__fail(diag, BCAST_TYPE,
                       "Cannot cast ufunc '%s' output from dtype('%s') to "
                       "dtype('%s') with casting rule 'same_kind'",
                       name, from, to);
  if (numpy)
    return bcast__fail(diag, BCAST_TYPE,
                       "ufunc '%s' output is dtype('%s'), not the result's "
                       "dtype('%s'): bcast does not cast outputs (NumPy "
                       "casts with casting rule 'same_kind')",
                       name, to, from);
  return bcast__fail(diag, BCAST_TYPE,
                     "%s: the output is %s; the result type is %s", name, to,
                     from);
}

/* The kernels' parameters from attributes bcast_ew_result_dtype accepted
 * for data type data, so the bounds convert without failing. */
static void params_from_attrs(ew_params *p, const bcast_op_attrs *a,
                              bcast_dtype data, bcast_profile profile) {
  memset(p, 0, sizeof *p);
  p->shift = a->shift;
  p->round = a->round != 0;
  p->nan_ignore = a->nan_mode == BCAST_NAN_IGNORE;
  p->in_zp = (int32_t)a->input_zp;
  p->out_zp = (int32_t)a->output_zp;
  bcast__clamp_bounds bounds;
  bcast__op_clamp_bounds(a, data, &bounds, NULL);
  p->lo_i = bounds.lo_i;
  p->hi_i = bounds.hi_i;
  p->lo_u = bounds.lo_u;
  p->hi_u = bounds.hi_u;
  if (profile != BCAST_PROFILE_NUMPY &&
      bcast_dtype_kind_of(data) == BCAST_KIND_UNSIGNED) {
    const unsigned bits = (unsigned)bcast_dtype_size(data) * 8;
    p->lo_u = bcast__op_clamp_bound_mlir_unsigned(p->lo_u, bits);
    p->hi_u = bcast__op_clamp_bound_mlir_unsigned(p->hi_u, bits);
  }
  p->lo_f = bounds.lo_f;
  p->hi_f = bounds.hi_f;
}

/* Outputs up to this size run on one thread whatever the plan's thread
 * count: well below the engine's own threshold (PLAN_PARALLEL_MIN_BYTES,
 * 512 KB, in src/plan/plan.c), so execute may call the kernel directly. */
#define EW_DIRECT_MAX_BYTES ((int64_t)32 << 10)

/* Whether execute may call the kernel once itself (see bcast_ew_plan's
 * direct), and the steps it passes. */
static void plan_direct(struct bcast_ew_plan *plan) {
  const bcast_plan *e = &plan->engine;
  int64_t bytes;
  const int one_thread =
      plan->threads == 1 ||
      (!__builtin_mul_overflow(e->elem_count, e->elem_bytes[0], &bytes) &&
       bytes <= EW_DIRECT_MAX_BYTES);
  plan->direct = one_thread && e->ndim <= 2 && e->elem_count > 0;
  const int inner = e->ndim - 1;
  for (int k = 0; k < e->n_operands; k++) {
    plan->step[k] = e->stride_bytes[k][inner];
    plan->row_step[k] = inner > 0 ? e->stride_bytes[k][inner - 1] : 0;
  }
}

/* Fills *plan (caller storage).  out == NULL plans a new C-contiguous
 * output. */
bcast_status bcast__ew_plan_init(struct bcast_ew_plan *plan, bcast_op op,
                                 const bcast_op_attrs *attrs, size_t n_inputs,
                                 const bcast_tensor *inputs,
                                 const bcast_tensor *out,
                                 const bcast_ew_options *options,
                                 const bcast_dtype *checked_result,
                                 bcast_diag *diag) {
  bcast_ew_options defaults;
  if (!options) {
    bcast_ew_options_init(&defaults);
    options = &defaults;
  }
  bcast_op_attrs attr_defaults;
  if (!attrs) {
    bcast_op_attrs_init(&attr_defaults);
    attrs = &attr_defaults;
  }
  if ((unsigned)op >= BCAST_OP_COUNT)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT, "unknown op %d", (int)op);
  if (!inputs && n_inputs)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT, "inputs is NULL");
  const bcast_profile profile = options->profile;
  const char *name = bcast_op_label(op, profile);
  if ((unsigned)options->tables >= BCAST_TYPE_TABLES_COUNT)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "%s: unknown type tables %d", name,
                       (int)options->tables);

  /* Types and attributes. */
  bcast_dtype in_types[EW_MAX_INPUTS] = {BCAST_BOOL, BCAST_BOOL, BCAST_BOOL};
  for (size_t k = 0; k < n_inputs && k < EW_MAX_INPUTS; k++)
    in_types[k] = inputs[k].dtype;
  bcast_op_attrs cast_attrs;
  bcast_status status = bcast__ew_check_declared_dtypes(
      options, op, n_inputs, inputs, &attrs, &cast_attrs, diag);
  if (status != BCAST_OK) return status;
  bcast_dtype result;
  if (checked_result)
    result = *checked_result;
  else
    status =
        check_types(op, options, n_inputs, in_types, attrs, &result, diag);
  if (status != BCAST_OK) return status;
  if (options->declared_result_dtype &&
      *options->declared_result_dtype != result)
    return bcast__fail(diag, BCAST_TYPE,
                       "%s gives %s here, but the signature declares a "
                       "%s result",
                       name, bcast_dtype_name(result),
                       bcast_dtype_name(*options->declared_result_dtype));
  const int arity = (int)n_inputs;
  const bcast_dtype data = in_types[op == BCAST_OP_SELECT ? 1 : 0];
  bcast_dtype kernel_in = data, kernel_out = result;
  if (op == BCAST_OP_CAST && profile != BCAST_PROFILE_NUMPY)
    bcast__op_mlir_cast_kernel(&kernel_in, &kernel_out);
  /* A shifted uint32 product is MLIR's on the int32 view (tosa.apply_scale
   * of the signless tensor): the int32 kernel on the same bits. */
  if (op == BCAST_OP_MUL && attrs->shift != 0 && profile != BCAST_PROFILE_NUMPY)
    kernel_in = kernel_out = bcast__op_signless(data);
  const ew_row *row = bcast__ew_find(
      op, profile == BCAST_PROFILE_NUMPY ? EW_FLAVOUR_ANY : EW_FLAVOUR_TOSA,
      kernel_in, kernel_out);
  if (!row)
    return bcast__fail(diag, BCAST_UNSUPPORTED, "%s: no kernel for %s -> %s",
                       name, bcast_dtype_name(data), bcast_dtype_name(result));

  /* Shapes. */
  bcast_shape shape;
  status =
      bcast__ew_infer_shape(name, profile, n_inputs, inputs, &shape, diag);
  if (status != BCAST_OK) return status;

  plan->op = op;
  plan->label = name;
  plan->arity = arity;
  plan->checked = options->checked != 0;
  plan->threads = options->threads;
  plan->max_bytes =
      options->max_bytes ? options->max_bytes : BCAST_DEFAULT_MAX_BYTES;
  plan->row = row;
  params_from_attrs(&plan->params, attrs, data, profile);
  for (int k = 0; k < arity; k++)
    bcast__ew_copy_layout(&plan->in[k], &inputs[k]);

  const int64_t elem = (int64_t)bcast_dtype_size(result);
  if (out) {
    status =
        check_out(name, profile, n_inputs, inputs, &shape, out, result, diag);
    if (status != BCAST_OK) return status;
    bcast__ew_copy_layout(&plan->out, out);
  } else {
    plan->out.dtype = result;
    plan->out.rank = shape.rank;
    plan->out.data = NULL;
    plan->out.owner = NULL;
    int64_t step = elem;
    for (int32_t i = shape.rank - 1; i >= 0; i--) {
      plan->out.shape[i] = shape.dims[i];
      plan->out.stride_bytes[i] = step;
      if (shape.dims[i] > 1 &&
          __builtin_mul_overflow(step, shape.dims[i], &step))
        return bcast__fail(diag, BCAST_OVERFLOW,
                           "%s: the output's size overflows 64 bits", name);
    }
  }
  plan->out_c_order = bcast_tensor_is_contiguous(&plan->out);

  status = bcast__ew_check_declared(options, name, n_inputs, inputs,
                                    &plan->out, diag);
  if (status != BCAST_OK) return status;

  /* The engine plan: output first. */
  int32_t ranks[EW_MAX_INPUTS + 1];
  const int64_t *shapes[EW_MAX_INPUTS + 1], *strides[EW_MAX_INPUTS + 1];
  int64_t elem_bytes[EW_MAX_INPUTS + 1];
  ranks[0] = plan->out.rank;
  shapes[0] = plan->out.shape;
  strides[0] = plan->out.stride_bytes;
  elem_bytes[0] = elem;
  for (int k = 0; k < arity; k++) {
    ranks[k + 1] = plan->in[k].rank;
    shapes[k + 1] = plan->in[k].shape;
    strides[k + 1] = plan->in[k].stride_bytes;
    elem_bytes[k + 1] = (int64_t)bcast_dtype_size(plan->in[k].dtype);
  }
  status =
      bcast_plan_build(&plan->engine, plan->out.rank, plan->out.shape,
                       arity + 1, ranks, shapes, strides, elem_bytes, diag);
  if (status != BCAST_OK) return status;
  plan->variant = pick_variant(&plan->engine, arity);
  plan->kernels = kernel_set(row);
  plan->kernels_nt = nt_kernel_set(row);
  plan->nt_store = bcast__ew_want_nt_store(&plan->engine, plan->variant, elem,
                                           plan->kernels_nt, &plan->nt_lines);
  plan->kernel = plan->nt_store == EW_NT_KERNEL
                     ? plan->kernels_nt[plan->variant]
                     : plan->kernels[plan->variant];
  plan->racing = plan->nt_store != EW_NT_NONE &&
                 bcast__fill_kind(&plan->engine) == BCAST_ROW_FILL &&
                 bcast__tuned_store_race();
  bcast__store_race_init(&plan->race);
  plan_direct(plan);
  return BCAST_OK;
}

bcast_status bcast_ew_plan_create(bcast_ew_plan **plan, bcast_op op,
                                  const bcast_op_attrs *attrs, size_t n_inputs,
                                  const bcast_tensor *inputs,
                                  const bcast_tensor *out,
                                  const bcast_ew_options *options,
                                  bcast_diag *diag) {
  *plan = NULL;
  struct bcast_ew_plan *p = bcast__malloc(sizeof *p);
  if (!p)
    return bcast__fail(diag, BCAST_NO_MEMORY, "out of memory for a plan");
  bcast_status status = bcast__ew_plan_init(p, op, attrs, n_inputs, inputs,
                                            out, options, NULL, diag);
  if (status != BCAST_OK) {
    bcast__free(p);
    return status;
  }
  *plan = p;
  return BCAST_OK;
}

void bcast_ew_plan_destroy(bcast_ew_plan *plan) { bcast__free(plan); }

const bcast_tensor *bcast_ew_plan_output(const bcast_ew_plan *plan) {
  return &plan->out;
}

int bcast__ew_plan_variant(const bcast_ew_plan *plan) { return plan->variant; }
const ew_row *bcast__ew_plan_row(const bcast_ew_plan *plan) {
  return plan->row;
}
void bcast__ew_plan_force_strided(bcast_ew_plan *plan) {
  plan->variant = 0;
  plan->kernels = plan->row->kernels;
  plan->kernels_nt = NULL;
  plan->kernel = plan->kernels[0];
  plan->nt_store = EW_NT_NONE;
}

/* The portable set has no non-temporal kernels: such a plan goes through
 * the wrapper. */
void bcast__ew_plan_force_portable(bcast_ew_plan *plan) {
  plan->kernels = plan->row->kernels;
  plan->kernels_nt = NULL;
  plan->kernel = plan->kernels[plan->variant];
  if (plan->nt_store == EW_NT_KERNEL) plan->nt_store = EW_NT_WRAPPER;
}

void bcast__ew_plan_force_v3(bcast_ew_plan *plan) {
  if (!bcast__ew_use_v3()) return;
  const int nt = plan->nt_store == EW_NT_KERNEL;
  plan->kernels = plan->row->kernels_avx2;
  plan->kernels_nt =
      cast_lines_stall(plan->row) ? NULL : plan->row->kernels_nt;
  plan->kernel = nt && plan->kernels_nt ? plan->kernels_nt[plan->variant]
                                        : plan->kernels[plan->variant];
  if (nt && !plan->kernels_nt) plan->nt_store = EW_NT_WRAPPER;
}

int bcast__ew_plan_uses_avx2(const bcast_ew_plan *plan) {
  return plan->kernels != plan->row->kernels;
}

int bcast__ew_plan_uses_fp16(const bcast_ew_plan *plan) {
  const ew_native_row *h = bcast__ew_find_fp16(plan->row);
  return h && plan->kernels == h->kernels;
}

int bcast__ew_plan_uses_v4(const bcast_ew_plan *plan) {
  const ew_native_row *h = bcast__ew_find_v4(plan->row);
  return h && plan->kernels == h->kernels;
}

int bcast__ew_plan_set_nt_store(bcast_ew_plan *plan, int how) {
  if (plan->variant == 0) return 0;
  if (how == EW_NT_KERNEL) {
    if (!plan->kernels_nt) return 0;
    plan->kernel = plan->kernels_nt[plan->variant];
  } else if (plan->nt_store == EW_NT_KERNEL) {
    plan->kernel = plan->kernels[plan->variant];
  }
  plan->nt_store = how;
  plan->nt_lines = 0;
  plan->racing = 0;
  return 1;
}

int bcast__ew_plan_nt_stores(const bcast_ew_plan *plan) {
  return plan->nt_store;
}

int bcast__ew_plan_direct(const bcast_ew_plan *plan) {
  return plan->direct && !plan->nt_store;
}

/* A large new output is written once, front to back: from this size on it
 * is worth asking for transparent huge pages (bcast__advise_huge_pages). */
#define EW_HUGE_PAGES_MIN_BYTES ((int64_t)(4 * BCAST__HUGE_PAGE_BYTES))

bcast_status bcast_ew_plan_alloc_output(const bcast_ew_plan *plan,
                                        bcast_tensor *out, bcast_diag *diag) {
  memset(out, 0, sizeof *out);
  if (!plan->out_c_order)
    return bcast__fail(diag, BCAST_UNSUPPORTED,
                       "the plan writes a strided output; allocate it as "
                       "planned");
  int64_t count, bytes;
  bcast_status status = bcast_tensor_elem_count(&plan->out, &count, diag);
  if (status != BCAST_OK) return status;
  if (__builtin_mul_overflow(count, (int64_t)bcast_dtype_size(plan->out.dtype),
                             &bytes))
    return bcast__fail(diag, BCAST_OVERFLOW,
                       "the output's size overflows 64 bits");
  if (bytes > plan->max_bytes)
    return bcast__fail(
        diag, BCAST_BUDGET,
        "the %s output needs %" PRId64 " bytes, over the budget of %" PRId64,
        bcast_dtype_name(plan->out.dtype), bytes, plan->max_bytes);
  bcast_buffer *buffer;
  status = bcast__buffer_alloc_uninit((size_t)bytes, &buffer, diag);
  if (status != BCAST_OK) return status;
  bcast__ew_copy_layout(out, &plan->out);
  out->owner = buffer;
  out->data = bcast__buffer_data(buffer);
  if (bytes >= EW_HUGE_PAGES_MIN_BYTES)
    bcast__advise_huge_pages(out->data, (size_t)bytes);
  return BCAST_OK;
}
