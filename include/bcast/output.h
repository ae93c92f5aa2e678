/* bcast/output.h - durable, all-or-nothing output files.
 *
 * Every file bcast writes (bcast_npy_write, bcast_npz_write, the CLI's -o)
 * goes through one of these.  What happens depends on what the path names:
 *
 *  - nothing yet, or a regular file: the bytes go to a temporary file in
 *    the target's directory (an unnamed O_TMPFILE where the file system has
 *    them, else a named ".bcast-tmp-*" file), which is fsync'ed, renamed
 *    over the target and followed by an fsync of the directory.  An
 *    overwritten file's permission bits are kept, and its owner and group
 *    when the process may set them.  Until the commit the old file is
 *    untouched; a failure or a discard leaves it so, with no temporary
 *    file behind.
 *  - a symbolic link to a regular file: the link is followed and its target
 *    replaced as above; the link stays.
 *  - a character or block device, a FIFO or a socket, and /dev/stdout,
 *    /dev/stderr, /dev/fd/N: written through (opened for writing, appending
 *    to a regular file behind /dev/fd/N; no temporary file, no rename); a
 *    failure may leave part of the bytes written.  The writer opens the
 *    path itself, blocking (on Linux /dev/fd/N and /dev/stdout open the
 *    pipe or file anew, without a parent's O_NONBLOCK; where opening them
 *    duplicates the descriptor instead, EAGAIN would be reported as a
 *    failure).  A FIFO or pipe whose reader has gone fails with EPIPE
 *    (BCAST_IO, "write failed: Broken pipe") in a process that ignores
 *    SIGPIPE, as the bcast CLI does; otherwise the signal ends it.
 *  - "", a directory, a path ending in '/', a dangling symbolic link:
 *    refused (BCAST_IO, naming the path).
 *
 * Several outputs commit together with bcast_output_commit_all: every one
 * is complete and synced before the first is published, so a failure
 * publishes none.  (Only a rename failing between the first and the last
 * rename, which a complete and linked temporary file in the same directory
 * practically rules out, could publish some.)
 *
 * Named temporary files are recorded in a small fixed table so that a
 * signal handler can remove them (bcast_output_remove_temps); a process
 * killed with SIGKILL may leave a named ".bcast-tmp-*" file behind, never
 * an unnamed one.  (The environment variable BCAST_OUTPUT_NAMED_TEMP=1
 * forces named temporary files, for tests.)  Failures return BCAST_IO (or BCAST_NO_MEMORY) with a
 * message naming the path and the operating system's reason.
 */
#ifndef BCAST_OUTPUT_H
#define BCAST_OUTPUT_H

#include <stddef.h>
#include <stdint.h>

#include "bcast/export.h"
#include "bcast/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bcast_output bcast_output;

/* Prepares path for writing (see above).  *out is NULL after a failure. */
BCAST_API bcast_status bcast_output_open(const char *path, bcast_output **out,
                                         bcast_diag *diag);
/* Appends len bytes; the signature of bcast_npy_write_fn, with the output
 * as ctx.  The first failure is remembered and reported in full (path and
 * reason) by the commit; later writes do nothing. */
BCAST_API bcast_status bcast_output_write(void *output, const void *bytes,
                                          size_t len);
/* Reserves room for bytes bytes on disk for the file being written, so a
 * long write that the disk cannot hold fails at once (BCAST_IO, ENOSPC)
 * rather than near its end.  The file's size stays what is written.  A
 * no-op where the file system or the platform cannot reserve, and for
 * outputs written through (devices, FIFOs). */
BCAST_API bcast_status bcast_output_reserve(bcast_output *output,
                                            uint64_t bytes, bcast_diag *diag);
/* Syncs and publishes the output, then frees it (also on failure, after
 * which the target is as it was). */
BCAST_API bcast_status bcast_output_commit(bcast_output *output,
                                           bcast_diag *diag);
/* Commits outputs[0..n) all or none; frees every one either way. */
BCAST_API bcast_status bcast_output_commit_all(size_t n,
                                               bcast_output *const *outputs,
                                               bcast_diag *diag);
/* Drops an uncommitted output: the target stays as it was, the temporary
 * file goes.  NULL is allowed. */
BCAST_API void bcast_output_discard(bcast_output *output);
/* Removes every named temporary file of outputs not yet committed.  Only
 * async-signal-safe calls: meant for a SIGINT/SIGTERM/SIGHUP handler, which
 * then re-raises the signal. */
BCAST_API void bcast_output_remove_temps(void);

#ifdef __cplusplus
}
#endif

#endif /* BCAST_OUTPUT_H */
