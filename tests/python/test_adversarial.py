"""Every public function of bcast called with adversarial arguments.

Each function has a valid call (CALLS; the element-wise ops get theirs
from their docstrings, and a check makes sure no public function is left
without one).  Each argument of that call is then replaced by adversaries
made from its value, described by a recipe (plain data, so that
Hypothesis can print and shrink it) and built fresh for every call:

  index   an int-like whose __index__ returns a value (huge, negative, not
          an int), raises, or clears or grows the container it is in
  seq     the argument's items in a list, a tuple, a list subclass whose
          __iter__ changes the list, or an object of the sequence
          protocol whose __len__ lies, raises or clears it and whose
          __getitem__ may raise, clear or grow it
  dict    the argument's items with keys and values replaced as above
  array   an object whose __array__ returns the array, raises or returns
          what is no array; the array in the other byte order, read-only
          or strided
  str     a str subclass, a lone surrogate, an embedded NUL
  bool    an object whose __bool__ raises or returns no bool
  wrong   a value of another type (None, 1j, a set, an iterator, ...)

Whatever the adversary, the call must not crash, and must either raise
TypeError, ValueError, OverflowError, MemoryError, an ArithmeticError,
bcast's own errors or the adversary's own exception (never SystemError,
AttributeError or a codec's error), or return.  An adversary that only
presents the same value in another form ("benign": an __index__ of the
same int, a container that changes itself while it is read, an __array__
of the same array) must give the plain call's answer (which is NumPy's
where NumPy has the function) or be refused with TypeError.  An int that
no size can be (negative, 2**63 or more) must be refused wherever sizes,
dims, byte counts or thread counts are read.

test_every_adversary_of_every_argument runs a fixed list of recipes;
test_random_adversaries draws random ones with Hypothesis from a seed it
prints (BCAST_SEED replays it).
"""
import atexit
import inspect
import os
import random
import shutil
import sys
import tempfile

import numpy as np
import pytest
from hypothesis import HealthCheck, given, seed, settings, strategies as st

import bcast

SEED = int(os.environ.get("BCAST_SEED", random.randrange(1 << 32)))


class Boom(Exception):
    """What an adversary's method raises."""


ALLOWED = (TypeError, ValueError, OverflowError, MemoryError, ArithmeticError, Boom)
FORBIDDEN = (UnicodeError,)  # a ValueError, but one that names no argument


# ---------------------------------------------------------------------------
# The adversaries.

class Index:
    """An int-like: __index__ runs effect, then returns or raises ret."""

    def __init__(self, ret, effect=None):
        self.ret, self.effect = ret, effect

    def __index__(self):
        if self.effect:
            self.effect()
        if isinstance(self.ret, BaseException):
            raise self.ret
        return self.ret

    def __repr__(self):
        return f"Index({self.ret!r})"


class One:
    """A dim 1, by __index__ (what a growing container is filled with)."""

    def __index__(self):
        return 1


class Bool:
    """A __bool__ that raises or returns what is no bool."""

    def __init__(self, ret):
        self.ret = ret

    def __bool__(self):
        if isinstance(self.ret, BaseException):
            raise self.ret
        return self.ret


class Protocol:
    """The sequence protocol over the list items: __len__ returns length
    (None: the true one), raises it, or ("clear") clears the items and
    returns their count before; __getitem__(at[0]) first raises Boom or
    clears or grows the items (at[1])."""

    def __init__(self, items, length=None, at=None):
        self.items, self.length, self.at = items, length, at

    def __len__(self):
        n = len(self.items)
        if isinstance(self.length, BaseException):
            raise self.length
        if self.length == "clear":
            self.items.clear()
            return n
        return n if self.length is None else self.length

    def __getitem__(self, k):
        if self.at and k == self.at[0]:
            if self.at[1] == "boom":
                raise Boom(f"__getitem__({k})")
            change(self.items, self.at[1])
        return self.items[k]


class ChangingList(list):
    """A list whose __iter__ changes it (clears or grows it) and then
    iterates what it held before."""

    def __init__(self, items, how):
        super().__init__(items)
        self.how = how

    def __iter__(self):
        before = [list.__getitem__(self, k) for k in range(list.__len__(self))]
        change(self, self.how)
        return iter(before)


class ArrayLike:
    """An object NumPy converts by __array__, which returns ret (or
    raises it)."""

    def __init__(self, ret):
        self.ret = ret

    def __array__(self, dtype=None):
        if isinstance(self.ret, BaseException):
            raise self.ret
        return self.ret


class StrSub(str):
    pass


class BadRepr:
    """An object whose repr and str raise (error messages must not need
    them)."""

    def __repr__(self):
        raise Boom("__repr__")

    __str__ = __repr__


def change(container, how):
    """Clears container or grows it by 100 entries of dim 1."""
    if how == "clear":
        container.clear()
    elif isinstance(container, dict):
        for _ in range(100):
            container[One()] = 1
    else:
        list.extend(container, [One()] * 100)


WRONG = [None, object(), 1.5, 1j, "abc", b"\xff\xfe", {"a": 1}, {1, 2},
         [object()], -1, 2**64, -2**64, np.float64(1.5), np.array([[1.5]]),
         Ellipsis, BadRepr()]
EDGES = [-1, -2**31 - 1, 2**31, 2**63 - 1, 2**63, 2**64, -2**64]
ARRAY_FORMS = ["like", "boom", "list", "object", "swapped", "readonly", "strided",
               "rows", "rows-lying"]
LENGTHS = [0, 5, -1, 2**62, sys.maxsize, "boom", "clear"]


def is_int(v):
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


class Built:
    """An adversary built from a recipe: the object, whether it is benign
    (the plain call's answer or TypeError) and whether it must be refused
    (an impossible size, a name that is no text)."""

    def __init__(self, obj, benign, must_raise):
        self.obj, self.benign, self.must_raise = obj, benign, must_raise


def build(recipe, plain, signed, container=None):
    """The adversary recipe makes of the plain value.  container is the
    list or dict it will sit in (for the effects of __index__)."""
    kind = recipe[0]
    if kind == "plain":
        return Built(plain, True, False)
    if kind == "wrong":
        value = WRONG[recipe[1]]
        bad = is_int(plain) and not signed and is_int(value) and not 0 <= value < 2**63
        return Built(value, False, bad)
    if kind == "index":
        ret, effect = recipe[1], recipe[2]
        if ret == "same":
            ret = int(plain)
        elif ret == "boom":
            ret = Boom("__index__")
        elif ret == "float":
            ret = 1.5
        run = None
        if effect and container is not None:
            run = lambda: change(container, effect)  # noqa: E731
        bad = isinstance(ret, int) and not signed and not 0 <= ret < 2**63
        return Built(Index(ret, run), ret == plain, bad)
    if kind == "bool":
        return Built(Bool(Boom("__bool__") if recipe[1] == "boom" else 2), False, False)
    if kind == "str":
        form = recipe[1]
        if form == "sub":
            return Built(StrSub(plain), True, False)
        if form == "surrogate":
            return Built(plain + "\ud800", False, True)
        return Built(plain[:1] + "\0" + plain[1:], False, False)
    if kind == "seq":
        form, length, at, items = recipe[1:]
        if form == "tuple":
            obj = target = None
        elif form == "list":
            obj = target = []
        elif form == "protocol":
            obj = Protocol([], Boom("__len__") if length == "boom" else length, at)
            target = obj.items
        else:
            obj = target = ChangingList([], form)
        built = [build(r, v, signed, target) for r, v in zip(items, plain)]
        objs = [b.obj for b in built]
        if obj is None:
            obj = tuple(objs)
        else:
            list.extend(target, objs)
        # A lying __len__ is only a hint to list(), but one that raises,
        # changes the items or asks for 2**62 items does not give them.
        honest = form != "protocol" or at is None and (
            length is None or isinstance(length, int) and 0 <= length <= 100)
        reads_all = form != "protocol" or at is None and length != "clear"
        return Built(obj, honest and all(b.benign for b in built),
                     reads_all and any(b.must_raise for b in built))
    if kind == "dict":
        target = {}
        built = []
        for (kr, vr), (k, v) in zip(recipe[1], plain.items()):
            key = build(kr, k, signed, target)
            if getattr(type(key.obj), "__hash__", None) is None:
                key = build(("wrong", 1), k, signed)  # no dict key: object()
            built.append((key, build(vr, v, signed, target)))
        for kb, vb in built:
            target[kb.obj] = vb.obj
        return Built(target,
                     all(kb.benign and vb.benign for kb, vb in built),
                     any(kb.must_raise or vb.must_raise for kb, vb in built))
    if kind == "array":
        form = recipe[1]
        if form == "like":
            return Built(ArrayLike(plain), True, False)
        if form == "boom":
            return Built(ArrayLike(Boom("__array__")), False, False)
        if form == "list":
            return Built(ArrayLike(plain.tolist()), False, False)
        if form == "object":
            return Built(ArrayLike(plain.astype(object)), False, False)
        if form == "swapped":
            return Built(plain.astype(plain.dtype.newbyteorder()), True, False)
        if form in ("rows", "rows-lying"):
            rows = Protocol(list(plain) if plain.ndim else [plain],
                            None if form == "rows" else 2**62)
            return Built(rows, form == "rows" and plain.ndim > 0, False)
        if form == "readonly":
            copy = plain.copy()
            copy.flags.writeable = False
            return Built(copy, True, False)
        wide = np.zeros(plain.shape + (2,), plain.dtype)
        wide[..., 0] = plain
        return Built(wide[..., 0], True, False)
    raise AssertionError(recipe)


def fixed_recipes(plain, depth=0):
    """The recipes test_every_adversary_of_every_argument tries on a value."""
    out = [("wrong", k) for k in range(len(WRONG))]
    if isinstance(plain, (bool, np.bool_)):
        out += [("bool", "boom"), ("bool", "two")]
    elif is_int(plain):
        out += [("index", r, None) for r in ["same", "boom", "float"] + EDGES]
    elif isinstance(plain, str):
        out += [("str", f) for f in ("sub", "surrogate", "nul")]
    elif isinstance(plain, np.ndarray):
        out += [("array", f) for f in ARRAY_FORMS]
    elif isinstance(plain, (tuple, list)):
        n = len(plain)
        same = [("plain",)] * n
        out += [("seq", form, None, None, same)
                for form in ("tuple", "list", "clear", "grow", "protocol")]
        out += [("seq", "protocol", length, None, same) for length in LENGTHS]
        out += [("seq", "protocol", None, (k, action), same)
                for k in {0, max(n - 1, 0)} for action in ("boom", "clear", "grow")]
        for k, item in enumerate(plain):
            if is_int(item):
                for effect in ("clear", "grow"):
                    items = list(same)
                    items[k] = ("index", "same", effect)
                    out += [("seq", form, None, None, items) for form in ("list", "clear")]
            for r in fixed_recipes(item, depth + 1) if depth < 2 else []:
                items = list(same)
                items[k] = r
                out.append(("seq", "list", None, None, items))
    elif isinstance(plain, dict):
        pairs = [(("plain",), ("plain",))] * len(plain)
        for k, (key, value) in enumerate(plain.items()):
            for kr in [("index", "same", e) for e in ("clear", "grow")] if is_int(key) else []:
                out.append(("dict", pairs[:k] + [(kr, ("plain",))] + pairs[k + 1:]))
            for vr in fixed_recipes(value, depth + 1) if depth < 2 else []:
                out.append(("dict", pairs[:k] + [(("plain",), vr)] + pairs[k + 1:]))
    return out


# ---------------------------------------------------------------------------
# The valid calls.

class Call:
    """A valid call of a public function: fn(*args, **kwargs).  numpy gives
    NumPy's answer where NumPy has one; signed names the arguments whose
    ints may be negative; extra names keywords the call leaves out, tried
    with the "wrong" adversaries only."""

    def __init__(self, name, fn, args, kwargs=None, numpy=None, signed=(), extra=()):
        self.name, self.fn, self.args = name, fn, tuple(args)
        self.kwargs = dict(kwargs or {})
        self.numpy, self.signed, self.extra = numpy, set(signed), tuple(extra)

    def positions(self):
        return [("arg", k) for k in range(len(self.args))] + \
               [("kw", k) for k in self.kwargs]

    def plain(self, pos):
        return self.args[pos[1]] if pos[0] == "arg" else self.kwargs[pos[1]]

    def run(self, pos=None, value=None):
        args, kwargs = list(self.args), dict(self.kwargs)
        if pos is not None and pos[0] == "arg":
            args[pos[1]] = value
        elif pos is not None:
            kwargs[pos[1]] = value
        return self.fn(*args, **kwargs)

    def __repr__(self):  # short: Hypothesis shows it for each draw
        return f"<{self.name} call>"

    def describe(self):
        return f"{self.name}{self.args!r} {self.kwargs!r}"


MODULE = ("func.func @f(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {\n"
          "  %0 = tosa.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>\n"
          '  %1 = "test.op"(%0, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>\n'
          "  return %1 : tensor<2x3xf32>\n}\n")


def numpy_copies(*arrays):
    return tuple(np.array(a) for a in np.broadcast_arrays(*arrays))


def op_call(name):
    """An op's call from its signature: int32, float32 or bool arrays (the
    first the op takes), bool for a condition, bounds 0 and 1, float32 for
    a cast; out= an array of the result's type."""
    fn = getattr(bcast, name)
    names = list(inspect.signature(fn).parameters)
    params = names[:names.index("out")]
    attrs = names[names.index("threads") + 1:]
    for dtype in (np.int32, np.float32, np.bool_):
        values = {"x": np.array([[1], [2]], dtype), "y": np.array([1, 0, 1], dtype),
                  "cond": np.array([True, False, True]), "min_val": 0, "max_val": 1,
                  "to": "float32"}
        args = [values[p] for p in params]
        try:
            result = fn(*args)
        except (TypeError, ValueError):
            continue
        kwargs = {"out": np.empty_like(result), "profile": "numpy", "checked": False,
                  "threads": 1}
        return Call(name, fn, args, kwargs, signed={("arg", k) for k, p in enumerate(params)
                                                    if p in ("min_val", "max_val")},
                    extra=attrs)
    raise AssertionError(f"no dtype of int32, float32, bool works for {name}")


# The save functions write files: to /dev/null, written through without
# the fsync and rename of a file (thousands of calls), and in a scratch
# directory, where a wrong value that is a relative path ("abc",
# b"\xff\xfe") lands.
SCRATCH = tempfile.mkdtemp(prefix="bcast-adversarial-")
atexit.register(shutil.rmtree, SCRATCH, True)


def in_scratch(fn):
    def run(*args, **kwargs):
        cwd = os.getcwd()
        os.chdir(SCRATCH)
        try:
            return fn(*args, **kwargs)
        finally:
            os.chdir(cwd)
    return run


def make_calls():
    a, b = np.arange(3.0), np.arange(2, dtype=np.int16).reshape(2, 1)
    x, y = np.arange(6, dtype=np.int32).reshape(2, 3), np.arange(3, dtype=np.int32)
    plan = bcast.plan("add", x, y)
    plan_out = bcast.plan("add", x, y, out=np.empty((2, 3), np.int32))
    plan_0d = bcast.plan("abs", np.array(-5, np.int8))  # NumPy's NULL dims
    calls = [
        Call("broadcast_shapes", bcast.broadcast_shapes, [(2, 3), (1,)],
             {"profile": "numpy"}, numpy=np.broadcast_shapes),
        Call("infer", bcast.infer, [(2, None), (3,), ("n", 1)], {"profile": "trait"}),
        Call("explain", bcast.explain, [(2, 3), ("n", 1)], {"profile": "numpy"}),
        Call("verify_shapes", bcast.verify_shapes, [[(2, 3), (3,)], (2, 3)],
             {"profile": "numpy"}),
        Call("broadcast_to", bcast.broadcast_to, [a, (2, 3)], numpy=np.broadcast_to),
        Call("broadcast_arrays", bcast.broadcast_arrays, [a, b],
             numpy=lambda *v: tuple(np.broadcast_arrays(*v))),
        Call("broadcast_in_dim", bcast.broadcast_in_dim, [a, (2, 3), (1,)],
             {"any_order": False}),
        Call("broadcast_in_dim", bcast.broadcast_in_dim, [a],
             {"broadcast_dimensions": (1,), "new_dims": {0: 2}}),
        Call("materialize", bcast.materialize, [a, b], {"max_bytes": 1 << 20, "threads": 1},
             numpy=numpy_copies),
        Call("verify_mlir", bcast.verify_mlir, [MODULE],
             {"profile": "trait", "op_profile": {"tosa.*": "numpy"}, "ops": ["test.op"]}),
        Call("verify_mlir", bcast.verify_mlir, [MODULE], {"op_profile": ["tosa.*=numpy"]}),
        Call("lower", bcast.lower, [MODULE],
             {"only": ["add"], "assert_broadcast": True, "profile": "trait",
              "op_profile": "tosa.*=numpy", "source_name": "m.mlir"}),
        Call("lower_partial", bcast.lower_partial, [(None, 3), (0, 2), {1: None}],
             {"dtype": "int32", "form": "stablehlo", "assert_broadcast": True,
              "name": "f"}),
        Call("plan", bcast.plan, ["add", x, y],
             {"profile": "numpy", "checked": False, "threads": 1}),
        Call("Plan", plan, [x, y]),
        Call("Plan", plan_out, [x, y], {"out": np.empty((2, 3), np.int32)}),
        Call("Plan", plan_0d, [np.array(-7, np.int8)]),
        Call("input_box", bcast.input_box, [(1, 3), (2, 3), (0, 1), (2, 3)], {"dims": None}),
        Call("input_box", bcast.input_box, [(3,), (2, 3), (0, 1), (2, 3)], {"dims": (1,)}),
        Call("output_box", bcast.output_box, [(1, 3), (2, 3), (0, 1), (1, 3)],
             {"dims": (0, 1)}),
        Call("tiles", bcast.tiles, [(4, 4), [(4, 4), (4,)], 256],
             {"itemsizes": [8, 4], "out_itemsize": 8, "dims": [None, (1,)]}),
        Call("save_op", in_scratch(bcast.save_op), ["/dev/null", "add", x, y],
             {"memory": 1 << 10, "profile": "numpy", "checked": False,
              "threads": 1}),
        # The array has the shape's every dim, so that no adversary of the
        # shape makes a valid output of gigabytes to write.
        Call("save_broadcast_to", in_scratch(bcast.save_broadcast_to),
             ["/dev/null", x, (2, 3)], {"memory": 1 << 10, "threads": 1}),
    ]
    return calls + [op_call(name) for name in bcast.OPS]


def public_functions():
    """Every public callable of the module (in __all__ or not) but its
    exception classes."""
    out = set()
    for name in set(bcast.__all__) | set(dir(bcast)):
        obj = getattr(bcast, name)
        if not name.startswith("_") and callable(obj) and \
                not (isinstance(obj, type) and issubclass(obj, BaseException)):
            out.add(name)
    return out


def same(got, want):
    if isinstance(want, np.ndarray):
        return isinstance(got, np.ndarray) and got.shape == want.shape and \
            got.dtype.kind == want.dtype.kind and got.dtype.itemsize == want.dtype.itemsize \
            and np.array_equal(got, want, equal_nan=want.dtype.kind == "f")
    if isinstance(want, (tuple, list)):
        return type(got) is type(want) and len(got) == len(want) and \
            all(same(g, w) for g, w in zip(got, want))
    if isinstance(want, dict):
        return isinstance(got, dict) and got.keys() == want.keys() and \
            all(same(got[k], want[k]) for k in want)
    if isinstance(want, bcast.Plan):
        return isinstance(got, bcast.Plan)
    return type(got) is type(want) and got == want


def snapshot(value):
    """The plain answer, kept (an out= array is written again later)."""
    if isinstance(value, np.ndarray):
        return value.copy()
    if isinstance(value, tuple):
        return tuple(snapshot(v) for v in value)
    return value


class Plain:
    """The plain answer of each call, checked against NumPy's once."""

    def __init__(self):
        self.answers = {}

    def __call__(self, call):
        if id(call) not in self.answers:
            got = snapshot(call.run())
            if call.numpy:
                want = call.numpy(*call.args)
                assert same(got, want), (call.describe(), got, want)
            self.answers[id(call)] = got
        return self.answers[id(call)]


def check(call, pos, built, plain):
    """One adversarial call against the rules of the module docstring."""
    def what():
        try:
            shown = repr(built.obj)
        except Boom:
            shown = type(built.obj).__name__
        return f"{call.describe()} with {pos[1]!r} = {shown}"
    try:
        got = call.run(pos, built.obj)
    except ALLOWED as e:
        if isinstance(e, FORBIDDEN):
            pytest.fail(f"{what()}: raised {type(e).__name__}: {e}")
        if built.benign and not isinstance(e, TypeError):
            pytest.fail(f"{what()}: raised {type(e).__name__}: {e} (want the plain answer)")
        return
    except BaseException as e:  # SystemError, AttributeError, ...
        pytest.fail(f"{what()}: raised {type(e).__name__}: {e}")
    if built.must_raise:
        pytest.fail(f"{what()}: accepted what it must refuse: {got!r}")
    if built.benign and not same(got, plain):
        pytest.fail(f"{what()}: {got!r}, want {plain!r}")


def attack(call, pos, recipe):
    """Runs call with the adversary recipe makes of the argument at pos."""
    value = call.plain(pos) if pos in call.positions() else None
    built = build(recipe, value, pos in call.signed or value is None)
    if call.name == "Plan" and recipe == ("array", "strided"):
        built.benign = False  # a plan runs on the planned strides only
    check(call, pos, built, PLAIN(call))


CALLS = make_calls()
PLAIN = Plain()


def test_every_adversary_of_every_argument():
    assert public_functions() <= {c.name for c in CALLS}, \
        f"no valid call in CALLS for {public_functions() - {c.name for c in CALLS}}"
    count = 0
    for call in CALLS:
        for pos in call.positions():
            for recipe in fixed_recipes(call.plain(pos)):
                attack(call, pos, recipe)
                count += 1
        for name in call.extra:
            for k in range(len(WRONG)):
                attack(call, ("kw", name), ("wrong", k))
                count += 1
    assert count > 10000, count


# ---------------------------------------------------------------------------
# Random recipes.

def recipes(plain, depth=0):
    """A Hypothesis strategy of the recipes that fit the plain value."""
    choices = [st.tuples(st.just("wrong"), st.integers(0, len(WRONG) - 1))]
    if isinstance(plain, (bool, np.bool_)):
        choices.append(st.tuples(st.just("bool"), st.sampled_from(["boom", "two"])))
    elif is_int(plain):
        value = st.one_of(st.just("same"), st.sampled_from(["boom", "float"]),
                          st.integers(0, 8), st.sampled_from(EDGES),
                          st.integers(-2**70, 2**70))
        effect = st.sampled_from([None, "clear", "grow"])
        choices.append(st.tuples(st.just("index"), value, effect))
    elif isinstance(plain, str):
        choices.append(st.tuples(st.just("str"), st.sampled_from(["sub", "surrogate", "nul"])))
    elif isinstance(plain, np.ndarray):
        choices.append(st.tuples(st.just("array"), st.sampled_from(ARRAY_FORMS)))
    elif isinstance(plain, (tuple, list)) and depth < 2:
        item = [st.one_of(st.just(("plain",)), recipes(v, depth + 1)) for v in plain]
        choices.append(st.tuples(
            st.just("seq"), st.sampled_from(["tuple", "list", "clear", "grow", "protocol"]),
            st.one_of(st.none(), st.integers(-3, 10), st.sampled_from(LENGTHS)),
            st.one_of(st.none(), st.tuples(st.integers(0, len(plain)),
                                           st.sampled_from(["boom", "clear", "grow"]))),
            st.tuples(*item)))
    elif isinstance(plain, dict) and depth < 2:
        pairs = [st.tuples(st.one_of(st.just(("plain",)), recipes(k, depth + 1)),
                           st.one_of(st.just(("plain",)), recipes(v, depth + 1)))
                 for k, v in plain.items()]
        choices.append(st.tuples(st.just("dict"), st.tuples(*pairs)))
    return st.one_of(*choices)


STRATEGIES = {(id(call), pos): recipes(call.plain(pos))
              for call in CALLS for pos in call.positions()}


def test_random_adversaries(request):
    print(f"seed {SEED}; replay: BCAST_SEED={SEED} "
          f"PYTHONPATH={os.environ.get('PYTHONPATH', '')} "
          f"{sys.executable} -m pytest {request.node.nodeid}")

    @seed(SEED)
    @settings(max_examples=1000, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(st.data())
    def run(data):
        call = data.draw(st.sampled_from(CALLS), label="call")
        pos = data.draw(st.sampled_from(call.positions()), label="argument")
        attack(call, pos, data.draw(STRATEGIES[id(call), pos], label="recipe"))

    run()
