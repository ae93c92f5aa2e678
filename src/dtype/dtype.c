/* The element type table: every function here is a lookup into one array
 * generated from BCAST_DTYPE_TABLE, or a switch generated from it, so
 * adding a type is one row in dtype.h. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bcast/dtype.h"
#include "core/diag.h"

typedef struct dtype_row {
  const char *name;
  size_t size;
  bcast_dtype_kind kind;
  const char *mlir_name;
} dtype_row;

static const dtype_row dtype_table[BCAST_DTYPE_COUNT] = {
#define DTYPE_ROW_(id, name, ctype, size, kind, npy, mlir)                    \
  {name, size, kind, mlir},
    BCAST_DTYPE_LIST(DTYPE_ROW_)
#undef DTYPE_ROW_
};

/* The C storage size must match the declared element size for every row. */
#define DTYPE_SIZE_CHECK_(id, name, ctype, size, kind, npy, mlir)             \
  _Static_assert(sizeof(ctype) == (size), "size of " name);
BCAST_DTYPE_LIST(DTYPE_SIZE_CHECK_)
#undef DTYPE_SIZE_CHECK_

static int dtype_valid(bcast_dtype dtype) {
  return (unsigned)dtype < (unsigned)BCAST_DTYPE_COUNT;
}

const char *bcast_dtype_name(bcast_dtype dtype) {
  return dtype_valid(dtype) ? dtype_table[dtype].name : "unknown";
}

size_t bcast_dtype_size(bcast_dtype dtype) {
  return dtype_valid(dtype) ? dtype_table[dtype].size : 0;
}

bcast_dtype_kind bcast_dtype_kind_of(bcast_dtype dtype) {
  return dtype_valid(dtype) ? dtype_table[dtype].kind : BCAST_KIND_BOOL;
}

const char *bcast_dtype_mlir_name(bcast_dtype dtype) {
  return dtype_valid(dtype) ? dtype_table[dtype].mlir_name : "unknown";
}

static int text_equals(const char *text, size_t len, const char *word) {
  return strlen(word) == len && memcmp(text, word, len) == 0;
}

bcast_status bcast_dtype_parse(const char *name, size_t len,
                               bcast_dtype *out) {
  if (!name || !out) return BCAST_INVALID_ARGUMENT;
  for (int i = 0; i < BCAST_DTYPE_COUNT; i++) {
    if (text_equals(name, len, dtype_table[i].name) ||
        text_equals(name, len, dtype_table[i].mlir_name)) {
      *out = (bcast_dtype)i;
      return BCAST_OK;
    }
  }
  return BCAST_INVALID_ARGUMENT;
}

/* Appends printf-style text at buf + *len; *len counts the whole text even
 * where it no longer fits (snprintf's rule), and buf stays NUL-terminated. */
static void put(char *buf, size_t cap, size_t *len, const char *fmt, ...)
    BCAST_PRINTF(4, 5);
static void put(char *buf, size_t cap, size_t *len, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(*len < cap ? buf + *len : NULL,
                    *len < cap ? cap - *len : 0, fmt, ap);
  va_end(ap);
  if (n > 0) *len += (size_t)n;
}

/* A string as Python's repr of a str: in single quotes, with quote,
 * backslash, newline and the other control bytes escaped. */
static size_t format_string(const bcast_string *s, char *buf, size_t cap) {
  size_t len = 0;
  if (cap) buf[0] = '\0';
  put(buf, cap, &len, "'");
  for (size_t i = 0; i < s->len; i++) {
    const unsigned char ch = (unsigned char)s->ptr[i];
    if (ch == '\'' || ch == '\\')
      put(buf, cap, &len, "\\%c", ch);
    else if (ch == '\n')
      put(buf, cap, &len, "\\n");
    else if (ch < 0x20 || ch == 0x7f)
      put(buf, cap, &len, "\\x%02x", ch);
    else
      put(buf, cap, &len, "%c", ch);
  }
  put(buf, cap, &len, "'");
  return len;
}

/* A stored value as the value it stands for, by the row's coding. */
#define DTYPE_DECODE_PLAIN(v) (v)
#define DTYPE_DECODE_BOOL(v) ((v) != 0)
#define DTYPE_DECODE_HALF(v) bcast_half_to_float(v)
#define DTYPE_DECODE_BF16(v) bcast_bf16_to_float(v)
#define DTYPE_DECODE_F8E4M3FN(v) bcast_f8e4m3fn_to_float(v)
#define DTYPE_DECODE_F8E5M2(v) bcast_f8e5m2_to_float(v)

/* One element as text, by kind.  v is the stored element, already copied
 * out of the (possibly unaligned) buffer. */
#define DTYPE_FORMAT_BCAST_KIND_BOOL(v, coding, digits)                       \
  snprintf(buf, cap, "%s", DTYPE_DECODE_##coding(v) ? "True" : "False")
#define DTYPE_FORMAT_BCAST_KIND_SIGNED(v, coding, digits)                     \
  snprintf(buf, cap, "%" PRId64, (int64_t)(v))
#define DTYPE_FORMAT_BCAST_KIND_UNSIGNED(v, coding, digits)                   \
  snprintf(buf, cap, "%" PRIu64, (uint64_t)(v))
#define DTYPE_FORMAT_BCAST_KIND_FLOAT(v, coding, digits)                      \
  snprintf(buf, cap, "%.*g", digits, (double)DTYPE_DECODE_##coding(v))
#define DTYPE_FORMAT_BCAST_KIND_STRING(v, coding, digits)                     \
  (int)format_string(&(v), buf, cap)

size_t bcast_dtype_format_value(bcast_dtype dtype, const void *elem, char *buf,
                                size_t cap) {
  int n;
  switch (dtype) {
#define DTYPE_FORMAT_CASE_(unused, id, name, ctype, size, kind, npy, mlir, S, \
                           VT, VS, coding, digits, tosa)                      \
  case BCAST_##id: {                                                          \
    ctype v;                                                                  \
    memcpy(&v, elem, sizeof v);                                               \
    n = DTYPE_FORMAT_##kind(v, coding, digits);                               \
    break;                                                                    \
  }
    BCAST_DTYPE_TABLE(DTYPE_FORMAT_CASE_, 0)
#undef DTYPE_FORMAT_CASE_
  default:
    n = snprintf(buf, cap, "?");
    break;
  }
  return n > 0 ? (size_t)n : 0;
}
