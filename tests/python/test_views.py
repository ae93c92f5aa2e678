"""bcast.broadcast_to, broadcast_arrays, broadcast_in_dim and materialize
against NumPy: shape, strides, memory sharing, flags and values, on every
dtype and layout."""
import gc

import numpy as np
import pytest

import bcast
from conftest import in_threads

DTYPES = ["?", "i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8", "f2", "f4", "f8",
          ">i2", ">u4", ">i8", ">f4", ">f8", "S5", "U3", ">U2"]


def make(rng, dtype, shape):
    n = int(np.prod(shape))
    dt = np.dtype(dtype)
    if dt.kind in "SU":
        words = ["".join(rng.choice("abcxyz") for _ in range(rng.randint(0, 3))) for _ in range(n)]
        return np.array(words, dtype=dt).reshape(shape)
    vals = np.array([rng.randint(0, 100) for _ in range(n)]).astype(dt)
    return vals.reshape(shape)


def layouts(rng, a):
    """The same values in several memory layouts."""
    yield "contiguous", a
    yield "fortran", np.asfortranarray(a)
    if a.ndim >= 1:
        yield "reversed", a[::-1]
        big = np.concatenate([a, a], axis=-1) if a.shape[-1] else a
        yield "strided", big[..., ::2] if a.shape[-1] else a
    if a.ndim >= 2:
        yield "transposed", np.ascontiguousarray(a.T).T
    yield "broadcast-view", np.broadcast_to(a, (2,) + a.shape)


def random_shape(rng, rank_max=3):
    return tuple(rng.choice([0, 1, 1, 2, 3]) for _ in range(rng.randint(0, rank_max)))


def target_for(rng, shape):
    """A shape shape broadcasts to (or, sometimes, one it does not)."""
    out = [rng.choice([d, 4]) if d == 1 else d for d in shape]
    out = [rng.choice([1, 2, 3]) for _ in range(rng.randint(0, 2))] + out
    if out and rng.random() < 0.1:
        out[-1] += 1
    return tuple(out)


def same_view(got, want, src):
    assert type(got) is np.ndarray
    assert got.shape == want.shape and got.dtype == want.dtype
    assert got.strides == want.strides, (got.strides, want.strides)
    assert np.array_equal(got, want)
    assert not got.flags.writeable
    if got.size and src.size:
        assert np.shares_memory(got, src)


def test_broadcast_to_equals_numpy(rng):
    for dtype in DTYPES:
        for _ in range(40):
            a0 = make(rng, dtype, random_shape(rng))
            for name, a in layouts(rng, a0):
                shape = target_for(rng, a.shape)
                try:
                    want = np.broadcast_to(a, shape)
                except ValueError:
                    with pytest.raises(ValueError):
                        bcast.broadcast_to(a, shape)
                    continue
                got = bcast.broadcast_to(a, shape)
                same_view(got, want, a)


def test_broadcast_to_keeps_input_alive():
    a = np.arange(5, dtype=np.float32) * 3
    v = bcast.broadcast_to(a, (1000, 5))
    del a
    gc.collect()
    junk = [np.full(5, 7.0) for _ in range(100)]
    assert v[999].tolist() == [0, 3, 6, 9, 12] and len(junk) == 100


def test_broadcast_to_scalars_and_lists():
    assert np.array_equal(bcast.broadcast_to(5, (2, 3)), np.full((2, 3), 5))
    assert np.array_equal(bcast.broadcast_to([1.5, 2], 2), [1.5, 2])
    v = bcast.broadcast_to(np.float32(2), ())
    assert v.shape == () and v.dtype == np.float32


def test_broadcast_arrays_equal_numpy(rng):
    for _ in range(400):
        n = rng.randint(1, 4)
        dtype = rng.choice(DTYPES)
        arrays = []
        for _ in range(n):
            a = make(rng, rng.choice([dtype, "i4", "f2"]), random_shape(rng))
            arrays.append(rng.choice([x for _, x in layouts(rng, a)]))
        try:
            want = np.broadcast_arrays(*arrays)
        except ValueError:
            with pytest.raises(bcast.BroadcastError):
                bcast.broadcast_arrays(*arrays)
            continue
        got = bcast.broadcast_arrays(*arrays)
        assert isinstance(got, tuple) and len(got) == n
        for g, w, a in zip(got, want, arrays):
            # NumPy returns the inputs themselves when no shape changes;
            # bcast returns views, as np.broadcast_to makes them.
            assert np.array_equal(g, w)
            same_view(g, np.broadcast_to(a, w.shape), a)


def test_broadcast_in_dim_equals_reshape_and_broadcast(rng):
    for _ in range(600):
        dtype = rng.choice(DTYPES)
        a0 = make(rng, dtype, random_shape(rng))
        a = rng.choice([x for _, x in layouts(rng, a0)])
        r = a.ndim
        R = r + rng.randint(0, 2)
        dims = sorted(rng.sample(range(R), r))
        any_order = rng.random() < 0.4
        if any_order:
            rng.shuffle(dims)
        shape = [rng.randint(1, 3) for _ in range(R)]
        for i, d in enumerate(dims):
            shape[d] = a.shape[i] if a.shape[i] != 1 else rng.choice([1, 3])
        # NumPy oracle: move a's dims into output order, insert the new
        # dims as 1, broadcast.
        order = sorted(range(r), key=lambda i: dims[i])
        placed = np.transpose(a, order) if r else a
        inflated = [1] * R
        for i in range(r):
            inflated[dims[i]] = a.shape[i]
        want = np.broadcast_to(placed.reshape(inflated), shape)
        got = bcast.broadcast_in_dim(a, tuple(shape), dims, any_order=any_order)
        if not any_order and dims != sorted(dims):
            pytest.fail("unreachable")
        assert got.shape == want.shape and np.array_equal(got, want)
        assert not got.flags.writeable
        if got.size:
            assert np.shares_memory(got, a)
            for o in range(R):
                if o not in dims or a.shape[dims.index(o)] == 1 and shape[o] != 1:
                    assert got.strides[o] == 0


def test_broadcast_in_dim_order_and_partial():
    a = np.arange(6).reshape(2, 3)
    with pytest.raises(ValueError):
        bcast.broadcast_in_dim(a, (3, 2), (1, 0))
    t = bcast.broadcast_in_dim(a, (3, 2), (1, 0), any_order=True)
    assert np.array_equal(t, a.T)
    p = bcast.broadcast_in_dim(a, broadcast_dimensions=(0, 2), new_dims={1: 4})
    assert np.array_equal(p, np.broadcast_to(a[:, None, :], (2, 4, 3)))
    one = np.arange(3).reshape(1, 3)
    p = bcast.broadcast_in_dim(one, broadcast_dimensions=(0, 1), new_dims={0: 5})
    assert np.array_equal(p, np.broadcast_to(one, (5, 3)))
    s = np.array([b"ab", b"c"])
    p = bcast.broadcast_in_dim(s, broadcast_dimensions=(1,), new_dims={0: 2})
    assert p.tolist() == [[b"ab", b"c"], [b"ab", b"c"]]
    with pytest.raises(TypeError):
        bcast.broadcast_in_dim(a, (2, 3), (0, 1), new_dims={0: 1})


def test_materialize_equals_numpy_copies(rng):
    for _ in range(300):
        arrays = []
        for _ in range(rng.randint(1, 3)):
            a = make(rng, rng.choice(DTYPES), random_shape(rng))
            arrays.append(rng.choice([x for _, x in layouts(rng, a)]))
        try:
            want = [np.array(w, order="C") for w in np.broadcast_arrays(*arrays)]
        except ValueError:
            with pytest.raises(bcast.BroadcastError):
                bcast.materialize(*arrays)
            continue
        got = bcast.materialize(*arrays, threads=rng.choice([None, 1, 2]))
        for g, w, a in zip(got, want, arrays):
            assert g.shape == w.shape and g.dtype == w.dtype
            assert g.flags.c_contiguous and g.flags.writeable
            assert np.array_equal(g, w)
            assert not np.shares_memory(g, a)
            if g.size:
                g.flat[0] = g.flat[-1]  # writeable, and owns its memory
    m = bcast.materialize(np.arange(3))[0]
    base = m.base
    del m
    gc.collect()
    assert base is not None


def test_materialize_budget():
    a, b = np.zeros(3, np.float32), np.zeros((1000, 1), np.int16)
    need = 3000 * 4 + 3000 * 2
    got = bcast.materialize(a, b, max_bytes=need)
    assert [g.nbytes for g in got] == [12000, 6000]
    with pytest.raises(bcast.BudgetError) as e:
        bcast.materialize(a, b, max_bytes=need - 1)
    assert isinstance(e.value, MemoryError) and str(need) in str(e.value)
    # The library decides (bcast_materialize_all), with its diagnostic;
    # a string's copy is its bytes, an innermost dim of the item size.
    assert e.value.status == "BCAST_BUDGET"
    assert str(e.value).startswith("materializing 2 outputs of shape [1000,3] "
                                   f"needs {need} bytes")
    with pytest.raises(bcast.BudgetError) as e:
        bcast.materialize(np.array(["ab", "c"]), a[:2], max_bytes=23)
    assert str(e.value).startswith("materializing 2 outputs of shapes [2,8], [2] "
                                   "needs 24 bytes")
    assert [g.nbytes for g in bcast.materialize(np.array(["ab", "c"]), a[:2],
                                                max_bytes=24)] == [16, 8]


def test_materialize_in_threads():
    """materialize releases the GIL: threads run it side by side, each
    result right."""
    rows = [np.arange(k, k + 512, dtype=np.float32) for k in range(4)]
    results = in_threads(
        lambda k: bcast.materialize(rows[k], np.zeros((256, 1), np.float32))[0], 4)
    for k in range(4):
        assert np.array_equal(results[k], np.broadcast_to(rows[k], (256, 512)))


def test_signatures_and_docs():
    import inspect
    assert list(inspect.signature(bcast.broadcast_to).parameters) == ["array", "shape"]
    assert "any_order" in inspect.signature(bcast.broadcast_in_dim).parameters
    for name in bcast.__all__:
        assert getattr(bcast, name).__doc__, name


def test_new_dims_read_from_a_snapshot():
    """new_dims is read from a copy of the dict: a key whose __index__ adds
    entries while the dict is read (here 300, over the 64 the library's
    list holds) neither overruns that list nor changes the answer."""
    sizes = {}

    class One:
        def __index__(self):
            return 1

    class Growing:
        def __index__(self):
            while len(sizes) < 300:
                sizes[One()] = 1
            return 1

    sizes[Growing()] = 4
    x = np.arange(3.0)
    got = bcast.broadcast_in_dim(x, broadcast_dimensions=(0,), new_dims=sizes)
    assert len(sizes) == 300
    assert np.array_equal(got, np.broadcast_to(x[:, None], (3, 4)))

    class Clearing:
        def __index__(self):
            sizes.clear()
            return 0

    sizes = {Clearing(): 5}
    got = bcast.broadcast_in_dim(x, broadcast_dimensions=(1,), new_dims=sizes)
    assert sizes == {} and np.array_equal(got, np.broadcast_to(x, (5, 3)))
