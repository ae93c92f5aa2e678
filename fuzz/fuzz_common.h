/* Shared by the libFuzzer harnesses: the input copied into a heap buffer of
 * exactly its size (no NUL after it, so ASan catches a read of text[len]),
 * and a failed invariant that stops the fuzzer with a message. */
#ifndef BCAST_FUZZ_COMMON_H
#define BCAST_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A copy of data[0..size) in a buffer of exactly size bytes (free it). */
static inline char *fuzz_exact_copy(const uint8_t *data, size_t size) {
  char *p = malloc(size ? size : 1);
  if (!p) abort();
  if (size) memcpy(p, data, size);
  return p;
}

/* An invariant broke: libFuzzer records abort() as a crash and saves the
 * input. */
#define FUZZ_CHECK(cond)                                                      \
  do {                                                                        \
    if (!(cond)) {                                                            \
      fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, __LINE__,    \
              #cond);                                                         \
      abort();                                                                \
    }                                                                         \
  } while (0)

/* A growing byte buffer for writer callbacks. */
typedef struct fuzz_sink {
  char *data;
  size_t len, cap;
} fuzz_sink;

static inline int fuzz_sink_put(fuzz_sink *s, const void *bytes, size_t len) {
  if (s->len + len > s->cap) {
    size_t cap = s->cap ? s->cap : 256;
    while (cap < s->len + len) cap *= 2;
    char *p = realloc(s->data, cap);
    if (!p) return 0;
    s->data = p;
    s->cap = cap;
  }
  if (len) memcpy(s->data + s->len, bytes, len);
  s->len += len;
  return 1;
}

#endif
