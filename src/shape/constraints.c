/* Run-time constraints: what inference leaves to be checked when sizes are
 * known.  bcast__axis_analyze below is the one place that decides it; the
 * public constraint list, bcast_explain and the lowering read its answer. */
#include <stdio.h>
#include <string.h>

#include "core/diag.h"
#include "shape/shape_internal.h"

/* Operand k's dim at aligned axis a, or 1 where it has none. */
static int64_t dim_at(bcast__shapes ops, int32_t out_rank, int32_t a, size_t k,
                      int32_t *i_out) {
  const bcast_shape *s = bcast__shape_at(ops, k);
  int32_t i = bcast__own_axis(s, out_rank, a);
  *i_out = i;
  return i < 0 ? 1 : s->dims[i];
}

/* Whether operand k's dynamic dim d repeats a named symbol an earlier
 * operand already has at this axis (one check covers both). */
static int repeats_symbol(bcast__shapes ops, int32_t out_rank, int32_t a,
                          size_t k, int64_t d) {
  if (d == BCAST_DIM_DYNAMIC) return 0;
  int32_t i;
  for (size_t j = 0; j < k; j++)
    if (dim_at(ops, out_rank, a, j, &i) == d) return 1;
  return 0;
}

static void record(bcast__shapes ops, int32_t out_rank, int32_t a, size_t j,
                   size_t k, bcast_constraint *constraints,
                   size_t max_constraints, size_t *n_constraints) {
  if (*n_constraints < max_constraints) {
    bcast_constraint *c = &constraints[*n_constraints];
    c->axis = a;
    c->operand[0] = (int)j;
    c->operand[1] = (int)k;
    c->size[0] = dim_at(ops, out_rank, a, j, &c->operand_axis[0]);
    c->size[1] = dim_at(ops, out_rank, a, k, &c->operand_axis[1]);
  }
  (*n_constraints)++;
}

/* The checks at axis a, each a pair of operands (j < k, in order of k then
 * j).  All non-1 sizes at the axis must be equal.  With a static size > 1
 * there (the anchor: the first operand that has one), each dynamic dim
 * must be 1 or that size: one check per dynamic dim against the anchor.
 * Without one, any of the dynamic dims may be 1, so no single dim can stand
 * for the others: every two dynamic dims that are not one symbol need
 * their own check (a pivot is not enough: with [m] [n] [?], m = 1 passes
 * m~n and m~?, while n = 2, ? = 3 does not broadcast). */
static void record_axis(bcast__shapes ops, int32_t out_rank, int32_t a,
                        bcast_constraint *constraints, size_t max_constraints,
                        size_t *n_constraints) {
  int32_t i;
  size_t anchor = ops.n;
  for (size_t k = 0; k < ops.n && anchor == ops.n; k++) {
    int64_t d = dim_at(ops, out_rank, a, k, &i);
    if (!BCAST_DIM_IS_DYNAMIC(d) && d != 1) anchor = k;
  }
  for (size_t k = 0; k < ops.n; k++) {
    int64_t d = dim_at(ops, out_rank, a, k, &i);
    if (k == anchor) {
      for (size_t j = 0; j < k; j++) {
        int64_t e = dim_at(ops, out_rank, a, j, &i);
        if (BCAST_DIM_IS_DYNAMIC(e) && !repeats_symbol(ops, out_rank, a, j, e))
          record(ops, out_rank, a, j, k, constraints, max_constraints,
                 n_constraints);
      }
      continue;
    }
    if (!BCAST_DIM_IS_DYNAMIC(d) || repeats_symbol(ops, out_rank, a, k, d))
      continue;
    if (anchor < k) {
      record(ops, out_rank, a, anchor, k, constraints, max_constraints,
             n_constraints);
    } else if (anchor == ops.n) {
      for (size_t j = 0; j < k; j++) {
        int64_t e = dim_at(ops, out_rank, a, j, &i);
        if (BCAST_DIM_IS_DYNAMIC(e) && !repeats_symbol(ops, out_rank, a, j, e))
          record(ops, out_rank, a, j, k, constraints, max_constraints,
                 n_constraints);
      }
    }
  }
}

/* Whether the axis needs a run-time check: some two of its dims are
 * undecided (one dynamic, neither 1, not one named symbol).  Since
 * inference already passed, every other pair is equal or a broadcast.  The
 * fold keeps acc, the inference of the dims so far; a new dim is undecided
 * against some earlier one exactly when it is against acc. */
void bcast__axis_analyze(bcast__shapes ops, int32_t out_rank, int32_t a,
                         int64_t out_dim, bcast__axis *axis,
                         bcast_constraint *constraints, size_t max_constraints,
                         size_t *n_constraints) {
  axis->axis = a;
  axis->dim = out_dim;
  axis->needs_check = 0;
  axis->n_dynamic = 0;
  int64_t acc = 1;
  for (size_t k = 0; k < ops.n; k++) {
    int32_t i;
    int64_t d = dim_at(ops, out_rank, a, k, &i);
    axis->n_dynamic += BCAST_DIM_IS_DYNAMIC(d);
    if ((BCAST_DIM_IS_DYNAMIC(d) || BCAST_DIM_IS_DYNAMIC(acc)) && d != 1 &&
        acc != 1 && !(d == acc && d != BCAST_DIM_DYNAMIC))
      axis->needs_check = 1;
    int64_t merged = 0;
    /* Cannot fail: inference passed. */
    if (bcast_dim_infer(acc, d, &merged) == BCAST_OK) acc = merged;
  }
  if (constraints && axis->needs_check)
    record_axis(ops, out_rank, a, constraints, max_constraints, n_constraints);
}

bcast__dim_role bcast__dim_role_of(bcast__shapes ops, int32_t out_rank,
                                   const bcast__axis *axis, size_t k) {
  const bcast_shape *s = bcast__shape_at(ops, k);
  int32_t i = bcast__own_axis(s, out_rank, axis->axis);
  if (i < 0) return BCAST__DIM_ABSENT;
  int64_t d = s->dims[i], r = axis->dim;
  if (BCAST_DIM_IS_DYNAMIC(d))
    return axis->needs_check ? BCAST__DIM_CHECK : BCAST__DIM_DYNAMIC_EQUAL;
  if (d == 1 && BCAST_DIM_IS_DYNAMIC(r)) return BCAST__DIM_MAYBE_EXPANDED;
  if (d == 1 && r != 1) return BCAST__DIM_EXPANDED;
  return BCAST__DIM_EQUAL;
}

bcast_status bcast_shape_infer_constrained(
    size_t n, const bcast_shape *operands, bcast_profile profile,
    bcast_shape *out, bcast_constraint *constraints, size_t max_constraints,
    size_t *n_constraints, bcast_diag *diag) {
  *n_constraints = 0;
  bcast_status st = bcast_shape_infer(n, operands, profile, out, diag);
  if (st != BCAST_OK || out->rank == BCAST_RANK_UNRANKED) return st;
  bcast__shapes ops = bcast__shapes_of(operands, n);
  for (int32_t a = 0; a < out->rank; a++) {
    bcast__axis axis;
    bcast__axis_analyze(ops, out->rank, a, out->dims[a], &axis, constraints,
                        max_constraints, n_constraints);
  }
  return BCAST_OK;
}

/* A dim of a constraint as text: a size, a name, or where it comes from. */
static void constraint_side(char *buf, size_t cap, size_t *len, int operand,
                            int32_t axis, int64_t dim,
                            const bcast_symbols *symbols) {
  if (dim <= -2 && symbols && BCAST_DIM_SYMBOL_INDEX(dim) < symbols->count)
    bcast__append(buf, cap, len, "%s",
                  symbols->names[BCAST_DIM_SYMBOL_INDEX(dim)]);
  else if (BCAST_DIM_IS_DYNAMIC(dim))
    bcast__append(buf, cap, len, "operand #%d dim %d", operand, (int)axis);
  else
    bcast__append(buf, cap, len, "%lld", (long long)dim);
}

size_t bcast_constraint_format(const bcast_constraint *c,
                               const bcast_symbols *symbols, char *buf,
                               size_t size) {
  char a[64], b[64], text[256];
  size_t la = 0, lb = 0, len = 0;
  a[0] = b[0] = text[0] = '\0';
  constraint_side(a, sizeof a, &la, c->operand[0], c->operand_axis[0],
                  c->size[0], symbols);
  constraint_side(b, sizeof b, &lb, c->operand[1], c->operand_axis[1],
                  c->size[1], symbols);
  /* A static side is never 1 here, so only the dynamic sides may be 1. */
  int dyn_a = BCAST_DIM_IS_DYNAMIC(c->size[0]);
  int dyn_b = BCAST_DIM_IS_DYNAMIC(c->size[1]);
  if (dyn_a && dyn_b)
    bcast__append(text, sizeof text, &len, "%s == %s or %s == 1 or %s == 1", a,
                  b, a, b);
  else if (dyn_a)
    bcast__append(text, sizeof text, &len, "%s == %s or %s == 1", a, b, a);
  else
    bcast__append(text, sizeof text, &len, "%s == %s or %s == 1", b, a, b);
  if (size > 0) {
    size_t n = len < size - 1 ? len : size - 1;
    memcpy(buf, text, n);
    buf[n] = '\0';
  }
  return len;
}
