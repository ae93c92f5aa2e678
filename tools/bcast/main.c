/* bcast: the command line over the library.  Each command lives in its own
 * file; this one dispatches and prints the overview. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const struct {
  const char *name;
  int (*fn)(int, char **);
  const char *summary;
} commands[] = {
#define ROW_(name, fn, summary) {name, fn, summary},
    CLI_COMMAND_LIST(ROW_)
#undef ROW_
};

static void usage(FILE *out) {
  fprintf(out,
          "usage: bcast COMMAND [OPTIONS] [ARGS]\n"
          "\n"
          "Tensor broadcasting: shape algebra (MLIR's Broadcastable trait),\n"
          "zero-copy broadcasts of NumPy .npy files, and their checks.\n"
          "\n"
          "commands:\n");
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    fprintf(out, "  %-14s %s\n", commands[i].name, commands[i].summary);
  fprintf(
      out,
      "\n"
      "'bcast COMMAND --help' describes a command's options;\n"
      "'bcast --list-ops' lists the ops of 'bcast run'.\n"
      "Exit status: 0 success, 1 a check or broadcast failed, 2 usage or\n"
      "I/O error.  An output whose reader went away (a closed pipe) is a\n"
      "write error, 2 with 'write failed: Broken pipe', not death by\n"
      "SIGPIPE; a non-blocking standard input or output is waited for.  A\n"
      "failed run leaves no file or directory it made.\n");
}

/* SIGINT, SIGTERM, SIGHUP: remove the named temporary files of outputs
 * being written and the output directories this run made, then die of the
 * signal as before. */
static void on_signal(int sig) {
  bcast_output_remove_temps();
  cli_remove_created();
  struct sigaction dfl;
  memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(sig, &dfl, NULL);
  sigset_t unblock;
  sigemptyset(&unblock);
  sigaddset(&unblock, sig);
  sigprocmask(SIG_UNBLOCK, &unblock, NULL);
  raise(sig);
}

static void install_signal_handlers(void) {
  static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
    struct sigaction old, sa;
    /* A signal the parent ignores (nohup) stays ignored. */
    if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
      continue;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(sigs[i], &sa, NULL);
  }
}

/* The command argv names; its exit code. */
static int dispatch(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return CLI_USAGE;
  }
  if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
      !strcmp(argv[1], "help")) {
    usage(stdout);
    return CLI_OK;
  }
  if (!strcmp(argv[1], "--list-ops")) {
    cli_list_ops(stdout);
    return CLI_OK;
  }
  if (!strcmp(argv[1], "--version")) {
    printf("bcast %s\n", bcast_version());
    return CLI_OK;
  }
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (!strcmp(argv[1], commands[i].name))
      return commands[i].fn(argc - 1, argv + 1);
  cli_error("unknown command '%s' (see 'bcast --help')", argv[1]);
  return CLI_USAGE;
}

int main(int argc, char **argv) {
  install_signal_handlers();
  cli_stdio_init();
  const int rc = cli_stdio_finish(dispatch(argc, argv));
  /* A failed command leaves no directory it made (files it began are
   * discarded by the output writer already). */
  if (rc != CLI_OK) cli_remove_created();
  return rc;
}
