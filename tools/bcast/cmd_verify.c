/* bcast verify: check the broadcasting ops of .mlir files, printing
 * diagnostics the way mlir-opt does. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "report.h"
#include "verify_diag.h"

/* The --help of bcast verify; its options are options.c's rows. */
static const char verify_help_text[] =
    "usage: bcast verify [--profile P] [--op-profile PATTERN=P]... [--op "
    "NAME]...\n"
    "                    [--no-dialect D]... [--chlo-rule chlo|xla] "
    "[--strict]\n"
    "                    [--tosa-validate]\n"
    "                    [--summary] [--max-input-bytes N]\n"
    "                    [--format text|json|sarif]\n"
    "                    [--verify-diagnostics] [--split-input-file] FILE... "
    "| -\n"
    "\n"
    "Finds every broadcasting op in the .mlir files (generic or custom\n"
    "form, anywhere in the file) and checks its operand and result types.\n"
    "Checked ops: \"test.broadcastable\", the TOSA element-wise ops\n"
    "(tosa.add, tosa.select, ...; also the old names tosa.div and\n"
    "tosa.int_div), StableHLO's stablehlo.broadcast, broadcast_in_dim\n"
    "and dynamic_broadcast_in_dim, CHLO's chlo.broadcast_* ops, and any\n"
    "op given with --op or named exactly by --op-profile.  StableHLO's\n"
    "and CHLO's ops are judged as their own verifiers judge them, in\n"
    "their words (docs/stablehlo.md); with --op, StableHLO's element-wise\n"
    "ops (stablehlo.add, ...) are checked for one shape.  Another op\n"
    "that carries broadcast_dimensions (array<i64: ...> or\n"
    "dense<...> : tensor<Nxi64>) is checked under XLA's explicit rule.\n"
    "An op bcast cannot model (an unknown tensor encoding or quantized\n"
    "type) gets a remark 'cannot check: REASON', not a verdict.\n"
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
    "  --no-dialect D  do not check the ops of dialect D (tosa,\n"
    "                stablehlo or chlo) by default (repeatable)\n"
    "  --chlo-rule R chlo (default: CHLO's verifier, where an illegal\n"
    "                broadcast_dimensions infers an unranked result that\n"
    "                any result type matches) or xla (XLA's rule: an\n"
    "                illegal broadcast_dimensions is an error)\n"
    "  --strict      an op bcast cannot check is an error (exit 1)\n"
    "  --tosa-validate\n"
    "                also the type checks of mlir-opt's -tosa-validate\n"
    "                pass on the TOSA ops (target pro_int, pro_fp and\n"
    "                every extension but int64, strict-op-spec-alignment):\n"
    "                element types outside TOSA, and signatures in none\n"
    "                of TOSA 1.0's profile and extension tables\n"
    "  --summary     print 'N ops checked, N failed, N cannot check, N\n"
    "                ops of tosa, stablehlo or chlo not checked' on stdout\n"
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
    "I/O error, out of memory or a file over --max-input-bytes.\n";

static const cli_help verify_help = {NULL, verify_help_text};

/* The state of one run over all files. */
typedef struct verify_run {
  const verify_opts *o;
  reporter out;
  vmatch match;
  long checked, failed;
  long cannot_check, skipped_known;
  long files_without_ops;
  long no_memory; /* ops the checks ran out of memory on */
} verify_run;

/* One file's checks as they come. */
typedef struct verify_file_run {
  verify_run *v;
  report_cursor src;
} verify_file_run;

/* One diagnostic: to the annotation matcher or printed. */
static void verify_emit(verify_run *v, const report_diag *d) {
  if (v->o->verify_diagnostics)
    vmatch_diag(&v->match, d);
  else
    report_emit(&v->out, d);
}

/* Reports a failed op, or one bcast cannot check (a remark, an error
 * under --strict). */
static int report_checked(void *ctx, const bcast_mlir_checked *c) {
  verify_file_run *f = ctx;
  verify_run *v = f->v;
  /* mlir-opt says nothing of a dropped nan_mode: no annotation can expect
   * the warning, so --verify-diagnostics leaves it out. */
  if (!v->o->verify_diagnostics) report_nan_mode_warning(&v->out, &f->src, c->op);
  if (c->outcome == BCAST_MLIR_PASSED) return 0;
  if (c->status == BCAST_NO_MEMORY) v->no_memory++;
  report_diag d;
  memset(&d, 0, sizeof d);
  d.loc = report_cursor_loc(&f->src, c->verdict.line, c->verdict.col);
  d.op = c->op->name;
  d.op_len = c->op->name_len;
  char message[BCAST_DIAG_TEXT_MAX + BCAST_DIAG_MLIR_TEXT_MAX + 256];
  if (c->outcome == BCAST_MLIR_CANNOT_CHECK) {
    bcast_mlir_diag_format(d.op, d.op_len > 200 ? 200 : d.op_len, c->diag,
                           message, sizeof message);
    d.severity = v->o->strict ? REPORT_ERROR : REPORT_REMARK;
    d.rule = "cannot-check";
    d.message = message;
    verify_emit(v, &d);
    return 0;
  }
  if (c->read) {
    report_op_failure(&d, message, sizeof message, c->verdict.profile,
                      c->diag);
  } else {
    d.severity = REPORT_ERROR;
    d.rule = bcast_status_name(c->status);
    d.message = c->diag->message;
    d.detail = c->diag;
  }
  verify_emit(v, &d);
  if (c->read && c->verdict.infer_failed) {
    /* StableHLO and CHLO report a failed type inference twice: its reason,
     * then this. */
    char again[256];
    report_diag d2;
    memset(&d2, 0, sizeof d2);
    d2.loc = d.loc;
    d2.op = d.op;
    d2.op_len = d.op_len;
    d2.severity = REPORT_ERROR;
    d2.rule = d.rule;
    snprintf(again, sizeof again, "'%.*s' op failed to infer returned types",
             (int)(d.op_len > 200 ? 200 : d.op_len), d.op);
    d2.message = again;
    verify_emit(v, &d2);
  }
  return 0;
}

/* Checks the ops of one file's text. */
static void verify_text(verify_run *v, const char *path, const char *text,
                        size_t len) {
  const verify_opts *o = v->o;
  bcast_mlir_verify_options vo;
  bcast_mlir_verify_options_init(&vo);
  if (o->profile.given) vo.profile = o->profile.profile;
  vo.rules = o->op_profiles.rules;
  vo.n_rules = o->op_profiles.n_rules;
  vo.ops = o->extra_ops.spans;
  vo.n_ops = o->extra_ops.n;
  vo.off_dialects = o->off_dialects;
  vo.chlo_xla_rule = o->chlo_xla_rule;
  vo.tosa_validate = o->tosa_validate;
  verify_file_run f = {v, {0}};
  report_cursor_init(&f.src, path, text, len);
  bcast_mlir_counts counts;
  bcast_mlir_verify_text(text, len, &vo, report_checked, &f, &counts, NULL);
  v->checked += (long)counts.checked;
  v->failed += (long)counts.failed;
  v->cannot_check += (long)counts.cannot_check;
  v->skipped_known += (long)counts.skipped_known;
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
    d.message = "no op to check: found no TOSA element-wise op, StableHLO "
                "or CHLO broadcasting op, \"test.broadcastable\" or --op op "
                "in the file";
    report_emit(&v->out, &d);
    v->failed++;
    v->files_without_ops++;
  }
}

/* Reads and checks every file; 1 when one could not be read (reported). */
static int verify_files(verify_run *v) {
  int io_error = 0;
  const cli_args *files = &v->o->files;
  for (int f = 0; f < files->n; f++) {
    size_t len;
    char *text = cli_read_file(files->items[f], &len, v->o->max_input_bytes);
    if (!text) {
      io_error = 1;
      continue;
    }
    const char *name =
        strcmp(files->items[f], "-") == 0 ? "<stdin>" : files->items[f];
    verify_file(v, name, text, len);
    free(text);
  }
  return io_error;
}

/* --summary as a JSON object among the diagnostics. */
static void summary_json(verify_run *v) {
  const json_int_field counts[] = {{"ops_checked", v->checked},
                                   {"failed", v->failed},
                                   {"cannot_check", v->cannot_check},
                                   {"skipped_known", v->skipped_known}};
  json_writer *w = &v->out.json;
  json_object_begin(w);
  json_key(w, "summary");
  json_object_begin(w);
  json_int_fields(w, 4, counts);
  json_object_end(w);
  json_object_end(w);
  json_line_end(w);
}

/* --summary as text: on stdout, or on stderr beside SARIF, which owns
 * stdout. */
static void summary_text(const verify_run *v) {
  fprintf(v->o->format == REPORT_SARIF ? stderr : stdout,
          "%ld ops checked, %ld failed, %ld cannot check, %ld ops of tosa, "
          "stablehlo or chlo not checked\n",
          v->checked, v->failed, v->cannot_check, v->skipped_known);
}

/* The exit code of a run over every file. */
static int verify_exit(verify_run *v, int io_error) {
  int mismatch = 0, no_memory = 0;
  if (v->o->verify_diagnostics) {
    mismatch = v->match.failed;
    no_memory = v->match.no_memory;
    vmatch_free(&v->match);
  }
  if (no_memory) cli_error("verify: out of memory reading the annotations");
  /* Running out of memory is a resource failure like I/O (2), not a
   * verdict on the ops (1). */
  if (io_error || no_memory || v->no_memory) return CLI_USAGE;
  if (v->o->verify_diagnostics) {
    /* The ops' own failures were expected or reported as mismatches; only
     * a file with no op at all fails by itself. */
    return mismatch || v->files_without_ops ? CLI_FAIL : CLI_OK;
  }
  return v->failed || (v->o->strict && v->cannot_check) ? CLI_FAIL : CLI_OK;
}

/* Checks every file and reports. */
static int verify(const verify_opts *o) {
  verify_run v;
  memset(&v, 0, sizeof v);
  v.o = o;
  /* Text goes to stderr as mlir-opt's does; JSON and SARIF are the
   * command's output. */
  report_begin(&v.out, o->format, o->format == REPORT_TEXT ? stderr : stdout);
  if (o->verify_diagnostics) vmatch_init(&v.match, &v.out);
  const int io_error = verify_files(&v);
  const int json = o->format == REPORT_JSON;
  if (o->summary && json) summary_json(&v);
  report_end(&v.out);
  if (o->summary && !json) summary_text(&v);
  return verify_exit(&v, io_error);
}

/* The files named, then checked. */
static int verify_body(void *opts) {
  const verify_opts *o = opts;
  if (o->files.n > 0) return verify(o);
  cli_error("verify: no input files (give FILE... or - for stdin)");
  return CLI_USAGE;
}

int cmd_verify(int argc, char **argv) {
  verify_opts o;
  return cli_main("verify", &verify_help, &o, verify_body, argc, argv);
}
