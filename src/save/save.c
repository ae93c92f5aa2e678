/* Outputs written to .npy files tile by tile (bcast/save.h).
 *
 * Both calls become a list of jobs, one per output: the output's layout,
 * the operands a tile reads (mapped into the output by implicit
 * broadcasting), and what a tile is (the op on the boxes of the operands
 * it reads, or a copy of the one array's box).  The writer then checks
 * the room on disk, opens each output in turn, writes its header and
 * tiles through one reused buffer, and publishes every output together or
 * none. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include "bcast/output.h"
#include "bcast/save.h"
#include "bcast/tile.h"
#include "core/alloc.h"
#include "core/diag.h"
#include "ew/ew_plan.h"
#include "npy/npy_common.h"
#include "plan/tune.h"
#include "tensor/buffer.h"

/* One output and what fills it. */
typedef struct save_job {
  const char *path;
  bcast_tensor layout;                /* dtype, rank, shape; no data */
  size_t n;                           /* operands a tile reads, 1 to 3 */
  bcast_tensor inputs[EW_MAX_INPUTS]; /* borrowed, as the maps see them */
  /* Bytes an element of each operand's box takes while a tile is made:
   * its own, plus its converted copy's where the numpy profile converts
   * it (bcast_ew_compute converts the boxes a tile reads). */
  size_t in_bytes[EW_MAX_INPUTS];
  int op_job; /* the op over inputs; else a copy */
  bcast_op op;
  const bcast_op_attrs *attrs;
  const bcast_ew_options *ew; /* for a tile: no declared shapes */
  int threads;                /* copies */
  int big_endian;             /* write '>' data */
} save_job;

/* What the writer keeps across the jobs of one call. */
typedef struct save_run {
  int64_t tile_budget;
  const bcast_save_options *options;
  int64_t done, total; /* data bytes written, and in all */
} save_run;

/* The output's data bytes, -1 when they overflow 64 bits (save_jobs
 * refuses such an output first; an empty one is 0 whatever its other
 * dims). */
static int64_t layout_bytes(const bcast_tensor *t) {
  int64_t n = (int64_t)bcast_dtype_size(t->dtype);
  for (int32_t d = 0; d < t->rank; d++)
    if (t->shape[d] == 0) return 0;
  for (int32_t d = 0; d < t->rank; d++)
    if (__builtin_mul_overflow(n, t->shape[d], &n)) return -1;
  return n;
}

/* A failure about one output: its path before the message. */
static bcast_status about(const char *path, bcast_status st,
                          bcast_diag *diag) {
  bcast__prefix(diag, "%s: ", path);
  return st;
}

/* ------------------------------------------------------------------------ */
/* Room on disk. */

/* The directory holding path ("." for a bare name), in buf. */
static void parent_dir(const char *path, char *buf, size_t cap) {
  const char *slash = strrchr(path, '/');
  if (!slash)
    snprintf(buf, cap, ".");
  else if (slash == path)
    snprintf(buf, cap, "/");
  else
    snprintf(buf, cap, "%.*s", (int)(slash - path), path);
}

/* The file systems the outputs land on, each with the bytes it must take
 * and has free. */
#define SAVE_MAX_FS 64
typedef struct fs_room {
  size_t count;
  dev_t dev[SAVE_MAX_FS];
  uint64_t need[SAVE_MAX_FS], avail[SAVE_MAX_FS];
} fs_room;

/* Refuses, before anything is written, outputs that the file systems they
 * go to have no room for (devices and FIFOs are written through and not
 * counted).  Outputs on one file system are summed. */
static bcast_status check_space(size_t n, const save_job *jobs,
                                bcast_diag *diag) {
  fs_room room;
  room.count = 0;
  for (size_t k = 0; k < n; k++) {
    struct stat sb;
    const int exists = stat(jobs[k].path, &sb) == 0;
    if (exists && !S_ISREG(sb.st_mode)) continue;
    /* An existing file's own file system (through a link, or /dev/stdout
     * redirected to a file, that is not its name's directory's); a new
     * file's directory's. */
    char dir[4096];
    if (exists)
      snprintf(dir, sizeof dir, "%s", jobs[k].path);
    else
      parent_dir(jobs[k].path, dir, sizeof dir);
    struct statvfs fs;
    struct stat db;
    if (statvfs(dir, &fs) != 0 || stat(dir, &db) != 0)
      continue; /* opening the output reports the missing directory */
    size_t i = 0;
    while (i < room.count && room.dev[i] != db.st_dev) i++;
    if (i == room.count) {
      if (room.count == SAVE_MAX_FS) continue;
      room.dev[room.count] = db.st_dev;
      room.need[room.count] = 0;
      room.avail[room.count++] = (uint64_t)fs.f_bavail * fs.f_frsize;
    }
    if (__builtin_add_overflow(room.need[i],
                               (uint64_t)layout_bytes(&jobs[k].layout) +
                                   BCAST_NPY_HEADER_MAX,
                               &room.need[i]))
      room.need[i] = UINT64_MAX;
    if (room.need[i] > room.avail[i])
      return bcast__fail(diag, BCAST_IO,
                         "%s: the output%s need%s %" PRIu64 " bytes, and "
                         "the file system of %s has %" PRIu64 " free; "
                         "nothing was written",
                         jobs[k].path, n > 1 ? "s there" : "",
                         n > 1 ? "" : "s", room.need[i], dir, room.avail[i]);
  }
  return BCAST_OK;
}

/* ------------------------------------------------------------------------ */
/* One output's tiles. */

/* Computes one tile of job into buffer (C-contiguous, the box's shape)
 * from the boxes of the operands it reads, which broadcast to the tile as
 * the whole operands do to the output (dims the output box spans in full
 * on an operand's dim of size 1 stay 1). */
static bcast_status run_tile(const save_job *job, const bcast_tile_map *maps,
                             const bcast_box *box, void *buffer,
                             bcast_diag *diag) {
  bcast_tensor boxes[EW_MAX_INPUTS], tile;
  int64_t ext[BCAST_MAX_RANK];
  for (int32_t d = 0; d < box->rank; d++) ext[d] = box->hi[d] - box->lo[d];
  bcast_status st = bcast_tensor_wrap(&tile, job->layout.dtype, box->rank, ext,
                                      NULL, buffer, diag);
  size_t made = 0;
  for (; st == BCAST_OK && made < job->n; made++) {
    bcast_box in_box;
    st = bcast_tile_input_box(&maps[made], box, &in_box, diag);
    if (st) break;
    st = bcast_tensor_box(&boxes[made], &job->inputs[made], NULL, &in_box,
                          diag);
    if (st) break;
  }
  if (st == BCAST_OK && job->op_job) {
    const ew_origin at = {box->lo, job->layout.shape};
    st = bcast__ew_compute_tile(job->op, job->attrs, job->n, boxes, &tile,
                                job->ew, &at, diag);
  } else if (st == BCAST_OK) {
    st = bcast_tensor_copy(&tile, &boxes[0], job->threads, diag);
  }
  for (size_t k = 0; k < made; k++) bcast_tensor_release(&boxes[k]);
  /* The pages a mapped operand gave this tile go back to the page cache. */
  for (size_t k = 0; k < job->n; k++)
    bcast__buffer_drop_pages(job->inputs[k].owner);
  return st;
}

/* The tiler of a job and the buffer of its largest tile. */
static bcast_status plan_tiles(const save_job *job, int64_t budget,
                               bcast_tile_map *maps, bcast_tiler *tiler,
                               unsigned char **buffer, bcast_diag *diag) {
  for (size_t k = 0; k < job->n; k++) {
    bcast_shape in, out;
    bcast_shape_set(&in, job->inputs[k].rank, job->inputs[k].shape, NULL);
    bcast_shape_set(&out, job->layout.rank, job->layout.shape, NULL);
    bcast_status st = bcast_tile_map_init(&maps[k], &in, &out, NULL, 0, diag);
    if (st) return about(job->path, st, diag);
  }
  const size_t elem = bcast_dtype_size(job->layout.dtype);
  bcast_status st =
      bcast_tiler_init(tiler, job->n, maps, job->in_bytes, elem, budget, diag);
  if (st) return about(job->path, st, diag);
  /* The first tile is the largest; every other is at most its bytes. */
  bcast_box box;
  int64_t cap = (int64_t)elem;
  if (bcast_tiler_tile(tiler, 0, &box) &&
      __builtin_mul_overflow(bcast_box_elem_count(&box), (int64_t)elem, &cap))
    cap = -1;
  if (cap < 0 || (uint64_t)cap > SIZE_MAX)
    return bcast__fail(diag, BCAST_OVERFLOW, "%s: a tile's size overflows",
                       job->path);
  *buffer = bcast__malloc(cap ? (size_t)cap : 1);
  if (!*buffer)
    return bcast__fail(diag, BCAST_NO_MEMORY,
                       "%s: out of memory for a tile of %" PRId64 " bytes",
                       job->path, cap);
  return BCAST_OK;
}

/* Writes the .npy header of job to out, after reserving the whole file's
 * blocks, so that a disk filling up meanwhile fails here, not at the end
 * of a long run.  *io: the failure is the output's (its commit reports
 * the write). */
static bcast_status write_header(const save_job *job, bcast_output *out,
                                 int *io, bcast_diag *diag) {
  unsigned char header[BCAST_NPY_HEADER_MAX];
  size_t header_len = 0;
  const bcast_npy_write_opts wopts = {0, 0, 0, job->big_endian};
  bcast_status st = bcast_npy_header(&job->layout, &wopts, header,
                                     sizeof header, &header_len, diag);
  if (st) return about(job->path, st, diag);
  st = bcast_output_reserve(
      out, header_len + (uint64_t)layout_bytes(&job->layout), diag);
  if (st) return st;
  *io = bcast_output_write(out, header, header_len) != BCAST_OK;
  return *io ? BCAST_IO : BCAST_OK;
}

/* Writes one job's header and tiles to out.  A failed write is left for
 * the caller to report (*io): the output remembers it, with the path and
 * the reason. */
static bcast_status write_job(const save_job *job, bcast_output *out,
                              save_run *run, int *io, bcast_diag *diag) {
  bcast_tile_map maps[EW_MAX_INPUTS];
  bcast_tiler tiler;
  unsigned char *buffer = NULL;
  bcast_status st =
      plan_tiles(job, run->tile_budget, maps, &tiler, &buffer, diag);
  if (st == BCAST_OK) st = write_header(job, out, io, diag);
  const size_t elem = bcast_dtype_size(job->layout.dtype);
  const int swap = elem > 1 && job->big_endian != bcast__host_big_endian();
  bcast_box box;
  while (st == BCAST_OK && bcast_tiler_next(&tiler, &box)) {
    const int64_t count = bcast_box_elem_count(&box);
    const int64_t bytes = count * (int64_t)elem; /* within the first's */
    st = run_tile(job, maps, &box, buffer, diag);
    if (st) {
      st = about(job->path, st, diag);
      break;
    }
    if (swap) bcast__swap_items(buffer, (size_t)count, elem);
    if ((*io = bcast_output_write(out, buffer, (size_t)bytes) != BCAST_OK))
      st = BCAST_IO;
    if (__builtin_add_overflow(run->done, bytes, &run->done))
      run->done = run->total;
    const bcast_save_options *o = run->options;
    if (o && o->progress) o->progress(o->progress_ctx, run->done, run->total);
  }
  bcast__free(buffer);
  return st;
}

/* Writes jobs[0..n) to their paths all or none (see bcast/save.h). */
static bcast_status save_jobs(size_t n, const save_job *jobs,
                              int64_t memory_bytes,
                              const bcast_save_options *options,
                              bcast_diag *diag) {
  for (size_t k = 0; k < n; k++)
    if (layout_bytes(&jobs[k].layout) < 0)
      return bcast__fail(diag, BCAST_OVERFLOW,
                         "%s: the output's size overflows 64 bits",
                         jobs[k].path);
  bcast_status st = check_space(n, jobs, diag);
  if (st) return st;
  bcast_output **outs = bcast__calloc(n ? n : 1, sizeof *outs);
  if (!outs) return bcast__fail(diag, BCAST_NO_MEMORY, "out of memory");
  const int64_t half = memory_bytes / 2;
  save_run run = {half < BCAST_SAVE_TILE_MAX ? half : BCAST_SAVE_TILE_MAX,
                  options, 0, 0};
  for (size_t k = 0; k < n; k++)
    if (__builtin_add_overflow(run.total, layout_bytes(&jobs[k].layout),
                               &run.total))
      run.total = INT64_MAX;
  int io = 0;
  size_t failed_at = n;
  for (size_t k = 0; st == BCAST_OK && k < n; k++) {
    st = bcast_output_open(jobs[k].path, &outs[k], diag);
    if (st == BCAST_OK) st = write_job(&jobs[k], outs[k], &run, &io, diag);
    if (io) failed_at = k;
  }
  if (st == BCAST_OK) {
    /* Every output complete: publish them together. */
    st = bcast_output_commit_all(n, outs, diag);
  } else {
    /* Nothing is published.  A failed write is reported by committing
     * that output alone, which fails on the remembered error (naming the
     * path and the reason) and leaves the target as it was. */
    for (size_t k = 0; k < n; k++) {
      if (k == failed_at)
        st = bcast_output_commit(outs[k], diag);
      else
        bcast_output_discard(outs[k]);
    }
  }
  bcast__free(outs);
  return st;
}

/* ------------------------------------------------------------------------ */
/* The calls. */

/* Strides of a C-contiguous t (its dtype and shape). */
static void c_strides(bcast_tensor *t) {
  int64_t step = (int64_t)bcast_dtype_size(t->dtype);
  for (int32_t d = t->rank - 1; d >= 0; d--) {
    t->stride_bytes[d] = step;
    step *= t->shape[d] > 1 ? t->shape[d] : 1;
  }
}

/* The op's output layout, from a plan of the whole inputs (every type,
 * shape, attribute and declared-signature check), and the bytes an
 * operand's element takes in a tile.  Under the numpy profile the plan is
 * made for the types the op computes in, which each tile converts its
 * operand boxes to as bcast_ew_compute converts whole inputs. */
static bcast_status op_layout(bcast_op op, const bcast_op_attrs *attrs,
                              size_t n, const bcast_tensor *inputs,
                              const bcast_ew_options *ew, save_job *job,
                              bcast_diag *diag) {
  bcast_tensor typed[EW_MAX_INPUTS];
  for (size_t k = 0; k < n && k < EW_MAX_INPUTS; k++)
    job->in_bytes[k] = bcast_dtype_size(inputs[k].dtype);
  bcast_status st = BCAST_OK;
  if (ew && ew->profile == BCAST_PROFILE_NUMPY && op != BCAST_OP_CAST &&
      n <= EW_MAX_INPUTS) {
    bcast_dtype types[EW_MAX_INPUTS] = {BCAST_BOOL, BCAST_BOOL, BCAST_BOOL};
    bcast_dtype want[EW_MAX_INPUTS] = {BCAST_BOOL, BCAST_BOOL, BCAST_BOOL};
    bcast_dtype result;
    for (size_t k = 0; k < n; k++) types[k] = inputs[k].dtype;
    st =
        bcast_ew_result_dtype(op, ew->profile, n, types, attrs, &result, diag);
    if (st == BCAST_OK)
      st = bcast_op_operand_dtypes(op, ew->profile, n, types, want, diag);
    for (size_t k = 0; st == BCAST_OK && k < n; k++) {
      typed[k] = inputs[k];
      if (want[k] == types[k]) continue;
      typed[k].dtype = want[k];
      c_strides(&typed[k]);
      job->in_bytes[k] += bcast_dtype_size(want[k]);
    }
    inputs = typed;
  }
  bcast_ew_plan *plan = NULL;
  if (st == BCAST_OK)
    st = bcast_ew_plan_create(&plan, op, attrs, n, inputs, NULL, ew, diag);
  if (st) return st;
  job->layout = *bcast_ew_plan_output(plan);
  bcast_ew_plan_destroy(plan);
  return BCAST_OK;
}

static bcast_status save_op(const char *path, bcast_op op,
                            const bcast_op_attrs *attrs, size_t n_inputs,
                            const bcast_tensor *inputs,
                            const bcast_ew_options *ew_options,
                            int64_t memory_bytes,
                            const bcast_save_options *options,
                            bcast_diag *diag) {
  if (!path || (n_inputs && !inputs))
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "bcast_npy_save_op: NULL argument");
  save_job job;
  memset(&job, 0, sizeof job);
  bcast_status st =
      op_layout(op, attrs, n_inputs, inputs, ew_options, &job, diag);
  if (st) return st;
  /* A tile is not the shape a declared signature gives: the whole was
   * checked against it above. */
  bcast_ew_options tile_options;
  if (ew_options)
    tile_options = *ew_options;
  else
    bcast_ew_options_init(&tile_options);
  tile_options.declared = NULL;
  tile_options.declared_result = NULL;
  /* The boxes a tile converts are counted in its budget (in_bytes): no
   * other cap applies to them. */
  tile_options.max_bytes = INT64_MAX;
  tile_options.progress = NULL;
  tile_options.progress_ctx = NULL;
  job.path = path;
  job.n = n_inputs; /* the plan accepted the count: at most 3 */
  memcpy(job.inputs, inputs, n_inputs * sizeof *inputs);
  job.op_job = 1;
  job.op = op;
  job.attrs = attrs;
  job.ew = &tile_options;
  return save_jobs(1, &job, memory_bytes, options, diag);
}

/* The array as a tile reads it: its broadcast dims (stride 0) are size 1,
 * which the tile map expands again, so a tile's budget counts only the
 * elements it really reads. */
static void squeeze_broadcast(const bcast_tensor *array, bcast_tensor *out) {
  *out = *array;
  for (int32_t d = 0; d < out->rank; d++)
    if (out->stride_bytes[d] == 0 && out->shape[d] > 1) out->shape[d] = 1;
}

static bcast_status save_views(size_t n, const char *const *paths,
                               const bcast_tensor *arrays,
                               const bcast_npy_write_opts *opts,
                               int64_t memory_bytes,
                               const bcast_save_options *options,
                               bcast_diag *diag) {
  if (n && (!paths || !arrays))
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "bcast_npy_save_views: NULL argument");
  save_job *jobs = bcast__calloc(n ? n : 1, sizeof *jobs);
  if (!jobs) return bcast__fail(diag, BCAST_NO_MEMORY, "out of memory");
  bcast_status st = BCAST_OK;
  for (size_t k = 0; st == BCAST_OK && k < n; k++) {
    if (!paths[k]) {
      st = bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "bcast_npy_save_views: path %zu is NULL", k);
    } else if (opts && opts[k].fortran_order) {
      st = bcast__fail(diag, BCAST_UNSUPPORTED,
                       "%s: tiles are written in C order, not Fortran order",
                       paths[k]);
    }
    jobs[k].path = paths[k];
    jobs[k].layout = arrays[k];
    jobs[k].layout.data = NULL;
    jobs[k].layout.owner = NULL;
    jobs[k].n = 1;
    squeeze_broadcast(&arrays[k], &jobs[k].inputs[0]);
    jobs[k].in_bytes[0] = bcast_dtype_size(arrays[k].dtype);
    jobs[k].threads = options ? options->threads : 0;
    jobs[k].big_endian = opts ? opts[k].big_endian : 0;
  }
  if (st == BCAST_OK) st = save_jobs(n, jobs, memory_bytes, options, diag);
  bcast__free(jobs);
  return st;
}

/* The public calls work within the caller's memory bound: the lazy
 * calibration, whose buffers would exceed it, waits for a call without
 * one (src/plan/tune.h). */
bcast_status
bcast_npy_save_op(const char *path, bcast_op op, const bcast_op_attrs *attrs,
                  size_t n_inputs, const bcast_tensor *inputs,
                  const bcast_ew_options *ew_options, int64_t memory_bytes,
                  const bcast_save_options *options, bcast_diag *diag) {
  bcast__tune_hold(1);
  const bcast_status st = save_op(path, op, attrs, n_inputs, inputs,
                                  ew_options, memory_bytes, options, diag);
  bcast__tune_hold(-1);
  return st;
}

bcast_status bcast_npy_save_views(size_t n, const char *const *paths,
                                  const bcast_tensor *arrays,
                                  const bcast_npy_write_opts *opts,
                                  int64_t memory_bytes,
                                  const bcast_save_options *options,
                                  bcast_diag *diag) {
  bcast__tune_hold(1);
  const bcast_status st =
      save_views(n, paths, arrays, opts, memory_bytes, options, diag);
  bcast__tune_hold(-1);
  return st;
}
