/* bcast infer: the broadcast shape of shapes given on the command line,
 * with the run-time checks it depends on. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void infer_help(FILE *out) {
  fprintf(out,
          "usage: bcast infer [--profile P] [--broadcast-dimensions D,...] SHAPE...\n"
          "\n"
          "Prints the shape the operands broadcast to, then one 'check:' line\n"
          "per run-time condition the result depends on, e.g.\n"
          "  bcast infer [2,?,1] [3]            ->  [2,?,3]\n"
          "  bcast infer [n,1] [1,m]            ->  [n,m]\n"
          "  bcast infer [n] [m]                ->  [?]\n"
          "                                         check: n == m or n == 1 or m == 1\n"
          "A SHAPE is [d,...] or (d,...) with sizes, '?' or names (n, batch:\n"
          "the same name is the same size everywhere), [] for a scalar, '*' for\n"
          "unranked, d x d x ... (4x?x3), or an MLIR type (tensor<2x?xf32>,\n"
          "vector<4xf16>, tensor<*xi32>).  Unranked operands are skipped; with\n"
          "none ranked the result is '*'.\n"
          "\n"
          "options:\n"
          "  --profile P   trait (default) | mlir | numpy: lower ranks get leading\n"
          "                1s; tosa: ranks must be equal; xla: ranks must be\n"
          "                equal unless --broadcast-dimensions places the\n"
          "                lower-rank operand (scalars always broadcast)\n"
          "  --broadcast-dimensions D,...\n"
          "                with --profile xla and two shapes: the output dims the\n"
          "                lower-rank operand's dims map to (strictly increasing);\n"
          "                then size-1 dims broadcast both ways\n"
          "  -h, --help    this text\n"
          "\n"
          "exit status: 0 inferred, 1 the shapes do not broadcast, 2 usage error.\n");
}

int cmd_infer(int argc, char **argv) {
  bcast_profile profile = BCAST_PROFILE_TRAIT;
  bcast_shape *shapes = calloc((size_t)argc, sizeof *shapes);
  bcast_symbols *symbols = malloc(sizeof *symbols);
  if (!shapes || !symbols) {
    cli_error("out of memory");
    free(shapes);
    free(symbols);
    return CLI_USAGE;
  }
  bcast_symbols_init(symbols);
  int64_t bdims[BCAST_MAX_RANK];
  size_t n_bdims = 0;
  int have_bdims = 0;
  size_t n = 0;
  int rc = CLI_OK;
  bcast_diag diag;
  for (int i = 1; i < argc && rc == CLI_OK; i++) {
    const char *a = argv[i];
    int got;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      infer_help(stdout);
      free(shapes);
      free(symbols);
      return CLI_OK;
    } else if ((got = cli_profile_option("infer", argc, argv, &i, a,
                                         &profile)) != 0) {
      if (got < 0) rc = CLI_USAGE;
    } else if (!strcmp(a, "--broadcast-dimensions")) {
      if (i + 1 >= argc || !cli_parse_dims(argv[++i], bdims, &n_bdims))
        rc = CLI_USAGE;
      have_bdims = 1;
    } else if (a[0] == '-' && a[1] == '-') {
      cli_error("infer: unknown option '%s' (see 'bcast infer --help')", a);
      rc = CLI_USAGE;
    } else if (!cli_parse_symbolic_shape(a, symbols, &shapes[n++])) {
      rc = CLI_USAGE;
    }
  }
  if (rc == CLI_OK && n == 0) {
    cli_error("infer: give at least one SHAPE (see 'bcast infer --help')");
    rc = CLI_USAGE;
  }
  if (rc == CLI_OK && have_bdims && (profile != BCAST_PROFILE_XLA || n != 2)) {
    cli_error("infer: --broadcast-dimensions goes with --profile xla and "
              "exactly two shapes");
    rc = CLI_USAGE;
  }
  if (rc == CLI_OK) {
    bcast_shape out;
    bcast_constraint constraints[64];
    size_t n_constraints = 0;
    bcast_status st;
    if (profile == BCAST_PROFILE_XLA && n == 2)
      st = bcast_xla_binary_shape(&shapes[0], &shapes[1], bdims, n_bdims, &out,
                                  &diag);
    else
      st = bcast_shape_infer_constrained(n, shapes, profile, &out, constraints,
                                         64, &n_constraints, &diag);
    if (st != BCAST_OK) {
      cli_diag("infer", &diag);
      rc = CLI_FAIL;
    } else {
      char text[BCAST_MAX_RANK * (BCAST_SYMBOL_NAME_MAX + 1) + 4];
      bcast_shape_format_symbolic(&out, BCAST_SHAPE_STYLE_LIST, symbols, text,
                                  sizeof text);
      printf("%s\n", text);
      for (size_t c = 0; c < n_constraints && c < 64; c++) {
        bcast_constraint_format(&constraints[c], symbols, text, sizeof text);
        printf("check: %s (broadcast dim %d: operand #%d dim %d, operand #%d "
               "dim %d)\n",
               text, (int)constraints[c].axis, constraints[c].operand[0],
               (int)constraints[c].operand_axis[0], constraints[c].operand[1],
               (int)constraints[c].operand_axis[1]);
      }
      if (n_constraints > 64)
        printf("check: ... and %zu more\n", n_constraints - 64);
    }
  }
  free(shapes);
  free(symbols);
  return rc;
}
