/* vsnprintf as the analyses see it.  Frama-C 25's libc gives vsnprintf only
 * "assigns s[0..n-1] \from format[..], arg", which EVA reads as "the buffer
 * now holds the addresses the va_list points to": every later read of a
 * message byte would be an alarm about escaping addresses.  This body says
 * what C11 7.21.6.12 says instead, no more: with n > 0 it writes a text of
 * any bytes ending in a NUL within s[0..n-1], and it returns the full
 * length of the formatted text, or a negative value on an encoding error
 * (assumption A7 of prove/eva_main.c and docs/proofs.md).  It is linked
 * into the EVA run only; the library is never built with it. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>

#include "__fc_builtin.h"

int vsnprintf(char *restrict s, size_t n, const char *restrict format,
              va_list arg) {
  (void)format;
  (void)arg;
  if (n > 0) {
    Frama_C_make_unknown(s, n);
    s[n - 1] = '\0';
    s[Frama_C_size_t_interval(0, n - 1)] = '\0';
  }
  return Frama_C_int_interval(-1, INT_MAX);
}
