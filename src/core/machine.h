/* Internal: facts about the machine read once per process, and the size
 * thresholds derived from them, for the writers of large outputs (plan
 * engine, copy kernels, element-wise plans).
 *
 * Cache sizes come from sysconf (glibc reads CPUID) or, where that says
 * nothing, from /sys/devices/system/cpu/cpu0/cache; a size nobody reports
 * is 0 and its thresholds fall back to the constants measured on the
 * project's first machines.  Two environment variables override the
 * thresholds for experiments (docs/thresholds.md):
 *   BCAST_NT_STORE_MIN_BYTES  outputs at least this large are written
 *                             with non-temporal stores (the older name
 *                             BCAST_STREAM_MIN_BYTES is read when the new
 *                             one is unset or invalid);
 *   BCAST_NT_FILL_MIN_BYTES   the same for outputs written from much
 *                             smaller inputs (fills: an outer sum, a
 *                             broadcast copy); unset, fills follow
 *                             BCAST_NT_STORE_MIN_BYTES;
 *   BCAST_PARALLEL_MIN_BYTES  smaller outputs run on one thread.
 * Each is a byte count, decimal, optionally followed by K, M or G (powers
 * of 1024); anything else (empty, negative, junk after the number, an
 * overflow) is ignored and the derived value kept.  Reading them never
 * prints. */
#ifndef BCAST_CORE_MACHINE_H
#define BCAST_CORE_MACHINE_H

#include <stddef.h>
#include <stdint.h>

typedef struct bcast__machine {
  int64_t l2_bytes;           /* per core; 0 when unknown */
  int64_t llc_bytes;          /* as reported (may be a whole socket's) */
  int64_t nt_store_min_bytes; /* non-temporal stores from this output size */
  int64_t parallel_min_bytes; /* threads from this output size */
  int64_t nt_fill_min_bytes;  /* fills: non-temporal stores from here */
  int nt_store_from_env;      /* the values above came from the */
  int parallel_from_env;      /* environment, not the cache sizes */
  int nt_fill_from_env;
  /* The first threshold variable set but ignored, not being a byte count
   * (BCAST_STREAM_MIN_BYTES only where it stood in for an invalid newer
   * name), and its text; NULL when none. */
  const char *env_ignored, *env_ignored_value;
  int64_t cpus;               /* online CPUs; 0 when unknown */
  char cpu_model[160];        /* CPUID's brand string and family/model */
} bcast__machine;

/* The facts of this process, computed on the first call (thread-safe);
 * later calls return the same struct. */
const bcast__machine *bcast__machine_get(void);

/* The environment values the thresholds read (NULL = unset). */
typedef struct bcast__machine_env {
  const char *nt_store_min;     /* BCAST_NT_STORE_MIN_BYTES */
  const char *nt_store_min_old; /* BCAST_STREAM_MIN_BYTES, its older name */
  const char *parallel_min;     /* BCAST_PARALLEL_MIN_BYTES */
  const char *nt_fill_min;      /* BCAST_NT_FILL_MIN_BYTES */
} bcast__machine_env;

/* Reads those variables from the process's environment. */
void bcast__machine_env_read(bcast__machine_env *env);

/* The derivation behind bcast__machine_get, from given cache sizes (0 =
 * unknown) and environment values (env NULL: none set), so tests can try
 * any machine and any override. */
void bcast__machine_derive(bcast__machine *m, int64_t l2_bytes,
                           int64_t llc_bytes, const bcast__machine_env *env);

/* The key a calibration of this machine is cached under (src/plan/tune.c):
 * "cpu=MODEL;l2=BYTES;llc=BYTES;cpus=N", cut to cap - 1 bytes. */
void bcast__machine_key(const bcast__machine *m, char *key, size_t cap);

/* Parses a byte count as described above into *bytes; 0 on success, -1
 * (leaving *bytes alone) on anything else. */
int bcast__machine_parse_bytes(const char *text, int64_t *bytes);

#endif
