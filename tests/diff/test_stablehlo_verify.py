#!/usr/bin/python3
"""`bcast verify` on StableHLO and CHLO broadcasting ops (issue 21), against
the annotated cases of tests/data/stablehlo/.

The cases are written from the StableHLO specification's numbered
constraints and from StableHLO's and CHLO's own verifiers; their
`expected-error` texts are StableHLO's and CHLO's messages (each file's
header says where they come from).  No stablehlo-opt exists here: the
annotations are the oracle.

1. Every file passes `bcast verify --verify-diagnostics` (every expected
   diagnostic produced on its line, nothing else), and plain `bcast verify`
   exits 1 exactly when the file expects an error.
2. Counts: `bcast verify --summary` (text and JSON) of each file counts
   every broadcasting op of the file as checked (stablehlo ops without any
   --op: they are selected by default), the ops the annotations expect to
   fail as failed, and the ops annotated with a "cannot check" remark as
   such.
3. "cannot check": the ops bcast does not model (other encodings than
   #stablehlo.bounds, element types StableHLO does not name) get a remark
   "cannot check: REASON" at the op and exit 0; under --strict the same ops
   are errors (exit 1), at the same places.
4. --format json for one failing op and one "cannot check" op.
5. CHLO's lenient reading of an illegal broadcast_dimensions is the
   default; --chlo-rule xla makes those ops errors.
6. Selection: an invalid stablehlo.broadcast_in_dim next to a valid CHLO
   op is checked and fails without --op; --no-dialect stablehlo leaves it
   out and counts it as not checked.

Usage:
  /usr/bin/python3 tests/diff/test_stablehlo_verify.py --bcast BUILD/bcast
"""

import glob
import json
import os
import re
import sys
import tempfile

import common

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
DATA = os.path.join(ROOT, "tests", "data", "stablehlo")
# The chunk splitting, op finding and annotation reading of the conformance
# measurement, so both read MLIR test files the same way.
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import upstream_stablehlo as upstream  # noqa: E402

LOCATED = re.compile(r"^(.*?):(\d+):(\d+): (error|warning|note|remark): (.*)$")
SUMMARY = re.compile(r"(\d+) ops? checked, (\d+) failed(?:, (\d+) cannot check)?")
CANNOT = "cannot check"
# A "cannot check" remark, with or without MLIR's "'OP' op " in front.
CANNOT_MESSAGE = re.compile(r"^(?:'[\w.]+' op )?cannot check: \S")


def run(argv):
    return common.run(argv, timeout=120)


def located(err, path):
    """[(line, col, severity, message)] of stderr's lines about PATH."""
    out = []
    for line in err.split("\n"):
        m = LOCATED.match(line)
        if m and m.group(1) == path:
            out.append((int(m.group(2)), int(m.group(3)), m.group(4), m.group(5)))
    return out


def expectations(path):
    """What the annotations of PATH expect: {"ops": {line: name},
    "failed": number of ops expected to fail, "cannot": lines of ops
    expected to get a "cannot check" remark}.  An error annotated on a line
    without an op (CHLO's NumPy broadcast reports at an operand)
    fails the op of its chunk."""
    with open(path) as f:
        text = f.read()
    ops, failed, cannot = {}, 0, []
    for start, lines in upstream.split_chunks(text):
        chunk_ops = upstream.ops_in(start, lines, upstream.BROADCAST_OP)
        ops.update(chunk_ops)
        notes = upstream.annotations(start, lines)
        errors = {t for _, kind, t, _ in notes if kind == "error"}
        on_ops = errors & set(chunk_ops)
        failed += len(on_ops) + (1 if errors - on_ops else 0)
        cannot += [t for _, kind, t, msg in notes
                   if kind == "remark" and CANNOT in msg and t in chunk_ops]
    return {"ops": ops, "failed": failed, "cannot": sorted(cannot)}


def check_file_conventions(tally, path, text):
    name = os.path.basename(path)
    head = " ".join(l[2:].strip() for l in text.split("\n\n")[0].split("\n"))
    tally.check("Apache-2.0 WITH LLVM-exception" in head and "3c9301c11" in head,
                "%s: the header does not note the source and licence of the "
                "quoted messages" % name, head)
    for start, lines in upstream.split_chunks(text):
        ops = upstream.ops_in(start, lines, upstream.BROADCAST_OP)
        comments = [l for l in lines if l.startswith("// ") and "expected-" not in l]
        tally.check(ops and comments, "%s:%d: a case without a broadcasting op or "
                    "without a comment naming what it checks" % (name, start))
        for l in comments:
            m = re.match(r"// mirrors (\S+) @(\w+)", l)
            if m:
                tally.check(m.group(1).startswith("stablehlo/tests/") and
                            m.group(1).endswith(".mlir"),
                            "%s:%d: 'mirrors' names no upstream test file: %s" %
                            (name, start, l))


def part_files(tally, b, paths):
    for path in paths:
        name = os.path.basename(path)
        rel = os.path.relpath(path)
        with open(path) as f:
            text = f.read()
        check_file_conventions(tally, path, text)
        want = expectations(path)
        rc, out, err = run([b, "verify", "--verify-diagnostics", rel])
        tally.check(rc == 0 and not err.strip(), "%s: --verify-diagnostics exit %s" %
                    (name, rc), err[-4000:])
        # Plain verify: exit 1 exactly when an error is expected.
        rc, out, err = run([b, "verify", "--summary", rel])
        tally.check(rc == (1 if want["failed"] else 0),
                    "%s: plain verify exit %s, %d failing ops expected" %
                    (name, rc, want["failed"]), err[-2000:])
        m = SUMMARY.search(out)
        got = m and (int(m.group(1)), int(m.group(2)), int(m.group(3) or 0))
        expect = (len(want["ops"]), want["failed"], len(want["cannot"]))
        tally.check(got == expect, "%s: --summary (checked, failed, cannot check) "
                    "%s, expected %s" % (name, got, expect), out)
        # The same counts in JSON.
        rc, out, _ = run([b, "verify", "--summary", "--format", "json", rel])
        summary = None
        for line in out.split("\n"):
            try:
                o = json.loads(line)
            except ValueError:
                continue
            if isinstance(o, dict) and "summary" in o:
                summary = o["summary"]
        got = summary and (summary.get("ops_checked"), summary.get("failed"),
                           summary.get("cannot_check", 0))
        tally.check(got == expect, "%s: JSON summary %s, expected %s" %
                    (name, summary, expect), out[-2000:])
        # Each "cannot check" remark is at its op, and only there.
        remarks = [l for l, c, sev, msg in located(err, rel)
                   if sev == "remark" and CANNOT_MESSAGE.match(msg)]
        plain = [l for l, c, sev, msg in located(err, rel) if sev == "remark"]
        tally.check(sorted(remarks) == want["cannot"] and len(plain) == len(remarks),
                    "%s: 'cannot check: ' remarks at lines %s, expected %s" %
                    (name, sorted(remarks), want["cannot"]), err[-3000:])


def strip_annotations(text):
    return "\n".join(re.sub(r"//\s*expected-.*$", "//", l) for l in text.split("\n"))


def part_strict(tally, b, tmpdir):
    """The cannot-check cases alone: remarks and exit 0; under --strict,
    errors at the same lines and exit 1."""
    src = os.path.join(DATA, "cannot_check.mlir")
    with open(src) as f:
        text = f.read()
    cannot = set(expectations(src)["cannot"])
    keep = [(s, ls) for s, ls in upstream.split_chunks(text)
            if set(upstream.ops_in(s, ls, upstream.BROADCAST_OP)) <= cannot]
    want = sorted(l for s, ls in keep for l in upstream.ops_in(s, ls, upstream.BROADCAST_OP))
    body = ""
    for start, lines in keep:
        body += "\n" * (start - 1 - body.count("\n")) + "\n".join(lines)
    path = os.path.join(tmpdir, "cannot_only.mlir")
    with open(path, "w") as f:
        f.write(strip_annotations(body) + "\n")
    tally.check(len(keep) >= 4, "only %d cannot-check-only cases in %s" % (len(keep), src))
    rc, out, err = run([b, "verify", "--summary", path])
    remarks = sorted(l for l, c, sev, msg in located(err, path)
                     if sev == "remark" and CANNOT_MESSAGE.match(msg))
    errors = [x for x in located(err, path) if x[2] == "error"]
    tally.check(rc == 0 and remarks == want and not errors,
                "cannot-check cases: exit %s, remarks at %s, expected %s, errors %s" %
                (rc, remarks, want, errors), err[-3000:])
    m = SUMMARY.search(out)
    tally.check(m and int(m.group(2)) == 0 and int(m.group(3) or 0) == len(want),
                "cannot-check cases: summary %r does not count %d cannot-check ops" %
                (out.strip(), len(want)))
    rc, out, err = run([b, "verify", "--strict", "--summary", path])
    strict = sorted(l for l, c, sev, msg in located(err, path)
                    if sev == "error" and CANNOT in msg)
    tally.check(rc == 1 and strict == want,
                "--strict: exit %s, 'cannot check' errors at %s, expected %s" %
                (rc, strict, want), err[-3000:])


def one_chunk(name, function):
    """The chunk of tests/data/stablehlo/NAME holding @FUNCTION, at its own
    line numbers, annotations removed; (text, op line)."""
    with open(os.path.join(DATA, name)) as f:
        text = f.read()
    for start, lines in upstream.split_chunks(text):
        if any("@%s(" % function in l for l in lines):
            ops = upstream.ops_in(start, lines, upstream.BROADCAST_OP)
            return strip_annotations("\n" * (start - 1) + "\n".join(lines)) + "\n", min(ops)
    raise KeyError(function)


def json_objects(out):
    objs = []
    for line in out.split("\n"):
        if line.strip():
            objs.append(json.loads(line))
    return objs


# --format json cases: (file, function, exit status, severity, message
# test); the object is the op's only one, at the op's name.
JSON_CASES = (
    ("broadcast_in_dim.mlir", "c5_mismatch", 1, "error",
     lambda m: m.endswith("size of operand dimension 1 (3) is not equal to 1 "
                          "or size of result dimension 1 (4)")),
    ("cannot_check.mlir", "sparse_chlo", 0, "remark",
     lambda m: CANNOT_MESSAGE.match(m) is not None),
)


def part_json(tally, b, tmpdir):
    for name, function, status, severity, message_ok in JSON_CASES:
        text, line = one_chunk(name, function)
        path = os.path.join(tmpdir, function + ".mlir")
        with open(path, "w") as f:
            f.write(text)
        src = text.split("\n")[line - 1]
        op = upstream.BROADCAST_OP.search(src).group(1)
        rc, out, _ = run([b, "verify", "--format", "json", path])
        try:
            objs = json_objects(out)
            o = objs[0]
            tally.check(rc == status and len(objs) == 1 and o["file"] == path and
                        o["line"] == line and o["column"] == src.index(op) + 1 and
                        o["severity"] == severity and o["op"] == op and
                        message_ok(o["message"]),
                        "json of @%s: exit %s, %s" % (function, rc, objs))
        except (ValueError, KeyError, IndexError) as e:
            tally.fail("json of @%s: %s" % (function, e), out[:2000])


def part_chlo_rule(tally, b, tmpdir):
    """CHLO's lenient cases (an illegal broadcast_dimensions) pass by
    default and fail under --chlo-rule xla, at the op's line."""
    cases = ("lenient_dims_length", "lenient_dims_size", "lenient_dims_range")
    for function in cases:
        text, line = one_chunk("chlo.mlir", function)
        path = os.path.join(tmpdir, function + ".mlir")
        with open(path, "w") as f:
            f.write(text)
        rc, _, err = run([b, "verify", path])
        xrc, _, xerr = run([b, "verify", "--chlo-rule", "xla", path])
        errs = [x for x in located(xerr, path) if x[2] == "error"]
        tally.check(rc == 0 and not err and xrc == 1 and [x[0] for x in errs] == [line],
                    "@%s: exit %s by default, %s under --chlo-rule xla, errors %s" %
                    (function, rc, xrc, errs), err + xerr)


def part_selection(tally, b, tmpdir):
    """Issue 21, point 6: stablehlo ops are checked without --op."""
    path = os.path.join(tmpdir, "mixed.mlir")
    with open(path, "w") as f:
        f.write("func.func @f(%a: tensor<3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {\n"
                "  %0 = stablehlo.broadcast_in_dim %a, dims = [0] : (tensor<3xf32>) -> tensor<2x3xf32>\n"
                "  %1 = chlo.broadcast_add %a, %b : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>\n"
                "  return %1 : tensor<2x3xf32>\n}\n")
    rc, out, err = run([b, "verify", "--summary", path])
    errs = [x for x in located(err, path) if x[2] == "error"]
    m = SUMMARY.search(out)
    tally.check(rc == 1 and m and (int(m.group(1)), int(m.group(2))) == (2, 1) and
                [x[0] for x in errs] == [2],
                "broadcast_in_dim next to a chlo op: exit %s, summary %r, errors %s" %
                (rc, out.strip(), errs), err[-2000:])
    # --no-dialect stablehlo leaves the failing op out, and counts it.
    rc, out, err = run([b, "verify", "--summary", "--no-dialect", "stablehlo", path])
    m = SUMMARY.search(out)
    skipped = re.search(r"(\d+) ops? of tosa, stablehlo or chlo not checked", out)
    tally.check(rc == 0 and m and (int(m.group(1)), int(m.group(2))) == (1, 0) and
                skipped and int(skipped.group(1)) == 1,
                "--no-dialect stablehlo: exit %s, summary %r" % (rc, out.strip()), err)


def main():
    ap = common.parser(__doc__)
    args = common.parse_args(ap)
    if common.missing(args.bcast, "bcast binary not found or not executable: %s"):
        return 1
    b = os.path.abspath(args.bcast)
    tally = common.Tally(most_shown=40, width=300)
    os.chdir(ROOT)  # relative paths in the diagnostics
    paths = sorted(glob.glob(os.path.join("tests", "data", "stablehlo", "*.mlir")))
    tally.check(len(paths) >= 8, "found only %d case files in %s" % (len(paths), DATA))
    with tempfile.TemporaryDirectory(prefix="bcast-shlo-") as tmpdir:
        part_files(tally, b, paths)
        part_strict(tally, b, tmpdir)
        part_json(tally, b, tmpdir)
        part_chlo_rule(tally, b, tmpdir)
        part_selection(tally, b, tmpdir)
    return tally.summary()


if __name__ == "__main__":
    raise SystemExit(main())
