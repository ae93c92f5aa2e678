/* Reading a command's inputs and writing its results: -o, --print, and
 * outputs larger than --memory, which the library writes tile by tile
 * (bcast/save.h) while the CLI decides when, refuses what cannot stream
 * (an archive, standard output, more than --max-bytes), shows the
 * progress line and reports. */
#include <inttypes.h>
#include <stdlib.h>

#include "cli.h"

int cli_read_inputs(int n, char **files, bcast_tensor *x, bcast_npy_info *info,
                    int64_t max_bytes) {
  if (!cli_stdin_once(files, n)) return CLI_USAGE;
  for (int i = 0; i < n; i++) {
    const int rc =
        cli_read_npy(files[i], &x[i], info ? &info[i] : NULL, max_bytes);
    if (rc != CLI_OK) {
      for (int k = 0; k < i; k++) bcast_tensor_release(&x[k]);
      return rc;
    }
  }
  return CLI_OK;
}

int cli_out_tensor(const cli_out_opts *o, const bcast_tensor *t,
                   const bcast_npy_write_opts *w) {
  if (!o->print) return cli_write_npy(o->output, 1, t, w);
  cli_print_tensor(stdout, "result", t);
  return CLI_OK;
}

int cli_out_view(const cli_out_opts *o, const char *what,
                 const bcast_tensor *view, const bcast_npy_info *info) {
  if (!o->print && cli_stream_wanted(view, o->memory)) {
    char *paths[1] = {(char *)o->output};
    return cli_stream_views(1, paths, view, info, o);
  }
  bcast_tensor z;
  bcast_diag diag;
  const bcast_status st =
      bcast_materialize(&z, view, o->max_bytes, o->threads, &diag);
  if (st != BCAST_OK) {
    cli_diag(what, &diag);
    return bcast_status_exit_class(st);
  }
  const bcast_npy_write_opts w = cli_npy_write_opts(info);
  const int rc = cli_out_tensor(o, &z, &w);
  bcast_tensor_release(&z);
  return rc;
}

/* ------------------------------------------------------------------------ */
/* Streaming. */

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

/* What every streamed command checks first: the outputs are .npy files
 * (an archive or standard output is written whole) and their bytes within
 * --max-bytes, when it was given. */
static int stream_allowed(size_t n, char *const *paths,
                          const bcast_tensor *layouts, const cli_out_opts *o) {
  const int64_t cap = o->max_bytes_given ? o->max_bytes : INT64_MAX;
  int64_t total = 0;
  for (size_t k = 0; k < n; k++) {
    if (cli_is_std(paths[k]) || cli_output_is_archive(paths[k])) {
      cli_error("%s: an output over --memory (%" PRId64 " bytes) is written "
                "tile by tile to a .npy file, not to %s; raise --memory or "
                "write a .npy file",
                paths[k], o->memory,
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
  if (total > cap) {
    cli_error("the output%s need%s %" PRId64 " bytes, more than --max-bytes "
              "%" PRId64 "; raise --max-bytes to write %s",
              n > 1 ? "s" : "", n > 1 ? "" : "s", total, cap,
              n > 1 ? "them" : "it");
    return CLI_FAIL;
  }
  return CLI_OK;
}

/* The exit code of a save call, its failure reported.  The only budget a
 * save call has is its tiles' (half of --memory): BCAST_BUDGET names
 * --memory, not --max-bytes as cli_diag would. */
static int saved(bcast_status st, const bcast_diag *diag) {
  if (st == BCAST_OK) return CLI_OK;
  if (st == BCAST_BUDGET)
    cli_error("%s; raise --memory", diag->message);
  else
    cli_diag(NULL, diag);
  return bcast_status_exit_class(st);
}

int cli_stream_views(size_t n, char *const *paths, const bcast_tensor *views,
                     const bcast_npy_info *info, const cli_out_opts *o) {
  int rc = stream_allowed(n, paths, views, o);
  if (rc) return rc;
  bcast_npy_write_opts *w = calloc(n ? n : 1, sizeof *w);
  if (!w) {
    cli_error("out of memory");
    return CLI_USAGE;
  }
  for (size_t k = 0; k < n; k++) w[k].big_endian = info[k].big_endian;
  cli_progress progress;
  cli_progress_init(&progress, o->quiet);
  const bcast_save_options so = {o->threads, cli_progress_update, &progress};
  bcast_diag diag;
  const bcast_status st = bcast_npy_save_views(
      n, (const char *const *)paths, views, w, o->memory, &so, &diag);
  cli_progress_end(&progress);
  free(w);
  return saved(st, &diag);
}

int cli_stream_op(const bcast_tensor *layout, size_t n,
                  const bcast_tensor *inputs, bcast_op op,
                  const bcast_op_attrs *attrs, const bcast_ew_options *options,
                  const cli_out_opts *o) {
  char *paths[1] = {(char *)o->output};
  int rc = stream_allowed(1, paths, layout, o);
  if (rc) return rc;
  cli_progress progress;
  cli_progress_init(&progress, o->quiet);
  const bcast_save_options so = {0, cli_progress_update, &progress};
  bcast_diag diag;
  const bcast_status st = bcast_npy_save_op(o->output, op, attrs, n, inputs,
                                            options, o->memory, &so, &diag);
  cli_progress_end(&progress);
  return saved(st, &diag);
}
