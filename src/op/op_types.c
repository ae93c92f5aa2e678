/* The element-type rules of the ops: which input types each profile
 * accepts and the result type that follows, read from the op table's
 * columns (bcast/op.h) and TOSA's CAST table.  The executor
 * (bcast_ew_result_dtype) and the emitter both ask here, so the interpreter
 * and the compiler accept exactly the same signatures. */
#include <string.h>

#include "bcast/op.h"
#include "core/diag.h"
#include "op/op_attrs.h"

/* TOSA 1.0.2 CAST modes (tosa.xml): bool <-> i8/i16/i32; integer widening
 * and narrowing; integers -> fp16/bf16/fp32; fp16/fp32 -> integers;
 * bf16 -> integers and fp32; fp16 <-> fp32; fp32 -> bf16; and EXT-FP8E4M3
 * and EXT-FP8E5M2's fp8 <-> fp16/bf16/fp32 (bf16 with EXT-BF16 too; MLIR
 * 22's TosaComplianceData.h.inc lists the same). */
#define TOSA_FP8_PEERS                                                        \
  (BCAST_TYPE_BIT(FLOAT16) | BCAST_TYPE_BIT(BFLOAT16) | BCAST_TYPE_BIT(FLOAT32))
static const uint32_t tosa_cast[BCAST_DTYPE_COUNT] = {
    [BCAST_BOOL] = BCAST_TYPES_TINT,
    [BCAST_INT8] = BCAST_TYPES_BOOL | BCAST_TYPE_BIT(INT16) |
                   BCAST_TYPE_BIT(INT32) | BCAST_TYPES_TFP,
    [BCAST_INT16] = BCAST_TYPES_BOOL | BCAST_TYPE_BIT(INT8) |
                    BCAST_TYPE_BIT(INT32) | BCAST_TYPES_TFP,
    [BCAST_INT32] = BCAST_TYPES_BOOL | BCAST_TYPE_BIT(INT8) |
                    BCAST_TYPE_BIT(INT16) | BCAST_TYPES_TFP,
    [BCAST_FLOAT16] =
        BCAST_TYPES_TINT | BCAST_TYPE_BIT(FLOAT32) | BCAST_TYPES_FP8,
    [BCAST_BFLOAT16] =
        BCAST_TYPES_TINT | BCAST_TYPE_BIT(FLOAT32) | BCAST_TYPES_FP8,
    [BCAST_FLOAT32] = BCAST_TYPES_TINT | BCAST_TYPE_BIT(FLOAT16) |
                      BCAST_TYPE_BIT(BFLOAT16) | BCAST_TYPES_FP8,
    [BCAST_FLOAT8_E4M3FN] = TOSA_FP8_PEERS,
    [BCAST_FLOAT8_E5M2] = TOSA_FP8_PEERS,
};

/* MLIR 22's dialect: the types its tosa-to-linalg lowers for these ops
 * (checked against mlir-opt 22 by tests/diff/test_tosa22_types.py).  They
 * follow from the op table's TOSA column, so a new row needs nothing here:
 * an op that takes some signed integer takes int8..int64 (intdiv, whose
 * ODS type is Int32_64, int32 and int64 only), one that takes a float
 * takes float64 and the 8-bit floats too (tests/diff/test_tosa22_fp8_ops.py;
 * bcast run computes on the 8-bit floats only the ops whose lowering
 * mlir-opt folds, see bcast__ew_result_dtype_in).  CAST goes between any two of these types and the
 * 8-bit floats but float16 and bfloat16, and the two 8-bit floats (arith
 * has no truncf or extf between types of one width, and mlir-opt 22's
 * tosa-to-linalg fails on them). */
#define MLIR_SINT (BCAST_TYPES_TINT | BCAST_TYPE_BIT(INT64))
#define MLIR_FLOAT (BCAST_TYPES_TFP | BCAST_TYPE_BIT(FLOAT64))
#define MLIR_CAST (MLIR_SINT | MLIR_FLOAT | BCAST_TYPES_BOOL | BCAST_TYPES_FP8)

/* MLIR 22's tosa-to-linalg also lowers unsigned elements, viewing the
 * tensor as signless (builtin.unrealized_conversion_cast): CLAMP with
 * arith.maxui / minui, CAST (unsigned_casts below), and the ops whose
 * arith op is the same on both views (addi, subi, muli with shift 0,
 * andi, ori, xori, shli, shrui, select).  Its verifier takes unsigned
 * types for more ops (maximum, minimum, the comparisons, abs, negate,
 * bitwise_not, clz, arithmetic_right_shift, ...), but its tosa-to-linalg
 * fails on them, so these tables leave them out. */
static const bcast_op unsigned_ops[] = {BCAST_OP_CAST,
                                        BCAST_OP_CLAMP,
                                        BCAST_OP_ADD,
                                        BCAST_OP_SUB,
                                        BCAST_OP_MUL,
                                        BCAST_OP_BITWISE_AND,
                                        BCAST_OP_BITWISE_OR,
                                        BCAST_OP_BITWISE_XOR,
                                        BCAST_OP_LOGICAL_LEFT_SHIFT,
                                        BCAST_OP_LOGICAL_RIGHT_SHIFT,
                                        BCAST_OP_SELECT};

static uint32_t mlir_types(const bcast_op_info *info) {
  uint32_t types = info->tosa_types;
  for (size_t k = 0; k < sizeof unsigned_ops / sizeof unsigned_ops[0]; k++)
    if (info == bcast_op_get(unsigned_ops[k])) types |= BCAST_TYPES_UINT;
  if (types & BCAST_TYPES_TINT)
    types |= strcmp(info->operand0_types, BCAST_OP_TYPES_INT32_64) == 0
                 ? BCAST_TYPE_BIT(INT64)
                 : MLIR_SINT;
  if (types & BCAST_TYPES_TFP)
    types |= BCAST_TYPE_BIT(FLOAT64) | BCAST_TYPES_FP8;
  return types;
}

static const char *const tables_names[BCAST_TYPE_TABLES_COUNT] = {
#define TABLES_NAME_(id, name) [BCAST_TYPE_TABLES_##id] = (name),
    BCAST_TYPE_TABLES_LIST(TABLES_NAME_)
#undef TABLES_NAME_
};

const char *bcast_type_tables_name(bcast_type_tables tables) {
  return (unsigned)tables < BCAST_TYPE_TABLES_COUNT ? tables_names[tables]
                                                    : NULL;
}

bcast_status bcast_type_tables_parse(const char *name,
                                     bcast_type_tables *out) {
  if (!name || !out) return BCAST_INVALID_ARGUMENT;
  for (int t = 0; t < BCAST_TYPE_TABLES_COUNT; t++)
    if (strcmp(name, tables_names[t]) == 0) {
      *out = (bcast_type_tables)t;
      return BCAST_OK;
    }
  return BCAST_INVALID_ARGUMENT;
}

/* " with the tosa-1.0 tables" where the tables are not the default. */
static const char *tables_note(bcast_profile profile,
                               bcast_type_tables tables) {
  return profile != BCAST_PROFILE_NUMPY && tables == BCAST_TYPE_TABLES_TOSA_1_0
             ? " with the tosa-1.0 tables"
             : "";
}

static int profile_executes(bcast_profile profile) {
  return profile == BCAST_PROFILE_TOSA || profile == BCAST_PROFILE_TRAIT ||
         profile == BCAST_PROFILE_NUMPY;
}

int bcast_op_arity(bcast_op op) {
  if ((unsigned)op >= BCAST_OP_COUNT) return 0;
  return bcast_op_get(op)->broadcast_operands;
}

uint32_t bcast_op_types_in(bcast_op op, bcast_profile profile,
                           bcast_type_tables tables) {
  if ((unsigned)op >= BCAST_OP_COUNT || !profile_executes(profile)) return 0;
  const bcast_op_info *info = bcast_op_get(op);
  if (profile == BCAST_PROFILE_NUMPY) return info->numpy_types;
  return tables == BCAST_TYPE_TABLES_TOSA_1_0 ? info->tosa_types
                                              : mlir_types(info);
}

uint32_t bcast_op_types(bcast_op op, bcast_profile profile) {
  return bcast_op_types_in(op, profile, BCAST_TYPE_TABLES_MLIR);
}

/* MLIR 22's casts of unsigned types: its lowering works on the signless
 * view, so an unsigned integer goes to an integer of another width as the
 * signed type of its width would (extsi, trunci: ui8 200 -> i16 is -56),
 * to a float (the 8-bit ones too) with arith.uitofp and to bool as x != 0 (the executor runs
 * the signed view's kernels, see bcast__ew_find's callers).  Left out: an
 * integer of its own width (mlir-opt fails on its arith.trunci). */
static uint32_t unsigned_casts(bcast_dtype in) {
  uint32_t other_width = 0;
  for (int d = 0; d < BCAST_DTYPE_COUNT; d++)
    if (((MLIR_SINT | BCAST_TYPES_UINT) >> d & 1u) &&
        bcast_dtype_size((bcast_dtype)d) != bcast_dtype_size(in))
      other_width |= 1u << d;
  return BCAST_TYPES_BOOL | MLIR_FLOAT | BCAST_TYPES_FP8 | other_width;
}

bcast_dtype bcast__op_signless(bcast_dtype t) {
  switch (t) {
  case BCAST_UINT8:
    return BCAST_INT8;
  case BCAST_UINT16:
    return BCAST_INT16;
  case BCAST_UINT32:
    return BCAST_INT32;
  case BCAST_UINT64:
    return BCAST_INT64;
  default:
    return t;
  }
}

void bcast__op_mlir_cast_kernel(bcast_dtype *in, bcast_dtype *out) {
  const bcast_dtype o = bcast__op_signless(*out);
  const bcast_dtype i =
      bcast_dtype_kind_of(*out) == BCAST_KIND_FLOAT ? *in
                                                    : bcast__op_signless(*in);
  if (i == o) return; /* int8 -> uint8: the bits, as the kernel's cast */
  *in = i;
  *out = o;
}

uint32_t bcast_op_cast_targets_in(bcast_dtype in, bcast_profile profile,
                                  bcast_type_tables tables) {
  if ((unsigned)in >= BCAST_DTYPE_COUNT || !profile_executes(profile))
    return 0;
  if (profile == BCAST_PROFILE_NUMPY)
    return (BCAST_TYPES_ALL & (1u << in)) ? BCAST_TYPES_ALL : 0;
  if (tables == BCAST_TYPE_TABLES_TOSA_1_0) return tosa_cast[in];
  if (bcast_dtype_kind_of(in) == BCAST_KIND_UNSIGNED)
    return unsigned_casts(in);
  if (!(MLIR_CAST & (1u << in))) return 0;
  /* arith.truncf / extf have no float16 <-> bfloat16 and no float8_e4m3fn
   * <-> float8_e5m2 (neither is wider). */
  const uint32_t halves = BCAST_TYPE_BIT(FLOAT16) | BCAST_TYPE_BIT(BFLOAT16);
  const uint32_t same_width = (halves >> in) & 1u             ? halves
                              : (BCAST_TYPES_FP8 >> in) & 1u ? BCAST_TYPES_FP8
                                                             : 0u;
  /* Into an unsigned type as into the signed one of its width (a float
   * saturates to the signed range: f32 -5.0 -> ui8 is 251, 300.0 is 127;
   * the 8-bit floats by their own rule, tests/diff/test_tosa22_fp8.py). */
  return (MLIR_CAST | BCAST_TYPES_UINT) & ~(1u << in) & ~same_width;
}

uint32_t bcast_op_cast_targets(bcast_dtype in, bcast_profile profile) {
  return bcast_op_cast_targets_in(in, profile, BCAST_TYPE_TABLES_MLIR);
}

/* "int32, float16, bfloat16" for a type mask. */
static void format_types(uint32_t mask, char *buf, size_t cap) {
  size_t len = 0;
  buf[0] = '\0';
  for (int d = 0; d < BCAST_DTYPE_COUNT; d++)
    if (mask & (1u << d))
      bcast__append(buf, cap, &len, "%s%s", len ? ", " : "",
                    bcast_dtype_name((bcast_dtype)d));
  if (len == 0) bcast__append(buf, cap, &len, "none");
}

/* In the numpy profile, the type an op computes inputs of result type
 * common in: its own, or for ops that take floats only, a float. */
static bcast_dtype numpy_compute_type(const bcast_op_info *info,
                                      bcast_dtype common) {
  if (bcast_dtype_kind_of(common) == BCAST_KIND_FLOAT) return common;
  if (info->result == BCAST_RESULT_TRUE_DIV) return BCAST_FLOAT64;
  /* Bool into an integer op without a bool loop (power, floor_divide,
   * square, the shifts, ...): NumPy's first loop, int8.  subtract and
   * negative have one and refuse bool (their types leave it out). */
  if (common == BCAST_BOOL && !(info->numpy_types & BCAST_TYPES_BOOL) &&
      (info->numpy_types & BCAST_TYPE_BIT(INT8)) &&
      info != bcast_op_get(BCAST_OP_SUB) &&
      info != bcast_op_get(BCAST_OP_NEGATE))
    return BCAST_INT8;
  if ((info->numpy_types & (1u << common)) ||
      (info->numpy_types & ~(uint32_t)BCAST_TYPES_FLOAT))
    return common;
  /* NumPy picks the first loop (float16, float32, float64) the input casts
   * to safely: the promotion with float16. */
  bcast_dtype f = common;
  bcast_dtype_promote(common, BCAST_FLOAT16, &f, NULL);
  return f;
}

bcast_status bcast_op_operand_dtypes(bcast_op op, bcast_profile profile,
                                     size_t n_inputs,
                                     const bcast_dtype *inputs,
                                     bcast_dtype *converted,
                                     bcast_diag *diag) {
  if ((unsigned)op >= BCAST_OP_COUNT || n_inputs == 0 || n_inputs > 3)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "operand types: unknown op or bad input count");
  const bcast_op_info *info = bcast_op_get(op);
  const char *name = bcast_op_label(op, profile);
  const size_t first = op == BCAST_OP_SELECT ? 1 : 0;
  for (size_t k = 0; k < n_inputs; k++) converted[k] = inputs[k];
  if (op == BCAST_OP_SELECT && inputs[0] != BCAST_BOOL) {
    if (profile != BCAST_PROFILE_NUMPY ||
        bcast_dtype_kind_of(inputs[0]) == BCAST_KIND_STRING)
      return bcast__fail(diag, BCAST_TYPE,
                         "%s: the condition (operand #0) must be bool, not "
                         "%s%s",
                         name, bcast_dtype_name(inputs[0]),
                         profile != BCAST_PROFILE_NUMPY
                             ? " (the numpy profile tests it for nonzero)"
                             : "");
    converted[0] = BCAST_BOOL; /* numpy.where: nonzero */
  }
  if (n_inputs <= first) return BCAST_OK;
  if (profile != BCAST_PROFILE_NUMPY) {
    for (size_t k = first + 1; k < n_inputs; k++) {
      if (inputs[k] == inputs[first]) continue;
      bcast_dtype promoted;
      char hint[128] = "";
      size_t len = 0;
      if (bcast_dtype_promote(inputs[first], inputs[k], &promoted, NULL) ==
          BCAST_OK)
        bcast__append(hint, sizeof hint, &len,
                      " (the numpy profile promotes: %s + %s -> %s)",
                      bcast_dtype_name(inputs[first]),
                      bcast_dtype_name(inputs[k]), bcast_dtype_name(promoted));
      return bcast__fail(diag, BCAST_TYPE,
                         "%s: operand #%zu is %s but operand #%zu is %s; "
                         "inputs must share one element type in the %s "
                         "profile%s",
                         name, k, bcast_dtype_name(inputs[k]), first,
                         bcast_dtype_name(inputs[first]),
                         bcast_profile_name(profile), hint);
    }
    return BCAST_OK;
  }
  bcast_dtype common;
  bcast_diag sub;
  if (bcast_dtype_result_type(n_inputs - first, inputs + first, &common,
                              &sub) != BCAST_OK) {
    if (n_inputs - first == 1 || inputs[first] == inputs[n_inputs - 1])
      return BCAST_OK; /* one type: the op's type list decides */
    return bcast__fail(diag, BCAST_TYPE, "%s: %s", name, sub.message);
  }
  common = numpy_compute_type(info, common);
  for (size_t k = first; k < n_inputs; k++) converted[k] = common;
  return BCAST_OK;
}

bcast_status bcast_op_result_dtype(bcast_op op, bcast_profile profile,
                                   size_t n_inputs, const bcast_dtype *inputs,
                                   bcast_dtype cast_to, bcast_dtype *out,
                                   bcast_diag *diag) {
  return bcast_op_result_dtype_in(op, profile, BCAST_TYPE_TABLES_MLIR,
                                  n_inputs, inputs, cast_to, out, diag);
}

bcast_status bcast_op_result_dtype_in(bcast_op op, bcast_profile profile,
                                      bcast_type_tables tables,
                                      size_t n_inputs,
                                      const bcast_dtype *inputs,
                                      bcast_dtype cast_to, bcast_dtype *out,
                                      bcast_diag *diag) {
  if ((unsigned)op >= BCAST_OP_COUNT)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT, "unknown op %d", (int)op);
  const bcast_op_info *info = bcast_op_get(op);
  const char *name = info->name;
  const char *label = bcast_op_label(op, profile);
  if (!profile_executes(profile))
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "%s: the %s profile does not execute ops (use "
                       "tosa, trait or numpy)",
                       label, bcast_profile_name(profile));
  const int arity = info->broadcast_operands;
  if (n_inputs != (size_t)arity)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "%s takes %d input%s, not %zu", label, arity,
                       arity == 1 ? "" : "s", n_inputs);
  for (size_t k = 0; k < n_inputs; k++)
    if ((unsigned)inputs[k] >= BCAST_DTYPE_COUNT)
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "%s: operand #%zu has no valid element type", label,
                         k);

  bcast_dtype conv[3];
  bcast_status status =
      bcast_op_operand_dtypes(op, profile, n_inputs, inputs, conv, diag);
  if (status != BCAST_OK) return status;
  const bcast_dtype in = conv[op == BCAST_OP_SELECT ? 1 : 0];
  const uint32_t types = bcast_op_types_in(op, profile, tables);
  if (!types)
    return bcast__fail(diag, BCAST_TYPE,
                       "%s is a NumPy op, not a TOSA one: the %s profile does "
                       "not have it (the numpy profile does)",
                       name, bcast_profile_name(profile));
  if (!(types & (1u << in))) {
    char list[512];
    format_types(types, list, sizeof list);
    if (profile == BCAST_PROFILE_NUMPY)
      return bcast__fail(diag, BCAST_TYPE,
                         "ufunc '%s' not supported for the input types, and "
                         "the inputs could not be safely coerced to any "
                         "supported types according to the casting rule "
                         "''safe''",
                         label);
    const int numpy_takes =
        profile != BCAST_PROFILE_NUMPY && (info->numpy_types & (1u << in));
    return bcast__fail(diag, BCAST_TYPE,
                       "%s does not take %s in the %s profile%s (it "
                       "takes %s)%s",
                       label, bcast_dtype_name(in),
                       bcast_profile_name(profile),
                       tables_note(profile, tables), list,
                       numpy_takes ? "; the numpy profile takes it" : "");
  }

  bcast_dtype result = in;
  switch (info->result) {
  case BCAST_RESULT_SAME:
  case BCAST_RESULT_TRUE_DIV: /* the inputs are already float */
    break;
  case BCAST_RESULT_BOOL:
    result = BCAST_BOOL;
    break;
  case BCAST_RESULT_MUL:
    if (profile != BCAST_PROFILE_NUMPY &&
        (in == BCAST_INT8 || in == BCAST_INT16) &&
        !(tables == BCAST_TYPE_TABLES_MLIR && cast_to == in))
      result = BCAST_INT32;
    break;
  case BCAST_RESULT_CAST: {
    if ((unsigned)cast_to >= BCAST_DTYPE_COUNT)
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "%s needs a result type (attribute 'to')", label);
    const uint32_t targets = bcast_op_cast_targets_in(in, profile, tables);
    if (!(targets & (1u << cast_to))) {
      char list[512];
      format_types(targets, list, sizeof list);
      return bcast__fail(
          diag, BCAST_TYPE,
          "%s has no %s -> %s mode in the %s "
          "profile%s (%s casts to %s)",
          label, bcast_dtype_name(in), bcast_dtype_name(cast_to),
          bcast_profile_name(profile), tables_note(profile, tables),
          bcast_dtype_name(in), list);
    }
    result = cast_to;
    break;
  }
  }
  *out = result;
  return BCAST_OK;
}

/* ------------------------------------------------------------------------ */
/* The attributes: names, and which op reads which (the op table's
 * attributes column). */

static const struct {
  const char *name, *alias, *default_text, *summary;
} attr_names[BCAST_ATTR_COUNT] = {
#define ATTR_NAME_(id, name, alias, default_text, summary)                    \
  [BCAST_ATTR_##id] = {(name), (alias), (default_text), (summary)},
    BCAST_ATTR_LIST(ATTR_NAME_)
#undef ATTR_NAME_
};

const char *bcast_attr_name(bcast_attr attr) {
  return (unsigned)attr < BCAST_ATTR_COUNT ? attr_names[attr].name : NULL;
}

const char *bcast_attr_default(bcast_attr attr) {
  return (unsigned)attr < BCAST_ATTR_COUNT ? attr_names[attr].default_text
                                           : NULL;
}

const char *bcast_attr_summary(bcast_attr attr) {
  return (unsigned)attr < BCAST_ATTR_COUNT ? attr_names[attr].summary : NULL;
}

const char *bcast_op_result_rule_text(bcast_op_result_rule rule) {
  switch (rule) {
  case BCAST_RESULT_SAME:
    return "the input type (numpy: the promoted type)";
  case BCAST_RESULT_BOOL:
    return "bool";
  case BCAST_RESULT_MUL:
    return "the input type (tosa: int8, int16 -> int32)";
  case BCAST_RESULT_CAST:
    return "the attribute 'to'";
  case BCAST_RESULT_TRUE_DIV:
    return "float (integers and bool: float64)";
  }
  return NULL;
}

static int same_text(const char *a, size_t len, const char *b) {
  return b && strlen(b) == len && memcmp(a, b, len) == 0;
}

bcast_status bcast_attr_lookup(const char *name, size_t len, bcast_attr *out) {
  if (!name || !out) return BCAST_INVALID_ARGUMENT;
  for (int a = 0; a < BCAST_ATTR_COUNT; a++)
    if (same_text(name, len, attr_names[a].name) ||
        same_text(name, len, attr_names[a].alias)) {
      *out = (bcast_attr)a;
      return BCAST_OK;
    }
  return BCAST_INVALID_ARGUMENT;
}

int bcast_op_reads_attr(bcast_op op, bcast_attr attr) {
  if ((unsigned)op >= BCAST_OP_COUNT || (unsigned)attr >= BCAST_ATTR_COUNT)
    return 0;
  return (bcast_op_get(op)->attrs >> attr) & 1u;
}
