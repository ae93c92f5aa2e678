"""bcast.dask on a dask.distributed LocalCluster of 2 worker processes:
results equal NumPy's on random shapes and chunkings (uneven chunks, size-0
dims, chunks of 1, operands chunked unlike the output), each output task
reads exactly the input blocks the tile plan names, and errors come when
the graph is built.  ctest runs this file as its own test ("dask", Release
builds only: a cluster of sanitized interpreters is not meaningful)."""
import logging

import numpy as np
import pytest

import bcast
import bcast.dask as bd
import dask
import dask.array as da
from distributed import Client, LocalCluster


@pytest.fixture(scope="module")
def client():
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                           dashboard_address=None, silence_logs=logging.ERROR)
    c = Client(cluster)
    yield c
    c.close()
    cluster.close()


def random_chunks(rng, n):
    """A random chunking of a dim of n: uneven, sometimes all 1s."""
    if n == 0:
        return (0,)
    kind = rng.randrange(4)
    if kind == 0:
        return (n,)
    if kind == 1:
        return (1,) * n
    cuts = sorted(rng.sample(range(1, n), rng.randrange(0, n))) if n > 1 else []
    edges = [0] + cuts + [n]
    return tuple(b - a for a, b in zip(edges, edges[1:]))


def random_operands(rng, nrng, n, dtype):
    """n operands that broadcast NumPy's way, with their own chunkings."""
    rank = rng.randrange(0, 5)
    out = [rng.choice([0, 1, 2, 3, 5, 7]) if rng.random() < 0.1
           else rng.choice([1, 2, 3, 5, 7]) for _ in range(rank)]
    arrays = []
    for _ in range(n):
        r = rng.randrange(0, rank + 1)
        shape = tuple(1 if rng.random() < 0.3 else d for d in out[rank - r:])
        if dtype == np.bool_:
            a = nrng.integers(0, 2, size=shape).astype(np.bool_)
        elif np.issubdtype(dtype, np.integer):
            a = nrng.integers(-50, 50, size=shape).astype(dtype)
        else:
            a = (nrng.standard_normal(size=shape) * 10).astype(dtype)
        arrays.append(a)
    return arrays


CASES = [("add", np.add, 2), ("subtract", np.subtract, 2),
         ("multiply", np.multiply, 2), ("maximum", np.maximum, 2),
         ("where", np.where, 3), ("negative", np.negative, 1)]


def random_case(rng, nrng, dtype):
    """An op of CASES, its NumPy reference, NumPy operands and the same as
    dask arrays chunked at random."""
    name, ref, n = rng.choice(CASES)
    arrays = random_operands(rng, nrng, n, dtype)
    if name == "where":
        arrays[0] = arrays[0] > 0
    darrs = [da.from_array(a, chunks=tuple(random_chunks(rng, d)
                                           for d in a.shape))
             for a in arrays]
    return name, ref, arrays, darrs


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int32])
def test_ops_equal_numpy_on_random_chunkings(client, rng, nrng, dtype):
    for _ in range(25):
        name, ref, arrays, darrs = random_case(rng, nrng, dtype)
        z = getattr(bd, name)(*darrs)
        want = ref(*arrays)
        got = client.compute(z).result()
        assert got.dtype == want.dtype, (name, got.dtype, want.dtype)
        assert got.shape == want.shape
        np.testing.assert_array_equal(got, want)


def test_output_chunks_given_and_scalars(client, rng, nrng):
    for _ in range(10):
        x, y = random_operands(rng, nrng, 2, np.float32)
        dx = da.from_array(x, chunks=tuple(random_chunks(rng, d)
                                           for d in x.shape))
        shape = np.broadcast_shapes(x.shape, y.shape)
        chunks = tuple(random_chunks(rng, d) for d in shape)
        z = bd.add(dx, y, chunks=chunks)  # y: a NumPy array
        assert z.chunks == chunks
        np.testing.assert_array_equal(client.compute(z).result(), x + y)
        # A Python scalar keeps NumPy's weak type: float32 stays float32.
        w = bd.multiply(dx, 3)
        assert w.dtype == np.float32
        np.testing.assert_array_equal(client.compute(w).result(),
                                      x * np.float32(3))  # NEP 50


def test_each_task_reads_exactly_the_blocks_the_tile_plan_names():
    col = da.from_array(np.arange(10, dtype=np.float32).reshape(10, 1),
                        chunks=(3, 1))
    row = da.from_array(np.arange(8, dtype=np.float32).reshape(1, 8),
                        chunks=(1, 5))
    z = bd.add(col, row, chunks=(4, 3))
    layer = z.dask.layers[z.name]
    assert set(z.dask.layers) == {z.name, col.name, row.name}
    for key, task in layer.items():
        _, i, j = key
        lo = (sum(z.chunks[0][:i]), sum(z.chunks[1][:j]))
        hi = (lo[0] + z.chunks[0][i], lo[1] + z.chunks[1][j])
        for arr, feed in ((col, task[4]), (row, task[5])):
            ilo, ihi = bcast.input_box(arr.shape, z.shape, lo, hi)
            want = set()
            for bi, (a, b) in enumerate(zip(np.cumsum((0,) + arr.chunks[0]),
                                            np.cumsum(arr.chunks[0]))):
                for bj, (c, d) in enumerate(
                        zip(np.cumsum((0,) + arr.chunks[1]),
                            np.cumsum(arr.chunks[1]))):
                    if a < ihi[0] and b > ilo[0] and c < ihi[1] and d > ilo[1]:
                        want.add((arr.name, bi, bj))
            assert {k for _, k in feed} == want, (key, arr.name)
    np.testing.assert_array_equal(
        z.compute(scheduler="synchronous"),
        np.arange(10, dtype=np.float32)[:, None] + np.arange(8))


def test_broadcast_functions_equal_numpy(client, rng, nrng):
    for _ in range(15):
        x, = random_operands(rng, nrng, 1, np.int32)
        shape = tuple(rng.choice([1, 2, 4]) for _ in range(rng.randrange(2)))
        shape = shape + tuple(rng.choice([2, 3]) if d == 1 else d
                              for d in x.shape)
        dx = da.from_array(x, chunks=tuple(random_chunks(rng, d)
                                           for d in x.shape))
        want = np.broadcast_to(x, shape)
        for chunks in (None, tuple(random_chunks(rng, d) for d in shape)):
            got = client.compute(bd.broadcast_to(dx, shape, chunks=chunks))
            np.testing.assert_array_equal(got.result(), want)
        other = np.arange(shape[-1] if shape else 1, dtype=np.int32)
        a, b = bd.broadcast_arrays(dx, other)
        assert a.chunks == b.chunks
        wa, wb = np.broadcast_arrays(x, other)
        np.testing.assert_array_equal(client.compute(a).result(), wa)
        np.testing.assert_array_equal(client.compute(b).result(), wb)
        m = bd.materialize(dx, np.zeros(shape, np.int8))
        res = client.compute(m[0]).result()
        np.testing.assert_array_equal(res, want)
    # BroadcastInDim, any order: (3, 2) onto dims (2, 0) of (2, 4, 3).
    x = np.arange(6, dtype=np.int16).reshape(3, 2)
    dx = da.from_array(x, chunks=(2, 1))
    z = bd.broadcast_in_dim(dx, (2, 4, 3), [2, 0], chunks=(1, 3, 2))
    want = np.broadcast_to(x.T[:, None, :], (2, 4, 3))
    np.testing.assert_array_equal(client.compute(z).result(), want)


def test_profiles_checked_and_attributes(client):
    x = da.from_array(np.full((4, 1), 1 << 30, np.int32), chunks=2)
    y = da.from_array(np.full((1, 6), 1 << 30, np.int32), chunks=4)
    # tosa: equal ranks, checked arithmetic raises at compute.
    z = bd.add(x, y, profile="tosa", checked=True)
    with pytest.raises(bcast.CheckedError):
        client.compute(z).result()
    np.testing.assert_array_equal(
        client.compute(bd.add(x, y, profile="tosa")).result(),
        np.full((4, 6), -(1 << 31), np.int32))  # wraps, as TOSA's add
    f = da.from_array(np.linspace(-3, 3, 12, dtype=np.float32).reshape(3, 4),
                      chunks=(2, 3))
    got = client.compute(bd.clamp(f, min_val=-1.0, max_val=1.5,
                                  profile="tosa")).result()
    np.testing.assert_array_equal(got, np.clip(f.compute(), -1.0, 1.5))
    got = client.compute(bd.cast(f, to="float16")).result()
    assert got.dtype == np.float16
    np.testing.assert_array_equal(got, f.compute().astype(np.float16))


def test_errors_come_when_the_graph_is_built():
    x = da.ones((4, 3), chunks=2)
    with pytest.raises(bcast.BroadcastError, match="incompatible"):
        bd.add(x, da.ones((4,), chunks=2))
    with pytest.raises(bcast.BroadcastError, match="rank"):
        bd.add(x.astype(np.float32), da.ones((3,), chunks=2, dtype=np.float32),
               profile="tosa")
    with pytest.raises(bcast.BroadcastError, match="size 0"):
        bd.add(da.ones((0, 3), dtype=np.float32),
               da.ones((1, 3), dtype=np.float32), profile="tosa")
    with pytest.raises(TypeError):
        bd.add(x, {"not": "an array"})
    with pytest.raises(TypeError, match="out="):
        bd.add(x, x, out=np.empty((4, 3)))
    with pytest.raises(TypeError):
        bd.logical_and(x, x, profile="tosa")  # float operands
    with pytest.raises(ValueError, match="unknown op"):
        bd.apply("no_such_op", x)
    with pytest.raises(bcast.BroadcastError):
        bd.broadcast_in_dim(da.ones((3, 2)), (3, 4), [0, 1])
    with pytest.raises(bcast.BroadcastError):
        bd.broadcast_to(da.ones((3, 2)), (2,))
    with pytest.raises(ValueError, match="static"):
        bd.broadcast_to(da.ones((3, 1)), (3, None))
    with pytest.raises(ValueError, match="negative"):
        bd.broadcast_to(da.ones((3, 1)), (-1, 3))
    with pytest.raises(TypeError):
        bd.broadcast_to(da.ones((3, 1)), (3, 4.5))
    # threads= as bcast reads it, when the graph is built; dims are ints
    # (not truncated floats or numeric strings)
    for threads in [-1, -2**31 - 1, 4097]:
        with pytest.raises(ValueError, match="threads"):
            bd.add(x, x, threads=threads)
    for dims in [[1.7], ["1"]]:
        with pytest.raises(TypeError, match="broadcast_dimensions"):
            bd.broadcast_in_dim(da.ones(3), (2, 3), dims)


def test_errors_are_bcasts_own():
    """bcast.dask words no shape error itself: each is the error bcast
    raises on a NumPy array of the same shape (class, message, and the
    library's status where it has one)."""
    def error(call):
        with pytest.raises(Exception) as e:
            call()
        return type(e.value), str(e.value), getattr(e.value, "status", None)

    cases = [
        (lambda: bd.broadcast_to(da.ones((3, 2)), (2,)),
         lambda: bcast.broadcast_to(np.ones((3, 2)), (2,))),
        (lambda: bd.broadcast_to(da.ones((3, 2)), (4, 2)),
         lambda: bcast.broadcast_to(np.ones((3, 2)), (4, 2))),
        (lambda: bd.broadcast_in_dim(da.ones((3, 2)), (3, 4), [0, 1]),
         lambda: bcast.broadcast_in_dim(np.ones((3, 2)), (3, 4), [0, 1],
                                        any_order=True)),
        (lambda: bd.broadcast_in_dim(da.ones(3), (2, 3), [1.7]),
         lambda: bcast.broadcast_in_dim(np.ones(3), (2, 3), [1.7])),
        (lambda: bd.broadcast_in_dim(da.ones(3), (2, 3), 1),
         lambda: bcast.broadcast_in_dim(np.ones(3), (2, 3), 1)),
        # A dynamic dim, as bcast refuses it where sizes must be static.
        (lambda: bd.broadcast_to(da.ones((3, 1)), (3, None)),
         lambda: bcast.broadcast_to(np.ones((3, 1)), "[3,?]")),
        (lambda: bd.broadcast_to(da.ones((3, 1)), "*"),
         lambda: bcast.broadcast_to(np.ones((3, 1)), "*")),
    ]
    for dask_call, numpy_call in cases:
        assert error(dask_call) == error(numpy_call)
    assert error(cases[0][0])[2] == "BCAST_RANK_MISMATCH"


def test_size_zero_and_zero_rank(client):
    x = da.from_array(np.ones((0, 3), np.float32), chunks=(1, 2))
    y = da.from_array(np.ones((1, 3), np.float32), chunks=(1, 1))
    z = bd.add(x, y)
    assert z.shape == (0, 3)
    assert client.compute(z).result().shape == (0, 3)
    s = bd.add(da.from_array(np.float32(2)), 3)
    assert client.compute(s).result() == np.float32(5)


def test_size_zero_output_with_new_dims(client):
    # Dask's auto chunking divides by the other chunks' product, which is 0
    # for an empty output (seed 3846577106 of the test above found it).
    x = da.from_array(np.ones((2, 0), np.int32), chunks=(1, 1))
    for shape in ((2, 2, 0), (4, 2, 0), (3, 1, 2, 0)):
        got = bd.broadcast_to(x, shape)
        assert got.shape == shape
        assert client.compute(got).result().shape == shape
    z = bd.add(x, da.ones((5, 1, 1), np.int32))
    assert client.compute(z).result().shape == (5, 2, 0)


# -- Dask's own conventions (issue 24 item 6) -------------------------------

def unknown_chunks():
    """A (6,) float64 array of unknown chunk sizes (boolean indexing), and
    its values."""
    x = da.from_array(np.arange(10.0), chunks=3)
    return x[x > 3], np.arange(10.0)[4:]


def test_unknown_chunk_sizes_work_where_dask_array_works():
    y, want = unknown_chunks()
    assert np.isnan(y.shape[0])
    z = bd.add(bd.multiply(y, 2), y)
    assert np.isnan(z.shape[0]) and len(z.chunks[0]) == len(y.chunks[0])
    np.testing.assert_array_equal(z.compute(scheduler="sync"), want * 3)
    # beside a size-1 operand, a NumPy array and a scalar, as y * w + 1
    w = np.float32([2])
    got = bd.add(bd.multiply(y, w), 1).compute(scheduler="sync")
    np.testing.assert_array_equal(got, (y * w + 1).compute(scheduler="sync"))
    assert bd.broadcast_to(y, y.shape) is y


def test_unknown_chunk_sizes_elsewhere_fail_with_dasks_advice():
    y, _ = unknown_chunks()
    x = da.ones(6, chunks=3)
    calls = [lambda: bd.add(y, x),  # dask.array's y + x fails too
             lambda: bd.add(y, y, chunks=2),
             lambda: bd.broadcast_to(y, (2, 6)),
             lambda: bd.broadcast_arrays(y, x),
             lambda: bd.materialize(y)]
    for call in calls:
        with pytest.raises(ValueError, match="compute_chunk_sizes"):
            call()


def test_graphs_pass_dasks_own_checks(rng, nrng):
    for _ in range(20):
        name, ref, arrays, darrs = random_case(rng, nrng, np.float32)
        z = getattr(bd, name)(*darrs)
        z.dask.validate()
        da.utils.assert_eq(z, ref(*arrays))
    # the case that left a dependency no task named
    e = bd.add(da.from_array(np.ones((0, 3), np.float32), chunks=(1, 2)),
               da.from_array(np.ones((1, 3), np.float32), chunks=(1, 1)))
    e.dask.validate()
    da.utils.assert_eq(e, np.ones((0, 3), np.float32))


def tasks(z):
    """Tasks of z's graph after Dask's optimization, as compute runs it."""
    return len(dask.optimize(z)[0].__dask_graph__())


def test_chains_are_one_task_per_output_chunk():
    x = da.from_array(np.arange(24, dtype=np.int16).reshape(4, 6),
                      chunks=(2, 3))
    y = da.from_array(np.linspace(0, 1, 6, dtype=np.float32), chunks=3)
    z = bd.add(bd.multiply(x, y), 2)
    want = x * y + 2
    assert tasks(z) == tasks(want)
    # after optimization: one layer of four tasks beside the inputs' own
    opt = dask.optimize(z)[0].__dask_graph__()
    out = [k for k in opt if isinstance(k, tuple) and k[0] == z.name]
    assert len(out) == z.npartitions == 4
    da.utils.assert_eq(z, want)
    # a NumPy operand is cut like the dask one, whichever comes first: no
    # rechunk tasks (dask.array has them), and the chain stays fused
    yn = np.linspace(0, 1, 6, dtype=np.float32)
    n = bd.multiply(bd.add(yn, x), 3)
    assert n.chunks == x.chunks
    assert tasks(n) <= tasks((yn + x) * 3)
    da.utils.assert_eq(n, (yn + x.compute()) * 3)
    # mixed with dask.array's own element-wise functions, still fused
    m = bd.maximum(da.sin(x), y) + 1
    assert tasks(m) == tasks(da.maximum(da.sin(x), y) + 1)
    da.utils.assert_eq(m, np.maximum(np.sin(x.compute()), y.compute()) + 1)


def test_broadcast_to_own_shape_is_the_array():
    x = da.ones((4, 3), chunks=2)
    assert bd.broadcast_to(x, (4, 3)) is x
    assert bd.broadcast_to(x, x.shape, chunks=x.chunks) is x
    assert bd.broadcast_in_dim(x, (4, 3), [0, 1]) is x
    a, b = bd.broadcast_arrays(x, x)
    assert a is x and b is x
    # other chunks, or a transposing map, are a new array
    assert bd.broadcast_to(x, (4, 3), chunks=1) is not x
    t = bd.broadcast_in_dim(da.ones((3, 3), chunks=2), (3, 3), [1, 0])
    assert t.name != x.name


def test_operands_of_different_types_run_slab_by_slab(rng, nrng, monkeypatch):
    """Blocks whose operands bcast converts, and chains, run in slabs
    (_SLAB_ELEMS elements); small slabs here so that random shapes cut
    every way."""
    monkeypatch.setattr(bd, "_SLAB_ELEMS", rng.choice([1, 2, 5, 7, 16]))
    for _ in range(30):
        name, ref, arrays, darrs = random_case(rng, nrng, np.int16)
        # one operand of another type (not a 0-d one: NumPy 1.24 types
        # those by value, bcast by NEP 50)
        ks = [k for k, a in enumerate(arrays)
              if a.ndim and not (name == "where" and k == 0)]
        if ks:
            k = rng.choice(ks)
            arrays[k] = arrays[k].astype(rng.choice([np.float32, np.int32,
                                                     np.float64]))
        darrs = [da.from_array(a, chunks=d.chunks)
                 for a, d in zip(arrays, darrs)]
        z = getattr(bd, name)(*darrs)
        want = ref(*arrays)
        got = z.compute(scheduler="sync")
        assert got.dtype == want.dtype, (name, got.dtype, want.dtype)
        np.testing.assert_array_equal(got, want)
        # and a chain over it, which runs slab by slab too
        chain = bd.subtract(bd.multiply(z, 3), bd.negative(z))
        want = want * want.dtype.type(3) - (-want)
        np.testing.assert_array_equal(chain.compute(scheduler="sync"), want)
    # one large block, as a worker meets it
    monkeypatch.setattr(bd, "_SLAB_ELEMS", 1 << 16)
    x = (nrng.standard_normal((3, 70, 400)) * 100).astype(np.int16)
    y = nrng.standard_normal((70, 1)).astype(np.float32)
    z = bd.add(bd.multiply(da.from_array(x), y), 2)
    np.testing.assert_array_equal(z.compute(scheduler="sync"), x * y + 2)


def misaligned(a):
    """a's values in an array at an odd byte address (not aligned for its
    elements), as a block Dask received over the network can be."""
    raw = np.empty(a.nbytes + a.itemsize, np.uint8)
    m = np.frombuffer(raw.data, a.dtype, a.size, offset=1).reshape(a.shape)
    m[...] = a
    assert not m.flags.aligned
    return m


def test_misaligned_blocks_run_slab_by_slab(rng, nrng, monkeypatch):
    """Blocks not aligned for their elements are copied slab by slab into
    an aligned scratch array (_realigned), alone, beside an operand of
    another type and in chains; small slabs so that shapes cut every
    way."""
    calls = []
    realigned = bd._realigned

    def spy(use, view):
        calls.append(view.shape)
        return realigned(use, view)

    monkeypatch.setattr(bd, "_realigned", spy)
    for slab in (int(rng.choice([1, 2, 5, 7, 16])), 1 << 16):
        monkeypatch.setattr(bd, "_SLAB_ELEMS", slab)
        monkeypatch.setattr(bd, "_REALIGN_SLAB_ELEMS", 4 * slab)
        x = (nrng.standard_normal((3, 70, 400)) * 100).astype(np.float32)
        y = nrng.standard_normal((70, 1)).astype(np.float32)
        xm = misaligned(x)
        wide = y.astype(np.float64)
        for other, want in ((y, x + y), (wide, x + wide)):
            z = bd.add(da.from_array(xm, chunks=(2, 35, 400) if slab < 1000
                                     else x.shape), other)
            calls.clear()
            np.testing.assert_array_equal(z.compute(scheduler="sync"), want)
            assert calls, "no slab was realigned"
        chain = bd.maximum(bd.add(bd.multiply(da.from_array(xm), y), 2), 0)
        calls.clear()
        np.testing.assert_array_equal(chain.compute(scheduler="sync"),
                                      np.maximum(x * y + 2, 0))
        assert calls, "no slab of the chain was realigned"


def test_bcasts_own_fusion_takes_chains_in(client, rng, nrng, monkeypatch):
    """An op on another bcast op's result over the same chunks is one layer
    computing both; an intermediate only one op reads is that op's output
    (in place), one read twice is not overwritten."""
    x = da.from_array(np.arange(24, dtype=np.int16).reshape(4, 6),
                      chunks=(2, 3))
    y = da.from_array(np.linspace(0, 1, 6, dtype=np.float32), chunks=3)
    xn, yn = x.compute(), y.compute()
    t = bd.multiply(x, y)
    z = bd.add(t, 2)
    assert set(z.dask.layers) == {z.name, x.name, y.name}
    # Each op of a block runs through a plan; in max(x * y + 2, 0) the
    # add overwrites the product, read by it alone.  A thread keeps its
    # plans from task to task (every block here has one shape), at most
    # _KEPT of them.
    plans = []
    plan = bd._core.plan

    def spy(op, *args, out=None, **kwargs):
        plans.append((op, any(out is a for a in args)))
        return plan(op, *args, out=out, **kwargs)

    monkeypatch.setattr(bd._core, "plan", spy)
    monkeypatch.setattr(bd, "_kept", bd._Kept())
    m = bd.maximum(z, 0)
    assert m.npartitions > 1
    for _ in range(2):
        np.testing.assert_array_equal(m.compute(scheduler="sync"),
                                      np.maximum(xn * yn + 2, 0))
        assert plans == [("multiply", False), ("add", True), ("maximum", False)]
    monkeypatch.setattr(bd, "_KEPT", 2)
    np.testing.assert_array_equal(
        bd.subtract(bd.multiply(x, y), 1).compute(scheduler="sync"), xn * yn - 1)
    # the product's plan is the one kept above; subtract's is new
    assert len(bd._kept.plans) == 2 and plans[3:] == [("subtract", False)]
    monkeypatch.undo()
    cases = [(z, xn * yn + 2), (t, xn * yn), (bd.add(t, t), 2 * (xn * yn)),
             (bd.multiply(bd.add(t, 1), bd.subtract(t, 1)),
              (xn * yn + 1) * (xn * yn - 1)),
             (bd.where(bd.greater(t, 5), t, bd.negative(t)),
              np.where(xn * yn > 5, xn * yn, -(xn * yn)))]
    v, n = t, rng.randrange(bd._MAX_NODES, 3 * bd._MAX_NODES)
    for _ in range(n):  # longer than one expression takes
        v = bd.add(v, 1)
    cases.append((v, xn * yn + n))
    for got, want in cases:
        r = client.compute(got).result()
        assert r.dtype == want.dtype
        np.testing.assert_array_equal(r, want)
    assert len([k for k in v.dask.layers if k.startswith("bcast-")]) == \
        -(-(n + 1) // bd._MAX_NODES)
    # a result and an expression that took it in, computed together
    a, b = client.compute([t, z])
    np.testing.assert_array_equal(a.result(), xn * yn)
    np.testing.assert_array_equal(b.result(), xn * yn + 2)
    # random chains over random chunkings
    for _ in range(10):
        name, ref, arrays, darrs = random_case(rng, nrng, np.float32)
        first = getattr(bd, name)(*darrs)
        second = bd.maximum(bd.multiply(first, first), -1.5)
        want = np.maximum(ref(*arrays) * ref(*arrays), np.float32(-1.5))
        np.testing.assert_array_equal(client.compute(second).result(), want)


def test_large_output_blocks_start_on_a_huge_page():
    """Output blocks of 4 MiB and more start on a 2 MiB boundary (NumPy
    advises huge pages from the first boundary in its buffer on, so the
    whole block faults in as huge pages); smaller ones are np.empty.
    Either is a C-contiguous, writeable, aligned array of the shape and
    type asked for, and what a task returns."""
    for shape, dtype in (((1024, 4096), np.float32), ((3, 5, 7), np.int16),
                         ((1024, 1024), np.float32), ((4097, 513), np.float64),
                         ((), np.float32), ((0, 9), np.float64)):
        b = bd._out_block(shape, dtype)
        assert b.shape == shape and b.dtype == np.dtype(dtype)
        assert b.flags.c_contiguous and b.flags.writeable and b.flags.aligned
        if b.nbytes >= 4 << 20:
            assert b.ctypes.data % (2 << 20) == 0
        b[...] = 1  # every byte of it is the caller's
        assert (b == 1).all()
    x = da.from_array(np.ones((2048, 1024), np.float32), chunks=(1024, 1024))
    block = bd.add(x, 1).blocks[0].compute(scheduler="sync")
    assert block.ctypes.data % (2 << 20) == 0
    np.testing.assert_array_equal(block, 2)
