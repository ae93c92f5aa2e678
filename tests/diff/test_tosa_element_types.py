#!/usr/bin/python3
"""Differential test of the tosa profile's element-type rules against
MLIR 22's TOSA verifier (mlir-opt 22, default verification, no
--tosa-validate).

Every TOSA element-wise op of bcast's op table meets every combination of
the element types i1, i8, i16, i32, i64, f16, bf16, f32, f64 for each of
its operands and its result:
  - unary ops (cast included): 9 x 9 (operand, result);
  - binary ops: 9 x 9 x 9 (a, b, result);
  - tosa.mul: 9 x 9 x 9 (a, b, result) with an i8 shift, then the shift's
    own type (9 types) and shape (tensor<1x..>, <..>, <2x..>, <?x..>,
    <*x..>) with a = b = result = i32;
  - tosa.negate: 9 x 9 (input, output) with zero points of the input's
    type, then 9 x 9 x 9 (input = output, zero point 1, zero point 2),
    then the zero points' shapes;
  - tosa.select: 9 x 9 x 9 (value 1, value 2, result) with an i1
    condition, then 9 conditions with f32 values (restricted: 9^4 combos
    would mostly repeat the condition's ODS failure);
  - tosa.clamp: its min_val / max_val are written in the input's type
    (i1 has no such literal in MLIR 22's parser and is left out of clamp).
Then a few element types outside that list (ui8, i4, i48, si8, index,
complex<f32>, f8E4M3FN, tf32) on add, abs, intdiv, equal, logical_not,
and every binary op again with both a shape error and an element-type
error, so that the order of the two checks is compared too.

Then MLIR 22's validation pass, as invalid.mlir's RUN line runs it
(scripts/upstream_tosa.py's VALIDATE: -tosa-attach-target with every
profile and extension but int64, -tosa-validate=strict-op-spec-alignment),
against `bcast verify --tosa-validate`: every op meets the types above and
i4, i48, ui8, ui16, ui32, f8E4M3FN and f8E5M2, one type throughout (a
comparison's result i1; tosa.mul's result also i32 and i16; tosa.cast
every pair), with a constant shift and constant zero points, as the pass
wants them.  Only the combinations mlir-opt's verifier accepts go to the
pass (mlir-opt runs no pass on a module that fails to verify); the
messages at the ops must be identical.

Each op's combinations go to one file, one function each; mlir-opt and
`bcast verify` run once per file.  mlir-opt's output goes to a pipe, never
to `-o /dev/null`: LLVM removes its output file when a run fails, and run
as root that removes /dev/null.  For every
combination the error line at the op (FILE:LINE:COL: error: MESSAGE) must
be identical, or absent from both.  Counts are printed; any difference
fails.  Nothing is random: every combination is enumerated.

Usage:
  /usr/bin/python3 tests/diff/test_tosa_element_types.py --bcast BUILD/bcast \
      [--mlir-opt PATH] [--keep DIR]
"""

import itertools
import os
import re
import sys
import time

import common

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "scripts"))
from upstream_tosa import VALIDATE  # noqa: E402

TYPES = ["i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64"]
EXOTIC = ["ui8", "i4", "i48", "si8", "index", "complex<f32>", "f8E4M3FN",
          "tf32"]
UNARY = ["abs", "bitwise_not", "cast", "ceil", "clamp", "clz", "cos", "erf",
         "exp", "floor", "log", "logical_not", "reciprocal", "rsqrt",
         "sigmoid", "sin", "tanh"]
BINARY = ["add", "arithmetic_right_shift", "bitwise_and", "bitwise_or",
          "bitwise_xor", "intdiv", "equal", "greater", "greater_equal",
          "logical_and", "logical_left_shift", "logical_or",
          "logical_right_shift", "logical_xor", "maximum", "minimum", "pow",
          "sub"]
TIMEOUT = 120
# The validation pass's types: TYPES, the other legal ones and some it
# refuses.
VTYPES = TYPES + ["i4", "i48", "ui8", "ui16", "ui32", "f8E4M3FN", "f8E5M2"]


def tensor(elem, shape="2"):
    if shape is None:
        return "tensor<*x%s>" % elem
    return "tensor<%s%s>" % (shape + "x" if shape else "", elem)


def literal(elem, value):
    if elem.startswith("i") or elem.startswith("ui"):
        return "%d : %s" % (value, elem)
    return "%d.0 : %s" % (value, elem)


def attrs_of(op, elem):
    if op == "clamp" and elem == "i1":
        return " {min_val = false, max_val = true}"
    if op == "clamp":
        return " {min_val = %s, max_val = %s}" % (literal(elem, 0),
                                                   literal(elem, 1))
    if op == "arithmetic_right_shift":
        return " {round = false}"
    return ""


class OpFile:
    """One module of functions of one op each; remembers the line of each
    op statement and a label for each.  (One module rather than
    --split-input-file: MLIR's verifier reports every failing op of a
    module, and a module parses ten times faster than as many splits.)"""

    def __init__(self, name):
        self.name = name
        self.chunks = []
        self.cases = []  # (line, col, label)
        self.calls = []  # the arguments of add, per case
        self.line = 1

    def add(self, op, operand_types, result_type, label, attrs="",
            consts=()):
        """consts: the operands (by index) that are zero constants."""
        self.calls.append((op, operand_types, result_type, label, attrs,
                           consts))
        params = ", ".join("%%v%d: %s" % (k, t)
                           for k, t in enumerate(operand_types)
                           if k not in consts)
        body = "".join('  %%v%d = "tosa.const"() <{values = dense<%s> : %s}> '
                       ": () -> %s\n" % (k, zero_of(t), t, t)
                       for k, t in enumerate(operand_types) if k in consts)
        values = ", ".join("%%v%d" % k for k in range(len(operand_types)))
        stmt = "  %%0 = tosa.%s %s%s : (%s) -> %s" % (
            op, values, attrs, ", ".join(operand_types), result_type)
        chunk = ("func.func @f%d(%s) -> %s {\n%s%s\n  return %%0 : %s\n}" %
                 (len(self.chunks), params, result_type, body, stmt,
                  result_type))
        self.cases.append((self.line + 1 + body.count("\n"), 8, label))
        self.chunks.append(chunk)
        self.line += chunk.count("\n") + 1

    def text(self):
        return "\n".join(self.chunks) + "\n"


def zero_of(t):
    elem = t.rsplit("x", 1)[-1].rstrip(">")
    if elem == "i1":
        return "false"
    return "0" if elem.startswith(("i", "ui")) else "0.0"


ERROR_RE = re.compile(r"^(.*?):(\d+):(\d+): error: (.*)$")


def errors_of(stderr, path):
    out = {}
    for line in stderr.split("\n"):
        m = ERROR_RE.match(line)
        if m and m.group(1) == path:
            out.setdefault((int(m.group(2)), int(m.group(3))), []).append(
                m.group(4))
    return out


def build_files():
    files = []
    for op in UNARY:
        f = OpFile(op)
        for a, r in itertools.product(TYPES, TYPES):
            if op == "clamp" and "i1" in (a, r):
                continue
            f.add(op, [tensor(a)], tensor(r), "(%s) -> %s" % (a, r),
                  attrs_of(op, a))
        files.append(f)
    for op in BINARY:
        f = OpFile(op)
        for a, b, r in itertools.product(TYPES, TYPES, TYPES):
            f.add(op, [tensor(a), tensor(b)], tensor(r),
                  "(%s, %s) -> %s" % (a, b, r), attrs_of(op, a))
        files.append(f)

    f = OpFile("mul")
    shift = tensor("i8", "1")
    for a, b, r in itertools.product(TYPES, TYPES, TYPES):
        f.add("mul", [tensor(a), tensor(b), shift], tensor(r),
              "(%s, %s, shift i8) -> %s" % (a, b, r))
    for s in TYPES:
        for shape in ["1", "", "2", "?", None]:
            st = tensor(s, shape)
            f.add("mul", [tensor("i32"), tensor("i32"), st], tensor("i32"),
                  "(i32, i32, shift %s) -> i32" % st)
    files.append(f)

    f = OpFile("negate")
    for a, r in itertools.product(TYPES, TYPES):
        z = tensor(a, "1")
        f.add("negate", [tensor(a), z, z], tensor(r),
              "(%s, zp %s, zp %s) -> %s" % (a, a, a, r))
    for a, z1, z2 in itertools.product(TYPES, TYPES, TYPES):
        f.add("negate", [tensor(a), tensor(z1, "1"), tensor(z2, "1")],
              tensor(a), "(%s, zp %s, zp %s) -> %s" % (a, z1, z2, a))
    for a in TYPES:
        for shape in ["", "2", "?", None]:
            z = tensor(a, shape)
            f.add("negate", [tensor(a), z, z], tensor(a),
                  "(%s, zp %s, zp %s) -> %s" % (a, z, z, a))
    files.append(f)

    f = OpFile("select")
    for a, b, r in itertools.product(TYPES, TYPES, TYPES):
        f.add("select", [tensor("i1"), tensor(a), tensor(b)], tensor(r),
              "(i1, %s, %s) -> %s" % (a, b, r))
    for c in TYPES:
        f.add("select", [tensor(c), tensor("f32"), tensor("f32")],
              tensor("f32"), "(%s, f32, f32) -> f32" % c)
    files.append(f)

    f = OpFile("exotic")
    for e in EXOTIC:
        f.add("add", [tensor(e), tensor(e)], tensor(e), "add %s" % e)
        f.add("abs", [tensor(e)], tensor(e), "abs %s" % e)
        f.add("intdiv", [tensor(e), tensor(e)], tensor(e), "intdiv %s" % e)
        f.add("equal", [tensor(e), tensor(e)], tensor("i1"), "equal %s" % e)
        f.add("logical_not", [tensor(e)], tensor(e), "logical_not %s" % e)
    files.append(f)

    # Shape and element-type errors together: which check comes first.
    f = OpFile("order")
    for op in BINARY + ["mul", "select"]:
        for a, r in [("i32", "f32"), ("f32", "i32"), ("i8", "i8"),
                     ("i1", "i1")]:
            if op == "mul":
                ops = [tensor(a, "2"), tensor(a, "3"), tensor("i8", "1")]
            elif op == "select":
                ops = [tensor("i1", "2"), tensor(a, "3"), tensor(r, "2")]
            else:
                ops = [tensor(a, "2"), tensor(r, "3")]
            f.add(op, ops, tensor(r, "3"), "%s shapes 2/3, %s/%s" % (op, a, r),
                  attrs_of(op, a))
            f.add(op, ops, tensor(r, "1x3"),
                  "%s rank 2 result, %s/%s" % (op, a, r), attrs_of(op, a))
    for op in UNARY + ["negate"]:
        if op == "clamp":
            continue
        for a, r in [("i32", "f32"), ("f32", "f32"), ("i1", "i1")]:
            ops = [tensor(a, "2")]
            if op == "negate":
                ops += [tensor(a, "1")] * 2
            f.add(op, ops, tensor(r, "3"), "%s shapes 2/3, %s/%s" % (op, a, r))
    files.append(f)
    return files


def judge_file(args, tally, f, path, mlir_flags, bcast_flags, what):
    """Writes f to path, runs mlir-opt and `bcast verify` with the flags
    and compares the errors at each case's op; (counts, mlir-opt's errors,
    bcast's, bcast's exit status), or None when a tool failed.  counts:
    [combinations, mlir-opt refusals, agreements]."""
    with open(path, "w") as out:
        out.write(f.text())
    mrc, _, mout = common.run([args.mlir_opt, "--mlir-disable-threading"] +
                              mlir_flags + [path], timeout=TIMEOUT)
    brc, _, bout = common.run([args.bcast, "verify"] + bcast_flags + [path],
                              timeout=TIMEOUT)
    if mrc is None or brc is None or brc < 0 or brc >= 128:
        tally.fail("%s: mlir-opt exit %s, bcast exit %s" % (f.name, mrc, brc),
                   bout[-2000:])
        return None
    mer, ber = errors_of(mout, path), errors_of(bout, path)
    counts = [0, 0, 0]
    for line, col, label in f.cases:
        want, got = mer.get((line, col), []), ber.get((line, col), [])
        counts[0] += 1
        counts[1] += bool(want)
        counts[2] += tally.check(want == got, "%s %s: %s differ" %
                                 (f.name, label, what),
                                 "mlir-opt: %s\nbcast:    %s" %
                                 (want or "(accepts)", got or "(accepts)"))
    return counts, mer, ber, brc


def build_validate_files():
    """The validation pass's combinations (see the docstring); the test
    keeps those mlir-opt's verifier accepts."""
    files = []
    for op in UNARY + BINARY + ["negate", "select", "mul"]:
        f = OpFile("validate_" + op)
        pairs = itertools.product(VTYPES, VTYPES) if op == "cast" else \
            [(t, t) for t in VTYPES]
        for a, r in pairs:
            if op in ("equal", "greater", "greater_equal"):
                r = "i1"
            consts = ()
            if op in UNARY:
                ops = [tensor(a)]
            elif op == "negate":
                ops, consts = [tensor(a)] + [tensor(a, "1")] * 2, (1, 2)
            elif op == "select":
                ops = [tensor("i1"), tensor(a), tensor(a)]
            elif op == "mul":
                ops, consts = [tensor(a)] * 2 + [tensor("i8", "1")], (2,)
            else:
                ops = [tensor(a)] * 2
            for res in ([r, "i32", "i16"] if op == "mul" else [r]):
                f.add(op, ops, tensor(res), "(%s) -> %s" % (a, res),
                      attrs_of(op, a), consts)
        files.append(f)
    return files


def run_validate(args, tally, tmpdir):
    """(combinations, mlir-opt refusals, agreements) of the validation
    pass; differences go to tally."""
    combos = rejected = agree = 0
    for f in build_validate_files():
        path = os.path.join(tmpdir, f.name + ".mlir")
        with open(path, "w") as out:
            out.write(f.text())
        # The verifier's verdicts first: the pass sees only what verifies.
        _, _, plain = common.run([args.mlir_opt, "--mlir-disable-threading",
                                  path], timeout=TIMEOUT)
        refused = {line for line, _ in errors_of(plain, path)}
        kept = OpFile(f.name)
        for (line, _, _), call in zip(f.cases, f.calls):
            # The op's line and its constants' lines.
            if not refused & set(range(line - len(call[5]), line + 1)):
                kept.add(*call)
        got = judge_file(args, tally, kept, path, VALIDATE,
                         ["--tosa-validate"], "messages")
        if got:
            combos, rejected, agree = [a + b for a, b in
                                       zip((combos, rejected, agree), got[0])]
    return combos, rejected, agree


def main():
    ap = common.parser(__doc__.split("\n")[0])
    common.add_mlir_opt_args(ap)
    args = common.parse_args(ap)
    if common.tools_missing(args):
        return 1
    start = time.time()
    tally = common.Tally(most_shown=20)
    combos = agree = rejected = 0
    with common.work_dir(args.keep, "bcast-tosa-elem-") as tmpdir:
        for f in build_files():
            path = os.path.join(tmpdir, f.name + ".mlir")
            got = judge_file(args, tally, f, path, [], [], "verdicts")
            if not got:
                continue
            (n, refused, agreed), mer, ber, brc = got
            combos, rejected, agree = combos + n, rejected + refused, agree + agreed
            known = {(line, col) for line, col, _ in f.cases}
            any_err = refused > 0
            for tool, table in (("mlir-opt", mer), ("bcast", ber)):
                stray = sorted(k for k in table if k not in known)
                tally.check(not stray, "%s: %s reported errors away from the "
                            "ops" % (f.name, tool),
                            "\n".join("%d:%d: %s" % (k[0], k[1], table[k])
                                      for k in stray[:5]))
            tally.check(brc == (1 if any_err else 0),
                        "%s: bcast exit status %s, expected %d" %
                        (f.name, brc, 1 if any_err else 0))
        vcombos, vrejected, vagree = run_validate(args, tally, tmpdir)
    print("combinations %d (mlir-opt rejects %d), agreements %d, "
          "differences %d" % (combos, rejected, agree, combos - agree))
    print("-tosa-validate: combinations %d (the pass refuses %d), "
          "agreements %d, differences %d; runtime %.1f s" %
          (vcombos, vrejected, vagree, vcombos - vagree, time.time() - start))
    return tally.summary()


if __name__ == "__main__":
    sys.exit(main())
