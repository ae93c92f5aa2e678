/* Internal: reading an MLIR type into caller-chosen dim storage; positions
 * inside a scanned op. */
#ifndef BCAST_TYPE_MLIR_INTERNAL_H
#define BCAST_TYPE_MLIR_INTERNAL_H

#include "bcast/mlir.h"

/* bcast_mlir_type_parse with the dims written to dims[0..room): out->rank
 * is the full rank even when it exceeds room (then only room dims were
 * stored), so the scanner can parse straight into an op's dim pool and
 * refuse a pool overflow itself.  A rank over BCAST_MAX_RANK is refused as
 * bcast_mlir_type_parse refuses it.  out->dims_at is left to the caller. */
bcast_status bcast__mlir_type_read(const char *t, size_t len,
                                   bcast_mlir_type_ref *out, int64_t *dims,
                                   int32_t room, size_t *consumed,
                                   bcast_diag *diag);

/* The line and column of a position at or after a scanned op's name. */
void bcast__mlir_op_position(const bcast_mlir_op *op, const char *at,
                             uint32_t *line, uint32_t *col);

/* Fails out with d's status and a located message: "LINE:COL: " and
 * bcast_mlir_diag_format's text of d for op, then " [P profile]" when op
 * is not NULL (an op that was read and judged by profile).  The message
 * of bcast_mlir_verify_text's and bcast_emit_lower_module's first
 * failure.  out NULL: just returns d's status. */
bcast_status bcast__mlir_failure(bcast_diag *out, uint32_t line, uint32_t col,
                                 const char *op, size_t op_len,
                                 bcast_profile profile, const bcast_diag *d);

#endif
