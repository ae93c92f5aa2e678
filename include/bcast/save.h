/* bcast/save.h - outputs larger than memory: an element-wise op's result,
 * or arrays such as broadcast views, written to .npy files tile by tile.
 *
 * The output is split by the tiler (bcast/tile.h) into boxes that are
 * contiguous runs of the C-order file.  Each box is computed (the op on the
 * operands' views of it) or copied (the box of the array) into one reused
 * buffer and appended after the .npy header to a durable output
 * (bcast/output.h), so a call holds one tile, not the output: the bytes
 * written are numpy.save's for the whole array.  Operands may be memory
 * maps (bcast_npy_map); the pages a tile read of them are handed back to
 * the page cache after it, so the resident memory stays one tile's however
 * large the inputs are.
 *
 * memory_bytes bounds the memory a call holds: a tile (its output box
 * plus the box of each operand it reads) takes at most half of it, and
 * 64 MiB at most (larger tiles gain nothing).  A budget too small for even
 * one element is BCAST_BUDGET; an empty output has no tiles and needs
 * none.  Whether an output is worth writing this way rather than whole
 * (bcast_npy_write) is the caller's choice.
 *
 * Before anything is written, the outputs are checked against the room on
 * the file systems they land on (statvfs of an existing file's own file
 * system, or of a new file's directory; outputs on one file system are
 * summed; devices and FIFOs are written through and not counted): too
 * little is BCAST_IO ("... the file system of DIR has N free; nothing was
 * written").  Each file's blocks are then reserved (bcast_output_reserve).
 * Nothing is published until every output of the call is complete: on a
 * failure every target is as it was, with no temporary file behind.
 *
 * The library never prints: progress is reported to an optional callback.
 * Messages of failures about one output start with its path ("PATH: "),
 * except the output writer's own, which name it already.  A checked op
 * (bcast_ew_options.checked) that meets an unpredictable result reports the
 * element's index in the whole output (message and bcast_diag.element),
 * not in the tile. */
#ifndef BCAST_SAVE_H
#define BCAST_SAVE_H

#include "bcast/elementwise.h"
#include "bcast/export.h"
#include "bcast/npy.h"
#include "bcast/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most bytes one tile takes, whatever memory_bytes allows. */
#define BCAST_SAVE_TILE_MAX ((int64_t)64 << 20)

/* Every default is zero: `bcast_save_options o = {0};` is "no progress
 * report, OpenMP's default thread count". */
typedef struct bcast_save_options {
  /* Threads copying a tile (bcast_npy_save_views); <= 0: OpenMP's
   * default.  An op's threads are its bcast_ew_options'. */
  int threads;
  /* Called after each tile with the bytes of data written so far and in
   * all (every output of the call together), from the calling thread. */
  void (*progress)(void *ctx, int64_t done_bytes, int64_t total_bytes);
  void *progress_ctx;
} bcast_save_options;

/* Writes op over inputs[0..n_inputs) (broadcast as bcast_ew_compute does)
 * to the .npy file at path, tile by tile within memory_bytes.  attrs and
 * ew_options are bcast_ew_compute's (NULL for defaults): the op is planned
 * on the whole inputs first, so every type, shape, attribute and declared
 * signature error comes before anything is written; a declared signature
 * (declared, declared_result) is checked against the whole.  Under the
 * numpy profile, inputs of another type than the op computes in are
 * converted a tile at a time, within memory_bytes (ew_options->max_bytes
 * does not apply to them).  ew_options->progress is not called;
 * options->progress is.  options may be NULL. */
BCAST_API bcast_status
bcast_npy_save_op(const char *path, bcast_op op, const bcast_op_attrs *attrs,
                  size_t n_inputs, const bcast_tensor *inputs,
                  const bcast_ew_options *ew_options, int64_t memory_bytes,
                  const bcast_save_options *options, bcast_diag *diag);

/* Writes arrays[k] to the .npy file paths[k] for k < n, all or none, tile
 * by tile within memory_bytes (one tile at a time, of one output at a
 * time).  The arrays may have any strides: typically broadcast views
 * (bcast_broadcast_to, bcast_broadcast_views, bcast_broadcast_in_dim),
 * whose broadcast dims cost nothing to read.  opts is NULL or n entries:
 * big_endian writes '>' data as numpy saves a big-endian array (the
 * arrays hold native values); fortran_order is refused
 * (BCAST_UNSUPPORTED), and so are strings, whose width depends on the
 * data.  options may be NULL. */
BCAST_API bcast_status bcast_npy_save_views(size_t n, const char *const *paths,
                                            const bcast_tensor *arrays,
                                            const bcast_npy_write_opts *opts,
                                            int64_t memory_bytes,
                                            const bcast_save_options *options,
                                            bcast_diag *diag);

#ifdef __cplusplus
}
#endif

#endif /* BCAST_SAVE_H */
