"""Errors: every exception class with its fields, bad arguments of every
kind, and reference counts / RSS over many calls."""
import gc
import os
import sys

import numpy as np
import pytest

import bcast
from conftest import SANITIZE


def test_broadcast_error_fields():
    with pytest.raises(bcast.BroadcastError) as e:
        bcast.broadcast_shapes((5, 2, 3), (4, 3))
    err = e.value
    assert isinstance(err, ValueError)
    assert err.operands == (0, 1)
    assert err.axis == 1 and err.operand_axes == (1, 0)
    assert err.sizes == (2, 4)
    assert err.status == "BCAST_INCOMPATIBLE"
    assert "2" in str(err) and "4" in str(err)
    with pytest.raises(bcast.BroadcastError) as e:
        bcast.broadcast_shapes((3,), (3,), ("n", 7), (5, 1))
    assert e.value.operands[0] in (0, 1) and e.value.operands[1] == 2
    assert e.value.axis == 1 and e.value.sizes == (3, 7)
    with pytest.raises(bcast.BroadcastError) as e:
        bcast.broadcast_to(np.zeros((2, 3)), (4, 3))
    assert e.value.sizes == (2, 4)
    # strings: the item's bytes are no dim of the user's
    with pytest.raises(bcast.BroadcastError) as e:
        bcast.broadcast_to(np.array(["ab", "c"]), (3,))
    assert e.value.sizes == (2, 3) and "[2]" in str(e.value)
    with pytest.raises(ValueError) as e:
        bcast.broadcast_in_dim(np.array([b"ab", b"c"]), (2, 2), (0, 1))
    assert "rank 1" in str(e.value)


def test_checked_error_fields(nrng):
    """CheckedError names the first unpredictable element in C order: its
    index, the operands' values there (NumPy scalars of the computed type)
    and what an unchecked run writes there."""
    a = nrng.integers(-1000, 1000, size=(4, 5, 6)).astype(np.int32)
    where = tuple(int(nrng.integers(0, n)) for n in a.shape)
    a[where] = 2**31 - 1
    b = np.arange(1, 7, dtype=np.int32)
    with pytest.raises(bcast.CheckedError) as e:
        bcast.add(a, b, checked=True)
    err = e.value
    assert isinstance(err, ArithmeticError)
    assert err.op == "add" and err.status == "BCAST_CHECKED"
    assert err.index == where
    assert err.values == (a[where], b[where[-1]])
    assert all(type(v) is np.int32 for v in err.values)
    unchecked = bcast.add(a, b)
    assert err.result == unchecked[where] and type(err.result) is np.int32
    # float16: pow outside its domain in the tosa profile
    x = np.array([[2.0, -2.0]], np.float16)
    y = np.array([[3.0, 0.5]], np.float16)
    with pytest.raises(bcast.CheckedError) as e:
        bcast.pow(x, y, checked=True, profile="tosa")
    assert e.value.index == (0, 1)
    assert e.value.values == (np.float16(-2.0), np.float16(0.5))
    assert type(e.value.values[0]) is np.float16 and np.isnan(e.value.result)
    # select: the condition is one of the values
    with pytest.raises(bcast.CheckedError) as e:
        bcast.intdiv(np.array([6, 5], np.int32), np.array([2, 0], np.int32),
                     checked=True, profile="tosa")
    assert e.value.index == (1,) and e.value.values == (5, 0)
    # other errors have no element fields
    with pytest.raises(bcast.BroadcastError) as e:
        bcast.add(np.zeros(2), np.zeros(3))
    assert not hasattr(e.value, "index")


def test_type_errors():
    for bad in [1.5, [1.5], ["a", object()], {"a": 1}, [[1]], b"12", object()]:
        with pytest.raises(TypeError):
            bcast.broadcast_to(np.zeros(3), bad)
    with pytest.raises(TypeError):
        bcast.broadcast_shapes((1.5,))
    with pytest.raises(TypeError):
        bcast.broadcast_shapes([object()])
    for dtype in [object, complex, np.longdouble, "V4", "M8[s]"]:
        with pytest.raises(TypeError):
            bcast.broadcast_to(np.zeros(3, dtype), (2, 3))
    with pytest.raises(TypeError):
        bcast.broadcast_to(object(), (2,))
    with pytest.raises(TypeError):
        bcast.materialize(np.zeros(2), [None, 1])
    with pytest.raises(TypeError):
        bcast.broadcast_to()
    with pytest.raises(TypeError):
        bcast.broadcast_to(np.zeros(3), (3,), 1)
    with pytest.raises(TypeError):
        bcast.broadcast_arrays(np.zeros(3), shape=1)
    with pytest.raises(TypeError):
        bcast.broadcast_shapes((2,), bogus=1)
    with pytest.raises(TypeError):
        bcast.broadcast_in_dim(np.zeros(3), (3,), "0")
    with pytest.raises(TypeError):
        bcast.broadcast_in_dim(np.zeros(3), broadcast_dimensions=(0,), new_dims=[1])
    with pytest.raises(TypeError):
        bcast.broadcast_shapes((2,), profile=3)
    with pytest.raises(TypeError):
        bcast.verify_mlir(3)
    with pytest.raises(TypeError):
        bcast.lower(None)


def test_value_errors():
    with pytest.raises(ValueError):
        bcast.broadcast_to(np.zeros(3), (-1,))
    with pytest.raises(ValueError):
        bcast.broadcast_to(np.zeros(3), -3)
    with pytest.raises(ValueError):
        bcast.broadcast_shapes((2, -1))
    with pytest.raises(ValueError):
        bcast.broadcast_shapes((1,) * 65)
    with pytest.raises(ValueError):
        bcast.broadcast_to(np.zeros(()), (1,) * 33)  # beyond NumPy's 32 dims
    with pytest.raises(ValueError):
        bcast.broadcast_shapes((2,), profile="nonsense")
    with pytest.raises(ValueError):
        bcast.broadcast_shapes(("x" * 40,))
    with pytest.raises(ValueError):
        bcast.broadcast_shapes(["n%d" % k for k in range(65)])
    with pytest.raises(ValueError):
        bcast.broadcast_shapes("[2,")
    with pytest.raises(ValueError):
        bcast.broadcast_in_dim(np.zeros((2, 3)), (2, 3), (0, 5))
    with pytest.raises(ValueError):
        bcast.broadcast_in_dim(np.zeros((2, 3)), (2, 3), (0,))
    with pytest.raises(ValueError):
        bcast.broadcast_in_dim(np.zeros((2, 3)), broadcast_dimensions=(0, 1), new_dims={99: 1})
    with pytest.raises(ValueError):
        bcast.lower("", only=["nonsense"])
    for threads in [-1, 2 ** 40]:
        with pytest.raises(ValueError):
            bcast.materialize(np.zeros(3), threads=threads)


def test_huge_dims():
    with pytest.raises(OverflowError):
        bcast.broadcast_to(np.zeros(3), (2 ** 64, 3))
    with pytest.raises(OverflowError):
        bcast.broadcast_shapes((2 ** 63,))
    with pytest.raises((ValueError, OverflowError)):
        bcast.broadcast_to(np.zeros(3), (2 ** 62, 2 ** 62, 3))
    assert bcast.broadcast_shapes((2 ** 62, 1), (1, 2 ** 62)) == (2 ** 62, 2 ** 62)
    v = bcast.broadcast_to(np.zeros(1, np.int8), (2 ** 40,))  # a view: no memory
    assert v.shape == (2 ** 40,) and v.strides == (0,)
    huge = bcast.broadcast_to(np.zeros(1, np.int8), (2 ** 62,))
    with pytest.raises(bcast.BudgetError):
        bcast.materialize(huge)
    with pytest.raises(OverflowError):
        bcast.materialize(huge, np.zeros(1))  # 9 * 2**62 bytes
    with pytest.raises(bcast.BudgetError) as e:
        bcast.materialize(np.broadcast_to(np.zeros(1), (2 ** 40,)))
    assert str(8 * 2 ** 40) in str(e.value)


def rss_kb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def test_no_leaks():
    """100,000 calls (fewer under ASan) of the functions on the same
    inputs, passing and failing: the inputs' reference counts and the
    process's RSS stay flat.  Under ASan the RSS is not checked: freed
    memory waits in ASan's quarantine (256 MB), so it grows by design;
    the release run checks it."""
    n = 20000 if SANITIZE else 100000
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    s = np.array(["ab", "c"])
    shape = (4, 2, 3)
    out = np.empty(shape, np.float32)
    plan = bcast.plan("add", a, a, out=a.copy())
    fresh = bcast.plan("mul", a, a)
    big = np.array([2**31 - 1], np.int32)
    text = ("func.func @f(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {\n"
            "  %0 = tosa.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>\n"
            "  return %0 : tensor<2x3xf32>\n}\n")
    calls = [
        lambda: bcast.add(a, a[0], out=out[0]),
        lambda: bcast.add(a, 2.5),
        lambda: bcast.where(a > 1, a, 0),
        lambda: plan(a, a, out=out[0]),               # another out of the planned layout
        lambda: fresh(a, a),                          # fast path, new output
        lambda: fresh(a.T.copy().T, a),               # checked path
        lambda: bcast.add(big, big, checked=True),    # raises CheckedError
        lambda: bcast.verify_mlir(text),
        lambda: bcast.lower(text),
        lambda: bcast.broadcast_to(a, shape),
        lambda: bcast.broadcast_arrays(a, s[:, None]),
        lambda: bcast.broadcast_shapes(shape, (3,), ("n", 1, 1)),
        lambda: bcast.broadcast_in_dim(a, shape, (1, 2)),
        lambda: bcast.materialize(a, s[:, None]),
        lambda: bcast.explain(shape, (None, 3)),
        lambda: bcast.broadcast_to(a, (5, 3)),        # raises
        lambda: bcast.broadcast_to(a, (1.5,)),        # raises
        lambda: bcast.materialize(a, max_bytes=1),    # raises
    ]
    def run(count):
        for k in range(count):
            try:
                calls[k % len(calls)]()
            except (ValueError, TypeError, MemoryError, ArithmeticError):
                pass
    run(len(calls) * 200)
    gc.collect()
    refs = (sys.getrefcount(a), sys.getrefcount(s), sys.getrefcount(shape))
    before = rss_kb()
    run(n)
    gc.collect()
    assert (sys.getrefcount(a), sys.getrefcount(s), sys.getrefcount(shape)) == refs
    grown = rss_kb() - before
    if not SANITIZE:
        assert grown < 2048, f"RSS grew by {grown} KB over {n} calls"


def test_byte_counts_name_the_argument():
    """max_bytes, budget, itemsizes and out_itemsize are ints >= 0, and an
    error names which one is wrong (a negative max_bytes is no budget that
    every output is over)."""
    a = np.zeros(3)
    for kwargs, error, name in [
            (dict(max_bytes=1.5), TypeError, "max_bytes"),
            (dict(max_bytes=-1), ValueError, "max_bytes"),
            (dict(max_bytes=2**64), OverflowError, "max_bytes")]:
        with pytest.raises(error, match=name):
            bcast.materialize(a, **kwargs)
    for args, kwargs, error, name in [
            ((1.5,), {}, TypeError, "budget"),
            ((-1,), {}, ValueError, "budget"),
            ((100,), dict(itemsizes=["8"]), TypeError, "itemsizes"),
            ((100,), dict(itemsizes=[0]), ValueError, "itemsizes"),
            ((100,), dict(itemsizes=[8, 8]), ValueError, "itemsizes"),
            ((100,), dict(out_itemsize=0), ValueError, "out_itemsize"),
            ((100,), dict(out_itemsize=2**64), OverflowError, "out_itemsize")]:
        with pytest.raises(error, match=name):
            bcast.tiles((4,), [(4,)], *args, **kwargs)
    assert bcast.tiles((4,), [(4,)], 16, itemsizes=[np.int8(2)], out_itemsize=2) \
        == [((0,), (4,))]
