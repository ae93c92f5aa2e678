#!/usr/bin/python3
"""bcast verify and bcast lower meet MLIR files as engineers write them.

1. broadcast_dimensions (random, seeded).  CHLO-style binary ops
   (chlo.broadcast_add %a, %b {broadcast_dimensions = array<i64: 0>}) with
   valid and invalid maps in every attribute form (array<i64: ...>,
   dense<[...]> : tensor<Nxi64>, the splat dense<d> : tensor<1xi64>,
   custom and generic form, dictionary and properties).  The expected
   verdict comes from the XLA broadcasting document's rule, computed here:
   the lower-rank operand's dims go to the listed result dims (one entry
   per dim of the lower rank, strictly increasing, within the higher rank;
   equal ranks take none or the identity), the other dims become 1, then
   size-1 dims broadcast both ways; the result type must be that shape.
   An invalid map is reported at the attribute (its line and column), a
   shape error at the op.  mlir-opt 22 does not register CHLO, so the rule
   is the oracle.  Fixed cases add malformed attribute text, dynamic dims,
   one- and three-operand ops.
2. Profiles per op: tosa.* ops follow TOSA's rules whatever --profile
   says, --op-profile maps them (last matching rule wins), an exact name
   selects an op for checking; the mlir profile's verdict on a mapped op
   equals mlir-opt 22's verdict on "test.broadcastable" with the same types.
3. lower -o FILE: the file holds what stdout would; "-o -" is stdout; a
   failing lowering leaves an existing FILE untouched and no temporary file.
4. lower reports every failing op: its stderr equals verify's for the same
   file (same errors, notes, order), exit 1, nothing on stdout.
"""
import os
import random
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

DYN = "?"  # a dynamic dim


def dims_text(shape):
    return "".join(str(d) + "x" for d in shape)


def ttype(shape):
    return "tensor<%sf32>" % dims_text(shape)


def combine(a, b):
    """One dim pair after placement: equal, or one of them 1; None when
    incompatible.  '?' with 1 stays '?', '?' with n > 1 is n."""
    if a == DYN and b == DYN:
        return DYN
    if a == DYN:
        return DYN if b == 1 else b
    if b == DYN:
        return DYN if a == 1 else a
    if a == b or b == 1:
        return a
    if a == 1:
        return b
    return None


def xla_rule(lhs, rhs, dims):
    """('ok', shape) | ('attr', why) | ('shape', why) under the document's
    rule."""
    low, high = (lhs, rhs) if len(lhs) < len(rhs) else (rhs, lhs)
    if len(low) != len(high):
        if len(dims) != len(low):
            return "attr", "count"
        if any(d < 0 or d >= len(high) for d in dims):
            return "attr", "range"
        if any(dims[i] <= dims[i - 1] for i in range(1, len(dims))):
            return "attr", "order"
        placed = [1] * len(high)
        for i, d in enumerate(dims):
            placed[d] = low[i]
        low = placed
    elif dims and list(dims) != list(range(len(low))):
        return "attr", "identity"
    out = [combine(h, p) for h, p in zip(high, low)]
    if any(o is None for o in out):
        return "shape", "incompatible"
    return "ok", out


def compatible(want, result):
    return len(want) == len(result) and all(
        a == DYN or b == DYN or a == b for a, b in zip(want, result))


def attr_text(dims, form, rnd):
    if form == "array":
        return "array<i64%s>" % (": " + ", ".join(map(str, dims)) if dims else "")
    if form == "splat" and len(dims) == 1:
        return "dense<%d> : tensor<1xi64>" % dims[0]
    return "dense<[%s]> : tensor<%dxi64>" % (", ".join(map(str, dims)), len(dims))


def op_line(name, lhs, rhs, result, attr, generic, props):
    """The statement, and the columns of the op name and the attribute key."""
    sig = "(%s, %s) -> %s" % (ttype(lhs), ttype(rhs), ttype(result))
    entry = "broadcast_dimensions = %s" % attr
    if generic:
        dict_ = ("<{%s}>" if props else "{%s}") % entry
        head = '  %%r = "%s"(%%a, %%b) ' % name
        text = head + dict_ + " : " + sig
        op_col = text.index('"') + 1
    else:
        text = "  %%r = %s %%a, %%b {%s} : %s" % (name, entry, sig)
        op_col = text.index(name) + 1
    return text, op_col, text.index("broadcast_dimensions") + 1


def write_file(tmp, name, lines):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def errors_by_line(err, path):
    """{line: (column, message)} of the error lines about PATH."""
    return {int(m.group(1)): (int(m.group(2)), m.group(3)) for m in
            re.finditer(r"^%s:(\d+):(\d+): error: (.*)$" % re.escape(path), err, re.M)}


def random_case(rnd):
    """lhs, rhs, dims, result, expected verdict kind."""
    high_rank = rnd.randint(1, 4)
    high = [rnd.choice([1, 2, 3, 4, 5]) for _ in range(high_rank)]
    low_rank = rnd.randint(0, high_rank)
    dims = sorted(rnd.sample(range(high_rank), low_rank))
    if low_rank == high_rank and rnd.random() < 0.5:
        dims = []
    low = [high[d] for d in dims] if dims else list(high[:low_rank])
    # Perturb sizes: some 1s, some sizes that may clash.
    low = [rnd.choice([v, v, 1, rnd.randint(1, 5)]) for v in low]
    high = [rnd.choice([v, v, 1]) for v in high]
    # Break the map now and then.
    r = rnd.random()
    if r < 0.08 and dims:
        dims = dims[:-1]                                # too few
    elif r < 0.16:
        dims = dims + [rnd.randint(0, high_rank)]       # too many / dup
    elif r < 0.24 and dims:
        dims[rnd.randrange(len(dims))] = rnd.choice([-1, high_rank, high_rank + 3])
    elif r < 0.32 and len(dims) >= 2:
        dims[0], dims[1] = dims[1], dims[0]             # not increasing
    elif r < 0.36 and len(dims) >= 2:
        dims[1] = dims[0]                               # repeated
    lhs, rhs = (low, high) if rnd.random() < 0.5 else (high, low)
    kind, val = xla_rule(lhs, rhs, dims)
    if kind == "ok":
        result = list(val)
        if rnd.random() < 0.25:                         # a wrong result type
            if result and rnd.random() < 0.7:
                k = rnd.randrange(len(result))
                result[k] = (result[k] or 1) + rnd.randint(1, 3)
            else:
                result = result + [2]
    else:
        result = list(high)
    return lhs, rhs, dims, result, kind, val


def part1_random(args, tally, tmp):
    rnd = random.Random(args.seed)
    lines, expect = ["func.func @f() {"], {}
    n = args.scaled(400)
    for k in range(n):
        lhs, rhs, dims, result, kind, val = random_case(rnd)
        form = rnd.choice(["array", "dense", "splat"])
        generic = rnd.random() < 0.4
        props = generic and rnd.random() < 0.5
        name = rnd.choice(["chlo.broadcast_add", "chlo.broadcast_multiply",
                           "chlo.broadcast_maximum"])
        text, op_col, attr_col = op_line(name, lhs, rhs, result,
                                         attr_text(dims, form, rnd), generic, props)
        line_no = len(lines) + 1
        lines.append(text)
        if kind == "ok":
            verdict = ("pass", None) if compatible(val, result) else ("shape", op_col)
        elif kind == "attr":
            verdict = ("attr", attr_col)
        else:
            verdict = ("shape", op_col)
        expect[line_no] = (verdict, text)
    lines.append("  return\n}")
    path = write_file(tmp, "dims.mlir", lines)
    rc, _, err = common.run([args.bcast, "verify", path], timeout=60)
    got = errors_by_line(err, path)
    n_fail = sum(1 for v in expect.values() if v[0][0] != "pass")
    tally.check(rc == (1 if n_fail else 0), "random broadcast_dimensions: exit %s" % rc, err[-2000:])
    for line_no, ((kind, col), text) in sorted(expect.items()):
        g = got.get(line_no)
        if kind == "pass":
            tally.check(g is None, "line %d should verify" % line_no, "%s\n%s" % (text, g))
            continue
        ok = g is not None and g[0] == col
        if ok and kind == "attr":
            ok = "invalid broadcast_dimensions" in g[1]
        if ok and kind == "shape":
            ok = "invalid broadcast_dimensions" not in g[1]
        tally.check(ok, "line %d: expected a %s error at column %d" % (line_no, kind, col),
                    "%s\n%s" % (text, g))


FIXED = [
    # (signature types, attribute value, expected: pass | attr | shape)
    (([4], [4, 3], [4, 3]), "array<i64: 0>", "pass"),
    (([3], [4, 3], [4, 3]), "array<i64: 1>", "pass"),
    (([4], [4, 3], [4, 3]), "array<i64: 1>", "shape"),
    (([2, 3, 4], [3, 4], [2, 3, 4]), "dense<[1, 2]> : tensor<2xi64>", "pass"),
    (([2, 3, 4], [3, 4], [2, 3, 4]), "array<i64: 2, 1>", "attr"),
    (([2, 3, 4], [3, 4], [2, 3, 4]), "array<i64: 1, 1>", "attr"),
    (([4], [4, 3], [4, 3]), "array<i64: 0, 1>", "attr"),
    (([4], [4, 3], [4, 3]), "array<i64>", "attr"),
    (([4], [4, 3], [4, 3]), "array<i64: 2>", "attr"),
    (([4], [4, 3], [4, 3]), "array<i64: -1>", "attr"),
    (([4], [4, 3], [4, 3]), "array<i64 0>", "attr"),
    (([4], [4, 3], [4, 3]), "array<i64: 0,>", "attr"),
    (([4], [4, 3], [4, 3]), "array<i64: x>", "attr"),
    (([4], [4, 3], [4, 3]), "dense<[0]>", "attr"),
    (([4], [4, 3], [4, 3]), "dense<[0]> : tensor<2xi64>", "attr"),
    (([4], [4, 3], [4, 3]), "dense<0> : tensor<1xi64>", "pass"),
    (([4], [4, 3], [4, 3]), "[0]", "attr"),
    (([4, 3], [4, 3], [4, 3]), "array<i64: 0, 1>", "pass"),
    (([4, 3], [4, 3], [4, 3]), "array<i64: 1, 0>", "attr"),
    (([4, 1], [1, 3], [4, 3]), "array<i64>", "pass"),
    (([], [4, 3], [4, 3]), "array<i64>", "pass"),
    (([], [4, 3], [4, 3]), "array<i64: 0>", "attr"),
    (([DYN], [4, DYN], [4, DYN]), "array<i64: 0>", "pass"),
    (([DYN], [4, DYN], [DYN, DYN]), "array<i64: 0>", "pass"),
    (([DYN], [4, 3], [4, 5]), "array<i64: 0>", "shape"),
    (([4], [4, 3], [3, 4, 3]), "array<i64: 0>", "shape"),
]


# Single-operand broadcast_in_dim against StableHLO's spec (constraints
# C1-C6 of broadcast_in_dim) and verifier (hlo::verifyBroadcastInDimOp),
# whose messages bcast prints; stablehlo-opt is not installed, so the rule
# cited on each line is the oracle.  mhlo.broadcast_in_dim allows dynamic
# result dims and follows XLA's InferBroadcastShape there.
SHLO = '  %%r = "%s"(%%%s) {broadcast_dimensions = %s} : (%s) -> %s'
OPERAND_NAME = {(3,): "a", (1, 3): "b", (DYN,): "d"}


def bid(dims, operand, result, op="stablehlo"):
    """One OP.broadcast_in_dim statement of an f32 OPERAND shape to RESULT;
    DIMS is a list for array<i64: ...>, or the attribute's text."""
    attr = dims if isinstance(dims, str) else "array<i64: %s>" % ", ".join(map(str, dims))
    return SHLO % (op + ".broadcast_in_dim", OPERAND_NAME[tuple(operand)], attr,
                   ttype(operand), ttype(result))


BROADCAST_IN_DIM = [
    # C5 holds: 3 onto the result's dim 1 of size 3.
    (bid([1], [3], [4, 3]), "pass", None),
    # C5: 3 onto a dim of size 4.
    (bid([0], [3], [4, 3]), "shape",
     "'stablehlo.broadcast_in_dim' op size of operand dimension 0 (3) is not equal to 1 or size of result dimension 0 (4)"),
    # C2: two entries for an operand of rank 1.
    (bid([0, 1], [3], [4, 3]), "attr",
     "'stablehlo.broadcast_in_dim' op broadcast_dimensions size (2) does not match operand rank (1)"),
    # C3: too large and negative are the same failure.
    (bid([5], [3], [4, 3]), "attr", "broadcast_dimensions contains invalid value 5 for result with rank 2"),
    (bid([-1], [3], [4, 3]), "attr", "broadcast_dimensions contains invalid value -1 for result with rank 2"),
    (bid("dense<-3> : tensor<1xi64>", [3], [4, 3]), "attr",
     "broadcast_dimensions contains invalid value -3 for result with rank 2"),
    # C4 (checked before C3 by the verifier): a repeated entry.
    (bid([1, 1], [1, 3], [4, 3]), "attr", "broadcast_dimensions should not have duplicates"),
    (bid([5, 5], [1, 3], [4, 3]), "attr", "broadcast_dimensions should not have duplicates"),
    # C5 skips a dynamic operand dim; C2-C4 allow any order (a transpose).
    (bid([1], [DYN], [4, 3]), "pass", None),
    (bid([1, 0], [1, 3], [3, 4]), "pass", None),
    # The result is HLO_StaticShapeTensor: a dynamic result dim fails even
    # where C5 would hold.
    (bid([1], [3], [DYN, 3]), "shape", "is not static"),
    (bid([1], [3], [4, DYN]), "shape", "is not static"),
    # XLA (mhlo): a static size other than 1 onto a dynamic dim fails; 1
    # onto a dynamic dim and a dynamic dim onto a static one pass.
    (bid([1], [3], [4, DYN], "mhlo"), "shape",
     "size of operand dimension 0 (3) is not equal to 1 or size of result dimension 1 (?)"),
    (bid([0, 1], [1, 3], [DYN, 3], "mhlo"), "pass", None),
    (bid([1], [DYN], [4, 3], "mhlo"), "pass", None),
]


def part1_fixed(args, tally, tmp):
    lines, expect = ["func.func @g() {"], {}
    for (lhs, rhs, result), attr, want in FIXED:
        text, op_col, attr_col = op_line("chlo.broadcast_add", lhs, rhs, result, attr, False, False)
        expect[len(lines) + 1] = (want, op_col if want == "shape" else attr_col, text)
        lines.append(text)
    # Unit attribute, three operands (an op --op selects), one operand.
    # (text, verdict, text the error line must hold or None).
    extra = [
        ('  %r = chlo.broadcast_add %a, %b {broadcast_dimensions} : (tensor<4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>', "attr", None),
        ('  %r = my.op3 %a, %b, %c {broadcast_dimensions = array<i64: 0>} : (tensor<4xf32>, tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>', "attr", None),
    ] + BROADCAST_IN_DIM
    for text, want, message in extra:
        name = text.split("= ", 1)[1].split(" ", 1)[0].split("(")[0]
        col = text.index("broadcast_dimensions") + 1 if want == "attr" else text.index(name) + 1
        expect[len(lines) + 1] = (want, col, text, message)
        lines.append(text)
    lines.append("  return\n}")
    path = write_file(tmp, "fixed.mlir", lines)
    rc, _, err = common.run([args.bcast, "verify", "--op", "my.op3", "--op",
                             "stablehlo.broadcast_in_dim", "--op",
                             "mhlo.broadcast_in_dim", path])
    got = errors_by_line(err, path)
    tally.check(rc == 1, "fixed cases: exit %s" % rc, err)
    for line_no, entry in sorted(expect.items()):
        want, col, text = entry[:3]
        message = entry[3] if len(entry) > 3 else None
        g = got.get(line_no)
        if want == "pass":
            tally.check(g is None, "fixed line %d should verify" % line_no, "%s\n%s" % (text, g))
        elif message is not None:
            ok = g is not None and g[0] == col and message in g[1]
            tally.check(ok, "fixed line %d: expected an error at column %d "
                        "holding %r" % (line_no, col, message),
                        "%s\n%s" % (text, g))
        else:
            ok = g is not None and g[0] == col and (
                ("invalid broadcast_dimensions" in g[1]) == (want == "attr"))
            tally.check(ok, "fixed line %d: expected a %s error at column %d" % (line_no, want, col),
                        "%s\n%s" % (text, g))


def fixed_consistent(tally):
    """The FIXED table's expectations are the rule's (checked on the rows
    whose attribute is well-formed)."""
    for (lhs, rhs, result), attr, want in FIXED:
        m = re.fullmatch(r"array<i64(?:: (-?\d+(?:, -?\d+)*))?>|dense<\[(-?\d+(?:, -?\d+)*)?\]> : tensor<(\d+)xi64>|dense<(-?\d+)> : tensor<1xi64>", attr)
        if not m:
            continue
        if m.group(3) is not None and int(m.group(3)) != len([x for x in (m.group(2) or "").split(",") if x.strip()]):
            continue
        body = m.group(1) or m.group(2) or m.group(4) or ""
        dims = [int(x) for x in body.split(",") if x.strip()]
        kind, val = xla_rule(lhs, rhs, dims)
        if kind == "ok":
            kind = "pass" if compatible(val, result) else "shape"
        tally.check(kind == want, "FIXED row %s %s: the rule says %s" % ((lhs, rhs, result), attr, kind))


def verify_lines(args, path, flags):
    rc, out, err = common.run([args.bcast, "verify"] + flags + [path])
    return rc, errors_by_line(err, path), err


PROFILES = """func.func @f(%a: tensor<3xf32>, %b: tensor<2x3xf32>, %c: tensor<3xi32>) {
  %0 = tosa.add %a, %b : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = "test.broadcastable"(%a, %b) : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = mydialect.add %c, %c : (tensor<3xi32>, tensor<3xi32>) -> tensor<1x3xi32>
  %3 = tosa.sub %a, %b : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}
"""


def part2_profiles(args, tally, tmp):
    path = write_file(tmp, "profiles.mlir", PROFILES.splitlines())
    # (flags, lines expected to fail); mydialect.add is checked only when a
    # rule names it.  The trait document rejects line 4's result rank, MLIR
    # 22 accepts it (checked against mlir-opt below).
    cases = [
        ([], {2, 5}),
        (["--profile", "numpy"], {2, 5}),
        (["--profile", "trait"], {2, 5}),
        (["--op-profile", "tosa.*=trait"], set()),
        (["--op-profile", "tosa.*=trait", "--op-profile", "tosa.add=tosa"], {2}),
        (["--op-profile", "tosa.add=tosa", "--op-profile", "tosa.*=trait"], set()),
        (["--op-profile", "mydialect.add=mlir"], {2, 5}),
        (["--op-profile", "mydialect.add=trait"], {2, 4, 5}),
        (["--op-profile", "*=numpy"], set()),
        (["--op-profile", "*=tosa"], {2, 3, 5}),
        (["--op-profile", " tosa.sub = numpy "], {2}),
    ]
    for flags, want in cases:
        rc, errs, err = verify_lines(args, path, flags)
        tally.check(set(errs) == want and rc == (1 if want else 0),
                    "verify %s: failing lines %s, expected %s (exit %s)" %
                    (" ".join(flags), sorted(errs), sorted(want), rc), err)
    for bad in ["tosa*=trait", "x=bogus", "novalue", "=trait", "*.add=trait", "a.*b=tosa"]:
        for cmd in (["verify"], ["lower"]):
            rc, _, err = common.run([args.bcast] + cmd + ["--op-profile", bad, path])
            tally.check(rc == 2 and "--op-profile" in err,
                        "%s --op-profile %r: exit %s, expected 2" % (cmd[0], bad, rc), err)
    # The mlir profile on a mapped op agrees with mlir-opt on the same types.
    if common.executable(common.MLIR_OPT):
        sigs = ["(tensor<3xi32>, tensor<3xi32>) -> tensor<1x3xi32>",
                "(tensor<?xi32>, tensor<?xi32>) -> tensor<4xi32>",
                "(tensor<3xi32>, tensor<2xi32>) -> tensor<3xi32>",
                "(tensor<2x1xi32>, tensor<3xi32>) -> tensor<2x3xi32>"]
        for sig in sigs:
            args_t = sig.split(" -> ")[0][1:-1].split(", ")
            fn = ("func.func @f(%%a: %s, %%b: %s) {\n  %%0 = OP : %s\n  return\n}\n" %
                  (args_t[0], args_t[1], sig))
            mine = fn.replace("OP", "mydialect.add %a, %b")
            ref = fn.replace("OP", '"test.broadcastable"(%a, %b)')
            r = common.mlir_opt(text=ref)
            b = common.bcast_text(args.bcast, ["verify", "--op-profile", "mydialect.add=mlir", "-"], mine)
            tally.check((r.returncode == 0) == (b.returncode == 0),
                        "mydialect.add=mlir on %s: mlir-opt exit %d, bcast exit %d" %
                        (sig, r.returncode, b.returncode), r.stderr + b.stderr)
    else:
        print("note: %s missing: the mlir-profile comparison is skipped" % common.MLIR_OPT)


LOWER_OK = """func.func @f(%a: tensor<3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tosa.add %a, %b : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
"""


def part3_lower_o(args, tally, tmp):
    src = os.path.join(tmp, "in.mlir")
    with open(src, "w") as f:
        f.write(LOWER_OK)
    flags = ["--op-profile", "tosa.*=trait"]
    ref = common.run([args.bcast, "lower"] + flags + [src])
    tally.check(ref[0] == 0 and "linalg.generic" in ref[1], "lower to stdout", ref[2])
    out = os.path.join(tmp, "out.mlir")
    rc, so, se = common.run([args.bcast, "lower"] + flags + ["-o", out, src])
    body = open(out).read() if os.path.exists(out) else None
    tally.check(rc == 0 and so == "" and body == ref[1], "lower -o FILE writes stdout's text", se)
    rc, so, se = common.run([args.bcast, "lower"] + flags + ["-o", "-", src])
    tally.check(rc == 0 and so == ref[1], "lower -o - writes to stdout", se)
    # A failing lowering (tosa rules: no rank expansion) keeps OUT as it was.
    with open(out, "w") as f:
        f.write("keep me\n")
    rc, so, se = common.run([args.bcast, "lower", "-o", out, src])
    tally.check(rc == 1 and so == "" and open(out).read() == "keep me\n",
                "a failing lower -o leaves the file alone (exit %s)" % rc, se)
    fresh = os.path.join(tmp, "fresh.mlir")
    rc, _, se = common.run([args.bcast, "lower", "-o", fresh, src])
    tally.check(rc == 1 and not os.path.exists(fresh), "a failing lower -o creates no file", se)
    leftovers = [n for n in os.listdir(tmp) if n.startswith(".bcast-tmp")]
    tally.check(not leftovers, "no temporary files are left", str(leftovers))
    # The output may replace the input (it is read first).
    copy = os.path.join(tmp, "same.mlir")
    shutil.copy(src, copy)
    rc, _, se = common.run([args.bcast, "lower"] + flags + ["-o", copy, copy])
    tally.check(rc == 0 and open(copy).read() == ref[1], "lower -o may name its input", se)
    rc, _, se = common.run([args.bcast, "lower", "-o", os.path.join(tmp, "no", "dir.mlir")] + flags + [src])
    tally.check(rc == 2 and "lower:" in se, "lower -o into a missing directory: exit %s" % rc, se)
    rc, _, se = common.run([args.bcast, "lower", src, "-o"])
    tally.check(rc == 2, "lower -o without a file: exit %s" % rc, se)


# Lines 2, 4, 5 and 7 fail under the default profile.
MANY = """func.func @f(%a: tensor<3xf32>, %b: tensor<2x3xf32>, %c: tensor<2x3xf32>, %s: tensor<1xi8>) -> tensor<2x3xf32> {
  %0 = tosa.add %a, %b : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = tosa.sub %b, %c : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = tosa.maximum %b, %c : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x4xf32>
  %3 = tosa.mul %a, %b, %s : (tensor<3xf32>, tensor<2x3xf32>, tensor<1xi8>) -> tensor<2x3xf32>
  %4 = tosa.exp %b : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %5 = tosa.minimum %b, %c : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
  return %1 : tensor<2x3xf32>
}
"""


def part4_all_failures(args, tally, tmp):
    path = write_file(tmp, "many.mlir", MANY.splitlines())
    for flags, lines in [([], [2, 4, 5, 7]), (["--op-profile", "tosa.*=trait"], [4, 7]),
                         (["--op-profile", "tosa.add=numpy"], [4, 5, 7])]:
        vrc, _, verr = common.run([args.bcast, "verify"] + flags + [path])
        lrc, lout, lerr = common.run([args.bcast, "lower"] + flags + [path])
        got = sorted(errors_by_line(lerr, path))
        tally.check(got == lines, "lower %s reports lines %s, expected %s" %
                    (" ".join(flags), got, lines), lerr)
        tally.check(lrc == 1 and vrc == 1 and lout == "",
                    "lower %s: exit %s (verify %s), stdout %d bytes" %
                    (" ".join(flags), lrc, vrc, len(lout)))
        tally.check(lerr == verr, "lower %s: stderr equals verify's" % " ".join(flags),
                    "verify:\n%slower:\n%s" % (verr, lerr))


def main():
    ap = common.parser(__doc__, seed=lambda: random.SystemRandom().randrange(1 << 31))
    args = common.parse_args(ap)
    print("seed %d (replay: %s --bcast %s --seed %d)" % (args.seed, sys.argv[0], args.bcast, args.seed))
    tally = common.Tally(most_shown=20, width=300)
    tmp = tempfile.mkdtemp(prefix="bcast-dims-")
    try:
        fixed_consistent(tally)
        part1_random(args, tally, tmp)
        part1_fixed(args, tally, tmp)
        part2_profiles(args, tally, tmp)
        part3_lower_o(args, tally, tmp)
        part4_all_failures(args, tally, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return tally.summary("replay: %s --bcast %s --seed %d" % (sys.argv[0], args.bcast, args.seed))


if __name__ == "__main__":
    sys.exit(main())
