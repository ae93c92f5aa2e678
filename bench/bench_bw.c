/* bcast_bench's limits (bench_bw.h): the STREAM-style bandwidth kernels
 * scale, add and fill over float32 arrays, with ordinary and non-temporal
 * stores, per array size and thread count; the clock; the --tsv rows.
 *
 * Units.  The bandwidth counts bytes read plus bytes written, as STREAM
 * does (the peer harness's stream.c kernels).  Every figure is the best of
 * --reps runs. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif
#ifdef _OPENMP
#include <omp.h>
#endif

#include "bench_bw.h"

double bench_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The STREAM-style kernels over float32 arrays a, b, c, on one thread's
 * share [lo, hi) of elements (a multiple of 16 apart): scale b = s * c,
 * add c = a + b, fill a = s; stored with ordinary or non-temporal stores.
 * One loop per (kernel, store) so the compiler sees straight-line code; AVX
 * where the CPU has it (bcast's kernels use AVX2), else SSE. */
#define BW_LOOPS(VEC, W, SET1, LOAD, STORE, NT_STORE, MUL, ADDV)              \
  const VEC s = SET1(3.0f);                                                   \
  size_t i;                                                                   \
  switch (kernel * 2 + nt_store) {                                            \
  case BENCH_SCALE * 2:                                                       \
    for (i = lo; i < hi; i += W) STORE(b + i, MUL(s, LOAD(c + i)));           \
    break;                                                                    \
  case BENCH_SCALE * 2 + 1:                                                   \
    for (i = lo; i < hi; i += W) NT_STORE(b + i, MUL(s, LOAD(c + i)));        \
    break;                                                                    \
  case BENCH_ADD * 2:                                                         \
    for (i = lo; i < hi; i += W)                                              \
      STORE(c + i, ADDV(LOAD(a + i), LOAD(b + i)));                           \
    break;                                                                    \
  case BENCH_ADD * 2 + 1:                                                     \
    for (i = lo; i < hi; i += W)                                              \
      NT_STORE(c + i, ADDV(LOAD(a + i), LOAD(b + i)));                        \
    break;                                                                    \
  case BENCH_FILL * 2:                                                        \
    for (i = lo; i < hi; i += W) STORE(a + i, s);                             \
    break;                                                                    \
  default:                                                                    \
    for (i = lo; i < hi; i += W) NT_STORE(a + i, s);                          \
    break;                                                                    \
  }

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx"))) static void
bw_kernel_avx(bench_anchor kernel, int nt_store, float *a, float *b, float *c,
              size_t lo, size_t hi) {
  BW_LOOPS(__m256, 8, _mm256_set1_ps, _mm256_load_ps, _mm256_store_ps,
           _mm256_stream_ps, _mm256_mul_ps, _mm256_add_ps)
  _mm_sfence();
}
#endif

static void bw_kernel(bench_anchor kernel, int nt_store, float *a, float *b,
                      float *c, size_t lo, size_t hi) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (__builtin_cpu_supports("avx")) {
    bw_kernel_avx(kernel, nt_store, a, b, c, lo, hi);
    return;
  }
#endif
#if defined(__SSE2__)
  BW_LOOPS(__m128, 4, _mm_set1_ps, _mm_load_ps, _mm_store_ps, _mm_stream_ps,
           _mm_mul_ps, _mm_add_ps)
  _mm_sfence();
#else
  (void)nt_store;
  for (size_t i = lo; i < hi; i++) {
    if (kernel == BENCH_SCALE)
      b[i] = 3.0f * c[i];
    else if (kernel == BENCH_ADD)
      c[i] = a[i] + b[i];
    else
      a[i] = 3.0f;
  }
#endif
}

static const int anchor_bytes[] = {
#define BENCH_ANCHOR_BYTES(id, name, bytes) bytes,
    BENCH_ANCHOR_LIST(BENCH_ANCHOR_BYTES)
#undef BENCH_ANCHOR_BYTES
};

const char *bench_anchor_name(bench_anchor a) {
  static const char *const names[] = {
#define BENCH_ANCHOR_NAME(id, name, bytes) name,
      BENCH_ANCHOR_LIST(BENCH_ANCHOR_NAME)
#undef BENCH_ANCHOR_NAME
  };
  return names[a];
}

/* GB/s of one kernel over n floats per array: the best of reps samples,
 * each repeating the kernel inner times inside one parallel region (each
 * thread owns the same chunk every time, so in-cache sizes are not
 * dominated by fork and join). */
static double bw_run(bench_anchor kernel, int nt_store, int threads, float *a,
                     float *b, float *c, size_t n, int reps) {
  const double traffic = (double)n * anchor_bytes[kernel];
  const long inner = traffic < 256e6 ? (long)(256e6 / traffic) : 1;
  double best = 1e30;
  for (int r = 0; r < reps; r++) {
    double t0 = bench_now();
#ifdef _OPENMP
#pragma omp parallel num_threads(threads)
    {
      size_t nt = (size_t)omp_get_num_threads(),
             id = (size_t)omp_get_thread_num();
      size_t chunk = (n / nt + 15) / 16 * 16;
      size_t lo = id * chunk, hi = lo + chunk < n ? lo + chunk : n;
      for (long k = 0; k < inner && lo < hi; k++)
        bw_kernel(kernel, nt_store, a, b, c, lo, hi);
    }
#else
    (void)threads;
    for (long k = 0; k < inner; k++)
      bw_kernel(kernel, nt_store, a, b, c, 0, n);
#endif
    double t = (bench_now() - t0) / (double)inner;
    if (t < best) best = t;
  }
  return traffic / best / 1e9;
}

/* The measured array size nearest out_bytes (by ratio). */
static int nearest_size(const bench_bw *bw, double out_bytes) {
  int near = 0;
  for (int s = 1; s < bw->sizes; s++) {
    double d_near = out_bytes / bw->array_bytes[near],
           d_s = out_bytes / bw->array_bytes[s];
    if ((d_s > 1 ? d_s : 1 / d_s) < (d_near > 1 ? d_near : 1 / d_near))
      near = s;
  }
  return near;
}

double bench_limit(const bench_bw *bw, bench_anchor a, double out_bytes,
                   int threads) {
  return bw->best[a][nearest_size(bw, out_bytes)][threads - 1];
}

static float *bw_array(size_t n) {
  float *p = aligned_alloc(64, n * sizeof(float));
  if (!p) {
    fprintf(stderr, "bcast_bench: out of memory\n");
    exit(1);
  }
  for (size_t i = 0; i < n; i++) p[i] = 1.0f;
  return p;
}

/* Measures one kernel at size index s with both stores and 1 and 2
 * threads into fig[store][threads - 1], keeping the better store's figure
 * in bw when it beats the one kept. */
static void bw_measure(bench_bw *bw, bench_anchor k, int s, float *a, float *b,
                       float *c, int reps, double fig[2][2]) {
  for (int nt_store = 0; nt_store < 2; nt_store++)
    for (int t = 0; t < 2; t++) {
      fig[nt_store][t] =
          bw_run(k, nt_store, t + 1, a, b, c,
                 (size_t)bw->array_bytes[s] / sizeof(float), reps);
      if (fig[nt_store][t] > bw->best[k][s][t])
        bw->best[k][s][t] = fig[nt_store][t];
    }
}

void bench_limit_refresh(bench_bw *bw, bench_anchor k, double out_bytes,
                         int reps) {
  const int s = nearest_size(bw, out_bytes);
  const size_t n = (size_t)bw->array_bytes[s] / sizeof(float);
  float *a = bw_array(n), *b = bw_array(n), *c = bw_array(n);
  double fig[2][2];
  bw_measure(bw, k, s, a, b, c, reps, fig);
  free(a);
  free(b);
  free(c);
}

/* Measures every anchor kernel at array sizes near the cases' outputs:
 * 16 KiB (in L1, the small case), 16, 64 and 128 MiB (the 4096x4096
 * cases in int8 to float64), and 512 MiB with dram (the DRAM cases). */
void bench_bandwidth(int reps, int dram, bench_bw *bw) {
  static const double sizes[] = {16 << 10, 16 << 20, 64 << 20, 128 << 20,
                                 512.0 * (1 << 20)};
  memset(bw, 0, sizeof *bw);
  bw->sizes = dram ? 5 : 4;
  memcpy(bw->array_bytes, sizes, sizeof sizes);
  const size_t max_n = (size_t)sizes[bw->sizes - 1] / sizeof(float);
  float *a = bw_array(max_n), *b = bw_array(max_n), *c = bw_array(max_n);
  static double fig[BENCH_ANCHOR_COUNT][BENCH_BW_SIZES][2][2];
  for (int k = 0; k < BENCH_ANCHOR_COUNT; k++)
    for (int s = 0; s < bw->sizes; s++)
      bw_measure(bw, (bench_anchor)k, s, a, b, c, reps, fig[k][s]);
  printf("Memory bandwidth (STREAM-style float32 kernels), GB/s of bytes "
         "read + written, per array size and thread count\n");
  printf("  %-22s", "kernel");
  for (int s = 0; s < bw->sizes; s++) {
    char label[32];
    snprintf(label, sizeof label, "%.0f%s",
             sizes[s] >= 1 << 20 ? sizes[s] / (1 << 20) : sizes[s] / 1024,
             sizes[s] >= 1 << 20 ? "M" : "K");
    printf(" %6s 1T %6s 2T", label, label);
  }
  printf("\n");
  for (int k = 0; k < BENCH_ANCHOR_COUNT; k++)
    for (int nt_store = 0; nt_store < 2; nt_store++) {
      char label[32];
      snprintf(label, sizeof label, "%s%s", bench_anchor_name((bench_anchor)k),
               nt_store ? ", non-temporal" : ", ordinary");
      printf("  %-22s", label);
      for (int s = 0; s < bw->sizes; s++)
        printf(" %9.2f %9.2f", fig[k][s][nt_store][0], fig[k][s][nt_store][1]);
      printf("\n");
    }
  printf("  (scale: b = 3c, 1 read + 1 write; add: c = a + b, 2 reads + 1 "
         "write; fill: a = 3, write only; a case's limit is the better of "
         "the ordinary and non-temporal figure at the size nearest its "
         "output, the best of this and the element-wise cases' "
         "re-measurements)\n\n");
  free(a);
  free(b);
  free(c);
}

/* The element-wise section re-measures the limits case by case, so they
 * are written as the run ends. */
void bench_bandwidth_tsv(const bench_bw *bw) {
  for (int k = 0; k < BENCH_ANCHOR_COUNT; k++)
    for (int s = 0; s < bw->sizes; s++)
      for (int t = 0; t < 2; t++) {
        char label[32];
        snprintf(label, sizeof label, "%s %.0f KiB",
                 bench_anchor_name((bench_anchor)k),
                 bw->array_bytes[s] / 1024);
        bench_tsv("bandwidth", label, "limit",
                  bench_anchor_name((bench_anchor)k), t + 1,
                  bw->best[k][s][t]);
      }
}

/* --tsv: the machine-readable results, one row per figure, that
 * bench/chart.py draws. */
static FILE *tsv_file;

int bench_tsv_open(const char *path) {
  tsv_file = fopen(path, "w");
  if (!tsv_file) return -1;
  fprintf(tsv_file, "section\tcase\twho\tvariant\tthreads\tgbps\n");
  return 0;
}

int bench_tsv_close(void) {
  if (!tsv_file) return 0;
  const int failed = ferror(tsv_file) | fclose(tsv_file);
  tsv_file = NULL;
  return failed;
}

void bench_tsv(const char *section, const char *case_name, const char *who,
               const char *variant, int threads, double gbps) {
  if (tsv_file)
    fprintf(tsv_file, "%s\t%s\t%s\t%s\t%d\t%.4f\n", section, case_name, who,
            variant, threads, gbps);
}

void bench_append_shape(char *buf, size_t cap, int32_t rank,
                        const int64_t *dims) {
  size_t len = strlen(buf);
  for (int32_t i = 0; i < rank && len < cap; i++)
    len += (size_t)snprintf(buf + len, cap - len, "%s%" PRId64, i ? "," : "",
                            dims[i]);
}
