/* Shape-algebra benchmark: inference and verification calls per second, and
 * `bcast verify` over a generated file of 100,000 ops (end to end, as a
 * user runs it).  Usage: bcast_bench_shape PATH/TO/bcast [OPS] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bcast/bcast.h"

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Prevents the compiler from dropping benchmarked results. */
static volatile int64_t sink;

static void bench_infer(void) {
  bcast_shape ops[3] = {{4, {8, 1, 64, 1}}, {3, {32, 1, 128}}, {1, {128}}};
  ops[1].dims[1] = BCAST_DIM_DYNAMIC;
  bcast_shape out;
  const long iters = 5000000;
  double best = 1e30;
  for (int rep = 0; rep < 3; rep++) {
    double t0 = now_seconds();
    for (long i = 0; i < iters; i++) {
      ops[0].dims[0] = 8 + (i & 1); /* defeat hoisting */
      bcast_shape_infer(3, ops, BCAST_PROFILE_TRAIT, &out, NULL);
      sink += out.dims[0];
    }
    double dt = now_seconds() - t0;
    if (dt < best) best = dt;
  }
  printf(
      "shape_infer   3 operands, rank 4   %8.1f M calls/s  (%.0f ns/call)\n",
      iters / best / 1e6, best / iters * 1e9);

  bcast_shape result = {4, {9, 32, 64, 128}};
  best = 1e30;
  for (int rep = 0; rep < 3; rep++) {
    double t0 = now_seconds();
    for (long i = 0; i < iters; i++) {
      ops[0].dims[0] = 9 - (i & 1) * 8; /* alternates 9 and 1 */
      sink += bcast_shape_verify(3, ops, &result, BCAST_PROFILE_TRAIT, NULL);
    }
    double dt = now_seconds() - t0;
    if (dt < best) best = dt;
  }
  printf(
      "shape_verify  3 operands, rank 4   %8.1f M calls/s  (%.0f ns/call)\n",
      iters / best / 1e6, best / iters * 1e9);
}

/* The op lines of the module bench_cli reads, by i % 8 (%ld: i); the
 * last one fails. */
static const char *const OP_LINES[8] = {
    "  %%v%ld = tosa.add %%a, %%b : (tensor<4x1x?xf32>, tensor<1x8x16xf32>) "
    "-> tensor<4x8x16xf32>\n",
    "  %%v%ld = \"tosa.select\"(%%p, %%a, %%b) : (tensor<4x8x1xi1>, "
    "tensor<4x1x?xf32>, tensor<1x8x16xf32>) -> tensor<4x8x16xf32>\n",
    "  // a comment between ops\n  %%v%ld = arith.addf %%x, %%y : "
    "tensor<4xf32>\n",
    "  %%v%ld = \"test.broadcastable\"(%%a, %%b, %%c) : (tensor<?x1xi32>, "
    "tensor<1x5xi32>, tensor<5xi32>) -> tensor<?x5xi32>\n",
    "  %%v%ld = tosa.mul %%a, %%b, %%s : (tensor<4x8x16xi32>, "
    "tensor<1x8x1xi32>, tensor<1xi8>) -> tensor<4x8x16xi32>\n",
    "  %%v%ld = tosa.clamp %%a {min_val = 0.0 : f32, max_val = 6.0 : f32} : "
    "(tensor<4x8x16xf32>) -> tensor<4x8x16xf32>\n",
    "  %%v%ld = tosa.sub %%a, %%b : (tensor<4x8x16xf32>, tensor<1x1x1xf32>) "
    "-> tensor<4x8x16xf32>\n",
    "  %%v%ld = tosa.add %%a, %%b : (tensor<4x3xf32>, tensor<4x2xf32>) -> "
    "tensor<4x3xf32>\n",
};

/* Writes a module with n ops, one in eight of them failing. */
static int write_ops_file(const char *path, long n) {
  FILE *f = fopen(path, "w");
  if (!f) return 0;
  fprintf(
      f,
      "func.func @big(%%a: tensor<4x1x?xf32>, %%b: tensor<1x8x16xf32>) {\n");
  for (long i = 0; i < n; i++) fprintf(f, OP_LINES[i % 8], i);
  fprintf(f, "  return\n}\n");
  return fclose(f) == 0;
}

static void bench_cli(const char *bcast, long n) {
  char path[] = "/tmp/bcast-bench-XXXXXX.mlir";
  int fd = mkstemps(path, 5);
  if (fd < 0) {
    perror("mkstemps");
    return;
  }
  close(fd);
  if (!write_ops_file(path, n)) {
    fprintf(stderr, "cannot write %s\n", path);
    unlink(path);
    return;
  }
  double best = 1e30;
  int status = 0;
  for (int rep = 0; rep < 3; rep++) {
    fflush(stdout);
    double t0 = now_seconds();
    pid_t pid = fork();
    if (pid == 0) {
      /* Diagnostics go to /dev/null: the cost measured is checking. */
      if (!freopen("/dev/null", "w", stderr) ||
          !freopen("/dev/null", "w", stdout))
        _exit(127);
      execl(bcast, bcast, "verify", path, (char *)NULL);
      _exit(127);
    }
    waitpid(pid, &status, 0);
    double dt = now_seconds() - t0;
    if (dt < best) best = dt;
  }
  unlink(path);
  /* Exit 1 is expected: one op in eight is wrong on purpose. */
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 1) {
    fprintf(stderr, "bcast verify exited with status %d, expected 1\n",
            status);
    return;
  }
  long checked = n - n / 8; /* the arith ops are skipped */
  printf("bcast verify  %ld ops in a file (%ld checked)  %.3f s  = %.2f M "
         "ops/s\n",
         n, checked, best, n / best / 1e6);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s PATH/TO/bcast [OPS]\n", argv[0]);
    return 2;
  }
  long n = argc > 2 ? atol(argv[2]) : 100000;
  printf("== shape algebra ==\n");
  bench_infer();
  bench_cli(argv[1], n);
  return 0;
}
