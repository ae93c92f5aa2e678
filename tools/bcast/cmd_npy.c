/* The .npy commands: broadcast (ONNX Broadcast of N files), broadcast-to
 * (numpy.broadcast_to of one file) and info.
 *
 * Every input is read whole before any output is written, and outputs are
 * written to a temporary file and renamed, so an output path may name an
 * input. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Options shared by the commands; each command uses its own subset. */
typedef struct npy_opts {
  const char *output;
  int print;
  int64_t max_bytes;
  int max_bytes_given; /* without --max-bytes, a streamed output has no cap */
  int64_t memory; /* --memory: above it outputs stream (stream.c) */
  int quiet;
  int threads;
  int64_t count; /* info: elements shown */
  const char *shape_text;
  int help;
  int nfiles;
  char **files;
} npy_opts;

enum { OPT_OUTPUT = 1, OPT_PRINT = 2, OPT_BUDGET = 4, OPT_SHAPE = 8, OPT_COUNT = 16 };

/* Parses argv[1..]; returns 0 on a usage error (already reported). */
static int parse_opts(int argc, char **argv, unsigned allowed, npy_opts *o) {
  memset(o, 0, sizeof *o);
  o->max_bytes = BCAST_DEFAULT_MAX_BYTES;
  o->memory = CLI_DEFAULT_MEMORY;
  o->count = 10;
  o->files = calloc((size_t)argc, sizeof *o->files);
  if (!o->files) {
    cli_error("out of memory");
    return 0;
  }
  int only_files = 0;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    const char *value;
    if (only_files || arg[0] != '-' || strcmp(arg, "-") == 0) {
      o->files[o->nfiles++] = argv[i];
    } else if (strcmp(arg, "--") == 0) {
      only_files = 1;
    } else if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
      o->help = 1;
    } else if ((allowed & OPT_OUTPUT) && (!strcmp(arg, "-o") || cli_option_is(arg, "--output"))) {
      if (!(value = cli_option_value(argc, argv, &i, arg[1] == 'o' ? "-o" : "--output", arg)))
        return 0;
      o->output = value;
    } else if ((allowed & OPT_PRINT) && !strcmp(arg, "--print")) {
      o->print = 1;
    } else if ((allowed & OPT_BUDGET) && cli_option_is(arg, "--max-bytes")) {
      if (!(value = cli_option_value(argc, argv, &i, "--max-bytes", arg))) return 0;
      if (!cli_parse_bytes(value, &o->max_bytes)) return 0;
      o->max_bytes_given = 1;
    } else if ((allowed & OPT_OUTPUT) && cli_option_is(arg, "--memory")) {
      if (!(value = cli_option_value(argc, argv, &i, "--memory", arg))) return 0;
      if (!cli_parse_bytes(value, &o->memory)) return 0;
    } else if ((allowed & OPT_OUTPUT) && !strcmp(arg, "--quiet")) {
      o->quiet = 1;
    } else if (cli_option_is(arg, "--threads")) {
      if (!(value = cli_option_value(argc, argv, &i, "--threads", arg))) return 0;
      char *end;
      errno = 0;
      long n = strtol(value, &end, 10);
      if (errno || *end || end == value || n < 0 || n > 4096) {
        cli_error("invalid thread count '%s' (expected 0..4096; 0 = automatic)", value);
        return 0;
      }
      o->threads = (int)n;
    } else if ((allowed & OPT_SHAPE) && cli_option_is(arg, "--shape")) {
      if (!(value = cli_option_value(argc, argv, &i, "--shape", arg))) return 0;
      o->shape_text = value;
    } else if ((allowed & OPT_COUNT) && cli_option_is(arg, "--count")) {
      if (!(value = cli_option_value(argc, argv, &i, "--count", arg))) return 0;
      char *end;
      errno = 0;
      long long n = strtoll(value, &end, 10);
      if (errno || *end || end == value || n < 0) {
        cli_error("invalid element count '%s'", value);
        return 0;
      }
      o->count = n;
    } else {
      cli_error("%s: unknown option '%s' (see 'bcast %s --help')", argv[0], arg, argv[0]);
      return 0;
    }
  }
  return 1;
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
static void print_first(FILE *out, const bcast_tensor *t, int64_t count, int64_t limit) {
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
static void print_nested(FILE *out, const bcast_tensor *t, int32_t axis, const char *p) {
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
  if (count <= 64) print_nested(out, t, 0, t->data);
  else print_first(out, t, count, 16);
  fputc('\n', out);
}

/* ------------------------------------------------------------------------ */

static int read_inputs(const npy_opts *o, bcast_tensor *x, bcast_npy_info *info) {
  if (!cli_stdin_once(o->files, o->nfiles)) return CLI_USAGE;
  for (int i = 0; i < o->nfiles; i++) {
    const int rc = cli_read_npy(o->files[i], &x[i], &info[i], o->max_bytes);
    if (rc != CLI_OK) {
      for (int k = 0; k < i; k++) bcast_tensor_release(&x[k]);
      return rc;
    }
  }
  return CLI_OK;
}

bcast_npy_write_opts cli_npy_write_opts(const bcast_npy_info *info) {
  bcast_npy_write_opts w = {0, 0, 0, 0};
  w.string_kind = info->string_kind;
  w.string_width = info->string_width;
  w.big_endian = info->big_endian; /* numpy keeps '>' through a copy */
  return w;
}

static void broadcast_help(FILE *out) {
  fputs("usage: bcast broadcast IN.npy... (-o OUTDIR | -o OUT.npz | --print) [options]\n"
        "\n"
        "ONNX Broadcast: Z0..ZL = Broadcast(X0..XL).  Every input is broadcast\n"
        "to the common shape (NumPy rules: align on the right, sizes equal or\n"
        "1) and written, C-contiguous, to OUTDIR/z0.npy .. OUTDIR/zL.npy,\n"
        "byte-identical to numpy.save(np.broadcast_arrays(...)[i].copy()).\n"
        "Outputs keep their input's byte order, and strings its kind and width.\n"
        CLI_INPUT_FORMS_HELP
        CLI_ARCHIVE_OUTPUT_HELP
        "\n"
        "options:\n"
        "  -o, --output DIR   directory for z0.npy..zL.npy (created if missing,\n"
        "                     and removed again if the run fails);\n"
        "                     OUT.npz: an archive of members arr_0..arr_L, as\n"
        "                     numpy.savez names them; '-': standard output\n"
        "                     (one input only)\n"
        "  --print            print the shapes and (small) arrays instead\n"
        "  --max-bytes N      the most bytes read or made in memory (K/M/G/T\n"
        "                     suffixes; default 1G); when given, also the\n"
        "                     largest output written tile by tile\n"
        CLI_MEMORY_HELP
        "  --threads N        threads for copying (0 = automatic, default)\n"
        "  -h, --help         this text\n"
        "\n"
        "exit status: 0 ok; 1 the shapes do not broadcast or the budget is\n"
        "exceeded; 2 usage, unreadable or malformed files, write errors.\n",
        out);
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

/* broadcast into a directory, tile by tile: OUTDIR/z0.npy .. zL.npy. */
static int stream_broadcast(const npy_opts *o, size_t n, const bcast_tensor *x,
                            const bcast_npy_info *info) {
  if (!cli_make_output_dir(o->output)) return CLI_USAGE;
  bcast_tensor *z = calloc(n, sizeof *z);
  char **paths = calloc(n, sizeof *paths);
  size_t cap = strlen(o->output) + 32;
  int rc = z && paths ? CLI_OK : CLI_USAGE;
  for (size_t i = 0; rc == CLI_OK && i < n; i++) {
    if (!(paths[i] = malloc(cap))) rc = CLI_USAGE;
    else snprintf(paths[i], cap, "%s/z%zu.npy", o->output, i);
  }
  if (rc != CLI_OK) cli_error("out of memory");
  bcast_diag diag;
  if (rc == CLI_OK && bcast_broadcast_views(n, z, x, &diag) != BCAST_OK) {
    cli_diag("broadcast", &diag);
    rc = CLI_FAIL;
  } else if (rc == CLI_OK) {
    const cli_stream_opts so = {o->max_bytes_given ? o->max_bytes : INT64_MAX,
                                o->memory, o->threads, o->quiet};
    rc = cli_stream_views(n, paths, z, info, &so);
    for (size_t i = 0; i < n; i++) bcast_tensor_release(&z[i]);
  }
  for (size_t i = 0; paths && i < n; i++) free(paths[i]);
  free(paths);
  free(z);
  return rc;
}

int cmd_broadcast(int argc, char **argv) {
  npy_opts o;
  if (!parse_opts(argc, argv, OPT_OUTPUT | OPT_PRINT | OPT_BUDGET, &o)) {
    free(o.files);
    return CLI_USAGE;
  }
  if (o.help) {
    broadcast_help(stdout);
    free(o.files);
    return CLI_OK;
  }
  if (o.nfiles == 0 || (!o.output && !o.print)) {
    cli_error(o.nfiles == 0 ? "broadcast: no input files"
                            : "broadcast: give -o OUTDIR or --print");
    broadcast_help(stderr);
    free(o.files);
    return CLI_USAGE;
  }
  size_t n = (size_t)o.nfiles;
  bcast_tensor *x = calloc(n, sizeof *x), *z = calloc(n, sizeof *z);
  bcast_npy_info *info = calloc(n, sizeof *info);
  int rc = CLI_USAGE;
  if (!x || !z || !info) {
    cli_error("out of memory");
    goto done;
  }
  rc = read_inputs(&o, x, info);
  if (rc) goto done;

  bcast_diag diag;
  bcast_status st;
  if (!o.print && !cli_is_std(o.output) && !cli_output_is_archive(o.output) &&
      broadcast_bytes(n, x) > o.memory) {
    /* Outputs over --memory are written tile by tile. */
    rc = stream_broadcast(&o, n, x, info);
    goto release_inputs;
  }
  st = bcast_broadcast_materialize(n, z, x, o.max_bytes, o.threads, &diag);
  if (st) {
    cli_diag("broadcast", &diag);
    /* Name the files behind the operand numbers of the message. */
    for (int k = 0; k < 2; k++) {
      int op = diag.operand[k];
      if (op < 0 || op >= o.nfiles) continue;
      char shape[BCAST_MAX_RANK * 24];
      format_shape(&x[op], shape, sizeof shape);
      fprintf(stderr, "bcast: operand #%d is %s with shape %s\n", op, o.files[op], shape);
    }
    rc = bcast_status_exit_class(st);
    goto release_inputs;
  }
  rc = CLI_OK;
  if (o.print) {
    for (size_t i = 0; i < n; i++) {
      char label[32];
      snprintf(label, sizeof label, "z%zu", i);
      cli_print_tensor(stdout, label, &z[i]);
    }
  } else if (cli_is_std(o.output) || cli_output_is_archive(o.output)) {
    bcast_npy_write_opts *w = calloc(n, sizeof *w);
    if (!w) {
      cli_error("out of memory");
      rc = CLI_USAGE;
    } else {
      for (size_t i = 0; i < n; i++) w[i] = cli_npy_write_opts(&info[i]);
      rc = cli_write_npy(o.output, n, z, w);
    }
    free(w);
  } else {
    if (!cli_make_output_dir(o.output)) rc = CLI_USAGE;
    /* z0..zL are published together or not at all. */
    size_t cap = strlen(o.output) + 32;
    char **paths = rc == CLI_OK ? calloc(n, sizeof *paths) : NULL;
    bcast_npy_write_opts *w = paths ? calloc(n, sizeof *w) : NULL;
    for (size_t i = 0; w && i < n; i++) {
      if (!(paths[i] = malloc(cap))) break;
      snprintf(paths[i], cap, "%s/z%zu.npy", o.output, i);
      w[i] = cli_npy_write_opts(&info[i]);
    }
    if (rc == CLI_OK && (!w || !paths[n - 1])) {
      cli_error("out of memory");
      rc = CLI_USAGE;
    } else if (rc == CLI_OK) {
      rc = cli_write_npy_files(n, paths, z, w);
    }
    for (size_t i = 0; paths && i < n; i++) free(paths[i]);
    free(paths);
    free(w);
  }
  for (size_t i = 0; i < n; i++) bcast_tensor_release(&z[i]);
release_inputs:
  for (size_t i = 0; i < n; i++) bcast_tensor_release(&x[i]);
done:
  free(x);
  free(z);
  free(info);
  free(o.files);
  return rc;
}

static void broadcast_to_help(FILE *out) {
  fputs("usage: bcast broadcast-to IN.npy --shape SHAPE (-o OUT.npy | --print) [options]\n"
        "\n"
        "numpy.broadcast_to(x, SHAPE).copy(): the input broadcast to SHAPE\n"
        "(aligned on the right; each input size equal to the target's or 1)\n"
        "and written C-contiguous, byte-identical to numpy.save of the same.\n"
        "The output keeps the input's byte order, and a string input's kind\n"
        "and width.  OUT.npy may be IN.npy: the input is read whole before the output is\n"
        "written to a temporary file and renamed.\n"
        CLI_INPUT_FORMS_HELP
        CLI_ARCHIVE_OUTPUT_HELP
        "\n"
        "options:\n"
        "  --shape SHAPE      target shape, in any form 'bcast infer' takes:\n"
        "                     4x3, [4,3], (4,3), 4,3; [] or () for rank 0\n"
        "  -o, --output FILE  the output .npy file; '-' standard output;\n"
        "                     X.npz or X.npz:NAME an archive (member arr_0\n"
        "                     or NAME)\n"
        "  --print            print the result instead of writing it\n"
        "  --max-bytes N      the most bytes read or made in memory (K/M/G/T\n"
        "                     suffixes; default 1G); when given, also the\n"
        "                     largest output written tile by tile\n"
        CLI_MEMORY_HELP
        "  --threads N        threads for copying (0 = automatic, default)\n"
        "  -h, --help         this text\n"
        "\n"
        "exit status: 0 ok; 1 the input does not broadcast to SHAPE or the\n"
        "budget is exceeded; 2 usage, unreadable or malformed files, write\n"
        "errors.\n",
        out);
}

int cmd_broadcast_to(int argc, char **argv) {
  npy_opts o;
  if (!parse_opts(argc, argv, OPT_OUTPUT | OPT_PRINT | OPT_BUDGET | OPT_SHAPE, &o)) {
    free(o.files);
    return CLI_USAGE;
  }
  if (o.help) {
    broadcast_to_help(stdout);
    free(o.files);
    return CLI_OK;
  }
  if (o.nfiles != 1 || !o.shape_text || (!o.output && !o.print)) {
    cli_error(o.nfiles != 1 ? "broadcast-to: give exactly one input file"
              : !o.shape_text ? "broadcast-to: --shape is required"
                              : "broadcast-to: give -o OUT.npy or --print");
    broadcast_to_help(stderr);
    free(o.files);
    return CLI_USAGE;
  }
  bcast_shape shape;
  if (!cli_parse_shape(o.shape_text, &shape)) {
    free(o.files);
    return CLI_USAGE;
  }
  if (shape.rank < 0) {
    cli_error("broadcast-to: --shape must be ranked, not '%s'", o.shape_text);
    free(o.files);
    return CLI_USAGE;
  }
  for (int32_t i = 0; i < shape.rank; i++) {
    if (shape.dims[i] < 0) {
      cli_error("broadcast-to: --shape must be static: dim %d of '%s' is dynamic",
                (int)i, o.shape_text);
      free(o.files);
      return CLI_USAGE;
    }
  }
  bcast_tensor x, view, z;
  bcast_npy_info info;
  int rc = read_inputs(&o, &x, &info);
  if (rc) {
    free(o.files);
    return rc;
  }
  bcast_diag diag;
  bcast_status st = bcast_broadcast_to(&view, &x, shape.rank, shape.dims, &diag);
  if (st == BCAST_OK && !o.print && cli_stream_wanted(&view, o.memory)) {
    /* Over --memory: written tile by tile. */
    char *paths[1] = {(char *)o.output};
    const cli_stream_opts so = {o.max_bytes_given ? o.max_bytes : INT64_MAX,
                                o.memory, o.threads, o.quiet};
    rc = cli_stream_views(1, paths, &view, &info, &so);
    bcast_tensor_release(&view);
    bcast_tensor_release(&x);
    free(o.files);
    return rc;
  }
  if (st == BCAST_OK) {
    st = bcast_materialize(&z, &view, o.max_bytes, o.threads, &diag);
    bcast_tensor_release(&view);
  }
  if (st) {
    cli_diag(o.files[0], &diag);
    rc = bcast_status_exit_class(st);
  } else {
    if (o.print) {
      cli_print_tensor(stdout, "result", &z);
    } else {
      bcast_npy_write_opts w = cli_npy_write_opts(&info);
      rc = cli_write_npy(o.output, 1, &z, &w);
    }
    bcast_tensor_release(&z);
  }
  bcast_tensor_release(&x);
  free(o.files);
  return rc;
}

static void info_help(FILE *out) {
  fputs("usage: bcast info FILE.npy... [options]\n"
        "\n"
        "Prints, for each file, its dtype and descr, shape, memory order,\n"
        "format version and first elements (float16 shown as values).\n"
        CLI_INPUT_FORMS_HELP
        "\n"
        "options:\n"
        "  --count N          elements to show (default 10)\n"
        "  --max-bytes N      refuse files larger than N bytes (default 1G)\n"
        "  -h, --help         this text\n"
        "\n"
        "exit status: 0 ok; 2 usage or any file unreadable or malformed\n"
        "(the other files are still shown).\n",
        out);
}

int cmd_info(int argc, char **argv) {
  npy_opts o;
  if (!parse_opts(argc, argv, OPT_BUDGET | OPT_COUNT, &o)) {
    free(o.files);
    return CLI_USAGE;
  }
  if (o.help) {
    info_help(stdout);
    free(o.files);
    return CLI_OK;
  }
  if (o.nfiles == 0) {
    cli_error("info: no input files");
    info_help(stderr);
    free(o.files);
    return CLI_USAGE;
  }
  if (!cli_stdin_once(o.files, o.nfiles)) {
    free(o.files);
    return CLI_USAGE;
  }
  int rc = CLI_OK;
  for (int i = 0; i < o.nfiles; i++) {
    bcast_tensor x;
    bcast_npy_info info;
    const int read_rc = cli_read_npy(o.files[i], &x, &info, o.max_bytes);
    if (read_rc != CLI_OK) {
      rc = read_rc;
      continue;
    }
    char shape[BCAST_MAX_RANK * 24];
    format_shape(&x, shape, sizeof shape);
    printf("%s: dtype %s (%s), shape %s, %s order, version %d.%d\n", o.files[i],
           bcast_dtype_name(x.dtype), info.descr, shape,
           info.fortran_order ? "Fortran" : "C", info.version_major,
           info.version_minor);
    printf("  ");
    print_first(stdout, &x, elem_count(&x), o.count);
    printf("\n");
    bcast_tensor_release(&x);
  }
  free(o.files);
  return rc;
}
