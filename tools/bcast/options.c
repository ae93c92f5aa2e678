/* Every command's options: one table of rows (command, name, alias, what
 * the option takes, the setter and the field it stores), one table of the
 * commands (how each tells options from arguments and reports), the argv
 * walker both drive and the setters.  The per-command differences of the
 * hand-written loops this replaced (which options take --name=VALUE, how
 * a missing value is reported, whether -h ends the parse, "--", negative
 * numbers) are columns here, so each message stays as it was. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

/* What a row takes (bits, and the combinations the table uses). */
enum {
  CLI_FLAG = 0,        /* no value: the name exactly */
  CLI_VALUE = 1,       /* "--name VALUE" */
  CLI_EQUALS = 2,      /* also "--name=VALUE" (with CLI_VALUE) */
  CLI_OWN_MISSING = 4, /* a missing value goes to the setter as NULL, to
                          report itself */
  CLI_TEXT = CLI_VALUE | CLI_EQUALS,
  CLI_OWN = CLI_VALUE | CLI_OWN_MISSING
};

/* What a setter gets: the command (for messages), the option as given
 * ("-o" or "--output"), its value (NULL for a flag) and the field of the
 * command's options the row names.  It returns CLI_OK, or an exit code
 * after reporting. */
typedef struct cli_value {
  const char *cmd;
  const char *spelled;
  const char *text;
  void *field;
} cli_value;
typedef int (*cli_setter)(const cli_value *v);

/* The commands, as the tables number them. */
typedef enum cli_cmd {
  CMD_RUN,
  CMD_BROADCAST,
  CMD_BROADCAST_TO,
  CMD_INFO,
  CMD_INDIM,
  CMD_INFER,
  CMD_EXPLAIN,
  CMD_LOWER,
  CMD_VERIFY,
  CMD_TUNE
} cli_cmd;

typedef struct cli_option {
  cli_cmd cmd;
  const char *name;  /* "--shape" */
  const char *alias; /* "-o", "-q", or "" */
  unsigned takes;    /* CLI_FLAG, CLI_TEXT, ... */
  cli_setter set;
  size_t field; /* offsetof the field in the command's options */
} cli_option;

/* How a command tells options from arguments, and reports (bits). */
enum {
  CLI_DASHDASH = 1,      /* "--" ends the options */
  CLI_NEGATIVE = 2,      /* "-1", "-2.5", "-inf" are arguments */
  CLI_LONG_ONLY = 4,     /* only "--x" is an option; "-x" an argument */
  CLI_HELP_AT_ONCE = 8,  /* -h ends the parse (else a later error wins) */
  CLI_NAMED_MISSING = 16 /* "CMD: X needs a value", not "X needs a value" */
};

/* An argument that is no option, stored at field of the command's
 * options: CLI_OK or an exit code after reporting. */
typedef int (*cli_argument)(void *field, const char *arg, const char *second);

/* Room the options need for argc arguments, beyond a cli_args: 1, or 0
 * when out of memory (reported); and that room freed. */
typedef int (*cli_init)(void *opts, int argc);
typedef void (*cli_release)(void *opts);

typedef struct cli_command {
  const char *name;
  unsigned rules;
  cli_argument argument;
  size_t field;
  const char *second;   /* cli_arg_one: the message for a second argument */
  const void *defaults; /* the options' defaults, size bytes */
  size_t size;
  cli_init init; /* NULL when the defaults need nothing more */
  cli_release release;
} cli_command;

/* ------------------------------------------------------------------------ */
/* Arguments. */

int cli_args_init(cli_args *a, int argc) {
  a->n = 0;
  a->items = calloc((size_t)argc, sizeof *a->items);
  if (a->items) return 1;
  cli_error("out of memory");
  return 0;
}

/* Every argument, in order, into a cli_args. */
static int cli_arg_list(void *field, const char *arg, const char *second) {
  cli_args *a = field;
  (void)second;
  a->items[a->n++] = (char *)arg;
  return CLI_OK;
}

/* One argument into a const char *; a second is refused with the
 * command's message (which may name it). */
static int cli_arg_one(void *field, const char *arg, const char *second) {
  const char **one = field;
  if (*one) {
    cli_error(second, arg);
    return CLI_USAGE;
  }
  *one = arg;
  return CLI_OK;
}

/* A SHAPE argument of infer or explain. */
static int cli_arg_shape(void *field, const char *arg, const char *second) {
  shapes_opts *o = field;
  (void)second;
  return cli_parse_symbolic_shape(arg, o->symbols, &o->shapes[o->n++])
             ? CLI_OK
             : CLI_USAGE;
}

/* ------------------------------------------------------------------------ */
/* Setters every command may use. */

static int set_flag(const cli_value *v) {
  *(int *)v->field = 1;
  return CLI_OK;
}

static int set_ignored(const cli_value *v) {
  (void)v;
  return CLI_OK;
}

static int set_text(const cli_value *v) {
  *(const char **)v->field = v->text;
  return CLI_OK;
}

/* An int64_t byte count; a missing value (CLI_OWN) fails silently. */
static int set_bytes(const cli_value *v) {
  return v->text && cli_parse_bytes(v->text, v->field) ? CLI_OK : CLI_USAGE;
}

/* A thread count 0..4096: 1, or 0 when text is no such count. */
static int threads_value(const char *text, int *out) {
  char *end;
  errno = 0;
  const long n = strtol(text, &end, 10);
  if (errno || *end || end == text || n < 0 || n > 4096) return 0;
  *out = (int)n;
  return 1;
}

static int set_profile(const cli_value *v) {
  cli_profile_opt *p = v->field;
  if (bcast_profile_parse(v->text, &p->profile) != BCAST_OK) {
    cli_error("%s: --profile takes trait, mlir, tosa, numpy or xla, not '%s'",
              v->cmd, v->text);
    return CLI_USAGE;
  }
  p->given = 1;
  return CLI_OK;
}

/* --format text|json, or also sarif. */
static int set_format(const cli_value *v) {
  return report_format_parse(v->cmd, v->text, 0, v->field) ? CLI_OK
                                                           : CLI_USAGE;
}

static int set_format_sarif(const cli_value *v) {
  return report_format_parse(v->cmd, v->text, 1, v->field) ? CLI_OK
                                                           : CLI_USAGE;
}

/* --op-profile PATTERN=PROFILE (verify, lower). */
static int set_op_profile(const cli_value *v) {
  cli_op_profiles *p = v->field;
  if (p->n_rules == CLI_MAX_OP_PROFILES) {
    cli_error("%s: at most %d --op-profile rules", v->cmd,
              CLI_MAX_OP_PROFILES);
    return CLI_USAGE;
  }
  bcast_diag diag;
  if (bcast_mlir_op_profile_parse(v->text, strlen(v->text),
                                  &p->rules[p->n_rules], &diag) != BCAST_OK) {
    cli_error("%s: --op-profile %s", v->cmd, diag.message);
    return CLI_USAGE;
  }
  p->n_rules++;
  return CLI_OK;
}

/* The options of the commands that write arrays (a cli_out_opts). */

static int set_output(const cli_value *v) {
  ((cli_out_opts *)v->field)->output = v->text;
  return CLI_OK;
}

static int set_print(const cli_value *v) {
  ((cli_out_opts *)v->field)->print = 1;
  return CLI_OK;
}

static int set_quiet(const cli_value *v) {
  ((cli_out_opts *)v->field)->quiet = 1;
  return CLI_OK;
}

/* --max-bytes N, remembered as given; a missing value (CLI_OWN) fails
 * silently. */
static int set_max_bytes(const cli_value *v) {
  cli_out_opts *o = v->field;
  if (!v->text || !cli_parse_bytes(v->text, &o->max_bytes)) return CLI_USAGE;
  o->max_bytes_given = 1;
  return CLI_OK;
}

static int set_memory(const cli_value *v) {
  cli_out_opts *o = v->field;
  return v->text && cli_parse_bytes(v->text, &o->memory) ? CLI_OK : CLI_USAGE;
}

static int set_threads(const cli_value *v) {
  if (threads_value(v->text, &((cli_out_opts *)v->field)->threads))
    return CLI_OK;
  cli_error("invalid thread count '%s' (expected 0..4096; 0 = automatic)",
            v->text);
  return CLI_USAGE;
}

/* The same, the message named with the command. */
static int set_threads_named(const cli_value *v) {
  if (threads_value(v->text, &((cli_out_opts *)v->field)->threads))
    return CLI_OK;
  cli_error("%s: invalid thread count '%s' (expected 0..4096; 0 = "
            "automatic)",
            v->cmd, v->text);
  return CLI_USAGE;
}

/* ------------------------------------------------------------------------ */
/* Setters of one command. */

/* run --attr NAME=VALUE, repeatable. */
static int set_attr(const cli_value *v) {
  run_attrs *a = v->field;
  if (a->n == RUN_MAX_ATTRS) {
    cli_error("run: more than %d --attr options", RUN_MAX_ATTRS);
    return CLI_USAGE;
  }
  a->items[a->n++] = v->text;
  return CLI_OK;
}

/* info --count N. */
static int set_count(const cli_value *v) {
  char *end;
  errno = 0;
  const long long n = strtoll(v->text, &end, 10);
  if (errno || *end || end == v->text || n < 0) {
    cli_error("invalid element count '%s'", v->text);
    return CLI_USAGE;
  }
  *(int64_t *)v->field = n;
  return CLI_OK;
}

/* broadcast-in-dim --any-order. */
static int set_any_order(const cli_value *v) {
  *(bcast_dims_order *)v->field = BCAST_DIMS_ANY_ORDER;
  return CLI_OK;
}

/* broadcast-in-dim --threads N, as atoi reads it. */
static int set_threads_atoi(const cli_value *v) {
  if (!v->text || atoi(v->text) < 0) {
    cli_error("broadcast-in-dim: --threads takes a count >= 0");
    return CLI_USAGE;
  }
  ((cli_out_opts *)v->field)->threads = atoi(v->text);
  return CLI_OK;
}

/* infer --broadcast-dimensions D,...: a missing value fails silently. */
static int set_bdims(const cli_value *v) {
  shapes_bdims *b = v->field;
  b->given = 1;
  return v->text && cli_parse_dims(v->text, b->dims, &b->n) ? CLI_OK
                                                            : CLI_USAGE;
}

/* lower --only OP, repeatable. */
static int set_only(const cli_value *v) {
  lower_only *only = v->field;
  bcast_op op;
  if (!v->text || bcast_op_lookup(v->text, strlen(v->text), &op) != BCAST_OK) {
    cli_error("lower: --only takes a TOSA element-wise op name%s%s",
              v->text ? ", not " : "", v->text ? v->text : "");
    return CLI_USAGE;
  }
  if (only->n < BCAST_OP_COUNT) only->ops[only->n++] = op;
  return CLI_OK;
}

/* lower --profile P: the profile of ops no rule claims. */
static int set_emit_profile(const cli_value *v) {
  bcast_emit_options *e = v->field;
  if (!v->text || bcast_profile_parse(v->text, &e->profile) != BCAST_OK) {
    cli_error("lower: --profile takes trait, mlir, tosa, numpy or xla");
    return CLI_USAGE;
  }
  e->profile_given = 1;
  return CLI_OK;
}

/* --types mlir|tosa-1.0 (run, lower): the element-type tables. */
static int set_type_tables(const cli_value *v) {
  if (bcast_type_tables_parse(v->text, v->field) != BCAST_OK) {
    cli_error("%s: --types takes mlir or tosa-1.0, not '%s'", v->cmd,
              v->text);
    return CLI_USAGE;
  }
  return CLI_OK;
}

/* lower --assert-broadcast. */
static int set_asserts(const cli_value *v) {
  ((bcast_emit_options *)v->field)->assert_broadcast = 1;
  return CLI_OK;
}

/* lower -o OUT: a file, or - for standard output. */
static int set_mlir_output(const cli_value *v) {
  if (!v->text || !v->text[0]) {
    cli_error("lower: -o takes an output file (or - for stdout)");
    return CLI_USAGE;
  }
  *(const char **)v->field = v->text;
  return CLI_OK;
}

/* verify --op NAME, repeatable. */
static int set_op(const cli_value *v) {
  verify_ops *ops = v->field;
  if (!v->text || ops->n == VERIFY_MAX_OPS) {
    cli_error("verify: --op takes an op name (at most %d)", VERIFY_MAX_OPS);
    return CLI_USAGE;
  }
  ops->spans[ops->n].text = v->text;
  ops->spans[ops->n++].len = strlen(v->text);
  return CLI_OK;
}

/* verify --no-dialect tosa|stablehlo|chlo, repeatable. */
static int set_no_dialect(const cli_value *v) {
  unsigned bit = bcast_mlir_dialect_parse(v->text, strlen(v->text));
  if (!bit) {
    cli_error("verify: --no-dialect takes tosa, stablehlo or chlo, not '%s'",
              v->text);
    return CLI_USAGE;
  }
  *(unsigned *)v->field |= bit;
  return CLI_OK;
}

/* verify --chlo-rule chlo|xla. */
static int set_chlo_rule(const cli_value *v) {
  int xla = strcmp(v->text, "xla") == 0;
  if (!xla && strcmp(v->text, "chlo") != 0) {
    cli_error("verify: --chlo-rule takes chlo or xla, not '%s'", v->text);
    return CLI_USAGE;
  }
  *(int *)v->field = xla;
  return CLI_OK;
}

/* ------------------------------------------------------------------------ */
/* Each command's defaults.  infer and explain also get room for a shape
 * per argument (freed by release_shapes). */

#define CLI_OUT_DEFAULTS                                                      \
  { NULL, 0, BCAST_DEFAULT_MAX_BYTES, 0, CLI_DEFAULT_MEMORY, 0, 0 }

static const run_opts run_defaults = {.out = CLI_OUT_DEFAULTS};
static const npy_opts npy_defaults = {.out = CLI_OUT_DEFAULTS, .count = 10};
static const indim_opts indim_defaults = {.out = CLI_OUT_DEFAULTS,
                                          .order = BCAST_DIMS_INCREASING};
static const shapes_opts shapes_defaults = {
    .profile = {BCAST_PROFILE_TRAIT, 0}, .format = REPORT_TEXT};
/* A zeroed bcast_emit_options is its defaults (bcast/emit.h). */
static const lower_opts lower_defaults = {
    .max_input_bytes = CLI_DEFAULT_MAX_INPUT_BYTES, .format = REPORT_TEXT};
static const verify_opts verify_defaults = {
    .max_input_bytes = CLI_DEFAULT_MAX_INPUT_BYTES, .format = REPORT_TEXT};
static const tune_opts tune_defaults = {0};

static int init_shapes(void *opts, int argc) {
  shapes_opts *o = opts;
  o->shapes = calloc((size_t)argc, sizeof *o->shapes);
  o->symbols = malloc(sizeof *o->symbols);
  if (!o->shapes || !o->symbols) {
    cli_error("out of memory");
    return 0;
  }
  bcast_symbols_init(o->symbols);
  return 1;
}

static void release_shapes(void *opts) {
  shapes_opts *o = opts;
  free(o->shapes);
  free(o->symbols);
}

/* ------------------------------------------------------------------------ */
/* The tables. */

#define RUN(f) offsetof(run_opts, f)
#define NPY(f) offsetof(npy_opts, f)
#define INDIM(f) offsetof(indim_opts, f)
#define SHAPES(f) offsetof(shapes_opts, f)
#define LOWER(f) offsetof(lower_opts, f)
#define VERIFY(f) offsetof(verify_opts, f)
#define TUNE(f) offsetof(tune_opts, f)

#define CLI_DEFAULTS(d) &d, sizeof d
static const cli_command commands[] = {
    [CMD_RUN] = {"run", CLI_DASHDASH | CLI_NEGATIVE, cli_arg_list, RUN(files),
                 NULL, CLI_DEFAULTS(run_defaults), NULL, NULL},
    [CMD_BROADCAST] = {"broadcast", CLI_DASHDASH, cli_arg_list, NPY(files),
                       NULL, CLI_DEFAULTS(npy_defaults), NULL, NULL},
    [CMD_BROADCAST_TO] = {"broadcast-to", CLI_DASHDASH, cli_arg_list,
                          NPY(files), NULL, CLI_DEFAULTS(npy_defaults), NULL,
                          NULL},
    [CMD_INFO] = {"info", CLI_DASHDASH, cli_arg_list, NPY(files), NULL,
                  CLI_DEFAULTS(npy_defaults), NULL, NULL},
    [CMD_INDIM] = {"broadcast-in-dim", CLI_HELP_AT_ONCE | CLI_NAMED_MISSING,
                   cli_arg_one, INDIM(file),
                   "broadcast-in-dim: one input file only ('%s' is a second)",
                   CLI_DEFAULTS(indim_defaults), NULL, NULL},
    [CMD_INFER] = {"infer", CLI_HELP_AT_ONCE | CLI_LONG_ONLY, cli_arg_shape, 0,
                   NULL, CLI_DEFAULTS(shapes_defaults), init_shapes,
                   release_shapes},
    [CMD_EXPLAIN] = {"explain", CLI_HELP_AT_ONCE | CLI_LONG_ONLY,
                     cli_arg_shape, 0, NULL, CLI_DEFAULTS(shapes_defaults),
                     init_shapes, release_shapes},
    [CMD_LOWER] = {"lower", CLI_HELP_AT_ONCE, cli_arg_one, LOWER(file),
                   "lower: give one input file (or - for stdin)",
                   CLI_DEFAULTS(lower_defaults), NULL, NULL},
    [CMD_VERIFY] = {"verify", CLI_HELP_AT_ONCE, cli_arg_list, VERIFY(files),
                    NULL, CLI_DEFAULTS(verify_defaults), NULL, NULL},
    [CMD_TUNE] = {"tune", CLI_HELP_AT_ONCE, cli_arg_one, TUNE(extra),
                  "tune: takes no arguments ('%s' is one)",
                  CLI_DEFAULTS(tune_defaults), NULL, NULL},
};

/* Every option of every command.  info takes --threads and ignores it, as
 * it always has; verify takes mlir-opt's --split-input-file, so that its
 * command lines work (bcast checks every op either way). */
/* One row a line, as a table reads. */
/* clang-format off */
static const cli_option options[] = {
    {CMD_RUN, "--output", "-o", CLI_TEXT, set_output, RUN(out)},
    {CMD_RUN, "--print", "", CLI_FLAG, set_print, RUN(out)},
    {CMD_RUN, "--quiet", "-q", CLI_FLAG, set_quiet, RUN(out)},
    {CMD_RUN, "--list-ops", "", CLI_FLAG, set_flag, RUN(list_ops)},
    {CMD_RUN, "--attr", "", CLI_TEXT, set_attr, RUN(attrs)},
    {CMD_RUN, "--profile", "", CLI_TEXT, set_text, RUN(profile)},
    {CMD_RUN, "--checked", "", CLI_FLAG, set_flag, RUN(checked)},
    {CMD_RUN, "--types", "", CLI_TEXT, set_type_tables, RUN(tables)},
    {CMD_RUN, "--broadcast-dimensions", "", CLI_TEXT, set_text, RUN(broadcast_dims)},
    {CMD_RUN, "--threads", "", CLI_TEXT, set_threads_named, RUN(out)},
    {CMD_RUN, "--mlir", "", CLI_TEXT, set_text, RUN(mlir)},
    {CMD_RUN, "--max-bytes", "", CLI_TEXT, set_max_bytes, RUN(out)},
    {CMD_RUN, "--memory", "", CLI_TEXT, set_memory, RUN(out)},
    {CMD_BROADCAST, "--output", "-o", CLI_TEXT, set_output, NPY(out)},
    {CMD_BROADCAST, "--print", "", CLI_FLAG, set_print, NPY(out)},
    {CMD_BROADCAST, "--max-bytes", "", CLI_TEXT, set_max_bytes, NPY(out)},
    {CMD_BROADCAST, "--memory", "", CLI_TEXT, set_memory, NPY(out)},
    {CMD_BROADCAST, "--quiet", "", CLI_FLAG, set_quiet, NPY(out)},
    {CMD_BROADCAST, "--threads", "", CLI_TEXT, set_threads, NPY(out)},
    {CMD_BROADCAST_TO, "--shape", "", CLI_TEXT, set_text, NPY(shape_text)},
    {CMD_BROADCAST_TO, "--output", "-o", CLI_TEXT, set_output, NPY(out)},
    {CMD_BROADCAST_TO, "--print", "", CLI_FLAG, set_print, NPY(out)},
    {CMD_BROADCAST_TO, "--max-bytes", "", CLI_TEXT, set_max_bytes, NPY(out)},
    {CMD_BROADCAST_TO, "--memory", "", CLI_TEXT, set_memory, NPY(out)},
    {CMD_BROADCAST_TO, "--quiet", "", CLI_FLAG, set_quiet, NPY(out)},
    {CMD_BROADCAST_TO, "--threads", "", CLI_TEXT, set_threads, NPY(out)},
    {CMD_INFO, "--count", "", CLI_TEXT, set_count, NPY(count)},
    {CMD_INFO, "--max-bytes", "", CLI_TEXT, set_max_bytes, NPY(out)},
    {CMD_INFO, "--threads", "", CLI_TEXT, set_threads, NPY(out)},
    {CMD_INFO, "--machine", "", CLI_FLAG, set_flag, NPY(machine)},
    {CMD_INDIM, "--dims", "", CLI_VALUE, set_text, INDIM(dims_text)},
    {CMD_INDIM, "--shape", "", CLI_VALUE, set_text, INDIM(shape_text)},
    {CMD_INDIM, "--new-dims", "", CLI_VALUE, set_text, INDIM(new_dims_text)},
    {CMD_INDIM, "--any-order", "", CLI_FLAG, set_any_order, INDIM(order)},
    {CMD_INDIM, "--operand", "", CLI_VALUE, set_text, INDIM(operand_text)},
    {CMD_INDIM, "-o", "", CLI_VALUE, set_output, INDIM(out)},
    {CMD_INDIM, "--print", "", CLI_FLAG, set_print, INDIM(out)},
    {CMD_INDIM, "--max-bytes", "", CLI_OWN, set_max_bytes, INDIM(out)},
    {CMD_INDIM, "--memory", "", CLI_OWN, set_memory, INDIM(out)},
    {CMD_INDIM, "--quiet", "", CLI_FLAG, set_quiet, INDIM(out)},
    {CMD_INDIM, "--threads", "", CLI_OWN, set_threads_atoi, INDIM(out)},
    {CMD_INDIM, "--emit", "", CLI_VALUE, set_text, INDIM(emit_text)},
    {CMD_INDIM, "--elem", "", CLI_VALUE, set_text, INDIM(elem_text)},
    {CMD_INDIM, "--func", "", CLI_VALUE, set_text, INDIM(func_name)},
    {CMD_INDIM, "--assert-broadcast", "", CLI_FLAG, set_flag, INDIM(assert_broadcast)},
    {CMD_INFER, "--profile", "", CLI_TEXT, set_profile, SHAPES(profile)},
    {CMD_INFER, "--broadcast-dimensions", "", CLI_OWN, set_bdims, SHAPES(bdims)},
    {CMD_INFER, "--format", "", CLI_TEXT, set_format, SHAPES(format)},
    {CMD_EXPLAIN, "--profile", "", CLI_TEXT, set_profile, SHAPES(profile)},
    {CMD_EXPLAIN, "--format", "", CLI_TEXT, set_format, SHAPES(format)},
    {CMD_LOWER, "--only", "", CLI_OWN, set_only, LOWER(only)},
    {CMD_LOWER, "--profile", "", CLI_OWN, set_emit_profile, LOWER(emit)},
    {CMD_LOWER, "--op-profile", "", CLI_TEXT, set_op_profile, LOWER(rules)},
    {CMD_LOWER, "--assert-broadcast", "", CLI_FLAG, set_asserts, LOWER(emit)},
    {CMD_LOWER, "--types", "", CLI_TEXT, set_type_tables, LOWER(emit.tables)},
    {CMD_LOWER, "--stats", "", CLI_FLAG, set_flag, LOWER(show_stats)},
    {CMD_LOWER, "--format", "", CLI_TEXT, set_format, LOWER(format)},
    {CMD_LOWER, "-o", "", CLI_OWN, set_mlir_output, LOWER(out_path)},
    {CMD_LOWER, "--max-input-bytes", "", CLI_TEXT, set_bytes, LOWER(max_input_bytes)},
    {CMD_VERIFY, "--profile", "", CLI_TEXT, set_profile, VERIFY(profile)},
    {CMD_VERIFY, "--op-profile", "", CLI_TEXT, set_op_profile, VERIFY(op_profiles)},
    {CMD_VERIFY, "--op", "", CLI_OWN, set_op, VERIFY(extra_ops)},
    {CMD_VERIFY, "--summary", "", CLI_FLAG, set_flag, VERIFY(summary)},
    {CMD_VERIFY, "--max-input-bytes", "", CLI_TEXT, set_bytes, VERIFY(max_input_bytes)},
    {CMD_VERIFY, "--format", "", CLI_TEXT, set_format_sarif, VERIFY(format)},
    {CMD_VERIFY, "--verify-diagnostics", "", CLI_FLAG, set_flag, VERIFY(verify_diagnostics)},
    {CMD_VERIFY, "--split-input-file", "", CLI_FLAG, set_ignored, 0},
    {CMD_VERIFY, "--no-dialect", "", CLI_TEXT, set_no_dialect, VERIFY(off_dialects)},
    {CMD_VERIFY, "--chlo-rule", "", CLI_TEXT, set_chlo_rule, VERIFY(chlo_xla_rule)},
    {CMD_VERIFY, "--strict", "", CLI_FLAG, set_flag, VERIFY(strict)},
    {CMD_VERIFY, "--tosa-validate", "", CLI_FLAG, set_flag, VERIFY(tosa_validate)},
    {CMD_TUNE, "--quick", "", CLI_FLAG, set_flag, TUNE(quick)},
    {CMD_TUNE, "--dry-run", "", CLI_FLAG, set_flag, TUNE(dry_run)},
    {CMD_TUNE, "--output", "-o", CLI_TEXT, set_text, TUNE(output)},
};
/* clang-format on */

/* ------------------------------------------------------------------------ */
/* The walker. */

/* "-1", "-2.5", "-inf": a negative scalar operand, not an option. */
static int is_negative_literal(const char *arg) {
  return arg[0] == '-' && ((arg[1] >= '0' && arg[1] <= '9') || arg[1] == '.' ||
                           !strcmp(arg, "-inf") || !strcmp(arg, "-nan"));
}

/* The row of cmd that arg names, and how: *spelled is the name as given
 * ("-o" or "--output"), *inline_value the text after '='
 * ("--shape=4x3"), or NULL.  NULL when no row matches. */
static const cli_option *match(cli_cmd cmd, const char *arg,
                               const char **spelled,
                               const char **inline_value) {
  *inline_value = NULL;
  for (size_t k = 0; k < sizeof options / sizeof *options; k++) {
    const cli_option *r = &options[k];
    const size_t n = strlen(r->name);
    if (r->cmd != cmd) continue;
    *spelled = r->name;
    if (!strcmp(arg, r->name)) return r;
    if (r->alias[0] && !strcmp(arg, r->alias)) {
      *spelled = r->alias;
      return r;
    }
    if ((r->takes & CLI_EQUALS) && !strncmp(arg, r->name, n) &&
        arg[n] == '=') {
      *inline_value = arg + n + 1;
      return r;
    }
  }
  return NULL;
}

/* Applies row r to opts with the value at argv[*i] (advancing *i past a
 * value taken from the next argument). */
static int apply(const cli_command *cmd, const cli_option *r,
                 const char *spelled, const char *inline_value, int argc,
                 char **argv, int *i, void *opts) {
  cli_value v = {cmd->name, spelled, inline_value, (char *)opts + r->field};
  if ((r->takes & CLI_VALUE) && !v.text) {
    if (*i + 1 < argc) {
      v.text = argv[++*i];
    } else if (!(r->takes & CLI_OWN_MISSING)) {
      if (cmd->rules & CLI_NAMED_MISSING)
        cli_error("%s: %s needs a value", cmd->name, spelled);
      else
        cli_error("%s needs a value", spelled);
      return CLI_USAGE;
    }
  }
  return r->set(&v);
}

/* Parses argv[1..argc) into opts: CLI_OK, *help set when -h or --help
 * came, or the exit code of the first error (reported). */
static int parse(const cli_command *cmd, int argc, char **argv, void *opts,
                 int *help) {
  void *args = (char *)opts + cmd->field;
  int only_arguments = 0;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i], *spelled, *inline_value;
    const cli_option *r;
    int rc = CLI_OK;
    if (only_arguments || arg[0] != '-' || arg[1] == '\0' ||
        ((cmd->rules & CLI_NEGATIVE) && is_negative_literal(arg))) {
      rc = cmd->argument(args, arg, cmd->second);
    } else if ((cmd->rules & CLI_DASHDASH) && !strcmp(arg, "--")) {
      only_arguments = 1;
    } else if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
      *help = 1;
      if (cmd->rules & CLI_HELP_AT_ONCE) return CLI_OK;
    } else if ((r = match((cli_cmd)(cmd - commands), arg, &spelled,
                          &inline_value))) {
      rc = apply(cmd, r, spelled, inline_value, argc, argv, &i, opts);
    } else if ((cmd->rules & CLI_LONG_ONLY) && arg[1] != '-') {
      rc = cmd->argument(args, arg, cmd->second);
    } else {
      cli_error("%s: unknown option '%s' (see 'bcast %s --help')", cmd->name,
                arg, cmd->name);
      rc = CLI_USAGE;
    }
    if (rc != CLI_OK) return rc;
  }
  return CLI_OK;
}

void cli_print_help(FILE *out, const cli_help *help) {
  if (help->intro) help->intro(out);
  fputs(help->text, out);
}

int cli_main(const char *name, const cli_help *help, void *opts,
             int (*body)(void *opts), int argc, char **argv) {
  const cli_command *cmd = commands;
  while (strcmp(cmd->name, name)) cmd++; /* every command has a row */
  cli_args *list = cmd->argument == cli_arg_list
                       ? (cli_args *)((char *)opts + cmd->field)
                       : NULL;
  memcpy(opts, cmd->defaults, cmd->size);
  int asked = 0;
  int rc = (!list || cli_args_init(list, argc)) &&
                   (!cmd->init || cmd->init(opts, argc))
               ? parse(cmd, argc, argv, opts, &asked)
               : CLI_USAGE;
  if (rc == CLI_OK && asked)
    cli_print_help(stdout, help);
  else if (rc == CLI_OK)
    rc = body(opts);
  if (list) free(list->items);
  if (cmd->release) cmd->release(opts);
  return rc;
}
