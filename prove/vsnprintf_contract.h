/* Included (-include) in the WP run of src/core/status.c only.  Frama-C
 * 25's libc gives vsnprintf no precondition at all, so a proof of a call
 * to it would prove nothing about the buffer.  The declaration below is
 * vsnprintf with C11 7.21.6.12's requirement (assumption W2 of
 * docs/proofs.md): with n > 0 it writes within s[0 .. n - 1], which must
 * be writable; the macro makes the file's calls use it. */
#ifndef BCAST_PROVE_VSNPRINTF_CONTRACT_H
#define BCAST_PROVE_VSNPRINTF_CONTRACT_H
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/*@ requires room: n > 0 ==> \valid(s + (0 .. n - 1));
    assigns s[0 .. n - 1];
 */
int bcast__prove_vsnprintf(char *restrict s, size_t n,
                           const char *restrict format, va_list arg);
#define vsnprintf bcast__prove_vsnprintf
#endif
