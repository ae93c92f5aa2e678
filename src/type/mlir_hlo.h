/* Internal: StableHLO's and CHLO's broadcasting ops, judged as their
 * verifiers judge them (mlir_hlo.c), and the type pieces they read
 * (mlir_hlo_types.c). */
#ifndef BCAST_TYPE_MLIR_HLO_H
#define BCAST_TYPE_MLIR_HLO_H

#include "bcast/mlir.h"

/* ------------------------------------------------------------------------ */
/* Element types and encodings. */

/* StableHLO's element type classes (HLO_Pred, HLO_Int, HLO_Float,
 * HLO_Complex, HLO_QuantizedInt and its per-axis kin); OTHER for the rest
 * ("index", "i3", "!foo.bar"). */
typedef enum bcast__hlo_elem {
  BCAST__HLO_OTHER,
  BCAST__HLO_PRED,
  BCAST__HLO_INT,
  BCAST__HLO_FLOAT,
  BCAST__HLO_COMPLEX,
  BCAST__HLO_QUANT
} bcast__hlo_elem;

bcast__hlo_elem bcast__hlo_elem_class(const char *e, size_t n);

/* A !quant.uniform<STORAGE[<MIN:MAX>]:EXPRESSED[:AXIS], PARAMS> type:
 * PARAMS is "scale[:zp]" per tensor (axis -1), "{s:zp, ...}" per axis. */
typedef struct bcast__hlo_quant {
  const char *storage;
  size_t storage_len;
  int64_t storage_min, storage_max; /* the storage type's range if unset */
  const char *expressed;
  size_t expressed_len;
  int64_t axis;       /* quantization_dimension; -1 per tensor */
  const char *params; /* the entries, without braces */
  size_t params_len;
  size_t n_params;
} bcast__hlo_quant;

/* Reads a quantized element type; 0 when e is not one bcast models
 * (malformed, a sub-channel type, a storage type it does not know). */
int bcast__hlo_quant_parse(const char *e, size_t n, bcast__hlo_quant *q);
/* The k-th scale and zero point (zero point 0 when not written); 0 past
 * the end. */
int bcast__hlo_quant_param(const bcast__hlo_quant *q, size_t k, double *scale,
                           int64_t *zp);
/* Same scales and zero points, in order. */
int bcast__hlo_quant_same_params(const bcast__hlo_quant *a,
                                 const bcast__hlo_quant *b);
/* StableHLO's compatible quantized element types: storage type, its range
 * and the expressed type equal, both per tensor or both per axis. */
int bcast__hlo_quant_compatible(const bcast__hlo_quant *a,
                                const bcast__hlo_quant *b);

/* Reads a tensor's encoding into bounds[0..rank) (BCAST_DIM_DYNAMIC where
 * unbounded): none (enc NULL) gives no bounds; "#stablehlo.bounds<..>"
 * with one entry per dim.  Returns 0 for any other encoding or a
 * malformed one (bcast cannot check it). */
int bcast__hlo_bounds_parse(const char *enc, size_t n, int32_t rank,
                            int64_t *bounds);

/* ------------------------------------------------------------------------ */
/* The ops. */

/* Which of StableHLO's and CHLO's ops bcast models (0: none). */
typedef enum bcast__hlo_kind {
  BCAST__HLO_NONE,
  BCAST__HLO_BROADCAST,         /* stablehlo.broadcast */
  BCAST__HLO_BROADCAST_IN_DIM,  /* stablehlo.broadcast_in_dim */
  BCAST__HLO_DYNAMIC_BROADCAST, /* stablehlo.dynamic_broadcast_in_dim */
  BCAST__HLO_ELEMENTWISE,       /* stablehlo.add, ...: same shapes */
  BCAST__HLO_CHLO_BINARY,       /* chlo.broadcast_add, ... */
  BCAST__HLO_CHLO_SELECT        /* chlo.broadcast_select */
} bcast__hlo_kind;

bcast__hlo_kind bcast__hlo_kind_of(const char *name, size_t len);

/* Verifies a StableHLO or CHLO op of a kind bcast models, in the order
 * and words of its MLIR verifier.  chlo_xla: CHLO ops with
 * broadcast_dimensions follow XLA's rule instead (the caller does that);
 * this function is not called for them.  Returns BCAST_UNSUPPORTED with
 * verdict->cannot_check set when the op is outside bcast's model. */
bcast_status bcast__hlo_verify(const bcast_mlir_op *op, bcast__hlo_kind kind,
                               bcast_mlir_verdict *verdict, bcast_diag *diag);

#endif
