/* Explicit broadcasting: BroadcastInDim, XLA binary composition and the
 * partial form.  All three share one check of a broadcast_dimensions map. */
#include <stdio.h>
#include <string.h>

#include "core/diag.h"
#include "shape/shape_internal.h"
#include "bcast/explicit.h"

/* The map itself, checked in StableHLO's order: one entry per operand dim
 * (C2), no repeats (C4), each in [0, out_rank) (C3, a negative entry
 * failing like one too large), and strictly increasing under XLA's rule.
 * Proven (docs/proofs.md): it accepts exactly the maps that are an
 * injection of the operand's dims into the output's, increasing when asked
 * to be. */
/*@ predicate bcast_map_valid(int64_t *dims, integer n, integer out_rank,
                              integer order) =
      (\forall integer i; 0 <= i < n ==> 0 <= dims[i] < out_rank) &&
      (\forall integer i, j; 0 <= i < j < n ==> dims[i] != dims[j]) &&
      (order == BCAST_DIMS_INCREASING ==>
         \forall integer i; 0 < i < n ==> dims[i - 1] < dims[i]);
 */
/*@ requires ranks: 0 <= operand_rank <= BCAST_MAX_RANK;
    requires map: \valid_read(dims + (0 .. n_dims - 1));
    requires diag: diag == \null ||
      (\valid(diag) && \separated(diag, dims + (0 .. n_dims - 1)));
    assigns *diag;
    ensures status: \result == BCAST_OK || \result == BCAST_INVALID_ARGUMENT;
    ensures accepted: \result == BCAST_OK ==> n_dims == operand_rank &&
      bcast_map_valid{Pre}(dims, n_dims, out_rank, order);
    ensures refused: \result != BCAST_OK ==> !(n_dims == operand_rank &&
      bcast_map_valid{Pre}(dims, n_dims, out_rank, order));
 */
static bcast_status check_map(int32_t operand_rank, int32_t out_rank,
                              const int64_t *dims, size_t n_dims,
                              bcast_dims_order order, bcast_diag *diag) {
  if (n_dims != (size_t)operand_rank)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "broadcast_dimensions has %zu entries but the operand "
                       "has rank %d; give one output dim per operand dim",
                       n_dims, (int)operand_rank);
  /* n_dims is an operand rank here, so the pairwise search is short. */
  /*@ loop invariant 1 <= i <= n_dims || n_dims == 0;
      loop invariant \forall integer p, q; 0 <= p < q < i ==>
                       dims[p] != dims[q];
      loop assigns i; */
  for (size_t i = 1; i < n_dims; i++)
    /*@ loop invariant 0 <= first <= i;
        loop invariant \forall integer p; 0 <= p < first ==>
                         dims[p] != dims[i];
        loop assigns first; */
    for (size_t first = 0; first < i; first++)
      if (dims[first] == dims[i])
        return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                           "broadcast_dimensions[%zu] and [%zu] both map to "
                           "output dim %lld",
                           first, i, (long long)dims[i]);
  /*@ loop invariant 0 <= i <= n_dims;
      loop invariant \forall integer p; 0 <= p < i ==> 0 <= dims[p] < out_rank;
      loop invariant order == BCAST_DIMS_INCREASING ==>
                       \forall integer p; 0 < p < i ==> dims[p - 1] < dims[p];
      loop assigns i; */
  for (size_t i = 0; i < n_dims; i++) {
    if (dims[i] < 0 || dims[i] >= out_rank)
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "broadcast_dimensions[%zu] = %lld is out of range "
                         "for an output of rank %d",
                         i, (long long)dims[i], (int)out_rank);
    if (order == BCAST_DIMS_INCREASING && i > 0 && dims[i] <= dims[i - 1])
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "broadcast_dimensions must be strictly increasing "
                         "(XLA's rule): [%zu] = %lld follows [%zu] = %lld "
                         "(allow any order to fold in a transpose)",
                         i, (long long)dims[i], i - 1, (long long)dims[i - 1]);
  }
  return BCAST_OK;
}

/* Proven (docs/proofs.md): BCAST_INVALID_ARGUMENT exactly when a shape is
 * unranked or the map is not an injection of the operand's dims (increasing
 * when asked); otherwise BCAST_INCOMPATIBLE exactly when some static operand
 * dim other than 1 differs from the output dim it maps to. */
/*@ requires shapes: \valid_read(operand) && \valid_read(out);
    requires ranks: BCAST_RANK_UNRANKED <= operand->rank <= BCAST_MAX_RANK &&
                    BCAST_RANK_UNRANKED <= out->rank <= BCAST_MAX_RANK;
    requires map: \valid_read(dims + (0 .. n_dims - 1));
    requires diag: diag == \null ||
      (\valid(diag) && \separated(diag, dims + (0 .. n_dims - 1), operand,
                                   out));
    assigns *diag;
    ensures injection: \result == BCAST_OK ==>
      \old(operand->rank >= 0 && out->rank >= 0 && n_dims == operand->rank &&
            bcast_map_valid(dims, n_dims, out->rank, order));
    ensures status: \result == BCAST_OK || \result == BCAST_INCOMPATIBLE ||
                    \result == BCAST_INVALID_ARGUMENT;
    ensures refused: \result == BCAST_INVALID_ARGUMENT <==>
      !\old(operand->rank >= 0 && out->rank >= 0 && n_dims == operand->rank &&
             bcast_map_valid(dims, n_dims, out->rank, order));
    ensures sizes: \result == BCAST_OK ==>
      \forall integer i; 0 <= i < n_dims ==>
        operand->dims[i] == 1 || operand->dims[i] < 0 ||
        operand->dims[i] == out->dims[dims[i]];
    ensures incompatible: \result == BCAST_INCOMPATIBLE ==>
      \exists integer i; 0 <= i < n_dims && operand->dims[i] >= 0 &&
        operand->dims[i] != 1 && operand->dims[i] != out->dims[dims[i]];
 */
bcast_status bcast_broadcast_in_dim_check(const bcast_shape *operand,
                                          const bcast_shape *out,
                                          const int64_t *dims, size_t n_dims,
                                          bcast_dims_order order,
                                          bcast_diag *diag) {
  if (operand->rank == BCAST_RANK_UNRANKED || out->rank == BCAST_RANK_UNRANKED)
    return bcast__fail(
        diag, BCAST_INVALID_ARGUMENT,
        "broadcast_in_dim needs ranked operand and output shapes");
  bcast_status st =
      check_map(operand->rank, out->rank, dims, n_dims, order, diag);
  if (st != BCAST_OK) return st;
  /* StableHLO's C5 and XLA's InferBroadcastShape: a static operand dim is
   * 1 or the size of its output dim.  A dynamic operand dim passes (it is
   * checked when tensors are bound); a static size other than 1 mapped
   * onto a dynamic output dim does not (XLA: "Input dimension should be
   * either 1 or equal to the output dimension"). */
  /*@ loop invariant 0 <= i <= n_dims;
      loop invariant \forall integer p; 0 <= p < i ==>
        operand->dims[p] == 1 || operand->dims[p] < 0 ||
        operand->dims[p] == out->dims[dims[p]];
      loop assigns i; */
  for (size_t i = 0; i < n_dims; i++) {
    int64_t to = dims[i];
    /*@ assert mapped: i < operand->rank && 0 <= to < out->rank; */
    int64_t in = operand->dims[i], o = out->dims[to];
    if (in == 1 || in == o || BCAST_DIM_IS_DYNAMIC(in)) continue;
    if (!diag) return BCAST_INCOMPATIBLE;
    char s0[24], s1[24];
    if (BCAST_DIM_IS_DYNAMIC(o))
      bcast__fail(
          diag, BCAST_INCOMPATIBLE,
          "operand dim %zu (size %s) maps to output dim %lld, which is "
          "dynamic; a static size other than 1 cannot broadcast onto "
          "a dynamic dim (XLA's rule)",
          i, bcast__dim_text(in, s0, sizeof s0), (long long)dims[i]);
    else
      bcast__fail(diag, BCAST_INCOMPATIBLE,
                  "operand dim %zu (size %s) maps to output dim %lld (size "
                  "%s); it must be 1 or %s",
                  i, bcast__dim_text(in, s0, sizeof s0), (long long)dims[i],
                  bcast__dim_text(o, s1, sizeof s1), s1);
    bcast__locate(diag, 0, (int)i, in, BCAST_DIAG_RESULT, (int)dims[i], o,
                  (int)dims[i]);
    return BCAST_INCOMPATIBLE;
  }
  return BCAST_OK;
}

/* Entry i of an array and dim i of a shape, for use at a label:
 * bcast_entry{Pre}(p, i) is p[i] on entry, with p and i read where it is
 * used. */
/*@ logic integer bcast_entry{L}(int64_t *p, integer i) = p[i];
    logic integer bcast_dim_at{L}(bcast_shape *s, integer i) = s->dims[i];
    logic integer bcast_size_dim{L}(bcast_dim_size *z, integer i) = z[i].dim;
    logic integer bcast_size_of{L}(bcast_dim_size *z, integer i) = z[i].size;
 */

/* The lower-rank operand of the XLA form placed in the higher rank
 * through its checked map: output dim dims[i] is the operand's dim i, the
 * others are 1. */
/*@ requires shapes: \valid_read(low) && \valid(placed) &&
      \separated(placed, low) &&
      \separated(placed, dims + (0 .. n_dims - 1));
    requires mapped: 0 <= high_rank <= BCAST_MAX_RANK &&
      0 <= low->rank <= BCAST_MAX_RANK &&
      n_dims == low->rank && \valid_read(dims + (0 .. n_dims - 1)) &&
      bcast_map_valid(dims, n_dims, high_rank, BCAST_DIMS_ANY_ORDER);
    assigns *placed;
    ensures rank: placed->rank == high_rank;
    ensures at_map: \forall integer i; 0 <= i < n_dims ==>
      placed->dims[\old(dims[i])] == \old(low->dims[i]);
    ensures elsewhere: \forall integer d; 0 <= d < BCAST_MAX_RANK &&
      (\forall integer i; 0 <= i < n_dims ==> \old(dims[i]) != d) ==>
      placed->dims[d] == 1;
 */
static void place_operand(const bcast_shape *low, int32_t high_rank,
                          const int64_t *dims, size_t n_dims,
                          bcast_shape *placed) {
  placed->rank = high_rank;
  /*@ loop invariant 0 <= d <= BCAST_MAX_RANK;
      loop invariant \forall integer e; 0 <= e < d ==> placed->dims[e] == 1;
      loop assigns d, placed->dims[0 .. BCAST_MAX_RANK - 1]; */
  for (int32_t d = 0; d < BCAST_MAX_RANK; d++) placed->dims[d] = 1;
  /*@ loop invariant 0 <= i <= n_dims;
      loop invariant \forall integer p; 0 <= p < i ==>
        placed->dims[\at(dims[p], Pre)] == \at(low->dims[p], Pre);
      loop invariant \forall integer e; 0 <= e < BCAST_MAX_RANK &&
        (\forall integer p; 0 <= p < i ==> \at(dims[p], Pre) != e) ==>
        placed->dims[e] == 1;
      loop assigns i, placed->dims[0 .. BCAST_MAX_RANK - 1]; */
  for (size_t i = 0; i < n_dims; i++) {
    int64_t to = dims[i];
    /*@ assert mapped: i < low->rank && 0 <= to < high_rank; */
    /*@ assert unchanged_to: to == bcast_entry{Pre}(dims, i); */
    /*@ assert unchanged_in: low->dims[i] == bcast_dim_at{Pre}(low, i); */
    placed->dims[to] = low->dims[i];
  }
}

/* Two shapes of one rank merged dim by dim (size-1 dims broadcast both
 * ways); high is operand #hi_op of the XLA form, low the other. */
/*@ requires shapes: \valid_read(high) && \valid_read(low) && \valid(out) &&
                     0 <= high->rank <= BCAST_MAX_RANK;
    requires diag: diag == \null || \valid(diag);
    requires apart: \separated(out, high) && \separated(out, low) &&
      \separated(diag, high) && \separated(diag, low) &&
      \separated(diag, out);
    assigns *out, *diag;
    ensures status: \result == BCAST_OK || \result == BCAST_INCOMPATIBLE;
    ensures incompatible: \result == BCAST_INCOMPATIBLE <==>
      \exists integer d; 0 <= d < \old(high->rank) &&
        \old(bcast_incompatible(high->dims[d], low->dims[d]));
    ensures merged: \result == BCAST_OK ==> out->rank == \old(high->rank) &&
      \forall integer d; 0 <= d < out->rank ==>
        out->dims[d] == \old(bcast_dim_merge(high->dims[d], low->dims[d]));
 */
static bcast_status merge_dims(const bcast_shape *high, const bcast_shape *low,
                               int hi_op, bcast_shape *out, bcast_diag *diag) {
  int32_t rank = high->rank;
  out->rank = rank;
  /*@ loop invariant 0 <= d <= rank;
      loop invariant out->rank == rank;
      loop invariant \forall integer e; 0 <= e < d ==>
        !bcast_incompatible(high->dims[e], low->dims[e]) &&
        out->dims[e] == bcast_dim_merge(high->dims[e], low->dims[e]);
      loop assigns d, out->dims[0 .. BCAST_MAX_RANK - 1]; */
  for (int32_t d = 0; d < rank; d++) {
    if (bcast_dim_infer(high->dims[d], low->dims[d], &out->dims[d]) ==
        BCAST_OK)
      continue;
    if (!diag) return BCAST_INCOMPATIBLE;
    char s0[24], s1[24];
    bcast__fail(diag, BCAST_INCOMPATIBLE,
                "at broadcast dim %d: operand #%d (size %s) is incompatible "
                "with operand #%d (size %s)",
                (int)d, 1 - hi_op,
                bcast__dim_text(low->dims[d], s0, sizeof s0), hi_op,
                bcast__dim_text(high->dims[d], s1, sizeof s1));
    bcast__locate(diag, 1 - hi_op, (int)d, low->dims[d], hi_op, (int)d,
                  high->dims[d], (int)d);
    return BCAST_INCOMPATIBLE;
  }
  return BCAST_OK;
}

/* The XLA form's operands: the lower-rank one (rhs for equal ranks) and
 * the other. */
/*@ logic bcast_shape *bcast_xla_low{L}(bcast_shape *lhs, bcast_shape *rhs) =
      lhs->rank < rhs->rank ? lhs : rhs;
    logic bcast_shape *bcast_xla_high{L}(bcast_shape *lhs, bcast_shape *rhs) =
      lhs->rank < rhs->rank ? rhs : lhs;
 */
/* Its map check: none for a scalar under a higher rank (a map given with
 * it is not looked at) or for equal ranks without a map; the identity for
 * equal ranks; otherwise an increasing injection of the lower rank's
 * dims. */
/*@ predicate bcast_xla_map_ok{L}(bcast_shape *low, bcast_shape *high,
                                  int64_t *dims, integer n) =
      (low->rank == 0 && high->rank != 0) ||
      (low->rank == high->rank &&
       (n == 0 || (n == low->rank &&
                   \forall integer i; 0 <= i < n ==> dims[i] == i))) ||
      (low->rank != high->rank && n == low->rank &&
       bcast_map_valid(dims, n, high->rank, BCAST_DIMS_INCREASING));
 */
/* The pairs of dims that meet: for equal ranks dim d of each; for a lower
 * rank placed through the map, the lower operand's dim i and the higher
 * one's dim dims[i] (the higher operand's other dims meet 1, and a scalar
 * meets nothing). */
/*@ predicate bcast_xla_conflict{L}(bcast_shape *low, bcast_shape *high,
                                    int64_t *dims, integer n) =
      (low->rank == high->rank &&
       \exists integer d; 0 <= d < high->rank &&
         bcast_incompatible(high->dims[d], low->dims[d])) ||
      (0 < low->rank < high->rank &&
       \exists integer i; 0 <= i < n &&
         bcast_incompatible(high->dims[dims[i]], low->dims[i]));
 */
/* Proven (docs/proofs.md), of the operands and map on entry: both ranked
 * and the map as above, or an error other than BCAST_INCOMPATIBLE; then
 * BCAST_INCOMPATIBLE exactly when some pair of dims is incompatible, and
 * otherwise the result has the higher rank and each dim the merge of its
 * pair. */
/*@ requires shapes: \valid_read(lhs) && \valid_read(rhs) && \valid(out);
    requires ranks: BCAST_RANK_UNRANKED <= lhs->rank <= BCAST_MAX_RANK &&
                    BCAST_RANK_UNRANKED <= rhs->rank <= BCAST_MAX_RANK;
    requires map: \valid_read(dims + (0 .. n_dims - 1));
    requires diag: diag == \null || \valid(diag);
    requires apart: \separated(out, lhs) && \separated(out, rhs) &&
      \separated(out, dims + (0 .. n_dims - 1)) &&
      \separated(diag, lhs) && \separated(diag, rhs) &&
      \separated(diag, out) && \separated(diag, dims + (0 .. n_dims - 1));
    assigns *out, *diag;
    ensures status: \result == BCAST_OK || \result == BCAST_INCOMPATIBLE ||
                    \result == BCAST_INVALID_ARGUMENT ||
                    \result == BCAST_RANK_MISMATCH;
    ensures accepted: \result == BCAST_OK || \result == BCAST_INCOMPATIBLE
      <==> \old(lhs->rank >= 0 && rhs->rank >= 0 &&
                bcast_xla_map_ok(bcast_xla_low(lhs, rhs),
                                 bcast_xla_high(lhs, rhs), dims, n_dims));
    ensures incompatible: \result == BCAST_OK || \result == BCAST_INCOMPATIBLE
      ==> (\result == BCAST_INCOMPATIBLE <==>
           \old(bcast_xla_conflict(bcast_xla_low(lhs, rhs),
                                   bcast_xla_high(lhs, rhs), dims, n_dims)));
    ensures rank: \result == BCAST_OK ==>
      out->rank == \old(bcast_xla_high(lhs, rhs)->rank);
    ensures equal_ranks: \result == BCAST_OK && \old(lhs->rank == rhs->rank) ==>
      \forall integer d; 0 <= d < out->rank ==>
        out->dims[d] == \old(bcast_dim_merge(lhs->dims[d], rhs->dims[d]));
    ensures scalar: \result == BCAST_OK &&
      \old(bcast_xla_low(lhs, rhs)->rank == 0) ==>
      \forall integer d; 0 <= d < out->rank ==>
        out->dims[d] == \old(bcast_xla_high(lhs, rhs)->dims[d]);
    ensures mapped: \result == BCAST_OK &&
      \old(0 < bcast_xla_low(lhs, rhs)->rank < bcast_xla_high(lhs, rhs)->rank)
      ==> \forall integer i; 0 <= i < n_dims ==>
        out->dims[\old(dims[i])] == \old(bcast_dim_merge(
          bcast_xla_high(lhs, rhs)->dims[dims[i]],
          bcast_xla_low(lhs, rhs)->dims[i]));
    ensures unmapped: \result == BCAST_OK &&
      \old(0 < bcast_xla_low(lhs, rhs)->rank < bcast_xla_high(lhs, rhs)->rank)
      ==> \forall integer d; 0 <= d < out->rank &&
        \old(\forall integer i; 0 <= i < n_dims ==> dims[i] != d) ==>
        out->dims[d] == \old(bcast_xla_high(lhs, rhs)->dims[d]);
 */
bcast_status bcast_xla_binary_shape(const bcast_shape *lhs,
                                    const bcast_shape *rhs,
                                    const int64_t *dims, size_t n_dims,
                                    bcast_shape *out, bcast_diag *diag) {
  if (lhs->rank == BCAST_RANK_UNRANKED || rhs->rank == BCAST_RANK_UNRANKED)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "XLA shapes are ranked; '*' is not accepted");
  /* Place the lower-rank operand in the higher rank. */
  int low_is_lhs = lhs->rank < rhs->rank;
  const bcast_shape *low = low_is_lhs ? lhs : rhs,
                    *high = low_is_lhs ? rhs : lhs;
  /*@ assert sides: low == bcast_xla_low(lhs, rhs) &&
                     high == bcast_xla_high(lhs, rhs); */
  /* A scalar is placed through the empty map (all 1s); another lower
   * rank through its map, checked first. */
  if (low->rank != high->rank) {
    size_t n_placed = 0;
    if (low->rank != 0) {
      if (n_dims == 0)
        return bcast__fail(diag, BCAST_RANK_MISMATCH,
                           "operands of rank %d and %d need "
                           "broadcast_dimensions in the xla profile (XLA does "
                           "not add leading 1s)",
                           (int)lhs->rank, (int)rhs->rank);
      bcast_status st = check_map(low->rank, high->rank, dims, n_dims,
                                  BCAST_DIMS_INCREASING, diag);
      if (st != BCAST_OK) return st;
      n_placed = n_dims;
    }
    bcast_shape placed;
    place_operand(low, high->rank, dims, n_placed, &placed);
    /*@ assert frame: lhs->rank == \at(lhs->rank, Pre) &&
          rhs->rank == \at(rhs->rank, Pre) &&
          (\forall integer i; 0 <= i < n_dims ==>
             dims[i] == \at(dims[i], Pre)) &&
          (\forall integer i; 0 <= i < BCAST_MAX_RANK ==>
             lhs->dims[i] == \at(lhs->dims[i], Pre) &&
             rhs->dims[i] == \at(rhs->dims[i], Pre)); */
    /*@ assert conflict: (\exists integer d; 0 <= d < high->rank &&
          bcast_incompatible(high->dims[d], placed.dims[d])) <==>
        (\exists integer i; 0 <= i < n_placed &&
          bcast_incompatible(high->dims[dims[i]], low->dims[i])); */
    return merge_dims(high, &placed, low_is_lhs ? 1 : 0, out, diag);
  }
  if (n_dims != 0) {
    /* Equal ranks: XLA allows only the identity map. */
    /*@ loop invariant 0 <= i <= n_dims;
        loop invariant i > 0 ==> n_dims == low->rank;
        loop invariant \forall integer p; 0 <= p < i ==> dims[p] == p;
        loop assigns i; */
    for (size_t i = 0; i < n_dims; i++)
      if (n_dims != (size_t)low->rank || dims[i] != (int64_t)i)
        return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                           "operands of equal rank %d take no "
                           "broadcast_dimensions other than the identity",
                           (int)low->rank);
  }
  return merge_dims(high, low, low_is_lhs ? 1 : 0, out, diag);
}

/* Proven (docs/proofs.md), of the arguments on entry: on success the map
 * is an injection of the operand's dims into the output's, the sized
 * output dims are in range and distinct and take their sizes, a mapped
 * dim without a size keeps the operand's, only a 1 (or a dynamic dim)
 * takes another size, and source[o] names an operand dim mapped to o
 * whose size output dim o has (or may have, when dynamic); and
 * BCAST_INCOMPATIBLE only when a static operand dim other than 1 is
 * given another size.  Not proven: that every output dim is mapped or
 * sized (a counting argument; the rank is counted so that it is). */
/*@ requires shapes: \valid_read(operand) && \valid(out) &&
      BCAST_RANK_UNRANKED <= operand->rank <= BCAST_MAX_RANK;
    requires map: \valid_read(dims + (0 .. n_dims - 1));
    requires sizes: \valid_read(sizes + (0 .. n_sizes - 1));
    requires source: source == \null ||
      \valid(source + (0 .. \min(n_dims + n_sizes, BCAST_MAX_RANK) - 1));
    requires diag: diag == \null || \valid(diag);
    requires apart: \separated(out, operand) &&
      \separated(out, dims + (0 .. n_dims - 1)) &&
      \separated(out, sizes + (0 .. n_sizes - 1)) &&
      \separated(diag, operand) && \separated(diag, out) &&
      \separated(diag, dims + (0 .. n_dims - 1)) &&
      \separated(diag, sizes + (0 .. n_sizes - 1)) &&
      (source == \null ||
       (\separated(source + (0 .. BCAST_MAX_RANK - 1), operand) &&
        \separated(source + (0 .. BCAST_MAX_RANK - 1), out) &&
        \separated(source + (0 .. BCAST_MAX_RANK - 1), diag) &&
        \separated(source + (0 .. BCAST_MAX_RANK - 1),
                   dims + (0 .. n_dims - 1)) &&
        \separated(source + (0 .. BCAST_MAX_RANK - 1),
                   sizes + (0 .. n_sizes - 1))));
    assigns *out, *diag, source[0 .. BCAST_MAX_RANK - 1];
    ensures status: \result == BCAST_OK || \result == BCAST_INVALID_ARGUMENT ||
      \result == BCAST_RANK_LIMIT || \result == BCAST_INCOMPATIBLE;
    ensures map: \result == BCAST_OK ==>
      0 <= out->rank <= BCAST_MAX_RANK && n_dims == \old(operand->rank) &&
      bcast_map_valid{Pre}(dims, n_dims, out->rank, BCAST_DIMS_ANY_ORDER);
    ensures sized: \result == BCAST_OK ==>
      \forall integer s; 0 <= s < n_sizes ==>
        0 <= \old(sizes[s].dim) < out->rank &&
        out->dims[\old(sizes[s].dim)] == \old(sizes[s].size) &&
        \forall integer t; s < t < n_sizes ==>
          \old(sizes[s].dim != sizes[t].dim);
    ensures kept: \result == BCAST_OK ==>
      \forall integer i; 0 <= i < n_dims &&
        \old(\forall integer s; 0 <= s < n_sizes ==>
               sizes[s].dim != dims[i]) ==>
        out->dims[\old(dims[i])] == \old(operand->dims[i]);
    ensures expands: \result == BCAST_OK ==>
      \forall integer i, s; 0 <= i < n_dims && 0 <= s < n_sizes &&
        \old(sizes[s].dim == dims[i]) ==>
        \old(operand->dims[i] == 1 || operand->dims[i] < 0 ||
              operand->dims[i] == sizes[s].size);
    ensures incompatible: \result == BCAST_INCOMPATIBLE ==>
      \exists integer i, s; 0 <= i < n_dims && 0 <= s < n_sizes &&
        \old(sizes[s].dim == dims[i] && operand->dims[i] >= 0 &&
              operand->dims[i] != 1 && operand->dims[i] != sizes[s].size);
    ensures source: \result == BCAST_OK && source != \null ==>
      \forall integer o; 0 <= o < out->rank ==> -1 <= source[o] < n_dims &&
        (source[o] >= 0 ==> bcast_entry{Pre}(dims, source[o]) == o &&
          (out->dims[o] == bcast_dim_at{Pre}(operand, source[o]) ||
           bcast_dim_at{Pre}(operand, source[o]) < 0));
 */
bcast_status bcast_broadcast_in_dim_partial(const bcast_shape *operand,
                                            const int64_t *dims, size_t n_dims,
                                            const bcast_dim_size *sizes,
                                            size_t n_sizes, bcast_shape *out,
                                            int32_t *source,
                                            bcast_diag *diag) {
  if (operand->rank == BCAST_RANK_UNRANKED)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "broadcast_in_dim needs a ranked operand");
  /* The output rank: every output dim is mapped or sized, exactly once. */
  size_t new_dims = 0; /* at most n_sizes */
  /*@ loop invariant 0 <= s <= n_sizes && new_dims <= s;
      loop assigns s, new_dims; */
  for (size_t s = 0; s < n_sizes; s++) {
    int mapped = 0;
    /*@ loop invariant 0 <= i <= n_dims;
        loop assigns i, mapped; */
    for (size_t i = 0; i < n_dims; i++) mapped |= dims[i] == sizes[s].dim;
    new_dims += !mapped;
    if (sizes[s].size < 0 && !BCAST_DIM_IS_DYNAMIC(sizes[s].size))
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "output dim %d has a negative size",
                         (int)sizes[s].dim);
  }
  /* The sum is used only when neither term is over the limit, so a sum
   * that wrapped is never taken for a small rank. */
  size_t rank = n_dims + new_dims;
  if (n_dims > BCAST_MAX_RANK || new_dims > BCAST_MAX_RANK ||
      rank > BCAST_MAX_RANK)
    return bcast__fail(diag, BCAST_RANK_LIMIT,
                       "the output would have rank %llu, over the limit of %d",
                       (unsigned long long)n_dims + new_dims, BCAST_MAX_RANK);
  bcast_status st = check_map(operand->rank, (int32_t)rank, dims, n_dims,
                              BCAST_DIMS_ANY_ORDER, diag);
  if (st != BCAST_OK) return st;
  /* The annotations below speak of the arguments as they were on entry
   * ({Pre}); each read of one is shown to be that value. */
  out->rank = (int32_t)rank;
  /* from[o]: the operand dim mapped to output dim o, or -1. */
  int32_t from[BCAST_MAX_RANK];
  /*@ loop invariant 0 <= o <= BCAST_MAX_RANK;
      loop invariant \forall integer e; 0 <= e < o ==> from[e] == -1;
      loop assigns o, from[0 .. BCAST_MAX_RANK - 1]; */
  for (int32_t o = 0; o < BCAST_MAX_RANK; o++) from[o] = -1;
  /*@ loop invariant 0 <= i <= n_dims;
      loop invariant \forall integer p; 0 <= p < i ==>
        from[bcast_entry{Pre}(dims, p)] == p &&
        out->dims[bcast_entry{Pre}(dims, p)] == bcast_dim_at{Pre}(operand, p);
      loop invariant \forall integer e; 0 <= e < BCAST_MAX_RANK ==>
        -1 <= from[e] < i &&
        (from[e] >= 0 ==> bcast_entry{Pre}(dims, from[e]) == e);
      loop invariant out->rank == rank;
      loop assigns i, from[0 .. BCAST_MAX_RANK - 1],
                   out->dims[0 .. BCAST_MAX_RANK - 1]; */
  for (size_t i = 0; i < n_dims; i++) {
    int64_t to = dims[i];
    /*@ assert mapped: i < operand->rank && 0 <= to < out->rank; */
    /*@ assert read: to == bcast_entry{Pre}(dims, i) &&
          operand->dims[i] == bcast_dim_at{Pre}(operand, i); */
    from[to] = (int32_t)i;
    out->dims[to] = operand->dims[i];
  }
  /* given[o]: the size output dim o is given, read where sized[o]. */
  int64_t given[BCAST_MAX_RANK] = {0};
  unsigned char sized[BCAST_MAX_RANK] = {0};
  /*@ loop invariant 0 <= s <= n_sizes;
      loop invariant \forall integer t; 0 <= t < s ==>
        0 <= bcast_size_dim{Pre}(sizes, t) < rank &&
        sized[bcast_size_dim{Pre}(sizes, t)] == 1 &&
        given[bcast_size_dim{Pre}(sizes, t)] == bcast_size_of{Pre}(sizes, t);
      loop invariant \forall integer t, u; 0 <= t < u < s ==>
        bcast_size_dim{Pre}(sizes, t) != bcast_size_dim{Pre}(sizes, u);
      loop invariant \forall integer e; 0 <= e < BCAST_MAX_RANK ==>
        (sized[e] == 0 || sized[e] == 1) &&
        (sized[e] == 1 ==> \exists integer t; 0 <= t < s &&
                            bcast_size_dim{Pre}(sizes, t) == e);
      loop assigns s, sized[0 .. BCAST_MAX_RANK - 1],
                   given[0 .. BCAST_MAX_RANK - 1]; */
  for (size_t s = 0; s < n_sizes; s++) {
    int32_t o = sizes[s].dim;
    /*@ assert read: o == bcast_size_dim{Pre}(sizes, s) &&
          sizes[s].size == bcast_size_of{Pre}(sizes, s); */
    if (o < 0 || o >= out->rank)
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "a size is given for output dim %d, but the output "
                         "has rank %d",
                         (int)o, (int)out->rank);
    if (sized[o])
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "output dim %d is given a size twice", (int)o);
    sized[o] = 1;
    given[o] = sizes[s].size;
  }
  /*@ loop invariant 0 <= o <= rank;
      loop invariant \forall integer e; 0 <= e < o ==>
        (sized[e] == 1 ==> out->dims[e] == given[e]) &&
        (sized[e] == 0 && from[e] >= 0 ==>
           out->dims[e] == bcast_dim_at{Pre}(operand, from[e])) &&
        (sized[e] == 1 && from[e] >= 0 ==>
           bcast_dim_at{Pre}(operand, from[e]) == 1 ||
           bcast_dim_at{Pre}(operand, from[e]) < 0 ||
           bcast_dim_at{Pre}(operand, from[e]) == given[e]) &&
        (source != \null ==> -1 <= source[e] < n_dims &&
           (source[e] >= 0 ==> source[e] == from[e] &&
              (out->dims[e] == bcast_dim_at{Pre}(operand, from[e]) ||
               bcast_dim_at{Pre}(operand, from[e]) < 0)));
      loop invariant \forall integer e; o <= e < BCAST_MAX_RANK ==>
        out->dims[e] == \at(out->dims[e], LoopEntry);
      loop invariant out->rank == rank;
      loop assigns o, out->dims[0 .. BCAST_MAX_RANK - 1],
                   source[0 .. BCAST_MAX_RANK - 1]; */
  for (int32_t o = 0; o < out->rank; o++) {
    int32_t src = from[o]; /* what source[o] receives */
    if (src < 0) {
      /* Every unmapped dim is sized: the rank was counted that way. */
      out->dims[o] = given[o];
    } else if (sized[o]) {
      int64_t in = operand->dims[src];
      /*@ assert read: in == bcast_dim_at{Pre}(operand, src); */
      if (in != 1 && !BCAST_DIM_IS_DYNAMIC(in) && in != given[o]) {
        char s0[24], s1[24];
        return bcast__fail(
            diag, BCAST_INCOMPATIBLE,
            "output dim %d is given size %s, but operand dim "
            "%d (size %s) maps to it and can only expand from 1",
            (int)o, bcast__dim_text(given[o], s1, sizeof s1), (int)src,
            bcast__dim_text(in, s0, sizeof s0));
      }
      out->dims[o] = given[o];
      if (in == 1) src = -1; /* expanded: no longer equals the input */
    }
    if (source) source[o] = src;
  }
  /*@ assert kept: \forall integer i; 0 <= i < n_dims &&
        (\forall integer s; 0 <= s < n_sizes ==>
           bcast_size_dim{Pre}(sizes, s) != bcast_entry{Pre}(dims, i)) ==>
        sized[bcast_entry{Pre}(dims, i)] == 0 &&
        out->dims[bcast_entry{Pre}(dims, i)] == bcast_dim_at{Pre}(operand, i); */
  /*@ assert expands: \forall integer i, s; 0 <= i < n_dims &&
        0 <= s < n_sizes &&
        bcast_size_dim{Pre}(sizes, s) == bcast_entry{Pre}(dims, i) ==>
        (bcast_dim_at{Pre}(operand, i) == 1 ||
         bcast_dim_at{Pre}(operand, i) < 0 ||
         bcast_dim_at{Pre}(operand, i) == bcast_size_of{Pre}(sizes, s)); */
  /*@ assert sized: \forall integer s; 0 <= s < n_sizes ==>
        out->dims[bcast_size_dim{Pre}(sizes, s)] ==
        bcast_size_of{Pre}(sizes, s); */
  /*@ assert source: source != \null ==>
        \forall integer o; 0 <= o < rank ==> -1 <= source[o] < n_dims &&
          (source[o] >= 0 ==> bcast_entry{Pre}(dims, source[o]) == o &&
            (out->dims[o] == bcast_dim_at{Pre}(operand, source[o]) ||
             bcast_dim_at{Pre}(operand, source[o]) < 0)); */
  return BCAST_OK;
}

bcast_status bcast_explain(size_t n, const bcast_shape *operands,
                           bcast_profile profile, bcast_shape *out,
                           bcast_explained *explained, bcast_diag *diag) {
  bcast_status st = bcast_shape_infer(n, operands, profile, out, diag);
  if (st != BCAST_OK) return st;
  int32_t rank = out->rank;
  bcast__shapes ops = bcast__shapes_of(operands, n);
  for (size_t k = 0; k < n; k++) {
    bcast_explained *e = &explained[k];
    e->rank = operands[k].rank;
    e->expanded = e->maybe_expanded = e->runtime_check = 0;
  }
  for (int32_t a = 0; a < rank; a++) {
    bcast__axis axis;
    bcast__axis_analyze(ops, rank, a, out->dims[a], &axis, NULL, 0, NULL);
    for (size_t k = 0; k < n; k++) {
      int32_t i = bcast__own_axis(&operands[k], rank, a);
      if (i < 0) continue;
      bcast_explained *e = &explained[k];
      e->broadcast_dimensions[i] = a;
      switch (bcast__dim_role_of(ops, rank, &axis, k)) {
      case BCAST__DIM_EXPANDED:
        e->expanded |= 1ull << i;
        break;
      case BCAST__DIM_MAYBE_EXPANDED:
        e->maybe_expanded |= 1ull << i;
        break;
      case BCAST__DIM_CHECK:
        e->runtime_check |= 1ull << i;
        break;
      default:
        break;
      }
    }
  }
  return BCAST_OK;
}
