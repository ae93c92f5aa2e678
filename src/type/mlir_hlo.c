/* StableHLO's and CHLO's broadcasting ops, as their verifiers judge them.
 *
 * Each op is checked in MLIR's order, so the first message is the one
 * stablehlo-opt prints:
 *   1. ODS: the operand and result types (ranked tensors of StableHLO's
 *      element types; broadcast_in_dim's static or single-bounded result;
 *      dynamic_broadcast_in_dim's statically shaped output_dimensions);
 *   2. the op's traits (element types the same or compatible);
 *   3. its type inference (stablehlo.broadcast, the chlo ops: "inferred
 *      type(s) ... are incompatible with return type(s)", then "failed to
 *      infer returned types") or its verifier (the spec's numbered
 *      constraints: broadcast_in_dim C1-C6, dynamic_broadcast_in_dim
 *      C1-C10).
 * A type bcast cannot read (an encoding other than #stablehlo.bounds, a
 * quantized type outside !quant.uniform, an element type StableHLO does
 * not name) gives no verdict: the op cannot be checked. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/diag.h"
#include "type/mlir_hlo.h"
#include "type/mlir_internal.h"
#include "type/text.h"

/* One operand's or the result's type as the rules read it. */
typedef struct hlo_type {
  const bcast_mlir_type_ref *ref;
  bcast_shape shape;              /* rank BCAST_RANK_UNRANKED for '*' */
  int64_t bounds[BCAST_MAX_RANK]; /* BCAST_DIM_DYNAMIC: no bound */
  int bounded;                    /* has #stablehlo.bounds */
  bcast__hlo_elem elem;
  bcast__hlo_quant quant; /* when elem is BCAST__HLO_QUANT */
} hlo_type;

/* At most three operands (chlo.broadcast_select): slots 0..n-1, then the
 * result at slot n. */
#define HLO_MAX_OPERANDS 3

/* The op and its types; slot n_operands is the result. */
typedef struct hlo_op {
  const bcast_mlir_op *op;
  bcast__hlo_kind kind;
  size_t n;
  hlo_type t[HLO_MAX_OPERANDS + 1];
  bcast_mlir_verdict *verdict;
  bcast_diag *diag;
} hlo_op;

/* snprintf, cutting a message that does not fit (types are long). */
static void fmt(char *buf, size_t n, const char *f, ...)
    __attribute__((format(printf, 3, 4)));
static void fmt(char *buf, size_t n, const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  vsnprintf(buf, n, f, ap);
  va_end(ap);
}

/* The CHLO ops' element-type traits and ODS columns. */
typedef enum chlo_rule {
  CHLO_COMPATIBLE, /* HLO_CompatibleOperandsAndResultElementType */
  CHLO_SAME,       /* SameOperandsAndResultElementType */
  CHLO_LOGICAL,    /* pred or integer operands, no element trait */
  CHLO_COMPLEX,    /* float operands, complex<lhs> result */
  CHLO_COMPARE     /* any operands, i1 result */
} chlo_rule;

/* The ops by name; chlo.broadcast_* ops not listed are binary ops with
 * SameOperandsAndResultElementType. */
static const struct {
  const char *name;
  bcast__hlo_kind kind;
  chlo_rule rule;
} hlo_ops[] = {
    {"stablehlo.broadcast", BCAST__HLO_BROADCAST, CHLO_SAME},
    {"stablehlo.broadcast_in_dim", BCAST__HLO_BROADCAST_IN_DIM, CHLO_SAME},
    {"stablehlo.dynamic_broadcast_in_dim", BCAST__HLO_DYNAMIC_BROADCAST,
     CHLO_SAME},
    {"chlo.broadcast_select", BCAST__HLO_CHLO_SELECT, CHLO_SAME},
    {"chlo.broadcast_add", BCAST__HLO_CHLO_BINARY, CHLO_COMPATIBLE},
    {"chlo.broadcast_maximum", BCAST__HLO_CHLO_BINARY, CHLO_COMPATIBLE},
    {"chlo.broadcast_minimum", BCAST__HLO_CHLO_BINARY, CHLO_COMPATIBLE},
    {"chlo.broadcast_and", BCAST__HLO_CHLO_BINARY, CHLO_LOGICAL},
    {"chlo.broadcast_or", BCAST__HLO_CHLO_BINARY, CHLO_LOGICAL},
    {"chlo.broadcast_xor", BCAST__HLO_CHLO_BINARY, CHLO_LOGICAL},
    {"chlo.broadcast_complex", BCAST__HLO_CHLO_BINARY, CHLO_COMPLEX},
    {"chlo.broadcast_compare", BCAST__HLO_CHLO_BINARY, CHLO_COMPARE},
};

/* StableHLO's element-wise ops: their operands and result have one shape
 * (nothing broadcasts; stablehlo.clamp and stablehlo.select, which take
 * scalars, are not among them). */
static const char *const elementwise_ops[] = {"abs",
                                              "add",
                                              "and",
                                              "atan2",
                                              "cbrt",
                                              "ceil",
                                              "complex",
                                              "convert",
                                              "cosine",
                                              "count_leading_zeros",
                                              "divide",
                                              "exponential",
                                              "exponential_minus_one",
                                              "floor",
                                              "imag",
                                              "is_finite",
                                              "log",
                                              "log_plus_one",
                                              "logistic",
                                              "maximum",
                                              "minimum",
                                              "multiply",
                                              "negate",
                                              "not",
                                              "or",
                                              "popcnt",
                                              "power",
                                              "real",
                                              "remainder",
                                              "round_nearest_afz",
                                              "round_nearest_even",
                                              "rsqrt",
                                              "shift_left",
                                              "shift_right_arithmetic",
                                              "shift_right_logical",
                                              "sign",
                                              "sine",
                                              "sqrt",
                                              "subtract",
                                              "tan",
                                              "tanh",
                                              "xor"};

bcast__hlo_kind bcast__hlo_kind_of(const char *name, size_t len) {
  static const char chlo[] = "chlo.broadcast_", shlo[] = "stablehlo.";
  for (size_t k = 0; k < sizeof hlo_ops / sizeof hlo_ops[0]; k++)
    if (strlen(hlo_ops[k].name) == len &&
        memcmp(hlo_ops[k].name, name, len) == 0)
      return hlo_ops[k].kind;
  if (len > sizeof chlo - 1 && memcmp(name, chlo, sizeof chlo - 1) == 0)
    return BCAST__HLO_CHLO_BINARY;
  if (len > sizeof shlo - 1 && memcmp(name, shlo, sizeof shlo - 1) == 0)
    for (size_t k = 0; k < sizeof elementwise_ops / sizeof elementwise_ops[0];
         k++)
      if (strlen(elementwise_ops[k]) == len - (sizeof shlo - 1) &&
          memcmp(elementwise_ops[k], name + sizeof shlo - 1,
                 len - (sizeof shlo - 1)) == 0)
        return BCAST__HLO_ELEMENTWISE;
  return BCAST__HLO_NONE;
}

/* A type as MLIR prints it in a message, encoding included. */
static const char *type_str(const hlo_op *h, size_t k, char *buf, size_t n) {
  bcast_mlir_type type;
  bcast_mlir_op_type(h->op, h->t[k].ref, &type);
  bcast_mlir_type_format(&type, buf, n);
  return buf;
}

#define TYPE_TEXT (BCAST_MAX_RANK * 21 + 512)

/* "operand #K" or "result #0" for slot k. */
static const char *slot_name(const hlo_op *h, size_t k, char *buf, size_t n) {
  if (k == h->n)
    fmt(buf, n, "result #0");
  else
    fmt(buf, n, "operand #%zu", k);
  return buf;
}

/* A failure: bcast's words (why) and MLIR's (mlir, op-prefixed). */
static bcast_status fail(const hlo_op *h, bcast_status st, const char *why,
                         const char *mlir) {
  if (!h->diag) return st;
  bcast__fail(h->diag, st, "%s", why);
  if (mlir) bcast__mlir_message(h->diag, 1, "%s", mlir);
  return st;
}

/* The op is outside bcast's model: no verdict. */
static bcast_status cannot_check(const hlo_op *h, const char *why) {
  h->verdict->cannot_check = 1;
  if (h->diag)
    bcast__fail(h->diag, BCAST_UNSUPPORTED, "cannot check: %s", why);
  return BCAST_UNSUPPORTED;
}

/* Reads slot k's type; an unmodelled one cannot be checked. */
static bcast_status load_type(hlo_op *h, size_t k) {
  hlo_type *t = &h->t[k];
  const bcast_mlir_op *op = h->op;
  t->ref = k == h->n ? &op->result : &op->operands[k];
  bcast_mlir_op_shape(op, t->ref, &t->shape);
  t->bounded = 0;
  t->elem = BCAST__HLO_OTHER;
  if (t->ref->container != BCAST_CONTAINER_TENSOR) return BCAST_OK;
  char what[TYPE_TEXT + 128], text[TYPE_TEXT];
  t->elem = bcast__hlo_elem_class(t->ref->elem, t->ref->elem_len);
  /* dynamic_broadcast_in_dim's output_dimensions is HLO_DimensionTensor:
   * index as well as integers (its own check follows). */
  int shape_operand = h->kind == BCAST__HLO_DYNAMIC_BROADCAST && k == 1;
  if (t->elem == BCAST__HLO_OTHER && shape_operand &&
      t->ref->elem_len == 5 && memcmp(t->ref->elem, "index", 5) == 0)
    return BCAST_OK;
  if (t->elem == BCAST__HLO_OTHER) {
    fmt(what, sizeof what,
        "element type '%.*s' of '%s' is not one of StableHLO's",
        (int)(t->ref->elem_len > 200 ? 200 : t->ref->elem_len), t->ref->elem,
        type_str(h, k, text, sizeof text));
    return cannot_check(h, what);
  }
  if (t->elem == BCAST__HLO_QUANT &&
      !bcast__hlo_quant_parse(t->ref->elem, t->ref->elem_len, &t->quant)) {
    fmt(what, sizeof what,
        "quantized element type '%.*s' is outside bcast's model "
        "(!quant.uniform per tensor or per axis)",
        (int)(t->ref->elem_len > 200 ? 200 : t->ref->elem_len), t->ref->elem);
    return cannot_check(h, what);
  }
  if (t->shape.rank == BCAST_RANK_UNRANKED) {
    if (t->ref->encoding) {
      fmt(what, sizeof what, "an unranked tensor with an encoding, '%s'",
          type_str(h, k, text, sizeof text));
      return cannot_check(h, what);
    }
    return BCAST_OK;
  }
  if (!bcast__hlo_bounds_parse(t->ref->encoding, t->ref->encoding_len,
                               t->shape.rank, t->bounds)) {
    fmt(what, sizeof what,
        "tensor encoding '%.*s' is outside bcast's model (only "
        "#stablehlo.bounds<...> with one entry per dim)",
        (int)(t->ref->encoding_len > 200 ? 200 : t->ref->encoding_len),
        t->ref->encoding);
    return cannot_check(h, what);
  }
  t->bounded = t->ref->encoding != NULL;
  return BCAST_OK;
}

/* ------------------------------------------------------------------------ */
/* Shapes and element types as StableHLO compares them. */

/* verifyCompatibleShapeWithBounds: shapes compatible (unranked matches
 * anything; equal ranks; each dim pair equal or one dynamic), and each
 * static dim within the other side's bound. */
static int compatible_shapes(const bcast_shape *a, const int64_t *abounds,
                             const bcast_shape *b, const int64_t *bbounds) {
  if (a->rank == BCAST_RANK_UNRANKED || b->rank == BCAST_RANK_UNRANKED)
    return 1;
  if (a->rank != b->rank) return 0;
  for (int32_t d = 0; d < a->rank; d++) {
    int64_t x = a->dims[d], y = b->dims[d];
    if (!BCAST_DIM_IS_DYNAMIC(x) && !BCAST_DIM_IS_DYNAMIC(y) && x != y)
      return 0;
    if (bbounds && !BCAST_DIM_IS_DYNAMIC(x) &&
        !BCAST_DIM_IS_DYNAMIC(bbounds[d]) && bbounds[d] < x)
      return 0;
    if (abounds && !BCAST_DIM_IS_DYNAMIC(y) &&
        !BCAST_DIM_IS_DYNAMIC(abounds[d]) && abounds[d] < y)
      return 0;
  }
  return 1;
}

static int same_elem_text(const hlo_type *a, const hlo_type *b) {
  return a->ref->elem_len == b->ref->elem_len &&
         memcmp(a->ref->elem, b->ref->elem, a->ref->elem_len) == 0;
}

/* isCompatibleElementTypeForHloTypeInference: quantized types by storage
 * and expressed type, the rest equal. */
static int compatible_elems(const hlo_type *a, const hlo_type *b) {
  if (a->elem == BCAST__HLO_QUANT && b->elem == BCAST__HLO_QUANT)
    return bcast__hlo_quant_compatible(&a->quant, &b->quant);
  if (a->elem == BCAST__HLO_QUANT || b->elem == BCAST__HLO_QUANT) return 0;
  return same_elem_text(a, b);
}

/* Equal element types; quantized ones read, not compared as text
 * ("0.2" and "2.0e-1" are one scale). */
static int same_elems(const hlo_type *a, const hlo_type *b) {
  if (a->elem == BCAST__HLO_QUANT && b->elem == BCAST__HLO_QUANT)
    return bcast__hlo_quant_compatible(&a->quant, &b->quant) &&
           a->quant.axis == b->quant.axis &&
           bcast__hlo_quant_same_params(&a->quant, &b->quant);
  return same_elem_text(a, b);
}

/* ------------------------------------------------------------------------ */
/* 1. ODS. */

/* Each slot must be a tensor (ranked where StableHLO says so). */
static bcast_status ods_tensors(const hlo_op *h, int ranked) {
  char text[TYPE_TEXT], mlir[TYPE_TEXT + 200], why[TYPE_TEXT + 200], slot[32];
  for (size_t k = 0; k <= h->n; k++) {
    const hlo_type *t = &h->t[k];
    int ok = t->ref->container == BCAST_CONTAINER_TENSOR &&
             (!ranked || t->shape.rank != BCAST_RANK_UNRANKED);
    if (ok) continue;
    if (!h->diag) return BCAST_TYPE;
    slot_name(h, k, slot, sizeof slot);
    type_str(h, k, text, sizeof text);
    fmt(why, sizeof why, "%s has type '%s'; this op takes %s tensors", slot,
        text, ranked ? "ranked" : "ranked or unranked");
    fmt(mlir, sizeof mlir,
        "%s must be %stensor of StableHLO element type values, but "
        "got '%s'",
        slot, ranked ? "ranked " : "", text); /* RankedTensorOf, TensorOf */
    return fail(h, BCAST_TYPE, why, mlir);
  }
  return BCAST_OK;
}

/* IsValidQuantizedDimension: a per-axis type's dimension is within the
 * rank and, where that dim is static, has one scale per element. */
static bcast_status ods_quant_dims(const hlo_op *h) {
  char text[TYPE_TEXT], mlir[TYPE_TEXT + 200], slot[32];
  for (size_t k = 0; k <= h->n; k++) {
    const hlo_type *t = &h->t[k];
    if (t->elem != BCAST__HLO_QUANT || t->quant.axis < 0 ||
        t->shape.rank == BCAST_RANK_UNRANKED)
      continue;
    int64_t ax = t->quant.axis;
    if (ax < t->shape.rank &&
        (BCAST_DIM_IS_DYNAMIC(t->shape.dims[ax]) ||
         (int64_t)t->quant.n_params == t->shape.dims[ax]))
      continue;
    if (!h->diag) return BCAST_TYPE;
    fmt(mlir, sizeof mlir,
        "%s must be ranked tensor of per-axis quantized values with a "
        "valid quantization dimension, but got '%s'",
        slot_name(h, k, slot, sizeof slot), type_str(h, k, text, sizeof text));
    return fail(h, BCAST_TYPE,
                ax >= t->shape.rank
                    ? "the quantization_dimension is not a dim of the type"
                    : "a per-axis quantized type needs one scale per "
                      "element of its quantization_dimension",
                mlir);
  }
  return BCAST_OK;
}

/* An element-type class ODS requires of slot k (pred, int, float, ...). */
static bcast_status ods_elem(const hlo_op *h, size_t k, int pred, int ints,
                             int floats, int complexes, const char *words) {
  const hlo_type *t = &h->t[k];
  if ((pred && t->elem == BCAST__HLO_PRED) ||
      (ints && t->elem == BCAST__HLO_INT) ||
      (floats && t->elem == BCAST__HLO_FLOAT) ||
      (complexes && t->elem == BCAST__HLO_COMPLEX))
    return BCAST_OK;
  if (!h->diag) return BCAST_TYPE;
  char text[TYPE_TEXT], mlir[TYPE_TEXT + 200], why[TYPE_TEXT + 200], slot[32];
  slot_name(h, k, slot, sizeof slot);
  type_str(h, k, text, sizeof text);
  fmt(why, sizeof why, "%s has type '%s'; this op takes tensors of %s", slot,
      text, words);
  fmt(mlir, sizeof mlir,
      "%s must be tensor of %s values, but got '%s'", slot,
      words, text);
  return fail(h, BCAST_TYPE, why, mlir);
}

/* ------------------------------------------------------------------------ */
/* Inferred result types: "inferred type(s) ... are incompatible". */

/* The inferred type: a shape (unranked: any shape matches), its bounds and
 * the element type, as text. */
typedef struct inferred {
  bcast_shape shape;
  int64_t bounds[BCAST_MAX_RANK];
  int bounded;
  char elem[256];
} inferred;

static void inferred_text(const inferred *inf, char *buf, size_t n) {
  size_t len = 0;
  buf[0] = '\0';
  bcast__append(buf, n, &len, "tensor<");
  if (inf->shape.rank == BCAST_RANK_UNRANKED) {
    bcast__append(buf, n, &len, "*x");
  } else {
    for (int32_t d = 0; d < inf->shape.rank; d++) {
      if (BCAST_DIM_IS_DYNAMIC(inf->shape.dims[d]))
        bcast__append(buf, n, &len, "?x");
      else
        bcast__append(buf, n, &len, "%lldx", (long long)inf->shape.dims[d]);
    }
  }
  bcast__append(buf, n, &len, "%s", inf->elem);
  if (inf->bounded) {
    bcast__append(buf, n, &len, ", #stablehlo.bounds<");
    for (int32_t d = 0; d < inf->shape.rank; d++) {
      if (d) bcast__append(buf, n, &len, ", ");
      if (BCAST_DIM_IS_DYNAMIC(inf->bounds[d]))
        bcast__append(buf, n, &len, "?");
      else
        bcast__append(buf, n, &len, "%lld", (long long)inf->bounds[d]);
    }
    bcast__append(buf, n, &len, ">");
  }
  bcast__append(buf, n, &len, ">");
}

/* Type inference failed before a type: its message, then MLIR's second
 * error. */
static bcast_status infer_fail(const hlo_op *h, const char *why,
                               const char *mlir) {
  h->verdict->infer_failed = 1;
  return fail(h, BCAST_TYPE, why, mlir);
}

/* Compares the result with the inferred type.  elem_too: the element
 * types count (StableHLO's and CHLO's isCompatibleReturnTypes), not for
 * chlo.broadcast_select (shapes only). */
static bcast_status check_inferred(const hlo_op *h, const inferred *inf,
                                   const hlo_type *want_elem_of,
                                   int elem_too) {
  const hlo_type *r = &h->t[h->n];
  int ok = compatible_shapes(&inf->shape, inf->bounded ? inf->bounds : NULL,
                             &r->shape, r->bounded ? r->bounds : NULL);
  if (ok && elem_too) {
    if (want_elem_of)
      ok = compatible_elems(want_elem_of, r);
    else
      ok = strlen(inf->elem) == r->ref->elem_len &&
           memcmp(inf->elem, r->ref->elem, r->ref->elem_len) == 0;
  }
  if (ok) return BCAST_OK;
  h->verdict->infer_failed = 1;
  if (!h->diag) return BCAST_RESULT_MISMATCH;
  char it[TYPE_TEXT], rt[TYPE_TEXT], why[2 * TYPE_TEXT + 200],
      mlir[2 * TYPE_TEXT + 200];
  inferred_text(inf, it, sizeof it);
  type_str(h, h->n, rt, sizeof rt);
  fmt(why, sizeof why,
      "the result type '%s' does not match the type '%s' the op's "
      "operands give",
      rt, it);
  fmt(mlir, sizeof mlir,
      "inferred type(s) '%s' are incompatible with return type(s) of "
      "operation '%s'",
      it, rt);
  return fail(h, BCAST_RESULT_MISMATCH, why, mlir);
}

static void set_elem(inferred *inf, const char *e, size_t n) {
  fmt(inf->elem, sizeof inf->elem, "%.*s", (int)n, e);
}

/* ------------------------------------------------------------------------ */
/* broadcast_dimensions and the like. */

/* Reads an integer-list attribute; *found 0 when absent.  Malformed: a
 * parse error located at it. */
static bcast_status read_list(const hlo_op *h, const char *name, int64_t *vals,
                              size_t *n, int *found) {
  bcast_mlir_span key, value;
  *n = 0;
  *found = bcast_mlir_op_attr(h->op, name, &key, &value);
  if (!*found) return BCAST_OK;
  bcast_diag d;
  bcast_status st = bcast__mlir_i64_list_read(
      value.text, value.len, bcast__mlir_attr_is_keyword(h->op, key), vals,
      BCAST_MAX_RANK, n, &d);
  if (st == BCAST_OK) {
    if (strcmp(name, "broadcast_dimensions") == 0) {
      h->verdict->has_dims = 1;
      h->verdict->n_dims = *n;
      memcpy(h->verdict->dims, vals, *n * sizeof *vals);
    }
    return BCAST_OK;
  }
  bcast__mlir_op_position(h->op, key.text, &h->verdict->line,
                          &h->verdict->col);
  if (h->diag)
    bcast__fail(h->diag, st, "invalid %s = %.*s: %s", name,
                (int)(value.len > 200 ? 200 : value.len), value.text,
                d.message);
  return st;
}

/* A list attribute the op requires: read_list, and missing is an error
 * (MLIR: "requires attribute 'X'"). */
static bcast_status read_required(const hlo_op *h, const char *name,
                                  int64_t *vals, size_t *n) {
  int found;
  bcast_status st = read_list(h, name, vals, n, &found);
  if (st != BCAST_OK || found) return st;
  char why[128], mlir[128];
  fmt(why, sizeof why, "the op has no %s attribute", name);
  fmt(mlir, sizeof mlir, "requires attribute '%s'", name);
  return fail(h, BCAST_INVALID_ARGUMENT, why, mlir);
}

static int has_duplicates(const int64_t *v, size_t n) {
  for (size_t i = 1; i < n; i++)
    for (size_t j = 0; j < i; j++)
      if (v[i] == v[j]) return 1;
  return 0;
}

/* StableHLO's "requires compatible element types for all operands and
 * results" (HLO_CompatibleOperandsAndResultElementType) or "requires the
 * same element type ..." (SameOperandsAndResultElementType) over the
 * slots in use. */
static bcast_status elem_trait(const hlo_op *h, size_t from, int same) {
  for (size_t k = from + 1; k <= h->n; k++) {
    int ok = same ? same_elems(&h->t[from], &h->t[k])
                  : compatible_elems(&h->t[from], &h->t[k]);
    if (ok) continue;
    return fail(h, BCAST_TYPE,
                same ? "the operands and the result have different element "
                       "types; this op keeps one element type"
                     : "the operands and the result have element types that "
                       "are not compatible",
                same ? "requires the same element type for all operands and "
                       "results"
                     : "requires compatible element types for all operands "
                       "and results");
  }
  return BCAST_OK;
}

/* An element-type failure between the operand and slot k: MLIR's text
 * (mlir_fmt, two %s: the types) and bcast's. */
static bcast_status pair_fail(const hlo_op *h, size_t k, const char *mlir_fmt,
                              const char *why) {
  if (!h->diag) return BCAST_TYPE;
  char a[TYPE_TEXT], b[TYPE_TEXT], mlir[2 * TYPE_TEXT + 120];
  type_str(h, 0, a, sizeof a);
  type_str(h, k, b, sizeof b);
  snprintf(mlir, sizeof mlir, mlir_fmt, a, b);
  return fail(h, BCAST_TYPE, why, mlir);
}

/* broadcast_in_dim's and dynamic_broadcast_in_dim's C6 (per-axis
 * quantized results): the quantization dimension follows the map, and a
 * size-1 quantized operand dim repeats its one scale and zero point. */
static bcast_status quant_c6(const hlo_op *h, const int64_t *dims) {
  const hlo_type *in = &h->t[0], *out = &h->t[h->n];
  if (out->elem != BCAST__HLO_QUANT || out->quant.axis < 0) return BCAST_OK;
  if (in->elem != BCAST__HLO_QUANT || in->quant.axis < 0 ||
      in->quant.axis >= in->shape.rank)
    return BCAST_OK; /* C1's compatibility already refused it */
  char mlir[256];
  int64_t oq = in->quant.axis, rq = out->quant.axis;
  if (rq != dims[oq]) {
    fmt(mlir, sizeof mlir,
        "result quantization_dimension %lld not same as "
        "broadcast_dimensions[%lld] = %lld",
        (long long)rq, (long long)oq, (long long)dims[oq]);
    return fail(h, BCAST_TYPE,
                "the result's quantization_dimension is not where "
                "broadcast_dimensions maps the operand's (C6)",
                mlir);
  }
  if (in->shape.dims[oq] != 1 || BCAST_DIM_IS_DYNAMIC(out->shape.dims[rq]))
    return BCAST_OK;
  double s0, si;
  int64_t z0, zi;
  bcast__hlo_quant_param(&in->quant, 0, &s0, &z0);
  for (int64_t i = 0; i < out->shape.dims[rq]; i++) {
    if (!bcast__hlo_quant_param(&out->quant, (size_t)i, &si, &zi)) break;
    if (si != s0) {
      fmt(mlir, sizeof mlir,
          "mismatch result scale %lld (%e) and operand scale 0 (%e)",
          (long long)i, si, s0);
      return fail(h, BCAST_TYPE,
                  "a size-1 quantized dim broadcasts its one scale; the "
                  "result's scales must all equal it (C6)",
                  mlir);
    }
    if (zi != z0) {
      fmt(mlir, sizeof mlir,
          "mismatch result zero_point %lld (%lld) and operand "
          "zero_point 0 (%lld)",
          (long long)i, (long long)zi, (long long)z0);
      return fail(h, BCAST_TYPE,
                  "a size-1 quantized dim broadcasts its one zero point; the "
                  "result's zero points must all equal it (C6)",
                  mlir);
    }
  }
  return BCAST_OK;
}

/* C2-C4 of both broadcast_in_dim ops, in StableHLO's order: the count,
 * then (dynamic: the result rank) duplicates, then each entry's range with
 * its size check (done by the caller's per-dim rule). */
static bcast_status dims_count(const hlo_op *h, size_t n_dims) {
  const bcast_shape *in = &h->t[0].shape;
  if ((int64_t)n_dims == in->rank) return BCAST_OK;
  char mlir[160], why[160];
  fmt(mlir, sizeof mlir,
      "broadcast_dimensions size (%zu) does not match operand rank (%d)",
      n_dims, (int)in->rank);
  fmt(why, sizeof why,
      "broadcast_dimensions has %zu entries but the operand has rank %d; "
      "give one result dim per operand dim (C2)",
      n_dims, (int)in->rank);
  return fail(h, BCAST_INVALID_ARGUMENT, why, mlir);
}

static bcast_status dims_unique(const hlo_op *h, const int64_t *dims,
                                size_t n_dims) {
  if (!has_duplicates(dims, n_dims)) return BCAST_OK;
  return fail(h, BCAST_INVALID_ARGUMENT,
              "broadcast_dimensions maps two operand dims to one result dim "
              "(C4)",
              "broadcast_dimensions should not have duplicates");
}

static bcast_status dim_range(const hlo_op *h, int64_t dim) {
  int32_t rank = h->t[h->n].shape.rank;
  if (dim >= 0 && dim < rank) return BCAST_OK;
  char mlir[160], why[160];
  fmt(mlir, sizeof mlir,
      "broadcast_dimensions contains invalid value %lld for result with "
      "rank %d",
      (long long)dim, (int)rank);
  fmt(why, sizeof why,
      "broadcast_dimensions entry %lld is not a dim of the rank-%d "
      "result (C3)",
      (long long)dim, (int)rank);
  return fail(h, BCAST_INVALID_ARGUMENT, why, mlir);
}

/* ------------------------------------------------------------------------ */
/* stablehlo.broadcast_in_dim */

/* HLO_HasStaticOrSingleBoundedShapePred. */
static int static_or_single_bounded(const hlo_type *t) {
  int dynamic = 0, bounded = 0;
  for (int32_t d = 0; d < t->shape.rank; d++) {
    if (BCAST_DIM_IS_DYNAMIC(t->shape.dims[d])) dynamic++;
    if (t->bounded && !BCAST_DIM_IS_DYNAMIC(t->bounds[d])) bounded++;
  }
  return dynamic == 0 || (t->bounded && dynamic == 1 && bounded == 1);
}

static bcast_status verify_broadcast_in_dim(const hlo_op *h) {
  bcast_status st;
  const hlo_type *in = &h->t[0], *out = &h->t[1];
  if ((st = ods_tensors(h, 1)) != BCAST_OK) return st;
  if (!static_or_single_bounded(out)) {
    char text[TYPE_TEXT], mlir[TYPE_TEXT + 200];
    fmt(mlir, sizeof mlir,
        "result #0 must be statically shaped or single bounded dimension "
        "tensor of StableHLO element type values, but got '%s'",
        type_str(h, 1, text, sizeof text));
    return fail(h, BCAST_INVALID_ARGUMENT,
                "the result must be statically shaped, or have one dynamic "
                "dim with a #stablehlo.bounds bound "
                "(stablehlo.dynamic_broadcast_in_dim takes dynamic results)",
                mlir);
  }
  if ((st = ods_quant_dims(h)) != BCAST_OK) return st;
  int64_t dims[BCAST_MAX_RANK];
  size_t n_dims;
  if ((st = read_required(h, "broadcast_dimensions", dims, &n_dims)) !=
      BCAST_OK)
    return st;
  if ((st = elem_trait(h, 0, 0)) != BCAST_OK) return st;
  /* C1: per-tensor quantized types keep their scale and zero point. */
  if (in->elem == BCAST__HLO_QUANT && out->elem == BCAST__HLO_QUANT &&
      in->quant.axis < 0 && out->quant.axis < 0 && !same_elems(in, out)) {
    return pair_fail(h, 1,
                     "expect same quantization scale and zero_point but got "
                     "'%s' vs '%s'",
                     "a per-tensor quantized operand and result must have "
                     "one scale and zero point (C1)");
  }
  if ((st = dims_count(h, n_dims)) != BCAST_OK) return st;
  if ((st = dims_unique(h, dims, n_dims)) != BCAST_OK) return st;
  for (size_t i = 0; i < n_dims; i++) {
    if ((st = dim_range(h, dims[i])) != BCAST_OK) return st;
    int64_t s = in->shape.dims[i], o = out->shape.dims[dims[i]];
    if (BCAST_DIM_IS_DYNAMIC(s) || s == 1 || s == o) continue;
    char mlir[200], why[200], ot[24];
    if (BCAST_DIM_IS_DYNAMIC(o))
      fmt(ot, sizeof ot, "%lld", (long long)INT64_MIN);
    else
      fmt(ot, sizeof ot, "%lld", (long long)o);
    fmt(mlir, sizeof mlir,
        "size of operand dimension %zu (%lld) is not equal to 1 or size "
        "of result dimension %lld (%s)",
        i, (long long)s, (long long)dims[i], ot);
    fmt(why, sizeof why,
        "operand dim %zu (size %lld) maps to result dim %lld (size %s); "
        "it must be 1 or that size (C5)",
        i, (long long)s, (long long)dims[i],
        BCAST_DIM_IS_DYNAMIC(o) ? "?" : ot);
    st = fail(h, BCAST_INCOMPATIBLE, why, mlir);
    if (h->diag)
      bcast__locate(h->diag, 0, (int)i, s, BCAST_DIAG_RESULT, (int)dims[i],
                    BCAST_DIM_IS_DYNAMIC(o) ? -1 : o, (int)dims[i]);
    return st;
  }
  return quant_c6(h, dims);
}

/* ------------------------------------------------------------------------ */
/* stablehlo.dynamic_broadcast_in_dim */

static bcast_status verify_dynamic_broadcast_in_dim(const hlo_op *h) {
  bcast_status st;
  const hlo_type *in = &h->t[0], *shp = &h->t[1], *out = &h->t[2];
  char text[TYPE_TEXT], mlir[2 * TYPE_TEXT + 200], why[2 * TYPE_TEXT + 200];
  if ((st = ods_tensors(h, 1)) != BCAST_OK) return st;
  /* output_dimensions: a statically shaped 1-D tensor of index or
   * integers. */
  if (shp->shape.rank != 1 || BCAST_DIM_IS_DYNAMIC(shp->shape.dims[0]) ||
      (shp->elem != BCAST__HLO_INT &&
       !(shp->ref->elem_len == 5 &&
         memcmp(shp->ref->elem, "index", 5) == 0))) {
    fmt(mlir, sizeof mlir,
        "operand #1 must be statically shaped 1-dimensional tensor of "
        "index or integer values, but got '%s'",
        type_str(h, 1, text, sizeof text));
    fmt(why, sizeof why,
        "output_dimensions has type '%s'; it must be a statically "
        "shaped 1-D tensor of integers (one per result dim)",
        text);
    return fail(h, BCAST_TYPE, why, mlir);
  }
  if ((st = ods_quant_dims(h)) != BCAST_OK) return st;
  int64_t dims[BCAST_MAX_RANK], exp[BCAST_MAX_RANK], nonexp[BCAST_MAX_RANK];
  size_t n_dims, n_exp, n_nonexp;
  int f_exp, f_nonexp;
  if ((st = read_required(h, "broadcast_dimensions", dims, &n_dims)) !=
          BCAST_OK ||
      (st = read_list(h, "known_expanding_dimensions", exp, &n_exp, &f_exp)) !=
          BCAST_OK ||
      (st = read_list(h, "known_nonexpanding_dimensions", nonexp, &n_nonexp,
                      &f_nonexp)) != BCAST_OK)
    return st;
  /* C1: element types compatible unless quantized. */
  if (in->elem != BCAST__HLO_QUANT && out->elem != BCAST__HLO_QUANT &&
      !compatible_elems(in, out)) {
    return pair_fail(h, 2,
                     "expects operand and result to have compatible element "
                     "type. Got: '%s' and '%s'",
                     "the operand and the result have different element "
                     "types (C1)");
  }
  if ((st = dims_count(h, n_dims)) != BCAST_OK) return st;
  if (out->shape.rank < in->shape.rank) {
    fmt(mlir, sizeof mlir, "result rank (%d) is less than operand rank (%d)",
        (int)out->shape.rank, (int)in->shape.rank);
    return fail(h, BCAST_RANK_MISMATCH,
                "the result has a lower rank than the operand; broadcasting "
                "adds dims, it never drops them",
                mlir);
  }
  if ((st = dims_unique(h, dims, n_dims)) != BCAST_OK) return st;
  for (size_t i = 0; i < n_dims; i++) {
    if ((st = dim_range(h, dims[i])) != BCAST_OK) return st;
    int64_t s = in->shape.dims[i], o = out->shape.dims[dims[i]];
    if (s == 1 || BCAST_DIM_IS_DYNAMIC(s) || BCAST_DIM_IS_DYNAMIC(o) || s == o)
      continue;
    fmt(mlir, sizeof mlir,
        "size of operand dimension %zu (%lld) is not compatible with "
        "size of result dimension %lld (%lld)",
        i, (long long)s, (long long)dims[i], (long long)o);
    fmt(why, sizeof why,
        "operand dim %zu (size %lld) maps to result dim %lld (size "
        "%lld); it must be 1 or that size (C5)",
        i, (long long)s, (long long)dims[i], (long long)o);
    st = fail(h, BCAST_INCOMPATIBLE, why, mlir);
    if (h->diag)
      bcast__locate(h->diag, 0, (int)i, s, BCAST_DIAG_RESULT, (int)dims[i], o,
                    (int)dims[i]);
    return st;
  }
  int64_t cvals[BCAST_MAX_RANK];
  size_t n_c = 0;
  int is_const = h->op->n_operand_names == 2 &&
                 bcast__mlir_constant_ints(h->op, h->op->operand_names[1], cvals,
                               BCAST_MAX_RANK, &n_c);
  if (is_const) {
    int ok = (int64_t)n_c == out->shape.rank;
    for (size_t i = 0; ok && i < n_c; i++) {
      int64_t o = out->shape.dims[i];
      if (cvals[i] < 0 || (!BCAST_DIM_IS_DYNAMIC(o) && o != cvals[i]) ||
          (out->bounded && !BCAST_DIM_IS_DYNAMIC(out->bounds[i]) &&
           out->bounds[i] < cvals[i]))
        ok = 0;
    }
    if (!ok) {
      size_t len = 0;
      char list[BCAST_MAX_RANK * 22 + 4];
      list[0] = '\0';
      for (size_t i = 0; i < n_c; i++)
        bcast__append(list, sizeof list, &len, "%s%lld", i ? ", " : "",
                      (long long)cvals[i]);
      fmt(mlir, sizeof mlir,
          "output shape [%s] is incompatible with return type of "
          "operation '%s'",
          list, type_str(h, 2, text, sizeof text));
      fmt(why, sizeof why,
          "output_dimensions is the constant [%s], which the result "
          "type '%s' does not match (C7)",
          list, text);
      return fail(h, BCAST_RESULT_MISMATCH, why, mlir);
    }
  }
  /* C7: one output dimension per result dim, from the type (StableHLO's
   * verifier judges only a constant, above, so its message comes first). */
  if (shp->shape.dims[0] != out->shape.rank) {
    fmt(why, sizeof why,
        "output_dimensions has %lld elements but the result has rank %d; "
        "it gives one size per result dim (C7)",
        (long long)shp->shape.dims[0], (int)out->shape.rank);
    fmt(mlir, sizeof mlir,
        "output_dimensions has %lld elements but the result has rank %d",
        (long long)shp->shape.dims[0], (int)out->shape.rank);
    return fail(h, BCAST_RANK_MISMATCH, why, mlir);
  }
  /* C8-C10: the expansion hints. */
  int64_t hints[2 * BCAST_MAX_RANK];
  size_t n_hints = 0;
  for (size_t i = 0; i < n_exp; i++) hints[n_hints++] = exp[i];
  for (size_t i = 0; i < n_nonexp; i++) hints[n_hints++] = nonexp[i];
  (void)f_exp, (void)f_nonexp;
  if (has_duplicates(hints, n_hints))
    return fail(h, BCAST_INVALID_ARGUMENT,
                "an operand dim is named twice among "
                "known_expanding_dimensions and known_nonexpanding_dimensions "
                "(C8)",
                "duplicate expansion hint for at least one operand dimension");
  for (size_t i = 0; i < n_hints; i++) {
    if (hints[i] >= 0 && hints[i] < in->shape.rank) continue;
    fmt(mlir, sizeof mlir,
        "hint for expanding dimension %lld does not refer to a valid "
        "operand dimension",
        (long long)hints[i]);
    fmt(why, sizeof why,
        "expansion hint %lld is not a dim of the rank-%d operand "
        "(C9, C10)",
        (long long)hints[i], (int)in->shape.rank);
    return fail(h, BCAST_INVALID_ARGUMENT, why, mlir);
  }
  /* A constant output_dimensions against a static operand (C5 again). */
  int operand_static = 1;
  for (int32_t d = 0; d < in->shape.rank; d++)
    if (BCAST_DIM_IS_DYNAMIC(in->shape.dims[d])) operand_static = 0;
  if (is_const && operand_static) {
    for (size_t i = 0; i < n_dims; i++) {
      int64_t s = in->shape.dims[i], v = cvals[dims[i]];
      if (s == 1 || s == v) continue;
      fmt(mlir, sizeof mlir,
          "size of operand dimension %zu (%lld) is not equal to 1 or "
          "value of shape at index %lld (%lld)",
          i, (long long)s, (long long)dims[i], (long long)v);
      fmt(why, sizeof why,
          "operand dim %zu (size %lld) maps to output dimension %lld, "
          "the constant %lld; it must be 1 or that size (C5)",
          i, (long long)s, (long long)dims[i], (long long)v);
      return fail(h, BCAST_INCOMPATIBLE, why, mlir);
    }
  }
  return quant_c6(h, dims);
}

/* ------------------------------------------------------------------------ */
/* stablehlo.broadcast: broadcast_sizes, then the operand's dims. */

static bcast_status verify_broadcast(const hlo_op *h) {
  bcast_status st;
  const hlo_type *in = &h->t[0];
  if ((st = ods_tensors(h, 1)) != BCAST_OK) return st;
  if ((st = ods_quant_dims(h)) != BCAST_OK) return st;
  int64_t sizes[BCAST_MAX_RANK];
  size_t n;
  if ((st = read_required(h, "broadcast_sizes", sizes, &n)) != BCAST_OK)
    return st;
  if ((st = elem_trait(h, 0, 1)) != BCAST_OK) return st;
  for (size_t i = 0; i < n; i++) {
    if (sizes[i] >= 0) continue;
    char mlir[96];
    fmt(mlir, sizeof mlir, "Broadcast with negative dimension size %lld",
        (long long)sizes[i]);
    return infer_fail(h, "broadcast_sizes has a negative size", mlir);
  }
  if ((int64_t)n + in->shape.rank > BCAST_MAX_RANK) {
    char why[128];
    fmt(why, sizeof why,
        "the result would have rank %lld, over bcast's limit of %d",
        (long long)n + in->shape.rank, BCAST_MAX_RANK);
    return cannot_check(h, why);
  }
  inferred inf;
  memset(&inf, 0, sizeof inf);
  inf.shape.rank = (int32_t)n + in->shape.rank;
  for (size_t i = 0; i < n; i++) {
    inf.shape.dims[i] = sizes[i];
    inf.bounds[i] = BCAST_DIM_DYNAMIC;
  }
  for (int32_t d = 0; d < in->shape.rank; d++) {
    inf.shape.dims[n + (size_t)d] = in->shape.dims[d];
    inf.bounds[n + (size_t)d] =
        in->bounded ? in->bounds[d] : BCAST_DIM_DYNAMIC;
  }
  inf.bounded = in->bounded;
  set_elem(&inf, in->ref->elem, in->ref->elem_len);
  return check_inferred(h, &inf, in, 1);
}

/* ------------------------------------------------------------------------ */
/* CHLO: numpy broadcasting, or broadcast_dimensions, inferred. */

/* MLIR's getBroadcastedShape over two ranked shapes (right-aligned; a
 * dynamic dim takes the other's size unless that is 1).  0 on a clash. */
static int broadcasted(const bcast_shape *a, const bcast_shape *b,
                       bcast_shape *out) {
  const bcast_shape *hi = a->rank >= b->rank ? a : b,
                    *lo = a->rank >= b->rank ? b : a;
  *out = *hi;
  for (int32_t k = 1; k <= lo->rank; k++) {
    int64_t x = hi->dims[hi->rank - k], y = lo->dims[lo->rank - k];
    int64_t *r = &out->dims[hi->rank - k];
    if (BCAST_DIM_IS_DYNAMIC(x) && BCAST_DIM_IS_DYNAMIC(y))
      *r = BCAST_DIM_DYNAMIC;
    else if (BCAST_DIM_IS_DYNAMIC(x))
      *r = y != 1 ? y : BCAST_DIM_DYNAMIC;
    else if (BCAST_DIM_IS_DYNAMIC(y))
      *r = x != 1 ? x : BCAST_DIM_DYNAMIC;
    else if (x == y || y == 1)
      *r = x;
    else if (x == 1)
      *r = y;
    else
      return 0;
  }
  return 1;
}

/* CHLO's numpy broadcast of slots [0, n) into inf: unranked when an
 * operand is unranked or the shapes clash ("illegal broadcast signalled
 * as unranked": any result shape matches).  With every operand static or
 * bounded, a bounded dim meeting a static size-1 dim keeps its bound;
 * bcast leaves other mixes of bounds dynamic and unbounded (lenient). */
static void numpy_inferred(const hlo_op *h, size_t n, inferred *inf) {
  inf->bounded = 0;
  inf->shape.rank = BCAST_RANK_UNRANKED;
  for (size_t k = 0; k < n; k++)
    if (h->t[k].shape.rank == BCAST_RANK_UNRANKED) return;
  bcast_shape acc = h->t[0].shape;
  for (size_t k = 1; k < n; k++) {
    bcast_shape next;
    if (!broadcasted(&acc, &h->t[k].shape, &next)) return;
    acc = next;
  }
  inf->shape = acc;
  int all_static_or_bounded = 1;
  for (size_t k = 0; k < n; k++) {
    const hlo_type *t = &h->t[k];
    if (t->bounded) continue;
    for (int32_t d = 0; d < t->shape.rank; d++)
      if (BCAST_DIM_IS_DYNAMIC(t->shape.dims[d])) all_static_or_bounded = 0;
  }
  for (int32_t d = 0; d < acc.rank; d++) inf->bounds[d] = BCAST_DIM_DYNAMIC;
  if (!all_static_or_bounded) return;
  for (int32_t d = 0; d < acc.rank; d++) {
    if (!BCAST_DIM_IS_DYNAMIC(acc.dims[d])) continue;
    int64_t bound = BCAST_DIM_DYNAMIC;
    int other_static = 0, unbounded = 0;
    for (size_t k = 0; k < n; k++) {
      const hlo_type *t = &h->t[k];
      int32_t at = d - (acc.rank - t->shape.rank);
      if (at < 0) continue;
      int64_t s = t->shape.dims[at], b = t->bounds[at];
      if (!BCAST_DIM_IS_DYNAMIC(s))
        other_static |= s != 1;
      else if (BCAST_DIM_IS_DYNAMIC(b) ||
               (!BCAST_DIM_IS_DYNAMIC(bound) && b != bound))
        unbounded = 1; /* a mix bcast leaves unbounded */
      else
        bound = b;
    }
    if (!other_static && !unbounded && !BCAST_DIM_IS_DYNAMIC(bound)) {
      inf->bounds[d] = bound;
      inf->bounded = 1;
    }
  }
}

/* CHLO's numpy broadcast of slots [0, n) when every operand is static or
 * bounded (getNumpyBroadcastShape): a bound counts as the dim's size, two
 * sizes other than 1 must be equal, and then both bounded or both static.
 * CHLO emits these errors while inferring (at the location of an operand's
 * definition, which bcast does not track: it reports them at the op) and
 * then infers an unranked result, so no second error follows. */
static bcast_status numpy_bounded_clash(const hlo_op *h, size_t n) {
  int32_t rank = 0;
  for (size_t k = 0; k < n; k++) {
    const hlo_type *t = &h->t[k];
    if (t->shape.rank == BCAST_RANK_UNRANKED) return BCAST_OK;
    for (int32_t d = 0; d < t->shape.rank; d++)
      if (BCAST_DIM_IS_DYNAMIC(t->shape.dims[d]) &&
          (!t->bounded || BCAST_DIM_IS_DYNAMIC(t->bounds[d])))
        return BCAST_OK; /* the lenient fallback: no error */
    if (t->shape.rank > rank) rank = t->shape.rank;
  }
  for (int32_t d = 0; d < rank; d++) {
    int64_t size = 1;
    int bounded = 0;
    for (size_t k = 0; k < n; k++) {
      const hlo_type *t = &h->t[k];
      int32_t at = d - (rank - t->shape.rank);
      if (at < 0) continue;
      int dyn = BCAST_DIM_IS_DYNAMIC(t->shape.dims[at]);
      int64_t s = dyn ? t->bounds[at] : t->shape.dims[at];
      if (s == 1) continue;
      if (size == 1) {
        size = s;
        bounded = dyn;
        continue;
      }
      char mlir[96];
      if (s != size) {
        fmt(mlir, sizeof mlir, "incompatible shapes for broadcasting %lld and %lld",
            (long long)size, (long long)s);
        return fail(h, BCAST_INCOMPATIBLE,
                    "the operands' sizes (a bound counting as its size) do "
                    "not broadcast; stablehlo-opt reports this at the "
                    "operand's definition",
                    mlir);
      }
      if (dyn != bounded)
        return fail(h, BCAST_INCOMPATIBLE,
                    "a bounded dim meets a static dim of its bound; "
                    "stablehlo-opt reports this at the operand's definition",
                    "cannot mix bounded and static dimensions in broadcast");
    }
  }
  return BCAST_OK;
}

/* CHLO's broadcast_dimensions rule for two operands: the lower-rank
 * operand's dims go to the listed dims of the other, broadcast there; an
 * illegal list is signalled as unranked. */
static void dims_inferred(const hlo_op *h, const int64_t *dims, size_t n_dims,
                          inferred *inf) {
  const bcast_shape *x = &h->t[0].shape, *y = &h->t[1].shape;
  inf->bounded = 0;
  inf->shape.rank = BCAST_RANK_UNRANKED;
  if (x->rank == BCAST_RANK_UNRANKED || y->rank == BCAST_RANK_UNRANKED) return;
  const bcast_shape *large = x->rank > y->rank ? x : y,
                    *small = x->rank > y->rank ? y : x;
  if ((int64_t)n_dims != small->rank) return;
  bcast_shape filtered, out;
  filtered.rank = small->rank;
  for (size_t i = 0; i < n_dims; i++) {
    if (dims[i] < 0 || dims[i] >= large->rank) return;
    filtered.dims[i] = large->dims[dims[i]];
  }
  if (!broadcasted(small, &filtered, &out)) return;
  inf->shape = *large;
  for (size_t i = 0; i < n_dims; i++) inf->shape.dims[dims[i]] = out.dims[i];
}

static chlo_rule chlo_rule_of(const bcast_mlir_op *op) {
  for (size_t k = 0; k < sizeof hlo_ops / sizeof hlo_ops[0]; k++)
    if (strlen(hlo_ops[k].name) == op->name_len &&
        memcmp(hlo_ops[k].name, op->name, op->name_len) == 0)
      return hlo_ops[k].rule;
  return CHLO_SAME;
}

static bcast_status verify_chlo_binary(const hlo_op *h) {
  bcast_status st;
  const hlo_type *lhs = &h->t[0], *rhs = &h->t[1];
  chlo_rule rule = chlo_rule_of(h->op);
  if ((st = ods_tensors(h, 0)) != BCAST_OK) return st;
  for (size_t k = 0; k < 2; k++) {
    if (rule == CHLO_LOGICAL &&
        (st = ods_elem(h, k, 1, 1, 0, 0, "pred or integer")) != BCAST_OK)
      return st;
    if (rule == CHLO_COMPLEX &&
        (st = ods_elem(h, k, 0, 0, 1, 0, "floating-point")) != BCAST_OK)
      return st;
  }
  if (rule == CHLO_COMPLEX &&
      (st = ods_elem(h, 2, 0, 0, 0, 1, "complex")) != BCAST_OK)
    return st;
  if (rule == CHLO_COMPARE &&
      (st = ods_elem(h, 2, 1, 0, 0, 0,
                     "pred (AKA boolean or 1-bit integer)")) != BCAST_OK)
    return st;
  int64_t dims[BCAST_MAX_RANK];
  size_t n_dims;
  int found;
  if ((st = read_list(h, "broadcast_dimensions", dims, &n_dims, &found)) !=
      BCAST_OK)
    return st;
  if (rule == CHLO_COMPATIBLE || rule == CHLO_SAME)
    if ((st = elem_trait(h, 0, rule == CHLO_SAME)) != BCAST_OK) return st;
  /* Type inference: the operands' element types, then the shape. */
  if (!compatible_elems(lhs, rhs))
    return infer_fail(h,
                      "the operands have element types that are not "
                      "compatible",
                      "mismatched operand types");
  inferred inf;
  memset(&inf, 0, sizeof inf);
  if (found)
    dims_inferred(h, dims, n_dims, &inf);
  else if ((st = numpy_bounded_clash(h, 2)) != BCAST_OK)
    return st;
  else
    numpy_inferred(h, 2, &inf);
  if (rule == CHLO_COMPLEX)
    fmt(inf.elem, sizeof inf.elem, "complex<%.*s>",
        (int)(lhs->ref->elem_len > 200 ? 200 : lhs->ref->elem_len),
        lhs->ref->elem);
  else if (rule == CHLO_COMPARE)
    fmt(inf.elem, sizeof inf.elem, "i1");
  else
    set_elem(&inf, lhs->ref->elem, lhs->ref->elem_len);
  return check_inferred(
      h, &inf, rule == CHLO_COMPLEX || rule == CHLO_COMPARE ? NULL : lhs, 1);
}

static bcast_status verify_chlo_select(const hlo_op *h) {
  bcast_status st;
  if ((st = ods_tensors(h, 0)) != BCAST_OK) return st;
  if ((st = ods_elem(h, 0, 1, 0, 0, 0,
                     "pred (AKA boolean or 1-bit integer)")) != BCAST_OK)
    return st;
  if (!same_elems(&h->t[1], &h->t[2]))
    return infer_fail(h, "on_true and on_false have different element types",
                      "mismatched operand types");
  inferred inf;
  memset(&inf, 0, sizeof inf);
  if ((st = numpy_bounded_clash(h, 3)) != BCAST_OK) return st;
  numpy_inferred(h, 3, &inf);
  set_elem(&inf, h->t[1].ref->elem, h->t[1].ref->elem_len);
  /* broadcast_select compares shapes only (verifyCompatibleShapes). */
  inf.bounded = 0;
  return check_inferred(h, &inf, NULL, 0);
}

/* ------------------------------------------------------------------------ */
/* StableHLO's element-wise ops: one shape for all (compatible dims). */

static bcast_status verify_elementwise(const hlo_op *h) {
  bcast_status st;
  if ((st = ods_tensors(h, 0)) != BCAST_OK) return st;
  for (size_t k = 1; k <= h->n; k++) {
    const hlo_type *a = &h->t[0], *b = &h->t[k];
    if (compatible_shapes(&a->shape, a->bounded ? a->bounds : NULL, &b->shape,
                          b->bounded ? b->bounds : NULL))
      continue;
    char why[2 * TYPE_TEXT + 100], x[TYPE_TEXT], y[TYPE_TEXT], slot[32];
    fmt(why, sizeof why,
        "%s has type '%s' but operand #0 has '%s'; StableHLO's "
        "element-wise ops broadcast nothing: all shapes must match",
        slot_name(h, k, slot, sizeof slot), type_str(h, k, y, sizeof y),
        type_str(h, 0, x, sizeof x));
    return fail(h, BCAST_RESULT_MISMATCH, why,
                "requires compatible shapes for all operands and results");
  }
  return BCAST_OK;
}

/* ------------------------------------------------------------------------ */

bcast_status bcast__hlo_verify(const bcast_mlir_op *op, bcast__hlo_kind kind,
                               bcast_mlir_verdict *verdict, bcast_diag *diag) {
  static hlo_op h_zero;
  hlo_op h = h_zero;
  h.op = op;
  h.kind = kind;
  h.n = op->n_operands;
  h.verdict = verdict;
  h.diag = diag;
  size_t want = kind == BCAST__HLO_DYNAMIC_BROADCAST ? 2
                : kind == BCAST__HLO_CHLO_BINARY     ? 2
                : kind == BCAST__HLO_CHLO_SELECT     ? 3
                : kind == BCAST__HLO_ELEMENTWISE     ? 0
                                                     : 1;
  if ((want && h.n != want) || h.n == 0 || h.n > HLO_MAX_OPERANDS) {
    char why[160], mlir[96];
    fmt(why, sizeof why,
        "'%.*s' takes %zu operands, but the signature "
        "has %zu",
        (int)op->name_len, op->name, want ? want : 1, h.n);
    fmt(mlir, sizeof mlir, "expected %zu operands, but found %zu",
        want ? want : 1, h.n);
    return fail(&h, BCAST_INVALID_ARGUMENT, why, mlir);
  }
  for (size_t k = 0; k <= h.n; k++) {
    bcast_status st = load_type(&h, k);
    if (st != BCAST_OK) return st;
  }
  switch (kind) {
  case BCAST__HLO_BROADCAST:
    return verify_broadcast(&h);
  case BCAST__HLO_BROADCAST_IN_DIM:
    return verify_broadcast_in_dim(&h);
  case BCAST__HLO_DYNAMIC_BROADCAST:
    return verify_dynamic_broadcast_in_dim(&h);
  case BCAST__HLO_CHLO_BINARY:
    return verify_chlo_binary(&h);
  case BCAST__HLO_CHLO_SELECT:
    return verify_chlo_select(&h);
  case BCAST__HLO_ELEMENTWISE:
    return verify_elementwise(&h);
  case BCAST__HLO_NONE:
    break;
  }
  return BCAST_OK;
}
