#!/usr/bin/python3
"""Differential fuzzing of bcast against its oracles (make fuzz-diff).

Long-running, outside the default test run; it loops until --minutes have
passed (or --rounds rounds ran), each round with a fresh seed derived from
the printed starting seed, so any failure replays with --seed N --rounds 1
(the round's own seed is printed with its failure).

1. Shape inference: `bcast infer --profile numpy` on random static shapes
   (1 to 4 operands, ranks 0..5, sizes 0..3 with 1 common) against NumPy's
   np.broadcast_shapes: the same result shape, or both refuse.
2. TOSA element-wise ops: random signatures of tosa.add, sub, maximum,
   minimum, pow, int_div, bitwise_and, logical_and, equal, greater and
   select with random ranks (equal ranks mostly: TOSA's same-rank rule),
   dims from 0, 1, 2, 3 and '?', results inferred or perturbed.  One func
   per op, `// -----` between them; `mlir-opt --split-input-file` and
   `bcast verify` run over the same file and must accept and reject the
   same ops (error lines at the same line).

Usage:
  /usr/bin/python3 fuzz/diff.py --bcast BUILD/bcast [--seed N|random]
      [--minutes 10] [--rounds N] [--shapes 500] [--ops 300]
      [--mlir-opt PATH]
"""

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

DYN = None
ERROR_RE = re.compile(r"^(.*?):(\d+):(\d+): error: (.*)$")


def run(argv, timeout=300):
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=timeout)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


# ---------------------------------------------------------------------------
# 1. Shapes against np.broadcast_shapes.

def rand_static_shape(rng, rank):
    return tuple(rng.choice([1, 1, 2, 3, 0] if rng.random() < 0.1 else [1, 1, 2, 3])
                 for _ in range(rank))


def shape_arg(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def part_shapes(args, rng, failures, stats):
    cases = 0
    for _ in range(args.shapes):
        n = rng.randint(1, 4)
        base = rand_static_shape(rng, rng.randint(0, 5))
        shapes = []
        for _ in range(n):
            rank = rng.randint(0, len(base))
            s = list(base[len(base) - rank:])
            for i in range(rank):
                r = rng.random()
                if r < 0.3:
                    s[i] = 1
                elif r < 0.45:
                    s[i] = rng.choice([0, 1, 2, 3])
            shapes.append(tuple(s))
        try:
            want = tuple(np.broadcast_shapes(*shapes))
        except ValueError:
            want = None
            stats["numpy_refused"] += 1
        rc, out, err = run([args.bcast, "infer", "--profile", "numpy"] +
                           [shape_arg(s) for s in shapes])
        cases += 1
        if rc not in (0, 1):
            failures.append("infer %s: exit %d: %s" % (" ".join(map(shape_arg, shapes)), rc, err.strip()))
            continue
        got = out.split("\n")[0].strip() if rc == 0 else None
        expect = shape_arg(want) if want is not None else None
        if got != expect:
            failures.append("infer %s: bcast %s, NumPy %s" %
                            (" ".join(map(shape_arg, shapes)), got or "refuses",
                             expect or "refuses"))
    return cases


# ---------------------------------------------------------------------------
# 2. TOSA element-wise ops against mlir-opt.

# name: (operand element types, result element type)
TOSA_OPS = {
    "tosa.add": (["f32", "f32"], "f32"),
    "tosa.sub": (["i32", "i32"], "i32"),
    "tosa.maximum": (["f32", "f32"], "f32"),
    "tosa.minimum": (["i32", "i32"], "i32"),
    "tosa.pow": (["f32", "f32"], "f32"),
    "tosa.intdiv": (["i32", "i32"], "i32"),
    "tosa.bitwise_and": (["i32", "i32"], "i32"),
    "tosa.logical_and": (["i1", "i1"], "i1"),
    "tosa.equal": (["f32", "f32"], "i1"),
    "tosa.greater": (["i32", "i32"], "i1"),
    "tosa.select": (["i1", "f32", "f32"], "f32"),
}


def rand_dim(rng):
    r = rng.random()
    if r < 0.15:
        return DYN
    if r < 0.18:
        return 0
    return rng.choice([1, 1, 2, 3])


def dim_text(d):
    return "?" if d is DYN else str(d)


def type_text(shape, elem):
    return "tensor<" + "".join(dim_text(d) + "x" for d in shape) + elem + ">"


def infer_dim(dims):
    statics = {d for d in dims if d is not DYN and d != 1}
    if len(statics) > 1:
        return rng_placeholder
    if statics:
        return statics.pop()
    return DYN if any(d is DYN for d in dims) else 1


rng_placeholder = 2  # a size for a result whose operands conflict


def gen_op(rng):
    name = rng.choice(sorted(TOSA_OPS))
    elems, result_elem = TOSA_OPS[name]
    rank = rng.randint(0, 4)
    base = [rand_dim(rng) for _ in range(rank)]
    operands = []
    for _ in elems:
        if rng.random() < 0.85:
            s = [d if rng.random() < 0.7 else rng.choice([1, 1, DYN, 2, 3]) for d in base]
        else:
            s = [rand_dim(rng) for _ in range(rng.randint(0, 5))]
        operands.append(s)
    if len({len(s) for s in operands}) == 1:
        result = [infer_dim([s[i] for s in operands]) for i in range(len(operands[0]))]
    else:
        result = list(base)
    if rng.random() < 0.25 and result:
        i = rng.randrange(len(result))
        result[i] = rng.choice([DYN, 1, 2, 3, 4])
    elif rng.random() < 0.05:
        result = result + [1]
    arg_types = [type_text(s, e) for s, e in zip(operands, elems)]
    return name, arg_types, type_text(result, result_elem)


def part_tosa(args, rng, tmpdir, failures, stats):
    lines, op_lines = [], []
    for k in range(args.ops):
        name, arg_types, result_type = gen_op(rng)
        if lines:
            lines.append("// -----")
        params = ", ".join("%%a%d: %s" % (i, t) for i, t in enumerate(arg_types))
        lines.append("func.func @f%d(%s) -> %s {" % (k, params, result_type))
        operands = ", ".join("%%a%d" % i for i in range(len(arg_types)))
        sig = "(%s) -> %s" % (", ".join(arg_types), result_type)
        if rng.random() < 0.5:
            lines.append('  %%r = "%s"(%s) : %s' % (name, operands, sig))
        else:
            lines.append("  %%r = %s %s : %s" % (name, operands, sig))
        op_lines.append(len(lines))
        lines.append("  return %%r : %s" % result_type)
        lines.append("}")
    path = os.path.join(tmpdir, "ops.mlir")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    _, _, mout = run([args.mlir_opt, "--split-input-file", path])
    brc, _, bout = run([args.bcast, "verify", path])
    if brc not in (0, 1):
        failures.append("bcast verify exit %d: %s" % (brc, bout[-500:]))
        return len(op_lines)

    def rejected(stderr):
        out = {}
        for line in stderr.split("\n"):
            m = ERROR_RE.match(line)
            if m and m.group(1) == path:
                out[int(m.group(2))] = m.group(4)
        return out

    mrej, brej = rejected(mout), rejected(bout)
    stats["mlir_rejected"] += sum(1 for ln in op_lines if ln in mrej)
    for ln in op_lines:
        if (ln in mrej) != (ln in brej):
            failures.append("line %d: %s\n    mlir-opt: %s\n    bcast:    %s" %
                            (ln, lines[ln - 1].strip(), mrej.get(ln, "accepts"),
                             brej.get(ln, "accepts")))
    stray = sorted(set(mrej) - set(op_lines))
    if stray:
        failures.append("mlir-opt errors outside the ops (generator bug): %s" %
                        "; ".join("%d: %s" % (l, mrej[l]) for l in stray[:3]))
    return len(op_lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bcast", required=True)
    ap.add_argument("--seed", default="random")
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--rounds", type=int, default=0, help="stop after N rounds (0: by time)")
    ap.add_argument("--shapes", type=int, default=500, help="infer cases per round")
    ap.add_argument("--ops", type=int, default=300, help="TOSA ops per round")
    ap.add_argument("--mlir-opt", default="/usr/lib/llvm-22/bin/mlir-opt")
    args = ap.parse_args()
    seed = (random.SystemRandom().randrange(1 << 31) if args.seed == "random"
            else int(args.seed))
    print("fuzz/diff.py seed %d (replay: --seed %d)" % (seed, seed), flush=True)
    if not os.access(args.mlir_opt, os.X_OK):
        print("mlir-opt not found at %s (package mlir-22-tools)" % args.mlir_opt)
        return 2
    start = time.time()
    master = random.Random(seed)
    total_shapes = total_ops = rounds = 0
    failed = 0
    stats = {"numpy_refused": 0, "mlir_rejected": 0}
    with tempfile.TemporaryDirectory(prefix="bcast-diff-") as tmpdir:
        while True:
            round_seed = master.randrange(1 << 31)
            rng = random.Random(round_seed)
            failures = []
            total_shapes += part_shapes(args, rng, failures, stats)
            total_ops += part_tosa(args, rng, tmpdir, failures, stats)
            rounds += 1
            for f in failures[:20]:
                print("FAIL (round seed %d, replay: --seed %d --rounds %d): %s" %
                      (round_seed, seed, rounds, f))
            failed += len(failures)
            print("round %d: %d shape cases (NumPy refused %d), %d ops "
                  "(mlir-opt rejected %d), %d failures (%.0f s)" %
                  (rounds, total_shapes, stats["numpy_refused"], total_ops,
                   stats["mlir_rejected"], failed, time.time() - start),
                  flush=True)
            if args.rounds and rounds >= args.rounds:
                break
            if not args.rounds and time.time() - start >= args.minutes * 60:
                break
    print("%d shape cases and %d TOSA ops compared, %d disagreements; seed %d" %
          (total_shapes, total_ops, failed, seed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
