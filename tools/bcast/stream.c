/* Outputs larger than --memory, computed and written tile by tile.
 *
 * The output is split by the library's tiler (bcast/tile.h) into boxes
 * that are contiguous runs of the C-order file; each is computed from the
 * operands' views into one reused buffer and appended to the durable
 * output (bcast/output.h) after the .npy header, so the process holds one
 * tile, not the output.  Nothing is published until every output of the
 * command is complete: a failure or an interrupt leaves the old files. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include "cli.h"

/* The largest tile: big enough that per-tile costs vanish, small enough to
 * stay in the last-level cache's neighbourhood. */
#define STREAM_TILE_MAX ((int64_t)64 << 20)

/* The output's data bytes, INT64_MAX when they overflow (more than any
 * memory, --max-bytes or disk allows, so it is refused as such). */
static int64_t layout_bytes(const bcast_tensor *t) {
  int64_t n = 1;
  for (int32_t d = 0; d < t->rank; d++)
    if (__builtin_mul_overflow(n, t->shape[d], &n)) return INT64_MAX;
  if (__builtin_mul_overflow(n, (int64_t)bcast_dtype_size(t->dtype), &n))
    return INT64_MAX;
  return n;
}

int cli_stream_wanted(const bcast_tensor *layout, int64_t memory) {
  return layout->dtype != BCAST_STRING && layout_bytes(layout) > memory;
}

/* A tile's bytes: within the tiler's budget, so they fit; checked all the
 * same (-1 on overflow, which the caller refuses). */
static int64_t box_bytes(const bcast_box *box, size_t elem) {
  int64_t bytes;
  if (__builtin_mul_overflow(bcast_box_elem_count(box), (int64_t)elem, &bytes))
    return -1;
  return bytes;
}

/* The directory holding path ("." for a bare name), in buf. */
static void parent_dir(const char *path, char *buf, size_t cap) {
  const char *slash = strrchr(path, '/');
  if (!slash) {
    snprintf(buf, cap, ".");
  } else if (slash == path) {
    snprintf(buf, cap, "/");
  } else {
    snprintf(buf, cap, "%.*s", (int)(slash - path), path);
  }
}

/* Refuses, before anything is written, outputs that the file systems they
 * go to have no room for (devices and FIFOs are written through and not
 * counted).  Outputs on one file system are summed. */
static int check_space(size_t n, const cli_stream_job *jobs) {
  dev_t devs[64];
  uint64_t need[64], avail[64];
  size_t nfs = 0;
  for (size_t k = 0; k < n; k++) {
    struct stat sb;
    const int exists = stat(jobs[k].path, &sb) == 0;
    if (exists && !S_ISREG(sb.st_mode)) continue;
    /* An existing file's own file system (through a link, or /dev/stdout
     * redirected to a file, that is not its name's directory's); a new
     * file's directory's. */
    char dir[4096];
    if (exists) snprintf(dir, sizeof dir, "%s", jobs[k].path);
    else parent_dir(jobs[k].path, dir, sizeof dir);
    struct statvfs fs;
    struct stat db;
    if (statvfs(dir, &fs) != 0 || stat(dir, &db) != 0)
      continue; /* opening the output reports the missing directory */
    size_t i = 0;
    while (i < nfs && devs[i] != db.st_dev) i++;
    if (i == nfs) {
      if (nfs == sizeof devs / sizeof devs[0]) continue;
      devs[nfs] = db.st_dev;
      need[nfs] = 0;
      avail[nfs++] = (uint64_t)fs.f_bavail * fs.f_frsize;
    }
    if (__builtin_add_overflow(need[i],
                               (uint64_t)layout_bytes(&jobs[k].layout) +
                                   BCAST_NPY_HEADER_MAX,
                               &need[i]))
      need[i] = UINT64_MAX;
    if (need[i] > avail[i]) {
      cli_error("%s: the output%s need%s %" PRIu64 " bytes, and the file "
                "system of %s has %" PRIu64 " free; nothing was written",
                jobs[k].path, n > 1 ? "s there" : "", n > 1 ? "" : "s",
                need[i], dir, avail[i]);
      return 0;
    }
  }
  return 1;
}

/* The output's C-order position of a box's first element. */
static int64_t flat_of(const bcast_tensor *layout, const bcast_box *box) {
  int64_t p = 0;
  for (int32_t d = 0; d < layout->rank; d++)
    p = p * layout->shape[d] + box->lo[d];
  return p;
}

static void swap_bytes(unsigned char *p, int64_t count, size_t size) {
  for (int64_t i = 0; i < count; i++, p += size)
    for (size_t a = 0, b = size - 1; a < b; a++, b--) {
      unsigned char t = p[a];
      p[a] = p[b];
      p[b] = t;
    }
}

/* A checked failure inside a tile names the element's index in the tile;
 * this moves it (the fields and the message's "index [...]") to the whole
 * output. */
static void to_whole_output(bcast_diag *diag, const bcast_tensor *layout,
                            const bcast_box *box) {
  bcast_diag_element *e = &diag->element;
  e->flat += flat_of(layout, box);
  char index[BCAST_MAX_RANK * 24] = "[";
  size_t len = 1;
  for (int32_t d = 0; d < e->rank && d < box->rank; d++) {
    e->index[d] += box->lo[d];
    len += (size_t)snprintf(index + len, sizeof index - len, "%s%" PRId64,
                            d ? "," : "", e->index[d]);
  }
  snprintf(index + len, sizeof index - len, "]");
  const char *key = "index [";
  char *at = strstr(diag->message, key);
  char *end = at ? strchr(at, ']') : NULL;
  if (!end) return;
  char rest[sizeof diag->message];
  snprintf(rest, sizeof rest, "%s", end + 1);
  snprintf(at + strlen(key) - 1, sizeof diag->message -
           (size_t)(at + strlen(key) - 1 - diag->message), "%s%s", index, rest);
}

/* Computes one tile of job into tile (a C-contiguous buffer of the box's
 * shape). */
static bcast_status run_tile(const cli_stream_job *job,
                             const bcast_tile_map *maps, const bcast_box *box,
                             void *buffer, bcast_diag *diag) {
  bcast_tensor views[3], tile;
  int64_t ext[BCAST_MAX_RANK];
  for (int32_t d = 0; d < box->rank; d++) ext[d] = box->hi[d] - box->lo[d];
  bcast_status st = bcast_tensor_wrap(&tile, job->layout.dtype, box->rank, ext,
                                      NULL, buffer, diag);
  if (st) return st;
  st = bcast_tile_views(job->n, maps, job->inputs, NULL, box, views, diag);
  if (st) return st;
  if (job->op_job) {
    st = bcast_ew_compute_into(job->op, job->attrs, job->n, views, &tile,
                               job->options, diag);
    if (st == BCAST_CHECKED && diag && diag->element.flat >= 0)
      to_whole_output(diag, &job->layout, box);
  } else {
    st = bcast_tensor_copy(&tile, &views[0], job->threads, diag);
  }
  for (size_t k = 0; k < job->n; k++) bcast_tensor_release(&views[k]);
  return st;
}

/* Writes one job's header and tiles to out.  A failed write is left for
 * the caller to report (*write_failed): the output remembers it, with the
 * path and the reason. */
static int write_job(const cli_stream_job *job, bcast_output *out,
                     int64_t tile_budget, cli_progress *progress,
                     int64_t *done, int64_t total, int *write_failed) {
  bcast_diag diag;
  bcast_tile_map maps[3];
  size_t in_bytes[3];
  for (size_t k = 0; k < job->n; k++) {
    bcast_shape in, outs;
    bcast_shape_set(&in, job->inputs[k].rank, job->inputs[k].shape, NULL);
    bcast_shape_set(&outs, job->layout.rank, job->layout.shape, NULL);
    bcast_status st = bcast_tile_map_init(&maps[k], &in, &outs, job->dims,
                                          job->n_dims, &diag);
    if (st) {
      cli_diag(job->path, &diag);
      return bcast_status_exit_class(st);
    }
    in_bytes[k] = bcast_dtype_size(job->inputs[k].dtype);
  }
  const size_t elem = bcast_dtype_size(job->layout.dtype);
  bcast_tiler tiler;
  bcast_status st = bcast_tiler_init(&tiler, job->n, maps, in_bytes, elem,
                                     tile_budget, &diag);
  if (st == BCAST_BUDGET) {
    /* The tile budget is half of --memory, not --max-bytes. */
    cli_error("%s: %s; raise --memory", job->path, diag.message);
    return bcast_status_exit_class(st);
  }
  if (st) {
    cli_diag(job->path, &diag);
    return bcast_status_exit_class(st);
  }
  bcast_box box;
  int64_t cap = (int64_t)elem;
  if (bcast_tiler_tile(&tiler, 0, &box)) /* the first tile is the largest */
    cap = box_bytes(&box, elem);
  if (cap < 0 || (uint64_t)cap > SIZE_MAX) {
    cli_error("%s: a tile's size overflows", job->path);
    return CLI_FAIL;
  }
  unsigned char *buffer = malloc(cap ? (size_t)cap : 1);
  if (!buffer) {
    cli_error("%s: out of memory for a tile of %" PRId64 " bytes", job->path,
              cap);
    return CLI_USAGE;
  }
  unsigned char header[BCAST_NPY_HEADER_MAX];
  size_t header_len = 0;
  bcast_npy_write_opts wopts = {0, 0, 0, job->big_endian};
  st = bcast_npy_header(&job->layout, &wopts, header, sizeof header,
                        &header_len, &diag);
  /* The whole file's blocks first, so that a disk filling up meanwhile
   * fails here, not at the end of a long run. */
  if (st == BCAST_OK &&
      bcast_output_reserve(out, header_len + (uint64_t)layout_bytes(&job->layout),
                           &diag) != BCAST_OK) {
    free(buffer);
    cli_diag(NULL, &diag);
    return CLI_USAGE;
  }
  if (st == BCAST_OK &&
      (*write_failed = bcast_output_write(out, header, header_len) != BCAST_OK))
    st = BCAST_IO;
  while (st == BCAST_OK && bcast_tiler_next(&tiler, &box)) {
    /* Every tile is at most the first's bytes (cap). */
    const int64_t count = bcast_box_elem_count(&box);
    const int64_t bytes = box_bytes(&box, elem);
    st = run_tile(job, maps, &box, buffer, &diag);
    if (st) break;
    if (job->big_endian && elem > 1) swap_bytes(buffer, count, elem);
    if ((*write_failed =
             bcast_output_write(out, buffer, (size_t)bytes) != BCAST_OK))
      st = BCAST_IO;
    if (__builtin_add_overflow(*done, bytes, done)) *done = total;
    cli_drop_mapped_pages();
    cli_progress_update(progress, *done, total);
  }
  free(buffer);
  if (*write_failed) return CLI_USAGE;
  if (st) {
    cli_diag(job->path, &diag);
    return bcast_status_exit_class(st);
  }
  return CLI_OK;
}

int cli_stream_write(size_t n, const cli_stream_job *jobs, int64_t memory,
                     int quiet) {
  if (!check_space(n, jobs)) return CLI_USAGE;
  int64_t tile_budget = memory / 2 < STREAM_TILE_MAX ? memory / 2
                                                      : STREAM_TILE_MAX;
  bcast_output **outs = calloc(n ? n : 1, sizeof *outs);
  if (!outs) {
    cli_error("out of memory");
    return CLI_USAGE;
  }
  int64_t total = 0, done = 0;
  for (size_t k = 0; k < n; k++)
    if (__builtin_add_overflow(total, layout_bytes(&jobs[k].layout), &total))
      total = INT64_MAX;
  cli_progress progress;
  cli_progress_init(&progress, quiet);
  int rc = CLI_OK, write_failed = 0;
  size_t failed_at = n;
  bcast_diag diag;
  for (size_t k = 0; rc == CLI_OK && k < n; k++) {
    if (bcast_output_open(jobs[k].path, &outs[k], &diag) != BCAST_OK) {
      cli_diag(NULL, &diag);
      rc = CLI_USAGE;
      break;
    }
    rc = write_job(&jobs[k], outs[k], tile_budget, &progress, &done, total,
                   &write_failed);
    if (write_failed) failed_at = k;
  }
  cli_progress_end(&progress);
  if (rc == CLI_OK) {
    /* Every output complete: publish them together. */
    if (bcast_output_commit_all(n, outs, &diag) != BCAST_OK) {
      cli_diag(NULL, &diag);
      rc = CLI_USAGE;
    }
  } else {
    /* Nothing is published.  A failed write is reported by committing
     * that output alone, which fails on the remembered error (naming the
     * path and the reason) and leaves the target as it was. */
    for (size_t k = 0; k < n; k++) {
      if (k == failed_at && bcast_output_commit(outs[k], &diag) != BCAST_OK)
        cli_diag(NULL, &diag);
      else
        bcast_output_discard(outs[k]);
      outs[k] = NULL;
    }
  }
  free(outs);
  return rc;
}

/* What every streamed command checks first: the outputs are .npy files
 * (an archive or standard output is written whole) and their bytes within
 * --max-bytes. */
static int stream_allowed(size_t n, char *const *paths,
                          const bcast_tensor *layouts, int64_t max_bytes,
                          int64_t memory) {
  int64_t total = 0;
  for (size_t k = 0; k < n; k++) {
    if (cli_is_std(paths[k]) || cli_output_is_archive(paths[k])) {
      cli_error("%s: an output over --memory (%" PRId64 " bytes) is written "
                "tile by tile to a .npy file, not to %s; raise --memory or "
                "write a .npy file",
                paths[k], memory,
                cli_is_std(paths[k]) ? "standard output" : "an archive");
      return CLI_USAGE;
    }
    if (__builtin_add_overflow(total, layout_bytes(&layouts[k]), &total))
      total = INT64_MAX;
  }
  if (total == INT64_MAX) {
    cli_error("the output%s size overflows 64 bits", n > 1 ? "s'" : "'s");
    return CLI_FAIL;
  }
  if (total > max_bytes) {
    cli_error("the output%s need%s %" PRId64 " bytes, more than --max-bytes "
              "%" PRId64 "; raise --max-bytes to write %s",
              n > 1 ? "s" : "", n > 1 ? "" : "s", total, max_bytes,
              n > 1 ? "them" : "it");
    return CLI_FAIL;
  }
  return CLI_OK;
}

int cli_stream_copies(size_t n, char *const *paths, const bcast_tensor *x,
                      const bcast_tensor *layouts, const bcast_npy_info *info,
                      const int64_t *dims, size_t n_dims, int64_t max_bytes,
                      int64_t memory, int threads, int quiet) {
  int rc = stream_allowed(n, paths, layouts, max_bytes, memory);
  if (rc) return rc;
  cli_stream_job *jobs = calloc(n ? n : 1, sizeof *jobs);
  if (!jobs) {
    cli_error("out of memory");
    return CLI_USAGE;
  }
  for (size_t k = 0; k < n; k++) {
    jobs[k].path = paths[k];
    jobs[k].layout = layouts[k];
    jobs[k].layout.data = NULL;
    jobs[k].layout.owner = NULL;
    jobs[k].n = 1;
    jobs[k].inputs = &x[k];
    jobs[k].dims = dims;
    jobs[k].n_dims = n_dims;
    jobs[k].threads = threads;
    jobs[k].big_endian = info ? info[k].big_endian : 0;
  }
  rc = cli_stream_write(n, jobs, memory, quiet);
  free(jobs);
  return rc;
}

int cli_stream_op(const char *path, const bcast_tensor *layout, size_t n,
                  const bcast_tensor *inputs, bcast_op op,
                  const bcast_op_attrs *attrs,
                  const bcast_ew_options *options, int64_t max_bytes,
                  int64_t memory, int quiet) {
  char *paths[1] = {(char *)path};
  int rc = stream_allowed(1, paths, layout, max_bytes, memory);
  if (rc) return rc;
  /* A tile is not the shape a --mlir line declares: the whole was checked
   * against it when the op was planned. */
  bcast_ew_options tile_options = *options;
  tile_options.declared = NULL;
  tile_options.declared_result = NULL;
  tile_options.progress = NULL;
  tile_options.progress_ctx = NULL;
  cli_stream_job job;
  memset(&job, 0, sizeof job);
  job.path = path;
  job.layout = *layout;
  job.layout.data = NULL;
  job.layout.owner = NULL;
  job.n = n;
  job.inputs = inputs;
  job.op_job = 1;
  job.op = op;
  job.attrs = attrs;
  job.options = &tile_options;
  return cli_stream_write(1, &job, memory, quiet);
}
