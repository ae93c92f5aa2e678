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

#include <stdatomic.h>
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
 * non-temporal stores, by the copy kernels and by element-wise plans alike
 * (src/plan/tune.h: the environment's, a calibration's, or what the cache
 * sizes suggest).  A pure fill (inputs holding at most an eighth of the
 * output's bytes, every one broadcast along the run: a broadcast copy of a
 * column, a cast of one) takes the fills' threshold (bcast_tuning's
 * nt_fill_min_bytes, measured with these kernels' pattern stores on every
 * thread); every other output the store threshold, a fill that reads a row
 * along the run (an outer sum, a copy of a row) too: that row competes in L1 with the
 * reads for ownership of ordinary stores, which the pattern fill does not
 * foretell.  Zen 4, 4096x1 + 1x4096 float32 into a warm 64 MiB output,
 * each kernel's ratio to a fill of 64-byte ordinary stores in the same
 * alternation, median of 61: one thread 2.9 ms with ordinary stores, 2.5
 * ms with non-temporal ones, 2.5 ms for a fill without the row; two
 * threads 0.60-0.62 with ordinary stores, 0.86-0.90 with non-temporal
 * ones (in the VM's slow memory state, where every kernel runs at half
 * speed, ordinary stores were 8% ahead).  Below the threshold the output
 * can still be in cache when the caller reads it. */
int64_t bcast__nt_min_bytes_for(const bcast_plan *plan);

/* What bcast__nt_min_bytes_for sees in a plan: not a fill, a fill that
 * reads a row along the run, or a pure fill. */
enum { BCAST_NOT_A_FILL = 0, BCAST_ROW_FILL = 1, BCAST_PURE_FILL = 2 };
int bcast__fill_kind(const bcast_plan *plan);

/* Store races.  Which kind of store writes a fill that reads a row along
 * the run faster depends on the moment, not only on the machine: on the
 * project's Zen 4 VM the memory switches between two states within
 * seconds, and an outer sum 4096x1 + 1x4096 float32 into a warm 64 MiB
 * output on two threads took 1.25-1.4 ms with non-temporal stores against
 * 1.4-1.8 ms with ordinary ones in the fast state, 2.4-2.5 ms against
 * 2.0-2.4 ms in the slow one (one run's calls, as the race below chose).
 * So a prepared element-wise plan with such an output, large enough for
 * non-temporal stores, times its calls and races the two kinds: its
 * first BCAST_STORE_RACE_FIRST calls alternate (non-temporal first, as the
 * threshold chose), then each call takes the kind with the lower time,
 * and every BCAST_STORE_RACE_PROBE-th call the other, so that a change of
 * state is seen within that many calls; every
 * BCAST_STORE_RACE_PROBE_FAR-th where the other was more than a quarter
 * slower (a probe then costs a fraction of a percent).  The values
 * written are the same either way.  The counters are atomic: calls on
 * several threads at once only share what they measured.  Plans race
 * only where the calibration's fills leave the question open
 * (bcast__tune_store_race, plan/tune.h). */
#define BCAST_STORE_RACE_FIRST 4u
#define BCAST_STORE_RACE_PROBE 16u
#define BCAST_STORE_RACE_PROBE_FAR 64u /* a multiple of the last */
#define BCAST_STORE_RACE_KEEP 8
typedef struct bcast_store_race {
  atomic_uint_least32_t calls;
  /* Each kind's last BCAST_STORE_RACE_KEEP call times in ns (ordinary,
   * non-temporal; 0: none yet), kept[k] of them written so far. */
  atomic_uint_least32_t kept[2];
  atomic_int_least64_t ns[2][BCAST_STORE_RACE_KEEP];
} bcast_store_race;
void bcast__store_race_init(bcast_store_race *race);
/* Whether call number `call` takes non-temporal stores, given the kinds'
 * best kept times (0: none yet): the race's rule, a pure function. */
int bcast__store_race_choice(uint32_t call, int64_t ordinary_ns,
                             int64_t nt_ns);
/* A kind's time: the fastest of its n kept ones (0 for none), so that a
 * slow call (a preempted thread) does not turn the race, while a change
 * of state shows after BCAST_STORE_RACE_KEEP calls of the kind on top and
 * at the first probe of the other (measured with the mean of the last
 * call and the ones before instead: single slow calls of ordinary stores
 * handed 29% of the calls to the slower non-temporal ones).  Eight kept
 * times, not four: ordinary stores' calls spread wider (2.0-2.7 ms in the
 * slow state above, non-temporal 2.45-2.6), and in stretches of slow ones
 * the best of four let the race turn to non-temporal stores for tens of
 * calls.  That outer sum on two threads in the slow state, each kind and
 * the race in one alternation (median of the medians of 12 calls, 31
 * alternations): ordinary 2.03-2.16 ms, non-temporal 2.49-2.52, the race
 * 2.30-2.33 keeping four and 2.10-2.17 keeping eight; in the fast state
 * (non-temporal 1.33-1.34) the race kept up with non-temporal stores
 * either way (1.26-1.28 keeping four, 1.32-1.35 eight). */
int64_t bcast__store_race_best(const int64_t *ns, int n);
/* The kind a call takes (1 non-temporal), its start time in *t0; end
 * records the call's time. */
int bcast__store_race_start(bcast_store_race *race, int64_t *t0);
void bcast__store_race_end(bcast_store_race *race, int nt, int64_t t0);

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
 * unfenced; see bcast__nt_store_copy).  The whole lines take the widest
 * stores the CPU has, up to widest bytes (16, 32 or 64; the tests narrow
 * it): one 64-byte store each where it has AVX-512F and the stores are
 * ordinary, two 32-byte ones where it has AVX.  On Zen 4, 64 MiB filled on
 * two threads with ordinary stores took 2.12 ms with 16-byte stores and
 * 1.98 ms with 32-byte ones (the non-temporal stores 2.35 ms either way),
 * so a calibration of 16-byte fills (tune.c) favoured non-temporal stores;
 * in the VM's fast memory state 64-byte stores filled it at 66-79 GB/s,
 * 32-byte ones at 54-60 (one thread: 27-31 against 26-29).  Non-temporal
 * 64-byte stores were 7% slower than 32-byte ones. */
void bcast__fill_pattern_upto(char *dst, int64_t bytes, __m128i pattern,
                              int nt, int widest);
static inline void bcast__fill_pattern(char *dst, int64_t bytes,
                                       __m128i pattern, int nt) {
  bcast__fill_pattern_upto(dst, bytes, pattern, nt, 64);
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
