#!/usr/bin/python3
"""Differential test of the element types MLIR 22's TOSA dialect takes
beyond TOSA 1.0.2's profiles (bcast's default "mlir" type tables, see
docs/profiles.md): int64 and float64, every signed integer where an op
takes one, mul's relaxed result, and CAST between bool, int8..int64,
float16, bfloat16, float32 and float64.

The cases: every CAST pair of those types; clamp, minimum, maximum, add,
sub, comparisons, abs and select of each signed integer; int64 intdiv,
bitwise ops, shifts (counts in range), clz, negate and mul; int8/int16 mul
into the input type; float64 of the arithmetic, rounding and
transcendental ops.  Unsigned types (ui8..ui64), which MLIR 22 lowers
on their signless view: add, sub, mul, the bitwise ops, the logical
shifts and select; CAST to and from them (floats saturate to the signed
range of the width, unsigned inputs extend by sign); clamp; SPOTS holds
values whose expected result was read from mlir-opt's own lowering.

Each case is one TOSA op in a function.  The same function goes through
  - `bcast lower`, then common.LLVM_PIPELINE and mlir-runner;
  - mlir-opt 22's own tosa-to-linalg (MLIR_OWN), then the same pipeline;
  - `bcast run --mlir` on the same inputs written as .npy (except bf16,
    which .npy does not have);
and the three results must be bit-identical (floats compared as their
bits: NaN payloads, -0.0, saturation and rounding included), except that
bcast run's libm results of exp, log, tanh, erf, sigmoid, reciprocal,
rsqrt and pow may differ from the lowering's by 4 ulp.  Float ->
integer casts of NaN are left out: MLIR's fptosi of NaN is poison.  Then
`bcast lower --types tosa-1.0` must refuse each case that TOSA 1.0.2's
tables do not have (the previous default), so the test fails on the old
code.

Inputs are fixed edge values (±0, ±inf, NaN, signalling NaNs, halfway
points, the limits of every integer type) plus seeded random values; the seed is printed and
--seed replays it.  Cases mirroring llvm-project's
mlir/test/Conversion/TosaToLinalg/tosa-to-linalg.mlir name the upstream
function they follow.

Usage:
  /usr/bin/python3 tests/diff/test_tosa22_types.py --bcast BUILD/bcast \
      [--seed N] [--keep DIR]
"""
import os
import re
import sys

import numpy as np

import common

MLIR_OWN = common.MLIR_OWN

# Element type -> (numpy storage type, bits, float?).
ET = {"i1": (np.bool_, 1, False), "i8": (np.int8, 8, False),
      "i16": (np.int16, 16, False), "i32": (np.int32, 32, False),
      "i64": (np.int64, 64, False), "f16": (np.float16, 16, True),
      "bf16": (np.uint16, 16, True), "f32": (np.float32, 32, True),
      "f64": (np.float64, 64, True), "ui8": (np.uint8, 8, False),
      "ui16": (np.uint16, 16, False), "ui32": (np.uint32, 32, False),
      "ui64": (np.uint64, 64, False)}
FLOATS = ["f16", "bf16", "f32", "f64"]
# Ops whose libm results bcast run may round differently (a few ulp); their
# lowerings call the same math ops and must agree exactly.
INEXACT = {"exp", "log", "tanh", "erf", "sigmoid", "reciprocal", "rsqrt", "pow"}
SINTS = ["i8", "i16", "i32", "i64"]
UINTS = ["ui8", "ui16", "ui32", "ui64"]


def signless(et):
    """The signless type of an unsigned element type, as MLIR 22's lowering
    views it ("ui8" -> "i8"); others unchanged."""
    return et[1:] if et in UINTS else et
N = 64  # elements per operand


def f32_edges():
    v = [0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 1.0, -1.0, 127.4,
         127.5, 128.0, -128.5, -129.0, 255.5, 32767.5, -32768.5, 65504.0,
         65520.0, 2147483520.0, 2147483648.0, -2147483648.0, -2147483904.0,
         9.2233715e18, 9.223372e18, -9.223372e18, -9.2233715e18, 3.4e38,
         -3.4e38, 1e-45, -1e-45, 1.17549435e-38, float("inf"),
         float("-inf"), float("nan")]
    return np.array(v, dtype=np.float64)


# Signalling NaNs (both signs, payloads low and high), the last values of
# each float input that may hold a NaN: MLIR's lowering quiets them or
# passes them on as x86 does, and bcast must do the same.
SIGNALLING = {"f16": [0x7C01, 0xFD55, 0x7D00],
              "f32": [0x7F800001, 0xFFA00000, 0x7F812345],
              "f64": [0x7FF0000000000001, 0xFFF4000000000000]}


def float_values(rng, et, nan):
    """N values of float type et as numpy storage (bf16 as its bits)."""
    edges = f32_edges()
    rand = np.concatenate([rng.normal(0, 4, N // 2),
                           rng.normal(0, 1, N // 2) * 10.0 ** rng.integers(-8, 20, N // 2)])
    x = np.concatenate([edges, rand])[:N]
    if not nan:
        x = np.where(np.isnan(x), 3.0, x)
    if et == "bf16":
        return bf16_bits(x.astype(np.float32))
    with np.errstate(over="ignore"):
        y = x.astype(ET[et][0])
    if nan and et in SIGNALLING:
        bits = np.array(SIGNALLING[et], dtype=y.dtype.str.replace("f", "u"))
        y[-len(bits):] = bits.view(y.dtype)
    return y


def bf16_bits(x32):
    """float32 -> bfloat16 bits, round to nearest even, NaN kept quiet."""
    b = x32.view(np.uint32).astype(np.uint64)
    r = ((b + 0x7FFF + ((b >> 16) & 1)) >> 16).astype(np.uint16)
    return np.where(np.isnan(x32), np.uint16(0x7FC0), r).astype(np.uint16)


def int_values(rng, et):
    t, bits, _ = ET[et]
    if et == "i1":
        return rng.integers(0, 2, N).astype(np.bool_)
    lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    edges = [0, 1, -1, 2, -2, 7, -7, lo, hi, lo + 1, hi - 1, 127, -128,
             255, 32767, -32768, 65535, 2 ** 31 - 1, -2 ** 31, 2 ** 24 + 1,
             2 ** 53 + 1, -(2 ** 53 + 1), 2 ** 62 + 2 ** 40 + 1]
    if et in UINTS:  # 0, the maximum and both sides of the sign bit
        lo, hi = 0, (1 << bits) - 1
        edges = [0, 1, 2, hi, hi - 1, hi - 2, (hi >> 1) - 1, hi >> 1,
                 (hi >> 1) + 1, (hi >> 1) + 2, 128, 256, 65536, 2 ** 31 + 5,
                 2 ** 32, 2 ** 63 + 2 ** 40 + 1] + edges
    edges = [e for e in edges if lo <= e <= hi]
    rand = [int(v) for v in rng.integers(0, 2 ** 63, N, dtype=np.uint64)]
    rand = [lo + v % (hi - lo + 1) for v in rand]
    small = [lo + int(v) % min(600, hi - lo + 1) for v in rng.integers(0, 600, N)]
    return np.array((edges + rand[: N // 2] + small)[:N], dtype=object).astype(t)


class Case:
    def __init__(self, name, op, ins, out, mirrors="", attrs="", shift=None,
                 gen=None):
        self.name, self.op, self.ins, self.out = name, op, ins, out
        self.mirrors, self.attrs, self.shift = mirrors, attrs, shift
        self.gen = gen


def cases():
    L = []
    # The refused inputs, and the families around them.
    for fr in ["i1"] + SINTS + FLOATS:
        for to in ["i1"] + SINTS + FLOATS:
            if fr == to or {fr, to} == {"f16", "bf16"}:
                continue  # MLIR's arith has no f16 <-> bf16 cast
            mir = {("f32", "i1"): "@test_simple_f32 (%21)",
                   ("f32", "i64"): "@test_cast_fp32_i64"}.get((fr, to), "")
            L.append(Case(f"cast_{fr}_{to}", "cast", [fr], to, mir))
    for et in SINTS:
        L.append(Case(f"clamp_{et}", "clamp", [et], et,
                      attrs=f"{{min_val = -100 : {et}, max_val = 77 : {et}}}"))
        for op in ["minimum", "maximum", "add", "sub", "equal", "greater",
                   "greater_equal"]:
            res = "i1" if op.startswith(("equal", "greater")) else et
            L.append(Case(f"{op}_{et}", op, [et, et], res))
        L.append(Case(f"abs_{et}", "abs", [et], et))
        L.append(Case(f"select_{et}", "select", ["i1", et, et], et))
    L.append(Case("intdiv_i64", "intdiv", ["i64", "i64"], "i64",
                  gen="nonzero"))
    for et in ["i8", "i16"]:
        L.append(Case(f"mul_{et}_relaxed", "mul", [et, et], et,
                      "@test_simple_i16 (result in the input type)",
                      shift=0))
    L.append(Case("mul_i64", "mul", ["i64", "i64"], "i64", shift=0))
    L.append(Case("clamp_f64", "clamp", ["f64"], "f64",
                  attrs="{min_val = -1.5 : f64, max_val = 2.5 : f64}"))
    for op in ["add", "sub", "minimum", "maximum", "equal", "greater"]:
        res = "i1" if op.startswith(("equal", "greater")) else "f64"
        L.append(Case(f"{op}_f64", op, ["f64", "f64"], res))
    for op in ["abs", "ceil", "floor", "negate"] + sorted(INEXACT - {"pow"}):
        L.append(Case(f"{op}_f64", op, ["f64"], "f64"))
    L.append(Case("pow_f64", "pow", ["f64", "f64"], "f64"))
    L.append(Case("select_f64", "select", ["i1", "f64", "f64"], "f64"))
    for et in ["i64"]:
        for op in ["bitwise_and", "bitwise_or", "bitwise_xor"]:
            L.append(Case(f"{op}_{et}", op, [et, et], et))
        for op in ["logical_left_shift", "logical_right_shift",
                   "arithmetic_right_shift"]:
            L.append(Case(f"{op}_{et}", op, [et, et], et, gen="shift",
                          attrs="{round = false}" if op.startswith("arith") else ""))
        L.append(Case(f"bitwise_not_{et}", "bitwise_not", [et], et))
        L.append(Case(f"negate_{et}", "negate", [et], et))
    for et in ["i8", "i16", "i64"]:
        L.append(Case(f"clz_{et}", "clz", [et], et))
    # Unsigned types, which MLIR 22 lowers on their signless view: casts
    # from bool and the signed integers, to bool, the floats and narrower
    # integers; clamp with bounds near 0 and the maximum, and around the
    # sign bit of the view (where maxsi and maxui differ).
    for to in UINTS:
        for fr in ["i1"] + SINTS:
            L.append(Case(f"cast_{fr}_{to}", "cast", [fr], to))
    for fr in UINTS:
        bits = ET[fr][1]
        # Integers of another width: the view sign-extends (arith.extsi)
        # or truncates.
        other = [t for t in SINTS + UINTS if ET[t][1] != bits]
        for to in ["i1"] + FLOATS + other:
            mir = "@test_simple_ui8" if (fr, to) == ("ui8", "f32") else ""
            L.append(Case(f"cast_{fr}_{to}", "cast", [fr], to, mir))
        top, half = (1 << bits) - 1, 1 << (bits - 1)
        for k, (lo, hi) in enumerate(((2, top - 2), (half - 1, half + 1))):
            L.append(Case(f"clamp_{fr}_{k}", "clamp", [fr], fr,
                          "@test_simple_i32 (%u0)" if fr == "ui32" and k == 0 else "",
                          attrs=f"{{min_val = {lo} : {fr}, max_val = {hi} : {fr}}}"))
    # Floats into unsigned types: MLIR saturates to the signed range of
    # the width (arith.fptosi on the view), so f32 -5.0 -> ui8 is 251.
    for to in UINTS:
        for fr in FLOATS:
            L.append(Case(f"cast_{fr}_{to}", "cast", [fr], to))
    # The ops whose arith op is the same on the signless view: wrapping
    # add, sub and mul (shift 0, result in the input type), the bitwise
    # ops, shli / shrui (counts in range), select.
    for et in UINTS:
        for op in ["add", "sub", "bitwise_and", "bitwise_or", "bitwise_xor"]:
            L.append(Case(f"{op}_{et}", op, [et, et], et))
        L.append(Case(f"mul_{et}", "mul", [et, et], et, shift=0))
        for op in ["logical_left_shift", "logical_right_shift"]:
            L.append(Case(f"{op}_{et}", op, [et, et], et, gen="shift"))
        L.append(Case(f"select_{et}", "select", ["i1", et, et], et))
    # A shifted ui32 product: MLIR 22's tosa.apply_scale on the i32 view,
    # which bcast run computes with the int32 kernel on the same bits.
    L.append(Case("mul_ui32_shift3", "mul", ["ui32", "ui32"], "ui32",
                  shift=3))
    return L


# Spot values of unsigned cases, each as mlir-opt 22's tosa-to-linalg
# computes it (executed with mlir-runner 22, November 2026): checked on
# MLIR's own lowering, on bcast's and on bcast run, placed first in the
# case's inputs.  (case, inputs, expected result)
SPOTS = [
    ("cast_f32_ui8", [-5.0], 251),     # fptosi to i8 gives -5
    ("cast_f32_ui8", [300.0], 127),    # saturates at INT8_MAX, not 255
    ("cast_f32_ui8", [-200.0], 128),   # INT8_MIN's bits
    ("cast_f32_ui8", [127.5], 127),    # roundeven 128, then saturated
    ("cast_f64_ui32", [3e9], 2 ** 31 - 1),
    ("cast_f32_ui64", [-1.0], 2 ** 64 - 1),
    ("cast_ui8_i16", [200], -56),      # arith.extsi of the i8 view
    ("cast_ui8_ui32", [200], 2 ** 32 - 56),
    ("cast_ui16_f32", [65535], 65535.0),  # arith.uitofp
    ("add_ui8", [255, 1], 0),
    ("sub_ui16", [0, 1], 65535),
    ("mul_ui8", [16, 16], 0),
    ("mul_ui32", [65536, 65537], 65536),
    ("logical_right_shift_ui8", [255, 1], 127),
    ("logical_left_shift_ui64", [2 ** 63 + 1, 1], 2),
    # arith.extf quiets a signalling float16 NaN (x86's conversions keep
    # its payload), where NumPy's cast keeps it signalling.
    ("cast_f16_f32", [np.uint16(0x7C01).view(np.float16)],
     np.uint32(0x7FC02000).view(np.float32)),
    ("cast_f16_f32", [np.uint16(0xFD55).view(np.float16)],
     np.uint32(0xFFEAA000).view(np.float32)),
    ("cast_f16_f64", [np.uint16(0x7C01).view(np.float16)],
     np.uint64(0x7FF8040000000000).view(np.float64)),
    ("cast_f16_f64", [np.uint16(0xFD55).view(np.float16)],
     np.uint64(0xFFFD540000000000).view(np.float64)),
]


def ttype(et):
    return f"tensor<{N}x{et}>"


def op_line(case, args):
    types = [ttype(e) for e in case.ins]
    uses = list(args)
    if case.shift is not None:
        uses.append("%shift")
        types.append("tensor<1xi8>")
    if case.op == "negate":
        uses += ["%zp", "%zp"]
        types += [f"tensor<1x{case.ins[0]}>"] * 2
    attrs = " " + case.attrs if case.attrs else ""
    return (f"tosa.{case.op} {', '.join(uses)}{attrs} : ({', '.join(types)})"
            f" -> {ttype(case.out)}")


def func_text(case):
    args = [f"%a{k}" for k in range(len(case.ins))]
    sig = ", ".join(f"{a}: {ttype(e)}" for a, e in zip(args, case.ins))
    body = ""
    if case.shift is not None:
        body += ('  %shift = "tosa.const"() <{values = '
                 f'dense<{case.shift}> : tensor<1xi8>}}>'
                 " : () -> tensor<1xi8>\n")
    if case.op == "negate":
        et = case.ins[0]
        zero = "0.0" if ET[et][2] else "0"
        body += (f'  %zp = "tosa.const"() <{{values = dense<{zero}> : tensor<1x{et}>}}>'
                 f" : () -> tensor<1x{et}>\n")
    # Unsigned tensors are views: their function is inlined (private) so
    # that common.run_lowered's views pass cancels the casts.
    private = "private " if any(e in UINTS for e in case.ins + [case.out]) else ""
    return (f"func.func {private}@{case.name}({sig}) -> {ttype(case.out)} {{\n{body}"
            f"  %0 = {op_line(case, args)}\n  return %0 : {ttype(case.out)}\n}}\n")


def dense(x, et):
    if et == "i1":
        return (f"dense<[{', '.join('true' if v else 'false' for v in x)}]>"
                f" : {ttype(et)}")
    raw = np.ascontiguousarray(x).astype(x.dtype.newbyteorder("<")).tobytes()
    return f'dense<"0x{raw.hex().upper()}"> : {ttype(et)}'


def call_text(case, idx, xs):
    """Calls the function and prints its result as i64 bit patterns (an
    unsigned one as its signless view's, sign-extended)."""
    p = f"%v{idx}"
    L = []
    for k, (x, et) in enumerate(zip(xs, case.ins)):
        L.append(f"  {p}_c{k} = arith.constant {dense(x, signless(et))}")
        if et in UINTS:
            L.append(f"  {p}_c{k}u = builtin.unrealized_conversion_cast {p}_c{k} : "
                     f"{ttype(signless(et))} to {ttype(et)}")
    vals = ", ".join(f"{p}_c{k}{'u' if et in UINTS else ''}"
                     for k, et in enumerate(case.ins))
    types = ", ".join(ttype(e) for e in case.ins)
    out = ttype(case.out)
    L.append(f"  {p}_r = call @{case.name}({vals}) : ({types}) -> {out}")
    res = f"{p}_r"
    if case.out in UINTS:
        res = f"{p}_rs"
        L.append(f"  {res} = builtin.unrealized_conversion_cast {p}_r : {out} to "
                 f"{ttype(signless(case.out))}")
    L += common.print_bits_lines(p, res, [N], signless(case.out))
    return "\n".join(L) + "\n"


def bits_of(arr, et):
    """The i64 values the runner prints for a result array."""
    if et == "i1":
        return arr.astype(np.int64).tolist()
    if et == "f64":
        return arr.view(np.int64).tolist()
    if et == "f32":
        return arr.view(np.uint32).astype(np.int64).tolist()
    if et == "f16":
        return arr.view(np.uint16).astype(np.int64).tolist()
    if et in UINTS:
        return arr.view(ET[signless(et)][0]).astype(np.int64).tolist()
    return arr.astype(np.int64).tolist()


def ulp_equal(a, b, ulps):
    """Two f64 bit patterns at most ulps apart (same sign; NaN equals
    NaN), or equal."""
    if a == b or ulps == 0:
        return a == b
    fa, fb = (np.array([v], np.int64).view(np.float64)[0] for v in (a, b))
    if np.isnan(fa) and np.isnan(fb):
        return True
    return (a < 0) == (b < 0) and abs(a - b) <= ulps


def inputs_for(rng, case):
    xs = []
    nan = not (case.op == "cast" and case.out != "i1" and not ET[case.out][2])
    for k, et in enumerate(case.ins):
        if ET[et][2]:
            xs.append(float_values(rng, et, nan))
        else:
            x = int_values(rng, et)
            if case.gen == "shift" and k == 1:
                x = (x.astype(np.int64) % ET[et][1]).astype(x.dtype)
            if case.gen == "nonzero" and k == 1:
                # MLIR's arith.divsi by 0 and MIN / -1 are undefined.
                x = np.where((x == 0) | (x == -1), np.array(3, x.dtype), x)
            xs.append(x)
    return xs


def place_spots(all_cases, data):
    """Writes SPOTS' inputs first into their cases' inputs; returns
    (case index, element index, expected value) for each."""
    index = {c.name: i for i, c in enumerate(all_cases)}
    used, out = {}, []
    for name, ins, want in SPOTS:
        i = index[name]
        j = used.get(name, 0)
        used[name] = j + 1
        for k, v in enumerate(ins):
            data[i][k][j] = v
        out.append((i, j, want))
    return out


def main():
    ap = common.parser(__doc__, seed=2211)
    ap.add_argument("--mlir-opt", default=common.MLIR_OPT)
    ap.add_argument("--keep")
    args = common.parse_args(ap)
    if common.tools_missing(args):
        return 1
    seed = args.seed
    print(f"seed {seed} (replay with --seed {seed})")
    rng = np.random.default_rng(seed)
    all_cases = cases()
    data = [inputs_for(rng, c) for c in all_cases]
    spots = place_spots(all_cases, data)
    funcs = "".join(func_text(c) for c in all_cases)
    calls = "".join(call_text(c, i, xs) for i, (c, xs) in enumerate(zip(all_cases, data)))
    module = (funcs + "func.func private @printMemrefI64(memref<*xi64>)\n"
              "func.func @main() {\n" + calls + "  return\n}\n")
    passed = failed = 0

    def check(ok, what, detail=""):
        nonlocal passed, failed
        if ok:
            passed += 1
        else:
            failed += 1
            print(f"FAIL {what}\n{detail}")

    with common.work_dir(args.keep, "bcast_tosa22_") as wd:
        src = os.path.join(wd, "cases.mlir")
        with open(src, "w") as f:
            f.write(module)
        low = common.bcast_text(args.bcast, ["lower", src])
        check(low.returncode == 0, "bcast lower accepts every case", low.stderr[-3000:])
        if low.returncode:
            print(f"{passed} passed, {failed} failed")
            return 1
        ours, err = common.run_lowered(low.stdout, wd, "bcast", views=True)
        check(ours is not None, "bcast's lowering runs", err)
        theirs, err = common.run_lowered(module, wd, "mlir", pre=MLIR_OWN,
                                         views=True)
        check(theirs is not None, "MLIR's own lowering runs", err)
        if ours is None or theirs is None:
            print(f"{passed} passed, {failed} failed")
            return 1
        check(len(ours) == len(theirs) == len(all_cases), "every case printed",
              f"{len(ours)} / {len(theirs)} / {len(all_cases)}")
        for i, j, want in spots:
            c = all_cases[i]
            exp = bits_of(np.array([want], dtype=ET[c.out][0]), c.out)[0]
            check(theirs[i][j] == exp and ours[i][j] == exp,
                  f"{c.name}: spot {[x[j] for x in data[i]]} -> {want}",
                  f"  mlir {theirs[i][j]} bcast {ours[i][j]} expected {exp}")
        for i, (c, xs) in enumerate(zip(all_cases, data)):
            a, b = ours[i], theirs[i]
            bad = [j for j in range(N) if a[j] != b[j]]
            check(not bad, f"{c.name}: bcast's lowering vs MLIR's "
                  f"{('(mirrors ' + c.mirrors + ')') if c.mirrors else ''}",
                  "\n".join(f"  [{j}] in {[x[j] for x in xs]}: bcast {a[j]} mlir {b[j]}"
                            for j in bad[:6]))
            if "bf16" in c.ins or c.out == "bf16":
                continue
            paths = common.save_npys(wd, f"r{i}", xs)
            out = os.path.join(wd, f"r{i}_out.npy")
            # The shift and zero points are named in the line only: bcast
            # run reads files for the data operands (shift 0, zp 0 default).
            line = op_line(c, [f"%a{k}" for k in range(len(xs))])
            # clamp's bounds come from the line's own dictionary (bcast
            # run reads it, as lower does).
            attrs = []
            if c.shift:
                attrs += ["--attr", f"shift={c.shift}"]
            r = common.run_text([args.bcast, "run", "--mlir", "%0 = " + line]
                                + paths + attrs + ["-o", out])
            if r.returncode:
                check(False, f"{c.name}: bcast run", line + "\n" + r.stderr)
                continue
            got = bits_of(np.load(out), c.out)
            ulps = 4 if c.op in INEXACT else 0
            bad = [j for j in range(N) if not ulp_equal(got[j], b[j], ulps)]
            check(not bad, f"{c.name}: bcast run vs MLIR's lowering",
                  "\n".join(f"  [{j}] in {[x[j] for x in xs]}: run {got[j]} mlir {b[j]}"
                            for j in bad[:6]))
        # The TOSA 1.0.2 tables stay available, and refuse what they lack.
        old = common.bcast_text(args.bcast, ["lower", "--types", "tosa-1.0", src])
        refused = set(re.findall(r"'tosa\.(\w+)' op does not support", old.stderr))
        check(old.returncode != 0 and "cast" in refused and "intdiv" in refused,
              "bcast lower --types tosa-1.0 refuses the MLIR-only types",
              old.stderr[-2000:])
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
