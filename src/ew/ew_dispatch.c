/* The kernel tables of the four kernel files (ew_k_unary.c, ew_k_cast.c,
 * ew_k_binary.c, ew_k_select.c) seen as one: finding an op's row, and
 * every row in turn for the coverage test; and the lookup the sets beyond
 * v3 share (ew_k_fp16.c, ew_k_v4.c). */
#include <stddef.h>

#include "bcast/elementwise.h"
#include "ew/ew_kernel.h"

const ew_row *bcast__ew_find(bcast_op op, int flavour, bcast_dtype in,
                             bcast_dtype out) {
  if ((unsigned)op >= BCAST_OP_COUNT || (unsigned)in >= BCAST_DTYPE_COUNT ||
      (unsigned)out >= BCAST_DTYPE_COUNT)
    return NULL;
  if (op == BCAST_OP_CAST) return bcast__ew_find_cast(op, flavour, in, out);
  if (op == BCAST_OP_SELECT)
    return bcast__ew_find_select(op, flavour, in, out);
  if (bcast_op_arity(op) == 1)
    return bcast__ew_find_unary(op, flavour, in, out);
  return bcast__ew_find_binary(op, flavour, in, out);
}

size_t bcast__ew_row_count(void) {
  return bcast__ew_count_unary() + bcast__ew_count_cast() +
         bcast__ew_count_binary() + bcast__ew_count_select();
}

const ew_row *bcast__ew_row_at(size_t i) {
  if (i < bcast__ew_count_unary()) return bcast__ew_at_unary(i);
  i -= bcast__ew_count_unary();
  if (i < bcast__ew_count_cast()) return bcast__ew_at_cast(i);
  i -= bcast__ew_count_cast();
  if (i < bcast__ew_count_binary()) return bcast__ew_at_binary(i);
  i -= bcast__ew_count_binary();
  if (i < bcast__ew_count_select()) return bcast__ew_at_select(i);
  return NULL;
}

const ew_native_row *bcast__ew_native_lookup(const ew_native_row *rows,
                                             size_t n, const ew_row *row) {
  if (row->in != row->out || row->flavour != EW_FLAVOUR_ANY) return NULL;
  for (size_t i = 0; i < n; i++)
    if (rows[i].dtype == row->in && rows[i].op == row->op) return &rows[i];
  return NULL;
}
