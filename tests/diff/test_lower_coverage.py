#!/usr/bin/python3
"""Every op with every element type it supports in the tosa profile.

For each of the 36 ops and each candidate signature over i1, i8, i16, i32,
i64, f16, bf16, f32 and f64 (CAST: every pair), `bcast lower` is asked to
lower a function using it, under each element-type table:
  --types tosa-1.0: the signatures it accepts must be exactly the TOSA
    1.0.2 lists below (spec tables, as ../shared/research/tosa-op-semantics.md
    gives them);
  --types mlir (the default): exactly MLIR_EXPECTED below (MLIR 22's
    dialect as its tosa-to-linalg lowers it), and mlir-opt 22's own
    tosa-to-linalg must lower each of them too.
All accepted functions together must verify with mlir-opt 22 and compile
through the e2e pipeline to the LLVM dialect (so every body op has a
lowering for every type)."""
import sys

import common

TYPES = ["i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64"]
FP = {"f16", "bf16", "f32"}
INT = {"i8", "i16", "i32"}
UNARY = ["abs", "bitwise_not", "cast", "ceil", "clamp", "clz", "cos", "erf",
         "exp", "floor", "log", "logical_not", "negate", "reciprocal",
         "rsqrt", "sigmoid", "sin", "tanh"]
BINARY = ["add", "arithmetic_right_shift", "bitwise_and", "bitwise_or",
          "bitwise_xor", "intdiv", "equal", "greater", "greater_equal",
          "logical_and", "logical_left_shift", "logical_or",
          "logical_right_shift", "logical_xor", "maximum", "minimum", "mul",
          "pow", "sub"]
# TOSA 1.0.2 (with EXT-INT16, EXT-BF16): input element types per op.
EXPECTED = {
    "abs": {"i32"} | FP, "bitwise_not": INT, "ceil": FP, "clamp": {"i8", "i16"} | FP,
    "clz": {"i32"}, "erf": FP, "exp": FP, "floor": FP, "log": FP,
    "logical_not": {"i1"}, "negate": INT | FP, "reciprocal": FP, "rsqrt": FP,
    "sigmoid": FP, "sin": FP, "cos": FP, "tanh": FP, "add": {"i32"} | FP,
    "arithmetic_right_shift": INT, "bitwise_and": INT, "bitwise_or": INT,
    "bitwise_xor": INT, "intdiv": {"i32"}, "equal": {"i32"} | FP,
    "greater": {"i32"} | FP, "greater_equal": {"i32"} | FP,
    "logical_and": {"i1"}, "logical_left_shift": INT, "logical_or": {"i1"},
    "logical_right_shift": INT, "logical_xor": {"i1"}, "maximum": {"i32"} | FP,
    "minimum": {"i32"} | FP, "mul": INT | FP, "pow": FP, "sub": {"i32"} | FP,
    "select": {"i1"} | INT | FP,
}
CASTS = ({("i1", t) for t in INT} | {(t, "i1") for t in INT} |
         {(a, b) for a in INT for b in INT if a != b} |
         {(a, b) for a in INT for b in FP} | {(a, b) for a in FP for b in INT} |
         {("f16", "f32"), ("f32", "f16"), ("f32", "bf16"), ("bf16", "f32")})


# MLIR 22: int64 and float64 wherever an op takes an integer or a float,
# every signed integer where it takes one (intdiv: i32 and i64, its ODS
# Int32_64), and CAST between any two types but f16 <-> bf16.
MINT, MFP = INT | {"i64"}, FP | {"f64"}
MLIR_EXPECTED = {
    op: ts | (({"i64"} if op == "intdiv" else MINT) if ts & INT else set())
    | (MFP if ts & FP else set()) for op, ts in EXPECTED.items()}
MLIR_CASTS = {(a, b) for a in TYPES for b in TYPES
              if a != b and {a, b} != {"f16", "bf16"}}
MLIR_OWN = ("builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,"
            "tosa-to-arith{include-apply-rescale=true},tosa-to-tensor))")


def result_type(op, t):
    if op in ("equal", "greater", "greater_equal"):
        return "i1"
    if op == "mul" and t in ("i8", "i16"):
        return "i32"
    return t


def func(name, op, t, out=None):
    T = lambda e: f"tensor<2x?x{e}>"
    if op in UNARY:
        ins = [T(t)]
    elif op == "select":
        ins = [T("i1"), T(t), T(t)]
    else:
        ins = [T(t), T(t)]
    names = [f"%a{k}" for k in range(len(ins))]
    extra_args = ""
    attrs = ""
    if op == "mul":
        names.append("%s")
        ins.append("tensor<1xi8>")
        extra_args = ", %s: tensor<1xi8>"
    if op == "negate":
        names += ["%z", "%z"]
        ins += [f"tensor<1x{t}>"] * 2
        extra_args = f", %z: tensor<1x{t}>"
    if op == "arithmetic_right_shift":
        attrs = " {round = false}"  # mlir-opt requires it
    if op == "clamp":
        lo, hi = ("-1.0", "1.0") if t in MFP else ("-1", "1")
        attrs = f" {{min_val = {lo} : {t}, max_val = {hi} : {t}}}"
    r = T(out or result_type(op, t))
    args = ", ".join(f"%a{k}: {ty}" for k, ty in enumerate(ins[:3 if op == 'select' else (1 if op in UNARY else 2)]))
    return (f"func.func @{name}({args}{extra_args}) -> {r} {{\n"
            f"  %0 = tosa.{op} {', '.join(names)}{attrs} : ({', '.join(ins)}) -> {r}\n"
            f"  return %0 : {r}\n}}\n")


def main():
    args = common.parse_args(common.parser())
    tally = common.Tally(width=3000)
    check = tally.check

    total = 0
    for tables, expected, casts in (("tosa-1.0", EXPECTED, CASTS),
                                    ("mlir", MLIR_EXPECTED, MLIR_CASTS)):
        total += check_tables(args, check, tables, expected, casts)
    print(f"{total} supported signatures lowered")
    return tally.summary()


def check_tables(args, check, tables, expected, casts):
    candidates = []
    for op in UNARY + BINARY + ["select"]:
        if op == "cast":
            for a in TYPES:
                for b in TYPES:
                    if a != b:
                        candidates.append((f"cast_{a}_{b}", op, a, b, (a, b) in casts))
            continue
        for t in TYPES:
            candidates.append((f"{op}_{t}", op, t, None, t in expected[op]))
    # One bcast lower call: the module of all candidates would stop at the
    # first rejected one, so ask per function, in one process each.
    accepted = []
    lower = ["lower", "--types", tables, "-"]
    for name, op, t, out, want in candidates:
        text = func(name, op, t, out)
        r = common.bcast_text(args.bcast, lower, text)
        ok = r.returncode == 0
        check(ok == want, f"{name}: bcast lower --types {tables} "
              f"{'accepts' if ok else 'rejects'} it, the tables say "
              f"{'supported' if want else 'unsupported'}", r.stderr)
        if not ok:
            check(r.returncode == 1 and "error:" in r.stderr, f"{name}: rejection is an error message",
                  r.stderr)
        else:
            accepted.append(text)
    module = "".join(accepted)
    r = common.bcast_text(args.bcast, lower, module)
    check(r.returncode == 0, f"lowering all {tables} signatures at once", r.stderr)
    if common.executable(common.MLIR_OPT) and r.returncode == 0:
        v = common.mlir_opt(text=r.stdout)
        check(v.returncode == 0, "mlir-opt verifies every supported signature's lowering", v.stderr)
        c = common.mlir_opt(pipeline=common.LLVM_PIPELINE, text=r.stdout)
        check(c.returncode == 0, "every supported signature compiles to the LLVM dialect", c.stderr)
        if tables == "mlir":
            # MLIR 22's tosa-to-linalg fails on an i64 mul whose shift is a
            # function argument rather than a constant (it extends the
            # operands to i32); test_tosa22_types runs it with a constant.
            own = common.mlir_opt(pipeline=MLIR_OWN, text="".join(
                a for a in accepted if "func.func @mul_i64(" not in a))
            check(own.returncode == 0 and "tosa." not in own.stdout,
                  "mlir-opt's own tosa-to-linalg lowers every mlir signature",
                  own.stderr[-3000:])
    return len(accepted)




if __name__ == "__main__":
    sys.exit(main())
