/* broadcast_dimensions and the explicit forms.  The input is three lines:
 * an attribute value ("array<i64: 0, 2>", "dense<[1]> : tensor<1xi64>"),
 * the operand shape and the output shape (bcast_shape_parse forms).
 * Invariants: an accepted BroadcastInDim places every operand dim on an
 * output dim of equal or broadcastable size; XLA's binary rule and the
 * partial form, where they accept, give shapes their checks accept. */
#include "bcast/bcast.h"
#include "fuzz_common.h"

/* The next line of text[*at..len): its start and length. */
static const char *next_line(const char *text, size_t len, size_t *at,
                             size_t *n) {
  const char *start = text + *at;
  const char *nl = *at < len ? memchr(start, '\n', len - *at) : NULL;
  *n = nl ? (size_t)(nl - start) : len - *at;
  *at += *n + (nl ? 1 : 0);
  return start;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *p = fuzz_exact_copy(data, size);
  size_t at = 0, n_list, n_a, n_b;
  const char *list = next_line(p, size, &at, &n_list);
  const char *a_text = next_line(p, size, &at, &n_a);
  const char *b_text = next_line(p, size, &at, &n_b);
  /* Each field in its own exact buffer, so an over-read past a field is
   * caught too. */
  char *lp = fuzz_exact_copy((const uint8_t *)list, n_list);
  char *ap = fuzz_exact_copy((const uint8_t *)a_text, n_a);
  char *bp = fuzz_exact_copy((const uint8_t *)b_text, n_b);
  free(p);
  int64_t dims[BCAST_MAX_RANK];
  size_t n_dims = 0;
  bcast_diag d;
  bcast_shape a, b, out;
  if (bcast_mlir_i64_list_parse(lp, n_list, dims, BCAST_MAX_RANK, &n_dims,
                                &d) != BCAST_OK ||
      bcast_shape_parse(ap, n_a, &a, &d) != BCAST_OK ||
      bcast_shape_parse(bp, n_b, &b, &d) != BCAST_OK)
    goto done;

  for (int order = 0; order < 2; order++) {
    if (bcast_broadcast_in_dim_check(&a, &b, dims, n_dims,
                                     (bcast_dims_order)order, &d) != BCAST_OK)
      continue;
    FUZZ_CHECK(a.rank >= 0 && b.rank >= 0 && n_dims == (size_t)a.rank);
    for (size_t i = 0; i < n_dims; i++) {
      FUZZ_CHECK(dims[i] >= 0 && dims[i] < b.rank);
      int64_t from = a.dims[i], to = b.dims[dims[i]];
      if (!BCAST_DIM_IS_DYNAMIC(from) && !BCAST_DIM_IS_DYNAMIC(to))
        FUZZ_CHECK(from == 1 || from == to);
      if (order == BCAST_DIMS_INCREASING && i > 0)
        FUZZ_CHECK(dims[i] > dims[i - 1]);
    }
  }
  if (bcast_xla_binary_shape(&a, &b, dims, n_dims, &out, &d) == BCAST_OK) {
    FUZZ_CHECK(out.rank == (a.rank > b.rank ? a.rank : b.rank));
  }
  /* The partial form: the output dims of b's rank that dims does not name
   * get b's sizes. */
  if (b.rank >= 0) {
    bcast_dim_size sizes[BCAST_MAX_RANK];
    size_t n_sizes = 0;
    for (int32_t k = 0; k < b.rank; k++) {
      int named = 0;
      for (size_t i = 0; i < n_dims; i++) named |= dims[i] == k;
      if (!named && !BCAST_DIM_IS_DYNAMIC(b.dims[k]))
        sizes[n_sizes++] = (bcast_dim_size){k, b.dims[k]};
    }
    int32_t source[BCAST_MAX_RANK];
    if (bcast_broadcast_in_dim_partial(&a, dims, n_dims, sizes, n_sizes, &out,
                                       source, &d) == BCAST_OK)
      FUZZ_CHECK(bcast_broadcast_in_dim_check(&a, &out, dims, n_dims,
                                              BCAST_DIMS_ANY_ORDER,
                                              &d) == BCAST_OK);
  }
done:
  free(lp);
  free(ap);
  free(bp);
  return 0;
}
