/* bcast tune: calibrates this machine's thresholds and writes the cache
 * file the library reads; and the printing of a bcast_tuning that bcast
 * info --machine shares. */
#include <stdint.h>
#include <stdio.h>

#include "cli.h"
#include "options.h"

static const char tune_help_text[] =
    "usage: bcast tune [options]\n"
    "\n"
    "Times ordinary against non-temporal stores around the size the cache\n"
    "sizes suggest, one thread against all at 64 KiB..16 MiB, and ordinary\n"
    "against non-temporal fills beyond the cache on every thread, on this\n"
    "machine (about two seconds), chooses from what size each pays, and writes\n"
    "the choice to the tuning cache that every later bcast process (CLI,\n"
    "library, Python module) reads: $BCAST_TUNE_FILE, else\n"
    "$XDG_CACHE_HOME/bcast/tune-HASH.txt, else ~/.cache/bcast/tune-HASH.txt\n"
    "(HASH names the machine: CPU model, caches, CPUs).  The file is\n"
    "replaced atomically.  BCAST_NT_STORE_MIN_BYTES, BCAST_NT_FILL_MIN_BYTES\n"
    "and BCAST_PARALLEL_MIN_BYTES still override it; BCAST_TUNE=off ignores\n"
    "it.\n"
    "\n"
    "options:\n"
    "  --quick            the library's own lazy calibration (milliseconds)\n"
    "  --dry-run          measure and print; write nothing\n"
    "  -o, --output FILE  write the cache to FILE instead\n"
    "  -h, --help         this text\n"
    "\n"
    "exit status: 0 ok; 2 usage, or the cache could not be written (the\n"
    "file there before is kept).\n";

static const cli_help tune_help = {NULL, tune_help_text};

/* A threshold: bytes with a binary unit where exact, or "never". */
static void print_bytes(FILE *out, int64_t bytes) {
  static const char units[] = "KMG";
  if (bytes == BCAST_TUNING_NEVER) {
    fprintf(out, "never");
    return;
  }
  int u = -1;
  int64_t v = bytes;
  while (u < 2 && v >= 1024 && v % 1024 == 0) v /= 1024, u++;
  if (u < 0)
    fprintf(out, "%lld bytes", (long long)v);
  else
    fprintf(out, "%lld %ciB", (long long)v, units[u]);
}

/* One series of points as "size: default ns, alternative ns (ratio)";
 * stat: which time of the repetitions each is ("best", "median"). */
static void print_points(FILE *out, const char *title, const char *stat,
                         const char *ways, const bcast_tuning_point *p,
                         int n) {
  if (n == 0) return;
  fprintf(out, "  %s (%s of the repetitions, microseconds; %s):\n", title,
          stat, ways);
  for (int i = 0; i < n; i++) {
    fprintf(out, "    ");
    print_bytes(out, p[i].bytes);
    fprintf(out, ": %.1f, %.1f (%.2fx)\n", p[i].ns[0] / 1e3, p[i].ns[1] / 1e3,
            p[i].ns[0] / p[i].ns[1]);
  }
}

void cli_print_tuning(FILE *out, const bcast_tuning *t) {
  fprintf(out, "machine: %s\n", t->machine);
  fprintf(out, "tuning cache: %s\n",
          t->cache_path[0] ? t->cache_path : "(none: HOME unset)");
  fprintf(out, "non-temporal stores from: ");
  print_bytes(out, t->nt_store_min_bytes);
  fprintf(out, " (%s)\nnon-temporal fills from: ", t->nt_store_source);
  print_bytes(out, t->nt_fill_min_bytes);
  fprintf(out, " (%s)\nthreads from: ", t->nt_fill_source);
  print_bytes(out, t->parallel_min_bytes);
  fprintf(out, " (%s)\n", t->parallel_source);
  fprintf(out, "store races on fills reading a row: %s\n",
          t->store_race ? "yes"
                        : "no (non-temporal fills at least 1.25x faster at "
                          "every size measured)");
  if (t->measure_ms > 0)
    fprintf(out, "calibration: %.1f ms\n", t->measure_ms);
  print_points(out, "copy", "best", "ordinary, non-temporal stores",
               t->store, t->n_store);
  print_points(out, "copy", "best", "one thread, all threads", t->threads,
               t->n_threads);
  print_points(out, "fill on every thread", "median",
               "ordinary, non-temporal stores", t->fill, t->n_fill);
}

static int tune(void *opts) {
  const tune_opts *o = opts;
  if (o->extra) {
    cli_error("tune: takes no arguments ('%s' is one)", o->extra);
    return CLI_USAGE;
  }
  bcast_tuning t;
  bcast_diag diag;
  /* The cache file read at start-up, if it was ignored, is about to be
   * replaced: say so. */
  if (bcast_tuning_get(&t, &diag) == BCAST_OK && diag.status != BCAST_OK)
    cli_error("warning: %s", diag.message);
  bcast_status st = bcast_tuning_measure(&t, !o->quick, &diag);
  if (st == BCAST_OK) cli_print_tuning(stdout, &t);
  if (st == BCAST_OK && !o->dry_run) {
    st = bcast_tuning_save(&t, o->output, &diag);
    if (st == BCAST_OK)
      printf("written: %s\n", o->output ? o->output : t.cache_path);
  }
  if (st != BCAST_OK) {
    cli_diag("tune", &diag);
    return bcast_status_exit_class(st) == 2 ? CLI_USAGE : CLI_FAIL;
  }
  return CLI_OK;
}

int cmd_tune(int argc, char **argv) {
  tune_opts o;
  return cli_main("tune", &tune_help, &o, tune, argc, argv);
}
