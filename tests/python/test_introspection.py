"""Introspection (issue 24 item 4): every function of bcast and bcast.dask
has a signature inspect reads, and the C functions' signatures are the
arguments they take; each op's docstring is generated from the op table
and its example holds (run as a doctest, and against NumPy where NumPy has
the op); the types a docstring lists are the ones the op takes; bcast.Plan
says what it was made for and keeps it read-only; __version__ is the C
library's.  The stubs are checked by the ctest test stubtest."""
import doctest
import inspect
import pathlib
import re

import numpy as np
import pytest

import bcast
import bcast.dask as bd

ALL_TYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
             "uint32", "uint64", "float16", "float32", "float64"]
# NumPy's name for ops bcast names otherwise (the others share the name or
# one of bcast's aliases); ops NumPy has no function for are absent.
NUMPY_NAMES = {"clamp": "clip", "select": "where",
               "arithmetic_right_shift": "right_shift"}
NO_NUMPY = {"cast", "clz", "erf", "rsqrt", "sigmoid", "intdiv",
            "logical_right_shift"}


def public_callables(module):
    for name in dir(module):
        obj = getattr(module, name)
        if not name.startswith("_") and callable(obj) and \
                not isinstance(obj, type):
            yield name, obj


def names_of(fn):
    """The op's names: its row's and its aliases'."""
    return [n for n in bcast.OPS if getattr(bcast, n) is fn]


def example(name):
    """The docstring's example call: (arguments text, result text)."""
    doc = getattr(bcast, name).__doc__
    m = re.search(r"^>>> bcast\.(\w+)\((.*)\)\.tolist\(\)\n(.*)$", doc, re.M)
    assert m, f"{name}: no example in its docstring"
    return m.group(2), m.group(3)


def call_args(text):
    return eval(f"({text},)", {"float": float})


@pytest.mark.parametrize("module", [bcast, bd], ids=["bcast", "bcast.dask"])
def test_every_function_has_a_signature(module):
    for name, fn in public_callables(module):
        inspect.signature(fn)
        if module is bcast:
            # A C function: the signature is its docstring's first lines,
            # which Python moves to __text_signature__.
            assert fn.__text_signature__, name
            assert fn.__doc__ and not fn.__doc__.startswith(fn.__name__), name


def test_signatures_of_c_functions_name_their_parameters():
    # The text signatures spell the parameters the C parsers take: every
    # keyword a signature names is accepted as a keyword.
    sig = inspect.signature(bcast.broadcast_in_dim)
    assert list(sig.parameters) == ["array", "shape", "broadcast_dimensions",
                                    "any_order", "new_dims"]
    a = np.arange(3.0)
    v = bcast.broadcast_in_dim(array=a, shape=(3, 2),
                               broadcast_dimensions=(0,), any_order=False,
                               new_dims=None)
    assert v.shape == (3, 2)
    assert bcast.materialize(a, max_bytes=1073741824, threads=None)[0].shape \
        == (3,)
    p = inspect.signature(bcast.plan).parameters
    assert p["op"].kind is inspect.Parameter.POSITIONAL_ONLY
    assert p["inputs"].kind is inspect.Parameter.VAR_POSITIONAL
    assert p["attributes"].kind is inspect.Parameter.VAR_KEYWORD


@pytest.mark.parametrize("name", bcast.OPS)
def test_op_signature_defaults_are_accepted(name):
    # Every default the signature states, passed explicitly, is the call
    # without it; the inputs are positional only.
    fn = getattr(bcast, name)
    sig = inspect.signature(fn)
    args_text, result = example(name)
    args = call_args(args_text)
    n_inputs = sum(p.kind is p.POSITIONAL_ONLY for p in sig.parameters.values())
    kwargs = {p.name: p.default for p in sig.parameters.values()
              if p.default is not p.empty and
              list(sig.parameters).index(p.name) >= len(args)}
    assert fn(*args, **kwargs).tolist() == fn(*args).tolist()
    first = list(sig.parameters)[0]
    with pytest.raises(TypeError):
        fn(*args[1:n_inputs], **{first: args[0]})


@pytest.mark.parametrize("name", [n for n in bcast.OPS
                                  if names_of(getattr(bcast, n))[0] == n])
def test_op_docstring_example_runs(name):
    fn = getattr(bcast, name)
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    tests = finder.find(fn, name, globs={"bcast": bcast, "np": np})
    assert sum(len(t.examples) for t in tests) == 1, name
    for t in tests:
        runner.run(t)
    assert runner.summarize(verbose=False).failed == 0


@pytest.mark.parametrize("name", [n for n in bcast.OPS
                                  if names_of(getattr(bcast, n))[0] == n and
                                  n not in NO_NUMPY])
def test_op_example_agrees_with_numpy(name):
    # The table's example is NumPy's answer too, where NumPy has the op.
    args_text, result = example(name)
    args = call_args(args_text)
    np_name = NUMPY_NAMES.get(name) or next(
        n for n in names_of(getattr(bcast, name)) if hasattr(np, n))
    got = getattr(np, np_name)(*args)
    assert np.asarray(got).tolist() == eval(result, {"nan": float("nan")})


@pytest.mark.parametrize("name", [n for n in bcast.OPS
                                  if names_of(getattr(bcast, n))[0] == n])
def test_op_docstring_types_are_those_the_op_takes(name):
    fn = getattr(bcast, name)
    doc = fn.__doc__
    listed = {}
    for profile in ("tosa, trait", "numpy"):
        m = re.search(rf"^    {profile}:\s+(.*?)\n(?!\s{{17}}\S)", doc,
                      re.M | re.S)
        assert m, (name, profile)
        words = m.group(1).split()
        listed[profile] = [] if words[0] == "none" else words
    n_inputs = sum(p.kind is p.POSITIONAL_ONLY
                   for p in inspect.signature(fn).parameters.values())

    def call(dtype, profile):
        xs = [np.ones(1, dtype) for _ in range(n_inputs)]
        if name == "select":
            xs[0] = np.ones(1, bool)
        to = "float16" if dtype == "float32" else "float32"
        extra = {"to": to} if name == "cast" else {}
        return fn(*xs, profile=profile, **extra)

    for dtype in ALL_TYPES:
        # tosa takes exactly the listed types, no conversions.
        if dtype in listed["tosa, trait"]:
            call(dtype, "tosa")
        else:
            with pytest.raises(TypeError):
                call(dtype, "tosa")
        # numpy computes in the listed types: each is taken as it is.
        if dtype in listed["numpy"]:
            r = call(dtype, "numpy")
            if name not in ("cast", "divide") and r.dtype != bool:
                assert r.dtype == dtype, (name, dtype, r.dtype)


def test_op_docstring_names_attributes_and_aliases():
    doc = bcast.clamp.__doc__
    assert "min_val (default None)" in doc
    assert "nan_mode (default 'propagate')" in doc
    assert "shift (default 0)" in bcast.mul.__doc__
    assert "round (default False)" in bcast.arithmetic_right_shift.__doc__
    assert "Also named multiply." in bcast.mul.__doc__
    assert "unpredictable: the sum overflows the type" in bcast.add.__doc__
    assert "CheckedError" not in bcast.equal.__doc__
    assert inspect.signature(bcast.cast).parameters["to"].default is None
    with pytest.raises(TypeError, match="result dtype"):
        bcast.cast(np.ones(2))


def test_dask_ops_take_bcast_signatures():
    for name in bcast.OPS:
        core = inspect.signature(getattr(bcast, name)).parameters
        dask = inspect.signature(getattr(bd, name)).parameters
        assert "out" not in dask and "chunks" in dask
        assert dask["threads"].default == 1
        assert [p for p in core if p != "out"] == \
            [p for p in dask if p != "chunks"]


def test_plan_repr_and_read_only_attributes():
    m = np.arange(6, dtype=np.int64).reshape(2, 3)
    p = bcast.plan("add", m, np.ones(3), threads=2)
    assert (p.op, p.profile, p.shapes, p.shape, p.out, p.threads,
            p.checked) == ("add", "numpy", ((2, 3), (3,)), (2, 3), False, 2,
                           False)
    assert p.dtypes == (np.dtype("int64"), np.dtype("float64"))
    assert p.dtype == np.dtype("float64")
    assert repr(p) == ("<bcast.Plan add: int64 (2, 3), float64 (3,) -> "
                       "float64 (2, 3), out=False, threads=2, "
                       "profile='numpy', checked=False>")
    for attr in ("op", "profile", "shapes", "dtypes", "shape", "dtype", "out",
                 "threads", "checked"):
        with pytest.raises(AttributeError):
            setattr(p, attr, None)
        assert getattr(p, attr) == getattr(p, attr)
    out = np.empty(3, np.float32)
    q = bcast.plan("clamp", np.ones(3, np.float32), 0, 1, out=out,
                   profile="tosa", checked=True)
    assert (q.out, q.threads, q.checked, q.profile) == (True, None, True,
                                                        "tosa")
    assert "out=True" in repr(q) and "clamp" in repr(q)
    r = bcast.plan("mul", np.ones((2, 1), np.int8), 3)
    assert r.shapes == ((2, 1), ()) and r.dtypes == (np.dtype("int8"),) * 2
    assert str(inspect.signature(p)) == "(*inputs, out=None)"
    assert p.__call__(m, np.ones(3)).tolist() == p(m, np.ones(3)).tolist()


def test_version_is_the_c_librarys():
    header = pathlib.Path(bcast.__file__).resolve().parents[2] / \
        "include" / "bcast" / "version.h"
    m = re.search(r'#define BCAST_VERSION_STRING "([^"]+)"',
                  header.read_text())
    assert bcast.__version__ == m.group(1)
    assert bcast.__version__ == bcast._bcast.__version__
