"""bcast: tensor broadcasting for NumPy arrays and shapes.

The reference implementation of broadcasting (NumPy's, MLIR's
Broadcastable trait, TOSA, XLA's explicit BroadcastInDim, ONNX) as a C
library; this package calls it directly from the C extension
``bcast._bcast`` on live NumPy arrays, without copies.

Shapes:  broadcast_shapes, infer, explain, verify_shapes
Views:   broadcast_to, broadcast_arrays, broadcast_in_dim (zero-copy,
         read-only), materialize (new arrays, ONNX Broadcast)
MLIR:    verify_mlir, lower
Errors:  BroadcastError (ValueError), BudgetError (MemoryError),
         MLIRError (ValueError); TypeError for unsupported dtypes and
         arguments, OverflowError for sizes beyond 64 bits.

help(bcast.broadcast_shapes) and the others say more.
"""

from ._bcast import (
    BroadcastError,
    BudgetError,
    MLIRError,
    __version__,
    broadcast_arrays,
    broadcast_in_dim,
    broadcast_shapes,
    broadcast_to,
    explain,
    infer,
    lower,
    materialize,
    verify_mlir,
    verify_shapes,
)

__all__ = [
    "BroadcastError",
    "BudgetError",
    "MLIRError",
    "broadcast_arrays",
    "broadcast_in_dim",
    "broadcast_shapes",
    "broadcast_to",
    "explain",
    "infer",
    "lower",
    "materialize",
    "verify_mlir",
    "verify_shapes",
]
