#!/usr/bin/python3
"""End-to-end differential test of `bcast lower` on StableHLO and CHLO, and
of `bcast broadcast-in-dim --emit` (PyTensor's partial form).

Functions holding stablehlo.broadcast_in_dim, dynamic_broadcast_in_dim,
broadcast (each in generic and in StableHLO's pretty form, "dims = [..]")
and chlo.broadcast_* ops (generic and custom form), and partial-form
functions from `bcast broadcast-in-dim --emit linalg` and `--emit
stablehlo` (the latter lowered by `bcast lower`), are compiled by mlir-opt
22 down to LLVM (common.LLVM_PIPELINE) and run by mlir-runner on random
inputs of several runtime shapes, so that each dynamic dim takes both the
size-1 (expanding) and the full-size branch.  Results are printed exactly
(floats bitcast to i32) and must equal NumPy's.  Then mismatched runtime
sizes under --assert-broadcast must stop the run with the emitted message,
and the partial-form goldens (tests/data/lower/partial_*.args ->
.golden) must match and be accepted by mlir-opt.  --update rewrites those
goldens.

Everything is batched: one bcast lower, one mlir-opt and one mlir-runner
call for the main module."""
import os
import re
import shlex
import sys
import tempfile

import numpy as np

import common
import test_lower_e2e as e2e

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "data", "lower")
NP = {"f32": np.float32, "i32": np.int32, "i64": np.int64, "i1": np.bool_,
      "index": np.int64}


def ttype(shape, et):
    return "tensor<%s%s>" % ("".join(("?" if d is None else str(d)) + "x" for d in shape), et)


def indim_ref(x, dims, out_shape):
    """broadcast_in_dim by its definition: operand dim d reads index 0 when
    its size is 1, else the result index at dims[d]."""
    order = np.argsort(dims) if len(dims) else np.array([], dtype=int)
    xt = np.transpose(x, order) if x.ndim else x
    shape = [1] * len(out_shape)
    for i in range(x.ndim):
        shape[dims[i]] = x.shape[i]
    return np.broadcast_to(xt.reshape(shape), out_shape)


def xla_place(x, dims, rank):
    """The lower-rank CHLO operand placed at broadcast_dimensions."""
    shape = [1] * rank
    for j, d in enumerate(dims):
        shape[d] = x.shape[j]
    return x.reshape(shape)


class Fn:
    """One function @name: its text (before lowering), its arguments'
    declared types, the result's element type, and its runs: (arguments as
    arrays or ints for index arguments, the expected result)."""

    def __init__(self, name, text, arg_types, out_et, runs):
        self.name, self.text, self.arg_types = name, text, arg_types
        self.out_et, self.runs = out_et, runs


def one_op_fn(name, op_text, args, out):
    params = ", ".join("%%a%d: %s" % (k, t) for k, t in enumerate(args))
    return ("func.func @%s(%s) -> %s {\n  %%r = %s\n  return %%r : %s\n}\n"
            % (name, params, out, op_text, out))


def gen(rng, shape, et, kind=None):
    if et == "i1":
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    if et == "f32":
        lo = 0.25 if kind == "positive" else -4.0
        return rng.uniform(lo, 4.0, size=shape).astype(np.float32)
    if kind == "nonzero":
        v = rng.integers(1, 40, size=shape) * rng.choice([-1, 1], size=shape)
        return v.astype(NP[et])
    return rng.integers(-50, 50, size=shape).astype(NP[et])


# ---- StableHLO ------------------------------------------------------------

INDIM_CASES = [
    # name, operand declared shape, elem, result declared shape, dims,
    # runtime (operand shape, result shape) pairs
    ("bid_static", (1, 3), "i32", (2, 3, 2), [2, 1], [((1, 3), (2, 3, 2))]),
    ("bid_dyn_expand", (None, 3), "f32", (2, 4, 3), [1, 2],
     [((1, 3), (2, 4, 3)), ((4, 3), (2, 4, 3))]),
    ("bid_transpose_dyn", (None, 1), "f32", (4, 5), [1, 0],
     [((1, 1), (4, 5)), ((5, 1), (4, 5))]),
    ("bid_scalar", (), "i32", (2, 3), [], [((), (2, 3))]),
    ("bid_same", (None, None), "f32", (3, 2), [0, 1], [((3, 2), (3, 2)), ((1, 2), (3, 2))]),
]

DYN_CASES = [
    # name, operand shape, elem, result shape, dims, shape elem, attrs,
    # runtime (operand shape, result shape) pairs
    ("dyn_i64", (None, 3), "f32", (None, None, 3), [1, 2], "i64", "",
     [((1, 3), (2, 4, 3)), ((4, 3), (2, 4, 3)), ((2, 3), (1, 2, 3))]),
    ("dyn_index", (None,), "i32", (None, None), [1], "index", "",
     [((1,), (3, 5)), ((5,), (3, 5))]),
    ("dyn_i32_static_result", (None, 1), "i32", (3, 4), [0, 1], "i32", "",
     [((3, 1), (3, 4)), ((1, 1), (3, 4))]),
    ("dyn_known", (None, None), "f32", (None, None, None), [0, 2], "index",
     ", known_expanding_dimensions = array<i64: 0>, "
     "known_nonexpanding_dimensions = array<i64: 1>",
     [((1, 3), (2, 4, 3))]),
    ("dyn_transpose", (None, 2), "i32", (2, None), [1, 0], "i64", "",
     [((1, 2), (2, 3)), ((3, 2), (2, 3))]),
]

BROADCAST_CASES = [
    # name, operand shape, elem, broadcast_sizes, runtime operand shapes
    ("bcast_dyn", (None, 3), "i32", [2], [(4, 3), (1, 3)]),
    ("bcast_two", (2,), "f32", [3, 1], [(2,)]),
    ("bcast_scalar", (), "f32", [2, 2], [()]),
]

# CHLO: name, op, operand declared shapes, elem, broadcast_dimensions (or
# None), extra attributes, NumPy function, runtime operand shape pairs,
# input kind.
CMP = "comparison_direction = #chlo<comparison_direction %s>"
CHLO_CASES = [
    ("ch_add", "add", [(None, 3), (3,)], "f32", None, "", np.add,
     [[(2, 3), (3,)], [(1, 3), (3,)]], None),
    ("ch_sub_bdims", "subtract", [(None, 3), (None,)], "i32", [0], "", np.subtract,
     [[(2, 3), (2,)], [(1, 3), (4,)], [(3, 3), (1,)]], None),
    ("ch_mul", "multiply", [(None, None), (None, None)], "i32", None, "", np.multiply,
     [[(2, 1), (1, 3)], [(2, 3), (2, 3)]], None),
    ("ch_div_f32", "divide", [(2, None), (None,)], "f32", None, "", np.divide,
     [[(2, 3), (3,)], [(2, 1), (4,)]], "positive"),
    ("ch_div_i32", "divide", [(4,), (1,)], "i32", None, "", "truncdiv",
     [[(4,), (1,)]], "nonzero"),
    ("ch_rem_i32", "remainder", [(None,), (None,)], "i32", None, "", np.fmod,
     [[(5,), (1,)], [(5,), (5,)]], "nonzero"),
    ("ch_rem_f32", "remainder", [(3,), (3,)], "f32", None, "", np.fmod,
     [[(3,), (3,)]], "positive"),
    ("ch_max", "maximum", [(None, 2), (2,)], "f32", None, "", np.maximum,
     [[(3, 2), (2,)]], None),
    ("ch_min_i32", "minimum", [(3, 1), (1, 4)], "i32", None, "", np.minimum,
     [[(3, 1), (1, 4)]], None),
    ("ch_and_i1", "and", [(None,), (None,)], "i1", None, "", np.logical_and,
     [[(4,), (1,)], [(4,), (4,)]], None),
    ("ch_or_i32", "or", [(4,), (4,)], "i32", None, "", np.bitwise_or,
     [[(4,), (4,)]], None),
    ("ch_xor_i32", "xor", [(2, 3), (2, None)], "i32", None, "", np.bitwise_xor,
     [[(2, 3), (2, 1)], [(2, 3), (2, 3)]], None),
    ("ch_pow", "power", [(3,), (3,)], "f32", None, "", np.power,
     [[(3,), (3,)]], "positive"),
    ("ch_cmp_lt", "compare", [(None, 3), (None,)], "i32", [0], CMP % "LT", np.less,
     [[(2, 3), (2,)], [(2, 3), (1,)]], None),
    ("ch_cmp_ne_f32", "compare", [(None,), (None,)], "f32", None, CMP % "NE", np.not_equal,
     [[(4,), (4,)], [(4,), (1,)]], None),
    ("ch_cmp_ge_u", "compare", [(4,), (4,)], "i32", None,
     CMP % "GE" + ", compare_type = #chlo<comparison_type UNSIGNED>",
     lambda a, b: a.view(np.uint32) >= b.view(np.uint32), [[(4,), (4,)]], None),
    ("ch_cmp_le_i1", "compare", [(3,), (3,)], "i1", None, CMP % "LE",
     lambda a, b: a <= b, [[(3,), (3,)]], None),
]

INEXACT = {"ch_pow"}


def forms(op, operands, key, values, attrs=""):
    """The op in generic form and, unless it has further attributes, in
    StableHLO's pretty form ("dims = [1, 2]"), as (suffix, text) pairs."""
    listed = ", ".join(map(str, values))
    out = [("", '"stablehlo.%s"(%s) {%s = array<i64%s>%s}'
            % (op, operands, key, ": " + listed if values else "", attrs))]
    if not attrs:
        short = {"broadcast_dimensions": "dims", "broadcast_sizes": "sizes"}[key]
        out.append(("_pretty", "stablehlo.%s %s, %s = [%s]" % (op, operands, short, listed)))
    return out


def indim_fns(rng):
    fns = []
    for name, ins, et, out, dims, runs in INDIM_CASES:
        for suffix, op in forms("broadcast_in_dim", "%a0", "broadcast_dimensions", dims):
            text = one_op_fn(name + suffix, "%s : (%s) -> %s" % (op, ttype(ins, et), ttype(out, et)),
                             [ttype(ins, et)], ttype(out, et))
            r = []
            for ish, osh in runs:
                x = gen(rng, ish, et)
                r.append(([x], indim_ref(x, dims, osh)))
            fns.append(Fn(name + suffix, text, [ttype(ins, et)], et, r))
    for name, ins, et, out, dims, set_, attrs, runs in DYN_CASES:
        st = ttype((len(out),), set_)
        for suffix, op in forms("dynamic_broadcast_in_dim", "%a0, %a1", "broadcast_dimensions",
                                dims, attrs):
            text = one_op_fn(name + suffix, "%s : (%s, %s) -> %s"
                             % (op, ttype(ins, et), st, ttype(out, et)),
                             [ttype(ins, et), st], ttype(out, et))
            r = []
            for ish, osh in runs:
                x = gen(rng, ish, et)
                r.append(([x, np.array(osh, dtype=NP[set_])], indim_ref(x, dims, osh)))
            fns.append(Fn(name + suffix, text, [ttype(ins, et), st], et, r))
    for name, ins, et, sizes, runs in BROADCAST_CASES:
        out = tuple(sizes) + tuple(ins)
        for suffix, op in forms("broadcast", "%a0", "broadcast_sizes", sizes):
            text = one_op_fn(name + suffix, "%s : (%s) -> %s" % (op, ttype(ins, et), ttype(out, et)),
                             [ttype(ins, et)], ttype(out, et))
            r = []
            for ish in runs:
                x = gen(rng, ish, et)
                r.append(([x], np.broadcast_to(x, tuple(sizes) + ish)))
            fns.append(Fn(name + suffix, text, [ttype(ins, et)], et, r))
    return fns


def chlo_fns(rng):
    fns = []
    for name, op, ins, et, bdims, attrs, f, runs, kind in CHLO_CASES:
        compare = op == "compare"
        out_et = "i1" if compare else et
        rank = max(len(s) for s in ins)
        # The declared result: dynamic where any operand is.
        out = []
        for a in range(rank):
            ds = []
            for s in ins:
                if bdims is not None and len(s) < rank:
                    ds += [s[bdims.index(a)]] if a in bdims else []
                elif a >= rank - len(s):
                    ds.append(s[a - rank + len(s)])
            static = [d for d in ds if d is not None and d != 1]
            out.append(None if any(d is None for d in ds) else (static[0] if static else 1))
        items = []
        if bdims is not None:
            items.append("broadcast_dimensions = array<i64: %s>" % ", ".join(map(str, bdims)))
        if attrs:
            items.append(attrs)
        dict_text = " {%s}" % ", ".join(items) if items else ""
        types = [ttype(s, et) for s in ins]
        # Generic form, except every other case in the custom form.
        pattern = ('"chlo.broadcast_%s"(%%a0, %%a1)%s' if len(fns) % 2 == 0
                   else "chlo.broadcast_%s %%a0, %%a1%s")
        text = one_op_fn(name, (pattern + " : (%s) -> %s")
                         % (op, dict_text, ", ".join(types), ttype(out, out_et)),
                         types, ttype(out, out_et))
        r = []
        for shapes in runs:
            xs = [gen(rng, s, et, kind if k == 1 or kind == "positive" else None)
                  for k, s in enumerate(shapes)]
            ys = list(xs)
            if bdims is not None:
                ys = [xla_place(x, bdims, rank) if x.ndim < rank else x for x in xs]
            with np.errstate(all="ignore"):
                if f == "truncdiv":
                    a, b = (y.astype(np.int64) for y in ys)
                    want = (np.abs(a) // np.abs(b) * np.sign(a) * np.sign(b)).astype(np.int32)
                else:
                    want = f(ys[0], ys[1])
            r.append((xs, np.asarray(want).astype(NP[out_et])))
        fns.append(Fn(name, text, types, out_et, r))
    return fns


# ---- the partial form -----------------------------------------------------

# name, operand shape ('?' dims), dims, --new-dims, elem, runs: (operand
# runtime shape, {output dim: size of each '?' size argument})
PARTIAL_CASES = [
    ("pt_new_dyn", "[?,3]", "0,2", "1:?", "f32",
     [((2, 3), {1: 4}), ((1, 3), {1: 2})]),
    ("pt_expand", "[?,1,?]", "2,0,3", "1:4,3:?,0:5", "i32",
     [((2, 1, 1), {3: 3}), ((2, 1, 3), {3: 3})]),
    ("pt_static", "[2]", "1", "0:3", "f32", [((2,), {})]),
    ("pt_scalar", "[]", "", "0:?,1:2", "i32", [((), {0: 3})]),
]


def partial_out(op_shape, dims, new, x_shape, args):
    """The partial form's output shape for a run."""
    sizes = {}
    for e in new.split(",") if new else []:
        o, s = e.split(":")
        sizes[int(o)] = args[int(o)] if s == "?" else int(s)
    rank = len(dims) + sum(1 for o in sizes if o not in dims)
    out = [0] * rank
    for i, d in enumerate(dims):
        out[d] = x_shape[i]
    for o, s in sizes.items():
        out[o] = s
    return tuple(out)


def partial_fns(bcast, rng, form, check):
    fns = []
    for name, operand, dims_text, new, et, runs in PARTIAL_CASES:
        fname = "%s_%s" % (name, form)
        argv = ["broadcast-in-dim", "--operand", operand, "--dims", dims_text,
                "--new-dims", new, "--emit", form, "--elem", et, "--func", fname]
        r = common.bcast_text(bcast, argv)
        if not check(r.returncode == 0, "bcast %s" % " ".join(argv), r.stderr):
            continue
        # Each function's map aliases get names of their own in the module.
        text = r.stdout.replace("#bcast_map", "#%s_map" % fname)
        dims = [int(d) for d in dims_text.split(",")] if dims_text else []
        op_shape = tuple(None if d == "?" else int(d)
                         for d in operand.strip("[]").split(",") if d)
        dyn = sorted(int(e.split(":")[0]) for e in new.split(",") if e.endswith(":?"))
        types = [ttype(op_shape, et)] + ["index"] * len(dyn)
        fr = []
        for x_shape, args in runs:
            x = gen(rng, x_shape, et)
            osh = partial_out(op_shape, dims, new, x_shape, args)
            fr.append(([x] + [args[o] for o in dyn], indim_ref(x, dims, osh)))
        fns.append(Fn(fname, text, types, et, fr))
    return fns


# ---- running --------------------------------------------------------------

def dense(a, et):
    """A dense constant of a's values and shape."""
    t = ttype(a.shape, et)
    if et in ("i1", "index"):
        flat = [("true" if v else "false") if et == "i1" else str(int(v))
                for v in a.reshape(-1)]
        return "dense<%s> : %s" % (e2e.nest(flat, a.shape) if a.shape else flat[0], t)
    raw = np.ascontiguousarray(a, dtype=np.dtype(NP[et]).newbyteorder("<")).tobytes()
    return 'dense<"0x%s"> : %s' % (raw.hex().upper(), t)


def call_text(fn, idx, args, want):
    """Builds the arguments (constants cast to the declared types), calls
    @fn, prints the result as i32."""
    p = "%%v%d" % idx
    L, vals = [], []
    for k, (t, a) in enumerate(zip(fn.arg_types, args)):
        if t == "index":
            L.append("  %s_c%d = arith.constant %d : index" % (p, k, a))
            vals.append("%s_c%d" % (p, k))
            continue
        et = re.match(r"tensor<(?:[?\d]+x)*(.+)>$", t).group(1)
        rt = ttype(a.shape, et)
        L.append("  %s_c%d = arith.constant %s" % (p, k, dense(a, et)))
        if rt != t:
            L.append("  %s_in%d = tensor.cast %s_c%d : %s to %s" % (p, k, p, k, rt, t))
            vals.append("%s_in%d" % (p, k))
        else:
            vals.append("%s_c%d" % (p, k))
    out_t = re.search(r"^func\.func @%s\(.*\) -> (\S+) \{$" % fn.name, fn.text,
                      re.M).group(1)
    L.append("  %s_r = call @%s(%s) : (%s) -> %s"
             % (p, fn.name, ", ".join(vals), ", ".join(fn.arg_types), out_t))
    st = ttype(want.shape, fn.out_et)
    src = "%s_r" % p
    if st != out_t:
        L.append("  %s_s = tensor.cast %s_r : %s to %s" % (p, p, out_t, st))
        src = "%s_s" % p
    rank = len(want.shape)
    dl = ", ".join("d%d" % i for i in range(rank))
    idm = "affine_map<(%s) -> (%s)>" % (dl, dl)
    it = ttype(want.shape, "i32")
    conv = {"f32": "arith.bitcast %s_b : f32 to i32" % p,
            "i1": "arith.extui %s_b : i1 to i32" % p,
            "i32": "arith.addi %s_b, %s_zero : i32" % (p, p)}[fn.out_et]
    L.append("  %s_zero = arith.constant 0 : i32" % p)
    L.append("  %s_e = tensor.empty() : %s" % (p, it))
    L.append("  %s_i = linalg.generic {indexing_maps = [%s, %s], iterator_types = [%s]} "
             "ins(%s : %s) outs(%s_e : %s) {" % (p, idm, idm, ", ".join(['"parallel"'] * rank),
                                                 src, st, p, it))
    L.append("  ^bb0(%s_b: %s, %s_o: i32):" % (p, fn.out_et, p))
    L.append("    %s_y = %s" % (p, conv))
    L.append("    linalg.yield %s_y : i32" % p)
    L.append("  } -> %s" % it)
    mt = "memref<%si32>" % "".join("%dx" % d for d in want.shape)
    L.append("  %s_m = bufferization.to_buffer %s_i : %s to %s" % (p, p, it, mt))
    L.append("  %s_u = memref.cast %s_m : %s to memref<*xi32>" % (p, p, mt))
    L.append("  call @printMemrefI32(%s_u) : (memref<*xi32>) -> ()" % p)
    return "\n".join(L) + "\n"


def expected(fn, want):
    return e2e.as_i32(np.ascontiguousarray(want), fn.out_et).reshape(-1)


def run_all(bcast, fns, wd, check, flags=()):
    runs = [(fn, vi, args, want) for fn in fns for vi, (args, want) in enumerate(fn.runs)]
    calls = [call_text(fn, i, args, want) for i, (fn, vi, args, want) in enumerate(runs)]
    src = e2e.module_text([fn.text for fn in fns], calls)
    lw = common.bcast_text(bcast, ["lower"] + list(flags) + ["-"], src)
    if not check(lw.returncode == 0, "bcast lower of the module", lw.stderr):
        return
    v = common.mlir_opt(text=lw.stdout)
    check(v.returncode == 0, "mlir-opt 22 accepts the lowered module", v.stderr[-3000:])
    got, err = e2e.run_module(lw.stdout, wd, "shlo")
    if not check(got is not None and len(got) == len(runs), "compile and run the lowering", err):
        return
    for (fn, vi, args, want), g in zip(runs, got):
        g = np.array(g, dtype=np.int64)
        w = expected(fn, want)
        ok = g.shape == w.shape and (e2e.ulp_close(g, w, fn.out_et, 4) if fn.name in INEXACT
                                     else np.array_equal(g, w))
        check(ok, "%s run %d (inputs %s) vs NumPy" % (fn.name, vi, [getattr(a, "shape", a) for a in args]),
              "got  %s\nwant %s" % (g.tolist(), w.tolist()))


def check_asserts(bcast, rng, wd, check):
    """Mismatched runtime sizes stop the run with the message."""
    # A dynamic_broadcast_in_dim whose operand is 2 where the result is 3.
    name, ins, et, out, dims, set_, attrs, _ = DYN_CASES[1]
    st = ttype((len(out),), set_)
    fn = Fn(name, one_op_fn(name, '"stablehlo.dynamic_broadcast_in_dim"(%%a0, %%a1) '
                            '{broadcast_dimensions = array<i64: 1>} : (%s, %s) -> %s'
                            % (ttype(ins, et), st, ttype(out, et)), [ttype(ins, et), st],
                            ttype(out, et)), [ttype(ins, et), st], et, [])
    x = gen(rng, (2,), et)
    cases = [("dynamic_broadcast_in_dim", fn, [x, np.array([3, 3], dtype=np.int64)],
              np.zeros((3, 3), dtype=np.int32),
              "'stablehlo.dynamic_broadcast_in_dim' op operand #0 dim 0: runtime size "
              "is neither 1 nor the result size")]
    # The partial form: operand dim 2 is 2 where its size argument says 3.
    r = common.bcast_text(bcast, ["broadcast-in-dim", "--operand", "[?,1,?]", "--dims", "2,0,3",
                                  "--new-dims", "1:4,3:?,0:5", "--emit", "linalg", "--elem", "i32",
                                  "--assert-broadcast", "--func", "pa"])
    if check(r.returncode == 0, "broadcast-in-dim --emit linalg --assert-broadcast", r.stderr):
        pfn = Fn("pa", r.stdout, [ttype((None, 1, None), "i32"), "index"], "i32", [])
        cases.append(("partial form", pfn, [gen(rng, (2, 1, 2), "i32"), 3],
                      np.zeros((5, 4, 2, 3), dtype=np.int32),
                      "@pa: 'broadcast_in_dim' op operand #0 dim 2: runtime size is neither "
                      "1 nor the result size"))
    for what, f, args, want, message in cases:
        src = e2e.module_text([f.text], [call_text(f, 0, args, want)])
        lw = common.bcast_text(bcast, ["lower", "--assert-broadcast", "-"], src)
        check(lw.returncode == 0, "bcast lower --assert-broadcast (%s)" % what, lw.stderr)
        res, err = e2e.run_module(lw.stdout, wd, "assert")
        check(res is None and message in err,
              "--assert-broadcast stops a mismatched %s with its message" % what, err[-2000:])


REFUSED = [
    # (op text, types, message): what bcast lower refuses, naming why.
    ("stablehlo.broadcast_in_dim %a0, dims = [0] : (tensor<?xf32, #stablehlo.bounds<4>>) "
     "-> tensor<4x2xf32>", "a tensor with an encoding (#stablehlo.bounds<4>) is not lowered"),
    ('"chlo.broadcast_compare"(%a0, %a0) {comparison_direction = #chlo<comparison_direction LT>, '
     "compare_type = #chlo<comparison_type TOTALORDER>} : (tensor<2xf32>, tensor<2xf32>) -> "
     "tensor<2xi1>", "compare_type TOTALORDER is not lowered"),
    ('"stablehlo.dynamic_broadcast_in_dim"(%a0, %a1) {broadcast_dimensions = array<i64: 0>, '
     "known_expanding_dimensions = array<i64: 0>, known_nonexpanding_dimensions = array<i64: 0>} "
     ": (tensor<?xf32>, tensor<1xindex>) -> tensor<?xf32>",
     "duplicate expansion hint for at least one operand dimension"),
    ('"stablehlo.dynamic_broadcast_in_dim"(%a0, %a1) {broadcast_dimensions = array<i64: 1>, '
     "known_expanding_dimensions = array<i64: 0>} : (tensor<3xf32>, tensor<2xindex>) -> "
     "tensor<?x3xf32>", "known_expanding_dimensions names operand dim 0, whose size is 3, not 1"),
    ('"stablehlo.broadcast"(%a0) {broadcast_sizes = array<i64: 2>} : (tensor<3xui8>) -> '
     "tensor<2x3xui8>", "unsupported element type 'ui8'"),
    ('"chlo.broadcast_add"(%a0, %a1) : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>',
     "has no arith lowering for i1"),
]


def check_refusals(bcast, check):
    """Ops outside what the lowering models fail with a message naming the
    reason (exit 1, nothing written); CHLO ops without an arith counterpart
    are left as they are."""
    for op, message in REFUSED:
        types = re.match(r".*: \((.*)\) -> (.*)$", op)
        args = [t for t in re.findall(r"tensor<[^>]*(?:<[^>]*>)?[^>]*>", types.group(1))]
        text = "func.func @f(%s) {\n  %%r = %s\n  return\n}\n" % (
            ", ".join("%%a%d: %s" % (k, t) for k, t in enumerate(args)), op)
        r = common.bcast_text(bcast, ["lower", "-"], text)
        check(r.returncode == 1 and message in r.stderr and r.stdout == "",
              "bcast lower refuses %s" % op.split("(")[0].split(" ")[0], r.stderr)
    kept = ('func.func @f(%a: tensor<2xi32>, %b: tensor<i32>) -> tensor<2xi32> {\n'
            '  %r = "chlo.broadcast_shift_left"(%a, %b) : (tensor<2xi32>, tensor<i32>) -> tensor<2xi32>\n'
            '  return %r : tensor<2xi32>\n}\n')
    r = common.bcast_text(bcast, ["lower", "-"], kept)
    check(r.returncode == 0 and r.stdout == kept, "chlo.broadcast_shift_left is left as it is",
          r.stderr + r.stdout)


def check_goldens(bcast, update, check):
    names = sorted(f[:-5] for f in os.listdir(DATA)
                   if f.startswith("partial_") and f.endswith(".args"))
    check(len(names) > 0, "partial-form goldens exist")
    for name in names:
        with open(os.path.join(DATA, name + ".args")) as f:
            argv = shlex.split(f.read())
        r = common.bcast_text(bcast, ["broadcast-in-dim"] + argv)
        if not check(r.returncode == 0, "%s: bcast broadcast-in-dim exited %d"
                     % (name, r.returncode), r.stderr):
            continue
        path = os.path.join(DATA, name + ".golden")
        if update:
            with open(path, "w") as f:
                f.write(r.stdout)
        with open(path) as f:
            golden = f.read()
        check(r.stdout == golden, "%s: output differs from %s.golden" % (name, name), r.stdout)
        text = golden
        if "stablehlo." in golden:
            lw = common.bcast_text(bcast, ["lower", "-"], golden)
            check(lw.returncode == 0, "%s: bcast lower of the stablehlo form" % name, lw.stderr)
            text = lw.stdout
        v = common.mlir_opt(text=text)
        check(v.returncode == 0, "%s: mlir-opt accepts it" % name, v.stderr)


def main():
    ap = common.parser(seed=lambda: int(os.environ.get("BCAST_TEST_SEED", "0") or 0) or 20261126)
    ap.add_argument("--update", action="store_true", help="rewrite the partial-form goldens")
    args = common.parse_args(ap)
    print("seed %d (replay with --seed %d)" % (args.seed, args.seed))
    rng = np.random.default_rng(args.seed)
    tally = common.Tally(width=4000)
    check = tally.check
    if not common.executable(common.MLIR_OPT, common.MLIR_RUNNER):
        print("note: mlir-opt / mlir-runner 22 missing: nothing run")
        check(False, "mlir-opt and mlir-runner 22 are needed")
        return tally.summary()
    fns = indim_fns(rng) + chlo_fns(rng)
    fns += partial_fns(args.bcast, rng, "linalg", check)
    fns += partial_fns(args.bcast, rng, "stablehlo", check)
    with tempfile.TemporaryDirectory() as wd:
        run_all(args.bcast, fns, wd, check)
        # The same with every assertion in: compatible sizes pass them.
        run_all(args.bcast, fns, wd, check, ["--assert-broadcast"])
        check_asserts(args.bcast, rng, wd, check)
    check_refusals(args.bcast, check)
    check_goldens(args.bcast, args.update, check)
    return tally.summary("replay: --seed %d" % args.seed)


if __name__ == "__main__":
    sys.exit(main())
