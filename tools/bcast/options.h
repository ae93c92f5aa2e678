/* The options of every command, as the one option table (options.c)
 * fills them: each command's struct, and the call that parses its argv.
 * A command keeps its --help text beside its code; the table lists each
 * of its options once (name, alias, whether and how it takes a value, the
 * setter and the field), and tests/diff/test_cli_options.py checks that
 * the two name the same options. */
#ifndef BCAST_CLI_OPTIONS_H
#define BCAST_CLI_OPTIONS_H

#include "cli.h"
#include "report.h"

/* bcast run */
#define RUN_MAX_ATTRS 16
typedef struct run_attrs {
  int n;
  const char *items[RUN_MAX_ATTRS];
} run_attrs;

typedef struct run_opts {
  cli_out_opts out;
  const char *mlir;
  const char *profile;
  bcast_type_tables tables; /* --types */
  const char *broadcast_dims;
  int checked;
  int list_ops;
  run_attrs attrs;
  cli_args files;
} run_opts;

/* bcast broadcast, broadcast-to and info */
typedef struct npy_opts {
  cli_out_opts out;
  int64_t count; /* info: elements shown */
  int machine;   /* info --machine: the machine and its tuning */
  const char *shape_text;
  cli_args files;
} npy_opts;

/* bcast broadcast-in-dim */
typedef struct indim_opts {
  cli_out_opts out;
  bcast_dims_order order;
  const char *file;
  const char *operand_text;
  const char *shape_text;
  const char *dims_text;
  const char *new_dims_text;
  /* --emit linalg|stablehlo: the partial form as an MLIR function. */
  const char *emit_text;
  const char *elem_text;
  const char *func_name;
  int assert_broadcast;
} indim_opts;

/* bcast infer and explain: shapes (names shared across them), --profile,
 * --format, and infer's --broadcast-dimensions. */
typedef struct shapes_bdims {
  int64_t dims[BCAST_MAX_RANK];
  size_t n;
  int given;
} shapes_bdims;

typedef struct shapes_opts {
  cli_profile_opt profile;
  report_format format;
  shapes_bdims bdims;
  bcast_shape *shapes; /* room for every argument */
  size_t n;
  bcast_symbols *symbols;
} shapes_opts;

/* bcast lower */
typedef struct lower_only {
  bcast_op ops[BCAST_OP_COUNT];
  size_t n;
} lower_only;

typedef struct lower_opts {
  bcast_emit_options emit;
  lower_only only;
  cli_op_profiles rules;
  const char *file;
  const char *out_path;
  int show_stats;
  int64_t max_input_bytes;
  report_format format;
} lower_opts;

/* bcast verify */
#define VERIFY_MAX_OPS 64
typedef struct verify_ops {
  bcast_mlir_span spans[VERIFY_MAX_OPS];
  size_t n;
} verify_ops;

typedef struct verify_opts {
  cli_profile_opt profile;
  verify_ops extra_ops;
  cli_op_profiles op_profiles;
  report_format format;
  int verify_diagnostics; /* check the file's expected-* annotations */
  int64_t max_input_bytes;
  int summary;
  unsigned off_dialects; /* --no-dialect: BCAST_MLIR_DIALECT_* bits */
  int chlo_xla_rule;     /* --chlo-rule xla */
  int strict;            /* --strict: "cannot check" is an error */
  int tosa_validate;     /* --tosa-validate: MLIR 22's validation pass */
  cli_args files;
} verify_opts;

/* bcast tune */
typedef struct tune_opts {
  int quick;          /* --quick: the lazy calibration's few milliseconds */
  int dry_run;        /* --dry-run: measure and print, write nothing */
  const char *output; /* -o FILE: the cache file to write (default: its
                         documented place) */
  const char *extra;  /* an argument, refused */
} tune_opts;

/* A command's --help: what intro prints (NULL: nothing), then text. */
typedef struct cli_help {
  void (*intro)(FILE *out);
  const char *text;
} cli_help;
void cli_print_help(FILE *out, const cli_help *help);

/* Runs command cmd (its name): opts, the command's struct above, takes
 * its defaults, then argv[1..argc) is parsed into it; -h or --help prints
 * help on standard output; otherwise body runs on opts.  Returns the exit
 * code (of the first error, reported, or body's); what the defaults
 * allocated is freed. */
int cli_main(const char *cmd, const cli_help *help, void *opts,
             int (*body)(void *opts), int argc, char **argv);

#endif
