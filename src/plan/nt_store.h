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

/* The size from which outputs are written with non-temporal stores, by
 * the copy kernels and by element-wise plans alike (src/plan/tune.h: the
 * environment's, a calibration's, or a quarter of the last-level cache one
 * core can count on).  Below it the output can still be in cache when the
 * caller reads it. */
static inline int64_t bcast__nt_store_min_bytes(void) {
  return bcast__tuned_nt_store_min();
}

/* The size from which a copy plan's output takes non-temporal stores
 * (copy.c): a fill's threshold (bcast_tuning's nt_fill_min_bytes, which
 * the calibration measures with these kernels' own pattern stores on
 * every thread) when the copy runs on several threads (threads != 1 on a
 * machine of several CPUs, the output at least the parallel threshold)
 * and its source holds at most an eighth of the output's bytes (a
 * broadcast copy: the output is written from next to nothing); else
 * bcast__nt_store_min_bytes().  Element-wise plans keep the latter: their
 * fills are computed, and the pattern fill does not foretell them (on Zen
 * 4 with two threads, where it measured the two kinds of store even at
 * 128 MiB, a 4-D broadcast sum of 128 MiB ran at 99% of the STREAM limit
 * with non-temporal stores, 91% with ordinary ones). */
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
/* Four 16-byte stores of pattern, with STORE (_mm_store_si128 or
 * _mm_stream_si128), covering the 64-byte line at p. */
#define BCAST__STORE_LINE_(STORE, p, pattern)                                 \
  do {                                                                        \
    STORE((__m128i *)(p), pattern);                                           \
    STORE((__m128i *)((p) + 16), pattern);                                    \
    STORE((__m128i *)((p) + 32), pattern);                                    \
    STORE((__m128i *)((p) + 48), pattern);                                    \
  } while (0)

/* Stores bytes [0, bytes) of a 16-byte pattern repeated from dst on, where
 * dst is 16-byte aligned and bytes a multiple of 16, with ordinary stores.
 * Four stores per iteration cover a whole 64-byte line.  Inline, so a fill
 * kernel's loop is its own. */
static inline void bcast__store_pattern(char *dst, int64_t bytes,
                                        __m128i pattern) {
  int64_t i = 0;
  for (; i + 64 <= bytes; i += 64)
    BCAST__STORE_LINE_(_mm_store_si128, dst + i, pattern);
  for (; i < bytes; i += 16) _mm_store_si128((__m128i *)(dst + i), pattern);
}

/* The same with non-temporal stores for the whole 64-byte lines, and
 * ordinary ones for the part of a line before the first and after the last
 * (see bcast__nt_store_copy).  Unfenced. */
static inline void bcast__nt_store_pattern(char *dst, int64_t bytes,
                                           __m128i pattern) {
  int64_t i = 0;
  for (; i < bytes && ((uintptr_t)(dst + i) & 63u) != 0; i += 16)
    _mm_store_si128((__m128i *)(dst + i), pattern);
  for (; i + 64 <= bytes; i += 64)
    BCAST__STORE_LINE_(_mm_stream_si128, dst + i, pattern);
  for (; i < bytes; i += 16) _mm_store_si128((__m128i *)(dst + i), pattern);
}
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
