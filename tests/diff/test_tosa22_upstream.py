#!/usr/bin/python3
"""bcast against mlir-opt 22 on MLIR's own TOSA and trait tests (issue 22):
the cases of llvm-project's mlir/test/Dialect/Tosa/{invalid,ops,broadcast}.mlir,
mlir/test/Dialect/traits.mlir and mlir/test/Conversion/TosaToLinalg/
tosa-to-linalg{,-invalid}.mlir that hold an element-wise op, committed in
tests/data/tosa22 with their source commit, measured by
scripts/upstream_tosa.py (its docstring defines each figure).

Checks, per case:
  - bcast's verdict is mlir-opt's (the error lines on element-wise ops);
  - a case whose annotations are all on element-wise ops, and which
    mlir-opt passes with --verify-diagnostics, passes
    `bcast verify --verify-diagnostics`;
  - a case of tosa-to-linalg*.mlir that mlir-opt lowers, bcast lowers;
  - each element-wise op of a lowered case, run through both lowerings
    under mlir-runner on seeded inputs, gives bit-identical results.
invalid.mlir's RUN line runs the -tosa-validate pass: its cases are
judged with `bcast verify --tosa-validate` (@test_add_i1, @test_mul_out_i16
and @test_unsupported_boolean_type_clamp are the pass's "did you mean"
errors).  Not counted, and listed: cases mlir-opt does not judge (it stops
at another op), ops the harness cannot feed (fp8, unranked) and ops whose
MLIR lowering does not run.
Unsigned cases (@test_simple_ui8, @test_simple_i32's ui32 clamp) are
lowered and executed through their signless view, and counted.

Usage:
  /usr/bin/python3 tests/diff/test_tosa22_upstream.py --bcast BUILD/bcast \
      [--seed N] [--keep DIR]
"""
import os
import sys

import common

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
import upstream_tosa  # noqa: E402

DATA = os.path.join(HERE, "..", "data", "tosa22")


def main():
    ap = common.parser(__doc__, seed=2222)
    ap.add_argument("--keep")
    args = common.parse_args(ap)
    if common.missing(args.bcast, "bcast binary not found or not executable: %s"):
        return 1
    if common.missing(common.MLIR_RUNNER, "mlir-runner not found at %s"):
        return 1
    print("seed %d (replay with --seed %d)" % (args.seed, args.seed))
    args.upstream = DATA
    args.no_run = False
    results = upstream_tosa.measure(args)
    tally = common.Tally(most_shown=40, width=400)
    skipped = []
    for rel, _, _ in upstream_tosa.FILES:
        if os.path.isfile(os.path.join(DATA, rel)):
            tally.check(any(r["file"] == rel for r in results),
                        "%s: no case holding an element-wise op" % rel)
    for r in results:
        where = "%s:%d @%s" % (os.path.basename(r["file"]), r["first"], r["name"])
        if r["verdict"] in ("other", "validate"):
            skipped.append("%s: not judged by mlir-opt's verifier (%s)" %
                           (where, r["verdict"]))
        else:
            tally.check(r["verdict"] == "agree", "%s: verdict differs" % where,
                        r.get("why", ""))
        if r.get("diag") in ("pass", "fail") and r["verdict"] != "validate":
            tally.check(r["diag"] == "pass",
                        "%s: --verify-diagnostics fails" % where, r.get("why_diag", ""))
        if "lowered" in r:
            tally.check(r["lowered"], "%s: bcast lower refuses it" % where)
        for o in r.get("ops", []):
            if o["status"] == "cannot feed" or o["status"].startswith(
                    "mlir-opt's lowering does not run"):
                skipped.append("%s: %s: %s" % (where, o["line"][:70], o["status"][:120]))
                continue
            tally.check(o["status"] == "identical", "%s: %s" % (where, o["line"]),
                        o["status"])
    for line in skipped:
        print("not counted: " + line)
    rows = dict(upstream_tosa.table(results))
    print("cases %d, agree %d, ops run %d, identical %d, not counted %d" % (
        rows["total"][0], rows["total"][1], rows["total"][9], rows["total"][10],
        len(skipped)))
    return tally.summary("replay: --seed %d" % args.seed)


if __name__ == "__main__":
    sys.exit(main())
