/* The AVX-512 kernel set: the float32 and float64 rows of IEEE arithmetic
 * (add, subtract, multiply, square) with the v3 set's loops compiled for
 * AVX-512 (F, BW, DQ, VL), whose 512-bit registers hold a whole cache line
 * of them; plans take it where the CPU has those (ew_build.c), else the
 * v3 set.  Each element is one IEEE operation either way, so the two give
 * the same bits and flags (tests/unit/test_ew_half.c compares them).
 *
 * Measured on the Intel Xeon VM (AVX-512, AVX512-FP16), one thread, a
 * prepared 64x64 + 64 float32 add in L1 (the peer harness's small_row),
 * mean of 200,000 calls: 157-159 ns a call in this set, 204-212 ns in the
 * v3 set; the same loop by hand 126-130 ns in 512-bit registers, 184-195
 * in 256-bit ones.  Divide is left out: 4096 float32 quotients by hand
 * took 762-792 ns in 512-bit registers against 653-721 in 256-bit ones,
 * 2048 float64 1097-1217 against 1052-1138. */
#include "ew/ew_kernel.h"

#if EW_HAVE_V4

/* X(op, function, UNARY or BINARY, type suffix, dtype, C type). */
#define EW_V4_LIST(X)                                                         \
  X(ADD, add, BINARY, f32, FLOAT32, float)                                    \
  X(SUB, sub, BINARY, f32, FLOAT32, float)                                    \
  X(MUL, mul, BINARY, f32, FLOAT32, float)                                    \
  X(SQUARE, square, UNARY, f32, FLOAT32, float)                               \
  X(ADD, add, BINARY, f64, FLOAT64, double)                                   \
  X(SUB, sub, BINARY, f64, FLOAT64, double)                                   \
  X(MUL, mul, BINARY, f64, FLOAT64, double)                                   \
  X(SQUARE, square, UNARY, f64, FLOAT64, double)

/* A row's kernels with ordinary stores (ewv_<op>_<type>_k, with its
 * strided kernel).  It has no non-temporal ones: plans take the v3 set's
 * there (ew_build.c), which write from 32-byte registers as they compute.
 * These loops' 64-byte results read back in 32-byte halves for the
 * streaming stores were slower: 64x1x256x64 + 1x32x256x1 float32 into 128
 * MiB, one thread, best of 100 calls, 21.3-21.7 GB/s against 22.6-22.9
 * for the v3 set's, and the peer harness's DRAM outer sum at two threads
 * fell from 93% to 89% of the limit. */
#define EW_V4_DEFINE_(OP, op, KIND, S, D, T)                                  \
  EW_##KIND##_SET_(EW_V4_, EW_##KIND##_STEP_, ewv_##op##_##S, T, ew_ld_same,  \
                   T, T, ew_st_same, ew_##op##_##S)
EW_V4_LIST(EW_V4_DEFINE_)

#define EW_V4_ROW_(OP, op, KIND, S, D, T)                                     \
  {BCAST_OP_##OP, BCAST_##D, ewv_##op##_##S##_k, NULL},
static const ew_native_row v4_rows[] = {EW_V4_LIST(EW_V4_ROW_)};

const ew_native_row *bcast__ew_find_v4(const ew_row *row) {
  return bcast__ew_native_lookup(v4_rows, sizeof v4_rows / sizeof v4_rows[0],
                                 row);
}

#else

const ew_native_row *bcast__ew_find_v4(const ew_row *row) {
  (void)row;
  return NULL;
}

#endif
