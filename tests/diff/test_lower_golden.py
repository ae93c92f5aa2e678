#!/usr/bin/python3
"""Golden tests of `bcast lower`.

Every tests/data/lower/NAME.mlir (the TOSA-to-Linalg RFC's example inputs
and a few more) is lowered from stdin with the flags of its
"// bcast-lower-flags:" line; the output must equal NAME.golden, and the
golden must parse and verify with mlir-opt 22 (skipped, and said so, when
mlir-opt is missing).  --update rewrites the goldens.

Also checks that lowering is deterministic and that the CLI reports an op
it cannot lower with a position and exit status 1."""
import os
import sys

import common

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "data", "lower")


def flags_of(text):
    for line in text.splitlines():
        if line.startswith("// bcast-lower-flags:"):
            return line.split(":", 1)[1].split()
    return []


def one_op(op, operand_types, result_type):
    """A function @f of one OP on its arguments %a, %b, ... (the op at 2:8)."""
    names = ["%a", "%b", "%c"][:len(operand_types)]
    args = ", ".join("%s: %s" % (n, t) for n, t in zip(names, operand_types))
    return ("func.func @f(%s) -> %s {\n"
            "  %%0 = %s %s : (%s) -> %s\n"
            "  return %%0 : %s\n}\n" % (args, result_type, op, ", ".join(names),
                                          ", ".join(operand_types), result_type, result_type))


def lower(bcast, text, flags):
    return common.bcast_text(bcast, ["lower", "-"] + flags, text)


def main():
    ap = common.parser()
    ap.add_argument("--update", action="store_true")
    args = common.parse_args(ap)
    tally = common.Tally()
    check = tally.check
    have_opt = common.executable(common.MLIR_OPT)
    if not have_opt:
        print(f"note: {common.MLIR_OPT} missing: goldens are not verified")

    names = sorted(f[:-5] for f in os.listdir(DATA) if f.endswith(".mlir"))
    for name in names:
        with open(os.path.join(DATA, name + ".mlir")) as f:
            text = f.read()
        r = lower(args.bcast, text, flags_of(text))
        golden_path = os.path.join(DATA, name + ".golden")
        if r.returncode != 0:
            check(False, f"{name}: bcast lower exited {r.returncode}", r.stderr)
            continue
        if args.update:
            with open(golden_path, "w") as f:
                f.write(r.stdout)
        with open(golden_path) as f:
            golden = f.read()
        check(r.stdout == golden, f"{name}: output differs from {name}.golden",
              r.stdout)
        again = lower(args.bcast, text, flags_of(text))
        check(again.stdout == r.stdout, f"{name}: output is not deterministic")
        if have_opt:
            v = common.mlir_opt(golden_path)
            check(v.returncode == 0, f"{name}.golden: mlir-opt rejects it",
                  v.stderr)
            lowered_ops = [l for l in golden.splitlines()
                           if ("tosa." in l and "tosa.const" not in l and "cf.assert" not in l
                               and not l.lstrip().startswith("//"))]
            only = "--only" in flags_of(text)
            check(only or not lowered_ops,
                  f"{name}.golden: TOSA element-wise ops left", "\n".join(lowered_ops))

    # Errors: position, message, exit status 1; and the trait profile's
    # rank expansion.  (what, function, flags, exit status, output that
    # holds the text, the text, stdout must be empty)
    add = one_op("tosa.add", ["tensor<2xf32>", "tensor<3xf32>"], "tensor<3xf32>")
    exp = one_op("tosa.exp", ["tensor<2xi8>"], "tensor<2xi8>")
    ranks = one_op("tosa.add", ["tensor<3xf32>", "tensor<2x3xf32>"], "tensor<2x3xf32>")
    cases = [
        ("incompatible shapes are reported", add, [], 1, "stderr",
         "<stdin>:2:8: error: 'tosa.add' op operands don't have broadcast-compatible shapes",
         True),
        ("unsupported element type is reported", exp, [], 1, "stderr",
         "does not support these element types", False),
        ("tosa profile rejects rank expansion", ranks, [], 1, "stderr", "matching ranks", False),
        ("trait profile expands ranks", ranks, ["--op-profile", "tosa.*=trait"], 0, "stdout",
         "tensor.expand_shape", False),
    ]
    for what, text, flags, rc, where, want, quiet in cases:
        r = lower(args.bcast, text, flags)
        check(r.returncode == rc and (not quiet or r.stdout == "") and
              want in getattr(r, where), what, r.stderr)
    r = common.bcast_text(args.bcast, ["lower", "--only", "tosa.nope", "-"], "")
    check(r.returncode == 2, "unknown --only op is a usage error", r.stderr)
    # Fresh names: an input that uses every prefix the emitter once tried
    # ("%bc", "%bc_", ... "%bc" and 13 underscores; "#bcast_map" and up to
    # 14 underscores, all its buffers held) and some of the "bc_<k>_" ones
    # it tries now.  The output must parse and verify: no SSA value or map
    # alias defined twice.
    # The last two also spell the names the old emitter then made ("%" +
    # "bc" and 12 underscores + "0_a0", "#" + "bcast_map" and 13
    # underscores + "0"), so reusing a prefix is a redefinition.
    ssa = ["bc" + "_" * n for n in range(14)] + ["bc_0_", "bc_7_x",
                                                  "bc" + "_" * 12 + "0_a0"]
    maps = (["bcast_map" + "_" * n for n in range(15)] +
            ["bcast_map_3_", "bcast_map" + "_" * 13 + "0"])
    params = ", ".join("%%%s: tensor<2x?xf32>" % n for n in ssa)
    collide = "".join("#%s = affine_map<(d0, d1) -> (d1, d0)>\n" % m for m in maps)
    collide += ("func.func @f(%%a: tensor<1x?xf32>, %s) -> tensor<2x?xf32> {\n"
                "  %%bc0 = tosa.add %%a, %%bc : (tensor<1x?xf32>, tensor<2x?xf32>) -> tensor<2x?xf32>\n"
                "  %%bc_8_0 = tosa.exp %%bc0 : (tensor<2x?xf32>) -> tensor<2x?xf32>\n"
                "  return %%bc_8_0 : tensor<2x?xf32>\n}\n" % params)
    r = lower(args.bcast, collide, [])
    check(r.returncode == 0, "input using every old name prefix lowers", r.stderr)
    check("%bc_9_" in r.stdout and "#bcast_map_4_" in r.stdout,
          "fresh names are one past the input's largest bc_K_ / bcast_map_K_",
          r.stdout[:2000])
    if have_opt and r.returncode == 0:
        v = common.mlir_opt(text=r.stdout)
        check(v.returncode == 0, "lowering of the colliding input: mlir-opt "
              "rejects it", v.stderr[-2000:])
    # A module without TOSA ops comes back byte for byte.
    plain = "func.func @g(%x: i32) -> i32 {\n  return %x : i32\n}\n"
    r = lower(args.bcast, plain, [])
    check(r.returncode == 0 and r.stdout == plain, "text without ops is unchanged")

    return tally.summary()


if __name__ == "__main__":
    sys.exit(main())
