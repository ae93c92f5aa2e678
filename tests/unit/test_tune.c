/* Thresholds chosen by measurement (src/plan/tune.h): the decision on
 * synthetic timings, the cache file's text (round trip, corrupt and
 * foreign files), and the process's state: the environment over the cache
 * file, a corrupt or foreign file ignored with a structured warning,
 * BCAST_TUNE=off, and the lazy calibration running once, never while held
 * (src/save's memory-bounded calls). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bcast/bcast.h"
#include "core/machine.h"
#include "ew/ew_plan.h"
#include "plan/nt_store.h"
#include "plan/tune.h"
#include "test.h"
#include "test_tune_env.h"

#define MIB ((int64_t)1 << 20)

/* Points at 1, 2, 4, ... MiB from n pairs of times. */
static int points_from(bcast_tuning_point *p, const double (*ns)[2], int n) {
  for (int i = 0; i < n; i++) {
    p[i].bytes = MIB << i;
    p[i].ns[0] = ns[i][0];
    p[i].ns[1] = ns[i][1];
  }
  return n;
}

/* Synthetic timings at 1, 2, 4, 8 MiB and the threshold they give. */
typedef struct crossover_case {
  const char *what;
  int n;
  double ns[4][2];
  int64_t want;
} crossover_case;

/* Checks bcast__tune_crossover (margin 5%, ties keeping the default up
 * to tie_default_max bytes) on each case. */
static void check_crossovers(test_ctx *t, int64_t tie_default_max,
                             const crossover_case *cases, size_t n_cases) {
  for (size_t c = 0; c < n_cases; c++) {
    bcast_tuning_point p[4];
    const int n = points_from(p, cases[c].ns, cases[c].n);
    const int64_t got = bcast__tune_crossover(p, n, 0.05, tie_default_max);
    if (got != cases[c].want)
      test_fail(t, __FILE__, __LINE__, "%s: %lld, want %lld", cases[c].what,
                (long long)got, (long long)cases[c].want);
  }
}

TEST(tune_crossover_on_synthetic_timings) {
  static const crossover_case cases[] = {
      {"wins from 4 MiB on", 4, {{10, 12}, {20, 22}, {40, 30}, {80, 50}},
       4 * MIB},
      {"wins everywhere", 3, {{10, 5}, {20, 10}, {40, 20}}, MIB},
      {"never wins", 3, {{10, 12}, {20, 30}, {40, 41}}, BCAST_TUNING_NEVER},
      {"wins, loses at the largest", 3, {{10, 5}, {20, 10}, {40, 45}},
       BCAST_TUNING_NEVER},
      {"a win below a loss does not count", 4,
       {{10, 5}, {20, 25}, {40, 30}, {80, 60}}, 4 * MIB},
      {"equal times keep the default", 2, {{10, 10}, {20, 20}},
       BCAST_TUNING_NEVER},
      {"4% faster is inside the margin", 2, {{100, 96}, {200, 150}},
       2 * MIB},
      {"exactly the margin is a win", 2, {{100, 95}, {200, 150}}, MIB},
      {"no points: no decision", 0, {{0, 0}}, -1},
      {"a zero time: no decision", 2, {{10, 0}, {20, 10}}, -1},
      {"a NaN time: no decision", 2, {{10, NAN}, {20, 10}}, -1},
      {"an infinite time: no decision", 2, {{10, INFINITY}, {20, 10}}, -1},
  };
  check_crossovers(t, BCAST_TUNING_NEVER, cases,
                   sizeof cases / sizeof cases[0]);
  /* Sizes out of order: no decision. */
  bcast_tuning_point p[2] = {{2 * MIB, {10, 5}}, {MIB, {10, 5}}};
  CHECK_INT(bcast__tune_crossover(p, 2, 0.05, BCAST_TUNING_NEVER), -1);
  /* Fills: ties keep ordinary stores up to 2 MiB, go to non-temporal ones
   * above. */
  static const crossover_case fills[] = {
      {"ties on both sides of the bound", 4,
       {{10, 10}, {20, 20}, {40, 40}, {80, 80}}, 4 * MIB},
      {"Zen 4: 2% either way", 4, {{20, 60}, {98, 100}, {204, 200}, {400, 408}},
       4 * MIB},
      {"4% non-temporal lead at the bound keeps ordinary", 4,
       {{10, 10}, {100, 96}, {40, 40}, {80, 80}}, 4 * MIB},
      {"non-temporal wins everywhere", 4, {{10, 5}, {20, 10}, {40, 20}, {80, 40}},
       MIB},
      {"ordinary wins by 5% beyond the bound", 4,
       {{10, 10}, {20, 20}, {40, 40}, {95, 100}}, BCAST_TUNING_NEVER},
      {"ordinary wins by 4% beyond the bound: a tie", 4,
       {{10, 10}, {20, 20}, {40, 40}, {96, 100}}, 4 * MIB},
  };
  check_crossovers(t, 2 * MIB, fills, sizeof fills / sizeof fills[0]);
}

/* Random timings: the answer is the definition's (checked by brute force)
 * and the same on every call with the same timings. */
TEST(tune_crossover_is_the_definition_on_random_timings) {
  uint64_t seed = test_seed(), state = seed;
  for (int round = 0; round < 2000; round++) {
    bcast_tuning_point p[BCAST_TUNING_POINTS_MAX];
    const int n = (int)test_rand_range(&state, 1, BCAST_TUNING_POINTS_MAX);
    for (int i = 0; i < n; i++) {
      p[i].bytes = MIB << i;
      p[i].ns[0] = (double)test_rand_range(&state, 1, 1000);
      p[i].ns[1] = (double)test_rand_range(&state, 1, 1000);
    }
    /* Ties keep the default at every size, or up to one measured. */
    const int64_t bound =
        test_rand_range(&state, 0, 1) ? BCAST_TUNING_NEVER
                                      : MIB << test_rand_range(&state, 0, n - 1);
    int64_t want = BCAST_TUNING_NEVER;
    for (int i = 0; i < n; i++) {
      int all = 1;
      for (int j = i; j < n; j++)
        all &= p[j].bytes <= bound ? p[j].ns[1] <= p[j].ns[0] * 0.95
                                   : p[j].ns[0] > p[j].ns[1] * 0.95;
      if (all) {
        want = p[i].bytes;
        break;
      }
    }
    const int64_t a = bcast__tune_crossover(p, n, 0.05, bound);
    const int64_t b = bcast__tune_crossover(p, n, 0.05, bound);
    if (a != want || b != a) {
      test_fail(t, __FILE__, __LINE__,
                "seed %llu round %d: %lld then %lld, want %lld",
                (unsigned long long)seed, round, (long long)a, (long long)b,
                (long long)want);
      return;
    }
  }
}

/* The median a fill's point keeps: odd and even counts, any order,
 * repeated values. */
TEST(tune_median_of_the_rounds) {
  double one[1] = {7}, two[2] = {9, 3}, five[5] = {5, 1, 4, 2, 3},
         same[4] = {2, 8, 2, 8}, nine[9] = {9, 8, 7, 6, 5, 4, 3, 2, 1};
  CHECK(bcast__tune_median(one, 1) == 7);
  CHECK(bcast__tune_median(two, 2) == 6);
  CHECK(bcast__tune_median(five, 5) == 3);
  CHECK(bcast__tune_median(same, 4) == 5);
  CHECK(bcast__tune_median(nine, 9) == 5);
  for (int i = 1; i < 9; i++) CHECK(nine[i - 1] <= nine[i]);
}

static void sample_tuning(bcast_tuning *s) {
  memset(s, 0, sizeof *s);
  snprintf(s->machine, sizeof s->machine,
           "cpu=Test CPU (family 1 model 2);l2=1048576;llc=33554432;cpus=2");
  s->nt_store_min_bytes = 12 * MIB;
  s->parallel_min_bytes = BCAST_TUNING_NEVER;
  s->n_store = 2;
  s->store[0] = (bcast_tuning_point){4 * MIB, {100.5, 120.25}};
  s->store[1] = (bcast_tuning_point){8 * MIB, {300, 200}};
  s->n_threads = 1;
  s->threads[0] = (bcast_tuning_point){65536, {1.5, 2.5}};
  s->nt_fill_min_bytes = BCAST_TUNING_NEVER;
  s->n_fill = 1;
  s->fill[0] = (bcast_tuning_point){32 * MIB, {800.5, 1177.75}};
}

TEST(tune_cache_text_round_trips) {
  bcast_tuning s, r;
  sample_tuning(&s);
  char text[4096];
  const size_t len = bcast__tune_format(&s, text, sizeof text);
  CHECK(len > 0 && len < sizeof text - 1);
  memset(&r, 0, sizeof r);
  bcast_diag diag;
  CHECK_INT(bcast__tune_parse(text, len, s.machine, "f", &r, &diag),
            BCAST_OK);
  CHECK_INT(r.nt_store_min_bytes, s.nt_store_min_bytes);
  CHECK_INT(r.parallel_min_bytes, BCAST_TUNING_NEVER);
  CHECK(strcmp(r.nt_store_source, "cache file") == 0);
  CHECK(strcmp(r.parallel_source, "cache file") == 0);
  CHECK_INT(r.n_store, 2);
  CHECK_INT(r.n_threads, 1);
  CHECK_INT(r.store[1].bytes, 8 * MIB);
  CHECK(r.store[0].ns[1] == 120.25 && r.threads[0].ns[0] == 1.5);
  CHECK_INT(r.nt_fill_min_bytes, BCAST_TUNING_NEVER);
  CHECK(strcmp(r.nt_fill_source, "cache file") == 0);
  CHECK_INT(r.n_fill, 1);
  CHECK(r.fill[0].bytes == 32 * MIB && r.fill[0].ns[1] == 1177.75);
  /* A file written before fills were measured has no fill lines: fills
   * then take its nt_store_min_bytes. */
  char *line = strstr(text, "nt_fill_min_bytes");
  char *fill = strstr(text, "\nfill ");
  CHECK(line != NULL && fill != NULL);
  if (!line || !fill) return;
  *strchr(fill + 1, '\n') = '\0'; /* the fill point was the last line */
  *fill = '\0';
  memmove(line, strchr(line, '\n') + 1, strlen(strchr(line, '\n') + 1) + 1);
  CHECK(strstr(text, "fill") == NULL);
  memset(&r, 0, sizeof r);
  CHECK_INT(bcast__tune_parse(text, strlen(text), s.machine, "f", &r, &diag),
            BCAST_OK);
  CHECK_INT(r.nt_fill_min_bytes, 12 * MIB);
  CHECK_INT(r.n_fill, 0);
  CHECK(strcmp(r.nt_fill_source, "cache file") == 0);
}

/* Each corrupt text: BCAST_PARSE, a message naming the file, and the
 * tuning left as it was. */
TEST(tune_corrupt_cache_text_is_refused_with_a_reason) {
  static const char *const key = "cpu=X;l2=1;llc=2;cpus=3";
  static const struct {
    const char *text, *reason;
  } bad[] = {
      {"", "missing"},
      {"# only a comment\n", "missing"},
      {"bcast-tune 2\nmachine cpu=X;l2=1;llc=2;cpus=3\n", "line 1"},
      {"bcast-tune 1\nmachine cpu=X;l2=1;llc=2;cpus=3\n"
       "nt_store_min_bytes 8M\n",
       "a threshold line missing"},
      {"bcast-tune 1\nmachine cpu=X;l2=1;llc=2;cpus=3\n"
       "nt_store_min_bytes 8MB\nparallel_min_bytes 1\n",
       "line 3: a threshold that is no byte count"},
      {"bcast-tune 1\nmachine cpu=X;l2=1;llc=2;cpus=3\n"
       "nt_store_min_bytes -1\nparallel_min_bytes 1\n",
       "line 3"},
      {"bcast-tune 1\nmachine cpu=X;l2=1;llc=2;cpus=3\n"
       "nt_store_min_bytes 1\nparallel_min_bytes 1\nstore 5 1.0\n",
       "line 5: a malformed point"},
      {"bcast-tune 1\nmachine cpu=X;l2=1;llc=2;cpus=3\n"
       "nt_store_min_bytes 1\nparallel_min_bytes 1\nstore 5 1.0 nan\n",
       "line 5: a malformed point"},
      {"bcast-tune 1\nmachine cpu=X;l2=1;llc=2;cpus=3\n"
       "nt_store_min_bytes 1\nparallel_min_bytes 1\nspeed 5\n",
       "line 5: an unknown key"},
      {"bcast-tune 1\nnt_store_min_bytes 1\nparallel_min_bytes 1\n",
       "the machine line missing"},
      {"\x7f" "ELF\x02\x01\x01", "line 1"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    bcast_tuning r;
    memset(&r, 0, sizeof r);
    r.nt_store_min_bytes = 77;
    bcast_diag diag;
    const bcast_status st = bcast__tune_parse(
        bad[i].text, strlen(bad[i].text), key, "/x/tune.txt", &r, &diag);
    if (st != BCAST_PARSE || !strstr(diag.message, "/x/tune.txt ignored") ||
        !strstr(diag.message, bad[i].reason) || r.nt_store_min_bytes != 77)
      test_fail(t, __FILE__, __LINE__, "case %zu: status %d, '%s'", i,
                (int)st, diag.message);
  }
  /* A NUL byte, and more than a cache file's size. */
  bcast_tuning r;
  bcast_diag diag;
  CHECK_INT(bcast__tune_parse("bcast-tune 1\n\0", 14, key, "f", &r, &diag),
            BCAST_PARSE);
  CHECK(strstr(diag.message, "NUL") != NULL);
  static char big[5000];
  memset(big, '#', sizeof big);
  CHECK_INT(bcast__tune_parse(big, sizeof big, key, "f", &r, &diag),
            BCAST_PARSE);
}

TEST(tune_foreign_cache_text_names_both_machines) {
  bcast_tuning s, r;
  sample_tuning(&s);
  char text[4096];
  const size_t len = bcast__tune_format(&s, text, sizeof text);
  memset(&r, 0, sizeof r);
  bcast_diag diag;
  CHECK_INT(bcast__tune_parse(text, len, "cpu=Other;l2=1;llc=2;cpus=64", "f",
                              &r, &diag),
            BCAST_UNSUPPORTED);
  CHECK(strstr(diag.message, "another machine") != NULL);
  CHECK(strstr(diag.message, "cpu=Test CPU") != NULL);
  CHECK(strstr(diag.message, "cpu=Other") != NULL);
  CHECK_INT(r.nt_store_min_bytes, 0);
}

/* ------------------------------------------------------------------------ */
/* A tuning's cache-file text, written at path. */
static void write_tuning(const char *path, const bcast_tuning *s) {
  char text[4096];
  const size_t len = bcast__tune_format(s, text, sizeof text);
  FILE *f = fopen(path, "wb");
  if (f) {
    fwrite(text, 1, len, f);
    fclose(f);
  }
}

/* A cache file for this machine (or, with foreign, another) with the
 * given thresholds, written at path. */
static void write_cache(const char *path, int64_t nt, int64_t par,
                        int foreign) {
  bcast_tuning now, s;
  bcast_tuning_get(&now, NULL);
  sample_tuning(&s);
  if (!foreign) memcpy(s.machine, now.machine, sizeof s.machine);
  s.nt_store_min_bytes = nt;
  s.parallel_min_bytes = par;
  write_tuning(path, &s);
}

/* A prepared float32 add of inputs shaped a and b, rank `rank`, with
 * data da and db, on `threads` threads (0: OpenMP's); NULL on failure
 * (reported). */
static bcast_ew_plan *add_plan(test_ctx *t, int32_t rank, const int64_t *a,
                               const int64_t *b, void *da, void *db,
                               int threads) {
  bcast_tensor in[2];
  CHECK_INT(bcast_tensor_wrap(&in[0], BCAST_FLOAT32, rank, a, NULL, da, NULL),
            BCAST_OK);
  CHECK_INT(bcast_tensor_wrap(&in[1], BCAST_FLOAT32, rank, b, NULL, db, NULL),
            BCAST_OK);
  bcast_ew_options options;
  bcast_ew_options_init(&options);
  options.threads = threads;
  bcast_ew_plan *plan = NULL;
  CHECK_INT(bcast_ew_plan_create(&plan, BCAST_OP_ADD, NULL, 2, in, NULL,
                                 &options, NULL),
            BCAST_OK);
  return plan;
}

/* How an element-wise float32 add of two rank-`rank` shapes on `threads`
 * threads (0: OpenMP's) writes (an EW_NT_*), and in *racing (unless NULL)
 * whether it races: the engine's use of the thresholds.  Data is never
 * touched, so none is allocated. */
static int add_plan_stores(test_ctx *t, int32_t rank, const int64_t *a,
                           const int64_t *b, int threads, int *racing) {
  static float dummy[1];
  bcast_ew_plan *plan = add_plan(t, rank, a, b, dummy, dummy, threads);
  const int nt = plan ? bcast__ew_plan_nt_stores(plan) : -1;
  if (racing) *racing = plan ? plan->racing : -1;
  bcast_ew_plan_destroy(plan);
  return nt;
}

/* The same, the kind of store only. */
static int add_uses_nt_stores(test_ctx *t, int32_t rank, const int64_t *a,
                              const int64_t *b, int threads) {
  return add_plan_stores(t, rank, a, b, threads, NULL);
}

/* The same for an add of out_bytes bytes, one long run. */
static int plan_uses_nt_stores(test_ctx *t, int64_t out_bytes) {
  const int64_t shape[1] = {out_bytes / 4};
  return add_uses_nt_stores(t, 1, shape, shape, 0);
}

/* Saves the tuning variables, makes a scratch directory dir (a mkdtemp
 * template) and points BCAST_TUNE_FILE at path, dir's tune.txt: 0, or -1
 * (reported, the variables put back) when there is no directory. */
static int tune_scratch(test_ctx *t, saved_env *saved, char *dir,
                        char *path, size_t cap) {
  env_save(saved);
  if (!mkdtemp(dir)) {
    test_fail(t, __FILE__, __LINE__, "mkdtemp failed");
    env_restore(saved);
    return -1;
  }
  snprintf(path, cap, "%s/tune.txt", dir);
  setenv("BCAST_TUNE_FILE", path, 1);
  return 0;
}

TEST(tune_state_cache_file_environment_and_warnings) {
  saved_env saved;
  char dir[] = "/tmp/bcast-tune-XXXXXX", path[64];
  if (tune_scratch(t, &saved, dir, path, sizeof path) != 0) return;
  bcast_tuning tn;
  bcast_diag warning;

  /* A valid file: its thresholds, no warning, no lazy calibration. */
  bcast__tune_reset();
  write_cache(path, 3 * MIB, 96 * 1024, 0);
  bcast__tune_reset();
  CHECK_INT(bcast_tuning_get(&tn, &warning), BCAST_OK);
  CHECK_INT(warning.status, BCAST_OK);
  CHECK(strcmp(tn.cache_path, path) == 0);
  CHECK_INT(tn.nt_store_min_bytes, 3 * MIB);
  CHECK_INT(tn.parallel_min_bytes, 96 * 1024);
  CHECK(strcmp(tn.nt_store_source, "cache file") == 0);
  bcast__tune_lazy(BCAST_TUNING_LAZY_MIN_BYTES);
  CHECK_INT(bcast__tuned_nt_store_min(), 3 * MIB);
  CHECK_INT(bcast__tuned_parallel_min(), 96 * 1024);
  bcast_tuning_get(&tn, NULL);
  CHECK(tn.measure_ms == 0);
  /* Plans decide by it: 4 MiB outputs stream, 2 MiB ones do not. */
  if (BCAST__HAVE_NT_STORE) {
    CHECK(plan_uses_nt_stores(t, 4 * MIB) != EW_NT_NONE);
    CHECK_INT(plan_uses_nt_stores(t, 2 * MIB), EW_NT_NONE);
  }

  /* The environment wins over the file, threshold by threshold. */
  setenv("BCAST_NT_STORE_MIN_BYTES", "5M", 1);
  bcast__tune_reset();
  bcast_tuning_get(&tn, &warning);
  CHECK_INT(tn.nt_store_min_bytes, 5 * MIB);
  CHECK(strcmp(tn.nt_store_source, "environment") == 0);
  CHECK_INT(tn.parallel_min_bytes, 96 * 1024);
  CHECK(strcmp(tn.parallel_source, "cache file") == 0);
  CHECK_INT(bcast__tuned_nt_store_min(), 5 * MIB);
  if (BCAST__HAVE_NT_STORE)
    CHECK_INT(plan_uses_nt_stores(t, 4 * MIB), EW_NT_NONE);
  unsetenv("BCAST_NT_STORE_MIN_BYTES");

  /* A value that is not a byte count: ignored, the file's value kept, and
   * a warning names the variable and its text; the older name stands in
   * for an invalid newer one. */
  static const char *const bad[] = {"1T",  "",    "-5",
                                    "8MB", "1e6", "99999999999999999999"};
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    setenv("BCAST_NT_STORE_MIN_BYTES", bad[k], 1);
    bcast__tune_reset();
    bcast_tuning_get(&tn, &warning);
    CHECK_INT(warning.status, BCAST_INVALID_ARGUMENT);
    char want[96];
    snprintf(want, sizeof want, "BCAST_NT_STORE_MIN_BYTES='%s' ignored",
             bad[k]);
    CHECK_CONTAINS(warning.message, want);
    CHECK_INT(tn.nt_store_min_bytes, 3 * MIB);
    CHECK(strcmp(tn.nt_store_source, "cache file") == 0);
  }
  setenv("BCAST_STREAM_MIN_BYTES", "6M", 1);
  bcast__tune_reset();
  bcast_tuning_get(&tn, &warning);
  CHECK_INT(tn.nt_store_min_bytes, 6 * MIB);
  CHECK_CONTAINS(warning.message,
                 "BCAST_NT_STORE_MIN_BYTES='99999999999999999999'");
  setenv("BCAST_NT_STORE_MIN_BYTES", "7M", 1); /* the old name is not read */
  setenv("BCAST_STREAM_MIN_BYTES", "junk", 1);
  bcast__tune_reset();
  bcast_tuning_get(&tn, &warning);
  CHECK_INT(tn.nt_store_min_bytes, 7 * MIB);
  CHECK_INT(warning.status, BCAST_OK);
  unsetenv("BCAST_NT_STORE_MIN_BYTES");
  unsetenv("BCAST_STREAM_MIN_BYTES");
  setenv("BCAST_PARALLEL_MIN_BYTES", "lots", 1);
  bcast__tune_reset();
  bcast_tuning_get(&tn, &warning);
  CHECK_CONTAINS(warning.message, "BCAST_PARALLEL_MIN_BYTES='lots' ignored");
  CHECK_INT(tn.parallel_min_bytes, 96 * 1024);
  unsetenv("BCAST_PARALLEL_MIN_BYTES");

  /* A corrupt file: ignored, the warning returned by bcast_tuning_get,
   * the cache sizes' thresholds in effect. */
  FILE *f = fopen(path, "wb");
  if (f) {
    fputs("bcast-tune 1\ngarbage\n", f);
    fclose(f);
  }
  bcast__tune_reset();
  setenv("BCAST_TUNE", "off", 1); /* no lazy calibration in this case */
  bcast_tuning_get(&tn, &warning);
  CHECK_INT(warning.status, BCAST_OK); /* off: the file is not read */
  unsetenv("BCAST_TUNE");
  bcast__tune_reset();
  bcast_tuning_get(&tn, &warning);
  CHECK_INT(warning.status, BCAST_PARSE);
  CHECK(strstr(warning.message, path) != NULL);
  CHECK(strstr(warning.message, "line 2") != NULL);
  CHECK(strcmp(tn.nt_store_source, "cache sizes") == 0);
  /* With an ignored variable too: both said, the file's status kept. */
  setenv("BCAST_NT_FILL_MIN_BYTES", "x", 1);
  bcast__tune_reset();
  bcast_tuning_get(&tn, &warning);
  CHECK_INT(warning.status, BCAST_PARSE);
  CHECK_CONTAINS(warning.message, "line 2");
  CHECK_CONTAINS(warning.message, "; BCAST_NT_FILL_MIN_BYTES='x' ignored");
  unsetenv("BCAST_NT_FILL_MIN_BYTES");

  /* A foreign file: the same, BCAST_UNSUPPORTED. */
  write_cache(path, 3 * MIB, 96 * 1024, 1);
  bcast__tune_reset();
  bcast_tuning_get(&tn, &warning);
  CHECK_INT(warning.status, BCAST_UNSUPPORTED);
  CHECK(strstr(warning.message, "another machine") != NULL);
  CHECK(strcmp(tn.parallel_source, "cache sizes") == 0);

  /* No file: no warning; a small output starts nothing, the first large
   * one the lazy calibration, once; it writes no file. */
  unlink(path);
  bcast__tune_reset();
  bcast_tuning_get(&tn, &warning);
  CHECK_INT(warning.status, BCAST_OK);
  bcast__tune_lazy(BCAST_TUNING_LAZY_MIN_BYTES - 1);
  bcast_tuning_get(&tn, NULL);
  CHECK(tn.measure_ms == 0);
  /* Held (a call under a memory bound, src/save): not even a large one. */
  bcast__tune_hold(1);
  bcast__tune_lazy(BCAST_TUNING_LAZY_MIN_BYTES);
  bcast__tune_hold(-1);
  bcast_tuning_get(&tn, NULL);
  CHECK(tn.measure_ms == 0);
  bcast__tune_lazy(BCAST_TUNING_LAZY_MIN_BYTES);
  bcast_tuning_get(&tn, NULL);
  CHECK(tn.measure_ms > 0);
  CHECK(strcmp(tn.nt_store_source, "measured") == 0 ||
        strcmp(tn.nt_store_source, "cache sizes") == 0);
  const double first_ms = tn.measure_ms;
  bcast__tune_lazy(2 * BCAST_TUNING_LAZY_MIN_BYTES);
  bcast_tuning_get(&tn, NULL);
  CHECK(tn.measure_ms == first_ms);
  CHECK(access(path, F_OK) != 0);

  /* bcast_tuning_save writes a file the next process reads back. */
  CHECK_INT(bcast_tuning_save(&tn, NULL, NULL), BCAST_OK);
  bcast_tuning saved_tn = tn;
  bcast__tune_reset();
  bcast_tuning_get(&tn, &warning);
  CHECK_INT(warning.status, BCAST_OK);
  CHECK_INT(tn.nt_store_min_bytes, saved_tn.nt_store_min_bytes);
  CHECK(strcmp(tn.nt_store_source, "cache file") == 0);

  unlink(path);
  rmdir(dir);
  env_restore(&saved);
}

/* The store threshold bcast__nt_min_bytes_for gives a float32 copy of
 * a (src_rows, src_cols) source into rows x cols, each source dim 1 or
 * the output's: a copy from at most an eighth of the output's bytes is a
 * fill, pure when the source is a column. */
static int64_t copy_threshold(test_ctx *t, int64_t rows, int64_t cols,
                              int64_t src_rows, int64_t src_cols) {
  const int64_t out_shape[2] = {rows, cols}, src_shape[2] = {src_rows, src_cols};
  const int64_t out_strides[2] = {4 * cols, 4};
  const int64_t src_strides[2] = {src_rows == 1 ? 0 : 4 * src_cols,
                                  src_cols == 1 ? 0 : 4};
  const int32_t rank[2] = {2, 2};
  const int64_t *const shape[2] = {out_shape, src_shape};
  const int64_t *const strides[2] = {out_strides, src_strides};
  const int64_t elem[2] = {4, 4};
  bcast_plan plan;
  CHECK_INT(bcast_plan_build(&plan, 2, out_shape, 2, rank, shape, strides,
                             elem, NULL),
            BCAST_OK);
  return bcast__nt_min_bytes_for(&plan);
}

/* The same for an outer sum (n, 1) + (1, n): an output written from next
 * to nothing, reading a row along the run. */
static int outer_uses_nt_stores(test_ctx *t, int64_t n, int threads) {
  const int64_t col[2] = {n, 1}, row[2] = {1, n};
  return add_uses_nt_stores(t, 2, col, row, threads);
}

/* Fills have their own threshold: from the cache file, from
 * BCAST_NT_FILL_MIN_BYTES, or, when only BCAST_NT_STORE_MIN_BYTES is set,
 * that one.  Pure fills (a broadcast column) take it on any number of
 * threads; fills that read a row along the run (a broadcast row, an outer
 * sum), other copies and plans take the store threshold. */
TEST(tune_fills_decide_by_their_own_threshold) {
  saved_env saved;
  char dir[] = "/tmp/bcast-tune-XXXXXX", path[64];
  if (tune_scratch(t, &saved, dir, path, sizeof path) != 0) return;
  const int64_t never = BCAST_TUNING_NEVER;
  bcast_tuning tn;
  bcast__tune_reset();
  write_cache(path, 3 * MIB, 96 * 1024, 0); /* fills: never */
  bcast__tune_reset();
  bcast_tuning_get(&tn, NULL);
  CHECK_INT(tn.nt_fill_min_bytes, BCAST_TUNING_NEVER);
  CHECK(strcmp(tn.nt_fill_source, "cache file") == 0);
  CHECK_INT(copy_threshold(t, 2048, 2048, 2048, 1), never);
  CHECK_INT(copy_threshold(t, 64, 64, 64, 1), never);
  CHECK_INT(copy_threshold(t, 8, 4096, 1, 4096), 3 * MIB);
  CHECK_INT(copy_threshold(t, 7, 4096, 1, 4096), 3 * MIB);
  CHECK_INT(copy_threshold(t, 2048, 2048, 2048, 2048), 3 * MIB);
  if (BCAST__HAVE_NT_STORE)
    for (int threads = 0; threads <= 2; threads++)
      CHECK(outer_uses_nt_stores(t, 2048, threads) != EW_NT_NONE); /* 16 MiB */
  if (BCAST__HAVE_NT_STORE)
    CHECK(plan_uses_nt_stores(t, 16 * MIB) != EW_NT_NONE);
  setenv("BCAST_NT_FILL_MIN_BYTES", "8M", 1);
  bcast__tune_reset();
  bcast_tuning_get(&tn, NULL);
  CHECK_INT(tn.nt_fill_min_bytes, 8 * MIB);
  CHECK(strcmp(tn.nt_fill_source, "environment") == 0);
  CHECK_INT(tn.nt_store_min_bytes, 3 * MIB);
  CHECK_INT(copy_threshold(t, 2048, 2048, 2048, 1), 8 * MIB);
  if (BCAST__HAVE_NT_STORE) { /* the store threshold, not the fills' */
    CHECK(outer_uses_nt_stores(t, 1024, 2) != EW_NT_NONE); /* 4 MiB */
    CHECK_INT(outer_uses_nt_stores(t, 512, 2), EW_NT_NONE); /* 1 MiB */
  }
  unsetenv("BCAST_NT_FILL_MIN_BYTES");
  setenv("BCAST_NT_STORE_MIN_BYTES", "1M", 1);
  bcast__tune_reset();
  bcast_tuning_get(&tn, NULL);
  CHECK_INT(tn.nt_fill_min_bytes, 1 * MIB);
  CHECK(strcmp(tn.nt_fill_source, "environment") == 0);
  CHECK_INT(copy_threshold(t, 2048, 2048, 2048, 1), 1 * MIB);
  unlink(path);
  rmdir(dir);
  env_restore(&saved);
}

/* The store race's rule (nt_store.h): the first calls alternate,
 * non-temporal first; then the kind with the lower time, a tie going to
 * non-temporal stores, and every BCAST_STORE_RACE_PROBE-th call the
 * other, every BCAST_STORE_RACE_PROBE_FAR-th where it was more than a
 * quarter slower. */
TEST(tune_store_race_rule) {
  for (uint32_t call = 0; call < BCAST_STORE_RACE_FIRST; call++) {
    CHECK_INT(bcast__store_race_choice(call, 0, 0), call % 2 == 0);
    CHECK_INT(bcast__store_race_choice(call, 10, 1000), call % 2 == 0);
  }
  for (uint32_t call = BCAST_STORE_RACE_FIRST; call < 100; call++) {
    const int probe = call % BCAST_STORE_RACE_PROBE == 0;
    CHECK_INT(bcast__store_race_choice(call, 900, 1000), probe);
    CHECK_INT(bcast__store_race_choice(call, 1000, 900), !probe);
    CHECK_INT(bcast__store_race_choice(call, 1000, 1000), !probe);
    const int far = call % BCAST_STORE_RACE_PROBE_FAR == 0;
    CHECK_INT(bcast__store_race_choice(call, 500, 1000), far);
    CHECK_INT(bcast__store_race_choice(call, 1000, 790), !far);
    CHECK_INT(bcast__store_race_choice(call, 1000, 800), !probe);
  }
  const int64_t none[4] = {0, 0, 0, 0}, some[4] = {0, 900, 700, 800};
  CHECK_INT(bcast__store_race_best(none, 4), 0);
  CHECK_INT(bcast__store_race_best(some, 4), 700);
  CHECK_INT(bcast__store_race_best(some, 2), 900);
}

/* The rule run against synthetic memory states: ordinary stores faster
 * (800 against 1000 ns) for 300 calls, then non-temporal ones (500
 * against 800, more than a quarter apart: probes four times rarer), with
 * every 10th call of the kind on top three times slower (a preempted
 * thread).  Within each state, once settled, the faster kind takes all
 * calls but the probes; after the change of state the race turns at the
 * first probe. */
TEST(tune_store_race_follows_the_faster_kind) {
  int64_t kept[2][BCAST_STORE_RACE_KEEP] = {{0}};
  int seen[2] = {0, 0};
  int taken[2][2] = {{0, 0}, {0, 0}}; /* [state][kind], settled calls */
  int64_t turned = -1;
  int probes[2] = {0, 0}; /* settled calls that are probes, per state */
  for (uint32_t call = 0; call < 600; call++) {
    const int state = call >= 300;
    const int nt = bcast__store_race_choice(
        call, bcast__store_race_best(kept[0], BCAST_STORE_RACE_KEEP),
        bcast__store_race_best(kept[1], BCAST_STORE_RACE_KEEP));
    const int64_t base = state == 0 ? (nt ? 1000 : 800) : (nt ? 500 : 800);
    kept[nt][seen[nt]++ % BCAST_STORE_RACE_KEEP] =
        call % 10 == 9 && nt == state ? 3 * base : base;
    if (state == 1 && nt && turned < 0 && call % BCAST_STORE_RACE_PROBE != 0)
      turned = call;
    if ((state == 0 && call >= 20) || (state == 1 && call >= 400)) {
      taken[state][nt]++;
      probes[state] += call % (state == 0 ? BCAST_STORE_RACE_PROBE
                                          : BCAST_STORE_RACE_PROBE_FAR) ==
                       0;
    }
  }
  CHECK(probes[0] > 0 && probes[1] > 0);
  CHECK_INT(taken[0][1], probes[0]);
  CHECK_INT(taken[1][0], probes[1]);
  CHECK(turned > 300 && turned <= 300 + BCAST_STORE_RACE_PROBE + 1);
}

/* A prepared outer sum large enough for non-temporal stores races: its
 * calls alternate at first and every call writes the same values, the
 * output's 64-byte lines and the row's float32 tail (1027 elements a row)
 * both kinds' way; a plan made to take one kind does not race. */
TEST(tune_store_race_plan_writes_the_same_values) {
  saved_env saved;
  char dir[] = "/tmp/bcast-tune-XXXXXX", path[64];
  if (tune_scratch(t, &saved, dir, path, sizeof path) != 0) return;
  setenv("BCAST_NT_STORE_MIN_BYTES", "1M", 1);
  bcast__tune_reset();
  enum { N = 1027, M = 600 };
  float *col = malloc(M * sizeof *col), *row = malloc(N * sizeof *row);
  float *out = malloc((size_t)M * N * sizeof *out);
  if (!col || !row || !out) {
    test_fail(t, __FILE__, __LINE__, "out of memory");
  } else {
    for (int i = 0; i < M; i++) col[i] = (float)i * 0.5f;
    for (int j = 0; j < N; j++) row[j] = (float)j * 0.25f;
    const int64_t cs[2] = {M, 1}, rs[2] = {1, N}, os[2] = {M, N};
    bcast_tensor in[2], o;
    CHECK_INT(bcast_tensor_wrap(&in[0], BCAST_FLOAT32, 2, cs, NULL, col, NULL),
              BCAST_OK);
    CHECK_INT(bcast_tensor_wrap(&in[1], BCAST_FLOAT32, 2, rs, NULL, row, NULL),
              BCAST_OK);
    CHECK_INT(bcast_tensor_wrap(&o, BCAST_FLOAT32, 2, os, NULL, out, NULL),
              BCAST_OK);
    memset(out, 0, (size_t)M * N * sizeof *out); /* resident */
    bcast_ew_options options;
    bcast_ew_options_init(&options);
    options.threads = 2;
    bcast_ew_plan *plan = NULL;
    CHECK_INT(bcast_ew_plan_create(&plan, BCAST_OP_ADD, NULL, 2, in, &o,
                                   &options, NULL),
              BCAST_OK);
    if (plan && BCAST__HAVE_NT_STORE) {
      CHECK(plan->racing);
      const void *data[2] = {col, row};
      for (int call = 0; call < 2 * (int)BCAST_STORE_RACE_PROBE; call++) {
        memset(out, 0xff, (size_t)M * N * sizeof *out);
        CHECK_INT(bcast_ew_plan_execute(plan, out, data, NULL), BCAST_OK);
        int bad = 0;
        for (int i = 0; i < M; i++)
          for (int j = 0; j < N; j++)
            bad += out[(size_t)i * N + j] != col[i] + row[j];
        if (bad)
          test_fail(t, __FILE__, __LINE__, "call %d: %d wrong values", call,
                    bad);
      }
      CHECK_INT(atomic_load(&plan->race.calls), 2 * BCAST_STORE_RACE_PROBE);
      CHECK(atomic_load(&plan->race.kept[0]) > 0);
      CHECK(atomic_load(&plan->race.kept[1]) > 0);
      CHECK(bcast__ew_plan_set_nt_store(plan, EW_NT_WRAPPER));
      CHECK(!plan->racing);
    }
    bcast_ew_plan_destroy(plan);
  }
  free(col);
  free(row);
  free(out);
  bcast__tune_reset();
  rmdir(dir);
  env_restore(&saved);
}

/* Whether plans race (bcast__tune_store_race): unless the fill points put
 * non-temporal stores at least BCAST__TUNE_RACE_FAR ahead at every size. */
TEST(tune_store_race_decided_by_the_fill_points) {
  const bcast_tuning_point tie[2] = {{32 * MIB, {100, 100}},
                                     {64 * MIB, {90, 100}}};
  const bcast_tuning_point far[2] = {{32 * MIB, {125, 100}},
                                     {64 * MIB, {300, 100}}};
  const bcast_tuning_point one_near[2] = {{32 * MIB, {300, 100}},
                                          {64 * MIB, {124, 100}}};
  const bcast_tuning_point unusable[2] = {{32 * MIB, {300, 100}},
                                          {64 * MIB, {NAN, 100}}};
  const bcast_tuning_point zero[1] = {{32 * MIB, {300, 0}}};
  CHECK_INT(bcast__tune_store_race(NULL, 0), 1);
  CHECK_INT(bcast__tune_store_race(tie, 2), 1);
  CHECK_INT(bcast__tune_store_race(far, 2), 0);
  CHECK_INT(bcast__tune_store_race(far, 1), 0);
  CHECK_INT(bcast__tune_store_race(one_near, 2), 1);
  CHECK_INT(bcast__tune_store_race(one_near, 1), 0);
  CHECK_INT(bcast__tune_store_race(unusable, 2), 1);
  CHECK_INT(bcast__tune_store_race(zero, 1), 1);
}

/* The same through the cache file: bcast_tuning_get says it, and an outer
 * sum large enough for non-temporal stores races only where it says so;
 * without a file (BCAST_TUNE=off) plans race. */
TEST(tune_store_race_follows_the_cache_file) {
  saved_env saved;
  char dir[] = "/tmp/bcast-tune-XXXXXX", path[64];
  if (tune_scratch(t, &saved, dir, path, sizeof path) != 0) return;
  bcast_tuning now, s, tn;
  bcast__tune_reset();
  bcast_tuning_get(&now, NULL);
  sample_tuning(&s);
  memcpy(s.machine, now.machine, sizeof s.machine);
  s.nt_store_min_bytes = 1 * MIB;
  s.n_fill = 2;
  s.fill[0] = (bcast_tuning_point){32 * MIB, {3200, 1290}};
  s.fill[1] = (bcast_tuning_point){64 * MIB, {6700, 2580}};
  for (int k = 0; k < 3; k++) {
    if (k == 1) s.fill[1].ns[0] = 2600; /* within a quarter: race */
    if (k == 2) setenv("BCAST_TUNE", "off", 1);
    write_tuning(path, &s);
    bcast__tune_reset();
    bcast_tuning_get(&tn, NULL);
    CHECK_INT(tn.store_race, k != 0);
    const int64_t col[2] = {1024, 1}, row[2] = {1, 1024}; /* 4 MiB */
    int racing = -1;
    const int nt = add_plan_stores(t, 2, col, row, 2, &racing);
    if (BCAST__HAVE_NT_STORE && k < 2) {
      CHECK(nt != EW_NT_NONE);
      CHECK_INT(racing, k != 0);
    }
  }
  unlink(path);
  rmdir(dir);
  env_restore(&saved);
}

/* Runs of whole lines shorter than EW_NT_KERNEL_MIN_RUN (64 float32, 256
 * bytes) take the non-temporal kernels where the kernel set has them,
 * and execute writes through the wrapper into an output off a line; both
 * write the same values, on one thread and two.  Runs of 16 floats or 65
 * do not. */
TEST(tune_short_runs_of_whole_lines_take_the_nt_kernels) {
  saved_env saved;
  env_save(&saved);
  setenv("BCAST_TUNE", "off", 1);
  setenv("BCAST_NT_STORE_MIN_BYTES", "64K", 1);
  bcast__tune_reset();
  enum { I = 8, J = 6, K = 9, E = 64 }; /* 108 KiB */
  const int64_t as[4] = {I, 1, K, E}, bs[4] = {1, J, K, 1};
  float *a = malloc(sizeof(float) * I * K * E),
        *b = malloc(sizeof(float) * J * K);
  char *block = malloc(sizeof(float) * I * J * K * E + 128);
  if (!a || !b || !block) {
    test_fail(t, __FILE__, __LINE__, "out of memory");
  } else {
    for (int q = 0; q < I * K * E; q++) a[q] = (float)q * 0.5f;
    for (int q = 0; q < J * K; q++) b[q] = (float)q * 1024.0f;
    for (int threads = 1; threads <= 2; threads++) {
      bcast_ew_plan *plan = add_plan(t, 4, as, bs, a, b, threads);
      if (!plan) break;
      if (BCAST__HAVE_NT_STORE && plan->kernels_nt) {
        CHECK_INT(plan->nt_store, EW_NT_KERNEL);
        CHECK_INT(plan->nt_lines, 1);
      } else if (BCAST__HAVE_NT_STORE) {
        CHECK_INT(plan->nt_store, EW_NT_WRAPPER);
      }
      const void *data[2] = {a, b};
      /* On a line, then 16 and 4 bytes off it. */
      const size_t line = (64 - ((uintptr_t)block & 63u)) & 63u;
      const size_t offsets[3] = {line, line + 16, line + 4};
      for (int o = 0; o < 3; o++) {
        float *out = (float *)(void *)(block + offsets[o]);
        memset(out, 0xff, sizeof(float) * I * J * K * E);
        CHECK_INT(bcast_ew_plan_execute(plan, out, data, NULL), BCAST_OK);
        int bad = 0;
        for (int i = 0; i < I; i++)
          for (int j = 0; j < J; j++)
            for (int k = 0; k < K; k++)
              for (int e = 0; e < E; e++)
                bad += out[((i * J + j) * K + k) * E + e] !=
                       a[(i * K + k) * E + e] + b[j * K + k];
        if (bad)
          test_fail(t, __FILE__, __LINE__,
                    "%d threads, output %zu bytes off a line: %d wrong values",
                    threads, offsets[o] - line, bad);
      }
      bcast_ew_plan_destroy(plan);
    }
    for (int e = 16; e <= 65; e += 49) {
      const int64_t ra[4] = {I, 1, K, e}, rb[4] = {1, J, K, 1};
      bcast_ew_plan *plan = add_plan(t, 4, ra, rb, a, b, 0);
      if (plan) CHECK_INT(plan->nt_lines, 0);
      bcast_ew_plan_destroy(plan);
    }
  }
  free(a);
  free(b);
  free(block);
  env_restore(&saved);
}
