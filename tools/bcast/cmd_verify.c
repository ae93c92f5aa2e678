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
  report_format format;
  int verify_diagnostics; /* check the file's expected-* annotations */
} verify_opts;

static void verify_help(FILE *out) {
  fprintf(out,
          "usage: bcast verify [--profile P] [--op NAME]... [--summary]\n"
          "                    [--format text|json|sarif]\n"
          "                    [--verify-diagnostics] [--split-input-file] FILE... | -\n"
          "\n"
          "Finds every broadcasting op in the .mlir files (generic or custom\n"
          "form, anywhere in the file) and checks its operand and result types.\n"
          "Checked ops: \"test.broadcastable\", the TOSA element-wise ops\n"
          "(tosa.add, tosa.select, ...; also the old names tosa.div and\n"
          "tosa.int_div), and any op given with --op.  A file with none of\n"
          "them is an error (at 1:1): nothing was verified.\n"
          "\n"
          "Failures print as mlir-opt prints them:\n"
          "  FILE:LINE:COL: error: 'OP' op MESSAGE\n"
          "  <the source line>\n"
          "  <a caret under the column>\n"
          "followed by bcast's own explanation as a 'note:' line.\n"
          "\n"
          "options:\n"
          "  --profile P   trait | mlir | tosa | numpy | xla.  Without it, tosa.*\n"
          "                ops follow 'tosa' (MLIR 22's TOSA dialect) and all\n"
          "                others 'trait' (the Broadcastable document).\n"
          "                'mlir' is what MLIR 22's trait verifier really does.\n"
          "  --op NAME     also check ops named NAME (repeatable)\n"
          "  --summary     print 'N ops checked, N failed' on stdout\n"
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
          "fails or cannot be read, or the file has no op to check, 2 usage\n"
          "or I/O error.\n");
}

static int want_op(const char *name, size_t len, void *ctx) {
  const verify_opts *o = ctx;
  if (len == 18 && memcmp(name, "test.broadcastable", 18) == 0) return 1;
  bcast_op op;
  if (len > 5 && memcmp(name, "tosa.", 5) == 0 &&
      bcast_op_lookup(name, len, &op) == BCAST_OK)
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
  for (;;) {
    int found;
    bcast_status st = bcast_mlir_scan_next(&scanner, op, &found, diag);
    if (!found) break;
    v->checked++;
    report_diag d;
    memset(&d, 0, sizeof d);
    d.loc.file = path;
    d.loc.line = op->line;
    d.loc.col = op->col;
    d.loc.src = op->name - op->generic - (op->col - 1);
    d.loc.src_end = text + len;
    d.severity = REPORT_ERROR;
    d.op = op->name;
    d.op_len = op->name_len;
    d.rule = bcast_status_name(st);
    char message[BCAST_DIAG_TEXT_MAX + BCAST_DIAG_MLIR_TEXT_MAX + 256];
    if (st != BCAST_OK) {
      v->failed++;
      d.message = diag->message;
      d.detail = diag;
      deliver(v, &d);
      continue;
    }
    bcast_profile profile = v->o->profile_given
                                ? v->o->profile
                                : bcast_mlir_default_profile(op->name, op->name_len);
    st = bcast_mlir_verify_op(op, profile, diag);
    if (st == BCAST_OK) continue;
    v->failed++;
    d.rule = bcast_status_name(st);
    /* MLIR's words for the failure when there are any, with MLIR's
     * "'OP' op " prefix where MLIR has one; then bcast's own as a note. */
    const char *what = diag->mlir_message[0] ? diag->mlir_message : diag->message;
    if (!diag->mlir_message[0] || diag->mlir_op_prefix)
      snprintf(message, sizeof message, "'%.*s' op %s",
               op->name_len > 200 ? 200 : (int)op->name_len, op->name, what);
    else
      snprintf(message, sizeof message, "%s", what);
    d.message = message;
    if (diag->mlir_message[0]) {
      d.n_notes = 1;
      d.notes[0].loc = d.loc;
      d.notes[0].message = diag->message;
      d.notes[0].detail = diag;
      d.notes[0].profile = bcast_profile_name(profile);
      d.notes[0].optional = 1;
    } else {
      d.detail = diag;
    }
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
    char *text = cli_read_file(files[f], &len);
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
  if (io_error || no_memory) return CLI_USAGE;
  if (o.verify_diagnostics) {
    /* The ops' own failures were expected or reported as mismatches; only
     * a file with no op at all fails by itself. */
    return mismatch || v.files_without_ops ? CLI_FAIL : CLI_OK;
  }
  return v.failed ? CLI_FAIL : CLI_OK;
}
