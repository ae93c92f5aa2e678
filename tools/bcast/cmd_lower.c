/* bcast lower: print a module with its TOSA element-wise ops lowered to
 * linalg.generic (the TOSA-to-Linalg RFC's IR).  With -o FILE the module
 * goes to a durable output (bcast/output.h): a temporary file next to
 * FILE, renamed over it only when every op lowered; a failure leaves FILE
 * as it was. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

/* The --help of bcast lower; its options are options.c's rows. */
static const char lower_help_text[] =
    "usage: bcast lower [--only OP]... [--profile P] [--op-profile "
    "PATTERN=P]...\n"
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
    "written), 2 usage or I/O error.\n";

static const cli_help lower_help = {NULL, lower_help_text};

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
static void lower_print_stats(report_format format,
                              const bcast_emit_stats *stats) {
  if (format != REPORT_JSON) {
    fprintf(stderr, "%zu ops lowered, %zu maps, %zu copies, %zu asserts\n",
            stats->ops_lowered, stats->maps, stats->copies, stats->asserts);
    return;
  }
  const json_int_field counts[] = {
      {"ops_lowered", (int64_t)stats->ops_lowered},
      {"maps", (int64_t)stats->maps},
      {"copies", (int64_t)stats->copies},
      {"asserts", (int64_t)stats->asserts}};
  json_writer w;
  json_init(&w, stderr);
  json_int_line(&w, 4, counts);
}

/* The exit code of a lowering: a write error; each op that cannot be
 * lowered already reported by report_failure (the file's own failure
 * when none was); standard output flushed. */
static int lower_status(bcast_status st, const char *out_path,
                        failures *printed, const bcast_diag *diag) {
  if (st == BCAST_IO) {
    cli_error("lower: %s: write failed: %s", out_path ? out_path : "<stdout>",
              strerror(errno));
    return CLI_USAGE;
  }
  if (st != BCAST_OK) {
    if (printed->count == 0) {
      report_diag d;
      report_located_failure(&d, &printed->src, diag);
      report_emit(&printed->out, &d);
    }
    /* A malformed op fails the file like a failed check, as in bcast
     * verify and mlir-opt (exit 1); resources and I/O are 2. */
    return st == BCAST_PARSE ? CLI_FAIL : bcast_status_exit_class(st);
  }
  if (!out_path && fflush(stdout) != 0) {
    cli_error("lower: <stdout>: write failed: %s", strerror(errno));
    return CLI_USAGE;
  }
  return CLI_OK;
}

/* Lowers text to -o (a durable output, committed only when every op
 * lowered) or to standard output. */
static int lower_text(lower_opts *o, const char *text, size_t len,
                      failures *printed, bcast_emit_stats *stats,
                      bcast_diag *diag) {
  const char *out_path =
      o->out_path && strcmp(o->out_path, "-") ? o->out_path : NULL;
  bcast_output *out = NULL;
  if (out_path && bcast_output_open(out_path, &out, diag) != BCAST_OK) {
    cli_diag("lower", diag);
    return CLI_USAGE;
  }
  const bcast_status st =
      out ? bcast_emit_lower_module(text, len, &o->emit, write_output, out,
                                    stats, diag)
          : bcast_emit_lower_module(text, len, &o->emit, write_stream, stdout,
                                    stats, diag);
  int rc = lower_status(st, out_path, printed, diag);
  if (out && rc == CLI_OK && bcast_output_commit(out, diag) != BCAST_OK) {
    cli_diag("lower", diag);
    rc = CLI_USAGE;
  } else if (out && rc != CLI_OK) {
    bcast_output_discard(out);
  }
  return rc;
}

/* Reads the input and lowers it, reporting as it goes. */
static int lower_file(lower_opts *o) {
  const char *name = strcmp(o->file, "-") == 0 ? "<stdin>" : o->file;
  o->emit.source_name = name;
  size_t len;
  char *text = cli_read_file(o->file, &len, o->max_input_bytes);
  if (!text) return CLI_USAGE;
  failures printed;
  report_begin(&printed.out, o->format, stderr);
  report_cursor_init(&printed.src, name, text, len);
  printed.count = 0;
  o->emit.on_failure = report_failure;
  o->emit.failure_ctx = &printed;
  bcast_diag *diag = malloc(sizeof *diag);
  int rc = CLI_USAGE;
  bcast_emit_stats stats;
  if (!diag) {
    cli_error("out of memory");
    free(text);
    return CLI_USAGE;
  }
  rc = lower_text(o, text, len, &printed, &stats, diag);
  report_end(&printed.out);
  if (rc == CLI_OK && o->show_stats) lower_print_stats(o->format, &stats);
  free(diag);
  free(text);
  return rc;
}

/* The input file, the ops and rules, then the lowering. */
static int lower(void *opts) {
  lower_opts *o = opts;
  if (!o->file) {
    cli_error("lower: no input file (give FILE.mlir or - for stdin)");
    return CLI_USAGE;
  }
  if (o->only.n) {
    o->emit.only = o->only.ops;
    o->emit.n_only = o->only.n;
  }
  o->emit.rules = o->rules.rules;
  o->emit.n_rules = o->rules.n_rules;
  return lower_file(o);
}

int cmd_lower(int argc, char **argv) {
  lower_opts o;
  return cli_main("lower", &lower_help, &o, lower, argc, argv);
}
