/* bcast_bench, element-wise section: add, mul, select and maximum over
 * same-shape, row, column, scalar, outer and 4-D broadcasts of 4096x4096
 * float32, the same-shape case in int8, float16 and float64, and a small
 * 64x64 + 64 latency case; NumPy on the same cases in the same run.
 *
 * Units.  GB/s counts the bytes of every operand as stored (a broadcast
 * operand once, at its own size) plus the output: the memory traffic a
 * perfect implementation needs.  "new" allocates the output each call
 * (bcast_ew_compute; NumPy's np.add(a, b)), "into" writes a warm output
 * (a prepared plan's bcast_ew_plan_execute; np.add(a, b, out=o)).  The
 * ratios to bandwidth hold "into" against the bandwidth measured above
 * with the same thread count: the copy bandwidth (read + write) when the
 * inputs are at least a tenth of the traffic, else the fill bandwidth
 * (outer and 4-D cases write far more than they read).  The latency case
 * reports microseconds per call instead. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bcast/elementwise.h"
#include "bench_ew.h"

typedef struct ew_case {
  const char *name;
  bcast_op op;
  bcast_dtype dtype;
  const char *numpy_dtype;
  int32_t rank[2];
  int64_t shape[2][4];
  int latency; /* report microseconds per call */
} ew_case;

#define F32 BCAST_FLOAT32, "float32"
#define SAME {2, 2}, {{4096, 4096}, {4096, 4096}}
#define ROW {2, 1}, {{4096, 4096}, {4096}}
#define COLUMN {2, 2}, {{4096, 4096}, {4096, 1}}
#define SCALAR {2, 0}, {{4096, 4096}, {0}}
#define OUTER {2, 2}, {{4096, 1}, {1, 4096}}
#define MIXED4D {4, 4}, {{64, 1, 256, 64}, {1, 32, 256, 1}}
#define SMALL {2, 1}, {{64, 64}, {64}}

/* SELECT's condition has the first value's shape. */
#define EW_OP_CASES(OPNAME, OP)                                               \
  {OPNAME " f32 same 4096x4096", OP, F32, SAME, 0},                           \
      {OPNAME " f32 row +4096", OP, F32, ROW, 0},                             \
      {OPNAME " f32 column +4096x1", OP, F32, COLUMN, 0},                     \
      {OPNAME " f32 scalar", OP, F32, SCALAR, 0},                             \
      {OPNAME " f32 outer 4096x1+1x4096", OP, F32, OUTER, 0},                 \
      {OPNAME " f32 4-D mixed", OP, F32, MIXED4D, 0},                         \
      {OPNAME " i8 same", OP, BCAST_INT8, "int8", SAME, 0},                   \
      {OPNAME " f16 same", OP, BCAST_FLOAT16, "float16", SAME, 0},            \
      {OPNAME " f64 same", OP, BCAST_FLOAT64, "float64", SAME, 0},            \
      {OPNAME " f32 64x64+64 (us)", OP, F32, SMALL, 1},

static const ew_case cases[] = {
    EW_OP_CASES("add", BCAST_OP_ADD) EW_OP_CASES("mul", BCAST_OP_MUL)
        EW_OP_CASES("select", BCAST_OP_SELECT)
            EW_OP_CASES("maximum", BCAST_OP_MAXIMUM)};
enum { EW_CASE_COUNT = sizeof cases / sizeof cases[0] };

typedef struct ew_result {
  double bytes, read_bytes;
  double fresh[2]; /* GB/s (or us per call), new output, 1 and 2 threads */
  double into[2];
  double oneshot_into; /* latency case: bcast_ew_compute_into, us */
  double np_fresh, np_into;
  double py_fresh, py_into, py_plan; /* the Python module, 1 thread */
} ew_result;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void die(const char *what, const bcast_diag *d) {
  fprintf(stderr, "bcast_bench: %s: %s\n", what, d->message);
  exit(1);
}

static int64_t count_of(int32_t rank, const int64_t *shape) {
  int64_t n = 1;
  for (int32_t i = 0; i < rank; i++) n *= shape[i];
  return n;
}

/* Inputs as NumPy's side builds them: arange % 251 (condition: % 3 == 0). */
static void make_input(bcast_tensor *t, bcast_dtype dtype, int32_t rank,
                       const int64_t *shape, int cond) {
  bcast_diag d;
  if (bcast_tensor_alloc(t, dtype, rank, shape, INT64_C(1) << 34, &d))
    die("alloc", &d);
  const int64_t n = count_of(rank, shape);
  for (int64_t i = 0; i < n; i++) {
    const int v = (int)(i % 251);
    switch (dtype) {
    case BCAST_BOOL: ((uint8_t *)t->data)[i] = (uint8_t)(i % 3 == 0); break;
    case BCAST_INT8: ((int8_t *)t->data)[i] = (int8_t)v; break;
    case BCAST_FLOAT16:
      ((uint16_t *)t->data)[i] = bcast_float_to_half((float)v);
      break;
    case BCAST_FLOAT32: ((float *)t->data)[i] = (float)v; break;
    case BCAST_FLOAT64: ((double *)t->data)[i] = v; break;
    default: break;
    }
  }
  (void)cond;
}

/* Times the case; again != 0 times only the 1-thread 'into' run once more
 * and keeps the better of that and the first figure. */
static void run_case(const ew_case *c, int reps, ew_result *res, int again) {
  const int arity = bcast_ew_arity(c->op);
  bcast_tensor in[3];
  int k = 0;
  if (arity == 3) make_input(&in[k++], BCAST_BOOL, c->rank[0], c->shape[0], 1);
  make_input(&in[k++], c->dtype, c->rank[0], c->shape[0], 0);
  make_input(&in[k++], c->dtype, c->rank[1], c->shape[1], 0);
  const void *data[3];
  res->bytes = 0;
  for (int j = 0; j < arity; j++) {
    data[j] = in[j].data;
    res->bytes += (double)count_of(in[j].rank, in[j].shape) *
                  (double)bcast_dtype_size(in[j].dtype);
  }
  res->read_bytes = res->bytes;
  bcast_ew_options o;
  bcast_ew_options_init(&o);
  o.profile = BCAST_PROFILE_NUMPY;
  o.max_bytes = INT64_C(1) << 34;
  bcast_diag d;
  bcast_ew_plan *plan;
  if (bcast_ew_plan_create(&plan, c->op, NULL, (size_t)arity, in, NULL, &o, &d))
    die(c->name, &d);
  const bcast_tensor *layout = bcast_ew_plan_output(plan);
  res->bytes += (double)count_of(layout->rank, layout->shape) *
                (double)bcast_dtype_size(layout->dtype);
  bcast_tensor out;
  if (bcast_ew_plan_alloc_output(plan, &out, &d)) die(c->name, &d);
  memset(out.data, 0, (size_t)(count_of(out.rank, out.shape) *
                               (int64_t)bcast_dtype_size(out.dtype)));
  bcast_ew_plan_destroy(plan);

  /* Latency cases repeat the call in batches and report us per call. */
  const int batch = c->latency ? 20000 : 1;
  for (int t = 0; t < (again ? 1 : 2); t++) {
    o.threads = t + 1;
    double best_fresh = 1e30, best_into = 1e30, best_oneshot = 1e30;
    if (bcast_ew_plan_create(&plan, c->op, NULL, (size_t)arity, in, NULL, &o,
                             &d))
      die(c->name, &d);
    /* Each way is timed in its own loop of reps, as numpy_bench.py times
     * NumPy: interleaving them would let the new-output runs evict the
     * inputs before every 'into' run (it matters where the operands
     * nearly fit the last-level cache, as the 48 MB of int8 'same'). */
    for (int r = 0; !again && r < reps; r++) {
      double t0 = now();
      for (int b = 0; b < batch; b++) {
        bcast_tensor fresh;
        if (bcast_ew_compute(c->op, NULL, (size_t)arity, in, &fresh, &o, &d))
          die(c->name, &d);
        bcast_tensor_release(&fresh);
      }
      double dt = (now() - t0) / batch;
      if (dt < best_fresh) best_fresh = dt;
    }
    for (int r = 0; r < reps; r++) {
      double t0 = now();
      for (int b = 0; b < batch; b++)
        bcast_ew_plan_execute(plan, out.data, data, NULL);
      double dt = (now() - t0) / batch;
      if (dt < best_into) best_into = dt;
    }
    for (int r = 0; c->latency && !again && r < reps; r++) {
      double t0 = now();
      for (int b = 0; b < batch; b++)
        bcast_ew_compute_into(c->op, NULL, (size_t)arity, in, &out, &o, NULL);
      double dt = (now() - t0) / batch;
      if (dt < best_oneshot) best_oneshot = dt;
    }
    bcast_ew_plan_destroy(plan);
    const double into = c->latency ? best_into * 1e6
                                   : res->bytes / best_into / 1e9;
    if (again) {
      const int better = c->latency ? into < res->into[0] : into > res->into[0];
      if (better) res->into[0] = into;
    } else if (c->latency) {
      res->fresh[t] = best_fresh * 1e6;
      res->into[t] = into;
      if (t == 0) res->oneshot_into = best_oneshot * 1e6;
    } else {
      res->fresh[t] = res->bytes / best_fresh / 1e9;
      res->into[t] = into;
    }
  }
  bcast_tensor_release(&out);
  for (int j = 0; j < arity; j++) bcast_tensor_release(&in[j]);
}

static const char *numpy_op(bcast_op op) {
  switch (op) {
  case BCAST_OP_ADD: return "add";
  case BCAST_OP_MUL: return "multiply";
  case BCAST_OP_SELECT: return "where";
  default: return "maximum";
  }
}

static void append_shape(char *buf, size_t cap, int32_t rank,
                         const int64_t *dims) {
  size_t len = strlen(buf);
  for (int32_t i = 0; i < rank && len < cap; i++)
    len += (size_t)snprintf(buf + len, cap - len, "%s%" PRId64, i ? "," : "",
                            dims[i]);
}

/* numpy_bench.py --serve, a child answering one case at a time. */
typedef struct numpy_child {
  pid_t pid;
  FILE *to, *from;
} numpy_child;

static int child_start(numpy_child *c, const char *script, int reps) {
  int to[2], from[2];
  c->pid = -1;
  c->to = c->from = NULL;
  if (pipe(to) < 0) return 0;
  if (pipe(from) < 0) {
    close(to[0]);
    close(to[1]);
    return 0;
  }
  char reps_text[16];
  snprintf(reps_text, sizeof reps_text, "%d", reps);
  fflush(stdout);
  c->pid = fork();
  if (c->pid == 0) {
    dup2(to[0], 0);
    dup2(from[1], 1);
    close(to[0]);
    close(to[1]);
    close(from[0]);
    close(from[1]);
    execl("/usr/bin/python3", "python3", script, "--serve", reps_text,
          (char *)NULL);
    _exit(127);
  }
  close(to[0]);
  close(from[1]);
  if (c->pid < 0) {
    close(to[1]);
    close(from[0]);
    return 0;
  }
  c->to = fdopen(to[1], "w");
  c->from = fdopen(from[0], "r");
  return c->to && c->from;
}

/* Ends the child (started or not); 1 when it exited with 0. */
static int child_stop(numpy_child *c) {
  if (c->to) fclose(c->to);
  if (c->from) fclose(c->from);
  int status = 1;
  if (c->pid > 0) waitpid(c->pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* Keeps the better of a figure and a new one (lower us, higher GB/s). */
static void keep_better(double *kept, double value, int us) {
  if (*kept == 0 || (us ? value < *kept : value > *kept)) *kept = value;
}

/* A time per call as the case reports it: us per call for the latency
 * case, else GB/s. */
static double rate(const ew_result *r, int index, double seconds) {
  return cases[index].latency ? seconds * 1e6 : r->bytes / seconds / 1e9;
}

/* Asks the child for case i (ew:OP:DTYPE:SHAPE_A:SHAPE_B:BATCH): NumPy's
 * numpy-ew line, and with BCAST_BENCH_PYDIR the Python module's bcast-py
 * line.  Returns 1 when NumPy's came, and sets *py when the module's did. */
static int ask_child(numpy_child *c, int i, ew_result *res, int *py) {
  fprintf(c->to, "%d ew:%s:%s:", i, numpy_op(cases[i].op),
          cases[i].numpy_dtype);
  char shape[256] = "";
  append_shape(shape, sizeof shape, cases[i].rank[0], cases[i].shape[0]);
  fprintf(c->to, "%s:", shape);
  shape[0] = '\0';
  append_shape(shape, sizeof shape, cases[i].rank[1], cases[i].shape[1]);
  fprintf(c->to, "%s:%d\n", shape, cases[i].latency ? 20000 : 1);
  fflush(c->to);
  char line[256];
  int got = 0;
  const int us = cases[i].latency;
  ew_result *r = &res[i];
  while (fgets(line, sizeof line, c->from) && strncmp(line, "done", 4)) {
    int index;
    double fresh, into, plan;
    if (sscanf(line, "numpy-ew %d %lf %lf", &index, &fresh, &into) == 3 &&
        index == i) {
      keep_better(&r->np_fresh, rate(r, i, fresh), us);
      keep_better(&r->np_into, rate(r, i, into), us);
      got = 1;
    } else if (sscanf(line, "bcast-py %d %lf %lf %lf", &index, &fresh, &into,
                      &plan) == 4 &&
               index == i) {
      keep_better(&r->py_fresh, rate(r, i, fresh), us);
      keep_better(&r->py_into, rate(r, i, into), us);
      keep_better(&r->py_plan, rate(r, i, plan), us);
      *py = 1;
    } else if (!strncmp(line, "bcast-py-missing", 16)) {
      printf("  Python module: not measured (%s)", line + 17);
    }
  }
  return got;
}

/* The Python module beside the C library and NumPy, 1 thread. */
static void print_python(const ew_result *res) {
  printf("\nPython module (import bcast), 1 thread, same arrays, GB/s as "
         "above: new = bcast.OP(a, b), into = bcast.OP(a, b, out=o), plan = "
         "p(a, b, out=o)\n");
  printf("  %-30s %7s %7s %7s %7s %9s %9s %9s\n", "case", "py new",
         "py into", "py plan", "C into", "plan/C", "into/np", "C/np");
  for (int i = 0; i < EW_CASE_COUNT; i++) {
    const ew_result *r = &res[i];
    /* Above 1 means the first is faster, for both units. */
    const int us = cases[i].latency;
    const double plan_c = us ? r->into[0] / r->py_plan : r->py_plan / r->into[0];
    const double into_np = us ? r->np_into / r->py_into : r->py_into / r->np_into;
    const double c_np = us ? r->np_into / r->into[0] : r->into[0] / r->np_into;
    printf("  %-30s %7.2f %7.2f %7.2f %7.2f %9.2f %9.2f %9.2f\n",
           cases[i].name, r->py_fresh, r->py_into, r->py_plan, r->into[0],
           plan_c, into_np, c_np);
    if (us)
      printf("  %-30s np.OP(a, b, out=o) %.3f us: bcast.OP(out=o) %.2fx, "
             "plan %.2fx NumPy's speed\n",
             "", r->np_into, r->np_into / r->py_into, r->np_into / r->py_plan);
  }
  printf("  (plan/C: the Python plan over the C plan's 'into 1T'; into/np: "
         "bcast.OP(out=o) over np.OP(out=o); C/np: the C plan over NumPy, "
         "for comparison; above 1 = faster)\n");
}

void bench_elementwise(int reps, const char *script, const bench_bw *bw) {
  static ew_result res[EW_CASE_COUNT];
  for (int i = 0; i < EW_CASE_COUNT; i++) run_case(&cases[i], reps, &res[i], 0);
  /* The machine's speed drifts over the minutes a run takes, so NumPy and
   * the Python module are timed case by case between two runs of bcast's
   * own 'into 1T' (the figure they are held against), twice; each keeps
   * its best. */
  numpy_child child = {-1, NULL, NULL};
  int have_numpy = script && child_start(&child, script, reps);
  int py_got = 0;
  for (int i = 0; have_numpy && i < EW_CASE_COUNT; i++) {
    int py = 0, got = 0;
    for (int round = 0; round < 2; round++) {
      got += ask_child(&child, i, res, &py);
      run_case(&cases[i], reps, &res[i], 1);
    }
    have_numpy = got == 2;
    py_got += py;
  }
  if (!child_stop(&child)) have_numpy = 0;
  printf("\nElement-wise ops (numpy profile), GB/s of operands read + output "
         "written; new = fresh output each call, into = warm output\n");
  printf("  %-30s %7s %7s %7s %7s %7s %7s %7s %7s %6s %6s\n", "case",
         "new 1T", "new 2T", "np new", "1T/np", "into 1T", "into 2T",
         "np into", "1T/np", "1T/BW", "2T/BW");
  for (int i = 0; i < EW_CASE_COUNT; i++) {
    const ew_result *r = &res[i];
    char np_new[16] = "-", np_into[16] = "-", q_new[16] = "-", q_into[16] = "-";
    if (have_numpy) {
      snprintf(np_new, sizeof np_new, "%.2f", r->np_fresh);
      snprintf(np_into, sizeof np_into, "%.2f", r->np_into);
      /* Above 1 means bcast is faster, for both units. */
      double a = cases[i].latency ? r->np_fresh / r->fresh[0]
                                  : r->fresh[0] / r->np_fresh;
      double b = cases[i].latency ? r->np_into / r->into[0]
                                  : r->into[0] / r->np_into;
      snprintf(q_new, sizeof q_new, "%.2f", a);
      snprintf(q_into, sizeof q_into, "%.2f", b);
    }
    char bw1[16] = "-", bw2[16] = "-";
    if (!cases[i].latency) {
      const int reads = r->read_bytes >= 0.1 * r->bytes;
      const double *ref = reads ? bw->copy : bw->fill;
      snprintf(bw1, sizeof bw1, "%.0f%%", 100.0 * r->into[0] / ref[0]);
      snprintf(bw2, sizeof bw2, "%.0f%%", 100.0 * r->into[1] / ref[1]);
    }
    printf("  %-30s %7.2f %7.2f %7s %7s %7.2f %7.2f %7s %7s %6s %6s\n",
           cases[i].name, r->fresh[0], r->fresh[1], np_new, q_new, r->into[0],
           r->into[1], np_into, q_into, bw1, bw2);
    if (cases[i].latency)
      printf("  %-30s one-shot bcast_ew_compute_into: %.3f us\n", "",
             r->oneshot_into);
  }
  printf("  (64x64+64 rows are microseconds per call, lower is better; their "
         "1T/np is NumPy's time over bcast's.  nT/BW: 'into' with n threads "
         "over the n-thread copy bandwidth (%.2f, %.2f GB/s), or the fill "
         "bandwidth (%.2f, %.2f GB/s) where the inputs are under a tenth of "
         "the traffic)\n",
         bw->copy[0], bw->copy[1], bw->fill[0], bw->fill[1]);
  if (script && !have_numpy)
    printf("  NumPy: not measured for the element-wise cases\n");
  if (py_got == EW_CASE_COUNT) print_python(res);
}
