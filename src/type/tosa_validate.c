/* MLIR 22's TOSA validation pass (mlir-opt -tosa-validate) on the
 * element-wise ops, as mlir/test/Dialect/Tosa/invalid.mlir runs it: the
 * target pro_int and pro_fp with every extension but int64, and
 * strict-op-spec-alignment.  Its type-compliance checks, in its order and
 * words:
 *   1. every operand's and the result's element type must be one TOSA has
 *      (f16, bf16, f32, f8E4M3FN, f8E5M2; i1, i4, i8, i16, i32, i48, i64):
 *      "is not profile-aligned: element type 'f64' is not legal";
 *   2. the op's type signature (the operands and the result, but tosa.mul's
 *      shift and tosa.select's condition) must be an entry of TOSA's
 *      compliance tables: bcast's tosa-1.0 tables (bcast_op_types_in,
 *      bcast_op_cast_targets_in), plus the int64 extension's entries
 *      (every op that takes i32 takes i64 with it; casts i32 <-> i64),
 *      which the target leaves out: "illegal: requires [int64] but not
 *      enabled in target";
 *   3. for any other signature: "illegal: operation operand/result data
 *      types did not align with any profile or extension, got (i1,i1,i1),
 *      did you mean (i32,i32,i32)? Otherwise, ...", the suggestion being
 *      the first entry with the most types in common, the profiles'
 *      entries before the extensions'.
 * The entries' order is MLIR's (TosaComplianceData.h.inc): by profile or
 * extension (pro_int, pro_fp, bf16, int64, fp8e4m3, fp8e5m2; an entry
 * belongs to the last of its types' groups), then by the types in the
 * order of ORDER below.  tests/diff/test_tosa_element_types.py checks
 * every message against mlir-opt 22. */
#include <stdint.h>
#include <string.h>

#include "bcast/op.h"
#include "core/diag.h"
#include "type/mlir_internal.h"

/* Where a type's entries sit in the compliance tables. */
enum { G_INT, G_FP, G_BF16, G_INT64, G_E4M3, G_E5M2, G_COUNT };

/* TOSA's types in the tables' order within a group, with the names the
 * pass prints ("fp8e4m3", not MLIR's "f8E4M3FN"). */
static const struct {
  bcast_dtype dtype;
  int group;
  const char *name;
} ORDER[] = {
    {BCAST_BOOL, G_INT, "i1"},
    {BCAST_INT8, G_INT, "i8"},
    {BCAST_INT16, G_INT, "i16"},
    {BCAST_INT32, G_INT, "i32"},
    {BCAST_BFLOAT16, G_BF16, "bf16"},
    {BCAST_FLOAT16, G_FP, "f16"},
    {BCAST_FLOAT32, G_FP, "f32"},
    {BCAST_FLOAT8_E4M3FN, G_E4M3, "fp8e4m3"},
    {BCAST_FLOAT8_E5M2, G_E5M2, "fp8e5m2"},
    {BCAST_INT64, G_INT64, "i64"},
};
#define N_ORDER (sizeof ORDER / sizeof ORDER[0])
/* A legal element type outside ORDER (i4, i48): in no entry. */
#define T_OTHER (-1)
#define MAX_SIG 4

typedef struct sig {
  size_t n;
  int t[MAX_SIG]; /* indices into ORDER, or T_OTHER */
  char other[MAX_SIG][8];
} sig;

static int all_digits(const char *t, size_t n) {
  if (n == 0 || n > 3) return 0;
  for (size_t k = 0; k < n; k++)
    if (t[k] < '0' || t[k] > '9') return 0;
  return 1;
}

/* TosaValidation::isValidElementType, strict (no unsigned types). */
static int legal_elem(const char *e, size_t n) {
  static const char *const floats[] = {"f16", "bf16", "f32", "f8E4M3FN",
                                       "f8E5M2"};
  static const char *const ints[] = {"1", "4", "8", "16", "32", "48", "64"};
  for (size_t k = 0; k < sizeof floats / sizeof floats[0]; k++)
    if (strlen(floats[k]) == n && memcmp(floats[k], e, n) == 0) return 1;
  if (n < 2 || e[0] != 'i' || !all_digits(e + 1, n - 1)) return 0;
  for (size_t k = 0; k < sizeof ints / sizeof ints[0]; k++)
    if (strlen(ints[k]) == n - 1 && memcmp(ints[k], e + 1, n - 1) == 0)
      return 1;
  return 0;
}

/* A legal element type's place in ORDER; T_OTHER (its name in other) for
 * i4 and i48. */
static int order_of(const char *e, size_t n, char other[8]) {
  bcast_dtype d;
  if (bcast_dtype_parse(e, n, &d) == BCAST_OK)
    for (size_t k = 0; k < N_ORDER; k++)
      if (ORDER[k].dtype == d) return (int)k;
  memcpy(other, e, n < 7 ? n : 7);
  other[n < 7 ? n : 7] = '\0';
  return T_OTHER;
}

static const char *type_name(const sig *s, size_t k) {
  return s->t[k] == T_OTHER ? s->other[k] : ORDER[s->t[k]].name;
}

/* "i8,i8,i32" */
static void format_sig(const sig *s, char *buf, size_t cap) {
  size_t len = 0;
  buf[0] = '\0';
  for (size_t k = 0; k < s->n; k++)
    bcast__append(buf, cap, &len, "%s%s", k ? "," : "", type_name(s, k));
}

/* Whether the tosa-1.0 tables or the int64 extension take the one type t
 * for the op (not CAST). */
static int takes(bcast_op id, size_t t) {
  uint32_t types =
      bcast_op_types_in(id, BCAST_PROFILE_TOSA, BCAST_TYPE_TABLES_TOSA_1_0);
  if (ORDER[t].dtype == BCAST_INT64) return (types >> BCAST_INT32) & 1u;
  return (types >> ORDER[t].dtype) & 1u;
}

/* CAST from ORDER[a] to ORDER[b]. */
static int casts(size_t a, size_t b) {
  bcast_dtype from = ORDER[a].dtype, to = ORDER[b].dtype;
  if ((from == BCAST_INT64 && to == BCAST_INT32) ||
      (from == BCAST_INT32 && to == BCAST_INT64))
    return 1;
  return (bcast_op_cast_targets_in(from, BCAST_PROFILE_TOSA,
                                   BCAST_TYPE_TABLES_TOSA_1_0) >>
          to) &
         1u;
}

/* The entry of a one-type op for ORDER[t], as the tables write it. */
static void entry_of(const bcast_op_info *info, size_t t,
                     size_t n, sig *out) {
  out->n = n;
  for (size_t k = 0; k < n; k++) out->t[k] = (int)t;
  if (info->result == BCAST_RESULT_BOOL) out->t[n - 1] = 0; /* i1 */
  /* tosa.mul of integers gives i32 (i64 for i64). */
  if (info->result == BCAST_RESULT_MUL && ORDER[t].group == G_INT)
    out->t[n - 1] = 3;
}

static int matches(const sig *a, const sig *b) {
  int m = 0;
  for (size_t k = 0; k < a->n; k++)
    m += a->t[k] != T_OTHER && a->t[k] == b->t[k];
  return m;
}

/* Walks the op's entries in the tables' order: *found gets whether one is
 * the signature (and *group its group), *best the first entry with the
 * most types in common. */
static void search(const bcast_op_info *info, bcast_op id, const sig *have,
                   int *found, int *group, sig *best) {
  int most = -1;
  *found = 0;
  for (int g = G_INT; g < G_COUNT; g++) {
    for (size_t a = 0; a < N_ORDER; a++) {
      for (size_t b = 0; b < (id == BCAST_OP_CAST ? N_ORDER : 1); b++) {
        sig e;
        if (id == BCAST_OP_CAST) {
          int eg = ORDER[a].group > ORDER[b].group ? ORDER[a].group
                                                   : ORDER[b].group;
          if (eg != g || !casts(a, b)) continue;
          e.n = 2;
          e.t[0] = (int)a;
          e.t[1] = (int)b;
        } else {
          if (ORDER[a].group != g || !takes(id, a)) continue;
          entry_of(info, a, have->n, &e);
        }
        int m = matches(have, &e);
        if (m == (int)have->n && !*found) {
          *found = 1;
          *group = g;
        }
        if (m > most) {
          most = m;
          *best = e;
        }
      }
    }
  }
}

bcast_status bcast__tosa_validate(const bcast_mlir_op *op, bcast_diag *diag) {
  bcast_op id;
  if (!(op->name_len > 5 && memcmp(op->name, "tosa.", 5) == 0) ||
      bcast_op_lookup(op->name, op->name_len, &id) != BCAST_OK)
    return BCAST_OK;
  const bcast_op_info *info = bcast_op_get(id);
  /* 1. The element types, operands first. */
  for (size_t k = 0; k <= op->n_operands; k++) {
    const bcast_mlir_type_ref *r =
        k < op->n_operands ? &op->operands[k] : &op->result;
    if (!r->elem || legal_elem(r->elem, r->elem_len)) continue;
    if (!diag) return BCAST_TYPE;
    bcast__fail(diag, BCAST_TYPE,
                "tosa.%s: element type %.*s is outside TOSA's types (the "
                "validation pass, --tosa-validate)",
                info->name, (int)r->elem_len, r->elem);
    bcast__mlir_message(diag, 1,
                        "is not profile-aligned: element type '%.*s' is not "
                        "legal",
                        (int)r->elem_len, r->elem);
    return BCAST_TYPE;
  }
  /* 2. The signature: tosa.mul without its shift, tosa.select without its
   * condition. */
  sig have;
  memset(&have, 0, sizeof have);
  const size_t skip = id == BCAST_OP_SELECT ? 0 : SIZE_MAX;
  const size_t last = id == BCAST_OP_MUL ? 2 : op->n_operands;
  for (size_t k = 0; k <= last && have.n < MAX_SIG; k++) {
    if (k == skip) continue;
    const bcast_mlir_type_ref *r = k < last ? &op->operands[k] : &op->result;
    if (!r->elem) return BCAST_OK; /* not a shaped type: the verifier's */
    have.t[have.n] = order_of(r->elem, r->elem_len, have.other[have.n]);
    have.n++;
  }
  int found, group = G_INT;
  sig best;
  memset(&best, 0, sizeof best);
  search(info, id, &have, &found, &group, &best);
  if (found && group != G_INT64) return BCAST_OK;
  if (!diag) return BCAST_TYPE;
  char got[64], hint[64];
  format_sig(&have, got, sizeof got);
  if (found) {
    bcast__fail(diag, BCAST_TYPE,
                "tosa.%s: (%s) needs TOSA's int64 extension, which the "
                "validation pass's target leaves out (--tosa-validate)",
                info->name, got);
    bcast__mlir_message(diag, 1,
                        "illegal: requires [int64] but not enabled in target");
    return BCAST_TYPE;
  }
  format_sig(&best, hint, sizeof hint);
  bcast__fail(diag, BCAST_TYPE,
              "tosa.%s: (%s) is in none of TOSA's profiles and extensions "
              "(the validation pass, --tosa-validate); the nearest is (%s)",
              info->name, got, hint);
  bcast__mlir_message(diag, 1,
                      "illegal: operation operand/result data types did not "
                      "align with any profile or extension, got (%s), did you "
                      "mean (%s)? Otherwise, please refer to the 'supported "
                      "data types' for 'tosa.%s' in the specification.",
                      got, hint, info->name);
  return BCAST_TYPE;
}
