/* Explicit broadcasting on the command line: broadcast-in-dim, on a .npy
 * file or on shapes alone. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

/* The --help of bcast broadcast-in-dim; its options are options.c's rows. */
static const char indim_help_text[] =
    "usage: bcast broadcast-in-dim IN.npy --dims D,... (--shape S | "
    "--new-dims O:N,...)\n"
    "                              (-o OUT.npy | --print) [--any-order]\n"
    "                              [--max-bytes N] [--memory N] [--threads "
    "N]\n"
    "       bcast broadcast-in-dim --operand SHAPE --dims D,... (--shape S | "
    "--new-dims O:N,...)\n"
    "\n"
    "XLA's BroadcastInDim: operand dim i lands on output dim D[i]; the other\n"
    "output dims are new, and operand dims of size 1 may expand.  With a\n"
    "file, writes the result (a zero-copy view, materialized on output);\n"
    "with --operand, prints the result shape.\n"
    "\n"
    "  bcast broadcast-in-dim --operand [2,3] --shape [4,2,3] --dims 1,2  ->  "
    "[4,2,3]\n"
    "  bcast broadcast-in-dim --operand [5,7] --dims 0,2 --new-dims 1:4   ->  "
    "[5,4,7]\n"
    "\n"
    "options:\n"
    "  --dims D,...      broadcast_dimensions, one output dim per operand "
    "dim\n"
    "                    ('' for a scalar operand)\n"
    "  --shape S         the full output shape (4x3x2 or [4,3,2])\n"
    "  --new-dims O:N,...  PyTensor's partial form instead of --shape: sizes\n"
    "                    of only the new output dims (and of operand dims of\n"
    "                    size 1 to expand); the rest come from the operand\n"
    "  --any-order       StableHLO's rule: dims unique in any order (a\n"
    "                    transpose); the default is XLA's strictly "
    "increasing\n"
    "  --operand SHAPE   shape-only mode: no file, print the result shape\n"
    "  -o OUT.npy        write the result;  --print  show it instead\n"
    "  --max-bytes N     the most bytes read or made in memory (K/M/G/T\n"
    "                    suffixes; default 1G); when given, also the\n"
    "                    largest output written tile by tile\n"
    "  --memory N        outputs larger than N bytes (default 1G) are\n"
    "                    written to their .npy file tile by tile, holding\n"
    "                    one tile (at most N/2, 64M at most), limited by\n"
    "                    free disk space, and by --max-bytes if given;\n"
    "                    .npy inputs of 64M or more are mapped, not read\n"
    "  --quiet           no progress line on a terminal\n"
    "  --threads N       threads for materializing (default: OpenMP's)\n"
    "  -h, --help        this text\n"
    "\n"
    "exit status: 0 ok, 1 the map or sizes are invalid or over budget,\n"
    "2 usage or I/O error.\n";

static const cli_help indim_help = {NULL, indim_help_text};

/* One "DIM:SIZE" entry at p into *out: the text after it, or NULL when it
 * is malformed. */
static const char *new_dim_entry(const char *p, bcast_dim_size *out) {
  char *end;
  if (!(*p >= '0' && *p <= '9')) return NULL;
  const long long dim = strtoll(p, &end, 10);
  if (*end != ':' || dim >= BCAST_MAX_RANK ||
      !(end[1] >= '0' && end[1] <= '9'))
    return NULL;
  errno = 0;
  const long long size = strtoll(end + 1, &end, 10);
  if (errno || size < 0) return NULL;
  out->dim = (int32_t)dim;
  out->size = size;
  return end;
}

/* "1:5,3:7" into (dim, size) pairs. */
static int parse_new_dims(const char *text, bcast_dim_size *sizes, size_t *n) {
  const char *p = text;
  for (*n = 0; *p; (*n)++) {
    if (*n == BCAST_MAX_RANK) {
      cli_error("more than %d entries in --new-dims '%s'", BCAST_MAX_RANK,
                text);
      return 0;
    }
    p = new_dim_entry(p, &sizes[*n]);
    if (!p || (*p && *p != ',')) {
      cli_error("invalid --new-dims '%s' (expected OUTPUT_DIM:SIZE,... like "
                "1:5)",
                text);
      return 0;
    }
    p += *p == ',';
  }
  return 1;
}

/* The map and the output: the dims, and the full shape or the partial
 * form's sizes; source[o] is the operand dim output dim o comes from (-1:
 * a new one), once the map is checked. */
typedef struct indim_map {
  int64_t dims[BCAST_MAX_RANK];
  size_t n_dims;
  bcast_dim_size sizes[BCAST_MAX_RANK];
  size_t n_sizes;
  bcast_shape out;
  int32_t source[BCAST_MAX_RANK];
} indim_map;

/* Parses the map's options.  CLI_OK or CLI_USAGE (reported). */
static int read_map(const indim_opts *o, indim_map *m) {
  m->n_sizes = 0;
  if (!cli_parse_dims(o->dims_text, m->dims, &m->n_dims) ||
      (o->new_dims_text &&
       !parse_new_dims(o->new_dims_text, m->sizes, &m->n_sizes)) ||
      (o->shape_text && !cli_parse_shape(o->shape_text, &m->out)))
    return CLI_USAGE;
  return CLI_OK;
}

/* Checks the map against the operand's shape (the partial form fills in
 * the output).  CLI_OK or CLI_FAIL (reported). */
static int check_map(indim_opts *o, indim_map *m, const bcast_shape *operand) {
  bcast_diag diag;
  bcast_status st;
  if (o->new_dims_text) {
    st = bcast_broadcast_in_dim_partial(operand, m->dims, m->n_dims, m->sizes,
                                        m->n_sizes, &m->out, m->source, &diag);
    o->order = BCAST_DIMS_ANY_ORDER; /* the partial form takes any order */
  } else {
    st = bcast_broadcast_in_dim_check(operand, &m->out, m->dims, m->n_dims,
                                      o->order, &diag);
  }
  if (st == BCAST_OK) return CLI_OK;
  cli_diag("broadcast-in-dim", &diag);
  return CLI_FAIL; /* an invalid map or size is a failed check */
}

/* Shape-only mode: the result shape, and in the partial form where each
 * output dim comes from. */
static void print_result_shape(const indim_opts *o, const indim_map *m) {
  char text[BCAST_MAX_RANK * 24];
  bcast_shape_format(&m->out, BCAST_SHAPE_STYLE_LIST, text, sizeof text);
  printf("%s\n", text);
  if (!o->new_dims_text) return;
  for (int32_t d = 0; d < m->out.rank; d++) {
    if (m->source[d] >= 0)
      printf("  output dim %d = operand dim %d\n", (int)d, (int)m->source[d]);
    else
      printf("  output dim %d: size %lld (%s)\n", (int)d,
             (long long)m->out.dims[d],
             BCAST_DIM_IS_DYNAMIC(m->out.dims[d]) ? "dynamic" : "given");
  }
}

/* The file broadcast through the map, written or printed. */
static int write_file(const indim_opts *o, const indim_map *m,
                      const bcast_tensor *x, const bcast_npy_info *info) {
  for (int32_t d = 0; d < m->out.rank; d++) {
    if (BCAST_DIM_IS_DYNAMIC(m->out.dims[d])) {
      cli_error("broadcast-in-dim: output dim %d is dynamic; a file needs "
                "static sizes",
                (int)d);
      return CLI_USAGE;
    }
  }
  bcast_tensor view;
  bcast_diag diag;
  const bcast_status st = bcast_broadcast_in_dim(
      &view, x, m->out.rank, m->out.dims, m->dims, m->n_dims, o->order, &diag);
  if (st != BCAST_OK) {
    cli_diag(o->file, &diag);
    return bcast_status_exit_class(st);
  }
  const int rc = cli_out_view(&o->out, o->file, &view, info);
  bcast_tensor_release(&view);
  return rc;
}

/* The operand (a shape given, or the file's), the map checked against it,
 * then the shape printed or the file written. */
static int broadcast_in_dim(indim_opts *o, indim_map *m) {
  bcast_tensor x;
  bcast_npy_info info;
  bcast_shape operand;
  if (o->operand_text) {
    if (!cli_parse_shape(o->operand_text, &operand)) return CLI_USAGE;
  } else {
    const int rc = cli_read_npy(o->file, &x, &info, o->out.max_bytes);
    if (rc != CLI_OK) return rc;
    bcast_shape_set(&operand, x.rank, x.shape, NULL);
  }
  int rc = check_map(o, m, &operand);
  if (rc == CLI_OK && o->operand_text)
    print_result_shape(o, m);
  else if (rc == CLI_OK)
    rc = write_file(o, m, &x, &info);
  if (!o->operand_text) bcast_tensor_release(&x);
  return rc;
}

/* The options checked, then the map read and applied. */
static int indim(void *opts) {
  indim_opts *o = opts;
  if (!o->dims_text || (!o->shape_text == !o->new_dims_text) ||
      (!o->file == !o->operand_text) ||
      (o->file && !o->out.output && !o->out.print)) {
    cli_error("broadcast-in-dim: give --dims, exactly one of --shape and "
              "--new-dims, and either IN.npy with -o/--print or --operand");
    return CLI_USAGE;
  }
  indim_map m;
  const int rc = read_map(o, &m);
  return rc == CLI_OK ? broadcast_in_dim(o, &m) : rc;
}

int cmd_broadcast_in_dim(int argc, char **argv) {
  indim_opts o;
  return cli_main("broadcast-in-dim", &indim_help, &o, indim, argc, argv);
}
