/* The .npy commands: broadcast (ONNX Broadcast of N files), broadcast-to
 * (numpy.broadcast_to of one file) and info.
 *
 * Every input is read whole before any output is written, and outputs are
 * written to a temporary file and renamed, so an output path may name an
 * input. */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

/* The help lines broadcast and broadcast-to share. */
#define NPY_WRITE_HELP                                                        \
  "  --max-bytes N      the most bytes read or made in memory (K/M/G/T\n"     \
  "                     suffixes; default 1G); when given, also the\n"        \
  "                     largest output written tile by tile\n"                \
  "  --memory N         outputs larger than N bytes (default 1G) are\n"       \
  "                     written to their .npy file tile by tile, holding\n"   \
  "                     one tile (at most N/2, 64M at most), limited by\n"    \
  "                     free disk space, and by --max-bytes if given;\n"      \
  "                     .npy inputs of 64M or more are mapped, not read\n"    \
  "  --quiet            no progress line on a terminal\n"                     \
  "  --threads N        threads for copying (0 = automatic, default)\n"       \
  "  -h, --help         this text\n"                                          \
  "\n"

/* The --help of bcast broadcast; its options are options.c's rows. */
static const char broadcast_help_text[] =
    "usage: bcast broadcast IN.npy... (-o OUTDIR | -o OUT.npz | --print) "
    "[options]\n"
    "\n"
    "ONNX Broadcast: Z0..ZL = Broadcast(X0..XL).  Every input is broadcast\n"
    "to the common shape (NumPy rules: align on the right, sizes equal or\n"
    "1) and written, C-contiguous, to OUTDIR/z0.npy .. OUTDIR/zL.npy,\n"
    "byte-identical to numpy.save(np.broadcast_arrays(...)[i].copy()).\n"
    "Outputs keep their input's byte order, and strings its kind and "
    "width.\n" CLI_INPUT_FORMS_HELP CLI_ARCHIVE_OUTPUT_HELP "\n"
    "options:\n"
    "  -o, --output DIR   directory for z0.npy..zL.npy (created if missing,\n"
    "                     and removed again if the run fails);\n"
    "                     OUT.npz: an archive of members arr_0..arr_L, as\n"
    "                     numpy.savez names them; '-': standard output\n"
    "                     (one input only)\n"
    "  --print            print the shapes and (small) arrays "
    "instead\n" NPY_WRITE_HELP
    "exit status: 0 ok; 1 the shapes do not broadcast or the budget is\n"
    "exceeded; 2 usage, unreadable or malformed files, write errors.\n";

static const cli_help broadcast_help = {NULL, broadcast_help_text};

/* The --help of bcast broadcast-to; its options are options.c's rows. */
static const char broadcast_to_help_text[] =
    "usage: bcast broadcast-to IN.npy --shape SHAPE (-o OUT.npy | --print) "
    "[options]\n"
    "\n"
    "numpy.broadcast_to(x, SHAPE).copy(): the input broadcast to SHAPE\n"
    "(aligned on the right; each input size equal to the target's or 1)\n"
    "and written C-contiguous, byte-identical to numpy.save of the same.\n"
    "The output keeps the input's byte order, and a string input's kind\n"
    "and width.  OUT.npy may be IN.npy: the input is read whole before the "
    "output is\n"
    "written to a temporary file and renamed.\n" CLI_INPUT_FORMS_HELP
        CLI_ARCHIVE_OUTPUT_HELP "\n"
    "options:\n"
    "  --shape SHAPE      target shape, in any form 'bcast infer' takes:\n"
    "                     4x3, [4,3], (4,3), 4,3; [] or () for rank 0\n"
    "  -o, --output FILE  the output .npy file; '-' standard output;\n"
    "                     X.npz or X.npz:NAME an archive (member arr_0\n"
    "                     or NAME)\n"
    "  --print            print the result instead of writing "
    "it\n" NPY_WRITE_HELP
    "exit status: 0 ok; 1 the input does not broadcast to SHAPE or the\n"
    "budget is exceeded; 2 usage, unreadable or malformed files, write\n"
    "errors.\n";

static const cli_help broadcast_to_help = {NULL, broadcast_to_help_text};

/* The --help of bcast info; its options are options.c's rows. */
static const char info_help_text[] =
    "usage: bcast info FILE.npy... [options]\n"
    "       bcast info --machine\n"
    "\n"
    "Prints, for each file, its dtype and descr, shape, memory order,\n"
    "format version and first elements (float16 shown as "
    "values).\n" CLI_INPUT_FORMS_HELP "\n"
    "options:\n"
    "  --machine          first print this machine, the size thresholds\n"
    "                     bcast uses here and where each came from (the\n"
    "                     environment, bcast tune's cache file, or the\n"
    "                     cache sizes); an ignored cache file is a warning\n"
    "  --count N          elements to show (default 10)\n"
    "  --max-bytes N      refuse files larger than N bytes (default 1G)\n"
    "  -h, --help         this text\n"
    "\n"
    "exit status: 0 ok; 2 usage or any file unreadable or malformed\n"
    "(the other files are still shown).\n";

static const cli_help info_help = {NULL, info_help_text};

/* A usage error that shows the command's help on standard error. */
static int usage_error(const cli_help *help, const char *message) {
  cli_error("%s", message);
  cli_print_help(stderr, help);
  return CLI_USAGE;
}

/* ------------------------------------------------------------------------ */
/* Printing elements. */

/* A tensor's shape as NumPy prints it: "(4, 3)", "(4,)", "()". */
static void format_shape(const bcast_tensor *t, char *buf, size_t cap) {
  bcast_shape_format_dims(t->rank, t->shape, BCAST_SHAPE_STYLE_NUMPY, buf,
                          cap);
}

/* One element as NumPy's repr prints it; a long string gets a buffer of
 * its own. */
static void print_elem(FILE *out, bcast_dtype dtype, const char *p) {
  char text[64];
  size_t need = bcast_dtype_format_value(dtype, p, text, sizeof text);
  if (need < sizeof text) {
    fputs(text, out);
    return;
  }
  char *big = malloc(need + 1);
  if (!big) {
    fputs(text, out);
    return;
  }
  bcast_dtype_format_value(dtype, p, big, need + 1);
  fputs(big, out);
  free(big);
}

/* Address of the flat (C order) element k. */
static const char *elem_at(const bcast_tensor *t, int64_t k) {
  const char *p = t->data;
  for (int32_t i = t->rank - 1; i >= 0; i--) {
    p += (k % t->shape[i]) * t->stride_bytes[i];
    k /= t->shape[i];
  }
  return p;
}

/* The first `limit` elements in C order, flat: "[1, 2, 3, ...]". */
static void print_first(FILE *out, const bcast_tensor *t, int64_t count,
                        int64_t limit) {
  fputc('[', out);
  int64_t n = count < limit ? count : limit;
  for (int64_t k = 0; k < n; k++) {
    if (k) fputs(", ", out);
    print_elem(out, t->dtype, elem_at(t, k));
  }
  if (count > n) fputs(n ? ", ..." : "...", out);
  fputc(']', out);
}

/* A small array nested like numpy's repr: "[[1, 2], [3, 4]]". */
static void print_nested(FILE *out, const bcast_tensor *t, int32_t axis,
                         const char *p) {
  if (axis == t->rank) {
    print_elem(out, t->dtype, p);
    return;
  }
  fputc('[', out);
  for (int64_t i = 0; i < t->shape[axis]; i++) {
    if (i) fputs(", ", out);
    print_nested(out, t, axis + 1, p + i * t->stride_bytes[axis]);
  }
  fputc(']', out);
}

static int64_t elem_count(const bcast_tensor *t) {
  int64_t n = 0;
  if (bcast_tensor_elem_count(t, &n, NULL) != BCAST_OK) return INT64_MAX;
  return n;
}

void cli_print_tensor(FILE *out, const char *label, const bcast_tensor *t) {
  char shape[BCAST_MAX_RANK * 24];
  format_shape(t, shape, sizeof shape);
  fprintf(out, "%s: %s %s\n  ", label, bcast_dtype_name(t->dtype), shape);
  int64_t count = elem_count(t);
  if (count <= 64)
    print_nested(out, t, 0, t->data);
  else
    print_first(out, t, count, 16);
  fputc('\n', out);
}

/* ------------------------------------------------------------------------ */
/* Writing outputs. */

bcast_npy_write_opts cli_npy_write_opts(const bcast_npy_info *info) {
  bcast_npy_write_opts w = {0, 0, 0, 0};
  w.string_kind = info->string_kind;
  w.string_width = info->string_width;
  w.big_endian = info->big_endian; /* numpy keeps '>' through a copy */
  return w;
}

/* The bytes of the outputs of broadcasting x[0..n) (0 when they do not
 * broadcast, or hold strings: those are written whole, and the error or
 * the budget is reported there). */
static int64_t broadcast_bytes(size_t n, const bcast_tensor *x) {
  bcast_tensor *z = calloc(n ? n : 1, sizeof *z);
  int64_t total = 0;
  if (z && bcast_broadcast_views(n, z, x, NULL) == BCAST_OK) {
    for (size_t i = 0; i < n; i++) {
      int64_t count = 0, bytes;
      if (z[i].dtype == BCAST_STRING) {
        total = 0;
        break;
      }
      if (bcast_tensor_elem_count(&z[i], &count, NULL) != BCAST_OK ||
          __builtin_mul_overflow(count, (int64_t)bcast_dtype_size(z[i].dtype),
                                 &bytes) ||
          __builtin_add_overflow(total, bytes, &total)) {
        total = INT64_MAX;
        break;
      }
    }
    for (size_t i = 0; i < n; i++) bcast_tensor_release(&z[i]);
  }
  free(z);
  return total;
}

/* Write options for each of n inputs (keeping what numpy keeps through a
 * copy); NULL (reported) when out of memory. */
static bcast_npy_write_opts *write_opts(size_t n, const bcast_npy_info *info) {
  bcast_npy_write_opts *w = calloc(n ? n : 1, sizeof *w);
  if (!w) {
    cli_error("out of memory");
    return NULL;
  }
  for (size_t i = 0; i < n; i++) w[i] = cli_npy_write_opts(&info[i]);
  return w;
}

/* OUTDIR/z0.npy .. OUTDIR/zL.npy, made if missing; NULL when the
 * directory cannot be made or memory runs out (reported). */
static char **dir_paths(const char *dir, size_t n) {
  if (!cli_make_output_dir(dir)) return NULL;
  const size_t cap = strlen(dir) + 32;
  char **paths = calloc(n, sizeof *paths);
  for (size_t i = 0; paths && i < n; i++) {
    if (!(paths[i] = malloc(cap))) {
      for (size_t k = 0; k < i; k++) free(paths[k]);
      free(paths);
      paths = NULL;
    } else {
      snprintf(paths[i], cap, "%s/z%zu.npy", dir, i);
    }
  }
  if (!paths) cli_error("out of memory");
  return paths;
}

static void free_paths(char **paths, size_t n) {
  for (size_t i = 0; paths && i < n; i++) free(paths[i]);
  free(paths);
}

/* broadcast into a directory, tile by tile: OUTDIR/z0.npy .. zL.npy. */
static int stream_broadcast(const npy_opts *o, size_t n, const bcast_tensor *x,
                            const bcast_npy_info *info) {
  char **paths = dir_paths(o->out.output, n);
  if (!paths) return CLI_USAGE;
  bcast_tensor *z = calloc(n, sizeof *z);
  int rc = CLI_USAGE;
  bcast_diag diag;
  if (!z) {
    cli_error("out of memory");
  } else if (bcast_broadcast_views(n, z, x, &diag) != BCAST_OK) {
    cli_diag("broadcast", &diag);
    rc = CLI_FAIL;
  } else {
    rc = cli_stream_views(n, paths, z, info, &o->out);
    for (size_t i = 0; i < n; i++) bcast_tensor_release(&z[i]);
  }
  free(z);
  free_paths(paths, n);
  return rc;
}

/* The materialized outputs z[0..n): printed, in an archive or on
 * standard output, or in a directory (z0..zL published together). */
static int write_broadcast(const npy_opts *o, size_t n, const bcast_tensor *z,
                           const bcast_npy_info *info) {
  if (o->out.print) {
    for (size_t i = 0; i < n; i++) {
      char label[32];
      snprintf(label, sizeof label, "z%zu", i);
      cli_print_tensor(stdout, label, &z[i]);
    }
    return CLI_OK;
  }
  const int whole_file =
      cli_is_std(o->out.output) || cli_output_is_archive(o->out.output);
  char **paths = whole_file ? NULL : dir_paths(o->out.output, n);
  bcast_npy_write_opts *w = whole_file || paths ? write_opts(n, info) : NULL;
  int rc = CLI_USAGE;
  if (w && whole_file)
    rc = cli_write_npy(o->out.output, n, z, w);
  else if (w)
    rc = cli_write_npy_files(n, paths, z, w);
  free(w);
  free_paths(paths, n);
  return rc;
}

/* Materializes the broadcast of x[0..n) and writes it; a failure names the
 * files behind the operand numbers of its message. */
static int materialize_broadcast(const npy_opts *o, size_t n,
                                 const bcast_tensor *x,
                                 const bcast_npy_info *info) {
  bcast_tensor *z = calloc(n, sizeof *z);
  if (!z) {
    cli_error("out of memory");
    return CLI_USAGE;
  }
  bcast_diag diag;
  const bcast_status st = bcast_broadcast_materialize(
      n, z, x, o->out.max_bytes, o->out.threads, &diag);
  int rc;
  if (st != BCAST_OK) {
    cli_diag("broadcast", &diag);
    for (int k = 0; k < 2; k++) {
      const int op = diag.operand[k];
      if (op < 0 || op >= o->files.n) continue;
      char shape[BCAST_MAX_RANK * 24];
      format_shape(&x[op], shape, sizeof shape);
      fprintf(stderr, "bcast: operand #%d is %s with shape %s\n", op,
              o->files.items[op], shape);
    }
    rc = bcast_status_exit_class(st);
  } else {
    rc = write_broadcast(o, n, z, info);
    for (size_t i = 0; i < n; i++) bcast_tensor_release(&z[i]);
  }
  free(z);
  return rc;
}

/* broadcast: the inputs read, then written tile by tile when their
 * outputs are over --memory, else materialized. */
static int broadcast(void *opts) {
  const npy_opts *o = opts;
  if (o->files.n == 0 || (!o->out.output && !o->out.print))
    return usage_error(&broadcast_help,
                       o->files.n == 0
                           ? "broadcast: no input files"
                           : "broadcast: give -o OUTDIR or --print");
  const size_t n = (size_t)o->files.n;
  bcast_tensor *x = calloc(n, sizeof *x);
  bcast_npy_info *info = calloc(n, sizeof *info);
  int rc = CLI_USAGE;
  if (!x || !info)
    cli_error("out of memory");
  else
    rc =
        cli_read_inputs(o->files.n, o->files.items, x, info, o->out.max_bytes);
  if (rc == CLI_OK) {
    if (!o->out.print && !cli_is_std(o->out.output) &&
        !cli_output_is_archive(o->out.output) &&
        broadcast_bytes(n, x) > o->out.memory)
      rc = stream_broadcast(o, n, x, info);
    else
      rc = materialize_broadcast(o, n, x, info);
    for (size_t i = 0; i < n; i++) bcast_tensor_release(&x[i]);
  }
  free(x);
  free(info);
  return rc;
}

int cmd_broadcast(int argc, char **argv) {
  npy_opts o;
  return cli_main("broadcast", &broadcast_help, &o, broadcast, argc, argv);
}

/* --shape for broadcast-to: ranked and static.  0 after reporting. */
static int target_shape(const char *text, bcast_shape *shape) {
  if (!cli_parse_shape(text, shape)) return 0;
  if (shape->rank < 0) {
    cli_error("broadcast-to: --shape must be ranked, not '%s'", text);
    return 0;
  }
  for (int32_t i = 0; i < shape->rank; i++) {
    if (shape->dims[i] < 0) {
      cli_error("broadcast-to: --shape must be static: dim %d of '%s' is "
                "dynamic",
                (int)i, text);
      return 0;
    }
  }
  return 1;
}

/* The input broadcast to the shape, written or printed. */
static int broadcast_to(const npy_opts *o, const bcast_shape *shape) {
  bcast_tensor x, view;
  bcast_npy_info info;
  int rc = cli_read_inputs(1, o->files.items, &x, &info, o->out.max_bytes);
  if (rc != CLI_OK) return rc;
  bcast_diag diag;
  const bcast_status st =
      bcast_broadcast_to(&view, &x, shape->rank, shape->dims, &diag);
  if (st != BCAST_OK) {
    cli_diag(o->files.items[0], &diag);
    rc = bcast_status_exit_class(st);
  } else {
    rc = cli_out_view(&o->out, o->files.items[0], &view, &info);
    bcast_tensor_release(&view);
  }
  bcast_tensor_release(&x);
  return rc;
}

/* broadcast-to: one input and --shape. */
static int broadcast_to_body(void *opts) {
  const npy_opts *o = opts;
  bcast_shape shape;
  if (o->files.n != 1 || !o->shape_text || (!o->out.output && !o->out.print))
    return usage_error(&broadcast_to_help,
                       o->files.n != 1  ? "broadcast-to: give exactly one "
                                          "input file"
                       : !o->shape_text ? "broadcast-to: --shape is required"
                                        : "broadcast-to: give -o OUT.npy or "
                                          "--print");
  if (!target_shape(o->shape_text, &shape)) return CLI_USAGE;
  return broadcast_to(o, &shape);
}

int cmd_broadcast_to(int argc, char **argv) {
  npy_opts o;
  return cli_main("broadcast-to", &broadcast_to_help, &o, broadcast_to_body,
                  argc, argv);
}

/* One file's dtype, descr, shape, order, version and first elements. */
static int info_file(const char *path, int64_t count, int64_t max_bytes) {
  bcast_tensor x;
  bcast_npy_info info;
  const int rc = cli_read_npy(path, &x, &info, max_bytes);
  if (rc != CLI_OK) return rc;
  char shape[BCAST_MAX_RANK * 24];
  format_shape(&x, shape, sizeof shape);
  printf("%s: dtype %s (%s), shape %s, %s order, version %d.%d\n", path,
         bcast_dtype_name(x.dtype), info.descr, shape,
         info.fortran_order ? "Fortran" : "C", info.version_major,
         info.version_minor);
  printf("  ");
  print_first(stdout, &x, elem_count(&x), count);
  printf("\n");
  bcast_tensor_release(&x);
  return CLI_OK;
}

/* info: every file shown; the exit code is the last failure's. */
static int info(void *opts) {
  const npy_opts *o = opts;
  if (o->machine) {
    bcast_tuning tuning;
    bcast_diag warning;
    (void)bcast_tuning_get(&tuning, &warning);
    if (warning.status != BCAST_OK) cli_error("warning: %s", warning.message);
    cli_print_tuning(stdout, &tuning);
    if (o->files.n == 0) return CLI_OK;
  }
  if (o->files.n == 0) return usage_error(&info_help, "info: no input files");
  if (!cli_stdin_once(o->files.items, o->files.n)) return CLI_USAGE;
  int rc = CLI_OK;
  for (int i = 0; i < o->files.n; i++) {
    const int file_rc =
        info_file(o->files.items[i], o->count, o->out.max_bytes);
    if (file_rc != CLI_OK) rc = file_rc;
  }
  return rc;
}

int cmd_info(int argc, char **argv) {
  npy_opts o;
  return cli_main("info", &info_help, &o, info, argc, argv);
}
