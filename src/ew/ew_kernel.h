/* Loops around the scalar functions of ew_scalar.h, generated once per
 * arity and variant, and the table that finds them.
 *
 * A kernel is the engine's two-dimensional kind (bcast_rows_kernel_fn: rows
 * runs of n elements, operand 0 the output).  The strides along the run
 * pick the variant; the row strides are free.  For an op of arity N there
 * are 1 + 2^N variants:
 *   0          strided: any byte strides;
 *   1 + mask   the output contiguous and each input either contiguous (its
 *              bit in mask set) or broadcast along the run (stride 0, its
 *              value loaded once before the loop).
 * The contiguous variants index with constant steps (0 or 1), so the
 * compiler folds the steps and vectorizes the loops.  Each instance also
 * has an element function (one element through the same scalar function:
 * the reference path of the tests) and an unpredictability test (checked
 * mode).
 *
 * Instances are listed with X-macros over type lists.  A type list entry is
 *   (..., ID, S, storage type, value type, VS, load, store)
 * where VS names the scalar functions' suffix (float16 and bfloat16 use the
 * float32 functions) and load/store convert between storage and value. */
#ifndef BCAST_EW_KERNEL_H
#define BCAST_EW_KERNEL_H

#include "bcast/elementwise.h"
#include "bcast/plan.h"
#include "ew/ew_scalar.h"

/* Kernel flavours: the tosa profile's NEGATE (saturating, zero points) and
 * float -> integer CAST (round half even, saturating) differ from numpy's. */
enum { EW_FLAVOUR_ANY = 0, EW_FLAVOUR_TOSA = 1 };

typedef void (*ew_elem_fn)(char *out, char *const *in, const ew_params *p);
typedef int (*ew_unpred_fn)(char *const *in, const ew_params *p);

typedef struct ew_row {
  bcast_op op;
  int flavour;
  bcast_dtype in, out;                 /* SELECT: in is the values' type */
  const bcast_rows_kernel_fn *kernels; /* 1 + 2^arity variants */
  const bcast_rows_kernel_fn *kernels_avx2; /* the same, v3 set (AVX2, F16C) */
  /* The v3 set's contiguous-output variants writing whole 64-byte lines
   * with non-temporal stores (entry 0, the strided variant, is NULL);
   * NULL where there is no v3 set. */
  const bcast_rows_kernel_fn *kernels_nt;
  ew_elem_fn elem;
  ew_unpred_fn unpred;
} ew_row;

/* The row for (op, flavour, input type, result type), or NULL.  A tosa
 * flavour request falls back to the common row. */
const ew_row *bcast__ew_find(bcast_op op, int flavour, bcast_dtype in,
                             bcast_dtype out);

/* A row's kernels in a set beyond v3, with the same variants as
 * kernels_avx2 and kernels_nt: the native float16 set (AVX512-FP16,
 * ew_k_fp16.c), computing in float16 where the v3 set widens to float32,
 * and the AVX-512 set (ew_k_v4.c), the float32 and float64 loops in
 * 512-bit registers.  Only IEEE arithmetic rows (EW_IEEE_SCALARS_) have
 * them, and they give the v3 set's bits: each is one correctly rounded
 * operation (float32 arithmetic rounded to float16 is the float16 result
 * exactly: float32 has more than twice float16's precision and two
 * bits). */
typedef struct ew_native_row {
  bcast_op op;
  bcast_dtype dtype; /* of the inputs and the result */
  const bcast_rows_kernel_fn *kernels;
  const bcast_rows_kernel_fn *kernels_nt; /* NULL: the v3 set's */
} ew_native_row;

/* The entry of rows[0, n) for the common-flavour row `row` (its op, its
 * inputs' and result's type), or NULL (ew_dispatch.c). */
const ew_native_row *bcast__ew_native_lookup(const ew_native_row *rows,
                                             size_t n, const ew_row *row);

/* The row's native float16 kernels, or NULL where it has none or the
 * build has no native float16 set (EW_HAVE_FP16). */
const ew_native_row *bcast__ew_find_fp16(const ew_row *row);
/* The row's AVX-512 kernels, or NULL where it has none or the build has
 * no AVX-512 set (EW_HAVE_V4). */
const ew_native_row *bcast__ew_find_v4(const ew_row *row);

/* Every row of every kernel file, for the coverage test. */
size_t bcast__ew_row_count(void);
const ew_row *bcast__ew_row_at(size_t index);

/* ------------------------------------------------------------------------ */
/* Type lists: the rows of the dtype table (BCAST_DTYPE_TABLE in
 * bcast/dtype.h) of the kinds a list covers, in table order, each as
 *   X(..., ID, S, storage type, value type, VS, load, store).
 * The load and store follow from the row's coding. */

#define EW_LOAD_PLAIN ew_ld_same
#define EW_STORE_PLAIN ew_st_same
#define EW_LOAD_BOOL ew_ld_bool
#define EW_STORE_BOOL ew_st_same
#define EW_LOAD_HALF ew_f16_load
#define EW_STORE_HALF ew_f16_store
#define EW_LOAD_BF16 ew_bf16_load
#define EW_STORE_BF16 ew_bf16_store
#define EW_LOAD_F8E4M3FN ew_f8e4m3fn_load
#define EW_STORE_F8E4M3FN ew_f8e4m3fn_store
#define EW_LOAD_F8E5M2 ew_f8e5m2_load
#define EW_STORE_F8E5M2 ew_f8e5m2_store

/* Which rows a list takes: one flag per kind (bool, signed, unsigned,
 * float), 1 for every type of the kind, T for its TOSA types only, C for
 * its CAST_ONLY types only (the fp8 types, which the other flags leave
 * out: they have kernels of CAST and of the float ops only), A for all of
 * them, 0 for none.
 * Strings have no kernels. */
#define EW_KIND_FLAG_BCAST_KIND_BOOL(b, s, u, f) b
#define EW_KIND_FLAG_BCAST_KIND_SIGNED(b, s, u, f) s
#define EW_KIND_FLAG_BCAST_KIND_UNSIGNED(b, s, u, f) u
#define EW_KIND_FLAG_BCAST_KIND_FLOAT(b, s, u, f) f
#define EW_KIND_FLAG_BCAST_KIND_STRING(b, s, u, f) 0
/* EW_WHEN_(flag, in TOSA)(...) keeps its arguments if the row is taken. */
#define EW_WHEN_(flag, tosa) EW_WHEN_CAT_(flag, tosa)
#define EW_WHEN_CAT_(flag, tosa) EW_WHEN_##flag##_##tosa
#define EW_WHEN_0_0(...)
#define EW_WHEN_0_1(...)
#define EW_WHEN_1_0(...) EW_CALL_(__VA_ARGS__)
#define EW_WHEN_1_1(...) EW_CALL_(__VA_ARGS__)
#define EW_WHEN_T_0(...)
#define EW_WHEN_T_1(...) EW_CALL_(__VA_ARGS__)
#define EW_WHEN_0_CAST_ONLY(...)
#define EW_WHEN_1_CAST_ONLY(...)
#define EW_WHEN_T_CAST_ONLY(...)
#define EW_WHEN_C_0(...)
#define EW_WHEN_C_1(...)
#define EW_WHEN_C_CAST_ONLY(...) EW_CALL_(__VA_ARGS__)
#define EW_WHEN_A_0(...) EW_CALL_(__VA_ARGS__)
#define EW_WHEN_A_1(...) EW_CALL_(__VA_ARGS__)
#define EW_WHEN_A_CAST_ONLY(...) EW_CALL_(__VA_ARGS__)
/* EW_CALL_(X, (args), row) is X(args, row).  The call is made in a
 * replacement list, never inside another macro's argument, so X's
 * expansion is scanned exactly once (the cast kernels' deferred inner loop
 * depends on that, see ew_k_cast.c). */
#define EW_CALL_(X, ARGS, ...) EW_APPLY_(X, EW_UNPAREN_ ARGS, __VA_ARGS__)
#define EW_APPLY_(X, ...) X(__VA_ARGS__)
#define EW_UNPAREN_(...) __VA_ARGS__

#define EW_FOR_ROW_(X, b, s, u, f, ARGS, ID, name, ST, size, kind, npy, mlir, \
                    S, VT, VS, coding, digits, tosa)                          \
  EW_WHEN_(EW_KIND_FLAG_##kind(b, s, u, f), tosa)                             \
  (X, ARGS, ID, S, ST, VT, VS, EW_LOAD_##coding, EW_STORE_##coding, kind,     \
   coding)
#define EW_FOR_KINDS_(b, s, u, f, X, ...)                                     \
  BCAST_DTYPE_TABLE(EW_FOR_ROW_, X, b, s, u, f, (__VA_ARGS__))

#define EW_FOR_BOOL(X, ...) EW_FOR_KINDS_(1, 0, 0, 0, X, __VA_ARGS__)
#define EW_FOR_SINT(X, ...) EW_FOR_KINDS_(0, 1, 0, 0, X, __VA_ARGS__)
#define EW_FOR_UINT(X, ...) EW_FOR_KINDS_(0, 0, 1, 0, X, __VA_ARGS__)
#define EW_FOR_FLOAT(X, ...) EW_FOR_KINDS_(0, 0, 0, 1, X, __VA_ARGS__)
#define EW_FOR_INT(X, ...) EW_FOR_KINDS_(0, 1, 1, 0, X, __VA_ARGS__)
#define EW_FOR_NUM(X, ...) EW_FOR_KINDS_(0, 1, 1, 1, X, __VA_ARGS__)
#define EW_FOR_ALL(X, ...) EW_FOR_KINDS_(1, 1, 1, 1, X, __VA_ARGS__)
#define EW_FOR_INT_BOOL(X, ...) EW_FOR_KINDS_(1, 1, 1, 0, X, __VA_ARGS__)
/* TOSA's signed integers (int8, int16, int32) and floats (float16,
 * bfloat16, float32). */
#define EW_FOR_TOSA_SINT(X, ...) EW_FOR_KINDS_(0, T, 0, 0, X, __VA_ARGS__)
#define EW_FOR_TOSA_FLOAT(X, ...) EW_FOR_KINDS_(0, 0, 0, T, X, __VA_ARGS__)
/* The 8-bit floats (float8_e4m3fn, float8_e5m2): CAST's, and the ops
 * whose MLIR 22 lowering mlir-opt folds on them (EW_FP8_UNARY_LIST,
 * EW_FP8_BINARY_LIST, SELECT). */
#define EW_FOR_FP8(X, ...) EW_FOR_KINDS_(0, 0, 0, C, X, __VA_ARGS__)
/* Every float, the 8-bit ones too: the float32 function rounded once
 * serves them all (the math ops, ceil, floor). */
#define EW_FOR_FLOAT_FP8(X, ...) EW_FOR_KINDS_(0, 0, 0, A, X, __VA_ARGS__)
/* The row of an op on an 8-bit float computed in float32 and rounded once
 * (ew_<op>_f8 of ew_scalar.h), unary or binary alike: X(NAME, OP, flavour,
 * in, out, ...) as the kernel files' lists take it. */
#define EW_F8_ROW_(X, OP, op, ID, S, ST, VT, VS, LD, SD, ...)                 \
  X(ewk_##op##_##S, OP, ANY, ID, ID, ST, LD, VT, ST, SD, ew_##op##_f8,        \
    ew_unpred_##op##_f32)

/* ------------------------------------------------------------------------ */
/* The plain binary loop's vector loop unrolled four times.  A loop of one
 * load, one operation and one store a vector runs at the speed of its
 * place in the code on Zen 4: 64x64 + 64 float32, one thread, the float32
 * add kernel built from these macros at eight places in one program took
 * 191-323 ns a call as it is, 166-195 ns unrolled twice, 167-169 ns
 * unrolled four times (and eight).  The scalar remainder is the loop's
 * own, so the values are the same. */
#if defined(__clang__)
#define EW_UNROLL4_ _Pragma("clang loop unroll_count(4)")
#else
#define EW_UNROLL4_ _Pragma("GCC unroll 4")
#endif

/* Loops.  NAME is the instance; TA/LA the input storage type and load, VA
 * its value type; TR/SR the output storage type and store; FN the scalar
 * function, UN its unpredictability test. */

#define EW_PARAMS_ const ew_params P = *(const ew_params *)params

/* Each loop is compiled twice: for the baseline (SSE2 on x86-64) and, on
 * x86 with GCC or Clang, for AVX2 with F16C (the "v3" set) through a target
 * attribute; plans take the v3 set when the CPU has both (ew_build.c).
 * Elsewhere the second set is a plain copy of the first.  FMA is left out
 * on purpose: contracted a * b + c would round differently from the
 * portable set, and the two sets must give the same bits. */
#define EW_PORTABLE_
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define EW_HAVE_AVX2 1
#include "ew/ew_half_block.h"
#define EW_AVX2_ EW_V3_TARGET_
#else
#define EW_HAVE_AVX2 0
#define EW_AVX2_
#endif

/* The native float16 set (ew_k_fp16.c) needs GCC 12 or later on x86-64:
 * clang 14 has no _Float16 there without -mavx512fp16 for the whole
 * file.  The set's functions carry EW_FP16_, whose target includes the v3
 * set's (the non-temporal line writers are shared). */
#if EW_HAVE_AVX2 && defined(__x86_64__) && !defined(__clang__) &&            \
    __GNUC__ >= 12
#define EW_HAVE_FP16 1
#define EW_FP16_                                                              \
  __attribute__((target("avx512fp16,avx512vl,avx512bw,avx512dq,avx512f,avx2," \
                        "f16c")))
#else
#define EW_HAVE_FP16 0
#endif

/* The AVX-512 set (ew_k_v4.c): x86-64 with GCC or Clang.  EW_V4_'s target
 * includes the v3 set's, as EW_FP16_'s does. */
#if EW_HAVE_AVX2 && defined(__x86_64__)
#define EW_HAVE_V4 1
#define EW_V4_                                                                \
  __attribute__((target("avx512vl,avx512bw,avx512dq,avx512f,avx2,f16c")))
#else
#define EW_HAVE_V4 0
#endif

/* Non-temporal kernels.  An output larger than the last-level cache costs
 * a read for ownership of every line it writes, unless the line is written
 * whole with non-temporal stores.  GCC has no portable non-temporal store,
 * so the v3 set has a third kind of step loop: a row's first elements up
 * to its output's 64-byte line boundary and its last partial line go as
 * in the plain loop, and each whole line in between is computed into a
 * line-sized local array by the plain loop's body (kept from unrolling, so
 * that it vectorizes as the plain loop does: one or two vector operations
 * per line, the array a register) and written with two 32-byte
 * non-temporal stores.  The stores are left unfenced: the engine fences
 * once per thread after its last run.  Measured on an AMD EPYC (Zen 4),
 * 4096x4096 + 4096 float32 into a warm 64 MiB output, one thread: 5.97 ms
 * through a 4 KiB block on the stack copied out with non-temporal stores
 * (ew_nt_store.c's wrapper, which the other kernel sets still use), about
 * 3.7 ms writing the lines from the kernel. */
#if EW_HAVE_AVX2
#if defined(__clang__)
#define EW_NO_UNROLL_ _Pragma("clang loop unroll(disable)")
#else
#define EW_NO_UNROLL_ _Pragma("GCC unroll 0")
#endif
/* bytes (a multiple of 64) from src to dst, 64-byte aligned, with
 * 32-byte non-temporal stores, each of two 16-byte loads: where the
 * compiler leaves the line array in memory it writes it 16 bytes at a time
 * at most (the half-coding blocks' conversions, a select it unswitches),
 * and a 32-byte load spanning two such stores would wait for them to
 * reach the cache instead of being forwarded from the store buffer
 * (measured on Zen 4, 4096x4096 float16 add: 35% of the STREAM limit with
 * 32-byte loads, 92% with 16-byte ones). */
/* The same with 32-byte loads, for the plain unary and binary runs,
 * whose line array the compiler keeps in registers: there a 16-byte pair
 * costs an extract and an insert per store (measured on Zen 4, 4096x4096
 * + 4096 float32, one thread: 3.80 ms with 16-byte loads, 3.32 ms with
 * 32-byte ones, as fast as a loop of _mm256_stream_ps).  Not for select,
 * whose branches GCC unswitches with the array in memory (where_col_row
 * fell to a quarter of its speed). */
EW_V3_TARGET_ static inline void ew_v3_nt_lines32(void *dst, const void *src,
                                                  int64_t bytes) {
  const char *s = src;
  for (int64_t i = 0; i < bytes; i += 32)
    _mm256_stream_si256(
        (__m256i *)(void *)((char *)dst + i),
        _mm256_loadu_si256((const __m256i *)(const void *)(s + i)));
}

EW_V3_TARGET_ static inline void ew_v3_nt_lines(void *dst, const void *src,
                                                int64_t bytes) {
  const char *s = src;
  for (int64_t i = 0; i < bytes; i += 32) {
    const __m128i lo = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
    const __m128i hi =
        _mm_loadu_si128((const __m128i *)(const void *)(s + i + 16));
    _mm256_stream_si256((__m256i *)(void *)((char *)dst + i),
                        _mm256_set_m128i(hi, lo));
  }
}

/* The line writer of a run from TA elements into TR ones: 32-byte loads
 * where the two have one width (the compiler computes the line in
 * registers), 16-byte ones otherwise (a widening or narrowing conversion
 * builds the line in memory in 16-byte pieces: int8 -> float32 fell from
 * 34 to 7 GB/s with 32-byte loads). */
#define EW_NT_LINES_(TA, TR)                                                  \
  (sizeof(TA) == sizeof(TR) ? ew_v3_nt_lines32 : ew_v3_nt_lines)

/* One row's run of n elements r[i] = the expression (the rest of the
 * arguments, of i), after DECLS (parenthesized statements of i), with
 * whole 64-byte lines of r non-temporal, written from the line array by
 * LINES (EW_NT_LINES_; select always ew_v3_nt_lines).  r is aligned to
 * its element size (plans refuse other layouts), so the line boundary is
 * a whole number of elements away. */
#define EW_NT_RUN_(LINES, TR, r, n, DECLS, ...)                               \
  {                                                                           \
    enum { L_ = 64 / sizeof(TR) };                                            \
    int64_t at_ = (int64_t)((-(uintptr_t)(r)&63u) / sizeof(TR));              \
    if (at_ > (n)) at_ = (n);                                                 \
    for (int64_t i = 0; i < at_; i++) {                                       \
      EW_UNPAREN_ DECLS r[i] = (__VA_ARGS__);                                 \
    }                                                                         \
    for (; at_ + L_ <= (n); at_ += L_) {                                      \
      TR line_[L_];                                                           \
      EW_NO_UNROLL_ for (int64_t k_ = 0; k_ < L_; k_++) {                     \
        const int64_t i = at_ + k_;                                           \
        EW_UNPAREN_ DECLS line_[k_] = (__VA_ARGS__);                          \
      }                                                                       \
      LINES(r + at_, line_, 64);                                              \
    }                                                                         \
    for (int64_t i = at_; i < (n); i++) {                                     \
      EW_UNPAREN_ DECLS r[i] = (__VA_ARGS__);                                 \
    }                                                                         \
  }

/* Rows in groups of EW_NT_GROUP, where one input repeats along the rows
 * (a row broadcast: its row stride 0): each whole line is computed for the
 * group's rows, then the group's lines are written.  Row by row, the
 * streamed input evicts the repeated row from L1 between rows, and each of
 * its lines comes from L2 again, a second miss per line of output; in
 * groups, a line of it is read by four rows in a row.  The loads come
 * before the group's stores: a load after a non-temporal store to an
 * address of the same offset in its 4 KiB page (rows of a power of two
 * bytes, buffers on 2 MiB boundaries) waits for it.  Measured on Zen 4,
 * with huge pages, into a warm output, one thread, loops of
 * _mm256_stream_ps: 8192x16384 + 16384 float32, 33.5 ms row by row, 24.8
 * ms in groups (loads interleaved with the stores: 35.3 ms), 24.3 ms for
 * the same stores from one input (STREAM's scale); 4096x4096 + 4096, 3.50
 * and 3.37 ms.  The output's rows must be a whole number of lines apart
 * (every row's lines start at the same element); rp, rr: the first row
 * and the row stride in bytes; BIND (parenthesized statements of q_, the
 * row in the group) points the inputs at row q_. */
#define EW_NT_GROUP 4 /* EW_NT_GROUP_RUN_ spells out four rows */
#define EW_NT_GROUP_LINE_(q, TR, BIND, DECLS, ...)                            \
  {                                                                           \
    const int q_ = (q);                                                       \
    EW_UNPAREN_ BIND EW_NO_UNROLL_ for (int64_t k_ = 0; k_ < L_; k_++) {      \
      const int64_t i = at_ + k_;                                             \
      EW_UNPAREN_ DECLS line_[q][k_] = (__VA_ARGS__);                         \
    }                                                                         \
  }
#define EW_NT_GROUP_RUN_(LINES, TR, n, rp, rr, BIND, DECLS, ...)              \
  {                                                                           \
    enum { L_ = 64 / sizeof(TR) };                                            \
    int64_t at_ = (int64_t)((-(uintptr_t)(rp)&63u) / sizeof(TR));             \
    if (at_ > (n)) at_ = (n);                                                 \
    const int64_t head_ = at_;                                                \
    for (; at_ + L_ <= (n); at_ += L_) {                                      \
      TR line_[EW_NT_GROUP][L_];                                              \
      EW_NT_GROUP_LINE_(0, TR, BIND, DECLS, __VA_ARGS__)                      \
      EW_NT_GROUP_LINE_(1, TR, BIND, DECLS, __VA_ARGS__)                      \
      EW_NT_GROUP_LINE_(2, TR, BIND, DECLS, __VA_ARGS__)                      \
      EW_NT_GROUP_LINE_(3, TR, BIND, DECLS, __VA_ARGS__)                      \
      for (int q_ = 0; q_ < EW_NT_GROUP; q_++)                                \
        LINES((TR *)((rp) + q_ * (rr)) + at_, line_[q_], 64);                 \
    }                                                                         \
    for (int q_ = 0; q_ < EW_NT_GROUP; q_++) {                                \
      TR *const r = (TR *)((rp) + q_ * (rr));                                 \
      EW_UNPAREN_ BIND for (int64_t i = 0; i < head_; i++) {                  \
        EW_UNPAREN_ DECLS r[i] = (__VA_ARGS__);                               \
      }                                                                       \
      for (int64_t i = at_; i < (n); i++) {                                   \
        EW_UNPAREN_ DECLS r[i] = (__VA_ARGS__);                               \
      }                                                                       \
    }                                                                         \
  }

/* The same for the blocked loops (half codings): the body (the rest of
 * the arguments) computes the m elements of block i0 into d_[0, m).  Whole
 * lines go in groups of G_ elements, whole blocks filling whole lines
 * (two blocks per line for a one-byte output), through a local array. */
#define EW_NT_BLOCKED_RUN_(TR, r, n, ...)                                     \
  {                                                                           \
    enum {                                                                    \
      G_ = EW_BLOCK * sizeof(TR) >= 64 ? EW_BLOCK : 64 / sizeof(TR)           \
    };                                                                        \
    int64_t at_ = (int64_t)((-(uintptr_t)(r)&63u) / sizeof(TR));              \
    if (at_ > (n)) at_ = (n);                                                 \
    for (int64_t i0 = 0; i0 < at_; i0 += EW_BLOCK) {                          \
      const int64_t m = at_ - i0 < EW_BLOCK ? at_ - i0 : EW_BLOCK;            \
      TR *const d_ = r + i0;                                                  \
      __VA_ARGS__                                                             \
    }                                                                         \
    for (; at_ + G_ <= (n); at_ += G_) {                                      \
      TR line_[G_];                                                           \
      for (int64_t g_ = 0; g_ < G_; g_ += EW_BLOCK) {                         \
        const int64_t i0 = at_ + g_, m = EW_BLOCK;                            \
        TR *const d_ = line_ + g_;                                            \
        __VA_ARGS__                                                           \
      }                                                                       \
      ew_v3_nt_lines(r + at_, line_, (int64_t)sizeof line_);                  \
    }                                                                         \
    for (int64_t i0 = at_; i0 < (n); i0 += EW_BLOCK) {                        \
      const int64_t m = (n)-i0 < EW_BLOCK ? (n)-i0 : EW_BLOCK;                \
      TR *const d_ = r + i0;                                                  \
      __VA_ARGS__                                                             \
    }                                                                         \
  }
#endif

/* Every kernel is two-dimensional (bcast_rows_kernel_fn): rows runs of n
 * elements, run j of operand k at ptrs[k] + j * row_strides[k].  The row
 * strides are copied to locals first (the output's stores could alias
 * them as far as the compiler knows); a broadcast input's value is loaded
 * once per row. */
#define EW_KERNEL_HEAD_(NAME, ATTR)                                           \
  ATTR static void NAME(int64_t rows, int64_t n, char *const *ptrs,           \
                        const int64_t *strides, const int64_t *row_strides,   \
                        const void *params)

/* float16 and bfloat16 in the v3 set: blocked runs.
 *
 * A scalar half <-> float conversion costs dozens of instructions, and a
 * compiler does not turn it into F16C's vector ones.  So in the v3 set a
 * contiguous or broadcast run of a row that loads or stores float16 or
 * bfloat16 goes in blocks of EW_BLOCK elements: the contiguous half inputs
 * are converted into float arrays on the stack (ew_half_block.h), the
 * scalar function runs over the block (a plain float loop, which
 * vectorizes as the float32 kernels do) into a float array, and that is
 * converted back.  Inputs and outputs of the other codings in such a row
 * (a cast between float16 and int32, say) are read and written in place.
 * The other rows, and every strided variant, keep the plain loops.
 *
 * Per load LA (the type lists' EW_LOAD_* names): EW_BLK_DECL_LA(buf)
 * declares the block's float array, EW_BLK_LD_LA(buf, src, m, repair)
 * fills it (repair: 0 where the block's function quiets every NaN operand,
 * EW_QUIETS_ below),
 * EW_BLK_AT_LA(buf, src, i) is element i's value.  Per store SR:
 * EW_BLK_DECL_SR(buf), EW_BLK_OUT_SR(buf, dst, i) the lvalue element i's
 * result goes to, EW_BLK_ST_SR(dst, buf, m) the conversion back.
 * EW_HALF_<load or store> is 1 for the half codings. */
#define EW_BLOCK 32
/* GCC turns a block's copy loop (a float16 -> float32 cast) into an inline
 * rep movsq, slow for a kilobyte; the blocked loops are vectorized
 * instead. */
#if defined(__GNUC__) && !defined(__clang__)
#define EW_BLK_ATTR_                                                          \
  __attribute__((optimize("no-tree-loop-distribute-patterns")))
#else
#define EW_BLK_ATTR_
#endif
#define EW_BLK_NONE_(...) (void)0
/* EW_QUIETS_(FN) is 1 for the float functions whose result is a quiet NaN
 * for any NaN operand and that raise "invalid" for a signalling one (IEEE
 * arithmetic), 0 for every other: a float16 block of the first kind loads
 * without repairing signalling NaNs (ew_v3_f16_load_block).  The list
 * names the float32 functions of EW_IEEE_SCALARS_ (ew_scalar.h), those
 * the float16 rows use. */
#define EW_QUIETS_(FN) EW_SECOND_(EW_QUIETS_##FN, 0, ~)
#define EW_SECOND_(...) EW_SECOND_OF_(__VA_ARGS__)
#define EW_SECOND_OF_(a, b, ...) b
#define EW_QUIETS_ew_add_f32 ~, 1
#define EW_QUIETS_ew_sub_f32 ~, 1
#define EW_QUIETS_ew_mul_f32 ~, 1
#define EW_QUIETS_ew_divide_f32 ~, 1
#define EW_QUIETS_ew_square_f32 ~, 1
#define EW_BLK_DECL_NONE_(buf)
#define EW_BLK_DECL_FLOAT_(buf) float buf[EW_BLOCK];
#define EW_BLK_AT_BUF_(buf, src, i) (buf)[i]
#define EW_BLK_DECL_ew_ld_same EW_BLK_DECL_NONE_
#define EW_BLK_DECL_ew_ld_bool EW_BLK_DECL_NONE_
#define EW_BLK_DECL_ew_f16_load EW_BLK_DECL_FLOAT_
#define EW_BLK_DECL_ew_bf16_load EW_BLK_DECL_NONE_
#define EW_BLK_LD_ew_ld_same EW_BLK_NONE_
#define EW_BLK_LD_ew_ld_bool EW_BLK_NONE_
#define EW_BLK_LD_ew_f16_load ew_v3_f16_load_block
#define EW_BLK_LD_ew_bf16_load EW_BLK_NONE_
#define EW_BLK_AT_ew_ld_same(buf, src, i) ew_ld_same((src)[i])
#define EW_BLK_AT_ew_ld_bool(buf, src, i) ew_ld_bool((src)[i])
#define EW_BLK_AT_ew_f16_load EW_BLK_AT_BUF_
#define EW_BLK_AT_ew_bf16_load(buf, src, i) ew_bf16_load((src)[i])
#define EW_BLK_DECL_ew_st_same EW_BLK_DECL_NONE_
#define EW_BLK_DECL_ew_f16_store EW_BLK_DECL_FLOAT_
#define EW_BLK_DECL_ew_bf16_store EW_BLK_DECL_FLOAT_
#define EW_BLK_OUT_ew_st_same(buf, dst, i) (dst)[i]
#define EW_BLK_OUT_ew_f16_store(buf, dst, i) (buf)[i]
#define EW_BLK_OUT_ew_bf16_store(buf, dst, i) (buf)[i]
#define EW_BLK_ST_ew_st_same EW_BLK_NONE_
#define EW_BLK_ST_ew_f16_store ew_v3_f16_store_block
#define EW_BLK_ST_ew_bf16_store ew_v3_bf16_store_block
#define EW_HALF_ew_ld_same 0
#define EW_HALF_ew_ld_bool 0
#define EW_HALF_ew_st_same 0
#define EW_HALF_ew_f16_load 1
#define EW_HALF_ew_bf16_load 0
#define EW_HALF_ew_f16_store 1
#define EW_HALF_ew_bf16_store 1
/* The 8-bit floats: loaded in place, and stored one by one from a float
 * block where the row's input is a half coding (float16 -> fp8). */
#define EW_BLK_ST_EACH_(STORE, dst, buf, m)                                   \
  for (int64_t j_ = 0; j_ < (m); j_++)                                        \
  (dst)[j_] = STORE((buf)[j_])
#define EW_BLK_DECL_ew_f8e4m3fn_store EW_BLK_DECL_FLOAT_
#define EW_BLK_DECL_ew_f8e5m2_store EW_BLK_DECL_FLOAT_
#define EW_BLK_OUT_ew_f8e4m3fn_store(buf, dst, i) (buf)[i]
#define EW_BLK_OUT_ew_f8e5m2_store(buf, dst, i) (buf)[i]
#define EW_BLK_ST_ew_f8e4m3fn_store(dst, buf, m)                              \
  EW_BLK_ST_EACH_(ew_f8e4m3fn_store, dst, buf, m)
#define EW_BLK_ST_ew_f8e5m2_store(dst, buf, m)                                \
  EW_BLK_ST_EACH_(ew_f8e5m2_store, dst, buf, m)
#define EW_BLK_DECL_ew_f8e4m3fn_load EW_BLK_DECL_NONE_
#define EW_BLK_DECL_ew_f8e5m2_load EW_BLK_DECL_NONE_
#define EW_BLK_LD_ew_f8e4m3fn_load EW_BLK_NONE_
#define EW_BLK_LD_ew_f8e5m2_load EW_BLK_NONE_
#define EW_BLK_AT_ew_f8e4m3fn_load(buf, src, i) ew_f8e4m3fn_load((src)[i])
#define EW_BLK_AT_ew_f8e5m2_load(buf, src, i) ew_f8e5m2_load((src)[i])
#define EW_HALF_ew_f8e4m3fn_load 0
#define EW_HALF_ew_f8e5m2_load 0
#define EW_HALF_ew_f8e4m3fn_store 0
#define EW_HALF_ew_f8e5m2_store 0

/* EW_V3_STEP_(PLAIN, BLOCKED, LA, SR): the step-loop macro of the v3 set,
 * BLOCKED where the row's load LA or store SR is a half coding. */
#if EW_HAVE_AVX2
#define EW_V3_STEP_(PLAIN, BLOCKED, LA, SR)                                   \
  EW_V3_PICK_(EW_HALF_##LA, EW_HALF_##SR, PLAIN, BLOCKED)
#else
#define EW_V3_STEP_(PLAIN, BLOCKED, LA, SR) PLAIN
#endif
#define EW_V3_PICK_(l, s, P, B) EW_V3_PICK_CAT_(l, s, P, B)
#define EW_V3_PICK_CAT_(l, s, P, B) EW_V3_PICK_##l##s(P, B)
#define EW_V3_PICK_00(P, B) P
#define EW_V3_PICK_01(P, B) B
#define EW_V3_PICK_10(P, B) B
#define EW_V3_PICK_11(P, B) B

/* The blocked loop around one run: m elements of block i0, inputs through
 * the block loads where contiguous (their step 1), the scalar function over
 * the block, the results through the block store.  A broadcast input is
 * its value loaded once per row (x0).  Whole blocks are a constant
 * EW_BLOCK elements, so that the compiler unrolls the conversions and
 * keeps a block's three float arrays in registers: one pass over the data
 * instead of three through the stack (measured on an AMD EPYC (Zen 5),
 * float16 add of 64 KiB arrays: 0.16 -> 0.12 ns per element, 256-element
 * blocks through memory before); the last n % EW_BLOCK elements go through
 * the same body with m below EW_BLOCK. */
#define EW_BLOCKED_RUN_(n, ...)                                               \
  {                                                                           \
    int64_t i0 = 0;                                                           \
    for (; i0 + EW_BLOCK <= (n); i0 += EW_BLOCK) {                            \
      const int64_t m = EW_BLOCK;                                             \
      __VA_ARGS__                                                             \
    }                                                                         \
    if (i0 < (n)) {                                                           \
      const int64_t m = (n)-i0;                                               \
      __VA_ARGS__                                                             \
    }                                                                         \
  }

/* The row loop of a unary kernel with a constant step: the rest of the
 * arguments are its body, run once per row with r and a (the row's output
 * and input) and a0 (the input's first value there). */
#define EW_UNARY_ROWS_(ATTR, NAME, TA, LA, VA, TR, ...)                       \
  EW_KERNEL_HEAD_(NAME, ATTR) {                                               \
    EW_PARAMS_;                                                               \
    (void)strides;                                                            \
    const int64_t rr = row_strides[0], ra = row_strides[1];                   \
    char *rp = ptrs[0];                                                       \
    const char *ap = ptrs[1];                                                 \
    for (int64_t j = 0; j < rows; j++, rp += rr, ap += ra) {                  \
      TR *r = (TR *)rp;                                                       \
      const TA *a = (const TA *)ap;                                           \
      const VA a0 = LA(a[0]);                                                 \
      __VA_ARGS__                                                             \
    }                                                                         \
  }

/* Unary, constant step SA (0: the input is broadcast along the run). */
#define EW_UNARY_STEP_(ATTR, NAME, SA, TA, LA, VA, TR, SR, FN)                \
  EW_UNARY_ROWS_(ATTR, NAME, TA, LA, VA, TR,                                  \
                 for (int64_t i = 0; i < n; i++) r[i] =                       \
                     SR(FN((SA) ? LA(a[i]) : a0, &P));)

/* The body of a blocked run: the m elements of block i0 into D. */
#define EW_UNARY_BLOCK_(D, SA, LA, SR, FN)                                    \
  {                                                                           \
    EW_BLK_DECL_##LA(av) EW_BLK_DECL_##SR(rv) if (SA)                         \
        EW_BLK_LD_##LA(av, a + i0, m, !EW_QUIETS_(FN));                       \
    for (int64_t i = 0; i < m; i++)                                           \
      EW_BLK_OUT_##SR(rv, D, i) =                                             \
          FN((SA) ? EW_BLK_AT_##LA(av, a + i0, i) : a0, &P);                  \
    EW_BLK_ST_##SR(D, rv, m);                                                 \
  }

/* The same, blocked (v3 set, half codings). */
#define EW_UNARY_BLOCKED_STEP_(ATTR, NAME, SA, TA, LA, VA, TR, SR, FN)        \
  EW_UNARY_ROWS_(ATTR EW_BLK_ATTR_, NAME, TA, LA, VA, TR,                     \
                 EW_BLOCKED_RUN_(n, EW_UNARY_BLOCK_(r + i0, SA, LA, SR, FN)))

/* The non-temporal steps (v3 set), plain and blocked. */
#define EW_UNARY_NT_STEP_(ATTR, NAME, SA, TA, LA, VA, TR, SR, FN)             \
  EW_UNARY_ROWS_(ATTR, NAME, TA, LA, VA, TR,                                  \
                 EW_NT_RUN_(EW_NT_LINES_(TA, TR), TR, r, n, (),               \
                            SR(FN((SA) ? LA(a[i]) : a0, &P))))
#define EW_UNARY_NT_BLOCKED_STEP_(ATTR, NAME, SA, TA, LA, VA, TR, SR, FN)     \
  EW_UNARY_ROWS_(ATTR EW_BLK_ATTR_, NAME, TA, LA, VA, TR,                     \
                 EW_NT_BLOCKED_RUN_(TR, r, n,                                 \
                                    EW_UNARY_BLOCK_(d_, SA, LA, SR, FN)))

#define EW_UNARY_SET_(ATTR, STEP, NAME, TA, LA, VA, TR, SR, FN)               \
  EW_KERNEL_HEAD_(NAME##_s, ATTR) {                                           \
    EW_PARAMS_;                                                               \
    const int64_t sr = strides[0], sa = strides[1];                           \
    const int64_t rr = row_strides[0], ra = row_strides[1];                   \
    for (int64_t j = 0; j < rows; j++) {                                      \
      char *r = ptrs[0] + j * rr;                                             \
      const char *a = ptrs[1] + j * ra;                                       \
      for (int64_t i = 0; i < n; i++, r += sr, a += sa)                       \
        *(TR *)r = SR(FN(LA(*(const TA *)a), &P));                            \
    }                                                                         \
  }                                                                           \
  EW_UNARY_VARIANTS_(STEP, ATTR, NAME, NAME##_s, TA, LA, VA, TR, SR, FN)

/* The contiguous-output variants of a set, with STEP, and its table
 * (STRIDED: the strided kernel, or NULL where the set has none). */
#define EW_UNARY_VARIANTS_(STEP, ATTR, NAME, STRIDED, TA, LA, VA, TR, SR, FN) \
  STEP(ATTR, NAME##_0, 0, TA, LA, VA, TR, SR, FN)                             \
  STEP(ATTR, NAME##_1, 1, TA, LA, VA, TR, SR, FN)                             \
  static const bcast_rows_kernel_fn NAME##_k[3] = {STRIDED, NAME##_0,         \
                                                   NAME##_1};

/* The v3 set's non-temporal variants of a unary or binary (KIND) row,
 * NAME##_n_k (none without a v3 set). */
#if EW_HAVE_AVX2
#define EW_NT_SET_(KIND, NAME, TA, LA, VA, TR, SR, FN)                        \
  EW_##KIND##_VARIANTS_(                                                      \
      EW_V3_STEP_(EW_##KIND##_NT_STEP_, EW_##KIND##_NT_BLOCKED_STEP_, LA,     \
                  SR),                                                        \
      EW_AVX2_, NAME##_n, NULL, TA, LA, VA, TR, SR, FN)
#else
#define EW_NT_SET_(...)
#endif

#define EW_UNARY_(NAME, TA, LA, VA, TR, SR, FN, UN)                           \
  EW_UNARY_SET_(EW_PORTABLE_, EW_UNARY_STEP_, NAME, TA, LA, VA, TR, SR, FN)   \
  EW_UNARY_SET_(EW_AVX2_,                                                     \
                EW_V3_STEP_(EW_UNARY_STEP_, EW_UNARY_BLOCKED_STEP_, LA, SR),  \
                NAME##_v, TA, LA, VA, TR, SR, FN)                             \
  EW_NT_SET_(UNARY, NAME, TA, LA, VA, TR, SR, FN)                             \
  static void NAME##_e(char *r, char *const *in, const ew_params *p) {        \
    *(TR *)r = SR(FN(LA(*(const TA *)in[0]), p));                             \
  }                                                                           \
  static int NAME##_u(char *const *in, const ew_params *p) {                  \
    return UN(LA(*(const TA *)in[0]), p);                                     \
  }

/* The row loop of a binary kernel with constant steps: the rest of the
 * arguments are its body, run once per row with r, a and b (the row's
 * output and inputs) and a0, b0 (the inputs' first values there). */
#define EW_BINARY_ROWS_(ATTR, NAME, TA, LA, VA, TR, ...)                      \
  EW_KERNEL_HEAD_(NAME, ATTR) {                                               \
    EW_PARAMS_;                                                               \
    (void)strides;                                                            \
    const int64_t rr = row_strides[0], ra = row_strides[1],                   \
                  rb = row_strides[2];                                        \
    char *rp = ptrs[0];                                                       \
    const char *ap = ptrs[1], *bp = ptrs[2];                                  \
    for (int64_t j = 0; j < rows; j++, rp += rr, ap += ra, bp += rb) {        \
      TR *r = (TR *)rp;                                                       \
      const TA *a = (const TA *)ap;                                           \
      const TA *b = (const TA *)bp;                                           \
      const VA a0 = LA(a[0]), b0 = LA(b[0]);                                  \
      __VA_ARGS__                                                             \
    }                                                                         \
  }

/* Binary, constant steps SA, SB. */
#define EW_BINARY_STEP_(ATTR, NAME, SA, SB, TA, LA, VA, TR, SR, FN)           \
  EW_BINARY_ROWS_(ATTR, NAME, TA, LA, VA, TR,                                 \
                  EW_UNROLL4_ for (int64_t i = 0; i < n; i++) r[i] = SR(      \
                      FN((SA) ? LA(a[i]) : a0, (SB) ? LA(b[i]) : b0, &P));)

/* The body of a blocked run: the m elements of block i0 into D. */
#define EW_BINARY_BLOCK_(D, SA, SB, LA, SR, FN)                               \
  {                                                                           \
    EW_BLK_DECL_##LA(av) EW_BLK_DECL_##LA(bv) EW_BLK_DECL_##SR(rv) if (SA)    \
        EW_BLK_LD_##LA(av, a + i0, m, !EW_QUIETS_(FN));                       \
    if (SB) EW_BLK_LD_##LA(bv, b + i0, m, !EW_QUIETS_(FN));                   \
    for (int64_t i = 0; i < m; i++)                                           \
      EW_BLK_OUT_##SR(rv, D, i) =                                             \
          FN((SA) ? EW_BLK_AT_##LA(av, a + i0, i) : a0,                       \
             (SB) ? EW_BLK_AT_##LA(bv, b + i0, i) : b0, &P);                  \
    EW_BLK_ST_##SR(D, rv, m);                                                 \
  }

/* The same, blocked (v3 set, half codings). */
#define EW_BINARY_BLOCKED_STEP_(ATTR, NAME, SA, SB, TA, LA, VA, TR, SR, FN)   \
  EW_BINARY_ROWS_(                                                            \
      ATTR EW_BLK_ATTR_, NAME, TA, LA, VA, TR,                                \
      EW_BLOCKED_RUN_(n, EW_BINARY_BLOCK_(r + i0, SA, SB, LA, SR, FN)))

/* The non-temporal steps (v3 set), plain and blocked.  The plain step
 * takes rows in groups (EW_NT_GROUP_RUN_) where both inputs step along the
 * run and one repeats along the rows. */
#define EW_BINARY_NT_STEP_(ATTR, NAME, SA, SB, TA, LA, VA, TR, SR, FN)        \
  EW_BINARY_ROWS_(                                                            \
      ATTR, NAME##_rows, TA, LA, VA, TR,                                      \
      EW_NT_RUN_(EW_NT_LINES_(TA, TR), TR, r, n, (),                          \
                 SR(FN((SA) ? LA(a[i]) : a0, (SB) ? LA(b[i]) : b0, &P)))) \
  EW_KERNEL_HEAD_(NAME, ATTR) {                                               \
    const int64_t rr = row_strides[0], ra = row_strides[1],                   \
                  rb = row_strides[2];                                        \
    int64_t g = 0;                                                            \
    if ((SA) && (SB) && (ra == 0 || rb == 0) && (rr & 63) == 0) {             \
      EW_PARAMS_;                                                             \
      for (; g + EW_NT_GROUP <= rows; g += EW_NT_GROUP) {                     \
        char *const rp = ptrs[0] + g * rr;                                    \
        const char *const ap = ptrs[1] + g * ra, *const bp = ptrs[2] + g * rb; \
        EW_NT_GROUP_RUN_(EW_NT_LINES_(TA, TR), TR, n, rp, rr,                 \
                         (const TA *a = (const TA *)(ap + q_ * ra);           \
                          const TA *b = (const TA *)(bp + q_ * rb);),         \
                         (), SR(FN(LA(a[i]), LA(b[i]), &P)))                  \
      }                                                                       \
    }                                                                         \
    if (g < rows) {                                                           \
      char *const rest[3] = {ptrs[0] + g * rr, ptrs[1] + g * ra,              \
                             ptrs[2] + g * rb};                               \
      NAME##_rows(rows - g, n, rest, strides, row_strides, params);           \
    }                                                                         \
  }
#define EW_BINARY_NT_BLOCKED_STEP_(ATTR, NAME, SA, SB, TA, LA, VA, TR, SR,    \
                                   FN)                                        \
  EW_BINARY_ROWS_(                                                            \
      ATTR EW_BLK_ATTR_, NAME, TA, LA, VA, TR,                                \
      EW_NT_BLOCKED_RUN_(TR, r, n,                                            \
                         EW_BINARY_BLOCK_(d_, SA, SB, LA, SR, FN)))

#define EW_BINARY_SET_(ATTR, STEP, NAME, TA, LA, VA, TR, SR, FN)              \
  EW_KERNEL_HEAD_(NAME##_s, ATTR) {                                           \
    EW_PARAMS_;                                                               \
    const int64_t sr = strides[0], sa = strides[1], sb = strides[2];          \
    const int64_t rr = row_strides[0], ra = row_strides[1],                   \
                  rb = row_strides[2];                                        \
    for (int64_t j = 0; j < rows; j++) {                                      \
      char *r = ptrs[0] + j * rr;                                             \
      const char *a = ptrs[1] + j * ra, *b = ptrs[2] + j * rb;                \
      for (int64_t i = 0; i < n; i++, r += sr, a += sa, b += sb)              \
        *(TR *)r = SR(FN(LA(*(const TA *)a), LA(*(const TA *)b), &P));        \
    }                                                                         \
  }                                                                           \
  EW_BINARY_VARIANTS_(STEP, ATTR, NAME, NAME##_s, TA, LA, VA, TR, SR, FN)

/* The contiguous-output variants of a set, with STEP, and its table
 * (STRIDED: the strided kernel, or NULL where the set has none). */
#define EW_BINARY_VARIANTS_(STEP, ATTR, NAME, STRIDED, TA, LA, VA, TR, SR,    \
                            FN)                                               \
  STEP(ATTR, NAME##_00, 0, 0, TA, LA, VA, TR, SR, FN)                         \
  STEP(ATTR, NAME##_10, 1, 0, TA, LA, VA, TR, SR, FN)                         \
  STEP(ATTR, NAME##_01, 0, 1, TA, LA, VA, TR, SR, FN)                         \
  STEP(ATTR, NAME##_11, 1, 1, TA, LA, VA, TR, SR, FN)                         \
  static const bcast_rows_kernel_fn NAME##_k[5] = {                           \
      STRIDED, NAME##_00, NAME##_10, NAME##_01, NAME##_11};

#define EW_BINARY_(NAME, TA, LA, VA, TR, SR, FN, UN)                          \
  EW_BINARY_SET_(EW_PORTABLE_, EW_BINARY_STEP_, NAME, TA, LA, VA, TR, SR, FN) \
  EW_BINARY_SET_(                                                             \
      EW_AVX2_,                                                               \
      EW_V3_STEP_(EW_BINARY_STEP_, EW_BINARY_BLOCKED_STEP_, LA, SR),          \
      NAME##_v, TA, LA, VA, TR, SR, FN)                                       \
  EW_NT_SET_(BINARY, NAME, TA, LA, VA, TR, SR, FN)                            \
  static void NAME##_e(char *r, char *const *in, const ew_params *p) {        \
    *(TR *)r = SR(FN(LA(*(const TA *)in[0]), LA(*(const TA *)in[1]), p));     \
  }                                                                           \
  static int NAME##_u(char *const *in, const ew_params *p) {                  \
    return UN(LA(*(const TA *)in[0]), LA(*(const TA *)in[1]), p);             \
  }

/* SELECT: condition (bool storage, nonzero is true), then two values of
 * type T.  The value is copied as stored: no conversion, NaN payloads
 * kept.  Both values are loaded (EW_SELECT_PICK_'s declarations): a
 * select, not a branch, so it vectorizes. */
#define EW_SELECT_PICK_(T, SA, SB)                                            \
  (const T av = (SA) ? a[i] : a0, bv = (SB) ? b[i] : b0;)
#define EW_SELECT_ROWS_(ATTR, NAME, T, ...)                                   \
  EW_KERNEL_HEAD_(NAME, ATTR) {                                               \
    (void)strides;                                                            \
    (void)params;                                                             \
    const int64_t rr = row_strides[0], rc = row_strides[1],                   \
                  ra = row_strides[2], rb = row_strides[3];                   \
    char *rp = ptrs[0];                                                       \
    const char *cp = ptrs[1], *ap = ptrs[2], *bp = ptrs[3];                   \
    for (int64_t j = 0; j < rows;                                             \
         j++, rp += rr, cp += rc, ap += ra, bp += rb) {                       \
      T *r = (T *)rp;                                                         \
      const uint8_t *c = (const uint8_t *)cp;                                 \
      const T *a = (const T *)ap;                                             \
      const T *b = (const T *)bp;                                             \
      const uint8_t c0 = c[0];                                                \
      const T a0 = a[0], b0 = b[0];                                           \
      __VA_ARGS__                                                             \
    }                                                                         \
  }
#define EW_SELECT_STEP_(ATTR, NAME, SC, SA, SB, T)                            \
  EW_SELECT_ROWS_(ATTR, NAME, T, for (int64_t i = 0; i < n; i++) {            \
    EW_UNPAREN_ EW_SELECT_PICK_(T, SA, SB) r[i] = ((SC) ? c[i] : c0) ? av : bv;  \
  })
#define EW_SELECT_NT_STEP_(ATTR, NAME, SC, SA, SB, T)                         \
  EW_SELECT_ROWS_(ATTR, NAME##_rows, T,                                       \
                  EW_NT_RUN_(ew_v3_nt_lines, T, r, n,                         \
                             EW_SELECT_PICK_(T, SA, SB),                      \
                             ((SC) ? c[i] : c0) ? av : bv))                   \
  EW_KERNEL_HEAD_(NAME, ATTR) {                                               \
    const int64_t rr = row_strides[0], rc = row_strides[1],                   \
                  ra = row_strides[2], rb = row_strides[3];                   \
    int64_t g = 0;                                                            \
    if ((SA) && (SB) && (ra == 0 || rb == 0) && (rr & 63) == 0) {             \
      for (; g + EW_NT_GROUP <= rows; g += EW_NT_GROUP) {                     \
        char *const rp = ptrs[0] + g * rr;                                    \
        const char *const cp = ptrs[1] + g * rc, *const ap = ptrs[2] + g * ra, \
                          *const bp = ptrs[3] + g * rb;                       \
        EW_NT_GROUP_RUN_(ew_v3_nt_lines, T, n, rp, rr,                        \
                         (const uint8_t *c = (const uint8_t *)(cp + q_ * rc); \
                          const T *a = (const T *)(ap + q_ * ra);             \
                          const T *b = (const T *)(bp + q_ * rb);             \
                          const uint8_t c0 = c[0]; const T a0 = a[0],         \
                          b0 = b[0];),                                        \
                         EW_SELECT_PICK_(T, SA, SB),                          \
                         ((SC) ? c[i] : c0) ? av : bv)                        \
      }                                                                       \
    }                                                                         \
    if (g < rows) {                                                           \
      char *const rest[4] = {ptrs[0] + g * rr, ptrs[1] + g * rc,              \
                             ptrs[2] + g * ra, ptrs[3] + g * rb};             \
      NAME##_rows(rows - g, n, rest, strides, row_strides, params);           \
    }                                                                         \
  }

#define EW_SELECT_VARIANTS_(STEP, ATTR, NAME, T)                              \
  STEP(ATTR, NAME##_000, 0, 0, 0, T)                                          \
  STEP(ATTR, NAME##_100, 1, 0, 0, T)                                          \
  STEP(ATTR, NAME##_010, 0, 1, 0, T)                                          \
  STEP(ATTR, NAME##_110, 1, 1, 0, T)                                          \
  STEP(ATTR, NAME##_001, 0, 0, 1, T)                                          \
  STEP(ATTR, NAME##_101, 1, 0, 1, T)                                          \
  STEP(ATTR, NAME##_011, 0, 1, 1, T)                                          \
  STEP(ATTR, NAME##_111, 1, 1, 1, T)
#define EW_SELECT_TABLE_(NAME, STRIDED)                                       \
  static const bcast_rows_kernel_fn NAME##_k[9] = {                           \
      STRIDED,    NAME##_000, NAME##_100, NAME##_010, NAME##_110,             \
      NAME##_001, NAME##_101, NAME##_011, NAME##_111};

#define EW_SELECT_SET_(ATTR, NAME, T)                                         \
  EW_KERNEL_HEAD_(NAME##_s, ATTR) {                                           \
    (void)params;                                                             \
    const int64_t sr = strides[0], sc = strides[1], sa = strides[2],          \
                  sb = strides[3];                                            \
    for (int64_t j = 0; j < rows; j++) {                                      \
      char *r = ptrs[0] + j * row_strides[0];                                 \
      const char *c = ptrs[1] + j * row_strides[1],                           \
                 *a = ptrs[2] + j * row_strides[2],                           \
                 *b = ptrs[3] + j * row_strides[3];                           \
      for (int64_t i = 0; i < n; i++, r += sr, c += sc, a += sa, b += sb)     \
        *(T *)r = *(const uint8_t *)c ? *(const T *)a : *(const T *)b;        \
    }                                                                         \
  }                                                                           \
  EW_SELECT_VARIANTS_(EW_SELECT_STEP_, ATTR, NAME, T)                         \
  EW_SELECT_TABLE_(NAME, NAME##_s)

#if EW_HAVE_AVX2
#define EW_SELECT_NT_(NAME, T)                                                \
  EW_SELECT_VARIANTS_(EW_SELECT_NT_STEP_, EW_AVX2_, NAME##_n, T)              \
  EW_SELECT_TABLE_(NAME##_n, NULL)
#else
#define EW_SELECT_NT_(NAME, T)
#endif

#define EW_SELECT_(NAME, T)                                                   \
  EW_SELECT_SET_(EW_PORTABLE_, NAME, T)                                       \
  EW_SELECT_SET_(EW_AVX2_, NAME##_v, T)                                       \
  EW_SELECT_NT_(NAME, T)                                                      \
  static void NAME##_e(char *r, char *const *in, const ew_params *p) {        \
    (void)p;                                                                  \
    *(T *)r =                                                                 \
        *(const uint8_t *)in[0] ? *(const T *)in[1] : *(const T *)in[2];      \
  }                                                                           \
  static int NAME##_u(char *const *in, const ew_params *p) {                  \
    (void)in;                                                                 \
    (void)p;                                                                  \
    return 0;                                                                 \
  }

/* ------------------------------------------------------------------------ */
/* The table of a kernel file.  LIST(X) expands X(NAME, OP, FLAVOUR, IN,
 * OUT) once per instance; EW_TABLE_ makes the rows, an index by (op, in,
 * out) for the common flavour and a finder that scans the few tosa-flavour
 * rows first. */

#define EW_ROW_ID_(NAME, OP, FL, IN, OUT, ...) EW_ROWID_##NAME,
#if EW_HAVE_AVX2
#define EW_NT_TABLE_(NAME) NAME##_n_k
#else
#define EW_NT_TABLE_(NAME) NULL
#endif
#define EW_ROW_(NAME, OP, FL, IN, OUT, ...)                                   \
  {BCAST_OP_##OP, EW_FLAVOUR_##FL, BCAST_##IN, BCAST_##OUT,                   \
   NAME##_k,      NAME##_v_k,      EW_NT_TABLE_(NAME), NAME##_e,              \
   NAME##_u},
#define EW_INDEX_ANY_(NAME, OP, FL, IN, OUT, ...)                             \
  [BCAST_OP_##OP][BCAST_##IN][BCAST_##OUT] = EW_ROWID_##NAME + 1,
#define EW_INDEX_TOSA_(NAME, OP, FL, IN, OUT, ...)

#define EW_TABLE_(PREFIX, LIST)                                               \
  enum { LIST(EW_ROW_ID_) EW_ROWID_END_ };                                    \
  static const ew_row PREFIX##_rows[] = {LIST(EW_ROW_)};                      \
  static const uint16_t PREFIX##_index[BCAST_OP_COUNT][BCAST_DTYPE_COUNT]     \
                                      [BCAST_DTYPE_COUNT] = {                 \
                                          LIST(EW_INDEX_BY_FLAVOUR_)};        \
  const ew_row *bcast__ew_find_##PREFIX(bcast_op op, int flavour,             \
                                        bcast_dtype in, bcast_dtype out) {    \
    if (flavour == EW_FLAVOUR_TOSA)                                           \
      for (size_t i = 0; i < sizeof PREFIX##_rows / sizeof(ew_row); i++) {    \
        const ew_row *row = &PREFIX##_rows[i];                                \
        if (row->flavour == EW_FLAVOUR_TOSA && row->op == op &&               \
            row->in == in && row->out == out)                                 \
          return row;                                                         \
      }                                                                       \
    const uint16_t k = PREFIX##_index[op][in][out];                           \
    return k ? &PREFIX##_rows[k - 1] : NULL;                                  \
  }                                                                           \
  size_t bcast__ew_count_##PREFIX(void) {                                     \
    return sizeof PREFIX##_rows / sizeof(ew_row);                             \
  }                                                                           \
  const ew_row *bcast__ew_at_##PREFIX(size_t i) { return &PREFIX##_rows[i]; }

/* Index only the common-flavour rows. */
#define EW_INDEX_BY_FLAVOUR_(NAME, OP, FL, IN, OUT, ...)                      \
  EW_INDEX_##FL##_(NAME, OP, FL, IN, OUT, 0)

#define EW_DECLARE_TABLE_(PREFIX)                                             \
  const ew_row *bcast__ew_find_##PREFIX(bcast_op op, int flavour,             \
                                        bcast_dtype in, bcast_dtype out);     \
  size_t bcast__ew_count_##PREFIX(void);                                      \
  const ew_row *bcast__ew_at_##PREFIX(size_t i);

EW_DECLARE_TABLE_(unary)
EW_DECLARE_TABLE_(cast)
EW_DECLARE_TABLE_(binary)
EW_DECLARE_TABLE_(select)

#endif
