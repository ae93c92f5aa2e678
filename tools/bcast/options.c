/* Options from tables: the one argv walker every command uses, and the
 * setters rows share. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report.h"

/* "-1", "-2.5", "-inf": a negative scalar operand, not an option. */
static int is_negative_literal(const char *arg) {
  return arg[0] == '-' &&
         ((arg[1] >= '0' && arg[1] <= '9') || arg[1] == '.' ||
          !strcmp(arg, "-inf") || !strcmp(arg, "-nan"));
}

/* The row arg names, and how: *spelled is the name as given ("-o" or
 * "--output"), *inline_value the text after '=' ("--shape=4x3"), or NULL.
 * NULL when no row matches. */
static const cli_option *match(const cli_option *rows, const char *arg,
                               const char **spelled,
                               const char **inline_value) {
  *inline_value = NULL;
  for (const cli_option *r = rows; r->name; r++) {
    *spelled = r->name;
    if (!strcmp(arg, r->name)) return r;
    if (r->alias && !strcmp(arg, r->alias)) {
      *spelled = r->alias;
      return r;
    }
    const size_t n = strlen(r->name);
    if ((r->takes & CLI_EQUALS) && !strncmp(arg, r->name, n) &&
        arg[n] == '=') {
      *inline_value = arg + n + 1;
      return r;
    }
  }
  return NULL;
}

/* An argument that is no option: the command's to take, or collected. */
static int argument(const cli_command *cmd, void *opts, const char *arg) {
  if (cmd->argument) return cmd->argument(opts, arg);
  cli_args *a = (cli_args *)((char *)opts + cmd->args_field);
  a->items[a->n++] = (char *)arg;
  return CLI_OK;
}

/* Applies row r to opts with the value at argv[*i] (advancing *i past a
 * value taken from the next argument). */
static int apply(const cli_command *cmd, const cli_option *r,
                 const char *spelled, const char *inline_value, int argc,
                 char **argv, int *i, void *opts) {
  cli_value v = {cmd->name, spelled, inline_value,
                 (char *)opts + r->field};
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

int cli_parse(const cli_command *cmd, int argc, char **argv, void *opts,
              int *help) {
  int only_arguments = 0;
  *help = 0;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i], *spelled, *inline_value;
    const cli_option *r;
    int rc = CLI_OK;
    if (only_arguments || arg[0] != '-' || arg[1] == '\0' ||
        ((cmd->rules & CLI_NEGATIVE) && is_negative_literal(arg))) {
      rc = argument(cmd, opts, arg);
    } else if ((cmd->rules & CLI_DASHDASH) && !strcmp(arg, "--")) {
      only_arguments = 1;
    } else if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
      *help = 1;
      if (cmd->rules & CLI_HELP_AT_ONCE) return CLI_OK;
    } else if ((r = match(cmd->rows, arg, &spelled, &inline_value))) {
      rc = apply(cmd, r, spelled, inline_value, argc, argv, &i, opts);
    } else if ((cmd->rules & CLI_LONG_ONLY) && arg[1] != '-') {
      rc = argument(cmd, opts, arg);
    } else {
      cli_error("%s: unknown option '%s' (see 'bcast %s --help')", cmd->name,
                arg, cmd->name);
      rc = CLI_USAGE;
    }
    if (rc != CLI_OK) return rc;
  }
  return CLI_OK;
}

void cli_print_help(FILE *out, const cli_command *cmd) {
  if (cmd->intro) cmd->intro(out);
  fputs(cmd->help, out);
}

int cli_start(const cli_command *cmd, int argc, char **argv, void *opts,
              int *done) {
  int help = 0;
  const int rc = cli_parse(cmd, argc, argv, opts, &help);
  *done = rc != CLI_OK || help;
  if (rc == CLI_OK && help) cli_print_help(stdout, cmd);
  return rc;
}

/* ------------------------------------------------------------------------ */
/* Setters rows share. */

int cli_set_flag(const cli_value *v) {
  *(int *)v->field = 1;
  return CLI_OK;
}

int cli_set_ignored(const cli_value *v) {
  (void)v;
  return CLI_OK;
}

int cli_set_text(const cli_value *v) {
  *(const char **)v->field = v->text;
  return CLI_OK;
}

int cli_set_bytes(const cli_value *v) {
  /* A value missing where the row reports it itself: no message. */
  if (!v->text) return CLI_USAGE;
  return cli_parse_bytes(v->text, (int64_t *)v->field) ? CLI_OK : CLI_USAGE;
}

int cli_threads_value(const char *text, int *out) {
  char *end;
  errno = 0;
  const long n = strtol(text, &end, 10);
  if (errno || *end || end == text || n < 0 || n > 4096) return 0;
  *out = (int)n;
  return 1;
}

int cli_set_threads(const cli_value *v) {
  if (cli_threads_value(v->text, v->field)) return CLI_OK;
  cli_error("invalid thread count '%s' (expected 0..4096; 0 = automatic)",
            v->text);
  return CLI_USAGE;
}

int cli_set_profile(const cli_value *v) {
  cli_profile_opt *p = v->field;
  if (bcast_profile_parse(v->text, &p->profile) != BCAST_OK) {
    cli_error("%s: --profile takes trait, mlir, tosa, numpy or xla, not '%s'",
              v->cmd, v->text);
    return CLI_USAGE;
  }
  p->given = 1;
  return CLI_OK;
}

/* --format text|json, and sarif where the row allows it. */
static int set_format(const cli_value *v, int allow_sarif) {
  return report_format_parse(v->cmd, v->text, allow_sarif, v->field)
             ? CLI_OK
             : CLI_USAGE;
}

int cli_set_format(const cli_value *v) { return set_format(v, 0); }

int cli_set_format_sarif(const cli_value *v) { return set_format(v, 1); }

int cli_set_op_profile(const cli_value *v) {
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

/* ------------------------------------------------------------------------ */
/* Arguments. */

int cli_args_init(cli_args *a, int argc) {
  a->n = 0;
  a->items = calloc((size_t)argc, sizeof *a->items);
  if (a->items) return 1;
  cli_error("out of memory");
  return 0;
}
