/* bcast infer: the broadcast shape of shapes given on the command line. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void infer_help(FILE *out) {
  fprintf(out,
          "usage: bcast infer [--profile P] SHAPE...\n"
          "\n"
          "Prints the shape the operands broadcast to, e.g.\n"
          "  bcast infer [2,?,1] [3]            ->  [2,?,3]\n"
          "  bcast infer 'tensor<4x1xf32>' 1x5  ->  [4,5]\n"
          "A SHAPE is [d,...] or (d,...) with sizes or '?', [] for a scalar,\n"
          "'*' for unranked, d x d x ... (4x?x3), or an MLIR type\n"
          "(tensor<2x?xf32>, vector<4xf16>, tensor<*xi32>).  Unranked\n"
          "operands are skipped; with none ranked the result is '*'.\n"
          "\n"
          "options:\n"
          "  --profile P   trait (default) | mlir | numpy: NumPy/MLIR rules with\n"
          "                leading 1s added to lower ranks; tosa | xla: ranks\n"
          "                must be equal\n"
          "  -h, --help    this text\n"
          "\n"
          "exit status: 0 inferred, 1 the shapes do not broadcast, 2 usage error.\n");
}

int cmd_infer(int argc, char **argv) {
  bcast_profile profile = BCAST_PROFILE_TRAIT;
  bcast_shape *shapes = calloc((size_t)argc, sizeof *shapes);
  if (!shapes) {
    cli_error("out of memory");
    return CLI_USAGE;
  }
  size_t n = 0;
  int rc = CLI_OK;
  for (int i = 1; i < argc && rc == CLI_OK; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      infer_help(stdout);
      free(shapes);
      return CLI_OK;
    } else if (!strcmp(a, "--profile") || !strncmp(a, "--profile=", 10)) {
      const char *v = a[9] == '=' ? a + 10 : (i + 1 < argc ? argv[++i] : NULL);
      if (!v || bcast_profile_parse(v, &profile) != BCAST_OK) {
        cli_error("infer: --profile takes trait, mlir, tosa, numpy or xla%s%s",
                  v ? ", not " : "", v ? v : "");
        rc = CLI_USAGE;
      }
    } else if (a[0] == '-' && a[1] == '-') {
      cli_error("infer: unknown option '%s' (see 'bcast infer --help')", a);
      rc = CLI_USAGE;
    } else if (!cli_parse_shape(a, &shapes[n++])) {
      rc = CLI_USAGE;
    }
  }
  if (rc == CLI_OK && n == 0) {
    cli_error("infer: give at least one SHAPE (see 'bcast infer --help')");
    rc = CLI_USAGE;
  }
  if (rc == CLI_OK) {
    bcast_shape out;
    bcast_diag diag;
    if (bcast_shape_infer(n, shapes, profile, &out, &diag) != BCAST_OK) {
      cli_diag("infer", &diag);
      rc = CLI_FAIL;
    } else {
      char text[BCAST_MAX_RANK * 21 + 4];
      bcast_shape_format(&out, BCAST_SHAPE_STYLE_LIST, text, sizeof text);
      printf("%s\n", text);
    }
  }
  free(shapes);
  return rc;
}
