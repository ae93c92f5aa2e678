"""bcast.dask against dask.array's own broadcasting, on one LocalCluster.

Each workflow is a bcast.dask expression beside the dask.array expression
computing the same: `bcast.dask.add(x, y)` against `x + y` for row,
column, outer and 4-D broadcasting in float32 and float16, and chains of
ops (`add(multiply(x, y), 2)` with x int16 and y float32, a three-op
float32 chain), which Dask's optimizer fuses into one task per output
chunk for both.  For each workflow and round, fresh inputs are persisted
on the cluster (chunked as stated, placed by the scheduler), then the
result is persisted and waited for (it stays on the workers, as it would
feeding a next step); the two alternate which goes first.  Reported: the
best seconds of --reps rounds; "tasks", the tasks of each graph after
Dask's optimization (inputs included); "fed", the bytes of input blocks
each graph hands its tasks, summed over the tasks (a property of the
graph: what the tasks need wherever they run); and "moved", the mean bytes
the workers sent each other during the op (the sum of every worker's
transfer_outgoing_bytes_total), which is what crosses between machines on
a real cluster and depends on where the scheduler put blocks and tasks.

Usage: PYTHONPATH=BUILD/python /usr/bin/python3 bench/dask_bench.py
           [--workers 2] [--reps 3] [--scale 1.0] [--tsv FILE] [--only TEXT]
"""
import argparse
import logging
import resource
import time

import numpy as np
import dask
import dask.array as da
from distributed import Client, LocalCluster, wait

import bcast.dask as bd

# name, x shape, x chunks, y shape, y chunks (output chunks follow x's
# spanning dims first, y's after, for both implementations).
CASES = {
    "row": ((8192, 4096), (1024, 4096), (1, 4096), (1, 4096)),
    "col": ((8192, 4096), (1024, 4096), (8192, 1), (1024, 1)),
    "outer": ((8192, 1), (1024, 1), (1, 8192), (1, 2048)),
    "mixed4d": ((64, 1, 256, 64), (16, 1, 256, 64), (1, 32, 256, 1),
                (1, 8, 256, 1)),
}

# label, case, x dtype, y dtype, the bcast.dask expression, dask.array's.
WORKFLOWS = [
    (case, case, dt, dt, bd.add, lambda x, y: x + y)
    for dt in (np.float32, np.float16) for case in CASES
] + [
    ("x*y+2 i16,f32", "row", np.int16, np.float32,
     lambda x, y: bd.add(bd.multiply(x, y), 2), lambda x, y: x * y + 2),
    ("max(x*y+2,0)", "col", np.float32, np.float32,
     lambda x, y: bd.maximum(bd.add(bd.multiply(x, y), 2), 0),
     lambda x, y: da.maximum(x * y + 2, 0)),
]


def worker_counters(client):
    """Bytes sent to other workers and CPU seconds (user + system), summed
    over the workers."""
    def read(dask_worker):
        r = resource.getrusage(resource.RUSAGE_SELF)
        return dask_worker.transfer_outgoing_bytes_total, \
            r.ru_utime + r.ru_stime
    got = client.run(read).values()
    return sum(b for b, _ in got), sum(c for _, c in got)


def timed(client, make):
    """Seconds, bytes sent between workers and the workers' CPU seconds
    for one persisted op."""
    sent0, cpu0 = worker_counters(client)
    t0 = time.perf_counter()
    z = make().persist()
    wait(z)
    dt = time.perf_counter() - t0
    sent1, cpu1 = worker_counters(client)
    del z
    return dt, sent1 - sent0, cpu1 - cpu0


def tasks(z):
    """Tasks of z's graph after Dask's optimization, as compute runs it."""
    return len(dask.optimize(z)[0].__dask_graph__())


def fed_bytes(z, inputs):
    """Bytes of input blocks the graph hands to z's own tasks, summed over
    them: what the tasks read, whatever the placement (an input layer's
    block counted once per task that takes it)."""
    from dask.core import get_dependencies
    dsk = dict(z.__dask_graph__())
    sizes = {}
    for a in inputs:
        itemsize = a.dtype.itemsize
        for key, shape in zip(
                (k for k in dict(a.__dask_graph__()) if k[0] == a.name),
                (tuple(a.chunks[d][i] for d, i in enumerate(k[1:]))
                 for k in dict(a.__dask_graph__()) if k[0] == a.name)):
            sizes[key] = int(np.prod(shape)) * itemsize
    total = 0
    for key in dsk:
        if isinstance(key, tuple) and key[0] == z.name:
            stack, seen = list(get_dependencies(dsk, key)), set()
            while stack:  # through any intermediate layers (rechunks)
                k = stack.pop()
                if k in seen:
                    continue
                seen.add(k)
                if k in sizes:
                    total += sizes[k]
                else:
                    stack.extend(get_dependencies(dsk, k))
    return total


def scaled(shape, chunks, scale):
    return (tuple(max(1, int(n * scale)) if n > 1 else 1 for n in shape),
            tuple(max(1, int(c * scale)) if c > 1 else 1 for c in chunks))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--scale", type=float, default=1.0,
                    help="multiply every size > 1 (0.25 for a quick run)")
    ap.add_argument("--tsv")
    ap.add_argument("--only", help="the workflows whose label has this text")
    args = ap.parse_args()
    cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1,
                           processes=True, dashboard_address=None,
                           silence_logs=logging.ERROR)
    client = Client(cluster)
    rows = []
    print(f"bcast.dask vs dask.array, LocalCluster of {args.workers} worker "
          f"processes x 1 thread, best of {args.reps}")
    print(f"{'workflow':<16}{'dtype':<9}{'out MiB':>8}{'bcast s':>9}"
          f"{'dask s':>9}{'speed-up':>9}{'cpu b':>7}{'cpu d':>7}"
          f"{'cpu':>7}{'tasks':>10}{'bcast fed':>11}"
          f"{'dask fed':>10}{'bcast moved':>13}{'dask moved':>12}")
    for label, case, xdt, ydt, bfn, dfn in WORKFLOWS:
        if args.only and args.only not in label:
            continue
        xs, xc, ys, yc = CASES[case]
        xs, xc = scaled(xs, xc, args.scale)
        ys, yc = scaled(ys, yc, args.scale)
        rng = np.random.default_rng(0)
        xn = (rng.standard_normal(xs) * 100).astype(xdt)
        yn = rng.standard_normal(ys).astype(ydt)

        def fresh():
            """New input blocks (new keys), placed by the scheduler anew,
            so that no run finds copies an earlier one moved."""
            x = da.from_array(xn, chunks=xc, name=False).persist()
            y = da.from_array(yn, chunks=yc, name=False).persist()
            wait([x, y])
            return x, y

        # Same answer first (the bench must not time a wrong result).
        x, y = fresh()
        zb, zd = bfn(x, y), dfn(x, y)
        assert zb.dtype == zd.dtype, (label, zb.dtype, zd.dtype)
        np.testing.assert_array_equal(zb.compute(), zd.compute())
        out_bytes = np.prod(zb.shape) * zb.dtype.itemsize
        fb, fd = fed_bytes(zb, [x, y]), fed_bytes(zd, [x, y])
        tb_n, td_n = tasks(zb), tasks(zd)
        del x, y, zb, zd
        best = {"bcast": float("inf"), "dask": float("inf")}
        cpu = dict(best)
        moved = {"bcast": 0, "dask": 0}
        impls = [("bcast", bfn), ("dask", dfn)]
        for rep in range(args.reps):
            for who, fn in impls[rep % 2:] + impls[:rep % 2]:
                x, y = fresh()
                dt, m, c = timed(client, lambda: fn(x, y))
                best[who] = min(best[who], dt)
                cpu[who] = min(cpu[who], c)
                moved[who] += m / args.reps
                del x, y
        (tb, mb), (td, md) = (best["bcast"], moved["bcast"]), \
            (best["dask"], moved["dask"])
        cb, cd = cpu["bcast"], cpu["dask"]
        dtype = np.dtype(xdt).name if xdt == ydt else "mixed"
        print(f"{label:<16}{dtype:<9}"
              f"{out_bytes / 2**20:>8.0f}{tb:>9.3f}{td:>9.3f}"
              f"{td / tb:>8.2f}x{cb:>7.3f}{cd:>7.3f}{cd / cb:>6.2f}x"
              f"{tb_n:>5}/{td_n:<4}"
              f"{fb / 2**20:>7.1f} MiB{fd / 2**20:>6.1f} MiB"
              f"{mb / 2**10:>9.0f} KiB"
              f"{md / 2**10:>8.0f} KiB", flush=True)
        rows.append((label, dtype, out_bytes, tb, td, cb, cd, tb_n, td_n,
                     fb, fd, mb, md))
    if args.tsv:
        with open(args.tsv, "w") as f:
            f.write("workflow\tdtype\tout_bytes\tbcast_s\tdask_s"
                    "\tbcast_cpu_s\tdask_cpu_s"
                    "\tbcast_tasks\tdask_tasks\tbcast_fed\tdask_fed"
                    "\tbcast_moved\tdask_moved\n")
            for r in rows:
                f.write("\t".join(str(v) for v in r) + "\n")
    client.close()
    cluster.close()


if __name__ == "__main__":
    main()
