/* Writing .npy files byte-for-byte as numpy.save (NumPy 1.24) does.
 *
 * numpy writes the header dict with sorted keys,
 *   {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
 * then 21 - len(str(growth dim)) spaces (room for the first axis, or the last
 * for Fortran order, to grow in place; none for rank 0), then pads with
 * spaces and one final newline so that magic + version + length + header is
 * a multiple of 64 bytes -- always adding at least the newline, so an
 * already aligned header gets 63 spaces more.  Version 1.0 is used unless
 * the padded header exceeds 65535 bytes, then 2.0.
 *
 * A file is written through a durable output (core/output.c): a
 * temporary file next to the target, renamed over it once complete. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/diag.h"
#include "core/output.h"
#include "npy/npy_common.h"

/* ------------------------------------------------------------------------ */
/* Visiting the elements of any strided tensor in C or Fortran order, one
 * row (the fastest-varying axis) at a time. */

typedef struct row_iter {
  int32_t outer_rank;            /* axes iterated by the odometer */
  int64_t shape[BCAST_MAX_RANK]; /* outer axes, slowest first */
  int64_t stride[BCAST_MAX_RANK];
  int64_t index[BCAST_MAX_RANK];
  int64_t row_len, row_stride; /* the fastest axis */
  const char *row;             /* start of the current row */
  int done;
} row_iter;

static void row_iter_init(row_iter *it, const bcast_tensor *t, int fortran,
                          int64_t count) {
  memset(it, 0, sizeof *it);
  it->row = t->data;
  it->done = count == 0;
  if (t->rank == 0) {
    it->row_len = 1;
    return;
  }
  int32_t fast = fortran ? 0 : t->rank - 1;
  it->row_len = t->shape[fast];
  it->row_stride = t->stride_bytes[fast];
  it->outer_rank = t->rank - 1;
  for (int32_t k = 0; k < it->outer_rank; k++) {
    int32_t axis = fortran ? t->rank - 1 - k : k;
    it->shape[k] = t->shape[axis];
    it->stride[k] = t->stride_bytes[axis];
  }
}

/* Moves to the next row; sets done after the last. */
static void row_iter_next(row_iter *it) {
  for (int32_t k = it->outer_rank - 1; k >= 0; k--) {
    if (++it->index[k] < it->shape[k]) {
      it->row += it->stride[k];
      return;
    }
    it->row -= it->stride[k] * (it->shape[k] - 1);
    it->index[k] = 0;
  }
  it->done = 1;
}

/* ------------------------------------------------------------------------ */
/* Buffered output that remembers the first error. */

typedef struct out_stream {
  bcast_npy_write_fn write;
  void *ctx;
  unsigned char *buf;
  size_t len, cap;
  bcast_status failed; /* the sink's first error, then nothing is written */
} out_stream;

static void out_flush(out_stream *o) {
  if (o->failed || o->len == 0) return;
  o->failed = o->write(o->ctx, o->buf, o->len);
  o->len = 0;
}

static void out_put(out_stream *o, const void *bytes, size_t n) {
  const unsigned char *p = bytes;
  while (n > 0 && !o->failed) {
    if (o->len == o->cap) out_flush(o);
    size_t take = o->cap - o->len < n ? o->cap - o->len : n;
    memcpy(o->buf + o->len, p, take);
    o->len += take;
    p += take;
    n -= take;
  }
}

static void out_zeros(out_stream *o, size_t n) {
  static const unsigned char zeros[64];
  while (n > 0) {
    size_t take = n < sizeof zeros ? n : sizeof zeros;
    out_put(o, zeros, take);
    n -= take;
  }
}

/* ------------------------------------------------------------------------ */
/* Strings: measuring and encoding. */

/* Characters in a string element (bytes for 'S', code points for 'U');
 * (size_t)-1 if a 'U' element is not valid UTF-8. */
static size_t string_units(const bcast_string *s, char kind) {
  if (kind == 'S') return s->len;
  const unsigned char *p = (const unsigned char *)s->ptr;
  size_t units = 0;
  for (size_t i = 0; i < s->len; units++) {
    uint32_t cp;
    size_t used = bcast__utf8_decode(p + i, s->len - i, &cp);
    if (!used) return (size_t)-1;
    i += used;
  }
  return units;
}

/* Checks every element against the kind and finds the widest. */
static bcast_status measure_strings(const bcast_tensor *t, int64_t count,
                                    char kind, const char *path,
                                    size_t *max_units, bcast_diag *diag) {
  row_iter it;
  row_iter_init(&it, t, 0, count);
  size_t widest = 0;
  int64_t flat = 0;
  for (; !it.done; row_iter_next(&it)) {
    for (int64_t i = 0; i < it.row_len; i++, flat++) {
      const bcast_string *s =
          (const bcast_string *)(it.row + i * it.row_stride);
      if (s->len && !s->ptr)
        return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                           "%s: string element %" PRId64 " has no bytes", path,
                           flat);
      size_t units = string_units(s, kind);
      if (units == (size_t)-1)
        return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                           "%s: string element %" PRId64 " is not valid "
                           "UTF-8, so it cannot be stored as unicode (U)",
                           path, flat);
      if (units > widest) widest = units;
    }
  }
  *max_units = widest;
  return BCAST_OK;
}

static void put_string(out_stream *o, const bcast_string *s, char kind,
                       size_t width, int big_endian) {
  if (kind == 'S') {
    out_put(o, s->ptr, s->len);
    out_zeros(o, width - s->len);
    return;
  }
  const unsigned char *p = (const unsigned char *)s->ptr;
  size_t units = 0;
  for (size_t i = 0; i < s->len; units++) {
    uint32_t cp = 0;
    i += bcast__utf8_decode(p + i, s->len - i, &cp); /* validated before */
    unsigned char unit[4] = {(unsigned char)cp, (unsigned char)(cp >> 8),
                             (unsigned char)(cp >> 16),
                             (unsigned char)(cp >> 24)};
    if (big_endian) bcast__swap_items(unit, 1, 4);
    out_put(o, unit, 4);
  }
  out_zeros(o, 4 * (width - units));
}

/* Writes every element in file order: numbers in the requested byte
 * order, strings NUL-padded to the width. */
static void put_data(out_stream *o, const bcast_tensor *t, int64_t count,
                     int fortran, char kind, size_t width, int big_endian) {
  row_iter it;
  row_iter_init(&it, t, fortran, count);
  size_t item = bcast_dtype_size(t->dtype);
  int swap = item > 1 && t->dtype != BCAST_STRING &&
             big_endian != bcast__host_big_endian();
  for (; !it.done && !o->failed; row_iter_next(&it)) {
    if (t->dtype == BCAST_STRING) {
      for (int64_t i = 0; i < it.row_len; i++)
        put_string(o, (const bcast_string *)(it.row + i * it.row_stride), kind,
                   width, big_endian);
    } else if (!swap && it.row_stride == (int64_t)item) {
      out_put(o, it.row, (size_t)it.row_len * item);
    } else {
      for (int64_t i = 0; i < it.row_len; i++) {
        unsigned char tmp[8];
        memcpy(tmp, it.row + i * it.row_stride, item);
        if (swap) bcast__swap_items(tmp, 1, item);
        out_put(o, tmp, item);
      }
    }
  }
}

/* ------------------------------------------------------------------------ */
/* The header. */

/* Capacity for the largest header we produce: 64 dims of up to 20 digits,
 * the dict text, the growth spaces and up to 64 bytes of padding. */
#define HEADER_CAP (16 + 128 + BCAST_MAX_RANK * 24 + 64)

/* Builds prefix + header into out; returns its length. */
static size_t build_header(const char *descr, int fortran, int32_t rank,
                           const int64_t *shape, unsigned char *out) {
  char shape_text[BCAST_MAX_RANK * 24];
  bcast_shape_format_dims(rank, shape, BCAST_SHAPE_STYLE_NUMPY, shape_text,
                          sizeof shape_text);
  char dict[HEADER_CAP];
  size_t len = 0;
  dict[0] = '\0';
  bcast__append(dict, sizeof dict, &len,
                "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }", descr,
                fortran ? "True" : "False", shape_text);
  if (rank > 0) {
    char digits[24];
    int n = snprintf(digits, sizeof digits, "%" PRId64,
                     shape[fortran ? rank - 1 : 0]);
    for (int i = n; i < NPY_GROWTH_AXIS_MAX_DIGITS; i++)
      bcast__append(dict, sizeof dict, &len, " ");
  }
  size_t hlen = len + 1; /* with the final newline */
  size_t prefix = NPY_MAGIC_LEN + 2 + 2;
  size_t padlen = NPY_ALIGN - (prefix + hlen) % NPY_ALIGN;
  int major = 1;
  if (hlen + padlen > 65535) {
    major = 2;
    prefix = NPY_MAGIC_LEN + 2 + 4;
    padlen = NPY_ALIGN - (prefix + hlen) % NPY_ALIGN;
  }
  size_t total = hlen + padlen;
  memcpy(out, NPY_MAGIC, NPY_MAGIC_LEN);
  out[6] = (unsigned char)major;
  out[7] = 0;
  for (size_t i = 0; i < prefix - 8; i++)
    out[8 + i] = (unsigned char)(total >> (8 * i));
  memcpy(out + prefix, dict, len);
  memset(out + prefix + len, ' ', padlen);
  out[prefix + len + padlen] = '\n';
  return prefix + total;
}

/* ------------------------------------------------------------------------ */

/* The descr of t as numpy writes it ("<f4", "|b1", "<U5"), and for string
 * tensors the kind and width (which measure every string when opts give
 * no width). */
static bcast_status describe(const bcast_tensor *t,
                             const bcast_npy_write_opts *opts, int64_t count,
                             const char *path, char descr[32], char *kind_out,
                             size_t *width_out, bcast_diag *diag) {
  const int big_endian = opts ? opts->big_endian != 0 : 0;
  const char order = big_endian ? '>' : '<';
  char kind = 0;
  size_t width = 0;
  if (t->dtype == BCAST_STRING) {
    kind = opts && opts->string_kind ? opts->string_kind : 'U';
    if (kind != 'S' && kind != 'U')
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "%s: string kind must be 'S' or 'U'", path);
    int64_t want = opts ? opts->string_width : 0;
    if (want < 0)
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "%s: negative string width", path);
    size_t widest = 0;
    bcast_status st = measure_strings(t, count, kind, path, &widest, diag);
    if (st) return st;
    if (want > 0 && widest > (uint64_t)want)
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "%s: an element has %zu %s, more than the string "
                         "width %" PRId64,
                         path, widest, kind == 'S' ? "bytes" : "characters",
                         want);
    /* numpy never writes a zero width: an array of empty strings is S1/U1. */
    width = want > 0 ? (size_t)want : widest ? widest : 1;
    if (width > (size_t)INT64_MAX / 4)
      return bcast__fail(diag, BCAST_OVERFLOW, "%s: string width too large",
                         path);
    snprintf(descr, 32, "%c%c%zu", kind == 'S' ? '|' : order, kind, width);
  } else {
    char npy_kind = 0;
    switch (t->dtype) {
#define NPY_KIND_(id, nm, ctype, sz, knd, npy, mlir)                          \
  case BCAST_##id:                                                            \
    npy_kind = (npy);                                                         \
    break;
      BCAST_DTYPE_LIST(NPY_KIND_)
#undef NPY_KIND_
    default:
      break;
    }
    /* bfloat16 and the 8-bit floats: a void of their size (ml_dtypes). */
    if (!npy_kind && bcast_dtype_kind_of(t->dtype) == BCAST_KIND_FLOAT)
      npy_kind = NPY_VOID_KIND;
    if (!npy_kind)
      return bcast__fail(diag, BCAST_UNSUPPORTED,
                         "%s: %s cannot be stored in a .npy file", path,
                         bcast_dtype_name(t->dtype));
    size_t size = bcast_dtype_size(t->dtype);
    snprintf(descr, 32, "%c%c%zu", size == 1 ? '|' : order, npy_kind, size);
  }

  *kind_out = kind;
  *width_out = width;
  return BCAST_OK;
}

/* Checks t's rank and dims and counts its elements. */
static bcast_status count_elements(const bcast_tensor *t, const char *path,
                                   int64_t *count, bcast_diag *diag) {
  if (t->rank < 0 || t->rank > BCAST_MAX_RANK)
    return bcast__fail(diag, BCAST_RANK_LIMIT, "%s: rank %d is not supported",
                       path, (int)t->rank);
  *count = 1;
  for (int32_t i = 0; i < t->rank; i++) {
    if (t->shape[i] < 0)
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "%s: dimension %d is negative", path, (int)i);
    if (__builtin_mul_overflow(*count, t->shape[i], count))
      return bcast__fail(diag, BCAST_OVERFLOW,
                         "%s: the element count overflows", path);
  }
  return BCAST_OK;
}

bcast_status bcast_npy_header(const bcast_tensor *t,
                              const bcast_npy_write_opts *opts, void *buf,
                              size_t cap, size_t *len, bcast_diag *diag) {
  if (!t || !buf || !len)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "bcast_npy_header: invalid argument");
  if (t->dtype == BCAST_STRING)
    return bcast__fail(diag, BCAST_UNSUPPORTED,
                       "bcast_npy_header: string arrays are sized by their "
                       "strings; write them with bcast_npy_write_stream");
  int64_t count = 0;
  char descr[32], kind;
  size_t width;
  bcast_status st = count_elements(t, "bcast_npy_header", &count, diag);
  if (st == BCAST_OK)
    st = describe(t, opts, count, "bcast_npy_header", descr, &kind, &width,
                  diag);
  if (st) return st;
  unsigned char header[HEADER_CAP + 16];
  size_t n = build_header(descr, opts ? opts->fortran_order != 0 : 0, t->rank,
                          t->shape, header);
  if (n > cap)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "bcast_npy_header: the header needs %zu bytes, the "
                       "buffer has %zu",
                       n, cap);
  memcpy(buf, header, n);
  *len = n;
  return BCAST_OK;
}

bcast_status bcast_npy_write_stream(bcast_npy_write_fn write, void *ctx,
                                    const char *path, const bcast_tensor *t,
                                    const bcast_npy_write_opts *opts,
                                    bcast_diag *diag) {
  if (!write || !t)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "bcast_npy_write_stream: invalid argument");
  if (!path) path = "<stream>";
  int64_t count = 0;
  bcast_status st = count_elements(t, path, &count, diag);
  if (st) return st;
  if (count > 0 && !t->data)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT, "%s: tensor has no data",
                       path);
  int fortran = opts ? opts->fortran_order != 0 : 0;
  int big_endian = opts ? opts->big_endian != 0 : 0;
  char descr[32], kind = 0;
  size_t width = 0;
  st = describe(t, opts, count, path, descr, &kind, &width, diag);
  if (st) return st;

  unsigned char header[HEADER_CAP + 16];
  size_t header_len = build_header(descr, fortran, t->rank, t->shape, header);

  out_stream o = {write, ctx, NULL, 0, 1 << 20, BCAST_OK};
  o.buf = bcast__malloc(o.cap);
  if (!o.buf)
    return bcast__fail(diag, BCAST_NO_MEMORY, "%s: out of memory", path);
  errno = 0;
  out_put(&o, header, header_len);
  put_data(&o, t, count, fortran, kind, width, big_endian);
  out_flush(&o);
  const int err = errno ? errno : EIO;
  bcast__free(o.buf);
  if (o.failed)
    return bcast__fail(diag, o.failed, "%s: write failed: %s", path,
                       o.failed == BCAST_IO ? strerror(err)
                                            : bcast_status_text(o.failed));
  return BCAST_OK;
}

/* ------------------------------------------------------------------------ */
/* Files: through a durable output (core/output.c). */

bcast_status bcast_npy_write(const char *path, const bcast_tensor *t,
                             const bcast_npy_write_opts *opts,
                             bcast_diag *diag) {
  if (!path || !t)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "bcast_npy_write: invalid argument");
  bcast_output *out = NULL;
  bcast_status st = bcast_output_open(path, &out, diag);
  if (st) return st;
  st = bcast_npy_write_stream(bcast_output_write, out, path, t, opts, diag);
  if (st) {
    bcast_output_discard(out);
    return st;
  }
  return bcast_output_commit(out, diag);
}
