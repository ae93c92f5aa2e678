/* bcast lower: print a module with its TOSA element-wise ops lowered to
 * linalg.generic (the TOSA-to-Linalg RFC's IR). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report.h"

static void lower_help(FILE *out) {
  fprintf(out,
          "usage: bcast lower [--only OP]... [--profile P] [--assert-broadcast]\n"
          "                   [--stats] [--format text|json] FILE.mlir | -\n"
          "\n"
          "Prints the module with every TOSA element-wise op (tosa.add,\n"
          "tosa.select, ... the 36 ops of the TOSA-to-Linalg RFC, generic or\n"
          "custom form) replaced by tensor.empty + linalg.generic, with\n"
          "arith.maxui / arith.cmpi / scf.if broadcasting copies for dynamic\n"
          "dims that may be 1, tensor.expand_shape for rank expansion and\n"
          "tensor.cast to the declared result type.  Everything else is copied\n"
          "through unchanged.  Affine map aliases (#bcast_map0, ...) are\n"
          "written at the top.\n"
          "\n"
          "options:\n"
          "  --only OP           lower only OP (tosa.add or add; repeatable)\n"
          "  --profile P         shape rules: tosa (default for tosa ops: equal\n"
          "                      ranks) | trait | mlir | numpy (lower ranks get\n"
          "                      leading 1s via tensor.expand_shape) | xla\n"
          "  --assert-broadcast  emit cf.assert checks that each dynamic dim\n"
          "                      taking part in a broadcast is 1 or the\n"
          "                      broadcast size at run time\n"
          "  --stats             print 'N ops lowered, N maps, N copies,\n"
          "                      N asserts' on stderr\n"
          "  --format F          text (default) | json: the --stats line and\n"
          "                      the diagnostics as JSON objects on stderr\n"
          "  -h, --help          this text\n"
          "\n"
          "exit status: 0 lowered, 1 an op cannot be lowered (nothing is\n"
          "printed), 2 usage or I/O error.\n");
}

static bcast_status write_stdout(void *ctx, const char *data, size_t len) {
  FILE *f = ctx;
  return fwrite(data, 1, len, f) == len ? BCAST_OK : BCAST_IO;
}

/* The --stats counts, as text or as one JSON object, on stderr. */
static void lower_print_stats(report_format format, const bcast_emit_stats *stats) {
  if (format != REPORT_JSON) {
    fprintf(stderr, "%zu ops lowered, %zu maps, %zu copies, %zu asserts\n",
            stats->ops_lowered, stats->maps, stats->copies, stats->asserts);
    return;
  }
  json_writer w;
  json_init(&w, stderr);
  json_object_begin(&w);
  json_key(&w, "ops_lowered");
  json_int(&w, (int64_t)stats->ops_lowered);
  json_key(&w, "maps");
  json_int(&w, (int64_t)stats->maps);
  json_key(&w, "copies");
  json_int(&w, (int64_t)stats->copies);
  json_key(&w, "asserts");
  json_int(&w, (int64_t)stats->asserts);
  json_object_end(&w);
  json_line_end(&w);
}

/* A lowering failure as one JSON diagnostic object on stderr.  Library
 * messages start "LINE:COL: "; they become the location. */
static void lower_print_error_json(const char *name, const bcast_diag *diag) {
  const char *msg = diag->message;
  unsigned line = 0, col = 0;
  int used = 0;
  report_diag d;
  memset(&d, 0, sizeof d);
  d.loc.file = name;
  if (sscanf(msg, "%u:%u: %n", &line, &col, &used) == 2 && used > 0) {
    d.loc.line = line;
    d.loc.col = col;
    msg += used;
  }
  d.severity = REPORT_ERROR;
  d.message = msg;
  d.rule = bcast_status_name(diag->status);
  d.detail = diag;
  reporter r;
  report_begin(&r, REPORT_JSON, stderr);
  report_emit(&r, &d);
}

int cmd_lower(int argc, char **argv) {
  report_format format = REPORT_TEXT;
  bcast_emit_options o;
  bcast_emit_options_init(&o);
  bcast_op only[BCAST_OP_COUNT];
  size_t n_only = 0;
  const char *file = NULL;
  int show_stats = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      lower_help(stdout);
      return CLI_OK;
    } else if (!strcmp(a, "--only")) {
      bcast_op op;
      if (i + 1 >= argc || bcast_op_lookup(argv[i + 1], strlen(argv[i + 1]), &op) != BCAST_OK) {
        cli_error("lower: --only takes a TOSA element-wise op name%s%s",
                  i + 1 < argc ? ", not " : "", i + 1 < argc ? argv[i + 1] : "");
        return CLI_USAGE;
      }
      i++;
      if (n_only < BCAST_OP_COUNT) only[n_only++] = op;
    } else if (!strcmp(a, "--profile")) {
      if (i + 1 >= argc || bcast_profile_parse(argv[i + 1], &o.profile) != BCAST_OK) {
        cli_error("lower: --profile takes trait, mlir, tosa, numpy or xla");
        return CLI_USAGE;
      }
      i++;
      o.profile_given = 1;
    } else if (!strcmp(a, "--assert-broadcast")) {
      o.assert_broadcast = 1;
    } else if (!strcmp(a, "--stats")) {
      show_stats = 1;
    } else if (cli_option_is(a, "--format")) {
      const char *value = cli_option_value(argc, argv, &i, "--format", a);
      if (!value || !report_format_parse("lower", value, 0, &format))
        return CLI_USAGE;
    } else if (a[0] == '-' && a[1] != '\0') {
      cli_error("lower: unknown option '%s' (see 'bcast lower --help')", a);
      return CLI_USAGE;
    } else if (file) {
      cli_error("lower: give one input file (or - for stdin)");
      return CLI_USAGE;
    } else {
      file = a;
    }
  }
  if (!file) {
    cli_error("lower: no input file (give FILE.mlir or - for stdin)");
    return CLI_USAGE;
  }
  if (n_only) {
    o.only = only;
    o.n_only = n_only;
  }
  const char *name = strcmp(file, "-") == 0 ? "<stdin>" : file;
  o.source_name = name;
  size_t len;
  char *text = cli_read_file(file, &len);
  if (!text) return CLI_USAGE;
  bcast_diag *diag = malloc(sizeof *diag);
  if (!diag) {
    free(text);
    cli_error("out of memory");
    return CLI_USAGE;
  }
  bcast_emit_stats stats;
  bcast_status st = bcast_emit_lower_module(text, len, &o, write_stdout, stdout, &stats, diag);
  int rc = CLI_OK;
  if (st == BCAST_IO) {
    cli_error("lower: writing the output failed");
    rc = CLI_USAGE;
  } else if (st != BCAST_OK && format == REPORT_JSON) {
    lower_print_error_json(name, diag);
    rc = st == BCAST_PARSE ? CLI_FAIL : bcast_status_exit_class(st);
  } else if (st != BCAST_OK) {
    /* Library messages start "LINE:COL: "; print them as mlir-opt does. */
    const char *msg = diag->message, *rest = msg;
    while ((*rest >= '0' && *rest <= '9') || *rest == ':') rest++;
    if (rest > msg && rest[-1] == ':' && *rest == ' ')
      fprintf(stderr, "%s:%.*s error:%s\n", name, (int)(rest - msg), msg, rest);
    else
      fprintf(stderr, "%s: error: %s\n", name, msg);
    /* A malformed op fails the file like a failed check, as in
     * bcast verify and mlir-opt (exit 1); resources and I/O are 2. */
    rc = st == BCAST_PARSE ? CLI_FAIL : bcast_status_exit_class(st);
  } else if (fflush(stdout) != 0) {
    cli_error("lower: writing the output failed");
    rc = CLI_USAGE;
  } else if (show_stats) {
    lower_print_stats(format, &stats);
  }
  free(diag);
  free(text);
  return rc;
}
