/* bcast/allocator.h - a replaceable allocator for everything bcast allocates.
 *
 * By default the library allocates with malloc, realloc, free and (for
 * tensor data) aligned_alloc.  A program that tracks or limits memory can
 * route all of it through its own functions instead.
 *
 * Which calls allocate: bcast_tensor_alloc, bcast_materialize,
 * bcast_materialize_all, bcast_broadcast_materialize, bcast_ew_plan_create,
 * bcast_ew_plan_alloc_output, bcast_ew_compute (its result),
 * bcast_npy_read, bcast_npy_read_mem, bcast_npy_write and
 * bcast_emit_lower_module.  bcast_tensor_release and
 * bcast_ew_plan_destroy free.  The shape algebra, the MLIR type parser and
 * verifier, bcast_plan_* and bcast_copy_run never allocate.  A failed
 * allocation makes the call return BCAST_NO_MEMORY and free what it had
 * taken.
 *
 * Thread safety: the allocator is one process-wide setting read without
 * locks.  Set it once, before any other bcast call and before any thread
 * uses bcast, and do not change it while memory allocated through the
 * previous allocator is still alive (bcast frees each block with the
 * allocator in force when it is freed).  The functions themselves may be
 * called from several threads at once if the program calls bcast from
 * several threads.
 */
#ifndef BCAST_ALLOCATOR_H
#define BCAST_ALLOCATOR_H

#include "bcast/export.h"
#include "bcast/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The allocator's functions, each given the ctx pointer of the struct.
 *
 * malloc_fn returns size bytes (size >= 1) aligned for any standard type,
 * like malloc, or NULL.  realloc_fn resizes a block malloc_fn or
 * realloc_fn returned (ptr is never NULL, size >= 1), like realloc, or
 * returns NULL and leaves the block alone.  free_fn releases a block (ptr
 * is never NULL).  Tensor data that needs a larger alignment (64 bytes,
 * or 2 MiB for blocks of 32 MiB and more) is carved out of a block
 * over-allocated through malloc_fn by up to the alignment. */
typedef struct bcast_allocator {
  void *(*malloc_fn)(size_t size, void *ctx);
  void *(*realloc_fn)(void *ptr, size_t size, void *ctx);
  void (*free_fn)(void *ptr, void *ctx);
  void *ctx;
} bcast_allocator;

/* Makes *allocator (copied) the library's allocator; NULL restores the C
 * library's malloc, realloc and free.  BCAST_INVALID_ARGUMENT, leaving the
 * allocator unchanged, if one of the three functions is NULL. */
BCAST_API bcast_status bcast_set_allocator(const bcast_allocator *allocator);

/* The buffer cache: tensor data blocks of 32 MiB and more that are freed
 * are kept, up to max_bytes in all (at most eight blocks), and a new
 * tensor of the same rounded size takes one back with its pages already
 * mapped.  That removes the page faults (and the kernel's zeroing of the
 * fresh pages) that dominate a call which allocates a large output each
 * time, such as bcast_ew_compute in a loop: measured on an AMD EPYC,
 * 512 MiB float32 outputs, see README's benchmarks.  max_bytes 0 (the
 * default) turns the cache off; a smaller limit frees the blocks over it
 * at once.  The environment variable BCAST_BUFFER_CACHE (a byte count,
 * optionally followed by K, M or G) sets the limit on first use unless
 * this function was called first.  bcast_set_allocator frees the cached
 * blocks through the allocator it replaces (the limit stays).
 * Thread-safe.  Always BCAST_OK. */
BCAST_API bcast_status bcast_set_buffer_cache(size_t max_bytes);

#ifdef __cplusplus
}
#endif

#endif /* BCAST_ALLOCATOR_H */
