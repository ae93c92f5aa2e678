/* Internal: the counted memory block behind owned tensors.
 *
 * A buffer holds `bytes` bytes of 64-byte-aligned memory and a reference
 * count.  It may keep one or more other buffers alive (string bytes shared
 * between a source and its materialized copy).  Retain and release are
 * atomic, so views of one tensor may be made and dropped on several
 * threads at once; bcast__buffer_keep changes the buffer and is only
 * called on one the calling thread has just made. */
#ifndef BCAST_TENSOR_BUFFER_H
#define BCAST_TENSOR_BUFFER_H

#include "bcast/tensor.h"

/* A new buffer with one reference, contents zeroed. */
bcast_status bcast__buffer_alloc(size_t bytes, bcast_buffer **out,
                                 bcast_diag *diag);
/* The same without zeroing, for a buffer the caller overwrites at once. */
bcast_status bcast__buffer_alloc_uninit(size_t bytes, bcast_buffer **out,
                                        bcast_diag *diag);
/* A buffer over the first `bytes` bytes of the open file fd, mapped
 * read-only (unmapped with the last reference; fd may be closed at once).
 * BCAST_UNSUPPORTED where there is no mmap.  name is for messages. */
bcast_status bcast__buffer_map(int fd, size_t bytes, const char *name,
                               bcast_buffer **out, bcast_diag *diag);
/* Hands the resident pages of a mapped buffer (bcast__buffer_map) back to
 * the page cache; they are mapped again from the file when next touched,
 * so a long pass over a large mapped input keeps only what it touched
 * lately resident.  Nothing for other buffers; NULL is ignored. */
void bcast__buffer_drop_pages(bcast_buffer *buffer);
void *bcast__buffer_data(bcast_buffer *buffer);
size_t bcast__buffer_size(const bcast_buffer *buffer);
void bcast__buffer_retain(bcast_buffer *buffer);
/* Drops one reference; frees the buffer (and releases what it keeps) with
 * the last one.  NULL is ignored. */
void bcast__buffer_release(bcast_buffer *buffer);
/* buffer takes a reference to other and drops it when freed. */
bcast_status bcast__buffer_keep(bcast_buffer *buffer, bcast_buffer *other,
                                bcast_diag *diag);

#endif
