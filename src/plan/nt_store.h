/* Internal: the one home of non-temporal stores and huge-page advice, for
 * every writer of large outputs: the copy kernels (copy.c), the plan
 * engine's fence (plan.c), the element-wise plans' non-temporal wrapper
 * (src/ew/ew_nt_store.c) and owned buffers (src/tensor/buffer.c).
 *
 * Non-temporal stores bypass the cache: for an output bigger than the
 * last-level cache they save the read for ownership of every destination
 * line, roughly halving the memory traffic of a write.  They are left
 * unfenced by the code that issues them (an sfence waits for them to reach
 * memory, which on short runs costs more than the stores); the plan engine
 * calls bcast__nt_store_fence once per thread after its last run.
 *
 * Without SSE2 there are no non-temporal stores: BCAST__HAVE_NT_STORE is
 * 0, the copy is memcpy and the fence does nothing. */
#ifndef BCAST_PLAN_NT_STORE_H
#define BCAST_PLAN_NT_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "bcast/plan.h"
#include "core/machine.h"
#include "plan/tune.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#define BCAST__HAVE_NT_STORE 1
#else
#define BCAST__HAVE_NT_STORE 0
#endif

/* The size from which a plan's output (operand 0) is written with
 * non-temporal stores on `threads` threads (0: OpenMP's), by the copy
 * kernels and by element-wise plans alike (src/plan/tune.h: the
 * environment's, a calibration's, or what the cache sizes suggest).  A
 * fill, an output whose inputs hold at most an eighth of its bytes (a
 * broadcast copy, an outer sum: written from next to nothing), takes the
 * fills' threshold (bcast_tuning's nt_fill_min_bytes, measured with these
 * kernels' pattern stores on every thread) when it is pure (every input
 * broadcast along the run: each run one value) or runs on several
 * threads; the rest, and a fill that reads a row along the run on one
 * thread, the store threshold.  On one thread that row competes in L1
 * with the reads for ownership of ordinary stores, which the pattern fill
 * does not foretell (Zen 4, 4096x1 + 1x4096 float32 into a warm 64 MiB
 * output, one thread: 2.9 ms with ordinary stores, 2.5 ms with
 * non-temporal ones, an ordinary fill without the row 2.5 ms; on two
 * threads, where the memory is the limit, ordinary stores were 8% ahead).
 * Below the threshold the output can still be in cache when the caller
 * reads it. */
int64_t bcast__nt_min_bytes_for(const bcast_plan *plan, int threads);

/* Copies bytes from src (any alignment) to dst (any alignment) with
 * non-temporal stores for the whole 64-byte lines of dst and ordinary ones for
 * the part of a line before the first and after the last.  Unfenced. */
void bcast__nt_store_copy(char *dst, const char *src, int64_t bytes);

/* The same copy with ordinary stores only (memcpy may itself switch to
 * non-temporal stores for large sizes): the calibration's other side. */
void bcast__ordinary_store_copy(char *dst, const char *src, int64_t bytes);

/* Makes this thread's non-temporal stores visible to every later load. */
static inline void bcast__nt_store_fence(void) {
#if BCAST__HAVE_NT_STORE
  _mm_sfence();
#endif
}

#if BCAST__HAVE_NT_STORE
/* Stores bytes [0, bytes) of a 16-byte pattern repeated from dst on, where
 * dst is 16-byte aligned and bytes a multiple of 16: with ordinary stores
 * (nt 0), or non-temporal ones for the whole 64-byte lines and ordinary
 * ones for the part of a line before the first and after the last (nt 1,
 * unfenced; see bcast__nt_store_copy).  Where the CPU has AVX, the whole
 * lines take two 32-byte stores each, as the element-wise kernels write
 * theirs: on Zen 4, 64 MiB filled on two threads with ordinary stores
 * took 2.12 ms with 16-byte stores and 1.98 ms with 32-byte ones (the
 * non-temporal stores 2.35 ms either way), so a calibration of 16-byte
 * fills (tune.c) favoured non-temporal stores. */
void bcast__fill_pattern(char *dst, int64_t bytes, __m128i pattern, int nt);
#endif

/* Whether the first and the last byte of [data, data + bytes) lie in
 * pages already in memory (mincore), as a written buffer's are; 1 where
 * the system cannot tell.  A fresh allocation (np.empty, malloc) is not:
 * its pages are zeroed through the cache as they are first touched, so
 * ordinary stores then hit lines already in the cache, where non-temporal
 * stores would write each line a second time. */
int bcast__memory_resident(const void *data, size_t bytes);

/* The size of a transparent huge page on the platforms that advise them. */
#define BCAST__HUGE_PAGE_BYTES ((uintptr_t)2 << 20)

/* Asks for transparent huge pages on [data, data + bytes) from its first
 * huge page boundary on: a block written once front to back then takes a
 * few 2 MiB page faults instead of many 4 KiB ones (NumPy asks for them
 * too).  A hint only: failure, or a platform without MADV_HUGEPAGE,
 * changes nothing.  Callers decide from what size it pays. */
void bcast__advise_huge_pages(void *data, size_t bytes);

#endif
