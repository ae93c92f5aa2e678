/* The emitter's growable output buffer, output lines and map table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit/emit_internal.h"

void bcast__emit_buf_put(emit_buf *b, const char *s, size_t n) {
  if (b->err != BCAST_OK || n == 0) return;
  if (n > SIZE_MAX - b->len - 1) {
    b->err = BCAST_OVERFLOW;
    return;
  }
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + n + 1) {
      if (cap > SIZE_MAX / 2) {
        b->err = BCAST_OVERFLOW;
        return;
      }
      cap *= 2;
    }
    char *p = bcast__realloc(b->data, cap);
    if (!p) {
      b->err = BCAST_NO_MEMORY;
      return;
    }
    b->data = p;
    b->cap = cap;
  }
  memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = '\0';
}

void bcast__emit_buf_vprintf(emit_buf *b, const char *fmt, va_list ap) {
  char small[512];
  va_list copy;
  va_copy(copy, ap);
  int n = vsnprintf(small, sizeof small, fmt, copy);
  va_end(copy);
  if (n < 0) {
    b->err = BCAST_INVALID_ARGUMENT;
    return;
  }
  if ((size_t)n < sizeof small) {
    bcast__emit_buf_put(b, small, (size_t)n);
    return;
  }
  char *big = bcast__malloc((size_t)n + 1);
  if (!big) {
    if (b->err == BCAST_OK) b->err = BCAST_NO_MEMORY;
    return;
  }
  vsnprintf(big, (size_t)n + 1, fmt, ap);
  bcast__emit_buf_put(b, big, (size_t)n);
  bcast__free(big);
}

void bcast__emit_buf_printf(emit_buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  bcast__emit_buf_vprintf(b, fmt, ap);
  va_end(ap);
}

void bcast__emit_buf_free(emit_buf *b) {
  bcast__free(b->data);
  b->data = NULL;
  b->len = b->cap = 0;
}

void bcast__emit_line(emit_ctx *c, int level, const char *fmt, ...) {
  if (!c->first_line) {
    bcast__emit_buf_put(&c->out, "\n", 1);
    bcast__emit_buf_put(&c->out, c->indent, c->indent_len);
    for (int i = 0; i < level; i++) bcast__emit_buf_put(&c->out, "  ", 2);
  }
  c->first_line = 0;
  va_list ap;
  va_start(ap, fmt);
  bcast__emit_buf_vprintf(&c->out, fmt, ap);
  va_end(ap);
}

int bcast__emit_map(emit_ctx *c, const char *map_text, char *alias,
                    size_t size) {
  size_t i;
  for (i = 0; i < c->n_maps; i++)
    if (strcmp(c->maps[i], map_text) == 0) break;
  if (i == c->n_maps) {
    if (c->n_maps == EMIT_MAX_MAPS) {
      if (c->out.err == BCAST_OK) c->out.err = BCAST_OVERFLOW;
      return 0;
    }
    size_t n = strlen(map_text);
    char *copy = bcast__malloc(n + 1);
    if (!copy) {
      if (c->out.err == BCAST_OK) c->out.err = BCAST_NO_MEMORY;
      return 0;
    }
    memcpy(copy, map_text, n + 1);
    c->maps[c->n_maps++] = copy;
  }
  snprintf(alias, size, "#%s%zu", c->map_prefix, i);
  return 1;
}

void bcast__emit_tensor_type(const bcast_shape *shape, bcast_dtype dtype,
                             char *buf, size_t size) {
  size_t len = 0;
  bcast__append(buf, size, &len, "tensor<");
  for (int32_t d = 0; d < shape->rank; d++) {
    if (BCAST_DIM_IS_DYNAMIC(shape->dims[d]))
      bcast__append(buf, size, &len, "?x");
    else
      bcast__append(buf, size, &len, "%lldx", (long long)shape->dims[d]);
  }
  bcast__append(buf, size, &len, "%s>", bcast_dtype_mlir_name(dtype));
}
