/* The calls "Thread safety" of docs/c-api.md names as safe to run concurrently,
 * run from several host threads at once and compared with the same work
 * done on one thread: one plan executed by four threads into their own
 * outputs (each execution also splitting across OpenMP threads, and
 * racing its kinds of store with shared timings), the one-call forms with
 * the numpy profile's conversions, materialize, and MLIR scan + verify +
 * lower of independent texts.
 * In the normal builds these check the results; the ThreadSanitizer build
 * (make tsan) runs them to find races. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "bcast/bcast.h"
#include "ew/ew_plan.h"
#include "test.h"
#include "test_tune_env.h"

enum { HOST_THREADS = 4, ROUNDS = 6, ROWS = 256, COLS = 1024 };

typedef struct shared {
  bcast_ew_plan *plan;
  bcast_tensor a, b;      /* (ROWS, 1) int64 and (1, COLS) float32 ... */
  bcast_tensor fa, fb;    /* ... and (ROWS, 1), (1, COLS) float32 */
  const float *expect;    /* fa + fb, computed on one thread */
  const char *mlir;       /* scanned and verified: one op fails */
  const char *lower_text; /* the same without that op, lowered */
  size_t lowered_len;     /* bytes bcast_emit_lower_module writes */
  int failures[HOST_THREADS];
} shared;

typedef struct job {
  shared *s;
  int id;
} job;

static bcast_status count_bytes(void *ctx, const char *data, size_t len) {
  (void)data;
  *(size_t *)ctx += len;
  return BCAST_OK;
}

static int all_ops(const char *name, size_t len, void *ctx) {
  (void)name;
  (void)len;
  (void)ctx;
  return 1;
}

static size_t lower_len(const char *text) {
  bcast_emit_options o;
  bcast_emit_options_init(&o);
  size_t n = 0;
  if (bcast_emit_lower_module(text, strlen(text), &o, count_bytes, &n, NULL,
                              NULL) != BCAST_OK)
    return 0;
  return n;
}

static int same_floats(const float *got, const float *want, size_t n) {
  return memcmp(got, want, n * sizeof *got) == 0;
}

static void *worker(void *arg) {
  const job *j = arg;
  shared *s = j->s;
  int *bad = &s->failures[j->id];
  const size_t n = (size_t)ROWS * COLS;
  float *out = malloc(n * sizeof *out);
  if (!out) {
    (*bad)++;
    return NULL;
  }
  bcast_ew_options numpy;
  bcast_ew_options_init(&numpy);
  numpy.profile = BCAST_PROFILE_NUMPY;
  numpy.threads = 2;
  for (int r = 0; r < ROUNDS; r++) {
    /* The shared plan, into this thread's output. */
    memset(out, 0, n * sizeof *out);
    const void *in[2] = {s->fa.data, s->fb.data};
    if (bcast_ew_plan_execute(s->plan, out, in, NULL) != BCAST_OK ||
        !same_floats(out, s->expect, n))
      (*bad)++;
    /* A one-call compute converting int64 + float32 (NumPy: float64),
     * with a new output each time. */
    bcast_tensor two[2] = {s->a, s->fb}, fresh;
    if (bcast_ew_compute(BCAST_OP_ADD, NULL, 2, two, &fresh, &numpy, NULL) !=
        BCAST_OK) {
      (*bad)++;
    } else {
      const double *d = fresh.data;
      for (size_t i = 0; i < n; i += 997)
        if ((float)d[i] != s->expect[i]) (*bad)++;
      bcast_tensor_release(&fresh);
    }
    /* Materialize of a broadcast view. */
    bcast_tensor view, dense;
    int64_t shape[2] = {ROWS, COLS};
    if (bcast_broadcast_to(&view, &s->fb, 2, shape, NULL) != BCAST_OK ||
        bcast_materialize(&dense, &view, BCAST_DEFAULT_MAX_BYTES, 2, NULL) !=
            BCAST_OK) {
      (*bad)++;
    } else {
      const float *m = dense.data, *row = s->fb.data;
      for (size_t i = 0; i < n; i += 991)
        if (m[i] != row[i % COLS]) (*bad)++;
      bcast_tensor_release(&dense);
    }
    bcast_tensor_release(&view);
    /* Scan and verify, then lower, an MLIR text of its own. */
    bcast_mlir_scanner sc;
    static _Thread_local bcast_mlir_op op;
    bcast_mlir_scanner_init(&sc, s->mlir, strlen(s->mlir), all_ops, NULL);
    int found = 0, ops = 0, refused = 0;
    while (bcast_mlir_scan_next(&sc, &op, &found, NULL) == BCAST_OK && found) {
      ops++;
      if (bcast_mlir_verify(&op, NULL, NULL, NULL) != BCAST_OK) refused++;
    }
    if (ops != 3 || refused != 1) (*bad)++;
    if (lower_len(s->lower_text) != s->lowered_len) (*bad)++;
  }
  free(out);
  return NULL;
}

/* The text for scan + verify: the third op fails (ranks differ under the
 * tosa profile). */
static const char mlir_verify[] =
    "func.func @f(%a: tensor<2x1xf32>, %b: tensor<1x3xf32>) -> "
    "tensor<2x3xf32> {\n"
    "  %0 = tosa.add %a, %b : (tensor<2x1xf32>, tensor<1x3xf32>) -> "
    "tensor<2x3xf32>\n"
    "  %1 = tosa.exp %0 : (tensor<2x3xf32>) -> tensor<2x3xf32>\n"
    "  %2 = tosa.sub %a, %b : (tensor<2x1xf32>, tensor<3xf32>) -> "
    "tensor<2x3xf32>\n"
    "  return %1 : tensor<2x3xf32>\n}\n";

TEST(threads_share_plans_compute_and_mlir) {
  shared s;
  memset(&s, 0, sizeof s);
  int64_t col[2] = {ROWS, 1}, row[2] = {1, COLS};
  CHECK_INT(bcast_tensor_alloc(&s.a, BCAST_INT64, 2, col,
                               BCAST_DEFAULT_MAX_BYTES, NULL),
            BCAST_OK);
  CHECK_INT(bcast_tensor_alloc(&s.fa, BCAST_FLOAT32, 2, col,
                               BCAST_DEFAULT_MAX_BYTES, NULL),
            BCAST_OK);
  CHECK_INT(bcast_tensor_alloc(&s.fb, BCAST_FLOAT32, 2, row,
                               BCAST_DEFAULT_MAX_BYTES, NULL),
            BCAST_OK);
  if (t->failures) return;
  for (int i = 0; i < ROWS; i++) {
    ((int64_t *)s.a.data)[i] = i - 100;
    ((float *)s.fa.data)[i] = (float)(i - 100);
  }
  for (int j = 0; j < COLS; j++) ((float *)s.fb.data)[j] = 0.25f * (float)j;
  /* The reference on this thread, with one OpenMP thread. */
  bcast_ew_options o;
  bcast_ew_options_init(&o);
  o.threads = 1;
  bcast_tensor in[2] = {s.fa, s.fb}, ref;
  CHECK_INT(bcast_ew_compute(BCAST_OP_ADD, NULL, 2, in, &ref, &o, NULL),
            BCAST_OK);
  if (t->failures) return;
  s.expect = ref.data;
  o.threads = 2;
  /* Large enough for non-temporal stores (1 MiB against 512 KiB), so the
   * outer sum races its two kinds of store (src/plan/nt_store.h), and the
   * four threads share its timings (no cache file read: its fills may
   * say not to race, bcast__tune_store_race). */
  saved_env saved;
  env_save(&saved);
  setenv("BCAST_TUNE", "off", 1);
  setenv("BCAST_NT_STORE_MIN_BYTES", "512K", 1);
  bcast__tune_reset();
  CHECK_INT(
      bcast_ew_plan_create(&s.plan, BCAST_OP_ADD, NULL, 2, in, NULL, &o, NULL),
      BCAST_OK);
  env_restore(&saved);
  if (BCAST__HAVE_NT_STORE && s.plan) CHECK(s.plan->racing);
  s.mlir = mlir_verify;
  /* Lowering refuses the failing op, so it gets the text without it. */
  static char lowerable[sizeof mlir_verify];
  {
    const char *cut = strstr(mlir_verify, "  %2 = tosa.sub");
    const char *rest = strstr(cut, "  return");
    size_t head = (size_t)(cut - mlir_verify);
    memcpy(lowerable, mlir_verify, head);
    strcpy(lowerable + head, rest);
  }
  s.lower_text = lowerable;
  s.lowered_len = lower_len(lowerable);
  CHECK(s.lowered_len > 0);
  pthread_t th[HOST_THREADS];
  job jobs[HOST_THREADS];
  for (int k = 0; k < HOST_THREADS; k++) {
    jobs[k] = (job){&s, k};
    CHECK_INT(pthread_create(&th[k], NULL, worker, &jobs[k]), 0);
  }
  for (int k = 0; k < HOST_THREADS; k++) pthread_join(th[k], NULL);
  for (int k = 0; k < HOST_THREADS; k++) CHECK_INT(s.failures[k], 0);
  if (BCAST__HAVE_NT_STORE && s.plan)
    CHECK_INT(atomic_load(&s.plan->race.calls), HOST_THREADS * ROUNDS);
  bcast_ew_plan_destroy(s.plan);
  bcast_tensor_release(&ref);
  bcast_tensor_release(&s.fb);
  bcast_tensor_release(&s.fa);
  bcast_tensor_release(&s.a);
}
