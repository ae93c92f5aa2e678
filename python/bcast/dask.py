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
by default each output dim takes the chunks of the first dask array that
spans it (a NumPy array is cut to match), and dims every operand
broadcasts take Dask's automatic size.

Where the operands' blocks line up with the output's, an op is a Blockwise
layer instead (dask.array.blockwise), which Dask's optimizer fuses with
its neighbours; a chain of bcast ops is one layer of bcast's own (below).
Arrays of unknown chunk sizes (nan) work there; elsewhere they raise
Dask's advice (compute_chunk_sizes()).
"""

import collections
import functools
import inspect
import itertools
import math
import operator
import threading

import numpy as np
import dask.array as da
from dask.array.core import unknown_chunk_message
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


def _unknown(n):
    """A dim or chunk size Dask does not know (nan, e.g. after boolean
    indexing)."""
    return isinstance(n, float) and math.isnan(n)


def _known(shape):
    """shape with None for each unknown dim (bcast's dynamic dim)."""
    return tuple(None if _unknown(n) else int(n) for n in shape)


def _same_chunks(a, b):
    """Equal chunkings; two unknown chunk sizes count as equal, as in
    dask.array's elementwise functions."""
    return len(a) == len(b) and all(
        x == y or (_unknown(x) and _unknown(y)) for x, y in zip(a, b))


def _refuse_unknown(what, arrays):
    """Dask's own error and advice where an operation needs chunk sizes
    that some operand does not know."""
    for k, a in enumerate(arrays):
        if a is None:
            continue  # a Python scalar
        dims = [d for d, n in enumerate(a.shape) if _unknown(n)]
        if dims:
            raise ValueError(
                f"bcast.dask: {what}: operand {k} has unknown chunk sizes "
                f"(nan) along dims {dims}, shape {a.shape}; this needs them "
                f"known{unknown_chunk_message}")


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
        self.shape = _known(array.shape)

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
    one chunk.  A dim of unknown size (None) takes the unknown chunks of
    the operand it comes from."""
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
    if all(isinstance(c, tuple) for c in spec):
        return tuple(spec)  # normalize_chunks refuses unknown sizes
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
    out = _out_block(shape, spec["dtype"])
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
    layer = {}
    read = set()
    for idx, lo, hi in _block_boxes(chunks):
        feeds = [None if o is None else _feed(o, out_shape, lo, hi)
                 for o in operands]
        read.update(k for k, f in enumerate(feeds) if f)
        layer[(name,) + idx] = (_run, spec, lo, hi, *feeds)
    # Only the operands some task reads are dependencies: an empty output
    # reads none, and Dask's HighLevelGraph.validate refuses a dependency
    # no task names.
    deps = [o.array for k, o in enumerate(operands) if k in read]
    graph = HighLevelGraph.from_collections(name, layer, dependencies=deps)
    meta = np.empty((0,) * len(out_shape), dtype=dtype)
    return da.Array(graph, name, chunks, meta=meta)


# -- ops --------------------------------------------------------------------

# Elements of one slab of a block whose operands bcast converts to a
# common type: the library converts each operand whole before the kernel,
# and a Dask worker (MALLOC_TRIM_THRESHOLD_=65536) hands back and faults
# in that scratch memory on every call, so slabs run through one plan
# (bcast.plan), whose scratch buffer is made once and stays in cache, as
# NumPy's buffered loops do.
_SLAB_ELEMS = 1 << 16
# Elements of one slab of a block that only needs its misaligned operands
# copied (_realigned): a slab of a few hundred KiB to 1 MiB, which stays in
# L2, in few enough Python steps (measured on Zen 4, a 16 MiB float32
# block at an odd address: 4.28 ms in slabs of 1 << 16, 3.91 to 4.00 in
# slabs of 1 << 18, NumPy 4.01).
_REALIGN_SLAB_ELEMS = 1 << 18


def _slabs(shape, elems=_SLAB_ELEMS):
    """Slices cutting shape into C-order slabs of at most elems elements:
    whole trailing dims, a range of the dim before them, one index of each
    dim before that."""
    k, inner = len(shape), 1
    while k > 0 and inner * shape[k - 1] <= elems:
        k -= 1
        inner *= shape[k]
    if k == 0:
        yield ()
        return
    step = max(1, elems // inner)
    for lead in np.ndindex(*shape[:k - 1]):
        for a in range(0, shape[k - 1], step):
            yield tuple(slice(i, i + 1) for i in lead) + (slice(a, a + step),)


def _slab_of(block, cut, out_rank):
    """What the output slab cut reads of an operand block (right-aligned
    as NumPy's): the cut on each dim it spans, its size-1 dims whole."""
    if not isinstance(block, np.ndarray):
        return block  # a Python scalar
    off = out_rank - block.ndim
    return block[tuple(cut[off + i] if off + i < len(cut) and n != 1
                       else slice(None) for i, n in enumerate(block.shape))]


class _Kept(threading.local):
    """What a worker thread keeps from task to task: plans (bcast.plan)
    by op and operand layout, and scratch arrays by use, shape and type.
    A Dask worker returns freed memory to the system at once
    (MALLOC_TRIM_THRESHOLD_=65536), so a plan's conversion buffer or a
    scratch slab made afresh in every task is faulted in again in every
    task; kept, they stay in cache.  Each holds at most _KEPT entries,
    the least recently used going first."""

    def __init__(self):
        self.plans = collections.OrderedDict()
        self.arrays = collections.OrderedDict()

    @staticmethod
    def _take(table, key, make):
        got = table.get(key)
        if got is None:
            got = table[key] = make()
            while len(table) > _KEPT:
                table.popitem(last=False)
        else:
            table.move_to_end(key)
        return got

    def plan(self, op, kwargs, vals, dest):
        key = (op, tuple(sorted((k, repr(v)) for k, v in kwargs.items())),
               tuple(_layout(v) for v in vals), _layout(dest))
        return self._take(self.plans, key,
                          lambda: _core.plan(op, *vals, out=dest, **kwargs))

    def array(self, use, shape, dtype):
        return self._take(self.arrays, (use, shape, np.dtype(dtype)),
                          lambda: np.empty(shape, dtype))


_KEPT = 32
_kept = _Kept()


def _layout(v):
    """What a plan is made for, of an operand: an array's type, shape and
    strides; a Python scalar's type and value (weak typing)."""
    if isinstance(v, np.ndarray):
        return (v.dtype.str, v.shape, v.strides)
    return (type(v).__name__, repr(v))


def _run_planned(plans, use, op, kwargs, vals, dest):
    """bcast.<op>(*vals) into the slab dest through plans[use, dest.shape]:
    this thread's plan for their layout, looked up on a task's first slab
    of each shape (a plan converts operands into its own scratch buffer,
    made once, and skips the checks on arrays laid out as it was made
    for)."""
    plan = plans.get((use, dest.shape))
    if plan is None:
        plan = plans[use, dest.shape] = _kept.plan(op, kwargs, vals, dest)
    plan(*vals, out=dest)


_HUGE = 2 << 20  # bytes of a transparent huge page (x86-64)


def _out_block(shape, dtype):
    """An output block: np.empty, except that a block of 4 MiB or more
    starts on a huge-page boundary (NumPy advises huge pages from the
    first boundary in its buffer on; its own pointer lies just past a
    page, so the first and last 2 MiB of every block would fault in as
    4 KiB pages, about 500 faults a block)."""
    dtype = np.dtype(dtype)
    nbytes = math.prod(shape) * dtype.itemsize
    if nbytes < 2 * _HUGE:
        return np.empty(shape, dtype)
    raw = np.empty(nbytes + _HUGE, np.uint8)
    skip = -raw.ctypes.data % _HUGE
    return raw[skip:skip + nbytes].view(dtype).reshape(shape)


def _block_op(op, kwargs, dtype, *blocks):
    """bcast.<op> on one block of each operand (Python scalars as they
    are), as a Blockwise task of one op runs it.  The output block is
    NumPy's np.empty, filled through out= (NumPy's allocator faults large
    blocks in as huge pages where it can).  An empty block gives an empty
    result without the kernel, as profiles refusing size-0 dims would
    refuse a block the whole array's check let through.  Operands of
    different types run slab by slab."""
    arrays = [b for b in blocks if isinstance(b, np.ndarray)]
    out = _out_block(np.broadcast_shapes(*[b.shape for b in arrays])
                     if arrays else (), dtype)
    if out.size == 0:
        return out
    odd = [k for k, b in enumerate(blocks) if _misaligned(b)]
    if out.size <= _SLAB_ELEMS or (len({b.dtype for b in arrays}) < 2
                                   and not odd):
        return getattr(_core, op)(*blocks, out=out, **kwargs)
    same = len({b.dtype for b in arrays}) < 2
    plans = {}
    for cut in _slabs(out.shape, _REALIGN_SLAB_ELEMS if same else _SLAB_ELEMS):
        vals = [_slab_of(b, cut, out.ndim) for b in blocks]
        for k in odd:
            vals[k] = _realigned(("operand", k), vals[k])
        _run_planned(plans, 0, op, kwargs, vals, out[cut])
    return out


def _misaligned(block):
    """Whether a block is an array not aligned for its elements, as blocks
    Dask received from another worker can be (a pickled array's data lies
    where the message put it)."""
    return isinstance(block, np.ndarray) and not block.flags.aligned


def _realigned(use, view):
    """view copied into this thread's aligned scratch array for use, made
    once and reused slab by slab and task by task: bcast reads a
    misaligned array from an aligned copy, and a whole block's copy would
    be faulted in on every task (measured on Zen 4, a 16 MiB float32 block
    at an odd address in a Dask worker: bcast.add 6.2 ms whole, NumPy
    3.7)."""
    buf = _kept.array(use, view.shape, view.dtype)
    np.copyto(buf, view)
    return buf


# -- bcast's own fusion ----------------------------------------------------
#
# An op whose operand is the result of another bcast op over the same
# output chunks takes that op's expression in: one layer computes both
# from their inputs, slab by slab, so that each slab goes through every op
# while it is in cache, and an intermediate that only one op reads is
# overwritten by it (in place), as NumPy's temporary elision does for
# x * y + 2.  Dask's optimizer would fuse the two layers into one task as
# well, but each op would then make and pass on a whole block.

_MAX_NODES = 32  # ops one expression takes in; a longer chain goes on in
                 # a new expression (and Dask's optimizer fuses those)


class _Expr:
    """One bcast op of an expression: args are ("leaf", key) for a block
    of an input (key: the input's name and index), ("scalar", value) or
    ("expr", _Expr); nodes: the ops below and this one.  Tasks carry it,
    so it holds no dask array: a result array made from it keeps the
    inputs (key -> (array, index)) in its _bcast_leaves."""

    __slots__ = ("op", "kwargs", "dtype", "args", "nodes")

    def __init__(self, op, kwargs, dtype):
        self.op, self.kwargs, self.dtype = op, kwargs, dtype
        self.args, self.nodes = [], 1

    def take(self, leaves, arg, operand, out_chunks):
        """Adds one operand: a scalar, an expression taken in, or a leaf
        (into leaves)."""
        if operand is None:
            self.args.append(("scalar", arg))
            return
        sub = getattr(operand.array, "_bcast_expr", None)
        if (sub is not None and self.nodes + sub.nodes <= _MAX_NODES
                and operand.out_dim == list(range(len(out_chunks)))
                and all(_same_chunks(a, b) for a, b in
                        zip(operand.array.chunks, out_chunks))):
            self.args.append(("expr", sub))
            leaves.update(operand.array._bcast_leaves)
            self.nodes += sub.nodes
            return
        ind = tuple(operand.out_dim)
        key = (operand.array.name, ind)
        self.args.append(("leaf", key))
        leaves[key] = (operand.array, ind)


def _uses(root):
    """How many args name each expression below root (by id)."""
    uses, seen, stack = {}, set(), [root]
    while stack:
        e = stack.pop()
        if id(e) in seen:
            continue
        seen.add(id(e))
        for kind, v in e.args:
            if kind == "expr":
                uses[id(v)] = uses.get(id(v), 0) + 1
                stack.append(v)
    return uses


def _post_order(root):
    """The expressions below root and root, each after those it reads."""
    order, seen = [], set()

    def visit(e):
        seen.add(id(e))
        for kind, v in e.args:
            if kind == "expr" and id(v) not in seen:
                visit(v)
        order.append(e)

    visit(root)  # at most _MAX_NODES deep
    return order


def _run_fused(root, keys, *blocks):
    """A Blockwise task of an expression: its output block.  One op runs
    on the whole block (_block_op); a chain runs slab by slab (_slabs), every
    op of it on one slab while that stays in cache, each op through this
    thread's plan for its layout, into a scratch slab of its own (kept
    from task to task) or, where one op alone reads an intermediate of its
    type, into that (in place)."""
    blocks = dict(zip(keys, blocks))
    if root.nodes == 1:
        return _block_op(root.op, root.kwargs, root.dtype,
                         *[blocks[v] if kind == "leaf" else v
                           for kind, v in root.args])
    shapes = [b.shape for b in blocks.values()]
    out = _out_block(np.broadcast_shapes(*shapes) if shapes else (),
                     root.dtype)
    if out.size == 0:
        return out
    order, uses = _post_order(root), _uses(root)
    plans = {}
    cuts = [()] if out.size <= _SLAB_ELEMS else _slabs(out.shape)
    for cut in cuts:
        target = out[cut] if cut else out
        done = {}
        for i, e in enumerate(order):
            vals, own = [], []
            for j, (kind, v) in enumerate(e.args):
                if kind == "leaf":
                    slab = _slab_of(blocks[v], cut, out.ndim)
                    vals.append(_realigned(("leaf", i, j), slab)
                                if _misaligned(slab) else slab)
                elif kind == "scalar":
                    vals.append(v)
                else:
                    vals.append(done[id(v)])
                    if uses[id(v)] == 1:
                        own.append(done[id(v)])
            dest = target if e is root else next(
                (b for b in own if b.dtype == e.dtype
                 and b.shape == target.shape), None)
            if dest is None:
                dest = _kept.array(("node", i), target.shape, e.dtype)
            _run_planned(plans, i, e.op, e.kwargs, vals, dest)
            done[id(e)] = dest
    return out


def _aligned(operands, out_chunks):
    """Whether every operand's blocks line up with the output's: per dim,
    the output's chunks, or one block of size 1 that it broadcasts."""
    for o in operands:
        for i, d in enumerate(o.out_dim):
            c = o.array.chunks[i]
            if not (_same_chunks(c, out_chunks[d]) or c == (1,)):
                return False
    return True


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
    # profile's rule, an unknown size (nan) read as a dynamic dim.
    samples = [a if arr is None else np.empty(arr.shape, arr.dtype)
               if arr.size == 0 else np.ones((1,) * arr.ndim, arr.dtype)
               for a, arr in zip(args, arrays)]
    dtype = fn(*samples, **kwargs).dtype
    shapes = [_known(a.shape) for a in arrays if a is not None]
    out_shape = list(_core.broadcast_shapes(*shapes, profile=profile)
                     if shapes else ())
    operands = []
    for arr in arrays:
        if arr is None:
            operands.append(None)
            continue
        o = _Operand(arr, None)
        o.place(len(out_shape))
        # A dim some operand does not know the size of is unknown in the
        # output too, as in dask.array.
        for i, d in enumerate(o.out_dim):
            if o.shape[i] is None:
                out_shape[d] = None
        operands.append(o)
    out_shape = tuple(out_shape)
    # Dask arrays choose the output's chunks before arrays made here from
    # NumPy ones (one block each); those are then cut like the output, so
    # that their blocks line up with it.
    given = [o for a, o in zip(args, operands)
             if o is not None and isinstance(a, da.Array)]
    made = [(a, o) for a, o in zip(args, operands)
            if o is not None and not isinstance(a, da.Array)]
    real = given + [o for _, o in made]
    unknown = None in out_shape
    if unknown and chunks is not None:
        _refuse_unknown(f"{op} with chunks=", arrays)
    out_chunks = _out_chunks(out_shape, real, chunks, dtype)
    for a, o in made:
        o.array = da.from_array(np.asarray(a), name=False, chunks=tuple(
            out_chunks[d] if o.shape[i] == out_shape[d] else o.shape[i]
            for i, d in enumerate(o.out_dim)))
        o.bounds = _bounds(o.array.chunks)
    real = [o for o in operands if o is not None]
    name = f"bcast-{op}-" + tokenize(op, out_chunks, profile, checked, threads,
                                     sorted(attrs.items()),
                                     *[a if arr is None else arr.name
                                       for a, arr in zip(args, arrays)])
    if _aligned(real, out_chunks):
        # Blocks line up: one Blockwise layer, which Dask's optimizer fuses
        # with the Blockwise layers around it (a chain of bcast ops, or of
        # dask.array's element-wise functions, runs as one task per chunk).
        # An operand that is another bcast op's result over the same
        # chunks is taken into this layer's expression (bcast's own
        # fusion, above).
        root, leaves = _Expr(op, kwargs, dtype), {}
        for a, o in zip(args, operands):
            root.take(leaves, a, o, out_chunks)
        keys = list(leaves)
        pairs = []
        for k in keys:
            pairs += list(leaves[k])
        z = da.blockwise(
            functools.partial(_run_fused, root, keys),
            tuple(range(len(out_shape))), *pairs, name=name, dtype=dtype,
            meta=np.empty((0,) * len(out_shape), dtype), align_arrays=False,
            adjust_chunks=dict(enumerate(out_chunks)), concatenate=True)
        z._bcast_expr, z._bcast_leaves = root, leaves
        return z
    if unknown:
        _refuse_unknown(f"{op} of operands chunked differently", arrays)
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
    if not copy and _is_identity(arr, shape, dims, chunks):
        return arr  # as dask.array.broadcast_to gives
    _refuse_unknown(what, [arr])
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


def _is_identity(arr, shape, dims, chunks):
    """Whether a broadcast of arr changes nothing: the same shape (unknown
    dims where arr has them), dims in order, and the same chunks."""
    def same_dim(n, m):
        if _unknown(m) or _unknown(n):
            return _unknown(m) and _unknown(n)
        return not isinstance(n, (bool, str)) and operator.index(n) == m

    try:
        same = not isinstance(shape, str) and len(shape) == arr.ndim and all(
            same_dim(n, m) for n, m in zip(shape, arr.shape))
        same = same and (dims is None or [operator.index(d) for d in dims]
                         == list(range(arr.ndim)))
    except TypeError:
        return False  # shape text, or no sequence: bcast reads it below
    if not same or chunks is None:
        return same
    if any(_unknown(n) for n in arr.shape):
        return all(_same_chunks(a, b) for a, b in zip(chunks, arr.chunks)) \
            if isinstance(chunks, tuple) and len(chunks) == arr.ndim \
            and all(isinstance(c, tuple) for c in chunks) else False
    return da.core.normalize_chunks(chunks, arr.shape, dtype=arr.dtype) \
        == arr.chunks


def broadcast_to(x, shape, *, chunks=None):
    """numpy.broadcast_to on a dask array (read-only blocks)."""
    return _broadcast(x, shape, None, chunks, False, "broadcast_to")


def broadcast_in_dim(x, shape, broadcast_dimensions, *, chunks=None):
    """XLA/StableHLO BroadcastInDim: operand dim i lands on output dim
    broadcast_dimensions[i] (any order)."""
    return _broadcast(x, shape, broadcast_dimensions, chunks, False,
                      "broadcast_in_dim")


def _common(arrays, profile, what):
    arrs = [_as_dask(a, f"array {k}") for k, a in enumerate(arrays)]
    _refuse_unknown(what, arrs)
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
    arrs, shape, ops = _common(arrays, profile, "broadcast_arrays")
    out_chunks = _out_chunks(shape, ops, chunks, np.float64)
    return [_broadcast(a, shape, None, out_chunks, False, f"array {k}")
            for k, a in enumerate(arrs)]


def materialize(*arrays, profile="numpy", chunks=None):
    """bcast.materialize (ONNX Broadcast) on dask arrays: every block a
    new contiguous array, one chunking for all."""
    arrs, shape, ops = _common(arrays, profile, "materialize")
    out_chunks = _out_chunks(shape, ops, chunks, np.float64)
    return [_broadcast(a, shape, None, out_chunks, True, f"array {k}")
            for k, a in enumerate(arrs)]
