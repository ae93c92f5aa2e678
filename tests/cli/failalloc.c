/* LD_PRELOAD shim for tests/cli/alloc_fail.py and scripts/soak.py: makes the Nth memory
 * allocation that the bcast executable's own code asks for fail (NULL,
 * errno ENOMEM), N from BCAST_FAIL_ALLOC_AT (unset or 0: none fails).
 *
 * Only calls made from the main executable count, found by their return
 * address: the CLI and libbcast (linked in statically) are in it, while
 * the C library's and the OpenMP runtime's own allocations (stdio buffers,
 * thread start-up) come from their shared objects and always succeed, so
 * the test exercises bcast's handling of out-of-memory and not libgomp's
 * abort on it.  When the Nth call fails the shim writes "failalloc: N" to
 * the file BCAST_FAIL_ALLOC_LOG names (if set), so the test knows the
 * failure happened.  The real functions are glibc's __libc_* entry points,
 * which never come back here (in the sanitizer build, ASan's; below). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(BCAST_FAILALLOC_ASAN)
/* Built for the sanitizer build (uninstrumented itself: it runs before
 * ASan is set up): the real functions are AddressSanitizer's own (libasan
 * exports each interceptor under this second name), so every block still
 * comes from ASan's allocator.  The shim must then be preloaded ahead of
 * libasan, which ASan allows with ASAN_OPTIONS=verify_asan_link_order=0. */
extern void *__interceptor_malloc(size_t size);
extern void *__interceptor_calloc(size_t count, size_t size);
extern void *__interceptor_realloc(void *ptr, size_t size);
extern void *__interceptor_aligned_alloc(size_t align, size_t size);
extern int __interceptor_posix_memalign(void **out, size_t align, size_t size);
#define REAL_MALLOC __interceptor_malloc
#define REAL_CALLOC __interceptor_calloc
#define REAL_REALLOC __interceptor_realloc
#define REAL_ALIGNED __interceptor_aligned_alloc
#else
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *ptr, size_t size);
extern void *__libc_memalign(size_t align, size_t size);
#define REAL_MALLOC __libc_malloc
#define REAL_CALLOC __libc_calloc
#define REAL_REALLOC __libc_realloc
#define REAL_ALIGNED __libc_memalign
#endif

static uintptr_t exe_lo, exe_hi; /* the executable's loaded segments */
static long fail_at, calls;

static int find_exe(struct dl_phdr_info *info, size_t size, void *ctx) {
  (void)size;
  (void)ctx;
  /* The first object is the main program. */
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X)) continue;
    const uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
    if (!exe_lo || lo < exe_lo) exe_lo = lo;
    if (lo + ph->p_memsz > exe_hi) exe_hi = lo + ph->p_memsz;
  }
  return 1;
}

__attribute__((constructor)) static void failalloc_init(void) {
  const char *at = getenv("BCAST_FAIL_ALLOC_AT");
  fail_at = at ? strtol(at, NULL, 10) : 0;
  dl_iterate_phdr(find_exe, NULL);
}

static int should_fail(const void *caller) {
  const uintptr_t pc = (uintptr_t)caller;
  if (fail_at <= 0 || pc < exe_lo || pc >= exe_hi) return 0;
  if (++calls != fail_at) return 0;
  const char *log = getenv("BCAST_FAIL_ALLOC_LOG");
  if (log) {
    const int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      char line[48];
      const int n = snprintf(line, sizeof line, "failalloc: %ld\n", calls);
      if (n > 0) (void)!write(fd, line, (size_t)n);
      close(fd);
    }
  }
  errno = ENOMEM;
  return 1;
}

#define CALLER __builtin_return_address(0)

void *malloc(size_t size) {
  return should_fail(CALLER) ? NULL : REAL_MALLOC(size);
}

void *calloc(size_t count, size_t size) {
  return should_fail(CALLER) ? NULL : REAL_CALLOC(count, size);
}

void *realloc(void *ptr, size_t size) {
  return should_fail(CALLER) ? NULL : REAL_REALLOC(ptr, size);
}

void *aligned_alloc(size_t align, size_t size) {
  return should_fail(CALLER) ? NULL : REAL_ALIGNED(align, size);
}

int posix_memalign(void **out, size_t align, size_t size) {
  if (should_fail(CALLER)) return ENOMEM;
#if defined(BCAST_FAILALLOC_ASAN)
  return __interceptor_posix_memalign(out, align, size);
#else
  void *p = REAL_ALIGNED(align, size);
  if (!p) return ENOMEM;
  *out = p;
  return 0;
#endif
}
