/* The element type table: every function here is a lookup into one array
 * generated from BCAST_DTYPE_LIST, so adding a type is one row in dtype.h. */
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
#define DTYPE_ROW_(id, name, ctype, size, kind, npy, mlir) {name, size, kind, mlir},
    BCAST_DTYPE_LIST(DTYPE_ROW_)
#undef DTYPE_ROW_
};

/* The C storage size must match the declared element size for every row. */
#define DTYPE_SIZE_CHECK_(id, name, ctype, size, kind, npy, mlir)            \
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

bcast_status bcast_dtype_parse(const char *name, size_t len, bcast_dtype *out) {
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
