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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bcast/elementwise.h"

#include "emit/emit_internal.h"

typedef enum type_class { TC_BOOL, TC_INT, TC_FLOAT, TC_OTHER } type_class;

static type_class class_of(bcast_dtype t) {
  switch (bcast_dtype_kind_of(t)) {
  case BCAST_KIND_BOOL: return TC_BOOL;
  case BCAST_KIND_SIGNED: return TC_INT;
  case BCAST_KIND_FLOAT: return TC_FLOAT;
  default: return TC_OTHER;
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

/* The tosa profile's type list is the engine's (bcast/elementwise.h), so
 * the compiler path and the interpreter accept exactly the same
 * signatures. */
bcast_status emit_result_dtype(const emit_op *op, bcast_dtype *out,
                               bcast_diag *diag) {
  char msg[BCAST_DIAG_TEXT_MAX + 64];
  bcast_dtype inputs[3], want;
  for (size_t k = 0; k < op->n_in; k++) inputs[k] = op->in[k].dtype;
  bcast_op_attrs attrs;
  bcast_op_attrs_init(&attrs);
  attrs.cast_to = *out;
  bcast_diag *tdiag = diag ? bcast__malloc(sizeof *tdiag) : NULL;
  bcast_status st = bcast_ew_result_dtype(op->op, BCAST_PROFILE_TOSA, op->n_in,
                                          inputs, &attrs, &want, tdiag);
  if (st != BCAST_OK) {
    int have_msg = tdiag != NULL;
    if (tdiag) {
      size_t n = 0;
      msg[0] = '\0';
      bcast__append(msg, sizeof msg, &n, "does not support these element types in the tosa profile: %s",
                    tdiag->message);
      bcast__free(tdiag);
    }
    return type_error(op, diag, have_msg ? msg : "unsupported element types");
  }
  bcast__free(tdiag);
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
static const char *inst(emit_ctx *c, int level, char *r, const char *fmt, ...) {
  fresh(c, r, NAME_MAX_);
  char text[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  emit_line(c, level, "%s = %s", r, text);
  return r;
}

static const char *cst(emit_ctx *c, int level, char *r, const char *value,
                       const char *type) {
  /* An i1 literal is written "true" / "false", without a type. */
  if (strcmp(type, "i1") == 0) return inst(c, level, r, "arith.constant %s", value);
  return inst(c, level, r, "arith.constant %s : %s", value, type);
}

/* Float -> integer: round half to even, saturate (NaN is unpredictable). */
static const char *cast_float_to_int(emit_ctx *c, int level, const char *x,
                                     bcast_dtype from, bcast_dtype to,
                                     char *r) {
  name_t wide, rnd, lo, hi, maxv, clamped, conv, ge;
  const char *ft = bcast_dtype_mlir_name(from);
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
                             bcast_dtype from, bcast_dtype to, char *r) {
  const char *ft = bcast_dtype_mlir_name(from), *tt = bcast_dtype_mlir_name(to);
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
  if (f == TC_INT && t == TC_INT)
    return inst(c, level, r, "%s %s : %s to %s",
                bits_of(to) > bits_of(from) ? "arith.extsi" : "arith.trunci",
                x, ft, tt);
  if (f == TC_INT) return inst(c, level, r, "arith.sitofp %s : %s to %s", x, ft, tt);
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

static const char *emit_mul(emit_ctx *c, int level, const emit_op *op,
                            const char *a, const char *b, const char *shift,
                            char *r) {
  bcast_dtype t = op->in[0].dtype;
  const char *ts = bcast_dtype_mlir_name(t);
  name_t a32, b32, a64, b64, p, s64, zero, one, gt, sm1, sm1c, half, rnd, q, sh;
  if (class_of(t) == TC_FLOAT) return inst(c, level, r, "arith.mulf %s, %s : %s", a, b, ts);
  if (t != BCAST_INT32) {
    /* i8 / i16 -> i32: the shift must be 0 (REQUIRE), so a plain product. */
    inst(c, level, a32, "arith.extsi %s : %s to i32", a, ts);
    inst(c, level, b32, "arith.extsi %s : %s to i32", b, ts);
    return inst(c, level, r, "arith.muli %s, %s : i32", a32, b32);
  }
  if (!shift) return inst(c, level, r, "arith.muli %s, %s : i32", a, b);
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
  return inst(c, level, r, "arith.trunci %s : i64 to i32", sh);
}

static const char *emit_negate(emit_ctx *c, int level, const emit_op *op,
                               const char *x, const char *const *zp, char *r) {
  bcast_dtype t = op->in[0].dtype;
  const char *ts = bcast_dtype_mlir_name(t);
  if (class_of(t) == TC_FLOAT) return inst(c, level, r, "arith.negf %s : %s", x, ts);
  name_t x64, z0, z1, sum, diff, lo, hi, mx, mn, zero;
  unsigned n = bits_of(t);
  char lo_text[32], hi_text[32];
  snprintf(lo_text, sizeof lo_text, "-%llu", (unsigned long long)((uint64_t)1 << (n - 1)));
  snprintf(hi_text, sizeof hi_text, "%llu", (unsigned long long)(((uint64_t)1 << (n - 1)) - 1));
  inst(c, level, x64, "arith.extsi %s : %s to i64", x, ts);
  if (zp[0] && zp[1]) {
    inst(c, level, z0, "arith.extsi %s : %s to i64", zp[0],
         bcast_dtype_mlir_name(op->extra[0].dtype));
    inst(c, level, z1, "arith.extsi %s : %s to i64", zp[1],
         bcast_dtype_mlir_name(op->extra[1].dtype));
    inst(c, level, sum, "arith.addi %s, %s : i64", z0, z1);
  } else {
    cst(c, level, zero, "0", "i64");
    snprintf(sum, sizeof sum, "%s", zero);
  }
  inst(c, level, diff, "arith.subi %s, %s : i64", sum, x64);
  cst(c, level, lo, lo_text, "i64");
  cst(c, level, hi, hi_text, "i64");
  inst(c, level, mx, "arith.maxsi %s, %s : i64", diff, lo);
  inst(c, level, mn, "arith.minsi %s, %s : i64", mx, hi);
  return inst(c, level, r, "arith.trunci %s : i64 to %s", mn, ts);
}

static const char *emit_clamp(emit_ctx *c, int level, const emit_op *op,
                              const char *x, char *r) {
  bcast_dtype t = op->in[0].dtype;
  const char *ts = bcast_dtype_mlir_name(t);
  char lo_text[128], hi_text[128];
  name_t lo, hi, m, n, u;
  snprintf(lo_text, sizeof lo_text, "%.*s", (int)op->min_val_len, op->min_val);
  snprintf(hi_text, sizeof hi_text, "%.*s", (int)op->max_val_len, op->max_val);
  cst(c, level, lo, lo_text, ts);
  cst(c, level, hi, hi_text, ts);
  /* max with min_val first, then min with max_val (spec order). */
  if (class_of(t) != TC_FLOAT) {
    inst(c, level, m, "arith.maxsi %s, %s : %s", x, lo, ts);
    return inst(c, level, r, "arith.minsi %s, %s : %s", m, hi, ts);
  }
  inst(c, level, m, "arith.maximumf %s, %s : %s", x, lo, ts);
  if (!op->nan_ignore) return inst(c, level, r, "arith.minimumf %s, %s : %s", m, hi, ts);
  inst(c, level, n, "arith.minimumf %s, %s : %s", m, hi, ts);
  inst(c, level, u, "arith.cmpf uno, %s, %s : %s", x, x, ts);
  return inst(c, level, r, "arith.select %s, %s, %s : %s", u, lo, n, ts);
}

static const char *emit_ars(emit_ctx *c, int level, const emit_op *op,
                            const char *a, const char *b, char *r) {
  const char *ts = bcast_dtype_mlir_name(op->in[0].dtype);
  name_t s, zero, one, gt, bm1, bm1c, sh, bit, odd, inc, incx;
  if (!op->round) return inst(c, level, r, "arith.shrsi %s, %s : %s", a, b, ts);
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
  return inst(c, level, r, "arith.addi %s, %s : %s", s, incx, ts);
}

void emit_body(emit_ctx *c, int level, const emit_op *op,
               const char *const *args, const char *const *extra,
               char *result, size_t result_size) {
  name_t r, k, e, n, m;
  const char *a = args[0], *b = op->n_in > 1 ? args[1] : NULL;
  bcast_dtype t = op->in[op->op == BCAST_OP_SELECT ? 1 : 0].dtype;
  const char *ts = bcast_dtype_mlir_name(t);
  int fp = class_of(t) == TC_FLOAT;
  const char *v = r;
  switch (op->op) {
  case BCAST_OP_ABS:
    if (fp) {
      inst(c, level, r, "math.absf %s : %s", a, ts);
    } else {
      cst(c, level, k, "0", ts);
      inst(c, level, n, "arith.subi %s, %s : %s", k, a, ts);
      inst(c, level, r, "arith.maxsi %s, %s : %s", a, n, ts);
    }
    break;
  case BCAST_OP_BITWISE_NOT:
    cst(c, level, k, "-1", ts);
    inst(c, level, r, "arith.xori %s, %s : %s", a, k, ts);
    break;
  case BCAST_OP_CAST:
    emit_cast(c, level, a, t, op->result_dtype, r);
    break;
  case BCAST_OP_CEIL: inst(c, level, r, "math.ceil %s : %s", a, ts); break;
  case BCAST_OP_FLOOR: inst(c, level, r, "math.floor %s : %s", a, ts); break;
  case BCAST_OP_CLAMP: emit_clamp(c, level, op, a, r); break;
  case BCAST_OP_CLZ: inst(c, level, r, "math.ctlz %s : %s", a, ts); break;
  case BCAST_OP_ERF: inst(c, level, r, "math.erf %s : %s", a, ts); break;
  case BCAST_OP_EXP: inst(c, level, r, "math.exp %s : %s", a, ts); break;
  case BCAST_OP_LOG: inst(c, level, r, "math.log %s : %s", a, ts); break;
  case BCAST_OP_TANH: inst(c, level, r, "math.tanh %s : %s", a, ts); break;
  case BCAST_OP_RSQRT: inst(c, level, r, "math.rsqrt %s : %s", a, ts); break;
  case BCAST_OP_LOGICAL_NOT:
    cst(c, level, k, "true", "i1");
    inst(c, level, r, "arith.xori %s, %s : i1", a, k);
    break;
  case BCAST_OP_NEGATE: emit_negate(c, level, op, a, extra, r); break;
  case BCAST_OP_RECIPROCAL:
    cst(c, level, k, "1.0", ts);
    inst(c, level, r, "arith.divf %s, %s : %s", k, a, ts);
    break;
  case BCAST_OP_SIGMOID:
    cst(c, level, k, "1.0", ts);
    inst(c, level, n, "arith.negf %s : %s", a, ts);
    inst(c, level, e, "math.exp %s : %s", n, ts);
    inst(c, level, m, "arith.addf %s, %s : %s", e, k, ts);
    inst(c, level, r, "arith.divf %s, %s : %s", k, m, ts);
    break;
  case BCAST_OP_ADD: inst(c, level, r, "arith.add%s %s, %s : %s", fp ? "f" : "i", a, b, ts); break;
  case BCAST_OP_SUB: inst(c, level, r, "arith.sub%s %s, %s : %s", fp ? "f" : "i", a, b, ts); break;
  case BCAST_OP_ARITHMETIC_RIGHT_SHIFT: emit_ars(c, level, op, a, b, r); break;
  case BCAST_OP_BITWISE_AND: case BCAST_OP_LOGICAL_AND:
    inst(c, level, r, "arith.andi %s, %s : %s", a, b, ts);
    break;
  case BCAST_OP_BITWISE_OR: case BCAST_OP_LOGICAL_OR:
    inst(c, level, r, "arith.ori %s, %s : %s", a, b, ts);
    break;
  case BCAST_OP_BITWISE_XOR: case BCAST_OP_LOGICAL_XOR:
    inst(c, level, r, "arith.xori %s, %s : %s", a, b, ts);
    break;
  case BCAST_OP_INTDIV: inst(c, level, r, "arith.divsi %s, %s : %s", a, b, ts); break;
  case BCAST_OP_EQUAL:
    inst(c, level, r, fp ? "arith.cmpf oeq, %s, %s : %s" : "arith.cmpi eq, %s, %s : %s", a, b, ts);
    break;
  case BCAST_OP_GREATER:
    inst(c, level, r, fp ? "arith.cmpf ogt, %s, %s : %s" : "arith.cmpi sgt, %s, %s : %s", a, b, ts);
    break;
  case BCAST_OP_GREATER_EQUAL:
    inst(c, level, r, fp ? "arith.cmpf oge, %s, %s : %s" : "arith.cmpi sge, %s, %s : %s", a, b, ts);
    break;
  case BCAST_OP_LOGICAL_LEFT_SHIFT: inst(c, level, r, "arith.shli %s, %s : %s", a, b, ts); break;
  case BCAST_OP_LOGICAL_RIGHT_SHIFT: inst(c, level, r, "arith.shrui %s, %s : %s", a, b, ts); break;
  case BCAST_OP_MAXIMUM: case BCAST_OP_MINIMUM: {
    int mx = op->op == BCAST_OP_MAXIMUM;
    if (!fp) {
      inst(c, level, r, "arith.%s %s, %s : %s", mx ? "maxsi" : "minsi", a, b, ts);
    } else if (!op->nan_ignore) {
      inst(c, level, r, "arith.%s %s, %s : %s", mx ? "maximumf" : "minimumf", a, b, ts);
    } else {
      inst(c, level, m, "arith.%s %s, %s : %s", mx ? "maximumf" : "minimumf", a, b, ts);
      ignore_nan2(c, level, a, b, m, ts, r);
    }
    break;
  }
  case BCAST_OP_MUL: emit_mul(c, level, op, a, b, extra[0], r); break;
  case BCAST_OP_POW: inst(c, level, r, "math.powf %s, %s : %s", a, b, ts); break;
  case BCAST_OP_SELECT:
    inst(c, level, r, "arith.select %s, %s, %s : %s", a, b, args[2], ts);
    break;
  default:
    v = a;
    break;
  }
  snprintf(result, result_size, "%s", v);
}
