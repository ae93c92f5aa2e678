#!/usr/bin/python3
"""End-to-end differential test of `bcast lower`.

Functions covering every shape case of the TOSA-to-Linalg RFC (static,
dynamic unary, tensor.cast, static broadcast, dynamic-to-static,
static-to-dynamic, 1-D and N-D fully dynamic, rank expansion, 0-d, select)
and every op family are lowered with `bcast lower`, compiled by mlir-opt 22
through bufferization down to LLVM (common.LLVM_PIPELINE) and run by mlir-runner
on random inputs.  Each function is called with several runtime shapes, so
that every dynamic dim takes both the size-1 (broadcasting copy) and the
equal-size branch.  Results are printed exactly (floats bitcast to i32) and
compared with:
  - NumPy (exact, except a few ulp for exp / log / tanh / erf / sigmoid /
    pow, whose libm and NumPy implementations may round differently);
  - `bcast run` on the same inputs written as .npy, when the CLI has it;
  - MLIR 22's own tosa-to-linalg lowering of the same function, run through
    the same pipeline, for every function it accepts (exact).
Finally a run with mismatched runtime sizes under --assert-broadcast must
fail with the emitted message.

Everything is batched: one bcast lower, one mlir-opt and one mlir-runner
call per side.
"""
import math
import os
import re
import sys
import tempfile

import numpy as np

import common

MLIR_OWN = ("builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,"
            "tosa-to-arith{include-apply-rescale=true},tosa-to-tensor))")

NP = {"f32": np.float32, "f16": np.float16, "i32": np.int32, "i16": np.int16,
      "i8": np.int8, "i1": np.bool_, "bf16": np.uint16}
INEXACT = {"exp", "log", "tanh", "erf", "sigmoid", "pow", "sin", "cos"}


class Case:
    def __init__(self, name, op, ins, out, variants, attrs="", extras=(),
                 trait=False, gen=None):
        self.name, self.op, self.ins, self.out = name, op, ins, out
        self.variants, self.attrs, self.extras = variants, attrs, list(extras)
        self.trait, self.gen = trait, gen or {}


def ignores_nan(attrs):
    """nan_mode IGNORE as MLIR 22 reads it: the enum, not the string
    "IGNORE" (dropped: PROPAGATE)."""
    return "nan_mode = IGNORE" in attrs or "#tosa.nan_mode<IGNORE>" in attrs


def ttype(shape, et):
    return f"tensor<{shape + 'x' if shape else ''}{et}>"


# (declared shape text, element type) per operand; runtime shapes per variant.
S = lambda *d: tuple(d)
CASES = [
    # Shape cases, on add (f32).
    Case("static_eq", "add", [("3", "f32"), ("3", "f32")], ("3", "f32"), [[S(3), S(3)]]),
    Case("dyn_unary", "abs", [("?", "f32")], ("?", "f32"), [[S(1)], [S(5)]]),
    Case("cast_result", "abs", [("5", "f32")], ("?", "f32"), [[S(5)]]),
    Case("static_bcast", "add", [("1", "f32"), ("3", "f32")], ("3", "f32"), [[S(1), S(3)]]),
    Case("static_bcast_2d", "sub", [("2x1", "f32"), ("1x3", "f32")], ("2x3", "f32"), [[S(2, 1), S(1, 3)]]),
    Case("dyn_to_static", "add", [("5", "f32"), ("?", "f32")], ("5", "f32"), [[S(5), S(1)], [S(5), S(5)]]),
    Case("static_to_dyn", "add", [("1", "f32"), ("?", "f32")], ("?", "f32"), [[S(1), S(1)], [S(1), S(4)]]),
    Case("dyn_1d", "add", [("?", "f32"), ("?", "f32")], ("?", "f32"),
         [[S(1), S(4)], [S(4), S(1)], [S(4), S(4)], [S(1), S(1)]]),
    Case("dyn_2d", "add", [("?x?", "f32"), ("?x?", "f32")], ("?x?", "f32"),
         [[S(1, 3), S(2, 1)], [S(2, 3), S(2, 3)], [S(2, 1), S(1, 3)], [S(1, 1), S(2, 3)]]),
    Case("dyn_3d", "mul", [("?x1x?", "i32"), ("?x?x?", "i32")], ("?x?x?", "i32"),
         [[S(1, 1, 4), S(2, 3, 1)], [S(2, 1, 4), S(2, 3, 4)]], extras=[("i8", 0)]),
    Case("two_x_dyn", "add", [("2x?", "f32"), ("?x?", "f32")], ("?x?", "f32"),
         [[S(2, 1), S(1, 3)], [S(2, 3), S(2, 3)], [S(2, 3), S(2, 1)]]),
    Case("rank_expand", "add", [("3x4", "f32"), ("2x3x4", "f32")], ("2x3x4", "f32"),
         [[S(3, 4), S(2, 3, 4)]], trait=True),
    Case("rank_expand_dyn", "sub", [("?", "i32"), ("2x?", "i32")], ("2x?", "i32"),
         [[S(1), S(2, 3)], [S(3), S(2, 1)], [S(3), S(2, 3)]], trait=True),
    Case("rank_expand_0d", "maximum", [("", "f32"), ("2x2", "f32")], ("2x2", "f32"),
         [[S(), S(2, 2)]], trait=True),
    Case("zero_d", "add", [("", "f32"), ("", "f32")], ("", "f32"), [[S(), S()]]),
    Case("select_dyn", "select", [("2x?", "i1"), ("2x?", "f32"), ("2x?", "f32")], ("2x?", "f32"),
         [[S(2, 1), S(2, 3), S(2, 1)], [S(2, 3), S(2, 3), S(2, 3)], [S(2, 1), S(2, 1), S(2, 4)]]),
    Case("select_static", "select", [("1x3", "i1"), ("2x1", "i8"), ("2x3", "i8")], ("2x3", "i8"),
         [[S(1, 3), S(2, 1), S(2, 3)]]),
    # Op families.
    Case("sub_i32", "sub", [("?", "i32"), ("?", "i32")], ("?", "i32"), [[S(4), S(1)], [S(4), S(4)]]),
    Case("add_f16", "add", [("2x?", "f16"), ("1x?", "f16")], ("2x?", "f16"), [[S(2, 3), S(1, 1)], [S(2, 3), S(1, 3)]]),
    Case("mul_f32", "mul", [("?x3", "f32"), ("1x3", "f32")], ("?x3", "f32"), [[S(2, 3), S(1, 3)]], extras=[("i8", 0)]),
    Case("mul_i8", "mul", [("4", "i8"), ("4", "i8")], ("4", "i32"), [[S(4), S(4)]], extras=[("i8", 0)]),
    Case("mul_shift", "mul", [("?", "i32"), ("?", "i32")], ("?", "i32"), [[S(6), S(1)], [S(6), S(6)]],
         extras=[("i8", 3)], gen={"big": True}),
    Case("intdiv", "intdiv", [("2x3", "i32"), ("1x3", "i32")], ("2x3", "i32"), [[S(2, 3), S(1, 3)]],
         gen={"nonzero": 1}),
    Case("bitwise", "bitwise_and", [("?", "i16"), ("?", "i16")], ("?", "i16"), [[S(5), S(5)], [S(1), S(5)]]),
    Case("bitwise_or", "bitwise_or", [("6", "i8"), ("1", "i8")], ("6", "i8"), [[S(6), S(1)]]),
    Case("bitwise_xor", "bitwise_xor", [("6", "i32"), ("6", "i32")], ("6", "i32"), [[S(6), S(6)]]),
    Case("bitwise_not", "bitwise_not", [("6", "i8")], ("6", "i8"), [[S(6)]]),
    Case("shl", "logical_left_shift", [("6", "i8"), ("6", "i8")], ("6", "i8"), [[S(6), S(6)]], gen={"shift": 1}),
    Case("shr", "logical_right_shift", [("6", "i8"), ("1", "i8")], ("6", "i8"), [[S(6), S(1)]], gen={"shift": 1}),
    Case("ashr", "arithmetic_right_shift", [("8", "i16"), ("8", "i16")], ("8", "i16"), [[S(8), S(8)]],
         gen={"shift": 1}),
    Case("ashr_round", "arithmetic_right_shift", [("8", "i32"), ("?", "i32")], ("8", "i32"),
         [[S(8), S(8)], [S(8), S(1)]], attrs="{round = true}", gen={"shift": 1}),
    Case("compare", "greater", [("?", "f32"), ("?", "f32")], ("?", "i1"), [[S(5), S(1)], [S(5), S(5)]]),
    Case("equal_i32", "equal", [("4", "i32"), ("4", "i32")], ("4", "i1"), [[S(4), S(4)]], gen={"small": 1}),
    Case("greater_equal", "greater_equal", [("4", "i32"), ("1", "i32")], ("4", "i1"), [[S(4), S(1)]],
         gen={"small": 1}),
    Case("logical", "logical_and", [("?", "i1"), ("?", "i1")], ("?", "i1"), [[S(4), S(1)], [S(4), S(4)]]),
    Case("logical_or", "logical_or", [("4", "i1"), ("4", "i1")], ("4", "i1"), [[S(4), S(4)]]),
    Case("logical_xor", "logical_xor", [("4", "i1"), ("4", "i1")], ("4", "i1"), [[S(4), S(4)]]),
    Case("logical_not", "logical_not", [("4", "i1")], ("4", "i1"), [[S(4)]]),
    Case("maximum", "maximum", [("?", "f32"), ("?", "f32")], ("?", "f32"), [[S(6), S(6)]]),
    Case("minimum_ignore", "minimum", [("6", "f32"), ("6", "f32")], ("6", "f32"), [[S(6), S(6)]],
         attrs="{nan_mode = #tosa.nan_mode<IGNORE>}", gen={"nan": 1}),
    # The older string spelling: MLIR 22 drops it and keeps PROPAGATE, and
    # so must bcast (issue 22).
    Case("minimum_string_nan_mode", "minimum", [("6", "f32"), ("6", "f32")], ("6", "f32"),
         [[S(6), S(6)]], attrs='{nan_mode = "IGNORE"}', gen={"nan": 1}),
    Case("maximum_i32", "maximum", [("6", "i32"), ("1", "i32")], ("6", "i32"), [[S(6), S(1)]]),
    Case("clamp_f32", "clamp", [("?", "f32")], ("?", "f32"), [[S(7)]],
         attrs="{min_val = -1.5 : f32, max_val = 2.0 : f32, nan_mode = #tosa.nan_mode<IGNORE>}",
         gen={"nan": 1}),
    Case("clamp_i8", "clamp", [("7", "i8")], ("7", "i8"), [[S(7)]], attrs="{min_val = -5 : i8, max_val = 9 : i8}"),
    Case("clz", "clz", [("6", "i32")], ("6", "i32"), [[S(6)]]),
    Case("negate_i8", "negate", [("?", "i8")], ("?", "i8"), [[S(6)]], extras=[("i8", 5), ("i8", -3)]),
    Case("negate_f32", "negate", [("6", "f32")], ("6", "f32"), [[S(6)]], extras=[("f32", 0), ("f32", 0)]),
    Case("ceil", "ceil", [("6", "f32")], ("6", "f32"), [[S(6)]]),
    Case("floor", "floor", [("6", "f32")], ("6", "f32"), [[S(6)]]),
    Case("reciprocal", "reciprocal", [("6", "f32")], ("6", "f32"), [[S(6)]]),
    Case("rsqrt", "rsqrt", [("6", "f32")], ("6", "f32"), [[S(6)]], gen={"positive": 1}),
    Case("exp", "exp", [("6", "f32")], ("6", "f32"), [[S(6)]]),
    Case("log", "log", [("6", "f32")], ("6", "f32"), [[S(6)]], gen={"positive": 1}),
    Case("tanh", "tanh", [("6", "f32")], ("6", "f32"), [[S(6)]]),
    Case("erf", "erf", [("6", "f32")], ("6", "f32"), [[S(6)]]),
    Case("sin", "sin", [("6", "f32")], ("6", "f32"), [[S(6)]]),
    Case("cos", "cos", [("?", "f32")], ("?", "f32"), [[S(6)]]),
    Case("sigmoid", "sigmoid", [("?", "f32")], ("?", "f32"), [[S(6)]]),
    Case("pow", "pow", [("6", "f32"), ("1", "f32")], ("6", "f32"), [[S(6), S(1)]], gen={"positive": 1}),
    Case("cast_f2i", "cast", [("8", "f32")], ("8", "i8"), [[S(8)]], gen={"big": True}),
    Case("cast_f2i32", "cast", [("8", "f32")], ("8", "i32"), [[S(8)]], gen={"huge": True}),
    Case("cast_i2i", "cast", [("6", "i32")], ("6", "i8"), [[S(6)]], gen={"big": True}),
    Case("cast_i2f", "cast", [("6", "i16")], ("6", "f32"), [[S(6)]]),
    Case("cast_b2i", "cast", [("6", "i1")], ("6", "i32"), [[S(6)]]),
    Case("cast_i2b", "cast", [("6", "i8")], ("6", "i1"), [[S(6)]], gen={"small": 1}),
    Case("cast_f2h", "cast", [("6", "f32")], ("6", "f16"), [[S(6)]]),
    Case("cast_f2bf", "cast", [("6", "f32")], ("6", "bf16"), [[S(6)]]),
    Case("cast_bf2f", "cast", [("6", "bf16")], ("6", "f32"), [[S(6)]]),
]


# ---- inputs ------------------------------------------------------------

def bf16_round(x32):
    """float32 array -> bfloat16 bits (round to nearest even)."""
    b = x32.astype(np.float32).view(np.uint32).astype(np.uint64)
    b = (b + 0x7FFF + ((b >> 16) & 1)) >> 16
    return b.astype(np.uint16)


def bf16_to_f32(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)


def gen_input(rng, case, k, shape):
    et = case.ins[k][1]
    g = case.gen
    if et == "i1" or (case.op == "select" and k == 0):
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    if et in ("f32", "f16", "bf16"):
        if g.get("positive"):
            x = rng.uniform(0.1, 4.0, size=shape)
        elif g.get("big"):
            x = rng.uniform(-300.0, 300.0, size=shape)
        elif g.get("huge"):
            x = rng.uniform(-3e9, 3e9, size=shape)
        else:
            x = rng.uniform(-4.0, 4.0, size=shape)
        x = np.round(x * 8) / 8 if case.op in ("ceil", "floor") else x
        x = np.asarray(x, dtype=np.float32)
        if g.get("nan") and x.size:
            x.reshape(-1)[0] = np.nan
        if case.op == "cast" and x.size >= 2 and not g.get("huge"):
            x.reshape(-1)[:2] = [2.5, -3.5]  # ties to even
        if et == "f16":
            return x.astype(np.float16)
        if et == "bf16":
            return bf16_round(x)
        return x
    info = np.iinfo(NP[et])
    if g.get("shift") and k == 1:
        return rng.integers(0, info.bits, size=shape).astype(NP[et])
    if g.get("small"):
        return rng.integers(-2, 3, size=shape).astype(NP[et])
    if g.get("nonzero") and k == 1:
        v = rng.integers(1, 50, size=shape) * rng.choice([-1, 1], size=shape)
        return v.astype(NP[et])
    if et == "i32" and case.op in ("add", "sub", "mul") and not g.get("big"):
        return rng.integers(-30000, 30000, size=shape).astype(np.int32)
    return rng.integers(info.min, info.max, size=shape, endpoint=True).astype(NP[et])


# ---- NumPy reference -----------------------------------------------------

# The ops whose reference is one NumPy function of the operands.
UNARY = {"abs": np.abs, "ceil": np.ceil, "floor": np.floor, "exp": np.exp,
         "log": np.log, "tanh": np.tanh, "sin": np.sin, "cos": np.cos, "bitwise_not": np.invert,
         "logical_not": np.invert,
         "reciprocal": lambda a: np.float32(1) / a,
         "rsqrt": lambda a: np.float32(1) / np.sqrt(a),
         "sigmoid": lambda a: np.float32(1) / (np.float32(1) + np.exp(-a))}
BINARY = {"add": np.add, "sub": np.subtract, "pow": np.power,
          "bitwise_and": np.bitwise_and, "logical_and": np.bitwise_and,
          "bitwise_or": np.bitwise_or, "logical_or": np.bitwise_or,
          "bitwise_xor": np.bitwise_xor, "logical_xor": np.bitwise_xor,
          "equal": np.equal, "greater": np.greater,
          "greater_equal": np.greater_equal}


def ref(case, xs, extras):
    op = case.op
    out_et = case.out[1]
    a = xs[0]
    b = xs[1] if len(xs) > 1 else None
    et = case.ins[0][1]
    with np.errstate(all="ignore"):
        if et == "bf16" and op == "cast":
            return bf16_to_f32(a)
        if op in UNARY:
            return UNARY[op](a)
        if op in BINARY:
            return BINARY[op](a, b)
        if op == "mul":
            if et in ("i8", "i16"):
                return a.astype(np.int32) * b.astype(np.int32)
            if et == "i32":
                s = extras[0]
                p = a.astype(np.int64) * b.astype(np.int64)
                if s > 0:
                    p = (p + (1 << (s - 1))) >> s
                return p.astype(np.int32)
            return a * b
        if op == "intdiv":
            q = np.abs(a.astype(np.int64)) // np.abs(b.astype(np.int64))
            return (q * np.sign(a.astype(np.int64)) * np.sign(b.astype(np.int64))).astype(np.int32)
        if op == "logical_left_shift":
            return (a.astype(np.int64) << b.astype(np.int64)).astype(a.dtype)
        if op == "logical_right_shift":
            bits = a.dtype.itemsize * 8
            u = a.astype(np.int64) & ((1 << bits) - 1)
            return (u >> b.astype(np.int64)).astype(a.dtype)
        if op == "arithmetic_right_shift":
            r = a.astype(np.int64) >> b.astype(np.int64)
            if "round = true" in case.attrs:
                bb = b.astype(np.int64)
                bit = (a.astype(np.int64) >> np.maximum(bb - 1, 0)) & 1
                r = r + ((bb > 0) & (bit == 1))
            return r.astype(a.dtype)
        if op in ("maximum", "minimum"):
            f = np.maximum if op == "maximum" else np.minimum
            if ignores_nan(case.attrs):
                f = np.fmax if op == "maximum" else np.fmin
            return f(a, b)
        if op == "clamp":
            m = re.search(r"min_val = (\S+) : \w+, max_val = (\S+) :", case.attrs)
            lo, hi = (float(m.group(1)), float(m.group(2))) if et.startswith("f") else \
                (int(m.group(1)), int(m.group(2)))
            r = np.minimum(np.maximum(a, a.dtype.type(lo)), a.dtype.type(hi))
            if ignores_nan(case.attrs):
                r = np.where(np.isnan(a), a.dtype.type(lo), r)
            return r
        if op == "clz":
            u = a.astype(np.int64) & 0xFFFFFFFF
            return np.array([32 - int(v).bit_length() for v in u.reshape(-1)],
                            dtype=np.int32).reshape(a.shape)
        if op == "negate":
            if et.startswith("f"):
                return -a
            info = np.iinfo(a.dtype)
            r = extras[0] + extras[1] - a.astype(np.int64)
            return np.clip(r, info.min, info.max).astype(a.dtype)
        if op == "erf":
            return np.array([math.erf(v) for v in a.reshape(-1)], dtype=np.float32).reshape(a.shape)
        if op == "select":
            return np.where(a, b, xs[2])
        if op == "cast":
            if out_et == "i1":
                return a != 0
            if out_et == "bf16":
                return bf16_round(a)
            if et.startswith("f") and out_et.startswith("i"):
                info = np.iinfo(NP[out_et])
                r = np.rint(a.astype(np.float64))
                return np.clip(r, info.min, info.max).astype(NP[out_et])
            return a.astype(NP[out_et])
    raise ValueError(op)


def as_i32(x, et):
    """The exact i32 values the runner prints for a result array."""
    if et == "f32":
        return np.asarray(x, dtype=np.float32).view(np.int32).astype(np.int64)
    if et in ("f16",):
        return np.asarray(x, dtype=np.float16).view(np.uint16).astype(np.int64)
    if et == "bf16":
        return np.asarray(x, dtype=np.uint16).astype(np.int64)
    return np.asarray(x).astype(np.int64)


def ulp_close(got, want, et, ulps):
    g = got.astype(np.int64)
    w = want.astype(np.int64)
    if et != "f32":
        return np.array_equal(g, w)
    gf = g.astype(np.int32).view(np.float32)
    wf = w.astype(np.int32).view(np.float32)
    both_nan = np.isnan(gf) & np.isnan(wf)
    # Distance in ulps over the ordered integer line of floats.
    def ordered(v):
        v = v.astype(np.int64)
        return np.where(v < 0, -(v & 0x7FFFFFFF), v)
    return bool(np.all(both_nan | (np.abs(ordered(g) - ordered(w)) <= ulps)))


# ---- MLIR text -----------------------------------------------------------

def dense(x, et, shape):
    t = ttype("x".join(str(d) for d in shape), et)
    if et == "i1":
        flat = ["true" if v else "false" for v in np.asarray(x).reshape(-1)]
        if not shape:
            return f"dense<{flat[0]}> : {t}"
        text = nest(flat, shape)
        return f"dense<{text}> : {t}"
    raw = np.ascontiguousarray(np.asarray(x, dtype=NP[et])).astype(np.asarray(x, dtype=NP[et]).dtype.newbyteorder("<")).tobytes()
    return f'dense<"0x{raw.hex().upper()}"> : {t}'


def nest(flat, shape):
    if len(shape) == 1:
        return "[" + ", ".join(flat) + "]"
    step = len(flat) // shape[0]
    return "[" + ", ".join(nest(flat[i * step:(i + 1) * step], shape[1:])
                           for i in range(shape[0])) + "]"


def func_text(case):
    args, types = [], []
    for k, (shape, et) in enumerate(case.ins):
        args.append(f"%a{k}: {ttype(shape, et)}")
        types.append(ttype(shape, et))
    uses = [f"%a{k}" for k in range(len(case.ins))]
    for j, (et, _) in enumerate(case.extras):
        args.append(f"%x{j}: tensor<1x{et}>")
        types.append(f"tensor<1x{et}>")
        uses.append(f"%x{j}")
    out = ttype(*case.out)
    attrs = " " + case.attrs if case.attrs else ""
    return (f"func.func @{case.name}({', '.join(args)}) -> {out} {{\n"
            f"  %0 = tosa.{case.op} {', '.join(uses)}{attrs} : ({', '.join(types)}) -> {out}\n"
            f"  return %0 : {out}\n}}\n")


def call_text(case, idx, xs, extras, out_shape):
    """Builds inputs, calls the function, prints the result as i32."""
    L = []
    p = f"%v{idx}"
    vals = []
    for k, ((shape, et), x) in enumerate(zip(case.ins, xs)):
        rt = "x".join(str(d) for d in x.shape)
        L.append(f"  {p}_c{k} = arith.constant {dense(x, et, x.shape)}")
        if ttype(rt, et) != ttype(shape, et):
            L.append(f"  {p}_in{k} = tensor.cast {p}_c{k} : {ttype(rt, et)} to {ttype(shape, et)}")
            vals.append(f"{p}_in{k}")
        else:
            vals.append(f"{p}_c{k}")
    for j, ((et, _), v) in enumerate(zip(case.extras, extras)):
        arr = np.array([v], dtype=NP[et])
        L.append(f"  {p}_x{j} = arith.constant {dense(arr, et, (1,))}")
        vals.append(f"{p}_x{j}")
    types = [ttype(s, e) for s, e in case.ins] + [f"tensor<1x{e}>" for e, _ in case.extras]
    out_et = case.out[1]
    out = ttype(*case.out)
    L.append(f"  {p}_r = call @{case.name}({', '.join(vals)}) : ({', '.join(types)}) -> {out}")
    st = "x".join(str(d) for d in out_shape)
    stt = ttype(st, out_et)
    src = f"{p}_r"
    if stt != out:
        L.append(f"  {p}_s = tensor.cast {p}_r : {out} to {stt}")
        src = f"{p}_s"
    rank = len(out_shape)
    dims = ", ".join(f"d{i}" for i in range(rank))
    idm = f"affine_map<({dims}) -> ({dims})>"
    conv = {"f32": [f"{p}_y = arith.bitcast {p}_b : f32 to i32"],
            "f16": [f"{p}_z = arith.bitcast {p}_b : f16 to i16", f"{p}_y = arith.extui {p}_z : i16 to i32"],
            "bf16": [f"{p}_z = arith.bitcast {p}_b : bf16 to i16", f"{p}_y = arith.extui {p}_z : i16 to i32"],
            "i1": [f"{p}_y = arith.extui {p}_b : i1 to i32"],
            "i8": [f"{p}_y = arith.extsi {p}_b : i8 to i32"],
            "i16": [f"{p}_y = arith.extsi {p}_b : i16 to i32"],
            "i32": [f"{p}_y = arith.addi {p}_b, {p}_zero : i32"]}[out_et]
    L.append(f"  {p}_zero = arith.constant 0 : i32")
    L.append(f"  {p}_e = tensor.empty() : {ttype(st, 'i32')}")
    L.append(f"  {p}_i = linalg.generic {{indexing_maps = [{idm}, {idm}], iterator_types = ["
             + ", ".join(['"parallel"'] * rank) + f"]}} ins({src} : {stt}) outs({p}_e : {ttype(st, 'i32')}) {{")
    L.append(f"  ^bb0({p}_b: {out_et}, {p}_o: i32):")
    L += ["    " + c for c in conv]
    L.append(f"    linalg.yield {p}_y : i32")
    L.append(f"  }} -> {ttype(st, 'i32')}")
    L.append(f"  {p}_m = bufferization.to_buffer {p}_i : {ttype(st, 'i32')} to memref<{st + 'x' if st else ''}i32>")
    L.append(f"  {p}_u = memref.cast {p}_m : memref<{st + 'x' if st else ''}i32> to memref<*xi32>")
    L.append(f"  call @printMemrefI32({p}_u) : (memref<*xi32>) -> ()")
    return "\n".join(L) + "\n"


def module_text(funcs, calls):
    return ("".join(funcs) + "func.func private @printMemrefI32(memref<*xi32>)\n"
            "func.func @main() {\n" + "".join(calls) + "  return\n}\n")


def run_module(text, workdir, tag, pre=None, partial=False):
    path = os.path.join(workdir, tag + ".mlir")
    with open(path, "w") as f:
        f.write(text)
    src = path
    if pre:
        r = common.mlir_opt(path, pipeline=pre)
        if r.returncode:
            return None, r.stderr
        src = os.path.join(workdir, tag + ".pre.mlir")
        with open(src, "w") as f:
            f.write(r.stdout)
    r = common.mlir_opt(src, pipeline=common.LLVM_PIPELINE)
    if r.returncode:
        return None, r.stderr
    llvm_path = os.path.join(workdir, tag + ".llvm.mlir")
    with open(llvm_path, "w") as f:
        f.write(r.stdout)
    r = common.mlir_runner(llvm_path)
    blocks = r.stdout.split("Unranked Memref")[1:]
    # A print cut short by a crash is not a result.
    blocks = [b for b in blocks if "data =" in b and b.rstrip().endswith("]")]
    res = [[int(v) for v in re.findall(r"-?\d+", b.split("data =", 1)[1])] for b in blocks]
    if r.returncode:
        return (res if partial else None), r.stdout[-3000:] + r.stderr[-3000:]
    return res, ""


def bcast_has_run(bcast):
    r = common.bcast_text(bcast, ["run", "--help"])
    return r.returncode == 0


def main():
    args = common.parse_args(common.parser(
        seed=lambda: int(os.environ.get("BCAST_TEST_SEED", "0") or 0) or 20240607))
    seed = args.seed
    print(f"seed {seed} (replay with --seed {seed})")
    rng = np.random.default_rng(seed)
    tally = common.Tally(width=4000)
    check = tally.check

    if not common.executable(common.MLIR_OPT, common.MLIR_RUNNER):
        print("note: mlir-opt / mlir-runner 22 missing: skipped")
        print("0 passed, 0 failed")
        return 0

    # Inputs and NumPy results for every (case, variant).
    runs = []  # (case, variant index, inputs, extras, expected i32 list, out shape)
    for case in CASES:
        extras = [v for _, v in case.extras]
        for vi, shapes in enumerate(case.variants):
            xs = [gen_input(rng, case, k, s) for k, s in enumerate(shapes)]
            vals = [bf16_to_f32(x) if case.ins[k][1] == "bf16" and case.op != "cast" else x
                    for k, x in enumerate(xs)]
            want = ref(case, vals, extras)
            out_shape = np.broadcast_shapes(*[x.shape for x in xs])
            want = np.broadcast_to(np.asarray(want), out_shape)
            runs.append((case, vi, xs, extras, as_i32(want, case.out[1]).reshape(-1), out_shape))

    with tempfile.TemporaryDirectory() as wd:
        funcs = [func_text(c) for c in CASES]
        calls = [call_text(c, i, xs, ex, osh) for i, (c, vi, xs, ex, w, osh) in enumerate(runs)]
        src = module_text(funcs, calls)
        lw = common.bcast_text(args.bcast, ["lower", "--op-profile", "tosa.*=trait", "-"], src)
        check(lw.returncode == 0, "bcast lower of the e2e module", lw.stderr)
        if lw.returncode:
            tally.summary()
            return 1
        got, err = run_module(lw.stdout, wd, "bcast")
        check(got is not None and len(got) == len(runs), "compile and run bcast's lowering", err)
        if got is None:
            tally.summary()
            return 1

        # 1. Against NumPy.
        for (case, vi, xs, ex, want, osh), g in zip(runs, got):
            g = np.array(g, dtype=np.int64)
            ok = (g.shape == want.shape and
                  (ulp_close(g, want, case.out[1], 4) if case.op in INEXACT
                   else np.array_equal(g, want)))
            check(ok, f"{case.name} variant {vi} ({case.op}, shapes {[x.shape for x in xs]}) vs NumPy",
                  f"got  {g.tolist()}\nwant {want.tolist()}")

        # 2. Against `bcast run`, when the CLI has it.
        if bcast_has_run(args.bcast):
            n_run = compare_bcast_run(args.bcast, runs, got, wd, check)
            print(f"compared {n_run} runs with bcast run")
        else:
            print("note: this bcast has no 'run' command yet: not compared with bcast run")

        # 3. Against MLIR 22's own tosa-to-linalg, for the functions it takes.
        accepted = set()
        for case, ftext in zip(CASES, funcs):
            r = common.mlir_opt(pipeline=MLIR_OWN, text=ftext)
            if r.returncode == 0:
                accepted.add(case.name)
        own_runs = [(i, r) for i, r in enumerate(runs) if r[0].name in accepted]
        crashed = []
        n_own = len(own_runs)
        while own_runs:
            own_src = module_text([f for c, f in zip(CASES, funcs) if c.name in accepted],
                                  [calls[i] for i, _ in own_runs])
            own, err = run_module(own_src, wd, "own", pre=MLIR_OWN, partial=True)
            check(own is not None, "compile MLIR's own lowering", err)
            if own is None:
                break
            for (i, (case, vi, xs, ex, want, osh)), o in zip(own_runs, own):
                check(o == got[i], f"{case.name} variant {vi}: bcast's lowering vs MLIR's tosa-to-linalg",
                      f"bcast {got[i]}\nmlir  {o}")
            if len(own) == len(own_runs):
                break
            # MLIR's code crashed in the next run: say so and go on after it.
            i, r = own_runs[len(own)]
            crashed.append(f"{r[0].name} variant {r[1]} shapes {[x.shape for x in r[2]]}")
            own_runs = own_runs[len(own) + 1:]
        for what in crashed:
            print(f"note: MLIR's own tosa-to-linalg code crashes at run time on {what} "
                  "(bcast's lowering of it matches NumPy)")
        print(f"MLIR's tosa-to-linalg took {len(accepted)} of {len(CASES)} functions "
              f"({n_own} runs); not: {sorted(set(c.name for c in CASES) - accepted)}")

        # 4. --assert-broadcast: mismatched runtime sizes fail with the message.
        case = next(c for c in CASES if c.name == "dyn_2d")
        xs = [gen_input(rng, case, 0, (2, 3)), gen_input(rng, case, 1, (2, 4))]
        bad = module_text([func_text(case)], [call_text(case, 0, xs, [], (2, 4))])
        lw = common.bcast_text(args.bcast, ["lower", "--assert-broadcast", "-"], bad)
        check(lw.returncode == 0, "bcast lower --assert-broadcast", lw.stderr)
        res, err = run_module(lw.stdout, wd, "assert")
        check(res is None and "'tosa.add' op operand #0 dim 1: runtime size is neither 1 nor "
              "the broadcast size" in err, "--assert-broadcast stops a mismatched run with its message",
              err[-2000:])
        # The same checks pass on compatible sizes.
        good = module_text([func_text(case)], [calls[next(i for i, r in enumerate(runs) if r[0] is case)]])
        lw = common.bcast_text(args.bcast, ["lower", "--assert-broadcast", "-"], good)
        res, err = run_module(lw.stdout, wd, "assert_ok")
        first = next(r for r in runs if r[0] is case)
        check(res is not None and res[0] == first[4].tolist(),
              "--assert-broadcast passes compatible sizes", err[-2000:])

    return tally.summary()


ATTR_NAMES = {"round = true": ["--attr", "round=1"]}


def compare_bcast_run(bcast, runs, got, wd, check):
    """Runs `bcast run OP IN.npy... -o OUT.npy` on the same inputs."""
    n = 0
    for i, ((case, vi, xs, ex, want, osh), g) in enumerate(zip(runs, got)):
        if case.trait or "bf16" in (case.out[1],) or any(e == "bf16" for _, e in case.ins):
            continue  # .npy has no bfloat16; rank expansion needs the trait profile
        paths = common.save_npys(wd, f"r{i}", xs)
        out = os.path.join(wd, f"r{i}_out.npy")
        cmd = [bcast, "run", case.op] + paths + ["-o", out]
        if case.op == "cast":
            cmd += ["--attr", f"to={case.out[1]}"]
        if case.op == "mul" and ex:
            cmd += ["--attr", f"shift={ex[0]}"]
        if case.op == "negate" and case.ins[0][1] != "f32":
            cmd += ["--attr", f"input_zp={ex[0]}", "--attr", f"output_zp={ex[1]}"]
        m = re.search(r"min_val = (\S+) : \w+, max_val = (\S+) :", case.attrs)
        if m:
            cmd += ["--attr", f"min_val={m.group(1)}", "--attr", f"max_val={m.group(2)}"]
        if ignores_nan(case.attrs):
            cmd += ["--attr", "nan_mode=ignore"]
        for k, v in ATTR_NAMES.items():
            if k in case.attrs:
                cmd += v
        r = common.run_text(cmd)
        if r.returncode:
            check(False, f"{case.name} variant {vi}: bcast run failed", " ".join(cmd) + "\n" + r.stderr)
            continue
        res = as_i32(np.load(out), case.out[1]).reshape(-1)
        gg = np.array(g, dtype=np.int64)
        ok = ulp_close(gg, res, case.out[1], 4) if case.op in INEXACT else np.array_equal(gg, res)
        check(ok, f"{case.name} variant {vi}: bcast's lowering vs bcast run",
              f"lowered {gg.tolist()}\nrun     {res.tolist()}")
        n += 1
    return n


if __name__ == "__main__":
    sys.exit(main())
