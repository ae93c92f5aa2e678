"""bcast on dask arrays: broadcasting ops over arrays bigger than a machine.

Every function here builds a Dask graph in which each task makes one output
chunk from exactly the input blocks bcast's tile plan names for it
(``bcast.input_box``): an operand that broadcasts along a dim contributes
the one block that holds its size-1 slice, and no input is broadcast, copied
or rechunked before the kernel runs.  Where an output chunk straddles the
blocks of an operand chunked differently, the task runs the kernel once per
piece, straight from each block into the output chunk.

Ops:     every element-wise op of ``bcast.OPS`` by name (add, mul, clamp,
         cast, select, ... and NumPy's names), e.g. ``add(x, y, *,
         profile='numpy', checked=False, chunks=None, **attributes)``, or
         ``apply(op, *args, ...)``.  Arguments may be dask arrays, NumPy
         arrays or Python scalars (which keep NumPy's weak typing).
Views:   ``broadcast_to``, ``broadcast_in_dim``, ``broadcast_arrays``:
         blocks are read-only stride-0 views of the input's blocks where an
         output chunk lies within one input block, copies otherwise.
         ``materialize``: the same with every block a contiguous copy.

Shapes, types and attributes are checked when the graph is built, with the
errors bcast raises on NumPy arrays; nothing runs until ``.compute()``.
``chunks`` (any form ``dask.array`` takes) sets the output's chunking;
by default each output dim takes the chunks of the first operand that
spans it, and dims every operand broadcasts take Dask's automatic size.
"""

import inspect
import itertools
import operator

import numpy as np
import dask.array as da
from dask.base import tokenize
from dask.highlevelgraph import HighLevelGraph

from . import _bcast as _core

__all__ = ["apply", "broadcast_to", "broadcast_in_dim", "broadcast_arrays",
           "materialize"]


# -- operands ---------------------------------------------------------------

def _is_scalar(x):
    """Python scalars stay scalars (NumPy's weak types)."""
    return isinstance(x, (bool, int, float)) and not isinstance(x, np.generic)


def _as_dask(x, what):
    if isinstance(x, da.Array):
        return x
    try:
        a = np.asarray(x)
    except Exception as e:  # noqa: BLE001 - named in the message
        raise TypeError(f"{what}: not an array: {type(x).__name__}") from e
    if a.dtype == object:
        raise TypeError(f"{what}: object arrays are not supported")
    return da.from_array(a, chunks=a.shape or (), name=False)


def _bounds(chunks):
    """Per dim, the start of each block and the dim's end."""
    out = []
    for c in chunks:
        starts = [0]
        for n in c:
            starts.append(starts[-1] + n)
        out.append(starts)
    return out


def _blocks_over(bounds, lo, hi):
    """Indices of the blocks of one dim that meet [lo, hi)."""
    return [j for j in range(len(bounds) - 1)
            if bounds[j] < hi and bounds[j + 1] > lo]


class _Operand:
    """One array operand: its dask array, the map into the output (None:
    implicit broadcasting) and its block bounds."""

    def __init__(self, array, dims):
        self.array = array
        self.dims = dims
        self.bounds = _bounds(array.chunks)
        self.shape = tuple(int(n) for n in array.shape)

    def place(self, out_rank):
        if self.dims is None:
            off = out_rank - len(self.shape)
            self.out_dim = [off + i for i in range(len(self.shape))]
        else:
            self.out_dim = list(self.dims)


def _out_chunks(out_shape, operands, chunks, dtype):
    """The output's chunks: chunks= when given, else per dim those of the
    first operand spanning it (not broadcasting along it), else auto.  An
    empty output has no bytes to size auto chunks by (Dask's auto_chunks
    divides by the product of the other chunks), so there each such dim is
    one chunk."""
    if chunks is not None:
        return da.core.normalize_chunks(chunks, out_shape, dtype=dtype)
    spec = []
    for d, n in enumerate(out_shape):
        picked = n if 0 in out_shape else "auto"
        for op in operands:
            if d in op.out_dim:
                i = op.out_dim.index(d)
                if op.shape[i] == n:
                    picked = op.array.chunks[i]
                    break
        spec.append(picked)
    return da.core.normalize_chunks(tuple(spec), out_shape, dtype=dtype)


def _block_boxes(chunks):
    """(block index, lo, hi) of every block of a chunking, in C order."""
    bounds = _bounds(chunks)
    for idx in itertools.product(*(range(len(c)) for c in chunks)):
        lo = tuple(bounds[d][j] for d, j in enumerate(idx))
        hi = tuple(bounds[d][j + 1] for d, j in enumerate(idx))
        yield idx, lo, hi


def _feed(op, out_shape, lo, hi):
    """The blocks of an operand that an output box reads, as
    [[block lo, key]], from the tile plan's input box.  Lists, because
    Dask replaces a key by its block inside lists (not tuples)."""
    ilo, ihi = _core.input_box(op.shape, out_shape, lo, hi, op.dims)
    if any(a >= b for a, b in zip(ilo, ihi)):
        return []  # an empty output box reads nothing
    per_dim = [_blocks_over(op.bounds[i], ilo[i], ihi[i])
               for i in range(len(op.shape))]
    feed = []
    for idx in itertools.product(*per_dim):
        blo = tuple(op.bounds[i][j] for i, j in enumerate(idx))
        feed.append([blo, (op.array.name,) + tuple(idx)])
    return feed


# -- the task ---------------------------------------------------------------

def _piece_cuts(spec, lo, hi, feeds):
    """Per output dim, the cut points inside [lo, hi) where some operand's
    block ends, so that every piece reads one block of each operand."""
    cuts = [{lo[d], hi[d]} for d in range(len(lo))]
    for operand, feed in zip(spec["operands"], feeds):
        if feed is None:
            continue
        shape, dims = operand
        for blo, block in feed:
            for i, d in enumerate(dims):
                if shape[i] == spec["out_shape"][d]:  # spans dim d
                    for c in (blo[i], blo[i] + block.shape[i]):
                        if lo[d] < c < hi[d]:
                            cuts[d].add(c)
    return [sorted(c) for c in cuts]


def _operand_view(shape, dims, feed, out_shape, plo, phi):
    """The view of the one block holding what the piece [plo, phi) reads,
    as bcast.input_box names it, relative to that block."""
    ilo, ihi = _core.input_box(shape, out_shape, plo, phi,
                               None if dims is None else list(dims))
    for blo, block in feed:
        if all(b <= a and b2 >= c for a, c, b, b2 in
               zip(ilo, ihi, blo, (x + n for x, n in zip(blo, block.shape)))):
            cut = tuple(slice(a - b, c - b) for a, c, b in zip(ilo, ihi, blo))
            return block[cut] if cut else block
    raise AssertionError("bcast.dask: no block holds an input box")


def _run(spec, lo, hi, *feeds):
    """Makes one output chunk [lo, hi) from the operands' blocks."""
    shape = tuple(b - a for a, b in zip(lo, hi))
    kind = spec["kind"]
    if kind == "view" and len(feeds[0]) == 1:
        # One input block holds it all: a stride-0 view, as dask's own
        # broadcast_to gives.
        (oshape, dims), = spec["operands"]
        v = _operand_view(oshape, dims, feeds[0], spec["out_shape"], lo, hi)
        return _core.broadcast_in_dim(v, shape, list(dims), any_order=True)
    out = np.empty(shape, dtype=spec["dtype"])
    if out.size == 0:
        return out
    cuts = _piece_cuts(spec, lo, hi, feeds)
    for idx in itertools.product(*(range(len(c) - 1) for c in cuts)):
        plo = tuple(cuts[d][j] for d, j in enumerate(idx))
        phi = tuple(cuts[d][j + 1] for d, j in enumerate(idx))
        cut = tuple(slice(a - b, c - b) for a, c, b in zip(plo, phi, lo))
        target = out[cut] if cut else out
        args = []
        for k, (operand, feed) in enumerate(zip(spec["operands"], feeds)):
            if feed is None:
                args.append(spec["scalars"][k])
                continue
            oshape, dims = operand
            v = _operand_view(oshape, None if spec["implicit"][k] else dims,
                              feed, spec["out_shape"], plo, phi)
            if not spec["implicit"][k]:
                v = _core.broadcast_in_dim(v, target.shape, list(dims),
                                           any_order=True)
            args.append(v)
        if kind == "op":
            getattr(_core, spec["op"])(*args, out=target, **spec["kwargs"])
        else:
            np.copyto(target, _core.broadcast_to(args[0], target.shape))
    return out


def _graph(name, kind, out_shape, operands, scalars, chunks, dtype,
           implicit, op=None, kwargs=None):
    """The dask array whose chunk tasks run _run."""
    spec = {
        "kind": kind,
        "op": op,
        "kwargs": kwargs or {},
        "dtype": dtype,
        "out_shape": out_shape,
        "operands": [None if o is None else (o.shape, tuple(o.out_dim))
                     for o in operands],
        "implicit": implicit,
        "scalars": scalars,
    }
    deps = [o.array for o in operands if o is not None]
    layer = {}
    for idx, lo, hi in _block_boxes(chunks):
        feeds = [None if o is None else _feed(o, out_shape, lo, hi)
                 for o in operands]
        layer[(name,) + idx] = (_run, spec, lo, hi, *feeds)
    graph = HighLevelGraph.from_collections(name, layer, dependencies=deps)
    meta = np.empty((0,) * len(out_shape), dtype=dtype)
    return da.Array(graph, name, chunks, meta=meta)


# -- ops --------------------------------------------------------------------

def apply(op, *args, profile="numpy", checked=False, chunks=None, threads=1,
          **attrs):
    """bcast.<op>(*args) on dask arrays: a dask array computed chunk by
    chunk with bcast's kernel.  Raises what bcast.<op> raises on NumPy
    arrays (BroadcastError, TypeError, ...) when the graph is built.
    threads: the kernel's threads per task; 1 by default, because Dask
    already runs one task per worker thread (None: OpenMP's default)."""
    if op not in _core.OPS:
        raise ValueError(f"bcast.dask: unknown op {op!r}")
    if "out" in attrs:
        raise TypeError("bcast.dask: out= is not supported (dask arrays are "
                        "immutable)")
    fn = getattr(_core, op)
    arrays = [None if _is_scalar(a) else _as_dask(a, f"argument {k}")
              for k, a in enumerate(args)]
    kwargs = dict(attrs, profile=profile, checked=checked, threads=threads)
    # The result type and every argument error (threads= too), from
    # stand-ins of one element (empty where the operand is, so that
    # profiles refusing size-0 dims refuse here); then the shapes, by the
    # profile's rule.
    samples = [a if arr is None else np.empty(arr.shape, arr.dtype)
               if arr.size == 0 else np.ones((1,) * arr.ndim, arr.dtype)
               for a, arr in zip(args, arrays)]
    dtype = fn(*samples, **kwargs).dtype
    shapes = [tuple(a.shape) for a in arrays if a is not None]
    out_shape = tuple(_core.broadcast_shapes(*shapes, profile=profile)) \
        if shapes else ()
    operands = []
    for arr in arrays:
        if arr is None:
            operands.append(None)
            continue
        o = _Operand(arr, None)
        o.place(len(out_shape))
        operands.append(o)
    real = [o for o in operands if o is not None]
    out_chunks = _out_chunks(out_shape, real, chunks, dtype)
    name = f"bcast-{op}-" + tokenize(op, out_chunks, profile, checked, threads,
                                     sorted(attrs.items()),
                                     *[a if arr is None else arr.name
                                       for a, arr in zip(args, arrays)])
    scalars = [a if arr is None else None for a, arr in zip(args, arrays)]
    return _graph(name, "op", out_shape, operands, scalars, out_chunks,
                  dtype, [True] * len(operands), op=op, kwargs=kwargs)


def _op_signature(op):
    """bcast.<op>'s signature (its text signature, from the op table)
    with this module's keywords: no out, chunks, threads 1 by default."""
    params = []
    for p in inspect.signature(getattr(_core, op)).parameters.values():
        if p.name == "out":
            continue
        params.append(p.replace(default=1) if p.name == "threads" else p)
        if p.name == "checked":
            params.append(inspect.Parameter(
                "chunks", inspect.Parameter.KEYWORD_ONLY, default=None))
    return inspect.Signature(params)


def _make_op(op):
    def fn(*args, profile="numpy", checked=False, chunks=None, threads=1,
           **attrs):
        return apply(op, *args, profile=profile, checked=checked,
                     chunks=chunks, threads=threads, **attrs)
    fn.__name__ = op
    fn.__qualname__ = op
    fn.__signature__ = _op_signature(op)
    fn.__doc__ = (f"bcast.{op} on dask arrays (see bcast.dask.apply and "
                  f"help(bcast.{op})).")
    return fn


for _op in _core.OPS:
    globals()[_op] = _make_op(_op)
    __all__.append(_op)


# -- broadcasts -------------------------------------------------------------

def _static_shape(shape, stand_in):
    """shape as bcast reads it (ints, None, '?' or names, or shape text),
    as a tuple of ints; a shape with dynamic dims goes, as shape text, to
    bcast.broadcast_to, which refuses it with its message."""
    read = _core.broadcast_shapes(shape)
    if read != "*" and all(isinstance(n, int) for n in read):
        return tuple(read)
    _core.broadcast_to(stand_in, read if read == "*" else "[" + ",".join(
        str(n) if isinstance(n, int) else "?" for n in read) + "]")
    raise AssertionError(f"bcast.dask: {read} was taken as static")


def _broadcast(x, shape, dims, chunks, copy, what):
    arr = _as_dask(x, what)
    # bcast's own checks and errors, on a stand-in of arr's dtype and shape
    # (a view of one element): the shape as bcast reads it (ints, None,
    # '?' or names, or shape text), which must be static, then
    # bcast.broadcast_to's checks for implicit broadcasting, or
    # bcast.broadcast_in_dim's (any order) for a map.
    stand_in = np.broadcast_to(np.empty((), arr.dtype), arr.shape)
    shape = _static_shape(shape, stand_in)
    if dims is None:
        _core.broadcast_to(stand_in, shape)
        dims = list(range(len(shape) - arr.ndim, len(shape)))
    else:
        try:
            dims = list(dims)  # one reading of the caller's object
        except TypeError:
            pass  # no sequence: bcast.broadcast_in_dim refuses it
        _core.broadcast_in_dim(stand_in, shape, dims, any_order=True)
        dims = [operator.index(d) for d in dims]
    o = _Operand(arr, dims)
    o.place(len(shape))
    out_chunks = _out_chunks(shape, [o], chunks, arr.dtype)
    name = ("bcast-materialize-" if copy else "bcast-broadcast-") + tokenize(
        arr.name, shape, dims, out_chunks)
    return _graph(name, "copy" if copy else "view", shape, [o], [None],
                  out_chunks, arr.dtype, [False])


def broadcast_to(x, shape, *, chunks=None):
    """numpy.broadcast_to on a dask array (read-only blocks)."""
    return _broadcast(x, shape, None, chunks, False, "broadcast_to")


def broadcast_in_dim(x, shape, broadcast_dimensions, *, chunks=None):
    """XLA/StableHLO BroadcastInDim: operand dim i lands on output dim
    broadcast_dimensions[i] (any order)."""
    return _broadcast(x, shape, broadcast_dimensions, chunks, False,
                      "broadcast_in_dim")


def _common(arrays, profile):
    arrs = [_as_dask(a, f"array {k}") for k, a in enumerate(arrays)]
    shape = tuple(_core.broadcast_shapes(*[a.shape for a in arrs],
                                         profile=profile))
    ops = []
    for a in arrs:
        o = _Operand(a, None)
        o.place(len(shape))
        ops.append(o)
    return arrs, shape, ops


def broadcast_arrays(*arrays, profile="numpy", chunks=None):
    """numpy.broadcast_arrays on dask arrays: one chunking for all."""
    arrs, shape, ops = _common(arrays, profile)
    out_chunks = _out_chunks(shape, ops, chunks, np.float64)
    return [_broadcast(a, shape, None, out_chunks, False, f"array {k}")
            for k, a in enumerate(arrs)]


def materialize(*arrays, profile="numpy", chunks=None):
    """bcast.materialize (ONNX Broadcast) on dask arrays: every block a
    new contiguous array, one chunking for all."""
    arrs, shape, ops = _common(arrays, profile)
    out_chunks = _out_chunks(shape, ops, chunks, np.float64)
    return [_broadcast(a, shape, None, out_chunks, True, f"array {k}")
            for k, a in enumerate(arrs)]
