/* Tensors: borrowed and owned views, zero-copy broadcasting, and
 * materialization through the plan engine.
 *
 * A broadcast view never copies: it is the source's data pointer with byte
 * stride 0 along every dim the source lacks or has as 1.  Materializing
 * builds a two-operand plan (destination, source) and runs a copy kernel
 * over it, so every layout of source, including stride 0, negative and
 * permuted strides, goes through the same engine. */
#include <inttypes.h>
#include <string.h>

#include "bcast/plan.h"
#include "bcast/tensor.h"
#include "core/diag.h"
#include "tensor/buffer.h"

/* Element names and sizes, from the one dtype list. */
static const struct {
  const char *name;
  int64_t bytes;
} dtype_info[BCAST_DTYPE_COUNT] = {
#define DTYPE_INFO_(id, name, ctype, size, kind, npy, mlir)                   \
  {name, (int64_t)(size)},
    BCAST_DTYPE_LIST(DTYPE_INFO_)
#undef DTYPE_INFO_
};

static int dtype_valid(bcast_dtype dtype) {
  return (unsigned)dtype < (unsigned)BCAST_DTYPE_COUNT;
}

/* "[4096,4096]" into buf. */
static void format_dims(char *buf, size_t cap, int32_t rank,
                        const int64_t *dims) {
  bcast_shape_format_dims(rank, dims, BCAST_SHAPE_STYLE_LIST, buf, cap);
}

/* "64.0 MiB": the largest binary unit that keeps the value >= 1. */
static void format_bytes_human(char *buf, size_t cap, int64_t bytes) {
  static const char *const units[] = {"bytes", "KiB", "MiB", "GiB",
                                      "TiB",   "PiB", "EiB"};
  double value = (double)bytes;
  int unit = 0;
  while (value >= 1024.0 && unit < 6) {
    value /= 1024.0;
    unit++;
  }
  size_t len = 0;
  buf[0] = '\0';
  if (unit == 0)
    bcast__append(buf, cap, &len, "%" PRId64 " bytes", bytes);
  else
    bcast__append(buf, cap, &len, "%.1f %s", value, units[unit]);
}

static bcast_status check_dtype_rank(bcast_dtype dtype, int32_t rank,
                                     bcast_diag *diag) {
  if (!dtype_valid(dtype))
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT, "unknown dtype %d",
                       (int)dtype);
  if (rank < 0 || rank > BCAST_MAX_RANK)
    return bcast__fail(diag, BCAST_RANK_LIMIT, "rank %d is outside 0..%d",
                       (int)rank, BCAST_MAX_RANK);
  return BCAST_OK;
}

static bcast_status check_dims(int32_t rank, const int64_t *shape,
                               bcast_diag *diag) {
  for (int32_t i = 0; i < rank; i++)
    if (shape[i] < 0)
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "dim %d has size %" PRId64
                         "; a tensor needs sizes >= 0",
                         (int)i, shape[i]);
  return BCAST_OK;
}

/* Element and byte counts of a dtype and shape, overflow-checked.  `verb`
 * ("materializing") starts the overflow message. */
static bcast_status shape_bytes(bcast_dtype dtype, int32_t rank,
                                const int64_t *shape, const char *verb,
                                int64_t *count_out, int64_t *bytes_out,
                                bcast_diag *diag) {
  int64_t count = 1, bytes;
  int overflow = 0;
  for (int32_t i = 0; i < rank; i++)
    overflow |= __builtin_mul_overflow(count, shape[i], &count);
  if (overflow ||
      __builtin_mul_overflow(count, dtype_info[dtype].bytes, &bytes)) {
    if (diag) {
      char dims[BCAST_DIAG_TEXT_MAX / 2];
      format_dims(dims, sizeof dims, rank, shape);
      bcast__fail(diag, BCAST_OVERFLOW,
                  "%s %s %s needs more than %" PRId64 " bytes: the size "
                  "overflows 64 bits",
                  verb, dtype_info[dtype].name, dims, INT64_MAX);
    }
    return BCAST_OVERFLOW;
  }
  *count_out = count;
  *bytes_out = bytes;
  return BCAST_OK;
}

/* The budget message: what is being made, the bytes it needs, the limit. */
static bcast_status over_budget(bcast_diag *diag, const char *what,
                                int64_t bytes, int64_t max_bytes) {
  if (!diag) return BCAST_BUDGET;
  char need[32], have[32];
  format_bytes_human(need, sizeof need, bytes);
  format_bytes_human(have, sizeof have, max_bytes < 0 ? 0 : max_bytes);
  return bcast__fail(diag, BCAST_BUDGET,
                     "%s needs %" PRId64 " bytes (%s), over the budget of "
                     "%" PRId64 " bytes (%s)",
                     what, bytes, need, max_bytes, have);
}

/* C-order byte strides: the last dim steps by the element size, each outer
 * dim by the inner block (size-0 dims count as 1, as in NumPy). */
static bcast_status c_strides(int64_t elem_bytes, int32_t rank,
                              const int64_t *shape, int64_t *stride_bytes,
                              bcast_diag *diag) {
  int64_t step = elem_bytes;
  for (int32_t i = rank - 1; i >= 0; i--) {
    stride_bytes[i] = step;
    if (shape[i] > 1 && __builtin_mul_overflow(step, shape[i], &step))
      return bcast__fail(diag, BCAST_OVERFLOW,
                         "the byte strides of the shape overflow 64 bits");
  }
  return BCAST_OK;
}

static bcast_status tensor_wrap(bcast_tensor *t, bcast_dtype dtype,
                                int32_t rank, const int64_t *shape,
                                const int64_t *stride_bytes, void *data,
                                bcast_diag *diag) {
  bcast_status status = check_dtype_rank(dtype, rank, diag);
  if (status == BCAST_OK) status = check_dims(rank, shape, diag);
  int64_t count = 0, bytes = 0;
  if (status == BCAST_OK)
    status = shape_bytes(dtype, rank, shape, "wrapping", &count, &bytes, diag);
  if (status != BCAST_OK) return status;
  if (!data && count != 0)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "data is NULL for a tensor of %" PRId64 " elements",
                       count);
  bcast_tensor out;
  memset(&out, 0, sizeof out);
  out.dtype = dtype;
  out.rank = rank;
  for (int32_t i = 0; i < rank; i++) out.shape[i] = shape[i];
  if (stride_bytes) {
    for (int32_t i = 0; i < rank; i++) out.stride_bytes[i] = stride_bytes[i];
  } else {
    status = c_strides(dtype_info[dtype].bytes, rank, shape, out.stride_bytes,
                       diag);
    if (status != BCAST_OK) return status;
  }
  out.data = data;
  out.owner = NULL;
  *t = out;
  return BCAST_OK;
}

bcast_status bcast_tensor_wrap(bcast_tensor *t, bcast_dtype dtype,
                               int32_t rank, const int64_t *shape,
                               const int64_t *stride_bytes, void *data,
                               bcast_diag *diag) {
  bcast_status status =
      tensor_wrap(t, dtype, rank, shape, stride_bytes, data, diag);
  if (status != BCAST_OK) memset(t, 0, sizeof *t);
  return status;
}

/* An owned C-contiguous tensor, zeroed or not. */
static bcast_status tensor_alloc(bcast_tensor *t, bcast_dtype dtype,
                                 int32_t rank, const int64_t *shape,
                                 int64_t max_bytes, int zeroed,
                                 const char *verb, bcast_diag *diag) {
  bcast_status status = check_dtype_rank(dtype, rank, diag);
  if (status == BCAST_OK) status = check_dims(rank, shape, diag);
  int64_t count, bytes;
  if (status == BCAST_OK)
    status = shape_bytes(dtype, rank, shape, verb, &count, &bytes, diag);
  if (status != BCAST_OK) return status;
  if (bytes > max_bytes) {
    char what[BCAST_DIAG_TEXT_MAX / 2];
    size_t len = 0;
    what[0] = '\0';
    bcast__append(what, sizeof what, &len, "%s %s ", verb,
                  dtype_info[dtype].name);
    format_dims(what + len, sizeof what - len, rank, shape);
    return over_budget(diag, what, bytes, max_bytes);
  }
  bcast_tensor out;
  memset(&out, 0, sizeof out);
  out.dtype = dtype;
  out.rank = rank;
  for (int32_t i = 0; i < rank; i++) out.shape[i] = shape[i];
  status =
      c_strides(dtype_info[dtype].bytes, rank, shape, out.stride_bytes, diag);
  if (status != BCAST_OK) return status;
  status = zeroed
               ? bcast__buffer_alloc((size_t)bytes, &out.owner, diag)
               : bcast__buffer_alloc_uninit((size_t)bytes, &out.owner, diag);
  if (status != BCAST_OK) return status;
  out.data = bcast__buffer_data(out.owner);
  *t = out;
  return BCAST_OK;
}

bcast_status bcast_tensor_alloc(bcast_tensor *t, bcast_dtype dtype,
                                int32_t rank, const int64_t *shape,
                                int64_t max_bytes, bcast_diag *diag) {
  bcast_status status =
      tensor_alloc(t, dtype, rank, shape, max_bytes, 1, "allocating", diag);
  /* Cleared after the inputs were read (shape may point into *t). */
  if (status != BCAST_OK) memset(t, 0, sizeof *t);
  return status;
}

void bcast_tensor_view(bcast_tensor *dst, const bcast_tensor *src) {
  if (dst != src) *dst = *src;
  bcast__buffer_retain(dst->owner);
}

void bcast_tensor_release(bcast_tensor *t) {
  if (!t) return;
  bcast__buffer_release(t->owner);
  memset(t, 0, sizeof *t);
}

bcast_status bcast_tensor_elem_count(const bcast_tensor *t, int64_t *out,
                                     bcast_diag *diag) {
  int64_t count = 1;
  for (int32_t i = 0; i < t->rank; i++)
    if (__builtin_mul_overflow(count, t->shape[i], &count))
      return bcast__fail(diag, BCAST_OVERFLOW,
                         "the element count overflows 64 bits");
  *out = count;
  return BCAST_OK;
}

int bcast_tensor_is_contiguous(const bcast_tensor *t) {
  if (!dtype_valid(t->dtype)) return 0;
  for (int32_t i = 0; i < t->rank; i++)
    if (t->shape[i] == 0) return 1;
  int64_t expected = dtype_info[t->dtype].bytes;
  for (int32_t i = t->rank - 1; i >= 0; i--) {
    if (t->shape[i] == 1) continue;
    if (t->stride_bytes[i] != expected) return 0;
    expected *= t->shape[i];
  }
  return 1;
}

bcast_status bcast_broadcast_to(bcast_tensor *dst, const bcast_tensor *src,
                                int32_t rank, const int64_t *shape,
                                bcast_diag *diag) {
  bcast_status status = check_dtype_rank(src->dtype, rank, diag);
  if (status == BCAST_OK) status = check_dims(rank, shape, diag);
  if (status != BCAST_OK) return status;
  char from[BCAST_DIAG_TEXT_MAX / 4], to[BCAST_DIAG_TEXT_MAX / 4];
  if (rank < src->rank) {
    if (!diag) return BCAST_RANK_MISMATCH;
    format_dims(from, sizeof from, src->rank, src->shape);
    format_dims(to, sizeof to, rank, shape);
    return bcast__fail(diag, BCAST_RANK_MISMATCH,
                       "cannot broadcast %s to %s: the target has rank %d, "
                       "below the source's rank %d",
                       from, to, (int)rank, (int)src->rank);
  }
  bcast_tensor out;
  memset(&out, 0, sizeof out);
  out.dtype = src->dtype;
  out.rank = rank;
  const int32_t lead = rank - src->rank;
  for (int32_t i = 0; i < rank; i++) {
    out.shape[i] = shape[i];
    out.stride_bytes[i] = 0;
    if (i < lead) continue;
    int64_t size = src->shape[i - lead];
    if (size == shape[i] && size != 1) {
      out.stride_bytes[i] = src->stride_bytes[i - lead];
    } else if (size != 1 && size != shape[i]) {
      if (!diag) return BCAST_INCOMPATIBLE;
      format_dims(from, sizeof from, src->rank, src->shape);
      format_dims(to, sizeof to, rank, shape);
      bcast__fail(diag, BCAST_INCOMPATIBLE,
                  "cannot broadcast %s to %s: source dim %d (size %" PRId64
                  ") is neither 1 nor the target's size %" PRId64
                  " (target dim %d)",
                  from, to, (int)(i - lead), size, shape[i], (int)i);
      bcast__locate(diag, 0, (int)(i - lead), size, BCAST_DIAG_RESULT, (int)i,
                    shape[i], (int)i);
      return BCAST_INCOMPATIBLE;
    }
  }
  out.data = src->data;
  out.owner = src->owner;
  bcast__buffer_retain(out.owner);
  *dst = out;
  return BCAST_OK;
}

/* The common shape of n tensors (multidirectional, right-aligned).  For each
 * aligned dim, from[a] remembers the first operand whose size there is not
 * 1, so a conflict names both operands in their own numbering. */
static bcast_status common_shape(size_t n, const bcast_tensor *src,
                                 int32_t *rank_out, int64_t *shape,
                                 bcast_diag *diag) {
  int32_t rank = 0;
  for (size_t i = 0; i < n; i++) {
    bcast_status status = check_dtype_rank(src[i].dtype, src[i].rank, diag);
    if (status != BCAST_OK) return status;
    if (src[i].rank > rank) rank = src[i].rank;
  }
  size_t from[BCAST_MAX_RANK];
  for (int32_t a = 0; a < rank; a++) {
    shape[a] = 1;
    from[a] = SIZE_MAX;
  }
  for (size_t i = 0; i < n; i++) {
    const int32_t lead = rank - src[i].rank;
    for (int32_t j = 0; j < src[i].rank; j++) {
      const int32_t a = lead + j;
      const int64_t size = src[i].shape[j];
      if (size == 1 || size == shape[a]) continue;
      if (shape[a] == 1) {
        shape[a] = size;
        from[a] = i;
        continue;
      }
      const size_t k = from[a];
      const int32_t kj = a - (rank - src[k].rank);
      bcast__fail(diag, BCAST_INCOMPATIBLE,
                  "operands could not be broadcast together: operand #%zu dim "
                  "%d (size %" PRId64 ") is incompatible with operand #%zu "
                  "dim %d (size %" PRId64 ") at broadcast dim %d",
                  k, (int)kj, shape[a], i, (int)j, size, (int)a);
      bcast__locate(diag, (int)k, (int)kj, shape[a], (int)i, (int)j, size,
                    (int)a);
      return BCAST_INCOMPATIBLE;
    }
  }
  *rank_out = rank;
  return BCAST_OK;
}

bcast_status bcast_broadcast_views(size_t n, bcast_tensor *dst,
                                   const bcast_tensor *src, bcast_diag *diag) {
  int32_t rank;
  int64_t shape[BCAST_MAX_RANK];
  bcast_status status = common_shape(n, src, &rank, shape, diag);
  if (status != BCAST_OK) return status;
  /* Cannot fail now: every operand is compatible with the common shape. */
  for (size_t i = 0; i < n; i++) {
    status = bcast_broadcast_to(&dst[i], &src[i], rank, shape, diag);
    if (status != BCAST_OK) {
      while (i > 0) bcast_tensor_release(&dst[--i]);
      return status;
    }
  }
  return BCAST_OK;
}

/* The copy behind bcast_tensor_copy and bcast_materialize.  A fresh
 * destination is written with ordinary stores: the OS has just zeroed its
 * pages through the cache, and non-temporal stores past the cache would write every
 * line to memory twice (measured: 11.5 against 8.1 GB/s for 64 MiB). */
static bcast_status tensor_copy(const bcast_tensor *dst,
                                const bcast_tensor *src, int threads,
                                int fresh, bcast_diag *diag) {
  if (dst->dtype != src->dtype)
    return bcast__fail(
        diag, BCAST_TYPE, "cannot copy %s elements into %s",
        dtype_valid(src->dtype) ? dtype_info[src->dtype].name : "unknown",
        dtype_valid(dst->dtype) ? dtype_info[dst->dtype].name : "unknown");
  bcast_status status = check_dtype_rank(dst->dtype, dst->rank, diag);
  if (status == BCAST_OK) status = check_dims(dst->rank, dst->shape, diag);
  if (status == BCAST_OK) status = check_dims(src->rank, src->shape, diag);
  if (status != BCAST_OK) return status;

  const int64_t elem_bytes = dtype_info[dst->dtype].bytes;
  const int32_t rank[2] = {dst->rank, src->rank};
  const int64_t *const shape[2] = {dst->shape, src->shape};
  const int64_t *const strides[2] = {dst->stride_bytes, src->stride_bytes};
  const int64_t elem[2] = {elem_bytes, elem_bytes};
  bcast_plan plan;
  status = bcast_plan_build(&plan, dst->rank, dst->shape, 2, rank, shape,
                            strides, elem, diag);
  if (status != BCAST_OK) return status;
  if (dst->dtype == BCAST_STRING && dst->owner && src->owner) {
    status = bcast__buffer_keep(dst->owner, src->owner, diag);
    if (status != BCAST_OK) return status;
  }
  char *const base[2] = {(char *)dst->data, (char *)src->data};
  return bcast_copy_run(&plan, base, elem_bytes,
                        fresh ? BCAST_COPY_CACHED : BCAST_COPY_NT_STORE_LARGE,
                        threads, diag);
}

bcast_status bcast_tensor_copy(const bcast_tensor *dst,
                               const bcast_tensor *src, int threads,
                               bcast_diag *diag) {
  return tensor_copy(dst, src, threads, 0, diag);
}

bcast_status bcast_materialize(bcast_tensor *dst, const bcast_tensor *src,
                               int64_t max_bytes, int threads,
                               bcast_diag *diag) {
  bcast_tensor out;
  bcast_status status = tensor_alloc(&out, src->dtype, src->rank, src->shape,
                                     max_bytes, 0, "materializing", diag);
  if (status != BCAST_OK) return status;
  /* String elements are references: the copy shares the source's bytes,
   * and tensor_copy makes the new buffer keep the source's alive. */
  status = tensor_copy(&out, src, threads, 1, diag);
  if (status != BCAST_OK) {
    bcast_tensor_release(&out);
    return status;
  }
  *dst = out;
  return BCAST_OK;
}

/* The shape of copy i in materialize_all: shape, or x[i]'s own when
 * shape is NULL. */
static const int64_t *copy_shape(const bcast_tensor *x, size_t i, int32_t rank,
                                 const int64_t *shape, int32_t *rank_out) {
  *rank_out = shape ? rank : x[i].rank;
  return shape ? shape : x[i].shape;
}

/* The budget failure of materialize_all: "materializing 2 outputs of
 * shape [2,3]", or of shapes, listed, when they differ. */
static bcast_status copies_over_budget(size_t n, const bcast_tensor *x,
                                       int32_t rank, const int64_t *shape,
                                       int64_t total, int64_t max_bytes,
                                       bcast_diag *diag) {
  size_t listed = n ? 1 : 0;
  int32_t r0, r;
  const int64_t *s0 = n ? copy_shape(x, 0, rank, shape, &r0) : NULL;
  for (size_t i = 1; i < n && listed == 1; i++) {
    const int64_t *si = copy_shape(x, i, rank, shape, &r);
    if (r != r0 || memcmp(si, s0, (size_t)r * sizeof *si) != 0) listed = n;
  }
  char what[BCAST_DIAG_TEXT_MAX / 2];
  size_t len = 0;
  what[0] = '\0';
  bcast__append(what, sizeof what, &len, "materializing %zu output%s of %s", n,
                n == 1 ? "" : "s", listed > 1 ? "shapes " : "shape ");
  for (size_t i = 0; i < listed && len + 1 < sizeof what; i++) {
    if (i > 0) bcast__append(what, sizeof what, &len, ", ");
    const int64_t *si = copy_shape(x, i, rank, shape, &r);
    format_dims(what + len, sizeof what - len, r, si);
    len += strlen(what + len);
  }
  return over_budget(diag, what, total, max_bytes);
}

/* Copies of x[0..n) into new C-contiguous z[0..n), each x[i] first
 * broadcast to shape (of rank rank) unless shape is NULL.  Invariant: the
 * bytes of all copies together are within max_bytes, checked (and their
 * sum overflow-checked) before anything is allocated; on failure no copy
 * is left. */
static bcast_status materialize_all(size_t n, bcast_tensor *z,
                                    const bcast_tensor *x, int32_t rank,
                                    const int64_t *shape, int64_t max_bytes,
                                    int threads, bcast_diag *diag) {
  int64_t total = 0;
  for (size_t i = 0; i < n; i++) {
    int32_t out_rank;
    const int64_t *out_shape = copy_shape(x, i, rank, shape, &out_rank);
    int64_t count, bytes;
    bcast_status status = check_dtype_rank(x[i].dtype, out_rank, diag);
    if (status == BCAST_OK) status = check_dims(out_rank, out_shape, diag);
    if (status == BCAST_OK)
      status = shape_bytes(x[i].dtype, out_rank, out_shape, "materializing",
                           &count, &bytes, diag);
    if (status != BCAST_OK) return status;
    if (__builtin_add_overflow(total, bytes, &total))
      return bcast__fail(diag, BCAST_OVERFLOW,
                         "the %zu outputs together need more than %" PRId64
                         " bytes",
                         n, INT64_MAX);
  }
  if (total > max_bytes)
    return copies_over_budget(n, x, rank, shape, total, max_bytes, diag);

  for (size_t i = 0; i < n; i++) {
    bcast_tensor view;
    memset(&view, 0, sizeof view);
    bcast_status status =
        shape ? bcast_broadcast_to(&view, &x[i], rank, shape, diag) : BCAST_OK;
    if (status == BCAST_OK)
      status = bcast_materialize(&z[i], shape ? &view : &x[i], INT64_MAX,
                                 threads, diag);
    bcast_tensor_release(&view);
    if (status != BCAST_OK) {
      while (i > 0) bcast_tensor_release(&z[--i]);
      return status;
    }
  }
  return BCAST_OK;
}

bcast_status bcast_materialize_all(size_t n, bcast_tensor *z,
                                   const bcast_tensor *x, int64_t max_bytes,
                                   int threads, bcast_diag *diag) {
  return materialize_all(n, z, x, 0, NULL, max_bytes, threads, diag);
}

bcast_status bcast_broadcast_materialize(size_t n, bcast_tensor *z,
                                         const bcast_tensor *x,
                                         int64_t max_bytes, int threads,
                                         bcast_diag *diag) {
  int32_t rank;
  int64_t shape[BCAST_MAX_RANK];
  bcast_status status = common_shape(n, x, &rank, shape, diag);
  if (status != BCAST_OK) return status;
  return materialize_all(n, z, x, rank, shape, max_bytes, threads, diag);
}

/* "?" for a dynamic dim, "?<symbol 3>" for a named one, else the size. */
static void format_declared(char *buf, size_t cap, int64_t dim) {
  size_t len = 0;
  buf[0] = '\0';
  if (dim >= 0)
    bcast__append(buf, cap, &len, "%" PRId64, dim);
  else if (dim == BCAST_DIM_DYNAMIC)
    bcast__append(buf, cap, &len, "?");
  else
    bcast__append(buf, cap, &len, "?<symbol %" PRId64 ">",
                  BCAST_DIM_SYMBOL_INDEX(dim));
}

/* Each operand alone: rank, static sizes, and symbols bound consistently
 * (the first occurrence of a symbol fixes its size). */
static bcast_status bind_operand(size_t i, const bcast_shape *declared,
                                 const bcast_tensor *tensors,
                                 bcast_diag *diag) {
  const bcast_shape *decl = &declared[i];
  const bcast_tensor *t = &tensors[i];
  if (decl->rank == BCAST_RANK_UNRANKED) return BCAST_OK;
  if (decl->rank != t->rank)
    return bcast__fail(diag, BCAST_RANK_MISMATCH,
                       "operand #%zu is declared with rank %d but has rank "
                       "%d at run time",
                       i, (int)decl->rank, (int)t->rank);
  for (int32_t j = 0; j < t->rank; j++) {
    const int64_t want = decl->dims[j], got = t->shape[j];
    if (want >= 0 && want != got) {
      bcast__fail(diag, BCAST_RUNTIME_SHAPE,
                  "operand #%zu dim %d is declared as %" PRId64
                  " but is %" PRId64 " at run time",
                  i, (int)j, want, got);
      bcast__locate(diag, (int)i, (int)j, got, BCAST_DIAG_NONE,
                    BCAST_DIAG_NONE, want, BCAST_DIAG_NONE);
      return BCAST_RUNTIME_SHAPE;
    }
    if (want >= BCAST_DIM_DYNAMIC) continue;
    /* A named symbol: find its first occurrence, at or before (i, j). */
    for (size_t pi = 0; pi <= i; pi++) {
      const bcast_shape *pd = &declared[pi];
      if (pd->rank == BCAST_RANK_UNRANKED) continue;
      const int32_t stop = pi == i ? j : pd->rank;
      for (int32_t pj = 0; pj < stop; pj++) {
        if (pd->dims[pj] != want) continue;
        const int64_t bound = tensors[pi].shape[pj];
        if (bound == got) goto next_dim;
        char name[48];
        format_declared(name, sizeof name, want);
        bcast__fail(diag, BCAST_RUNTIME_SHAPE,
                    "operand #%zu dim %d (%s) is %" PRId64
                    " at run time, but operand #%zu dim %d bound the same "
                    "symbol to %" PRId64,
                    i, (int)j, name, got, pi, (int)pj, bound);
        bcast__locate(diag, (int)pi, (int)pj, bound, (int)i, (int)j, got,
                      BCAST_DIAG_NONE);
        return BCAST_RUNTIME_SHAPE;
      }
    }
  next_dim:;
  }
  return BCAST_OK;
}

bcast_status bcast_bind_check(size_t n, const bcast_shape *declared,
                              const bcast_tensor *tensors, bcast_diag *diag) {
  int32_t rank = 0;
  for (size_t i = 0; i < n; i++) {
    bcast_status status =
        check_dtype_rank(tensors[i].dtype, tensors[i].rank, diag);
    if (status == BCAST_OK) status = bind_operand(i, declared, tensors, diag);
    if (status != BCAST_OK) return status;
    if (tensors[i].rank > rank) rank = tensors[i].rank;
  }
  /* The broadcast rule on run-time sizes, aligned dim by aligned dim: two
   * sizes that differ and are not 1 are what the trait leaves undefined. */
  for (int32_t a = 0; a < rank; a++) {
    size_t first = SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
      const int32_t j = a - (rank - tensors[i].rank);
      if (j < 0) continue;
      const int64_t size = tensors[i].shape[j];
      if (size == 1) continue;
      if (first == SIZE_MAX) {
        first = i;
        continue;
      }
      const int32_t fj = a - (rank - tensors[first].rank);
      const int64_t fsize = tensors[first].shape[fj];
      if (fsize == size) continue;
      char d0[48] = "?", d1[48] = "?";
      if (declared[first].rank != BCAST_RANK_UNRANKED)
        format_declared(d0, sizeof d0, declared[first].dims[fj]);
      if (declared[i].rank != BCAST_RANK_UNRANKED)
        format_declared(d1, sizeof d1, declared[i].dims[j]);
      bcast__fail(
          diag, BCAST_RUNTIME_SHAPE,
          "operand #%zu dim %d (declared %s) is %" PRId64
          " at run time and operand #%zu dim %d (declared %s) is %" PRId64
          ": sizes that differ and are not 1 do not broadcast "
          "(undefined behaviour under the Broadcastable trait), at "
          "broadcast dim %d",
          first, (int)fj, d0, fsize, i, (int)j, d1, size, (int)a);
      bcast__locate(diag, (int)first, (int)fj, fsize, (int)i, (int)j, size,
                    (int)a);
      return BCAST_RUNTIME_SHAPE;
    }
  }
  return BCAST_OK;
}
