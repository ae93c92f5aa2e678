/* Machine facts and the thresholds derived from them (machine.h). */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* sysconf(_SC_LEVEL2_CACHE_SIZE) and friends */
#endif

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#endif
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "core/machine.h"

/* Today's constants, measured with bench/bcast_bench on machines with a
 * 32 MiB last-level cache and 1 MiB of L2 per core: the fallbacks when a
 * size is unknown, and what the derivation below gives on such a machine. */
#define MACHINE_NT_STORE_MIN_FALLBACK ((int64_t)8 << 20)
#define MACHINE_PARALLEL_MIN_FALLBACK ((int64_t)512 << 10)

int bcast__machine_parse_bytes(const char *text, int64_t *bytes) {
  if (!text || *text < '0' || *text > '9') return -1;
  int64_t v = 0;
  const char *p = text;
  for (; *p >= '0' && *p <= '9'; p++) {
    if (__builtin_mul_overflow(v, 10, &v) ||
        __builtin_add_overflow(v, *p - '0', &v))
      return -1;
  }
  int shift = 0;
  switch (*p) {
  case 'k':
  case 'K':
    shift = 10;
    p++;
    break;
  case 'm':
  case 'M':
    shift = 20;
    p++;
    break;
  case 'g':
  case 'G':
    shift = 30;
    p++;
    break;
  default:
    break;
  }
  if (*p != '\0' || v > (INT64_MAX >> shift)) return -1;
  *bytes = v << shift;
  return 0;
}

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

/* Variable name's value text (NULL: unset) as a byte count into *v: 1,
 * or 0 when unset or not a byte count, the first such set variable then
 * recorded in m (env_ignored). */
static int machine_env_bytes(bcast__machine *m, const char *name,
                             const char *text, int64_t *v) {
  if (!text) return 0;
  if (bcast__machine_parse_bytes(text, v) == 0) return 1;
  if (!m->env_ignored) {
    m->env_ignored = name;
    m->env_ignored_value = text;
  }
  return 0;
}

/* Non-temporal stores pay once the output (with the inputs beside it) would not
 * stay in the last-level cache anyway: a quarter of the cache one core can
 * count on.  That is the reported LLC, but at most 32 L2s' worth: a VM or
 * a large part reports a whole socket's L3 (this project's EPYC VMs report
 * 508 MiB for cores that share 32 MiB per CCD), and the neighbours use
 * the rest.  Threads pay once the work outgrows half an L2, where one
 * thread's run takes long enough to hide waking a second. */
void bcast__machine_derive(bcast__machine *m, int64_t l2_bytes,
                           int64_t llc_bytes, const bcast__machine_env *env) {
  m->l2_bytes = l2_bytes > 0 ? l2_bytes : 0;
  m->llc_bytes = llc_bytes > 0 ? llc_bytes : 0;
  m->nt_store_min_bytes = MACHINE_NT_STORE_MIN_FALLBACK;
  if (m->llc_bytes > 0) {
    const int64_t l2 = m->l2_bytes > 0 ? m->l2_bytes : (int64_t)1 << 20;
    int64_t share = m->llc_bytes;
    if (l2 <= INT64_MAX / 32 && share > 32 * l2) share = 32 * l2;
    m->nt_store_min_bytes =
        clamp64(share / 4, (int64_t)1 << 20, (int64_t)256 << 20);
  }
  m->parallel_min_bytes =
      m->l2_bytes > 0
          ? clamp64(m->l2_bytes / 2, (int64_t)64 << 10, (int64_t)4 << 20)
          : MACHINE_PARALLEL_MIN_FALLBACK;
  /* The overrides: the non-temporal threshold under its name, else under
   * its older name (scripts written before the rename set that one). */
  int64_t v;
  m->nt_store_from_env = m->parallel_from_env = m->nt_fill_from_env = 0;
  m->env_ignored = m->env_ignored_value = NULL;
  m->nt_fill_min_bytes = m->nt_store_min_bytes;
  if (!env) return;
  if (machine_env_bytes(m, "BCAST_NT_STORE_MIN_BYTES", env->nt_store_min,
                        &v) ||
      machine_env_bytes(m, "BCAST_STREAM_MIN_BYTES", env->nt_store_min_old,
                        &v)) {
    m->nt_store_min_bytes = m->nt_fill_min_bytes = v;
    m->nt_store_from_env = m->nt_fill_from_env = 1;
  }
  if (machine_env_bytes(m, "BCAST_PARALLEL_MIN_BYTES", env->parallel_min,
                        &v)) {
    m->parallel_min_bytes = v;
    m->parallel_from_env = 1;
  }
  /* Fills follow the non-temporal threshold unless set apart. */
  if (machine_env_bytes(m, "BCAST_NT_FILL_MIN_BYTES", env->nt_fill_min, &v)) {
    m->nt_fill_min_bytes = v;
    m->nt_fill_from_env = 1;
  }
}

void bcast__machine_key(const bcast__machine *m, char *key, size_t cap) {
  snprintf(key, cap, "cpu=%s;l2=%lld;llc=%lld;cpus=%lld", m->cpu_model,
           (long long)m->l2_bytes, (long long)m->llc_bytes,
           (long long)m->cpus);
}

void bcast__machine_env_read(bcast__machine_env *env) {
  env->nt_store_min = getenv("BCAST_NT_STORE_MIN_BYTES");
  env->nt_store_min_old = getenv("BCAST_STREAM_MIN_BYTES");
  env->parallel_min = getenv("BCAST_PARALLEL_MIN_BYTES");
  env->nt_fill_min = getenv("BCAST_NT_FILL_MIN_BYTES");
}

/* The size of the unified or data cache of the given level from
 * /sys/devices/system/cpu/cpu0/cache (sizes read "1024K"); 0 if absent. */
static int64_t machine_sys_cache(int level) {
  for (int i = 0; i < 16; i++) {
    char path[96], text[32];
    int64_t found_level = 0, size = 0;
    int data_or_unified = 0;
    static const char *const files[3] = {"level", "type", "size"};
    for (int f = 0; f < 3; f++) {
      snprintf(path, sizeof path,
               "/sys/devices/system/cpu/cpu0/cache/index%d/%s", i, files[f]);
      FILE *file = fopen(path, "r");
      if (!file) {
        if (f == 0) return 0; /* no more indices */
        text[0] = '\0';
      } else {
        if (!fgets(text, sizeof text, file)) text[0] = '\0';
        fclose(file);
      }
      text[strcspn(text, "\n")] = '\0';
      if (f == 0 && bcast__machine_parse_bytes(text, &found_level) != 0)
        found_level = 0;
      if (f == 1)
        data_or_unified =
            strcmp(text, "Data") == 0 || strcmp(text, "Unified") == 0;
      if (f == 2 && bcast__machine_parse_bytes(text, &size) != 0) size = 0;
    }
    if (found_level == level && data_or_unified && size > 0) return size;
  }
  return 0;
}

/* The kernel's cache topology first: glibc's sysconf reads AMD's legacy
 * CPUID leaf 0x80000006, which a VM can fill with nonsense (this project's
 * Zen 4 VMs report 320 MiB of L3 there and 32 MiB in sysfs and lscpu). */
static int64_t machine_cache(int level) {
  const int64_t sys = machine_sys_cache(level);
  if (sys > 0) return sys;
  long v = -1;
#if defined(_SC_LEVEL2_CACHE_SIZE) && defined(_SC_LEVEL3_CACHE_SIZE)
  v = sysconf(level == 2 ? _SC_LEVEL2_CACHE_SIZE : _SC_LEVEL3_CACHE_SIZE);
#endif
  return v > 0 ? (int64_t)v : 0;
}

/* The CPU's brand string from CPUID leaves 0x80000002..4 (x86), else
 * /proc/cpuinfo's first "model name", else "unknown"; spaces at either end
 * dropped, as the brand string pads with them. */
static void machine_cpu_model(char *model, size_t cap) {
  char text[128] = "";
#if defined(__x86_64__) || defined(__i386__)
  unsigned regs[12];
  /* unsigned: clang 14's cpuid.h returns int, GCC's unsigned */
  if ((unsigned)__get_cpuid_max(0x80000000u, NULL) >= 0x80000004u) {
    for (unsigned leaf = 0; leaf < 3; leaf++)
      __get_cpuid(0x80000002u + leaf, &regs[4 * leaf], &regs[4 * leaf + 1],
                  &regs[4 * leaf + 2], &regs[4 * leaf + 3]);
    memcpy(text, regs, sizeof regs);
    text[sizeof regs] = '\0';
  }
  /* A VM's brand string can be as short as "AMD EPYC": family and model
   * (leaf 1, with their extended fields) tell the generations apart. */
  unsigned eax, ebx, ecx, edx;
  char fms[48] = "";
  if (__get_cpuid(1, &eax, &ebx, &ecx, &edx)) {
    unsigned family = (eax >> 8) & 0xfu, number = (eax >> 4) & 0xfu;
    if (family == 0xfu) family += (eax >> 20) & 0xffu;
    if (family == 0x6u || family >= 0xfu) number |= ((eax >> 16) & 0xfu) << 4;
    snprintf(fms, sizeof fms, " (family %u model %u)", family, number);
  }
#endif
  if (!text[0]) {
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[256];
    while (f && fgets(line, sizeof line, f)) {
      const char *colon = strchr(line, ':');
      if (strncmp(line, "model name", 10) == 0 && colon) {
        snprintf(text, sizeof text, "%s", colon + 1);
        break;
      }
    }
    if (f) fclose(f);
  }
  const char *begin = text;
  while (*begin == ' ' || *begin == '\t') begin++;
  size_t len = strcspn(begin, "\n");
  while (len > 0 && (begin[len - 1] == ' ' || begin[len - 1] == '\t')) len--;
  if (len == 0) begin = "unknown", len = strlen(begin);
#if defined(__x86_64__) || defined(__i386__)
  snprintf(model, cap, "%.*s%s", (int)len, begin, fms);
#else
  snprintf(model, cap, "%.*s", (int)len, begin);
#endif
}

static int64_t machine_cpus(void) {
  long n = -1;
#if defined(_SC_NPROCESSORS_ONLN)
  n = sysconf(_SC_NPROCESSORS_ONLN);
#endif
  return n > 0 ? (int64_t)n : 0;
}

/* state: 0 not computed, 1 being computed by one thread, 2 published. */
static bcast__machine machine_facts;
static atomic_int machine_state;

const bcast__machine *bcast__machine_get(void) {
  if (atomic_load_explicit(&machine_state, memory_order_acquire) == 2)
    return &machine_facts;
  int expected = 0;
  if (atomic_compare_exchange_strong(&machine_state, &expected, 1)) {
    bcast__machine_env env;
    bcast__machine_env_read(&env);
    bcast__machine_derive(&machine_facts, machine_cache(2), machine_cache(3),
                          &env);
    machine_facts.cpus = machine_cpus();
    machine_cpu_model(machine_facts.cpu_model, sizeof machine_facts.cpu_model);
    atomic_store_explicit(&machine_state, 2, memory_order_release);
  } else {
    /* Another thread is computing: a few microseconds at most. */
    while (atomic_load_explicit(&machine_state, memory_order_acquire) != 2) {
    }
  }
  return &machine_facts;
}
