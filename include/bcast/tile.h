/* bcast/tile.h - tile plans: a broadcast computed one output box at a time.
 *
 * A box is a half-open range [lo, hi) per dim.  For an output box, each
 * operand needs one input box: an operand dim that is expanded (size 1
 * against a larger output dim) needs [0, 1) whatever the output range, an
 * output dim the operand does not have drops out, and every other operand
 * dim needs the output's range on the dim it lands on.  That input box is
 * exactly the set of operand elements the output box reads (broadcasting
 * reads a product set), so a tile never reads more than it needs.
 *
 * Which output dim an operand dim lands on is a bcast_tile_map: implicit
 * (NumPy/ONNX/MLIR) broadcasting right-aligns the operand, BroadcastInDim
 * follows its broadcast_dimensions.  The tiler splits an output shape into
 * boxes under a byte budget; executing one box is a plain element-wise call
 * on views (bcast_tile_views, then bcast_ew_compute_into or
 * bcast_tensor_copy into bcast_tensor_box of the output), so each operand may
 * be held whole, as a memory map, or only as the block that covers its box.
 *
 * Shapes here are static: a tile map refuses dynamic dims, because a tile
 * is planned for tensors whose sizes are known.
 */
#ifndef BCAST_TILE_H
#define BCAST_TILE_H

#include "bcast/export.h"
#include "bcast/explicit.h"
#include "bcast/shape.h"
#include "bcast/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bcast_box {
  int32_t rank;
  int64_t lo[BCAST_MAX_RANK];
  int64_t hi[BCAST_MAX_RANK]; /* exclusive; hi == lo is an empty range */
} bcast_box;

/* The whole of shape as a box (rank 0: the one element). */
BCAST_API void bcast_box_full(bcast_box *box, int32_t rank,
                              const int64_t *shape);
/* Elements in the box, 0 when any range is empty; saturates at INT64_MAX. */
BCAST_API int64_t bcast_box_elem_count(const bcast_box *box);

/* Where one operand lands in the output. */
typedef struct bcast_tile_map {
  bcast_shape in;               /* the operand's shape */
  bcast_shape out;              /* the output's shape */
  int32_t dims[BCAST_MAX_RANK]; /* operand dim i lands on output dim dims[i] */
} bcast_tile_map;

/* Builds the map of operand in within out.  dims == NULL: implicit
 * broadcasting (operand dim i on output dim out.rank - in.rank + i); else
 * BroadcastInDim's map (n_dims entries, any order, as StableHLO allows;
 * n_dims is ignored with dims == NULL).
 * Each operand dim must be 1 or equal to its output dim; both shapes
 * static, ranked.  Errors are the shape algebra's (BCAST_INCOMPATIBLE,
 * BCAST_RANK_MISMATCH, BCAST_INVALID_ARGUMENT), naming the dim. */
BCAST_API bcast_status bcast_tile_map_init(bcast_tile_map *map,
                                           const bcast_shape *in,
                                           const bcast_shape *out,
                                           const int64_t *dims, size_t n_dims,
                                           bcast_diag *diag);

/* The input box an output box reads.  out_box must lie within the output
 * (BCAST_INVALID_ARGUMENT otherwise).  An empty output box gives an empty
 * input box. */
BCAST_API bcast_status bcast_tile_input_box(const bcast_tile_map *map,
                                            const bcast_box *out_box,
                                            bcast_box *in_box,
                                            bcast_diag *diag);

/* The inverse: the output box whose elements read anything of in_box (for
 * sharded inputs: where a shard's elements go).  Output dims the operand
 * does not have, and dims it expands, are covered whole. */
BCAST_API bcast_status bcast_tile_output_box(const bcast_tile_map *map,
                                             const bcast_box *in_box,
                                             bcast_box *out_box,
                                             bcast_diag *diag);

/* Splits an output into boxes whose bytes (the output box plus every
 * operand's input box, at the element sizes given) stay within a budget.
 * The split is along the outermost dims: a tile covers whole trailing dims
 * and a run of the first dim that does not fit whole, so every tile is one
 * contiguous range of a C-order output, and tiles go in C order, which
 * reads an operand that does not depend on the split dims once per tile
 * and every other operand element once.  An empty output has no tiles. */
typedef struct bcast_tiler {
  bcast_box whole;
  int32_t split;      /* the dim the tiles cut, -1 when one tile */
  int64_t step;       /* elements of the split dim per tile */
  int64_t count;      /* tiles in all */
  int64_t next;       /* the next tile's number */
  int64_t tile_bytes; /* bytes of the largest tile */
} bcast_tiler;

/* n operands described by maps (all with the same output shape) and their
 * element sizes; out_elem_bytes for the output.  BCAST_BUDGET (with the
 * bytes one element needs) when not even a one-element tile fits;
 * BCAST_OVERFLOW (naming the shape) for an output of more than INT64_MAX
 * elements, whose tiles and positions int64 cannot number.  Any size up
 * to that is planned exactly, (INT64_MAX) included; an output with a 0 dim
 * has no tiles whatever its other dims. */
BCAST_API bcast_status bcast_tiler_init(bcast_tiler *tiler, size_t n,
                                        const bcast_tile_map *maps,
                                        const size_t *in_elem_bytes,
                                        size_t out_elem_bytes,
                                        int64_t budget_bytes,
                                        bcast_diag *diag);
/* Tile k (0 <= k < tiler->count) into *box; 0 for a k out of range. */
BCAST_API int bcast_tiler_tile(const bcast_tiler *tiler, int64_t k,
                               bcast_box *box);
/* The next tile in order into *box; 0 when all were given. */
BCAST_API int bcast_tiler_next(bcast_tiler *tiler, bcast_box *box);

/* A view of the elements [box.lo, box.hi) of src (no copy; retains src's
 * buffer).  origin (NULL: all zero) says which element of the whole array
 * src[0, ..., 0] is, for a src that holds only a block of it: the box is in
 * whole-array coordinates and must lie within the block. */
BCAST_API bcast_status bcast_tensor_box(bcast_tensor *dst,
                                        const bcast_tensor *src,
                                        const int64_t *origin,
                                        const bcast_box *box,
                                        bcast_diag *diag);

/* The operand views one output box computes from: views[k] is operand k's
 * input box (read from inputs[k], which holds the whole operand or, with
 * origins[k], a block of it covering that box) laid over the output box's
 * shape, stride 0 where it broadcasts.  Running any element-wise op on the
 * views into bcast_tensor_box(out, box) computes exactly that box.
 * origins may be NULL, and so may origins[k].  On failure no view is held. */
BCAST_API bcast_status bcast_tile_views(size_t n, const bcast_tile_map *maps,
                                        const bcast_tensor *inputs,
                                        const int64_t *const *origins,
                                        const bcast_box *out_box,
                                        bcast_tensor *views, bcast_diag *diag);

#ifdef __cplusplus
}
#endif

#endif /* BCAST_TILE_H */
