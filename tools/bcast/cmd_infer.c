/* bcast infer: the broadcast shape of shapes given on the command line,
 * with the run-time checks it depends on. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report.h"

static void infer_help(FILE *out) {
  fprintf(out,
          "usage: bcast infer [--profile P] [--broadcast-dimensions D,...]\n"
          "                   [--format text|json] SHAPE...\n"
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
          "  --format F    text (default) | json: one object on stdout, the\n"
          "                result and its checks, or the failure\n"
          "  -h, --help    this text\n"
          "\n"
          "exit status: 0 inferred, 1 the shapes do not broadcast, 2 usage error.\n");
}

#define INFER_MAX_CHECKS 64

/* The result as one JSON object: {"result", "rank", "checks": [...],
 * "checks_total"}. */
static void infer_print_json(const bcast_shape *out, const char *text,
                             const bcast_constraint *constraints,
                             size_t n_constraints, const bcast_symbols *symbols) {
  json_writer w;
  json_init(&w, stdout);
  json_object_begin(&w);
  json_key(&w, "result");
  json_string(&w, text);
  json_key(&w, "rank");
  if (out->rank == BCAST_RANK_UNRANKED) json_null(&w);
  else json_int(&w, out->rank);
  json_key(&w, "checks");
  json_array_begin(&w);
  for (size_t c = 0; c < n_constraints && c < INFER_MAX_CHECKS; c++) {
    char condition[2 * (BCAST_SYMBOL_NAME_MAX + 24) + 64];
    bcast_constraint_format(&constraints[c], symbols, condition, sizeof condition);
    json_object_begin(&w);
    json_key(&w, "condition");
    json_string(&w, condition);
    json_key(&w, "axis");
    json_int(&w, constraints[c].axis);
    json_key(&w, "operands");
    json_array_begin(&w);
    json_int(&w, constraints[c].operand[0]);
    json_int(&w, constraints[c].operand[1]);
    json_array_end(&w);
    json_key(&w, "operand_axes");
    json_array_begin(&w);
    json_int(&w, constraints[c].operand_axis[0]);
    json_int(&w, constraints[c].operand_axis[1]);
    json_array_end(&w);
    json_object_end(&w);
  }
  json_array_end(&w);
  json_key(&w, "checks_total");
  json_int(&w, (int64_t)n_constraints);
  json_object_end(&w);
  json_line_end(&w);
}

int cmd_infer(int argc, char **argv) {
  bcast_profile profile = BCAST_PROFILE_TRAIT;
  report_format format = REPORT_TEXT;
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
    } else if (cli_option_is(a, "--format")) {
      const char *value = cli_option_value(argc, argv, &i, "--format", a);
      if (!value || !report_format_parse("infer", value, 0, &format))
        rc = CLI_USAGE;
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
    bcast_constraint constraints[INFER_MAX_CHECKS];
    size_t n_constraints = 0;
    bcast_status st;
    if (profile == BCAST_PROFILE_XLA && n == 2)
      st = bcast_xla_binary_shape(&shapes[0], &shapes[1], bdims, n_bdims, &out,
                                  &diag);
    else
      st = bcast_shape_infer_constrained(n, shapes, profile, &out, constraints,
                                         INFER_MAX_CHECKS, &n_constraints,
                                         &diag);
    if (st != BCAST_OK) {
      if (format == REPORT_JSON) report_json_failure(stdout, &diag);
      else cli_diag("infer", &diag);
      rc = CLI_FAIL;
    } else {
      char text[BCAST_MAX_RANK * (BCAST_SYMBOL_NAME_MAX + 1) + 4];
      bcast_shape_format_symbolic(&out, BCAST_SHAPE_STYLE_LIST, symbols, text,
                                  sizeof text);
      if (format == REPORT_JSON) {
        infer_print_json(&out, text, constraints, n_constraints, symbols);
        free(shapes);
        free(symbols);
        return CLI_OK;
      }
      printf("%s\n", text);
      for (size_t c = 0; c < n_constraints && c < INFER_MAX_CHECKS; c++) {
        bcast_constraint_format(&constraints[c], symbols, text, sizeof text);
        printf("check: %s (broadcast dim %d: operand #%d dim %d, operand #%d "
               "dim %d)\n",
               text, (int)constraints[c].axis, constraints[c].operand[0],
               (int)constraints[c].operand_axis[0], constraints[c].operand[1],
               (int)constraints[c].operand_axis[1]);
      }
      if (n_constraints > INFER_MAX_CHECKS)
        printf("check: ... and %zu more\n", n_constraints - INFER_MAX_CHECKS);
    }
  }
  free(shapes);
  free(symbols);
  return rc;
}
