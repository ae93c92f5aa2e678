/* Explicit broadcasting on the command line: broadcast-in-dim (on a .npy
 * file, or on shapes alone) and explain. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report.h"

static void broadcast_in_dim_help(FILE *out) {
  fprintf(out,
          "usage: bcast broadcast-in-dim IN.npy --dims D,... (--shape S | --new-dims O:N,...)\n"
          "                              (-o OUT.npy | --print) [--any-order]\n"
          "                              [--max-bytes N] [--memory N] [--threads N]\n"
          "       bcast broadcast-in-dim --operand SHAPE --dims D,... (--shape S | --new-dims O:N,...)\n"
          "\n"
          "XLA's BroadcastInDim: operand dim i lands on output dim D[i]; the other\n"
          "output dims are new, and operand dims of size 1 may expand.  With a\n"
          "file, writes the result (a zero-copy view, materialized on output);\n"
          "with --operand, prints the result shape.\n"
          "\n"
          "  bcast broadcast-in-dim --operand [2,3] --shape [4,2,3] --dims 1,2  ->  [4,2,3]\n"
          "  bcast broadcast-in-dim --operand [5,7] --dims 0,2 --new-dims 1:4   ->  [5,4,7]\n"
          "\n"
          "options:\n"
          "  --dims D,...      broadcast_dimensions, one output dim per operand dim\n"
          "                    ('' for a scalar operand)\n"
          "  --shape S         the full output shape (4x3x2 or [4,3,2])\n"
          "  --new-dims O:N,...  PyTensor's partial form instead of --shape: sizes\n"
          "                    of only the new output dims (and of operand dims of\n"
          "                    size 1 to expand); the rest come from the operand\n"
          "  --any-order       StableHLO's rule: dims unique in any order (a\n"
          "                    transpose); the default is XLA's strictly increasing\n"
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
          "2 usage or I/O error.\n");
}

/* "1:5,3:7" into (dim, size) pairs. */
static int parse_new_dims(const char *text, bcast_dim_size *sizes, size_t *n) {
  *n = 0;
  const char *p = text;
  while (*p) {
    char *end;
    if (*n == BCAST_MAX_RANK) {
      cli_error("more than %d entries in --new-dims '%s'", BCAST_MAX_RANK, text);
      return 0;
    }
    if (!(*p >= '0' && *p <= '9')) goto bad;
    long long dim = strtoll(p, &end, 10);
    if (*end != ':' || dim >= BCAST_MAX_RANK) goto bad;
    p = end + 1;
    if (!(*p >= '0' && *p <= '9')) goto bad;
    errno = 0;
    long long size = strtoll(p, &end, 10);
    if (errno || size < 0) goto bad;
    sizes[*n].dim = (int32_t)dim;
    sizes[*n].size = size;
    (*n)++;
    p = end;
    if (*p == ',') p++;
    else if (*p) goto bad;
  }
  return 1;
bad:
  cli_error("invalid --new-dims '%s' (expected OUTPUT_DIM:SIZE,... like 1:5)",
            text);
  return 0;
}

int cmd_broadcast_in_dim(int argc, char **argv) {
  const char *file = NULL, *output = NULL, *operand_text = NULL,
             *shape_text = NULL, *dims_text = NULL, *new_dims_text = NULL;
  int print = 0, threads = 0, quiet = 0, max_bytes_given = 0;
  int64_t max_bytes = BCAST_DEFAULT_MAX_BYTES, memory = CLI_DEFAULT_MEMORY;
  bcast_dims_order order = BCAST_DIMS_INCREASING;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char **slot = NULL;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      broadcast_in_dim_help(stdout);
      return CLI_OK;
    } else if (!strcmp(a, "-o")) slot = &output;
    else if (!strcmp(a, "--operand")) slot = &operand_text;
    else if (!strcmp(a, "--shape")) slot = &shape_text;
    else if (!strcmp(a, "--dims")) slot = &dims_text;
    else if (!strcmp(a, "--new-dims")) slot = &new_dims_text;
    else if (!strcmp(a, "--print")) print = 1;
    else if (!strcmp(a, "--any-order")) order = BCAST_DIMS_ANY_ORDER;
    else if (!strcmp(a, "--quiet")) quiet = 1;
    else if (!strcmp(a, "--max-bytes")) {
      if (i + 1 >= argc || !cli_parse_bytes(argv[++i], &max_bytes)) return CLI_USAGE;
      max_bytes_given = 1;
    } else if (!strcmp(a, "--memory")) {
      if (i + 1 >= argc || !cli_parse_bytes(argv[++i], &memory)) return CLI_USAGE;
    } else if (!strcmp(a, "--threads")) {
      if (i + 1 >= argc || atoi(argv[i + 1]) < 0) {
        cli_error("broadcast-in-dim: --threads takes a count >= 0");
        return CLI_USAGE;
      }
      threads = atoi(argv[++i]);
    } else if (a[0] == '-' && a[1] != '\0') {
      cli_error("broadcast-in-dim: unknown option '%s' (see 'bcast "
                "broadcast-in-dim --help')",
                a);
      return CLI_USAGE;
    } else if (!file) {
      file = a;
    } else {
      cli_error("broadcast-in-dim: one input file only ('%s' is a second)", a);
      return CLI_USAGE;
    }
    if (slot) {
      if (i + 1 >= argc) {
        cli_error("broadcast-in-dim: %s needs a value", a);
        return CLI_USAGE;
      }
      *slot = argv[++i];
    }
  }
  if (!dims_text || (!shape_text == !new_dims_text) || (!file == !operand_text) ||
      (file && !output && !print)) {
    cli_error("broadcast-in-dim: give --dims, exactly one of --shape and "
              "--new-dims, and either IN.npy with -o/--print or --operand");
    return CLI_USAGE;
  }
  int64_t dims[BCAST_MAX_RANK];
  size_t n_dims;
  if (!cli_parse_dims(dims_text, dims, &n_dims)) return CLI_USAGE;
  bcast_dim_size sizes[BCAST_MAX_RANK];
  size_t n_sizes = 0;
  if (new_dims_text && !parse_new_dims(new_dims_text, sizes, &n_sizes))
    return CLI_USAGE;
  bcast_shape out;
  if (shape_text && !cli_parse_shape(shape_text, &out)) return CLI_USAGE;

  /* The operand: a shape given, or the file's. */
  bcast_tensor x;
  bcast_npy_info info;
  bcast_shape operand;
  bcast_diag diag;
  if (operand_text) {
    if (!cli_parse_shape(operand_text, &operand)) return CLI_USAGE;
  } else {
    const int read_rc = cli_read_npy(file, &x, &info, max_bytes);
    if (read_rc != CLI_OK) return read_rc;
    bcast_shape_set(&operand, x.rank, x.shape, NULL);
  }

  int32_t source[BCAST_MAX_RANK];
  bcast_status st;
  if (new_dims_text) {
    st = bcast_broadcast_in_dim_partial(&operand, dims, n_dims, sizes, n_sizes,
                                        &out, source, &diag);
    order = BCAST_DIMS_ANY_ORDER; /* the partial form takes any order */
  } else {
    st = bcast_broadcast_in_dim_check(&operand, &out, dims, n_dims, order, &diag);
  }
  if (st != BCAST_OK) {
    cli_diag("broadcast-in-dim", &diag);
    if (!operand_text) bcast_tensor_release(&x);
    return CLI_FAIL; /* an invalid map or size is a failed check */
  }

  char text[BCAST_MAX_RANK * 24];
  if (operand_text) {
    bcast_shape_format(&out, BCAST_SHAPE_STYLE_LIST, text, sizeof text);
    printf("%s\n", text);
    if (new_dims_text) {
      for (int32_t o = 0; o < out.rank; o++) {
        if (source[o] >= 0)
          printf("  output dim %d = operand dim %d\n", (int)o, (int)source[o]);
        else
          printf("  output dim %d: size %lld (%s)\n", (int)o,
                 (long long)out.dims[o],
                 BCAST_DIM_IS_DYNAMIC(out.dims[o]) ? "dynamic" : "given");
      }
    }
    return CLI_OK;
  }

  for (int32_t d = 0; d < out.rank; d++) {
    if (BCAST_DIM_IS_DYNAMIC(out.dims[d])) {
      cli_error("broadcast-in-dim: output dim %d is dynamic; a file needs "
                "static sizes",
                (int)d);
      bcast_tensor_release(&x);
      return CLI_USAGE;
    }
  }
  bcast_tensor view, z;
  int rc = CLI_OK;
  st = bcast_broadcast_in_dim(&view, &x, out.rank, out.dims, dims, n_dims,
                              order, &diag);
  if (st == BCAST_OK && !print && cli_stream_wanted(&view, memory)) {
    /* Over --memory: written tile by tile. */
    char *paths[1] = {(char *)output};
    const cli_stream_opts so = {max_bytes_given ? max_bytes : INT64_MAX,
                                memory, threads, quiet};
    rc = cli_stream_views(1, paths, &view, &info, &so);
    bcast_tensor_release(&view);
    bcast_tensor_release(&x);
    return rc;
  }
  if (st == BCAST_OK) {
    st = bcast_materialize(&z, &view, max_bytes, threads, &diag);
    bcast_tensor_release(&view);
  }
  if (st != BCAST_OK) {
    cli_diag(file, &diag);
    rc = bcast_status_exit_class(st);
  } else {
    if (print) {
      cli_print_tensor(stdout, "result", &z);
    } else {
      bcast_npy_write_opts w = cli_npy_write_opts(&info);
      rc = cli_write_npy(output, 1, &z, &w);
    }
    bcast_tensor_release(&z);
  }
  bcast_tensor_release(&x);
  return rc;
}

static void explain_help(FILE *out) {
  fprintf(out,
          "usage: bcast explain [--profile P] [--format text|json] SHAPE...\n"
          "\n"
          "Spells implicit (NumPy / ONNX / trait) broadcasting out explicitly:\n"
          "for each operand, the broadcast_dimensions that place it in the\n"
          "result (as XLA's BroadcastInDim takes them), the dims expanded from\n"
          "1, and the dims that need a run-time check.  Shapes as for 'bcast\n"
          "infer' (names allowed: [n,1]).\n"
          "\n"
          "options:\n"
          "  --profile P   trait (default) | mlir | numpy | tosa | xla\n"
          "  --format F    text (default) | json: one object on stdout, the\n"
          "                result and one entry per operand, or the failure\n"
          "  -h, --help    this text\n"
          "\n"
          "exit status: 0 explained, 1 the shapes do not broadcast, 2 usage error.\n");
}

/* Prints the dims whose bit is set in mask, as "1, 3". */
static void print_mask(uint64_t mask, int32_t rank) {
  int first = 1;
  for (int32_t i = 0; i < rank; i++) {
    if (!((mask >> i) & 1)) continue;
    printf("%s%d", first ? "" : ", ", (int)i);
    first = 0;
  }
}

/* The dims whose bit is set in mask, as a JSON array. */
static void json_mask(json_writer *w, const char *key, uint64_t mask,
                      int32_t rank) {
  json_key(w, key);
  json_array_begin(w);
  for (int32_t i = 0; i < rank; i++)
    if ((mask >> i) & 1) json_int(w, i);
  json_array_end(w);
}

/* The explanation as one JSON object: {"result", "operands": [{"shape",
 * "unranked", "broadcast_dimensions", "expanded", "maybe_expanded",
 * "runtime_check", "new_leading_dims"}, ...]}. */
static void explain_print_json(const bcast_shape *out, size_t n,
                               const bcast_shape *shapes,
                               const bcast_explained *ex,
                               const bcast_symbols *symbols) {
  char text[BCAST_MAX_RANK * (BCAST_SYMBOL_NAME_MAX + 1) + 4];
  json_writer w;
  json_init(&w, stdout);
  json_object_begin(&w);
  json_key(&w, "result");
  bcast_shape_format_symbolic(out, BCAST_SHAPE_STYLE_LIST, symbols, text,
                              sizeof text);
  json_string(&w, text);
  json_key(&w, "operands");
  json_array_begin(&w);
  for (size_t k = 0; k < n; k++) {
    json_object_begin(&w);
    json_key(&w, "shape");
    bcast_shape_format_symbolic(&shapes[k], BCAST_SHAPE_STYLE_LIST, symbols,
                                text, sizeof text);
    json_string(&w, text);
    const int unranked = ex[k].rank == BCAST_RANK_UNRANKED;
    const int32_t rank = unranked ? 0 : ex[k].rank;
    json_key(&w, "unranked");
    json_bool(&w, unranked);
    json_key(&w, "broadcast_dimensions");
    json_array_begin(&w);
    for (int32_t i = 0; i < rank; i++) json_int(&w, ex[k].broadcast_dimensions[i]);
    json_array_end(&w);
    json_mask(&w, "expanded", ex[k].expanded, rank);
    json_mask(&w, "maybe_expanded", ex[k].maybe_expanded, rank);
    json_mask(&w, "runtime_check", ex[k].runtime_check, rank);
    json_key(&w, "new_leading_dims");
    json_int(&w, unranked || out->rank < rank ? 0 : out->rank - rank);
    json_object_end(&w);
  }
  json_array_end(&w);
  json_object_end(&w);
  json_line_end(&w);
}

int cmd_explain(int argc, char **argv) {
  bcast_profile profile = BCAST_PROFILE_TRAIT;
  report_format format = REPORT_TEXT;
  bcast_shape *shapes = calloc((size_t)argc, sizeof *shapes);
  bcast_explained *ex = calloc((size_t)argc, sizeof *ex);
  bcast_symbols *symbols = malloc(sizeof *symbols);
  int rc = CLI_OK;
  size_t n = 0;
  bcast_diag diag;
  if (!shapes || !ex || !symbols) {
    cli_error("out of memory");
    rc = CLI_USAGE;
  } else {
    bcast_symbols_init(symbols);
  }
  for (int i = 1; i < argc && rc == CLI_OK; i++) {
    const char *a = argv[i];
    int got;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      explain_help(stdout);
      free(shapes);
      free(ex);
      free(symbols);
      return CLI_OK;
    } else if ((got = cli_profile_option("explain", argc, argv, &i, a,
                                         &profile)) != 0) {
      if (got < 0) rc = CLI_USAGE;
    } else if (cli_option_is(a, "--format")) {
      const char *value = cli_option_value(argc, argv, &i, "--format", a);
      if (!value || !report_format_parse("explain", value, 0, &format))
        rc = CLI_USAGE;
    } else if (a[0] == '-' && a[1] == '-') {
      cli_error("explain: unknown option '%s' (see 'bcast explain --help')", a);
      rc = CLI_USAGE;
    } else if (!cli_parse_symbolic_shape(a, symbols, &shapes[n++])) {
      rc = CLI_USAGE;
    }
  }
  if (rc == CLI_OK && n == 0) {
    cli_error("explain: give at least one SHAPE (see 'bcast explain --help')");
    rc = CLI_USAGE;
  }
  bcast_shape out;
  if (rc == CLI_OK &&
      bcast_explain(n, shapes, profile, &out, ex, &diag) != BCAST_OK) {
    if (format == REPORT_JSON) report_json_failure(stdout, &diag);
    else cli_diag("explain", &diag);
    rc = CLI_FAIL;
  }
  if (rc == CLI_OK && format == REPORT_JSON) {
    explain_print_json(&out, n, shapes, ex, symbols);
  } else if (rc == CLI_OK) {
    char text[BCAST_MAX_RANK * (BCAST_SYMBOL_NAME_MAX + 1) + 4];
    bcast_shape_format_symbolic(&out, BCAST_SHAPE_STYLE_LIST, symbols, text,
                                sizeof text);
    printf("result %s\n", text);
    for (size_t k = 0; k < n; k++) {
      bcast_shape_format_symbolic(&shapes[k], BCAST_SHAPE_STYLE_LIST, symbols,
                                  text, sizeof text);
      printf("operand #%zu %s:", k, text);
      if (ex[k].rank == BCAST_RANK_UNRANKED) {
        printf(" unranked, skipped (its rank is known only at run time)\n");
        continue;
      }
      printf(" broadcast_dimensions=[");
      for (int32_t i = 0; i < ex[k].rank; i++)
        printf("%s%lld", i ? "," : "", (long long)ex[k].broadcast_dimensions[i]);
      printf("]");
      if (ex[k].expanded) {
        printf("; expands dim ");
        print_mask(ex[k].expanded, ex[k].rank);
        printf(" from 1");
      }
      if (ex[k].maybe_expanded) {
        printf("; dim ");
        print_mask(ex[k].maybe_expanded, ex[k].rank);
        printf(" (size 1) expands if the result's size is not 1");
      }
      if (ex[k].runtime_check) {
        printf("; run-time check on dim ");
        print_mask(ex[k].runtime_check, ex[k].rank);
      }
      int new_dims = out.rank - ex[k].rank;
      if (new_dims > 0)
        printf("; adds %d leading dim%s", new_dims, new_dims > 1 ? "s" : "");
      printf("\n");
    }
  }
  free(shapes);
  free(ex);
  free(symbols);
  return rc;
}
