/* bcast_bench, element-wise section: one case table, timed with 1 and 2
 * threads, NumPy on the same cases in the same run, each held against the
 * STREAM-style limit measured in the same run (bench_bw.c).
 *
 * The table: add, mul, select and maximum over same-shape, row, column,
 * scalar, outer and 4-D broadcasts of 4096x4096 float32, the same-shape
 * case in int8, float16 and float64, and a small 64x64 + 64 case; then the
 * peer harness's cases the op rows do not cover (a select with a column
 * condition and a row operand, a materialize) and its DRAM cases
 * (8192x16384, 512 MiB per operand; run with --dram).  A row carrying a
 * harness name is that case of /work/shared/bench/cases.txt (or
 * cases_dram.txt), with its anchor; those rows are printed as their own
 * sections.
 *
 * Units, as the harness counts them.  GB/s counts the bytes of every
 * operand as stored (a broadcast operand once, at its own size) plus the
 * output: the memory traffic a perfect implementation needs.  Variants:
 * "out" a prepared plan (bcast_ew_plan_execute; a materialize row:
 * bcast_tensor_copy) into a warm output; "into" one call,
 * bcast_ew_compute_into, into a warm output; "alloc" a new output each
 * call (bcast_ew_compute; bcast_materialize), like NumPy's np.add(a, b).
 * NumPy's "out" is np.add(a, b, out=o) (np.where has no out=: two
 * np.copyto; a materialize: np.copyto(o, np.broadcast_to(x, shape))).
 * The limit is the better of the ordinary and the non-temporal STREAM
 * kernel named by the row's anchor, at the array size nearest the output,
 * with the same thread count; "1T/lim" is "out 1T" over it.  The small
 * rows also print microseconds per call. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bcast/allocator.h"
#include "bcast/elementwise.h"
#include "bcast/tensor.h"
#include "bench_bw.h"
#include "bench_ew.h"

enum {
  EW_LATENCY = 1,     /* in-cache: batches of calls, us per call printed */
  EW_MATERIALIZE = 2, /* shape[0] broadcast to shape[1]; op unused */
  EW_DRAM = 4,        /* 512 MiB operands: only with --dram */
};

typedef struct ew_case {
  const char *name;
  const char *peer; /* the peer harness's name for the case, or NULL */
  bcast_op op;
  bcast_dtype dtype;
  const char *numpy_dtype;
  /* The values a and b (a materialize: the source and the output shape),
   * then select's condition. */
  int32_t rank[3];
  int64_t shape[3][4];
  bench_anchor anchor;
  unsigned flags;
} ew_case;

#define F32 BCAST_FLOAT32, "float32"
#define SAME {2, 2, 2}, {{4096, 4096}, {4096, 4096}, {4096, 4096}}, BENCH_ADD
#define ROW {2, 1, 2}, {{4096, 4096}, {4096}, {4096, 4096}}, BENCH_SCALE
#define COLUMN {2, 2, 2}, {{4096, 4096}, {4096, 1}, {4096, 4096}}, BENCH_SCALE
#define SCALAR {2, 0, 2}, {{4096, 4096}, {0}, {4096, 4096}}, BENCH_SCALE
#define OUTER {2, 2, 2}, {{4096, 1}, {1, 4096}, {4096, 1}}, BENCH_FILL
#define MIXED4D                                                               \
  {4, 4, 4}, {{64, 1, 256, 64}, {1, 32, 256, 1}, {64, 1, 256, 64}}, BENCH_FILL
#define SMALL {2, 1, 2}, {{64, 64}, {64}, {64, 64}}, BENCH_SCALE

/* The add rows are the harness's cases; the other ops' are not. */
#define PEER(name) name
#define NOT_PEER(name) NULL

/* SELECT's condition has the first value's shape. */
#define EW_OP_CASES(OPNAME, OP, P)                                            \
  {OPNAME " f32 same 4096x4096", P("same_add"), OP, F32, SAME, 0},            \
      {OPNAME " f32 row +4096", P("row_bcast"), OP, F32, ROW, 0},             \
      {OPNAME " f32 column +4096x1", P("col_bcast"), OP, F32, COLUMN, 0},     \
      {OPNAME " f32 scalar", P("scalar_add"), OP, F32, SCALAR, 0},            \
      {OPNAME " f32 outer 4096x1+1x4096", P("outer_add"), OP, F32, OUTER, 0}, \
      {OPNAME " f32 4-D mixed", P("mixed4d_add"), OP, F32, MIXED4D, 0},       \
      {OPNAME " i8 same", P("same_add_i8"), OP, BCAST_INT8, "int8", SAME, 0}, \
      {OPNAME " f16 same",                                                    \
       P("same_add_f16"),                                                     \
       OP,                                                                    \
       BCAST_FLOAT16,                                                         \
       "float16",                                                             \
       SAME,                                                                  \
       0},                                                                    \
      {OPNAME " f64 same",                                                    \
       P("same_add_f64"),                                                     \
       OP,                                                                    \
       BCAST_FLOAT64,                                                         \
       "float64",                                                             \
       SAME,                                                                  \
       0},                                                                    \
      {OPNAME " f32 64x64+64", P("small_row"), OP, F32, SMALL, EW_LATENCY},

#define DRAM_ROWS 8192, 16384

static const ew_case cases[] = {
    EW_OP_CASES("add", BCAST_OP_ADD, PEER)
        EW_OP_CASES("mul", BCAST_OP_MUL, NOT_PEER)
            EW_OP_CASES("select", BCAST_OP_SELECT, NOT_PEER)
                EW_OP_CASES("maximum", BCAST_OP_MAXIMUM,
                            NOT_PEER){"select f32 c(4096,1) a b(4096)",
                                      "where_col_row",
                                      BCAST_OP_SELECT,
                                      F32,
                                      {2, 1, 2},
                                      {{4096, 4096}, {4096}, {4096, 1}},
                                      BENCH_SCALE,
                                      0},
    {"materialize f32 (4096,1)->4096^2",
     "bcast_copy",
     BCAST_OP_ADD,
     F32,
     {2, 2, 0},
     {{4096, 1}, {4096, 4096}, {0}},
     BENCH_FILL,
     EW_MATERIALIZE},
    {"add f32 same 8192x16384",
     "same_add_dram",
     BCAST_OP_ADD,
     F32,
     {2, 2, 2},
     {{DRAM_ROWS}, {DRAM_ROWS}, {DRAM_ROWS}},
     BENCH_ADD,
     EW_DRAM},
    {"add f32 row +16384",
     "row_bcast_dram",
     BCAST_OP_ADD,
     F32,
     {2, 1, 2},
     {{DRAM_ROWS}, {16384}, {DRAM_ROWS}},
     BENCH_SCALE,
     EW_DRAM},
    {"add f32 column +8192x1",
     "col_bcast_dram",
     BCAST_OP_ADD,
     F32,
     {2, 2, 2},
     {{DRAM_ROWS}, {8192, 1}, {DRAM_ROWS}},
     BENCH_SCALE,
     EW_DRAM},
    {"add f32 outer 8192x1+1x16384",
     "outer_add_dram",
     BCAST_OP_ADD,
     F32,
     {2, 2, 2},
     {{8192, 1}, {1, 16384}, {8192, 1}},
     BENCH_FILL,
     EW_DRAM},
};
enum { EW_CASE_COUNT = sizeof cases / sizeof cases[0] };

/* Seconds per call, the best of the runs; 0 = not measured. */
typedef struct ew_result {
  double bytes, out_bytes;
  double alloc[2], out[2], into[2]; /* bcast, 1 and 2 threads */
  double alloc_cached; /* alloc, 1 thread, with the buffer cache on */
  double out_fpe; /* out, 1 thread, reading the error state (fp_errors) */
  double np_alloc, np_out;
  double py_alloc, py_into, py_plan; /* the Python module, 1 thread */
} ew_result;

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
    case BCAST_BOOL:
      ((uint8_t *)t->data)[i] = (uint8_t)(i % 3 == 0);
      break;
    case BCAST_INT8:
      ((int8_t *)t->data)[i] = (int8_t)v;
      break;
    case BCAST_FLOAT16:
      ((uint16_t *)t->data)[i] = bcast_float_to_half((float)v);
      break;
    case BCAST_FLOAT32:
      ((float *)t->data)[i] = (float)v;
      break;
    case BCAST_FLOAT64:
      ((double *)t->data)[i] = v;
      break;
    default:
      break;
    }
  }
  (void)cond;
}

/* One case's operands, output and plan while it is timed. */
typedef struct ew_run {
  const ew_case *c;
  size_t arity;
  bcast_tensor in[3], view, out;
  const void *data[3];
  bcast_ew_plan *plan;
  bcast_ew_options o;
} ew_run;

static void call_alloc(ew_run *x) {
  bcast_diag d;
  bcast_tensor fresh;
  bcast_status st = x->c->flags & EW_MATERIALIZE
                        ? bcast_materialize(&fresh, &x->view, INT64_C(1) << 34,
                                            x->o.threads, &d)
                        : bcast_ew_compute(x->c->op, NULL, x->arity, x->in,
                                           &fresh, &x->o, &d);
  if (st) die(x->c->name, &d);
  bcast_tensor_release(&fresh);
}

static void call_out(ew_run *x) {
  bcast_diag d;
  if (x->c->flags & EW_MATERIALIZE) {
    if (bcast_tensor_copy(&x->out, &x->view, x->o.threads, &d))
      die(x->c->name, &d);
  } else if (bcast_ew_plan_execute(x->plan, x->out.data, x->data, &d)) {
    die(x->c->name, &d);
  }
}

/* call_out reading the error state, as the Python module's plans do. */
static void call_out_fpe(ew_run *x) {
  bcast_diag d;
  unsigned errors = 0;
  if (bcast_ew_plan_execute_fpe(x->plan, x->out.data, x->data, &errors, &d))
    die(x->c->name, &d);
}

static void call_into(ew_run *x) {
  bcast_diag d;
  if (bcast_ew_compute_into(x->c->op, NULL, x->arity, x->in, &x->out, &x->o,
                            &d))
    die(x->c->name, &d);
}

/* The best of reps batches of calls, seconds per call.  Each way is timed
 * in its own loop of reps, as numpy_bench.py times NumPy: interleaving them
 * would let the new-output runs evict the inputs before every 'out' run
 * (it matters where the operands nearly fit the last-level cache, as the
 * 48 MB of int8 'same'). */
static double best_time(void (*call)(ew_run *), ew_run *x, int reps) {
  const int batch = x->c->flags & EW_LATENCY ? 20000 : 1;
  double best = 1e30;
  for (int r = 0; r < reps; r++) {
    double t0 = bench_now();
    for (int b = 0; b < batch; b++) call(x);
    double dt = (bench_now() - t0) / batch;
    if (dt < best) best = dt;
  }
  return best;
}

/* Sets up the case's operands and warm output (x->plan stays NULL). */
static void run_setup(const ew_case *c, ew_run *x, ew_result *res) {
  bcast_diag d;
  memset(x, 0, sizeof *x);
  x->c = c;
  bcast_ew_options_init(&x->o);
  x->o.profile = BCAST_PROFILE_NUMPY;
  x->o.max_bytes = INT64_C(1) << 34;
  const bcast_tensor *layout;
  bcast_tensor out_layout;
  if (c->flags & EW_MATERIALIZE) {
    x->arity = 1;
    make_input(&x->in[0], c->dtype, c->rank[0], c->shape[0], 0);
    if (bcast_broadcast_to(&x->view, &x->in[0], c->rank[1], c->shape[1], &d))
      die(c->name, &d);
    out_layout = x->view;
    layout = &out_layout;
  } else {
    x->arity = (size_t)bcast_op_arity(c->op);
    int k = 0;
    if (x->arity == 3)
      make_input(&x->in[k++], BCAST_BOOL, c->rank[2], c->shape[2], 1);
    make_input(&x->in[k++], c->dtype, c->rank[0], c->shape[0], 0);
    make_input(&x->in[k++], c->dtype, c->rank[1], c->shape[1], 0);
    if (bcast_ew_plan_create(&x->plan, c->op, NULL, x->arity, x->in, NULL,
                             &x->o, &d))
      die(c->name, &d);
    layout = bcast_ew_plan_output(x->plan);
  }
  res->bytes = 0;
  for (size_t j = 0; j < x->arity; j++) {
    x->data[j] = x->in[j].data;
    res->bytes += (double)count_of(x->in[j].rank, x->in[j].shape) *
                  (double)bcast_dtype_size(x->in[j].dtype);
  }
  res->out_bytes = (double)count_of(layout->rank, layout->shape) *
                   (double)bcast_dtype_size(layout->dtype);
  res->bytes += res->out_bytes;
  if (bcast_tensor_alloc(&x->out, layout->dtype, layout->rank, layout->shape,
                         x->o.max_bytes, &d))
    die(c->name, &d);
  memset(x->out.data, 0, (size_t)res->out_bytes);
  if (x->plan) bcast_ew_plan_destroy(x->plan);
  x->plan = NULL;
}

static void run_teardown(ew_run *x) {
  bcast_tensor_release(&x->out);
  if (x->c->flags & EW_MATERIALIZE) bcast_tensor_release(&x->view);
  for (size_t j = 0; j < x->arity; j++) bcast_tensor_release(&x->in[j]);
}

/* Times the case; again != 0 times only the 1-thread 'out' run once more
 * and keeps the better of that and the first figure. */
static void run_case(const ew_case *c, int reps, ew_result *res, int again) {
  ew_run x;
  run_setup(c, &x, res);
  bcast_diag d;
  for (int t = 0; t < (again ? 1 : 2); t++) {
    x.o.threads = t + 1;
    if (!(c->flags & EW_MATERIALIZE) &&
        bcast_ew_plan_create(&x.plan, c->op, NULL, x.arity, x.in, NULL, &x.o,
                             &d))
      die(c->name, &d);
    if (!again) res->alloc[t] = best_time(call_alloc, &x, reps);
    if (!again && t == 0) {
      /* Room for the output's block, rounded up to whole huge pages. */
      bcast_set_buffer_cache(2 * (size_t)res->out_bytes);
      res->alloc_cached = best_time(call_alloc, &x, reps);
      bcast_set_buffer_cache(0);
    }
    const double out = best_time(call_out, &x, reps);
    if (!again || out < res->out[t]) res->out[t] = out;
    if (t == 0 && x.plan) {
      const double fpe = best_time(call_out_fpe, &x, reps);
      if (!again || fpe < res->out_fpe) res->out_fpe = fpe;
    }
    if (!again && !(c->flags & EW_MATERIALIZE))
      res->into[t] = best_time(call_into, &x, reps);
    if (x.plan) bcast_ew_plan_destroy(x.plan);
    x.plan = NULL;
  }
  run_teardown(&x);
}

static const char *numpy_op(const ew_case *c) {
  if (c->flags & EW_MATERIALIZE) return "broadcast_to";
  switch (c->op) {
  case BCAST_OP_ADD:
    return "add";
  case BCAST_OP_MUL:
    return "multiply";
  case BCAST_OP_SELECT:
    return "where";
  default:
    return "maximum";
  }
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

/* Keeps the better (lower) of a time and a new one. */
static void keep_better(double *kept, double seconds) {
  if (*kept == 0 || seconds < *kept) *kept = seconds;
}

/* Asks the child for case i (ew:OP:DTYPE:SHAPE_A:SHAPE_B:BATCH:SHAPE_C):
 * NumPy's numpy-ew line, and with BCAST_BENCH_PYDIR the Python module's
 * bcast-py line.  Returns 1 when NumPy's came. */
static int ask_child(numpy_child *ch, int i, ew_result *r) {
  const ew_case *c = &cases[i];
  char spec[512] = "";
  snprintf(spec, sizeof spec, "ew:%s:%s:", numpy_op(c), c->numpy_dtype);
  for (int k = 0; k < 3; k++) {
    bench_append_shape(spec, sizeof spec, c->rank[k], c->shape[k]);
    size_t len = strlen(spec);
    if (k == 1)
      snprintf(spec + len, sizeof spec - len,
               ":%d:", c->flags & EW_LATENCY ? 20000 : 1);
    else if (k == 0)
      snprintf(spec + len, sizeof spec - len, ":");
  }
  fprintf(ch->to, "%d %s\n", i, spec);
  fflush(ch->to);
  char line[256];
  int got = 0;
  while (fgets(line, sizeof line, ch->from) && strncmp(line, "done", 4)) {
    int index;
    double fresh, into, plan;
    if (sscanf(line, "numpy-ew %d %lf %lf", &index, &fresh, &into) == 3 &&
        index == i) {
      keep_better(&r->np_alloc, fresh);
      keep_better(&r->np_out, into);
      got = 1;
    } else if (sscanf(line, "bcast-py %d %lf %lf %lf", &index, &fresh, &into,
                      &plan) == 4 &&
               index == i) {
      keep_better(&r->py_alloc, fresh);
      keep_better(&r->py_into, into);
      keep_better(&r->py_plan, plan);
    } else if (!strncmp(line, "bcast-py-missing", 16)) {
      printf("  Python module: not measured (%s)", line + 17);
    }
  }
  return got;
}

/* GB/s of a time per call ("-" when not measured). */
static const char *cell(char *buf, size_t cap, const ew_result *r,
                        double seconds) {
  if (seconds > 0)
    snprintf(buf, cap, "%.2f", r->bytes / seconds / 1e9);
  else
    snprintf(buf, cap, "-");
  return buf;
}

/* The second speed over the first, as a ratio (above 1 = the second is
 * faster); "-" when either is missing. */
static const char *speedup(char *buf, size_t cap, double base_seconds,
                           double seconds) {
  if (base_seconds > 0 && seconds > 0)
    snprintf(buf, cap, "%.2f", base_seconds / seconds);
  else
    snprintf(buf, cap, "-");
  return buf;
}

/* The Python module beside the C library and NumPy, 1 thread. */
static void print_python(const ew_result *res, const char *section) {
  printf("\nPython module (import bcast), 1 thread, same arrays, GB/s as "
         "above: alloc = bcast.OP(a, b), into = bcast.OP(a, b, out=o), plan "
         "= p(a, b, out=o)\n");
  printf("  %-34s %8s %8s %8s %8s %8s %8s %8s\n", "case", "py alloc",
         "py into", "py plan", "C out", "plan/C", "into/np", "C/np");
  for (int i = 0; i < EW_CASE_COUNT; i++) {
    const ew_result *r = &res[i];
    if (r->py_plan <= 0) continue;
    char v[7][16];
    printf("  %-34s %8s %8s %8s %8s %8s %8s %8s\n", cases[i].name,
           cell(v[0], 16, r, r->py_alloc), cell(v[1], 16, r, r->py_into),
           cell(v[2], 16, r, r->py_plan), cell(v[3], 16, r, r->out[0]),
           speedup(v[4], 16, r->out[0], r->py_plan),
           speedup(v[5], 16, r->np_out, r->py_into),
           speedup(v[6], 16, r->np_out, r->out[0]));
    bench_tsv(section, cases[i].name, "bcast-py", "alloc", 1,
              r->bytes / r->py_alloc / 1e9);
    bench_tsv(section, cases[i].name, "bcast-py", "into", 1,
              r->bytes / r->py_into / 1e9);
    bench_tsv(section, cases[i].name, "bcast-py", "plan", 1,
              r->bytes / r->py_plan / 1e9);
    if (cases[i].flags & EW_LATENCY)
      printf("  %-34s us per call: np.OP(a, b, out=o) %.3f, bcast.OP(out=o) "
             "%.3f, plan %.3f, C plan %.3f\n",
             "", 1e6 * r->np_out, 1e6 * r->py_into, 1e6 * r->py_plan,
             1e6 * r->out[0]);
  }
  printf("  (plan/C: the Python plan over the C plan's 'out 1T'; into/np: "
         "bcast.OP(out=o) over np.OP(out=o); C/np: the C plan over NumPy, "
         "for comparison; above 1 = faster)\n");
}

/* The error state's cost: a plan's 1-thread run with and without reading
 * the floating-point flags (bcast_ew_plan_execute_fpe, what the Python
 * module runs), timed back to back, each the best of its runs. */
static void print_fpe_cost(const ew_result *res, const bench_ew_select *sel);

/* The sections the rows are printed in: a row's section is the first
 * whose test it passes. */
typedef struct ew_section {
  const char *key, *title;
  int (*holds)(const ew_case *c);
} ew_section;

static int is_dram(const ew_case *c) { return (c->flags & EW_DRAM) != 0; }
static int is_peer(const ew_case *c) { return c->peer != NULL; }
static int is_other(const ew_case *c) { return c->peer == NULL; }

static const ew_section sections[] = {
    {"dram", "Peer harness DRAM cases (cases_dram.txt, 512 MiB per operand)",
     is_dram},
    {"peer", "Peer harness cases (cases.txt)", is_peer},
    {"ew", "Element-wise ops, the other cases", is_other},
};
enum { SECTION_COUNT = sizeof sections / sizeof sections[0] };

static const ew_section *section_of(const ew_case *c) {
  int s = 0;
  while (!sections[s].holds(c)) s++;
  return &sections[s];
}

static int selected(const ew_case *c, const bench_ew_select *sel) {
  if ((c->flags & EW_DRAM) && !sel->dram) return 0;
  return !sel->match || strstr(c->name, sel->match) ||
         (c->peer && strstr(c->peer, sel->match));
}

/* One row of a section's table, and its TSV rows. */
static void print_row(int i, const ew_result *r, const bench_bw *bw,
                      int have_numpy) {
  const ew_case *c = &cases[i];
  const char *section = section_of(c)->key;
  const char *name = c->peer ? c->peer : c->name;
  char label[64], v[16][16];
  double limit[2];
  for (int t = 0; t < 2; t++) {
    limit[t] = bench_limit(bw, c->anchor, r->out_bytes, t + 1);
    bench_tsv(section, name, "bcast", "alloc", t + 1,
              r->bytes / r->alloc[t] / 1e9);
    if (t == 0)
      bench_tsv(section, name, "bcast", "alloc+cache", 1,
                r->bytes / r->alloc_cached / 1e9);
    bench_tsv(section, name, "bcast", "out", t + 1,
              r->bytes / r->out[t] / 1e9);
    if (r->into[t] > 0)
      bench_tsv(section, name, "bcast", "into", t + 1,
                r->bytes / r->into[t] / 1e9);
    bench_tsv(section, name, "limit", bench_anchor_name(c->anchor), t + 1,
              limit[t]);
  }
  const double np_alloc = have_numpy ? r->np_alloc : 0;
  const double np_out = have_numpy ? r->np_out : 0;
  if (np_alloc > 0) {
    bench_tsv(section, name, "numpy", "alloc", 1, r->bytes / np_alloc / 1e9);
    bench_tsv(section, name, "numpy", "out", 1, r->bytes / np_out / 1e9);
  }
  if (c->peer)
    snprintf(label, sizeof label, "%s (%s)", c->peer,
             bench_anchor_name(c->anchor));
  else
    snprintf(label, sizeof label, "%s", c->name);
  printf("  %-34s %8s %8s %8s %8s %8s %8s %8s %8s %8s %8s %8s %8s %8.2f "
         "%8.2f %7.0f%% %7.0f%%\n",
         label, cell(v[0], 16, r, r->alloc[0]), cell(v[1], 16, r, r->alloc[1]),
         cell(v[2], 16, r, np_alloc), speedup(v[3], 16, np_alloc, r->alloc[0]),
         cell(v[14], 16, r, r->alloc_cached),
         speedup(v[15], 16, np_alloc, r->alloc_cached),
         cell(v[4], 16, r, r->out[0]), cell(v[5], 16, r, r->out[1]),
         cell(v[6], 16, r, np_out), speedup(v[7], 16, np_out, r->out[0]),
         cell(v[8], 16, r, r->into[0]), cell(v[9], 16, r, r->into[1]),
         limit[0], limit[1], 100.0 * r->bytes / r->out[0] / 1e9 / limit[0],
         100.0 * r->bytes / r->out[1] / 1e9 / limit[1]);
  if (c->flags & EW_LATENCY)
    printf("  %-34s us per call: alloc %.3f, out %.3f, into %.3f; NumPy "
           "alloc %.3f, out %.3f\n",
           "", 1e6 * r->alloc[0], 1e6 * r->out[0], 1e6 * r->into[0],
           1e6 * np_alloc, 1e6 * np_out);
}

void bench_elementwise(int reps, const char *script, bench_bw *bw,
                       const bench_ew_select *sel) {
  static ew_result res[EW_CASE_COUNT];
  for (int i = 0; i < EW_CASE_COUNT; i++)
    if (selected(&cases[i], sel)) run_case(&cases[i], reps, &res[i], 0);
  /* The machine's speed drifts over the minutes a run takes, so NumPy,
   * the Python module and the case's limit are timed case by case between
   * two runs of bcast's own 'out 1T' (the figure they are held against),
   * twice; each keeps its best. */
  numpy_child child = {-1, NULL, NULL};
  int have_numpy = script && child_start(&child, script, reps);
  for (int i = 0; have_numpy && i < EW_CASE_COUNT; i++) {
    if (!selected(&cases[i], sel)) continue;
    int got = 0;
    for (int round = 0; round < 2; round++) {
      got += ask_child(&child, i, &res[i]);
      bench_limit_refresh(bw, cases[i].anchor, res[i].out_bytes, reps);
      run_case(&cases[i], reps, &res[i], 1);
    }
    have_numpy = got == 2;
  }
  if (!child_stop(&child)) have_numpy = 0;
  for (int s = 0; s < SECTION_COUNT; s++) {
    int rows = 0;
    for (int i = 0; i < EW_CASE_COUNT; i++)
      if (selected(&cases[i], sel) && section_of(&cases[i]) == &sections[s]) {
        if (!rows++) {
          printf("\n%s, GB/s of operands read + output written\n",
                 sections[s].title);
          printf("  %-34s %8s %8s %8s %8s %8s %8s %8s %8s %8s %8s %8s %8s "
                 "%8s %8s %8s %8s\n",
                 "case (anchor)", "alloc 1T", "alloc 2T", "np alloc", "1T/np",
                 "cache 1T", "cache/np", "out 1T", "out 2T", "np out", "1T/np",
                 "into 1T", "into 2T", "lim 1T", "lim 2T", "1T/lim", "2T/lim");
        }
        print_row(i, &res[i], bw, have_numpy);
      }
  }
  printf("  (alloc: a new output each call; cache: the same with the "
         "buffer cache on (bcast_set_buffer_cache), "
         "so the output's pages are reused, not faulted in afresh; out: a "
         "prepared plan into a "
         "warm output; into: one call into a warm output; nT/np: bcast's "
         "speed over NumPy's; lim: the better of the ordinary and "
         "non-temporal STREAM kernel named by the anchor, at the size "
         "nearest the output; nT/lim: 'out' over it)\n");
  if (script && !have_numpy)
    printf("  NumPy: not measured for the element-wise cases\n");
  print_fpe_cost(res, sel);
  for (int i = 0; i < EW_CASE_COUNT; i++)
    if (res[i].py_plan > 0) {
      print_python(res, "python");
      break;
    }
}

static void print_fpe_cost(const ew_result *res, const bench_ew_select *sel) {
  printf("\nError state (np.errstate): 'out 1T' against the same plan "
         "reading every thread's floating-point flags, GB/s as above\n");
  printf("  %-34s %8s %8s %8s\n", "case", "out 1T", "out+fpe", "cost");
  for (int i = 0; i < EW_CASE_COUNT; i++) {
    const ew_result *r = &res[i];
    if (!selected(&cases[i], sel) || r->out_fpe <= 0) continue;
    char v[2][16];
    printf("  %-34s %8s %8s %7.1f%%\n", cases[i].name,
           cell(v[0], 16, r, r->out[0]), cell(v[1], 16, r, r->out_fpe),
           100.0 * (r->out_fpe / r->out[0] - 1));
    bench_tsv(section_of(&cases[i])->key, cases[i].name, "bcast", "out+fpe",
              1, r->bytes / r->out_fpe / 1e9);
  }
  printf("  (cost: the time read the flags adds to the plain run; the "
         "machine's noise is of the same order on the small cases)\n");
}
