/* One prepared plan executed from several host threads at once, each into
 * its own output: execution only reads the plan.  The host runs its own
 * threads, so the plan asks for threads = 1 (no OpenMP team per call; see
 * docs/guide.md, "Threads").  Each thread's result is checked against the
 * sum computed here in plain C. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <bcast/bcast.h>

enum { ROWS = 64, COLS = 1024, HOST_THREADS = 4 };

typedef struct job {
  const bcast_ew_plan *plan;
  const void *in[2];
  float *out;
  bcast_status status;
} job;

static void *run(void *arg) {
  job *j = arg;
  j->status = bcast_ew_plan_execute(j->plan, j->out, j->in, NULL);
  return NULL;
}

int main(void) {
  static float a[ROWS * COLS], row[COLS], out[HOST_THREADS][ROWS * COLS];
  for (int i = 0; i < ROWS * COLS; i++) a[i] = (float)(i % 97);
  for (int k = 0; k < COLS; k++) row[k] = (float)k * 0.5f;

  const int64_t shape[2] = {ROWS, COLS}, row_shape[2] = {1, COLS};
  bcast_tensor in[2];
  bcast_diag diag;
  if (bcast_tensor_wrap(&in[0], BCAST_FLOAT32, 2, shape, NULL, a, &diag) ||
      bcast_tensor_wrap(&in[1], BCAST_FLOAT32, 2, row_shape, NULL, row,
                        &diag)) {
    fprintf(stderr, "wrap: %s\n", diag.message);
    return 1;
  }
  bcast_ew_options opts = {0}; /* tosa profile: equal ranks, [1,COLS] row */
  opts.threads = 1;
  bcast_ew_plan *plan;
  if (bcast_ew_plan_create(&plan, BCAST_OP_ADD, NULL, 2, in, NULL, &opts,
                           &diag) != BCAST_OK) {
    fprintf(stderr, "plan: %s\n", diag.message);
    return 1;
  }

  job jobs[HOST_THREADS];
  pthread_t tid[HOST_THREADS];
  int started = 0;
  for (int t = 0; t < HOST_THREADS; t++) {
    jobs[t] = (job){plan, {a, row}, out[t], BCAST_INVALID_ARGUMENT};
    if (pthread_create(&tid[t], NULL, run, &jobs[t]) == 0)
      started++;
    else
      break;
  }
  for (int t = 0; t < started; t++) pthread_join(tid[t], NULL);
  bcast_ew_plan_destroy(plan);

  int wrong = 0;
  for (int t = 0; t < HOST_THREADS; t++) {
    if (jobs[t].status != BCAST_OK) {
      wrong++;
      continue;
    }
    for (int i = 0; i < ROWS * COLS; i++)
      if (out[t][i] != a[i] + row[i % COLS]) {
        wrong++;
        break;
      }
  }
  printf("%d threads, %d elements each: %s\n", HOST_THREADS, ROWS * COLS,
         wrong ? "WRONG" : "ok");
  return wrong ? 1 : 0;
}
