/* Internal: small lexical helpers shared by the MLIR and shape parsers. */
#ifndef BCAST_TYPE_TEXT_H
#define BCAST_TYPE_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "bcast/status.h"

/* The byte at t[i], or '\0' at and past the end.  Every scanner over
 * (text, len) looks ahead through this, never through t[i] behind a
 * separate bounds test, so none can read t[len]: the text is not
 * NUL-terminated (a buffer from a file, a slice of a larger text).  '\0'
 * is no character any grammar here accepts, so the end reads as a
 * mismatch; a real NUL inside the text is a mismatch too. */
static inline char bcast__peek(const char *t, size_t len, size_t i) {
  return i < len ? t[i] : '\0';
}

static inline int bcast__is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
         c == '\v';
}
static inline int bcast__is_digit(char c) { return c >= '0' && c <= '9'; }
static inline int bcast__is_ident(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         bcast__is_digit(c) || c == '_' || c == '$' || c == '.' || c == '-';
}

static inline size_t bcast__skip_spaces(const char *t, size_t len, size_t i) {
  while (bcast__is_space(bcast__peek(t, len, i))) i++;
  return i;
}

/* Skips white space and // comments. */
static inline size_t bcast__skip_trivia(const char *t, size_t len, size_t i) {
  for (;;) {
    i = bcast__skip_spaces(t, len, i);
    if (bcast__peek(t, len, i) == '/' && bcast__peek(t, len, i + 1) == '/') {
      while (i < len && t[i] != '\n') i++;
      continue;
    }
    return i;
  }
}

/* Parses decimal digits at t[i]; *end is past the last digit.  Returns
 * BCAST_OVERFLOW when the value exceeds INT64_MAX (still setting *end). */
static inline bcast_status bcast__parse_size(const char *t, size_t len,
                                             size_t i, int64_t *out,
                                             size_t *end) {
  int64_t v = 0;
  int overflow = 0;
  while (bcast__is_digit(bcast__peek(t, len, i))) {
    if (!overflow &&
        (__builtin_mul_overflow(v, 10, &v) ||
         __builtin_add_overflow(v, bcast__peek(t, len, i) - '0', &v)))
      overflow = 1;
    i++;
  }
  *end = i;
  *out = v;
  return overflow ? BCAST_OVERFLOW : BCAST_OK;
}

/* Past a "..." string starting at t[i] (escapes honoured; stops at a
 * newline for an unterminated string). */
size_t bcast__skip_string(const char *t, size_t len, size_t i);
/* Past one balanced run of type or attribute text starting at i; stops at
 * ',' or a closing bracket at depth 0, at "->" at depth 0, and at white
 * space at depth 0 when stop_at_space is set. */
size_t bcast__skip_balanced(const char *t, size_t len, size_t i,
                            int stop_at_space);

#endif
