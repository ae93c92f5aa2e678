/* bcast/plan.h - the broadcast iteration engine.
 *
 * A plan is built once for an output shape and the byte strides of N
 * operands (operand 0 is conventionally the output).  Building right-aligns
 * ranks, gives broadcast dims stride 0, drops size-1 dims, coalesces
 * adjacent dims that are contiguous for every operand, and orders dims for
 * locality.  Running it calls a kernel on innermost runs:
 *
 *     kernel(n, ptrs, strides, params)
 *
 * where ptrs[k] points at operand k's first element of the run and
 * strides[k] is its byte stride along the run (0 when broadcast).  The
 * kernel never sees shapes.  plan->inner_class tells which common case the
 * innermost run is in, so callers can pick a specialised kernel once.
 * Running never allocates; large outputs are split across OpenMP threads.
 * Kernels may use non-temporal stores without fencing them: each thread
 * issues one store fence after its last run.
 */
#ifndef BCAST_PLAN_H
#define BCAST_PLAN_H

#include "bcast/export.h"
#include "bcast/shape.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BCAST_PLAN_MAX_OPERANDS 8

typedef void (*bcast_kernel_fn)(int64_t n, char *const *ptrs,
                                const int64_t *strides, const void *params);

/* Bit k of plan->broadcast_mask is set when operand k has stride 0 along the
 * innermost run; contiguous_mask when its inner stride equals its element
 * size. */
typedef struct bcast_plan {
  int32_t ndim; /* dims after coalescing, >= 1 (a scalar is [1]) */
  int32_t n_operands;
  int64_t elem_count;
  int64_t extent[BCAST_MAX_RANK]; /* outermost first */
  int64_t stride_bytes[BCAST_PLAN_MAX_OPERANDS][BCAST_MAX_RANK];
  int64_t elem_bytes[BCAST_PLAN_MAX_OPERANDS];
  uint32_t broadcast_mask;
  uint32_t contiguous_mask;
} bcast_plan;

/* out_shape has out_rank dims; operand k has rank[k] dims given by shape[k]
 * and byte strides stride_bytes[k] (right-aligned against out_shape; each
 * dim must equal the output's or be 1).  elem_bytes[k] is operand k's
 * element size.  The kernels load elements through typed pointers, so the
 * stride of every dim longer than 1 must be a multiple of the element's
 * alignment (its size's largest power-of-two divisor, at most 8);
 * BCAST_INVALID_ARGUMENT names the operand and dim otherwise. */
BCAST_API bcast_status bcast_plan_build(
    bcast_plan *plan, int32_t out_rank, const int64_t *out_shape,
    int32_t n_operands, const int32_t *rank, const int64_t *const *shape,
    const int64_t *const *stride_bytes, const int64_t *elem_bytes,
    bcast_diag *diag);

/* BCAST_OK when every base[k] (element [0..0] of operand k) is aligned for
 * its elements as bcast_plan_build says of strides; BCAST_INVALID_ARGUMENT
 * naming the first that is not.  The element-wise and copy runs check it;
 * a caller of bcast_plan_run with its own kernel may. */
BCAST_API bcast_status bcast_plan_check_bases(const bcast_plan *plan,
                                              char *const *base,
                                              bcast_diag *diag);

/* Runs kernel over the plan with base pointers base[k] (element [0..0] of
 * each operand).  threads <= 0 means the OpenMP default; outputs below an
 * internal size threshold run single-threaded. */
BCAST_API void bcast_plan_run(const bcast_plan *plan, char *const *base,
                              bcast_kernel_fn kernel, const void *params,
                              int threads);

/* Row kernels (two-dimensional): one call covers `rows` innermost runs of
 * n elements each.  Run r of operand k starts at ptrs[k] + r * row_strides[k]
 * and steps by strides[k] along the run, as for bcast_kernel_fn.  The
 * engine hands a kernel as many consecutive runs of the second-innermost
 * dim as it can (a whole plane, or what is left of it in the thread's
 * share), so short runs no longer cost one call each; a run cut by a
 * thread boundary comes as rows == 1 with a shorter n.  ndim == 1 plans
 * call with rows == 1. */
typedef void (*bcast_rows_kernel_fn)(int64_t rows, int64_t n,
                                     char *const *ptrs, const int64_t *strides,
                                     const int64_t *row_strides,
                                     const void *params);

/* As bcast_plan_run, handing a row kernel several rows of runs per call.
 * The same threading, the same store fence per thread.  (Formerly
 * bcast_plan_run2, with bcast_kernel2_fn.) */
BCAST_API void bcast_plan_run_rows(const bcast_plan *plan, char *const *base,
                                   bcast_rows_kernel_fn kernel,
                                   const void *params, int threads);

/* Copy kernels for a plan whose operand 0 is the destination and operand 1
 * the source, both of elem_bytes bytes (1, 2, 4, 8 or 16).  Returns the
 * kernel for the plan's innermost run: a block copy when both are
 * contiguous, a fill when the source is broadcast (stride 0), a strided loop
 * otherwise.  With BCAST_COPY_NT_STORE_LARGE (formerly
 * BCAST_COPY_STREAM_LARGE), outputs larger than the last-level cache get
 * non-temporal stores where the CPU has them: right
 * for a destination that was written before, wrong for freshly allocated
 * memory, whose pages the OS has just zeroed through the cache (use
 * BCAST_COPY_CACHED there).  NULL for any other element size.  The kernels
 * take params == NULL. */
typedef enum bcast_copy_stores {
  BCAST_COPY_CACHED,
  BCAST_COPY_NT_STORE_LARGE
} bcast_copy_stores;
BCAST_API bcast_kernel_fn bcast_copy_kernel(const bcast_plan *plan,
                                            int64_t elem_bytes,
                                            bcast_copy_stores stores);

/* Runs a copy over such a plan (bases: destination, source), picking the
 * kernel itself: the one above for ordinary runs; for short innermost runs
 * (under 16 elements, as in (N,1) -> (N,3)) a row kernel that takes a
 * whole dim of short runs per call, and for identical rows written back to
 * back ((1,7) -> (N,7)) one row written once and copied forward in 4 KiB
 * blocks.  Returns BCAST_UNSUPPORTED for an element size without kernels. */
BCAST_API bcast_status bcast_copy_run(const bcast_plan *plan,
                                      char *const *base, int64_t elem_bytes,
                                      bcast_copy_stores stores, int threads,
                                      bcast_diag *diag);

/* Tuning: the output sizes the engine decides by, chosen per machine.
 *
 * nt_store_min_bytes: outputs at least this large are written with
 * non-temporal stores (element-wise plans, BCAST_COPY_NT_STORE_LARGE);
 * nt_fill_min_bytes: the same for pure fills, outputs written from inputs
 * at most an eighth their size, each broadcast along the innermost run (a
 * broadcast copy of a column, a cast of one), where a machine may favour
 * ordinary stores far longer (on a Zen 4 EPYC, up to about twice its L3);
 * parallel_min_bytes: smaller outputs run on one thread.
 * Each comes from the first of: the environment (BCAST_NT_STORE_MIN_BYTES,
 * which fills follow too, BCAST_NT_FILL_MIN_BYTES, BCAST_PARALLEL_MIN_BYTES);
 * the cache file of a calibration made on this machine (bcast tune); a
 * calibration the library makes itself, once per process, when it first
 * runs an output of at least BCAST_TUNING_LAZY_MIN_BYTES (a few tens of
 * milliseconds, two buffers of up to 16 MiB and one of twice the
 * last-level cache, written nowhere; not inside bcast/save.h's
 * memory-bounded calls; plans built before it keep their choice); the
 * machine's cache sizes (fills: as other outputs).
 * BCAST_TUNE=off skips the cache file and the calibration; BCAST_TUNE_FILE
 * names the cache file.  docs/thresholds.md has the details. */
#define BCAST_TUNING_LAZY_MIN_BYTES ((int64_t)16 << 20)
/* A threshold that is never reached: the alternative never paid. */
#define BCAST_TUNING_NEVER INT64_MAX
#define BCAST_TUNING_POINTS_MAX 10

/* One measured size: the best time of a copy (for fills, the median time
 * of a fill) of `bytes` bytes the default way (ns[0]: ordinary stores, or
 * one thread) and the alternative way (ns[1]: non-temporal stores, or
 * every thread), in nanoseconds. */
typedef struct bcast_tuning_point {
  int64_t bytes;
  double ns[2];
} bcast_tuning_point;

typedef struct bcast_tuning {
  char machine[256];     /* the cache key: CPU model, L2, LLC, CPUs */
  char cache_path[1024]; /* the cache file read and written; "" if none */
  int64_t nt_store_min_bytes;
  int64_t parallel_min_bytes;
  /* Where each came from: "environment", "cache file", "measured" or
   * "cache sizes". */
  const char *nt_store_source;
  const char *parallel_source;
  /* The measurement behind "measured" or "cache file" values. */
  int n_store, n_threads;
  bcast_tuning_point store[BCAST_TUNING_POINTS_MAX];
  bcast_tuning_point threads[BCAST_TUNING_POINTS_MAX];
  double measure_ms; /* how long the calibration took; 0 if none ran */
  /* Fills (see above), on every thread: their threshold, its source and
   * the measurement behind it (an older cache file has none: fills then
   * take its nt_store_min_bytes). */
  int64_t nt_fill_min_bytes;
  const char *nt_fill_source;
  int n_fill;
  bcast_tuning_point fill[BCAST_TUNING_POINTS_MAX];
  /* Whether prepared plans race ordinary against non-temporal stores on
   * fills that read a row (an outer sum): 1, unless the fill points show
   * non-temporal stores at least 1.25x faster at every size (then 0:
   * they take non-temporal stores, as the store threshold says). */
  int store_race;
} bcast_tuning;

/* The thresholds this process uses now, reading the cache file on the
 * first call (no calibration is started).  Always BCAST_OK; when a cache
 * file was ignored (corrupt, or written on another machine) or a threshold
 * variable of the environment was (not a byte count), warning (may be
 * NULL) gets a status other than BCAST_OK and a message naming the file
 * or the variable and the reason, else it is cleared. */
BCAST_API bcast_status bcast_tuning_get(bcast_tuning *tuning,
                                        bcast_diag *warning);

/* Calibrates now: times ordinary against non-temporal stores around the
 * cache-derived threshold, and one thread against all at 64 KiB..4 MiB,
 * chooses both thresholds from the timings and makes them this process's
 * (the environment's values still win).  thorough = 0 takes a few tens of
 * milliseconds (the lazy calibration); 1 about a second, over more sizes
 * and repetitions (bcast tune).  Writes no file.  BCAST_NO_MEMORY when the
 * buffers cannot be had. */
BCAST_API bcast_status bcast_tuning_measure(bcast_tuning *tuning,
                                            int thorough, bcast_diag *diag);

/* Writes tuning as the cache file path (NULL: tuning->cache_path, whose
 * directory is made if missing), atomically (bcast/output.h): a failure
 * leaves any previous file as it was. */
BCAST_API bcast_status bcast_tuning_save(const bcast_tuning *tuning,
                                         const char *path, bcast_diag *diag);

#ifdef __cplusplus
}
#endif

#endif /* BCAST_PLAN_H */
