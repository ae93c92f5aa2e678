/* Internal: what the .npz writer needs of an output beyond bcast/output.h. */
#ifndef BCAST_CORE_OUTPUT_H
#define BCAST_CORE_OUTPUT_H

#include <stddef.h>
#include <stdint.h>

#include "bcast/output.h"

/* Whether bytes already written can be rewritten (a temporary file: yes; a
 * device, FIFO or socket written through: no). */
int bcast__output_seekable(const bcast_output *o);
/* Rewrites len bytes at offset (within what was written); a failure is
 * remembered like one of bcast_output_write. */
bcast_status bcast__output_pwrite(bcast_output *o, uint64_t offset,
                                  const void *bytes, size_t len);
/* The path as the caller gave it, for messages. */
const char *bcast__output_path(const bcast_output *o);

#endif
