/* The counted, 64-byte-aligned memory block behind owned tensors.
 *
 * The header and the data are separate allocations so the data can take a
 * larger alignment when it is big: blocks of 32 MiB or more are aligned to
 * 2 MiB and, on Linux, marked for transparent huge pages (as NumPy does),
 * which makes first-touch page faults of a large materialized tensor about
 * 500 times rarer.  Below 32 MiB (glibc's largest mmap threshold) plain
 * 64-byte alignment lets malloc reuse a freed block of the same size, which
 * takes no page faults at all: a 16 MiB allocate-and-touch costs 0.31 ms
 * that way against 1.9 ms with the 2 MiB alignment's fresh mapping.
 *
 * The large blocks get the same reuse from the buffer cache when the
 * program turns it on (bcast_set_buffer_cache, or BCAST_BUFFER_CACHE in
 * the environment): a freed block of 32 MiB or more is kept, up to the
 * cache's byte limit, and the next buffer of the same rounded size takes
 * it with its pages already mapped instead of faulting in fresh zeroed
 * ones.  It is off by default because it holds memory the program has
 * released. */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* madvise(MADV_DONTNEED) */
#endif
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#if defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#define BUFFER_HAVE_MMAP 1
#else
#define BUFFER_HAVE_MMAP 0
#endif

#include "core/alloc.h"
#include "core/diag.h"
#include "plan/nt_store.h"
#include "tensor/buffer.h"

enum {
  BUFFER_ALIGN = 64,
  BUFFER_HUGE_ALIGN = 2 << 20,
  BUFFER_HUGE_MIN = 32 << 20,
  BUFFER_HUGE_ADVISE_MIN = 4 << 20,
  BUFFER_KEEP_INLINE = 2
};

/* Buffers kept alive beyond the inline slots, in a singly linked list. */
typedef struct keep_node {
  struct keep_node *next;
  bcast_buffer *buffer;
} keep_node;

struct bcast_buffer {
  /* Atomic: views of one tensor may be made and released on several
   * threads at once (README, "Thread safety"). */
  atomic_size_t refcount;
  size_t bytes;
  void *data;
  /* What to give bcast__free: data itself, or the larger block data was
   * aligned within when a program's allocator is in use. */
  void *block;
  size_t rounded; /* data's usable size: bytes rounded up to the alignment */
  int mapped;     /* data is a read-only file mapping of `bytes` bytes */
  bcast_buffer *keep[BUFFER_KEEP_INLINE];
  keep_node *keep_more;
};

/* A new header: one reference, nothing kept. */
static void buffer_init(bcast_buffer *buffer, size_t bytes, void *data,
                        void *block, size_t rounded, int mapped) {
  atomic_init(&buffer->refcount, 1);
  buffer->bytes = bytes;
  buffer->data = data;
  buffer->block = block;
  buffer->rounded = rounded;
  buffer->mapped = mapped;
  for (int i = 0; i < BUFFER_KEEP_INLINE; i++) buffer->keep[i] = NULL;
  buffer->keep_more = NULL;
}

static bcast_status buffer_create(size_t bytes, int zeroed, bcast_buffer **out,
                                  bcast_diag *diag) {
  *out = NULL;
  size_t align = bytes >= BUFFER_HUGE_MIN ? BUFFER_HUGE_ALIGN : BUFFER_ALIGN;
  /* The size is a multiple of the alignment (aligned_alloc wants one); a
   * zero-byte buffer still gets one aligned block so data is never NULL. */
  size_t rounded;
  if (__builtin_add_overflow(bytes, align - 1, &rounded))
    return bcast__fail(diag, BCAST_OVERFLOW,
                       "a buffer of %zu bytes overflows the address space",
                       bytes);
  rounded -= rounded % align;
  if (rounded == 0) rounded = align;

  bcast_buffer *buffer = bcast__malloc(sizeof *buffer);
  if (!buffer)
    return bcast__fail(diag, BCAST_NO_MEMORY,
                       "out of memory allocating a buffer header");
  void *block, *data;
  if (!(align == BUFFER_HUGE_ALIGN &&
        bcast__cache_take(rounded, &data, &block)))
    data = bcast__aligned_alloc(align, rounded, &block);
  if (!data) {
    bcast__free(buffer);
    return bcast__fail(diag, BCAST_NO_MEMORY,
                       "out of memory allocating %zu bytes", bytes);
  }
  /* Advice only: a kernel without THP ignores it.  From 32 MiB data and
   * rounded are whole huge pages, so the whole block is advised.  From
   * 4 MiB, as NumPy does, the block is advised from its first huge page
   * boundary on (bcast__advise_huge_pages): where malloc gives back a
   * block it had, the pages are there already, and where it maps fresh
   * memory (always, under Dask's workers' MALLOC_TRIM_THRESHOLD_) they
   * fault in as a few huge pages instead of thousands of small ones
   * (measured on Zen 4, a 1024x4096 + 4096 float32 add into a new output
   * under MALLOC_TRIM_THRESHOLD_=65536: 3.59 ms without the advice, 2.24
   * ms with it, NumPy 2.76 to 3.00 ms). */
  if (bytes >= BUFFER_HUGE_ADVISE_MIN) bcast__advise_huge_pages(data, rounded);
  if (zeroed) memset(data, 0, rounded);
  buffer_init(buffer, bytes, data, block, rounded, 0);
  *out = buffer;
  return BCAST_OK;
}

bcast_status bcast__buffer_alloc(size_t bytes, bcast_buffer **out,
                                 bcast_diag *diag) {
  return buffer_create(bytes, 1, out, diag);
}

bcast_status bcast__buffer_alloc_uninit(size_t bytes, bcast_buffer **out,
                                        bcast_diag *diag) {
  return buffer_create(bytes, 0, out, diag);
}

bcast_status bcast__buffer_map(int fd, size_t bytes, const char *name,
                               bcast_buffer **out, bcast_diag *diag) {
  *out = NULL;
#if BUFFER_HAVE_MMAP
  if (bytes == 0)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "%s: an empty file cannot be mapped", name);
  bcast_buffer *buffer = bcast__malloc(sizeof *buffer);
  if (!buffer)
    return bcast__fail(diag, BCAST_NO_MEMORY,
                       "out of memory allocating a buffer header");
  void *data = mmap(NULL, bytes, PROT_READ, MAP_SHARED, fd, 0);
  if (data == MAP_FAILED) {
    const int err = errno;
    bcast__free(buffer);
    return bcast__fail(diag, err == ENOMEM ? BCAST_NO_MEMORY : BCAST_IO,
                       "%s: cannot map: %s", name, strerror(err));
  }
  buffer_init(buffer, bytes, data, NULL, bytes, 1);
  *out = buffer;
  return BCAST_OK;
#else
  (void)fd;
  (void)bytes;
  return bcast__fail(diag, BCAST_UNSUPPORTED,
                     "%s: memory-mapped files are not supported here", name);
#endif
}

void bcast__buffer_drop_pages(bcast_buffer *buffer) {
#if BUFFER_HAVE_MMAP && defined(MADV_DONTNEED)
  /* Read-only file pages: dropping them only unmaps them from this
   * process; the next touch maps them again from the page cache.  The
   * mapping starts on a page boundary, and its length is rounded up to
   * whole pages by the kernel, as mmap rounded it. */
  if (buffer && buffer->mapped)
    (void)madvise(buffer->data, buffer->bytes, MADV_DONTNEED);
#else
  (void)buffer;
#endif
}

void *bcast__buffer_data(bcast_buffer *buffer) { return buffer->data; }

size_t bcast__buffer_size(const bcast_buffer *buffer) { return buffer->bytes; }

void bcast__buffer_retain(bcast_buffer *buffer) {
  if (buffer)
    atomic_fetch_add_explicit(&buffer->refcount, 1, memory_order_relaxed);
}

void bcast__buffer_release(bcast_buffer *buffer) {
  /* The last release sees every other thread's writes to the buffer. */
  if (!buffer || atomic_fetch_sub_explicit(&buffer->refcount, 1,
                                           memory_order_acq_rel) > 1)
    return;
  for (int i = 0; i < BUFFER_KEEP_INLINE; i++)
    bcast__buffer_release(buffer->keep[i]);
  keep_node *node = buffer->keep_more;
  while (node) {
    keep_node *next = node->next;
    bcast__buffer_release(node->buffer);
    bcast__free(node);
    node = next;
  }
#if BUFFER_HAVE_MMAP
  if (buffer->mapped)
    munmap(buffer->data, buffer->bytes);
  else
#endif
      if (!(buffer->rounded >= BUFFER_HUGE_MIN &&
            bcast__cache_put(buffer->data, buffer->block, buffer->rounded)))
    bcast__free(buffer->block);
  bcast__free(buffer);
}

bcast_status bcast__buffer_keep(bcast_buffer *buffer, bcast_buffer *other,
                                bcast_diag *diag) {
  if (!buffer || !other || buffer == other) return BCAST_OK;
  for (int i = 0; i < BUFFER_KEEP_INLINE; i++) {
    if (buffer->keep[i] == other) return BCAST_OK;
    if (!buffer->keep[i]) {
      bcast__buffer_retain(other);
      buffer->keep[i] = other;
      return BCAST_OK;
    }
  }
  keep_node *node = bcast__malloc(sizeof *node);
  if (!node)
    return bcast__fail(diag, BCAST_NO_MEMORY,
                       "out of memory recording a kept buffer");
  bcast__buffer_retain(other);
  node->buffer = other;
  node->next = buffer->keep_more;
  buffer->keep_more = node;
  return BCAST_OK;
}
