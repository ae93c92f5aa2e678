#!/usr/bin/python3
"""`bcast verify --verify-diagnostics`, caret output, --format json/sarif
and the errors that replace silent passes, against mlir-opt 22.

1. Annotated files (tests/data/verify/*.mlir).  Each names its command
   line in a header (`// bcast: ARGS`, and `// mlir-opt: ARGS` when
   mlir-opt can judge it; ARGS split as the shell splits them) and lists the mismatch reports it must produce
   (`// report: L:C: TEXT` for bcast and mlir-opt alike, `// report-bcast:`
   for bcast only; a TEXT ending in "..." is a prefix).  A file without
   reports must pass.  bcast's exit status and its error lines must be
   those; mlir-opt must agree on pass or fail, and where the reports are
   shared its whole stderr (source lines and carets included) must equal
   bcast's.
2. Caret output: plain `bcast verify` on the annotated TOSA and trait
   files against plain mlir-opt: each error line and the two lines after it
   (source line, caret) identical; every located diagnostic of bcast is
   followed by its source line and a caret under its column.
3. --format json and sarif: parsed with the json module and compared with
   the text output of the same run (locations, messages, notes), the note's
   operand/axis/sizes fields against the numbers in its message; odd file
   names and bytes that are not UTF-8 still give valid JSON.  infer,
   explain and lower --stats in JSON against their text output.
4. No silent passes: /etc/passwd, an empty file and tensor<2xfoo> are
   located errors with exit 1 (mlir-opt rejects them too).

Usage:
  /usr/bin/python3 tests/diff/test_verify_diagnostics.py --bcast BUILD/bcast
"""

import glob
import json
import os
import re
import shlex
import shutil
import tempfile

import common

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "data", "verify")
LOCATED = re.compile(r"^(.*?):(\d+):(\d+): (error|warning|note|remark): (.*)$")
NOTE_FIELDS = re.compile(r"at broadcast dim (\d+): operand #(\d+) dim (\d+) "
                         r"\(size (\d+|\?)\) is incompatible with operand "
                         r"#(\d+) dim (\d+) \(size (\d+|\?)\)")


def run(argv, stdin=None):
    rc, out, err = common.run(argv, stdin=stdin, timeout=60)
    return rc, out, err


def located(err, path=None):
    """[(line, col, severity, message)] of the located lines of stderr."""
    out = []
    for line in err.split("\n"):
        m = LOCATED.match(line)
        if m and (path is None or m.group(1) == path):
            out.append((int(m.group(2)), int(m.group(3)), m.group(4), m.group(5)))
    return out


def headers(path):
    """The header comments of an annotated file."""
    h = {"bcast": None, "mlir-opt": None, "report": [], "report-bcast": []}
    with open(path) as f:
        for line in f:
            m = re.match(r"^// (bcast|mlir-opt|report|report-bcast): (.*)$",
                         line.rstrip("\n"))
            if not m:
                continue
            if m.group(1).startswith("report"):
                h[m.group(1)].append(m.group(2))
            else:
                h[m.group(1)] = shlex.split(m.group(2))
    return h


def report_lines(err, path):
    """The "L:C: TEXT" of each error line for PATH."""
    return ["%d:%d: %s" % (l, c, msg) for l, c, sev, msg in located(err, path)
            if sev == "error"]


def reports_match(got, want):
    if len(got) != len(want):
        return False
    for g, w in zip(got, want):
        if w.endswith("...") and g.startswith(w[:-3]):
            continue
        if g != w:
            return False
    return True


def expand_tabs(text):
    out = ""
    for ch in text:
        if ch == "\t":
            out += " " * (8 - len(out) % 8)
        else:
            out += ch
    return out


def check_carets(tally, title, err, files):
    """Every located diagnostic whose location differs from the one before
    is followed by its source line and a caret under its column (notes at
    the same place have none, as in mlir-opt)."""
    lines = err.split("\n")
    problems = []
    prev = None
    count = 0
    for i, line in enumerate(lines):
        m = LOCATED.match(line)
        if not m:
            continue
        path, ln, col = m.group(1), int(m.group(2)), int(m.group(3))
        here = (path, ln, col)
        if m.group(4) == "note" and here == prev:
            continue
        prev = here
        count += 1
        src = files[path].split("\n")[ln - 1]
        if i + 2 >= len(lines) or lines[i + 1] != expand_tabs(src):
            problems.append("%d:%d: no source line after %r" % (ln, col, line))
            continue
        caret = lines[i + 2]
        width = len(expand_tabs(src[:col - 1]))
        if not re.match(r"^ {%d}\^~*$" % width, caret):
            problems.append("%d:%d: caret line %r is not under column %d" %
                            (ln, col, caret, col))
    tally.check(count > 0 and not problems, "%s: source and caret lines (%d "
                "diagnostics)" % (title, count), "\n".join(problems[:10]) + "\n" + err[-3000:])


# ---------------------------------------------------------------------------
# 1. Annotated files.

def part_annotated(tally, args):
    paths = sorted(glob.glob(os.path.join(DATA, "*.mlir")))
    tally.check(len(paths) >= 8, "found only %d annotated files in %s" % (len(paths), DATA))
    for path in paths:
        name = os.path.basename(path)
        h = headers(path)
        if not tally.check(h["bcast"], "%s: no '// bcast:' header" % name):
            continue
        want = h["report"] + h["report-bcast"]
        rel = os.path.relpath(path)
        rc, _, err = run([args.bcast] + h["bcast"] + [rel])
        got = report_lines(err, rel)
        tally.check(rc == (1 if want else 0) and reports_match(got, want),
                    "%s: bcast exit %s, reports differ" % (name, rc),
                    "expected (exit %d):\n  %s\ngot:\n  %s\nstderr:\n%s" %
                    (1 if want else 0, "\n  ".join(want), "\n  ".join(got), err[-3000:]))
        with open(path) as f:
            text = f.read()
        if err:
            check_carets(tally, "%s: bcast" % name, err, {rel: text})
        if h["mlir-opt"] is None:
            continue
        mrc, _, merr = run([args.mlir_opt] + h["mlir-opt"] + [rel])
        tally.check(mrc in (0, 1) and (mrc == 0) == (rc == 0),
                    "%s: mlir-opt exit %s, bcast exit %s" % (name, mrc, rc),
                    "mlir-opt stderr:\n%s\nbcast stderr:\n%s" % (merr[-3000:], err[-3000:]))
        if h["report"] and not h["report-bcast"]:
            tally.check(reports_match(report_lines(merr, rel), h["report"]),
                        "%s: mlir-opt's reports are not the file's" % name,
                        merr[-3000:])
            tally.check(merr == err, "%s: bcast's stderr differs from mlir-opt's" % name,
                        "mlir-opt:\n%s\nbcast:\n%s" % (merr, err))


# ---------------------------------------------------------------------------
# 2. Carets of plain verify against plain mlir-opt.

def part_plain(tally, args, tmpdir):
    for name, bargs in (("tosa.mlir", []), ("trait.mlir", ["--profile", "mlir"])):
        src = os.path.join(DATA, name)
        # Without annotations, as a file of failing ops.
        path = os.path.join(tmpdir, "plain_" + name)
        with open(src) as f:
            text = "".join(l for l in f if "expected-" not in l)
        with open(path, "w") as f:
            f.write(text)
        rc, _, err = run([args.bcast, "verify"] + bargs + [path])
        mrc, _, merr = run([args.mlir_opt, "--split-input-file", path])
        tally.check(rc == 1 and mrc == 1, "%s plain: exit bcast %s, mlir-opt %s" %
                    (name, rc, mrc))
        def triples(e):
            ls = e.split("\n")
            return [tuple(ls[i:i + 3]) for i, l in enumerate(ls)
                    if LOCATED.match(l) and LOCATED.match(l).group(4) == "error"]
        b, m = triples(err), triples(merr)
        tally.check(b and b == m, "%s plain: error, source and caret lines differ "
                    "from mlir-opt's" % name,
                    "mlir-opt:\n%s\nbcast:\n%s" % ("\n".join(map("\n".join, m)),
                                                    "\n".join(map("\n".join, b))))
        check_carets(tally, "%s plain" % name, err, {path: text})
    # Tabs expand to the next multiple of 8 under the caret as well.
    path = os.path.join(tmpdir, "tabs.mlir")
    text = ("func.func @f(%a: tensor<2xf32>, %b: tensor<3xf32>) -> tensor<2xf32> {\n"
            "\t%0 =\ttosa.add %a, %b : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>\n"
            "  return %0 : tensor<2xf32>\n}\n")
    with open(path, "w") as f:
        f.write(text)
    rc, _, err = run([args.bcast, "verify", path])
    _, _, merr = run([args.mlir_opt, path])
    first = lambda e: e.split("\n")[:3]
    tally.check(rc == 1 and first(err) == first(merr),
                "tabs: bcast's caret differs from mlir-opt's",
                "mlir-opt:\n%s\nbcast:\n%s" % ("\n".join(first(merr)), "\n".join(first(err))))


# ---------------------------------------------------------------------------
# 3. JSON and SARIF.

def parse_json_lines(tally, title, out):
    objs = []
    for line in out.split("\n"):
        if not line:
            continue
        try:
            objs.append(json.loads(line))
        except ValueError as e:
            tally.fail("%s: not JSON (%s)" % (title, e), line[:500])
            return None
    return objs


def check_json_against_text(tally, title, objs, err, path):
    """The objects say what the text says: one object per error line, with
    its notes."""
    text = [x for x in located(err, path)]
    flat = []
    for o in objs:
        flat.append((o["line"], o["column"], o["severity"], o["message"]))
        for n in o["notes"]:
            msg = n["message"] + (" [%s profile]" % n["profile"] if n["profile"] else "")
            flat.append((n["line"], n["column"], "note", msg))
    tally.check(objs and all(o["file"] == path for o in objs) and flat == text,
                "%s: JSON and text output differ" % title,
                "text:\n%s\njson:\n%s" % ("\n".join(map(str, text)), "\n".join(map(str, flat))))
    for o in objs:
        for n in o["notes"]:
            m = NOTE_FIELDS.search(n["message"])
            if not m:
                continue
            size = lambda s: None if s == "?" else int(s)
            want = (int(m.group(1)), [int(m.group(2)), int(m.group(5))],
                    [int(m.group(3)), int(m.group(6))], [size(m.group(4)), size(m.group(7))])
            got = (n["axis"], n["operands"], n["operand_axes"], n["sizes"])
            tally.check(got == want, "%s: note fields %s, its message says %s" %
                        (title, got, want), n["message"])


def part_json(tally, args, tmpdir):
    for name, bargs in (("tosa.mlir", []), ("trait.mlir", ["--profile", "mlir"])):
        path = os.path.join(tmpdir, "plain_" + name)  # written by part_plain
        rc, _, err = run([args.bcast, "verify"] + bargs + [path])
        jrc, out, jerr = run([args.bcast, "verify", "--format", "json"] + bargs + [path])
        tally.check(jrc == rc == 1 and not jerr, "%s json: exit %s (text %s), stderr %r" %
                    (name, jrc, rc, jerr[:300]))
        objs = parse_json_lines(tally, name + " json", out)
        if objs is None:
            continue
        check_json_against_text(tally, name + " json", objs, err, path)
        n_fields = sum(1 for o in objs for n in o["notes"] if "sizes" in n)
        tally.check(n_fields > 0, "%s json: no note carries operand/axis/sizes" % name)
        # SARIF: one log, one result per error, the rules it uses listed.
        src, out, serr = run([args.bcast, "verify", "--format", "sarif"] + bargs + [path])
        try:
            log = json.loads(out)
        except ValueError as e:
            tally.fail("%s sarif: not JSON (%s)" % (name, e), out[:1000])
            continue
        run0 = log["runs"][0]
        rules = [r["id"] for r in run0["tool"]["driver"]["rules"]]
        results = run0["results"]
        errors = [x for x in located(err, path) if x[2] == "error"]
        got = [(r["locations"][0]["physicalLocation"]["region"]["startLine"],
                r["locations"][0]["physicalLocation"]["region"]["startColumn"],
                r["level"], r["message"]["text"]) for r in results]
        tally.check(src == 1 and log["version"] == "2.1.0" and "$schema" in log and
                    run0["tool"]["driver"]["name"] == "bcast" and
                    len(set(rules)) == len(rules) and
                    all(r["ruleId"] in rules for r in results) and
                    all(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == path
                        for r in results) and
                    got == [(l, c, s, m) for l, c, s, m in errors],
                    "%s sarif: log does not match the text output" % name,
                    "text: %s\nsarif: %s" % (errors, got))
    # --verify-diagnostics reports as JSON.
    rel = os.path.relpath(os.path.join(DATA, "mismatch_line.mlir"))
    _, _, err = run([args.bcast, "verify", "--verify-diagnostics", rel])
    rc, out, _ = run([args.bcast, "verify", "--verify-diagnostics", "--format", "json", rel])
    objs = parse_json_lines(tally, "mismatch json", out)
    if objs is not None:
        check_json_against_text(tally, "mismatch_line.mlir json", objs, err, rel)
        tally.check(rc == 1 and all(o["rule"] == "verify-diagnostics" for o in objs),
                    "mismatch json: exit %s, rules %s" % (rc, [o["rule"] for o in objs]))
    # Odd file names and bytes that are not UTF-8 still give valid JSON.
    odd = os.path.join(tmpdir, 'we"ird\\na\tme\x01.mlir')
    with open(odd, "wb") as f:
        f.write(b"func.func @f() {\n  %0 = tosa.add %a, %b : (tensor<2x\xff\xfeq>, "
                b"tensor<2xf32>) -> tensor<2xf32>\n}\n")
    rc, out, _ = run([args.bcast, "verify", "--format", "json", odd])
    objs = parse_json_lines(tally, "odd bytes json", out)
    if objs is not None:
        tally.check(rc == 1 and len(objs) == 1 and objs[0]["file"] == odd and
                    objs[0]["line"] == 2 and "\ufffd" in objs[0]["message"],
                    "odd bytes json: %s" % objs)
    part_json_commands(tally, args, tmpdir)


def part_json_commands(tally, args, tmpdir):
    b = args.bcast
    # infer: the examples of docs/cli.md; the text output of the same call.
    for shapes, result, checks in ((["[2,?,1]", "[3]"], "[2,?,3]", []),
                                   (["[n]", "[m]"], "[?]",
                                    ["n == m or n == 1 or m == 1"]),
                                   (["[n,1]", "[1,m]"], "[n,m]", [])):
        rc, out, _ = run([b, "infer", "--format", "json"] + shapes)
        trc, text, _ = run([b, "infer"] + shapes)
        try:
            o = json.loads(out)
        except ValueError:
            tally.fail("infer json %s: not JSON" % shapes, out)
            continue
        tlines = text.rstrip("\n").split("\n")
        tally.check(rc == trc == 0 and o["result"] == result == tlines[0] and
                    [c["condition"] for c in o["checks"]] == checks and
                    o["checks_total"] == len(checks) == len(tlines) - 1 and
                    all(c["operands"] == [0, 1] for c in o["checks"]),
                    "infer json %s: %s" % (shapes, o), text)
    rc, out, _ = run([b, "infer", "--format", "json", "[2,3,4]", "[5,4]"])
    try:
        o = json.loads(out)
        tally.check(rc == 1 and o["severity"] == "error" and o["status"] == "BCAST_INCOMPATIBLE"
                    and o["operands"] == [0, 1] and o["axis"] == 1 and
                    o["operand_axes"] == [1, 0] and o["sizes"] == [3, 5] and
                    o["file"] is None and "incompatible" in o["message"],
                    "infer json failure: %s" % o)
    except ValueError:
        tally.fail("infer json failure: not JSON", out)
    # explain: against its text lines.
    shapes = ["[3,1]", "[2,1,4]", "[n,1,1]"]
    rc, out, _ = run([b, "explain", "--format", "json"] + shapes)
    _, text, _ = run([b, "explain"] + shapes)
    try:
        o = json.loads(out)
        tlines = text.rstrip("\n").split("\n")
        ok = rc == 0 and tlines[0] == "result " + o["result"] and len(o["operands"]) == 3
        for k, (op, line) in enumerate(zip(o["operands"], tlines[1:])):
            bd = "broadcast_dimensions=[%s]" % ",".join(map(str, op["broadcast_dimensions"]))
            ok = ok and line.startswith("operand #%d %s: %s" % (k, op["shape"], bd))
            ok = ok and (("expands dim %s from 1" % ", ".join(map(str, op["expanded"])))
                         in line) == bool(op["expanded"])
            ok = ok and ("run-time check on dim" in line) == bool(op["runtime_check"])
            ok = ok and ("adds %d leading dim" % op["new_leading_dims"] in line) == \
                (op["new_leading_dims"] > 0)
        tally.check(ok, "explain json differs from its text", "%s\n%s" % (out, text))
    except ValueError:
        tally.fail("explain json: not JSON", out)
    # lower --stats: the same counts as the text line.
    src = os.path.join(DATA, "tosa.mlir")
    good = os.path.join(tmpdir, "lower_ok.mlir")
    with open(src) as f:
        chunks = f.read().split("// -----")
    with open(good, "w") as f:
        f.write(chunks[0] + chunks[3])  # two passing ops
    rc, _, err = run([b, "lower", "--stats", good])
    jrc, _, jerr = run([b, "lower", "--stats", "--format", "json", good])
    m = re.search(r"(\d+) ops lowered, (\d+) maps, (\d+) copies, (\d+) asserts", err)
    try:
        o = json.loads(jerr)
        tally.check(rc == jrc == 0 and m and
                    [o["ops_lowered"], o["maps"], o["copies"], o["asserts"]] ==
                    [int(x) for x in m.groups()] and o["ops_lowered"] == 2,
                    "lower --stats json %s vs text %r" % (o, err))
    except ValueError:
        tally.fail("lower --stats json: not JSON", jerr)
    bad = os.path.join(tmpdir, "plain_tosa.mlir")
    rc, _, jerr = run([b, "lower", "--format", "json", bad])
    try:
        o = json.loads(jerr.split("\n")[0])
        tally.check(rc == 1 and o["severity"] == "error" and o["file"] == bad and
                    isinstance(o["line"], int) and o["line"] > 1,
                    "lower json error: exit %s, %s" % (rc, o))
    except ValueError:
        tally.fail("lower json error: not JSON", jerr)


# ---------------------------------------------------------------------------
# 4. No silent passes.

def part_silent(tally, args, tmpdir):
    b = args.bcast
    empty = os.path.join(tmpdir, "empty.mlir")
    open(empty, "w").close()
    for path in ("/etc/passwd", empty):
        rc, out, err = run([b, "verify", "--summary", path])
        errs = located(err, path)
        tally.check(rc == 1 and errs and errs[0][:3] == (1, 1, "error") and
                    "no op to check" in errs[0][3] and "1 failed" in out,
                    "%s: exit %s, not a located error" % (path, rc), out + err)
        rc, out, _ = run([b, "verify", "--format", "json", path])
        try:
            o = json.loads(out)
            tally.check(rc == 1 and o["line"] == 1 and o["column"] == 1 and
                        o["rule"] == "no-ops", "%s json: %s" % (path, o))
        except ValueError:
            tally.fail("%s json: not JSON" % path, out)
    mrc, _, _ = run([args.mlir_opt, "/etc/passwd"])
    tally.check(mrc == 1, "mlir-opt accepts /etc/passwd (exit %s)" % mrc)
    foo = os.path.join(tmpdir, "foo.mlir")
    with open(foo, "w") as f:
        f.write("func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
                "  %0 = tosa.add %a, %a : (tensor<2xfoo>, tensor<2xf32>) -> tensor<2xf32>\n"
                "  return %0 : tensor<2xf32>\n}\n")
    rc, _, err = run([b, "verify", foo])
    errs = located(err, foo)
    tally.check(rc == 1 and errs and errs[0][:2] == (2, 8) and
                "unknown element type 'foo'" in errs[0][3],
                "tensor<2xfoo>: exit %s, not a located error" % rc, err)
    mrc, _, _ = run([args.mlir_opt, foo])
    tally.check(mrc == 1, "mlir-opt accepts tensor<2xfoo> (exit %s)" % mrc)
    rc, _, err = run([b, "infer", "tensor<2xfoo>"])
    tally.check(rc == 2 and "unknown element type 'foo'" in err,
                "infer tensor<2xfoo>: exit %s" % rc, err)
    # Known element types still pass.
    for elem in ("f32", "bf16", "i1", "ui8", "si16", "index", "complex<f32>",
                 "f8E4M3FN", "!quant.any"):
        rc, _, err = run([b, "infer", "tensor<2x%s>" % elem, "[2]"])
        tally.check(rc == 0, "infer tensor<2x%s>: exit %s" % (elem, rc), err)


def part_nan_mode(tally, args, tmpdir):
    """nan_mode = "IGNORE" (a string): MLIR 22 drops it and keeps PROPAGATE.
    verify passes it with a located warning (none under
    --verify-diagnostics, as mlir-opt prints none); lower warns too and
    lowers PROPAGATE, as mlir-opt's tosa-to-linalg does (no NaN test)."""
    b = args.bcast
    path = os.path.join(tmpdir, "nan_mode.mlir")
    with open(path, "w") as f:
        f.write("func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {\n"
                "  %0 = tosa.minimum %a, %b {nan_mode = \"IGNORE\"} : "
                "(tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n"
                "  return %0 : tensor<4xf32>\n}\n")
    want = ("'tosa.minimum' op nan_mode = \"IGNORE\" is not a NaN mode of "
            "MLIR 22, which drops the attribute and keeps PROPAGATE")
    rc, _, err = run([b, "verify", path])
    warns = [e for e in located(err, path) if e[2] == "warning"]
    tally.check(rc == 0 and len(warns) == 1 and warns[0][:2] == (2, 8) and
                warns[0][3].startswith(want),
                "verify of a string nan_mode: exit %s, expected one warning" % rc, err)
    rc, _, err = run([b, "verify", "--verify-diagnostics", path])
    tally.check(rc == 0 and "warning" not in err,
                "verify --verify-diagnostics of a string nan_mode: exit %s" % rc, err)
    rc, out, err = run([b, "lower", path])
    warns = [e for e in located(err, path) if e[2] == "warning"]
    tally.check(rc == 0 and len(warns) == 1 and warns[0][3].startswith(want) and
                "arith.minimumf" in out and "cmpf uno" not in out,
                "lower of a string nan_mode: exit %s, expected a warning and "
                "PROPAGATE's arith.minimumf without a NaN test" % rc, err + out)
    mrc, mout, _ = run([args.mlir_opt, path])
    tally.check(mrc == 0 and "nan_mode" not in mout,
                "mlir-opt 22 no longer drops a string nan_mode (exit %s)" % mrc, mout)


def main():
    ap = common.parser(__doc__)
    ap.add_argument("--mlir-opt", default=common.MLIR_OPT)
    args = common.parse_args(ap)
    if common.missing(args.mlir_opt, "mlir-opt not found at %s (package mlir-22-tools)"):
        return 1
    tally = common.Tally(most_shown=30, width=300)
    tmpdir = tempfile.mkdtemp(prefix="bcast-vd-")
    try:
        # Relative paths in the reports: run from the repository root.
        os.chdir(os.path.join(HERE, "..", ".."))
        part_annotated(tally, args)
        part_plain(tally, args, tmpdir)
        part_json(tally, args, tmpdir)
        part_silent(tally, args, tmpdir)
        part_nan_mode(tally, args, tmpdir)
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)
    return tally.summary()


if __name__ == "__main__":
    raise SystemExit(main())
