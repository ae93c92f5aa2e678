/* The native float16 kernel set: the float16 rows of IEEE arithmetic (add,
 * subtract, multiply, square) computed in float16 with AVX512-FP16
 * (vaddph and its kin), for CPUs that have it (Intel from Sapphire
 * Rapids); plans take it there (ew_build.c), else the v3 set, which
 * widens to float32 with F16C and narrows back.  Not divide: vdivph is
 * slower than widening to vdivps (Intel Xeon VM with AVX512-FP16, 16384
 * float16 a call in L2, best of 7 x 12,000 calls: add 0.053 ns an element
 * native against 0.064 in the v3 set, multiply 0.053 against 0.067,
 * divide 0.286 against 0.169).
 *
 * The two give the same bits.  Float32 has 24 bits of precision, more
 * than twice float16's 11 plus two, so a float32 sum, difference,
 * product or quotient of two float16 values rounded again to float16 is
 * the float16 result rounded once (double rounding is innocuous there);
 * a NaN operand comes out quieted with its payload in both; the flags
 * agree (overflow, underflow and inexact are those of the one rounding
 * to float16, invalid that of the operation).  tests/unit/test_ew_half.c
 * compares the sets bit for bit, flags included, where the CPU has both.
 *
 * Everything else on float16 (the math functions, comparisons, casts)
 * stays in the v3 set: none of it is faster than the memory in float32. */
#include "ew/ew_kernel.h"

#if EW_HAVE_FP16

__extension__ typedef _Float16 ew_h16;

EW_FP16_ static inline ew_h16 ew_h16_load(uint16_t bits) {
  ew_h16 h;
  memcpy(&h, &bits, sizeof h);
  return h;
}

EW_FP16_ static inline uint16_t ew_h16_store(ew_h16 h) {
  uint16_t bits;
  memcpy(&bits, &h, sizeof bits);
  return bits;
}

EW_IEEE_SCALARS_(h16, ew_h16, EW_FP16_)

/* X(op, function, UNARY or BINARY): the rows with native kernels. */
#define EW_FP16_LIST(X)                                                       \
  X(ADD, add, BINARY)                                                         \
  X(SUB, sub, BINARY)                                                         \
  X(MUL, mul, BINARY)                                                         \
  X(SQUARE, square, UNARY)

/* A row's two sets: ordinary stores (ewh_<op>_k, with its strided
 * kernel) and whole lines non-temporal (ewh_<op>_n_k), the loops of the
 * v3 set's float32 kernels over float16 values. */
#define EW_FP16_DEFINE_(OP, op, KIND)                                         \
  EW_##KIND##_SET_(EW_FP16_, EW_##KIND##_STEP_, ewh_##op, uint16_t,           \
                   ew_h16_load, ew_h16, uint16_t, ew_h16_store,               \
                   ew_##op##_h16)                                             \
      EW_##KIND##_VARIANTS_(EW_##KIND##_NT_STEP_, EW_FP16_, ewh_##op##_n,     \
                            NULL, uint16_t, ew_h16_load, ew_h16, uint16_t,    \
                            ew_h16_store, ew_##op##_h16)
EW_FP16_LIST(EW_FP16_DEFINE_)

#define EW_FP16_ROW_(OP, op, KIND)                                            \
  {BCAST_OP_##OP, BCAST_FLOAT16, ewh_##op##_k, ewh_##op##_n_k},
static const ew_native_row fp16_rows[] = {EW_FP16_LIST(EW_FP16_ROW_)};

const ew_native_row *bcast__ew_find_fp16(const ew_row *row) {
  return bcast__ew_native_lookup(fp16_rows,
                                 sizeof fp16_rows / sizeof fp16_rows[0], row);
}

#else

const ew_native_row *bcast__ew_find_fp16(const ew_row *row) {
  (void)row;
  return NULL;
}

#endif
