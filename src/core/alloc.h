/* Internal: every allocation in src/ goes through these, so a program's
 * bcast_set_allocator sees all of it (bcast/allocator.h).  They behave
 * like the C functions they are named after, with two differences:
 * a size of 0 is taken as 1, so NULL always means out of memory, and
 * bcast__free(NULL) and bcast__realloc(NULL, n) are allowed. */
#ifndef BCAST_CORE_ALLOC_H
#define BCAST_CORE_ALLOC_H

#include <stddef.h>

#include "bcast/allocator.h"

void *bcast__malloc(size_t size);
/* NULL also when count * size overflows. */
void *bcast__calloc(size_t count, size_t size);
void *bcast__realloc(void *ptr, size_t size);
void bcast__free(void *ptr);

/* size bytes aligned to align (a power of two, at least sizeof(void *)).
 * *block receives the pointer to give bcast__free, which may differ from
 * the result: with a program's allocator the block is over-allocated by
 * align - 1 bytes and the result is the first aligned byte in it. */
void *bcast__aligned_alloc(size_t align, size_t size, void **block);

/* The buffer cache (bcast_set_buffer_cache), for the tensor data blocks
 * src/tensor/buffer.c chooses to offer (32 MiB and more).  take: a cached
 * block of exactly `rounded` usable bytes (its data and the block to
 * free), removed from the cache; 0 if there is none.  put: keeps a block
 * the caller would free, if the limit allows; 0 if the caller must free
 * it. */
int bcast__cache_take(size_t rounded, void **data, void **block);
int bcast__cache_put(void *data, void *block, size_t rounded);

#endif
