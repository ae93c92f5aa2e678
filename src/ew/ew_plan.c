/* Element-wise plans: types and attributes checked once, the broadcast
 * shape inferred, an engine plan built (output = operand 0, inputs after
 * it, broadcast dims with stride 0), and the kernel variant picked from the
 * plan's innermost run.  Executing binds buffers and runs the engine.
 *
 * Checked mode walks the output in C order before anything is written and
 * stops at the first element whose result TOSA leaves unpredictable. */
#define _DEFAULT_SOURCE /* madvise's MADV_HUGEPAGE */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <sys/mman.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/diag.h"
#include "bcast/elementwise.h"
#include "ew/ew_attrs.h"
#include "ew/ew_plan.h"
#include "tensor/buffer.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define EW_MAX_INPUTS 3

struct bcast_ew_plan {
  bcast_op op;
  int arity;
  int variant;
  int checked;
  int threads;
  int out_c_order; /* the output layout is C-contiguous */
  int64_t max_bytes;
  const ew_row *row;
  bcast_kernel2_fn kernel;
  int stream; /* large outputs: non-temporal stores (see ew_stream_kernel) */
  ew_params params;
  bcast_tensor out;                 /* layout only: data NULL */
  bcast_tensor in[EW_MAX_INPUTS];   /* layout only */
  bcast_plan engine;
};

/* ------------------------------------------------------------------------ */
/* The kernel tables of the four kernel files. */

const ew_row *bcast__ew_find(bcast_op op, int flavour, bcast_dtype in,
                             bcast_dtype out) {
  if ((unsigned)op >= BCAST_OP_COUNT || (unsigned)in >= BCAST_DTYPE_COUNT ||
      (unsigned)out >= BCAST_DTYPE_COUNT)
    return NULL;
  if (op == BCAST_OP_CAST) return bcast__ew_find_cast(op, flavour, in, out);
  if (op == BCAST_OP_SELECT) return bcast__ew_find_select(op, flavour, in, out);
  if (bcast_ew_arity(op) == 1)
    return bcast__ew_find_unary(op, flavour, in, out);
  return bcast__ew_find_binary(op, flavour, in, out);
}

size_t bcast__ew_row_count(void) {
  return bcast__ew_count_unary() + bcast__ew_count_cast() +
         bcast__ew_count_binary() + bcast__ew_count_select();
}

const ew_row *bcast__ew_row_at(size_t i) {
  if (i < bcast__ew_count_unary()) return bcast__ew_at_unary(i);
  i -= bcast__ew_count_unary();
  if (i < bcast__ew_count_cast()) return bcast__ew_at_cast(i);
  i -= bcast__ew_count_cast();
  if (i < bcast__ew_count_binary()) return bcast__ew_at_binary(i);
  i -= bcast__ew_count_binary();
  if (i < bcast__ew_count_select()) return bcast__ew_at_select(i);
  return NULL;
}

/* ------------------------------------------------------------------------ */
/* Options and parameters. */

void bcast_ew_options_init(bcast_ew_options *options) {
  memset(options, 0, sizeof *options);
  options->profile = BCAST_PROFILE_TOSA;
  options->max_bytes = BCAST_DEFAULT_MAX_BYTES;
}

/* The kernels' parameters.  The attributes were checked by
 * bcast_ew_result_dtype, so the bounds convert without failing. */
static void params_from_attrs(ew_params *p, const bcast_op_attrs *a,
                              bcast_dtype data) {
  memset(p, 0, sizeof *p);
  p->shift = a->shift;
  p->round = a->round != 0;
  p->nan_ignore = a->nan_mode == BCAST_NAN_IGNORE;
  p->in_zp = (int32_t)a->input_zp;
  p->out_zp = (int32_t)a->output_zp;
  ew_bounds bounds;
  bcast__ew_clamp_bounds(a, data, &bounds, NULL);
  p->lo_i = bounds.lo_i;
  p->hi_i = bounds.hi_i;
  p->lo_u = bounds.lo_u;
  p->hi_u = bounds.hi_u;
  p->lo_f = bounds.lo_f;
  p->hi_f = bounds.hi_f;
}

/* ------------------------------------------------------------------------ */
/* Building. */

static void copy_layout(bcast_tensor *dst, const bcast_tensor *src) {
  dst->dtype = src->dtype;
  dst->rank = src->rank;
  for (int32_t i = 0; i < src->rank; i++) {
    dst->shape[i] = src->shape[i];
    dst->stride_bytes[i] = src->stride_bytes[i];
  }
  dst->data = NULL;
  dst->owner = NULL;
}

/* Puts "<a><b>: " before a diagnostic's message (truncating its end). */
static void prefix_message(bcast_diag *diag, const char *a, const char *b) {
  char msg[BCAST_DIAG_TEXT_MAX];
  size_t len = 0;
  msg[0] = '\0';
  bcast__append(msg, sizeof msg, &len, "%s%s: %s", a, b, diag->message);
  memcpy(diag->message, msg, sizeof msg);
}

/* The broadcast shape of the inputs under the profile. */
static bcast_status infer_shape(const char *name, bcast_profile profile,
                                size_t n, const bcast_tensor *inputs,
                                bcast_shape *out, bcast_diag *diag) {
  bcast_shape shapes[EW_MAX_INPUTS];
  for (size_t k = 0; k < n; k++) {
    if (inputs[k].rank < 0 || inputs[k].rank > BCAST_MAX_RANK)
      return bcast__fail(diag, BCAST_RANK_LIMIT,
                         "tosa.%s: operand #%zu has rank %d, outside 0..%d",
                         name, k, (int)inputs[k].rank, BCAST_MAX_RANK);
    shapes[k].rank = inputs[k].rank;
    for (int32_t i = 0; i < inputs[k].rank; i++) {
      const int64_t d = inputs[k].shape[i];
      if (d < 0)
        return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                           "tosa.%s: operand #%zu dim %d has size %" PRId64,
                           name, k, (int)i, d);
      if (d == 0 && profile != BCAST_PROFILE_NUMPY) {
        bcast__fail(diag, BCAST_INCOMPATIBLE,
                    "tosa.%s: operand #%zu dim %d has size 0; TOSA tensors "
                    "have no empty dims (the numpy profile allows them)",
                    name, k, (int)i);
        bcast__locate(diag, (int)k, (int)i, 0, BCAST_DIAG_NONE,
                      BCAST_DIAG_NONE, 0, BCAST_DIAG_NONE);
        return BCAST_INCOMPATIBLE;
      }
      shapes[k].dims[i] = d;
    }
  }
  if (profile == BCAST_PROFILE_TOSA)
    for (size_t k = 1; k < n; k++)
      if (shapes[k].rank != shapes[0].rank) {
        bcast__fail(diag, BCAST_RANK_MISMATCH,
                    "tosa.%s: operands don't have matching ranks (operand #0 "
                    "has rank %d, operand #%zu rank %d); the trait and numpy "
                    "profiles expand ranks",
                    name, (int)shapes[0].rank, k, (int)shapes[k].rank);
        bcast__locate(diag, 0, BCAST_DIAG_NONE, shapes[0].rank, (int)k,
                      BCAST_DIAG_NONE, shapes[k].rank, BCAST_DIAG_NONE);
        bcast__mlir_message(diag, 1, "operands don't have matching ranks");
        return BCAST_RANK_MISMATCH;
      }
  const bcast_profile infer = profile == BCAST_PROFILE_NUMPY
                                  ? BCAST_PROFILE_NUMPY
                                  : BCAST_PROFILE_TRAIT;
  bcast_status status = bcast_shape_infer(n, shapes, infer, out, diag);
  if (status != BCAST_OK && diag) {
    prefix_message(diag, "tosa.", name);
  }
  return status;
}

/* The declared element types, if any, against the inputs' types.  CAST
 * without a target takes the declared result type: *attrs then points at
 * *storage, a copy with cast_to set. */
static bcast_status check_declared_dtypes(const bcast_ew_options *o,
                                          bcast_op op, size_t n,
                                          const bcast_tensor *inputs,
                                          const bcast_op_attrs **attrs,
                                          bcast_op_attrs *storage,
                                          bcast_diag *diag) {
  const char *name = bcast_op_get(op)->name;
  for (size_t k = 0; o->declared_dtypes && k < n; k++)
    if (inputs[k].dtype != o->declared_dtypes[k]) {
      bcast__fail(diag, BCAST_TYPE,
                  "tosa.%s: operand #%zu is %s, but the signature declares "
                  "%s",
                  name, k, bcast_dtype_name(inputs[k].dtype),
                  bcast_dtype_name(o->declared_dtypes[k]));
      bcast__locate(diag, (int)k, BCAST_DIAG_NONE, 0, BCAST_DIAG_NONE,
                    BCAST_DIAG_NONE, 0, BCAST_DIAG_NONE);
      return BCAST_TYPE;
    }
  if (op == BCAST_OP_CAST && o->declared_result_dtype &&
      (unsigned)(*attrs)->cast_to >= BCAST_DTYPE_COUNT) {
    *storage = **attrs;
    storage->cast_to = *o->declared_result_dtype;
    *attrs = storage;
  }
  return BCAST_OK;
}

/* The declared signature, if any, against the bound layouts: the inputs
 * through bcast_bind_check ('?', named dims, the broadcast rule on run-time
 * sizes), the result's rank and static sizes against the broadcast
 * shape. */
static bcast_status check_declared(const bcast_ew_options *o, const char *name,
                                   size_t n, const bcast_tensor *inputs,
                                   const bcast_tensor *out, bcast_diag *diag) {
  if (o->declared) {
    bcast_tensor bound[EW_MAX_INPUTS];
    for (size_t k = 0; k < n; k++) copy_layout(&bound[k], &inputs[k]);
    bcast_status status = bcast_bind_check(n, o->declared, bound, diag);
    if (status != BCAST_OK) {
      if (diag) prefix_message(diag, "tosa.", name);
      return status;
    }
  }
  const bcast_shape *r = o->declared_result;
  if (!r || r->rank == BCAST_RANK_UNRANKED) return BCAST_OK;
  if (r->rank != out->rank)
    return bcast__fail(diag, BCAST_RUNTIME_SHAPE,
                       "tosa.%s: the result is declared with rank %d but the "
                       "broadcast shape has rank %d",
                       name, (int)r->rank, (int)out->rank);
  for (int32_t i = 0; i < r->rank; i++)
    if (r->dims[i] >= 0 && r->dims[i] != out->shape[i]) {
      bcast__fail(diag, BCAST_RUNTIME_SHAPE,
                  "tosa.%s: result dim %d is declared as %" PRId64
                  " but the inputs broadcast to %" PRId64 " there",
                  name, (int)i, r->dims[i], out->shape[i]);
      bcast__locate(diag, BCAST_DIAG_RESULT, (int)i, r->dims[i],
                    BCAST_DIAG_NONE, BCAST_DIAG_NONE, out->shape[i], (int)i);
      return BCAST_RUNTIME_SHAPE;
    }
  return BCAST_OK;
}

/* ------------------------------------------------------------------------ */
/* Non-temporal stores.  An output larger than the last-level cache that
 * was written before (a warm out= buffer) costs a read for ownership of
 * every line on top of the write; streaming stores skip it (the bench
 * measures fill at 18 GB/s with ordinary stores and 27 GB/s with streaming
 * ones here).  The kernels are generated C loops and gcc has no
 * non-temporal store builtin, so the wrapper below lets the kernel write a
 * block of at most EW_STREAM_BLOCK bytes into an aligned buffer on the
 * stack (it stays in L1) and streams that block to the output.  Streaming
 * stores are left unfenced: the engine fences once per thread. */

#if defined(__SSE2__)
#define EW_HAVE_STREAM 1
#else
#define EW_HAVE_STREAM 0
#endif

/* Outputs at least this large stream (as copy.c's COPY_STREAM_MIN_BYTES:
 * the last-level cache here is 32 MiB; a smaller output may still be in
 * cache when the caller reads it). */
#ifndef EW_STREAM_MIN_BYTES
#define EW_STREAM_MIN_BYTES ((int64_t)8 << 20)
#endif
#define EW_STREAM_BLOCK 4096

/* Streaming needs a contiguous output along the run and runs (or packed
 * rows of runs) long enough to fill whole cache lines. */
static int want_stream(const bcast_plan *engine, int variant, int64_t elem) {
  if (!EW_HAVE_STREAM || variant == 0) return 0;
  int64_t bytes;
  if (!__builtin_mul_overflow(engine->elem_count, elem, &bytes) &&
      bytes < EW_STREAM_MIN_BYTES)
    return 0;
  const int inner = engine->ndim - 1;
  const int64_t run_bytes = engine->extent[inner] * elem;
  const int packed =
      inner >= 1 && engine->stride_bytes[0][inner - 1] == run_bytes;
  return run_bytes >= 256 || packed;
}

typedef struct ew_stream_params {
  bcast_kernel2_fn kernel;
  const ew_params *params;
  int64_t elem; /* output element size */
  int n_operands;
} ew_stream_params;

#if EW_HAVE_STREAM
/* Copies bytes from src (any alignment) to dst with streaming stores for
 * the 16-byte-aligned part of dst, ordinary ones for the ends. */
static void ew_stream_copy(char *dst, const char *src, int64_t bytes) {
  int64_t head = (int64_t)(-(uintptr_t)dst & 15u);
  if (head > bytes) head = bytes;
  memcpy(dst, src, (size_t)head);
  int64_t i = head;
  for (; i + 64 <= bytes; i += 64) {
    const __m128i a = _mm_loadu_si128((const __m128i *)(src + i));
    const __m128i b = _mm_loadu_si128((const __m128i *)(src + i + 16));
    const __m128i c = _mm_loadu_si128((const __m128i *)(src + i + 32));
    const __m128i d = _mm_loadu_si128((const __m128i *)(src + i + 48));
    _mm_stream_si128((__m128i *)(dst + i), a);
    _mm_stream_si128((__m128i *)(dst + i + 16), b);
    _mm_stream_si128((__m128i *)(dst + i + 32), c);
    _mm_stream_si128((__m128i *)(dst + i + 48), d);
  }
  for (; i + 16 <= bytes; i += 16)
    _mm_stream_si128((__m128i *)(dst + i),
                     _mm_loadu_si128((const __m128i *)(src + i)));
  memcpy(dst + i, src + i, (size_t)(bytes - i));
}

/* The kernel of the plan's variant, writing through the block buffer.
 * Rows packed back to back in the output go several to a block; longer
 * runs are cut into blocks. */
static void ew_stream_kernel(int64_t rows, int64_t n, char *const *ptrs,
                             const int64_t *strides,
                             const int64_t *row_strides, const void *params) {
  const ew_stream_params *sp = params;
  _Alignas(64) char block[EW_STREAM_BLOCK];
  char *p[EW_MAX_INPUTS + 1];
  int64_t rs[EW_MAX_INPUTS + 1];
  const int nops = sp->n_operands;
  const int64_t row_bytes = n * sp->elem;
  p[0] = block;
  if (row_bytes <= EW_STREAM_BLOCK / 2 && row_strides[0] == row_bytes) {
    const int64_t per = EW_STREAM_BLOCK / row_bytes;
    rs[0] = row_bytes;
    for (int k = 1; k < nops; k++) rs[k] = row_strides[k];
    for (int64_t j = 0; j < rows; j += per) {
      const int64_t m = rows - j < per ? rows - j : per;
      for (int k = 1; k < nops; k++) p[k] = ptrs[k] + j * row_strides[k];
      sp->kernel(m, n, p, strides, rs, sp->params);
      ew_stream_copy(ptrs[0] + j * row_strides[0], block, m * row_bytes);
    }
    return;
  }
  const int64_t per = EW_STREAM_BLOCK / sp->elem;
  for (int k = 0; k < nops; k++) rs[k] = 0;
  for (int64_t j = 0; j < rows; j++)
    for (int64_t i = 0; i < n; i += per) {
      const int64_t m = n - i < per ? n - i : per;
      for (int k = 1; k < nops; k++)
        p[k] = ptrs[k] + j * row_strides[k] + i * strides[k];
      sp->kernel(1, m, p, strides, rs, sp->params);
      ew_stream_copy(ptrs[0] + j * row_strides[0] + i * sp->elem, block,
                     m * sp->elem);
    }
}
#endif

/* The row's kernels compiled for this CPU: the AVX2 set where the CPU and
 * the OS have AVX2 (measured: 64x64 + 64 float32 add 0.63 -> 0.22 us),
 * else the baseline set. */
static const bcast_kernel2_fn *kernel_set(const ew_row *row) {
#if EW_HAVE_AVX2
  if (__builtin_cpu_supports("avx2")) return row->kernels_avx2;
#endif
  return row->kernels;
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

/* Fills *plan (caller storage).  out == NULL plans a new C-contiguous
 * output. */
static bcast_status plan_init(struct bcast_ew_plan *plan, bcast_op op,
                              const bcast_op_attrs *attrs, size_t n_inputs,
                              const bcast_tensor *inputs,
                              const bcast_tensor *out,
                              const bcast_ew_options *options,
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
  const char *name = bcast_op_get(op)->name;
  const bcast_profile profile = options->profile;

  /* Types and attributes. */
  bcast_dtype in_types[EW_MAX_INPUTS] = {BCAST_BOOL, BCAST_BOOL, BCAST_BOOL};
  for (size_t k = 0; k < n_inputs && k < EW_MAX_INPUTS; k++)
    in_types[k] = inputs[k].dtype;
  bcast_op_attrs cast_attrs;
  bcast_status status = check_declared_dtypes(options, op, n_inputs, inputs,
                                              &attrs, &cast_attrs, diag);
  if (status != BCAST_OK) return status;
  bcast_dtype result;
  status = bcast_ew_result_dtype(op, profile, n_inputs, in_types, attrs,
                                 &result, diag);
  if (status != BCAST_OK) return status;
  if (options->declared_result_dtype &&
      *options->declared_result_dtype != result)
    return bcast__fail(diag, BCAST_TYPE,
                       "tosa.%s gives %s here, but the signature declares a "
                       "%s result",
                       name, bcast_dtype_name(result),
                       bcast_dtype_name(*options->declared_result_dtype));
  const int arity = (int)n_inputs;
  const bcast_dtype data = in_types[op == BCAST_OP_SELECT ? 1 : 0];
  const ew_row *row =
      bcast__ew_find(op,
                     profile == BCAST_PROFILE_NUMPY ? EW_FLAVOUR_ANY
                                                    : EW_FLAVOUR_TOSA,
                     data, result);
  if (!row)
    return bcast__fail(diag, BCAST_UNSUPPORTED,
                       "tosa.%s: no kernel for %s -> %s", name,
                       bcast_dtype_name(data), bcast_dtype_name(result));

  /* Shapes. */
  bcast_shape shape;
  status = infer_shape(name, profile, n_inputs, inputs, &shape, diag);
  if (status != BCAST_OK) return status;

  plan->op = op;
  plan->arity = arity;
  plan->checked = options->checked != 0;
  plan->threads = options->threads;
  plan->max_bytes = options->max_bytes;
  plan->row = row;
  params_from_attrs(&plan->params, attrs, data);
  for (int k = 0; k < arity; k++) copy_layout(&plan->in[k], &inputs[k]);

  const int64_t elem = (int64_t)bcast_dtype_size(result);
  if (out) {
    int same = out->rank == shape.rank;
    for (int32_t i = 0; same && i < shape.rank; i++)
      same = out->shape[i] == shape.dims[i];
    if (!same) {
      char want[1024], have[1024];
      bcast_shape_format(&shape, BCAST_SHAPE_STYLE_LIST, want, sizeof want);
      bcast_shape_format_dims(out->rank < 0 ? 0 : out->rank, out->shape,
                              BCAST_SHAPE_STYLE_LIST, have, sizeof have);
      return bcast__fail(diag, BCAST_RESULT_MISMATCH,
                         "tosa.%s: the output has shape %s; it must be the "
                         "broadcast shape %s exactly",
                         name, have, want);
    }
    if (out->dtype != result)
      return bcast__fail(diag, BCAST_TYPE,
                         "tosa.%s: the output is %s; the result type is %s",
                         name, bcast_dtype_name(out->dtype),
                         bcast_dtype_name(result));
    copy_layout(&plan->out, out);
  } else {
    plan->out.dtype = result;
    plan->out.rank = shape.rank;
    plan->out.data = NULL;
    plan->out.owner = NULL;
    int64_t step = elem;
    for (int32_t i = shape.rank - 1; i >= 0; i--) {
      plan->out.shape[i] = shape.dims[i];
      plan->out.stride_bytes[i] = step;
      if (shape.dims[i] > 1 && __builtin_mul_overflow(step, shape.dims[i], &step))
        return bcast__fail(diag, BCAST_OVERFLOW,
                           "tosa.%s: the output's size overflows 64 bits",
                           name);
    }
  }
  plan->out_c_order = bcast_tensor_is_contiguous(&plan->out);

  status = check_declared(options, name, n_inputs, inputs, &plan->out, diag);
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
  status = bcast_plan_build(&plan->engine, plan->out.rank, plan->out.shape,
                            arity + 1, ranks, shapes, strides, elem_bytes,
                            diag);
  if (status != BCAST_OK) return status;
  plan->variant = pick_variant(&plan->engine, arity);
  plan->kernel = kernel_set(row)[plan->variant];
  plan->stream = want_stream(&plan->engine, plan->variant, elem);
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
  bcast_status status =
      plan_init(p, op, attrs, n_inputs, inputs, out, options, diag);
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
  plan->kernel = plan->row->kernels[0];
  plan->stream = 0;
}

void bcast__ew_plan_force_portable(bcast_ew_plan *plan) {
  plan->kernel = plan->row->kernels[plan->variant];
}

int bcast__ew_plan_uses_avx2(const bcast_ew_plan *plan) {
  return plan->row->kernels_avx2 != plan->row->kernels &&
         plan->kernel == plan->row->kernels_avx2[plan->variant];
}

void bcast__ew_plan_force_stream(bcast_ew_plan *plan) {
  if (plan->variant != 0) plan->stream = 1;
}

int bcast__ew_plan_streams(const bcast_ew_plan *plan) { return plan->stream; }

/* A large new output is written once, front to back: transparent huge
 * pages turn its 4 KiB page faults into a few 2 MiB ones (NumPy asks for
 * them too).  A hint only; failure changes nothing. */
static void advise_huge_pages(void *data, int64_t bytes) {
#if defined(MADV_HUGEPAGE)
  const uintptr_t huge = (uintptr_t)2 << 20;
  if (bytes < 4 * (int64_t)huge) return;
  const uintptr_t begin = ((uintptr_t)data + huge - 1) & ~(huge - 1);
  const uintptr_t end = ((uintptr_t)data + (uintptr_t)bytes) & ~(huge - 1);
  if (end > begin) madvise((void *)begin, end - begin, MADV_HUGEPAGE);
#else
  (void)data;
  (void)bytes;
#endif
}

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
    return bcast__fail(diag, BCAST_BUDGET,
                       "the %s output needs %" PRId64
                       " bytes, over the budget of %" PRId64,
                       bcast_dtype_name(plan->out.dtype), bytes,
                       plan->max_bytes);
  bcast_buffer *buffer;
  status = bcast__buffer_alloc_uninit((size_t)bytes, &buffer, diag);
  if (status != BCAST_OK) return status;
  copy_layout(out, &plan->out);
  out->owner = buffer;
  out->data = bcast__buffer_data(buffer);
  advise_huge_pages(out->data, bytes);
  return BCAST_OK;
}

/* ------------------------------------------------------------------------ */
/* Running. */

/* Walks the output in C order with an odometer, keeping a pointer into
 * each input (broadcast dims, size 1 facing a larger output dim or missing,
 * do not move it).  visit returns nonzero to stop; the walk then returns
 * the flat index reached, else -1. */
typedef int (*walk_fn)(const struct bcast_ew_plan *plan, char *out,
                       char *const *in, void *ctx);

static int64_t walk_c_order(const struct bcast_ew_plan *plan, char *out_data,
                            const void *const *in_data, walk_fn visit,
                            void *ctx, int64_t *idx) {
  const int32_t rank = plan->out.rank;
  int64_t count = plan->engine.elem_count;
  if (count == 0) return -1;
  int64_t step[EW_MAX_INPUTS + 1][BCAST_MAX_RANK];
  char *ptr[EW_MAX_INPUTS + 1];
  ptr[0] = out_data;
  for (int32_t d = 0; d < rank; d++) {
    idx[d] = 0;
    step[0][d] = plan->out.stride_bytes[d];
  }
  for (int k = 0; k < plan->arity; k++) {
    const bcast_tensor *t = &plan->in[k];
    ptr[k + 1] = (char *)(uintptr_t)in_data[k];
    const int32_t lead = rank - t->rank;
    for (int32_t d = 0; d < rank; d++) {
      const int32_t j = d - lead;
      step[k + 1][d] =
          (j >= 0 && t->shape[j] == plan->out.shape[d]) ? t->stride_bytes[j]
                                                        : 0;
    }
  }
  for (int64_t flat = 0; flat < count; flat++) {
    if (visit(plan, ptr[0], ptr + 1, ctx)) return flat;
    /* Advance the odometer, innermost dim first. */
    for (int32_t d = rank - 1; d >= 0; d--) {
      for (int k = 0; k <= plan->arity; k++) ptr[k] += step[k][d];
      if (++idx[d] < plan->out.shape[d]) break;
      for (int k = 0; k <= plan->arity; k++)
        ptr[k] -= step[k][d] * plan->out.shape[d];
      idx[d] = 0;
    }
  }
  return -1;
}

static int visit_elem(const struct bcast_ew_plan *plan, char *out,
                      char *const *in, void *ctx) {
  (void)ctx;
  plan->row->elem(out, in, &plan->params);
  return 0;
}

static int visit_unpred(const struct bcast_ew_plan *plan, char *out,
                        char *const *in, void *ctx) {
  (void)out;
  char **found = ctx;
  if (!plan->row->unpred(in, &plan->params)) return 0;
  for (int k = 0; k < plan->arity; k++) found[k] = in[k];
  return 1;
}

void bcast__ew_plan_reference(const bcast_ew_plan *plan, void *out_data,
                              const void *const *in_data) {
  int64_t idx[BCAST_MAX_RANK];
  walk_c_order(plan, out_data, in_data, visit_elem, NULL, idx);
}


static bcast_status check_pass(const struct bcast_ew_plan *plan,
                               void *out_data, const void *const *in_data,
                               bcast_diag *diag) {
  int64_t idx[BCAST_MAX_RANK];
  char *found[EW_MAX_INPUTS];
  if (walk_c_order(plan, out_data, in_data, visit_unpred, found, idx) < 0)
    return BCAST_OK;
  if (!diag) return BCAST_CHECKED;
  char text[BCAST_DIAG_TEXT_MAX];
  size_t len = 0;
  text[0] = '\0';
  bcast__append(text, sizeof text, &len,
                "tosa.%s: unpredictable result (%s) at output index [",
                bcast_op_get(plan->op)->name,
                bcast_op_get(plan->op)->unpredictable);
  for (int32_t d = 0; d < plan->out.rank; d++)
    bcast__append(text, sizeof text, &len, d ? ",%" PRId64 : "%" PRId64,
                  idx[d]);
  bcast__append(text, sizeof text, &len, "]:");
  for (int k = 0; k < plan->arity; k++) {
    char value[64];
    bcast_dtype_format_value(plan->in[k].dtype, found[k], value, sizeof value);
    bcast__append(text, sizeof text, &len, " operand #%d = %s%s", k, value,
                  k + 1 < plan->arity ? "," : "");
  }
  /* What an unchecked run writes there. */
  char result[16], value[64];
  plan->row->elem(result, found, &plan->params);
  bcast_dtype_format_value(plan->out.dtype, result, value, sizeof value);
  bcast__append(text, sizeof text, &len, "; unchecked, bcast gives %s",
                value);
  bcast__fail(diag, BCAST_CHECKED, "%s", text);
  return BCAST_CHECKED;
}

bcast_status bcast_ew_plan_execute(const bcast_ew_plan *plan, void *out_data,
                                   const void *const *in_data,
                                   bcast_diag *diag) {
  if (plan->checked) {
    bcast_status status = check_pass(plan, out_data, in_data, diag);
    if (status != BCAST_OK) return status;
  }
  char *base[EW_MAX_INPUTS + 1];
  base[0] = out_data;
  for (int k = 0; k < plan->arity; k++)
    base[k + 1] = (char *)(uintptr_t)in_data[k];
#if EW_HAVE_STREAM
  if (plan->stream) {
    const ew_stream_params sp = {plan->kernel, &plan->params,
                                 plan->engine.elem_bytes[0], plan->arity + 1};
    bcast_plan_run2(&plan->engine, base, ew_stream_kernel, &sp,
                    plan->threads);
    return BCAST_OK;
  }
#endif
  bcast_plan_run2(&plan->engine, base, plan->kernel, &plan->params,
                  plan->threads);
  return BCAST_OK;
}

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
    if (reach < 0) low += reach;
    else high += reach;
  }
  *lo = (uintptr_t)t->data + (uintptr_t)low;
  *hi = (uintptr_t)t->data + (uintptr_t)high +
        (uintptr_t)bcast_dtype_size(t->dtype);
}

bcast_status bcast_ew_plan_run(const bcast_ew_plan *plan,
                               const bcast_tensor *inputs,
                               const bcast_tensor *out, bcast_diag *diag) {
  const char *name = bcast_op_get(plan->op)->name;
  if (!same_layout(out, &plan->out))
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "tosa.%s: the output's type, shape or strides differ "
                       "from the plan's",
                       name);
  const void *in_data[EW_MAX_INPUTS];
  uintptr_t out_lo, out_hi;
  byte_span(out, &out_lo, &out_hi);
  for (int k = 0; k < plan->arity; k++) {
    if (!same_layout(&inputs[k], &plan->in[k]))
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "tosa.%s: operand #%d's type, shape or strides "
                         "differ from the plan's",
                         name, k);
    uintptr_t lo, hi;
    byte_span(&inputs[k], &lo, &hi);
    const int overlap = lo < out_hi && out_lo < hi;
    const int in_place = inputs[k].data == out->data &&
                         inputs[k].dtype == out->dtype &&
                         same_layout(&inputs[k], out);
    if (overlap && !in_place)
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "tosa.%s: the output overlaps operand #%d without "
                         "being it; in place needs the output's shape, "
                         "strides and type",
                         name, k);
    in_data[k] = inputs[k].data;
  }
  return bcast_ew_plan_execute(plan, out->data, in_data, diag);
}

bcast_status bcast_ew_compute(bcast_op op, const bcast_op_attrs *attrs,
                              size_t n_inputs, const bcast_tensor *inputs,
                              bcast_tensor *result,
                              const bcast_ew_options *options,
                              bcast_diag *diag) {
  struct bcast_ew_plan plan;
  memset(result, 0, sizeof *result);
  bcast_status status =
      plan_init(&plan, op, attrs, n_inputs, inputs, NULL, options, diag);
  /* A new output's pages are zeroed by the OS as they are first touched,
   * through the cache: ordinary stores then hit those lines, where
   * streaming stores would write each line twice (measured: 4096x1 +
   * 1x4096 float32 into a new output 9.0 ms streaming, 6.8 ms cached). */
  plan.stream = 0;
  if (status == BCAST_OK) status = bcast_ew_plan_alloc_output(&plan, result, diag);
  if (status != BCAST_OK) return status;
  const void *in_data[EW_MAX_INPUTS];
  for (size_t k = 0; k < n_inputs; k++) in_data[k] = inputs[k].data;
  status = bcast_ew_plan_execute(&plan, result->data, in_data, diag);
  if (status != BCAST_OK) bcast_tensor_release(result);
  return status;
}

bcast_status bcast_ew_compute_into(bcast_op op, const bcast_op_attrs *attrs,
                                   size_t n_inputs, const bcast_tensor *inputs,
                                   const bcast_tensor *out,
                                   const bcast_ew_options *options,
                                   bcast_diag *diag) {
  struct bcast_ew_plan plan;
  bcast_status status =
      plan_init(&plan, op, attrs, n_inputs, inputs, out, options, diag);
  if (status != BCAST_OK) return status;
  return bcast_ew_plan_run(&plan, inputs, out, diag);
}
