"""Property tests of the Python API (Hypothesis), NumPy 1.24 the oracle.

Hypothesis builds the cases: every dtype bcast takes (bool, int8..uint64,
float16/32/64; the views also NumPy's strings; bfloat16 has no NumPy dtype
and complex no library type, so those are refused), shapes of rank 0 to 32
(NumPy's limit; the shape functions also up to bcast's 64) with size-1 and
size-0 dims, sets that broadcast and sets with one conflicting axis, arrays
in every layout (C and Fortran order, reversed axes, slices of a bigger
buffer, stride-0 views from np.broadcast_to and as_strided, the other byte
order, NumPy scalars), Python scalars (int beyond 64 bits, float, bool,
complex), out= arrays (laid out any way, or of a wrong shape, dtype, byte
order or writeability, or overlapping an input), the profiles numpy, tosa,
trait, mlir and xla, and plans.  Each property compares with what NumPy
does: the same shape, strides, dtype and values (exact with NaN equal to
NaN and signed zeros told apart, except for the transcendental ops, which
must lie within the error budget test_ops.py takes from
tests/diff/test_run_numpy.py), or NumPy's error as bcast's exception.
Where bcast deliberately differs, the property follows docs/python.md
(the Python API), docs/cli.md (the numpy profile) or bcast/elementwise.h,
and says so where it does.

The examples come from one seed, printed by each test with its replay
command: BCAST_SEED=N replays a run.  The ASan build (BCAST_TEST_SANITIZE=1)
runs a quarter of the examples, as the other random tests do there.
"""
import inspect
import os
import random
import sys
import tempfile

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, seed, settings
from hypothesis import strategies as st
from hypothesis.configuration import set_hypothesis_home_dir
from hypothesis.extra import numpy as hnp

import bcast
from conftest import SANITIZE
import test_ops
from test_ops import oracle

# Hypothesis keeps no example database here (database=None below), and
# its other files (the text strategies' character tables) go to the
# temporary directory, not into the source or build tree.
set_hypothesis_home_dir(os.path.join(tempfile.gettempdir(), f"bcast-hypothesis-{os.getuid()}"))
SEED = int(os.environ.get("BCAST_SEED", random.randrange(1 << 32)))
SCALE = 0.25 if SANITIZE else 1.0
NUMPY_MAX_RANK = 32   # NumPy 1.24's NPY_MAXDIMS
BCAST_MAX_RANK = 64   # ValueError beyond (docs/python.md: "ranks over 64 (NumPy: 32)")
MAX_ELEMS = 60        # elements of an array: small keeps examples fast

NUMERIC = ["?", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2", "f4", "f8"]
VIEW_DTYPES = NUMERIC + ["S3", "U2"]
UNSUPPORTED = ["c8", "c16", "g", "O", "M8[s]", "m8[s]", "V4"]


def prop(n):
    """Hypothesis' settings for a property of n examples (scaled): the
    printed seed, no example database (nothing written to the tree), no
    deadline (the ASan build is slow)."""
    def wrap(test):
        configured = settings(
            max_examples=max(5, int(n * SCALE)), deadline=None, database=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                   HealthCheck.filter_too_much,
                                   HealthCheck.function_scoped_fixture])(test)
        return seed(SEED)(configured)
    return wrap


@pytest.fixture(autouse=True)
def replay_and_nep50(request):
    """Prints the seed and its replay command; NumPy quiet about inf and
    NaN results, and typing Python scalars by NEP 50's weak rule (bcast
    does: docs/python.md, "typed per NEP 50")."""
    print(f"seed {SEED}; replay: BCAST_SEED={SEED} "
          f"PYTHONPATH={os.environ.get('PYTHONPATH', '')} {sys.executable} -m pytest "
          f"{request.node.nodeid}")
    state = np._get_promotion_state()
    np._set_promotion_state("weak")
    try:
        with np.errstate(all="ignore"):
            yield
    finally:
        np._set_promotion_state(state)


# ---------------------------------------------------------------- shapes

SIDES = st.sampled_from([1, 2, 3, 0, 4, 5])


def capped(dims, max_elems):
    """dims with the innermost kept while the product of the non-zero ones
    stays within max_elems; the others become 1 (a rank-32 shape stays a
    small array)."""
    out, size = [], 1
    for d in reversed(dims):
        if d > 1 and size * d > max_elems:
            d = 1
        size *= max(d, 1)
        out.append(d)
    return tuple(reversed(out))


@st.composite
def result_shapes(draw, max_rank=NUMPY_MAX_RANK, max_elems=MAX_ELEMS):
    rank = draw(st.one_of(st.integers(0, 4), st.integers(0, max_rank)))
    dims = draw(st.lists(SIDES, min_size=rank, max_size=rank))
    return capped(dims, max_elems) if max_elems else tuple(dims)


@st.composite
def operand_shapes(draw, result, n):
    """n shapes that broadcast to (a suffix of) result: trailing dims of
    it, each kept or made 1."""
    shapes = []
    for _ in range(n):
        r = draw(st.integers(0, len(result)))
        ones = draw(st.lists(st.booleans(), min_size=r, max_size=r))
        tail = result[len(result) - r:]
        shapes.append(tuple(1 if one else d for d, one in zip(tail, ones)))
    return shapes


@st.composite
def broadcastable(draw, n_min=1, n_max=4, max_rank=NUMPY_MAX_RANK, max_elems=MAX_ELEMS):
    result = draw(result_shapes(max_rank, max_elems))
    return draw(operand_shapes(result, draw(st.integers(n_min, n_max))))


@st.composite
def conflicting(draw, n_max=4, max_rank=NUMPY_MAX_RANK, max_elems=MAX_ELEMS):
    """Shapes that broadcast everywhere but at one axis, where two operands
    hold different sizes other than 1; (shapes, k): k counts that axis from
    the right."""
    result = draw(result_shapes(max_rank, max_elems).filter(len))
    shapes = [list(s) for s in draw(operand_shapes(result, draw(st.integers(2, n_max))))]
    k = draw(st.integers(0, len(result) - 1))
    i, j = draw(st.lists(st.integers(0, len(shapes) - 1), min_size=2, max_size=2,
                         unique=True))
    x, y = draw(st.lists(st.sampled_from([0, 2, 3, 4, 5]), min_size=2, max_size=2,
                         unique=True))
    for m, size in ((i, x), (j, y)):
        shapes[m] = [1] * (k + 1 - len(shapes[m])) + shapes[m]
        shapes[m][len(shapes[m]) - 1 - k] = size
    return [tuple(s) for s in shapes], k


def numpy_broadcast(shapes):
    """np.broadcast_shapes, also beyond NumPy's 32 dims: padded to one rank,
    the axes broadcast independently, so NumPy decides each chunk of 32."""
    rank = max((len(s) for s in shapes), default=0)
    padded = [(1,) * (rank - len(s)) + tuple(s) for s in shapes]
    out = ()
    for lo in range(0, rank, NUMPY_MAX_RANK):
        out += np.broadcast_shapes(*(p[lo:lo + NUMPY_MAX_RANK] for p in padded))
    return out


def check_conflict(err, shapes, k):
    """A BroadcastError names the conflicting axis, two operands and their
    sizes there (the library's diagnostic, docs/python.md "Errors")."""
    rank = max(len(s) for s in shapes)
    assert isinstance(err, ValueError) and err.axis == rank - 1 - k, (err.axis, str(err))
    assert err.sizes[0] != err.sizes[1] and 1 not in err.sizes, err.sizes
    for m in (0, 1):
        op, axis = err.operands[m], err.operand_axes[m]
        assert shapes[op][axis] == err.sizes[m], (shapes, str(err))
        assert axis - len(shapes[op]) == -1 - k, (shapes, str(err))


SHAPE_FORMS = [tuple, list, lambda s: "[" + ",".join(map(str, s)) + "]"]


@prop(300)
@given(shapes=broadcastable(0, 5, BCAST_MAX_RANK, None),
       forms=st.lists(st.sampled_from(SHAPE_FORMS), min_size=5, max_size=5),
       profile=st.sampled_from([None, "numpy", "trait", "mlir"]))
def test_broadcast_shapes_equal_numpy(shapes, forms, profile):
    """Every profile but tosa and xla expands ranks; with static sizes they
    all infer NumPy's shape (docs/profiles.md)."""
    want = numpy_broadcast(shapes) if shapes else np.broadcast_shapes()
    args = [f(s) for f, s in zip(forms, shapes)]
    got = bcast.broadcast_shapes(*args) if profile is None else \
        bcast.broadcast_shapes(*args, profile=profile)
    assert got == want
    assert bcast.verify_shapes(shapes, want, profile=profile or "numpy") is None


@prop(200)
@given(shapes=broadcastable(1, 4, BCAST_MAX_RANK, None),
       profile=st.sampled_from(["tosa", "xla"]))
def test_equal_rank_profiles(shapes, profile):
    """tosa and xla do not expand ranks: NumPy's shape when the ranks are
    equal, else BroadcastError naming the ranks.  XLA broadcasts scalars
    (rank 0) over anything (src/shape/shape.c; XLA's own rule)."""
    ranks = {len(s) for s in shapes if profile == "tosa" or len(s)}
    if len(ranks) > 1:
        with pytest.raises(bcast.BroadcastError, match="rank"):
            bcast.broadcast_shapes(*shapes, profile=profile)
    else:
        assert bcast.broadcast_shapes(*shapes, profile=profile) == numpy_broadcast(shapes)


@prop(300)
@given(case=conflicting(5, BCAST_MAX_RANK, None),
       profile=st.sampled_from(["numpy", "trait", "mlir"]))
def test_broadcast_shapes_conflict(case, profile):
    shapes, k = case
    if max(len(s) for s in shapes) <= NUMPY_MAX_RANK:
        with pytest.raises(ValueError):
            np.broadcast_shapes(*shapes)
    with pytest.raises(bcast.BroadcastError) as info:
        bcast.broadcast_shapes(*shapes, profile=profile)
    check_conflict(info.value, shapes, k)
    # whatever result is declared, the operands themselves do not broadcast
    rank = max(len(s) for s in shapes)
    declared = [max(s[i - rank + len(s)] if i - rank + len(s) >= 0 else 1 for s in shapes)
                for i in range(rank)]
    with pytest.raises(bcast.BroadcastError):
        bcast.verify_shapes(shapes, declared, profile=profile)


@prop(100)
@given(rank=st.integers(BCAST_MAX_RANK + 1, 2 * BCAST_MAX_RANK),
       neg=st.integers(-5, -1), where=st.integers(0, 3))
def test_shape_limits(rank, neg, where):
    """Ranks over 64 and negative dims: ValueError (docs/python.md, Errors), as
    NumPy raises ValueError beyond its 32 dims and for negative dims."""
    with pytest.raises(ValueError, match="rank"):
        bcast.broadcast_shapes((1,) * rank)
    shape = [2, 3, 1, 4]
    shape[where] = neg
    with pytest.raises(ValueError):
        np.broadcast_shapes(shape)
    with pytest.raises(ValueError, match="negative"):
        bcast.broadcast_shapes(shape)
    with pytest.raises(ValueError, match="negative"):
        bcast.broadcast_to(np.zeros(4), shape)


# ---------------------------------------------------------------- arrays

def values(dtype, shape):
    """Arrays of dtype and shape over the whole range of the type (NaN,
    inf, -0.0, subnormals, the integer extremes)."""
    return hnp.arrays(np.dtype(dtype), shape, elements=hnp.from_dtype(np.dtype(dtype)))


@st.composite
def layouts(draw, shape, swap=True, zero=True):
    """How an array of shape lies in memory: order, reversed axes, steps
    into a bigger buffer (at most two axes, so rank-32 arrays stay small),
    stride-0 axes (broadcast, with values repeated along them; by
    np.broadcast_to or as_strided), the other byte order."""
    rank = len(shape)
    steps = [1] * rank
    for axis in draw(st.lists(st.integers(0, rank - 1), max_size=2)) if rank else []:
        steps[axis] = draw(st.sampled_from([2, 3]))
    return {
        "order": draw(st.sampled_from("CF")),
        "flips": draw(st.lists(st.booleans(), min_size=rank, max_size=rank)),
        "steps": steps,
        "zero": draw(st.lists(st.booleans(), min_size=rank, max_size=rank)) if zero
        else [False] * rank,
        "zero_by": draw(st.sampled_from(["broadcast_to", "as_strided"])),
        "swap": swap and draw(st.booleans()),
    }


def place(x, lay, fill=None):
    """x's values in the layout lay (from layouts): a new array; values
    along stride-0 axes are x's first along them.  fill: the whole buffer's
    values first (for out=), returned with the view."""
    shape = x.shape
    zero = [z and n > 1 for z, n in zip(lay["zero"], shape)]
    src = x[tuple(slice(0, 1) if z else slice(None) for z in zero)]
    dt = src.dtype.newbyteorder("S") if lay["swap"] else src.dtype
    big = np.empty(tuple(n * s for n, s in zip(src.shape, lay["steps"])), dt,
                   order=lay["order"])
    if fill is not None:
        big[...] = fill
    view = big[(Ellipsis,) + tuple(slice(None, None, s) for s in lay["steps"])]
    view = view[(Ellipsis,) + tuple(slice(None, None, -1) if f else slice(None)
                                    for f in lay["flips"])]
    view[...] = src
    if any(zero):
        if lay["zero_by"] == "broadcast_to":
            view = np.broadcast_to(view, shape)
        else:
            strides = [0 if z else s for z, s in zip(zero, view.strides)]
            view = np.lib.stride_tricks.as_strided(view, shape, strides, writeable=False)
    return (view, big) if fill is not None else view


@st.composite
def arrays(draw, dtype, shape, swap=True, zero=True, scalar=True):
    """An array of dtype and shape, any layout (a 0-d one sometimes as a
    NumPy scalar)."""
    x = draw(values(dtype, shape))
    a = place(x, draw(layouts(shape, swap, zero)))
    if scalar and a.ndim == 0 and draw(st.booleans()):
        return a[()]
    return a


def same_view(got, want, src):
    """A view as NumPy's: type, shape, dtype, strides, values, read-only,
    sharing src's memory."""
    assert type(got) is np.ndarray
    assert got.shape == want.shape and got.dtype == want.dtype
    assert got.strides == want.strides, (got.strides, want.strides)
    assert np.array_equal(got, want, equal_nan=got.dtype.kind == "f")
    assert not got.flags.writeable
    if got.size and isinstance(src, np.ndarray):
        assert np.shares_memory(got, src)


@st.composite
def array_and_target(draw, dtypes=VIEW_DTYPES):
    """An array and a shape it broadcasts to, with up to 2 new leading
    dims."""
    result = draw(result_shapes(NUMPY_MAX_RANK - 2))
    (shape,) = draw(operand_shapes(result, 1))
    lead = draw(st.lists(SIDES, max_size=2))
    a = draw(arrays(draw(st.sampled_from(dtypes)), shape))
    return a, capped(lead, 4) + result


@prop(250)
@given(case=array_and_target(),
       shape_form=st.sampled_from(SHAPE_FORMS[:2] + [lambda s: s[0] if len(s) == 1 else s]))
def test_broadcast_to_equals_numpy(case, shape_form):
    a, target = case
    want = np.broadcast_to(a, target)
    got = bcast.broadcast_to(a, shape_form(target))
    same_view(got, want, a)
    assert got.base is not None


@prop(200)
@given(data=st.data())
def test_broadcast_to_refuses_what_numpy_refuses(data):
    """A target the array does not broadcast to: one axis changed, or a
    lower rank."""
    a, target = data.draw(array_and_target())
    target = list(target)
    bad = [i for i in range(1, a.ndim + 1) if a.shape[-i] != 1]
    if bad and data.draw(st.booleans()):
        i = data.draw(st.sampled_from(bad))
        target[-i] = data.draw(st.sampled_from([n for n in (0, 1, 2, 3, 4, 5, 7)
                                                if n not in (1, a.shape[-i])]))
    else:
        assume(a.ndim)
        target = target[len(target) - data.draw(st.integers(0, a.ndim - 1)):] \
            if a.ndim > 1 else []
    with pytest.raises(ValueError):
        np.broadcast_to(a, target)
    with pytest.raises(bcast.BroadcastError):
        bcast.broadcast_to(a, target)


@st.composite
def array_sets(draw, n_min=1, n_max=4, dtypes=VIEW_DTYPES, conflict=False):
    if conflict:
        shapes, k = draw(conflicting(n_max))
    else:
        shapes, k = draw(broadcastable(n_min, n_max)), None
    common = draw(st.sampled_from(dtypes))
    arrs = [draw(arrays(draw(st.sampled_from([common] + dtypes)), s)) for s in shapes]
    return arrs, k


@prop(250)
@given(case=array_sets())
def test_broadcast_arrays_equal_numpy(case):
    """Values as np.broadcast_arrays; every result a read-only view as
    np.broadcast_to makes it (docs/python.md: "One deliberate difference:
    np.broadcast_arrays returns an input itself when its shape does not
    change; bcast.broadcast_arrays always returns read-only views")."""
    arrs, _ = case
    want = np.broadcast_arrays(*arrs)
    got = bcast.broadcast_arrays(*arrs)
    assert type(got) is tuple and len(got) == len(arrs)
    for g, w, a in zip(got, want, arrs):
        assert np.array_equal(g, w, equal_nan=g.dtype.kind == "f")
        same_view(g, np.broadcast_to(a, w.shape), a)


@prop(150)
@given(case=array_sets(2, 4, conflict=True))
def test_broadcast_arrays_conflict(case):
    arrs, k = case
    with pytest.raises(ValueError):
        np.broadcast_arrays(*arrs)
    for call in (bcast.broadcast_arrays, bcast.materialize):
        with pytest.raises(bcast.BroadcastError) as info:
            call(*arrs)
        check_conflict(info.value, [np.shape(a) for a in arrs], k)


@prop(200)
@given(case=array_sets(), threads=st.sampled_from([None, 0, 1, 2]),
       slack=st.integers(-1, 1))
def test_materialize_equals_numpy_copies(case, threads, slack):
    """New C-order arrays owning their memory, as np.array(order="C") of
    np.broadcast_arrays; BudgetError exactly when the outputs together need
    more than max_bytes."""
    arrs, _ = case
    want = [np.array(w, order="C") for w in np.broadcast_arrays(*arrs)]
    need = sum(w.nbytes for w in want)
    if need + slack < 0:
        slack = 0
    if slack < 0:
        with pytest.raises(bcast.BudgetError, match=str(need)):
            bcast.materialize(*arrs, max_bytes=need + slack, threads=threads)
        return
    got = bcast.materialize(*arrs, max_bytes=need + slack, threads=threads)
    assert type(got) is tuple and len(got) == len(arrs)
    for g, w, a in zip(got, want, arrs):
        assert type(g) is np.ndarray and g.shape == w.shape and g.dtype == w.dtype
        assert g.flags.c_contiguous and g.flags.writeable
        assert np.array_equal(g, w, equal_nan=g.dtype.kind == "f")
        assert not np.shares_memory(g, np.asarray(a))


@st.composite
def in_dim_cases(draw):
    """broadcast_in_dim's arguments and NumPy's answer: the operand's dims
    moved into output order (a transpose), the new dims inserted as 1, then
    np.broadcast_to."""
    r = draw(st.integers(0, 5))
    R = r + draw(st.integers(0, 3))
    shape = capped(draw(st.lists(SIDES, min_size=r, max_size=r)), MAX_ELEMS)
    a = draw(arrays(draw(st.sampled_from(VIEW_DTYPES)), shape, scalar=False))
    dims = sorted(draw(st.permutations(range(R)))[:r])
    any_order = draw(st.booleans())
    if any_order:
        dims = draw(st.permutations(dims))
    out = capped(draw(st.lists(SIDES, min_size=R, max_size=R)), MAX_ELEMS)
    out = list(out)
    for i, d in enumerate(dims):
        out[d] = shape[i] if shape[i] != 1 else draw(st.sampled_from([1, out[d]]))
    order = sorted(range(r), key=lambda i: dims[i])
    inflated = [1] * R
    for i in range(r):
        inflated[dims[i]] = shape[i]
    return a, tuple(out), list(dims), any_order, np.transpose(a, order).reshape(inflated)


@prop(250)
@given(case=in_dim_cases(), partial=st.booleans())
def test_broadcast_in_dim_equals_transpose_and_broadcast(case, partial):
    a, out, dims, any_order, placed = case
    if partial and not any_order:
        # The partial form: new_dims sizes the output dims no operand dim
        # maps to; the mapped ones keep the operand's size.
        new = {d: out[d] for d in range(len(out)) if d not in dims}
        out = tuple(new[d] if d in new else a.shape[dims.index(d)] for d in range(len(out)))
        got = bcast.broadcast_in_dim(a, broadcast_dimensions=dims, new_dims=new)
    else:
        got = bcast.broadcast_in_dim(a, out, dims, any_order=any_order)
    want = np.broadcast_to(placed, out)
    assert type(got) is np.ndarray and got.shape == want.shape and got.dtype == want.dtype
    assert np.array_equal(got, want, equal_nan=got.dtype.kind == "f")
    assert not got.flags.writeable
    if got.size:
        assert np.shares_memory(got, a)
        for o in range(len(out)):
            if o not in dims or (a.shape[dims.index(o)] == 1 and out[o] != 1):
                assert got.strides[o] == 0 or out[o] == 1
            elif out[o] != 1:
                assert got.strides[o] == a.strides[dims.index(o)]
    if len(dims) > 1 and dims != sorted(dims):
        with pytest.raises(ValueError, match="increasing"):
            bcast.broadcast_in_dim(a, out, dims)


@prop(150)
@given(case=in_dim_cases(), how=st.sampled_from(["size", "range", "count", "repeat"]))
def test_broadcast_in_dim_refusals(case, how):
    """A mapped dim of another size than the output's (BroadcastError), a
    dim out of range, too few or repeated dims (ValueError)."""
    a, out, dims, _, _ = case
    out = list(out)
    if how == "size":
        bad = [i for i in range(a.ndim) if a.shape[i] != 1]
        assume(bad)
        i = bad[0]
        out[dims[i]] = a.shape[i] + 1
        err = bcast.BroadcastError
    elif how == "range":
        assume(dims)
        dims[-1] = len(out) + dims[-1]
        err = ValueError
    elif how == "count":
        assume(dims)
        dims = dims[:-1]
        err = ValueError
    else:
        assume(len(dims) > 1)
        dims[1] = dims[0]
        err = ValueError
    with pytest.raises(err):
        bcast.broadcast_in_dim(a, tuple(out), dims, any_order=True)


@prop(60)
@given(dtype=st.sampled_from(UNSUPPORTED), shape=result_shapes(3))
def test_unsupported_dtypes_raise_type_error(dtype, shape):
    """complex, long double, object, datetime and void arrays: TypeError
    (docs/python.md: element types bool, int8..uint64, float16/32/64; strings for
    the views)."""
    a = np.zeros(shape, dtype)
    for call in (lambda: bcast.broadcast_to(a, shape), lambda: bcast.materialize(a),
                 lambda: bcast.broadcast_arrays(a, a), lambda: bcast.add(a, a),
                 lambda: bcast.exp(a), lambda: bcast.plan("add", a, a),
                 lambda: bcast.where(True, a, a)):
        with pytest.raises(TypeError):
            call()


# ---------------------------------------------------------------- element-wise ops

def _arity(fn):
    """An op's input count: its positional-only parameters (x; x, y;
    cond, x, y)."""
    return sum(p.kind is p.POSITIONAL_ONLY
               for p in inspect.signature(fn).parameters.values())


# Every op by its own name, with all the names bcast binds to it.
ALIASES = {}
for _name in bcast.OPS:
    ALIASES.setdefault(getattr(bcast, _name).__name__, []).append(_name)
OPS = sorted(ALIASES)
ARITY = {op: _arity(getattr(bcast, op)) for op in OPS}

# Ops whose float results must lie within the transcendental error budget
# (test_ops.py, tests/diff/test_run_numpy.py); every other result is exact.
TRANSCENDENTAL = {"exp", "log", "tanh", "sin", "cos", "erf", "rsqrt", "sigmoid", "reciprocal", "pow"}
# Ops whose zero results may have either sign (NumPy's own maximum of 0.0
# and -0.0 depends on the operand order; the CLI tests do the same).
ANY_ZERO_SIGN = {"maximum", "minimum", "fmax", "fmin", "clamp"}


def _int_type(arrays):
    """The promoted type an integer-only op computes in: bool computes in
    int8 (docs/cli.md, numpy profile: "integer ops without a bool loop ...
    compute bool in int8"); floats have no such op (TypeError)."""
    t = np.result_type(*arrays)
    if t.kind == "f":
        raise TypeError(f"no float loop ({t})")
    return np.dtype(np.int8) if t.kind == "b" else t


def _typed(v, t):
    """v as an array; a Python int typed t (NEP 50: OverflowError when t
    does not hold it)."""
    if type(v) is int and not np.iinfo(t).min <= v <= np.iinfo(t).max:
        raise OverflowError(f"Python integer {v} out of bounds for {t}")
    return np.asarray(v, t) if type(v) in (int, bool, float) else np.asarray(v)


def _power(a, b):
    """np.power; integers to a negative power give trunc(a^b), 1 for
    a == 1, +-1 for a == -1, else 0, where NumPy raises (docs/cli.md, numpy
    profile: "power of integers with a negative exponent gives trunc(a^b)
    (NumPy raises)"; bcast/elementwise.h)."""
    t = np.result_type(a, b)
    if t.kind not in "iu":
        return np.power(a, b)
    a, b = (_typed(v, t) for v in (a, b))
    shape = np.broadcast_shapes(a.shape, b.shape)
    aa, bb = (np.broadcast_to(v, shape).astype(t) for v in (a, b))
    negative = bb < 0
    got = np.power(aa, np.where(negative, t.type(0), bb))
    if t.kind == "u":
        return got
    odd = (bb % 2) != 0
    trunc = np.where(aa == 1, 1, np.where(aa == -1, np.where(odd, -1, 1), 0)).astype(t)
    return np.where(negative, trunc, got)


def _intdiv(a, b):
    """TOSA's intdiv: the quotient truncated toward zero, from NumPy's
    floor_divide and remainder; by 0 it is 0 and MIN / -1 is MIN
    (bcast/elementwise.h, "Unpredictable results"; NumPy 1.24 gives the
    same for its floor_divide)."""
    t = _int_type([a, b])
    a, b = np.asarray(a).astype(t), np.asarray(b).astype(t)
    q, r = np.floor_divide(a, b), np.remainder(a, b)
    return q + ((r != 0) & ((a < 0) != (b < 0))).astype(t)


def _in_int(f):
    """An oracle of test_ops.py for an integer-only op without a NumPy
    counterpart, run in the promoted type."""
    def run(*arrays):
        t = _int_type(arrays)
        return f(*(np.asarray(x).astype(t) for x in arrays))
    return run


def _cast(x, to):
    """x.astype(to) element by element, as C converts: from a strided copy
    in native byte order.  Where C leaves a float -> integer conversion
    undefined (NaN, inf, out of range), NumPy's contiguous loop (SIMD; also
    the one it runs on a buffer of another byte order) gives other values
    than that (float32 -> uint32); bcast gives x86-64's conversion of one
    element (bcast/elementwise.h, "Unpredictable results")."""
    x = np.asarray(x)
    spaced = np.empty(2 * x.size, x.dtype.newbyteorder("="))[::2]
    spaced[...] = x.ravel()
    return spaced.astype(to).reshape(x.shape)


def _float_type(x):
    """erf, rsqrt and sigmoid (no NumPy function): the shape and the float
    type NumPy's float functions give x (int8 -> float16, as np.sqrt);
    agree() holds the values to the fp64 reference."""
    x = np.asarray(x)
    return np.zeros(x.shape, np.sqrt(np.zeros(0, x.dtype)).dtype)


# The oracle of each op: these, or NumPy's function by one of the op's
# names in test_ops.py's tables.
OWN = {"pow": _power, "intdiv": _intdiv, "select": np.where,
       "logical_left_shift": np.left_shift, "arithmetic_right_shift": np.right_shift,
       "erf": _float_type, "rsqrt": _float_type, "sigmoid": _float_type,
       "clz": _in_int(test_ops.clz),
       "logical_right_shift": _in_int(test_ops.logical_shift(np.right_shift)),
       "cast": _cast,
       "clamp": None}
NUMPY_FN = {}
for _op in OPS:
    for _name in [_op] + ALIASES[_op]:
        if _name in OWN:
            NUMPY_FN[_op] = OWN[_name]
        elif _name in test_ops.UNARY or _name in test_ops.BINARY:
            NUMPY_FN[_op] = {**test_ops.UNARY, **test_ops.BINARY}[_name][0]
        if _op in NUMPY_FN:
            break


def test_every_op_has_an_oracle():
    """A new op joins these properties by an entry in the oracle tables."""
    assert sorted(NUMPY_FN) == OPS, sorted(set(OPS) - set(NUMPY_FN))
    assert len(OPS) == 48 and all(ARITY[op] in (1, 2, 3) for op in OPS)


def expected(op, ins, attrs):
    """NumPy's answer for op on ins (with clamp's and cast's attributes);
    raises TypeError where NumPy (or the op's documented types) refuse."""
    if op == "clamp":
        # np.clip with bounds of the input's type; clamp has no bool loop
        # (bcast --list-ops), so bool clamps in int8, as _int_type says
        x = np.asarray(ins[0])
        x = x.astype(_int_type([x])) if x.dtype == bool else x
        lo, hi = (np.array(attrs[k], x.dtype) for k in ("min_val", "max_val"))
        return np.asarray(np.clip(x, lo, hi))
    if op == "cast":
        return NUMPY_FN[op](ins[0], attrs["to"])
    return np.asarray(NUMPY_FN[op](*ins))


def agree(op, got, want, ins):
    """got is NumPy's want: type, dtype, shape, and values exact (NaN equal
    to NaN, signed zeros told apart but for ANY_ZERO_SIGN), or within the
    transcendental ops' budget around an fp64 reference."""
    assert type(got) is np.ndarray, type(got)
    assert got.dtype == want.dtype, (op, got.dtype, want.dtype)
    assert got.shape == want.shape, (op, got.shape, want.shape)
    if op in TRANSCENDENTAL and want.dtype.kind == "f":
        xs = [np.broadcast_to(np.asarray(x).astype(want.dtype), want.shape) for x in ins]
        expect = oracle.expect(op, xs, [])
    else:
        expect = oracle.Exact(want, signed_zero=op not in ANY_ZERO_SIGN)
    ok = np.asarray(expect.ok(got))
    if not ok.all():
        idx = tuple(int(i) for i in np.argwhere(~ok)[0]) if ok.ndim else ()
        pytest.fail(f"{op}: at {idx} got {got[idx]!r}, want {expect.describe(idx)} for "
                    f"inputs {[np.broadcast_to(x, want.shape)[idx] for x in ins]}")


@st.composite
def attributes(draw, op, dtype):
    """clamp's bounds (values of the input's type, min_val <= max_val, no
    NaN: docs/cli.md, "Attribute values") and cast's target, in the forms
    np.dtype accepts."""
    if op == "clamp":
        dt = np.dtype(dtype)
        elements = (hnp.from_dtype(dt, allow_nan=False) if dt.kind == "f" else
                    st.integers(0, 1) if dt.kind == "b" else hnp.from_dtype(dt))
        lo, hi = sorted(np.asarray(draw(elements)).item() for _ in range(2))
        return {"min_val": lo, "max_val": hi}
    if op == "cast":
        to = draw(st.sampled_from(NUMERIC))
        return {"to": draw(st.sampled_from([to, np.dtype(to), np.dtype(to).type]))}
    return {}


def call(op, ins, attrs, name=None, **kw):
    """The op through one of its names: clamp's and cast's attributes
    positionally or as keywords."""
    fn = getattr(bcast, name or op)
    if op == "clamp" and not kw.pop("keywords", False):
        return fn(*ins, attrs["min_val"], attrs["max_val"], **kw)
    kw.pop("keywords", None)
    return fn(*ins, **attrs, **kw)


@st.composite
def op_cases(draw, op, writeable_first=False):
    """Inputs of op: shapes that broadcast, each of its own dtype half the
    time (NumPy's promotion), any values, any layouts; the attributes.
    writeable_first: input 0 of the broadcast shape, a writeable array in
    native byte order (for out= in place)."""
    n = ARITY[op]
    shapes = draw(broadcastable(n, n))
    if writeable_first:
        shapes[0] = np.broadcast_shapes(*shapes)
    common = draw(st.sampled_from(NUMERIC))
    dtypes = [draw(st.one_of(st.just(common), st.sampled_from(NUMERIC))) for _ in shapes]
    ins = [draw(arrays(d, s, *((False, False, False) if writeable_first and k == 0 else ())))
           for k, (d, s) in enumerate(zip(dtypes, shapes))]
    return ins, draw(attributes(op, dtypes[0]))


@pytest.mark.parametrize("op", OPS)
@prop(40)
@given(data=st.data())
def test_op_equals_numpy(op, data):
    """Every op (through any of its names) on any dtypes, shapes, values
    and layouts gives NumPy's dtype, shape and values, and refuses
    (TypeError) what NumPy refuses."""
    ins, attrs = data.draw(op_cases(op))
    name = data.draw(st.sampled_from(ALIASES[op]))
    kw = {"threads": data.draw(st.sampled_from([None, 1, 2])),
          "keywords": data.draw(st.booleans())}
    try:
        want = expected(op, ins, attrs)
    except TypeError:
        with pytest.raises(TypeError):
            call(op, ins, attrs, name, **kw)
        return
    agree(op, call(op, ins, attrs, name, **kw), want, ins)


@prop(150)
@given(dtype=st.sampled_from(NUMERIC), data=st.data())
def test_clamp_refuses_bounds_outside_the_type(dtype, data):
    """docs/cli.md, "Attribute values": clamp's bounds are values of the
    input's type with min_val <= max_val; a bound outside the type, NaN or
    min_val > max_val is refused (ValueError), not clipped."""
    x = data.draw(arrays(dtype, data.draw(result_shapes(3))))
    dt = np.dtype(dtype)
    if dt.kind == "f":
        bad = float("nan")
    else:
        lo, hi = (0, 1) if dt.kind == "b" else (int(np.iinfo(dt).min), int(np.iinfo(dt).max))
        bad = data.draw(st.one_of(st.integers(hi + 1, hi + 2**70),
                                  st.integers(lo - 2**70, lo - 1)))
    good = np.asarray(data.draw(values(dtype, ()).filter(lambda v: v == v))).item()
    if dt.kind == "b":
        good = int(good)
    bounds = data.draw(st.sampled_from([(bad, good), (good, bad)]))
    with pytest.raises(ValueError):
        bcast.clamp(x, *bounds)
    lo, hi = data.draw(attributes("clamp", dtype)).values()
    if lo < hi:
        with pytest.raises(ValueError):
            bcast.clamp(x, min_val=hi, max_val=lo)


def _bytes_outside(big, lay):
    """The bytes of big outside the view place() made of it for lay."""
    mask = np.ones(big.shape, bool)
    view = mask[(Ellipsis,) + tuple(slice(None, None, s) for s in lay["steps"])]
    view[...] = False
    return big[mask].tobytes()


@st.composite
def out_cases(draw, writeable_first=False):
    """An op with inputs NumPy takes, and its answer."""
    op = draw(st.sampled_from(OPS))
    ins, attrs = draw(op_cases(op, writeable_first))
    try:
        want = expected(op, ins, attrs)
    except TypeError:
        assume(False)
    return op, ins, attrs, want


@prop(300)
@given(case=out_cases(), data=st.data())
def test_out_any_layout(case, data):
    """out= of the result's shape and dtype in any layout (C, Fortran,
    reversed, strided in a bigger buffer) receives NumPy's values, is
    returned, and nothing else in its buffer changes; positionally too."""
    op, ins, attrs, want = case
    lay = data.draw(layouts(want.shape, swap=False, zero=False))
    out, big = place(np.zeros(want.shape, want.dtype), lay,
                     fill=data.draw(values(want.dtype, ())))
    outside = _bytes_outside(big, lay)
    if data.draw(st.booleans()) and op not in ("clamp", "cast"):
        got = getattr(bcast, op)(*ins, out)
    else:
        got = call(op, ins, attrs, out=out)
    assert got is out
    agree(op, out, want, ins)
    assert _bytes_outside(big, lay) == outside


@prop(200)
@given(case=out_cases(writeable_first=True))
def test_out_in_place(case):
    """out= may be an input of the result's shape, strides and dtype."""
    op, ins, attrs, want = case
    assume(ins[0].dtype == want.dtype)
    before = [np.array(x) for x in ins]
    got = call(op, ins, attrs, out=ins[0])
    assert got is ins[0]
    agree(op, got, want, before)


def _wrong_out(data, op, ins, want):
    """An out= bcast must refuse, and the exception it must raise."""
    how = data.draw(st.sampled_from(["shape", "dtype", "read-only", "byte order", "list",
                                     "overlap"]))
    shape, dtype = list(want.shape), want.dtype
    if how == "shape":
        # NumPy also takes an out= the result broadcasts to; bcast wants
        # exactly the broadcast shape (docs/python.md: "out= is any
        # writeable array of exactly the broadcast shape")
        edit = data.draw(st.sampled_from(["grow", "lead", "drop"]))
        if edit == "grow" and shape:
            axis = data.draw(st.integers(0, len(shape) - 1))
            shape[axis] += data.draw(st.sampled_from([1, 2])) if shape[axis] != 1 else 1
        elif edit == "drop" and shape:
            shape = shape[1:] if shape[0] == 1 else shape[:-1] + [shape[-1] + 1]
        else:
            shape = [data.draw(st.sampled_from([1, 2]))] + shape
        return np.zeros(shape, dtype), bcast.BroadcastError
    if how == "dtype":
        other = data.draw(st.sampled_from([d for d in NUMERIC if np.dtype(d) != dtype]))
        return np.zeros(shape, other), TypeError
    if how == "read-only":
        out = np.zeros(shape, dtype)
        out.flags.writeable = False
        return out, TypeError
    if how == "byte order":
        assume(dtype.itemsize > 1)
        return np.zeros(shape, dtype.newbyteorder("S")), TypeError
    if how == "list":
        return want.tolist(), TypeError
    # an out= of the right shape and dtype in an input's memory, not that
    # input itself: reversed along an axis.  The input must be one the op
    # reads as it is: one it first converts to the common type (bool beside
    # int8, or a bool array beside the Python int 0) is read from that copy,
    # so the answer is NumPy's, not an error.  NumPy 1.24's result_type
    # counts Python scalars by kind, as bcast does.
    operands = ins[1:] if op == "select" else ins
    try:
        common = np.result_type(*operands) if operands else None
    except (OverflowError, TypeError):
        common = None
    k = [i for i, x in enumerate(ins) if isinstance(x, np.ndarray) and x.flags.writeable
         and x.dtype == dtype and x.dtype == common and x.shape == want.shape
         and x.size > 1]
    assume(k)
    x = ins[data.draw(st.sampled_from(k))]
    axis = data.draw(st.sampled_from([a for a, n in enumerate(x.shape) if n > 1]))
    return np.flip(x, axis), ValueError


@prop(300)
@given(case=out_cases(), data=st.data())
def test_out_refused(case, data):
    """An out= of another shape (BroadcastError), another dtype, read-only,
    in the other byte order or not an ndarray (TypeError), or overlapping
    an input otherwise than being it (ValueError) is refused, and nothing
    is written."""
    op, ins, attrs, want = case
    out, error = _wrong_out(data, op, ins, want)
    before = [np.array(x).tobytes() for x in ins + [out]]
    with pytest.raises(error):
        call(op, ins, attrs, out=out)
    assert [np.array(x).tobytes() for x in ins + [out]] == before


# ---------------------------------------------------------------- Python scalars

SCALAR_OPS = ["add", "sub", "mul", "maximum", "minimum", "fmax", "fmin", "equal",
              "not_equal", "less", "greater_equal", "divide", "floor_divide", "remainder",
              "bitwise_or", "logical_xor", "left_shift", "power"]
PYTHON_SCALARS = st.one_of(
    st.booleans(),
    st.integers(-300, 300),
    st.sampled_from([2**7, 2**8, 2**15, 2**16, 2**31, 2**32, 2**63 - 1, 2**63, 2**64 - 1,
                     2**64, 2**70, 10**400, -(2**63), -(2**63) - 1, -(10**400)]),
    st.integers(),
    st.floats(),
    st.complex_numbers(max_magnitude=1e6))


LOGICAL = ("logical_and", "logical_or", "logical_xor")


def _nep50(op, x, s, first):
    """NumPy's answer for op with the Python scalar s (NEP 50's weak rule,
    NumPy 1.24 in its "weak" state).  NumPy 1.24 holds no int beyond int64
    (an OverflowError "too large to convert to C long", or an object array
    whose loop it then caches for later calls with small ints), so those
    are typed here as NEP 50 types them, converted to the type the op's
    loop takes: the array's float type beside a float array, float64 for
    divide (which runs integers in float64), bool for the logical ops
    (NumPy's bool loop), the array's integer type if it holds them, uint64
    beside bool ("int64 for an integer (uint64 above INT64_MAX)",
    bcast/elementwise.h; test_ops.py); otherwise OverflowError."""
    fn = lambda *a: expected(op, a, {})  # noqa: E731
    if type(s) is int and not -2**63 <= s < 2**63:
        if op in LOGICAL:
            typed = np.array(True)
        elif x.dtype.kind == "f" or op == "divide":
            typed = np.array(float(s), np.float64).astype(
                x.dtype if x.dtype.kind == "f" else np.float64)
        elif x.dtype.kind in "bu" and 0 <= s < 2**64:
            typed = np.array(s, np.uint64 if x.dtype.kind == "b" else x.dtype)
        else:
            raise OverflowError(f"Python integer {s} out of bounds for {x.dtype}")
        return fn(*((typed, x) if first else (x, typed)))
    return fn(*((s, x) if first else (x, s)))


@prop(500)
@given(op=st.sampled_from(SCALAR_OPS), dtype=st.sampled_from(NUMERIC),
       s=PYTHON_SCALARS, first=st.booleans(), data=st.data())
def test_python_scalars_nep50(op, dtype, s, first, data):
    """A Python int, float or bool beside an array is typed by NEP 50's
    weak rule (docs/python.md): NumPy's dtype and values; NumPy's
    OverflowError for an int outside the array's integer type; complex has
    no library type (TypeError, docs/python.md: the element types)."""
    x = data.draw(arrays(dtype, data.draw(result_shapes(4))))
    canon = getattr(bcast, op).__name__
    args = (s, x) if first else (x, s)
    if isinstance(s, complex):
        with pytest.raises(TypeError):
            getattr(bcast, op)(*args)
        return
    try:
        want = np.asarray(_nep50(canon, np.asarray(x), s, first))
    except (OverflowError, TypeError) as e:
        with pytest.raises(type(e)):
            getattr(bcast, op)(*args)
        return
    agree(canon, getattr(bcast, op)(*args), want, [np.asarray(a) for a in args])


# ---------------------------------------------------------------- plans

@st.composite
def plan_cases(draw):
    """An op, two sets of inputs of the same dtypes and layouts (other
    values), the attributes, and an out= layout or None."""
    op = draw(st.sampled_from(OPS))
    n = ARITY[op]
    shapes = draw(broadcastable(n, n))
    common = draw(st.sampled_from(NUMERIC))
    dtypes = [draw(st.one_of(st.just(common), st.sampled_from(NUMERIC))) for _ in shapes]
    lays = [draw(layouts(s)) for s in shapes]
    sets = [[place(draw(values(d, s)), lay) for d, s, lay in zip(dtypes, shapes, lays)]
            for _ in range(2)]
    out_lay = draw(st.none() | layouts(np.broadcast_shapes(*shapes), swap=False, zero=False))
    return op, sets, draw(attributes(op, dtypes[0])), out_lay


@prop(300)
@given(case=plan_cases(), data=st.data())
def test_plan_equals_numpy(case, data):
    """bcast.plan(op, *inputs, ...) then p(*inputs) on arrays of the
    planned dtypes, shapes and strides gives NumPy's answer, into out=
    exactly when planned with one; arrays laid out otherwise (strides,
    dtype, shape) are refused with ValueError (docs/python.md)."""
    op, (ins, ins2), attrs, out_lay = case
    try:
        wants = [expected(op, x, attrs) for x in (ins, ins2)]
    except TypeError:
        with pytest.raises(TypeError):
            bcast.plan(op, *ins, **attrs)
        return
    outs = [None, None] if out_lay is None else \
        [place(np.zeros(w.shape, w.dtype), out_lay) for w in wants]
    p = bcast.plan(op, *ins, out=outs[0], **attrs)
    assert isinstance(p, bcast.Plan)
    for x, out, want in zip((ins, ins2), outs, wants):
        got = p(*x) if out is None else p(*x, out=out)
        if out is not None:
            assert got is out
        agree(op, got, want, x)
    with pytest.raises(TypeError):
        p(*ins2, out=np.zeros(wants[1].shape, wants[1].dtype)) if out_lay is None \
            else p(*ins2)
    # the same values in a layout the plan was not made for: an input in
    # native byte order (another is copied to native, C order) reversed
    # along an axis with a stride other than 0, or of another dtype
    k = [i for i, x in enumerate(ins2) if isinstance(x, np.ndarray) and x.dtype.isnative]
    assume(k)
    k = data.draw(st.sampled_from(k))
    x = ins2[k]
    axes = [a for a in range(x.ndim) if x.shape[a] > 1 and x.strides[a]]
    other = [d for d in NUMERIC if np.dtype(d) != x.dtype]
    bad = np.flip(x, data.draw(st.sampled_from(axes))) if axes and data.draw(st.booleans()) \
        else x.astype(data.draw(st.sampled_from(other)))
    with pytest.raises(ValueError):
        p(*ins2[:k], bad, *ins2[k + 1:], **({} if out_lay is None else {"out": outs[1]}))


# ---------------------------------------------------------------- tosa and trait

I32F = ["i4", "f2", "f4"]
TINT = ["i1", "i2", "i4"]
TFP = ["f2", "f4"]
# bcast --list-ops, "tosa, trait": the TOSA types each op takes that NumPy
# has (bfloat16 has no NumPy dtype).  NumPy's own ops are not TOSA's.
TOSA_TYPES = {
    "abs": I32F, "bitwise_not": TINT, "ceil": TFP, "clamp": ["i1", "i2"] + TFP,
    "clz": ["i4"], "erf": TFP, "exp": TFP, "floor": TFP, "log": TFP, "logical_not": ["?"],
    "negate": TINT + TFP, "reciprocal": TFP, "rsqrt": TFP, "sigmoid": TFP, "sin": TFP, "cos": TFP, "tanh": TFP,
    "add": I32F, "arithmetic_right_shift": TINT, "bitwise_and": TINT, "bitwise_or": TINT,
    "bitwise_xor": TINT, "intdiv": ["i4"], "equal": I32F, "greater": I32F,
    "greater_equal": I32F, "logical_and": ["?"], "logical_left_shift": TINT,
    "logical_or": ["?"], "logical_right_shift": TINT, "logical_xor": ["?"],
    "maximum": I32F, "minimum": I32F, "mul": TINT + TFP, "pow": TFP, "sub": I32F,
    "select": ["?"] + TINT + TFP,
}
# The default element-type tables (MLIR 22's dialect, docs/profiles.md):
# int64 and float64 wherever an op takes an integer or a float, every
# signed integer where it takes one (intdiv: int32 and int64); unsigned
# types for the ops MLIR 22 lowers on their signless view.
MLIR_UNSIGNED_OPS = ("clamp", "add", "sub", "mul", "bitwise_and", "bitwise_or",
                     "bitwise_xor", "logical_left_shift", "logical_right_shift",
                     "select")
MLIR_TYPES = {
    op: ts + sorted((({"i8"} if op == "intdiv" else set(TINT) | {"i8"})
                     if set(ts) & set(TINT) else set())
                    | ({"f8"} if set(ts) & set(TFP) else set())
                    | ({"u1", "u2", "u4", "u8"} if op in MLIR_UNSIGNED_OPS else set())
                    - set(ts))
    for op, ts in TOSA_TYPES.items()}
NUMPY_ONLY = ["sqrt", "square", "divide", "floor_divide", "remainder", "less", "less_equal",
              "not_equal", "fmax", "fmin"]


def tosa_expected(op, ins, attrs):
    """NumPy's answer where TOSA's numerics are NumPy's, and TOSA's own
    rules where they differ (docs/cli.md, `bcast run`; bcast/elementwise.h):
    mul widens int8 and int16 to int32, and negate saturates."""
    if op == "mul" and ins[0].dtype.kind == "i":
        return np.multiply(*(x.astype(np.int32) for x in ins))
    want = expected(op, ins, attrs)
    if op == "negate" and want.dtype.kind == "i":
        info = np.iinfo(want.dtype)
        want = np.where(np.asarray(ins[0]) == info.min, info.max, want).astype(want.dtype)
    return want


@pytest.mark.parametrize("op", sorted(TOSA_TYPES))
@prop(25)
@given(profile=st.sampled_from(["tosa", "trait"]), data=st.data())
def test_tosa_and_trait_profiles(op, profile, data):
    """The tosa and trait profiles on TOSA's types (no size-0 dims: TOSA
    has none; equal ranks under tosa) give NumPy's values where TOSA
    computes as NumPy does; a plan of the same gives the same.  Types
    outside the default tables (MLIR 22's, a superset of TOSA's) are
    refused (TypeError), ranks that differ too under tosa
    (BroadcastError)."""
    n = ARITY[op]
    shapes = data.draw(broadcastable(n, n))
    shapes = [tuple(d or 2 for d in s) for s in shapes]
    rank = max(len(s) for s in shapes)
    if profile == "tosa" or data.draw(st.booleans()):
        pad = [(1,) * (rank - len(s)) + s for s in shapes]
    else:
        pad = shapes
    dtype = data.draw(st.sampled_from(TOSA_TYPES[op]))
    types = ["?" if op == "select" and k == 0 else dtype for k in range(n)]
    ins = [data.draw(arrays(t, s, scalar=False)) for t, s in zip(types, pad)]
    attrs = data.draw(attributes(op, dtype))
    want = tosa_expected(op, ins, attrs)
    agree(op, call(op, ins, attrs, profile=profile), want, ins)
    agree(op, bcast.plan(op, *ins, profile=profile, **attrs)(*ins), want, ins)
    if len({len(s) for s in shapes}) > 1:
        with pytest.raises(bcast.BroadcastError, match="rank"):
            call(op, [data.draw(arrays(t, s, scalar=False)) for t, s in zip(types, shapes)],
                 attrs, profile="tosa")
    # A value type the op refuses; select takes every one (its condition
    # is bool), so it gets a non-bool condition instead.
    other = [d for d in NUMERIC if d not in MLIR_TYPES[op]]
    if not other:
        bad = data.draw(st.sampled_from([d for d in NUMERIC if d != "?"]))
        with pytest.raises(TypeError):
            call(op, [ins[0].astype(bad)] + ins[1:], attrs, profile=profile)
        return
    bad = data.draw(st.sampled_from(other))
    k = data.draw(st.integers(1 if op == "select" else 0, n - 1))
    with pytest.raises(TypeError):
        call(op, ins[:k] + [ins[k].astype(bad)] + ins[k + 1:], attrs, profile=profile)


@prop(100)
@given(op=st.sampled_from(NUMPY_ONLY), profile=st.sampled_from(["tosa", "trait"]),
       dtype=st.sampled_from(TFP), data=st.data())
def test_tosa_and_trait_refuse_numpy_ops(op, profile, dtype, data):
    """docs/cli.md: "The tosa and trait profiles refuse NumPy's own ops" (a
    TypeError naming the numpy profile); and TOSA tensors have no size-0
    dims (BroadcastError)."""
    ins = [data.draw(arrays(dtype, (2, 3), scalar=False)) for _ in range(ARITY[op])]
    with pytest.raises(TypeError, match="numpy profile"):
        getattr(bcast, op)(*ins, profile=profile)
    with pytest.raises(bcast.BroadcastError, match="size 0"):
        bcast.add(np.zeros((2, 0), dtype), np.zeros((2, 0), dtype), profile=profile)


# ---------------------------------------------------------------- regressions
# Cases the properties above found, each fixed and pinned here.

def test_int_beyond_64_bits_beside_floats():
    """A Python int beyond 64 bits beside a float array is that float type
    (NEP 50; NumPy converts it); it was an OverflowError "int too big to
    convert".  Beside an integer array it is NumPy's OverflowError, naming
    the int and the type."""
    half = np.array([1, 2], np.float16)
    got = bcast.add(half, 2**64)
    assert got.dtype == np.float16 and np.isinf(got).all()
    got = bcast.subtract(np.array([1.5], np.float32), 2**70)
    assert got.dtype == np.float32 and got[0] == np.float32(1.5 - 2.0**70)
    got = bcast.maximum(-(2**65), np.array([0.0, -1e300]))
    assert got.dtype == np.float64 and got.tolist() == [0.0, -(2.0**65)]
    assert bcast.plan("add", half, 1.0)(half, -(2**64)).tolist() == [-np.inf] * 2
    with pytest.raises(OverflowError, match="Python integer 18446744073709551616 out of "
                                            "bounds for int8"):
        bcast.add(np.zeros(2, np.int8), 2**64)
    with pytest.raises(OverflowError, match="out of bounds for int32"):
        bcast.plan("add", np.zeros(2, np.int32), 1)(np.zeros(2, np.int32), -(2**64))
    with pytest.raises(OverflowError):
        bcast.add(np.zeros(2), 10**400)   # no float holds it, as in NumPy
    # a clamp bound beyond 64 bits: a float's bound as its float, and
    # outside every integer type (ValueError as any bound outside the type)
    assert bcast.clamp(np.array([1.0, 3e21]), 0, 2**70).tolist() == [1.0, 2.0**70]
    with pytest.raises(ValueError, match="outside int8"):
        bcast.clamp(np.zeros(2, np.int8), 0, 2**70)
    with pytest.raises(ValueError, match="min_val -9223372036854775809 is outside int64"):
        bcast.clamp(np.zeros(2, np.int64), -(2**63) - 1, 0)   # its double is INT64_MIN


def test_scalar_typed_by_the_loop_the_op_runs():
    """NEP 50 converts a Python scalar to the type of the loop NumPy runs:
    divide runs integer arrays in float64, so int8 / 128 is float64 (it was
    an OverflowError), and the logical ops run their bool loop, so an int
    outside the array's type is just nonzero.  add keeps NumPy's
    OverflowError."""
    i8 = np.array([1, -2, 0], np.int8)
    want = np.true_divide(i8, 128)
    got = bcast.divide(i8, 128)
    assert got.dtype == np.float64 and got.tolist() == want.tolist()
    assert bcast.true_divide(np.array([3], np.uint8), -2**70).tolist() == [3 / -2.0**70]
    assert bcast.divide(np.array([True]), 2**63).dtype == np.float64
    assert bcast.logical_xor(i8, 128).tolist() == [False, False, True]
    assert bcast.logical_and(300, np.array([0, 7], np.uint8)).tolist() == [False, True]
    assert bcast.logical_or(i8, 2**70).tolist() == [True, True, True]
    with pytest.raises(OverflowError, match="out of bounds for int8"):
        bcast.add(i8, 128)
    with pytest.raises(OverflowError, match="out of bounds for int8"):
        bcast.less(i8, 128)   # NumPy 1.24 raises too (NumPy 2 compares)


def test_cast_to_uint64_beyond_its_range():
    """float -> uint64 from 2^64 up and of +inf is 0, as NumPy's
    conversion (the compilers' unsigned one) gives; it was 2^63."""
    for dtype in ("f2", "f4", "f8"):
        x = np.array([np.inf, 1e30 if dtype != "f2" else np.inf, 2.0**64 if dtype != "f2"
                      else 65504.0, 2.0**63 if dtype != "f2" else 1.0, np.nan, -np.inf],
                     dtype)
        got = bcast.cast(x, "uint64")
        assert got.tolist() == x.astype(np.uint64).tolist(), (dtype, got)
        assert got[0] == 0
