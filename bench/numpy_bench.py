#!/usr/bin/env python3
"""NumPy's side of bcast_bench: times np.broadcast_to(x, shape).copy().

Usage: numpy_bench.py REPS CASE...   where CASE is DTYPE:SRC:OUT, shapes as
comma-separated sizes ("float32:4096,1:4096,4096").  For each case prints
one line "numpy INDEX BEST_SECONDS OUTPUT_BYTES", the best of REPS runs,
including the allocation of the copy (as bcast_materialize includes it).

Element-wise cases (bench_ew.c) are ew:OP:DTYPE:SHAPE_A:SHAPE_B:BATCH[:SHAPE_C]
with OP a NumPy function (add, multiply, maximum, where; where's condition
has SHAPE_C, else SHAPE_A) or broadcast_to (SHAPE_A broadcast to SHAPE_B).
Each prints "numpy-ew INDEX NEW_SECONDS INTO_SECONDS": the best of REPS
batches of BATCH calls, per call, for np.OP(a, b) (a new output) and
np.OP(a, b, out=o).  np.where has no out=; its "into" writes the same
result with np.copyto(o, b) then np.copyto(o, a, where=c).  broadcast_to's
new output is np.broadcast_to(a, shape).copy(), its "into"
np.copyto(o, np.broadcast_to(a, shape)).
Index numbering restarts at 0 for the ew cases.  With --serve REPS the ew
cases come one per line on standard input instead ("INDEX SPEC"), each
answered and followed by a line "done": bcast_bench interleaves them with
its own runs.

With BCAST_BENCH_PYDIR set (bcast_bench sets it to the build's python/
directory), the ew cases also time the Python module on the same arrays,
in the same process, 1 thread: "bcast-py INDEX NEW INTO PLAN", per call,
for bcast.OP(a, b) (a new output), bcast.OP(a, b, out=o) and a prepared
plan p(a, b, out=o).  OP is NumPy's name (bcast has them as aliases);
where is bcast.where(c, a, b), which has out=.
"""
import os
import sys
import time

import numpy as np

bcast = None
if os.environ.get("BCAST_BENCH_PYDIR"):
    sys.path.insert(0, os.environ["BCAST_BENCH_PYDIR"])
    try:
        import bcast
    except ImportError as e:
        print("bcast-py-missing %s" % e, flush=True)


def parse_shape(text):
    return tuple(int(d) for d in text.split(",")) if text else ()


def ew_input(shape, dtype):
    count = int(np.prod(shape, dtype=np.int64))
    return (np.arange(count) % 251).astype(dtype).reshape(shape)


def ew_case(index, spec, reps):
    _, op, dtype, sa, sb, batch, *sc = spec.split(":")
    a = ew_input(parse_shape(sa), dtype)
    batch = int(batch)
    if op == "broadcast_to":
        shape = parse_shape(sb)
        fresh = lambda: np.broadcast_to(a, shape).copy()
        o = fresh()
        best = [best_of(call, reps, batch) for call in
                (fresh, lambda: np.copyto(o, np.broadcast_to(a, shape)))]
        print("numpy-ew %d %.9f %.9f" % (index, best[0], best[1]), flush=True)
        return
    b = ew_input(parse_shape(sb), dtype)
    if op == "where":
        c_shape = parse_shape(sc[0]) if sc and sc[0] else a.shape
        c = (np.arange(int(np.prod(c_shape, dtype=np.int64))) % 3 == 0
             ).reshape(c_shape)
        fresh = lambda: np.where(c, a, b)
        o = np.where(c, a, b)

        def into():
            np.copyto(o, b)
            np.copyto(o, a, where=c)
    else:
        fn = getattr(np, op)
        fresh = lambda: fn(a, b)
        o = fn(a, b)
        into = lambda: fn(a, b, out=o)
    best = [best_of(call, reps, batch) for call in (fresh, into)]
    print("numpy-ew %d %.9f %.9f" % (index, best[0], best[1]), flush=True)
    if bcast is None:
        return
    fn = getattr(bcast, op)
    ins = (c, a, b) if op == "where" else (a, b)
    p = bcast.plan(op, *ins, out=o, threads=1)
    calls = (lambda: fn(*ins, threads=1), lambda: fn(*ins, out=o, threads=1),
             lambda: p(*ins, out=o))
    best = [best_of(call, reps, batch) for call in calls]
    print("bcast-py %d %.9f %.9f %.9f" % (index, *best), flush=True)


def best_of(call, reps, batch):
    """The best of reps batches of batch calls, seconds per call."""
    t_best = float("inf")
    for _ in range(reps):
        start = time.perf_counter()
        for _ in range(batch):
            call()
        t_best = min(t_best, (time.perf_counter() - start) / batch)
    return t_best


def serve(reps):
    """--serve: ew cases one per line on standard input, "INDEX SPEC";
    after each case's lines, "done"."""
    for line in sys.stdin:
        index, spec = line.split()
        ew_case(int(index), spec, reps)
        print("done", flush=True)
    return 0


def main(argv):
    if argv[1] == "--serve":
        print("numpy-version %s" % np.__version__, flush=True)
        return serve(int(argv[2]))
    reps = int(argv[1])
    print("numpy-version %s" % np.__version__, flush=True)
    ew_specs = [s for s in argv[2:] if s.startswith("ew:")]
    for index, spec in enumerate(ew_specs):
        ew_case(index, spec, reps)
    for index, spec in enumerate(s for s in argv[2:] if not s.startswith("ew:")):
        dtype, src, out = spec.split(":")
        src_shape, out_shape = parse_shape(src), parse_shape(out)
        count = int(np.prod(src_shape, dtype=np.int64))
        x = (np.arange(count) % 251).astype(dtype).reshape(src_shape)
        best = float("inf")
        nbytes = 0
        for _ in range(reps):
            start = time.perf_counter()
            y = np.broadcast_to(x, out_shape).copy()
            best = min(best, time.perf_counter() - start)
            nbytes = y.nbytes
            del y
        print("numpy %d %.9f %d" % (index, best, nbytes), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
