#!/usr/bin/python3
"""Differential test of `bcast verify` against MLIR 22's own verifier.

Three parts:

1. "test.broadcastable" (mlir profile).  Random signatures of 1 to 4
   operands, ranks 0..5, dims drawn from ?, 0, 1 and 2..4, some unranked
   operands, results that are either the inferred shape or a perturbation
   of it.  Every op sits in its own func, separated by `// -----`, in one
   file; mlir-opt --split-input-file runs once over it and `bcast verify
   --profile mlir` runs once over it.  The error lines (FILE:LINE:COL:
   error: MESSAGE) must be identical, and so must the source line and
   caret line printed under each.  The same file is also run through
   the default `trait` profile and compared, op by op, with a Python model
   of the Verify pseudo-code of the Broadcastable document (ops with size-0
   dims are left out there: the document does not classify 0).

2. tosa.add and tosa.select (default profile, which is `tosa` for tosa.*),
   custom and generic forms, equal and unequal ranks, size-0 dims, against
   MLIR 22's TOSA dialect in the same way.

3. The 8 valid and 5 invalid examples of the Broadcastable document, with
   their verdicts in the trait profile, their notes, and the two examples
   on which MLIR 22 disagrees with the document (checked against mlir-opt).

Usage:
  /usr/bin/python3 tests/diff/test_mlir_verify.py --bcast BUILD/bcast \
      [--seed N|random] [--count-mlir 2000] [--count-tosa 500] [--mlir-opt PATH]

The seed is printed; rerun with --seed N to replay a failure.
"""

import os
import random
import re
import sys
import time

import common

DEFAULT_SEED = 20250601
TIMEOUT = 120  # seconds for one run of mlir-opt or bcast
DYN = None  # a dynamic dim ("?") in the Python model
UNRANKED = "*"  # an unranked shape in the Python model


# ---------------------------------------------------------------------------
# Types as text.

def dim_text(d):
    return "?" if d is DYN else str(d)


def type_text(shape, elem):
    if shape == UNRANKED:
        return "tensor<*x%s>" % elem
    return "tensor<" + "".join(dim_text(d) + "x" for d in shape) + elem + ">"


def shape_text(shape):
    """Shape as MLIR's trait diagnostics print it: 2x?x3, '' for rank 0."""
    return "x".join(dim_text(d) for d in shape)


# ---------------------------------------------------------------------------
# Python models.  They are used to build plausible results (the inferred
# shape, then perturbed) and, for the trait profile, as the oracle.

def mlir_infer_dim(a, b):
    """OpTrait::util::getBroadcastedShape for one dim pair (MLIR 22)."""
    if a is DYN or b is DYN:
        if a is not DYN and a > 1:
            return a
        if b is not DYN and b > 1:
            return b
        if a == 1:
            return b
        if b == 1:
            return a
        return DYN
    if a == b or b == 1:
        return a
    if a == 1:
        return b
    raise ValueError("incompatible")


def doc_infer_dim(a, b):
    """InferDim of the Broadcastable document (dims ?, 1 and >1 only)."""
    if a is DYN and b is DYN:
        return DYN
    if a is DYN:
        return DYN if b == 1 else b
    if b is DYN:
        return DYN if a == 1 else a
    if a == 1:
        return b
    if b == 1:
        return a
    if a != b:
        raise ValueError("incompatible")
    return a


def infer_shape(shapes, infer_dim):
    """InferResultShape: unranked operands skipped; None if none ranked."""
    ranked = [s for s in shapes if s != UNRANKED]
    if not ranked:
        return None
    out = list(ranked[0])
    for s in ranked[1:]:
        rank = max(len(out), len(s))
        a = [1] * (rank - len(out)) + out
        b = [1] * (rank - len(s)) + list(s)
        out = [infer_dim(x, y) for x, y in zip(a, b)]
    return out


def doc_verify(operands, result):
    """Verify(op) of the Broadcastable document; True when the op passes."""
    try:
        inferred = infer_shape(operands, doc_infer_dim)
    except ValueError:
        return False
    if result == UNRANKED or inferred is None:
        return True
    if len(inferred) != len(result):
        return False
    for i, a in zip(inferred, result):
        if a is not DYN and i != a:
            return False
    return True


# ---------------------------------------------------------------------------
# Random signatures.

def rand_dim(rng, zero_weight):
    r = rng.random()
    if r < 0.18:
        return DYN
    if r < 0.18 + zero_weight:
        return 0
    if r < 0.50:
        return 1
    return rng.randint(2, 4)


def rand_shape(rng, rank, zero_weight):
    return [rand_dim(rng, zero_weight) for _ in range(rank)]


def derive_operand(rng, base, rank, zero_weight):
    """An operand likely to broadcast to `base`: its trailing dims, some
    replaced by 1 or ?, now and then by anything."""
    dims = list(base[len(base) - rank:]) if rank <= len(base) else \
        rand_shape(rng, rank - len(base), zero_weight) + list(base)
    out = []
    for d in dims:
        r = rng.random()
        if r < 0.20:
            out.append(1)
        elif r < 0.32:
            out.append(DYN)
        elif r < 0.38:
            out.append(rand_dim(rng, zero_weight))
        else:
            out.append(d)
    return out


def perturb_result(rng, inferred, zero_weight):
    """A result type: the inferred shape, or the inferred shape changed in
    one way (dim changed, made ?, made static, rank added or dropped,
    unranked)."""
    if inferred is None:
        inferred = rand_shape(rng, rng.randint(0, 4), zero_weight)
    shape = list(inferred)
    kind = rng.choice(["same", "same", "same", "dim", "dyn", "static",
                       "add", "drop", "unranked", "random"])
    if kind == "dim" and shape:
        i = rng.randrange(len(shape))
        choices = [d for d in (DYN, 0, 1, 2, 3, 4) if d != shape[i]]
        shape[i] = rng.choice(choices)
    elif kind == "dyn" and shape:
        shape[rng.randrange(len(shape))] = DYN
    elif kind == "static" and shape:
        i = rng.randrange(len(shape))
        if shape[i] is DYN:
            shape[i] = rng.choice([1, 2, 3, 4])
    elif kind == "add":
        shape = [rng.choice([1, 1, 2, 3, DYN])] + shape
    elif kind == "drop" and shape:
        shape = shape[1:]
    elif kind == "unranked":
        return UNRANKED
    elif kind == "random":
        shape = rand_shape(rng, rng.randint(0, 5), zero_weight)
    return shape


def gen_broadcastable(rng):
    """Operand shapes and result shape for one "test.broadcastable" op."""
    n = rng.randint(1, 4)
    structured = rng.random() < 0.6
    base = rand_shape(rng, rng.randint(0, 5), 0.05)
    operands = []
    for _ in range(n):
        if rng.random() < 0.1:
            operands.append(UNRANKED)
        elif structured:
            operands.append(derive_operand(rng, base, rng.randint(0, 5), 0.05))
        else:
            operands.append(rand_shape(rng, rng.randint(0, 5), 0.07))
    try:
        inferred = infer_shape(operands, mlir_infer_dim)
    except ValueError:
        inferred = None
    return operands, perturb_result(rng, inferred, 0.05)


def gen_tosa(rng):
    """Op name, operand shapes and result shape for tosa.add/tosa.select."""
    name = rng.choice(["tosa.add", "tosa.select"])
    n = 2 if name == "tosa.add" else 3
    rank = rng.randint(0, 4)
    base = rand_shape(rng, rank, 0.02)
    equal_ranks = rng.random() < 0.8
    operands = []
    for _ in range(n):
        if rng.random() < 0.08:
            operands.append(UNRANKED)
        elif equal_ranks:
            operands.append(derive_operand(rng, base, rank, 0.02))
        else:
            operands.append(derive_operand(rng, base, rng.randint(0, 5), 0.02))
    try:
        inferred = infer_shape(operands, mlir_infer_dim)
    except ValueError:
        inferred = None
    return name, operands, perturb_result(rng, inferred, 0.02)


# ---------------------------------------------------------------------------
# The .mlir file: one func per op, `// -----` between them.

class MlirFile:
    def __init__(self):
        self.lines = []
        self.cases = []  # (op line, op col, func text, description)

    def add_func(self, index, arg_types, result_type, op_line_fn):
        args = ", ".join("%%a%d: %s" % (i, t) for i, t in enumerate(arg_types))
        head = "func.func @f%d(%s) -> %s {" % (index, args, result_type)
        indent, text, col = op_line_fn()
        op_line = " " * indent + text
        ret = "  return %%r : %s" % result_type
        if self.lines:
            self.lines.append("// -----")
        self.lines.append(head)
        self.lines.append(op_line)
        line_no = len(self.lines)
        self.lines.append(ret)
        self.lines.append("}")
        self.cases.append((line_no, indent + col,
                           "\n".join([head, op_line, ret, "}"])))

    def text(self):
        return "\n".join(self.lines) + "\n"


def op_line(rng, name, arg_types, result_type, generic):
    """Returns (indent, text, 1-based col of the op name within text)."""
    indent = rng.choice([2, 2, 2, 4, 1, 6])
    n = len(arg_types)
    operands = ", ".join("%%a%d" % i for i in range(n))
    sig = "(%s) -> %s" % (", ".join(arg_types), result_type)
    lhs = "%r = "
    if generic:
        text = '%s"%s"(%s) : %s' % (lhs, name, operands, sig)
    else:
        text = "%s%s %s : %s" % (lhs, name, operands, sig)
    return indent, text, len(lhs) + 1


# ---------------------------------------------------------------------------
# Running the tools and reading their error lines.

ERROR_RE = re.compile(r"^(.*?):(\d+):(\d+): error: (.*)$")
NOTE_RE = re.compile(r"^(.*?):(\d+):(\d+): note: (.*)$")


def located_lines(stderr, path, pattern):
    """{(line, col): [message, ...]} of the lines of PATH that PATTERN
    (ERROR_RE or NOTE_RE) matches."""
    out = {}
    for line in stderr.split("\n"):
        m = pattern.match(line)
        if m and m.group(1) == path:
            key = (int(m.group(2)), int(m.group(3)))
            out.setdefault(key, []).append(m.group(4))
    return out


def error_lines(stderr, path):
    """Lines `PATH:L:C: error: M`, as located_lines."""
    return located_lines(stderr, path, ERROR_RE)


def note_lines(stderr, path):
    """Lines `PATH:L:C: note: M`, as located_lines."""
    return located_lines(stderr, path, NOTE_RE)


def source_lines(stderr, path):
    """{(line, col): (source line, caret line)}: the two lines mlir-opt
    prints under each error of PATH."""
    lines = stderr.split("\n")
    out = {}
    for i, line in enumerate(lines):
        m = ERROR_RE.match(line)
        if m and m.group(1) == path:
            out[(int(m.group(2)), int(m.group(3)))] = tuple(lines[i + 1:i + 3])
    return out


def crashed(rc):
    return rc is None or rc < 0 or rc >= 128


def compare_with_mlir_opt(tally, label, mfile, path, args, bcast_cmd):
    """Runs mlir-opt and bcast over one file and compares per op."""
    t0 = time.time()
    mrc, _, mout = common.run([args.mlir_opt, "--split-input-file", path], timeout=TIMEOUT)
    t1 = time.time()
    brc, _, bout = common.run(bcast_cmd + [path], timeout=TIMEOUT)
    t2 = time.time()
    print("%s: %d ops; mlir-opt %.2f s, bcast %.2f s" %
          (label, len(mfile.cases), t1 - t0, t2 - t1))
    if crashed(brc):
        tally.fail("%s: bcast crashed or timed out (exit %s)" % (label, brc),
                   bout[-4000:])
        return
    if mrc is None:
        tally.fail("%s: mlir-opt timed out" % label, mout[-2000:])
        return
    mer = error_lines(mout, path)
    ber = error_lines(bout, path)
    bno = note_lines(bout, path)
    msrc = source_lines(mout, path)
    bsrc = source_lines(bout, path)
    known = set()
    for line_no, col, func in mfile.cases:
        key = (line_no, col)
        known.add(key)
        want = mer.get(key, [])
        got = ber.get(key, [])
        problems = []
        if want != got:
            problems.append("error lines differ")
        elif got and msrc.get(key) != bsrc.get(key):
            problems.append("source and caret lines differ: mlir-opt %r, bcast %r"
                            % (msrc.get(key), bsrc.get(key)))
        if got and not all(n.strip() for n in bno.get(key, [""])):
            problems.append("bcast printed an empty note")
        if got and key not in bno:
            problems.append("bcast printed no note after its error")
        if problems:
            tally.fail("%s: op at %s:%d:%d: %s" %
                       (label, path, line_no, col, "; ".join(problems)),
                       "function:\n%s\nmlir-opt errors: %s\nbcast errors:    %s\n"
                       "bcast notes:     %s" %
                       (func, want or "(none)", got or "(none)",
                        bno.get(key, "(none)")))
        else:
            tally.ok()
    # Errors anywhere else (a generator mistake or a misplaced bcast error).
    for src, table in (("mlir-opt", mer), ("bcast", ber)):
        stray = sorted(k for k in table if k not in known)
        tally.check(not stray, "%s: %s reported errors away from the ops" %
                    (label, src),
                    "\n".join("%d:%d: %s" % (k[0], k[1], table[k]) for k in stray[:10]))
    any_err = any(mer.get((l, c)) for l, c, _ in mfile.cases)
    tally.check(brc == (1 if any_err else 0),
                "%s: bcast exit status %s, expected %d" %
                (label, brc, 1 if any_err else 0))


# ---------------------------------------------------------------------------
# Part 1 and 2: random signatures.

def part_broadcastable(tally, args, rng, tmpdir):
    mfile = MlirFile()
    ops = []
    for i in range(args.count_mlir):
        operands, result = gen_broadcastable(rng)
        types = [type_text(s, "i32") for s in operands]
        rtype = type_text(result, "i32")
        mfile.add_func(i, types, rtype,
                       lambda: op_line(rng, "test.broadcastable", types, rtype, True))
        ops.append((operands, result))
    path = os.path.join(tmpdir, "broadcastable.mlir")
    with open(path, "w") as f:
        f.write(mfile.text())
    compare_with_mlir_opt(tally, "test.broadcastable/mlir", mfile, path, args,
                          [args.bcast, "verify", "--profile", "mlir"])

    # The same ops against the document's Verify (default trait profile).
    brc, _, bout = common.run([args.bcast, "verify", path], timeout=TIMEOUT)
    if crashed(brc):
        tally.fail("trait profile: bcast crashed (exit %s)" % brc, bout[-4000:])
        return
    ber = error_lines(bout, path)
    checked = 0
    for (line_no, col, func), (operands, result) in zip(mfile.cases, ops):
        shapes = [s for s in operands + [result] if s != UNRANKED]
        if any(d == 0 for s in shapes for d in s):
            continue
        checked += 1
        want_ok = doc_verify(operands, result)
        got = ber.get((line_no, col), [])
        tally.check(want_ok == (not got),
                    "trait profile: op at line %d: document says %s, bcast says %s"
                    % (line_no, "pass" if want_ok else "fail",
                       "fail" if got else "pass"),
                    "function:\n%s\nbcast errors: %s" % (func, got or "(none)"))
    print("test.broadcastable/trait: %d ops (without size-0 dims) against the "
          "document's Verify" % checked)


def part_tosa(tally, args, rng, tmpdir):
    mfile = MlirFile()
    for i in range(args.count_tosa):
        name, operands, result = gen_tosa(rng)
        elem = rng.choice(["i32", "f32"])
        types = [type_text(s, elem) for s in operands]
        if name == "tosa.select":
            types[0] = type_text(operands[0], "i1")
        rtype = type_text(result, elem)
        generic = rng.random() < 0.4
        mfile.add_func(i, types, rtype,
                       lambda: op_line(rng, name, types, rtype, generic))
    path = os.path.join(tmpdir, "tosa.mlir")
    with open(path, "w") as f:
        f.write(mfile.text())
    compare_with_mlir_opt(tally, "tosa.add/tosa.select", mfile, path, args,
                          [args.bcast, "verify"])


# ---------------------------------------------------------------------------
# Part 3: the examples of the Broadcastable document.

# (operand types, result type).  The document's lines lack the '>' that
# closes the second operand type; here it is restored.
DOC_VALID = [
    (["tensor<1x2xi32>", "tensor<1x2xi32>"], "tensor<1x2xi32>"),
    (["tensor<?xi32>", "tensor<?xi32>"], "tensor<?xi32>"),
    (["tensor<1xi32>", "tensor<4xi32>"], "tensor<4xi32>"),
    (["tensor<4xi32>"], "tensor<?xi32>"),
    (["tensor<4xi32>", "tensor<2x3x4xi32>"], "tensor<2x3x4xi32>"),
    (["tensor<2xi1>", "tensor<2xi32>"], "tensor<2xi64>"),
    (["tensor<2xi32>"], "tensor<*xi32>"),
    (["tensor<*xi32>", "tensor<*xi32>"], "tensor<2xi32>"),
]

# (operand types, result type, MLIR 22 verdict, substrings the note must
# contain in the trait profile).
DOC_INVALID = [
    (["tensor<3xi32>", "tensor<2xi32>"], "tensor<?xi32>", False,
     ["operand #0 dim 0 (size 3)", "operand #1 dim 0 (size 2)"]),
    (["tensor<3xi32>", "tensor<3xi32>"], "tensor<1x3xi32>", True,
     ["rank 2", "rank 1"]),
    (["tensor<?xi32>", "tensor<?xi32>"], "tensor<4xi32>", True,
     ["result dim 0", "size 4"]),
    (["tensor<2xi32>", "tensor<2xi32>"], "tensor<4xi32>", False,
     ["result dim 0 (size 4)", "size 2"]),
    (["tensor<1xi32>", "tensor<1xi32>"], "tensor<4xi32>", False,
     ["result dim 0 (size 4)", "size 1"]),
]


def part_document(tally, args, tmpdir):
    mfile = MlirFile()
    examples = [(o, r, True, True, []) for o, r in DOC_VALID] + \
               [(o, r, False, m, n) for o, r, m, n in DOC_INVALID]
    for i, (operands, result, _, _, _) in enumerate(examples):
        mfile.add_func(i, operands, result,
                       lambda: (2, '%%r = "test.broadcastable"(%s) : (%s) -> %s' %
                                (", ".join("%%a%d" % k for k in range(len(operands))),
                                 ", ".join(operands), result), 6))
    path = os.path.join(tmpdir, "document.mlir")
    with open(path, "w") as f:
        f.write(mfile.text())

    # Trait profile (the default for test.broadcastable): the document.
    brc, _, bout = common.run([args.bcast, "verify", path], timeout=TIMEOUT)
    if crashed(brc):
        tally.fail("document examples: bcast crashed (exit %s)" % brc, bout)
        return
    tally.check(brc == 1, "document examples: trait profile exit %s, expected 1"
                % brc, bout)
    ber = error_lines(bout, path)
    bno = note_lines(bout, path)
    for (line_no, col, func), (ops, res, doc_ok, _, needles) in \
            zip(mfile.cases, examples):
        sig = "(%s) -> %s" % (", ".join(ops), res)
        errs = ber.get((line_no, col), [])
        notes = " | ".join(bno.get((line_no, col), []))
        tally.check(doc_ok == (not errs) and (len(errs) <= 1),
                    "document example %s: trait profile %s, document says %s" %
                    (sig, "fails" if errs else "passes",
                     "pass" if doc_ok else "fail"), bout)
        # Each file also passes or fails alone, through stdin.
        src = ("func.func @g(%s) -> %s {\n  %%r = \"test.broadcastable\"(%s) : "
               "%s\n  return %%r : %s\n}\n" %
               (", ".join("%%a%d: %s" % (k, t) for k, t in enumerate(ops)), res,
                ", ".join("%%a%d" % k for k in range(len(ops))), sig, res))
        rc, _, err = common.run([args.bcast, "verify", "-"], src.encode(), timeout=TIMEOUT)
        tally.check(rc == (0 if doc_ok else 1),
                    "document example %s alone on stdin: exit %s, expected %d"
                    % (sig, rc, 0 if doc_ok else 1), err)
        if doc_ok:
            continue
        tally.check(errs and errs[0].startswith("'test.broadcastable' op "),
                    "document example %s: error line lacks the op prefix" % sig,
                    str(errs))
        tally.check(notes and all(s in notes for s in needles),
                    "document example %s: note should mention %s" %
                    (sig, needles), "note: " + (notes or "(none)"))

    # mlir profile: what MLIR 22 does; two of the invalid examples pass.
    mrc, _, mout = common.run([args.mlir_opt, "--split-input-file", path], timeout=TIMEOUT)
    mer = error_lines(mout, path)
    brc, _, bout = common.run([args.bcast, "verify", "--profile", "mlir", path], timeout=TIMEOUT)
    if crashed(brc):
        tally.fail("document examples: mlir profile crashed (exit %s)" % brc, bout)
        return
    ber = error_lines(bout, path)
    for (line_no, col, func), (ops, res, doc_ok, mlir_ok, _) in \
            zip(mfile.cases, examples):
        sig = "(%s) -> %s" % (", ".join(ops), res)
        key = (line_no, col)
        tally.check((not mer.get(key)) == mlir_ok,
                    "document example %s: mlir-opt %s (this test expected %s)" %
                    (sig, "fails" if mer.get(key) else "passes",
                     "pass" if mlir_ok else "fail"), str(mer.get(key)))
        tally.check((not ber.get(key)) == mlir_ok,
                    "document example %s: mlir profile %s, MLIR 22 %s" %
                    (sig, "fails" if ber.get(key) else "passes",
                     "passes" if mlir_ok else "fails"), str(ber.get(key)))
        tally.check(mer.get(key, []) == ber.get(key, []),
                    "document example %s: mlir profile error lines differ "
                    "from mlir-opt" % sig,
                    "mlir-opt: %s\nbcast:    %s" % (mer.get(key), ber.get(key)))


# ---------------------------------------------------------------------------

def main():
    ap = common.parser(__doc__.split("\n")[0], seed=DEFAULT_SEED)
    ap.add_argument("--count-mlir", type=int, default=2000)
    ap.add_argument("--count-tosa", type=int, default=500)
    common.add_mlir_opt_args(ap)
    args = common.parse_args(ap)
    seed = args.seed
    print("seed %d (replay: /usr/bin/python3 %s --bcast %s --seed %d "
          "--count-mlir %d --count-tosa %d)" %
          (seed, sys.argv[0], args.bcast, seed, args.count_mlir, args.count_tosa))
    if common.tools_missing(args):
        return 1

    start = time.time()
    tally = common.Tally(most_shown=15)
    rng = random.Random(seed)
    with common.work_dir(args.keep, "bcast-mlir-verify-") as tmpdir:
        part_broadcastable(tally, args, random.Random(rng.randrange(1 << 62)), tmpdir)
        part_tosa(tally, args, random.Random(rng.randrange(1 << 62)), tmpdir)
        part_document(tally, args, tmpdir)
    print("runtime %.1f s" % (time.time() - start))
    return tally.summary(replay="replay with: --seed %d" % seed)


if __name__ == "__main__":
    sys.exit(main())
