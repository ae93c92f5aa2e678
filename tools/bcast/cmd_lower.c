/* bcast lower: print a module with its TOSA element-wise ops lowered to
 * linalg.generic (the TOSA-to-Linalg RFC's IR).  With -o FILE the module
 * goes to a durable output (bcast/output.h): a temporary file next to
 * FILE, renamed over it only when every op lowered; a failure leaves FILE
 * as it was. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report.h"

static void lower_help(FILE *out) {
  fprintf(out,
          "usage: bcast lower [--only OP]... [--profile P] [--op-profile PATTERN=P]...\n"
          "                   [--assert-broadcast] [--stats] [--format text|json]\n"
          "                   [--max-input-bytes N]\n"
          "                   [-o OUT] FILE.mlir | -\n"
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
          "  --profile P         the profile of ops no rule claims; the tosa.*\n"
          "                      ops that lower rewrites follow tosa (equal\n"
          "                      ranks) unless --op-profile maps them\n"
          "  --op-profile PATTERN=P  lower ops matching PATTERN (an op name,\n"
          "                      DIALECT.* or *) under profile P: tosa | trait |\n"
          "                      mlir | numpy (lower ranks get leading 1s via\n"
          "                      tensor.expand_shape) | xla; repeatable, the\n"
          "                      last matching rule wins ('tosa.*=trait')\n"
          "  --assert-broadcast  emit cf.assert checks that each dynamic dim\n"
          "                      taking part in a broadcast is 1 or the\n"
          "                      broadcast size at run time\n"
          "  --stats             print 'N ops lowered, N maps, N copies,\n"
          "                      N asserts' on stderr\n"
          "  --format F          text (default) | json: the --stats line and\n"
          "                      the diagnostics as JSON objects on stderr\n"
          "  -o OUT              write the module to OUT (via a synced temporary\n"
          "                      file and rename, see 'How outputs are written'\n"
          "                      in docs/cli.md; '-' is stdout, the default)\n"
          "  --max-input-bytes N read at most N bytes of MLIR (K/M/G suffix;\n"
          "                      default 1G); a larger input is an error (2)\n"
          "  -h, --help          this text\n"
          "\n"
          "Every op that cannot be lowered is reported, in source order, with\n"
          "the error and note bcast verify prints for it.\n"
          "\n"
          "exit status: 0 lowered, 1 an op cannot be lowered (nothing is\n"
          "written), 2 usage or I/O error.\n");
}

static bcast_status write_stream(void *ctx, const char *data, size_t len) {
  FILE *f = ctx;
  return fwrite(data, 1, len, f) == len ? BCAST_OK : BCAST_IO;
}

static bcast_status write_output(void *ctx, const char *data, size_t len) {
  return bcast_output_write(ctx, data, len);
}

/* Reports each op that cannot be lowered as it comes: a failed check as
 * bcast verify reports it, anything else at the "LINE:COL: " its message
 * starts with. */
typedef struct failures {
  reporter out;
  report_cursor src;
  size_t count;
} failures;

static void report_failure(void *ctx, const bcast_emit_failure *f) {
  failures *fl = ctx;
  report_diag d;
  fl->count++;
  if (f->verified) {
    report_located_failure(&d, &fl->src, f->diag);
  } else {
    char message[BCAST_DIAG_TEXT_MAX + BCAST_DIAG_MLIR_TEXT_MAX + 256];
    memset(&d, 0, sizeof d);
    d.loc = report_cursor_loc(&fl->src, f->line, f->col);
    d.op = f->op_name;
    d.op_len = f->op_name_len;
    report_op_failure(&d, message, sizeof message, f->profile, f->diag);
    report_emit(&fl->out, &d);
    return;
  }
  report_emit(&fl->out, &d);
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

int cmd_lower(int argc, char **argv) {
  bcast_emit_options o;
  bcast_emit_options_init(&o);
  bcast_op only[BCAST_OP_COUNT];
  size_t n_only = 0;
  const char *file = NULL, *out_path = NULL;
  int show_stats = 0, got;
  int64_t max_input_bytes = CLI_DEFAULT_MAX_INPUT_BYTES;
  report_format format = REPORT_TEXT;
  cli_op_profiles rules;
  rules.n_rules = 0;
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
    } else if ((got = cli_op_profile_option("lower", argc, argv, &i, a,
                                            &rules)) != 0) {
      if (got < 0) return CLI_USAGE;
    } else if (!strcmp(a, "-o")) {
      if (i + 1 >= argc || !argv[i + 1][0]) {
        cli_error("lower: -o takes an output file (or - for stdout)");
        return CLI_USAGE;
      }
      out_path = argv[++i];
    } else if (cli_option_is(a, "--max-input-bytes")) {
      const char *value =
          cli_option_value(argc, argv, &i, "--max-input-bytes", a);
      if (!value || !cli_parse_bytes(value, &max_input_bytes)) return CLI_USAGE;
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
  o.rules = rules.rules;
  o.n_rules = rules.n_rules;
  const char *name = strcmp(file, "-") == 0 ? "<stdin>" : file;
  o.source_name = name;
  size_t len;
  char *text = cli_read_file(file, &len, max_input_bytes);
  if (!text) return CLI_USAGE;
  failures printed;
  report_begin(&printed.out, format, stderr);
  report_cursor_init(&printed.src, name, text, len);
  printed.count = 0;
  o.on_failure = report_failure;
  o.failure_ctx = &printed;
  bcast_diag *diag = malloc(sizeof *diag);
  if (!diag) {
    free(text);
    cli_error("out of memory");
    return CLI_USAGE;
  }
  if (out_path && !strcmp(out_path, "-")) out_path = NULL;
  bcast_output *out = NULL;
  if (out_path && bcast_output_open(out_path, &out, diag) != BCAST_OK) {
    cli_diag("lower", diag);
    free(diag);
    free(text);
    return CLI_USAGE;
  }
  bcast_emit_stats stats;
  bcast_status st = out ? bcast_emit_lower_module(text, len, &o, write_output,
                                                  out, &stats, diag)
                        : bcast_emit_lower_module(text, len, &o, write_stream,
                                                  stdout, &stats, diag);
  int rc = CLI_OK;
  if (st == BCAST_IO) {
    cli_error("lower: %s: write failed: %s", out_path ? out_path : "<stdout>",
              strerror(errno));
    rc = CLI_USAGE;
  } else if (st != BCAST_OK) {
    if (printed.count == 0) {
      report_diag d;
      report_located_failure(&d, &printed.src, diag);
      report_emit(&printed.out, &d);
    }
    /* Every failing op was reported by report_failure.  A malformed op fails
     * the file like a failed check, as in bcast verify and mlir-opt (exit
     * 1); resources and I/O are 2. */
    rc = st == BCAST_PARSE ? CLI_FAIL : bcast_status_exit_class(st);
  } else if (!out && fflush(stdout) != 0) {
    cli_error("lower: <stdout>: write failed: %s", strerror(errno));
    rc = CLI_USAGE;
  }
  if (out && rc == CLI_OK) {
    if (bcast_output_commit(out, diag) != BCAST_OK) {
      cli_diag("lower", diag);
      rc = CLI_USAGE;
    }
  } else if (out) {
    bcast_output_discard(out);
  }
  report_end(&printed.out);
  if (rc == CLI_OK && show_stats) lower_print_stats(format, &stats);
  free(diag);
  free(text);
  return rc;
}
