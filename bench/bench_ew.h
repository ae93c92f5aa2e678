/* bcast_bench's element-wise section (bench_ew.c), as main (bench.c)
 * calls it. */
#ifndef BCAST_BENCH_EW_H
#define BCAST_BENCH_EW_H

#include "bench_bw.h"

/* Which element-wise rows run: the DRAM rows only with dram, and only the
 * rows whose name or harness name contains match (all when NULL). */
typedef struct bench_ew_select {
  int dram;
  const char *match;
} bench_ew_select;

/* Times the element-wise case table (bench_ew.c) with 1 and 2 threads, and
 * NumPy on the same cases when script is not NULL; re-measures each
 * case's limit beside it (bench_limit_refresh). */
void bench_elementwise(int reps, const char *script, bench_bw *bw,
                       const bench_ew_select *select);

#endif
