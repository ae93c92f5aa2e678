/* The limits bcast_bench holds every figure against, and what its
 * sections share (bench.c: main and materialize; bench_ew.c: the
 * element-wise table): the STREAM-style bandwidth of the machine measured
 * in the same run, the clock, the machine-readable results, and shapes
 * written for numpy_bench.py.  Both sections include this; it includes
 * neither. */
#ifndef BCAST_BENCH_BW_H
#define BCAST_BENCH_BW_H

#include <stddef.h>
#include <stdint.h>

/* The STREAM-style kernel that bounds a case physically, as the peer
 * harness's cases.txt names it: scale reads one array and writes one, add
 * reads two and writes one, fill only writes. */
#define BENCH_ANCHOR_LIST(X)                                                  \
  X(SCALE, "scale", 8)                                                        \
  X(ADD, "add", 12)                                                           \
  X(FILL, "fill", 4)

typedef enum bench_anchor {
#define BENCH_ANCHOR_ENUM(id, name, bytes) BENCH_##id,
  BENCH_ANCHOR_LIST(BENCH_ANCHOR_ENUM)
#undef BENCH_ANCHOR_ENUM
      BENCH_ANCHOR_COUNT
} bench_anchor;

const char *bench_anchor_name(bench_anchor a);

/* The bandwidths measured in the same run, GB/s (bytes read + written per
 * second), per anchor kernel, per array size and per thread count
 * (index = threads - 1), each the better of ordinary and non-temporal
 * stores. */
enum { BENCH_BW_SIZES = 5 };
typedef struct bench_bw {
  int sizes;
  double array_bytes[BENCH_BW_SIZES];
  double best[BENCH_ANCHOR_COUNT][BENCH_BW_SIZES][2];
} bench_bw;

/* The limit for a case whose output has out_bytes: the anchor's bandwidth
 * at the measured array size nearest out_bytes (by ratio). */
double bench_limit(const bench_bw *bw, bench_anchor a, double out_bytes,
                   int threads);

/* Measures the anchor kernel again at the size nearest out_bytes, 1 and 2
 * threads, both stores, keeping in bw the better figures: the limit gets
 * as many chances against the VM's drift as the case it bounds. */
void bench_limit_refresh(bench_bw *bw, bench_anchor a, double out_bytes,
                         int reps);

/* One line of the machine-readable results (--tsv): section, case, who
 * (bcast, numpy, bcast-py, limit), variant (out, into, alloc, or the
 * limit's anchor), threads, GB/s.  Does nothing without --tsv. */
void bench_tsv(const char *section, const char *case_name, const char *who,
               const char *variant, int threads, double gbps);

/* Measures every anchor kernel with ordinary and non-temporal stores, 1
 * and 2 threads, at array sizes near the cases' outputs (512 MiB too with
 * dram) into *bw, and prints the table. */
void bench_bandwidth(int reps, int dram, bench_bw *bw);

/* The limits as the run ends: one --tsv row per kernel, size and thread
 * count. */
void bench_bandwidth_tsv(const bench_bw *bw);

/* Opens the --tsv file and writes its header; 0, or -1 (errno set). */
int bench_tsv_open(const char *path);
/* Closes it; 0, or nonzero when a write failed (no file: 0). */
int bench_tsv_close(void);

/* Appends the RANK dims to the string in BUF (CAP bytes) as "2,3,4", the
 * form numpy_bench.py reads; truncates at CAP. */
void bench_append_shape(char *buf, size_t cap, int32_t rank,
                        const int64_t *dims);

/* Seconds on the monotonic clock. */
double bench_now(void);

#endif
