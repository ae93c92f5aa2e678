/* --op-profile PATTERN=PROFILE for bcast verify and bcast lower. */
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
