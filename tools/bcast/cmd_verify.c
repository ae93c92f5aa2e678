/* bcast verify: check the broadcasting ops of .mlir files, printing
 * diagnostics the way mlir-opt does. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define MAX_EXTRA_OPS 64

typedef struct verify_opts {
  int profile_given;
  bcast_profile profile;
  const char *extra_ops[MAX_EXTRA_OPS];
  int n_extra_ops;
  cli_op_profiles op_profiles;
} verify_opts;

static void verify_help(FILE *out) {
  fprintf(out,
          "usage: bcast verify [--profile P] [--op-profile PATTERN=P]... [--op NAME]...\n"
          "                    [--summary] FILE... | -\n"
          "\n"
          "Finds every broadcasting op in the .mlir files (generic or custom\n"
          "form, anywhere in the file) and checks its operand and result types.\n"
          "Checked ops: \"test.broadcastable\", the TOSA element-wise ops\n"
          "(tosa.add, tosa.select, ...; also the old names tosa.div and\n"
          "tosa.int_div), CHLO's chlo.broadcast_* ops, and any op given with\n"
          "--op or named exactly by --op-profile.  An op other than a TOSA\n"
          "op that carries broadcast_dimensions (array<i64: ...> or\n"
          "dense<...> : tensor<Nxi64>) is checked under XLA's explicit rule.\n"
          "\n"
          "Failures print as mlir-opt prints them:\n"
          "  FILE:LINE:COL: error: 'OP' op MESSAGE\n"
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
          "  -h, --help    this text\n"
          "\n"
          "exit status: 0 all ops pass, 1 an op fails or cannot be read,\n"
          "2 usage or I/O error.\n");
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

/* Checks one file's text; returns ops checked and failures through the
 * counters. */
static void verify_text(const char *path, const char *text, size_t len,
                        const verify_opts *o, long *checked, long *failed) {
  bcast_mlir_scanner scanner;
  bcast_mlir_scanner_init(&scanner, text, len, want_op, (void *)o);
  /* An op is a few KB: it lives on the stack. */
  bcast_mlir_op op_storage;
  bcast_diag diag_storage;
  bcast_mlir_op *op = &op_storage;
  bcast_diag *diag = &diag_storage;
  for (;;) {
    int found;
    bcast_status st = bcast_mlir_scan_next(&scanner, op, &found, diag);
    if (!found) break;
    (*checked)++;
    if (st != BCAST_OK) {
      (*failed)++;
      fprintf(stderr, "%s:%u:%u: error: %s\n", path, op->line, op->col,
              diag->message);
      continue;
    }
    bcast_mlir_verify_options vo = {o->profile_given ? o->profile
                                                     : BCAST_PROFILE_TRAIT,
                                    o->op_profiles.rules,
                                    o->op_profiles.n_rules};
    bcast_mlir_verdict v;
    st = bcast_mlir_verify(op, &vo, &v, diag);
    if (st == BCAST_OK) continue;
    (*failed)++;
    cli_print_op_failure(path, op->name, op->name_len, v.line, v.col,
                         v.profile, diag);
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
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    int got;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      verify_help(stdout);
      free(files);
      return CLI_OK;
    } else if ((got = cli_profile_option("verify", argc, argv, &i, a,
                                         &o.profile)) != 0) {
      if (got < 0) {
        free(files);
        return CLI_USAGE;
      }
      o.profile_given = 1;
    } else if ((got = cli_op_profile_option("verify", argc, argv, &i, a,
                                            &o.op_profiles)) != 0) {
      if (got < 0) {
        free(files);
        return CLI_USAGE;
      }
    } else if (!strcmp(a, "--op")) {
      if (i + 1 >= argc || o.n_extra_ops == MAX_EXTRA_OPS) {
        cli_error("verify: --op takes an op name (at most %d)", MAX_EXTRA_OPS);
        free(files);
        return CLI_USAGE;
      }
      o.extra_ops[o.n_extra_ops++] = argv[++i];
    } else if (!strcmp(a, "--summary")) {
      summary = 1;
    } else if (a[0] == '-' && a[1] != '\0') {
      cli_error("verify: unknown option '%s' (see 'bcast verify --help')", a);
      free(files);
      return CLI_USAGE;
    } else {
      files[n_files++] = a;
    }
  }
  if (n_files == 0) {
    cli_error("verify: no input files (give FILE... or - for stdin)");
    free(files);
    return CLI_USAGE;
  }
  long checked = 0, failed = 0;
  int io_error = 0;
  for (int f = 0; f < n_files; f++) {
    size_t len;
    char *text = cli_read_file(files[f], &len);
    if (!text) {
      io_error = 1;
      continue;
    }
    const char *name = strcmp(files[f], "-") == 0 ? "<stdin>" : files[f];
    verify_text(name, text, len, &o, &checked, &failed);
    free(text);
  }
  free(files);
  if (summary) printf("%ld ops checked, %ld failed\n", checked, failed);
  if (io_error) return CLI_USAGE;
  return failed ? CLI_FAIL : CLI_OK;
}
