/* Included (-include) in the WP runs.  Frama-C 25's libc gives vsnprintf
 * no precondition at all, and its snprintf contract is one WP cannot use
 * (an unbounded range), so a proof of a call to either would prove nothing
 * about the buffer.  The declarations below are the two with C11
 * 7.21.6.5 / 7.21.6.12's requirement (assumption W2 of docs/proofs.md):
 * with n > 0 they write within s[0 .. n - 1], which must be writable; the
 * macros make the analysed files' calls use them. */
#ifndef BCAST_PROVE_PRINTF_CONTRACT_H
#define BCAST_PROVE_PRINTF_CONTRACT_H
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/*@ requires room: n > 0 ==> \valid(s + (0 .. n - 1));
    assigns s[0 .. n - 1];
 */
int bcast__prove_vsnprintf(char *restrict s, size_t n,
                           const char *restrict format, va_list arg);
#define vsnprintf bcast__prove_vsnprintf

/*@ requires room: n > 0 ==> \valid(s + (0 .. n - 1));
    assigns s[0 .. n - 1];
 */
int bcast__prove_snprintf(char *restrict s, size_t n,
                          const char *restrict format, ...);
#define snprintf bcast__prove_snprintf
#endif
