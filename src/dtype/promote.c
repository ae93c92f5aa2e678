/* Type promotion: NumPy's rule for arrays (numpy.result_type), derived
 * from the dtype table's kind and size columns rather than kept as a
 * matrix.  For two types a and b:
 *   - the same type: itself; bool with anything: the other type;
 *   - two of one kind (signed, unsigned, float): the larger; float16 with
 *     bfloat16 (two different 2-byte floats): float32;
 *   - signed with unsigned: the signed type if it is wider, else the next
 *     wider signed type (int8 + uint8 -> int16); with uint64 no signed
 *     type is wider: float64;
 *   - an integer with a float: the float joined with the smallest float
 *     that holds the integer's values (1 byte: float16, 2 bytes: float32,
 *     4 or 8 bytes: float64), so int16 + float16 -> float32.
 * bfloat16 is not a NumPy type; bcast's rule is ml_dtypes': bfloat16 +
 * float16 -> float32, bfloat16 + float32 -> float32, bfloat16 + float64 ->
 * float64, and integers join as above (int8 + bfloat16 -> float16 joined
 * with bfloat16 = float32).  Strings take part in no promotion.
 *
 * More than two types: without a float, the pairwise rule folded left to
 * right; with one, each integer joins the floats on its own (checked
 * against numpy.result_type for every pair, triple and quadruple of
 * NumPy's types).  */
#include "bcast/dtype.h"
#include "core/diag.h"

/* The first type of the table with this kind and size, or COUNT. */
static bcast_dtype of_kind_size(bcast_dtype_kind kind, size_t size) {
  for (int d = 0; d < BCAST_DTYPE_COUNT; d++)
    if (bcast_dtype_kind_of((bcast_dtype)d) == kind &&
        bcast_dtype_size((bcast_dtype)d) == size)
      return (bcast_dtype)d;
  return BCAST_DTYPE_COUNT;
}

/* Two floats: the larger; two different floats of one size: the next
 * size up. */
static bcast_dtype join_floats(bcast_dtype a, bcast_dtype b) {
  const size_t sa = bcast_dtype_size(a), sb = bcast_dtype_size(b);
  if (a == b || sa != sb) return sa > sb ? a : b;
  return of_kind_size(BCAST_KIND_FLOAT, 2 * sa);
}

/* The smallest float that holds every value of an integer of size bytes. */
static bcast_dtype float_for_int(size_t size) {
  return of_kind_size(BCAST_KIND_FLOAT, size >= 4 ? 8 : 2 * size);
}

static bcast_dtype promote2(bcast_dtype a, bcast_dtype b) {
  const bcast_dtype_kind ka = bcast_dtype_kind_of(a);
  const bcast_dtype_kind kb = bcast_dtype_kind_of(b);
  if (a == b) return a;
  if (ka == BCAST_KIND_BOOL) return b;
  if (kb == BCAST_KIND_BOOL) return a;
  const size_t sa = bcast_dtype_size(a), sb = bcast_dtype_size(b);
  if (ka == BCAST_KIND_FLOAT && kb == BCAST_KIND_FLOAT)
    return join_floats(a, b);
  if (ka == BCAST_KIND_FLOAT) return join_floats(a, float_for_int(sb));
  if (kb == BCAST_KIND_FLOAT) return join_floats(b, float_for_int(sa));
  if (ka == kb) return sa >= sb ? a : b;
  /* Signed with unsigned. */
  const size_t signed_size = ka == BCAST_KIND_SIGNED ? sa : sb;
  const size_t unsigned_size = ka == BCAST_KIND_SIGNED ? sb : sa;
  if (signed_size > unsigned_size) return ka == BCAST_KIND_SIGNED ? a : b;
  const bcast_dtype wider = of_kind_size(BCAST_KIND_SIGNED, 2 * unsigned_size);
  return wider != BCAST_DTYPE_COUNT ? wider : float_for_int(unsigned_size);
}

static int promotable(bcast_dtype d) {
  return (unsigned)d < BCAST_DTYPE_COUNT &&
         bcast_dtype_kind_of(d) != BCAST_KIND_STRING;
}

bcast_status bcast_dtype_promote(bcast_dtype a, bcast_dtype b,
                                 bcast_dtype *out, bcast_diag *diag) {
  return bcast_dtype_result_type(2, (const bcast_dtype[]){a, b}, out, diag);
}

bcast_status bcast_dtype_result_type(size_t n, const bcast_dtype *types,
                                     bcast_dtype *out, bcast_diag *diag) {
  if (n == 0 || !types || !out)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "result_type needs at least one type");
  /* One type throughout (the usual call): itself. */
  size_t same = 1;
  while (same < n && types[same] == types[0]) same++;
  if (same == n && promotable(types[0])) {
    *out = types[0];
    return BCAST_OK;
  }
  int any_float = 0;
  for (size_t k = 0; k < n; k++) {
    if (!promotable(types[k]))
      return bcast__fail(diag, BCAST_TYPE,
                         "result_type: %s (type #%zu) takes part in no "
                         "promotion",
                         bcast_dtype_name(types[k]), k);
    any_float |= bcast_dtype_kind_of(types[k]) == BCAST_KIND_FLOAT;
  }
  /* With a float among them, each integer joins the floats on its own
   * (int8, uint8 and float16 give float16, where folding pairwise would
   * pass through int16 and give float32): NumPy's N-ary rule. */
  bcast_dtype r = types[0];
  for (size_t k = 0; k < n; k++) {
    bcast_dtype t = types[k];
    if (any_float && bcast_dtype_kind_of(t) != BCAST_KIND_FLOAT)
      t = bcast_dtype_kind_of(t) == BCAST_KIND_BOOL
              ? r
              : float_for_int(bcast_dtype_size(t));
    r = promote2(r, t);
  }
  *out = r;
  return BCAST_OK;
}
