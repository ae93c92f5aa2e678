"""The element-wise ops (bcast.add, ...) against NumPy 1.24 as the oracle.

Exact for integers and bool and for float ops NumPy computes exactly
(add, mul, maximum, sqrt, ...); transcendental float ops (exp, log, tanh, sin, cos,
erf, rsqrt, sigmoid, reciprocal, pow) within the library's documented
error budget of an fp64 reference: the tolerances of the command-line
differential tests (tests/diff/test_run_numpy.py, TOSA's reference-check
bounds, a few ulps), not a looser one of their own.
"""
import math
import os
import sys

import numpy as np
import pytest

import bcast
from conftest import in_threads

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "diff"))
import test_run_numpy as oracle  # noqa: E402  (fp64 references, error budgets)

INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
FLOATS = ["float16", "float32", "float64"]
ALL = ["bool"] + INTS + FLOATS



def in_float64(f):
    """An oracle computed in float64 and rounded to the type NumPy's own
    float functions give the input (int8 -> float16, as np.sqrt)."""
    return lambda a: np.asarray(f(np.asarray(a, np.float64))).astype(np.sqrt(a).dtype)


def unsigned(a):
    return a.view(np.dtype(a.dtype.str.replace("i", "u")))


def clz(a):
    bits = a.dtype.itemsize * 8
    return np.vectorize(lambda v: bits - int(v).bit_length(), otypes=[a.dtype])(unsigned(a))


def intdiv(a, b):
    """TOSA's intdiv: the quotient truncated toward zero."""
    q = [(abs(int(x)) // abs(int(y))) * (1 if (x < 0) == (y < 0) else -1)
         for x, y in zip(*(v.ravel() for v in np.broadcast_arrays(a, b)))]
    return np.array(q, dtype=object).astype(np.result_type(a, b)).reshape(np.broadcast_shapes(a.shape, b.shape))


def logical_shift(op):
    def f(a, b):
        return op(unsigned(a), unsigned(b.astype(a.dtype))).view(a.dtype)
    return f


# op -> (NumPy function, dtypes, input domain: "any", "pos" (> 0),
#        "nonzero" second operand, "shift" second operand in 0..bits-1,
#        transcendental?)
UNARY = {
    "abs": (np.abs, INTS[:4] + FLOATS, "any", False),
    "bitwise_not": (np.invert, ["bool"] + INTS, "any", False),
    "ceil": (np.ceil, FLOATS, "any", False),
    "floor": (np.floor, FLOATS, "any", False),
    "negate": (np.negative, INTS + FLOATS, "any", False),
    "logical_not": (np.logical_not, ["bool"], "any", False),
    "exp": (np.exp, ALL, "any", True),
    "log": (np.log, INTS + FLOATS, "pos", True),
    "sqrt": (np.sqrt, ALL, "pos", False),
    "tanh": (np.tanh, ALL, "any", True),
    "sin": (np.sin, ALL, "any", True),
    "cos": (np.cos, ALL, "any", True),
    "square": (np.square, INTS + FLOATS, "any", False),
    "clz": (clz, INTS, "any", False),
    "erf": (in_float64(np.vectorize(math.erf)), ALL, "any", True),
    "rsqrt": (in_float64(lambda x: 1 / np.sqrt(x)), INTS + FLOATS, "pos", True),
    "sigmoid": (in_float64(lambda x: 1 / (1 + np.exp(-x))), ALL, "any", True),
    "reciprocal": (np.reciprocal, FLOATS, "pos", True),
}
BINARY = {
    "add": (np.add, INTS + FLOATS, "any", False),
    "sub": (np.subtract, INTS + FLOATS, "any", False),
    "mul": (np.multiply, INTS + FLOATS, "any", False),
    "maximum": (np.maximum, INTS + FLOATS, "any", False),
    "minimum": (np.minimum, INTS + FLOATS, "any", False),
    "fmax": (np.fmax, INTS + FLOATS, "any", False),
    "fmin": (np.fmin, INTS + FLOATS, "any", False),
    "bitwise_and": (np.bitwise_and, ["bool"] + INTS, "any", False),
    "bitwise_or": (np.bitwise_or, ["bool"] + INTS, "any", False),
    "bitwise_xor": (np.bitwise_xor, ["bool"] + INTS, "any", False),
    "logical_and": (np.logical_and, ["bool"], "any", False),
    "logical_or": (np.logical_or, ["bool"], "any", False),
    "logical_xor": (np.logical_xor, ["bool"], "any", False),
    "equal": (np.equal, ALL, "any", False),
    "not_equal": (np.not_equal, ALL, "any", False),
    "greater": (np.greater, ALL, "any", False),
    "greater_equal": (np.greater_equal, ALL, "any", False),
    "less": (np.less, ALL, "any", False),
    "less_equal": (np.less_equal, ALL, "any", False),
    "floor_divide": (np.floor_divide, INTS + FLOATS, "nonzero", False),
    "remainder": (np.remainder, INTS + FLOATS, "nonzero", False),
    "left_shift": (np.left_shift, INTS, "shift", False),
    "divide": (np.true_divide, INTS + FLOATS, "nonzero", False),
    "pow": (np.power, FLOATS, "pos", True),
    "intdiv": (intdiv, INTS, "nonzero", False),
    "logical_left_shift": (logical_shift(np.left_shift), INTS, "shift", False),
    "logical_right_shift": (logical_shift(np.right_shift), INTS, "shift", False),
    "right_shift": (np.right_shift, INTS, "shift", False),
}


def values(dtype, shape, rng, domain="any"):
    """Random values of dtype; small for integers so products fit often
    (wrapping is compared too: NumPy wraps as bcast does)."""
    n = int(np.prod(shape, dtype=np.int64))
    if dtype == "bool":
        return rng.integers(0, 2, n).astype(bool).reshape(shape)
    dt = np.dtype(dtype)
    if domain == "shift":
        return rng.integers(0, dt.itemsize * 8, n).astype(dt).reshape(shape)
    if dt.kind in "iu":
        lo = 1 if domain in ("pos", "nonzero") else (0 if dt.kind == "u" else -100)
        x = rng.integers(lo, 100, n).astype(dt)
    else:
        x = rng.uniform(-4, 4, n).astype(dt)
        if domain in ("pos", "nonzero"):
            x = np.abs(x) + dt.type(0.25)
    return x.reshape(shape)


def check(name, got, want, transcendental, op=None, inputs=()):
    """got equals NumPy's want (dtype, shape, values); for a transcendental
    op, values within the budget of oracle.expect(op, inputs) instead."""
    want = np.asarray(want)
    assert got.dtype == want.dtype, (name, got.dtype, want.dtype)
    assert got.shape == want.shape, (name, got.shape, want.shape)
    if not transcendental:
        np.testing.assert_array_equal(got, want, err_msg=name)
        return
    # The inputs as the op computes them: in the result's float type.
    xs = [np.broadcast_to(np.asarray(x).astype(want.dtype), want.shape) for x in inputs]
    expect = oracle.expect(op, xs, [])
    ok = expect.ok(got)
    if not ok.all():
        idx = tuple(int(i) for i in np.argwhere(~ok)[0])
        pytest.fail(f"{name}: at {idx} got {got[idx]!r}, want {expect.describe(idx)} "
                    f"for inputs {[x[idx] for x in xs]}")


def layouts(make, shape):
    """(name, array) pairs of one logical shape in several layouts."""
    base = make(shape)
    yield "C", base
    yield "F", np.asfortranarray(base)
    yield "transposed", np.ascontiguousarray(base.T).T
    yield "negative strides", np.ascontiguousarray(base[::-1, ::-1])[::-1, ::-1]
    big = make((shape[0] * 2, shape[1] * 3))
    big[::2, ::3] = base
    yield "strided", big[::2, ::3]


@pytest.fixture(autouse=True)
def quiet_numpy():
    """NumPy warns about inf/NaN results (exp overflow, pow of negative
    bases); they are compared like any value."""
    with np.errstate(all="ignore"):
        yield


@pytest.mark.parametrize("op", sorted(UNARY))
def test_unary_every_dtype_and_layout(op, nrng):
    fn, dtypes, domain, trans = UNARY[op]
    for dtype in dtypes:
        for name, a in layouts(lambda s: values(dtype, s, nrng, domain), (3, 4)):
            check(f"{op} {dtype} {name}", getattr(bcast, op)(a), fn(a), trans, op, [a])


@pytest.mark.parametrize("op", sorted(BINARY))
def test_binary_every_dtype_and_layout(op, nrng):
    fn, dtypes, domain, trans = BINARY[op]
    for dtype in dtypes:
        for name, a in layouts(lambda s: values(dtype, s, nrng), (3, 4)):
            b = values(dtype, (3, 4), nrng, domain)[::-1]
            for what, x, y in (("", a, b), ("row", a, b[:1, :]),
                               ("col", a[:, :1], b[:1, :]),
                               ("view", a, np.broadcast_to(b[0], (3, 4)))):
                # the plain layout, then broadcast inputs: a row and a
                # column, and a broadcast view
                check(f"{op} {dtype} {what or name}", getattr(bcast, op)(x, y), fn(x, y),
                      trans, op, [x, y])


def test_zero_d_and_size_zero(nrng):
    a = np.array(3, np.int16)
    got = bcast.add(a, np.array(4, np.int16))
    assert got.shape == () and got.dtype == np.int16 and got == 7
    e = np.zeros((0, 3), np.float32)
    got = bcast.mul(e, np.ones(3, np.float32))
    assert got.shape == (0, 3) and got.dtype == np.float32
    got = bcast.negate(np.zeros((2, 0), np.int8))
    assert got.shape == (2, 0)


@pytest.mark.parametrize("pair", [("int8", "uint8"), ("int8", "int64"),
                                  ("uint32", "int32"), ("uint64", "int64"),
                                  ("int16", "float16"), ("int32", "float32"),
                                  ("bool", "int8"), ("float16", "float64")])
def test_binary_promotion(pair, nrng):
    a = values(pair[0], (2, 3), nrng)
    b = values(pair[1], (2, 3), nrng, "nonzero")
    for op in ("add", "mul", "maximum", "less", "equal"):
        fn = BINARY[op][0]
        if pair[0] == "bool" and op == "add":
            continue
        check(f"{op} {pair}", getattr(bcast, op)(a, b), fn(a, b), False)


SCALARS = [3, -3, 300, 2.5, True, 2**63, -(2**63)]


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int32", "uint64",
                                   "float16", "float32", "float64"])
def test_python_scalars_nep50(dtype, nrng):
    state = np._get_promotion_state()
    np._set_promotion_state("weak")
    try:
        a = values(dtype, (2, 3), nrng)
        for s in SCALARS:
            for op in ("add", "maximum", "less"):
                fn, dtypes = BINARY[op][:2]
                if dtype not in dtypes:  # np.add of bools: not in the profile
                    continue
                try:
                    with np.errstate(over="ignore"):
                        want = fn(a, s)
                except OverflowError as e:
                    if "C long" not in str(e) or a.dtype != bool:
                        with pytest.raises(OverflowError):
                            getattr(bcast, op)(a, s)
                        continue
                    # NumPy 1.24 cannot type 2**63 beside a bool array;
                    # NEP 50 (and NumPy 2) make it uint64.
                    want = fn(a, np.uint64(s))
                    check(f"{op} {dtype} {s!r}", getattr(bcast, op)(a, s), want, False)
                    continue
                except TypeError as e:
                    with pytest.raises(type(e)):
                        getattr(bcast, op)(a, s)
                    continue
                check(f"{op} {dtype} {s!r}", getattr(bcast, op)(a, s), want, False)
                with np.errstate(over="ignore"):
                    want = fn(s, a)
                check(f"{op} {s!r} {dtype}", getattr(bcast, op)(s, a), want, False)
    finally:
        np._set_promotion_state(state)


@pytest.mark.parametrize("op", ["logical_and", "logical_or", "logical_xor"])
def test_logical_ops_take_scalars_as_truth_values(op):
    """NumPy runs the logical ops in bool whatever the inputs' types, so a
    Python scalar beside an array is a truth value of its own: not out of
    range beside int8 (300), not rounded to the array's type (1e-8 beside
    float16 is true).  The soak found bcast refusing int8 or 300."""
    state = np._get_promotion_state()
    np._set_promotion_state("weak")
    try:
        fn = getattr(np, op)
        for dtype in ("bool", "int8", "uint8", "int32", "uint64", "float16",
                      "float32", "float64"):
            a = np.array([0, 1, 1, 0], dtype)
            for s in (300, -300, 2**63, 1e-8, 1e-50, 0, 0.0, True, False):
                check(f"{op} {dtype} {s!r}", getattr(bcast, op)(a, s), fn(a, s), False)
                check(f"{op} {s!r} {dtype}", getattr(bcast, op)(s, a), fn(s, a), False)
    finally:
        np._set_promotion_state(state)


def test_scalars_only_and_lists():
    assert bcast.add(2, 3).dtype == np.int64 and bcast.add(2, 3) == 5
    assert bcast.add(2, 0.5).dtype == np.float64
    check("list", bcast.add([1, 2], [[10], [20]]), np.add([1, 2], [[10], [20]]), False)


def test_out_strided_and_in_place(nrng):
    a = values("int32", (3, 4), nrng)
    b = values("int32", (4,), nrng)
    want = a + b
    out = np.zeros((4, 3), np.int32).T
    assert bcast.add(a, b, out=out) is out
    check("out transposed", out, want, False)
    big = np.zeros((6, 8), np.int32)
    bcast.add(a, b, big[::2, ::2])
    check("out strided positional", big[::2, ::2], want, False)
    assert not big[1::2].any() and not big[:, 1::2].any()
    c = a.copy()
    bcast.add(c, b, out=c)
    check("in place", c, want, False)
    with pytest.raises(TypeError):
        bcast.add(a, b, out=np.zeros((3, 4), np.int64))
    with pytest.raises(bcast.BroadcastError):
        bcast.add(a, b, out=np.zeros((3, 5), np.int32))
    ro = np.zeros((3, 4), np.int32)
    ro.flags.writeable = False
    with pytest.raises(TypeError):
        bcast.add(a, b, out=ro)


def test_attributes(nrng):
    x = np.array([-5.0, -0.5, 0.0, 0.5, 7.0, np.nan], np.float32)
    check("clamp", bcast.clamp(x, -1, 2), np.clip(x, -1, 2), False)
    got = bcast.clamp(x, min_val=-1.0, max_val=2.0, nan_mode="ignore")
    assert got[-1] == -1.0
    i = np.array([-100, 5, 100], np.int8)
    check("clamp int8", bcast.clamp(i, -10, 10), np.clip(i, -10, 10), False)
    with pytest.raises(ValueError):
        bcast.clamp(i, 3, 1)
    f = np.array([1.7, -2.2, 300.0])
    for to in ("int32", np.float32, np.dtype("uint8"), "f2"):
        check(f"cast {to}", bcast.cast(f[:2], to), f[:2].astype(to), False)
    check("cast dtype=", bcast.cast(f, dtype="float32"), f.astype("float32"), False)
    with pytest.raises(TypeError, match="dtype"):
        bcast.cast(f)
    a = np.array([3, -3, 1000, -7], np.int32)
    b = np.array([1, 1, 2, 1], np.int32)
    got = bcast.arithmetic_right_shift(a, b, round=True)
    want = (a.astype(np.int64) + (1 << (b - 1))) >> b
    check("ars round", got, want.astype(np.int32), False)
    check("ars", bcast.arithmetic_right_shift(a, b), a >> b, False)
    got = bcast.mul(a, b, shift=1)
    check("mul shift", got, ((a.astype(np.int64) * b + 1) >> 1).astype(np.int32), False)
    with pytest.raises(TypeError):
        bcast.add(a, b, shift=1)  # add reads no shift
    with pytest.raises(TypeError):
        bcast.add(a, b, bogus=1)
    with pytest.raises(TypeError):
        bcast.add(a)


def test_select(nrng):
    c = values("bool", (3, 4), nrng)
    x = values("float32", (3, 4), nrng)
    y = values("float32", (4,), nrng)
    check("select", bcast.select(c, x, y), np.where(c, x, y), False)
    check("where alias", bcast.where(c, x, 0.5), np.where(c, x, np.float32(0.5)), False)


def test_errors():
    with pytest.raises(bcast.BroadcastError) as e:
        bcast.add(np.zeros((2, 3)), np.zeros((4, 3)))
    assert e.value.axis == 0 and e.value.sizes == (2, 4)
    with pytest.raises(TypeError):
        bcast.add(np.zeros(2, np.complex64), np.zeros(2, np.complex64))
    with pytest.raises(TypeError):
        bcast.bitwise_and(np.zeros(2), np.zeros(2))
    big = np.int32(2**31 - 1)
    with pytest.raises(bcast.CheckedError) as e:
        bcast.add(np.array([1, big], np.int32), 1, checked=True)
    assert isinstance(e.value, ArithmeticError)
    assert e.value.op == "add" and e.value.status == "BCAST_CHECKED" or e.value.op == "add"
    msg = str(e.value)
    assert "[1]" in msg and "2147483647" in msg, msg
    # unchecked: wraps as NumPy does
    check("wrap", bcast.add(np.array([big]), np.int32(1)), np.array([big]) + np.int32(1), False)
    with pytest.raises(OverflowError):
        bcast.add(np.zeros(2, np.int8), 300)


@pytest.mark.parametrize("to", ["f8E4M3FN", "float8_e4m3fn", "f8E5M2",
                                "float8_e5m2", "bf16"])
def test_cast_to_a_type_numpy_lacks_is_a_type_error(to):
    """The 8-bit floats and bfloat16 exist in bcast but not in NumPy: a
    cast to one is refused up front, naming the type."""
    with pytest.raises(TypeError, match="NumPy has no dtype for"):
        bcast.cast(np.ones(3, np.float32), to=to)


def test_no_refcount_leak():
    a = np.arange(12, dtype=np.float64).reshape(3, 4)
    out = np.empty_like(a)
    ra, ro = sys.getrefcount(a), sys.getrefcount(out)
    for _ in range(2000):
        bcast.add(a, 1.5)
        bcast.add(a, a, out=out)
        try:
            bcast.add(a, np.zeros(5))
        except bcast.BroadcastError:
            pass
    assert sys.getrefcount(a) == ra and sys.getrefcount(out) == ro


def test_out_partial_overlap_refused():
    a = np.arange(6.0)
    with pytest.raises(ValueError, match="overlaps"):
        bcast.add(a, 1, out=a[::-1])
    b = np.arange(7.0)
    with pytest.raises(ValueError, match="overlaps"):
        bcast.add(b[:6], 1, out=b[1:])
    assert (a == np.arange(6.0)).all() and (b == np.arange(7.0)).all()


def test_plan(nrng):
    a = values("int32", (3, 4), nrng)
    b = values("int32", (4,), nrng)
    p = bcast.plan("add", a, b)
    assert isinstance(p, bcast.Plan)
    check("plan", p(a, b), a + b, False)
    a2, b2 = values("int32", (3, 4), nrng), values("int32", (4,), nrng)
    check("plan again", p(a2, b2), a2 + b2, False)
    with pytest.raises(ValueError):
        p(np.asfortranarray(a2), b2)  # other strides
    with pytest.raises(ValueError):
        p(a2.astype(np.int64), b2)  # other dtype
    with pytest.raises(ValueError):
        p(a2[:2], b2)  # other shape
    with pytest.raises(TypeError):
        p(a2)
    out = np.zeros((4, 3), np.float32).T
    x = values("float32", (3, 4), nrng)
    q = bcast.plan("clamp", x, -1, 1, out=out)
    assert q(x, out=out) is out
    check("plan clamp out", out, np.clip(x, -1, 1), False)
    with pytest.raises(TypeError):
        q(x)
    with pytest.raises(ValueError):
        bcast.plan("no_such_op", a)
    s = bcast.plan("mul", a, 3)
    check("plan scalar", s(a, 5), a * np.int32(5), False)
    with pytest.raises(bcast.CheckedError):
        bcast.plan("add", a, b, checked=True)(np.full((3, 4), 2**31 - 1, np.int32), np.abs(b) + 1)


def test_plan_fast_path(nrng):
    """Calls on the planned layouts go straight to the kernel; anything
    else (other strides, overlap, a read-only out, other int64 spelling)
    takes the checked path and still gives NumPy's answer or its error."""
    a = values("float32", (5, 6), nrng)
    b = values("float32", (6,), nrng)
    out = np.empty((5, 6), np.float32)
    p = bcast.plan("add", a, b, out=out)
    q = bcast.plan("add", a, b)
    assert p._fast and q._fast
    assert p(a, b, out=out) is out
    check("fast out", out, a + b, False)
    r = q(a, b)
    assert r.dtype == np.float32 and r.flags.c_contiguous and r.flags.writeable
    check("fast new", r, a + b, False)
    # In place: out is input 0, planned that way.
    x = a.copy()
    inplace = bcast.plan("add", x, b, out=x)
    assert inplace(x, b, out=x) is x
    check("fast in place", x, a + b, False)
    # Partial overlap of out and an input is refused, as without a plan.
    buf = np.zeros(31, np.float32)
    o1 = buf[:30].reshape(5, 6)
    o2 = buf[1:].reshape(5, 6)
    with pytest.raises(ValueError, match="overlaps"):
        p(o2, b, out=o1)
    # A read-only out of the right layout.
    ro = np.empty((5, 6), np.float32)
    ro.flags.writeable = False
    with pytest.raises(TypeError, match="writeable"):
        p(a, b, out=ro)
    # int64 as NPY_LONG and as NPY_LONGLONG: the same library type.
    i = np.arange(6, dtype="l")
    ql = bcast.plan("mul", i, i)
    check("int64 other spelling", ql(i.astype("q"), i.astype("q")), i * i, False)
    # A plan made from a Python scalar takes the fast path for an equal
    # scalar of the same type; any other goes the general way.
    s = bcast.plan("add", a, 2.0)
    assert s._fast
    check("scalar plan", s(a, 2.0), a + np.float32(2.0), False)
    check("scalar plan, another value", s(a, 3.0), a + np.float32(3.0), False)
    z = bcast.plan("multiply", a, 0.0)
    check("-0.0 is not 0.0", z(a, -0.0), a * np.float32(-0.0), False)
    assert np.array_equal(np.signbit(z(a, -0.0)), np.signbit(a * np.float32(-0.0)))
    n = bcast.plan("add", a, math.nan)
    check("NaN", n(a, math.nan), a + np.float32(math.nan), False)
    i8 = np.arange(-3, 3, dtype=np.int8)
    ip = bcast.plan("add", i8, 2)
    assert ip._fast
    for v in (2, 3, True, 2**6):
        check(f"int8 + {v!r}", ip(i8, v), np.add(i8, v), False)
    with pytest.raises(OverflowError):
        ip(i8, 300)
    huge = bcast.plan("add", a.astype(np.float64), 2**70)
    a64 = a.astype(np.float64)
    check("2**70", huge(a64, 2**70), a64 + float(2**70), False)
    check("2**71", huge(a64, 2**71), a64 + float(2**71), False)
    # Every dtype's new output has NumPy's dtype.
    for dtype in ALL:
        v = values(dtype, (3, 4), nrng)
        pm = bcast.plan("maximum", v, v[0])
        assert pm._fast
        check(f"fast maximum {dtype}", pm(v, v[1]), np.maximum(v, v[1]), False)
    # Checked plans raise with the op's fields on the fast path too.
    big = np.full((3, 4), 2**31 - 1, np.int32)
    one = np.ones(4, np.int32)
    cp = bcast.plan("add", big, one, checked=True)
    assert cp._fast
    with pytest.raises(bcast.CheckedError) as info:
        cp(big, one)
    assert info.value.op == "add"
    # Keywords other than out are refused.
    with pytest.raises(TypeError, match="keyword"):
        q(a, b, threads=2)


def test_plan_converts_like_the_one_call_functions(nrng):
    """Under the numpy profile a plan takes inputs of differing types as
    the one-call functions do: each is converted, into the plan's own
    scratch buffer, before every run; the fast path and the checked path
    alike, from several threads at once."""
    i64 = values("int64", (3, 4), nrng)
    f64 = values("float64", (4,), nrng)
    p = bcast.plan("add", i64, f64)
    assert p._fast
    check("int64 + float64", p(i64, f64), i64 + f64, False)
    check("again, other values", p(i64 * 2, f64), i64 * 2 + f64, False)
    check("a list: the checked path", p(i64.tolist(), f64), i64 + f64, False)
    with pytest.raises(ValueError, match="strides"):
        p(np.asfortranarray(i64), f64)   # a plan is for its layouts
    fortran = bcast.plan("add", np.asfortranarray(i64), f64)
    check("Fortran input", fortran(np.asfortranarray(i64), f64), i64 + f64, False)
    out = np.empty((3, 4), np.float64)
    q = bcast.plan("multiply", f64, i64, out=out)
    assert q(f64, i64, out=out) is out
    check("out", out, f64 * i64, False)
    # out may overlap a converted input: it is read whole first
    x = values("float32", (3, 4), nrng)
    i8 = values("int8", (3, 4), nrng)
    r = bcast.plan("add", i8, x, out=x)
    want = i8 + x
    r(i8, x, out=x)
    check("in place over the float input", x, want, False)
    # the condition of where is tested for nonzero; bool power is int8
    c = values("int32", (4,), nrng)
    w = bcast.plan("where", c, f64, i64)
    check("where int condition", w(c, f64, i64), np.where(c, f64, i64), False)
    b = values("bool", (3, 4), nrng)
    pw = bcast.plan("power", b, b)
    check("bool power", pw(b, b), np.power(b, b), False)
    # a scalar planned with an array of another kind
    u8 = values("uint8", (3, 4), nrng)
    s = bcast.plan("add", u8, 2.5)
    check("uint8 + 2.5", s(u8, 2.5), u8 + 2.5, False)
    # other layouts and types still fail as without conversion
    with pytest.raises(ValueError):
        p(i64[:2], f64)
    with pytest.raises(ValueError):
        p(i64.astype(np.int32), f64)
    # one call at a time on the plan's scratch buffers
    big = [values("int32", (256, 256), nrng) for _ in range(4)]
    fl = values("float32", (256,), nrng)
    shared = bcast.plan("add", big[0], fl)
    results = in_threads(lambda k: [shared(big[k], fl) for _ in range(20)][-1], 4)
    for k in range(4):
        check(f"thread {k}", results[k], big[k] + fl, False)


def test_byte_order(nrng):
    a = values("int32", (3, 4), nrng)
    big = a.astype(">i4")
    check("big-endian input", bcast.add(big, 1), a + 1, False)
    check("big-endian plan", bcast.plan("add", a, a)(big, a), a + a, False)
    with pytest.raises(TypeError, match="byte order"):
        bcast.add(a, 1, out=np.zeros((3, 4), ">i4"))


def test_plan_no_refcount_leak():
    a = np.arange(12, dtype=np.float64).reshape(3, 4)
    out = np.empty_like(a)
    p, q = bcast.plan("add", a, a), bcast.plan("add", a, a, out=out)
    ra, ro = sys.getrefcount(a), sys.getrefcount(out)
    for _ in range(2000):
        p(a, a)
        q(a, a, out=out)
        try:
            p(a[:2], a)
        except ValueError:
            pass
    assert sys.getrefcount(a) == ra and sys.getrefcount(out) == ro


def test_cast_every_pair(nrng):
    """Values 0..100 (and halves for floats): defined in every type pair."""
    for src in ALL:
        x = values(src, (3, 4), nrng)
        if src != "bool":
            x = (np.abs(x) % 100).astype(src)
        for to in ALL:
            check(f"cast {src}->{to}", bcast.cast(x.T, to), x.T.astype(to), False)


@pytest.mark.parametrize("dtype", INTS + FLOATS)
def test_clamp_and_select_every_dtype(dtype, nrng):
    x = values(dtype, (3, 4), nrng)
    lo, hi = (0, 50) if dtype[0] == "u" else (-20, 50)
    try:
        got = bcast.clamp(x[::-1], lo, hi)
    except TypeError:
        assert dtype not in ("int8", "int16", "float16", "float32", "float64")
    else:
        check(f"clamp {dtype}", got, np.clip(x[::-1], lo, hi).astype(dtype), False)
    c = values("bool", (4,), nrng)
    y = values(dtype, (3, 1), nrng)
    check(f"select {dtype}", bcast.select(c, x, y), np.where(c, x, y), False)


def test_ops_release_the_gil():
    """While a kernel runs, another Python thread runs.  With a switch
    interval of 100 s the interpreter never takes the GIL from the calling
    thread, so the other thread's counter can only move during a call
    when the call itself released the GIL.  The other thread gives the
    GIL back after each step (time.sleep(0) releases it)."""
    import threading
    import time
    a = np.ones((2048, 2048), np.float32)
    out = np.empty_like(a)
    plan = bcast.plan("add", a, a, out=out, threads=1)
    calls = {"add out": lambda: bcast.add(a, a, out=out, threads=1),
             "add new": lambda: bcast.add(a, a, threads=1),
             "plan": lambda: plan(a, a, out=out)}
    counter, stop = [0], threading.Event()
    running = threading.Event()

    def spin():
        running.set()
        while not stop.is_set():
            counter[0] += 1
            time.sleep(0)

    old = sys.getswitchinterval()
    t = threading.Thread(target=spin)
    t.start()
    running.wait()
    sys.setswitchinterval(100.0)
    try:
        # How soon the waiting thread is scheduled depends on the machine's
        # load, so one call may end before it wakes; a call that never
        # releases the GIL leaves the counter still however often it runs.
        for name, call in calls.items():
            moved = 0
            for _ in range(400):
                before = counter[0]
                call()
                moved += counter[0] - before
                if moved:
                    break
            assert moved > 0, f"{name}: no other thread ran during 400 calls"
    finally:
        sys.setswitchinterval(old)
        stop.set()
        t.join()
    assert np.array_equal(out, a + a)


def test_threads_range_checked_everywhere():
    """Every threads= (the ops, bcast.plan, materialize) takes None or
    0..4096 and refuses the rest, as the CLI's --threads does: no count
    wraps around to 2**31 - 1 OpenMP threads."""
    a = np.arange(4.0)
    calls = [lambda t: bcast.add(a, a, threads=t),
             lambda t: bcast.clamp(a, 0, 1, threads=t),
             lambda t: bcast.plan("add", a, a, threads=t),
             lambda t: bcast.materialize(a, threads=t)]
    for call in calls:
        for bad in [-1, -2**31 - 1, 2**31, 4097, 2**64]:
            with pytest.raises(ValueError, match="threads"):
                call(bad)
        for bad in [1.5, "2", [2]]:
            with pytest.raises(TypeError, match="threads"):
                call(bad)
        for good in [None, 0, 1, 4096, np.int64(2), True]:
            call(good)


def test_zero_d_plan():
    """A plan of 0-d arrays (NumPy gives them NULL dims and strides) on its
    fast path, with and without out=."""
    p = bcast.plan("abs", np.array(5, "u1"))
    assert p._fast
    got = p(np.array(7, "u1"))
    assert got.shape == () and got.dtype == np.uint8 and got == 7
    out = np.array(0, "i4")
    q = bcast.plan("add", np.array(2, "i4"), np.array(3, "i4"), out=out)
    assert q(np.array(4, "i4"), np.array(5, "i4"), out=out) is out and out == 9


def test_clamp_bounds():
    """A bound is a bool, int or float, a subclass of one or a NumPy scalar;
    anything else (complex here) is a TypeError naming the bound."""
    import enum
    x = np.arange(6, dtype=np.int32)

    class Low(enum.IntEnum):
        TWO = 2

    class Half(float):
        pass

    assert np.array_equal(bcast.clamp(x, Low.TWO, np.int64(4)), np.clip(x, 2, 4))
    y = x.astype(np.float64)
    assert np.array_equal(bcast.clamp(y, Half(0.5), np.array(3.5)), np.clip(y, 0.5, 3.5))
    for bad, name in [((1j, 2), "min_val"), ((1, np.complex64(2)), "max_val"),
                      (("1", 2), "min_val"), ((1, [2]), "max_val")]:
        with pytest.raises(TypeError, match=name):
            bcast.clamp(x, *bad)


def test_argument_errors_name_the_argument():
    """Conversions raise TypeError, ValueError or OverflowError naming the
    argument, never SystemError, AttributeError or a codec's error."""
    a = np.arange(3.0)
    # NumPy's words name the culprit by its value (test_numpy_words.py).
    with pytest.raises(OverflowError, match="^Python integer -1180591620717411303424 out of "
                                            "bounds for int64$"):
        bcast.add(np.arange(3), -2**70)
    with pytest.raises(TypeError, match="op"):
        bcast.plan(3, a)
    with pytest.raises(ValueError, match="unknown op"):
        bcast.plan("add\0sub", a, a)    # not add: the name is all of it
    with pytest.raises(ValueError) as e:
        bcast.add(a, a, **{"\ud800": 1})
    assert type(e.value) is ValueError and "keyword" in str(e.value)
    with pytest.raises(ValueError, match="profile"):
        bcast.add(a, a, profile="numpy\0tosa")


def test_ops_list_is_the_c_modules_op_table():
    """bcast.OPS is the C module's list of the functions it binds from the
    op table: every op in the table's order (docs/ops.md's list, which the
    CLI's --list-ops prints), then their aliases that are Python names."""
    import re
    assert bcast.OPS is bcast._bcast.OPS
    doc = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                            "docs", "ops.md")).read()
    listing = doc.split("<!-- list-ops begin -->")[1].split("<!-- list-ops end -->")[0]
    names = re.findall(r"^(\w+): \d input", listing, re.M)
    aliases = {a for line in re.findall(r"^  also named: +(.*)$", listing, re.M)
               for a in line.split() if re.fullmatch(r"[a-z_][a-z0-9_]*", a)}
    assert bcast.OPS[:len(names)] == tuple(names)
    assert set(bcast.OPS[len(names):]) == aliases - set(names)
    assert all(callable(getattr(bcast, name)) for name in bcast.OPS)


def test_out_overlapping_a_converted_input():
    """An out= in the memory of an input the op first converts to the
    common type (bool beside int8) is computed from that copy, so the
    answer is NumPy's, for the ops and for a plan, small and large; an
    input read as it is would be refused (test_properties' overlap case)."""
    rng = np.random.default_rng(20261126)
    for n in (7, 100003):
        b = rng.integers(-1, 2, n).astype(np.int8)
        a = rng.random(n) < 0.5
        want = a.copy()
        np.greater(want, b, out=np.flip(want))
        bcast.greater(a, b, out=np.flip(a))
        assert np.array_equal(a, want), n
        a = rng.random(n) < 0.5
        want = a.copy()
        np.greater(want, b, out=np.flip(want))
        plan = bcast.plan("greater", a, b, out=np.flip(a))
        plan(a, b, out=np.flip(a))
        assert np.array_equal(a, want), n
    x = np.arange(6, dtype=np.int8)
    with pytest.raises(ValueError, match="overlaps"):
        bcast.add(x, x, out=np.flip(x))


def _unaligned(values, dtype):
    """values as an array of dtype whose data starts one byte past an
    aligned address: not aligned for its elements (flags.aligned False)."""
    dtype = np.dtype(dtype)
    raw = np.zeros(len(values) * dtype.itemsize + 1, np.uint8)[1:]
    a = raw.view(dtype)
    a[:] = values
    assert not a.flags.aligned
    return a


@pytest.mark.parametrize("dtype", ["int16", "int32", "int64", "float16", "float32",
                                   "float64"])
def test_unaligned_arrays_as_numpy(dtype):
    """NumPy's test_lower_align, over more ops and types: an array not
    aligned for its elements is read from an aligned copy and an unaligned
    out= is written through one (no misaligned loads, which UBSan stops on),
    with NumPy's values; a plan and materialize take them too."""
    x = _unaligned(np.arange(-9, 12), dtype)
    y = np.arange(21, dtype=dtype) % 5 + 1
    for name in ("add", "multiply", "maximum", "negative", "abs"):
        fn, ref = getattr(bcast, name), getattr(np, name)
        args = (x, y) if ref.nin == 2 else (x,)
        want = ref(*args)
        np.testing.assert_array_equal(fn(*args), want)
        out = _unaligned(np.zeros(21), want.dtype)
        assert fn(*args, out=out) is out
        np.testing.assert_array_equal(out, want)
    want = np.negative(x)
    bcast.negative(x, out=x)
    np.testing.assert_array_equal(x, want)
    p = bcast.plan("add", x, y, out=x)
    want = np.add(x, y)
    p(x, y, out=x)
    np.testing.assert_array_equal(x, want)
    (m,) = bcast.materialize(x[None, :])
    np.testing.assert_array_equal(m, x[None, :])
    # A refused call leaves the unaligned out= as it was.
    before = x.copy()
    with pytest.raises(bcast.BroadcastError):
        bcast.add(x, np.ones(3, dtype), out=x)
    np.testing.assert_array_equal(x, before)
