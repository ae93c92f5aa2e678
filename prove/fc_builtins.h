/* Included before every file Frama-C reads (scripts/prove.sh passes it with
 * -include).  Frama-C 25 knows GCC's typed overflow builtins
 * (__builtin_smull_overflow, ...), with ACSL contracts in its libc, but not
 * the type-generic __builtin_mul_overflow / __builtin_add_overflow the
 * library uses.  Every use in the analysed files has int64_t operands (or an
 * int promoted to it) and an int64_t result, where the generic builtin is
 * the long one (int64_t is long on x86_64 Linux, the machdep analysed); the
 * substitution below is that identity, not an approximation. */
#ifndef BCAST_PROVE_FC_BUILTINS_H
#define BCAST_PROVE_FC_BUILTINS_H
#include "__fc_gcc_builtins.h"
#define __builtin_mul_overflow(a, b, r)                                       \
  __builtin_smull_overflow((long)(a), (long)(b), (r))
#define __builtin_add_overflow(a, b, r)                                       \
  __builtin_saddl_overflow((long)(a), (long)(b), (r))
#endif
