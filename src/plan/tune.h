/* Internal: the thresholds the engine decides by, chosen by measurement
 * on the machine it runs on (bcast_tuning in bcast/plan.h; the manual is
 * docs/thresholds.md).
 *
 * The pieces are kept apart so each can be tested alone: the timing
 * (tune.c, not deterministic), the decision from timings
 * (bcast__tune_crossover, a pure function), and the cache file's text
 * (bcast__tune_format and bcast__tune_parse, pure as well).  The process's
 * state resolves once, thread-safely: the cache-derived values and the
 * environment's (core/machine.h), then the cache file, then, on the first
 * output of at least BCAST_TUNING_LAZY_MIN_BYTES, the lazy calibration,
 * whose result later calls see. */
#ifndef BCAST_PLAN_TUNE_H
#define BCAST_PLAN_TUNE_H

#include <stddef.h>
#include <stdint.h>

#include "bcast/plan.h"

/* The threshold at which the alternative way (ns[1]) starts to pay, from
 * points sorted by increasing bytes: the smallest size from which the
 * alternative takes every size measured; BCAST_TUNING_NEVER when it does
 * not take the largest; -1 (no decision) when there are no points, a time
 * is not positive and finite, or the sizes are not increasing.  Up to
 * tie_default_max bytes the alternative takes a size by being faster than
 * the default by at least `margin` (0.05: 5%): equal timings keep the
 * default way, the alternative must prove itself.  Above it, the default
 * must prove itself, and a tie goes to the alternative: for fills, which
 * past the cache write every byte either way, non-temporal stores leave
 * the cache to the caller's other data once the output is too large for
 * its last part to help the next read (BCAST_TUNING_NEVER: ties keep the
 * default at every size). */
int64_t bcast__tune_crossover(const bcast_tuning_point *points, int n,
                              double margin, int64_t tie_default_max);

/* The median of v[0..n) (n > 0; of an even count, the mean of the middle
 * two), sorting v: what a fill's point keeps of its rounds. */
double bcast__tune_median(double *v, int n);

/* The margin the calibration decides with. */
#define BCAST__TUNE_MARGIN 0.05

/* Whether prepared plans race the two kinds of store on fills that read
 * a row (plan/nt_store.h), from the fill points: yes, unless there are
 * points and at every one non-temporal stores (ns[1]) took at most
 * 1/BCAST__TUNE_RACE_FAR of ordinary ones' time.  Where they are that far
 * ahead a race only loses: its probes of ordinary stores cost the gap,
 * and a probe that follows other ordinary writes of the output, fast as
 * they leave its lines in the cache, turns the race to ordinary stores,
 * whose next calls pay for the lines non-temporal stores pushed out.
 * Measured on the Intel Xeon VM (480 MiB L3, 2 threads; tuned fills 2.5-
 * 2.7x faster non-temporal from 32 MiB on): an outer sum 4096x1 + 1x4096
 * float32, 64 MiB, steady in a loop 1.47 ms a call non-temporal, 1.28
 * ordinary, but ordinary calls after non-temporal ones 3.97, 3.74, 2.64,
 * 1.86, 1.50 ms, and in the peer harness (other contenders writing the
 * same output between slices) the race ran at 77% of the non-temporal
 * fill's speed.  On Zen 4 the fills tie (within 5%) and plans race. */
#define BCAST__TUNE_RACE_FAR 1.25
int bcast__tune_store_race(const bcast_tuning_point *fill, int n);

/* Writes t's machine, thresholds and points as cache-file text into
 * buf[cap] (NUL-terminated); the length written, cap - 1 when the text
 * was cut. */
size_t bcast__tune_format(const bcast_tuning *t, char *buf, size_t cap);

/* Reads cache-file text: BCAST_OK with t's thresholds, points and sources
 * ("cache file") set when the text is well formed and was written for
 * machine `key`; otherwise t is left alone and the status says why,
 * BCAST_PARSE for corrupt text (diag names the line) and BCAST_UNSUPPORTED
 * for another machine's file (diag names both machines).  `path` is only
 * for the messages. */
bcast_status bcast__tune_parse(const char *text, size_t len, const char *key,
                               const char *path, bcast_tuning *t,
                               bcast_diag *diag);

/* The process's thresholds, resolving the state on first use. */
int64_t bcast__tuned_nt_store_min(void);
int64_t bcast__tuned_parallel_min(void);
int64_t bcast__tuned_nt_fill_min(void);
/* The process's bcast__tune_store_race (1 before any points). */
int bcast__tuned_store_race(void);

/* Called by the plan engine before it runs an output of out_bytes bytes:
 * the first run of at least BCAST_TUNING_LAZY_MIN_BYTES (not a plan
 * built: a plan can describe an output written tile by tile) makes the
 * lazy calibration, once per process; plans built after it use its
 * choice. */
void bcast__tune_lazy(int64_t out_bytes);

/* delta +1 / -1 around a call that works within a caller's memory bound
 * (src/save): while held, this thread starts no lazy calibration, whose
 * buffers (two of up to 16 MiB) would exceed the bound; a later call
 * without one makes it. */
void bcast__tune_hold(int delta);

/* Forgets the resolved state: the next use reads the environment and the
 * cache file again and may calibrate again.  For tests, while no other
 * thread uses the library. */
void bcast__tune_reset(void);

#endif
