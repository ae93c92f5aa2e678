#!/usr/bin/python3
"""Differential test of TOSA's element-wise ops other than tosa.cast on the
8-bit floats (f8E4M3FN, f8E5M2) against mlir-opt 22: verified, lowered and
run, every input pair.

MLIR 22's TOSA dialect takes every float op on them, and its tosa-to-linalg
lowers them to arith / math ops on the 8-bit type itself (arith.addf on
f8E4M3FN).  mlir-runner cannot execute those (LLVM has no such type), so
the oracle is mlir-opt's constant folding, which computes them through
APFloat in the 8-bit semantics: the linalg body mlir-opt writes for an op
is applied to constants holding every input (all 256 patterns of a unary
op, all 256 x 256 pairs of a binary one) and folded with --canonicalize;
on tensors where its ops fold there (arith.cmpf folds only scalars, so a
body with a comparison is instantiated once per pair).

math.exp, log, rsqrt, tanh, sin, cos, erf and powf do not fold on the
8-bit floats.  For them the body is legalized as MLIR legalizes math on
types without arithmetic (--math-extend-to-supported-types=target-type=f32:
the float32 op between arith.extf and arith.truncf; rsqrt expanded by
--math-expand-ops=ops=rsqrt to 1 / sqrt, as math-to-llvm lowers it) and
folded once per input: the float32 op folds through the C library, and
arith.truncf of an inexact float32 constant (which mlir-opt does not fold)
is replaced by that constant's exact decimal value parsed as a literal of
the 8-bit type (APFloat's round to nearest even, as test_tosa22_fp8.py
checks the casts), then folded again until nothing changes.  Only a
non-finite float32 truncated to f8E4M3FN stays unjudged (APFloat will not
fold it, and no literal names it); those inputs are counted.

Checks, for both types:
  1. verdicts: for every element-wise op (the integer and bool ones too),
     `bcast verify` (the default MLIR 22 tables) accepts exactly what
     mlir-opt accepts and refuses the rest with mlir-opt's message;
     `bcast lower` lowers exactly what mlir-opt's tosa-to-linalg lowers,
     and `bcast lower --types tosa-1.0` refuses them all (TOSA 1.0 has the
     8-bit floats in CAST only);
  2. lowering: bcast's linalg body of each op is mlir-opt's, op for op,
     with equal constants (clamp: the same ops, maximumf with min_val
     first as TOSA's spec writes it, where mlir-opt takes minimumf with
     max_val first; step 3 folds both bodies);
  3. values: where mlir-opt's body folds, bcast's body folds to the same
     bits and `bcast run` gives them (NaN payloads and signed zeros
     included); where it folds only legalized, `bcast run` gives the
     legalized fold's bits for every input it judges.

Usage:
  /usr/bin/python3 tests/diff/test_tosa22_fp8_ops.py --bcast BUILD/bcast \\
      [--keep DIR]
"""
import os
import re
import sys

import numpy as np

import common
from test_tosa22_fp8 import fp8_value

OWN = common.TOSA_TO_LINALG
FP8 = ["f8E4M3FN", "f8E5M2"]
# (op, arity, result "same" or "i1", attributes): every element-wise op
# bcast knows; clamp twice (its bounds, nan_mode).
OPS = [("abs", 1, "same", ""), ("ceil", 1, "same", ""),
       ("clamp", 1, "same", "{min_val = -1.5 : $T, max_val = 2.0 : $T}"),
       ("clamp", 1, "same",
        "{min_val = 0.0 : $T, max_val = 0.0 : $T, nan_mode = IGNORE}"),
       ("cos", 1, "same", ""), ("erf", 1, "same", ""), ("exp", 1, "same", ""),
       ("floor", 1, "same", ""), ("log", 1, "same", ""),
       ("negate", 1, "same", ""), ("reciprocal", 1, "same", ""),
       ("rsqrt", 1, "same", ""), ("sigmoid", 1, "same", ""),
       ("sin", 1, "same", ""), ("tanh", 1, "same", ""),
       ("add", 2, "same", ""), ("sub", 2, "same", ""), ("mul", 2, "same", ""),
       ("maximum", 2, "same", ""), ("minimum", 2, "same", ""),
       ("maximum", 2, "same", "{nan_mode = IGNORE}"),
       ("minimum", 2, "same", "{nan_mode = IGNORE}"),
       ("pow", 2, "same", ""), ("equal", 2, "i1", ""),
       ("greater", 2, "i1", ""), ("greater_equal", 2, "i1", ""),
       ("select", 3, "same", ""),
       # Ops MLIR 22 refuses on floats: verify must say why as it does.
       ("bitwise_not", 1, "same", ""), ("clz", 1, "same", ""),
       ("logical_not", 1, "same", ""), ("bitwise_and", 2, "same", ""),
       ("intdiv", 2, "same", ""), ("logical_and", 2, "same", ""),
       ("logical_left_shift", 2, "same", ""),
       ("arithmetic_right_shift", 2, "same", "{round = false}")]


def ttype(et, n):
    return f"tensor<{n}x{et}>"


class Case:
    def __init__(self, k, op, arity, res, attrs, et):
        self.name = f"{op}{k}_{et}"
        self.op, self.arity, self.et = op, arity, et
        self.res = et if res == "same" else res
        self.attrs = attrs.replace("$T", et)
        # Operand element types (select: an i1 condition first).
        self.ins = (["i1", et, et] if op == "select" else [et] * arity)

    def cli_attrs(self):
        """The attributes as `bcast run --attr` options (run --mlir takes
        shapes and types from its line, attributes from --attr)."""
        out = []
        for name, val in re.findall(r"(\w+) = ([-\w.]+)", self.attrs):
            out += ["--attr", f"{name}={val.lower()}"]
        return out

    def func(self, n):
        """One function applying the op to its arguments (tensors of n)."""
        args = [f"%a{k}" for k in range(len(self.ins))]
        types = [ttype(e, n) for e in self.ins]
        sig = ", ".join(f"{a}: {t}" for a, t in zip(args, types))
        pre, uses, utypes = "", list(args), list(types)
        if self.op == "mul":
            pre = ('  %s = "tosa.const"() <{values = dense<0> : tensor<1xi8>}>'
                   " : () -> tensor<1xi8>\n")
            uses.append("%s")
            utypes.append("tensor<1xi8>")
        if self.op == "negate":
            pre = (f'  %z = "tosa.const"() <{{values = dense<0.0> : tensor<1x{self.et}>}}>'
                   f" : () -> tensor<1x{self.et}>\n")
            uses += ["%z", "%z"]
            utypes += [f"tensor<1x{self.et}>"] * 2
        out = ttype(self.res, n)
        attrs = " " + self.attrs if self.attrs else ""
        line = (f"tosa.{self.op} {', '.join(uses)}{attrs} : ({', '.join(utypes)})"
                f" -> {out}")
        return (f"func.func @{self.name}({sig}) -> {out} {{\n{pre}"
                f"  %0 = {line}\n  return %0 : {out}\n}}\n", pre, line)


def all_inputs(case):
    """The inputs: every pattern (unary), every pair (binary), every pair
    under a condition alternating true / false (select)."""
    p = np.arange(256, dtype=np.uint8)
    if case.arity == 1:
        return [p]
    a, b = np.repeat(p, 256), np.tile(p, 256)
    if case.arity == 2:
        return [a, b]
    cond = (np.arange(65536) % 3 == 0).astype(np.uint8)
    return [cond, a, b]


def dense(x, et, n):
    if et == "i1":
        return f"dense<[{', '.join('true' if v else 'false' for v in x)}]> : {ttype(et, n)}"
    return f'dense<"0x{x.tobytes().hex().upper()}"> : {ttype(et, n)}'


def scalar_lit(v, et):
    if et == "i1":
        return "true" if v else "false"
    return "0x%02X : %s" % (int(v), et)


def fold_func(case, name, args, body, res, xs):
    """A function applying BODY to every input: on tensors when no
    comparison is in it, else one copy per input; the result as i8."""
    n = len(xs[0])
    out_i8 = ttype("i8", n)
    L = []
    if not any("arith.cmpf" in ln for ln in body):
        for k, (a, et) in enumerate(zip(args, case.ins)):
            L.append(f"%t_{a[1:]} = arith.constant {dense(xs[k], et, n)}")

        def tensorize(ln):
            ln = re.sub(r"%([\w$.\-]+)", r"%t_\1", ln)
            m = re.match(r"(%\S+) = arith\.constant (.*) : (\S+)$", ln)
            if m:
                return f"{m.group(1)} = arith.constant dense<{m.group(2)}> : {ttype(m.group(3), n)}"
            head, _, ty = ln.rpartition(" : ")
            if "arith.select" in ln:  # "cond, a, b : T" takes "i1, T" on tensors
                return f"{head} : {ttype('i1', n)}, {ttype(ty, n)}"
            return f"{head} : {ttype(ty, n)}"
        L += [tensorize(ln) for ln in body]
        r = "%t_" + res[1:]
        L.append(f"%bits = arith.bitcast {r} : {ttype(case.res, n)} to {out_i8}"
                 if case.res != "i1" else f"%bits = arith.extui {r} : {ttype('i1', n)} to {out_i8}")
    else:
        # One template renamed per input ("%x" -> "%s<j>_x").
        tmpl = "\n  ".join(re.sub(r"%([\w$.\-]+)", r"%s@J@_\1", ln) for ln in body)
        rets = []
        for j in range(n):
            for k, (a, et) in enumerate(zip(args, case.ins)):
                L.append(f"%s{j}_{a[1:]} = arith.constant {scalar_lit(xs[k][j], et)}")
            L.append(tmpl.replace("@J@", str(j)))
            rets.append(f"%s{j}_{res[1:]}")
        t = ttype(case.res, n)
        L.append(f"%r = tensor.from_elements {', '.join(rets)} : {t}")
        L.append(f"%bits = arith.bitcast %r : {t} to {out_i8}" if case.res != "i1"
                 else f"%bits = arith.extui %r : {t} to {out_i8}")
    return (f"func.func @{name}() -> {out_i8} {{\n  " + "\n  ".join(L)
            + f"\n  return %bits : {out_i8}\n}}\n")


def folded(wd, tag, text):
    """func name -> the folded result's bytes (np.uint8), or None where
    the function did not fold to a constant."""
    path = os.path.join(wd, tag + ".mlir")
    with open(path, "w") as f:
        f.write(text)
    r = common.run_text([common.MLIR_OPT, "--canonicalize",
                         "--mlir-print-elementsattrs-with-hex-if-larger=1", path])
    if r.returncode:
        raise RuntimeError(f"mlir-opt --canonicalize on {path}:\n{r.stderr[-3000:]}")
    out = {}
    for fm in re.finditer(r"func\.func @(\w+)\(\) -> tensor<(\d+)xi8> \{\n(.*?)\n  \}",
                          r.stdout, re.S):
        name, n, body = fm.group(1), int(fm.group(2)), fm.group(3)
        m = re.search(r"(%\S+) = arith\.constant dense<(.*?)> : tensor<\d+xi8>\n\s*return \1 ",
                      body)
        if not m:
            out[name] = None
        elif m.group(2).startswith('"0x'):
            out[name] = np.frombuffer(bytes.fromhex(m.group(2)[3:-1]), np.uint8)
        else:  # a splat
            out[name] = np.full(n, int(m.group(2), 0) & 0xFF, np.uint8)
    return out


EXTEND = ["--math-extend-to-supported-types=target-type=f32",
          "--math-expand-ops=ops=rsqrt", "--canonicalize"]


def scalar_funcs(case, name, args, body, res, xs, chunk=256):
    """BODY once per input in functions of CHUNK inputs each, every
    result bitcast to i8 and returned on its own (an input whose body does
    not fold leaves just its own result unfolded)."""
    tmpl = "\n  ".join(re.sub(r"%([\w$.\-]+)", r"%s@J@_\1", ln) for ln in body)
    out = []
    for lo in range(0, len(xs[0]), chunk):
        L, rets = [], []
        for j in range(lo, min(lo + chunk, len(xs[0]))):
            for k, (a, et) in enumerate(zip(args, case.ins)):
                L.append(f"%s{j}_{a[1:]} = arith.constant {scalar_lit(xs[k][j], et)}")
            L.append(tmpl.replace("@J@", str(j)))
            L.append(f"%b{j} = arith.bitcast %s{j}_{res[1:]} : {case.res} to i8")
            rets.append(f"%b{j}")
        sig = ", ".join(["i8"] * len(rets))
        out.append(f"func.func @{name}__{lo}() -> ({sig}) {{\n  " + "\n  ".join(L)
                   + f"\n  return {', '.join(rets)} : {sig}\n}}\n")
    return "".join(out)


F32_CONST = re.compile(r"^\s*(%\S+) = arith\.constant (\S+) : f32$", re.M)
TRUNCF = re.compile(r"^(\s*)(%\S+) = arith\.truncf (%\S+)(?: fastmath<\w+>)? : f32 to (\S+)$",
                    re.M)


def f32_of(lit):
    """A float32 literal as mlir-opt prints it (decimal, or hex bits)."""
    if lit.startswith("0x"):
        return float(np.array([int(lit, 16)], np.uint32).view(np.float32)[0])
    return float(np.float32(lit))


def legalized_fold(wd, tag, text):
    """func base name -> {input index: result bits} for the inputs whose
    legalized body folds (see the docstring)."""
    path = os.path.join(wd, tag + ".mlir")
    with open(path, "w") as f:
        f.write(text)
    r = common.run_text([common.MLIR_OPT, *EXTEND, path])
    for rnd in range(4):
        if r.returncode:
            raise RuntimeError(f"mlir-opt on {path} (round {rnd}):\n{r.stderr[-3000:]}")
        consts, done = {}, [0]

        def literal(m):
            v = consts.get(m.group(3))
            if v is None or not np.isfinite(v):
                return m.group(0)
            done[0] += 1
            return f"{m.group(1)}{m.group(2)} = arith.constant {common.exact_decimal(v)} : {m.group(4)}"
        # Names are per function; a constant's name may recur in another
        # function, so substitute function by function.
        funcs = re.split(r"(?=^  func\.func )", r.stdout, flags=re.M)
        text = []
        for fn in funcs:
            consts = {m.group(1): f32_of(m.group(2)) for m in F32_CONST.finditer(fn)}
            text.append(TRUNCF.sub(literal, fn))
        if not done[0]:
            break
        path = os.path.join(wd, f"{tag}_{rnd}.mlir")
        with open(path, "w") as f:
            f.write("".join(text))
        r = common.run_text([common.MLIR_OPT, "--canonicalize", path])
    out = {}
    for fm in re.finditer(r"func\.func @(\w+)__(\d+)\(\).*?\n(.*?)\n  \}", r.stdout, re.S):
        name, lo, body = fm.group(1), int(fm.group(2)), fm.group(3)
        ints = {m.group(1): int(m.group(2)) & 0xFF for m in
                re.finditer(r"(%\S+) = arith\.constant (-?\d+) : i8\n", body + "\n")}
        rm = re.search(r"return (.*?) :", body)
        for j, v in enumerate(s.strip() for s in rm.group(1).split(",")):
            if v in ints:
                out.setdefault(name, {})[lo + j] = ints[v]
    return out


def unjudged_reasons(case, xs):
    """Per input, why the legalized fold may leave it unjudged ("" where it
    must judge it): an operand that is a signalling f8E5M2 NaN (its extf
    does not fold), log or rsqrt of a negative or -0 (MLIR's math folds
    refuse a negative operand), or a non-finite float32 truncated to
    f8E4M3FN (estimated in float64: NaN, or beyond float32's range)."""
    n = len(xs[0])
    why = np.full(n, "", object)
    vals = [np.array([fp8_value(case.et, int(b)) for b in range(256)])[x] for x in xs]
    if case.et == "f8E4M3FN":
        with np.errstate(all="ignore"):
            a = vals[0]
            f = {"exp": lambda: np.exp(a), "log": lambda: np.log(a),
                 "rsqrt": lambda: 1 / np.sqrt(a), "tanh": lambda: np.tanh(a),
                 "sin": lambda: np.sin(a), "cos": lambda: np.cos(a), "erf": lambda: a,
                 "sigmoid": lambda: np.exp(-a), "pow": lambda: np.power(a, vals[-1])}
            r = f[case.op]()
        why[~(np.abs(r) <= 3.4028235677973366e38)] = "non-finite float32 to f8E4M3FN"
    if case.op in ("log", "rsqrt"):
        why[xs[0] >= 0x80] = "math op on a negative"
    if case.et == "f8E5M2":
        for x in xs:
            why[(x & 0x7F) == 0x7D] = "signalling NaN"
    return why


def message(stderr):
    """The first diagnostic's text after 'error: '."""
    m = re.search(r"error: (.*)", stderr)
    return m.group(1).strip() if m else ""


def main():
    ap = common.parser(__doc__)
    common.add_mlir_opt_args(ap)
    args = common.parse_args(ap)
    if common.tools_missing(args):
        return 1
    tally = common.Tally()
    check = tally.check
    cases = [Case(k, op, ar, res, at, et) for et in FP8
             for k, (op, ar, res, at) in enumerate(OPS)]

    with common.work_dir(args.keep, "bcast_fp8_ops_") as wd:
        # 1. Verdicts, one file per case.
        lowerable = []
        for c in cases:
            path = os.path.join(wd, f"v_{c.name}.mlir")
            with open(path, "w") as f:
                f.write(c.func(4)[0])
            mo = common.mlir_opt(path)
            bo = common.bcast_text(args.bcast, ["verify", path])
            mv, bv = mo.returncode == 0, bo.returncode == 0
            check(mv == bv, f"verify {c.name}: mlir-opt {mv}, bcast {bv}",
                  bo.stderr[-500:])
            if not mv and not bv:
                want = message(mo.stderr)
                check(want and want in bo.stderr,
                      f"verify {c.name}: mlir-opt's words",
                      f"  mlir-opt: {want}\n  bcast: {bo.stderr[-500:]}")
            ml = common.lowers_alike(check, args.bcast, path, c.name)
            t10 = common.bcast_text(args.bcast, ["lower", "--types", "tosa-1.0", path])
            check(t10.returncode != 0, f"lower --types tosa-1.0 {c.name} refused")
            if ml:
                lowerable.append(c)

        # 2. The lowering, op for op.
        both = common.lower_both(args.bcast, wd, "".join(c.func(4)[0] for c in lowerable),
                                 check)
        if both is None:
            return tally.summary()
        own_b, our_b = both
        differ = []
        for c in lowerable:
            a, b = common.body_ops(*our_b[c.name][:2]), common.body_ops(*own_b[c.name][:2])
            if c.op == "clamp":
                # bcast clamps in the spec's order (maximumf with min_val,
                # then minimumf with max_val), mlir-opt the other way: the
                # same ops, equal for min_val <= max_val (step 3 folds both).
                order = [x[0] for x in a]
                check(order.index("arith.maximumf") < order.index("arith.minimumf"),
                      f"{c.name}: bcast's clamp is maximumf, then minimumf")
                a, b = (sorted(str(x) if x[0] == "const" else x[0] for x in y)
                        for y in (a, b))
                differ.append(c)
            check(a == b, f"{c.name}: bcast's body is mlir-opt's",
                  f"  bcast: {a}\n  mlir:  {b}")
            if a != b and c not in differ:
                differ.append(c)

        # 3. Values: each op's body over every input, folded.
        inputs = {c.name: all_inputs(c) for c in lowerable}
        oracle = folded(wd, "fold_own", "".join(
            fold_func(c, c.name, *own_b[c.name], inputs[c.name]) for c in lowerable))
        # A body equal to mlir-opt's op for op folds to its values; one
        # that differs is folded too, to show how far apart they are.
        mine = {c.name: oracle[c.name] for c in lowerable}
        if differ:
            mine.update(folded(wd, "fold_ours", "".join(
                fold_func(c, c.name, *our_b[c.name], inputs[c.name]) for c in differ)))
        # The ops whose body folds only legalized: their oracle, per input.
        unfolded = [c for c in lowerable if oracle[c.name] is None]
        for c in unfolded:
            check(mine[c.name] is None, f"{c.name}: unfolded in bcast's lowering too")
        legal = legalized_fold(wd, "fold_legal", "".join(
            scalar_funcs(c, c.name, *own_b[c.name], inputs[c.name]) for c in unfolded))
        runs, unjudged = 0, {}
        for c in lowerable:
            xs, n = inputs[c.name], len(inputs[c.name][0])
            want, judged = oracle[c.name], np.ones(n, bool)
            if want is None:
                got = legal.get(c.name, {})
                want = np.array([got.get(j, 0) for j in range(n)], np.uint8)
                judged = np.array([j in got for j in range(n)])
                why = unjudged_reasons(c, xs)
                lost = np.nonzero(~judged & (why == ""))[0]
                check(len(lost) == 0, f"{c.name}: every unjudged input has a known reason",
                      "\n".join("  in " + ", ".join("0x%02X" % int(x[j]) for x in xs)
                                for j in lost[:8]))
                check(judged.sum() > n // 4, f"{c.name}: inputs judged ({judged.sum()}/{n})")
                for reason in set(why[~judged]):
                    unjudged[reason] = unjudged.get(reason, 0) + int((why[~judged] == reason).sum())
            else:
                check(mine[c.name] is not None and np.array_equal(mine[c.name], want),
                      f"{c.name}: bcast's lowering folds to MLIR's values")
            paths = common.save_npys(wd, f"r_{c.name}", [
                x.astype(np.bool_) if et == "i1" else x for x, et in zip(xs, c.ins)])
            out = os.path.join(wd, f"r_{c.name}_out.npy")
            _, pre, line = c.func(n)
            argv = ([args.bcast, "run", "--mlir", f"%0 = {line}"] + c.cli_attrs()
                    + paths + ["-o", out])
            r = common.run_text(argv)
            if r.returncode:
                check(False, f"{c.name}: bcast run", r.stderr[-1000:])
                continue
            got = np.load(out)
            got = got.astype(np.uint8) if c.res == "i1" else got.view(np.uint8)
            bad = np.nonzero((got != want) & judged)[0]
            check(len(bad) == 0, f"{c.name}: bcast run gives MLIR's values "
                  f"({int(judged.sum())} inputs)",
                  "\n".join("  in " + ", ".join("0x%02X" % int(x[j]) for x in xs)
                            + f": run 0x{int(got[j]):02X} mlir 0x{int(want[j]):02X}"
                            for j in bad[:8]))
            runs += int(judged.sum())
        print(f"{len(cases)} verdicts, {len(lowerable)} lowered, {runs} values run "
              f"against mlir-opt's folds ({len(unfolded)} ops legalized first); unjudged: "
              + (", ".join(f"{v} {k}" for k, v in sorted(unjudged.items())) or "none"))
    return tally.summary()


if __name__ == "__main__":
    sys.exit(main())
