/* Non-temporal copies and huge-page advice (nt_store.h): the out-of-line half of
 * the one home for how large outputs are written. */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* madvise(MADV_HUGEPAGE) */
#endif

#include <stdint.h>
#include <string.h>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "plan/nt_store.h"

/* Invariant: bytes [0, i) of dst hold those of src.  The head up to the
 * first 64-byte line boundary of dst and the tail after the last whole line
 * go by memcpy (ordinary stores); between them i advances a whole line at a
 * time with non-temporal stores (nt) or ordinary ones.  One to part of a
 * line flushes a partly filled write-combining buffer, which costs more
 * than the read for ownership it saves, so only whole lines go
 * non-temporal: a NumPy array, which starts 16 bytes past a line, writes
 * its first 48 bytes the ordinary way.  Inlined into its two callers, each
 * with its own loop. */
static inline void store_copy(char *dst, const char *src, int64_t bytes,
                              int nt) {
#if BCAST__HAVE_NT_STORE
  int64_t head = (int64_t)(-(uintptr_t)dst & 63u);
  if (head > bytes) head = bytes;
  memcpy(dst, src, (size_t)head);
  int64_t i = head;
  for (; i + 64 <= bytes; i += 64) {
    const __m128i a = _mm_loadu_si128((const __m128i *)(src + i));
    const __m128i b = _mm_loadu_si128((const __m128i *)(src + i + 16));
    const __m128i c = _mm_loadu_si128((const __m128i *)(src + i + 32));
    const __m128i d = _mm_loadu_si128((const __m128i *)(src + i + 48));
    if (nt) {
      _mm_stream_si128((__m128i *)(dst + i), a);
      _mm_stream_si128((__m128i *)(dst + i + 16), b);
      _mm_stream_si128((__m128i *)(dst + i + 32), c);
      _mm_stream_si128((__m128i *)(dst + i + 48), d);
    } else {
      _mm_store_si128((__m128i *)(dst + i), a);
      _mm_store_si128((__m128i *)(dst + i + 16), b);
      _mm_store_si128((__m128i *)(dst + i + 32), c);
      _mm_store_si128((__m128i *)(dst + i + 48), d);
    }
  }
  memcpy(dst + i, src + i, (size_t)(bytes - i));
#else
  (void)nt;
  memcpy(dst, src, (size_t)bytes);
#endif
}

void bcast__nt_store_copy(char *dst, const char *src, int64_t bytes) {
  store_copy(dst, src, bytes, 1);
}

void bcast__ordinary_store_copy(char *dst, const char *src, int64_t bytes) {
  store_copy(dst, src, bytes, 0);
}

/* The advised range is [data, data + bytes) rounded inwards to whole huge
 * pages; an empty one is not advised. */
void bcast__advise_huge_pages(void *data, size_t bytes) {
#if defined(MADV_HUGEPAGE)
  const uintptr_t huge = BCAST__HUGE_PAGE_BYTES;
  const uintptr_t begin = ((uintptr_t)data + huge - 1) & ~(huge - 1);
  const uintptr_t end = ((uintptr_t)data + (uintptr_t)bytes) & ~(huge - 1);
  if (end > begin) (void)madvise((void *)begin, end - begin, MADV_HUGEPAGE);
#else
  (void)data;
  (void)bytes;
#endif
}
