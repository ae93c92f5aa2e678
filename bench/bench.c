/* bcast_bench: memory bandwidth, materialize speed, and NumPy in the same
 * run.
 *
 * Usage: bcast_bench [--reps N] [--source-dir DIR] [--no-numpy]
 *                    [--keep-omp-env] [--only materialize|ew] [--dram]
 *                    [--match TEXT] [--tsv FILE]
 *
 * --dram adds the element-wise cases of 512 MiB per operand (8192x16384
 * float32, the peer harness's cases_dram.txt) and the 512 MiB bandwidth
 * column; --match TEXT runs only the element-wise rows whose name or
 * harness name contains TEXT; --tsv FILE writes every figure as a row
 * "section case who variant threads GB/s" for bench/chart.py.
 *
 * Sections: memory bandwidth (bench_bw.c, the limits every other section
 * is held against), materialize (here), and the element-wise case table
 * (bench_ew.c: add, mul, select, maximum over the issue-5 cases; its rows
 * tagged with a peer-harness name are /work/shared/bench's cases.txt and
 * cases_dram.txt, printed as their own sections).  main calls the
 * sections; they share only bench_bw.h, and none calls main's file.
 *
 * Units.  GB/s is 10^9 bytes per second.  A materialize case counts the
 * bytes of the output it writes; the broadcast source is small, stays in
 * cache and is not counted.  The bandwidth section counts bytes read plus
 * bytes written, as STREAM does (the peer harness's stream.c kernels
 * scale, add and fill).  Every figure is the best of --reps runs.
 *
 * Variants, named as the peer harness names them: "out" is the steady
 * state, a prepared plan (or bcast_tensor_copy) into an output allocated
 * and touched beforehand, the figure to hold against the bandwidth;
 * "into" is one call that plans and executes into such an output; "alloc"
 * makes a new output each call (bcast_materialize, bcast_ew_compute:
 * allocation and first-touch page faults included, the same work as
 * NumPy's np.broadcast_to(x, shape).copy() or np.add(a, b)).
 *
 * NumPy runs as a child process (bench/numpy_bench.py, found under
 * --source-dir, $BCAST_SOURCE_DIR, the working directory or next to the
 * executable's parent) with OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE removed
 * from its environment.
 *
 * Threads.  Unless OMP_WAIT_POLICY is set, the bench re-executes itself
 * with OMP_WAIT_POLICY=passive: libgomp's default (spin about 300000 pause
 * instructions, then sleep) was measured here to cost about 8 ms per
 * parallel region on a 2-vCPU VM, where passive costs 30-90 us.  The policy
 * in force is printed; --keep-omp-env measures the default. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bcast/plan.h"
#include "bcast/tensor.h"
#include "bench_bw.h"
#include "bench_ew.h"
#include "ew/ew_plan.h"

/* The materialize cases.  Add a row to add a case: it is timed with 1 and
 * 2 threads, into a warm buffer, and by NumPy. */
typedef struct bench_case {
  const char *name;
  bcast_dtype dtype;
  const char *numpy_dtype;
  int32_t src_rank;
  int64_t src[4];
  int32_t out_rank;
  int64_t out[4];
} bench_case;

static const bench_case cases[] = {
    {"f32 (4096,1)->(4096,4096)",
     BCAST_FLOAT32,
     "float32",
     2,
     {4096, 1},
     2,
     {4096, 4096}},
    {"f32 (1,4096)->(4096,4096)",
     BCAST_FLOAT32,
     "float32",
     2,
     {1, 4096},
     2,
     {4096, 4096}},
    {"f32 (64,1,256,1)->(64,32,256,64)",
     BCAST_FLOAT32,
     "float32",
     4,
     {64, 1, 256, 1},
     4,
     {64, 32, 256, 64}},
    {"u8 (8192,1)->(8192,8192)",
     BCAST_UINT8,
     "uint8",
     2,
     {8192, 1},
     2,
     {8192, 8192}},
    {"f16 (1,8192)->(4096,8192)",
     BCAST_FLOAT16,
     "float16",
     2,
     {1, 8192},
     2,
     {4096, 8192}},
    {"f32 (N,1)->(N,3) short rows",
     BCAST_FLOAT32,
     "float32",
     2,
     {4194304, 1},
     2,
     {4194304, 3}},
    {"f32 (1,7)->(N,7) short rows",
     BCAST_FLOAT32,
     "float32",
     2,
     {1, 7},
     2,
     {2000000, 7}},
    {"f32 (256,1)->(256,1024) in cache",
     BCAST_FLOAT32,
     "float32",
     2,
     {256, 1},
     2,
     {256, 1024}},
};
enum { CASE_COUNT = sizeof cases / sizeof cases[0] };

static double gbps(double bytes, double seconds) {
  return seconds > 0 ? bytes / seconds / 1e9 : 0.0;
}

/* ---- (b) Materialize ------------------------------------------------ */

typedef struct case_result {
  int64_t bytes;
  double materialize[2]; /* GB/s with 1 and 2 threads */
  double into[2];
  double numpy;
} case_result;

static void fail(const char *what, bcast_status status, const bcast_diag *d) {
  fprintf(stderr, "bcast_bench: %s: %s: %s\n", what, bcast_status_name(status),
          d->message);
  exit(1);
}

static void bench_case_run(const bench_case *c, int reps, case_result *res) {
  bcast_diag diag;
  bcast_tensor src, view, out;
  bcast_status st = bcast_tensor_alloc(&src, c->dtype, c->src_rank, c->src,
                                       BCAST_DEFAULT_MAX_BYTES, &diag);
  if (st != BCAST_OK) fail("source", st, &diag);
  int64_t src_count;
  bcast_tensor_elem_count(&src, &src_count, NULL);
  size_t src_bytes =
      (size_t)(src_count) * (size_t)src.stride_bytes[c->src_rank - 1];
  for (size_t i = 0; i < src_bytes; i++)
    ((unsigned char *)src.data)[i] = (unsigned char)(i % 251);
  st = bcast_broadcast_to(&view, &src, c->out_rank, c->out, &diag);
  if (st != BCAST_OK) fail("broadcast_to", st, &diag);

  const int64_t budget = INT64_C(1) << 34;
  for (int t = 0; t < 2; t++) {
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
      double t0 = bench_now();
      st = bcast_materialize(&out, &view, budget, t + 1, &diag);
      double dt = bench_now() - t0;
      if (st != BCAST_OK) fail("materialize", st, &diag);
      bcast_tensor_elem_count(&out, &res->bytes, NULL);
      res->bytes *= out.stride_bytes[c->out_rank - 1];
      bcast_tensor_release(&out);
      if (dt < best) best = dt;
    }
    res->materialize[t] = gbps((double)res->bytes, best);
  }

  /* Into a warm output: allocated (zeroed, so every page is touched) once. */
  st = bcast_tensor_alloc(&out, c->dtype, c->out_rank, c->out, budget, &diag);
  if (st != BCAST_OK) fail("alloc", st, &diag);
  for (int t = 0; t < 2; t++) {
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
      double t0 = bench_now();
      st = bcast_tensor_copy(&out, &view, t + 1, &diag);
      double dt = bench_now() - t0;
      if (st != BCAST_OK) fail("copy", st, &diag);
      if (dt < best) best = dt;
    }
    res->into[t] = gbps((double)res->bytes, best);
  }
  bcast_tensor_release(&out);
  bcast_tensor_release(&view);
  bcast_tensor_release(&src);
}

/* ---- (c) NumPy ------------------------------------------------------ */

static int file_exists(const char *path) {
  FILE *f = fopen(path, "r");
  if (f) fclose(f);
  return f != NULL;
}

/* Finds numpy_bench.py; returns 0 when it is nowhere. */
static int find_script(const char *source_dir, const char *argv0, char *path,
                       size_t cap) {
  const char *env = getenv("BCAST_SOURCE_DIR");
  if (source_dir) {
    snprintf(path, cap, "%s/bench/numpy_bench.py", source_dir);
    return file_exists(path);
  }
  if (env) {
    snprintf(path, cap, "%s/bench/numpy_bench.py", env);
    if (file_exists(path)) return 1;
  }
  snprintf(path, cap, "bench/numpy_bench.py");
  if (file_exists(path)) return 1;
  /* build/bcast_bench -> build/../bench/numpy_bench.py */
  const char *slash = strrchr(argv0, '/');
  if (slash) {
    snprintf(path, cap, "%.*s/../bench/numpy_bench.py", (int)(slash - argv0),
             argv0);
    if (file_exists(path)) return 1;
  }
  return 0;
}

static int bench_numpy(const char *script, int reps, case_result *res) {
  static char cmd[8192];
  snprintf(cmd, sizeof cmd, "/usr/bin/python3 '%s' %d", script, reps);
  for (int i = 0; i < CASE_COUNT; i++) {
    size_t len = strlen(cmd);
    snprintf(cmd + len, sizeof cmd - len, " %s:", cases[i].numpy_dtype);
    bench_append_shape(cmd, sizeof cmd, cases[i].src_rank, cases[i].src);
    len = strlen(cmd);
    snprintf(cmd + len, sizeof cmd - len, ":");
    bench_append_shape(cmd, sizeof cmd, cases[i].out_rank, cases[i].out);
  }
  /* OpenBLAS tuning variables set for other work here would skew NumPy. */
  unsetenv("OPENBLAS_CORETYPE");
  unsetenv("OPENBLAS_L2_SIZE");
  FILE *child = popen(cmd, "r");
  if (!child) return 0;
  char line[256];
  int got = 0;
  while (fgets(line, sizeof line, child)) {
    int index;
    double seconds;
    long long bytes;
    if (sscanf(line, "numpy %d %lf %lld", &index, &seconds, &bytes) == 3 &&
        index >= 0 && index < CASE_COUNT) {
      res[index].numpy = gbps((double)bytes, seconds);
      got++;
    } else if (strncmp(line, "numpy-version", 13) == 0) {
      printf("NumPy: %s", line + 14);
    }
  }
  return pclose(child) == 0 && got == CASE_COUNT;
}

/* The header's tuning lines: the thresholds every case runs with and where
 * they came from.  Without a cache file or the environment, the library's
 * lazy calibration is made here, before the first case, so that every case
 * runs with the same choice (bcast tune makes a steadier one). */
static void print_tuning(void) {
  bcast_tuning t;
  bcast_diag warning;
  bcast_tuning_get(&t, &warning);
  if (warning.status != BCAST_OK) printf("warning: %s\n", warning.message);
  if (strcmp(t.nt_store_source, "cache sizes") == 0 ||
      strcmp(t.nt_fill_source, "cache sizes") == 0 ||
      strcmp(t.parallel_source, "cache sizes") == 0) {
    bcast_tuning_measure(&t, 0, NULL);
    bcast_tuning_get(&t, NULL);
  }
  printf("machine: %s\n", t.machine);
  printf("kernel set: %s\n", bcast__ew_kernel_sets());
  const int64_t sizes[3] = {t.nt_store_min_bytes, t.nt_fill_min_bytes,
                            t.parallel_min_bytes};
  const char *const names[3] = {"non-temporal stores from",
                                "non-temporal fills from", "threads from"};
  const char *const sources[3] = {t.nt_store_source, t.nt_fill_source,
                                  t.parallel_source};
  for (int k = 0; k < 3; k++) {
    if (sizes[k] == BCAST_TUNING_NEVER)
      printf("%s: never (%s)\n", names[k], sources[k]);
    else
      printf("%s: %.2f MiB (%s)\n", names[k], (double)sizes[k] / 1048576.0,
             sources[k]);
  }
  printf("store races on fills reading a row: %s\n",
         t.store_race ? "yes" : "no");
  printf("\n");
}

int main(int argc, char **argv) {
  int reps = 5, numpy = 1, keep_omp_env = 0;
  const char *source_dir = NULL, *only = NULL, *tsv_path = NULL;
  bench_ew_select select = {0, NULL};
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "--keep-omp-env")) keep_omp_env = 1;
  if (!keep_omp_env && !getenv("OMP_WAIT_POLICY")) {
    /* libgomp reads its environment before main: set it and start again. */
    setenv("OMP_WAIT_POLICY", "passive", 1);
    execv("/proc/self/exe", argv);
    /* Without /proc, carry on with the default policy. */
  }
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--keep-omp-env"))
      continue;
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
      reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--source-dir") && i + 1 < argc)
      source_dir = argv[++i];
    else if (!strcmp(argv[i], "--no-numpy"))
      numpy = 0;
    else if (!strcmp(argv[i], "--only") && i + 1 < argc &&
             (!strcmp(argv[i + 1], "materialize") ||
              !strcmp(argv[i + 1], "ew")))
      only = argv[++i];
    else if (!strcmp(argv[i], "--dram"))
      select.dram = 1;
    else if (!strcmp(argv[i], "--match") && i + 1 < argc)
      select.match = argv[++i];
    else if (!strcmp(argv[i], "--tsv") && i + 1 < argc)
      tsv_path = argv[++i];
    else {
      fprintf(stderr,
              "usage: bcast_bench [--reps N] [--source-dir DIR] [--no-numpy] "
              "[--keep-omp-env] [--only materialize|ew] [--dram] "
              "[--match TEXT] [--tsv FILE]\n");
      return 2;
    }
  }
  if (tsv_path && bench_tsv_open(tsv_path) != 0) {
    perror(tsv_path);
    return 1;
  }
  if (reps < 1) reps = 1;
  const char *policy = getenv("OMP_WAIT_POLICY");
  printf("bcast_bench: best of %d runs; GB/s = 10^9 bytes/s (which bytes: "
         "see each section); OMP_WAIT_POLICY=%s\n\n",
         reps, policy ? policy : "(libgomp default)");
  print_tuning();
  bench_bw bw;
  bench_bandwidth(reps, select.dram, &bw);

  /* The Python module of this build (build/python), timed by
   * numpy_bench.py beside NumPy when it is there. */
  char pydir[4096];
  ssize_t n = readlink("/proc/self/exe", pydir, sizeof pydir - 32);
  if (n > 0) {
    pydir[n] = '\0';
    char *slash = strrchr(pydir, '/');
    char init[4200];
    if (slash) strcpy(slash, "/python");
    snprintf(init, sizeof init, "%s/bcast/__init__.py", pydir);
    if (slash && file_exists(init)) setenv("BCAST_BENCH_PYDIR", pydir, 1);
  }

  char script[4096];
  const int have_script =
      numpy && find_script(source_dir, argv[0], script, sizeof script);
  if (only && !strcmp(only, "ew")) {
    bench_elementwise(reps, have_script ? script : NULL, &bw, &select);
    bench_bandwidth_tsv(&bw);
    return bench_tsv_close() ? 1 : 0;
  }

  static case_result res[CASE_COUNT];
  for (int i = 0; i < CASE_COUNT; i++)
    bench_case_run(&cases[i], reps, &res[i]);

  int have_numpy = 0;
  if (numpy) {
    if (have_script) have_numpy = bench_numpy(script, reps, res);
    if (!have_numpy)
      printf("NumPy: not measured (bench/numpy_bench.py or /usr/bin/python3 "
             "missing or failed; pass --source-dir)\n");
  }

  printf("\nMaterialize, GB/s of output (alloc = bcast_materialize: "
         "allocation and page faults included, like NumPy's .copy(); out = "
         "bcast_tensor_copy into a warm output)\n");
  printf("  %-34s %6s %8s %8s %8s %8s %8s %8s %8s\n", "case", "MiB",
         "alloc 1T", "alloc 2T", "np alloc", "1T/np", "out 1T", "out 2T",
         "best/lim");
  for (int i = 0; i < CASE_COUNT; i++) {
    const case_result *r = &res[i];
    const char *name = cases[i].name;
    double best = r->into[0] > r->into[1] ? r->into[0] : r->into[1];
    double limit[2];
    for (int t = 0; t < 2; t++) {
      limit[t] = bench_limit(&bw, BENCH_FILL, (double)r->bytes, t + 1);
      bench_tsv("materialize", name, "bcast", "alloc", t + 1,
                r->materialize[t]);
      bench_tsv("materialize", name, "bcast", "out", t + 1, r->into[t]);
      bench_tsv("materialize", name, "limit", "fill", t + 1, limit[t]);
    }
    char np[16] = "-", ratio[16] = "-";
    if (have_numpy && r->numpy > 0) {
      snprintf(np, sizeof np, "%.2f", r->numpy);
      snprintf(ratio, sizeof ratio, "%.2f", r->materialize[0] / r->numpy);
      bench_tsv("materialize", name, "numpy", "alloc", 1, r->numpy);
    }
    printf("  %-34s %6.1f %8.2f %8.2f %8s %8s %8.2f %8.2f %7.0f%%\n", name,
           (double)r->bytes / (1 << 20), r->materialize[0], r->materialize[1],
           np, ratio, r->into[0], r->into[1],
           100.0 * best / (limit[0] > limit[1] ? limit[0] : limit[1]));
  }
  printf("  (1T/np: bcast alloc with 1 thread over NumPy; best/lim: the "
         "better 'out' figure over the better fill bandwidth at the size "
         "nearest the output)\n");
  if (!only)
    bench_elementwise(reps, have_script ? script : NULL, &bw, &select);
  bench_bandwidth_tsv(&bw);
  return bench_tsv_close() ? 1 : 0;
}
