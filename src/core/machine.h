/* Internal: facts about the machine read once per process, and the size
 * thresholds derived from them, for the writers of large outputs (plan
 * engine, copy kernels, element-wise streaming).
 *
 * Cache sizes come from sysconf (glibc reads CPUID) or, where that says
 * nothing, from /sys/devices/system/cpu/cpu0/cache; a size nobody reports
 * is 0 and its thresholds fall back to the constants measured on the
 * project's first machines.  Two environment variables override the
 * thresholds for experiments (docs/thresholds.md):
 *   BCAST_STREAM_MIN_BYTES    outputs at least this large are written
 *                             with streaming (non-temporal) stores;
 *   BCAST_PARALLEL_MIN_BYTES  smaller outputs run on one thread.
 * Each is a byte count, decimal, optionally followed by K, M or G (powers
 * of 1024); anything else (empty, negative, junk after the number, an
 * overflow) is ignored and the derived value kept.  Reading them never
 * prints. */
#ifndef BCAST_CORE_MACHINE_H
#define BCAST_CORE_MACHINE_H

#include <stdint.h>

typedef struct bcast__machine {
  int64_t l2_bytes;           /* per core; 0 when unknown */
  int64_t llc_bytes;          /* as reported (may be a whole socket's) */
  int64_t stream_min_bytes;   /* streaming stores from this output size */
  int64_t parallel_min_bytes; /* threads from this output size */
} bcast__machine;

/* The facts of this process, computed on the first call (thread-safe);
 * later calls return the same struct. */
const bcast__machine *bcast__machine_get(void);

/* The derivation behind bcast__machine_get, from given cache sizes (0 =
 * unknown) and environment values (NULL = unset), so tests can try any
 * machine and any override. */
void bcast__machine_derive(bcast__machine *m, int64_t l2_bytes,
                           int64_t llc_bytes, const char *stream_env,
                           const char *parallel_env);

/* Parses a byte count as described above into *bytes; 0 on success, -1
 * (leaving *bytes alone) on anything else. */
int bcast__machine_parse_bytes(const char *text, int64_t *bytes);

#endif
