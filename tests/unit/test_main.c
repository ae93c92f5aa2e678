/* The unit test runner.  Usage: bcast_unit [NAME-SUBSTRING...] */
#include <stdarg.h>
#include <stdlib.h>

#include "test.h"

#define MAX_TESTS 4096

static struct {
  const char *name;
  test_fn fn;
} tests[MAX_TESTS];
static int test_count;
static uint64_t seed;

void test_register(const char *name, test_fn fn) {
  if (test_count < MAX_TESTS) {
    tests[test_count].name = name;
    tests[test_count].fn = fn;
    test_count++;
  }
}

void test_fail(test_ctx *t, const char *file, int line, const char *fmt, ...) {
  t->failures++;
  if (t->failures > 20) return; /* one broken invariant can fail thousands */
  fprintf(stderr, "  %s:%d: %s: ", file, line, t->name);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
}

void test_skip(test_ctx *t, const char *fmt, ...) {
  t->skipped = 1;
  printf("  skipped: ");
  va_list ap;
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  putchar('\n');
}

uint64_t test_seed(void) { return seed; }

uint64_t test_rand(uint64_t *state) {
  /* splitmix64: good enough and trivially reproducible. */
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

int64_t test_rand_range(uint64_t *state, int64_t lo, int64_t hi) {
  uint64_t span = (uint64_t)(hi - lo) + 1;
  return lo + (int64_t)(test_rand(state) % span);
}

static int cmp_tests(const void *a, const void *b) {
  const char *na = *(const char *const *)a, *nb = *(const char *const *)b;
  return strcmp(na, nb);
}

int main(int argc, char **argv) {
  /* The tests that read a plan's choices (direct call, non-temporal stores,
   * threads) expect the thresholds derived from the cache sizes, not what a
   * lazy calibration measured under the machine's load of the moment: no
   * calibration unless the environment asks (test_tune.c sets its own). */
  setenv("BCAST_TUNE", "off", 0);
  const char *env = getenv("BCAST_TEST_SEED");
  seed = env ? strtoull(env, NULL, 10) : 20261122u;
  printf("bcast unit tests, seed %" PRIu64 " (replay: BCAST_TEST_SEED=%" PRIu64
         ")\n",
         seed, seed);
  qsort(tests, (size_t)test_count, sizeof tests[0], cmp_tests);
  int passed = 0, failed = 0, skipped = 0;
  for (int i = 0; i < test_count; i++) {
    int selected = argc < 2;
    for (int a = 1; a < argc; a++)
      if (strstr(tests[i].name, argv[a])) selected = 1;
    if (!selected) continue;
    test_ctx t = {tests[i].name, 0, 0};
    tests[i].fn(&t);
    if (t.failures) {
      printf("FAIL %s (%d failed checks)\n", tests[i].name, t.failures);
      failed++;
    } else if (t.skipped) {
      printf("skip %s\n", tests[i].name);
      skipped++;
    } else {
      printf("ok   %s\n", tests[i].name);
      passed++;
    }
  }
  if (skipped)
    printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
  else
    printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : skipped ? 77 : 0;
}
