"""bcast: tensor broadcasting for NumPy arrays and shapes.

The reference implementation of broadcasting (NumPy's, MLIR's
Broadcastable trait, TOSA, XLA's explicit BroadcastInDim, ONNX) as a C
library; this package calls it directly from the C extension
``bcast._bcast`` on live NumPy arrays, without copies.

Shapes:  broadcast_shapes, infer, explain, verify_shapes
Views:   broadcast_to, broadcast_arrays, broadcast_in_dim (zero-copy,
         read-only), materialize (new arrays, ONNX Broadcast)
MLIR:    verify_mlir, lower
Tiles:   input_box, output_box, tiles (a broadcast one output box at a
         time; bcast.dask runs ops on dask arrays with them)
Files:   save_op, save_broadcast_to (an op's result or a broadcast
         written to a .npy file tile by tile, within a memory bound)
Ops:     the element-wise ops of the op table, one function each (add,
         mul, clamp, cast, select, ...; also their aliases: multiply,
         where, ...), e.g. add(a, b, out=None, *, profile='numpy',
         checked=False, threads=None); see OPS
Errors:  BroadcastError (ValueError), BudgetError (MemoryError),
         MLIRError (ValueError), CheckedError (ArithmeticError, for
         checked=True); TypeError for unsupported dtypes and
         arguments, OverflowError for sizes beyond 64 bits.

help(bcast.broadcast_shapes) and the others say more.
"""

from . import _bcast
from ._bcast import (
    BroadcastError,
    CheckedError,
    BudgetError,
    MLIRError,
    OPS,
    __version__,
    broadcast_arrays,
    broadcast_in_dim,
    broadcast_shapes,
    broadcast_to,
    explain,
    infer,
    input_box,
    lower,
    materialize,
    output_box,
    plan,
    Plan,
    save_broadcast_to,
    save_op,
    tiles,
    verify_mlir,
    verify_shapes,
)

# The element-wise ops: the functions the C module binds from the op
# table, named in its OPS.
globals().update({name: getattr(_bcast, name) for name in OPS})

__all__ = [
    "BroadcastError",
    "CheckedError",
    "BudgetError",
    "MLIRError",
    "broadcast_arrays",
    "broadcast_in_dim",
    "broadcast_shapes",
    "broadcast_to",
    "explain",
    "infer",
    "input_box",
    "lower",
    "materialize",
    "output_box",
    "plan",
    "Plan",
    "save_broadcast_to",
    "save_op",
    "tiles",
    "verify_mlir",
    "verify_shapes",
    *OPS,
]
