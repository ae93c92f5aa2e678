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
} verify_opts;

static void verify_help(FILE *out) {
  fprintf(out,
          "usage: bcast verify [--profile P] [--op NAME]... [--summary] FILE... | -\n"
          "\n"
          "Finds every broadcasting op in the .mlir files (generic or custom\n"
          "form, anywhere in the file) and checks its operand and result types.\n"
          "Checked ops: \"test.broadcastable\", the TOSA element-wise ops\n"
          "(tosa.add, tosa.select, ...; also the old names tosa.div and\n"
          "tosa.int_div), and any op given with --op.\n"
          "\n"
          "Failures print as mlir-opt prints them:\n"
          "  FILE:LINE:COL: error: 'OP' op MESSAGE\n"
          "followed by bcast's own explanation as a 'note:' line.\n"
          "\n"
          "options:\n"
          "  --profile P   trait | mlir | tosa | numpy | xla.  Without it, tosa.*\n"
          "                ops follow 'tosa' (MLIR 22's TOSA dialect) and all\n"
          "                others 'trait' (the Broadcastable document).\n"
          "                'mlir' is what MLIR 22's trait verifier really does.\n"
          "  --op NAME     also check ops named NAME (repeatable)\n"
          "  --summary     print 'N ops checked, N failed' on stdout\n"
          "  -h, --help    this text\n"
          "\n"
          "exit status: 0 all ops pass, 1 an op fails or cannot be read,\n"
          "2 usage or I/O error.\n");
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
    bcast_profile profile = o->profile_given
                                ? o->profile
                                : bcast_mlir_default_profile(op->name, op->name_len);
    st = bcast_mlir_verify_op(op, profile, diag);
    if (st == BCAST_OK) continue;
    (*failed)++;
    if (diag->mlir_message[0] && diag->mlir_op_prefix)
      fprintf(stderr, "%s:%u:%u: error: '%.*s' op %s\n", path, op->line,
              op->col, (int)op->name_len, op->name, diag->mlir_message);
    else if (diag->mlir_message[0])
      fprintf(stderr, "%s:%u:%u: error: %s\n", path, op->line, op->col,
              diag->mlir_message);
    else
      fprintf(stderr, "%s:%u:%u: error: '%.*s' op %s\n", path, op->line,
              op->col, (int)op->name_len, op->name, diag->message);
    if (diag->mlir_message[0])
      fprintf(stderr, "%s:%u:%u: note: %s [%s profile]\n", path, op->line,
              op->col, diag->message, bcast_profile_name(profile));
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
