/* Included (-include) in the WP run.  The diagnostic helpers of
 * src/core/diag.h format text and are not proven; WP takes these contracts
 * for them (assumption W1 of docs/proofs.md): each writes at most the
 * diagnostic it is given, and bcast__fail returns the status it is given.
 * That they are called with NULL or a valid diagnostic, and that their
 * bodies are free of run-time errors, is EVA's part: EVA analyses their
 * bodies, src/core/status.c, at every call. */
#ifndef BCAST_PROVE_DIAG_CONTRACT_H
#define BCAST_PROVE_DIAG_CONTRACT_H
#include "bcast/status.h"

/*@ assigns *diag;
    ensures \result == status; */
bcast_status bcast__fail(bcast_diag *diag, bcast_status status,
                         const char *fmt, ...);

/*@ assigns *diag; */
void bcast__mlir_message(bcast_diag *diag, int op_prefix, const char *fmt,
                         ...);

/*@ assigns *diag; */
void bcast__locate(bcast_diag *diag, int operand0, int axis0, int64_t size0,
                   int operand1, int axis1, int64_t size1, int axis);
#endif
