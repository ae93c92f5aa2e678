#!/usr/bin/python3
"""Conformance of bcast on MLIR 22's own TOSA and trait test files (issue
22): bcast's verdicts and diagnostics against mlir-opt 22's, and its
lowering executed against mlir-opt's own tosa-to-linalg.

Usage:
  /usr/bin/python3 scripts/upstream_tosa.py --upstream DIR
      [--bcast PATH] [--json] [-v] [--seed N] [--keep DIR]

DIR holds the files FILES below at their llvm-project paths: a checkout
of llvm-project (nothing of it is committed here), or tests/data/tosa22,
which holds the cases of these files that hold an element-wise op, with
their source commit in each file's head (tests/diff/test_tosa22_upstream.py
runs this script's measure() on it).  A file DIR lacks is reported absent.

Which cases: each file split at its `// -----` lines as
`mlir-opt --split-input-file` splits it; a case counts when a line that is
not a comment holds an element-wise op bcast knows (`bcast --list-ops`,
tosa.NAME in generic or custom form) or "test.broadcastable".

Per case, four figures:
  verdict   mlir-opt 22 runs over the file with the passes of its RUN
            line (without -verify-diagnostics; the files of
            Conversion/TosaToLinalg with tosa-to-linalg, whose refusals are
            its verdict); bcast runs `verify` (`lower` for the conversion
            files) over the case.  They agree when bcast's error lines are
            exactly mlir-opt's error lines on element-wise op lines.  A case
            where mlir-opt stops at an error on another line (a parse error
            in an op MLIR 22 does not know, another op's verifier) says
            nothing about the element-wise ops: it is counted as "other"
            and not judged.  A RUN line's -tosa-validate pass is bcast's
            `verify --tosa-validate` (the pass's type checks); a case whose
            mlir-opt verdict changes when the pass is left out, on a file
            whose bcast command does not model the pass, is counted as
            "validate" and not judged.
  diag      for a case whose annotations all point at element-wise op
            lines (or that has none) and that mlir-opt itself passes with
            --verify-diagnostics: `bcast verify --verify-diagnostics`
            passes it too (bcast's own notes are not "unexpected").
  lowered   for a case of the conversion files that mlir-opt lowers without
            error: `bcast lower` lowers it too.
  executed  each element-wise op of a lowered case becomes a function of
            its own (its constant operands, such as a shift or zero points,
            kept; a dynamic dim gets a size: the result's when static, else
            3 for the first operand and 1 for the others); both lowerings of
            it run under mlir-runner 22 on the same seeded inputs (edge
            values included), and their results must be bit-identical.  Ops
            on types the harness cannot feed (fp8, unranked) are listed,
            not run; unsigned tensors are fed and read through their
            signless view (common.run_lowered's views).

Output: a table per file (cases, agree, disagree, other, validate,
diag-checked, diag-pass, lower-cases, lowered, ops-executed, ops-identical)
and with -v every case that falls short, with the reason.
"""

import json
import os
import re
import sys
import tempfile

from upstream_common import (arg_parser, OP_AT, annotations, located, ops_in, run,
                             split_chunks, write_chunk)

# The differential tests' helpers: where mlir-opt and mlir-runner 22 live,
# the pipelines, running a module and printing its results as bits.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "tests", "diff"))
import common  # noqa: E402

MLIR_OPT, MLIR_RUNNER = common.MLIR_OPT, common.MLIR_RUNNER
VALIDATE = ["-tosa-attach-target=profiles=pro_int,pro_fp extensions=int16,"
            "int4,bf16,fp8e4m3,fp8e5m2,fft,variable,controlflow,doubleround,"
            "inexactround", "-tosa-validate=strict-op-spec-alignment"]
TO_LINALG = ["-pass-pipeline=builtin.module(func.func(tosa-to-linalg))"]
# The path under DIR, the passes of its RUN line, and whether bcast's
# verdict is `lower`'s (the conversion files) or `verify`'s, with the
# flags that mirror the RUN line (-tosa-validate: --tosa-validate); "test.broadcastable"
# is judged under bcast's profile of MLIR 22's trait verifier (--profile
# mlir; the default, trait, is the Broadcastable document).
FILES = (
    ("mlir/test/Dialect/Tosa/invalid.mlir", VALIDATE, "verify --tosa-validate"),
    ("mlir/test/Dialect/Tosa/ops.mlir", ["--verify-each"], "verify"),
    ("mlir/test/Dialect/Tosa/verifier.mlir", [], "verify"),
    # Its RUN pass, --tosa-make-broadcastable, is not in MLIR 22.
    ("mlir/test/Dialect/Tosa/broadcast.mlir", [], "verify"),
    ("mlir/test/Dialect/traits.mlir", [], "verify --profile mlir"),
    ("mlir/test/Conversion/TosaToLinalg/tosa-to-linalg.mlir", TO_LINALG, "lower"),
    ("mlir/test/Conversion/TosaToLinalg/tosa-to-linalg-invalid.mlir", TO_LINALG,
     "lower"),
)
COLUMNS = ("cases", "agree", "disagree", "other", "validate", "diag-checked",
           "diag-pass", "lower-cases", "lowered", "ops-run", "ops-identical")


def known_ops(bcast):
    """{op name: number of data operands} from `bcast --list-ops`."""
    rc, out, _ = run([bcast, "--list-ops"])
    ops = {}
    for line in out.split("\n"):
        m = re.match(r"^([a-z_]+): (\d+) inputs?", line)
        if m:
            ops[m.group(1)] = int(m.group(2))
    return ops


def elementwise_pattern(ops):
    names = "|".join(sorted(ops, key=len, reverse=True))
    return re.compile(OP_AT % (r"tosa\.(?:%s)|test\.broadcastable" % names))


def error_lines(diags):
    return {line for line, _, sev, _ in diags if sev == "error"}


# ---------------------------------------------------------------------------
# Verdicts and --verify-diagnostics.

def mlir_errors(path, flags):
    """mlir-opt's error lines over a file.  mlir-opt 22 also reports an
    expected-error that was not produced, even without -verify-diagnostics:
    that is not a verdict on the op, so it is left out."""
    rc, out, err = run([MLIR_OPT, "--split-input-file"] + list(flags) +
                       [path, "-o", os.devnull])
    diags = [d for d in located(err, path) if not
             re.match(r'expected (error|warning|note|remark) ".*" was not produced',
                      d[3])]
    return error_lines(diags), err


def bcast_errors(args, kind, path):
    if kind == "lower":
        rc, _, err = run([args.bcast, "lower", path, "-o", os.devnull])
    else:
        rc, _, err = run([args.bcast] + kind.split() + [path])
    return error_lines(located(err, path)), err, rc


def judge_case(args, case, mlir_all, mlir_novalidate, kind, flags, tmpdir):
    """Fills case's verdict fields."""
    lo, hi = case["first"], case["last"]
    ops = case["op_lines"]
    mine = {l for l in mlir_all if lo <= l <= hi}
    on_ops = mine & ops
    path = os.path.join(tmpdir, "case.mlir")
    write_chunk(path, lo, case["lines"])
    got, err, rc = bcast_errors(args, kind, path)
    case["mlir_errors"] = sorted(mine)
    case["bcast_errors"] = sorted(got)
    if mlir_novalidate is not None:
        plain = {l for l in mlir_novalidate if lo <= l <= hi}
        if plain != mine:
            case["verdict"] = "validate"
            return
    if mine and not on_ops:
        case["verdict"] = "other"
        return
    if rc not in (0, 1):
        case["verdict"] = "disagree"
        case["why"] = "bcast exit %s: %s" % (rc, err.strip()[:300])
        return
    case["verdict"] = "agree" if got == on_ops else "disagree"
    if got != on_ops:
        case["why"] = "mlir-opt errors on %s, bcast on %s: %s" % (
            sorted(on_ops), sorted(got), err.strip().split("\n")[0][:300])


def diag_case(args, case, flags, kind, tmpdir):
    notes = annotations(case["first"], case["lines"])
    if any(t not in case["op_lines"] for _, _, t, _ in notes):
        return
    path = os.path.join(tmpdir, "diag.mlir")
    write_chunk(path, case["first"], case["lines"])
    mrc, _, _ = run([MLIR_OPT, "--verify-diagnostics"] + list(flags) +
                    [path, "-o", os.devnull])
    if mrc != 0:
        case["diag"] = "mlir-opt fails its own annotations"
        return
    brc, _, berr = run([args.bcast] + kind.split() + ["--verify-diagnostics", path])
    case["diag"] = "pass" if brc == 0 else "fail"
    if brc:
        case["why_diag"] = berr.strip().split("\n")[0][:300]


# ---------------------------------------------------------------------------
# Executing both lowerings of each element-wise op.

FLOATS = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}
INTS = {"i1": 1, "i8": 8, "i16": 16, "i32": 32, "i64": 64}
TYPE = re.compile(r"tensor<((?:[0-9?]+x)*)([a-z0-9]+)>$")


def signless(t):
    """The signless element type or tensor type of an unsigned one ("ui8"
    -> "i8", "tensor<?xui8>" -> "tensor<?xi8>"); others unchanged."""
    return re.sub(r"(^|x)ui(\d+)(>?)$", r"\1i\2\3", t.strip())


def split_top(text):
    """TEXT split at its commas outside <>, () and []."""
    parts, depth, cur = [], 0, ""
    for c in text:
        if c in "<([":
            depth += 1
        elif c in ">)]":
            depth -= 1
        if c == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += c
    if cur.strip():
        parts.append(cur.strip())
    return parts


def parse_type(t):
    """(dims with None for '?', element type) of a ranked tensor, or None."""
    m = TYPE.match(t.strip())
    if not m:
        return None
    dims = [None if d == "?" else int(d) for d in m.group(1).split("x") if d]
    return dims, m.group(2)


def op_function(line, consts, index):
    """The text of a function computing one op line, its input types and
    result type; None when the line is not of a form the harness reads."""
    m = re.match(r'^\s*(%[\w]+)\s*=\s*(.*?)\s*:\s*\((.*)\)\s*->\s*\(?\s*(.*?)\s*\)?\s*$',
                 line)
    if not m:
        return None
    res_name, body, ins, res = m.groups()
    in_types = split_top(ins)
    names = re.findall(r"%[\w#]+", body.split("{")[0])
    if len(names) != len(in_types):
        return None
    args, arg_types, renamed, pre = [], [], {}, []
    for name, t in zip(names, in_types):
        if name in consts:
            pre.append("  " + consts[name].strip())
        elif name not in renamed:
            renamed[name] = "%%in%d" % len(args)
            args.append(renamed[name])
            arg_types.append(t)
    for name, new in renamed.items():
        body = re.sub(re.escape(name) + r"\b", new, body)
    fname = "op%d" % index
    sig = ", ".join("%s: %s" % (a, t) for a, t in zip(args, arg_types))
    text = ("func.func @%s(%s) -> %s {\n%s\n  %%r = %s : (%s) -> %s\n"
            "  return %%r : %s\n}\n" % (fname, sig, res, "\n".join(pre), body,
                                        ", ".join(in_types), res, res))
    return fname, text, arg_types, res, body


def concrete(types, res, n_data):
    """Concrete shapes for the inputs and the result (None: cannot run)."""
    parsed = [parse_type(t) for t in types]
    rp = parse_type(res)
    if rp is None or any(p is None for p in parsed):
        return None
    shapes = []
    for k, (dims, _) in enumerate(parsed):
        out = []
        for d, size in enumerate(dims):
            if size is not None:
                out.append(size)
                continue
            rd = rp[0][d] if len(rp[0]) == len(dims) else None
            out.append(rd if rd is not None else (3 if k == 0 else 1))
        shapes.append(out)
    data = [s for s in shapes[:n_data]]
    rank = max(len(s) for s in data) if data else 0
    result = []
    for d in range(rank):
        sizes = [s[d - rank + len(s)] for s in data if d - rank + len(s) >= 0]
        result.append(max(sizes) if sizes else 1)
    return shapes, result, [p[1] for p in parsed], rp[1]


def values(rng, et, n, no_nan=False, nonzero=False, shift_bits=None):
    """n values of element type et as Python numbers (bf16 as float)."""
    import numpy as np
    if et in FLOATS:
        edges = [0.0, -0.0, 0.5, -0.5, 1.5, -2.5, 1.0, -1.0, 127.5, -128.5,
                 65504.0, 3.4e38, -3.4e38, 1e-45, float("inf"), float("-inf"),
                 float("nan"), 2147483648.0, -9.3e18]
        x = list(edges) + list(rng.normal(0, 8, n))
        x = x[:n] if n > len(edges) else list(rng.permutation(x))[:n]
        if no_nan:
            x = [3.0 if v != v else v for v in x]
        return x
    bits = INTS[et]
    if et == "i1":
        return [bool(v) for v in rng.integers(0, 2, n)]
    lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    if shift_bits:
        return [int(v) for v in rng.integers(0, shift_bits, n)]
    edges = [0, 1, -1, lo, hi, lo + 1, 127, -128, 7]
    x = [e for e in edges if lo <= e <= hi] + [
        int(v) for v in rng.integers(lo, hi, n, endpoint=True, dtype=np.int64)]
    x = x[:n] if n > len(x) else [x[int(i)] for i in rng.permutation(len(x))[:n]]
    if nonzero:
        x = [3 if v in (0, -1) else v for v in x]
    return x


def float_bits(v, et):
    """A float as the hex bit pattern of type et (MLIR reads it exactly;
    bfloat16 rounded to nearest even from float32, NaN kept quiet)."""
    import numpy as np
    if et == "f64":
        return "0x%016X" % np.array([v], np.float64).view(np.uint64)[0]
    if et == "f16":
        with np.errstate(over="ignore"):
            return "0x%04X" % np.array([v], np.float16).view(np.uint16)[0]
    with np.errstate(over="ignore"):
        b = int(np.array([v], np.float32).view(np.uint32)[0])
    if et == "f32":
        return "0x%08X" % b
    if v != v:
        return "0x7FC0"
    return "0x%04X" % (((b + 0x7FFF + ((b >> 16) & 1)) >> 16) & 0xFFFF)


def dense(vals, shape, et):
    """A dense<...> literal of vals in a shape."""
    def lit(v):
        if et == "i1":
            return "true" if v else "false"
        if et in FLOATS:
            return float_bits(v, et)
        return str(v)

    def nest(flat, dims):
        if not dims:
            return lit(flat[0])
        step = len(flat) // dims[0] if dims[0] else 0
        return "[" + ", ".join(nest(flat[i * step:(i + 1) * step], dims[1:])
                               for i in range(dims[0])) + "]"
    return "dense<%s>" % nest(vals, shape)


def op_inputs(rng, opname, types, shapes, ets):
    """Input values for one op: shifts in range, no division by 0 or -1,
    no NaN into a float-to-integer cast (MLIR's fptosi of NaN is poison)."""
    vals = []
    for k, (shape, et) in enumerate(zip(shapes, ets)):
        n = 1
        for d in shape:
            n *= d
        kw = {}
        if opname in ("logical_left_shift", "logical_right_shift",
                      "arithmetic_right_shift"):
            kw["shift_bits"] = INTS.get(et, 32)
        if opname == "mul" and k == 2:
            kw["shift_bits"] = 32
        if opname == "intdiv":
            kw["nonzero"] = True
        if opname == "cast":
            kw["no_nan"] = True
        vals.append(values(rng, et, n, **kw))
    return vals


def execute(args, cases, ops, wd):
    """Runs both lowerings of every element-wise op of the lowered cases;
    fills each case's "ops" list."""
    import numpy as np
    rng = np.random.default_rng(args.seed)
    funcs, calls, entries = [], [], []
    views = False  # some op has unsigned types: its tensors are cast views
    for case in cases:
        case["ops"] = []
        consts = {}
        for line in case["lines"]:
            m = re.match(r'^\s*(%[\w]+)\s*=\s*"tosa\.const"', line)
            if m:
                consts[m.group(1)] = line
        for line in case["lines"]:
            m = re.search(r'=\s*"?tosa\.([a-z_]+)"?', line)
            if not m or m.group(1) not in ops:
                continue
            opname = m.group(1)
            entry = {"line": line.strip(), "status": "not run"}
            case["ops"].append(entry)
            got = op_function(line, consts, len(entries))
            shape = got and concrete(got[2], got[3], ops[opname])
            if not got or not shape or any(
                    signless(et) not in FLOATS and signless(et) not in INTS
                    for et in shape[2] + [shape[3]]):
                entry["status"] = "cannot feed"
                continue
            fname, text, types, res, _ = got
            shapes, rshape, ets, ret = shape
            # Unsigned tensors are fed and read through their signless view:
            # builtin.unrealized_conversion_cast at the call, which
            # run_lowered's views pass cancels against the lowering's own
            # casts once the op's (private) function is inlined.
            unsigned = any(signless(t) != t for t in types + [res])
            views |= unsigned
            ets, ret = [signless(e) for e in ets], signless(ret)
            inputs = op_inputs(rng, opname, types, shapes, ets)
            p = "%%v%d" % len(entries)
            L = []
            for k, (vals, s, t, et) in enumerate(zip(inputs, shapes, types, ets)):
                st = "tensor<%s%s>" % ("".join("%dx" % d for d in s), et)
                L.append("  %s_c%d = arith.constant %s : %s" % (p, k, dense(vals, s, et), st))
                L.append("  %s_b%d = tensor.cast %s_c%d : %s to %s" % (
                    p, k, p, k, st, signless(t)))
                L.append("  %s_a%d = builtin.unrealized_conversion_cast %s_b%d : %s to %s"
                         % (p, k, p, k, signless(t), t) if signless(t) != t else
                         "  %s_a%d = tensor.cast %s_b%d : %s to %s" % (
                             p, k, p, k, t, t))
            rt = "tensor<%s%s>" % ("".join("%dx" % d for d in rshape), ret)
            L.append("  %s_r = call @%s(%s) : (%s) -> %s" % (
                p, fname, ", ".join("%s_a%d" % (p, k) for k in range(len(types))),
                ", ".join(types), res))
            L.append("  %s_q = builtin.unrealized_conversion_cast %s_r : %s to %s"
                     % (p, p, res, signless(res)) if signless(res) != res else
                     "  %s_q = tensor.cast %s_r : %s to %s" % (p, p, res, res))
            L.append("  %s_s = tensor.cast %s_q : %s to %s" % (p, p, signless(res), rt))
            L += common.print_bits_lines(p, p + "_s", rshape, ret)
            if unsigned:
                text = text.replace("func.func @", "func.func private @", 1)
            funcs.append(text)
            calls.append("\n".join(L) + "\n")
            entries.append(entry)
    if not entries:
        return
    module = ("".join(funcs) + "func.func private @printMemrefI64(memref<*xi64>)\n"
              "func.func @main() {\n" + "".join(calls) + "  return\n}\n")
    src = os.path.join(wd, "ops.mlir")
    with open(src, "w") as f:
        f.write(module)
    rc, low, err = run([args.bcast, "lower", src])
    if rc:
        for e in entries:
            e["status"] = "bcast lower refused the harness: " + err.strip()[:200]
        return
    ours, why_ours = common.run_lowered(low, wd, "bcast", views=views)
    theirs, why_theirs = common.run_lowered(module, wd, "mlir", pre=common.MLIR_OWN,
                                            views=views)
    for k, e in enumerate(entries):
        if theirs is None:
            e["status"] = "mlir-opt's lowering does not run: " + why_theirs[:200]
        elif ours is None:
            e["status"] = "bcast's lowering does not run: " + why_ours[:200]
        elif ours[k] == theirs[k]:
            e["status"] = "identical"
        else:
            bad = [i for i in range(len(ours[k])) if ours[k][i] != theirs[k][i]]
            e["status"] = "differs at %s: bcast %s, mlir %s" % (
                bad[:4], [ours[k][i] for i in bad[:4]], [theirs[k][i] for i in bad[:4]])


# ---------------------------------------------------------------------------

def measure(args):
    """[case] over FILES: each case a dict of its file, lines, verdicts."""
    ops = known_ops(args.bcast)
    pattern = elementwise_pattern(ops)
    results = []
    with tempfile.TemporaryDirectory(prefix="bcast-tosa-upstream-") as tmpdir:
        wd = args.keep or tmpdir
        os.makedirs(wd, exist_ok=True)
        for rel, flags, kind in FILES:
            path = os.path.join(args.upstream, rel)
            if not os.path.isfile(path):
                continue
            with open(path) as f:
                text = f.read()
            mlir_all, _ = mlir_errors(path, flags)
            plain = None
            if flags is VALIDATE and "--tosa-validate" not in kind.split():
                plain, _ = mlir_errors(path, [])
            cases = []
            for start, lines in split_chunks(text):
                op_lines = ops_in(start, lines, pattern)
                if not op_lines:
                    continue
                case = {"file": rel, "first": start,
                        "last": start + len(lines) - 1, "lines": lines,
                        "op_lines": set(op_lines), "name": "",
                        "ops_named": sorted(set(op_lines.values()))}
                m = re.search(r"func\.func @([\w]+)", "\n".join(lines))
                case["name"] = m.group(1) if m else "?"
                judge_case(args, case, mlir_all, plain, kind, flags, tmpdir)
                if kind != "lower":
                    diag_case(args, case, flags, kind, tmpdir)
                elif case["verdict"] == "agree" and not case["mlir_errors"]:
                    case["lowered"] = not case["bcast_errors"]
                cases.append(case)
            lowered = [c for c in cases if c.get("lowered")]
            if lowered and not args.no_run:
                execute(args, lowered, ops, wd)
            results += cases
    return results


def table(results):
    rows = []
    for rel, _, _ in FILES + (("total", None, None),):
        rs = [r for r in results if rel in (r["file"], "total")]
        ops_run = [o for r in rs for o in r.get("ops", []) if o["status"] != "cannot feed"]
        row = [len(rs)] + [sum(r["verdict"] == v for r in rs)
                           for v in ("agree", "disagree", "other", "validate")]
        row.append(sum(r.get("diag") in ("pass", "fail") for r in rs))
        row.append(sum(r.get("diag") == "pass" for r in rs))
        row.append(sum("lowered" in r for r in rs))
        row.append(sum(bool(r.get("lowered")) for r in rs))
        row.append(len(ops_run))
        row.append(sum(o["status"] == "identical" for o in ops_run))
        rows.append((rel, row))
    return rows


def main():
    ap = arg_parser(__doc__, "llvm-project checkout, or tests/data/tosa22",
                    "list each case that falls short, and why")
    ap.add_argument("--seed", type=int, default=2222, help="input values' seed")
    ap.add_argument("--keep", help="keep the generated files in this folder")
    ap.add_argument("--no-run", action="store_true",
                    help="do not execute the lowerings")
    args = ap.parse_args()
    for tool in (args.bcast, MLIR_OPT, MLIR_RUNNER):
        if not os.access(tool, os.X_OK):
            print("not found or not executable: %s" % tool, file=sys.stderr)
            return 2
    if not any(os.path.isfile(os.path.join(args.upstream, f[0])) for f in FILES):
        print("%s holds none of the files (%s, ...)" % (args.upstream, FILES[0][0]),
              file=sys.stderr)
        return 2
    results = measure(args)
    rows = table(results)
    if args.json:
        for r in results:
            r["op_lines"] = sorted(r["op_lines"])
            del r["lines"]
        print(json.dumps({"columns": COLUMNS, "seed": args.seed,
                          "files": {n: dict(zip(COLUMNS, row)) for n, row in rows},
                          "cases": results}, indent=1))
        return 0
    print("seed %d" % args.seed)
    print("%-28s %s" % ("file", " ".join("%6s" % c[:6] for c in COLUMNS)))
    for rel, row in rows:
        name = os.path.basename(rel) if rel != "total" else rel
        present = rel == "total" or os.path.isfile(os.path.join(args.upstream, rel))
        print("%-28s %s" % (name, " ".join("%6d" % v for v in row)
                            if present else "absent"))
    print("columns: " + ", ".join(COLUMNS))
    if args.verbose:
        for r in results:
            where = "%s:%d @%s" % (os.path.basename(r["file"]), r["first"], r["name"])
            if r["verdict"] in ("disagree", "other", "validate"):
                print("%s: %s %s" % (where, r["verdict"], r.get("why", "")))
            if r.get("diag") not in (None, "pass"):
                print("%s: diag %s %s" % (where, r["diag"], r.get("why_diag", "")))
            if r.get("lowered") is False:
                print("%s: bcast lower refuses it" % where)
            for o in r.get("ops", []):
                if o["status"] != "identical":
                    print("%s: %s: %s" % (where, o["line"][:80], o["status"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
