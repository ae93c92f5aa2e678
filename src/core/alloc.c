/* The allocator hook: one process-wide bcast_allocator that every
 * allocation in the library goes through. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "tensor/buffer.h"

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

/* Read without locks: bcast/allocator.h asks that it be set before any
 * other call. */
static bcast_allocator current = {default_malloc, default_realloc,
                                  default_free, NULL};

bcast_status bcast_set_allocator(const bcast_allocator *allocator) {
  if (allocator &&
      (!allocator->malloc_fn || !allocator->realloc_fn || !allocator->free_fn))
    return BCAST_INVALID_ARGUMENT;
  /* Cached blocks go back to the allocator they came from. */
  bcast__buffer_cache_empty();
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
