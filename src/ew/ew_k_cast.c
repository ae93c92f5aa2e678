/* Kernels of CAST: every (input, result) pair of the numpy profile, and
 * TOSA's float -> integer conversions (round half to even, saturating) as
 * the tosa flavour.
 *
 * The pairs are the cross product of one type list with a copy of itself
 * (a macro cannot expand inside its own expansion).  Each type carries its
 * class as an input (B bool, I signed, U unsigned, F float16/bfloat16/
 * float32 computed as float, D float64) and as a result (B, I, U, H
 * float16, BF bfloat16, F float32, D float64); EW_CV_<in>_<result> is the
 * conversion of the value. */
#include "ew/ew_kernel.h"

/* X(..., ID, S, storage, value type, load, store, input class, result
 * class).  The list is written twice, as _A and _B, because the pair loop
 * expands one inside the other and the preprocessor never expands a macro
 * inside its own expansion. */
#define EW_CAST_TYPES_A(X, ...)                                               \
  X(__VA_ARGS__, BOOL, b, uint8_t, uint8_t, ew_ld_bool, ew_st_same, B, B)     \
  X(__VA_ARGS__, INT8, i8, int8_t, int8_t, ew_ld_same, ew_st_same, I, I)      \
  X(__VA_ARGS__, INT16, i16, int16_t, int16_t, ew_ld_same, ew_st_same, I, I)  \
  X(__VA_ARGS__, INT32, i32, int32_t, int32_t, ew_ld_same, ew_st_same, I, I)  \
  X(__VA_ARGS__, INT64, i64, int64_t, int64_t, ew_ld_same, ew_st_same, I, I)  \
  X(__VA_ARGS__, UINT8, u8, uint8_t, uint8_t, ew_ld_same, ew_st_same, U, U)   \
  X(__VA_ARGS__, UINT16, u16, uint16_t, uint16_t, ew_ld_same, ew_st_same, U,  \
    U)                                                                        \
  X(__VA_ARGS__, UINT32, u32, uint32_t, uint32_t, ew_ld_same, ew_st_same, U,  \
    U)                                                                        \
  X(__VA_ARGS__, UINT64, u64, uint64_t, uint64_t, ew_ld_same, ew_st_same, U,  \
    U)                                                                        \
  X(__VA_ARGS__, FLOAT16, f16, uint16_t, float, ew_f16_load, ew_f16_store, F, \
    H)                                                                        \
  X(__VA_ARGS__, BFLOAT16, bf16, uint16_t, float, ew_bf16_load,               \
    ew_bf16_store, F, BF)                                                     \
  X(__VA_ARGS__, FLOAT32, f32, float, float, ew_ld_same, ew_st_same, F, F)    \
  X(__VA_ARGS__, FLOAT64, f64, double, double, ew_ld_same, ew_st_same, D, D)
#define EW_CAST_TYPES_B(X, ...)                                               \
  X(__VA_ARGS__, BOOL, b, uint8_t, uint8_t, ew_ld_bool, ew_st_same, B, B)     \
  X(__VA_ARGS__, INT8, i8, int8_t, int8_t, ew_ld_same, ew_st_same, I, I)      \
  X(__VA_ARGS__, INT16, i16, int16_t, int16_t, ew_ld_same, ew_st_same, I, I)  \
  X(__VA_ARGS__, INT32, i32, int32_t, int32_t, ew_ld_same, ew_st_same, I, I)  \
  X(__VA_ARGS__, INT64, i64, int64_t, int64_t, ew_ld_same, ew_st_same, I, I)  \
  X(__VA_ARGS__, UINT8, u8, uint8_t, uint8_t, ew_ld_same, ew_st_same, U, U)   \
  X(__VA_ARGS__, UINT16, u16, uint16_t, uint16_t, ew_ld_same, ew_st_same, U,  \
    U)                                                                        \
  X(__VA_ARGS__, UINT32, u32, uint32_t, uint32_t, ew_ld_same, ew_st_same, U,  \
    U)                                                                        \
  X(__VA_ARGS__, UINT64, u64, uint64_t, uint64_t, ew_ld_same, ew_st_same, U,  \
    U)                                                                        \
  X(__VA_ARGS__, FLOAT16, f16, uint16_t, float, ew_f16_load, ew_f16_store, F, \
    H)                                                                        \
  X(__VA_ARGS__, BFLOAT16, bf16, uint16_t, float, ew_bf16_load,               \
    ew_bf16_store, F, BF)                                                     \
  X(__VA_ARGS__, FLOAT32, f32, float, float, ew_ld_same, ew_st_same, F, F)    \
  X(__VA_ARGS__, FLOAT64, f64, double, double, ew_ld_same, ew_st_same, D, D)

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
#define EW_CV_B_I EW_CV_PLAIN_
#define EW_CV_B_U EW_CV_PLAIN_
#define EW_CV_B_H EW_CV_PLAIN_
#define EW_CV_B_BF EW_CV_PLAIN_
#define EW_CV_B_F EW_CV_PLAIN_
#define EW_CV_B_D EW_CV_PLAIN_
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
#define EW_CV_F_I EW_CV_NUMPY_F2I_
#define EW_CV_F_U EW_CV_NUMPY_F2I_
#define EW_CV_F_H EW_CV_PLAIN_
#define EW_CV_F_BF EW_CV_PLAIN_
#define EW_CV_F_F EW_CV_PLAIN_
#define EW_CV_F_D EW_CV_PLAIN_
#define EW_CV_D_I EW_CV_NUMPY_F2I_
#define EW_CV_D_U EW_CV_NUMPY_F2I_
#define EW_CV_D_H(x, VR, SFX) ew_f64_to_f32_odd(x)
#define EW_CV_D_BF(x, VR, SFX) ew_f64_to_f32_odd(x)
#define EW_CV_D_F EW_CV_PLAIN_
#define EW_CV_D_D EW_CV_PLAIN_
/* The tosa flavour. */
#define EW_CV_T_T(x, VR, SFX) ew_tosa_f2i_##SFX((double)(x))

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
#define EW_CVU_D_I EW_CVU_NUMPY_F2I_
#define EW_CVU_D_U EW_CVU_NUMPY_F2I_
#define EW_CVU_D_H EW_CVU_NEVER_
#define EW_CVU_D_BF EW_CVU_NEVER_
#define EW_CVU_D_F EW_CVU_NEVER_
#define EW_CVU_D_D EW_CVU_NEVER_
#define EW_CVU_T_T(x, SFX) ew_unpred_tosa_f2i_##SFX((double)(x))

/* The list: X(NAME, CAST, flavour, in, out, TA, LA, VA, TR, SR, FN, UN,
 * input class, result class, result value type, result suffix). */
#define EW_CAST_PAIR_(X, IA, SA, TA, VA, LA, CA, IR, SR, TR, VR, LR, STO, CIR, \
                      CR)                                                     \
  X(ewk_cast_##SA##_##SR, CAST, ANY, IA, IR, TA, LA, VA, TR, STO,             \
    ew_cv_##SA##_##SR, ew_unpred_cv_##SA##_##SR, CA, CR, VR, SR)
#define EW_CAST_FROM_(X, IA, SA, TA, VA, LA, STA, CA, COA)                    \
  EW_CAST_TYPES_B(EW_CAST_PAIR_, X, IA, SA, TA, VA, LA, CA)
#define EW_CAST_TOSA_TO_(X, IA, SA, TA, LA, IR, SR, TR)                       \
  X(ewk_castt_##SA##_##SR, CAST, TOSA, IA, IR, TA, LA, float, TR, ew_st_same, \
    ew_cvt_##SA##_##SR, ew_unpred_cvt_##SA##_##SR, T, T, TR, SR)
#define EW_CAST_TOSA_FROM_(X, IA, SA, TA, LA)                                 \
  EW_CAST_TOSA_TO_(X, IA, SA, TA, LA, INT8, i8, int8_t)                       \
  EW_CAST_TOSA_TO_(X, IA, SA, TA, LA, INT16, i16, int16_t)                    \
  EW_CAST_TOSA_TO_(X, IA, SA, TA, LA, INT32, i32, int32_t)

#define EW_CAST_LIST(X)                                                       \
  EW_CAST_TYPES_A(EW_CAST_FROM_, X)                                           \
  EW_CAST_TOSA_FROM_(X, FLOAT16, f16, uint16_t, ew_f16_load)                  \
  EW_CAST_TOSA_FROM_(X, BFLOAT16, bf16, uint16_t, ew_bf16_load)               \
  EW_CAST_TOSA_FROM_(X, FLOAT32, f32, float, ew_ld_same)

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
