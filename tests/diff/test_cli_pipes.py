#!/usr/bin/python3
"""Pipes on bcast's standard input and output (README: Exit status):
  - a reader that goes away early: '-o -' (the .npy bytes), '-o
    /dev/stdout' and a named FIFO (through the output writer), lower's
    module and verify's JSON report (stdio): exit 2 with '<output>: write
    failed: Broken pipe' on standard error, never death by SIGPIPE, and no
    file left behind in the working directory;
  - standard input a non-blocking pipe fed slowly (a .npy for info,
    broadcast-to and run; MLIR text for verify and lower): the results of
    the same input from a file, and the pipe still non-blocking after;
  - standard output a non-blocking pipe read only after a pause (-o -,
    -o /dev/stdout, lower's module, verify's JSON report): every byte arrives, with the
    exit status of a blocking pipe.
NumPy is the oracle for the .npy bytes; the slow feeding takes its chunk
sizes from a seeded generator (--seed, printed)."""
import io
import os
import random
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

import common

BROKEN = "write failed: Broken pipe"


def npy_bytes(arr):
    f = io.BytesIO()
    np.save(f, arr)
    return f.getvalue()


def module(n, result="2x3"):
    """An MLIR function of n tosa.add ops; their result type result."""
    lines = ["func.func @f(%a: tensor<2x1xf32>, %b: tensor<1x3xf32>) -> "
             "tensor<2x3xf32> {"]
    for i in range(n):
        lines.append("  %%%d = tosa.add %%a, %%b : (tensor<2x1xf32>, "
                     "tensor<1x3xf32>) -> tensor<%sxf32>" % (i, result))
    lines += ["  return %0 : tensor<2x3xf32>", "}"]
    return "\n".join(lines) + "\n"


def closed_early(argv, cwd, fifo=None):
    """Runs argv with standard output a pipe (or, with fifo, writing to
    that FIFO) that this side closes after its first bytes; (exit status,
    stderr, the bytes read)."""
    p = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    if fifo:
        # Opened without waiting for the writer, then waited for with a
        # timeout: a bcast that fails before opening it cannot hang this.
        fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
        ready = select.select([fd], [], [], 60)[0]
        got = os.read(fd, 4096) if ready else b""
        os.close(fd)
    else:
        got = p.stdout.read(4096)
    p.stdout.close()
    err = p.stderr.read().decode("utf-8", "replace")
    p.stderr.close()
    return p.wait(60), err, got


def fed_slowly(argv, data, rng, cwd):
    """Runs argv with standard input a non-blocking pipe written in small
    chunks with pauses; (exit status, stdout, stderr, whether the pipe was
    still non-blocking after)."""
    r, w = os.pipe()
    os.set_blocking(r, False)
    p = subprocess.Popen(argv, cwd=cwd, stdin=r, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    at = 0
    while at < len(data):
        n = rng.randint(1, max(1, len(data) // 8))
        os.write(w, data[at:at + n])
        at += n
        time.sleep(rng.uniform(0.005, 0.03))
    os.close(w)
    out, err = p.communicate(timeout=60)
    still = not os.get_blocking(r)
    os.close(r)
    return p.returncode, out, err.decode("utf-8", "replace"), still


def read_late(argv, cwd):
    """Runs argv with standard output a non-blocking pipe that this side
    reads only after a pause (the pipe fills first); (exit status, the
    bytes, stderr)."""
    r, w = os.pipe()
    os.set_blocking(w, False)
    p = subprocess.Popen(argv, cwd=cwd, stdout=w, stderr=subprocess.PIPE)
    os.close(w)
    time.sleep(0.5)
    chunks = []
    while True:
        b = os.read(r, 1 << 16)
        if not b:
            break
        chunks.append(b)
    os.close(r)
    err = p.stderr.read().decode("utf-8", "replace")
    p.stderr.close()
    return p.wait(60), b"".join(chunks), err


def main():
    ap = common.parser(__doc__.splitlines()[0], seed=20261201)
    args = common.parse_args(ap)
    print(f"seed {args.seed} (replay: --seed {args.seed})")
    rng = random.Random(args.seed)
    t = common.Tally(most_shown=30)
    bcast = args.bcast
    tmp = tempfile.mkdtemp(prefix="bcast-pipes-")
    P = lambda name: os.path.join(tmp, name)  # noqa: E731
    try:
        row = np.arange(1 << 16, dtype=np.float32).reshape(1, -1)
        np.save(P("row.npy"), row)
        np.save(P("col.npy"), np.arange(3, dtype=np.float32).reshape(3, 1))
        with open(P("m.mlir"), "w") as f:
            f.write(module(3000))
        with open(P("bad.mlir"), "w") as f:
            f.write(module(3000, result="2x4"))

        # --- the reader goes away -----------------------------------------
        fifo = P("fifo")
        os.mkfifo(fifo)
        big = ["broadcast-to", P("row.npy"), "--shape", "64,65536"]
        cases = [
            ("-o -", big + ["-o", "-"], "<stdout>: ", None),
            ("-o /dev/stdout", big + ["-o", "/dev/stdout"], "/dev/stdout: ",
             None),
            ("-o FIFO", big + ["-o", fifo], fifo + ": ", fifo),
            ("-o /dev/stdout, streamed", big + ["-o", "/dev/stdout",
                                                "--memory", "1M"],
             "/dev/stdout: ", None),
            ("lower", ["lower", P("m.mlir")], "<stdout>: ", None),
            ("verify --format json", ["verify", "--format", "json",
                                      P("bad.mlir")], "<stdout>: ", None),
        ]
        for title, argv, named, through in cases:
            cwd = tempfile.mkdtemp(dir=tmp)
            before = sorted(os.listdir(tmp))
            code, err, got = closed_early([bcast] + argv, cwd, through)
            t.check(code == 2 and named + BROKEN in err and got,
                    f"{title}, reader gone: exit 2 and '{named}{BROKEN}'",
                    f"exit {code}, stderr {err[-300:]!r}")
            t.check(os.listdir(cwd) == [] and
                    sorted(os.listdir(tmp)) == before,
                    f"{title}, reader gone: no file left",
                    f"{os.listdir(cwd)} {sorted(os.listdir(tmp))}")
            shutil.rmtree(cwd)

        # --- standard input non-blocking, fed slowly ----------------------
        small = np.arange(3000, dtype=np.float32).reshape(1, 3000)
        data = npy_bytes(small)
        want = npy_bytes(np.broadcast_to(small, (2, 3000)).copy())
        code, out, err, still = fed_slowly(
            [bcast, "broadcast-to", "-", "--shape", "2,3000", "-o", "-"],
            data, rng, tmp)
        t.check(code == 0 and out == want,
                "broadcast-to - -o -, stdin non-blocking: numpy's bytes",
                f"exit {code}, {len(out)} bytes, stderr {err[-300:]!r}")
        t.check(still, "stdin non-blocking: the pipe's flag is left as it was")
        code, out, err, _ = fed_slowly(
            [bcast, "run", "add", "-", P("col.npy"), "-o", "-"], data, rng,
            tmp)
        t.check(code == 0 and out == npy_bytes(
                    small + np.arange(3, dtype=np.float32).reshape(3, 1)),
                "run add - col.npy, stdin non-blocking: numpy's bytes",
                f"exit {code}, stderr {err[-300:]!r}")
        code, out, err, _ = fed_slowly([bcast, "info", "-"], data, rng, tmp)
        t.check(code == 0 and b"shape (1, 3000)" in out,
                "info -, stdin non-blocking", f"exit {code}, {err[-300:]!r}")
        text = module(200).encode()
        code, out, err, _ = fed_slowly([bcast, "lower", "-"], text, rng, tmp)
        _, want_lower, _ = common.run([bcast, "lower", "-"], stdin=text)
        t.check(code == 0 and out.decode() == want_lower,
                "lower -, stdin non-blocking: the module of a blocking pipe",
                f"exit {code}, stderr {err[-300:]!r}")
        code, out, err, _ = fed_slowly([bcast, "verify", "--summary", "-"],
                                       module(200, "2x4").encode(), rng, tmp)
        t.check(code == 1 and re.search(r"200 ops checked, 200 failed",
                                        out.decode()),
                "verify -, stdin non-blocking: every op checked",
                f"exit {code}, stdout {out[-200:]!r}, stderr {err[-200:]!r}")

        # --- standard output non-blocking, read late ----------------------
        want_big = npy_bytes(np.broadcast_to(row, (64, 65536)).copy())
        # (/dev/stdout is opened anew by the output writer: blocking.)
        for target in ("-", "/dev/stdout"):
            code, got, err = read_late([bcast] + big + ["-o", target], tmp)
            t.check(code == 0 and got == want_big,
                    f"-o {target}, stdout non-blocking: every byte",
                    f"exit {code}, {len(got)} bytes, stderr {err[-300:]!r}")
        code_f, out_f, err_f = common.run([bcast, "lower", P("m.mlir")])
        code, got, err = read_late([bcast, "lower", P("m.mlir")], tmp)
        t.check(code == 0 and code_f == 0 and got.decode() == out_f,
                "lower, stdout non-blocking: the whole module",
                f"exit {code}, {len(got)} of {len(out_f)} bytes, "
                f"stderr {err[-300:]!r} {err_f[-100:]!r}")
        code, got, err = read_late(
            [bcast, "verify", "--format", "json", P("bad.mlir")], tmp)
        _, want_json, _ = common.run([bcast, "verify", "--format", "json",
                                      P("bad.mlir")])
        t.check(code == 1 and got.decode() == want_json,
                "verify --format json, stdout non-blocking: the whole report",
                f"exit {code}, {len(got)} of {len(want_json)} bytes, "
                f"stderr {err[-300:]!r}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{t.passed} passed, {t.failed} failed")
    return 1 if t.failed else 0


if __name__ == "__main__":
    sys.exit(main())
