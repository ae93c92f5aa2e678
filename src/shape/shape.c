/* The shape algebra of MLIR's Broadcastable trait: InferDim, InferShape,
 * InferResultShape and Verify, with the profiles of bcast/shape.h.
 *
 * Everything works on caller-owned fixed-capacity shapes and a few arrays
 * on the stack; nothing allocates.  Messages are formatted only on failure
 * and only when the caller passed a diagnostic. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "core/diag.h"
#include "shape/shape_internal.h"

static const char *const profile_names[] = {
#define NAME_(id, name) name,
    BCAST_PROFILE_LIST(NAME_)
#undef NAME_
};

const char *bcast_profile_name(bcast_profile profile) {
  if ((unsigned)profile >= BCAST_PROFILE_COUNT) return "unknown";
  return profile_names[profile];
}

bcast_status bcast_profile_parse(const char *name, bcast_profile *out) {
  for (int p = 0; p < BCAST_PROFILE_COUNT; p++) {
    if (strcmp(name, profile_names[p]) == 0) {
      *out = (bcast_profile)p;
      return BCAST_OK;
    }
  }
  return BCAST_INVALID_ARGUMENT;
}

bcast_status bcast_shape_set(bcast_shape *shape, int32_t rank,
                             const int64_t *dims, bcast_diag *diag) {
  if (rank < 0 || rank > BCAST_MAX_RANK)
    return bcast__fail(diag, BCAST_RANK_LIMIT,
                       "rank %d is outside the supported range 0..%d",
                       (int)rank, BCAST_MAX_RANK);
  shape->rank = rank;
  if (rank > 0) memcpy(shape->dims, dims, (size_t)rank * sizeof dims[0]);
  return BCAST_OK;
}

void bcast_shape_set_unranked(bcast_shape *shape) {
  shape->rank = BCAST_RANK_UNRANKED;
}

/* MLIR's getBroadcastedShape rule for one dimension, which is the trait
 * document's InferDim table extended to size 0 and to named symbols:
 * a dynamic dim yields to a static size > 1, a 1 yields to anything, and two
 * dynamic dims stay dynamic (the same symbol stays that symbol). */
/*@ requires \valid(out);
    assigns *out;
    ensures status: \result == BCAST_OK || \result == BCAST_INCOMPATIBLE;
    ensures error_iff: \result == BCAST_INCOMPATIBLE <==>
                         bcast_incompatible(dim0, dim1);
    ensures one_yields: \result == BCAST_OK && dim0 == 1 ==> *out == dim1;
    ensures yields_one: \result == BCAST_OK && dim1 == 1 ==> *out == dim0;
    ensures same: \result == BCAST_OK && dim0 == dim1 ==> *out == dim0;
    ensures dyn_static: dim0 < 0 && dim1 > 1 ==> *out == dim1;
    ensures static_dyn: dim0 > 1 && dim1 < 0 ==> *out == dim0;
    ensures dyn_zero: (dim0 < 0 && dim1 == 0) || (dim0 == 0 && dim1 < 0) ==>
                      *out == BCAST_DIM_DYNAMIC;
    ensures two_dyn: dim0 < 0 && dim1 < 0 && dim0 != dim1 ==>
                     *out == BCAST_DIM_DYNAMIC;
    ensures merge: \result == BCAST_OK ==> *out == bcast_dim_merge(dim0, dim1);
 */
bcast_status bcast_dim_infer(int64_t dim0, int64_t dim1, int64_t *out) {
  if (BCAST_DIM_IS_DYNAMIC(dim0) || BCAST_DIM_IS_DYNAMIC(dim1)) {
    if (dim0 > 1)
      *out = dim0;
    else if (dim1 > 1)
      *out = dim1;
    else if (dim0 == 1)
      *out = dim1;
    else if (dim1 == 1)
      *out = dim0;
    else if (dim0 == dim1)
      *out = dim0;
    else
      *out = BCAST_DIM_DYNAMIC;
    return BCAST_OK;
  }
  if (dim0 == dim1 || dim1 == 1) {
    *out = dim0;
    return BCAST_OK;
  }
  if (dim0 == 1) {
    *out = dim1;
    return BCAST_OK;
  }
  return BCAST_INCOMPATIBLE;
}

/* Appends one dim as text: a size, a symbol's name, or '?'. */
static void append_dim(char *buf, size_t cap, size_t *len, int64_t dim,
                       const bcast_symbols *symbols) {
  if (dim <= -2 && symbols && BCAST_DIM_SYMBOL_INDEX(dim) < symbols->count)
    bcast__append(buf, cap, len, "%s",
                  symbols->names[BCAST_DIM_SYMBOL_INDEX(dim)]);
  else if (BCAST_DIM_IS_DYNAMIC(dim))
    bcast__append(buf, cap, len, "?");
  else
    bcast__append(buf, cap, len, "%lld", (long long)dim);
}

/* The text of rank dims (or of an unranked shape) in a style, measured into
 * a local buffer large enough for any shape and then copied, so the return
 * value is the full length even when buf is short. */
static size_t format_dims(int32_t rank, const int64_t *dims,
                          bcast_shape_style style,
                          const bcast_symbols *symbols, char *buf,
                          size_t size) {
  char text[BCAST_MAX_RANK * (BCAST_SYMBOL_NAME_MAX + 2) + 4];
  size_t len = 0;
  text[0] = '\0';
  if (rank > BCAST_MAX_RANK) rank = BCAST_MAX_RANK;
  if (rank == BCAST_RANK_UNRANKED) {
    bcast__append(text, sizeof text, &len, "*");
  } else if (style == BCAST_SHAPE_STYLE_LIST) {
    bcast__append(text, sizeof text, &len, "[");
    for (int32_t i = 0; i < rank; i++) {
      if (i) bcast__append(text, sizeof text, &len, ",");
      append_dim(text, sizeof text, &len, dims[i], symbols);
    }
    bcast__append(text, sizeof text, &len, "]");
  } else if (style == BCAST_SHAPE_STYLE_NUMPY) {
    /* A one-element tuple keeps its trailing comma: "(4,)". */
    bcast__append(text, sizeof text, &len, "(");
    for (int32_t i = 0; i < rank; i++) {
      if (i) bcast__append(text, sizeof text, &len, ", ");
      append_dim(text, sizeof text, &len, dims[i], symbols);
    }
    bcast__append(text, sizeof text, &len, rank == 1 ? ",)" : ")");
  } else {
    for (int32_t i = 0; i < rank; i++) {
      if (i) bcast__append(text, sizeof text, &len, "x");
      append_dim(text, sizeof text, &len, dims[i], symbols);
    }
  }
  if (size > 0) {
    size_t n = len < size - 1 ? len : size - 1;
    memcpy(buf, text, n);
    buf[n] = '\0';
  }
  return len;
}

size_t bcast_shape_format(const bcast_shape *shape, bcast_shape_style style,
                          char *buf, size_t size) {
  return format_dims(shape->rank, shape->dims, style, NULL, buf, size);
}

size_t bcast_shape_format_dims(int32_t rank, const int64_t *dims,
                               bcast_shape_style style, char *buf,
                               size_t size) {
  return format_dims(rank, dims, style, NULL, buf, size);
}

size_t bcast_shape_format_symbolic(const bcast_shape *shape,
                                   bcast_shape_style style,
                                   const bcast_symbols *symbols, char *buf,
                                   size_t size) {
  return format_dims(shape->rank, shape->dims, style, symbols, buf, size);
}

/* Proven (docs/proofs.md): it succeeds exactly when the shape is ranked,
 * static and every partial product dims[0] * ... * dims[i] fits in 64 bits
 * (so a 0 after an overflowing prefix is still an overflow), and then
 * returns the product; no product is formed without its overflow check. */
/*@ logic integer bcast_product{L}(bcast_shape *s, integer n) =
      n <= 0 ? 1 : bcast_product(s, n - 1) * s->dims[n - 1];
    lemma bcast_product_next{L}: \forall bcast_shape *s, integer n;
      n >= 0 ==> bcast_product(s, n + 1) == bcast_product(s, n) * s->dims[n];
    predicate bcast_fits(integer v) = INT64_MIN <= v <= INT64_MAX;
    predicate bcast_countable{L}(bcast_shape *s) =
      s->rank >= 0 &&
      (\forall integer i; 0 <= i < s->rank ==> s->dims[i] >= 0) &&
      (\forall integer i; 1 <= i <= s->rank ==>
         bcast_fits(bcast_product(s, i)));
 */
/* The contract speaks of the shape as it was on entry ({Pre}): the
 * diagnostic and *out are written, and nothing says either is apart from
 * the shape when diag is NULL. */
/*@ requires \valid_read(shape) && \valid(out);
    requires BCAST_RANK_UNRANKED <= shape->rank <= BCAST_MAX_RANK;
    requires diag == \null || (\valid(diag) && \separated(diag, shape, out));
    assigns *out, *diag;
    ensures ok_iff: \result == BCAST_OK <==> bcast_countable{Pre}(shape);
    ensures count: \result == BCAST_OK ==>
      *out == bcast_product{Pre}(shape, \at(shape->rank, Pre));
 */
bcast_status bcast_shape_elem_count(const bcast_shape *shape, int64_t *out,
                                    bcast_diag *diag) {
  if (shape->rank == BCAST_RANK_UNRANKED)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "an unranked shape has no element count");
  int64_t count = 1;
  /*@ loop invariant 0 <= i <= shape->rank;
      loop invariant shape->rank == \at(shape->rank, Pre);
      loop invariant \forall integer p; 0 <= p < i ==>
                       \at(shape->dims[p], Pre) >= 0;
      loop invariant \forall integer p; 1 <= p <= i ==>
                       bcast_fits(bcast_product{Pre}(shape, p));
      loop invariant count == bcast_product{Pre}(shape, i);
      loop assigns i, count; */
  for (int32_t i = 0; i < shape->rank; i++) {
    int64_t d = shape->dims[i];
    if (BCAST_DIM_IS_DYNAMIC(d))
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "dim %d is dynamic; the element count is unknown",
                         (int)i);
    if (__builtin_mul_overflow(count, d, &count))
      return bcast__fail(diag, BCAST_OVERFLOW,
                         "the element count overflows 64 bits at dim %d",
                         (int)i);
  }
  *out = count;
  return BCAST_OK;
}

const char *bcast__dim_text(int64_t dim, char *buf, size_t cap) {
  if (BCAST_DIM_IS_DYNAMIC(dim))
    snprintf(buf, cap, "?");
  else
    snprintf(buf, cap, "%lld", (long long)dim);
  return buf;
}

/* Core of InferResultShape.
 *
 * Invariant: after processing operands 0..k, out holds the broadcast of
 * every ranked operand among them, right-aligned to the final rank, and
 * source[a] is the operand whose dim set out->dims[a] last to a value other
 * than 1 (or -1 if every operand so far had 1 there), so that a conflict can
 * name both sides.  The final rank is computed first so that axes in
 * messages are in the result's numbering from the start.
 *
 * A conflict names operand j (size dj at aligned axis a; j is -1 only
 * where the running dim is still the initial 1, which conflicts with
 * nothing) and operand k (its dim i, size d).  The WP proofs take its
 * contract (docs/proofs.md, W1: a message helper). */
/*@ assigns *diag;
    ensures \result == BCAST_INCOMPATIBLE;
 */
static bcast_status incompatible(bcast__shapes ops, int32_t rank, int j,
                                 int64_t dj, size_t k, int32_t i, int64_t d,
                                 int32_t a, bcast_diag *diag) {
  if (!diag) return BCAST_INCOMPATIBLE;
  int32_t j_axis =
      j < 0 ? -1 : bcast__own_axis(bcast__shape_at(ops, (size_t)j), rank, a);
  char s0[24], s1[24];
  bcast__fail(diag, BCAST_INCOMPATIBLE,
              "at broadcast dim %d: operand #%d dim %d (size %s) is "
              "incompatible with operand #%zu dim %d (size %s)",
              (int)a, j, (int)j_axis, bcast__dim_text(dj, s0, sizeof s0), k,
              (int)i, bcast__dim_text(d, s1, sizeof s1));
  bcast__locate(diag, j, j_axis, dj, (int)k, i, d, a);
  bcast__mlir_message(diag, 1,
                      "operands don't have broadcast-compatible shapes");
  return BCAST_INCOMPATIBLE;
}

/* What inference keeps at each aligned axis besides the running dim:
 * source[a] as above; under NumPy's rule (static_sizes below) the first
 * operand with a static size other than 1 there, static_source[a], and
 * that size, static_size[a] (1 while there is none). */
typedef struct fold_track {
  int source[BCAST_MAX_RANK];
  int static_source[BCAST_MAX_RANK];
  int64_t static_size[BCAST_MAX_RANK];
} fold_track;

/* Where fold_operand stopped: the aligned axis, and whether the conflict
 * is NumPy's static check rather than the pair rule. */
typedef struct fold_conflict {
  int32_t axis; /* aligned axis */
  int32_t own;  /* the operand's own axis there */
  int against_static;
} fold_conflict;

/*@ predicate bcast_static_size(integer d) = d >= 0 && d != 1;
    logic integer bcast_static_at{L}(fold_track *t, integer a) =
      t->static_size[a];
    logic integer bcast_entry_at{L}(int64_t *p, integer a) = p[a];
 */
/* The kernel of N-ary inference: folds operand k (shape s, of rank at
 * most rank) into dims, the running result, one aligned axis at a time
 * with bcast_dim_infer; under static_sizes also checks s's static sizes
 * other than 1 against the first one seen at each axis.  On a conflict it
 * returns BCAST_INCOMPATIBLE with *c naming the axis, where nothing was
 * changed yet (the caller words the message from what is kept there). */
/*@ requires s: \valid_read(s) && BCAST_RANK_UNRANKED <= s->rank <= rank;
    requires rank: 0 <= rank <= BCAST_MAX_RANK && k >= 0;
    requires out: \valid(dims + (0 .. BCAST_MAX_RANK - 1)) && \valid(t) &&
                  \valid(c);
    requires apart: \separated(dims + (0 .. BCAST_MAX_RANK - 1), t, c, s) &&
                    \separated(t, c, s) && \separated(c, s);
    requires tracked: \forall integer a; 0 <= a < rank ==>
      (t->static_source[a] < 0 <==> t->static_size[a] == 1) &&
      (t->static_size[a] == 1 || bcast_static_size(t->static_size[a]));
    assigns dims[0 .. BCAST_MAX_RANK - 1], *t, *c;
    ensures status: \result == BCAST_OK || \result == BCAST_INCOMPATIBLE;
    ensures folded: \result == BCAST_OK ==> \forall integer a; 0 <= a < rank ==>
      \old(!bcast_incompatible(dims[a], bcast_aligned(s, rank, a))) &&
      dims[a] == \old(bcast_dim_merge(dims[a], bcast_aligned(s, rank, a)));
    ensures tracked: \result == BCAST_OK ==> \forall integer a; 0 <= a < rank ==>
      (t->static_source[a] < 0 <==> t->static_size[a] == 1) &&
      (static_sizes && \old(t->static_size[a]) == 1 &&
       \old(bcast_static_size(bcast_aligned(s, rank, a))) ==>
         t->static_size[a] == \old(bcast_aligned(s, rank, a))) &&
      (!(static_sizes && \old(t->static_size[a]) == 1 &&
         \old(bcast_static_size(bcast_aligned(s, rank, a)))) ==>
         t->static_size[a] == \old(t->static_size[a]));
    ensures statics: \result == BCAST_OK && static_sizes ==>
      \forall integer a; 0 <= a < rank ==>
        \old(bcast_static_size(bcast_aligned(s, rank, a)) &&
              t->static_size[a] != 1 ==>
              t->static_size[a] == bcast_aligned(s, rank, a));
    ensures conflict: \result == BCAST_INCOMPATIBLE ==>
      0 <= c->axis < rank && c->own == bcast_own{Pre}(s, rank, c->axis) &&
      0 <= c->own < s->rank &&
      dims[c->axis] == bcast_entry_at{Pre}(dims, c->axis) &&
      (c->against_static == 0 ==> bcast_incompatible(
         bcast_entry_at{Pre}(dims, c->axis),
         bcast_aligned{Pre}(s, rank, c->axis))) &&
      (c->against_static != 0 ==> static_sizes &&
         bcast_static_at{Pre}(t, c->axis) != 1 &&
         bcast_static_size(bcast_aligned{Pre}(s, rank, c->axis)) &&
         bcast_static_at{Pre}(t, c->axis) !=
           bcast_aligned{Pre}(s, rank, c->axis));
 */
static bcast_status fold_operand(const bcast_shape *s, int k, int32_t rank,
                                 int static_sizes, int64_t *dims,
                                 fold_track *t, fold_conflict *c) {
  /*@ loop invariant 0 <= a <= rank;
      loop invariant \forall integer e; 0 <= e < a ==>
        !bcast_incompatible(\at(dims[e], Pre), bcast_aligned{Pre}(s, rank, e)) &&
        dims[e] == bcast_dim_merge(\at(dims[e], Pre),
                                   bcast_aligned{Pre}(s, rank, e)) &&
        (t->static_source[e] < 0 <==> t->static_size[e] == 1) &&
        (static_sizes && \at(t->static_size[e], Pre) == 1 &&
         bcast_static_size(bcast_aligned{Pre}(s, rank, e)) ==>
           t->static_size[e] == bcast_aligned{Pre}(s, rank, e)) &&
        (!(static_sizes && \at(t->static_size[e], Pre) == 1 &&
           bcast_static_size(bcast_aligned{Pre}(s, rank, e))) ==>
           t->static_size[e] == \at(t->static_size[e], Pre)) &&
        (static_sizes && bcast_static_size(bcast_aligned{Pre}(s, rank, e)) &&
         \at(t->static_size[e], Pre) != 1 ==>
         \at(t->static_size[e], Pre) == bcast_aligned{Pre}(s, rank, e));
      loop invariant \forall integer e; a <= e < BCAST_MAX_RANK ==>
        dims[e] == \at(dims[e], Pre) &&
        t->static_size[e] == \at(t->static_size[e], Pre) &&
        t->static_source[e] == \at(t->static_source[e], Pre) &&
        t->source[e] == \at(t->source[e], Pre);
      loop invariant s->rank == \at(s->rank, Pre) &&
        \forall integer e; 0 <= e < BCAST_MAX_RANK ==>
          s->dims[e] == \at(s->dims[e], Pre);
      loop assigns a, dims[0 .. BCAST_MAX_RANK - 1], *t; */
  for (int32_t a = 0; a < rank; a++) {
    int32_t i = bcast__own_axis(s, rank, a);
    if (i < 0) continue;
    int64_t d = s->dims[i];
    int64_t merged = 0;
    if (bcast_dim_infer(dims[a], d, &merged) != BCAST_OK) {
      c->axis = a;
      c->own = i;
      c->against_static = 0;
      return BCAST_INCOMPATIBLE;
    }
    if (static_sizes && d >= 0 && d != 1) {
      if (t->static_source[a] < 0) {
        t->static_source[a] = k;
        t->static_size[a] = d;
      } else if (t->static_size[a] != d) {
        c->axis = a;
        c->own = i;
        c->against_static = 1;
        return BCAST_INCOMPATIBLE;
      }
    }
    if (d != 1 && merged == d) t->source[a] = k;
    dims[a] = merged;
  }
  return BCAST_OK;
}

/* The rank inference gives: the largest rank among the ranked operands,
 * unranked when none is; the result dims as the left fold of the rule over
 * the operands in order, each dim an operand does not have counting as 1;
 * and where that fold meets an incompatible pair (the MLIR profiles'
 * error), or two operands have different static sizes other than 1 at one
 * axis (NumPy's). */
/*@ logic integer bcast_max_rank{L}(bcast__shapes ops, integer n) =
      n <= 0 ? BCAST_RANK_UNRANKED :
      \max(bcast_max_rank(ops, n - 1), bcast_operand(ops, n - 1)->rank);
    lemma bcast_max_rank_next{L}: \forall bcast__shapes ops, integer n;
      n >= 0 ==> bcast_max_rank(ops, n + 1) ==
        \max(bcast_max_rank(ops, n), bcast_operand(ops, n)->rank);
    logic integer bcast_fold{L}(bcast__shapes ops, integer n, integer rank,
                                integer a) =
      n <= 0 ? 1 :
      bcast_dim_merge(bcast_fold(ops, n - 1, rank, a),
                      bcast_aligned(bcast_operand(ops, n - 1), rank, a));
    lemma bcast_fold_next{L}: \forall bcast__shapes ops, integer n, rank, a;
      n >= 0 ==> bcast_fold(ops, n + 1, rank, a) ==
        bcast_dim_merge(bcast_fold(ops, n, rank, a),
                        bcast_aligned(bcast_operand(ops, n), rank, a));
    predicate bcast_fold_clash{L}(bcast__shapes ops, integer n,
                                  integer rank) =
      \exists integer k, a; 0 <= k < n && 0 <= a < rank &&
        bcast_incompatible(bcast_fold(ops, k, rank, a),
                           bcast_aligned(bcast_operand(ops, k), rank, a));
    predicate bcast_static_clash{L}(bcast__shapes ops, integer n,
                                    integer rank) =
      \exists integer j, k, a; 0 <= j < k < n && 0 <= a < rank &&
        bcast_incompatible(bcast_aligned(bcast_operand(ops, j), rank, a),
                           bcast_aligned(bcast_operand(ops, k), rank, a));
 */
/* static_sizes: also refuse two static sizes other than 1 that differ
 * anywhere among the operands, which the pairwise fold misses when a
 * dynamic dim met a 0 between them ((?,) (0,) (2,)): NumPy's N-ary rule.
 * MLIR's fold (the other profiles) accepts that.
 *
 * That the view's operands are valid shapes within A1, apart from out and
 * diag, is taken ("admit"), as what its strided addresses mean is taken
 * (W3 of docs/proofs.md); EVA checks every read through the view itself. */
/*@ requires count: ops.n <= INT_MAX;
    admit requires view: \forall integer k; 0 <= k < ops.n ==>
      \valid_read(bcast_operand(ops, k)) &&
      BCAST_RANK_UNRANKED <= bcast_operand(ops, k)->rank <= BCAST_MAX_RANK &&
      \separated(bcast_operand(ops, k), out) &&
      \separated(bcast_operand(ops, k), diag);
    requires out: \valid(out) && \separated(out, diag);
    requires diag: diag == \null || \valid(diag);
    assigns *out, *diag;
    ensures status: \result == BCAST_OK || \result == BCAST_INCOMPATIBLE;
    ensures rank: out->rank == bcast_max_rank{Pre}(ops, ops.n);
    ensures dims: \result == BCAST_OK ==> \forall integer a; 0 <= a < out->rank ==>
      out->dims[a] == bcast_fold{Pre}(ops, ops.n, out->rank, a);
    ensures mlir: !static_sizes ==>
      (\result == BCAST_INCOMPATIBLE <==>
       bcast_fold_clash{Pre}(ops, ops.n, out->rank));
    ensures numpy: static_sizes ==>
      (\result == BCAST_INCOMPATIBLE <==>
       bcast_static_clash{Pre}(ops, ops.n, out->rank));
 */
static bcast_status infer_shape(bcast__shapes ops, int static_sizes,
                                bcast_shape *out, bcast_diag *diag) {
  int32_t rank = BCAST_RANK_UNRANKED;
  /*@ loop invariant 0 <= k <= ops.n;
      loop invariant rank == bcast_max_rank(ops, k);
      loop invariant BCAST_RANK_UNRANKED <= rank <= BCAST_MAX_RANK;
      loop invariant \forall integer j; 0 <= j < k ==>
        bcast_operand(ops, j)->rank <= rank;
      loop assigns k, rank; */
  for (size_t k = 0; k < ops.n; k++) {
    int32_t r = bcast__shape_at(ops, k)->rank;
    if (r == BCAST_RANK_UNRANKED) continue;
    if (r < 0 || r > BCAST_MAX_RANK)
      return bcast__fail(diag, BCAST_RANK_LIMIT,
                         "operand #%zu has rank %d, outside 0..%d", k, (int)r,
                         BCAST_MAX_RANK);
    if (r > rank) rank = r;
  }
  /* All BCAST_MAX_RANK entries, whatever the rank: out's dims past its
   * rank are 1. */
  fold_track t;
  /*@ loop invariant 0 <= a <= BCAST_MAX_RANK;
      loop invariant \forall integer e; 0 <= e < a ==>
        out->dims[e] == 1 && t.static_size[e] == 1 &&
        t.static_source[e] == -1;
      loop assigns a, out->dims[0 .. BCAST_MAX_RANK - 1], t; */
  for (int32_t a = 0; a < BCAST_MAX_RANK; a++) {
    out->dims[a] = t.static_size[a] = 1;
    t.source[a] = t.static_source[a] = -1;
  }
  out->rank = rank;
  if (rank == BCAST_RANK_UNRANKED) return BCAST_OK;
  /*@ loop invariant 0 <= k <= ops.n;
      loop invariant out->rank == rank;
      loop invariant \forall integer j, e; 0 <= j < ops.n &&
        0 <= e < BCAST_MAX_RANK ==>
        bcast_operand(ops, j)->rank == \at(bcast_operand(ops, j)->rank, Pre) &&
        bcast_operand(ops, j)->dims[e] ==
          \at(bcast_operand(ops, j)->dims[e], Pre);
      loop invariant \forall integer a; 0 <= a < rank ==>
        out->dims[a] == bcast_fold{Pre}(ops, k, rank, a) &&
        (t.static_source[a] < 0 <==> t.static_size[a] == 1) &&
        (t.static_size[a] == 1 || bcast_static_size(t.static_size[a]));
      loop invariant !static_sizes ==> !bcast_fold_clash{Pre}(ops, k, rank);
      loop invariant static_sizes ==> !bcast_static_clash{Pre}(ops, k, rank);
      loop invariant static_sizes ==> \forall integer a; 0 <= a < rank ==>
        (\forall integer j; 0 <= j < k &&
           bcast_static_size(bcast_aligned{Pre}(bcast_operand(ops, j), rank, a))
           ==> bcast_aligned{Pre}(bcast_operand(ops, j), rank, a) ==
               t.static_size[a]) &&
        (bcast_static_size(out->dims[a]) ==> out->dims[a] == t.static_size[a]);
      loop invariant static_sizes ==> \forall integer a; 0 <= a < rank ==>
        t.static_size[a] != 1 ==> \exists integer j; 0 <= j < k &&
          bcast_aligned{Pre}(bcast_operand(ops, j), rank, a) ==
          t.static_size[a];
      loop assigns k, out->dims[0 .. BCAST_MAX_RANK - 1], t; */
  for (size_t k = 0; k < ops.n; k++) {
    const bcast_shape *s = bcast__shape_at(ops, k);
    /*@ assert unchanged: \forall integer a; 0 <= a < rank ==>
          bcast_aligned(s, rank, a) == bcast_aligned{Pre}(s, rank, a); */
    fold_conflict c;
    bcast_status folded =
        fold_operand(s, (int)k, rank, static_sizes, out->dims, &t, &c);
    /*@ assert rank_kept: out->rank == rank; */
    if (folded == BCAST_OK) {
      /*@ assert new_pairs: static_sizes ==> \forall integer j, a;
            0 <= j < k && 0 <= a < rank ==> !bcast_incompatible(
              bcast_aligned{Pre}(bcast_operand(ops, j), rank, a),
              bcast_aligned{Pre}(bcast_operand(ops, k), rank, a)); */
      continue;
    }
    /*@ assert clash: !static_sizes ==> bcast_incompatible(
          bcast_fold{Pre}(ops, k, rank, c.axis),
          bcast_aligned{Pre}(bcast_operand(ops, k), rank, c.axis)); */
    /*@ assert clash_n: !static_sizes ==>
          bcast_fold_clash{Pre}(ops, ops.n, rank); */
    /*@ assert static_clash: static_sizes ==> \exists integer j; 0 <= j < k &&
          bcast_incompatible(
            bcast_aligned{Pre}(bcast_operand(ops, j), rank, c.axis),
            bcast_aligned{Pre}(bcast_operand(ops, k), rank, c.axis)); */
    /*@ assert static_clash_n: static_sizes ==>
          bcast_static_clash{Pre}(ops, ops.n, rank); */
    int32_t a = c.axis, i = c.own;
    if (c.against_static)
      return incompatible(ops, rank, t.static_source[a], t.static_size[a], k,
                          i, s->dims[i], a, diag);
    return incompatible(ops, rank, t.source[a], out->dims[a], k, i, s->dims[i],
                        a, diag);
  }
  return BCAST_OK;
}

/* TOSA and XLA: every ranked operand must have the rank of the first. */
static bcast_status check_equal_ranks(bcast__shapes ops, bcast_profile profile,
                                      bcast_diag *diag) {
  const bcast_shape *f = NULL; /* the first ranked operand, number first */
  size_t first = 0;
  for (size_t k = 0; k < ops.n; k++) {
    const bcast_shape *s = bcast__shape_at(ops, k);
    if (s->rank == BCAST_RANK_UNRANKED) continue;
    /* XLA broadcasts scalars over anything without being asked. */
    if (profile == BCAST_PROFILE_XLA && s->rank == 0) continue;
    if (!f) {
      f = s;
      first = k;
      continue;
    }
    if (s->rank != f->rank) {
      if (!diag) return BCAST_RANK_MISMATCH;
      bcast__fail(
          diag, BCAST_RANK_MISMATCH,
          "operand #%zu has rank %d but operand #%zu has rank %d; the "
          "%s profile does not expand ranks (reshape the lower-rank "
          "operand to add leading 1s%s)",
          first, (int)f->rank, k, (int)s->rank, bcast_profile_name(profile),
          profile == BCAST_PROFILE_XLA ? ", or give broadcast_dimensions"
                                       : "");
      bcast__locate(diag, (int)first, BCAST_DIAG_NONE, f->rank, (int)k,
                    BCAST_DIAG_NONE, s->rank, BCAST_DIAG_NONE);
      bcast__mlir_message(diag, 1, "operands don't have matching ranks");
      return BCAST_RANK_MISMATCH;
    }
  }
  return BCAST_OK;
}

bcast_status bcast__shape_infer(bcast__shapes ops, bcast_profile profile,
                                bcast_shape *out, bcast_diag *diag) {
  bcast_status st =
      infer_shape(ops, profile == BCAST_PROFILE_NUMPY, out, diag);
  if (st != BCAST_OK) return st;
  if (profile == BCAST_PROFILE_TOSA || profile == BCAST_PROFILE_XLA)
    return check_equal_ranks(ops, profile, diag);
  return BCAST_OK;
}

/* The MLIR message for a result that does not fit the inferred shape. */
static void result_mlir_message(bcast_diag *diag, const bcast_shape *result,
                                const bcast_shape *inferred) {
  if (!diag) return;
  char r[BCAST_MAX_RANK * 21 + 4], i[BCAST_MAX_RANK * 21 + 4];
  bcast_shape_format(result, BCAST_SHAPE_STYLE_MLIR, r, sizeof r);
  bcast_shape_format(inferred, BCAST_SHAPE_STYLE_MLIR, i, sizeof i);
  bcast__mlir_message(diag, 1,
                      "result type '%s' not broadcast compatible with "
                      "broadcasted operands's shapes '%s'",
                      r, i);
}

/* Which operand set inferred dim a: the last one whose dim there is not 1
 * (or the first ranked operand that reaches it), for messages only. */
static void dim_origin(bcast__shapes ops, int32_t rank, int32_t a,
                       int *operand, int32_t *axis) {
  *operand = -1;
  *axis = -1;
  for (size_t k = 0; k < ops.n; k++) {
    const bcast_shape *s = bcast__shape_at(ops, k);
    int32_t i = bcast__own_axis(s, rank, a);
    if (i < 0) continue;
    if (*operand < 0 || s->dims[i] != 1) {
      *operand = (int)k;
      *axis = i;
    }
  }
}

static bcast_status result_dim_error(bcast__shapes ops,
                                     const bcast_shape *result,
                                     const bcast_shape *inferred,
                                     int32_t result_axis, int32_t axis,
                                     bcast_diag *diag) {
  if (!diag) return BCAST_RESULT_MISMATCH;
  int64_t want = inferred->dims[axis], got = result->dims[result_axis];
  int origin;
  int32_t origin_axis;
  dim_origin(ops, inferred->rank, axis, &origin, &origin_axis);
  char s0[24], s1[24];
  if (BCAST_DIM_IS_DYNAMIC(want)) {
    bcast__fail(
        diag, BCAST_RESULT_MISMATCH,
        "result dim %d is static (size %s) but the operands only "
        "determine it at run time (inferred '?', from operand #%d dim "
        "%d); the trait's Verify requires a static result dim to equal "
        "the inferred dim (use '?' in the result, or the mlir profile)",
        (int)result_axis, bcast__dim_text(got, s0, sizeof s0), origin,
        (int)origin_axis);
  } else {
    bcast__fail(diag, BCAST_RESULT_MISMATCH,
                "result dim %d (size %s) does not match broadcast dim %d "
                "(size %s, from operand #%d dim %d); results are never "
                "broadcast",
                (int)result_axis, bcast__dim_text(got, s0, sizeof s0),
                (int)axis, bcast__dim_text(want, s1, sizeof s1), origin,
                (int)origin_axis);
  }
  bcast__locate(diag, BCAST_DIAG_RESULT, result_axis, got, origin, origin_axis,
                want, axis);
  result_mlir_message(diag, result, inferred);
  return BCAST_RESULT_MISMATCH;
}

/* A result whose rank the inferred shape cannot match. */
static bcast_status result_rank_error(const bcast_shape *result,
                                      const bcast_shape *inferred,
                                      bcast_diag *diag) {
  if (!diag) return BCAST_RESULT_MISMATCH;
  bcast__fail(diag, BCAST_RESULT_MISMATCH,
              "result has rank %d but the operands broadcast to rank %d; "
              "results are never broadcast",
              (int)result->rank, (int)inferred->rank);
  bcast__locate(diag, BCAST_DIAG_RESULT, BCAST_DIAG_NONE, result->rank,
                BCAST_DIAG_NONE, BCAST_DIAG_NONE, inferred->rank,
                BCAST_DIAG_NONE);
  result_mlir_message(diag, result, inferred);
  return BCAST_RESULT_MISMATCH;
}

/* The trait document's Verify: equal ranks, and every static result dim
 * equal to the inferred dim. */
static bcast_status verify_result_trait(bcast__shapes ops,
                                        const bcast_shape *result,
                                        const bcast_shape *inferred,
                                        bcast_diag *diag) {
  if (result->rank != inferred->rank)
    return result_rank_error(result, inferred, diag);
  for (int32_t a = 0; a < result->rank; a++) {
    int64_t got = result->dims[a];
    if (!BCAST_DIM_IS_DYNAMIC(got) && got != inferred->dims[a])
      return result_dim_error(ops, result, inferred, a, a, diag);
  }
  return BCAST_OK;
}

/* MLIR 22: the result's trailing dims are compared with the inferred shape,
 * and a dim passes when either side is dynamic or both are equal. */
static bcast_status verify_result_mlir(bcast__shapes ops,
                                       const bcast_shape *result,
                                       const bcast_shape *inferred,
                                       bcast_diag *diag) {
  if (result->rank < inferred->rank)
    return result_rank_error(result, inferred, diag);
  for (int32_t ra = 0; ra < result->rank; ra++) {
    int32_t a = bcast__own_axis(inferred, result->rank, ra);
    if (a < 0) continue; /* a leading result dim: not compared */
    int64_t got = result->dims[ra], want = inferred->dims[a];
    if (BCAST_DIM_IS_DYNAMIC(got) || BCAST_DIM_IS_DYNAMIC(want)) continue;
    if (got != want)
      return result_dim_error(ops, result, inferred, ra, a, diag);
  }
  return BCAST_OK;
}

static int any_unranked(bcast__shapes ops) {
  for (size_t k = 0; k < ops.n; k++)
    if (bcast__shape_at(ops, k)->rank == BCAST_RANK_UNRANKED) return 1;
  return 0;
}

/* SameOperandsAndResultRank as MLIR 22 checks it (after the broadcast
 * trait): the ranked operands share one rank, and a ranked result has it. */
static bcast_status verify_ranks_tosa(bcast__shapes ops,
                                      const bcast_shape *result,
                                      bcast_diag *diag) {
  bcast_status st = check_equal_ranks(ops, BCAST_PROFILE_TOSA, diag);
  if (st != BCAST_OK) return st;
  for (size_t k = 0; k < ops.n; k++) {
    if (bcast__shape_at(ops, k)->rank == BCAST_RANK_UNRANKED) continue;
    if (result->rank == BCAST_RANK_UNRANKED ||
        result->rank == bcast__shape_at(ops, k)->rank)
      return BCAST_OK;
    if (!diag) return BCAST_RANK_MISMATCH;
    bcast__fail(diag, BCAST_RANK_MISMATCH,
                "result has rank %d but operand #%zu has rank %d; TOSA "
                "requires the result to have the operands' rank",
                (int)result->rank, k, (int)bcast__shape_at(ops, k)->rank);
    bcast__locate(diag, BCAST_DIAG_RESULT, BCAST_DIAG_NONE, result->rank,
                  (int)k, BCAST_DIAG_NONE, bcast__shape_at(ops, k)->rank,
                  BCAST_DIAG_NONE);
    bcast__mlir_message(diag, 1,
                        "result type has different rank than operands");
    return BCAST_RANK_MISMATCH;
  }
  return BCAST_OK;
}

/* TOSA forbids size-0 dims in operands and results. */
static bcast_status check_no_zero_dims(const bcast_shape *s, int operand,
                                       bcast_diag *diag) {
  if (s->rank == BCAST_RANK_UNRANKED) return BCAST_OK;
  for (int32_t i = 0; i < s->rank; i++) {
    if (s->dims[i] != 0) continue;
    if (!diag) return BCAST_INVALID_ARGUMENT;
    if (operand == BCAST_DIAG_RESULT)
      bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                  "result dim %d has size 0; TOSA requires every dim to be at "
                  "least 1",
                  (int)i);
    else
      bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                  "operand #%d dim %d has size 0; TOSA requires every dim to "
                  "be at least 1",
                  operand, (int)i);
    bcast__locate(diag, operand, i, 0, BCAST_DIAG_NONE, BCAST_DIAG_NONE, 0, i);
    if (operand == BCAST_DIAG_RESULT)
      bcast__mlir_message(diag, 1, "result #0 must be tosa-conformant tensor");
    else
      bcast__mlir_message(
          diag, 1, "operand #%d must be tosa-conformant tensor", operand);
    return BCAST_INVALID_ARGUMENT;
  }
  return BCAST_OK;
}

bcast_status bcast__shape_verify(bcast__shapes ops, const bcast_shape *result,
                                 bcast_profile profile, bcast_diag *diag) {
  bcast_status st;
  if (profile == BCAST_PROFILE_TOSA) {
    for (size_t k = 0; k < ops.n; k++)
      if ((st = check_no_zero_dims(bcast__shape_at(ops, k), (int)k, diag)) !=
          BCAST_OK)
        return st;
    if ((st = check_no_zero_dims(result, BCAST_DIAG_RESULT, diag)) != BCAST_OK)
      return st;
  }
  if (profile == BCAST_PROFILE_XLA &&
      (st = check_equal_ranks(ops, profile, diag)) != BCAST_OK)
    return st;

  bcast_shape inferred;
  if ((st = infer_shape(ops, profile == BCAST_PROFILE_NUMPY, &inferred,
                        diag)) != BCAST_OK)
    return st;

  if (result->rank != BCAST_RANK_UNRANKED &&
      inferred.rank != BCAST_RANK_UNRANKED) {
    /* An unranked operand may have any rank, so the document's rank match
     * cannot be asked of the result: the trait then checks it as MLIR 22
     * does (its traits.mlir: (3x2, 3x2, *) -> 4x3x2 passes). */
    if (profile == BCAST_PROFILE_MLIR || profile == BCAST_PROFILE_TOSA ||
        any_unranked(ops))
      st = verify_result_mlir(ops, result, &inferred, diag);
    else
      st = verify_result_trait(ops, result, &inferred, diag);
    if (st != BCAST_OK) return st;
  }
  if (profile == BCAST_PROFILE_TOSA)
    return verify_ranks_tosa(ops, result, diag);
  return BCAST_OK;
}

bcast_status bcast_shape_infer(size_t n, const bcast_shape *operands,
                               bcast_profile profile, bcast_shape *out,
                               bcast_diag *diag) {
  return bcast__shape_infer(bcast__shapes_of(operands, n), profile, out, diag);
}

bcast_status bcast_shape_verify(size_t n, const bcast_shape *operands,
                                const bcast_shape *result,
                                bcast_profile profile, bcast_diag *diag) {
  return bcast__shape_verify(bcast__shapes_of(operands, n), result, profile,
                             diag);
}
