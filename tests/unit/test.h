/* A small test runner: tests register themselves, run in order, and each
 * CHECK records a failure without stopping the test.  The runner prints one
 * line per test and closes with "N passed, N failed".  Random tests take
 * their seed from test_seed(), printed so any failure can be replayed with
 * BCAST_TEST_SEED=<n>.  A test that cannot run here (hardware it needs and
 * was told to require) calls test_skip: it is reported as skipped, not
 * passed, and a run with skips and no failure exits with 77 (ctest's
 * SKIP_RETURN_CODE). */
#ifndef BCAST_TEST_H
#define BCAST_TEST_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef struct test_ctx {
  const char *name;
  int failures;
  int skipped;
} test_ctx;

typedef void (*test_fn)(test_ctx *);
void test_register(const char *name, test_fn fn);
void test_fail(test_ctx *t, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void test_skip(test_ctx *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
uint64_t test_seed(void);
/* xorshift-style generator for reproducible random cases. */
uint64_t test_rand(uint64_t *state);
int64_t test_rand_range(uint64_t *state, int64_t lo,
                        int64_t hi); /* [lo, hi] */

#define TEST(name)                                                            \
  static void test_##name(test_ctx *t);                                       \
  __attribute__((constructor)) static void register_##name(void) {            \
    test_register(#name, test_##name);                                        \
  }                                                                           \
  static void test_##name(test_ctx *t)

#define CHECK(cond)                                                           \
  do {                                                                        \
    if (!(cond)) test_fail(t, __FILE__, __LINE__, "CHECK(%s)", #cond);        \
  } while (0)

#define CHECK_INT(a, b)                                                       \
  do {                                                                        \
    long long va_ = (long long)(a), vb_ = (long long)(b);                     \
    if (va_ != vb_)                                                           \
      test_fail(t, __FILE__, __LINE__, "%s == %lld, expected %s == %lld", #a, \
                va_, #b, vb_);                                                \
  } while (0)

#define CHECK_STR(a, b)                                                       \
  do {                                                                        \
    const char *sa_ = (a), *sb_ = (b);                                        \
    if (strcmp(sa_, sb_) != 0)                                                \
      test_fail(t, __FILE__, __LINE__, "%s is \"%s\", expected \"%s\"", #a,   \
                sa_, sb_);                                                    \
  } while (0)

#define CHECK_CONTAINS(hay, needle)                                           \
  do {                                                                        \
    const char *sh_ = (hay), *sn_ = (needle);                                 \
    if (!strstr(sh_, sn_))                                                    \
      test_fail(t, __FILE__, __LINE__, "\"%s\" does not contain \"%s\"", sh_, \
                sn_);                                                         \
  } while (0)

#endif
