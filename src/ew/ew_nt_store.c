/* Non-temporal stores for element-wise outputs: whether a plan uses them,
 * and the wrapper that lets a kernel write through a block buffer that is
 * then copied to the output with non-temporal stores. */
#include <stdint.h>

#include "bcast/plan.h"
#include "ew/ew_plan.h"
#include "plan/nt_store.h"

/* Non-temporal stores.  An output larger than the last-level cache that
 * was written before (a warm out= buffer) costs a read for ownership of
 * every line on top of the write; non-temporal stores skip it (the bench
 * measures fill at 18 GB/s with ordinary stores and 27 GB/s with non-temporal
 * ones here).  The kernels are generated C loops and gcc has no
 * non-temporal store builtin, so the wrapper below lets the kernel write a
 * block of at most EW_NT_STORE_BLOCK bytes into an aligned buffer on the
 * stack (it stays in L1) and copies that block to the output with
 * non-temporal stores.  They
 * stores are left unfenced: the engine fences once per thread. */

#define EW_NT_STORE_BLOCK 4096

/* Runs from this size on are written by the non-temporal kernels, where
 * the kernel set has them: their partial lines at either end of a row
 * (ordinary stores) are then a small part of it.  Shorter rows packed
 * back to back go through the wrapper, which fills whole lines across
 * rows, except runs of whole lines (at least EW_NT_LINES_MIN_RUN bytes, a
 * multiple of 64, every step of the output too) into an output that
 * starts on a line: every line of theirs is whole, and the kernels write
 * them without the wrapper's second pass through L1.  Measured on the
 * Intel Xeon VM (AVX-512), 64x1x256x64 + 1x32x256x1 float32 into a warm
 * 128 MiB output (runs of 256 bytes), best of 100 calls: one thread 19.4-
 * 19.8 GB/s through the wrapper, 22.1-23.0 by the kernels (a plain loop
 * of the same stores 21.3-22.3), two threads 36.2-37.4 against 42.2-42.3;
 * with the output 16 bytes off a line, every row's two partial lines
 * written by ordinary stores, 7.2 GB/s by the kernels against 15.7-16.2
 * through the wrapper, so the plan decides per call (ew_run.c). */
#define EW_NT_KERNEL_MIN_RUN 1024
#define EW_NT_LINES_MIN_RUN 256

/* Whether every run of the output is whole lines apart from the first. */
static int runs_of_whole_lines(const bcast_plan *engine, int64_t run_bytes) {
  if (run_bytes < EW_NT_LINES_MIN_RUN || run_bytes % 64 != 0) return 0;
  for (int32_t d = 0; d + 1 < engine->ndim; d++)
    if (engine->extent[d] > 1 && engine->stride_bytes[0][d] % 64 != 0)
      return 0;
  return 1;
}

/* Non-temporal stores need an output of at least bcast__nt_min_bytes_for
 * (the copy kernels' threshold: a pure fill's where the output is written
 * from next to nothing), contiguous along the run, and runs (or packed
 * rows of runs) long enough to fill whole cache lines. */
int bcast__ew_want_nt_store(const bcast_plan *engine, int variant,
                            int64_t elem,
                            const bcast_rows_kernel_fn *nt_kernels,
                            int *lines) {
  *lines = 0;
  if (!BCAST__HAVE_NT_STORE || variant == 0) return EW_NT_NONE;
  int64_t bytes;
  if (!__builtin_mul_overflow(engine->elem_count, elem, &bytes) &&
      bytes < bcast__nt_min_bytes_for(engine))
    return EW_NT_NONE;
  const int inner = engine->ndim - 1;
  const int64_t run_bytes = engine->extent[inner] * elem;
  const int packed =
      inner >= 1 && engine->stride_bytes[0][inner - 1] == run_bytes;
  if (nt_kernels && run_bytes >= EW_NT_KERNEL_MIN_RUN) return EW_NT_KERNEL;
  if (nt_kernels && runs_of_whole_lines(engine, run_bytes)) {
    *lines = 1;
    return EW_NT_KERNEL;
  }
  return run_bytes >= 256 || packed ? EW_NT_WRAPPER : EW_NT_NONE;
}

#if BCAST__HAVE_NT_STORE
/* The kernel of the plan's variant, writing through the block buffer.
 * Rows packed back to back in the output go several to a block; longer
 * runs are cut into blocks. */
void bcast__ew_nt_store_kernel(int64_t rows, int64_t n, char *const *ptrs,
                               const int64_t *strides,
                               const int64_t *row_strides,
                               const void *params) {
  const ew_nt_store_params *sp = params;
  _Alignas(64) char block[EW_NT_STORE_BLOCK];
  char *p[EW_MAX_INPUTS + 1];
  int64_t rs[EW_MAX_INPUTS + 1];
  const int nops = sp->n_operands;
  const int64_t row_bytes = n * sp->elem;
  p[0] = block;
  if (row_bytes <= EW_NT_STORE_BLOCK / 2 && row_strides[0] == row_bytes) {
    const int64_t per = EW_NT_STORE_BLOCK / row_bytes;
    rs[0] = row_bytes;
    for (int k = 1; k < nops; k++) rs[k] = row_strides[k];
    for (int64_t j = 0; j < rows; j += per) {
      const int64_t m = rows - j < per ? rows - j : per;
      for (int k = 1; k < nops; k++) p[k] = ptrs[k] + j * row_strides[k];
      sp->kernel(m, n, p, strides, rs, sp->params);
      bcast__nt_store_copy(ptrs[0] + j * row_strides[0], block, m * row_bytes);
    }
    return;
  }
  /* Blocks of a long run end on the output's 64-byte line boundaries (the
   * first block is shorter by the run's offset into its line), so each
   * line is written by one block's non-temporal stores instead of being split
   * between the ordinary tail and head stores of two. */
  const int64_t per = EW_NT_STORE_BLOCK / sp->elem;
  for (int k = 0; k < nops; k++) rs[k] = 0;
  for (int64_t j = 0; j < rows; j++) {
    const uintptr_t line_offset =
        (uintptr_t)(ptrs[0] + j * row_strides[0]) & 63u;
    int64_t first = per;
    if (line_offset % (uintptr_t)sp->elem == 0)
      first -= (int64_t)(line_offset / (uintptr_t)sp->elem);
    for (int64_t i = 0, m; i < n; i += m) {
      const int64_t want = i == 0 ? first : per;
      m = n - i < want ? n - i : want;
      for (int k = 1; k < nops; k++)
        p[k] = ptrs[k] + j * row_strides[k] + i * strides[k];
      sp->kernel(1, m, p, strides, rs, sp->params);
      bcast__nt_store_copy(ptrs[0] + j * row_strides[0] + i * sp->elem, block,
                           m * sp->elem);
    }
  }
}
#endif
