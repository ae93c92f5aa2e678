"""bcast.broadcast_shapes, infer, explain and verify_shapes against NumPy."""
import itertools

import numpy as np
import pytest

import bcast


def random_static_shape(rng, rank_max=4):
    return tuple(rng.choice([0, 1, 1, 2, 3]) for _ in range(rng.randint(0, rank_max)))


def numpy_shape(*shapes):
    try:
        return np.broadcast_shapes(*shapes)
    except ValueError:
        return None


def test_static_shapes_equal_numpy(rng):
    for _ in range(3000):
        shapes = [random_static_shape(rng) for _ in range(rng.randint(1, 4))]
        want = numpy_shape(*shapes)
        if want is None:
            with pytest.raises(bcast.BroadcastError):
                bcast.broadcast_shapes(*shapes)
        else:
            assert bcast.broadcast_shapes(*shapes) == want, shapes


def test_shape_forms():
    assert bcast.broadcast_shapes() == np.broadcast_shapes()
    assert bcast.broadcast_shapes(3, (2, 1)) == np.broadcast_shapes(3, (2, 1))
    assert bcast.broadcast_shapes([2, 1], np.array([3])) == (2, 3)
    assert bcast.broadcast_shapes((np.int64(2), 1), (np.uint8(5),)) == (2, 5)
    assert bcast.broadcast_shapes("[2,1]", "3") == (2, 3)
    assert bcast.broadcast_shapes("tensor<4x1xf32>", "2x?x5") == (2, 4, 5)
    assert bcast.broadcast_shapes("[n,1]", ("n", 3)) == ("n", 3)
    assert bcast.broadcast_shapes("*") == "*"
    assert bcast.broadcast_shapes("*", (2, 3)) == (2, 3)
    assert bcast.broadcast_shapes((None, 3), (2, 1)) == (2, 3)
    assert bcast.broadcast_shapes(("?", 3), (4, "?")) == (4, 3)


def test_named_dims():
    assert bcast.broadcast_shapes(("n", 3), ("n", 1)) == ("n", 3)
    assert bcast.broadcast_shapes(("n",), ("m",))[0] is None
    assert bcast.broadcast_shapes(("batch", 1), (1, 7)) == ("batch", 7)


def resolve(dim, env, slots):
    """The concrete size of a dim under an assignment."""
    if isinstance(dim, str):
        return env[dim]
    if dim is None:
        return env[slots.pop(0)]
    return dim


def test_dynamic_dims_match_every_assignment(rng):
    """A symbolic inference must hold for every run-time size: where NumPy
    broadcasts the concrete shapes, the recorded checks hold and the result
    agrees; where it does not, a check fails (or inference already
    refused).  Two and three operands: with three, checks against one
    pivot dim are not enough (m = 1 passes m~n and m~?), and a static 0
    must still meet a static 2 across a ? ((?,) (0,) (2,) never
    broadcasts, though MLIR's pairwise fold accepts it)."""
    for _ in range(600):
        n_ops = rng.choice([2, 3])
        choices = [0, 1, 2, 3, None, "n", "m"]
        shapes = [tuple(rng.choice(choices) for _ in range(rng.randint(0, 5 - n_ops)))
                  for _ in range(n_ops)]
        anon = [(k, i) for k, s in enumerate(shapes) for i, d in enumerate(s) if d is None]
        if len(anon) > 3:
            continue
        try:
            got = bcast.infer(*shapes)
        except bcast.BroadcastError:
            got = None
        for values in itertools.product([0, 1, 2, 3], repeat=2 + len(anon)):
            env = {"n": values[0], "m": values[1]}
            env.update({a: v for a, v in zip(anon, values[2:])})
            concrete = [tuple(env[(k, i)] if d is None else env[d] if isinstance(d, str) else d
                              for i, d in enumerate(s)) for k, s in enumerate(shapes)]
            want = numpy_shape(*concrete)
            if got is None:
                assert want is None, (shapes, concrete)
                continue
            def size(op, axis):
                return concrete[op][axis]
            checks_hold = all(
                size(c["operands"][0], c["operand_axes"][0]) == size(c["operands"][1], c["operand_axes"][1])
                or 1 in (size(c["operands"][0], c["operand_axes"][0]),
                         size(c["operands"][1], c["operand_axes"][1]))
                for c in got["checks"])
            assert checks_hold == (want is not None), (shapes, concrete, got)
            if want is None:
                continue
            assert len(got["shape"]) == len(want)
            for g, w in zip(got["shape"], want):
                if isinstance(g, int):
                    assert g == w, (shapes, concrete, got)
                elif isinstance(g, str):
                    assert env[g] == w, (shapes, concrete, got)


def test_checks_fields():
    got = bcast.infer(("n", 3), (4, 1, "m"))
    assert got["shape"] == (4, "n", 3)
    [c] = got["checks"]
    assert c["operands"] == (0, 1) and c["operand_axes"] == (1, 2)
    assert c["axis"] == 2 and c["sizes"] == (3, "m")
    assert "m" in c["condition"] and "3" in c["condition"]
    assert bcast.infer((2, 3), (3,)) == {"shape": (2, 3), "checks": []}


def test_explain_is_broadcast_in_dim(rng):
    for _ in range(300):
        shapes = [random_static_shape(rng, 3) for _ in range(rng.randint(1, 3))]
        want = numpy_shape(*shapes)
        if want is None:
            with pytest.raises(bcast.BroadcastError):
                bcast.explain(*shapes)
            continue
        e = bcast.explain(*shapes)
        assert e["shape"] == want and e["checks"] == []
        for s, op in zip(shapes, e["operands"]):
            r, R = len(s), len(want)
            assert op["broadcast_dimensions"] == tuple(range(R - r, R))
            assert op["expanded"] == tuple(i for i in range(r) if s[i] == 1 and want[R - r + i] != 1)
            assert op["maybe_expanded"] == () and op["runtime_checks"] == ()
            a = np.arange(int(np.prod(s)), dtype=np.int32).reshape(s)
            v = bcast.broadcast_in_dim(a, want, op["broadcast_dimensions"])
            assert np.array_equal(v, np.broadcast_to(a, want))


def test_explain_dynamic():
    e = bcast.explain((1, None), ("n", 3), "*")
    assert e["operands"][2] is None
    assert e["operands"][0]["maybe_expanded"] == (0,)
    assert e["operands"][0]["runtime_checks"] == (1,)


def test_verify_shapes(rng):
    for _ in range(1000):
        shapes = [random_static_shape(rng, 3) for _ in range(rng.randint(1, 3))]
        result = random_static_shape(rng, 3) if rng.random() < 0.5 else numpy_shape(*shapes)
        want = numpy_shape(*shapes)
        if want is not None and result == want:
            assert bcast.verify_shapes(shapes, result) is None
        elif result is not None:
            with pytest.raises(bcast.BroadcastError):
                bcast.verify_shapes(shapes, result)


def test_verify_shapes_profiles():
    bcast.verify_shapes([(2, 1), (3,)], (2, 3), profile="trait")
    with pytest.raises(bcast.BroadcastError) as e:
        bcast.verify_shapes([(2, 1), (3,)], (2, 3), profile="tosa")
    assert e.value.status == "BCAST_RANK_MISMATCH"
    with pytest.raises(bcast.BroadcastError) as e:
        bcast.verify_shapes([(2, 1), (3,)], (2, 4), profile="mlir")
    assert "not broadcast compatible" in e.value.mlir_message
    bcast.verify_shapes([("n", 1), (3,)], ("n", 3))


def test_static_sizes_meet_across_a_dynamic_dim():
    """NumPy's N-ary rule: 0 and 2 never broadcast, whatever ? is.  MLIR's
    getBroadcastedShape folds pairwise ((? with 0) is ?, then ? with 2 is
    2) and accepts; the mlir, trait and tosa profiles keep its answer."""
    with pytest.raises(bcast.BroadcastError) as e:
        bcast.broadcast_shapes((None,), (0,), (2,))
    assert e.value.operands == (1, 2) and e.value.sizes == (0, 2)
    with pytest.raises(bcast.BroadcastError):
        bcast.broadcast_shapes((3, None), (1, 0), (None, 4))
    assert bcast.broadcast_shapes((None,), (0,), (2,), profile="mlir") == (2,)
    assert bcast.broadcast_shapes((None,), (1,), (2,)) == (2,)


def test_names_and_profiles_are_whole_strings():
    """A dim name or profile with a NUL in it is refused: the library's
    C strings would cut it there ('a\\0b' and 'a\\0c' would both be 'a')."""
    with pytest.raises(ValueError, match="name of dim 0"):
        bcast.broadcast_shapes(("a\0b",), ("a\0c",))
    with pytest.raises(ValueError, match="profile"):
        bcast.broadcast_shapes((2,), profile="numpy\0junk")
    with pytest.raises(ValueError, match="name of dim 1"):
        bcast.infer((2, "\ud800"))
