"""bcast writing an output bigger than the machine's memory, against the
disk's own sequential write speed, measured in the same run.

1. The disk: a file as large as the output (or --probe bytes) of float32
   data written in 64 MiB blocks and fsync'ed, in the output's directory,
   then removed: GB/s.
2. bcast: `bcast run add COL.npy ROW.npy -o OUT.npy` for a float32 outer
   sum of at least --factor (default 2) times the machine's memory
   (MemTotal), which bcast streams tile by tile (--memory 1G by default);
   GB/s of output, including the final fsync and rename, and bcast's peak
   resident memory (ru_maxrss).  The output is checked (three rows) and
   removed.
3. The disk again, as in 1.
The disk's speed is the better of the two probes: on a virtual disk the
first writes to fresh blocks can be several times slower than later ones,
so a single probe before the run can flatter bcast.  The run refuses to
start without room for the output.

Usage: /usr/bin/python3 bench/stream_bench.py BCAST [--dir DIR]
           [--factor 2] [--probe BYTES] [--tsv FILE]
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

MEASURE = r"""
import os, sys
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
print(usage.ru_maxrss, file=sys.stderr)
sys.exit(os.waitstatus_to_exitcode(status))
"""


def mem_total():
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) * 1024
    raise SystemExit("no MemTotal in /proc/meminfo")


def bytes_arg(text):
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
    return int(float(text[:-1]) * units[text[-1]]) if text[-1] in units \
        else int(text)


def disk_write(path, total):
    block = (np.arange(16 << 20, dtype=np.float32) * 1.37).tobytes()
    t0 = time.perf_counter()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        done = 0
        while done < total:
            done += os.write(fd, block[:min(len(block), total - done)])
        os.fsync(fd)
    finally:
        os.close(fd)
    dt = time.perf_counter() - t0
    os.unlink(path)
    return done / dt


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bcast")
    ap.add_argument("--dir", default=None,
                    help="where to write (default: a new directory in /var/tmp)")
    ap.add_argument("--factor", type=float, default=2.0)
    ap.add_argument("--probe", type=bytes_arg, default=None,
                    help="probe bytes (default: the output's size)")
    ap.add_argument("--tsv")
    args = ap.parse_args()
    ram = mem_total()
    cols = 65536
    rows = int(-(-args.factor * ram // (cols * 4)))
    out_bytes = rows * cols * 4
    work = tempfile.mkdtemp(prefix="bcast-stream-bench-", dir=args.dir or
                            "/var/tmp")
    try:
        free = shutil.disk_usage(work).free
        probe = args.probe or out_bytes
        need = max(out_bytes, probe) + (1 << 30)
        print(f"memory {ram / 2**30:.1f} GiB; output ({rows}, {cols}) float32 "
              f"= {out_bytes / 2**30:.1f} GiB ({out_bytes / ram:.2f}x memory) "
              f"in {work}; {free / 2**30:.1f} GiB free", flush=True)
        if free < need:
            print(f"not enough room: {need / 2**30:.1f} GiB needed")
            return 2
        disk1 = disk_write(os.path.join(work, "probe"), probe)
        print(f"disk, before: {probe / 2**30:.1f} GiB written and synced at "
              f"{disk1 / 1e9:.2f} GB/s", flush=True)
        col = np.arange(rows, dtype=np.float32).reshape(rows, 1)
        row = np.arange(cols, dtype=np.float32).reshape(1, cols)
        np.save(os.path.join(work, "col.npy"), col)
        np.save(os.path.join(work, "row.npy"), row)
        out = os.path.join(work, "out.npy")
        argv = [args.bcast, "run", "add", os.path.join(work, "col.npy"),
                os.path.join(work, "row.npy"), "-o", out, "--quiet",
                "--max-bytes", str(out_bytes + (1 << 20))]
        t0 = time.perf_counter()
        p = subprocess.run([sys.executable, "-S", "-c", MEASURE] + argv,
                           stderr=subprocess.PIPE, text=True)
        dt = time.perf_counter() - t0
        lines = p.stderr.strip().splitlines()
        if p.returncode != 0:
            print("bcast failed:\n" + p.stderr)
            return 1
        rss = int(lines[-1])
        # Spot checks of the result: first, last and a middle row.
        z = np.load(out, mmap_mode="r")
        for r in (0, rows // 2, rows - 1):
            if not np.array_equal(z[r], col[r, 0] + row[0]):
                print(f"wrong values in row {r}")
                return 1
        del z
        os.unlink(out)
        rate = out_bytes / dt
        disk2 = disk_write(os.path.join(work, "probe"), probe)
        print(f"disk, after: {probe / 2**30:.1f} GiB written and synced at "
              f"{disk2 / 1e9:.2f} GB/s", flush=True)
        disk = max(disk1, disk2)
        print(f"bcast run add: {out_bytes / 2**30:.1f} GiB in {dt:.1f} s = "
              f"{rate / 1e9:.2f} GB/s, {rate / disk * 100:.0f}% of the disk's "
              f"{disk / 1e9:.2f} GB/s; peak RSS {rss / 1024:.1f} MiB "
              f"({rss * 1024 / ram * 100:.2f}% of memory)")
        if args.tsv:
            with open(args.tsv, "w") as f:
                f.write("out_bytes\tram\tdisk_before_Bps\tdisk_after_Bps"
                        "\tbcast_Bps\tpeak_rss_kib\n")
                f.write(f"{out_bytes}\t{ram}\t{disk1:.0f}\t{disk2:.0f}"
                        f"\t{rate:.0f}\t{rss}\n")
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
