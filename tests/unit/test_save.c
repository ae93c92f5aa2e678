/* Outputs written tile by tile (bcast/save.h).  On random shapes, views
 * (implicit, transposing BroadcastInDim maps), dtypes, byte orders and
 * memory bounds, the files are byte for byte what bcast_npy_write writes
 * for the whole array (itself numpy.save's bytes, tests/diff); an op's
 * file equals its bcast_ew_compute result; a checked failure in a later
 * tile names the element of the whole output; failures publish nothing;
 * progress counts every byte once. */
#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bcast/bcast.h"
#include "test.h"

static char save_dir[64];

/* name in the test directory, made on first use (and again after
 * clean_dir); four paths may be in use at once. */
static const char *save_path(const char *name) {
  static char bufs[4][160];
  static unsigned next;
  if (!save_dir[0] &&
      !mkdtemp(strcpy(save_dir, "/tmp/bcast-save-test-XXXXXX")))
    return NULL;
  char *b = bufs[next++ % 4];
  snprintf(b, sizeof bufs[0], "%s/%s", save_dir, name);
  return b;
}

/* Removes the test directory and what the test left in it (missing/ is
 * never made); the next save_path makes a new one. */
static void clean_dir(void) {
  DIR *d = opendir(save_dir);
  char path[320];
  for (struct dirent *e; d && (e = readdir(d));) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    snprintf(path, sizeof path, "%s/%s", save_dir, e->d_name);
    unlink(path);
  }
  if (d) closedir(d);
  rmdir(save_dir);
  save_dir[0] = '\0';
}

/* The whole file in a new buffer (*len bytes); NULL if unreadable. */
static unsigned char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  unsigned char *buf = NULL;
  size_t cap = 0, n = 0;
  for (;;) {
    if (n == cap) {
      cap = cap ? cap * 2 : 4096;
      unsigned char *bigger = realloc(buf, cap);
      if (!bigger) break;
      buf = bigger;
    }
    size_t got = fread(buf + n, 1, cap - n, f);
    if (got == 0) break;
    n += got;
  }
  fclose(f);
  *len = n;
  return buf;
}

/* Whether two files hold the same bytes. */
static int same_file(const char *a, const char *b) {
  size_t la = 0, lb = 0;
  unsigned char *x = slurp(a, &la), *y = slurp(b, &lb);
  const int same = x && y && la == lb && memcmp(x, y, la) == 0;
  free(x);
  free(y);
  return same;
}

/* Entries of the test directory whose name starts with prefix. */
static int entries_named(const char *prefix) {
  DIR *d = opendir(save_dir);
  int n = 0;
  for (struct dirent *e; d && (e = readdir(d));)
    n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
  if (d) closedir(d);
  return n;
}

/* A tensor of random bytes (every bit pattern: NaNs included, which the
 * copies move untouched) with some dims of size 1. */
static void random_tensor(uint64_t *rng, bcast_dtype dtype, int32_t rank,
                          const int64_t *out_shape, bcast_tensor *x) {
  int64_t shape[BCAST_MAX_RANK];
  for (int32_t d = 0; d < rank; d++)
    shape[d] = test_rand_range(rng, 0, 2) == 0 ? 1 : out_shape[d];
  bcast_tensor_alloc(x, dtype, rank, shape, 1 << 24, NULL);
  int64_t count = 0;
  bcast_tensor_elem_count(x, &count, NULL);
  unsigned char *p = x->data;
  const size_t bytes = (size_t)count * bcast_dtype_size(dtype);
  for (size_t i = 0; i < bytes; i++) p[i] = (unsigned char)test_rand(rng);
  if (dtype == BCAST_BOOL)
    for (size_t i = 0; i < bytes; i++) p[i] &= 1;
}

TEST(save_views_equal_whole_writes) {
  static const bcast_dtype types[] = {
      BCAST_BOOL,    BCAST_INT8,    BCAST_UINT16,  BCAST_INT32,
      BCAST_FLOAT16, BCAST_FLOAT64, BCAST_BFLOAT16};
  uint64_t rng = test_seed() ^ 0x5a5e;
  for (int iter = 0; iter < 200; iter++) {
    int64_t out_shape[4];
    const int32_t rank = (int32_t)test_rand_range(&rng, 0, 4);
    for (int32_t d = 0; d < rank; d++)
      out_shape[d] =
          test_rand_range(&rng, 0, 12) == 0 ? 0 : test_rand_range(&rng, 1, 9);
    const bcast_dtype dtype =
        types[test_rand_range(&rng, 0, sizeof types / sizeof *types - 1)];
    bcast_tensor x, view, whole;
    random_tensor(&rng, dtype, rank, out_shape, &x);
    /* Half the views transpose: BroadcastInDim of x's reversed dims. */
    bcast_status st;
    if (test_rand_range(&rng, 0, 1)) {
      int64_t dims[4], rev[4];
      for (int32_t d = 0; d < rank; d++) {
        dims[d] = rank - 1 - d;
        rev[rank - 1 - d] =
            x.shape[d] == 1 ? test_rand_range(&rng, 1, 5) : x.shape[d];
      }
      st = bcast_broadcast_in_dim(&view, &x, rank, rev, dims, (size_t)rank,
                                  BCAST_DIMS_ANY_ORDER, NULL);
    } else {
      st = bcast_broadcast_to(&view, &x, rank, out_shape, NULL);
    }
    CHECK_INT(st, BCAST_OK);
    bcast_npy_write_opts w = {0, 0, 0, (int)test_rand_range(&rng, 0, 1)};
    const char *got = save_path("got.npy"), *want = save_path("want.npy");
    /* Budgets from a few elements to more than the whole. */
    const int64_t memory = test_rand_range(&rng, 64, 4096);
    bcast_diag diag;
    st = bcast_npy_save_views(1, &got, &view, &w, memory, NULL, &diag);
    if (st != BCAST_OK)
      test_fail(t, __FILE__, __LINE__, "iteration %d: %s", iter, diag.message);
    CHECK_INT(bcast_materialize(&whole, &view, 1 << 24, 1, NULL), BCAST_OK);
    CHECK_INT(bcast_npy_write(want, &whole, &w, NULL), BCAST_OK);
    if (!same_file(got, want))
      test_fail(t, __FILE__, __LINE__,
                "iteration %d: %s rank %d, memory %lld: not the whole's bytes",
                iter, bcast_dtype_name(dtype), (int)rank, (long long)memory);
    bcast_tensor_release(&whole);
    bcast_tensor_release(&view);
    bcast_tensor_release(&x);
  }
  clean_dir();
}

/* Progress: the bytes written so far, ending at the total. */
typedef struct progress_log {
  int calls;
  int64_t last, total;
  int monotonic;
} progress_log;

static void log_progress(void *ctx, int64_t done, int64_t total) {
  progress_log *p = ctx;
  p->monotonic &= done > p->last && done <= total;
  p->calls++;
  p->last = done;
  p->total = total;
}

TEST(save_op_equals_compute) {
  uint64_t rng = test_seed() ^ 0x0b5a;
  static const struct {
    bcast_op op;
    bcast_profile profile;
    bcast_dtype a, b;
  } cases[] = {
      {BCAST_OP_ADD, BCAST_PROFILE_TOSA, BCAST_INT32, BCAST_INT32},
      {BCAST_OP_MUL, BCAST_PROFILE_NUMPY, BCAST_INT8, BCAST_FLOAT32},
      {BCAST_OP_MAXIMUM, BCAST_PROFILE_NUMPY, BCAST_FLOAT16, BCAST_UINT8},
      {BCAST_OP_SUB, BCAST_PROFILE_TRAIT, BCAST_FLOAT32, BCAST_FLOAT32},
  };
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    for (int iter = 0; iter < 20; iter++) {
      int64_t shape[3] = {test_rand_range(&rng, 1, 40),
                          test_rand_range(&rng, 1, 30),
                          test_rand_range(&rng, 1, 5)};
      bcast_tensor in[2], result;
      random_tensor(&rng, cases[c].a, 3, shape, &in[0]);
      random_tensor(&rng, cases[c].b, 3, shape, &in[1]);
      bcast_ew_options o;
      bcast_ew_options_init(&o);
      o.profile = cases[c].profile;
      o.threads = 1;
      progress_log log = {0, 0, 0, 1};
      const bcast_save_options so = {0, log_progress, &log};
      const char *got = save_path("op.npy"), *want = save_path("opw.npy");
      bcast_diag diag;
      bcast_status st =
          bcast_npy_save_op(got, cases[c].op, NULL, 2, in, &o,
                            test_rand_range(&rng, 256, 8192), &so, &diag);
      if (st != BCAST_OK)
        test_fail(t, __FILE__, __LINE__, "case %zu: %s", c, diag.message);
      CHECK_INT(bcast_ew_compute(cases[c].op, NULL, 2, in, &result, &o, NULL),
                BCAST_OK);
      CHECK_INT(bcast_npy_write(want, &result, NULL, NULL), BCAST_OK);
      if (!same_file(got, want))
        test_fail(t, __FILE__, __LINE__,
                  "case %zu, iteration %d: not the "
                  "whole result's bytes",
                  c, iter);
      int64_t count = 0;
      bcast_tensor_elem_count(&result, &count, NULL);
      const int64_t bytes = count * (int64_t)bcast_dtype_size(result.dtype);
      CHECK(log.calls > 0 && log.monotonic);
      CHECK_INT(log.last, bytes);
      CHECK_INT(log.total, bytes);
      bcast_tensor_release(&result);
      bcast_tensor_release(&in[0]);
      bcast_tensor_release(&in[1]);
    }
  }
  clean_dir();
}

TEST(save_op_checked_names_the_whole_outputs_element) {
  int64_t col_shape[2] = {3000, 1}, row_shape[2] = {1, 200};
  bcast_tensor in[2];
  CHECK_INT(
      bcast_tensor_alloc(&in[0], BCAST_INT32, 2, col_shape, 1 << 20, NULL),
      BCAST_OK);
  CHECK_INT(
      bcast_tensor_alloc(&in[1], BCAST_INT32, 2, row_shape, 1 << 20, NULL),
      BCAST_OK);
  ((int32_t *)in[0].data)[2500] = INT32_MAX;
  ((int32_t *)in[1].data)[150] = 1;
  const char *path = save_path("checked.npy");
  FILE *f = fopen(path, "wb");
  if (f) {
    fputs("old", f);
    fclose(f);
  }
  bcast_ew_options o;
  bcast_ew_options_init(&o);
  o.checked = 1;
  bcast_diag diag;
  /* 64 KiB of memory: tiles of 32 KiB, the element in the 47th. */
  bcast_status st = bcast_npy_save_op(path, BCAST_OP_ADD, NULL, 2, in, &o,
                                      64 << 10, NULL, &diag);
  CHECK_INT(st, BCAST_CHECKED);
  char want[256];
  snprintf(
      want, sizeof want,
      "%s: tosa.add: unpredictable result (the sum overflows the type) at "
      "output index [2500,150]:",
      path);
  CHECK(strncmp(diag.message, want, strlen(want)) == 0);
  if (strncmp(diag.message, want, strlen(want)) != 0)
    printf("    message: %s\n", diag.message);
  CHECK_INT(diag.element.rank, 2);
  CHECK_INT(diag.element.index[0], 2500);
  CHECK_INT(diag.element.index[1], 150);
  CHECK_INT(diag.element.flat, 2500 * 200 + 150);
  size_t len = 0;
  unsigned char *old = slurp(path, &len);
  CHECK(old && len == 3 && memcmp(old, "old", 3) == 0);
  free(old);
  CHECK_INT(entries_named(".bcast-tmp"), 0);
  bcast_tensor_release(&in[0]);
  bcast_tensor_release(&in[1]);
  clean_dir();
}

TEST(save_views_all_or_none) {
  int64_t shape[2] = {64, 64};
  bcast_tensor x, view;
  CHECK_INT(bcast_tensor_alloc(&x, BCAST_FLOAT32, 1, shape + 1, 1 << 20, NULL),
            BCAST_OK);
  CHECK_INT(bcast_broadcast_to(&view, &x, 2, shape, NULL), BCAST_OK);
  const char *first = save_path("first.npy");
  FILE *f = fopen(first, "wb");
  if (f) {
    fputs("old", f);
    fclose(f);
  }
  /* The second output's directory does not exist: neither is written. */
  const char *paths[2] = {first, save_path("missing/second.npy")};
  const bcast_tensor views[2] = {view, view};
  bcast_diag diag;
  CHECK_INT(bcast_npy_save_views(2, paths, views, NULL, 4096, NULL, &diag),
            BCAST_IO);
  CHECK_CONTAINS(diag.message, "missing/second.npy");
  size_t len = 0;
  unsigned char *old = slurp(first, &len);
  CHECK(old && len == 3 && memcmp(old, "old", 3) == 0);
  free(old);
  CHECK_INT(entries_named(".bcast-tmp"), 0);
  /* Both written: every output complete before any is published. */
  paths[1] = save_path("second.npy");
  CHECK_INT(bcast_npy_save_views(2, paths, views, NULL, 4096, NULL, &diag),
            BCAST_OK);
  CHECK(same_file(paths[0], paths[1]));
  bcast_tensor_release(&view);
  bcast_tensor_release(&x);
  clean_dir();
}

TEST(save_refusals_name_the_output) {
  int64_t shape[2] = {8, 8}, empty[2] = {0, 1000000};
  bcast_tensor x, view;
  CHECK_INT(bcast_tensor_alloc(&x, BCAST_FLOAT64, 2, shape, 1 << 20, NULL),
            BCAST_OK);
  const char *path = save_path("refused.npy");
  bcast_diag diag;
  /* Not even one element's tile fits. */
  CHECK_INT(bcast_npy_save_views(1, &path, &x, NULL, 8, NULL, &diag),
            BCAST_BUDGET);
  CHECK(strncmp(diag.message, path, strlen(path)) == 0);
  CHECK_CONTAINS(diag.message, ": tiles of one element need 16 bytes");
  /* Bytes past 64 bits: no such file, whatever the disk. */
  const int64_t huge[2] = {INT64_MAX / 8, 2};
  bcast_tensor wide, s;
  int64_t one_el = 1;
  CHECK_INT(bcast_tensor_alloc(&s, BCAST_FLOAT64, 1, &one_el, 16, NULL),
            BCAST_OK);
  CHECK_INT(bcast_broadcast_to(&wide, &s, 2, huge, NULL), BCAST_OK);
  CHECK_INT(bcast_npy_save_views(1, &path, &wide, NULL, 4096, NULL, &diag),
            BCAST_OVERFLOW);
  CHECK_CONTAINS(diag.message, ": the output's size overflows 64 bits");
  bcast_tensor_release(&wide);
  bcast_tensor_release(&s);
  /* Fortran order is not how tiles are written. */
  const bcast_npy_write_opts fortran = {0, 0, 1, 0};
  CHECK_INT(bcast_npy_save_views(1, &path, &x, &fortran, 4096, NULL, &diag),
            BCAST_UNSUPPORTED);
  CHECK(access(path, F_OK) != 0);
  /* An empty output needs no tile, whatever the budget. */
  CHECK_INT(bcast_broadcast_to(&view, &x, 2, empty, &diag),
            BCAST_INCOMPATIBLE);
  bcast_tensor e;
  int64_t one = 1;
  CHECK_INT(bcast_tensor_alloc(&e, BCAST_UINT8, 1, &one, 16, NULL), BCAST_OK);
  CHECK_INT(bcast_broadcast_to(&view, &e, 2, empty, NULL), BCAST_OK);
  CHECK_INT(bcast_npy_save_views(1, &path, &view, NULL, 0, NULL, &diag),
            BCAST_OK);
  bcast_tensor whole;
  CHECK_INT(bcast_materialize(&whole, &view, 16, 1, NULL), BCAST_OK);
  const char *want = save_path("empty_want.npy");
  CHECK_INT(bcast_npy_write(want, &whole, NULL, NULL), BCAST_OK);
  CHECK(same_file(path, want));
  bcast_tensor_release(&whole);
  bcast_tensor_release(&view);
  bcast_tensor_release(&e);
  bcast_tensor_release(&x);
  clean_dir();
}
