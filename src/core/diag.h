/* Internal helpers for filling a bcast_diag.  Each one is a no-op when the
 * caller passed no diagnostic, so hot paths pay nothing for messages. */
#ifndef BCAST_CORE_DIAG_H
#define BCAST_CORE_DIAG_H

#include "bcast/status.h"

#if defined(__GNUC__)
#define BCAST_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define BCAST_PRINTF(f, a)
#endif

/* Sets status, clears the location fields and formats message.  Returns
 * status so callers can write `return bcast__fail(diag, BCAST_X, ...)`. */
bcast_status bcast__fail(bcast_diag *diag, bcast_status status,
                         const char *fmt, ...) BCAST_PRINTF(3, 4);

/* Puts formatted text before diag->message, the rest of the diagnostic
 * kept (no-op without a diagnostic); a message that no longer fits ends
 * in "..." as bcast__fail's do.  For a caller that names what a callee's
 * failure was about ("PATH: "). */
void bcast__prefix(bcast_diag *diag, const char *fmt, ...) BCAST_PRINTF(2, 3);

/* Formats diag->mlir_message (no-op without a diagnostic). */
void bcast__mlir_message(bcast_diag *diag, int op_prefix, const char *fmt, ...)
    BCAST_PRINTF(3, 4);

/* Records the two operands, axes and sizes of a failure. */
void bcast__locate(bcast_diag *diag, int operand0, int axis0, int64_t size0,
                   int operand1, int axis1, int64_t size1, int axis);

/* Appends formatted text to a buffer of size cap holding *len bytes;
 * truncates silently at cap - 1 (it also builds emitted text, where no
 * marker belongs).  bcast__fail and bcast__mlir_message instead end a
 * message that does not fit the diagnostic in "...". */
void bcast__append(char *buf, size_t cap, size_t *len, const char *fmt, ...)
    BCAST_PRINTF(4, 5);

#endif
