#!/usr/bin/python3
"""Explicit broadcasting through the CLI, against NumPy.

bcast broadcast-in-dim on random .npy files (every dtype, any-order maps,
size-0 and size-1 dims, the partial --new-dims form) must write exactly the
bytes np.save writes for NumPy's spelling of the same operation:
transpose to the map's order, reshape with 1s in the new dims, broadcast_to,
copy.  Then the shape-only forms, the map errors, bcast explain (its maps
fed back to broadcast-in-dim give NumPy's implicit broadcast) and the
named-dim / xla forms of bcast infer.

Usage: test_explicit_numpy.py --bcast PATH [--seed N] [--cases N]
"""
import os
import random
import re
import sys
import tempfile

import numpy as np

import common

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
          "uint32", "uint64", "float16", "float32", "float64", "S", "U"]


def run(bcast, args):
    return common.run([bcast] + args)


def random_array(rng, dtype, shape):
    n = int(np.prod(shape)) if shape else 1
    if dtype == "bool":
        flat = np.array([rng.random() < 0.5 for _ in range(n)], dtype=bool)
    elif dtype in ("S", "U"):
        words = ["", "a", "bc", "déf" if dtype == "U" else "def", "xyz12"]
        flat = np.array([rng.choice(words) for _ in range(n)],
                        dtype=dtype if n else dtype + "1")
    elif dtype.startswith("float"):
        flat = np.array([rng.uniform(-100, 100) for _ in range(n)], dtype=dtype)
    else:
        info = np.iinfo(dtype)
        flat = np.array([rng.randint(int(info.min), int(info.max))
                         for _ in range(n)], dtype=dtype)
    return flat.reshape(shape)


def numpy_broadcast_in_dim(x, out_shape, dims):
    """NumPy's spelling of BroadcastInDim(x, out_shape, dims)."""
    order = sorted(range(len(dims)), key=lambda k: dims[k])
    xt = np.transpose(x, order) if x.ndim else x
    placed = [1] * len(out_shape)
    for k, i in enumerate(order):
        placed[dims[i]] = x.shape[i]
    return np.broadcast_to(xt.reshape(placed), out_shape).copy()


def random_case(rng):
    """An operand shape, an output shape and a valid map (any order)."""
    out_rank = rng.randint(0, 5)
    out_shape = [rng.choice([0, 1, 2, 3, 4]) if rng.random() < 0.1
                 else rng.randint(1, 4) for _ in range(out_rank)]
    rank = rng.randint(0, out_rank)
    dims = sorted(rng.sample(range(out_rank), rank))
    if rng.random() < 0.5:
        rng.shuffle(dims)
    shape = [1 if rng.random() < 0.3 else out_shape[d] for d in dims]
    return shape, out_shape, dims


def dims_arg(dims):
    return ",".join(str(d) for d in dims)


def shape_arg(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def part_files(tally, bcast, rng, tmp, cases):
    for c in range(cases):
        shape, out_shape, dims = random_case(rng)
        dtype = rng.choice(DTYPES)
        x = random_array(rng, dtype, shape)
        if rng.random() < 0.2 and x.ndim >= 2:
            x = np.asfortranarray(x)
        src = os.path.join(tmp, "x%d.npy" % c)
        np.save(src, x)
        before = open(src, "rb").read()
        want = numpy_broadcast_in_dim(x, out_shape, dims)
        ref = os.path.join(tmp, "ref%d.npy" % c)
        np.save(ref, want)
        out = os.path.join(tmp, "out%d.npy" % c)
        increasing = dims == sorted(dims)
        args = ["broadcast-in-dim", src, "--dims", dims_arg(dims),
                "--shape", shape_arg(out_shape), "-o", out]
        if not increasing:
            args.append("--any-order")
        rc, so, se = run(bcast, args)
        label = "broadcast-in-dim %s %s -> %s dims %s" % (
            dtype, shape, out_shape, dims)
        same = rc == 0 and open(out, "rb").read() == open(ref, "rb").read()
        tally.check(same, label, "exit %d, stderr %s" % (rc, se.strip()))
        tally.check(open(src, "rb").read() == before, label + ": input changed")
        if not increasing and dims:
            rc, so, se = run(bcast, args[:-1])
            tally.check(rc == 1 and "strictly increasing" in se,
                        label + ": XLA order rule should refuse", se)


def part_partial(tally, bcast, rng, tmp, cases):
    for c in range(cases):
        shape, out_shape, dims = random_case(rng)
        if any(d == 0 for d in out_shape):
            continue
        x = random_array(rng, "int32", shape)
        src = os.path.join(tmp, "p%d.npy" % c)
        np.save(src, x)
        # Sizes for the new dims and for expanded size-1 dims only.
        new = ["%d:%d" % (o, out_shape[o]) for o in range(len(out_shape))
               if o not in dims]
        for i, d in enumerate(dims):
            if shape[i] == 1 and out_shape[d] != 1:
                new.append("%d:%d" % (d, out_shape[d]))
        out = os.path.join(tmp, "po%d.npy" % c)
        rc, so, se = run(bcast, ["broadcast-in-dim", src, "--dims", dims_arg(dims),
                                 "--new-dims", ",".join(new), "-o", out])
        want = numpy_broadcast_in_dim(x, out_shape, dims)
        ok = rc == 0 and np.array_equal(np.load(out), want) and \
            np.load(out).shape == want.shape
        tally.check(ok, "partial %s dims %s new %s -> %s" % (shape, dims, new,
                                                              out_shape), se)
    # The example: (A,B), dims (0,2), {1: C} gives (A,C,B).
    rc, so, se = run(bcast, ["broadcast-in-dim", "--operand", "[5,7]", "--dims",
                             "0,2", "--new-dims", "1:4"])
    tally.check(rc == 0 and so.splitlines()[0] == "[5,4,7]"
                and "output dim 0 = operand dim 0" in so
                and "output dim 2 = operand dim 1" in so, "partial example", so + se)


def part_shapes_and_errors(tally, bcast):
    rc, so, se = run(bcast, ["broadcast-in-dim", "--operand", "[2,3]", "--shape",
                             "[4,2,3]", "--dims", "1,2"])
    tally.check(rc == 0 and so == "[4,2,3]\n", "shape-only form", so + se)
    errors = [
        (["[2,3]", "[4,2,3]", "1"], "has 1 entries but the operand has rank 2"),
        (["[2,3]", "[4,2,3]", "1,3"], "broadcast_dimensions[1] = 3 is out of range"),
        (["[2,3]", "[4,3,3]", "2,2"], "both map to output dim 2"),
        (["[2,3]", "[3,4,2]", "2,0"], "strictly increasing"),
        (["[2,3]", "[4,2,4]", "1,2"], "operand dim 1 (size 3) maps to output dim 2 (size 4)"),
    ]
    for (operand, shape, dims), message in errors:
        rc, so, se = run(bcast, ["broadcast-in-dim", "--operand", operand,
                                 "--shape", shape, "--dims", dims])
        tally.check(rc == 1 and message in se and so == "",
                    "error %s %s %s" % (operand, shape, dims), se)
    rc, so, se = run(bcast, ["broadcast-in-dim", "--operand", "[2,3]", "--dims",
                             "1,2", "--shape", "[4,2,3]", "--new-dims", "0:4"])
    tally.check(rc == 2, "--shape with --new-dims is a usage error", se)


def part_explain(tally, bcast, rng, tmp, cases):
    """explain's maps, fed to broadcast-in-dim, equal np.broadcast_arrays."""
    for c in range(cases):
        rank = rng.randint(0, 4)
        target = [rng.randint(0, 3) for _ in range(rank)]
        shapes = []
        for _ in range(rng.randint(1, 3)):
            r = rng.randint(0, rank)
            shapes.append([1 if rng.random() < 0.3 else d for d in target[rank - r:]])
        rc, so, se = run(bcast, ["explain"] + [shape_arg(s) for s in shapes])
        lines = so.splitlines()
        if not (rc == 0 and lines and lines[0].startswith("result ")):
            tally.check(False, "explain %s" % shapes, so + se)
            continue
        want_shape = np.broadcast_shapes(*[tuple(s) for s in shapes])
        tally.check(lines[0] == "result " + shape_arg(want_shape),
                    "explain result %s" % shapes, so)
        arrays = [random_array(rng, "int16", s) for s in shapes]
        expected = np.broadcast_arrays(*arrays)
        for k, line in enumerate(lines[1:]):
            m = re.search(r"broadcast_dimensions=\[([0-9,]*)\]", line)
            if not m:
                tally.check(False, "explain line %r" % line)
                continue
            src = os.path.join(tmp, "e%d_%d.npy" % (c, k))
            out = os.path.join(tmp, "eo%d_%d.npy" % (c, k))
            np.save(src, arrays[k])
            rc, so2, se2 = run(bcast, ["broadcast-in-dim", src, "--dims", m.group(1),
                                       "--shape", shape_arg(want_shape), "-o", out])
            ok = rc == 0 and np.array_equal(np.load(out), expected[k])
            tally.check(ok, "explain map of %s in %s" % (shapes[k], shapes), se2)


def part_infer(tally, bcast):
    cases = [
        (["[n,1]", "[1,m]"], ["[n,m]"]),
        (["[n]", "[n]"], ["[n]"]),
        (["[n]", "[m]"], ["[?]", "check: n == m or n == 1 or m == 1"]),
        (["[batch,?,3]", "[1,5,1]"], ["[batch,5,3]"]),
        (["--profile", "xla", "--broadcast-dimensions", "1,2", "[4,3,1]", "[1,2]"],
         ["[4,3,2]"]),
        (["--profile", "xla", "--broadcast-dimensions", "0", "[4]", "[1,2]"],
         ["[4,2]"]),
        (["--profile", "xla", "[2,1]", "[1,3]"], ["[2,3]"]),
        (["--profile", "xla", "[]", "[2,3]"], ["[2,3]"]),
    ]
    for args, want in cases:
        rc, so, se = run(bcast, ["infer"] + args)
        lines = so.splitlines()
        ok = rc == 0 and lines[0] == want[0] and all(
            any(l.startswith(w) for l in lines) for w in want[1:])
        tally.check(ok, "infer %s" % " ".join(args), so + se)
    rc, so, se = run(bcast, ["infer", "--profile", "xla", "[3]", "[2,3]"])
    tally.check(rc == 1 and "broadcast_dimensions" in se, "xla without dims", se)
    rc, so, se = run(bcast, ["infer", "--profile", "xla", "--broadcast-dimensions",
                             "1,0", "[3,1]", "[2,3,4]"])
    tally.check(rc == 1 and "strictly increasing" in se, "xla decreasing dims", se)


def part_run(tally, bcast, rng, tmp, cases):
    """bcast run with --broadcast-dimensions: the XLA document's examples
    with their values, then random maps against NumPy."""
    def save(name, a):
        path = os.path.join(tmp, name)
        np.save(path, a)
        return path
    out = os.path.join(tmp, "run_out.npy")
    m = np.array([[1, 2, 3], [4, 5, 6]], dtype=np.int32)
    v = np.array([7, 8, 9], dtype=np.int32)
    examples = [
        ("matrix + vector under (1)", m, v, "1", [[8, 10, 12], [11, 13, 15]]),
        ("matrix + scalar", m, np.array(7, dtype=np.int32), "",
         [[8, 9, 10], [11, 12, 13]]),
        ("3x3 + vector under (0)", np.zeros((3, 3), np.int32), v, "0",
         [[7, 7, 7], [8, 8, 8], [9, 9, 9]]),
        ("3x3 + vector under (1)", np.zeros((3, 3), np.int32), v, "1",
         [[7, 8, 9], [7, 8, 9], [7, 8, 9]]),
        ("(4) + (1x2) under (0)", np.array([1, 2, 3, 4], np.int32),
         np.array([[5, 6]], np.int32), "0", [[6, 7], [7, 8], [8, 9], [9, 10]]),
    ]
    for label, a, b, dims, want in examples:
        args = ["run", "add", save("ra.npy", a), save("rb.npy", b), "-o", out]
        args += ["--broadcast-dimensions", dims]
        rc, so, se = run(bcast, args)
        ok = rc == 0 and np.load(out).tolist() == want
        tally.check(ok, "run add %s" % label, se)
    # 1x2 with 4x3x1 under (1,2) gives 4x3x2.
    a = np.array([[10, 20]], np.int32)
    b = np.arange(12, dtype=np.int32).reshape(4, 3, 1)
    rc, so, se = run(bcast, ["run", "add", save("ra.npy", a), save("rb.npy", b),
                             "--broadcast-dimensions", "1,2", "-o", out])
    tally.check(rc == 0 and np.array_equal(np.load(out), a.reshape(1, 1, 2) + b),
                "run add 1x2 + 4x3x1 under (1,2)", se)
    # Random maps: the lower-rank operand placed by dims, as NumPy spells it.
    for c in range(cases):
        high_rank = rng.randint(1, 4)
        high = [rng.randint(1, 3) for _ in range(high_rank)]
        low_rank = rng.randint(1, high_rank)
        dims = sorted(rng.sample(range(high_rank), low_rank))
        low = [1 if rng.random() < 0.3 else high[d] for d in dims]
        high = [1 if rng.random() < 0.2 else d for d in high]
        a = random_array(rng, "float32", low)
        b = random_array(rng, "float32", high)
        placed = [1] * high_rank
        for i, d in enumerate(dims):
            placed[d] = low[i]
        try:
            want = np.maximum(a.reshape(placed), b)
        except ValueError:
            want = None
        rc, so, se = run(bcast, ["run", "maximum", save("ra.npy", a),
                                 save("rb.npy", b), "--broadcast-dimensions",
                                 dims_arg(dims), "-o", out])
        if want is None:
            tally.check(rc == 1 and "incompatible" in se,
                        "run maximum %s %s dims %s should fail" % (low, high, dims), se)
        else:
            tally.check(rc == 0 and np.array_equal(np.load(out), want),
                        "run maximum %s %s dims %s" % (low, high, dims), se)


def main():
    ap = common.parser(seed=4242)
    ap.add_argument("--cases", type=int, default=None,
                    help="random cases (300 times --scale)")
    a = common.parse_args(ap)
    if a.cases is None:
        a.cases = a.scaled(300)
    print("seed %d (replay: %s %s --bcast %s --seed %d --cases %d)" % (
        a.seed, sys.executable, sys.argv[0], a.bcast, a.seed, a.cases))
    rng = random.Random(a.seed)
    tally = common.Tally(most_shown=25)
    with tempfile.TemporaryDirectory() as tmp:
        part_files(tally, a.bcast, rng, tmp, a.cases)
        part_partial(tally, a.bcast, rng, tmp, a.cases // 3)
        part_shapes_and_errors(tally, a.bcast)
        part_explain(tally, a.bcast, rng, tmp, a.cases // 3)
        part_infer(tally, a.bcast)
        part_run(tally, a.bcast, rng, tmp, a.cases // 3)
    return tally.summary()


if __name__ == "__main__":
    sys.exit(main())
