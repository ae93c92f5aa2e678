/* EVA driver: every public function of the shape core, called on every
 * input within the documented limits.
 *
 * Frama-C's EVA plugin runs main() below with abstract values: each
 * Frama_C_interval / Frama_C_make_unknown stands for all the values in its
 * range at once, so one run covers every input those ranges describe.  Zero
 * alarms means no run on such an input has undefined behaviour (no
 * out-of-bounds access, no signed overflow, no uninitialized read, no
 * invalid pointer, no division by zero, no failed libc precondition).
 *
 * What "within the documented limits" means here, i.e. the assumptions
 * (also listed in docs/proofs.md):
 *   A1  a bcast_shape's rank is BCAST_RANK_UNRANKED or 0..BCAST_MAX_RANK
 *       (bcast/shape.h); its dims are any int64_t, all of them initialized
 *       (a caller's shape is a whole value; bcast_shape_set fills rank dims
 *       and the driver makes the rest unknown, which covers that too).
 *   A2  an array argument of n elements (operands, dims, sizes, explained,
 *       constraints) really has n valid elements; the driver takes n up to
 *       N_OPS operands and up to BCAST_MAX_RANK + 1 map entries (one more
 *       than any valid map, to reach the "wrong length" errors).  EVA needs
 *       a bound on n: N_OPS = 4 operands; the code has no other operand
 *       limit, and nothing in it depends on n beyond loop counts.
 *   A3  text arguments are len readable bytes of any value, not
 *       NUL-terminated, len up to TEXT_MAX (256) bytes.
 *   A4  a bcast_symbols table has count 0..BCAST_MAX_SYMBOLS and every name
 *       a NUL-terminated string within its BCAST_SYMBOL_NAME_MAX bytes (the
 *       parser only ever writes such a table).
 *   A5  the diagnostic is NULL or a valid bcast_diag; a format buffer is
 *       NULL with size 0 or has size writable bytes.
 *   A6  a profile is one of the enum's values; the dims order is one of its
 *       two values.
 *   A7  the C library's snprintf / vsnprintf / memcpy / strcmp / memcmp /
 *       strlen behave as their ACSL specifications in Frama-C's libc say.
 */
#include "__fc_builtin.h"

#include "bcast/explicit.h"
#include "bcast/shape.h"

#define N_OPS 4
#define TEXT_MAX 256

/* Any value of an object, every byte initialized. */
#define UNKNOWN(obj) Frama_C_make_unknown((char *)&(obj), sizeof(obj))

static bcast_diag the_diag;

/* NULL or a valid diagnostic (A5). */
static bcast_diag *any_diag(void) {
  return Frama_C_nondet(0, 1) ? &the_diag : NULL;
}

/* A shape within A1. */
static void any_shape(bcast_shape *s) {
  UNKNOWN(s->dims);
  s->rank = Frama_C_int_interval(BCAST_RANK_UNRANKED, BCAST_MAX_RANK);
}

static bcast_profile any_profile(void) {
  return (bcast_profile)Frama_C_int_interval(0, BCAST_PROFILE_COUNT - 1);
}

/* A symbol table within A4: names of any bytes, each NUL-terminated. */
static void any_symbols(bcast_symbols *t) {
  UNKNOWN(t->names);
  for (int k = 0; k < BCAST_MAX_SYMBOLS; k++)
    t->names[k][BCAST_SYMBOL_NAME_MAX - 1] = '\0';
  t->count = Frama_C_int_interval(0, BCAST_MAX_SYMBOLS);
}

static char text[TEXT_MAX];
static size_t any_text(void) {
  UNKNOWN(text);
  return Frama_C_size_t_interval(0, TEXT_MAX);
}

/* N_OPS shapes within A1.  The n-ary calls below run once for each
 * operand count n = 0..N_OPS (the loop is unrolled), so that EVA sees
 * each n exactly rather than the interval 0..N_OPS. */
static bcast_shape ops[N_OPS];
static void any_ops(void) {
  for (int k = 0; k < N_OPS; k++) any_shape(&ops[k]);
}

static int64_t map[BCAST_MAX_RANK + 1];
static size_t any_map(void) {
  UNKNOWN(map);
  return Frama_C_size_t_interval(0, BCAST_MAX_RANK + 1);
}

static char out_text[BCAST_MAX_RANK * 40];
static size_t any_out_size(void) {
  return Frama_C_size_t_interval(0, sizeof out_text);
}

static void drive_names(void) {
  bcast_profile p;
  (void)bcast_profile_name((bcast_profile)Frama_C_int_interval(-8, 64));
  static const char *const names[] = {"tosa", "trait", "mlir",  "numpy",
                                      "xla",  "",      "numpyx"};
  (void)bcast_profile_parse(names[Frama_C_interval(0, 6)], &p);
}

static void drive_dim_infer(void) {
  int64_t d0, d1, out;
  UNKNOWN(d0);
  UNKNOWN(d1);
  (void)bcast_dim_infer(d0, d1, &out);
}

static void drive_shape_set(void) {
  bcast_shape s;
  int64_t dims[BCAST_MAX_RANK];
  UNKNOWN(dims);
  (void)bcast_shape_set(&s, Frama_C_int_interval(-8, 80), dims, any_diag());
  bcast_shape_set_unranked(&s);
}

static void drive_infer_verify(size_t n) {
  any_ops();
  bcast_shape out, result;
  (void)bcast_shape_infer(n, ops, any_profile(), &out, any_diag());
  any_shape(&result);
  (void)bcast_shape_verify(n, ops, &result, any_profile(), any_diag());
}

static void drive_constraints(size_t n) {
  any_ops();
  bcast_shape out;
  bcast_constraint cs[8];
  size_t count, max = Frama_C_size_t_interval(0, 8);
  bcast_symbols symbols;
  /* Any constraint at all, so that bcast_constraint_format below sees
   * every value of one (those the call stored among them). */
  UNKNOWN(cs);
  bcast_status st = bcast_shape_infer_constrained(n, ops, any_profile(), &out,
                                                  cs, max, &count, any_diag());
  if (st == BCAST_OK && count > 0 && max > 0) {
    any_symbols(&symbols);
    (void)bcast_constraint_format(&cs[0],
                                  Frama_C_nondet(0, 1) ? &symbols : NULL,
                                  out_text, any_out_size());
  }
}

static void drive_explain(size_t n) {
  any_ops();
  bcast_shape out;
  bcast_explained explained[N_OPS];
  (void)bcast_explain(n, ops, any_profile(), &out, explained, any_diag());
}

static void drive_format(void) {
  bcast_shape s;
  bcast_symbols symbols;
  any_shape(&s);
  any_symbols(&symbols);
  bcast_shape_style style =
      (bcast_shape_style)Frama_C_int_interval(0, BCAST_SHAPE_STYLE_NUMPY);
  (void)bcast_shape_format(&s, style, out_text, any_out_size());
  (void)bcast_shape_format_dims(s.rank, s.dims, style, out_text,
                                any_out_size());
  (void)bcast_shape_format_symbolic(&s, style,
                                    Frama_C_nondet(0, 1) ? &symbols : NULL,
                                    out_text, any_out_size());
  int64_t count;
  (void)bcast_shape_elem_count(&s, &count, any_diag());
}

static void drive_parse(void) {
  bcast_shape s;
  bcast_symbols symbols;
  size_t len = any_text();
  (void)bcast_shape_parse(text, len, &s, any_diag());
  /* A fresh table, then one within A4. */
  bcast_symbols_init(&symbols);
  len = any_text();
  (void)bcast_shape_parse_symbolic(text, len, &symbols, &s, any_diag());
  any_symbols(&symbols);
  len = any_text();
  (void)bcast_shape_parse_symbolic(text, len, &symbols, &s, any_diag());
}

static void drive_explicit(void) {
  bcast_shape a, b, out;
  any_shape(&a);
  any_shape(&b);
  size_t n = any_map();
  bcast_dims_order order =
      (bcast_dims_order)Frama_C_int_interval(0, BCAST_DIMS_ANY_ORDER);
  (void)bcast_broadcast_in_dim_check(&a, &b, map, n, order, any_diag());
  n = any_map();
  (void)bcast_xla_binary_shape(&a, &b, map, n, &out, any_diag());

  bcast_dim_size sizes[BCAST_MAX_RANK + 1];
  int32_t source[BCAST_MAX_RANK];
  UNKNOWN(sizes);
  n = any_map();
  (void)bcast_broadcast_in_dim_partial(
      &a, map, n, sizes, Frama_C_size_t_interval(0, BCAST_MAX_RANK + 1), &out,
      Frama_C_nondet(0, 1) ? source : NULL, any_diag());
}

int main(void) {
  drive_names();
  drive_dim_infer();
  drive_shape_set();
  for (size_t n = 0; n <= N_OPS; n++) {
    drive_infer_verify(n);
    drive_constraints(n);
    drive_explain(n);
  }
  drive_format();
  drive_parse();
  drive_explicit();
  return 0;
}
