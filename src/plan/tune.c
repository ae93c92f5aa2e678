/* Thresholds chosen by measurement (tune.h, bcast_tuning in bcast/plan.h):
 * the decision from timings, the cache file's text, the timing itself,
 * and the process's state. */
#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__unix__) || defined(__APPLE__)
#include <sys/stat.h>
#endif
#ifdef _OPENMP
#include <omp.h>
#endif

#include "bcast/output.h"
#include "core/alloc.h"
#include "core/diag.h"
#include "core/machine.h"
#include "plan/nt_store.h"
#include "plan/tune.h"

/* ------------------------------------------------------------------------ */
/* The decision. */

static int tune_time_ok(double ns) { return isfinite(ns) && ns > 0; }

/* Whether the alternative way takes point p (bcast__tune_crossover). */
static int tune_alternative_takes(const bcast_tuning_point *p, double margin,
                                  int64_t tie_default_max) {
  return p->bytes <= tie_default_max ? p->ns[1] <= p->ns[0] * (1.0 - margin)
                                     : !(p->ns[0] <= p->ns[1] * (1.0 - margin));
}

/* Invariant while walking down from the largest size: the alternative has
 * taken every size above i. */
int64_t bcast__tune_crossover(const bcast_tuning_point *points, int n,
                              double margin, int64_t tie_default_max) {
  if (n <= 0) return -1;
  for (int i = 0; i < n; i++) {
    if (!tune_time_ok(points[i].ns[0]) || !tune_time_ok(points[i].ns[1]) ||
        points[i].bytes < 0 || (i > 0 && points[i].bytes <= points[i - 1].bytes))
      return -1;
  }
  int i = n - 1;
  while (i >= 0 &&
         tune_alternative_takes(&points[i], margin, tie_default_max))
    i--;
  return i == n - 1 ? BCAST_TUNING_NEVER : points[i + 1].bytes;
}

int bcast__tune_store_race(const bcast_tuning_point *fill, int n) {
  if (n <= 0) return 1;
  for (int i = 0; i < n; i++)
    if (!tune_time_ok(fill[i].ns[0]) || !tune_time_ok(fill[i].ns[1]) ||
        fill[i].ns[0] < BCAST__TUNE_RACE_FAR * fill[i].ns[1])
      return 1;
  return 0;
}

/* ------------------------------------------------------------------------ */
/* The cache file's text. */

#define TUNE_MAGIC "bcast-tune 1"
/* The sources a bcast_tuning names; one object each, so the state can
 * tell them by address. */
static const char TUNE_SOURCE_ENV[] = "environment";
static const char TUNE_SOURCE_FILE[] = "cache file";
static const char TUNE_SOURCE_MEASURED[] = "measured";
static const char TUNE_SOURCE_DERIVED[] = "cache sizes";
/* A cache file is a few hundred bytes; anything past this is not one. */
#define TUNE_FILE_MAX 4096

/* The three kinds of points, by their line's keyword. */
#define TUNE_KINDS 3
static const char *const tune_point_names[TUNE_KINDS] = {"store", "threads",
                                                         "fill"};

static bcast_tuning_point *tune_points(bcast_tuning *t, int kind, int **n) {
  *n = kind == 0 ? &t->n_store : kind == 1 ? &t->n_threads : &t->n_fill;
  return kind == 0 ? t->store : kind == 1 ? t->threads : t->fill;
}

/* The three thresholds, by their line's keyword: the cache file's order,
 * the fill threshold last (a file written before it was measured has
 * none, and its fills take nt_store_min_bytes). */
#define TUNE_THRESHOLDS 3
static const char *const tune_threshold_names[TUNE_THRESHOLDS] = {
    "nt_store_min_bytes", "parallel_min_bytes", "nt_fill_min_bytes"};

static int64_t *tune_threshold(bcast_tuning *t, int k, const char ***source) {
  *source = k == 0 ? &t->nt_store_source
            : k == 1 ? &t->parallel_source
                     : &t->nt_fill_source;
  return k == 0 ? &t->nt_store_min_bytes
         : k == 1 ? &t->parallel_min_bytes
                  : &t->nt_fill_min_bytes;
}

static void tune_format_bytes(char *buf, size_t cap, int64_t bytes) {
  if (bytes == BCAST_TUNING_NEVER)
    snprintf(buf, cap, "never");
  else
    snprintf(buf, cap, "%lld", (long long)bytes);
}

size_t bcast__tune_format(const bcast_tuning *t, char *buf, size_t cap) {
  size_t len = 0;
  if (cap > 0) buf[0] = '\0';
  bcast__append(buf, cap, &len,
                "# bcast's calibration of this machine (bcast tune); "
                "remove it to measure again\n" TUNE_MAGIC "\nmachine %s\n",
                t->machine);
  for (int k = 0; k < TUNE_THRESHOLDS; k++) {
    const char **source;
    char bytes[24];
    tune_format_bytes(bytes, sizeof bytes,
                      *tune_threshold((bcast_tuning *)t, k, &source));
    bcast__append(buf, cap, &len, "%s %s\n", tune_threshold_names[k], bytes);
  }
  for (int kind = 0; kind < TUNE_KINDS; kind++) {
    int *n;
    const bcast_tuning_point *p = tune_points((bcast_tuning *)t, kind, &n);
    for (int i = 0; i < *n; i++)
      bcast__append(buf, cap, &len, "%s %lld %.3f %.3f\n",
                    tune_point_names[kind], (long long)p[i].bytes, p[i].ns[0],
                    p[i].ns[1]);
  }
  return len;
}

/* A threshold's value: a byte count (core/machine.h's form) or "never". */
static int tune_parse_bytes(const char *text, int64_t *bytes) {
  if (strcmp(text, "never") == 0) {
    *bytes = BCAST_TUNING_NEVER;
    return 0;
  }
  return bcast__machine_parse_bytes(text, bytes);
}

/* "BYTES NS NS" of a point line into *p: 0, or -1 when malformed. */
static int tune_parse_point(const char *text, bcast_tuning_point *p) {
  char *end;
  errno = 0;
  const long long bytes = strtoll(text, &end, 10);
  if (errno || end == text || *end != ' ' || bytes < 0) return -1;
  p->bytes = bytes;
  for (int k = 0; k < 2; k++) {
    const char *from = end;
    p->ns[k] = strtod(from, &end);
    if (end == from || !tune_time_ok(p->ns[k])) return -1;
  }
  return *end == '\0' ? 0 : -1;
}

/* One line of the file (NUL-terminated, without its newline) into t and
 * the seen flags (bit 0 magic, 1 machine, 2.. the thresholds): NULL, or
 * what is wrong with it. */
static const char *tune_parse_line(char *line, const char *key,
                                   bcast_tuning *t, unsigned *seen,
                                   const char **file_key) {
  if (line[0] == '\0' || line[0] == '#') return NULL;
  if (!(*seen & 1u)) {
    if (strcmp(line, TUNE_MAGIC) != 0)
      return "not a bcast tuning cache (no '" TUNE_MAGIC "' line)";
    *seen |= 1u;
    return NULL;
  }
  char *value = strchr(line, ' ');
  if (!value) return "a line without a value";
  *value++ = '\0';
  if (strcmp(line, "machine") == 0) {
    *file_key = value;
    *seen |= 2u;
    return strcmp(value, key) == 0 ? NULL : "";
  }
  for (int k = 0; k < TUNE_THRESHOLDS; k++) {
    if (strcmp(line, tune_threshold_names[k]) != 0) continue;
    const char **source;
    if (tune_parse_bytes(value, tune_threshold(t, k, &source)) != 0)
      return "a threshold that is no byte count";
    *seen |= 4u << k;
    return NULL;
  }
  for (int kind = 0; kind < TUNE_KINDS; kind++) {
    if (strcmp(line, tune_point_names[kind]) != 0) continue;
    int *n;
    bcast_tuning_point *p = tune_points(t, kind, &n);
    if (*n == BCAST_TUNING_POINTS_MAX) return "too many points";
    if (tune_parse_point(value, &p[*n]) != 0) return "a malformed point";
    ++*n;
    return NULL;
  }
  return "an unknown key";
}

bcast_status bcast__tune_parse(const char *text, size_t len, const char *key,
                               const char *path, bcast_tuning *t,
                               bcast_diag *diag) {
  if (len > TUNE_FILE_MAX)
    return bcast__fail(diag, BCAST_PARSE,
                       "tuning cache %s ignored: larger than %d bytes", path,
                       TUNE_FILE_MAX);
  if (memchr(text, '\0', len))
    return bcast__fail(diag, BCAST_PARSE,
                       "tuning cache %s ignored: not text (a NUL byte)", path);
  char copy[TUNE_FILE_MAX + 1];
  memcpy(copy, text, len);
  copy[len] = '\0';
  bcast_tuning found = *t;
  found.n_store = found.n_threads = found.n_fill = 0;
  unsigned seen = 0;
  const char *file_key = NULL;
  int line_no = 0;
  for (char *line = copy, *next; line; line = next) {
    line_no++;
    next = strchr(line, '\n');
    if (next) *next++ = '\0';
    const char *wrong = tune_parse_line(line, key, &found, &seen, &file_key);
    if (wrong && !wrong[0])
      return bcast__fail(diag, BCAST_UNSUPPORTED,
                         "tuning cache %s ignored: measured on another "
                         "machine (%s; this one is %s)",
                         path, file_key, key);
    if (wrong)
      return bcast__fail(diag, BCAST_PARSE,
                         "tuning cache %s ignored: line %d: %s", path,
                         line_no, wrong);
  }
  if ((seen & 15u) != 15u)
    return bcast__fail(diag, BCAST_PARSE,
                       "tuning cache %s ignored: %s missing", path,
                       !(seen & 1u)   ? "the '" TUNE_MAGIC "' line"
                       : !(seen & 2u) ? "the machine line"
                                      : "a threshold line");
  if (!(seen & 16u)) found.nt_fill_min_bytes = found.nt_store_min_bytes;
  found.nt_store_source = found.parallel_source = found.nt_fill_source =
      TUNE_SOURCE_FILE;
  *t = found;
  return BCAST_OK;
}

/* ------------------------------------------------------------------------ */
/* The timing. */

static double tune_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Writes bytes of dst on `threads` threads (1: this one), each a
 * 64-byte-aligned share: a copy of src, or with src NULL a fill with a
 * 16-byte pattern (the copy kernels' own fill: whole lines, nothing
 * read); with non-temporal stores when nt. */
static void tune_store(char *dst, const char *src, int64_t bytes, int nt,
                       int threads) {
#ifdef _OPENMP
  if (threads > 1) {
#pragma omp parallel num_threads(threads)
    {
      const int64_t nth = omp_get_num_threads(), tid = omp_get_thread_num();
      const int64_t share = (bytes / nth + 63) & ~(int64_t)63;
      const int64_t begin = tid * share < bytes ? tid * share : bytes;
      const int64_t end = begin + share < bytes ? begin + share : bytes;
      tune_store(dst + begin, src ? src + begin : NULL, end - begin, nt, 1);
    }
    return;
  }
#else
  (void)threads;
#endif
  if (!src) {
#if BCAST__HAVE_NT_STORE
    const __m128i pattern = _mm_set1_epi32(0x3f800000);
    bcast__fill_pattern(dst, bytes & ~(int64_t)15, pattern, nt);
#else
    memset(dst, 0x3f, (size_t)bytes);
#endif
  } else if (nt) {
    bcast__nt_store_copy(dst, src, bytes);
  } else {
    bcast__ordinary_store_copy(dst, src, bytes);
  }
  if (nt) bcast__nt_store_fence();
}

/* What one series times: its sizes, and the two ways (ns[0], ns[1]) as
 * (non-temporal?, threads); fill: fills rather than copies. */
typedef struct tune_series {
  bcast_tuning_point *points;
  int n;
  int nt[2], threads[2];
  int reps;
  double budget_ns;
  int fill;
} tune_series;

/* Rounds a series keeps the times of (the most any series makes). */
#define TUNE_REPS_MAX 21

double bcast__tune_median(double *v, int n) {
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && v[j] < v[j - 1]; j--) {
      const double x = v[j];
      v[j] = v[j - 1];
      v[j - 1] = x;
    }
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Times each size both ways, the order of the two alternating, each timed
 * copy preceded by an untimed one of the same kind (so an ordinary copy
 * pays for the dirty lines its predecessor left, as in a loop of calls),
 * for s->reps rounds (at most TUNE_REPS_MAX) while the budget lasts; each
 * point keeps its fastest time, or for fills the median of its rounds:
 * past the cache an ordinary fill's times spread widely (on Zen 4 with two
 * threads, 64 MiB: fastest 1.98 ms, mean 2.73 ms; non-temporal 2.38 and
 * 2.46), and its fastest foretells no typical call.  Returns the rounds
 * completed: 0 when the budget ran out inside the first (another process
 * held the CPUs), and then nothing is decided from the series. */
static int tune_time_series(const tune_series *s, char *dst,
                            const char *src) {
  const double start = tune_now_ns();
  const int reps = s->reps < TUNE_REPS_MAX ? s->reps : TUNE_REPS_MAX;
  double times[BCAST_TUNING_POINTS_MAX][2][TUNE_REPS_MAX];
  int done[BCAST_TUNING_POINTS_MAX] = {0};
  int rounds = reps;
  for (int rep = 0; rep < reps && rounds == reps; rep++) {
    for (int i = 0; i < s->n; i++) {
      for (int j = 0; j < 2; j++) {
        const int way = (rep + j) & 1;
        const int64_t bytes = s->points[i].bytes;
        double t0 = 0;
        for (int timed = 0; timed < 2; timed++) {
          t0 = tune_now_ns();
          tune_store(dst, s->fill ? NULL : src, bytes, s->nt[way],
                     s->threads[way]);
        }
        const double ns = tune_now_ns() - t0;
        times[i][way][rep] = ns > 0 ? ns : 1;
      }
      done[i] = rep + 1;
      if (tune_now_ns() - start > s->budget_ns && i + 1 < s->n) {
        rounds = rep;
        break;
      }
    }
    if (rounds == reps && tune_now_ns() - start > s->budget_ns)
      rounds = rep + 1;
  }
  for (int i = 0; i < s->n; i++)
    for (int way = 0; way < 2; way++) {
      double *v = times[i][way], best = 0;
      for (int r = 0; r < done[i]; r++)
        if (r == 0 || v[r] < best) best = v[r];
      s->points[i].ns[way] = done[i] == 0 ? 0
                             : s->fill    ? bcast__tune_median(v, done[i])
                                          : best;
    }
  return rounds;
}

/* ------------------------------------------------------------------------ */
/* The process's state. */

/* state: 0 not resolved, 1 being resolved by one thread, 2 resolved.
 * lazy: 0 the lazy calibration may run, 1 it ran or a calibration was
 * made, 2 not wanted (cache file, BCAST_TUNE=off).  tune_now (sources,
 * points) is read and written under tune_lock; the thresholds the engine
 * reads on every call are atomics beside it. */
static atomic_int tune_state, tune_lazy;
static atomic_flag tune_lock = ATOMIC_FLAG_INIT;
static _Atomic int64_t tune_nt_min, tune_par_min, tune_fill_min;
static atomic_int tune_race;
static bcast_tuning tune_now;
static bcast_diag tune_warning;

static void tune_lock_take(void) {
  while (atomic_flag_test_and_set_explicit(&tune_lock, memory_order_acquire)) {
  }
}

static void tune_lock_give(void) {
  atomic_flag_clear_explicit(&tune_lock, memory_order_release);
}

/* The cache file: BCAST_TUNE_FILE, else bcast/tune-HASH.txt under
 * $XDG_CACHE_HOME or ~/.cache, HASH the FNV-1a hash of the machine key
 * (so machines sharing a home directory keep one file each); "" when
 * none of those variables is set. */
static void tune_default_path(const char *key, char *path, size_t cap) {
  const char *file = getenv("BCAST_TUNE_FILE");
  if (file && file[0]) {
    snprintf(path, cap, "%s", file);
    return;
  }
  uint64_t hash = 14695981039346656037u;
  for (const char *p = key; *p; p++)
    hash = (hash ^ (unsigned char)*p) * 1099511628211u;
  const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  if (xdg && xdg[0] == '/')
    snprintf(path, cap, "%s/bcast/tune-%016llx.txt", xdg,
             (unsigned long long)hash);
  else if (home && home[0])
    snprintf(path, cap, "%s/.cache/bcast/tune-%016llx.txt", home,
             (unsigned long long)hash);
  else
    path[0] = '\0';
}

/* Takes found's thresholds (and points) into the process's, except those
 * the environment set. */
static void tune_adopt(const bcast_tuning *found) {
  if (tune_now.nt_store_source != TUNE_SOURCE_ENV) {
    tune_now.nt_store_min_bytes = found->nt_store_min_bytes;
    tune_now.nt_store_source = found->nt_store_source;
  }
  if (tune_now.parallel_source != TUNE_SOURCE_ENV) {
    tune_now.parallel_min_bytes = found->parallel_min_bytes;
    tune_now.parallel_source = found->parallel_source;
  }
  if (tune_now.nt_fill_source != TUNE_SOURCE_ENV) {
    tune_now.nt_fill_min_bytes = found->nt_fill_min_bytes;
    tune_now.nt_fill_source = found->nt_fill_source;
  }
  tune_now.n_store = found->n_store;
  tune_now.n_threads = found->n_threads;
  tune_now.n_fill = found->n_fill;
  memcpy(tune_now.store, found->store, sizeof found->store);
  memcpy(tune_now.threads, found->threads, sizeof found->threads);
  memcpy(tune_now.fill, found->fill, sizeof found->fill);
  tune_now.measure_ms = found->measure_ms;
  tune_now.store_race = bcast__tune_store_race(found->fill, found->n_fill);
  atomic_store(&tune_race, tune_now.store_race);
  atomic_store(&tune_nt_min, tune_now.nt_store_min_bytes);
  atomic_store(&tune_par_min, tune_now.parallel_min_bytes);
  atomic_store(&tune_fill_min, tune_now.nt_fill_min_bytes);
}

/* Reads the cache file at path into t (a copy of the process's): BCAST_OK
 * when it was adopted; BCAST_IO when there is none (no warning); any
 * other status with the warning in diag. */
static bcast_status tune_read_file(const char *path, const char *key,
                                   bcast_tuning *t, bcast_diag *diag) {
  FILE *f = path[0] ? fopen(path, "rb") : NULL;
  if (!f) return BCAST_IO;
  char text[TUNE_FILE_MAX + 1];
  const size_t len = fread(text, 1, sizeof text, f);
  const int failed = ferror(f);
  fclose(f);
  if (failed)
    return bcast__fail(diag, BCAST_IO,
                       "tuning cache %s ignored: it cannot be read", path);
  return bcast__tune_parse(text, len, key, path, t, diag);
}

/* Resolves the state once: the machine's values, then the cache file. */
static void tune_resolve(void) {
  if (atomic_load_explicit(&tune_state, memory_order_acquire) == 2) return;
  int expected = 0;
  if (!atomic_compare_exchange_strong(&tune_state, &expected, 1)) {
    /* Another thread reads the file: a few microseconds. */
    while (atomic_load_explicit(&tune_state, memory_order_acquire) != 2) {
    }
    return;
  }
  /* The machine's facts, with the environment read now (not when they
   * were first read), so that bcast__tune_reset sees a changed one. */
  bcast__machine_env env;
  bcast__machine_env_read(&env);
  bcast__machine facts = *bcast__machine_get();
  bcast__machine_derive(&facts, facts.l2_bytes, facts.llc_bytes, &env);
  const bcast__machine *m = &facts;
  bcast_tuning *t = &tune_now;
  memset(t, 0, sizeof *t);
  bcast__machine_key(m, t->machine, sizeof t->machine);
  tune_default_path(t->machine, t->cache_path, sizeof t->cache_path);
  t->nt_store_min_bytes = m->nt_store_min_bytes;
  t->parallel_min_bytes = m->parallel_min_bytes;
  t->nt_fill_min_bytes = m->nt_fill_min_bytes;
  t->nt_store_source =
      m->nt_store_from_env ? TUNE_SOURCE_ENV : TUNE_SOURCE_DERIVED;
  t->parallel_source =
      m->parallel_from_env ? TUNE_SOURCE_ENV : TUNE_SOURCE_DERIVED;
  t->nt_fill_source =
      m->nt_fill_from_env ? TUNE_SOURCE_ENV : TUNE_SOURCE_DERIVED;
  atomic_store(&tune_nt_min, t->nt_store_min_bytes);
  atomic_store(&tune_par_min, t->parallel_min_bytes);
  atomic_store(&tune_fill_min, t->nt_fill_min_bytes);
  t->store_race = 1;
  atomic_store(&tune_race, 1);
  bcast_diag_clear(&tune_warning);
  const char *mode = getenv("BCAST_TUNE");
  if (mode && (strcmp(mode, "off") == 0 || strcmp(mode, "0") == 0)) {
    atomic_store(&tune_lazy, 2);
  } else {
    bcast_tuning found = *t;
    const bcast_status st =
        tune_read_file(t->cache_path, t->machine, &found, &tune_warning);
    if (st == BCAST_OK) {
      tune_adopt(&found);
      atomic_store(&tune_lazy, 2);
    } else if (st == BCAST_IO && tune_warning.status == BCAST_OK) {
      bcast_diag_clear(&tune_warning); /* no file: nothing to say */
    }
  }
  /* A threshold variable that is not a byte count is ignored, and said
   * so after what there is to say of the cache file. */
  const char *ignored = m->env_ignored, *value = m->env_ignored_value;
  if (ignored) {
#define TUNE_IGNORED_                                                         \
  "%s='%.64s' ignored: not a byte count (decimal digits, "                    \
  "optionally followed by K, M or G)"
    if (tune_warning.status == BCAST_OK) {
      bcast__fail(&tune_warning, BCAST_INVALID_ARGUMENT, TUNE_IGNORED_,
                  ignored, value);
    } else {
      size_t len = strlen(tune_warning.message);
      bcast__append(tune_warning.message, sizeof tune_warning.message, &len,
                    "; " TUNE_IGNORED_, ignored, value);
    }
#undef TUNE_IGNORED_
  }
  atomic_store_explicit(&tune_state, 2, memory_order_release);
}

/* This thread's holds (bcast__tune_hold). */
static _Thread_local int tune_held;

void bcast__tune_hold(int delta) { tune_held += delta; }

void bcast__tune_reset(void) {
  tune_lock_take();
  atomic_store(&tune_state, 0);
  atomic_store(&tune_lazy, 0);
  tune_lock_give();
}

void bcast__tune_lazy(int64_t out_bytes) {
  tune_resolve();
  if (out_bytes < BCAST_TUNING_LAZY_MIN_BYTES || tune_held > 0 ||
      atomic_load_explicit(&tune_lazy, memory_order_relaxed) != 0)
    return;
  int expected = 0;
  if (!atomic_compare_exchange_strong(&tune_lazy, &expected, 1)) return;
  bcast_tuning t;
  (void)bcast_tuning_measure(&t, 0, NULL);
}

int64_t bcast__tuned_nt_store_min(void) {
  tune_resolve();
  return atomic_load_explicit(&tune_nt_min, memory_order_relaxed);
}

int64_t bcast__tuned_parallel_min(void) {
  tune_resolve();
  return atomic_load_explicit(&tune_par_min, memory_order_relaxed);
}

int64_t bcast__tuned_nt_fill_min(void) {
  tune_resolve();
  return atomic_load_explicit(&tune_fill_min, memory_order_relaxed);
}

int bcast__tuned_store_race(void) {
  tune_resolve();
  return atomic_load_explicit(&tune_race, memory_order_relaxed);
}

bcast_status bcast_tuning_get(bcast_tuning *tuning, bcast_diag *warning) {
  tune_resolve();
  tune_lock_take();
  *tuning = tune_now;
  if (warning) *warning = tune_warning;
  tune_lock_give();
  return BCAST_OK;
}

/* The sizes each calibration times.  Stores: around the threshold the
 * cache sizes give (base), base/2..2*base quick, base/8..16*base thorough;
 * threads: 64 KiB..4 MiB (16 MiB thorough), doubling; fills, on every
 * thread, beyond the cache: 4*base and 8*base quick (a quarter of the LLC
 * is base, so once and twice the LLC), 2*base..32*base thorough. */
static int tune_sizes(bcast_tuning_point *p, int64_t first, int n) {
  for (int i = 0; i < n; i++) p[i].bytes = first << i;
  return n;
}

bcast_status bcast_tuning_measure(bcast_tuning *tuning, int thorough,
                                  bcast_diag *diag) {
  tune_resolve();
  atomic_store(&tune_lazy, 1);
  const double start = tune_now_ns();
  const bcast__machine *m = bcast__machine_get();
  bcast__machine derived;
  bcast__machine_derive(&derived, m->l2_bytes, m->llc_bytes, NULL);
  int64_t base = derived.nt_store_min_bytes;
  base = base < ((int64_t)1 << 20) ? (int64_t)1 << 20
         : base > ((int64_t)64 << 20) ? (int64_t)64 << 20
                                      : base;
  bcast_tuning t;
  tune_lock_take();
  t = tune_now;
  tune_lock_give();
  t.n_store = tune_sizes(t.store, thorough ? base / 8 : base / 2,
                         thorough ? 8 : 3);
  t.n_threads = tune_sizes(t.threads, (int64_t)64 << 10, thorough ? 9 : 7);
  t.n_fill = tune_sizes(t.fill, thorough ? 2 * base : 4 * base,
                        thorough ? 5 : 2);
  /* src: the copies' largest; dst: the fills' too. */
  const int64_t copied = t.store[t.n_store - 1].bytes;
  const int64_t filled = t.fill[t.n_fill - 1].bytes;
  const int64_t largest = filled > copied ? filled : copied;
  void *dst_block, *src_block;
  char *dst = bcast__aligned_alloc(64, (size_t)largest, &dst_block);
  char *src = bcast__aligned_alloc(64, (size_t)copied, &src_block);
  if (!dst || !src) {
    bcast__free(dst_block);
    bcast__free(src_block);
    return bcast__fail(diag, BCAST_NO_MEMORY,
                       "tuning: no memory for buffers of %lld and %lld bytes",
                       (long long)largest, (long long)copied);
  }
  bcast__advise_huge_pages(dst, (size_t)largest);
  bcast__advise_huge_pages(src, (size_t)copied);
  memset(dst, 0, (size_t)largest);
  memset(src, 0x5a, (size_t)copied);
  const tune_series store = {t.store, t.n_store, {0, 1}, {1, 1},
                             thorough ? 7 : 2, thorough ? 3e9 : 25e6, 0};
  if (tune_time_series(&store, dst, src) == 0) t.n_store = 0;
  int threads = 1;
#ifdef _OPENMP
  if (!omp_in_parallel()) threads = omp_get_max_threads();
#endif
  const tune_series fill = {t.fill, t.n_fill, {0, 1}, {threads, threads},
                            thorough ? 9 : 2, thorough ? 3e9 : 40e6, 1};
  if (tune_time_series(&fill, dst, src) == 0) t.n_fill = 0;
  if (threads > 1) {
    const tune_series split = {t.threads, t.n_threads, {0, 0}, {1, threads},
                               thorough ? 21 : 5, thorough ? 2e9 : 20e6, 0};
    if (tune_time_series(&split, dst, src) == 0) t.n_threads = 0;
  } else {
    t.n_threads = 0;
  }
  bcast__free(dst_block);
  bcast__free(src_block);
  /* The choice: a crossover where there is one.  Past the largest size
   * measured the stores behave as there (the output is far beyond the
   * cache), so "never" stays never; threads that did not pay by the
   * largest size start just above it. */
  const int64_t nt = bcast__tune_crossover(t.store, t.n_store,
                                           BCAST__TUNE_MARGIN,
                                           BCAST_TUNING_NEVER);
  /* Fills: a tie keeps ordinary stores up to twice the cache one core can
   * count on (eight times the derived store threshold, a quarter of it),
   * where the output's last part is still in the cache for the caller's
   * next read; beyond, it goes to non-temporal stores.  (Zen 4, two
   * threads, median fills: 64 MiB within 1% either way, 128 and 256 MiB
   * within 1% in one memory state and 11-16% faster non-temporal in
   * another: 128 MiB.) */
  const int64_t nt_fill =
      bcast__tune_crossover(t.fill, t.n_fill, BCAST__TUNE_MARGIN,
                            8 * derived.nt_store_min_bytes);
  int64_t par = bcast__tune_crossover(t.threads, t.n_threads,
                                      BCAST__TUNE_MARGIN, BCAST_TUNING_NEVER);
  if (par == BCAST_TUNING_NEVER) par = 2 * t.threads[t.n_threads - 1].bytes;

  t.nt_store_min_bytes = nt >= 0 ? nt : derived.nt_store_min_bytes;
  t.nt_store_source = nt >= 0 ? TUNE_SOURCE_MEASURED : TUNE_SOURCE_DERIVED;
  t.parallel_min_bytes = par >= 0 ? par : derived.parallel_min_bytes;
  t.parallel_source = par >= 0 ? TUNE_SOURCE_MEASURED : TUNE_SOURCE_DERIVED;
  /* Without a fill measurement, fills follow the other outputs. */
  t.nt_fill_min_bytes = nt_fill >= 0 ? nt_fill : t.nt_store_min_bytes;
  t.nt_fill_source = nt_fill >= 0 ? TUNE_SOURCE_MEASURED : t.nt_store_source;
  t.store_race = bcast__tune_store_race(t.fill, t.n_fill);
  t.measure_ms = (tune_now_ns() - start) / 1e6;
  tune_lock_take();
  tune_adopt(&t);
  tune_lock_give();
  *tuning = t;
  return BCAST_OK;
}

/* Makes the directories above the file at path (as mkdir -p), ignoring
 * failures: opening the file reports them. */
static void tune_make_dirs(const char *path) {
#if defined(__unix__) || defined(__APPLE__)
  char dir[sizeof ((bcast_tuning *)0)->cache_path];
  snprintf(dir, sizeof dir, "%s", path);
  for (char *p = dir + 1; *p; p++) {
    if (*p != '/') continue;
    *p = '\0';
    (void)mkdir(dir, 0755);
    *p = '/';
  }
#else
  (void)path;
#endif
}

bcast_status bcast_tuning_save(const bcast_tuning *tuning, const char *path,
                               bcast_diag *diag) {
  if (!path) {
    if (!tuning->cache_path[0])
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "no place for the tuning cache: HOME, "
                         "XDG_CACHE_HOME and BCAST_TUNE_FILE are unset");
    path = tuning->cache_path;
    tune_make_dirs(path);
  }
  char text[TUNE_FILE_MAX];
  const size_t len = bcast__tune_format(tuning, text, sizeof text);
  if (len + 1 >= sizeof text)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "the tuning is too long for a cache file");
  bcast_output *out;
  const bcast_status st = bcast_output_open(path, &out, diag);
  if (st != BCAST_OK) return st;
  /* A failed write is remembered and reported by the commit. */
  (void)bcast_output_write(out, text, len);
  return bcast_output_commit(out, diag);
}
