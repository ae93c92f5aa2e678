/* Non-temporal copies and huge-page advice (nt_store.h): the out-of-line half of
 * the one home for how large outputs are written. */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* madvise(MADV_HUGEPAGE) */
#endif

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "plan/nt_store.h"

#if BCAST__HAVE_NT_STORE && defined(__GNUC__) &&                             \
    (defined(__x86_64__) || defined(__i386__))
#define NT_STORE_HAVE_AVX 1
#include <immintrin.h>

/* Whole 64-byte lines with two 32-byte non-temporal stores each, where the
 * CPU and the OS have AVX: half the instructions of the four 16-byte
 * stores (callgrind, a 64 MiB float32 add through the element-wise wrapper:
 * the copy's instructions per run 13.1 -> 9.3 million, the run's 27.6 ->
 * 24.2 million).
 * dst is 64-byte aligned, bytes a multiple of 64. */
__attribute__((target("avx"))) static void
nt_store_lines_avx(char *dst, const char *src, int64_t bytes) {
  for (int64_t i = 0; i < bytes; i += 64) {
    const __m256i a = _mm256_loadu_si256((const __m256i *)(src + i));
    const __m256i b = _mm256_loadu_si256((const __m256i *)(src + i + 32));
    _mm256_stream_si256((__m256i *)(dst + i), a);
    _mm256_stream_si256((__m256i *)(dst + i + 32), b);
  }
}

/* Whole lines of a 16-byte pattern with 32-byte stores, ordinary or
 * non-temporal (bcast__fill_pattern). */
__attribute__((target("avx"))) static void
fill_lines_avx(char *dst, int64_t bytes, __m128i pattern, int nt) {
  const __m256i v = _mm256_set_m128i(pattern, pattern);
  if (nt) {
    for (int64_t i = 0; i < bytes; i += 64) {
      _mm256_stream_si256((__m256i *)(dst + i), v);
      _mm256_stream_si256((__m256i *)(dst + i + 32), v);
    }
  } else {
    for (int64_t i = 0; i < bytes; i += 64) {
      _mm256_store_si256((__m256i *)(dst + i), v);
      _mm256_store_si256((__m256i *)(dst + i + 32), v);
    }
  }
}

/* The same with one ordinary 64-byte store a line. */
__attribute__((target("avx512f"))) static void
fill_lines_avx512(char *dst, int64_t bytes, __m128i pattern) {
  const __m512i v = _mm512_broadcast_i32x4(pattern);
  for (int64_t i = 0; i < bytes; i += 64)
    _mm512_store_si512((void *)(dst + i), v);
}

/* The widest vector stores the lines take: 64 where the CPU and the OS
 * have AVX-512F, 32 where they have AVX, else 16; always 16 when BCAST_ISA
 * is "portable" (as for the element-wise kernels, so the portable test run
 * covers the 16-byte path too).  0 unknown yet. */
static atomic_int nt_store_widest;

static int nt_store_width(void) {
  int width = atomic_load_explicit(&nt_store_widest, memory_order_relaxed);
  if (width == 0) {
    const char *isa = getenv("BCAST_ISA");
    __builtin_cpu_init();
    width = isa && strcmp(isa, "portable") == 0 ? 16
            : __builtin_cpu_supports("avx512f") ? 64
            : __builtin_cpu_supports("avx")     ? 32
                                                : 16;
    atomic_store_explicit(&nt_store_widest, width, memory_order_relaxed);
  }
  return width;
}
#else
#define NT_STORE_HAVE_AVX 0
#endif

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
#if NT_STORE_HAVE_AVX
  if (nt && bytes - i >= 64 && nt_store_width() >= 32) {
    nt_store_lines_avx(dst + i, src + i, (bytes - i) & ~(int64_t)63);
    i += (bytes - i) & ~(int64_t)63;
  }
#endif
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

#if BCAST__HAVE_NT_STORE
/* Four 16-byte stores of pattern, with STORE (_mm_store_si128 or
 * _mm_stream_si128), covering the 64-byte line at p. */
#define STORE_LINE_(STORE, p, pattern)                                        \
  do {                                                                        \
    STORE((__m128i *)(p), pattern);                                           \
    STORE((__m128i *)((p) + 16), pattern);                                    \
    STORE((__m128i *)((p) + 32), pattern);                                    \
    STORE((__m128i *)((p) + 48), pattern);                                    \
  } while (0)

void bcast__fill_pattern_upto(char *dst, int64_t bytes, __m128i pattern,
                              int nt, int widest) {
  int64_t i = 0;
  for (; i < bytes && ((uintptr_t)(dst + i) & 63u) != 0; i += 16)
    _mm_store_si128((__m128i *)(dst + i), pattern);
  const int64_t lines = (bytes - i) & ~(int64_t)63;
#if NT_STORE_HAVE_AVX
  const int width = nt_store_width() < widest ? nt_store_width() : widest;
  if (lines > 0 && width == 64 && !nt) {
    fill_lines_avx512(dst + i, lines, pattern);
    i += lines;
  } else if (lines > 0 && width >= 32) {
    fill_lines_avx(dst + i, lines, pattern, nt);
    i += lines;
  }
#else
  (void)widest;
#endif
  for (; i + 64 <= bytes; i += 64) {
    if (nt)
      STORE_LINE_(_mm_stream_si128, dst + i, pattern);
    else
      STORE_LINE_(_mm_store_si128, dst + i, pattern);
  }
  for (; i < bytes; i += 16) _mm_store_si128((__m128i *)(dst + i), pattern);
}
#endif

int bcast__fill_kind(const bcast_plan *plan) {
  int64_t out = plan->elem_bytes[0], in = 0;
  for (int32_t d = 0; d < plan->ndim; d++)
    if (__builtin_mul_overflow(out, plan->extent[d], &out)) out = INT64_MAX;
  for (int32_t k = 1; k < plan->n_operands; k++) {
    int64_t held = plan->elem_bytes[k];
    for (int32_t d = 0; d < plan->ndim; d++)
      if (plan->stride_bytes[k][d] != 0 &&
          __builtin_mul_overflow(held, plan->extent[d], &held))
        held = INT64_MAX;
    in = held > INT64_MAX - in ? INT64_MAX : in + held;
  }
  if (in > out / 8) return BCAST_NOT_A_FILL;
  const int inner = plan->ndim - 1;
  for (int32_t k = 1; k < plan->n_operands && inner >= 0; k++)
    if (plan->stride_bytes[k][inner] != 0 && plan->extent[inner] > 1)
      return BCAST_ROW_FILL;
  return BCAST_PURE_FILL;
}

int64_t bcast__nt_min_bytes_for(const bcast_plan *plan) {
  return bcast__fill_kind(plan) == BCAST_PURE_FILL
             ? bcast__tuned_nt_fill_min()
             : bcast__tuned_nt_store_min();
}

int bcast__store_race_choice(uint32_t call, int64_t ordinary_ns,
                             int64_t nt_ns) {
  if (call < BCAST_STORE_RACE_FIRST) return (call & 1u) == 0;
  const int best = ordinary_ns < nt_ns ? 0 : 1;
  const int64_t won = best ? nt_ns : ordinary_ns,
                lost = best ? ordinary_ns : nt_ns;
  const uint32_t every = lost - won > won / 4 ? BCAST_STORE_RACE_PROBE_FAR
                                              : BCAST_STORE_RACE_PROBE;
  return call % every == 0 ? !best : best;
}

int64_t bcast__store_race_best(const int64_t *ns, int n) {
  int64_t best = 0;
  for (int i = 0; i < n; i++)
    if (ns[i] > 0 && (best == 0 || ns[i] < best)) best = ns[i];
  return best;
}

void bcast__store_race_init(bcast_store_race *race) {
  atomic_init(&race->calls, 0);
  for (int k = 0; k < 2; k++) {
    atomic_init(&race->kept[k], 0);
    for (int i = 0; i < BCAST_STORE_RACE_KEEP; i++)
      atomic_init(&race->ns[k][i], 0);
  }
}

/* The best of a kind's kept times. */
static int64_t store_race_kind_best(bcast_store_race *race, int k) {
  int64_t ns[BCAST_STORE_RACE_KEEP];
  for (int i = 0; i < BCAST_STORE_RACE_KEEP; i++)
    ns[i] = atomic_load_explicit(&race->ns[k][i], memory_order_relaxed);
  return bcast__store_race_best(ns, BCAST_STORE_RACE_KEEP);
}

static int64_t store_race_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int bcast__store_race_start(bcast_store_race *race, int64_t *t0) {
  const uint32_t call = (uint32_t)atomic_fetch_add_explicit(
      &race->calls, 1, memory_order_relaxed);
  const int nt = bcast__store_race_choice(call, store_race_kind_best(race, 0),
                                          store_race_kind_best(race, 1));
  *t0 = store_race_now_ns();
  return nt;
}

void bcast__store_race_end(bcast_store_race *race, int nt, int64_t t0) {
  const int64_t ns = store_race_now_ns() - t0;
  const int k = nt != 0;
  const uint32_t at = (uint32_t)atomic_fetch_add_explicit(
      &race->kept[k], 1, memory_order_relaxed);
  atomic_store_explicit(&race->ns[k][at % BCAST_STORE_RACE_KEEP],
                        ns > 0 ? ns : 1, memory_order_relaxed);
}

void bcast__nt_store_copy(char *dst, const char *src, int64_t bytes) {
  store_copy(dst, src, bytes, 1);
}

void bcast__ordinary_store_copy(char *dst, const char *src, int64_t bytes) {
  store_copy(dst, src, bytes, 0);
}

int bcast__memory_resident(const void *data, size_t bytes) {
#if defined(__linux__)
  static atomic_long page_size;
  long page = atomic_load_explicit(&page_size, memory_order_relaxed);
  if (page == 0) {
    page = sysconf(_SC_PAGESIZE);
    if (page <= 0 || (page & (page - 1)) != 0) page = -1;
    atomic_store_explicit(&page_size, page, memory_order_relaxed);
  }
  if (page < 0 || bytes == 0) return 1;
  const uintptr_t ends[2] = {(uintptr_t)data,
                             (uintptr_t)data + (uintptr_t)(bytes - 1)};
  for (int k = 0; k < 2; k++) {
    unsigned char in_core = 0;
    void *at = (void *)(ends[k] & ~((uintptr_t)page - 1));
    if (mincore(at, (size_t)page, &in_core) == 0 && !(in_core & 1u))
      return 0;
  }
  return 1;
#else
  (void)data;
  (void)bytes;
  return 1;
#endif
}

/* The advised range runs from the first huge page boundary in the block
 * to the block's end (the kernel extends it to the end of that small
 * page), not back to the last boundary: where the mapping under the block
 * ends on a huge page boundary, as a large malloc block's does on Linux
 * 6, the last huge page is then advised too.  NumPy advises the same way
 * (measured on Zen 4, a 16 MiB output under MALLOC_TRIM_THRESHOLD_: 523
 * page faults per call rounding the end down, 11 as NumPy).  A range
 * shorter than a huge page is not advised. */
void bcast__advise_huge_pages(void *data, size_t bytes) {
#if defined(MADV_HUGEPAGE)
  const uintptr_t huge = BCAST__HUGE_PAGE_BYTES;
  const uintptr_t begin = ((uintptr_t)data + huge - 1) & ~(huge - 1);
  const uintptr_t end = (uintptr_t)data + (uintptr_t)bytes;
  if (end > begin && end - begin >= huge)
    (void)madvise((void *)begin, end - begin, MADV_HUGEPAGE);
#else
  (void)data;
  (void)bytes;
#endif
}
