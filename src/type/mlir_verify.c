/* The op-level verifier.
 *
 * bcast_mlir_verify_op decides which operands broadcast (from the op table),
 * then applies the profile.  Under the tosa profile each op is checked the
 * way MLIR 22's TOSA dialect checks it, in the same order, so the first
 * message is the one mlir-opt prints:
 *   1. ODS type constraints: no dim may be 0 ("operand #1 must be
 *      tosa-conformant tensor of number values, but got 'tensor<0xf32>'");
 *   2. the op's shape traits or verifier (see bcast_op_verifier).
 * bcast_mlir_verify picks the op's profile from the caller's rules, or lets
 * the op's own broadcast_dimensions decide under XLA's explicit rule.
 * A scanned op keeps its dims in a pool; the verifier copies the shapes it
 * judges into bcast_shape values on its own stack, never allocating. */
#include <stdio.h>
#include <string.h>

#include "core/diag.h"
#include "shape/shape_internal.h"
#include "type/mlir_hlo.h"
#include "type/mlir_internal.h"
#include "bcast/explicit.h"
#include "bcast/mlir.h"

bcast_profile bcast_mlir_default_profile(const char *name, size_t len) {
  return len > 5 && memcmp(name, "tosa.", 5) == 0 ? BCAST_PROFILE_TOSA
                                                  : BCAST_PROFILE_TRAIT;
}

/* The shapes one verification reads: the first n operands' and the
 * result's, copied out of the op's dim pool. */
typedef struct verify_shapes {
  size_t n;
  bcast_shape result;
  bcast_shape operands[BCAST_MLIR_MAX_OPERANDS];
} verify_shapes;

static void load_shapes(const bcast_mlir_op *op, size_t n, verify_shapes *v) {
  v->n = n;
  bcast_mlir_op_shape(op, &op->result, &v->result);
  for (size_t k = 0; k < n; k++)
    bcast_mlir_op_shape(op, &op->operands[k], &v->operands[k]);
}

static bcast__shapes operand_shapes(const verify_shapes *v, size_t n) {
  return bcast__shapes_of(v->operands, n);
}

static const char *type_text(const bcast_mlir_op *op,
                             const bcast_mlir_type_ref *ref, char *buf,
                             size_t size) {
  bcast_mlir_type type;
  bcast_mlir_op_type(op, ref, &type);
  bcast_mlir_type_format(&type, buf, size);
  return buf;
}

/* The first size-0 dim of a ranked shape, or -1. */
static int32_t zero_dim(const bcast_shape *s) {
  for (int32_t d = 0; d < s->rank; d++)
    if (s->dims[d] == 0) return d;
  return -1;
}

/* Element types as MLIR's TOSA dialect sorts them, read from their
 * spelling: signless integers of any width ("i1", "i48"), unsigned ones
 * ("ui8"), the builtin float types ("f16", "bf16", "tf32", "f8E4M3FN"),
 * dialect types ("!quant.uniform<...>", which bcast does not model: taken
 * to be numbers, as quant types are), and the rest ("si8", "index",
 * "complex<f32>"), which no TOSA element-wise op takes. */
typedef enum elem_class {
  ELEM_OTHER,
  ELEM_SIGNLESS,
  ELEM_UNSIGNED,
  ELEM_FLOAT,
  ELEM_DIALECT
} elem_class;

static int all_digits(const char *t, size_t n) {
  if (n == 0) return 0;
  for (size_t k = 0; k < n; k++)
    if (t[k] < '0' || t[k] > '9') return 0;
  return 1;
}

static elem_class classify_elem(const char *e, size_t n) {
  static const char *const floats[] = {"f16", "bf16", "f32", "f64",
                                       "f80", "f128", "tf32"};
  if (n > 0 && e[0] == '!') return ELEM_DIALECT;
  if (n > 1 && e[0] == 'i' && all_digits(e + 1, n - 1)) return ELEM_SIGNLESS;
  if (n > 2 && e[0] == 'u' && e[1] == 'i' && all_digits(e + 2, n - 2))
    return ELEM_UNSIGNED;
  for (size_t k = 0; k < sizeof floats / sizeof floats[0]; k++)
    if (strlen(floats[k]) == n && memcmp(floats[k], e, n) == 0)
      return ELEM_FLOAT;
  /* The small floats: f4E2M1FN, f6E3M2FN, f8E5M2, f8E8M0FNU, ... */
  if (n > 3 && e[0] == 'f' && e[1] >= '4' && e[1] <= '8' && e[2] == 'E')
    return ELEM_FLOAT;
  return ELEM_OTHER;
}

/* The width of an integer element type, 0 for any other type. */
static unsigned elem_int_width(const char *e, size_t n) {
  elem_class c = classify_elem(e, n);
  if (c != ELEM_SIGNLESS && c != ELEM_UNSIGNED) return 0;
  unsigned w = 0;
  for (size_t k = c == ELEM_SIGNLESS ? 1 : 2; k < n && w < 1000000u; k++)
    w = w * 10u + (unsigned)(e[k] - '0');
  return w;
}

static int elem_is(const char *e, size_t n, const char *want) {
  return strlen(want) == n && memcmp(e, want, n) == 0;
}

static int same_elem(const bcast_mlir_type_ref *a,
                     const bcast_mlir_type_ref *b) {
  return a->elem_len == b->elem_len &&
         memcmp(a->elem, b->elem, a->elem_len) == 0;
}

/* Does the ODS wording (a BCAST_OP_TYPES_* string) admit the element
 * type?  MLIR's "number" is every integer and float type and quant's
 * types; not "si8", "index" or "complex<...>"; "floating-point" (tosa.sin,
 * tosa.cos) is the float types only. */
static int ods_admits(const char *types, const char *e, size_t n) {
  if (strcmp(types, BCAST_OP_TYPES_BOOL) == 0) return elem_is(e, n, "i1");
  if (strcmp(types, BCAST_OP_TYPES_INT32_64) == 0)
    return elem_is(e, n, "i32") || elem_is(e, n, "i64");
  if (strcmp(types, BCAST_OP_TYPES_FLOAT) == 0)
    return classify_elem(e, n) == ELEM_FLOAT;
  return classify_elem(e, n) != ELEM_OTHER;
}

/* ODS of tosa.mul's shift and tosa.negate's zero points: a tensor of one
 * element ("scalar tensor": rank 1, size 1) or an unranked tensor. */
#define ODS_SHIFT "8-bit signless integer"
#define ODS_ZERO_POINT "unsigned integer or signless integer or floating-point"

static int ods_scalar_admits(const bcast_mlir_op *op,
                             const bcast_mlir_type_ref *t, const char *types) {
  if (t->container != BCAST_CONTAINER_TENSOR) return 0;
  if (t->rank != BCAST_RANK_UNRANKED &&
      !(t->rank == 1 && op->dims[t->dims_at] == 1))
    return 0;
  if (strcmp(types, ODS_SHIFT) == 0)
    return elem_is(t->elem, t->elem_len, "i8");
  elem_class c = classify_elem(t->elem, t->elem_len);
  return c == ELEM_SIGNLESS || c == ELEM_UNSIGNED || c == ELEM_FLOAT;
}

/* 1. ODS, operand by operand and then the result: a "tosa-conformant
 * tensor" has no size-0 dim and an element type of the op's column (the
 * extra operands: a scalar tensor of their type). */
static bcast_status tosa_type_constraints(const bcast_mlir_op *op,
                                          const verify_shapes *v,
                                          const bcast_op_info *info,
                                          bcast_diag *diag) {
  int nb = info->broadcast_operands, nx = info->extra_operands;
  char text[BCAST_MAX_RANK * 21 + 512];
  for (int k = 0; k < nb + nx; k++) {
    const bcast_mlir_type_ref *type = &op->operands[k];
    if (k >= nb) {
      const char *types =
          info->verifier == BCAST_VERIFY_MUL ? ODS_SHIFT : ODS_ZERO_POINT;
      if (ods_scalar_admits(op, type, types)) continue;
      if (!diag) return BCAST_TYPE;
      bcast__fail(diag, BCAST_TYPE,
                  "operand #%d ('%s') must be a tensor<1x...> or an unranked "
                  "tensor of %s values",
                  k, type_text(op, type, text, sizeof text), types);
      bcast__mlir_message(diag, 1,
                          "operand #%d must be tosa-conformant unranked "
                          "tensor of %s values or tosa-conformant scalar "
                          "tensor of %s values, but got '%s'",
                          k, types, types, text);
      return BCAST_TYPE;
    }
    const char *types = k == 0 ? info->operand0_types : info->operand_types;
    int32_t axis = zero_dim(&v->operands[k]);
    int admits = ods_admits(types, type->elem, type->elem_len);
    if (axis < 0 && admits) continue;
    if (!diag) return axis >= 0 ? BCAST_INVALID_ARGUMENT : BCAST_TYPE;
    if (axis >= 0) {
      bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                  "operand #%d dim %d has size 0; TOSA requires every dim to "
                  "be at least 1",
                  k, (int)axis);
      bcast__locate(diag, k, axis, 0, BCAST_DIAG_NONE, BCAST_DIAG_NONE, 0,
                    axis);
    } else {
      bcast__fail(diag, BCAST_TYPE,
                  "operand #%d has element type '%.*s'; tosa.%s takes tensors "
                  "of %s values",
                  k, (int)type->elem_len, type->elem, info->name, types);
    }
    bcast__mlir_message(diag, 1,
                        "operand #%d must be tosa-conformant tensor of %s "
                        "values, but got '%s'",
                        k, types, type_text(op, type, text, sizeof text));
    return axis >= 0 ? BCAST_INVALID_ARGUMENT : BCAST_TYPE;
  }
  const bcast_mlir_type_ref *type = &op->result;
  int32_t axis = zero_dim(&v->result);
  int admits = ods_admits(info->result_types, type->elem, type->elem_len);
  if (axis < 0 && admits) return BCAST_OK;
  if (!diag) return axis >= 0 ? BCAST_INVALID_ARGUMENT : BCAST_TYPE;
  if (axis >= 0) {
    bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                "result dim %d has size 0; TOSA requires every dim to be at "
                "least 1",
                (int)axis);
    bcast__locate(diag, BCAST_DIAG_RESULT, axis, 0, BCAST_DIAG_NONE,
                  BCAST_DIAG_NONE, 0, axis);
  } else {
    bcast__fail(diag, BCAST_TYPE,
                "the result has element type '%.*s'; tosa.%s gives tensors "
                "of %s values",
                (int)type->elem_len, type->elem, info->name,
                info->result_types);
  }
  bcast__mlir_message(diag, 1,
                      "result #0 must be tosa-conformant tensor of %s values, "
                      "but got '%s'",
                      info->result_types,
                      type_text(op, type, text, sizeof text));
  return axis >= 0 ? BCAST_INVALID_ARGUMENT : BCAST_TYPE;
}

/* An element-type failure: bcast's explanation, then MLIR's wording. */
static bcast_status elem_fail(bcast_diag *diag, const char *why,
                              const char *mlir_text) {
  if (!diag) return BCAST_TYPE;
  bcast__fail(diag, BCAST_TYPE, "%s", why);
  bcast__mlir_message(diag, 1, "%s", mlir_text);
  return BCAST_TYPE;
}

/* "expect <what> to have same element type, got 'A' and 'B'" and the
 * like: two element types named in both messages. */
static bcast_status elem_pair_fail(bcast_diag *diag, const char *mlir_head,
                                   const bcast_mlir_type_ref *a,
                                   const bcast_mlir_type_ref *b,
                                   const char *names) {
  if (!diag) return BCAST_TYPE;
  bcast__fail(diag, BCAST_TYPE,
              "%s have element types '%.*s' and '%.*s'; "
              "they must be the same",
              names, (int)a->elem_len, a->elem, (int)b->elem_len, b->elem);
  bcast__mlir_message(diag, 1, "%s, got '%.*s' and '%.*s'", mlir_head,
                      (int)a->elem_len, a->elem, (int)b->elem_len, b->elem);
  return BCAST_TYPE;
}

/* 2. The op's element-type rule (bcast_op_elem_rule), after ODS. */
static bcast_status tosa_elem_rule(const bcast_mlir_op *op,
                                   const bcast_op_info *info,
                                   bcast_diag *diag) {
  int nb = info->broadcast_operands;
  const bcast_mlir_type_ref *r = &op->result, *a = &op->operands[0];
  switch (info->elem_rule) {
  case BCAST_ELEM_ANY:
    return BCAST_OK;
  case BCAST_ELEM_SAME:
  case BCAST_ELEM_COMPARE:
    for (int k = 1; k < nb; k++) {
      if (same_elem(a, &op->operands[k])) continue;
      if (info->elem_rule == BCAST_ELEM_COMPARE)
        return elem_fail(diag,
                         "the operands have different element types; this op "
                         "compares operands of one element type",
                         "requires the same element type for all operands");
      return elem_fail(diag,
                       "the operands have different element types; this op "
                       "needs one element type for its operands and result",
                       "requires the same element type for all operands and "
                       "results");
    }
    if (info->elem_rule == BCAST_ELEM_SAME && !same_elem(a, r))
      return elem_fail(diag,
                       "the result's element type differs from the "
                       "operands'; this op keeps its operands' element type",
                       "requires the same element type for all operands "
                       "and results");
    return BCAST_OK;
  case BCAST_ELEM_MUL: {
    const bcast_mlir_type_ref *b = &op->operands[1];
    unsigned rw = elem_int_width(r->elem, r->elem_len);
    if (rw > 0) {
      unsigned aw = elem_int_width(a->elem, a->elem_len);
      if (aw == 0 || !same_elem(a, b))
        return elem_fail(diag,
                         "with an integer result, tosa.mul needs two integer "
                         "operands of one element type",
                         "requires the same element type for all operands");
      if (rw < aw)
        return elem_fail(diag,
                         "the integer result is narrower than the operands; "
                         "tosa.mul's result must be at least as wide",
                         "invalid data type size for operands or result");
      return BCAST_OK;
    }
    if (!same_elem(a, b) || !same_elem(a, r))
      return elem_fail(diag,
                       "with a non-integer result, tosa.mul needs operands "
                       "and result of one element type",
                       "requires the same element type for all operands and "
                       "results");
    return BCAST_OK;
  }
  case BCAST_ELEM_NEGATE: {
    /* In MLIR's order: input and output, input and its zero point, output
     * and its zero point (operand -1 is the result). */
    static const struct {
      int x, y;
      const char *mlir, *names;
    } pairs[] = {
        {0, -1, "expect input and output to have same element type",
         "the input and the output"},
        {0, 1,
         "expect both input1 and its zero point are the same element "
         "type",
         "the input and its zero point (operand #1)"},
        {-1, 2,
         "expect both output and its zero point are the same element "
         "type",
         "the output and its zero point (operand #2)"},
    };
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++) {
      const bcast_mlir_type_ref *x =
          pairs[k].x < 0 ? r : &op->operands[pairs[k].x];
      const bcast_mlir_type_ref *y =
          pairs[k].y < 0 ? r : &op->operands[pairs[k].y];
      if (!same_elem(x, y))
        return elem_pair_fail(diag, pairs[k].mlir, x, y, pairs[k].names);
    }
    return BCAST_OK;
  }
  case BCAST_ELEM_SELECT:
    for (int k = 1; k < 3; k++)
      if (!same_elem(&op->operands[k], r))
        return elem_pair_fail(diag,
                              "expect input and output to have same element "
                              "type",
                              &op->operands[k], r,
                              k == 1 ? "operand #1 and the result"
                                     : "operand #2 and the result");
    return BCAST_OK;
  }
  return BCAST_OK;
}

/* MLIR's verifyCompatibleShape: equal ranks when both are ranked, and each
 * dim pair equal or one of them dynamic.  Returns the first bad dim, -1 for
 * a rank difference, or -2 when compatible. */
static int32_t incompatible_dim(const bcast_shape *a, const bcast_shape *b) {
  if (a->rank == BCAST_RANK_UNRANKED || b->rank == BCAST_RANK_UNRANKED)
    return -2;
  if (a->rank != b->rank) return -1;
  for (int32_t d = 0; d < a->rank; d++) {
    int64_t x = a->dims[d], y = b->dims[d];
    if (!BCAST_DIM_IS_DYNAMIC(x) && !BCAST_DIM_IS_DYNAMIC(y) && x != y)
      return d;
  }
  return -2;
}

/* SameOperandsAndResultShape (unary ops) and tosa.negate's input1/output
 * check: the result must have the operand's shape; nothing broadcasts. */
static bcast_status tosa_same_shape(const verify_shapes *v,
                                    const char *mlir_text, bcast_diag *diag) {
  const bcast_shape *in = &v->operands[0], *out = &v->result;
  int32_t d = incompatible_dim(in, out);
  if (d == -2) return BCAST_OK;
  if (!diag) return BCAST_RESULT_MISMATCH;
  if (d == -1) {
    bcast__fail(diag, BCAST_RESULT_MISMATCH,
                "result has rank %d but operand #0 has rank %d; this op keeps "
                "its operand's shape",
                (int)out->rank, (int)in->rank);
    bcast__locate(diag, BCAST_DIAG_RESULT, BCAST_DIAG_NONE, out->rank, 0,
                  BCAST_DIAG_NONE, in->rank, BCAST_DIAG_NONE);
  } else {
    bcast__fail(diag, BCAST_RESULT_MISMATCH,
                "result dim %d (size %lld) differs from operand #0 dim %d "
                "(size %lld); this op keeps its operand's shape",
                (int)d, (long long)out->dims[d], (int)d,
                (long long)in->dims[d]);
    bcast__locate(diag, BCAST_DIAG_RESULT, d, out->dims[d], 0, d, in->dims[d],
                  d);
  }
  bcast__mlir_message(diag, 1, "%s", mlir_text);
  return BCAST_RESULT_MISMATCH;
}

/* tosa.mul's own verifier: equal ranks of a and b, then their broadcast,
 * then the result's rank against a and b.  It does not compare the result's
 * dims with the broadcast shape. */
static bcast_status tosa_mul(const bcast_mlir_op *op, const verify_shapes *v,
                             bcast_diag *diag) {
  const bcast_mlir_type_ref *a = &op->operands[0], *b = &op->operands[1];
  const bcast_shape *r = &v->result;
  int a_ranked = a->rank != BCAST_RANK_UNRANKED;
  int b_ranked = b->rank != BCAST_RANK_UNRANKED;
  char ta[BCAST_MAX_RANK * 21 + 512], tb[BCAST_MAX_RANK * 21 + 512];
  if (a_ranked && b_ranked) {
    if (a->rank != b->rank) {
      if (!diag) return BCAST_RANK_MISMATCH;
      bcast__fail(diag, BCAST_RANK_MISMATCH,
                  "operand #0 has rank %d but operand #1 has rank %d; TOSA "
                  "does not expand ranks",
                  (int)a->rank, (int)b->rank);
      bcast__locate(diag, 0, BCAST_DIAG_NONE, a->rank, 1, BCAST_DIAG_NONE,
                    b->rank, BCAST_DIAG_NONE);
      bcast__mlir_message(diag, 1,
                          "a and b operands don't have matching ranks, got %d "
                          "and %d",
                          (int)a->rank, (int)b->rank);
      return BCAST_RANK_MISMATCH;
    }
    bcast_shape inferred;
    bcast_status st = bcast__shape_infer(operand_shapes(v, 2),
                                         BCAST_PROFILE_MLIR, &inferred, diag);
    if (st != BCAST_OK) {
      bcast__mlir_message(diag, 1,
                          "a and b operands don't have broadcast-compatible "
                          "shapes, got '%s' and '%s'",
                          type_text(op, a, ta, sizeof ta),
                          type_text(op, b, tb, sizeof tb));
      return st;
    }
  }
  if (r->rank == BCAST_RANK_UNRANKED) return BCAST_OK;
  for (int k = 0; k < 2; k++) {
    const bcast_shape *s = &v->operands[k];
    if (s->rank == BCAST_RANK_UNRANKED || s->rank == r->rank) continue;
    if (!diag) return BCAST_RANK_MISMATCH;
    bcast__fail(
        diag, BCAST_RANK_MISMATCH,
        "result has rank %d but operand #%d has rank %d; TOSA requires "
        "the result to have the operands' rank",
        (int)r->rank, k, (int)s->rank);
    bcast__locate(diag, BCAST_DIAG_RESULT, BCAST_DIAG_NONE, r->rank, k,
                  BCAST_DIAG_NONE, s->rank, BCAST_DIAG_NONE);
    bcast__mlir_message(diag, 1,
                        "result type has different rank than %s, got %d vs %d",
                        k == 0 ? "a" : "b", (int)r->rank, (int)s->rank);
    return BCAST_RANK_MISMATCH;
  }
  return BCAST_OK;
}

/* Every type must be a tensor or a vector, and not a mix of the two. */
static bcast_status check_containers(const bcast_mlir_op *op, size_t n,
                                     bcast_diag *diag) {
  int tensors = op->result.container == BCAST_CONTAINER_TENSOR;
  int vectors = op->result.container == BCAST_CONTAINER_VECTOR;
  char text[BCAST_MAX_RANK * 21 + 512];
  for (size_t k = 0; k <= n; k++) {
    const bcast_mlir_type_ref *type = k == n ? &op->result : &op->operands[k];
    if (type->container == BCAST_CONTAINER_NONE) {
      if (k == n)
        return bcast__fail(diag, BCAST_TYPE,
                           "the result has type '%s', which is neither a "
                           "tensor nor a vector",
                           type_text(op, type, text, sizeof text));
      return bcast__fail(diag, BCAST_TYPE,
                         "operand #%zu has type '%s', which is neither a "
                         "tensor nor a vector",
                         k, type_text(op, type, text, sizeof text));
    }
    if (type->container == BCAST_CONTAINER_TENSOR)
      tensors = 1;
    else
      vectors = 1;
  }
  if (tensors && vectors) {
    if (!diag) return BCAST_TYPE;
    bcast__fail(diag, BCAST_TYPE,
                "the op mixes vector and tensor types; broadcasting needs all "
                "operands and the result to be of one kind");
    /* MLIR emits this one with emitError, without the op prefix. */
    bcast__mlir_message(diag, 0, "cannot broadcast vector with tensor");
    return BCAST_TYPE;
  }
  return BCAST_OK;
}

/* test.broadcastable's ODS (MLIR's TestOps.td): Variadic<AnyTensor>
 * operands and an AnyTensor result, checked before its trait in every
 * profile: a vector or a scalar is refused by the op, not by the trait. */
static bcast_status test_op_tensors(const bcast_mlir_op *op, size_t n,
                                    bcast_diag *diag) {
  static const char name[] = "test.broadcastable";
  if (op->name_len != sizeof name - 1 || memcmp(op->name, name, op->name_len))
    return BCAST_OK;
  char text[BCAST_MAX_RANK * 21 + 512];
  for (size_t k = 0; k <= n; k++) {
    const bcast_mlir_type_ref *type = k == n ? &op->result : &op->operands[k];
    if (type->container == BCAST_CONTAINER_TENSOR) continue;
    if (!diag) return BCAST_TYPE;
    type_text(op, type, text, sizeof text);
    if (k == n) {
      bcast__fail(diag, BCAST_TYPE,
                  "the result has type '%s'; test.broadcastable gives a "
                  "tensor",
                  text);
      bcast__mlir_message(diag, 1,
                          "result #0 must be tensor of any type values, but "
                          "got '%s'",
                          text);
    } else {
      bcast__fail(diag, BCAST_TYPE,
                  "operand #%zu has type '%s'; test.broadcastable takes "
                  "tensors only",
                  k, text);
      bcast__mlir_message(diag, 1,
                          "operand #%zu must be variadic of tensor of any "
                          "type values, but got '%s'",
                          k, text);
    }
    return BCAST_TYPE;
  }
  return BCAST_OK;
}

bcast_status bcast_mlir_verify_op(const bcast_mlir_op *op,
                                  bcast_profile profile, bcast_diag *diag) {
  bcast_op id;
  const bcast_op_info *info = NULL;
  size_t n = op->n_operands;
  if (op->name_len > 5 && memcmp(op->name, "tosa.", 5) == 0 &&
      bcast_op_lookup(op->name, op->name_len, &id) == BCAST_OK) {
    info = bcast_op_get(id);
    size_t want = (size_t)(info->broadcast_operands + info->extra_operands);
    if (n != want) {
      if (!diag) return BCAST_INVALID_ARGUMENT;
      bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                  "tosa.%s takes %zu operands, but the signature has %zu",
                  info->name, want, n);
      bcast__mlir_message(diag, 1, "expected %zu operands, but found %zu",
                          want, n);
      return BCAST_INVALID_ARGUMENT;
    }
    n = (size_t)info->broadcast_operands;
  }
  if (n == 0)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "a broadcasting op needs at least one operand");
  bcast_status st = test_op_tensors(op, n, diag);
  if (st != BCAST_OK) return st;
  if ((st = check_containers(op, n, diag)) != BCAST_OK) return st;
  /* MLIR 22's trait counts only ranked *tensor* operands, so an op on
   * vectors passes whatever its shapes.  The document treats vectors as
   * ranked shapes, as the other profiles do. */
  if (profile == BCAST_PROFILE_MLIR &&
      op->result.container == BCAST_CONTAINER_VECTOR)
    return BCAST_OK;

  verify_shapes v;
  load_shapes(op, n, &v);
  if (profile == BCAST_PROFILE_TOSA && info) {
    /* MLIR's order: ODS; then the traits and verifier, whose element-type
     * check comes before the shape check except in unary ops (the shape
     * trait is listed first) and tosa.select (its verifier runs after the
     * broadcast trait). */
    if ((st = bcast__tosa_attr_syntax(op, NULL, diag)) != BCAST_OK ||
        (st = tosa_type_constraints(op, &v, info, diag)) != BCAST_OK)
      return st;
    switch (info->verifier) {
    case BCAST_VERIFY_SAME_SHAPE:
      st = tosa_same_shape(
          &v, "requires the same shape for all operands and results", diag);
      if (st == BCAST_OK) st = tosa_elem_rule(op, info, diag);
      if (st == BCAST_OK && id == BCAST_OP_CLAMP)
        st = bcast__tosa_clamp_bounds(op, diag);
      return st;
    case BCAST_VERIFY_NEGATE:
      if ((st = tosa_elem_rule(op, info, diag)) != BCAST_OK) return st;
      st = tosa_same_shape(
          &v, "requires the same shape for input1 and output", diag);
      return st != BCAST_OK ? st : bcast__tosa_negate_zero_points(op, diag);
    case BCAST_VERIFY_MUL:
      if ((st = tosa_elem_rule(op, info, diag)) != BCAST_OK ||
          (st = bcast__tosa_mul_shift(op, diag)) != BCAST_OK)
        return st;
      return tosa_mul(op, &v, diag);
    case BCAST_VERIFY_BROADCAST:
      if (info->elem_rule != BCAST_ELEM_SELECT &&
          (st = tosa_elem_rule(op, info, diag)) != BCAST_OK)
        return st;
      st =
          bcast__shape_verify(operand_shapes(&v, n), &v.result, profile, diag);
      if (st != BCAST_OK || info->elem_rule != BCAST_ELEM_SELECT) return st;
      return tosa_elem_rule(op, info, diag);
    }
  }
  return bcast__shape_verify(operand_shapes(&v, n), &v.result, profile, diag);
}

/* ------------------------------------------------------------------------ */
/* Profiles per op. */

void bcast_mlir_verify_options_init(bcast_mlir_verify_options *opts) {
  memset(opts, 0, sizeof *opts);
  opts->profile = BCAST_PROFILE_TRAIT;
}

int bcast_mlir_op_pattern_matches(const char *pattern, size_t pattern_len,
                                  const char *name, size_t len) {
  if (pattern_len == 1 && pattern[0] == '*') return 1;
  if (pattern_len >= 2 && pattern[pattern_len - 1] == '*')
    return len > pattern_len - 1 &&
           memcmp(pattern, name, pattern_len - 1) == 0;
  return pattern_len == len && memcmp(pattern, name, len) == 0;
}

bcast_status bcast_mlir_op_profile_parse(const char *text, size_t len,
                                         bcast_mlir_op_profile *out,
                                         bcast_diag *diag) {
  const char *eq = memchr(text, '=', len);
  if (!eq)
    return bcast__fail(diag, BCAST_PARSE, "'%.*s': expected PATTERN=PROFILE",
                       (int)len, text);
  size_t p0 = 0, p1 = (size_t)(eq - text);
  while (p0 < p1 && text[p0] == ' ') p0++;
  while (p1 > p0 && text[p1 - 1] == ' ') p1--;
  const char *pat = text + p0;
  size_t plen = p1 - p0;
  const char *star = memchr(pat, '*', plen);
  if (plen == 0 ||
      (star && !(plen == 1 || (star == pat + plen - 1 && plen >= 3 &&
                               pat[plen - 2] == '.'))))
    return bcast__fail(diag, BCAST_PARSE,
                       "'%.*s': the pattern must be an op name, DIALECT.* or "
                       "*",
                       (int)len, text);
  size_t v0 = (size_t)(eq - text) + 1, v1 = len;
  while (v0 < v1 && text[v0] == ' ') v0++;
  while (v1 > v0 && text[v1 - 1] == ' ') v1--;
  char name[16];
  bcast_profile profile;
  if (v1 - v0 >= sizeof name ||
      (memcpy(name, text + v0, v1 - v0), name[v1 - v0] = '\0',
       bcast_profile_parse(name, &profile) != BCAST_OK))
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "'%.*s': unknown profile '%.*s' (trait, mlir, tosa, "
                       "numpy or xla)",
                       (int)len, text, (int)(v1 - v0), text + v0);
  out->pattern = pat;
  out->pattern_len = plen;
  out->profile = profile;
  return BCAST_OK;
}

int bcast_mlir_is_broadcasting_op(const char *name, size_t len) {
  static const char test_op[] = "test.broadcastable";
  bcast_op op;
  if (len == sizeof test_op - 1 && memcmp(name, test_op, len) == 0) return 1;
  bcast__hlo_kind kind = bcast__hlo_kind_of(name, len);
  if (kind != BCAST__HLO_NONE) return kind != BCAST__HLO_ELEMENTWISE;
  return len > 5 && memcmp(name, "tosa.", 5) == 0 &&
         bcast_op_lookup(name, len, &op) == BCAST_OK;
}

/* The dialects bcast knows, by name and bit. */
static const struct {
  const char *name;
  unsigned bit;
} dialects[] = {{"tosa", BCAST_MLIR_DIALECT_TOSA},
                {"stablehlo", BCAST_MLIR_DIALECT_STABLEHLO},
                {"chlo", BCAST_MLIR_DIALECT_CHLO}};

unsigned bcast_mlir_dialect_parse(const char *name, size_t len) {
  for (size_t k = 0; k < sizeof dialects / sizeof dialects[0]; k++)
    if (strlen(dialects[k].name) == len &&
        memcmp(dialects[k].name, name, len) == 0)
      return dialects[k].bit;
  return 0;
}

unsigned bcast_mlir_dialect_of(const char *name, size_t len) {
  const char *dot = memchr(name, '.', len);
  return dot ? bcast_mlir_dialect_parse(name, (size_t)(dot - name)) : 0;
}

bcast_profile bcast_mlir_op_profile_of(const bcast_mlir_verify_options *opts,
                                       const char *name, size_t len) {
  if (opts) {
    for (size_t k = opts->n_rules; k-- > 0;)
      if (bcast_mlir_op_pattern_matches(opts->rules[k].pattern,
                                        opts->rules[k].pattern_len, name, len))
        return opts->rules[k].profile;
    if (!(len > 5 && memcmp(name, "tosa.", 5) == 0)) return opts->profile;
  }
  return bcast_mlir_default_profile(name, len);
}

/* ------------------------------------------------------------------------ */
/* broadcast_dimensions: the op's own explicit broadcast. */

/* Fails about the attribute: the message names it and its value. */
static bcast_status attr_fail(const bcast_mlir_op *op, bcast_mlir_span key,
                              bcast_mlir_span value, bcast_status st,
                              const char *why, bcast_mlir_verdict *verdict,
                              bcast_diag *diag) {
  bcast__mlir_op_position(op, key.text, &verdict->line, &verdict->col);
  char msg[BCAST_DIAG_TEXT_MAX];
  snprintf(msg, sizeof msg, "%s", why);
  return bcast__fail(diag, st, "invalid broadcast_dimensions = %.*s: %s",
                     (int)(value.len > 200 ? 200 : value.len), value.text,
                     msg);
}

/* The first dynamic dim of a ranked shape, or -1. */
static int32_t dynamic_dim(const bcast_shape *s) {
  for (int32_t d = 0; d < s->rank; d++)
    if (BCAST_DIM_IS_DYNAMIC(s->dims[d])) return d;
  return -1;
}

/* StableHLO's verifier message (hlo::verifyBroadcastInDimOp) for the first
 * broadcast_in_dim constraint the map breaks, in its order: C2 the count,
 * C4 repeats, C3 the range (negative or too large alike), C5 the sizes.
 * A static size onto a dynamic dim (only other dialects allow dynamic
 * results) prints the dim as '?'. */
static void stablehlo_message(const verify_shapes *v, const int64_t *dims,
                              size_t n_dims, bcast_diag *diag) {
  const bcast_shape *in = &v->operands[0], *out = &v->result;
  if (!diag || in->rank == BCAST_RANK_UNRANKED ||
      out->rank == BCAST_RANK_UNRANKED)
    return;
  if ((int64_t)n_dims != in->rank) {
    bcast__mlir_message(diag, 1,
                        "broadcast_dimensions size (%zu) does not match "
                        "operand rank (%d)",
                        n_dims, (int)in->rank);
    return;
  }
  for (size_t i = 1; i < n_dims; i++)
    for (size_t j = 0; j < i; j++)
      if (dims[i] == dims[j]) {
        bcast__mlir_message(diag, 1,
                            "broadcast_dimensions should not have duplicates");
        return;
      }
  for (size_t i = 0; i < n_dims; i++)
    if (dims[i] < 0 || dims[i] >= out->rank) {
      bcast__mlir_message(diag, 1,
                          "broadcast_dimensions contains invalid value %lld "
                          "for result with rank %d",
                          (long long)dims[i], (int)out->rank);
      return;
    }
  for (size_t i = 0; i < n_dims; i++) {
    int64_t s = in->dims[i], o = out->dims[dims[i]];
    if (BCAST_DIM_IS_DYNAMIC(s) || s == 1 || s == o) continue;
    char ot[24];
    if (BCAST_DIM_IS_DYNAMIC(o))
      snprintf(ot, sizeof ot, "?");
    else
      snprintf(ot, sizeof ot, "%lld", (long long)o);
    bcast__mlir_message(diag, 1,
                        "size of operand dimension %zu (%lld) is not equal to "
                        "1 or size of result dimension %lld (%s)",
                        i, (long long)s, (long long)dims[i], ot);
    return;
  }
}

static bcast_status verify_explicit(const bcast_mlir_op *op,
                                    bcast_mlir_span key, bcast_mlir_span value,
                                    bcast_mlir_verdict *verdict,
                                    bcast_diag *diag) {
  bcast_diag d;
  bcast_status st = bcast__mlir_i64_list_read(
      value.text, value.len, bcast__mlir_attr_is_keyword(op, key),
      verdict->dims, BCAST_MAX_RANK, &verdict->n_dims, &d);
  if (st != BCAST_OK)
    return attr_fail(op, key, value, st, d.message, verdict, diag);
  size_t n = op->n_operands;
  if (n != 1 && n != 2) {
    snprintf(d.message, sizeof d.message,
             "broadcast_dimensions applies to ops with one or two operands; "
             "this op has %zu",
             n);
    return attr_fail(op, key, value, BCAST_INVALID_ARGUMENT, d.message,
                     verdict, diag);
  }
  if ((st = check_containers(op, n, diag)) != BCAST_OK) return st;
  verify_shapes v;
  load_shapes(op, n, &v);
  const int64_t *dims = verdict->dims;
  size_t n_dims = verdict->n_dims;
  if (n == 1) {
    static const char stablehlo[] = "stablehlo.broadcast_in_dim";
    if (op->name_len == sizeof stablehlo - 1 &&
        memcmp(op->name, stablehlo, op->name_len) == 0 &&
        (v.result.rank == BCAST_RANK_UNRANKED ||
         dynamic_dim(&v.result) >= 0)) {
      char rt[BCAST_MAX_RANK * 21 + 512];
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "result type '%s' is not static; StableHLO's "
                         "broadcast_in_dim has a statically shaped result "
                         "(stablehlo.dynamic_broadcast_in_dim takes dynamic "
                         "ones)",
                         type_text(op, &op->result, rt, sizeof rt));
    }
    st = bcast_broadcast_in_dim_check(&v.operands[0], &v.result, dims, n_dims,
                                      BCAST_DIMS_ANY_ORDER, &d);
    if (st == BCAST_INVALID_ARGUMENT)
      attr_fail(op, key, value, st, d.message, verdict, diag);
    else if (st != BCAST_OK && diag)
      *diag = d;
    if (st != BCAST_OK) stablehlo_message(&v, dims, n_dims, diag);
    return st;
  }
  /* Two operands: XLA's binary rule, then the result type. */
  const bcast_shape *a = &v.operands[0], *b = &v.operands[1];
  if (a->rank != BCAST_RANK_UNRANKED && b->rank != BCAST_RANK_UNRANKED &&
      a->rank != b->rank) {
    int32_t low = a->rank < b->rank ? a->rank : b->rank;
    if ((int64_t)n_dims != low) {
      snprintf(d.message, sizeof d.message,
               "it has %zu entries but the lower-rank operand #%d has rank "
               "%d; give one result dim per dim of it",
               n_dims, a->rank < b->rank ? 0 : 1, (int)low);
      return attr_fail(op, key, value, BCAST_INVALID_ARGUMENT, d.message,
                       verdict, diag);
    }
  }
  bcast_shape want;
  st = bcast_xla_binary_shape(a, b, dims, n_dims, &want, &d);
  if (st == BCAST_INVALID_ARGUMENT && a->rank != BCAST_RANK_UNRANKED &&
      b->rank != BCAST_RANK_UNRANKED)
    return attr_fail(op, key, value, st, d.message, verdict, diag);
  if (st != BCAST_OK) {
    if (diag) *diag = d;
    return st;
  }
  int32_t bad = incompatible_dim(&want, &v.result);
  if (bad == -2) return BCAST_OK;
  if (!diag) return BCAST_RESULT_MISMATCH;
  char want_text[BCAST_MAX_RANK * 21 + 8], rt[BCAST_MAX_RANK * 21 + 512];
  bcast_shape_format(&want, BCAST_SHAPE_STYLE_MLIR, want_text,
                     sizeof want_text);
  bcast__fail(diag, BCAST_RESULT_MISMATCH,
              "result type '%s' does not match the shape '%s' that "
              "broadcast_dimensions = %.*s gives under XLA's rule",
              type_text(op, &op->result, rt, sizeof rt), want_text,
              (int)(value.len > 200 ? 200 : value.len), value.text);
  if (bad >= 0)
    bcast__locate(diag, BCAST_DIAG_RESULT, bad, v.result.dims[bad],
                  BCAST_DIAG_NONE, BCAST_DIAG_NONE, 0, bad);
  return BCAST_RESULT_MISMATCH;
}

/* Whether one of the caller's rules maps this op to a profile. */
static int rule_matches(const bcast_mlir_verify_options *opts,
                        const bcast_mlir_op *op) {
  for (size_t k = 0; opts && k < opts->n_rules; k++)
    if (bcast_mlir_op_pattern_matches(opts->rules[k].pattern,
                                      opts->rules[k].pattern_len, op->name,
                                      op->name_len))
      return 1;
  return 0;
}

bcast_status bcast_mlir_verify(const bcast_mlir_op *op,
                               const bcast_mlir_verify_options *opts,
                               bcast_mlir_verdict *verdict, bcast_diag *diag) {
  bcast_mlir_verdict local;
  if (!verdict) verdict = &local;
  memset(verdict, 0, sizeof *verdict);
  verdict->line = op->line;
  verdict->col = op->col;
  verdict->profile = bcast_mlir_op_profile_of(opts, op->name, op->name_len);
  bcast_op id;
  int tosa_op = op->name_len > 5 && memcmp(op->name, "tosa.", 5) == 0 &&
                bcast_op_lookup(op->name, op->name_len, &id) == BCAST_OK;
  bcast_mlir_span key, value;
  int has_dims = bcast_mlir_op_attr(op, "broadcast_dimensions", &key, &value);
  bcast__hlo_kind kind = bcast__hlo_kind_of(op->name, op->name_len);
  if (kind != BCAST__HLO_NONE && !rule_matches(opts, op) &&
      !(kind == BCAST__HLO_CHLO_BINARY && has_dims && opts &&
        opts->chlo_xla_rule)) {
    /* Their own verifiers' rules, reported under the XLA family's name. */
    verdict->profile = BCAST_PROFILE_XLA;
    verdict->has_dims = has_dims;
    return bcast__hlo_verify(op, kind, verdict, diag);
  }
  if (!tosa_op && has_dims) {
    verdict->profile = BCAST_PROFILE_XLA;
    verdict->has_dims = 1;
    return verify_explicit(op, key, value, verdict, diag);
  }
  if (tosa_op && verdict->profile == BCAST_PROFILE_TOSA) {
    /* Parser errors are reported where mlir-opt's parser stops. */
    const char *at = NULL;
    bcast_status st = bcast__tosa_attr_syntax(op, &at, diag);
    if (st != BCAST_OK) {
      if (at) bcast__mlir_op_position(op, at, &verdict->line, &verdict->col);
      return st;
    }
  }
  bcast_status st = bcast_mlir_verify_op(op, verdict->profile, diag);
  if (st == BCAST_OK && tosa_op && verdict->profile == BCAST_PROFILE_TOSA &&
      opts && opts->tosa_validate)
    st = bcast__tosa_validate(op, diag);
  return st;
}

/* ------------------------------------------------------------------------ */
/* Whole texts: the one scan -> select -> verify loop. */

/* Which ops bcast_mlir_verify_text checks: the one rule, for every
 * caller.  The default ops, ops a rule names exactly and opts->ops. */
static int op_selected(const bcast_mlir_verify_options *opts, const char *name,
                       size_t len) {
  if (bcast_mlir_is_broadcasting_op(name, len) &&
      !(bcast_mlir_dialect_of(name, len) & opts->off_dialects))
    return 1;
  for (size_t k = 0; k < opts->n_rules; k++) {
    const bcast_mlir_op_profile *rule = &opts->rules[k];
    if (!memchr(rule->pattern, '*', rule->pattern_len) &&
        bcast_mlir_op_pattern_matches(rule->pattern, rule->pattern_len, name,
                                      len))
      return 1;
  }
  for (size_t k = 0; k < opts->n_ops; k++)
    if (opts->ops[k].len == len && memcmp(opts->ops[k].text, name, len) == 0)
      return 1;
  return 0;
}

typedef struct text_run {
  const bcast_mlir_verify_options *opts;
  bcast_mlir_counts counts;
} text_run;

/* The scanner's filter: counts every op it is asked about. */
static int select_op(const char *name, size_t len, void *ctx) {
  text_run *run = ctx;
  const bcast_mlir_verify_options *o = run->opts;
  run->counts.seen++;
  if (op_selected(o, name, len) &&
      (!o->only || o->only(name, len, o->only_ctx)))
    return 1;
  run->counts.skipped++;
  if (bcast_mlir_dialect_of(name, len)) run->counts.skipped_known++;
  return 0;
}

size_t bcast_mlir_diag_format(const char *op, size_t op_len,
                              const bcast_diag *diag, char *buf, size_t size) {
  const char *mlir = diag->mlir_message;
  const char *text = mlir[0] ? mlir : diag->message;
  int prefix = op && (!mlir[0] || diag->mlir_op_prefix);
  const char *parts[] = {"'", op, "' op ", text};
  size_t lens[] = {1, op_len, 5, strlen(text)};
  size_t n = 0;
  for (size_t k = prefix ? 0 : 3; k < 4; k++) {
    if (n < size) {
      size_t room = size - 1 - n;
      memcpy(buf + n, parts[k], lens[k] < room ? lens[k] : room);
    }
    n += lens[k];
  }
  if (size > 0) buf[n < size ? n : size - 1] = '\0';
  return n;
}

bcast_status bcast__mlir_failure(bcast_diag *out, uint32_t line, uint32_t col,
                                 const char *op, size_t op_len,
                                 bcast_profile profile, const bcast_diag *d) {
  if (!out) return d->status;
  /* As long as the diagnostic's message: a longer text is cut there all
   * the same. */
  char text[BCAST_DIAG_TEXT_MAX];
  bcast_mlir_diag_format(op, op_len, d, text, sizeof text);
  if (!op) return bcast__fail(out, d->status, "%u:%u: %s", line, col, text);
  return bcast__fail(out, d->status, "%u:%u: %s [%s profile]", line, col, text,
                     bcast_profile_name(profile));
}

bcast_status bcast_mlir_verify_text(const char *text, size_t len,
                                    const bcast_mlir_verify_options *opts,
                                    bcast_mlir_checked_fn on_op, void *ctx,
                                    bcast_mlir_counts *counts,
                                    bcast_diag *diag) {
  bcast_mlir_verify_options defaults;
  if (!opts) {
    bcast_mlir_verify_options_init(&defaults);
    opts = &defaults;
  }
  if (counts) memset(counts, 0, sizeof *counts);
  if (!text && len > 0)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "bcast_mlir_verify_text: NULL text");
  text_run run;
  memset(&run, 0, sizeof run);
  run.opts = opts;
  bcast_mlir_scanner scanner;
  bcast_mlir_scanner_init(&scanner, text ? text : "", len, select_op, &run);
  /* An op is a few KB: it lives on the stack, with its diagnostic, which
   * is formatted only when someone reads it. */
  bcast_mlir_op op;
  bcast_diag op_diag;
  bcast_diag *d = on_op || diag ? &op_diag : NULL;
  bcast_status first = BCAST_OK;
  for (;;) {
    int found = 0;
    bcast_status st = bcast_mlir_scan_next(&scanner, &op, &found, d);
    if (!found) break;
    bcast_mlir_checked c;
    c.op = &op;
    c.read = st == BCAST_OK;
    if (c.read) {
      st = bcast_mlir_verify(&op, opts, &c.verdict, d);
    } else {
      memset(&c.verdict, 0, sizeof c.verdict);
      c.verdict.line = op.line;
      c.verdict.col = op.col;
      c.verdict.profile = bcast_mlir_op_profile_of(opts, op.name, op.name_len);
    }
    c.status = st;
    c.outcome = st == BCAST_OK ? BCAST_MLIR_PASSED : BCAST_MLIR_FAILED;
    c.diag = st == BCAST_OK ? NULL : d;
    run.counts.checked++;
    if (c.read && c.verdict.cannot_check) {
      c.outcome = BCAST_MLIR_CANNOT_CHECK;
      run.counts.cannot_check++;
    } else if (st != BCAST_OK) {
      run.counts.failed++;
      if (first == BCAST_OK && diag)
        bcast__mlir_failure(diag, c.verdict.line, c.verdict.col,
                            c.read ? op.name : NULL, op.name_len,
                            c.verdict.profile, d);
      if (first == BCAST_OK) first = st;
    }
    if (on_op && on_op(ctx, &c)) break;
  }
  if (counts) *counts = run.counts;
  return first;
}
