/* Kernels of CAST: every (input, result) pair of the numpy profile, and
 * TOSA's float -> integer conversions (round half to even, saturating) as
 * the tosa flavour.
 *
 * The pairs are the cross product of the dtype table with itself (without
 * the 8-bit floats).  Each type has a class as an input (B bool, I signed,
 * U unsigned, F bfloat16/float32/fp8 computed as float, HF float16, the
 * same but to float64 on its bits as NumPy, D float64)
 * and as a result (B, I, U, H float16 and the 8-bit floats, BF bfloat16,
 * F float32, D float64), both computed from its kind, coding and value
 * type; EW_CV_<in>_<result> is the conversion of the value.
 *
 * The 8-bit floats (float8_e4m3fn, float8_e5m2) have the pairs MLIR 22's
 * tosa-to-linalg lowers: to and from bool, the other floats and (from)
 * the signed and unsigned integers (arith.sitofp, uitofp), and to the
 * signed integers in the tosa flavour, by MLIR's own rule (ew_fp8_f2i),
 * which an unsigned result takes on its signed view; not between
 * themselves (no arith op converts one to the other). */
#include "ew/ew_kernel.h"

/* The classes of a type, from its table row's kind, value short name and
 * coding. */
#define EW_CLASS_IN_(kind, VS, coding) EW_CLASS_IN_##kind(VS, coding)
#define EW_CLASS_IN_BCAST_KIND_BOOL(VS, coding) B
#define EW_CLASS_IN_BCAST_KIND_SIGNED(VS, coding) I
#define EW_CLASS_IN_BCAST_KIND_UNSIGNED(VS, coding) U
#define EW_CLASS_IN_BCAST_KIND_FLOAT(VS, coding)                              \
  EW_CLASS_IN_FLOAT_##coding##_##VS
#define EW_CLASS_IN_FLOAT_PLAIN_f32 F
#define EW_CLASS_IN_FLOAT_PLAIN_f64 D
#define EW_CLASS_IN_FLOAT_HALF_f32 HF
#define EW_CLASS_IN_FLOAT_BF16_f32 F
#define EW_CLASS_IN_FLOAT_F8E4M3FN_f32 F
#define EW_CLASS_IN_FLOAT_F8E5M2_f32 F
#define EW_CLASS_OUT_(kind, VS, coding) EW_CLASS_OUT_##kind(VS, coding)
#define EW_CLASS_OUT_BCAST_KIND_BOOL(VS, coding) B
#define EW_CLASS_OUT_BCAST_KIND_SIGNED(VS, coding) I
#define EW_CLASS_OUT_BCAST_KIND_UNSIGNED(VS, coding) U
#define EW_CLASS_OUT_BCAST_KIND_FLOAT(VS, coding)                             \
  EW_CLASS_OUT_FLOAT_##coding##_##VS
#define EW_CLASS_OUT_FLOAT_HALF_f32 H
#define EW_CLASS_OUT_FLOAT_BF16_f32 BF
#define EW_CLASS_OUT_FLOAT_PLAIN_f32 F
#define EW_CLASS_OUT_FLOAT_PLAIN_f64 D
#define EW_CLASS_OUT_FLOAT_F8E4M3FN_f32 H
#define EW_CLASS_OUT_FLOAT_F8E5M2_f32 H
/* The class of a float as the tosa flavour's input: T, or the 8-bit
 * float's own. */
#define EW_CLASS_TOSA_(coding) EW_CLASS_TOSA_##coding
#define EW_CLASS_TOSA_PLAIN T
#define EW_CLASS_TOSA_HALF T
#define EW_CLASS_TOSA_BF16 T
#define EW_CLASS_TOSA_F8E4M3FN Q4
#define EW_CLASS_TOSA_F8E5M2 Q5

/* Conversions: EW_CV_<input class>_<result class>(x, result value type,
 * result suffix). */
#define EW_CV_TO_BOOL_(x, VR, SFX) (uint8_t)((x) != 0)
#define EW_CV_PLAIN_(x, VR, SFX) (VR)(x)
#define EW_CV_NUMPY_F2I_(x, VR, SFX) ew_numpy_f2i_##SFX((double)(x))
#define EW_CV_B_B EW_CV_TO_BOOL_
#define EW_CV_I_B EW_CV_TO_BOOL_
#define EW_CV_U_B EW_CV_TO_BOOL_
#define EW_CV_F_B EW_CV_TO_BOOL_
#define EW_CV_D_B EW_CV_TO_BOOL_
/* bool through int: GCC 12 vectorizes (float)(int)(x != 0) but not
 * (float)(uint8_t)(x != 0) (bool -> float32 ran at 7.6 GB/s, NumPy 29). */
#define EW_CV_BOOL_(x, VR, SFX) (VR)(int)(x)
#define EW_CV_B_I EW_CV_BOOL_
#define EW_CV_B_U EW_CV_BOOL_
#define EW_CV_B_H EW_CV_BOOL_
#define EW_CV_B_BF EW_CV_BOOL_
#define EW_CV_B_F EW_CV_BOOL_
#define EW_CV_B_D EW_CV_BOOL_
/* Integer -> integer keeps the low bits (gcc defines the conversion to a
 * narrower signed type as modular).  Integer -> float16 through float is
 * exact up to 2^24, and anything larger is beyond float16 anyway;
 * bfloat16 needs its own rounding. */
#define EW_CV_I_I EW_CV_PLAIN_
#define EW_CV_I_U EW_CV_PLAIN_
#define EW_CV_I_H EW_CV_PLAIN_
#define EW_CV_I_BF(x, VR, SFX) ew_i64_to_bf16_value((int64_t)(x))
#define EW_CV_I_F EW_CV_PLAIN_
#define EW_CV_I_D EW_CV_PLAIN_
#define EW_CV_U_I EW_CV_PLAIN_
#define EW_CV_U_U EW_CV_PLAIN_
#define EW_CV_U_H EW_CV_PLAIN_
#define EW_CV_U_BF(x, VR, SFX) ew_u64_to_bf16_value((uint64_t)(x))
#define EW_CV_U_F EW_CV_PLAIN_
#define EW_CV_U_D EW_CV_PLAIN_
/* From float: the float range test (ew_numpy_f2if_*), same values. */
#define EW_CV_NUMPY_F2IF_(x, VR, SFX) ew_numpy_f2if_##SFX(x)
#define EW_CV_F_I EW_CV_NUMPY_F2IF_
#define EW_CV_F_U EW_CV_NUMPY_F2IF_
#define EW_CV_F_H EW_CV_PLAIN_
#define EW_CV_F_BF EW_CV_PLAIN_
#define EW_CV_F_F EW_CV_PLAIN_
#define EW_CV_F_D EW_CV_PLAIN_
#define EW_CV_HF_B EW_CV_F_B
#define EW_CV_HF_I EW_CV_F_I
#define EW_CV_HF_U EW_CV_F_U
#define EW_CV_HF_H EW_CV_F_H
#define EW_CV_HF_BF EW_CV_F_BF
#define EW_CV_HF_F EW_CV_F_F
#define EW_CV_HF_D(x, VR, SFX) ew_f16_value_to_f64(x)
#define EW_CV_D_I EW_CV_NUMPY_F2I_
#define EW_CV_D_U EW_CV_NUMPY_F2I_
#define EW_CV_D_H(x, VR, SFX) ew_f64_to_f32_odd(x)
#define EW_CV_D_BF(x, VR, SFX) ew_f64_to_f32_odd(x)
#define EW_CV_D_F EW_CV_PLAIN_
#define EW_CV_D_D EW_CV_PLAIN_
/* The tosa flavour. */
#define EW_CV_T_T(x, VR, SFX) ew_tosa_f2i_##SFX((double)(x))
/* float16 widened as MLIR's lowering widens it (arith.extf, x86's
 * conversions): a signalling NaN comes out quiet, its payload kept.  No
 * flag is raised: the quiet bit is set on the bits. */
#define EW_CV_HQ_F(x, VR, SFX) ew_f32_quieted(x)
#define EW_CV_HQ_D(x, VR, SFX) (double)ew_f32_quieted(x)
#define EW_CV_Q4_T(x, VR, SFX) (VR) ew_fp8_f2i(x, 8 * (int)sizeof(VR), 8, 1)
#define EW_CV_Q5_T(x, VR, SFX) (VR) ew_fp8_f2i(x, 8 * (int)sizeof(VR), 15, 0)

/* Unpredictable: float -> integer only. */
#define EW_CVU_NEVER_(x, SFX) 0
#define EW_CVU_NUMPY_F2I_(x, SFX) ew_unpred_numpy_f2i_##SFX((double)(x))
#define EW_CVU_B_B EW_CVU_NEVER_
#define EW_CVU_I_B EW_CVU_NEVER_
#define EW_CVU_U_B EW_CVU_NEVER_
#define EW_CVU_F_B EW_CVU_NEVER_
#define EW_CVU_D_B EW_CVU_NEVER_
#define EW_CVU_B_I EW_CVU_NEVER_
#define EW_CVU_B_U EW_CVU_NEVER_
#define EW_CVU_B_H EW_CVU_NEVER_
#define EW_CVU_B_BF EW_CVU_NEVER_
#define EW_CVU_B_F EW_CVU_NEVER_
#define EW_CVU_B_D EW_CVU_NEVER_
#define EW_CVU_I_I EW_CVU_NEVER_
#define EW_CVU_I_U EW_CVU_NEVER_
#define EW_CVU_I_H EW_CVU_NEVER_
#define EW_CVU_I_BF EW_CVU_NEVER_
#define EW_CVU_I_F EW_CVU_NEVER_
#define EW_CVU_I_D EW_CVU_NEVER_
#define EW_CVU_U_I EW_CVU_NEVER_
#define EW_CVU_U_U EW_CVU_NEVER_
#define EW_CVU_U_H EW_CVU_NEVER_
#define EW_CVU_U_BF EW_CVU_NEVER_
#define EW_CVU_U_F EW_CVU_NEVER_
#define EW_CVU_U_D EW_CVU_NEVER_
#define EW_CVU_F_I EW_CVU_NUMPY_F2I_
#define EW_CVU_F_U EW_CVU_NUMPY_F2I_
#define EW_CVU_F_H EW_CVU_NEVER_
#define EW_CVU_F_BF EW_CVU_NEVER_
#define EW_CVU_F_F EW_CVU_NEVER_
#define EW_CVU_F_D EW_CVU_NEVER_
#define EW_CVU_HF_B EW_CVU_F_B
#define EW_CVU_HF_I EW_CVU_F_I
#define EW_CVU_HF_U EW_CVU_F_U
#define EW_CVU_HF_H EW_CVU_F_H
#define EW_CVU_HF_BF EW_CVU_F_BF
#define EW_CVU_HF_F EW_CVU_F_F
#define EW_CVU_HF_D EW_CVU_F_D
#define EW_CVU_D_I EW_CVU_NUMPY_F2I_
#define EW_CVU_D_U EW_CVU_NUMPY_F2I_
#define EW_CVU_D_H EW_CVU_NEVER_
#define EW_CVU_D_BF EW_CVU_NEVER_
#define EW_CVU_D_F EW_CVU_NEVER_
#define EW_CVU_D_D EW_CVU_NEVER_
#define EW_CVU_T_T(x, SFX) ew_unpred_tosa_f2i_##SFX((double)(x))
#define EW_CVU_HQ_F EW_CVU_NEVER_
#define EW_CVU_HQ_D EW_CVU_NEVER_
#define EW_CVU_Q4_T EW_CVU_NEVER_
#define EW_CVU_Q5_T EW_CVU_NEVER_

/* The list: X(NAME, CAST, flavour, in, out, TA, LA, VA, TR, SR, FN, UN,
 * input class, result class, result value type, result suffix).
 *
 * The pairs are a loop over the dtype table inside a loop over the same
 * table, and the preprocessor never expands a macro inside its own
 * expansion: a plain inner EW_FOR_ALL would stay unexpanded.  So the inner
 * loop is deferred.  An outer row leaves "EW_CAST_INNER_ () (args)" behind
 * (EW_EMPTY_ keeps the name from meeting its parentheses in that scan);
 * EW_CAST_EVAL_ then scans the finished outer loop once more, outside the
 * table's expansion, where EW_CAST_INNER_ () becomes EW_FOR_ALL and runs.
 * (Including a .def file once per outer row would also work, but the list
 * must stay one macro: EW_TABLE_ expands it three times.)  The deferral
 * holds because the type lists call X in a replacement list, never inside
 * another macro's argument (ew_kernel.h, EW_CALL_), so a row is scanned once
 * before EW_CAST_EVAL_ scans it again. */
#define EW_EMPTY_()
#define EW_CAST_EVAL_(...) __VA_ARGS__
#define EW_CAST_INNER_() EW_FOR_ALL
#define EW_CAST_TOSA_INNER_() EW_FOR_SINT
#define EW_CAST_BOOL_INNER_() EW_FOR_BOOL
#define EW_CAST_FLOAT_INNER_() EW_FOR_FLOAT
#define EW_CAST_FP8_INNER_() EW_FOR_FP8
/* EW_CAST_APPLY_ expands the result class before X sees it (X pastes it). */
#define EW_CAST_APPLY_(X, ...) X(__VA_ARGS__)

#define EW_CAST_PAIR_(X, IA, SA, TA, VA, LA, CA, IR, SR, TR, VR, VSR, LR,     \
                      STO, KR, CODR)                                          \
  EW_CAST_APPLY_(X, ewk_cast_##SA##_##SR, CAST, ANY, IA, IR, TA, LA, VA, TR,  \
                 STO, ew_cv_##SA##_##SR, ew_unpred_cv_##SA##_##SR, CA,        \
                 EW_CLASS_OUT_(KR, VSR, CODR), VR, SR)
#define EW_CAST_FROM_(X, IA, SA, TA, VA, VSA, LA, STA, KA, CODA)              \
  EW_CAST_INNER_ EW_EMPTY_()()(EW_CAST_PAIR_, X, IA, SA, TA, VA, LA,          \
                               EW_CLASS_IN_(KA, VSA, CODA))
/* The 8-bit floats to bool and the other floats, and bool, the signed
 * integers and the other floats to them. */
#define EW_CAST_FROM_FP8_(X, IA, SA, TA, VA, VSA, LA, STA, KA, CODA)          \
  EW_CAST_BOOL_INNER_ EW_EMPTY_()()(EW_CAST_PAIR_, X, IA, SA, TA, VA, LA,     \
                                    EW_CLASS_IN_(KA, VSA, CODA))              \
      EW_CAST_FLOAT_INNER_ EW_EMPTY_()()(EW_CAST_PAIR_, X, IA, SA, TA, VA,    \
                                         LA, EW_CLASS_IN_(KA, VSA, CODA))
#define EW_CAST_TO_FP8_(X, IA, SA, TA, VA, VSA, LA, STA, KA, CODA)            \
  EW_CAST_FP8_INNER_ EW_EMPTY_()()(EW_CAST_PAIR_, X, IA, SA, TA, VA, LA,      \
                                   EW_CLASS_IN_(KA, VSA, CODA))
/* The tosa flavour: floats to signed integers as TOSA and MLIR 22's
 * tosa-to-linalg convert them (every float and signed integer type: MLIR's
 * dialect takes float64 and int64 too; the 8-bit floats by their own
 * class). */
#define EW_CAST_TOSA_TO_(X, IA, SA, TA, VA, LA, CA, IR, SR, TR, VR, VSR, LR,  \
                         STO, ...)                                            \
  EW_CAST_APPLY_(X, ewk_castt_##SA##_##SR, CAST, TOSA, IA, IR, TA, LA, VA,    \
                 TR, STO, ew_cvt_##SA##_##SR, ew_unpred_cvt_##SA##_##SR, CA,  \
                 T, TR, SR)
#define EW_CAST_TOSA_FROM_(X, IA, SA, TA, VA, VSA, LA, STA, KA, CODA)         \
  EW_CAST_TOSA_INNER_ EW_EMPTY_()()(EW_CAST_TOSA_TO_, X, IA, SA, TA, VA, LA,  \
                                    EW_CLASS_TOSA_(CODA))

/* The tosa flavour's float16 -> float32 and float64, which quiet a
 * signalling NaN as MLIR's lowering does (the common rows keep it
 * signalling, as NumPy's cast does). */
#define EW_CAST_HALF_WIDEN_(X, OUT, TR, SR, CR)                               \
  X(ewk_castt_f16_##SR, CAST, TOSA, FLOAT16, OUT, uint16_t, ew_f16_load,      \
    float, TR, ew_st_same, ew_cvt_f16_##SR, ew_unpred_cvt_f16_##SR, HQ, CR,   \
    TR, SR)
#define EW_CAST_HALF_QUIET_(X)                                                \
  EW_CAST_HALF_WIDEN_(X, FLOAT32, float, f32, F)                              \
  EW_CAST_HALF_WIDEN_(X, FLOAT64, double, f64, D)

#define EW_CAST_LIST(X)                                                       \
  EW_CAST_HALF_QUIET_(X)                                                      \
  EW_CAST_EVAL_(EW_FOR_ALL(EW_CAST_FROM_, X)                                  \
                    EW_FOR_FLOAT(EW_CAST_TOSA_FROM_, X)                       \
                        EW_FOR_FP8(EW_CAST_FROM_FP8_, X)                      \
                            EW_FOR_BOOL(EW_CAST_TO_FP8_, X)                   \
                                EW_FOR_SINT(EW_CAST_TO_FP8_, X)               \
                                EW_FOR_UINT(EW_CAST_TO_FP8_, X)               \
                                    EW_FOR_FLOAT(EW_CAST_TO_FP8_, X)          \
                                        EW_FOR_FP8(EW_CAST_TOSA_FROM_, X))

/* The value conversions first, then the kernels around them. */
#define EW_DEFINE_CONVERSION_(NAME, OP, FL, IN, OUT, TA, LA, VA, TR, STO, FN, \
                              UN, CA, CR, VR, SFX)                            \
  static inline VR FN(VA x, const ew_params *p) {                             \
    (void)p;                                                                  \
    return EW_CV_##CA##_##CR(x, VR, SFX);                                     \
  }                                                                           \
  static inline int UN(VA x, const ew_params *p) {                            \
    (void)p;                                                                  \
    (void)x;                                                                  \
    return EW_CVU_##CA##_##CR(x, SFX);                                        \
  }
EW_CAST_LIST(EW_DEFINE_CONVERSION_)

#define EW_DEFINE_(NAME, OP, FL, IN, OUT, TA, LA, VA, TR, STO, FN, UN, ...)   \
  EW_UNARY_(NAME, TA, LA, VA, TR, STO, FN, UN)
EW_CAST_LIST(EW_DEFINE_)

EW_TABLE_(cast, EW_CAST_LIST)
