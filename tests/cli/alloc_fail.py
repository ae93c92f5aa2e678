"""Allocation failure in the CLI: for each command below, the Nth memory
allocation that bcast's own code (the CLI and the library) makes fails, for
N = 1, 2, ... until the command completes without reaching N, through the
LD_PRELOAD shim tests/cli/failalloc.c.  Each failing run must end with an
exit status of 1 or 2 (never a signal) and a message on standard error,
leave every output file as it was before the run (or, when the command
still succeeded because the allocation was optional, exactly as the normal
run writes it), and leave no temporary file behind.  An output directory
that the command makes (missing before each run) must be gone again after
every failing run: nothing that a failing run creates may stay.

Run by ctest in the release build only: AddressSanitizer must own malloc,
and a preloaded one would displace it."""

import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "diff"))
import common  # noqa: E402
import npz_craft  # noqa: E402

import numpy as np  # noqa: E402

MLIR = """func.func @f(%a: tensor<2x1xf32>, %b: tensor<1x3xf32>, %c: tensor<4xf32>) -> tensor<2x3xf32> {
  %0 = tosa.add %a, %b : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %1 = tosa.mul %0, %b, %s : (tensor<2x3xf32>, tensor<1x3xf32>, tensor<1xi8>) -> tensor<2x3xf32>
  %2 = tosa.sub %a, %c : (tensor<2x1xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x3xf32>
}
"""

# (name, arguments; {d} is the work folder, outputs listed separately[, the
# directory the command makes, removed before each run])
COMMANDS = [
    ("run", ["run", "add", "{d}/a.npy", "{d}/b.npy", "--profile", "numpy",
             "-o", "{d}/out.npy"], ["out.npy"]),
    ("run converting", ["run", "add", "{d}/a.npy", "{d}/i.npy", "--profile",
                        "numpy", "-o", "{d}/out.npy"], ["out.npy"]),
    ("broadcast", ["broadcast", "{d}/a.npy", "{d}/b.npy", "-o", "{d}/outdir"],
     ["outdir/z0.npy", "outdir/z1.npy"]),
    ("broadcast npz", ["broadcast", "{d}/a.npy", "{d}/b.npy", "-o",
                       "{d}/out.npz"], ["out.npz"]),
    # Deflated members read (zlib), a member added to an archive whose
    # other members are copied.
    ("run npz member", ["run", "add", "{d}/in.npz:a", "{d}/in.npz:b",
                        "--profile", "numpy", "-o", "{d}/out.npz:c"],
     ["out.npz"]),
    ("broadcast-to", ["broadcast-to", "{d}/b.npy", "--shape", "4,2,3", "-o",
                      "{d}/out.npy"], ["out.npy"]),
    ("broadcast-in-dim", ["broadcast-in-dim", "{d}/c.npy", "--dims", "1",
                          "--shape", "2,4", "-o", "{d}/out.npy"], ["out.npy"]),
    # Outputs over --memory, written tile by tile (stream.c).
    ("run streamed", ["run", "add", "{d}/e.npy", "{d}/b.npy", "--memory", "40",
                      "-o", "{d}/out.npy"], ["out.npy"]),
    ("broadcast-to streamed", ["broadcast-to", "{d}/b.npy", "--shape", "4,2,3",
                               "--memory", "64", "-o", "{d}/out.npy"],
     ["out.npy"]),
    ("broadcast streamed", ["broadcast", "{d}/e.npy", "{d}/b.npy", "--memory",
                            "64", "-o", "{d}/outdir"],
     ["outdir/z0.npy", "outdir/z1.npy"]),
    # An output directory the command makes.
    ("broadcast made dir", ["broadcast", "{d}/a.npy", "{d}/b.npy", "-o",
                            "{d}/newdir"],
     ["newdir/z0.npy", "newdir/z1.npy"], "newdir"),
    ("broadcast streamed made dir", ["broadcast", "{d}/e.npy", "{d}/b.npy",
                                     "--memory", "64", "-o", "{d}/newdir"],
     ["newdir/z0.npy", "newdir/z1.npy"], "newdir"),
    ("verify", ["verify", "{d}/f.mlir"], []),
    ("lower", ["lower", "{d}/g.mlir", "-o", "{d}/out.mlir"], ["out.mlir"]),
    ("infer", ["infer", "--format", "json", "tensor<2x1xf32>", "3"], []),
    ("explain", ["explain", "--format", "json", "2,1", "3"], []),
    ("info", ["info", "{d}/a.npy", "{d}/b.npy"], []),
]

OLD = b"the old contents of an output file\n"
# An archive output's old contents: an archive (its members are kept), with
# a stored and a deflated member.
OLD_NPZ = npz_craft.build([npz_craft.Member("kept.npy", npz_craft.npy_bytes(np.arange(3))),
                           npz_craft.Member("packed.npy", npz_craft.npy_bytes(np.zeros(40)),
                                            8)])


def old_bytes(o):
    return OLD_NPZ if o.endswith(".npz") else OLD


def prepare(d):
    np.save(os.path.join(d, "a.npy"), np.arange(2, dtype=np.float32).reshape(2, 1))
    np.save(os.path.join(d, "b.npy"), np.arange(3, dtype=np.float32).reshape(1, 3))
    np.save(os.path.join(d, "c.npy"), np.arange(4, dtype=np.float32))
    np.save(os.path.join(d, "e.npy"), np.arange(4, dtype=np.float32).reshape(4, 1))
    np.save(os.path.join(d, "i.npy"), np.arange(3, dtype=np.int64).reshape(1, 3))
    with open(os.path.join(d, "f.mlir"), "w") as f:
        f.write(MLIR)
    # The same without the op that fails verification, for lower.
    with open(os.path.join(d, "g.mlir"), "w") as f:
        f.write("".join(line for line in MLIR.splitlines(True)
                        if "tosa.sub" not in line))
    os.makedirs(os.path.join(d, "outdir"), exist_ok=True)
    np.savez_compressed(os.path.join(d, "in.npz"),
                        a=np.arange(2, dtype=np.float32).reshape(2, 1),
                        b=np.arange(3, dtype=np.float32).reshape(1, 3))


def reset_outputs(d, outputs, made):
    """The old contents in every output, or with made no such directory."""
    if made:
        shutil.rmtree(os.path.join(d, made), ignore_errors=True)
        return
    for o in outputs:
        with open(os.path.join(d, o), "wb") as f:
            f.write(old_bytes(o))


def unchanged(d, outputs, made):
    """What a failed run must leave: the old contents, or no directory."""
    if made:
        return not os.path.lexists(os.path.join(d, made))
    return all(read(d, o) == old_bytes(o) for o in outputs)


def read(d, o):
    with open(os.path.join(d, o), "rb") as f:
        return f.read()


def listing(d):
    """Every file and directory under d."""
    return sorted(os.path.relpath(os.path.join(root, n), d)
                  for root, dirs, names in os.walk(d) for n in names + dirs)


def main():
    ap = common.parser(__doc__)
    ap.add_argument("--shim", required=True, help="path to libbcast_failalloc.so")
    args = common.parse_args(ap)
    tally = common.Tally(most_shown=20)
    d = tempfile.mkdtemp(prefix="bcast-allocfail-")
    log = os.path.join(tempfile.mkdtemp(prefix="bcast-allocfail-log-"), "log")
    runs = 0
    try:
        prepare(d)
        for name, argv, outputs, *made in COMMANDS:
            made = made[0] if made else None
            argv = [args.bcast] + [a.format(d=d) for a in argv]
            reset_outputs(d, outputs, made)
            files = listing(d)
            rc0, out0, err0 = common.run(argv)
            expect = {o: read(d, o) for o in outputs}
            files_ok = listing(d)
            if not tally.check(rc0 in (0, 1) and
                               all(v != old_bytes(o) for o, v in expect.items()),
                               "%s: the normal run" % name,
                               "exit %s\n%s" % (rc0, err0)):
                continue
            n, failures = 0, 0
            while True:
                n += 1
                reset_outputs(d, outputs, made)
                if os.path.exists(log):
                    os.unlink(log)
                env = dict(os.environ, LD_PRELOAD=args.shim,
                           BCAST_FAIL_ALLOC_AT=str(n), BCAST_FAIL_ALLOC_LOG=log)
                p = common.subprocess.run(argv, env=env, stdout=common.subprocess.PIPE,
                                          stderr=common.subprocess.PIPE, timeout=60)
                runs += 1
                err = p.stderr.decode("utf-8", "replace")
                hit = os.path.exists(log)
                if not hit:
                    # Past the last allocation: the normal run's result.
                    tally.check(p.returncode == rc0 and
                                all(read(d, o) == expect[o] for o in outputs),
                                "%s: with no allocation failing" % name,
                                "exit %s\n%s" % (p.returncode, err))
                    break
                what = "%s, allocation %d failing" % (name, n)
                failures += 1
                if p.returncode == rc0 and p.stdout.decode() == out0:
                    # The allocation was optional (a message's scratch):
                    # the outputs are the normal run's.
                    tally.check(all(read(d, o) == expect[o] for o in outputs),
                                what + ": succeeded with other outputs")
                    want = files_ok
                else:
                    tally.check(p.returncode in (1, 2) and err.strip() != "",
                                what + ": exit status and message",
                                "exit %s, stderr %r" % (p.returncode, err[-300:]))
                    tally.check(unchanged(d, outputs, made),
                                what + ": an output file or directory was "
                                "changed")
                    want = files
                tally.check(listing(d) == want, what + ": files left behind",
                            "%s" % sorted(set(listing(d)) - set(want)))
                if n > 5000:
                    tally.fail(name + ": more than 5000 allocations")
                    break
            print("%-18s %4d allocations failed in turn" % (name, failures))
            tally.check(failures > 0, name + ": no allocation was seen")
    finally:
        shutil.rmtree(d, ignore_errors=True)
        shutil.rmtree(os.path.dirname(log), ignore_errors=True)
    print("%d runs" % runs)
    return tally.summary()


if __name__ == "__main__":
    sys.exit(main())
