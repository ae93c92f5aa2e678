/* bcast verify: check the broadcasting ops of .mlir files, printing
 * diagnostics the way mlir-opt does. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report.h"
#include "verify_diag.h"

#define MAX_EXTRA_OPS 64

typedef struct verify_opts {
  int profile_given;
  bcast_profile profile;
  const char *extra_ops[MAX_EXTRA_OPS];
  int n_extra_ops;
  cli_op_profiles op_profiles;
  report_format format;
  int verify_diagnostics; /* check the file's expected-* annotations */
  int64_t max_input_bytes;
} verify_opts;

static void verify_help(FILE *out) {
  fprintf(out,
          "usage: bcast verify [--profile P] [--op-profile PATTERN=P]... [--op NAME]...\n"
          "                    [--summary] [--max-input-bytes N]\n"
          "                    [--format text|json|sarif]\n"
          "                    [--verify-diagnostics] [--split-input-file] FILE... | -\n"
          "\n"
          "Finds every broadcasting op in the .mlir files (generic or custom\n"
          "form, anywhere in the file) and checks its operand and result types.\n"
          "Checked ops: \"test.broadcastable\", the TOSA element-wise ops\n"
          "(tosa.add, tosa.select, ...; also the old names tosa.div and\n"
          "tosa.int_div), CHLO's chlo.broadcast_* ops, and any op given with\n"
          "--op or named exactly by --op-profile.  An op other than a TOSA\n"
          "op that carries broadcast_dimensions (array<i64: ...> or\n"
          "dense<...> : tensor<Nxi64>) is checked under XLA's explicit rule.\n"
          "A file with none of them is an error (at 1:1): nothing was\n"
          "verified.\n"
          "\n"
          "Failures print as mlir-opt prints them:\n"
          "  FILE:LINE:COL: error: 'OP' op MESSAGE\n"
          "  <the source line>\n"
          "  <a caret under the column>\n"
          "followed by bcast's own explanation as a 'note:' line.\n"
          "\n"
          "options:\n"
          "  --profile P   trait | mlir | tosa | numpy | xla for the ops no\n"
          "                rule claims (default 'trait', the Broadcastable\n"
          "                document; 'mlir' is what MLIR 22's trait verifier\n"
          "                really does).  tosa.* ops follow 'tosa' (MLIR 22's\n"
          "                TOSA dialect) unless --op-profile maps them.\n"
          "  --op-profile PATTERN=P  check ops matching PATTERN (an op name,\n"
          "                DIALECT.* or *) under profile P; repeatable, the\n"
          "                last matching rule wins\n"
          "  --op NAME     also check ops named NAME (repeatable)\n"
          "  --summary     print 'N ops checked, N failed' on stdout\n"
          "  --max-input-bytes N\n"
          "                read at most N bytes of a file (K/M/G suffix;\n"
          "                default 1G); a larger one is an error (exit 2)\n"
          "  --format F    text (default, on stderr) | json (one object per\n"
          "                diagnostic and line, on stdout) | sarif (a SARIF\n"
          "                2.1.0 log on stdout)\n"
          "  --verify-diagnostics\n"
          "                check the diagnostics against the file's\n"
          "                '// expected-error {{...}}' annotations as\n"
          "                mlir-opt --verify-diagnostics does: print only the\n"
          "                mismatches, exit 0 when there are none\n"
          "  --split-input-file\n"
          "                accepted for mlir-opt's command lines; bcast checks\n"
          "                every op of a file either way (mlir-opt stops at\n"
          "                the first failing op of each '// -----' part)\n"
          "  -h, --help    this text\n"
          "\n"
          "exit status: 0 all ops pass (or, with --verify-diagnostics, every\n"
          "diagnostic was expected and every expected one produced), 1 an op\n"
          "fails or cannot be read, or the file has no op to check, 2 usage,\n"
          "I/O error, out of memory or a file over --max-input-bytes.\n");
}

static int want_op(const char *name, size_t len, void *ctx) {
  const verify_opts *o = ctx;
  if (bcast_mlir_is_broadcasting_op(name, len) ||
      cli_op_profile_names(&o->op_profiles, name, len))
    return 1;
  for (int i = 0; i < o->n_extra_ops; i++)
    if (strlen(o->extra_ops[i]) == len && memcmp(o->extra_ops[i], name, len) == 0)
      return 1;
  return 0;
}

/* The state of one run over all files. */
typedef struct verify_run {
  const verify_opts *o;
  reporter out;
  vmatch match;
  long checked, failed;
  long files_without_ops;
  long no_memory; /* ops the checks ran out of memory on */
} verify_run;

/* Hands a diagnostic to the annotation matcher or prints it. */
static void deliver(verify_run *v, const report_diag *d) {
  if (v->o->verify_diagnostics) vmatch_diag(&v->match, d);
  else report_emit(&v->out, d);
}

/* Checks the ops of one file's text. */
static void verify_text(verify_run *v, const char *path, const char *text,
                        size_t len) {
  bcast_mlir_scanner scanner;
  bcast_mlir_scanner_init(&scanner, text, len, want_op, (void *)v->o);
  /* An op is a few KB: it lives on the stack. */
  bcast_mlir_op op_storage;
  bcast_diag diag_storage;
  bcast_mlir_op *op = &op_storage;
  bcast_diag *diag = &diag_storage;
  report_cursor src;
  report_cursor_init(&src, path, text, len);
  for (;;) {
    int found;
    bcast_status st = bcast_mlir_scan_next(&scanner, op, &found, diag);
    if (!found) break;
    v->checked++;
    report_diag d;
    memset(&d, 0, sizeof d);
    d.loc = report_cursor_loc(&src, op->line, op->col);
    d.severity = REPORT_ERROR;
    d.op = op->name;
    d.op_len = op->name_len;
    d.rule = bcast_status_name(st);
    char message[BCAST_DIAG_TEXT_MAX + BCAST_DIAG_MLIR_TEXT_MAX + 256];
    if (st == BCAST_NO_MEMORY) v->no_memory++;
    if (st != BCAST_OK) {
      v->failed++;
      d.message = diag->message;
      d.detail = diag;
      deliver(v, &d);
      continue;
    }
    bcast_mlir_verify_options vo = {
        v->o->profile_given ? v->o->profile : BCAST_PROFILE_TRAIT,
        v->o->op_profiles.rules, v->o->op_profiles.n_rules};
    bcast_mlir_verdict verdict;
    st = bcast_mlir_verify(op, &vo, &verdict, diag);
    if (st == BCAST_OK) continue;
    if (st == BCAST_NO_MEMORY) v->no_memory++;
    v->failed++;
    d.loc = report_cursor_loc(&src, verdict.line, verdict.col);
    report_op_failure(&d, message, sizeof message, verdict.profile, diag);
    deliver(v, &d);
  }
}

/* Checks one file's text.  As in mlir-opt 22, the annotations are read
 * from the whole file first, and the unmatched ones are reported at its
 * end. */
static void verify_file(verify_run *v, const char *path, const char *text,
                        size_t len) {
  long checked_before = v->checked;
  if (v->o->verify_diagnostics) vmatch_begin(&v->match, path, text, len);
  verify_text(v, path, text, len);
  if (v->o->verify_diagnostics) vmatch_end(&v->match);
  if (v->checked == checked_before) {
    /* Nothing was verified: say so rather than pass (mlir-opt would not
     * parse a file that is not MLIR either).  Not subject to annotations. */
    report_diag d;
    memset(&d, 0, sizeof d);
    d.loc = report_loc_at(path, text, len, 0);
    d.severity = REPORT_ERROR;
    d.rule = "no-ops";
    d.message = "no op to check: found no TOSA element-wise op, "
                "\"test.broadcastable\" or --op op in the file";
    report_emit(&v->out, &d);
    v->failed++;
    v->files_without_ops++;
  }
}

int cmd_verify(int argc, char **argv) {
  verify_opts o;
  memset(&o, 0, sizeof o);
  o.max_input_bytes = CLI_DEFAULT_MAX_INPUT_BYTES;
  int summary = 0, n_files = 0;
  const char **files = calloc((size_t)argc, sizeof *files);
  if (!files) {
    cli_error("out of memory");
    return CLI_USAGE;
  }
  int rc = CLI_OK;
  for (int i = 1; i < argc && rc == CLI_OK; i++) {
    const char *a = argv[i];
    int got;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      verify_help(stdout);
      free(files);
      return CLI_OK;
    } else if ((got = cli_profile_option("verify", argc, argv, &i, a,
                                         &o.profile)) != 0) {
      if (got < 0) rc = CLI_USAGE;
      o.profile_given = 1;
    } else if ((got = cli_op_profile_option("verify", argc, argv, &i, a,
                                            &o.op_profiles)) != 0) {
      if (got < 0) rc = CLI_USAGE;
    } else if (!strcmp(a, "--op")) {
      if (i + 1 >= argc || o.n_extra_ops == MAX_EXTRA_OPS) {
        cli_error("verify: --op takes an op name (at most %d)", MAX_EXTRA_OPS);
        rc = CLI_USAGE;
      } else {
        o.extra_ops[o.n_extra_ops++] = argv[++i];
      }
    } else if (cli_option_is(a, "--format")) {
      const char *value = cli_option_value(argc, argv, &i, "--format", a);
      if (!value || !report_format_parse("verify", value, 1, &o.format))
        rc = CLI_USAGE;
    } else if (!strcmp(a, "--verify-diagnostics")) {
      o.verify_diagnostics = 1;
    } else if (!strcmp(a, "--split-input-file")) {
      /* mlir-opt's flag, accepted so its command lines work: bcast checks
       * every op either way. */
    } else if (!strcmp(a, "--summary")) {
      summary = 1;
    } else if (cli_option_is(a, "--max-input-bytes")) {
      const char *value =
          cli_option_value(argc, argv, &i, "--max-input-bytes", a);
      if (!value || !cli_parse_bytes(value, &o.max_input_bytes))
        rc = CLI_USAGE;
    } else if (a[0] == '-' && a[1] != '\0') {
      cli_error("verify: unknown option '%s' (see 'bcast verify --help')", a);
      rc = CLI_USAGE;
    } else {
      files[n_files++] = a;
    }
  }
  if (rc == CLI_OK && n_files == 0) {
    cli_error("verify: no input files (give FILE... or - for stdin)");
    rc = CLI_USAGE;
  }
  if (rc != CLI_OK) {
    free(files);
    return rc;
  }
  verify_run v;
  memset(&v, 0, sizeof v);
  v.o = &o;
  /* Text goes to stderr as mlir-opt's does; JSON and SARIF are the
   * command's output. */
  report_begin(&v.out, o.format, o.format == REPORT_TEXT ? stderr : stdout);
  if (o.verify_diagnostics) vmatch_init(&v.match, &v.out);
  int io_error = 0;
  for (int f = 0; f < n_files; f++) {
    size_t len;
    char *text = cli_read_file(files[f], &len, o.max_input_bytes);
    if (!text) {
      io_error = 1;
      continue;
    }
    const char *name = strcmp(files[f], "-") == 0 ? "<stdin>" : files[f];
    verify_file(&v, name, text, len);
    free(text);
  }
  free(files);
  if (summary && o.format == REPORT_JSON) {
    json_writer *w = &v.out.json;
    json_object_begin(w);
    json_key(w, "summary");
    json_object_begin(w);
    json_key(w, "ops_checked");
    json_int(w, v.checked);
    json_key(w, "failed");
    json_int(w, v.failed);
    json_object_end(w);
    json_object_end(w);
    json_line_end(w);
  }
  report_end(&v.out);
  if (summary && o.format != REPORT_JSON) /* SARIF owns stdout */
    fprintf(o.format == REPORT_SARIF ? stderr : stdout,
            "%ld ops checked, %ld failed\n", v.checked, v.failed);
  int mismatch = 0, no_memory = 0;
  if (o.verify_diagnostics) {
    mismatch = v.match.failed;
    no_memory = v.match.no_memory;
    vmatch_free(&v.match);
  }
  if (no_memory) cli_error("verify: out of memory reading the annotations");
  /* Running out of memory is a resource failure like I/O (2), not a
   * verdict on the ops (1). */
  if (io_error || no_memory || v.no_memory) return CLI_USAGE;
  if (o.verify_diagnostics) {
    /* The ops' own failures were expected or reported as mismatches; only
     * a file with no op at all fails by itself. */
    return mismatch || v.files_without_ops ? CLI_FAIL : CLI_OK;
  }
  return v.failed ? CLI_FAIL : CLI_OK;
}
