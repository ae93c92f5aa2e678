/* CHLO's broadcasting element-wise ops that one arith / math instruction
 * computes, described for the element-wise lowering (lower_op.c): the
 * shape work is TOSA's (rank expansion, tensor.dim, scf.if copies,
 * cf.assert), the body one instruction of the row below.  Without
 * broadcast_dimensions the operands broadcast NumPy's way (right-aligned
 * leading 1s); with it, the lower-rank operand's dims go to the listed
 * result dims (XLA's rule, as bcast's verifier judged it). */
#include <stdio.h>
#include <string.h>

#include "emit/emit_internal.h"

/* One op: its instruction for floats, for signless integers and for i1
 * (NULL: not lowered for that class). */
typedef struct chlo_row {
  const char *name;
  const char *float_op, *int_op, *bool_op;
} chlo_row;

static const chlo_row chlo_rows[] = {
    {"chlo.broadcast_add", "arith.addf", "arith.addi", NULL},
    {"chlo.broadcast_subtract", "arith.subf", "arith.subi", NULL},
    {"chlo.broadcast_multiply", "arith.mulf", "arith.muli", NULL},
    {"chlo.broadcast_divide", "arith.divf", "arith.divsi", NULL},
    {"chlo.broadcast_remainder", "arith.remf", "arith.remsi", NULL},
    {"chlo.broadcast_maximum", "arith.maximumf", "arith.maxsi", NULL},
    {"chlo.broadcast_minimum", "arith.minimumf", "arith.minsi", NULL},
    {"chlo.broadcast_and", NULL, "arith.andi", "arith.andi"},
    {"chlo.broadcast_or", NULL, "arith.ori", "arith.ori"},
    {"chlo.broadcast_xor", NULL, "arith.xori", "arith.xori"},
    {"chlo.broadcast_power", "math.powf", NULL, NULL},
    {"chlo.broadcast_atan2", "math.atan2", NULL, NULL},
    {"chlo.broadcast_compare", NULL, NULL, NULL}, /* by direction below */
};

/* broadcast_compare: comparison_direction to predicates for floats,
 * signed integers and unsigned comparisons (compare_type UNSIGNED, and
 * i1, which orders false < true). */
static const struct {
  const char *direction;
  const char *float_pred, *signed_pred, *unsigned_pred;
} compare_rows[] = {
    {"EQ", "arith.cmpf oeq", "arith.cmpi eq", "arith.cmpi eq"},
    {"NE", "arith.cmpf une", "arith.cmpi ne", "arith.cmpi ne"},
    {"GE", "arith.cmpf oge", "arith.cmpi sge", "arith.cmpi uge"},
    {"GT", "arith.cmpf ogt", "arith.cmpi sgt", "arith.cmpi ugt"},
    {"LE", "arith.cmpf ole", "arith.cmpi sle", "arith.cmpi ule"},
    {"LT", "arith.cmpf olt", "arith.cmpi slt", "arith.cmpi ult"},
};

static const chlo_row *chlo_find(const char *name, size_t len) {
  for (size_t k = 0; k < sizeof chlo_rows / sizeof *chlo_rows; k++)
    if (strlen(chlo_rows[k].name) == len &&
        memcmp(chlo_rows[k].name, name, len) == 0)
      return &chlo_rows[k];
  return NULL;
}

int bcast__emit_is_chlo_op(const char *name, size_t len) {
  return chlo_find(name, len) != NULL;
}

static bcast_status fail(const bcast_mlir_op *m, bcast_diag *diag,
                         bcast_status st, const char *what, const char *arg) {
  return bcast__fail(diag, st, "%u:%u: '%.*s' op %s%s", m->line, m->col,
                     (int)m->name_len, m->name, what, arg ? arg : "");
}

/* Whether the attribute's value holds the word (an enum case such as
 * "#chlo<comparison_direction LT>"): bounded by non-letters. */
static int has_word(const bcast_mlir_span *v, const char *word) {
  size_t n = strlen(word);
  for (size_t i = 0; i + n <= v->len; i++) {
    if (memcmp(v->text + i, word, n) != 0) continue;
    char before = i ? v->text[i - 1] : ' ', after = i + n < v->len
                                                        ? v->text[i + n]
                                                        : ' ';
    if (!((before >= 'A' && before <= 'Z') || (before >= 'a' && before <= 'z')) &&
        !((after >= 'A' && after <= 'Z') || (after >= 'a' && after <= 'z')))
      return 1;
  }
  return 0;
}

/* broadcast_compare's instruction for element type class kind. */
static bcast_status compare_op(const bcast_mlir_op *m, bcast_dtype_kind kind,
                               const char **out, bcast_diag *diag) {
  bcast_mlir_span key, dir, type = {"", 0};
  if (!bcast_mlir_op_attr(m, "comparison_direction", &key, &dir))
    return fail(m, diag, BCAST_PARSE, "needs comparison_direction", NULL);
  int have_type = bcast_mlir_op_attr(m, "compare_type", &key, &type);
  if (have_type && has_word(&type, "TOTALORDER"))
    return fail(m, diag, BCAST_UNSUPPORTED,
                "compare_type TOTALORDER is not lowered", NULL);
  int unsigned_cmp =
      kind == BCAST_KIND_BOOL || (have_type && has_word(&type, "UNSIGNED"));
  for (size_t k = 0; k < sizeof compare_rows / sizeof *compare_rows; k++) {
    if (!has_word(&dir, compare_rows[k].direction)) continue;
    *out = kind == BCAST_KIND_FLOAT ? compare_rows[k].float_pred
           : unsigned_cmp           ? compare_rows[k].unsigned_pred
                                    : compare_rows[k].signed_pred;
    return BCAST_OK;
  }
  return fail(m, diag, BCAST_PARSE,
              "comparison_direction is none of EQ, NE, GE, GT, LE, LT", NULL);
}

bcast_status bcast__emit_chlo_describe(const bcast_mlir_op *m,
                                       const bcast_mlir_verdict *verdict,
                                       emit_op *op, bcast_diag *diag) {
  const chlo_row *row = chlo_find(m->name, m->name_len);
  /* Without broadcast_dimensions CHLO broadcasts as NumPy does. */
  bcast__emit_op_start(m, BCAST_PROFILE_NUMPY, op);
  if (!row) return fail(m, diag, BCAST_UNSUPPORTED, "is not lowered", NULL);
  op->op = BCAST_OP_ADD; /* the shape work of a binary op */
  if (m->n_operand_names != 2 || m->n_operands != 2)
    return fail(m, diag, BCAST_PARSE, "needs two operands", NULL);
  op->n_in = 2;
  for (size_t k = 0; k < 2; k++) {
    emit_value *v = &op->in[k];
    v->name = m->operand_names[k].text;
    v->name_len = m->operand_names[k].len;
    bcast_mlir_op_type(m, &m->operands[k], &v->type);
    if (v->type.encoding)
      return fail(m, diag, BCAST_UNSUPPORTED,
                  "operand: a tensor with an encoding is not lowered", NULL);
    if (!v->type.elem ||
        bcast_dtype_parse(v->type.elem, v->type.elem_len, &v->dtype) !=
            BCAST_OK)
      return fail(m, diag, BCAST_TYPE, "operand: unsupported element type",
                  NULL);
  }
  if (op->result.encoding)
    return fail(m, diag, BCAST_UNSUPPORTED,
                "result: a tensor with an encoding is not lowered", NULL);
  if (!op->result.elem ||
      bcast_dtype_parse(op->result.elem, op->result.elem_len,
                        &op->result_dtype) != BCAST_OK)
    return fail(m, diag, BCAST_TYPE, "result: unsupported element type",
                NULL);
  bcast_dtype t = op->in[0].dtype;
  bcast_dtype_kind kind = bcast_dtype_kind_of(t);
  if (op->in[1].dtype != t)
    return fail(m, diag, BCAST_TYPE,
                "operands of different element types are not lowered", NULL);
  int compare = row->float_op == NULL && row->int_op == NULL;
  bcast_dtype want = compare ? BCAST_BOOL : t;
  if (op->result_dtype != want)
    return fail(m, diag, BCAST_TYPE, "result element type must be ",
                bcast_dtype_mlir_name(want));
  if (kind != BCAST_KIND_FLOAT && kind != BCAST_KIND_SIGNED &&
      kind != BCAST_KIND_BOOL)
    return fail(m, diag, BCAST_TYPE,
                "lowers bool, signless integer and float elements, not ",
                bcast_dtype_mlir_name(t));
  if (compare) {
    bcast_status st = compare_op(m, kind, &op->arith, diag);
    if (st != BCAST_OK) return st;
  } else {
    op->arith = kind == BCAST_KIND_FLOAT    ? row->float_op
                : kind == BCAST_KIND_SIGNED ? row->int_op
                                            : row->bool_op;
    if (!op->arith)
      return fail(m, diag, BCAST_TYPE, "has no arith lowering for ",
                  bcast_dtype_mlir_name(t));
  }
  if (verdict->has_dims && verdict->n_dims > 0) {
    op->has_bdims = 1;
    op->n_bdims = verdict->n_dims;
    memcpy(op->bdims, verdict->dims, verdict->n_dims * sizeof *op->bdims);
  }
  return BCAST_OK;
}
