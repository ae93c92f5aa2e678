#!/usr/bin/python3
"""Malformed input to `bcast verify` and `bcast infer`: a clear error,
never a crash.

Every run must end with an exit status below 128 (no signal, no abort),
print no sanitizer report, and, when it fails, say on stderr what is
wrong.  Also checks exact outputs for a table of valid `bcast infer` cases
and the messages for shapes that do not broadcast.

Usage:
  /usr/bin/python3 tests/diff/test_cli_malformed.py --bcast BUILD/bcast \
      [--seed N|random] [--mutations 300]

The seed drives the random byte mutations and binary garbage; it is
printed, and --seed N replays a run.
"""

import os
import random
import re
import sys
import tempfile
import time

import common

DEFAULT_SEED = 20250602

SANITIZER_MARKS = ("AddressSanitizer", "LeakSanitizer", "runtime error:",
                   "UndefinedBehaviorSanitizer", "Segmentation fault")

# A line bcast may print on stderr: a located diagnostic or "bcast: ...".
STDERR_LINE = re.compile(r"^(?:.+:\d+:\d+: (?:error|note): \S.*|bcast: \S.*)$")
LOCATED_ERROR = re.compile(r"^(.+):(\d+):(\d+): error: (.+)$")
CARET_LINE = re.compile(r"^ *\^~*$")


def diagnostic_lines(err):
    """The lines of stderr without the source line and caret line that
    follow a located diagnostic, as mlir-opt prints them."""
    lines = err.split("\n")
    keep = [True] * len(lines)
    for i, line in enumerate(lines):
        if i > 0 and CARET_LINE.match(line):
            keep[i] = keep[i - 1] = False
    return [l for l, k in zip(lines, keep) if k]


class Run:
    def __init__(self, argv, rc, out, err, stdin):
        self.argv = argv
        self.rc = rc
        self.out = out
        self.err = err
        self.stdin = stdin

    def show(self):
        shown_argv = [a if len(a) < 200 else a[:80] + "...(%d chars)" % len(a)
                      for a in self.argv]
        text = "command: %s\nexit: %s\n" % (" ".join(shown_argv), self.rc)
        if self.stdin is not None:
            s = self.stdin[:400]
            text += "stdin (%d bytes): %r%s\n" % (
                len(self.stdin), s, "..." if len(self.stdin) > 400 else "")
        text += "stdout: %s\nstderr: %s" % (self.out[:1500] or "(empty)",
                                             self.err[:3000] or "(empty)")
        return text


def run(bcast, args, stdin=None, timeout=30):
    argv = [bcast] + args
    rc, out, err = common.run(argv, stdin, timeout)
    return Run(argv, rc, out, err, stdin)


def sane(r):
    """No crash, no hang, no sanitizer report.  Returns a problem or None."""
    if r.rc is None:
        return "timed out"
    if r.rc < 0:
        return "killed by signal %d" % -r.rc
    if r.rc >= 128:
        return "exit status %d (a signal or abort)" % r.rc
    for mark in SANITIZER_MARKS:
        if mark in r.err:
            return "sanitizer report on stderr (%s)" % mark
    return None


def check_failure(tally, title, r, rcs, patterns, line=None, path=None):
    """The run failed cleanly: exit status in `rcs`, and stderr matches
    every regex in `patterns` (case-insensitive; messages only, notes left
    out); with `line` and `path`, a located error names that line and file."""
    problems = []
    bad = sane(r)
    if bad:
        problems.append(bad)
    elif r.rc not in rcs:
        problems.append("exit status %d, expected %s" %
                        (r.rc, " or ".join(str(c) for c in sorted(rcs))))
    if not r.err.strip():
        problems.append("nothing on stderr")
    # The error itself must name the problem: the message after the
    # location (which may hold any word) counts; bcast's notes do not.
    messages = []
    for l in diagnostic_lines(r.err):
        m = LOCATED_ERROR.match(l)
        if m:
            messages.append(m.group(4))
        elif l and not re.match(r"^.+:\d+:\d+: note: ", l):
            messages.append(l)
    errors = "\n".join(messages)
    for p in patterns:
        if not re.search(p, errors, re.I | re.M):
            problems.append("stderr does not match /%s/" % p)
    located = [m for m in map(LOCATED_ERROR.match, r.err.split("\n")) if m]
    if line is not None and line not in [int(m.group(2)) for m in located]:
        problems.append("no 'FILE:%d:COL: error:' line" % line)
    if path is not None and path not in [m.group(1) for m in located]:
        problems.append("no error line names the file %s" % path)
    return tally.check(not problems, "%s: %s" % (title, "; ".join(problems)),
                        r.show())


def check_robust(tally, title, r, nlines=None):
    """Any verdict is allowed, but no crash; a failure says something on
    stderr; every stderr line is a diagnostic; located errors point inside
    the input; exit 0 exactly when no error was printed."""
    problems = []
    bad = sane(r)
    if bad:
        problems.append(bad)
    else:
        if r.rc not in (0, 1, 2):
            problems.append("exit status %d" % r.rc)
        if r.rc != 0 and not r.err.strip():
            problems.append("failed with nothing on stderr")
        errors = 0
        for line in diagnostic_lines(r.err.rstrip("\n")):
            if not line:
                continue
            if not STDERR_LINE.match(line):
                problems.append("unexpected stderr line %r" % line[:200])
                break
            m = LOCATED_ERROR.match(line)
            if m:
                errors += 1
                ln, col = int(m.group(2)), int(m.group(3))
                if ln < 1 or col < 1 or (nlines is not None and ln > nlines):
                    problems.append("error located outside the input (%d:%d, "
                                    "%s lines)" % (ln, col, nlines))
                    break
        if r.rc == 0 and errors:
            problems.append("exit 0 after printing errors")
        if r.rc == 1 and not errors and "bcast:" not in r.err:
            problems.append("exit 1 without an error line")
    return tally.check(not problems, "%s: %s" % (title, "; ".join(problems)),
                        r.show())


# ---------------------------------------------------------------------------
# bcast verify.

def op_text(operand_types, result_type, name="test.broadcastable"):
    args = ", ".join("%%a%d" % i for i in range(len(operand_types)))
    return '%%0 = "%s"(%s) : (%s) -> %s' % (name, args,
                                            ", ".join(operand_types), result_type)


def wrap(op_line):
    """A func around one op line; the op is on line 2."""
    return ("func.func @f(%a0: tensor<2xf32>) {\n  " + op_line +
            "\n  return\n}\n").encode()


RANK65 = "tensor<" + "1x" * 65 + "f32>"
RANK1000 = "tensor<" + "".join(("2x", "1x", "?x")[i % 3] for i in range(1000)) + "f32>"

# (label, malformed type, regexes stderr must match)
BAD_TYPES = [
    ("truncated type", "tensor<2x3xf32", [r"'>'|truncat|missing|expected"]),
    ("truncated type", "tensor<", [r"'>'|truncat|missing|expected"]),
    ("truncated type", "tensor<2x", [r"'>'|truncat|missing|expected|element type"]),
    ("negative dim", "tensor<-1xf32>", [r"negative"]),
    ("negative dim", "tensor<2x-3xf32>", [r"negative"]),
    ("overflowing dim", "tensor<99999999999999999999xf32>",
     [r"larger|overflow|too (large|big)|range"]),
    ("overflowing dim", "tensor<2x18446744073709551616xf32>",
     [r"larger|overflow|too (large|big)|range"]),
    ("rank 65", RANK65, [r"\b64\b"]),
    ("rank 1000", RANK1000, [r"\b64\b"]),
    ("empty element type", "tensor<2x>", [r"element type"]),
    ("empty element type", "tensor<>", [r"element type|expected"]),
    ("empty element type", "tensor<2x?x>", [r"element type"]),
    ("empty element type", "tensor<*x>", [r"element type"]),
    ("missing dim before 'x'", "tensor<xf32>", [r"dim|size|expected|malformed"]),
    ("empty dim between 'x's", "tensor<2xx3xf32>", [r"dim|size|expected|malformed"]),
    ("garbage dim", "tensor<?x-?xf32>", [r"dim|size|expected|malformed|negative"]),
    ("two '*'", "tensor<*x*xf32>", [r"dim|size|expected|malformed|element"]),
    ("not a shaped type", "i32", [r"tensor|vector"]),
    ("garbage type", "@@@", [r"type|expected"]),
]

MISSING_SIGNATURE = [
    '%0 = "test.broadcastable"(%a0, %a0)',
    '%0 = "test.broadcastable"(%a0, %a0) :',
    '%0 = "test.broadcastable"(%a0) : (tensor<2xf32>)',
    '%0 = "test.broadcastable"(%a0) : (tensor<2xf32>) ->',
    '%0 = "test.broadcastable"(%a0) : (tensor<2xf32>',
    '%0 = "test.broadcastable"(%a0) : (',
    "%0 = tosa.add %a0, %a0",
    "%0 = tosa.add %a0, %a0 :",
    "%0 = tosa.add %a0, %a0 : (tensor<2xf32>, tensor<2xf32>) ->",
    '%0 = "tosa.select"(%a0, %a0, %a0) :',
    "%0 = tosa.select %a0, %a0, %a0",
]


def part_verify_types(tally, bcast, tmpdir):
    good = "tensor<2xf32>"
    for label, bad, patterns in BAD_TYPES:
        for where, line in (
                ("operand", op_text([bad, good], good)),
                ("result", op_text([good, good], bad)),
                ("tosa operand", op_text([good, bad], good, "tosa.add")),
                ("tosa custom result",
                 "%%0 = tosa.add %%a0, %%a0 : (%s, %s) -> %s" % (good, good, bad))):
            r = run(bcast, ["verify", "-"], wrap(line))
            check_failure(tally, "verify, %s as %s (%s)" % (label, where,
                                                           bad[:40]),
                          r, {1, 2}, patterns, line=2)
        # At the very end of a file without a newline, through a file path.
        path = os.path.join(tmpdir, "eof.mlir")
        with open(path, "wb") as f:
            f.write(b"// header\n" + op_text([good], bad).encode())
        r = run(bcast, ["verify", path])
        check_failure(tally, "verify, %s at end of file (%s)" % (label, bad[:40]),
                      r, {1, 2}, patterns, line=2, path=path)


def part_verify_signatures(tally, bcast):
    for line in MISSING_SIGNATURE:
        r = run(bcast, ["verify", "-"], wrap(line))
        check_failure(tally, "verify, op without a complete signature: %s" % line,
                      r, {1, 2}, [r"signature|type|expected|missing|truncat"],
                      line=2)
        # The same, cut off at the end of the input.
        r = run(bcast, ["verify", "-"], line.encode())
        check_failure(tally, "verify, op without a complete signature at EOF: "
                      "%s" % line, r, {1, 2},
                      [r"signature|type|expected|missing|truncat"], line=1)


def part_verify_garbage(tally, bcast, rng):
    # Garbage lines around a failing op: still found, on the right line.
    text = ("}}}{{{ ))) garbage <<<>>> @@@\n"
            "\x7f\x01 tensor<tensor<tensor< \"\"\" ''' \\\\\n"
            "  " + op_text(["tensor<3xf32>", "tensor<2xf32>"], "tensor<3xf32>") +
            "\n%%%% -> -> -> : : :\n").encode()
    r = run(bcast, ["verify", "-"], text)
    check_failure(tally, "verify, failing op between garbage lines", r, {1},
                  [r"broadcast-compatible"], line=3)
    # Garbage inside an op signature.
    for sig in ("(@@@, ###) -> !!!", "(tensor<2xf32>, %%%) -> tensor<2xf32>",
                "(tensor<2xf32> tensor<2xf32>) -> tensor<2xf32>",
                "((((tensor<2xf32>)))) -> tensor<2xf32>",
                "(tensor<2xf32>, tensor<2xf32>) => tensor<2xf32>",
                "(tensor<2xf32>, tensor<2xf32>) -> -> tensor<2xf32>"):
        r = run(bcast, ["verify", "-"],
                wrap('%0 = "test.broadcastable"(%a0, %a0) : ' + sig))
        check_failure(tally, "verify, garbage signature %s" % sig, r, {1, 2},
                      [r"type|expected|tensor"], line=2)
    # A type spanning two lines: one diagnostic, and no raw newline in it.
    text = ('%0 = "test.broadcastable"(%a0, %a0) : (!foo<\n  >, tensor<2xf32>)'
            ' -> tensor<2xf32>\n').encode()
    r = run(bcast, ["verify", "-"], text)
    check_failure(tally, "verify, a type spanning two lines", r, {1},
                  [r"tensor|vector"], line=1)
    check_robust(tally, "verify, a type spanning two lines (stderr format)", r, 3)
    # Files of nothing but garbage: any verdict, no crash.
    nul_in_type = (b'%0 = "test.broadcastable"(%a) : (tensor<2\x00xf32>) -> '
                   b'tensor<2xf32>\n')
    blobs = [nul_in_type, b"garbage line\n" * 50, b"\x00" * 1000, b"\xff\xfe\xfd" * 300,
             b"tensor<" * 2000, b'"test.broadcastable"(' * 1000,
             b"tosa.add " * 2000, b"(" * 100000, b"<" * 100000]
    for i in range(20):
        blobs.append(bytes(rng.randrange(256) for _ in range(rng.randint(1, 4096))))
    for i in range(20):
        head = rng.choice([b'%0 = "test.broadcastable"(%a) : (',
                           b"%0 = tosa.add %a, %b : (tensor<",
                           b'%0 = "tosa.select"(%c, %a, %b) : (tensor<2x',
                           b'%0 = "test.broadcastable"(%a) : (tensor<2xf32>) -> tensor<'])
        tail = bytes(rng.randrange(256) for _ in range(rng.randint(0, 300)))
        blobs.append(head + tail)
    for i, blob in enumerate(blobs):
        r = run(bcast, ["verify", "-"], blob)
        check_robust(tally, "verify, binary/garbage input #%d" % i, r,
                     blob.count(b"\n") + 1)
    # The NUL byte inside a type must not pass as a valid type.
    r = run(bcast, ["verify", "-"], nul_in_type)
    check_failure(tally, "verify, NUL byte inside a type", r, {1, 2},
                  [r"type|expected|malformed"], line=1)


VALID_FILE = """\
// A valid file with passing and failing ops; mutated at random below.
func.func @f0(%a0: tensor<2x1xf32>, %a1: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = "test.broadcastable"(%a0, %a1) : (tensor<2x1xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// -----
func.func @f1(%a0: tensor<?x4xi32>, %a1: tensor<*xi32>) -> tensor<?x4xi32> {
  %0 = "test.broadcastable"(%a0, %a1) : (tensor<?x4xi32>, tensor<*xi32>) -> tensor<?x4xi32>
  return %0 : tensor<?x4xi32>
}
// -----
func.func @f2(%a0: tensor<3xi32>, %a1: tensor<2xi32>) -> tensor<?xi32> {
  %0 = "test.broadcastable"(%a0, %a1) : (tensor<3xi32>, tensor<2xi32>) -> tensor<?xi32>
  return %0 : tensor<?xi32>
}
// -----
func.func @f3(%a0: tensor<1x3xf32>, %a1: tensor<2x1xf32>) -> tensor<2x3xf32> {
  %0 = tosa.add %a0, %a1 : (tensor<1x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// -----
func.func @f4(%c: tensor<1xi1>, %a0: tensor<4xf32>, %a1: tensor<1xf32>) -> tensor<4xf32> {
  %0 = "tosa.select"(%c, %a0, %a1) : (tensor<1xi1>, tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// -----
func.func @f5(%a0: tensor<2x3xf32>, %a1: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = tosa.add %a0, %a1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// -----
func.func @f6(%a0: tensor<0x1xi32>, %a1: tensor<i32>) -> tensor<0x5xi32> {
  %0 = "test.broadcastable"(%a0, %a1) : (tensor<0x1xi32>, tensor<i32>) -> tensor<0x5xi32>
  return %0 : tensor<0x5xi32>
}
"""

MUTATION_ALPHABET = b"<>()[]x?*,:-+=%\"0123456789 \n\t\x00\xffi3f2tensor.#!"


def mutate(rng, data):
    data = bytearray(data)
    for _ in range(rng.randint(1, 6)):
        kind = rng.randrange(6)
        pos = rng.randrange(len(data) + 1)
        if kind == 0 and data:  # flip bits
            p = min(pos, len(data) - 1)
            data[p] ^= 1 << rng.randrange(8)
        elif kind == 1 and data:  # replace with a structural character
            p = min(pos, len(data) - 1)
            data[p] = rng.choice(MUTATION_ALPHABET)
        elif kind == 2:  # insert
            data[pos:pos] = bytes(rng.choice(MUTATION_ALPHABET)
                                  for _ in range(rng.randint(1, 8)))
        elif kind == 3:  # delete a range
            del data[pos:pos + rng.randint(1, 40)]
        elif kind == 4:  # duplicate a range
            data[pos:pos] = data[pos:pos + rng.randint(1, 200)]
        else:  # truncate
            del data[pos:]
    return bytes(data)


def part_verify_mutations(tally, bcast, rng, count):
    base = VALID_FILE.encode()
    r = run(bcast, ["verify", "-"], base)
    want = [
        "<stdin>:13:8: error: 'test.broadcastable' op operands don't have "
        "broadcast-compatible shapes",
        "<stdin>:28:8: error: 'tosa.add' op operands don't have matching ranks",
        "<stdin>:33:8: error: 'test.broadcastable' op result type '0x5' not "
        "broadcast compatible with broadcasted operands's shapes '0x1'"]
    got = [l for l in r.err.split("\n") if LOCATED_ERROR.match(l)]
    tally.check(r.rc == 1 and got == want,
                 "verify, the unmutated file: unexpected errors",
                 "expected:\n%s\n%s" % ("\n".join(want), r.show()))
    for i in range(count):
        data = mutate(rng, base)
        r = run(bcast, ["verify", "-"], data)
        check_robust(tally, "verify, mutation #%d" % i, r, data.count(b"\n") + 1)


def part_verify_long(tally, bcast):
    good = "tensor<2xf32>"
    # A failing op far to the right: the column must still be right.
    pad = " " * 200000
    line = pad + op_text(["tensor<3xf32>", "tensor<2xf32>"], good)
    r = run(bcast, ["verify", "-"], wrap(line))
    col = 2 + len(pad) + len("%0 = ") + 1
    want = ("<stdin>:2:%d: error: 'test.broadcastable' op operands don't have "
            "broadcast-compatible shapes" % col)
    tally.check(r.rc == 1 and want in r.err.split("\n"),
                 "verify, op after 200000 spaces: expected %r" % want, r.show())
    # One operand list of 5000 operands: passes, or is refused with a message.
    n = 5000
    r = run(bcast, ["verify", "-"], wrap(op_text([good] * n, good)))
    if r.rc == 0:
        tally.check(sane(r) is None and not r.err.strip(),
                     "verify, 5000 operands", r.show())
    else:
        check_failure(tally, "verify, 5000 operands", r, {1, 2}, [r"operand"],
                      line=2)
    # Very long lines without ops, and a long element type.
    for label, blob in (
            ("10 MB line of letters", b"a" * 10000000),
            ("1 MB line of x", b"x" * 1000000 + b"\n"),
            ("long element type", wrap(op_text([good], "tensor<2x" + "f" * 100000 + ">"))),
            ("long op name", ('%0 = "test.broadcastable' + "x" * 100000 +
                              '"(%a0) : (tensor<2xf32>) -> tensor<2xf32>\n').encode()),
            ("many ops", (op_text([good, "tensor<3xf32>"], good) + "\n").encode() * 20000)):
        r = run(bcast, ["verify", "-"], blob, timeout=60)
        check_robust(tally, "verify, %s" % label, r, blob.count(b"\n") + 1)
    # Long lists of values must be scanned in linear time: a scan of 600 KB
    # takes milliseconds, so 5 s (even under AddressSanitizer) means the
    # scanner rescans the list from every value.
    n = 40000
    for label, blob, nlines in (
            ("a return of %d values" % n,
             ("func.func @f() {\n  return " +
              ", ".join("%%v%d" % k for k in range(n)) + " : " +
              ", ".join([good] * n) + "\n}\n").encode(), 4),
            ("an op with %d operand names and no signature" % n,
             ('%0 = "test.broadcastable"(' + ", ".join(["%a"] * n) +
              ")\n").encode(), 2)):
        r = run(bcast, ["verify", "-"], blob, timeout=5)
        check_robust(tally, "verify, %s (time limit 5 s)" % label, r, nlines)
    r = run(bcast, ["verify", "-"],
            (op_text([good, "tensor<3xf32>"], good) + "\n").encode() * 20000, timeout=60)
    nerr = sum(1 for l in r.err.split("\n") if LOCATED_ERROR.match(l))
    tally.check(r.rc == 1 and nerr == 20000,
                 "verify, 20000 failing ops: %d error lines, exit %s" % (nerr, r.rc),
                 r.show()[:2000])


def part_verify_usage(tally, bcast, tmpdir):
    missing = os.path.join(tmpdir, "does-not-exist.mlir")
    r = run(bcast, ["verify", missing])
    check_failure(tally, "verify, missing file", r, {2}, [re.escape(missing)])
    r = run(bcast, ["verify", tmpdir])
    check_failure(tally, "verify, a directory", r, {2}, [re.escape(tmpdir)])
    r = run(bcast, ["verify"])
    check_failure(tally, "verify, no files", r, {2}, [r"file"])
    r = run(bcast, ["verify", "--profile", "bogus", "-"], b"")
    check_failure(tally, "verify, unknown profile", r, {2}, [r"bogus", r"profile"])
    r = run(bcast, ["verify", "--profile"])
    check_failure(tally, "verify, --profile without a value", r, {2}, [r"profile"])
    r = run(bcast, ["verify", "--frobnicate", "-"], b"")
    check_failure(tally, "verify, unknown option", r, {2}, [r"frobnicate"])
    empty = os.path.join(tmpdir, "empty.mlir")
    open(empty, "w").close()
    # Nothing to verify is not a pass: an error at 1:1 (docs/cli.md, bcast verify).
    r = run(bcast, ["verify", empty])
    check_failure(tally, "verify, empty file", r, {1}, [r"no op to check"],
                  line=1, path=empty)


# ---------------------------------------------------------------------------
# bcast infer.

MALFORMED_SHAPES = [
    ("[2,", [r"expected|missing|truncat"]),
    ("[2", [r"bracket|missing|expected"]),
    ("[", [r"expected|missing"]),
    ("]", [r"expected"]),
    ("[2]]", [r"expected|after"]),
    ("[2,,3]", [r"expected"]),
    ("[-1]", [r"negative"]),
    ("[a-b]", [r"expected"]),
    ("[" + "n" * 40 + "]", [r"longer than 31"]),
    ("[" + ",".join("n%d" % k for k in range(65)) + "]", [r"\b64\b"]),
    ("[1.5]", [r"expected"]),
    ("[99999999999999999999]", [r"larger|overflow|too (large|big)|range"]),
    ("[9223372036854775808]", [r"larger|overflow|too (large|big)|range"]),
    ("[" + ",".join(["1"] * 65) + "]", [r"\b64\b"]),
    ("x".join(["2"] * 65), [r"\b64\b"]),
    ("[" + ",".join(["?"] * 1000) + "]", [r"\b64\b"]),
    (RANK65, [r"\b64\b"]),
    ("", [r"empty|expected"]),
    ("1x", [r"expected"]),
    ("x1", [r"expected"]),
    ("tensor<2x3xf32", [r"'>'|truncat|missing"]),
    ("tensor<", [r"'>'|truncat|missing"]),
    ("tensor<2x", [r"'>'|truncat|missing|element type"]),
    ("tensor<-1xf32>", [r"negative"]),
    ("tensor<99999999999999999999xf32>", [r"larger|overflow|too (large|big)|range"]),
    ("tensor<2x>", [r"element type"]),
    ("tensor<2x3xf32>>", [r"after|expected"]),
    ("tensor<xf32>", [r"dim|size|expected|malformed"]),
    ("tensor<2xx3xf32>", [r"dim|size|expected|malformed"]),
]


def part_infer_malformed(tally, bcast):
    for shape, patterns in MALFORMED_SHAPES:
        shown = shape if len(shape) < 60 else shape[:40] + "..."
        for argv in (["infer", shape], ["infer", "[1]", shape]):
            r = run(bcast, argv)
            pats = patterns + [r"^bcast: "]
            # The message quotes the argument (short ones are checked).
            if 0 < len(shape) < 60:
                pats.append(re.escape(shape))
            check_failure(tally, "infer %s" % " ".join(
                [a if a is not shape else shown for a in argv[1:]]),
                r, {2}, pats)
    for argv, pats in ((["infer"], [r"shape"]),
                       (["infer", "--profile", "bogus", "[1]"], [r"bogus"]),
                       (["infer", "--profile"], [r"profile"]),
                       (["infer", "--bogus", "[1]"], [r"bogus"])):
        check_failure(tally, " ".join(argv), run(bcast, argv), {2}, pats)


# (arguments, regexes the message must match)
INCOMPATIBLE = [
    (["[3]", "[2]"], [r"operand #0 dim 0 \(size 3\)", r"operand #1 dim 0 \(size 2\)"]),
    (["[2,3]", "[4,3]"], [r"operand #0 dim 0 \(size 2\)", r"operand #1 dim 0 \(size 4\)"]),
    (["[5,1,3]", "[2,4]"], [r"operand #0 dim 2 \(size 3\)", r"operand #1 dim 1 \(size 4\)"]),
    (["[1]", "[2]", "[3]"], [r"operand #1 dim 0 \(size 2\)", r"operand #2 dim 0 \(size 3\)"]),
    (["[0]", "[2]"], [r"operand #0 dim 0 \(size 0\)", r"operand #1 dim 0 \(size 2\)"]),
    (["[?,3]", "[2,4]"], [r"operand #0 dim 1 \(size 3\)", r"operand #1 dim 1 \(size 4\)"]),
    (["tensor<2x3xf32>", "[4,3]"], [r"operand #0 dim 0 \(size 2\)",
                                    r"operand #1 dim 0 \(size 4\)"]),
    (["*", "[2,3]", "[3,3]"], [r"operand #1 dim 0 \(size 2\)",
                               r"operand #2 dim 0 \(size 3\)"]),
    (["--profile", "tosa", "[3]", "[1,3]"], [r"operand #0", r"operand #1", r"rank"]),
    (["--profile", "mlir", "[2,3]", "[3,2]"], [r"operand #0 dim 0 \(size 2\)",
                                               r"operand #1 dim 0 \(size 3\)"]),
]


def infer_table(text):
    """[(arguments, exact stdout)] from lines "ARGUMENT ... -> STDOUT"."""
    return [(args.split(), want.strip()) for args, want in
            (line.split(" -> ") for line in text.strip().splitlines())]


ONES64 = "[" + ",".join(["1"] * 64) + "]"
VALID_INFER = infer_table("""
[2,?,1] [3]                         -> [2,?,3]
[0] [1]                             -> [0]
[0] [?]                             -> [?]
* [2]                               -> [2]
* *                                 -> *
[] [4,1]                            -> [4,1]
[]                                  -> []
[] []                               -> []
tensor<4x1xf32> 1x5                 -> [4,5]
tensor<*xi32> [2,1] vector<1x3xf32> -> [2,3]
[?,?] [3,1]                         -> [3,?]
(2,3) [3]                           -> [2,3]
4x?x3 [3]                           -> [4,?,3]
vector<4xf16> [1]                   -> [4]
[?] [3]                             -> [3]
[?] [1]                             -> [?]
[?] [?]                             -> [?]
[1,1] [1]                           -> [1,1]
[2,3] [4,1,1]                       -> [4,2,3]
[1] [1] [1] [5]                     -> [5]
[9223372036854775807] [1]           -> [9223372036854775807]
--profile tosa [2,1] [1,3]          -> [2,3]
--profile=tosa [?,1] [1,?]          -> [?,?]
--profile mlir [3] [1,3]            -> [1,3]
--profile numpy [0,3] [1]           -> [0,3]
""") + [([ONES64], ONES64)]


def part_infer_results(tally, bcast):
    for args, patterns in INCOMPATIBLE:
        r = run(bcast, ["infer"] + args)
        check_failure(tally, "infer %s (incompatible)" % " ".join(args), r, {1},
                      patterns)
        tally.check(r.out == "", "infer %s: stdout should be empty on failure"
                     % " ".join(args), r.show())
    r = run(bcast, ["infer", "--profile", "tosa", "[3]", "[1,3]"])
    tally.check(r.rc == 1 and r.out == "",
                 "infer --profile tosa [3] [1,3]: exit %s, expected 1" % r.rc,
                 r.show())
    for args, want in VALID_INFER:
        r = run(bcast, ["infer"] + args)
        # The shape is the first line; 'check:' lines may follow it.
        lines = r.out.split("\n")
        tally.check(sane(r) is None and r.rc == 0 and lines[0] == want
                     and all(l.startswith("check: ") for l in lines[1:-1])
                     and r.err == "",
                     "infer %s: expected %s (exit 0)" % (" ".join(args)[:80], want),
                     r.show())


# ---------------------------------------------------------------------------

def main():
    ap = common.parser(__doc__.split("\n")[0], seed=DEFAULT_SEED)
    ap.add_argument("--mutations", type=int, default=None,
                    help="mutated inputs (300 times --scale)")
    args = common.parse_args(ap)
    if args.mutations is None:
        args.mutations = args.scaled(300)
    seed = args.seed
    print("seed %d (replay: /usr/bin/python3 %s --bcast %s --seed %d "
          "--mutations %d)" % (seed, sys.argv[0], args.bcast, seed,
                               args.mutations))
    if common.missing(args.bcast, "bcast binary not found or not executable: %s"):
        return 1
    start = time.time()
    tally = common.Tally(most_shown=40, width=600)
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="bcast-malformed-") as tmpdir:
        parts = [
            ("verify: malformed types", lambda: part_verify_types(tally, args.bcast, tmpdir)),
            ("verify: incomplete signatures", lambda: part_verify_signatures(tally, args.bcast)),
            ("verify: garbage", lambda: part_verify_garbage(
                tally, args.bcast, random.Random(rng.randrange(1 << 62)))),
            ("verify: byte mutations", lambda: part_verify_mutations(
                tally, args.bcast, random.Random(rng.randrange(1 << 62)),
                args.mutations)),
            ("verify: long input", lambda: part_verify_long(tally, args.bcast)),
            ("verify: usage and I/O", lambda: part_verify_usage(tally, args.bcast, tmpdir)),
            ("infer: malformed shapes", lambda: part_infer_malformed(tally, args.bcast)),
            ("infer: results", lambda: part_infer_results(tally, args.bcast)),
        ]
        for name, fn in parts:
            before = tally.passed + tally.failed
            t0 = time.time()
            fn()
            print("%s: %d cases, %.1f s" % (name, tally.passed + tally.failed - before,
                                          time.time() - t0))
    print("runtime %.1f s" % (time.time() - start))
    return tally.summary(replay="replay with: --seed %d" % seed)


if __name__ == "__main__":
    sys.exit(main())
