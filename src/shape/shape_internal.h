/* Internal: a strided view over operand shapes, so the algebra can read the
 * shapes embedded in other structs (parsed MLIR types, tensors) without
 * copying them. */
#ifndef BCAST_SHAPE_INTERNAL_H
#define BCAST_SHAPE_INTERNAL_H

#include "bcast/shape.h"

/* The rule of one dimension pair, in ACSL for the proofs (docs/proofs.md):
 * two dims are incompatible when both are static, neither is 1 and they
 * differ. */
/*@ predicate bcast_incompatible(integer d0, integer d1) =
      d0 >= 0 && d1 >= 0 && d0 != 1 && d1 != 1 && d0 != d1;
 */
/* And the dim a compatible pair gives (bcast_dim_infer): a 1 yields to the
 * other dim, equal dims stay, two different dynamic dims give '?', and a
 * dynamic dim yields to a static size other than 0 and 1, but against 0
 * gives '?'. */
/*@ logic integer bcast_dim_merge(integer d0, integer d1) =
      d0 == 1 ? d1 :
      d1 == 1 ? d0 :
      d0 == d1 ? d0 :
      d0 < 0 && d1 < 0 ? BCAST_DIM_DYNAMIC :
      d0 < 0 ? (d1 == 0 ? BCAST_DIM_DYNAMIC : d1) :
      d1 < 0 ? (d0 == 0 ? BCAST_DIM_DYNAMIC : d0) :
      d0;
 */

typedef struct bcast__shapes {
  const char *base; /* address of operand 0's bcast_shape */
  size_t stride;    /* bytes from one operand's shape to the next */
  size_t n;
} bcast__shapes;

/* For the proofs, operand k of a view is bcast_operand(ops, k): what the
 * strided address means is taken, not proven (WP's memory model does not
 * read a char * as a bcast_shape *; docs/proofs.md, assumption W3), hence
 * "admit": neither analysis checks this clause, both take it. */
/*@ axiomatic bcast_view {
      logic bcast_shape *bcast_operand(bcast__shapes ops, integer k);
    }
 */
/*@ assigns \nothing;
    admit ensures \result == bcast_operand(ops, k);
 */
static inline const bcast_shape *bcast__shape_at(bcast__shapes ops, size_t k) {
  return (const bcast_shape *)(const void *)(ops.base + k * ops.stride);
}

/* Operand s's own axis under aligned axis a of a result of rank out_rank,
 * or -1 where s has no dim there (unranked, or of lower rank).  Every
 * operand dim read at an aligned axis goes through here, so each read is
 * within the operand's rank by construction. */
/*@ logic integer bcast_own{L}(bcast_shape *s, integer out_rank, integer a) =
      s->rank == BCAST_RANK_UNRANKED ? -1 :
      0 <= a - (out_rank - s->rank) < s->rank ? a - (out_rank - s->rank) : -1;
 */
/* And operand s's dim under aligned axis a, 1 where it has none (a 1 is
 * what an absent dim broadcasts as). */
/*@ logic integer bcast_aligned{L}(bcast_shape *s, integer out_rank,
                                   integer a) =
      bcast_own(s, out_rank, a) < 0 ? 1 : s->dims[bcast_own(s, out_rank, a)];
 */
/*@ requires \valid_read(s);
    requires BCAST_RANK_UNRANKED <= s->rank <= BCAST_MAX_RANK;
    requires BCAST_RANK_UNRANKED <= out_rank <= BCAST_MAX_RANK;
    requires 0 <= a <= BCAST_MAX_RANK;
    assigns \nothing;
    ensures \result == bcast_own(s, out_rank, a);
 */
static inline int32_t bcast__own_axis(const bcast_shape *s, int32_t out_rank,
                                      int32_t a) {
  if (s->rank == BCAST_RANK_UNRANKED) return -1;
  int32_t i = a - (out_rank - s->rank);
  return i >= 0 && i < s->rank ? i : -1;
}

/* Text of a size for messages: "3", "?" (snprintf into buf).  WP proves
 * the body against this contract under C11's snprintf (docs/proofs.md,
 * W2); EVA reads the body. */
/*@ requires \valid(buf + (0 .. cap - 1));
    assigns buf[0 .. cap - 1] \from dim, cap;
    assigns \result \from buf;
    ensures \result == buf;
 */
const char *bcast__dim_text(int64_t dim, char *buf, size_t cap);

static inline bcast__shapes bcast__shapes_of(const bcast_shape *shapes,
                                             size_t n) {
  bcast__shapes v = {(const char *)shapes, sizeof *shapes, n};
  return v;
}

/* The run-time check analysis, one aligned result axis at a time.  It is
 * the left fold of inference: wherever a dynamic dim meets a dim that is
 * neither 1 nor the same symbol, the pair cannot be decided before sizes
 * are known and becomes a constraint, named by the operand that set the
 * running dim and the operand being folded in.  Shape inference's
 * constraints, bcast_explain and the lowering's tensor.dim / cf.assert /
 * scf.if copies all read it. */
typedef struct bcast__axis {
  int32_t axis;    /* aligned result axis */
  int64_t dim;     /* the inferred result dim there */
  int needs_check; /* some pair here needs a run-time check */
  int n_dynamic;   /* operands with a dynamic dim here */
} bcast__axis;

/* How one operand's dim meets the result at an analyzed axis. */
typedef enum bcast__dim_role {
  BCAST__DIM_ABSENT,         /* no dim here: lower rank or unranked */
  BCAST__DIM_EQUAL,          /* static, and the result's size */
  BCAST__DIM_EXPANDED,       /* static 1 under a static result dim not 1 */
  BCAST__DIM_MAYBE_EXPANDED, /* static 1 under a dynamic result dim */
  BCAST__DIM_DYNAMIC_EQUAL,  /* dynamic, and nothing it meets can differ */
  BCAST__DIM_CHECK           /* dynamic, and needs a run-time check */
} bcast__dim_role;

/* Analyzes axis a of a result of rank out_rank whose dim there is
 * out_dim (operands already inferred compatible).  When constraints is
 * not NULL, each undecided pair is stored while *n_constraints <
 * max_constraints, and *n_constraints counts them all. */
void bcast__axis_analyze(bcast__shapes ops, int32_t out_rank, int32_t a,
                         int64_t out_dim, bcast__axis *axis,
                         bcast_constraint *constraints, size_t max_constraints,
                         size_t *n_constraints);

/* The role of operand k at an analyzed axis. */
bcast__dim_role bcast__dim_role_of(bcast__shapes ops, int32_t out_rank,
                                   const bcast__axis *axis, size_t k);

bcast_status bcast__shape_infer(bcast__shapes ops, bcast_profile profile,
                                bcast_shape *out, bcast_diag *diag);
bcast_status bcast__shape_verify(bcast__shapes ops, const bcast_shape *result,
                                 bcast_profile profile, bcast_diag *diag);

#endif
