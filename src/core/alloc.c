/* The allocator hook: one process-wide bcast_allocator that every
 * allocation in the library goes through; and the buffer cache, which
 * keeps large freed blocks of it for reuse when the program asks. */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/machine.h"

static void *default_malloc(size_t size, void *ctx) {
  (void)ctx;
  return malloc(size);
}

static void *default_realloc(void *ptr, size_t size, void *ctx) {
  (void)ctx;
  return realloc(ptr, size);
}

static void default_free(void *ptr, void *ctx) {
  (void)ctx;
  free(ptr);
}

static const bcast_allocator default_allocator = {
    default_malloc, default_realloc, default_free, NULL};

enum { CACHE_SLOTS = 8 };

/* The buffer cache (bcast_set_buffer_cache): freed large blocks (data and
 * the block to free), at most `limit` bytes in all, under a spin lock (held for a few loads and
 * stores, never around an allocation or a free of the allocator's). */
typedef struct cache_slot {
  void *data, *block;
  size_t rounded;
} cache_slot;

static struct {
  atomic_flag lock;
  atomic_int ready; /* the limit has been read from the environment */
  size_t limit, held;
  cache_slot slots[CACHE_SLOTS];
} cache = {ATOMIC_FLAG_INIT, 0, 0, 0, {{0}}};

static void cache_lock(void) {
  while (atomic_flag_test_and_set_explicit(&cache.lock, memory_order_acquire))
    ;
}

static void cache_unlock(void) {
  atomic_flag_clear_explicit(&cache.lock, memory_order_release);
}

/* Called with the lock held: the limit from BCAST_BUFFER_CACHE on first
 * use, unless bcast_set_buffer_cache came first. */
static void cache_read_env(void) {
  if (atomic_load_explicit(&cache.ready, memory_order_relaxed)) return;
  int64_t bytes;
  const char *env = getenv("BCAST_BUFFER_CACHE");
  if (env && bcast__machine_parse_bytes(env, &bytes) == 0)
    cache.limit = (size_t)bytes;
  atomic_store_explicit(&cache.ready, 1, memory_order_relaxed);
}

/* A cached block of exactly `rounded` bytes, taken out of the cache, or
 * 0. */
int bcast__cache_take(size_t rounded, void **data, void **block) {
  int found = 0;
  cache_lock();
  cache_read_env();
  for (int i = 0; i < CACHE_SLOTS && !found; i++) {
    cache_slot *slot = &cache.slots[i];
    if (slot->data && slot->rounded == rounded) {
      *data = slot->data;
      *block = slot->block;
      cache.held -= rounded;
      slot->data = slot->block = NULL;
      found = 1;
    }
  }
  cache_unlock();
  return found;
}

/* Keeps a freed block if the limit and a slot allow; 0 if the caller must
 * free it. */
int bcast__cache_put(void *data, void *block, size_t rounded) {
  int kept = 0;
  cache_lock();
  cache_read_env();
  if (rounded <= cache.limit && cache.held <= cache.limit - rounded) {
    for (int i = 0; i < CACHE_SLOTS && !kept; i++) {
      cache_slot *slot = &cache.slots[i];
      if (!slot->data) {
        *slot = (cache_slot){data, block, rounded};
        cache.held += rounded;
        kept = 1;
      }
    }
  }
  cache_unlock();
  return kept;
}

/* Sets the limit (unless keep_limit) and frees blocks until what is held
 * fits max_bytes. */
static void cache_shrink(size_t max_bytes, int keep_limit) {
  cache_slot drop[CACHE_SLOTS];
  int n_drop = 0;
  cache_lock();
  if (!keep_limit) {
    atomic_store_explicit(&cache.ready, 1, memory_order_relaxed);
    cache.limit = max_bytes;
  }
  for (int i = 0; i < CACHE_SLOTS; i++) {
    cache_slot *slot = &cache.slots[i];
    if (slot->data && cache.held > max_bytes) {
      drop[n_drop++] = *slot;
      cache.held -= slot->rounded;
      slot->data = slot->block = NULL;
    }
  }
  cache_unlock();
  for (int i = 0; i < n_drop; i++) bcast__free(drop[i].block);
}

bcast_status bcast_set_buffer_cache(size_t max_bytes) {
  cache_shrink(max_bytes, 0);
  return BCAST_OK;
}

/* Read without locks: bcast/allocator.h asks that it be set before any
 * other call. */
static bcast_allocator current = {default_malloc, default_realloc,
                                  default_free, NULL};

bcast_status bcast_set_allocator(const bcast_allocator *allocator) {
  if (allocator &&
      (!allocator->malloc_fn || !allocator->realloc_fn || !allocator->free_fn))
    return BCAST_INVALID_ARGUMENT;
  /* Cached blocks go back to the allocator they came from. */
  cache_shrink(0, 1);
  current = allocator ? *allocator : default_allocator;
  return BCAST_OK;
}

/* With the C library's allocator, calloc and aligned_alloc are called
 * directly: calloc takes fresh zero pages without touching them, and
 * aligned_alloc wastes no padding. */
static int is_default(void) { return current.malloc_fn == default_malloc; }

void *bcast__malloc(size_t size) {
  return current.malloc_fn(size ? size : 1, current.ctx);
}

void *bcast__calloc(size_t count, size_t size) {
  size_t bytes;
  if (__builtin_mul_overflow(count, size, &bytes)) return NULL;
  if (bytes == 0) bytes = 1;
  if (is_default()) return calloc(bytes, 1);
  void *p = current.malloc_fn(bytes, current.ctx);
  if (p) memset(p, 0, bytes);
  return p;
}

void *bcast__realloc(void *ptr, size_t size) {
  if (!ptr) return bcast__malloc(size);
  return current.realloc_fn(ptr, size ? size : 1, current.ctx);
}

void bcast__free(void *ptr) {
  if (ptr) current.free_fn(ptr, current.ctx);
}

void *bcast__aligned_alloc(size_t align, size_t size, void **block) {
  *block = NULL;
  if (size == 0) size = 1;
  if (is_default()) {
    /* aligned_alloc wants a multiple of the alignment. */
    size_t rounded;
    if (__builtin_add_overflow(size, align - 1, &rounded)) return NULL;
    rounded -= rounded % align;
    *block = aligned_alloc(align, rounded);
    return *block;
  }
  size_t padded;
  if (__builtin_add_overflow(size, align - 1, &padded)) return NULL;
  char *raw = current.malloc_fn(padded, current.ctx);
  if (!raw) return NULL;
  *block = raw;
  uintptr_t at = ((uintptr_t)raw + align - 1) & ~(uintptr_t)(align - 1);
  return raw + (at - (uintptr_t)raw);
}
