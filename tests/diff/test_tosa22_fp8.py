#!/usr/bin/python3
"""Differential test of the 8-bit floats (f8E4M3FN, f8E5M2) against
mlir-opt 22: tosa.cast to and from them, verified, lowered and run.

mlir-runner cannot execute MLIR's lowering of these casts: arith.truncf
and extf to and from f8E4M3FN / f8E5M2 have no LLVM lowering (arith-expand
expands only bf16, f8E8M0 and f4E2M1; arith-emulate-unsupported-floats
leaves the truncf itself).  So the oracle is mlir-opt's own constant
folding, which computes arith and math ops through APFloat: the linalg
body that mlir-opt's tosa-to-linalg writes for each cast is instantiated
once per input value (the input a constant, the result bitcast to an
integer) and folded with --canonicalize.  arith.truncf folds only exact
conversions; for an inexact one the oracle is mlir-opt parsing the input's
exact decimal value as a literal of the result type (APFloat's
round-to-nearest-even from the exact value, the same rounding).  Inputs no
fold covers (a NaN or an infinity truncated to f8E4M3FN, a signalling
f8E5M2 NaN widened) are counted and left out; every other input must get
an oracle value.

Checks:
  1. verdicts: for every cast with an 8-bit float on one side (the other
     side i1, i8..i64, f16, bf16, f32, f64, or the other 8-bit float),
     `bcast verify` accepts exactly what mlir-opt accepts, `bcast lower`
     lowers exactly what mlir-opt's tosa-to-linalg lowers, and
     `bcast lower --types tosa-1.0` exactly TOSA 1.0's CAST modes of
     EXT-FP8E4M3 / EXT-FP8E5M2 (to and from f16, bf16, f32); the other
     element-wise ops on the 8-bit floats verify as in mlir-opt;
  2. lowering: bcast's linalg body of each cast is mlir-opt's, op for op,
     with equal constants;
  3. values: for every input (all 256 patterns of an 8-bit float input;
     for a wider input every 8-bit value, every midpoint between
     neighbours, one ulp either side of it, the overflow thresholds,
     zeros, infinities, NaNs and seeded random values), bcast's lowering
     folded by mlir-opt and `bcast run` (8-bit floats read and written as
     their bits, see docs/cli.md) give the oracle's bits exactly.

Usage:
  /usr/bin/python3 tests/diff/test_tosa22_fp8.py --bcast BUILD/bcast \
      [--seed N] [--keep DIR]
"""
import os
import re
import sys

import numpy as np

import common

OWN = common.TOSA_TO_LINALG
FP8 = ["f8E4M3FN", "f8E5M2"]
OTHERS = ["i1", "i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64",
          "f16", "bf16", "f32", "f64"]
FLOATS = ["f16", "bf16", "f32", "f64"]
TOSA10_PEERS = {"f16", "bf16", "f32"}
# Element type -> (storage dtype of its bits, width).
BITS = {"i1": (np.uint8, 1), "i8": (np.uint8, 8), "i16": (np.uint16, 16),
        "i32": (np.uint32, 32), "i64": (np.uint64, 64),
        "ui8": (np.uint8, 8), "ui16": (np.uint16, 16), "ui32": (np.uint32, 32),
        "ui64": (np.uint64, 64),
        "f16": (np.uint16, 16), "bf16": (np.uint16, 16),
        "f32": (np.uint32, 32), "f64": (np.uint64, 64),
        "f8E4M3FN": (np.uint8, 8), "f8E5M2": (np.uint8, 8)}
# (exponent bits, mantissa bits, no infinity) of the 8-bit floats.
FMT = {"f8E4M3FN": (4, 3, True), "f8E5M2": (5, 2, False)}
OTHER_OPS = [("add", 2, None), ("sub", 2, None), ("abs", 1, None),
             ("ceil", 1, None), ("exp", 1, None), ("maximum", 2, None),
             ("equal", 2, "i1"), ("greater", 2, "i1")]


def fp8_value(et, b):
    """The value of 8-bit pattern b (float; NaN for NaN)."""
    e, m, fn = FMT[et]
    bias = (1 << (e - 1)) - 1
    sign = -1.0 if b & 0x80 else 1.0
    exp, mant = (b >> m) & ((1 << e) - 1), b & ((1 << m) - 1)
    top = (1 << e) - 1
    if fn and exp == top and mant == (1 << m) - 1:
        return float("nan")
    if not fn and exp == top:
        return sign * float("inf") if mant == 0 else float("nan")
    if exp == 0:
        return sign * mant * 2.0 ** (1 - bias - m)
    return sign * (1 + mant / (1 << m)) * 2.0 ** (exp - bias)


def finite_grid(et):
    """The finite non-negative values of et, ascending."""
    return sorted({v for b in range(128) for v in [fp8_value(et, b)]
                   if np.isfinite(v)})


def f32_inputs(rng):
    """float32 values around every rounding boundary of both formats."""
    vals = [0.0, float("inf"), float("nan"), 1e-45, 1.17549435e-38,
            3.4028235e38, 1e9, 65504.0, 65520.0]
    for et in FP8:
        grid = finite_grid(et)
        vals += grid
        top = grid[-1]
        step = top - grid[-2]
        grid = grid + [top + step]  # the first value beyond: the overflow
        for lo, hi in zip(grid, grid[1:]):
            mid = np.float32((lo + hi) / 2)
            vals += [float(mid), float(np.nextafter(mid, np.float32(0))),
                     float(np.nextafter(mid, np.float32(np.inf)))]
        vals.append(grid[1] / 4)  # below half the least subnormal
    x = np.array(vals, np.float32)
    x = np.concatenate([x, -x, rng.normal(0, 30, 200).astype(np.float32),
                        (rng.normal(0, 1, 100) * 2.0 ** rng.integers(-20, 18, 100)).astype(np.float32)])
    bits = x.view(np.uint32)
    # NaNs with payloads: quiet, a low payload bit, signalling.
    nans = np.array([0x7FC00000, 0xFFC00000, 0x7FE00000, 0x7FC00001,
                     0x7FA00000, 0xFF900000], np.uint32)
    return np.unique(np.concatenate([bits, nans])).view(np.float32)


def inputs_for(et, rng):
    """The inputs of a cast from et, as a numpy array of et's bits."""
    if et in FP8:
        return np.arange(256, dtype=np.uint8)
    if et == "i1":
        return np.array([0, 1], np.uint8)
    if et.startswith("ui"):
        w = BITS[et][1]
        top = (1 << w) - 1
        v = list(range(0, min(top, 1400) + 1))
        v += [top, top - 1, 57344, 61439, 61440, 65535, 1 << 20, (1 << 24) + 1,
              1 << 31, (1 << 32) - 1, 1 << 63, (1 << 64) - 1]
        v += [int(t) for t in rng.integers(0, top, 64, dtype=np.uint64, endpoint=True)]
        return np.array(sorted({t for t in v if t <= top}), np.uint64).astype(BITS[et][0])
    if et.startswith("i"):
        w = BITS[et][1]
        lo, hi = -(1 << (w - 1)), (1 << (w - 1)) - 1
        v = list(range(max(lo, -700), min(hi, 700) + 1))
        v += [lo, hi, lo + 1, hi - 1, 57344, 61439, 61440, 65535, 1 << 20,
              (1 << 24) + 1, -(1 << 31), (1 << 31) - 1]
        v += [int(t) for t in rng.integers(lo, hi, 64, dtype=np.int64, endpoint=True)]
        v = np.array(sorted({t for t in v if lo <= t <= hi}), np.int64)
        return v.astype({8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}[w]).view(BITS[et][0])
    x32 = f32_inputs(rng)
    if et == "f32":
        return x32.view(np.uint32)
    if et == "f64":
        with np.errstate(invalid="ignore"):
            x = x32.astype(np.float64)
        fin = x[np.isfinite(x) & (x != 0)]
        # Just off each float32 value by far less than a float32 ulp: the
        # double is rounded once, not through float32.
        near = np.concatenate([fin * (1 + 2.0 ** -40), fin * (1 - 2.0 ** -40)])
        return np.unique(np.concatenate([x, near]).view(np.uint64))
    if et == "f16":
        with np.errstate(over="ignore"):
            return np.unique(x32.astype(np.float16).view(np.uint16))
    # bf16: float32 rounded to nearest even, NaN kept quiet.
    b = x32.view(np.uint32).astype(np.uint64)
    r = ((b + 0x7FFF + ((b >> 16) & 1)) >> 16).astype(np.uint16)
    r = np.where(np.isnan(x32), ((b >> 16) | 0x40).astype(np.uint16), r)
    return np.unique(r.astype(np.uint16))


def literal(et, bits):
    """An MLIR literal of et for a bit pattern."""
    if et == "i1":
        return "true" if bits else "false"
    if et.lstrip("u").startswith("i"):  # signed and unsigned alike
        w = BITS[et][1]
        v = int(bits)
        return str(v - (1 << w) if v >> (w - 1) else v)
    return "0x%0*X" % (BITS[et][1] // 4, int(bits))


def float_of(et, bits):
    """The value of a float pattern as a Python float (exact)."""
    if et in FP8:
        return fp8_value(et, int(bits))
    if et == "f16":
        return float(np.array([bits], np.uint16).view(np.float16)[0])
    if et == "bf16":
        return float(np.array([int(bits) << 16], np.uint32).view(np.float32)[0])
    if et == "f32":
        return float(np.array([bits], np.uint32).view(np.float32)[0])
    return float(np.array([bits], np.uint64).view(np.float64)[0])


def ttype(et, n):
    return f"tensor<{n}x{et}>"


def cast_func(name, fr, to, n):
    return (f"func.func @{name}(%a: {ttype(fr, n)}) -> {ttype(to, n)} {{\n"
            f"  %0 = tosa.cast %a : ({ttype(fr, n)}) -> {ttype(to, n)}\n"
            f"  return %0 : {ttype(to, n)}\n}}\n")


def int_type(et):
    return "i1" if et == "i1" else f"i{BITS[et][1]}"


def fold_module(cases, text, tag):
    """For each (name, fr, to, inputs): the linalg body of function NAME
    (TEXT: common.linalg_bodies) instantiated per input, the result bitcast
    to an integer."""
    funcs = []
    for name, fr, to, xs in cases:
        args, body, res = text[name]
        arg = args[0]
        lines, rets = [], []
        for j, b in enumerate(xs):
            def ren(v, j=j):  # %2 -> %s7_2: one name per input
                return f"%s{j}_" + ("in" if v == arg else v[1:])
            # An unsigned input's body takes its signless view.
            typ = "" if fr == "i1" else " : " + (int_type(fr) if fr.startswith("ui") else fr)
            lines.append(f"{ren(arg)} = arith.constant {literal(fr, b)}{typ}")
            for ln in body:
                lines.append(re.sub(r"%[\w$.\-]+", lambda k: ren(k.group(0)), ln))
            r = ren(res)
            sfx = f"__{j}"
            if to not in FP8 and not to.startswith("f") and to != "bf16":
                rets.append(r)
            else:
                lines.append(f"%bits{sfx} = arith.bitcast {r} : {to} to {int_type(to)}")
                rets.append(f"%bits{sfx}")
        it = int_type(to)
        funcs.append(f"func.func @{tag}_{name}() -> ({', '.join([it] * len(rets))}) {{\n  "
                     + "\n  ".join(lines) + f"\n  return {', '.join(rets)} : "
                     + ", ".join([it] * len(rets)) + "\n}\n")
    return "".join(funcs)


def parse_literal_module(cases, tag):
    """The fallback oracle: each input's exact value parsed as a literal
    of the result type (None where it has none: NaN, infinity)."""
    funcs, slots = [], []
    for name, fr, to, xs in cases:
        lines, rets = [], []
        for j, b in enumerate(xs):
            v = float_of(fr, b)
            if not np.isfinite(v):
                continue
            lines.append(f"%p__{j} = arith.constant {common.exact_decimal(v)} : {to}")
            lines.append(f"%q__{j} = arith.bitcast %p__{j} : {to} to i8")
            rets.append(f"%q__{j}")
            slots.append((name, j))
        funcs.append(f"func.func @{tag}_{name}() -> ({', '.join(['i8'] * len(rets))}) {{\n  "
                     + "\n  ".join(lines) + f"\n  return {', '.join(rets)} : "
                     + ", ".join(["i8"] * len(rets)) + "\n}\n")
    return "".join(funcs)


def folded_results(text, tag):
    """func name -> list of ints (unsigned bits) or None (not folded)."""
    out = {}
    for fm in re.finditer(r"func\.func @" + tag + r"_(\w+)\(\).*?\n(.*?)\n  \}", text, re.S):
        name, body = fm.group(1), fm.group(2)
        consts = {}
        for m in re.finditer(r"(%[\w$.\-]+) = arith\.constant (true|false|-?\d+)(?: : i(\d+))?\n", body + "\n"):
            v = m.group(2)
            if v in ("true", "false"):
                consts[m.group(1)] = 1 if v == "true" else 0
            else:
                w = int(m.group(3))
                consts[m.group(1)] = int(v) & ((1 << w) - 1)
        rm = re.search(r"return (.*?) :", body)
        names = [s.strip() for s in rm.group(1).split(",")] if rm else []
        out[name] = [consts.get(n) for n in names]
    return out


def canonicalize(wd, tag, text):
    path = os.path.join(wd, tag + ".mlir")
    with open(path, "w") as f:
        f.write(text)
    r = common.mlir_opt(path, pipeline="builtin.module(canonicalize)")
    if r.returncode:
        raise RuntimeError(f"mlir-opt --canonicalize on {path}:\n{r.stderr[-3000:]}")
    return r.stdout


MANT = {"f16": 10, "bf16": 7, "f32": 23, "f64": 52}


def no_oracle(fr, to, b):
    """Inputs MLIR's folding cannot judge (see the docstring): a NaN or an
    infinity truncated to f8E4M3FN, a NaN truncated to f8E5M2 that is
    signalling or loses payload bits below its top two, a signalling
    f8E5M2 NaN (0x7d, 0xfd) widened."""
    if fr == "f8E5M2":
        return b & 0x7F == 0x7D
    v = float_of(fr, b)
    if to == "f8E4M3FN":
        return not np.isfinite(v)
    if to == "f8E5M2" and np.isnan(v):
        m = MANT[fr]
        mant = b & ((1 << m) - 1)
        return not (mant >> (m - 1)) & 1 or mant & ((1 << (m - 2)) - 1) != 0
    return False


def main():
    ap = common.parser(__doc__, seed=2208)
    common.add_mlir_opt_args(ap)
    args = common.parse_args(ap)
    if common.tools_missing(args):
        return 1
    print(f"seed {args.seed} (replay with --seed {args.seed})")
    rng = np.random.default_rng(args.seed)
    tally = common.Tally()
    check = tally.check

    with common.work_dir(args.keep, "bcast_fp8_") as wd:
        # 1. Verdicts, one file per case.
        pairs = [(f, t) for f in FP8 for t in OTHERS + FP8 if f != t]
        pairs += [(f, t) for f in OTHERS for t in FP8]
        lowerable = []
        for fr, to in pairs:
            path = os.path.join(wd, f"v_{fr}_{to}.mlir")
            with open(path, "w") as f:
                f.write(cast_func("c", fr, to, 4))
            mv = common.mlir_opt(path).returncode == 0
            bv = common.bcast_text(args.bcast, ["verify", path]).returncode == 0
            check(mv == bv, f"verify cast {fr} -> {to}: mlir-opt {mv}, bcast {bv}")
            ml = common.lowers_alike(check, args.bcast, path,
                                     f"cast {fr} -> {to}")
            tosa10 = common.bcast_text(args.bcast, ["lower", "--types", "tosa-1.0", path])
            want = (fr in TOSA10_PEERS) or (to in TOSA10_PEERS)
            check((tosa10.returncode == 0) == want,
                  f"lower --types tosa-1.0 cast {fr} -> {to}: want {want}",
                  tosa10.stderr[-500:])
            if ml:
                lowerable.append((fr, to))
        for et in FP8:
            for op, arity, res in OTHER_OPS:
                path = os.path.join(wd, f"o_{op}_{et}.mlir")
                ty = ttype(et, 4)
                out = ttype(res or et, 4)
                operands = ", ".join(["%a"] * arity)
                with open(path, "w") as f:
                    f.write(f"func.func @f(%a: {ty}) -> {out} {{\n  %0 = tosa.{op} {operands} : "
                            f"({', '.join([ty] * arity)}) -> {out}\n  return %0 : {out}\n}}\n")
                mv = common.mlir_opt(path).returncode == 0
                bv = common.bcast_text(args.bcast, ["verify", path]).returncode == 0
                check(mv == bv, f"verify {op} on {et}: mlir-opt {mv}, bcast {bv}")

        # 2. The lowering, op for op.
        cases = [(f"c_{fr}_{to}", fr, to, inputs_for(fr, rng)) for fr, to in lowerable]
        src = "".join(cast_func(name, fr, to, 4) for name, fr, to, _ in cases)
        both = common.lower_both(args.bcast, wd, src, check)
        if both is None:
            return tally.summary()
        own_b, our_b = both
        for name, fr, to, _ in cases:
            a, b = (common.body_ops(*our_b[name][:2]),
                    common.body_ops(*own_b[name][:2]))
            check(a == b, f"{name}: bcast's body is mlir-opt's",
                  f"  bcast: {a}\n  mlir:  {b}")

        # 3. Values.
        oracle = folded_results(canonicalize(wd, "fold_own", fold_module(cases, own_b, "own")), "own")
        lowered = folded_results(canonicalize(wd, "fold_ours", fold_module(cases, our_b, "ours")), "ours")
        narrow = [c for c in cases if c[2] in FP8 and c[1] in FLOATS]
        parsed = folded_results(canonicalize(wd, "parse", parse_literal_module(narrow, "lit")), "lit")
        unjudged = 0
        for name, fr, to, xs in cases:
            want = list(oracle[name])
            if name in parsed:
                finite = [j for j, b in enumerate(xs) if np.isfinite(float_of(fr, b))]
                lits = dict(zip(finite, parsed[name]))
                # Where truncf folded (exact values), the two oracles agree.
                differ = [j for j in lits if want[j] is not None and want[j] != lits[j]]
                check(not differ, f"{name}: truncf's folds equal the literals",
                      "\n".join(f"  in {literal(fr, xs[j])}: fold {want[j]} literal {lits[j]}"
                                for j in differ[:6]))
                for j, v in lits.items():
                    want[j] = v
            missing = [j for j, b in enumerate(xs) if want[j] is None and not no_oracle(fr, to, int(b))]
            check(not missing, f"{name}: an oracle value for every input",
                  "  no fold for inputs " + ", ".join(literal(fr, xs[j]) for j in missing[:8]))
            unjudged += sum(w is None for w in want)
            # bcast's lowering folds exactly as MLIR's (unfolded where it is).
            got, theirs = lowered[name], oracle[name]
            bad = [j for j in range(len(xs)) if got[j] != theirs[j]]
            check(not bad, f"{name}: bcast's lowering folds to MLIR's values",
                  "\n".join(f"  in {literal(fr, xs[j])}: bcast {got[j]} mlir {theirs[j]}" for j in bad[:6]))
            # bcast run: 8-bit floats as uint8 files, bfloat16 as '|V2'.
            store = xs if fr not in ("bf16",) else xs.view(np.dtype("V2"))
            if fr not in FP8 and fr != "bf16" and fr != "i1":
                store = xs.view({"ui8": np.uint8, "ui16": np.uint16, "ui32": np.uint32,
                                 "ui64": np.uint64,
                                 "i8": np.int8, "i16": np.int16, "i32": np.int32,
                                 "i64": np.int64, "f16": np.float16,
                                 "f32": np.float32, "f64": np.float64}[fr])
            if fr == "i1":
                store = xs.astype(np.bool_)
            (inp,) = common.save_npys(wd, f"r_{name}", [store])
            out = os.path.join(wd, f"r_{name}_out.npy")
            n = len(xs)
            line = f"%0 = tosa.cast %a : ({ttype(fr, n)}) -> {ttype(to, n)}"
            r = common.run_text([args.bcast, "run", "--mlir", line, inp, "-o", out])
            if r.returncode:
                check(False, f"{name}: bcast run", r.stderr[-1000:])
                continue
            res = np.load(out)
            if res.dtype.kind == "V" or to == "i1":
                res = res.view(BITS[to][0]) if to != "i1" else res.astype(np.uint8)
            else:
                res = res.view(BITS[to][0])
            bad = [j for j in range(n) if want[j] is not None and int(res[j]) != want[j]]
            check(not bad, f"{name}: bcast run gives MLIR's values",
                  "\n".join(f"  in {literal(fr, xs[j])}: run {int(res[j])} mlir {want[j]}" for j in bad[:6]))
        print(f"{sum(len(c[3]) for c in cases)} values in {len(cases)} casts; "
              f"{unjudged} without a folded oracle (NaN or inf -> f8E4M3FN, "
              "signalling or payload-losing NaN -> f8E5M2, signalling f8E5M2 "
              "NaN -> a float)")
    return tally.summary(f"replay with --seed {args.seed}")


if __name__ == "__main__":
    sys.exit(main())
