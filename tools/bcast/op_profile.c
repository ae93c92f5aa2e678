/* --op-profile PATTERN=PROFILE for bcast verify and bcast lower, and the one
 * way both commands print an op that fails its check. */
#include <string.h>

#include "cli.h"

int cli_op_profile_option(const char *cmd, int argc, char **argv, int *i,
                          const char *arg, cli_op_profiles *p) {
  if (!cli_option_is(arg, "--op-profile")) return 0;
  const char *v = cli_option_value(argc, argv, i, "--op-profile", arg);
  if (!v) return -1;
  if (p->n_rules == CLI_MAX_OP_PROFILES) {
    cli_error("%s: at most %d --op-profile rules", cmd, CLI_MAX_OP_PROFILES);
    return -1;
  }
  bcast_diag diag;
  if (bcast_mlir_op_profile_parse(v, strlen(v), &p->rules[p->n_rules],
                                  &diag) != BCAST_OK) {
    cli_error("%s: --op-profile %s", cmd, diag.message);
    return -1;
  }
  p->n_rules++;
  return 1;
}

int cli_op_profile_names(const cli_op_profiles *p, const char *name,
                         size_t len) {
  for (size_t k = 0; k < p->n_rules; k++)
    if (!memchr(p->rules[k].pattern, '*', p->rules[k].pattern_len) &&
        bcast_mlir_op_pattern_matches(p->rules[k].pattern,
                                      p->rules[k].pattern_len, name, len))
      return 1;
  return 0;
}
