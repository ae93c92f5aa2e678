"""NumPy's words and NumPy's values under the numpy profile (issue 24,
items 2 and 3), against NumPy 1.24 as the oracle.

- Every message the ops raise for a mistake NumPy refuses too is NumPy's
  text for the same mistake (shapes that do not broadcast, an out= of the
  wrong shape or of a type the result does not cast to, a dtype the op
  has no loop for, a Python int out of bounds), with NumPy's op names
  ("floor_divide", "where") and its shapes as tuples; the exception is
  bcast's class (a subclass of NumPy's, or NumPy's own: docs/python.md
  lists the differences) with its structured fields.  The tosa profile
  keeps TOSA's wording.
- Python ints beyond 64 bits convert as NumPy 1.24 converts them under
  NEP 50's weak promotion (np._set_promotion_state("weak"), which bcast
  follows): the nearest value of a float array's type, OverflowError
  beside integer arrays.
- float16 maximum / minimum / fmax / fmin give NumPy's float16 loop's
  bits, signed zeros and NaNs included, on both kernel sets.

Random cases print their seed (BCAST_SEED replays them).
"""
import os
import subprocess
import sys

import numpy as np
import pytest

import bcast
# prop: Hypothesis' settings with the printed seed; replay_and_nep50 (an
# autouse fixture) prints the seed and types Python scalars in NumPy by
# NEP 50's weak rule, as bcast does.
from test_properties import prop, replay_and_nep50  # noqa: F401
from hypothesis import given
from hypothesis import strategies as st


def raised(f):
    """The exception f() raises (pytest fails when it raises none)."""
    with pytest.raises(Exception) as e:
        f()
    return e.value


def same_error(bcast_call, numpy_call, cls):
    """bcast's exception has NumPy's text and is a cls, and of NumPy's
    class or its base (bcast.BroadcastError is a ValueError; NumPy's
    UFuncTypeError a TypeError)."""
    got, want = raised(bcast_call), raised(numpy_call)
    assert str(got) == str(want), (str(got), str(want))
    assert isinstance(got, cls), type(got)
    # One class derives from the other: bcast's or NumPy's the more precise.
    assert isinstance(got, type(want)) or isinstance(want, type(got)), (type(got), type(want))
    return got


# ------------------------------------------------------------- item 2

MISMATCHED = [
    ("add", [(2, 3), (4,)]),
    ("floor_divide", [(2, 3), (4,)]),
    ("subtract", [(4, 1), (5, 3, 2)]),
    ("multiply", [(0,), (2, 1, 3)]),
    ("maximum", [(1, 0), (2,)]),
    ("less", [(7,), (3,)]),
]


@pytest.mark.parametrize("name,shapes", MISMATCHED)
def test_broadcast_mismatch_in_numpys_words(name, shapes):
    args = [np.ones(s) for s in shapes]
    e = same_error(lambda: getattr(bcast, name)(*args),
                   lambda: getattr(np, name)(*args), bcast.BroadcastError)
    assert str(e).endswith(") ") and "tosa" not in str(e)
    # The structured fields stay the library's.
    assert e.status == "BCAST_INCOMPATIBLE" and e.axis is not None
    assert None not in e.sizes and e.sizes[0] != e.sizes[1]


@pytest.mark.parametrize("shapes", [[(2, 3), (4,), (2, 3)], [(2, 3), (3,), (5, 1, 4)],
                                    [(), (2,), (3,)]])
def test_where_mismatch_in_numpys_words(shapes):
    c, x, y = (np.ones(s) for s in shapes)
    same_error(lambda: bcast.where(c != 0, x, y), lambda: np.where(c != 0, x, y),
               bcast.BroadcastError)
    e = raised(lambda: bcast.select(c != 0, x, y))
    assert "select" not in str(e) and str(e).startswith("operands could not")


def test_broadcast_mismatch_keeps_tosas_words_under_tosa():
    e = raised(lambda: bcast.add(np.ones((2, 3)), np.ones((4, 3)), profile="tosa"))
    assert isinstance(e, bcast.BroadcastError)
    assert str(e).startswith("tosa.add: at broadcast dim 0:"), str(e)
    e = raised(lambda: bcast.where(np.ones(2, bool), np.ones(2, np.float32),
                                   np.ones(3, np.float32), profile="tosa"))
    assert str(e).startswith("tosa.select: "), str(e)


@pytest.mark.parametrize("shapes,out", [
    ([(2, 3), (3,)], (3,)),          # out needs broadcasting
    ([(2, 3), (3,)], (2, 1)),
    ([(2, 3), (3,)], (4, 3)),        # out broadcasts with nothing
    ([(2, 3), ()], (5, 3)),
    ([(4,)], (2,)),
])
def test_out_shape_in_numpys_words(shapes, out):
    args = [np.ones(s) for s in shapes]
    name = "add" if len(args) == 2 else "negative"
    same_error(lambda: getattr(bcast, name)(*args, out=np.empty(out)),
               lambda: getattr(np, name)(*args, out=np.empty(out)), ValueError)


def test_out_larger_than_the_inputs_broadcast_says_what_numpy_does():
    """NumPy broadcasts the inputs to a larger out=; bcast writes exactly
    the inputs' broadcast shape and says so (docs/python.md)."""
    np.add(np.ones(3), 1, out=np.empty((2, 3)))
    e = raised(lambda: bcast.add(np.ones(3), 1, out=np.empty((2, 3))))
    assert isinstance(e, ValueError)
    assert str(e).startswith("output operand with shape (2,3) is not the inputs' "
                             "broadcast shape (3,)"), str(e)


@pytest.mark.parametrize("result,out", [("float64", "int32"), ("float32", "uint8"),
                                        ("int64", "uint64"), ("int8", "bool"),
                                        ("uint16", "bool")])
def test_out_dtype_numpy_refuses_in_numpys_words(result, out):
    a = np.ones(3, result)
    same_error(lambda: bcast.add(a, a, out=np.empty(3, out)),
               lambda: np.add(a, a, out=np.empty(3, out)), TypeError)


def test_out_dtype_numpy_casts_says_so():
    a = np.ones(3)
    np.add(a, a, out=np.empty(3, np.float32))     # NumPy casts: same_kind
    e = raised(lambda: bcast.add(a, a, out=np.empty(3, np.float32)))
    assert isinstance(e, TypeError)
    assert str(e) == ("ufunc 'add' output is dtype('float32'), not the result's "
                      "dtype('float64'): bcast does not cast outputs (NumPy casts "
                      "with casting rule 'same_kind')"), str(e)


@pytest.mark.parametrize("name,dtype", [("bitwise_and", "float64"), ("invert", "float32"),
                                        ("left_shift", "float16"),
                                        ("right_shift", "float64")])
def test_no_loop_for_the_dtype_in_numpys_words(name, dtype):
    a = np.ones(2, dtype)
    args = [a] * (1 if name == "invert" else 2)
    same_error(lambda: getattr(bcast, name)(*args), lambda: getattr(np, name)(*args),
               TypeError)


@pytest.mark.parametrize("dtype,value", [("int8", 300), ("uint8", -1), ("int16", -40000),
                                         ("uint64", -1), ("int32", 2**31)])
def test_python_int_out_of_bounds_in_numpys_words(dtype, value):
    a = np.ones(2, dtype)
    same_error(lambda: bcast.add(a, value), lambda: np.add(a, value), OverflowError)


def test_argument_errors_use_numpys_names():
    c = np.ones(2, bool)
    assert str(raised(lambda: bcast.where(c, c))).startswith("where() takes 3 inputs")
    assert str(raised(lambda: bcast.sub(c, c, bogus=1))) == (
        "subtract() got an unexpected keyword argument 'bogus'")
    # Every message of the numpy profile names the op as NumPy does.
    a = np.ones(2)
    for call in [lambda: bcast.floor_divide(a, np.ones(3)),
                 lambda: bcast.where(c, a, np.ones(3)),
                 lambda: bcast.mul(a, a, out=np.empty(3)),
                 lambda: bcast.bitwise_not(a)]:
        assert "tosa." not in str(raised(call))
    assert "ufunc 'invert'" in str(raised(lambda: bcast.bitwise_not(a)))


# ------------------------------------------------------------- item 3

BIG = [2**63, 2**64, -2**64, 2**64 + 1, 2**100, -2**127, 2**128, 2**1000, 10**400]


def numpy_or_error(f):
    try:
        return f()
    except Exception as e:      # noqa: BLE001  (the class is compared)
        return e


def assert_same(got, want, what):
    if isinstance(want, Exception):
        assert isinstance(got, Exception) and type(want) in type(got).__mro__, (what, got, want)
        return
    assert not isinstance(got, Exception), (what, got, want)
    want = np.asarray(want)
    assert got.dtype == want.dtype, (what, got.dtype, want.dtype)
    np.testing.assert_array_equal(got, want, err_msg=str(what))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "bool", "int8",
                                   "int64", "uint64"])
@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "maximum", "fmin",
                                  "less", "equal", "divide"])
def test_python_ints_beyond_64_bits_as_numpy(dtype, name):
    a = np.array([0, 1, 2], dtype)
    for v in BIG:
        for args in ([a, v], [v, a]):
            got = numpy_or_error(lambda: getattr(bcast, name)(*args))
            want = numpy_or_error(lambda: getattr(np, name)(*args))
            if dtype == "bool" and 2**63 <= v < 2**64:
                # NEP 50 types it uint64 beside bool (bcast/elementwise.h;
                # test_ops.py checks it); NumPy 1.24 cannot.
                assert got.dtype in (np.uint64, np.float64, np.bool_), (name, v, got)
                continue
            if isinstance(want, np.ndarray) and want.dtype == object:
                # NumPy 1.24 falls back to Python objects (bool arrays
                # beside an int beyond uint64); bcast has no object type.
                assert isinstance(got, OverflowError), (name, dtype, v, got)
                continue
            assert_same(got, want, (name, dtype, v))


def test_python_scalars_only_beyond_64_bits():
    """Python scalars alone: an int beyond 64 bits beside a float is a
    float64, as NumPy's float result (bcast gives a 0-d array)."""
    for v in BIG[:-1]:
        for args in ([v, 1.5], [-0.5, v]):
            got = bcast.add(*args)
            assert got.dtype == np.float64 and got.shape == ()
            assert got[()] == np.add(*args), (args, got)
    with pytest.raises(OverflowError):
        bcast.add(10**400, 1.0)      # NumPy: 'int too large to convert to float'
    with pytest.raises(OverflowError):
        np.add(10**400, 1.0)
    got = bcast.where(np.array([True, False]), 2**64, 1.0)
    assert got.dtype == np.float64 and list(got) == [2.0**64, 1.0]


@prop(150)
@given(st.sampled_from(["float16", "float32", "float64"]),
       st.one_of(st.integers(min_value=-2**1100, max_value=2**1100),
                 st.integers(-200, 200).map(lambda d: (1 << 60) + (1 << 36) + d)),
       st.integers(0, 7))
def test_big_python_int_property(dtype, v, shift):
    """Python ints of any size, and ints near float32's rounding ties
    (NumPy rounds them through double), beside float arrays."""
    v = v << shift
    a = np.array([-1.5, 0, 3], dtype)
    assert_same(numpy_or_error(lambda: bcast.add(a, v)),
                numpy_or_error(lambda: np.add(a, v)), (dtype, v))


def test_python_int_rounds_through_double_as_numpy():
    """2**60 + 2**36 + 1 is float32 2**60 in NumPy (its double 2**60 +
    2**36 is a tie, rounded to even), not 2**60 + 2**37 (the int rounded
    once)."""
    for v in (2**60 + 2**36 + 1, -(2**61 + 2**37 + 5), 2**63 + 2**39 + 1):
        a = np.zeros(2, np.float32)
        got, want = bcast.add(a, v), np.add(a, v)
        assert got.dtype == want.dtype and list(got) == list(want), (v, got, want)
        p = bcast.plan("add", a, 1)
        assert list(p(a, v)) == list(want), v


# float16's extrema: every bit pattern against a set of partners that
# holds both zeros, NaNs of both signs and payloads, infinities, ties.
F16_PARTNERS = np.array([0x0000, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00,
                         0xfe00, 0x7c01, 0x7d55, 0xffff, 0x0001, 0x8001, 0x7bff,
                         0xfbff, 0x0400], np.uint16)


def f16_extrema_mismatches():
    """The first (op, a bits, b bits, bcast bits, NumPy bits) where bcast
    and NumPy's float16 loop differ, over every pattern x the partners in
    both orders; None when none does."""
    every = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)
    a = np.repeat(every, len(F16_PARTNERS)).view(np.float16)
    b = np.tile(F16_PARTNERS, 1 << 16).view(np.float16)
    for name in ("maximum", "minimum", "fmax", "fmin"):
        for x, y in ((a, b), (b, a)):
            got = getattr(bcast, name)(x, y).view(np.uint16)
            want = getattr(np, name)(x, y).view(np.uint16)
            bad = np.flatnonzero(got != want)
            if bad.size:
                i = bad[0]
                return (name, hex(x.view(np.uint16)[i]), hex(y.view(np.uint16)[i]),
                        hex(got[i]), hex(want[i]))
    return None


def test_float16_extrema_bits_as_numpys_loop():
    assert f16_extrema_mismatches() is None
    z, nz = np.float16(0.0), np.float16(-0.0)
    assert np.signbit(bcast.maximum(z, nz)) == np.signbit(np.maximum(z, nz)) == False  # noqa: E712
    assert np.signbit(bcast.maximum(nz, z)) == np.signbit(np.maximum(nz, z)) == True  # noqa: E712


def test_float16_extrema_bits_portable_kernels():
    """The same on the portable kernel set (BCAST_ISA=portable), in a child
    process: the kernel set is chosen once per process."""
    code = ("import test_numpy_words as t, numpy as np; "
            "np._set_promotion_state('weak'); print(t.f16_extrema_mismatches())")
    env = dict(os.environ, BCAST_ISA="portable")
    env["PYTHONPATH"] = os.pathsep.join([os.path.dirname(os.path.abspath(__file__)),
                                         env.get("PYTHONPATH", "")])
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "None", out.stdout


@prop(200)
@given(st.integers(0, 0xffff), st.integers(0, 0xffff),
       st.sampled_from(["maximum", "minimum", "fmax", "fmin"]), st.booleans())
def test_float16_extrema_property(x, y, name, broadcast):
    a = np.array([x, y, x], np.uint16).view(np.float16)
    b = (np.array([y], np.uint16) if broadcast else np.array([y, x, x], np.uint16)).view(np.float16)
    got = getattr(bcast, name)(a, b).view(np.uint16)
    want = getattr(np, name)(a, b).view(np.uint16)
    assert list(got) == list(want), (name, hex(x), hex(y), got, want)
