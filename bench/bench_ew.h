/* The element-wise section of bcast_bench (bench_ew.c). */
#ifndef BCAST_BENCH_EW_H
#define BCAST_BENCH_EW_H

/* The bandwidths measured in the same run, GB/s, index = threads - 1,
 * each the better of ordinary and non-temporal stores: copy counts bytes
 * read + written, fill bytes written. */
typedef struct bench_bw {
  double copy[2];
  double fill[2];
} bench_bw;

/* Times add, mul, select and maximum over the issue-5 cases with 1 and 2
 * threads, and NumPy on the same cases when script is not NULL. */
void bench_elementwise(int reps, const char *script, const bench_bw *bw);

#endif
