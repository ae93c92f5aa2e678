/* The broadcast iteration engine: build a plan once, run kernels over it.
 *
 * Building turns N operands of any rank and byte strides into one loop nest
 * that every operand walks in lockstep.  The steps, in order:
 *   1. Right-align each operand against the output; a missing dim or a size-1
 *      dim facing a larger output dim gets byte stride 0 (broadcast).
 *   2. Drop output dims of extent 1: they move no pointer.
 *   3. Order dims for locality: outermost the largest |stride| of operand 0
 *      (the output), ties broken by the next operands, a stable sort so
 *      dims that tie everywhere keep their order (numpy's nditer does the
 *      same).
 *   4. Coalesce adjacent dims when, for every operand, the outer stride is
 *      the inner stride times the inner extent: the pair is then one dim.
 * Running walks the outer dims with an index counter (an odometer) and calls
 * the kernel once per innermost run; pointers move by additions only.
 * bcast_plan_run_rows walks one dim less and hands a row kernel every row
 * of the second-innermost dim at once. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "bcast/plan.h"
#include "core/diag.h"
#include "core/machine.h"
#include "plan/nt_store.h"

static int64_t abs64(int64_t v) { return v < 0 ? -v : v; }

/* Does dim a belong outside dim b?  Compares |stride| operand by operand. */
static int dim_outer_of(const bcast_plan *plan, int a, int b) {
  for (int k = 0; k < plan->n_operands; k++) {
    int64_t sa = abs64(plan->stride_bytes[k][a]);
    int64_t sb = abs64(plan->stride_bytes[k][b]);
    if (sa != sb) return sa > sb;
  }
  return 0;
}

static void dim_swap(bcast_plan *plan, int a, int b) {
  int64_t e = plan->extent[a];
  plan->extent[a] = plan->extent[b];
  plan->extent[b] = e;
  for (int k = 0; k < plan->n_operands; k++) {
    int64_t s = plan->stride_bytes[k][a];
    plan->stride_bytes[k][a] = plan->stride_bytes[k][b];
    plan->stride_bytes[k][b] = s;
  }
}

/* Can outer dim a and the inner dim b next to it be walked as one dim? */
static int dims_coalesce(const bcast_plan *plan, int a, int b) {
  for (int k = 0; k < plan->n_operands; k++) {
    int64_t span;
    if (__builtin_mul_overflow(plan->stride_bytes[k][b], plan->extent[b],
                               &span))
      return 0;
    if (plan->stride_bytes[k][a] != span) return 0;
  }
  return 1;
}

static bcast_status plan_check(int32_t out_rank, const int64_t *out_shape,
                               int32_t n_operands, const int32_t *rank,
                               const int64_t *const *shape, bcast_diag *diag) {
  if (out_rank < 0 || out_rank > BCAST_MAX_RANK)
    return bcast__fail(diag, BCAST_RANK_LIMIT,
                       "output rank %d is outside 0..%d", (int)out_rank,
                       BCAST_MAX_RANK);
  if (n_operands < 1 || n_operands > BCAST_PLAN_MAX_OPERANDS)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "a plan takes 1..%d operands, not %d",
                       BCAST_PLAN_MAX_OPERANDS, (int)n_operands);
  for (int32_t i = 0; i < out_rank; i++)
    if (out_shape[i] < 0)
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "output dim %d has size %lld; a plan needs static "
                         "sizes >= 0",
                         (int)i, (long long)out_shape[i]);
  for (int32_t k = 0; k < n_operands; k++) {
    if (rank[k] < 0 || rank[k] > out_rank)
      return bcast__fail(diag, BCAST_RANK_MISMATCH,
                         "operand #%d has rank %d; it must be 0..%d, the "
                         "output's rank",
                         (int)k, (int)rank[k], (int)out_rank);
    int32_t lead = out_rank - rank[k];
    for (int32_t j = 0; j < rank[k]; j++) {
      int64_t size = shape[k][j], out = out_shape[lead + j];
      if (size == out || size == 1) continue;
      bcast__fail(diag, BCAST_INCOMPATIBLE,
                  "operand #%d dim %d (size %lld) cannot broadcast to output "
                  "dim %d (size %lld)",
                  (int)k, (int)j, (long long)size, (int)(lead + j),
                  (long long)out);
      bcast__locate(diag, (int)k, (int)j, size, BCAST_DIAG_RESULT,
                    (int)(lead + j), out, (int)(lead + j));
      return BCAST_INCOMPATIBLE;
    }
  }
  return BCAST_OK;
}

/* The alignment the kernels load an element of elem_bytes bytes with: its
 * largest power-of-two divisor, at most 8 (16-byte elements move as two
 * 8-byte halves). */
static int64_t elem_align(int64_t elem_bytes) {
  const int64_t low = elem_bytes > 0 ? elem_bytes & -elem_bytes : 1;
  return low > 8 ? 8 : low;
}

bcast_status bcast_plan_check_bases(const bcast_plan *plan, char *const *base,
                                    bcast_diag *diag) {
  for (int32_t k = 0; k < plan->n_operands; k++) {
    const int64_t align = elem_align(plan->elem_bytes[k]);
    if ((uintptr_t)base[k] & (uintptr_t)(align - 1)) /* a power of two */
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "operand #%d: its data at %p is not aligned for its "
                         "%lld-byte elements (a multiple of %lld); copy it to "
                         "aligned memory",
                         (int)k, (void *)base[k],
                         (long long)plan->elem_bytes[k], (long long)align);
  }
  return BCAST_OK;
}

bcast_status bcast_plan_build(bcast_plan *plan, int32_t out_rank,
                              const int64_t *out_shape, int32_t n_operands,
                              const int32_t *rank, const int64_t *const *shape,
                              const int64_t *const *stride_bytes,
                              const int64_t *elem_bytes, bcast_diag *diag) {
  bcast_status status =
      plan_check(out_rank, out_shape, n_operands, rank, shape, diag);
  if (status != BCAST_OK) return status;

  for (int32_t k = 0; k < n_operands; k++) {
    const int64_t align = elem_align(elem_bytes[k]);
    for (int32_t j = 0; j < rank[k]; j++)
      if (shape[k][j] > 1 && stride_bytes[k][j] % align)
        return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                           "operand #%d: the stride of dim %d, %lld bytes, "
                           "is not a multiple of its elements' alignment "
                           "(%lld bytes); copy it to aligned memory",
                           (int)k, (int)j, (long long)stride_bytes[k][j],
                           (long long)align);
  }

  memset(plan, 0, sizeof *plan);
  plan->n_operands = n_operands;
  for (int32_t k = 0; k < n_operands; k++) plan->elem_bytes[k] = elem_bytes[k];

  int64_t count = 1;
  for (int32_t i = 0; i < out_rank; i++)
    if (__builtin_mul_overflow(count, out_shape[i], &count))
      return bcast__fail(diag, BCAST_OVERFLOW,
                         "the output's element count overflows 64 bits");
  plan->elem_count = count;
  if (count == 0) {
    plan->ndim = 1;
    return BCAST_OK;
  }

  /* Steps 1 and 2: right-align, stride 0 for broadcast dims, drop 1s. */
  int ndim = 0;
  for (int32_t i = 0; i < out_rank; i++) {
    if (out_shape[i] == 1) continue;
    plan->extent[ndim] = out_shape[i];
    for (int32_t k = 0; k < n_operands; k++) {
      int32_t j = i - (out_rank - rank[k]);
      int64_t stride = 0;
      if (j >= 0 && shape[k][j] != 1) stride = stride_bytes[k][j];
      plan->stride_bytes[k][ndim] = stride;
    }
    ndim++;
  }
  if (ndim == 0) {
    plan->ndim = 1;
    plan->extent[0] = 1;
  } else {
    /* Step 3: stable insertion sort, outermost first. */
    for (int i = 1; i < ndim; i++)
      for (int j = i; j > 0 && dim_outer_of(plan, j, j - 1); j--)
        dim_swap(plan, j, j - 1);

    /* Step 4: coalesce.  kept-1 is the innermost dim kept so far. */
    int kept = 1;
    for (int i = 1; i < ndim; i++) {
      if (dims_coalesce(plan, kept - 1, i)) {
        plan->extent[kept - 1] *= plan->extent[i];
        for (int32_t k = 0; k < n_operands; k++)
          plan->stride_bytes[k][kept - 1] = plan->stride_bytes[k][i];
      } else {
        if (kept != i) {
          plan->extent[kept] = plan->extent[i];
          for (int32_t k = 0; k < n_operands; k++)
            plan->stride_bytes[k][kept] = plan->stride_bytes[k][i];
        }
        kept++;
      }
    }
    for (int i = kept; i < ndim; i++) {
      plan->extent[i] = 0;
      for (int32_t k = 0; k < n_operands; k++) plan->stride_bytes[k][i] = 0;
    }
    plan->ndim = kept;
  }

  int inner = plan->ndim - 1;
  for (int32_t k = 0; k < n_operands; k++) {
    int64_t s = plan->stride_bytes[k][inner];
    if (s == 0) plan->broadcast_mask |= 1u << k;
    if (s == elem_bytes[k]) plan->contiguous_mask |= 1u << k;
  }
  return BCAST_OK;
}

/* Steps the odometer idx over dims 0..outer-1 to its next position (there
 * must be one) and moves the nops operand pointers p with it: a dim that
 * wraps goes back by rewind[k][d], (extent - 1) strides. */
static inline void odometer_step(const bcast_plan *plan, int outer, int nops,
                                 int64_t *idx,
                                 int64_t (*rewind)[BCAST_MAX_RANK], char **p) {
  int d = outer - 1;
  while (++idx[d] == plan->extent[d]) {
    idx[d] = 0;
    for (int k = 0; k < nops; k++) p[k] -= rewind[k][d];
    d--;
  }
  for (int k = 0; k < nops; k++) p[k] += plan->stride_bytes[k][d];
}

/* Runs the elements [begin, end) of the plan's iteration order.
 *
 * Invariant: row[k] points at operand k's element (idx[0..ndim-2], 0), the
 * start of the current innermost run; left counts the elements still to
 * visit.  Only the first run may start inside a row and only the last may
 * end inside one. */
static void plan_run_range(const bcast_plan *plan, char *const *base,
                           bcast_kernel_fn kernel, const void *params,
                           int64_t begin, int64_t end) {
  const int nops = plan->n_operands;
  const int outer = plan->ndim - 1;
  const int64_t n0 = plan->extent[outer];
  int64_t idx[BCAST_MAX_RANK];
  int64_t rewind[BCAST_PLAN_MAX_OPERANDS][BCAST_MAX_RANK];
  int64_t inner_stride[BCAST_PLAN_MAX_OPERANDS];
  char *row[BCAST_PLAN_MAX_OPERANDS];
  char *first[BCAST_PLAN_MAX_OPERANDS];

  /* Decompose begin into the odometer position, innermost outer dim last. */
  int64_t rest = begin / n0, offset = begin % n0;
  for (int d = outer - 1; d >= 0; d--) {
    idx[d] = rest % plan->extent[d];
    rest /= plan->extent[d];
  }
  for (int k = 0; k < nops; k++) {
    inner_stride[k] = plan->stride_bytes[k][outer];
    row[k] = base[k];
    for (int d = 0; d < outer; d++) {
      row[k] += idx[d] * plan->stride_bytes[k][d];
      rewind[k][d] = (plan->extent[d] - 1) * plan->stride_bytes[k][d];
    }
    first[k] = row[k] + offset * inner_stride[k];
  }

  int64_t left = end - begin;
  int64_t len = n0 - offset < left ? n0 - offset : left;
  kernel(len, first, inner_stride, params);
  left -= len;

  while (left > 0) {
    /* Advance the odometer by one row; left > 0 guarantees a next row. */
    odometer_step(plan, outer, nops, idx, rewind, row);
    len = n0 < left ? n0 : left;
    kernel(len, row, inner_stride, params);
    left -= len;
  }
  /* Kernels may leave non-temporal stores unfenced; each thread fences once
   * when its share is done, so the caller sees every store. */
  bcast__nt_store_fence();
}

/* Whether the plan runs on several threads, and how many.  Outputs
 * smaller than the parallel threshold (plan/tune.h: the environment's, a
 * calibration's, or half an L2) run on one thread: below it, waking a
 * second thread costs more than it saves. */
static int plan_threads(const bcast_plan *plan, int threads) {
  int64_t out_bytes;
  if (__builtin_mul_overflow(plan->elem_count, plan->elem_bytes[0],
                             &out_bytes))
    out_bytes = INT64_MAX;
  /* A large run is where the lazy calibration happens (plan/tune.h). */
  bcast__tune_lazy(out_bytes);
#ifdef _OPENMP
  if (threads == 1) return 1;
  if (out_bytes < bcast__tuned_parallel_min()) return 1;
  if (threads <= 0) threads = omp_get_max_threads();
  return threads;
#else
  (void)plan;
  (void)threads;
  return 1;
#endif
}

#ifdef _OPENMP
/* Thread tid's share [*begin, *end) of the plan's elements among nt.
 * Chunks end on row boundaries when there are rows enough to share, else
 * on 64-element boundaries inside the one long run.  Written so no step
 * overflows, even for a count near INT64_MAX. */
static void plan_share(const bcast_plan *plan, int64_t nt, int64_t tid,
                       int64_t *begin, int64_t *end) {
  const int64_t count = plan->elem_count;
  const int64_t n0 = plan->extent[plan->ndim - 1];
  const int64_t grain = count / n0 >= 4 * nt ? n0 : 64;
  int64_t chunk = count / nt + (count % nt != 0);
  if (chunk % grain != 0 && chunk <= INT64_MAX - grain)
    chunk += grain - chunk % grain;
  *begin = tid > 0 && chunk > count / tid ? count : tid * chunk;
  *end = count - *begin <= chunk ? count : *begin + chunk;
}
#endif

/* Runs the elements [begin, end) with a two-dimensional kernel.  The dim
 * next to the innermost (if any) is the kernel's row dim; the dims outside
 * it are walked with an odometer, one plane (all rows of one position of
 * those dims) at a time.  plane[k] points at operand k's element
 * (idx[0..ndim-3], 0, 0); r is the current row inside the plane. */
static void plan_run_rows_range(const bcast_plan *plan, char *const *base,
                                bcast_rows_kernel_fn kernel,
                                const void *params, int64_t begin,
                                int64_t end) {
  const int nops = plan->n_operands;
  const int inner = plan->ndim - 1;
  const int has_rows = inner >= 1;
  const int outer = has_rows ? inner - 1 : 0; /* odometer dims 0..outer-1 */
  const int64_t n0 = plan->extent[inner];
  const int64_t n1 = has_rows ? plan->extent[inner - 1] : 1;
  int64_t idx[BCAST_MAX_RANK];
  int64_t rewind[BCAST_PLAN_MAX_OPERANDS][BCAST_MAX_RANK];
  int64_t strides[BCAST_PLAN_MAX_OPERANDS],
      row_strides[BCAST_PLAN_MAX_OPERANDS];
  char *plane[BCAST_PLAN_MAX_OPERANDS], *ptrs[BCAST_PLAN_MAX_OPERANDS];

  const int64_t row = begin / n0, offset = begin % n0;
  int64_t r = row % n1, rest = row / n1;
  for (int d = outer - 1; d >= 0; d--) {
    idx[d] = rest % plan->extent[d];
    rest /= plan->extent[d];
  }
  for (int k = 0; k < nops; k++) {
    strides[k] = plan->stride_bytes[k][inner];
    row_strides[k] = has_rows ? plan->stride_bytes[k][inner - 1] : 0;
    plane[k] = base[k];
    for (int d = 0; d < outer; d++) {
      plane[k] += idx[d] * plan->stride_bytes[k][d];
      rewind[k][d] = (plan->extent[d] - 1) * plan->stride_bytes[k][d];
    }
  }

  int64_t left = end - begin;
  if (offset != 0) {
    const int64_t len = n0 - offset < left ? n0 - offset : left;
    for (int k = 0; k < nops; k++)
      ptrs[k] = plane[k] + r * row_strides[k] + offset * strides[k];
    kernel(1, len, ptrs, strides, row_strides, params);
    left -= len;
    r++;
  }
  while (left > 0) {
    if (r == n1) {
      /* Next plane; left > 0 guarantees there is one. */
      r = 0;
      odometer_step(plan, outer, nops, idx, rewind, plane);
    }
    for (int k = 0; k < nops; k++) ptrs[k] = plane[k] + r * row_strides[k];
    if (left < n0) {
      kernel(1, left, ptrs, strides, row_strides, params);
      break;
    }
    const int64_t rows = n1 - r < left / n0 ? n1 - r : left / n0;
    kernel(rows, n0, ptrs, strides, row_strides, params);
    left -= rows * n0;
    r += rows;
  }
  /* Kernels may leave non-temporal stores unfenced; each thread fences once
   * when its share is done, so the caller sees every store. */
  bcast__nt_store_fence();
}

/* One run of a plan: the plan, the operands and one of the two kernel
 * shapes (the other is NULL). */
typedef struct plan_job {
  const bcast_plan *plan;
  char *const *base;
  bcast_kernel_fn kernel;
  bcast_rows_kernel_fn rows_kernel;
  const void *params;
} plan_job;

static void job_range(const plan_job *job, int64_t begin, int64_t end) {
  if (job->rows_kernel)
    plan_run_rows_range(job->plan, job->base, job->rows_kernel, job->params,
                        begin, end);
  else
    plan_run_range(job->plan, job->base, job->kernel, job->params, begin, end);
}

/* Runs a job on one thread, or shares it among threads (plan_share). */
static void job_run(const plan_job *job, int threads) {
  const int64_t count = job->plan->elem_count;
  if (count == 0) return;
  threads = plan_threads(job->plan, threads);
#ifdef _OPENMP
  if (threads > 1) {
#pragma omp parallel num_threads(threads)
    {
      int64_t begin, end;
      plan_share(job->plan, omp_get_num_threads(), omp_get_thread_num(),
                 &begin, &end);
      if (begin < end) job_range(job, begin, end);
    }
    return;
  }
#endif
  job_range(job, 0, count);
}

void bcast_plan_run(const bcast_plan *plan, char *const *base,
                    bcast_kernel_fn kernel, const void *params, int threads) {
  const plan_job job = {plan, base, kernel, NULL, params};
  job_run(&job, threads);
}

void bcast_plan_run_rows(const bcast_plan *plan, char *const *base,
                         bcast_rows_kernel_fn kernel, const void *params,
                         int threads) {
  const plan_job job = {plan, base, NULL, kernel, params};
  job_run(&job, threads);
}
