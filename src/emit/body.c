/* The scalar body of each op: which arith / math ops compute one element.
 *
 * Each op's numerics follow the TOSA specification (v1.0.2) as
 * ../shared/research/tosa-op-semantics.md summarizes it, and where MLIR 22's
 * own tosa-to-linalg makes a choice, the same choice: CLAMP and MAXIMUM /
 * MINIMUM use arith.maximumf / minimumf (NaN propagates) and, for
 * nan_mode IGNORE, a cmpf uno + select; CAST float -> int rounds with
 * math.roundeven and saturates; NEGATE of integers computes
 * out_zp + in_zp - x in i64 and saturates to the type.  MUL of i32 with a
 * shift computes (a * b + 2^(shift-1)) >> shift in i64 (round half up) and
 * keeps the low 32 bits, which for shift 0 is the wrapping product. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit/emit_internal.h"
#include "op/op_attrs.h"

typedef enum type_class { TC_BOOL, TC_INT, TC_FLOAT, TC_OTHER } type_class;

static type_class class_of(bcast_dtype t) {
  switch (bcast_dtype_kind_of(t)) {
  case BCAST_KIND_BOOL:
    return TC_BOOL;
  case BCAST_KIND_SIGNED:
    return TC_INT;
  case BCAST_KIND_FLOAT:
    return TC_FLOAT;
  default:
    return TC_OTHER;
  }
}

static unsigned bits_of(bcast_dtype t) {
  return t == BCAST_BOOL ? 1u : (unsigned)(bcast_dtype_size(t) * 8);
}

static bcast_status type_error(const emit_op *op, bcast_diag *diag,
                               const char *what) {
  return bcast__fail(diag, BCAST_TYPE, "%u:%u: '%.*s' op %s", op->line,
                     op->col, (int)op->op_name_len, op->op_name, what);
}

/* The tosa profile's type rules are the op table's (bcast/op.h), the same
 * the executor applies, so the compiler path and the interpreter accept
 * exactly the same signatures. */
bcast_status bcast__emit_result_dtype(const emit_op *op, bcast_dtype *out,
                                      bcast_diag *diag) {
  char msg[BCAST_DIAG_TEXT_MAX + 64];
  bcast_dtype inputs[3], want;
  for (size_t k = 0; k < op->n_in; k++) inputs[k] = op->in[k].dtype;
  bcast_diag tdiag;
  bcast_status st =
      bcast_op_result_dtype_in(op->op, BCAST_PROFILE_TOSA, op->tables,
                               op->n_in, inputs, *out, &want,
                               diag ? &tdiag : NULL);
  if (st != BCAST_OK) {
    if (!diag) return BCAST_TYPE;
    size_t n = 0;
    msg[0] = '\0';
    bcast__append(msg, sizeof msg, &n,
                  "does not support these element types in the tosa profile: "
                  "%s",
                  tdiag.message);
    return type_error(op, diag, msg);
  }
  if (*out != want) {
    snprintf(msg, sizeof msg, "result element type must be %s, not %s",
             bcast_dtype_mlir_name(want), bcast_dtype_mlir_name(*out));
    return type_error(op, diag, msg);
  }
  return BCAST_OK;
}

/* ---- writing the body ---------------------------------------------- */

/* A fresh temporary name "%bc3_t7". */
static const char *fresh(emit_ctx *c, char *buf, size_t size) {
  snprintf(buf, size, "%%%s%zu_t%u", c->prefix, c->op_number, c->tmp++);
  return buf;
}

#define NAME_MAX_ 64
typedef char name_t[NAME_MAX_];

/* %r = <op> <operands> : <type>, returning r. */
static const char *inst(emit_ctx *c, int level, char *r, const char *fmt, ...)
    BCAST_PRINTF(4, 5);
static const char *inst(emit_ctx *c, int level, char *r, const char *fmt,
                        ...) {
  fresh(c, r, NAME_MAX_);
  char text[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  bcast__emit_line(c, level, "%s = %s", r, text);
  return r;
}

static const char *cst(emit_ctx *c, int level, char *r, const char *value,
                       const char *type) {
  /* An i1 literal is written "true" / "false", without a type. */
  if (strcmp(type, "i1") == 0)
    return inst(c, level, r, "arith.constant %s", value);
  return inst(c, level, r, "arith.constant %s : %s", value, type);
}

/* An 8-bit float -> an integer wider than its exponent range reaches,
 * as MLIR 22's tosa-to-linalg writes it: converted, then the format's
 * infinities (for E4M3FN, which has none, APFloat's NaN pattern: MLIR's
 * own choice, kept) replaced by the integer's limits, compared unordered.
 * The hex constants are the patterns bcast's narrowing gives +-inf. */
static const char *cast_fp8_to_wide_int(emit_ctx *c, int level,
                                        const char *x, bcast_dtype from,
                                        bcast_dtype to, char *r) {
  name_t rnd, conv, inf, ninf, is_inf, is_ninf, minv, maxv, sel;
  const char *ft = bcast_dtype_mlir_name(from),
             *it = bcast_dtype_mlir_name(to);
  const unsigned n = bits_of(to);
  const int e4m3 = from == BCAST_FLOAT8_E4M3FN;
  const unsigned inf_bits = e4m3 ? bcast_double_to_f8e4m3fn(INFINITY)
                                 : bcast_double_to_f8e5m2(INFINITY);
  char inf_text[8], ninf_text[8], min_text[32], max_text[32];
  snprintf(inf_text, sizeof inf_text, "0x%02X", inf_bits);
  snprintf(ninf_text, sizeof ninf_text, "0x%02X", inf_bits | 0x80u);
  snprintf(min_text, sizeof min_text, "-%llu",
           (unsigned long long)((uint64_t)1 << (n - 1)));
  snprintf(max_text, sizeof max_text, "%llu",
           (unsigned long long)(((uint64_t)1 << (n - 1)) - 1));
  inst(c, level, rnd, "math.roundeven %s : %s", x, ft);
  inst(c, level, conv, "arith.fptosi %s : %s to %s", rnd, ft, it);
  cst(c, level, inf, inf_text, ft);
  cst(c, level, ninf, ninf_text, ft);
  inst(c, level, is_inf, "arith.cmpf ueq, %s, %s : %s", rnd, inf, ft);
  inst(c, level, is_ninf, "arith.cmpf ueq, %s, %s : %s", rnd, ninf, ft);
  cst(c, level, minv, min_text, it);
  cst(c, level, maxv, max_text, it);
  inst(c, level, sel, "arith.select %s, %s, %s : %s", is_inf, maxv, conv, it);
  return inst(c, level, r, "arith.select %s, %s, %s : %s", is_ninf, minv, sel,
              it);
}

/* Float -> integer: round half to even, saturate (NaN is unpredictable).
 * An 8-bit float is rounded in its own type, and clamped only where its
 * largest exponent (8 for E4M3FN, 15 for E5M2) reaches 2^(n-1); MLIR's
 * rule (mlir-opt 22's tosa-to-linalg), which ew_fp8_f2i computes. */
static const char *cast_float_to_int(emit_ctx *c, int level, const char *x,
                                     bcast_dtype from, bcast_dtype to,
                                     char *r) {
  name_t wide, rnd, lo, hi, maxv, clamped, conv, ge;
  const char *ft = bcast_dtype_mlir_name(from);
  const unsigned fp8_max_exp = from == BCAST_FLOAT8_E4M3FN ? 8
                               : from == BCAST_FLOAT8_E5M2 ? 15
                                                           : 0;
  if (fp8_max_exp && bits_of(to) - 1 > fp8_max_exp)
    return cast_fp8_to_wide_int(c, level, x, from, to, r);
  if (from == BCAST_FLOAT16 || from == BCAST_BFLOAT16) {
    inst(c, level, wide, "arith.extf %s : %s to f32", x, ft);
    x = wide;
    ft = "f32";
  }
  const char *it = bcast_dtype_mlir_name(to);
  unsigned n = bits_of(to);
  char lo_text[48], hi_text[48], max_text[32];
  /* -2^(n-1) and 2^(n-1) are exact in f32 and f64. */
  snprintf(lo_text, sizeof lo_text, "-%.1f", (double)((uint64_t)1 << (n - 1)));
  snprintf(hi_text, sizeof hi_text, "%.1f", (double)((uint64_t)1 << (n - 1)));
  snprintf(max_text, sizeof max_text, "%llu",
           (unsigned long long)(((uint64_t)1 << (n - 1)) - 1));
  inst(c, level, rnd, "math.roundeven %s : %s", x, ft);
  cst(c, level, lo, lo_text, ft);
  cst(c, level, hi, hi_text, ft);
  cst(c, level, maxv, max_text, it);
  inst(c, level, clamped, "arith.maximumf %s, %s : %s", rnd, lo, ft);
  inst(c, level, conv, "arith.fptosi %s : %s to %s", clamped, ft, it);
  inst(c, level, ge, "arith.cmpf uge, %s, %s : %s", rnd, hi, ft);
  return inst(c, level, r, "arith.select %s, %s, %s : %s", ge, maxv, conv, it);
}

static const char *emit_cast(emit_ctx *c, int level, const char *x,
                             bcast_dtype from, int unsigned_from,
                             bcast_dtype to, char *r) {
  const char *ft = bcast_dtype_mlir_name(from),
             *tt = bcast_dtype_mlir_name(to);
  type_class f = class_of(from), t = class_of(to);
  name_t zero, wide;
  if (t == TC_BOOL) {
    if (f == TC_FLOAT) {
      cst(c, level, zero, "0.0", ft);
      return inst(c, level, r, "arith.cmpf une, %s, %s : %s", x, zero, ft);
    }
    cst(c, level, zero, "0", ft);
    return inst(c, level, r, "arith.cmpi ne, %s, %s : %s", x, zero, ft);
  }
  if (f == TC_BOOL)
    return inst(c, level, r, "%s %s : i1 to %s",
                t == TC_FLOAT ? "arith.uitofp" : "arith.extui", x, tt);
  if (f == TC_INT && t == TC_INT && bits_of(to) == bits_of(from)) {
    /* A signed integer to the unsigned one of its width: the same bits on
     * the signless view, as MLIR 22 yields its input. */
    snprintf(r, NAME_MAX_, "%s", x);
    return r;
  }
  if (f == TC_INT && t == TC_INT)
    return inst(c, level, r, "%s %s : %s to %s",
                bits_of(to) > bits_of(from) ? "arith.extsi" : "arith.trunci",
                x, ft, tt);
  if (f == TC_INT)
    return inst(c, level, r, "%s %s : %s to %s",
                unsigned_from ? "arith.uitofp" : "arith.sitofp", x, ft, tt);
  if (t == TC_INT) return cast_float_to_int(c, level, x, from, to, r);
  /* float -> float; f16 <-> bf16 goes through f32. */
  if ((from == BCAST_FLOAT16 && to == BCAST_BFLOAT16) ||
      (from == BCAST_BFLOAT16 && to == BCAST_FLOAT16)) {
    inst(c, level, wide, "arith.extf %s : %s to f32", x, ft);
    return inst(c, level, r, "arith.truncf %s : f32 to %s", wide, tt);
  }
  return inst(c, level, r, "%s %s : %s to %s",
              bits_of(to) > bits_of(from) ? "arith.extf" : "arith.truncf", x,
              ft, tt);
}

/* ---- the op bodies --------------------------------------------------
 *
 * An op whose element is one arith / math op is written from the op
 * table's ARITH column by arith_body.  The others have a function here,
 * named by the table's BODY column.  Every body gets the block arguments
 * of the broadcast operands (args), the scalars of the extra operands
 * (extra; NULL when absent), and writes the result's name into r. */

typedef void body_fn(emit_ctx *c, int level, const emit_op *op,
                     const char *const *args, const char *const *extra,
                     char *r);

/* The element type the op computes in (SELECT: its values') and its MLIR
 * spelling. */
static bcast_dtype data_type(const emit_op *op) {
  return op->in[op->op == BCAST_OP_SELECT ? 1 : 0].dtype;
}

static void body_abs(emit_ctx *c, int level, const emit_op *op,
                     const char *const *args, const char *const *extra,
                     char *r) {
  (void)extra;
  const bcast_dtype t = data_type(op);
  const char *ts = bcast_dtype_mlir_name(t);
  name_t zero, neg;
  if (class_of(t) == TC_FLOAT) {
    inst(c, level, r, "math.absf %s : %s", args[0], ts);
    return;
  }
  cst(c, level, zero, "0", ts);
  inst(c, level, neg, "arith.subi %s, %s : %s", zero, args[0], ts);
  inst(c, level, r, "arith.maxsi %s, %s : %s", args[0], neg, ts);
}

static void body_bitwise_not(emit_ctx *c, int level, const emit_op *op,
                             const char *const *args, const char *const *extra,
                             char *r) {
  (void)extra;
  const char *ts = bcast_dtype_mlir_name(data_type(op));
  name_t ones;
  cst(c, level, ones, "-1", ts);
  inst(c, level, r, "arith.xori %s, %s : %s", args[0], ones, ts);
}

static void body_logical_not(emit_ctx *c, int level, const emit_op *op,
                             const char *const *args, const char *const *extra,
                             char *r) {
  (void)op;
  (void)extra;
  name_t t;
  cst(c, level, t, "true", "i1");
  inst(c, level, r, "arith.xori %s, %s : i1", args[0], t);
}

static void body_cast(emit_ctx *c, int level, const emit_op *op,
                      const char *const *args, const char *const *extra,
                      char *r) {
  (void)extra;
  emit_cast(c, level, args[0], data_type(op), op->is_unsigned_data,
            op->result_dtype, r);
}

static void body_reciprocal(emit_ctx *c, int level, const emit_op *op,
                            const char *const *args, const char *const *extra,
                            char *r) {
  (void)extra;
  const char *ts = bcast_dtype_mlir_name(data_type(op));
  name_t one;
  cst(c, level, one, "1.0", ts);
  inst(c, level, r, "arith.divf %s, %s : %s", one, args[0], ts);
}

static void body_sigmoid(emit_ctx *c, int level, const emit_op *op,
                         const char *const *args, const char *const *extra,
                         char *r) {
  (void)extra;
  const char *ts = bcast_dtype_mlir_name(data_type(op));
  name_t one, neg, e, den;
  cst(c, level, one, "1.0", ts);
  inst(c, level, neg, "arith.negf %s : %s", args[0], ts);
  inst(c, level, e, "math.exp %s : %s", neg, ts);
  inst(c, level, den, "arith.addf %s, %s : %s", e, one, ts);
  inst(c, level, r, "arith.divf %s, %s : %s", one, den, ts);
}

static void body_select(emit_ctx *c, int level, const emit_op *op,
                        const char *const *args, const char *const *extra,
                        char *r) {
  (void)extra;
  inst(c, level, r, "arith.select %s, %s, %s : %s", args[0], args[1], args[2],
       bcast_dtype_mlir_name(data_type(op)));
}

/* NaN handling of nan_mode IGNORE for maximum / minimum: the other operand
 * when one is NaN. */
static const char *ignore_nan2(emit_ctx *c, int level, const char *a,
                               const char *b, const char *m, const char *t,
                               char *r) {
  name_t ua, ub, s;
  inst(c, level, ua, "arith.cmpf uno, %s, %s : %s", a, a, t);
  inst(c, level, ub, "arith.cmpf uno, %s, %s : %s", b, b, t);
  inst(c, level, s, "arith.select %s, %s, %s : %s", ua, b, m, t);
  return inst(c, level, r, "arith.select %s, %s, %s : %s", ub, a, s, t);
}

/* MAXIMUM and MINIMUM: arith's NaN-propagating float ops, the signed
 * integer ones, and a NaN test for nan_mode IGNORE. */
static void min_max(emit_ctx *c, int level, const emit_op *op,
                    const char *const *args, int is_max, char *r) {
  const bcast_dtype t = data_type(op);
  const char *ts = bcast_dtype_mlir_name(t), *a = args[0], *b = args[1];
  name_t m;
  if (class_of(t) != TC_FLOAT) {
    inst(c, level, r, "arith.%s %s, %s : %s", is_max ? "maxsi" : "minsi", a, b,
         ts);
  } else if (op->attrs.nan_mode != BCAST_NAN_IGNORE) {
    inst(c, level, r, "arith.%s %s, %s : %s", is_max ? "maximumf" : "minimumf",
         a, b, ts);
  } else {
    inst(c, level, m, "arith.%s %s, %s : %s", is_max ? "maximumf" : "minimumf",
         a, b, ts);
    ignore_nan2(c, level, a, b, m, ts, r);
  }
}

static void body_maximum(emit_ctx *c, int level, const emit_op *op,
                         const char *const *args, const char *const *extra,
                         char *r) {
  (void)extra;
  min_max(c, level, op, args, 1, r);
}

static void body_minimum(emit_ctx *c, int level, const emit_op *op,
                         const char *const *args, const char *const *extra,
                         char *r) {
  (void)extra;
  min_max(c, level, op, args, 0, r);
}

static void body_mul(emit_ctx *c, int level, const emit_op *op,
                     const char *const *args, const char *const *extra,
                     char *r) {
  const char *a = args[0], *b = args[1], *shift = extra[0];
  bcast_dtype t = op->in[0].dtype;
  const char *ts = bcast_dtype_mlir_name(t);
  name_t a32, b32, a64, b64, p, s64, zero, one, gt, sm1, sm1c, half, rnd, q,
      sh;
  if (class_of(t) == TC_FLOAT) {
    inst(c, level, r, "arith.mulf %s, %s : %s", a, b, ts);
    return;
  }
  if (t != BCAST_INT32 && op->result_dtype == t) {
    /* MLIR 22's int64, and its int8 / int16 product in the input type:
     * the shift is 0, a wrapping product. */
    inst(c, level, r, "arith.muli %s, %s : %s", a, b, ts);
    return;
  }
  if (t != BCAST_INT32) {
    /* i8 / i16 -> i32: the shift must be 0 (REQUIRE), so a plain product. */
    inst(c, level, a32, "arith.extsi %s : %s to i32", a, ts);
    inst(c, level, b32, "arith.extsi %s : %s to i32", b, ts);
    inst(c, level, r, "arith.muli %s, %s : i32", a32, b32);
    return;
  }
  if (!shift) {
    inst(c, level, r, "arith.muli %s, %s : i32", a, b);
    return;
  }
  inst(c, level, a64, "arith.extsi %s : i32 to i64", a);
  inst(c, level, b64, "arith.extsi %s : i32 to i64", b);
  inst(c, level, p, "arith.muli %s, %s : i64", a64, b64);
  inst(c, level, s64, "arith.extsi %s : %s to i64", shift,
       bcast_dtype_mlir_name(op->extra[0].dtype));
  cst(c, level, zero, "0", "i64");
  cst(c, level, one, "1", "i64");
  inst(c, level, gt, "arith.cmpi sgt, %s, %s : i64", s64, zero);
  inst(c, level, sm1, "arith.subi %s, %s : i64", s64, one);
  inst(c, level, sm1c, "arith.select %s, %s, %s : i64", gt, sm1, zero);
  inst(c, level, half, "arith.shli %s, %s : i64", one, sm1c);
  inst(c, level, rnd, "arith.select %s, %s, %s : i64", gt, half, zero);
  inst(c, level, q, "arith.addi %s, %s : i64", p, rnd);
  inst(c, level, sh, "arith.shrsi %s, %s : i64", q, s64);
  inst(c, level, r, "arith.trunci %s : i64 to i32", sh);
}

/* v of integer type t as i64: extended, or v itself when t is int64. */
static const char *to_i64(emit_ctx *c, int level, const char *v,
                          bcast_dtype t, char *buf) {
  if (t == BCAST_INT64) return v;
  return inst(c, level, buf, "arith.extsi %s : %s to i64", v,
              bcast_dtype_mlir_name(t));
}

static void body_negate(emit_ctx *c, int level, const emit_op *op,
                        const char *const *args, const char *const *zp,
                        char *r) {
  const char *x = args[0];
  bcast_dtype t = op->in[0].dtype;
  const char *ts = bcast_dtype_mlir_name(t);
  if (class_of(t) == TC_FLOAT) {
    inst(c, level, r, "arith.negf %s : %s", x, ts);
    return;
  }
  name_t x64, z0, z1, sum, diff, lo, hi, mx, mn, zero;
  unsigned n = bits_of(t);
  char lo_text[32], hi_text[32];
  snprintf(lo_text, sizeof lo_text, "-%llu",
           (unsigned long long)((uint64_t)1 << (n - 1)));
  snprintf(hi_text, sizeof hi_text, "%llu",
           (unsigned long long)(((uint64_t)1 << (n - 1)) - 1));
  const char *xw = to_i64(c, level, x, t, x64);
  if (zp[0] && zp[1]) {
    const char *w0 = to_i64(c, level, zp[0], op->extra[0].dtype, z0);
    const char *w1 = to_i64(c, level, zp[1], op->extra[1].dtype, z1);
    inst(c, level, sum, "arith.addi %s, %s : i64", w0, w1);
  } else {
    cst(c, level, zero, "0", "i64");
    snprintf(sum, sizeof sum, "%s", zero);
  }
  inst(c, level, diff, "arith.subi %s, %s : i64", sum, xw);
  if (n == 64) { /* MLIR 22's int64: the difference wraps, no clamp */
    snprintf(r, NAME_MAX_, "%s", diff);
    return;
  }
  cst(c, level, lo, lo_text, "i64");
  cst(c, level, hi, hi_text, "i64");
  inst(c, level, mx, "arith.maxsi %s, %s : i64", diff, lo);
  inst(c, level, mn, "arith.minsi %s, %s : i64", mx, hi);
  inst(c, level, r, "arith.trunci %s : i64 to %s", mn, ts);
}

static void body_clamp(emit_ctx *c, int level, const emit_op *op,
                       const char *const *args, const char *const *extra,
                       char *r) {
  (void)extra;
  const char *x = args[0];
  bcast_dtype t = op->in[0].dtype;
  const char *ts = bcast_dtype_mlir_name(t);
  char lo_text[128], hi_text[128];
  name_t lo, hi, m, n, u;
  /* The bounds were checked against the op's type when the op was
   * described; an unsigned bound is written as the unsigned value, which
   * the signless constant takes as its bits. */
  if (op->is_unsigned_data) {
    bcast__clamp_bounds b;
    bcast__op_clamp_bounds(&op->attrs, op->unsigned_data, &b, NULL);
    snprintf(lo_text, sizeof lo_text, "%llu",
             (unsigned long long)bcast__op_clamp_bound_mlir_unsigned(
                 b.lo_u, bits_of(t)));
    snprintf(hi_text, sizeof hi_text, "%llu",
             (unsigned long long)bcast__op_clamp_bound_mlir_unsigned(
                 b.hi_u, bits_of(t)));
  } else {
    bcast_scalar_format_mlir(&op->attrs.min_val, t, lo_text, sizeof lo_text,
                             NULL);
    bcast_scalar_format_mlir(&op->attrs.max_val, t, hi_text, sizeof hi_text,
                             NULL);
  }
  cst(c, level, lo, lo_text, ts);
  cst(c, level, hi, hi_text, ts);
  /* max with min_val first, then min with max_val (spec order). */
  if (class_of(t) != TC_FLOAT) {
    const char *sg = op->is_unsigned_data ? "u" : "s";
    inst(c, level, m, "arith.max%si %s, %s : %s", sg, x, lo, ts);
    inst(c, level, r, "arith.min%si %s, %s : %s", sg, m, hi, ts);
    return;
  }
  inst(c, level, m, "arith.maximumf %s, %s : %s", x, lo, ts);
  if (op->attrs.nan_mode != BCAST_NAN_IGNORE) {
    inst(c, level, r, "arith.minimumf %s, %s : %s", m, hi, ts);
    return;
  }
  inst(c, level, n, "arith.minimumf %s, %s : %s", m, hi, ts);
  inst(c, level, u, "arith.cmpf uno, %s, %s : %s", x, x, ts);
  inst(c, level, r, "arith.select %s, %s, %s : %s", u, lo, n, ts);
}

static void body_arithmetic_right_shift(emit_ctx *c, int level,
                                        const emit_op *op,
                                        const char *const *args,
                                        const char *const *extra, char *r) {
  (void)extra;
  const char *a = args[0], *b = args[1];
  const char *ts = bcast_dtype_mlir_name(op->in[0].dtype);
  name_t s, zero, one, gt, bm1, bm1c, sh, bit, odd, inc, incx;
  if (!op->attrs.round) {
    inst(c, level, r, "arith.shrsi %s, %s : %s", a, b, ts);
    return;
  }
  inst(c, level, s, "arith.shrsi %s, %s : %s", a, b, ts);
  /* round: add 1 when b > 0 and bit b-1 of a is set. */
  cst(c, level, zero, "0", ts);
  cst(c, level, one, "1", ts);
  inst(c, level, gt, "arith.cmpi sgt, %s, %s : %s", b, zero, ts);
  inst(c, level, bm1, "arith.subi %s, %s : %s", b, one, ts);
  inst(c, level, bm1c, "arith.select %s, %s, %s : %s", gt, bm1, zero, ts);
  inst(c, level, sh, "arith.shrsi %s, %s : %s", a, bm1c, ts);
  inst(c, level, bit, "arith.andi %s, %s : %s", sh, one, ts);
  inst(c, level, odd, "arith.cmpi ne, %s, %s : %s", bit, zero, ts);
  inst(c, level, inc, "arith.andi %s, %s : i1", gt, odd);
  inst(c, level, incx, "arith.extui %s : i1 to %s", inc, ts);
  inst(c, level, r, "arith.addi %s, %s : %s", s, incx, ts);
}

/* An op whose element is one arith / math op: "math.exp %a : f32",
 * "arith.addi %a, %b : i32", or with a predicate
 * "arith.cmpf oeq, %a, %b : f32". */
static void arith_body(emit_ctx *c, int level, const emit_op *op,
                       const char *name, const char *const *args, char *r) {
  const char *ts = bcast_dtype_mlir_name(data_type(op));
  if (op->n_in == 1) {
    inst(c, level, r, "%s %s : %s", name, args[0], ts);
    return;
  }
  const int predicate = strchr(name, ' ') != NULL;
  inst(c, level, r, "%s%s%s, %s : %s", name, predicate ? ", " : " ", args[0],
       args[1], ts);
}

/* The op table's body column: ARITH(float op, integer op) or BODY(name). */
typedef struct body_row {
  const char *float_op, *int_op; /* ARITH; NULL where the op has none */
  body_fn *fn;                   /* BODY */
} body_row;

#define ARITH(f, i)                                                           \
  { f, i, NULL }
#define BODY(name)                                                            \
  { NULL, NULL, body_##name }
static const body_row bodies[BCAST_OP_COUNT] = {
#define ROW_(id, name, nb, nx, ver, elem, t0, t1, tr, tosa, numpy, rule,      \
             attrs, body, ...)                                                \
  [BCAST_OP_##id] = body,
    BCAST_OP_LIST(ROW_)
#undef ROW_
};
#undef ARITH
#undef BODY

int bcast__emit_body_supports(bcast_op op, bcast_dtype t) {
  if ((unsigned)op >= BCAST_OP_COUNT) return 0;
  const body_row *row = &bodies[op];
  if (row->fn) return 1;
  return (class_of(t) == TC_FLOAT ? row->float_op : row->int_op) != NULL;
}

void bcast__emit_body(emit_ctx *c, int level, const emit_op *op,
                      const char *const *args, const char *const *extra,
                      char *result, size_t result_size) {
  name_t r;
  const body_row *row = &bodies[op->op];
  const bcast_dtype t = data_type(op);
  const char *name = class_of(t) == TC_FLOAT ? row->float_op : row->int_op;
  if (op->arith) {
    arith_body(c, level, op, op->arith, args, r);
  } else if (row->fn) {
    row->fn(c, level, op, args, extra, r);
  } else if (name) {
    arith_body(c, level, op, name, args, r);
  } else {
    /* The type rules admit no type an ARITH row lacks (test_emit proves
     * it); should that break, the output says so instead of guessing. */
    snprintf(r, sizeof r, "%s", "<no body>");
    c->out.err = BCAST_UNSUPPORTED;
  }
  snprintf(result, result_size, "%s", r);
}
