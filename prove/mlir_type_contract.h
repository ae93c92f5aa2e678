/* Included (-include) in the EVA run only.  The shape reader hands text
 * that starts with "tensor<" or "vector<" to bcast_mlir_type_parse
 * (src/type/mlir_type.c, the MLIR type reader), which is not part of this
 * analysis; EVA takes the contract below in its place (assumption A8 of
 * docs/proofs.md): it reads t[0..len), writes *out, *consumed and the
 * diagnostic, and on success has consumed at most len bytes and left a
 * shape within A1. */
#ifndef BCAST_PROVE_MLIR_TYPE_CONTRACT_H
#define BCAST_PROVE_MLIR_TYPE_CONTRACT_H
#include "bcast/mlir.h"

/*@ requires text: \valid_read(text + (0 .. len - 1));
    requires out: \valid(out) && \valid(consumed);
    requires diag: diag == \null || \valid(diag);
    assigns \result, *out, *consumed \from text, text[0 .. len - 1], len;
    assigns *diag \from text[0 .. len - 1], len;
    ensures status: BCAST_OK <= \result < BCAST_STATUS_COUNT;
    ensures consumed: \result == BCAST_OK ==> *consumed <= len;
    ensures rank: \result == BCAST_OK ==>
      BCAST_RANK_UNRANKED <= out->shape.rank <= BCAST_MAX_RANK;
 */
bcast_status bcast_mlir_type_parse(const char *text, size_t len,
                                   bcast_mlir_type *out, size_t *consumed,
                                   bcast_diag *diag);
#endif
