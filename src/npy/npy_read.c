/* Reading .npy files (format versions 1.0, 2.0 and 3.0).
 *
 * A file is: the magic "\x93NUMPY", two version bytes, the header length
 * (2 bytes little-endian in 1.0, 4 bytes in 2.0 and 3.0), the header -- a
 * Python dict literal with exactly the keys 'descr', 'fortran_order' and
 * 'shape' -- and then the raw element data.  The header comes from
 * untrusted bytes, so the parser below is a small hand-written tokenizer
 * that checks every bound and every size product, and reports what it did
 * not understand by file name and header offset. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/alloc.h"
#include "core/diag.h"
#include "npy/npy_common.h"
#include "tensor/buffer.h"

/* Everything the header says, plus the sizes derived from it. */
typedef struct npy_header {
  int major, minor;
  size_t data_offset; /* prefix + header bytes */
  int fortran_order;
  int32_t rank;
  int64_t shape[BCAST_MAX_RANK];
  char descr[32];
  bcast_dtype dtype;
  int big_endian;      /* the descr said '>' */
  int data_big_endian; /* the data's real byte order ('=' and '|' are the host's) */
  int swap;            /* numeric data must be byte-swapped to host order */
  char string_kind; /* 'S', 'U' or 0 */
  int64_t string_width;
  size_t item_bytes; /* bytes per element in the file */
  int64_t count;     /* element count */
  size_t data_bytes; /* count * item_bytes */
} npy_header;

/* ------------------------------------------------------------------------ */
/* Header text parsing. */

typedef struct header_cursor {
  const unsigned char *text;
  size_t len, pos;
  const char *name; /* file name, for messages */
  bcast_diag *diag;
} header_cursor;

static bcast_status header_error(header_cursor *c, const char *fmt, ...)
    BCAST_PRINTF(2, 3);

static bcast_status header_error(header_cursor *c, const char *fmt, ...) {
  if (!c->diag) return BCAST_PARSE;
  char what[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  return bcast__fail(c->diag, BCAST_PARSE,
                     "%s: malformed .npy header: %s (at header byte %zu)",
                     c->name, what, c->pos);
}

static int is_py_space(unsigned char ch) {
  return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' ||
         ch == '\v';
}

static void skip_space(header_cursor *c) {
  while (c->pos < c->len && is_py_space(c->text[c->pos])) c->pos++;
}

static int peek(header_cursor *c) {
  return c->pos < c->len ? c->text[c->pos] : -1;
}

static bcast_status expect_char(header_cursor *c, char ch, const char *where) {
  skip_space(c);
  if (peek(c) != (unsigned char)ch) {
    if (c->pos >= c->len)
      return header_error(c, "the header ends where '%c' %s was expected", ch,
                          where);
    return header_error(c, "expected '%c' %s", ch, where);
  }
  c->pos++;
  return BCAST_OK;
}

/* A Python string literal in single or double quotes without escapes.  At
 * most cap - 1 bytes are copied; *full_len is the literal's real length.
 * A NUL byte is refused, as NumPy refuses it (Python source cannot hold
 * one): copied into out it would cut the string short, so '<f4\0junk'
 * would read as '<f4'. */
static bcast_status read_py_string(header_cursor *c, char *out, size_t cap,
                                   size_t *full_len) {
  skip_space(c);
  int quote = peek(c);
  if (quote != '\'' && quote != '"')
    return header_error(c, "expected a quoted string");
  c->pos++;
  size_t n = 0;
  for (;;) {
    int ch = peek(c);
    if (ch < 0) return header_error(c, "unterminated string");
    if (ch == '\n' || ch == '\r')
      return header_error(c, "newline in a string");
    if (ch == '\\')
      return header_error(c, "escape sequences in strings are not supported");
    if (ch == 0) return header_error(c, "NUL byte in a string");
    c->pos++;
    if (ch == quote) break;
    if (n + 1 < cap) out[n] = (char)ch;
    n++;
  }
  out[n < cap ? n : cap - 1] = '\0';
  *full_len = n;
  return BCAST_OK;
}

static bcast_status read_py_bool(header_cursor *c, int *out) {
  skip_space(c);
  const char *rest = (const char *)c->text + c->pos;
  size_t avail = c->len - c->pos;
  if (avail >= 4 && memcmp(rest, "True", 4) == 0) {
    *out = 1;
    c->pos += 4;
  } else if (avail >= 5 && memcmp(rest, "False", 5) == 0) {
    *out = 0;
    c->pos += 5;
  } else {
    return header_error(c, "'fortran_order' must be True or False");
  }
  /* "Truex" is one identifier, not True followed by junk. */
  int next = peek(c);
  if (next == '_' || (next >= 'a' && next <= 'z') ||
      (next >= 'A' && next <= 'Z') || (next >= '0' && next <= '9'))
    return header_error(c, "'fortran_order' must be True or False");
  return BCAST_OK;
}

/* A non-negative decimal integer.  Python 2 writers appended 'L' to long
 * integers; numpy filters that suffix out of version 1.0 and 2.0 headers, so
 * it is accepted there. */
static bcast_status read_py_dim(header_cursor *c, int major, int64_t *out) {
  skip_space(c);
  if (peek(c) == '-') return header_error(c, "negative dimension in 'shape'");
  if (peek(c) < '0' || peek(c) > '9')
    return header_error(c, "expected an integer dimension in 'shape'");
  int64_t value = 0;
  size_t start = c->pos;
  while (peek(c) >= '0' && peek(c) <= '9') {
    int digit = peek(c) - '0';
    if (__builtin_mul_overflow(value, 10, &value) ||
        __builtin_add_overflow(value, digit, &value))
      return header_error(c, "dimension in 'shape' exceeds 2^63 - 1");
    c->pos++;
  }
  if (c->text[start] == '0' && c->pos - start > 1 && value != 0)
    return header_error(c, "integer with a leading zero in 'shape'");
  if (major < 3 && (peek(c) == 'L' || peek(c) == 'l')) c->pos++;
  *out = value;
  return BCAST_OK;
}

/* A tuple of dimensions: "()", "(3,)", "(3, 4)", "(3, 4,)".  "(3)" is an
 * integer in Python, not a tuple, so numpy rejects it and so do we. */
static bcast_status read_py_shape(header_cursor *c, int major, npy_header *h) {
  bcast_status st = expect_char(c, '(', "to open the 'shape' tuple");
  if (st) return st;
  int32_t rank = 0;
  int trailing_comma = 0;
  for (;;) {
    skip_space(c);
    if (peek(c) == ')') {
      c->pos++;
      break;
    }
    if (rank >= BCAST_MAX_RANK)
      return header_error(c, "'shape' has more than %d dimensions",
                          BCAST_MAX_RANK);
    st = read_py_dim(c, major, &h->shape[rank]);
    if (st) return st;
    rank++;
    skip_space(c);
    if (peek(c) == ',') {
      c->pos++;
      trailing_comma = 1;
      continue;
    }
    trailing_comma = 0;
    if (peek(c) == ')') {
      c->pos++;
      break;
    }
    return header_error(c, "expected ',' or ')' in 'shape'");
  }
  if (rank == 1 && !trailing_comma)
    return header_error(c,
                        "'shape' (n) is an integer, not a tuple; write (n,)");
  h->rank = rank;
  return BCAST_OK;
}

/* Maps a descr string ("<f4", "|b1", ">U5", "|S3", "?") to a dtype. */
static bcast_status parse_descr(const char *name, npy_header *h,
                                bcast_diag *diag) {
  const char *d = h->descr;
  char order = '=';
  if (*d == '<' || *d == '>' || *d == '|' || *d == '=') order = *d++;
  h->big_endian = order == '>';
  h->data_big_endian =
      order == '>' || (order != '<' && bcast__host_big_endian());
  char kind = *d ? *d++ : 0;
  if (kind == '?' && *d == '\0') kind = 'b', d = "1";
  if (kind == 'a') kind = 'S'; /* old alias of S */
  int64_t size = 0;
  int has_digits = 0;
  for (; *d >= '0' && *d <= '9'; d++) {
    has_digits = 1;
    if (__builtin_mul_overflow(size, 10, &size) ||
        __builtin_add_overflow(size, *d - '0', &size))
      return bcast__fail(diag, BCAST_UNSUPPORTED,
                         "%s: string width in dtype '%s' is too large", name,
                         h->descr);
  }
  if (*d != '\0' || kind == 0) goto unsupported;

  h->string_kind = 0;
  h->string_width = 0;
  if (kind == 'S' || kind == 'U') {
    int64_t bytes;
    if (__builtin_mul_overflow(size, kind == 'U' ? 4 : 1, &bytes) ||
        (uint64_t)bytes > SIZE_MAX)
      return bcast__fail(diag, BCAST_UNSUPPORTED,
                         "%s: string width in dtype '%s' is too large", name,
                         h->descr);
    h->dtype = BCAST_STRING;
    h->string_kind = kind;
    h->string_width = size;
    h->item_bytes = (size_t)bytes;
    return BCAST_OK;
  }
  if (!has_digits) goto unsupported;
  /* ml_dtypes' bfloat16 has no NumPy type character: numpy.save writes it
   * as a 2-byte void, '<V2' (see bcast/npy.h).  Its two 8-bit floats are
   * both '|V1', so such a file does not say which it holds. */
  if (kind == NPY_VOID_KIND && size == 1)
    return bcast__fail(diag, BCAST_UNSUPPORTED,
                       "%s: dtype '%s' is a 1-byte void, which ml_dtypes "
                       "writes for float8_e4m3fn and float8_e5m2 alike: bcast "
                       "cannot tell which, and reads no 8-bit float .npy "
                       "(it writes them so)",
                       name, h->descr);
  if (kind == NPY_VOID_KIND && size == 2) {
    h->dtype = BCAST_BFLOAT16;
    h->item_bytes = 2;
    h->swap = h->data_big_endian != bcast__host_big_endian();
    return BCAST_OK;
  }
  /* The numeric types are the rows of the dtype list with an npy kind. */
#define DESCR_MATCH_(id, nm, ctype, sz, knd, npy, mlir)                       \
  if ((npy) != 0 && (npy) == kind && (int64_t)(sz) == size) {                 \
    h->dtype = BCAST_##id;                                                    \
    h->item_bytes = (size_t)(sz);                                             \
    h->swap = (sz) > 1 && h->data_big_endian != bcast__host_big_endian();     \
    return BCAST_OK;                                                          \
  }
  BCAST_DTYPE_LIST(DESCR_MATCH_)
#undef DESCR_MATCH_

unsupported:
  return bcast__fail(diag, BCAST_UNSUPPORTED,
                     "%s: unsupported dtype '%s' (supported: b1 i1 i2 i4 i8 "
                     "u1 u2 u4 u8 f2 f4 f8 V2 (bfloat16) S<n> U<n>)",
                     name, h->descr);
}

/* Parses the dict literal and fills h (shape, order, dtype, sizes). */
static bcast_status parse_header_text(const unsigned char *text, size_t len,
                                      const char *name, npy_header *h,
                                      bcast_diag *diag) {
  header_cursor c = {text, len, 0, name, diag};
  int seen_descr = 0, seen_order = 0, seen_shape = 0;
  bcast_status st = expect_char(&c, '{', "to open the header dict");
  if (st) return st;
  for (;;) {
    skip_space(&c);
    if (peek(&c) == '}') {
      c.pos++;
      break;
    }
    char key[16];
    size_t key_len;
    size_t key_pos = c.pos;
    st = read_py_string(&c, key, sizeof key, &key_len);
    if (st) return st;
    st = expect_char(&c, ':', "after a key");
    if (st) return st;
    if (key_len < sizeof key && strcmp(key, "descr") == 0) {
      skip_space(&c);
      if (peek(&c) == '[')
        return bcast__fail(diag, BCAST_UNSUPPORTED,
                           "%s: structured dtypes (a list 'descr') are not "
                           "supported",
                           name);
      size_t descr_len;
      st = read_py_string(&c, h->descr, sizeof h->descr, &descr_len);
      if (st) return st;
      if (descr_len >= sizeof h->descr)
        return bcast__fail(diag, BCAST_UNSUPPORTED,
                           "%s: unsupported dtype '%s...'", name, h->descr);
      seen_descr = 1;
    } else if (key_len < sizeof key && strcmp(key, "fortran_order") == 0) {
      st = read_py_bool(&c, &h->fortran_order);
      if (st) return st;
      seen_order = 1;
    } else if (key_len < sizeof key && strcmp(key, "shape") == 0) {
      st = read_py_shape(&c, h->major, h);
      if (st) return st;
      seen_shape = 1;
    } else {
      c.pos = key_pos;
      return header_error(&c,
                          "unexpected key '%s%s' (the keys are 'descr', "
                          "'fortran_order' and 'shape')",
                          key, key_len < sizeof key ? "" : "...");
    }
    skip_space(&c);
    if (peek(&c) == ',') {
      c.pos++;
      continue;
    }
    st = expect_char(&c, '}', "or ',' after a value");
    if (st) return st;
    break;
  }
  skip_space(&c);
  if (c.pos != c.len)
    return header_error(&c, "unexpected text after the header dict");
  if (!seen_descr || !seen_order || !seen_shape)
    return header_error(&c, "missing key '%s'",
                        !seen_descr   ? "descr"
                        : !seen_order ? "fortran_order"
                                      : "shape");
  st = parse_descr(name, h, diag);
  if (st) return st;

  int64_t count = 1;
  for (int32_t i = 0; i < h->rank; i++) {
    if (__builtin_mul_overflow(count, h->shape[i], &count)) {
      char shape_text[BCAST_MAX_RANK * 24];
      bcast_shape_format_dims(h->rank, h->shape, BCAST_SHAPE_STYLE_NUMPY,
                              shape_text, sizeof shape_text);
      return bcast__fail(diag, BCAST_OVERFLOW,
                         "%s: shape %s has more than 2^63 elements", name,
                         shape_text);
    }
  }
  h->count = count;
  uint64_t data_bytes;
  if (__builtin_mul_overflow((uint64_t)count, (uint64_t)h->item_bytes,
                             &data_bytes) ||
      data_bytes > SIZE_MAX || data_bytes > INT64_MAX) {
    char shape_text[BCAST_MAX_RANK * 24];
    bcast_shape_format_dims(h->rank, h->shape, BCAST_SHAPE_STYLE_NUMPY,
                            shape_text, sizeof shape_text);
    return bcast__fail(diag, BCAST_OVERFLOW,
                       "%s: shape %s of %s needs more than 2^63 bytes", name,
                       shape_text, h->descr);
  }
  h->data_bytes = (size_t)data_bytes;
  return BCAST_OK;
}

/* Parses the fixed prefix from the first n bytes of the file: magic,
 * version and header length. */
static bcast_status parse_prefix(const unsigned char *p, size_t n,
                                 const char *name, npy_header *h,
                                 size_t *header_len, bcast_diag *diag) {
  size_t magic_avail = n < NPY_MAGIC_LEN ? n : NPY_MAGIC_LEN;
  if (n == 0 || memcmp(p, NPY_MAGIC, magic_avail) != 0)
    return bcast__fail(diag, BCAST_PARSE,
                       "%s: not a .npy file (it does not start with "
                       "\\x93NUMPY)",
                       name);
  if (n < NPY_MAGIC_LEN + 2)
    return bcast__fail(diag, BCAST_PARSE,
                       "%s: truncated .npy file: %zu bytes, shorter than the "
                       "magic and version",
                       name, n);
  h->major = p[6];
  h->minor = p[7];
  if ((h->major != 1 && h->major != 2 && h->major != 3) || h->minor != 0)
    return bcast__fail(diag, BCAST_UNSUPPORTED,
                       "%s: unsupported .npy format version %d.%d (1.0, 2.0 "
                       "and 3.0 are supported)",
                       name, h->major, h->minor);
  size_t len_bytes = h->major == 1 ? 2 : 4;
  if (n < 8 + len_bytes)
    return bcast__fail(diag, BCAST_PARSE,
                       "%s: truncated .npy file: it ends inside the header "
                       "length",
                       name);
  size_t len = 0;
  for (size_t i = 0; i < len_bytes; i++) len |= (size_t)p[8 + i] << (8 * i);
  *header_len = len;
  h->data_offset = 8 + len_bytes + len;
  return BCAST_OK;
}

static bcast_status data_size_error(const char *name, const npy_header *h,
                                    uint64_t have, bcast_diag *diag) {
  if (!diag) return BCAST_PARSE;
  char shape_text[BCAST_MAX_RANK * 24];
  bcast_shape_format_dims(h->rank, h->shape, BCAST_SHAPE_STYLE_NUMPY,
                          shape_text, sizeof shape_text);
  return bcast__fail(diag, BCAST_PARSE,
                     "%s: header says shape %s of %s = %zu bytes but the file "
                     "has %" PRIu64 " data bytes",
                     name, shape_text, h->descr, h->data_bytes, have);
}

static bcast_status budget_error(const char *name, uint64_t need,
                                 int64_t max_bytes, bcast_diag *diag) {
  return bcast__fail(diag, BCAST_BUDGET,
                     "%s: reading needs %" PRIu64 " bytes, more than the "
                     "budget of %" PRId64 " bytes",
                     name, need, max_bytes);
}

/* ------------------------------------------------------------------------ */
/* Building the tensor. */

/* Sets rank, shape and C or Fortran strides for elements of elem_bytes.
 * Stride products can only overflow for an empty array, whose strides are
 * never used, so they are clamped to 0 there. */
static void set_layout(bcast_tensor *t, const npy_header *h,
                       size_t elem_bytes) {
  t->rank = h->rank;
  int64_t stride = (int64_t)elem_bytes;
  for (int32_t k = 0; k < h->rank; k++) {
    int32_t axis = h->fortran_order ? k : h->rank - 1 - k;
    t->shape[axis] = h->shape[axis];
    t->stride_bytes[axis] = stride;
    if (__builtin_mul_overflow(stride, h->shape[axis] ? h->shape[axis] : 1,
                               &stride))
      stride = 0;
  }
}

static void fill_info(bcast_npy_info *info, const npy_header *h) {
  if (!info) return;
  memset(info, 0, sizeof *info);
  info->version_major = h->major;
  info->version_minor = h->minor;
  info->fortran_order = h->fortran_order;
  info->big_endian = h->big_endian;
  memcpy(info->descr, h->descr, sizeof info->descr);
  info->string_kind = h->string_kind;
  info->string_width = h->string_width;
}

static uint32_t load_u32(const unsigned char *p, int big_endian) {
  if (big_endian)
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 |
           p[3];
  return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 |
         p[0];
}

/* Length of element i without its trailing NULs (numpy drops them), in
 * bytes for 'S' and code units for 'U'. */
static size_t trimmed_units(const unsigned char *item, const npy_header *h) {
  size_t units = (size_t)h->string_width;
  if (h->string_kind == 'S') {
    while (units > 0 && item[units - 1] == 0) units--;
  } else {
    while (units > 0 &&
           load_u32(item + 4 * (units - 1), h->data_big_endian) == 0)
      units--;
  }
  return units;
}

/* Converts fixed-width string data to string elements.  One buffer holds
 * the bcast_string array followed by the UTF-8 bytes they point into. */
static bcast_status decode_strings(const unsigned char *raw,
                                   const npy_header *h, const char *name,
                                   bcast_tensor *out, int64_t max_bytes,
                                   bcast_diag *diag) {
  size_t count = (size_t)h->count;
  /* The element array alone may exceed the budget (zero-width strings
   * take no file bytes), so check it before looking at any element. */
  uint64_t elem_bytes;
  if (__builtin_mul_overflow((uint64_t)count, (uint64_t)sizeof(bcast_string),
                             &elem_bytes) ||
      elem_bytes > (uint64_t)max_bytes)
    return budget_error(name, elem_bytes, max_bytes, diag);
  /* Pass 1: validate and measure. */
  uint64_t text_bytes = 0;
  for (size_t i = 0; i < count; i++) {
    const unsigned char *item = raw + i * h->item_bytes;
    size_t units = trimmed_units(item, h);
    if (h->string_kind == 'S') {
      text_bytes += units;
      continue;
    }
    for (size_t u = 0; u < units; u++) {
      uint32_t cp = load_u32(item + 4 * u, h->data_big_endian);
      if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return bcast__fail(diag, BCAST_PARSE,
                           "%s: element %zu holds code point 0x%" PRIX32
                           ", which is not a Unicode scalar value",
                           name, i, cp);
      text_bytes += bcast__utf8_length(cp);
    }
  }
  uint64_t total;
  if (__builtin_add_overflow(elem_bytes, text_bytes, &total) ||
      total > SIZE_MAX)
    return bcast__fail(diag, BCAST_OVERFLOW,
                       "%s: %zu strings overflow the address space", name,
                       count);
  if (total > (uint64_t)max_bytes)
    return budget_error(name, total, max_bytes, diag);
  bcast_buffer *buffer;
  bcast_status st = bcast__buffer_alloc_uninit((size_t)total, &buffer, diag);
  if (st) return st;
  bcast_string *elems = bcast__buffer_data(buffer);
  char *text =
      (char *)bcast__buffer_data(buffer) + count * sizeof(bcast_string);
  /* Pass 2: copy or transcode. */
  size_t used = 0;
  for (size_t i = 0; i < count; i++) {
    const unsigned char *item = raw + i * h->item_bytes;
    size_t units = trimmed_units(item, h);
    elems[i].ptr = text + used;
    if (h->string_kind == 'S') {
      if (units) memcpy(text + used, item, units);
      used += units;
    } else {
      for (size_t u = 0; u < units; u++)
        used += bcast__utf8_encode(load_u32(item + 4 * u, h->data_big_endian),
                                   (unsigned char *)text + used);
    }
    elems[i].len = (size_t)(text + used - elems[i].ptr);
  }
  out->dtype = BCAST_STRING;
  out->data = elems;
  out->owner = buffer;
  set_layout(out, h, sizeof(bcast_string));
  return BCAST_OK;
}

/* Where the bytes come from: a read callback, and the number of bytes it
 * will give when that is known in advance (a file's size, a buffer's
 * length), which lets a wrong size be reported before anything is
 * allocated. */
typedef struct npy_source {
  bcast_npy_read_fn read;
  void *ctx;
  const char *name;
  int64_t size; /* -1: unknown (a pipe) */
  int map_fd;   /* >= 0: map the data from this file instead of reading it */
} npy_source;

/* Reads up to n bytes, fewer only at the end of the source. */
static bcast_status source_read(const npy_source *src, void *dst, size_t n,
                                size_t *got, bcast_diag *diag) {
  size_t done = 0;
  while (done < n) {
    errno = 0;
    ptrdiff_t k = src->read(src->ctx, (char *)dst + done, n - done);
    if (k < 0)
      return bcast__fail(diag, BCAST_IO, "%s: read failed: %s", src->name,
                         strerror(errno ? errno : EIO));
    if (k == 0) break;
    done += (size_t)k;
  }
  *got = done;
  return BCAST_OK;
}

/* Reads the element data: exactly h->data_bytes more bytes, then the end
 * of the source.  An unknown-size source is checked by reading past the
 * data. */
static bcast_status read_data_bytes(const npy_source *src, const npy_header *h,
                                    void *dst, bcast_diag *diag) {
  size_t got = 0;
  bcast_status st = source_read(src, dst, h->data_bytes, &got, diag);
  if (st) return st;
  if (got != h->data_bytes) return data_size_error(src->name, h, got, diag);
  if (src->size >= 0) return BCAST_OK;
  unsigned char extra;
  st = source_read(src, &extra, 1, &got, diag);
  if (st) return st;
  if (got)
    return bcast__fail(diag, BCAST_PARSE,
                       "%s: the stream goes on after the %zu data bytes its "
                       "header describes",
                       src->name, h->data_bytes);
  return BCAST_OK;
}

static bcast_status load_data(const npy_header *h, const npy_source *src,
                              bcast_tensor *out, int64_t max_bytes,
                              bcast_diag *diag) {
  const char *name = src->name;
  if (h->data_bytes > (uint64_t)max_bytes)
    return budget_error(name, h->data_bytes, max_bytes, diag);
  if (h->dtype == BCAST_STRING) {
    unsigned char *raw = bcast__malloc(h->data_bytes ? h->data_bytes : 1);
    if (!raw)
      return bcast__fail(diag, BCAST_NO_MEMORY,
                         "%s: out of memory reading %zu bytes", name,
                         h->data_bytes);
    bcast_status st = read_data_bytes(src, h, raw, diag);
    if (st == BCAST_OK)
      st = decode_strings(raw, h, name, out, max_bytes, diag);
    bcast__free(raw);
    return st;
  }
  bcast_buffer *buffer;
  bcast_status st = bcast__buffer_alloc_uninit(h->data_bytes, &buffer, diag);
  if (st) return st;
  void *data = bcast__buffer_data(buffer);
  st = read_data_bytes(src, h, data, diag);
  if (st) {
    bcast__buffer_release(buffer);
    return st;
  }
  if (h->swap) bcast__swap_items(data, (size_t)h->count, h->item_bytes);
  out->dtype = h->dtype;
  out->data = data;
  out->owner = buffer;
  set_layout(out, h, h->item_bytes);
  return BCAST_OK;
}

/* Points out at the data of a mapped file (bcast_npy_map) after its header
 * was read: numbers in host byte order, aligned for their type. */
static bcast_status map_data(const npy_header *h, const npy_source *src,
                             bcast_tensor *out, bcast_diag *diag) {
  const char *name = src->name;
  if (h->dtype == BCAST_STRING || h->swap)
    return bcast__fail(diag, BCAST_UNSUPPORTED,
                       "%s: %s data cannot be used in place (only numbers in "
                       "the host's byte order can); read the file instead",
                       name, h->descr);
  if (h->data_offset % h->item_bytes)
    return bcast__fail(diag, BCAST_UNSUPPORTED,
                       "%s: the data starts at byte %zu, not aligned for %s; "
                       "read the file instead",
                       name, h->data_offset, h->descr);
  bcast_buffer *buffer;
  bcast_status st = bcast__buffer_map(
      src->map_fd, h->data_offset + h->data_bytes, name, &buffer, diag);
  if (st) return st;
  out->dtype = h->dtype;
  out->data = (char *)bcast__buffer_data(buffer) + h->data_offset;
  out->owner = buffer;
  set_layout(out, h, h->item_bytes);
  return BCAST_OK;
}

/* Reads a whole .npy from src in one pass, never seeking: prefix, header
 * text, data. */
static bcast_status read_source(const npy_source *src, bcast_tensor *out,
                                bcast_npy_info *info, int64_t max_bytes,
                                bcast_diag *diag) {
  const char *name = src->name;
  unsigned char prefix[12];
  size_t n = 0;
  bcast_status st = source_read(src, prefix, sizeof prefix, &n, diag);
  if (st) return st;
  npy_header h;
  memset(&h, 0, sizeof h);
  size_t header_len = 0;
  st = parse_prefix(prefix, n, name, &h, &header_len, diag);
  if (st) return st;
  const size_t prefix_len = h.data_offset - header_len;
  if (src->size >= 0 && ((uint64_t)src->size < prefix_len ||
                         header_len > (uint64_t)src->size - prefix_len))
    return bcast__fail(diag, BCAST_PARSE,
                       "%s: truncated .npy file: the header length says %zu "
                       "bytes but only %" PRIu64 " follow",
                       name, header_len, (uint64_t)src->size - prefix_len);
  /* A version 2.0 header may legally be up to 4 GiB; beyond 16 MiB it is
   * not something numpy writes, and an unknown-size stream is not allowed
   * to make us allocate it. */
  if (src->size < 0 && header_len > NPY_STREAM_HEADER_MAX)
    return bcast__fail(diag, BCAST_PARSE,
                       "%s: header length %zu is beyond any numpy header",
                       name, header_len);
  /* The prefix read may have taken the first header bytes already. */
  unsigned char *text = bcast__malloc(header_len ? header_len : 1);
  if (!text)
    return bcast__fail(diag, BCAST_NO_MEMORY, "%s: out of memory", name);
  const size_t already =
      n - prefix_len < header_len ? n - prefix_len : header_len;
  memcpy(text, prefix + prefix_len, already);
  size_t got = 0;
  st = source_read(src, text + already, header_len - already, &got, diag);
  if (st == BCAST_OK && already + got < header_len)
    st = bcast__fail(diag, BCAST_PARSE,
                     "%s: truncated .npy file: the header length says %zu "
                     "bytes but only %zu follow",
                     name, header_len, already + got);
  if (st == BCAST_OK) st = parse_header_text(text, header_len, name, &h, diag);
  if (st) {
    bcast__free(text);
    return st;
  }
  /* The prefix read took at most 2 header bytes (version 1.0), never data:
   * a header that parses is longer. */
  bcast__free(text);
  if (src->size >= 0) {
    uint64_t have = (uint64_t)src->size - h.data_offset;
    if (have != h.data_bytes) return data_size_error(name, &h, have, diag);
  }
  st = src->map_fd >= 0 ? map_data(&h, src, out, diag)
                        : load_data(&h, src, out, max_bytes, diag);
  if (st) return st;
  fill_info(info, &h);
  return BCAST_OK;
}

static void clear_tensor(bcast_tensor *t) {
  memset(t, 0, sizeof *t);
  t->owner = NULL;
  t->data = NULL;
}

/* ------------------------------------------------------------------------ */
/* Entry points: memory, a stream, a file. */

typedef struct mem_reader {
  const unsigned char *bytes;
  size_t size, pos;
} mem_reader;

static ptrdiff_t mem_read(void *ctx, void *buf, size_t cap) {
  mem_reader *m = ctx;
  size_t n = m->size - m->pos < cap ? m->size - m->pos : cap;
  if (n > PTRDIFF_MAX) n = PTRDIFF_MAX;
  if (n) memcpy(buf, m->bytes + m->pos, n);
  m->pos += n;
  return (ptrdiff_t)n;
}

static ptrdiff_t file_read(void *ctx, void *buf, size_t cap) {
  FILE *f = ctx;
  if (cap > PTRDIFF_MAX) cap = PTRDIFF_MAX;
  size_t n = fread(buf, 1, cap, f);
  if (n == 0 && ferror(f)) return -1;
  return (ptrdiff_t)n;
}

bcast_status bcast_npy_read_mem(const void *bytes, size_t size,
                                const char *name, bcast_tensor *out,
                                bcast_npy_info *info, int64_t max_bytes,
                                bcast_diag *diag) {
  if (!out || (!bytes && size) || max_bytes < 0 || size > INT64_MAX)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "bcast_npy_read_mem: invalid argument");
  clear_tensor(out);
  mem_reader m = {bytes, size, 0};
  const npy_source src = {mem_read, &m, name ? name : "<memory>",
                          (int64_t)size, -1};
  return read_source(&src, out, info, max_bytes, diag);
}

bcast_status bcast_npy_read_stream(bcast_npy_read_fn read, void *ctx,
                                   const char *name, bcast_tensor *out,
                                   bcast_npy_info *info, int64_t max_bytes,
                                   bcast_diag *diag) {
  if (!read || !out || max_bytes < 0)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "bcast_npy_read_stream: invalid argument");
  clear_tensor(out);
  const npy_source src = {read, ctx, name ? name : "<stream>", -1, -1};
  return read_source(&src, out, info, max_bytes, diag);
}

/* Reads (or with map, maps the data of) the .npy file at path. */
static bcast_status read_path(const char *path, int map, bcast_tensor *out,
                              bcast_npy_info *info, int64_t max_bytes,
                              bcast_diag *diag) {
  clear_tensor(out);
  FILE *f = fopen(path, "rb");
  if (!f)
    return bcast__fail(diag, BCAST_IO, "%s: cannot open: %s", path,
                       strerror(errno));
  struct stat sb;
  bcast_status st = BCAST_OK;
  if (fstat(fileno(f), &sb) != 0)
    st = bcast__fail(diag, BCAST_IO, "%s: cannot stat: %s", path,
                     strerror(errno));
  else if (S_ISDIR(sb.st_mode))
    st = bcast__fail(diag, BCAST_IO, "%s: is a directory", path);
  else if (map && !S_ISREG(sb.st_mode))
    st = bcast__fail(diag, BCAST_UNSUPPORTED,
                     "%s: not a regular file, so it cannot be mapped; read "
                     "it instead",
                     path);
  if (st == BCAST_OK) {
    /* A regular file's size is known; a pipe's or device's is not.  A
     * mapped file's header is read through the stream, its data mapped. */
    const npy_source src = {file_read, f, path,
                            S_ISREG(sb.st_mode) ? (int64_t)sb.st_size : -1,
                            map ? fileno(f) : -1};
    st = read_source(&src, out, info, max_bytes, diag);
  }
  fclose(f);
  return st;
}

bcast_status bcast_npy_read(const char *path, bcast_tensor *out,
                            bcast_npy_info *info, int64_t max_bytes,
                            bcast_diag *diag) {
  if (!path || !out || max_bytes < 0)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "bcast_npy_read: invalid argument");
  return read_path(path, 0, out, info, max_bytes, diag);
}

bcast_status bcast_npy_map(const char *path, bcast_tensor *out,
                           bcast_npy_info *info, bcast_diag *diag) {
  if (!path || !out)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "bcast_npy_map: invalid argument");
  return read_path(path, 1, out, info, INT64_MAX, diag);
}
