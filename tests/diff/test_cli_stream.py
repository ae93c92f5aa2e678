#!/usr/bin/python3
"""Outputs larger than --memory, written tile by tile (docs/cli.md: Outputs
larger than memory), with NumPy as the oracle:
  - run (tosa and numpy profiles, a scalar operand, mixed types),
    broadcast-to (big-endian data keeps its byte order), broadcast-in-dim
    (a transposing map) and broadcast (two outputs) with --memory 512K on
    outputs of 24 MB: values equal NumPy's and the files are byte for byte
    what numpy.save writes;
  - the peak resident memory (getrusage of the child, ru_maxrss) of a
    streamed run stays within a few MiB of a trivial command's, while the
    same run with the default --memory holds the whole output; also with a
    24 MB input that is mapped (BCAST_MAP_MIN_BYTES=1M) rather than read;
  - an output path equal to a mapped input;
  - --checked failing in a later tile: exit 1, the element's index in the
    whole output, the old file untouched;
  - an output of 2^63 - 257 elements streams to a pipe with the right
    header and data, and ends in a write error when the reader goes away;
    float64 bytes past 64 bits are refused (exit 1); a 0 dim beside huge
    ones gives an empty file with numpy.save's bytes;
  - without --max-bytes a 1.16 GB output streams (to /dev/null); a given
    --max-bytes refuses (exit 1, the bytes needed); an archive or standard
    output over --memory is refused (exit 2); a file system without room
    is refused before anything is written (a 1 MiB tmpfs, root only),
    also behind /dev/stdout redirected to a file there;
  - the progress line: on a terminal (a pty), absent with --quiet or when
    standard error is not a terminal.
The data come from a seeded generator (--seed, printed)."""
import io
import os
import subprocess
import sys
import tempfile

import numpy as np

import common

MEM = "512K"
MiB = 1 << 20


# Runs a command and prints its peak resident set (ru_maxrss, KiB) from a
# small interpreter: a child's ru_maxrss starts from its parent's resident
# set at fork (kept across exec), so measuring from this process, which
# holds NumPy and the test's arrays, would only measure this process.
MEASURE = r"""
import os, sys
pid = os.fork()
if pid == 0:
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    os.execv(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
print(usage.ru_maxrss)
sys.exit(os.waitstatus_to_exitcode(status))
"""


def peak_rss_kib(argv, env=None):
    """Runs argv; (exit status, stderr, its peak resident set in KiB)."""
    p = subprocess.run([sys.executable, "-S", "-c", MEASURE] + argv,
                       capture_output=True, env=env, timeout=120)
    return (p.returncode, p.stderr.decode("utf-8", "replace"),
            int(p.stdout.decode().strip() or 0))


INT64_MAX = 2**63 - 1


def near_max(check, bc, bcast, P):
    """Outputs of up to INT64_MAX elements stream exactly: 2^63 - 257 bytes
    to a pipe start with the right header and data, and a reader that goes
    away ends the run with a write error (the tiler's count once overflowed:
    the header alone, exit 0).  Bytes past 64 bits are refused; a 0 dim
    beside huge ones is an empty, correct file."""
    np.save(P("one.npy"), np.ones(1, np.uint8))
    np.save(P("one8.npy"), np.ones(1, np.float64))
    n = INT64_MAX - 256
    for title, argv in (
            ("broadcast-to", ["broadcast-to", P("one.npy"), "--shape", str(n)]),
            ("broadcast-in-dim", ["broadcast-in-dim", P("one.npy"), "--dims",
                                  "0", "--shape", str(n)])):
        p = subprocess.Popen([bcast] + argv + ["-o", "/dev/stdout", "--memory",
                                               "1M"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        head = np.lib.format.read_magic(p.stdout)
        header = np.lib.format._read_array_header(p.stdout, head)
        data = p.stdout.read(3 * MiB)
        p.stdout.close()
        err = p.stderr.read().decode("utf-8", "replace")
        p.stderr.close()
        code = p.wait(60)
        check(f"{title} to {n} elements: numpy's header",
              header == ((n,), False, np.dtype(np.uint8)), str(header))
        check(f"{title} to {n} elements: tiles of ones",
              len(data) == 3 * MiB and data == b"\x01" * (3 * MiB),
              f"{len(data)} bytes")
        check(f"{title} to {n} elements: the reader gone is a write error",
              code == 2 and "/dev/stdout: write failed: Broken pipe" in err,
              f"exit {code}, {err!r}")
    # The element count fits in 64 bits, the bytes do not.
    code, _, err = bc("broadcast-to", P("one8.npy"), "--shape", str(n),
                      "-o", P("o6.npy"))
    check("float64 elements past 64 bits of bytes: exit 1", code == 1 and
          "overflows 64 bits" in err and not os.path.exists(P("o6.npy")), err)
    # A 0 dim beside huge ones: size 0, an empty and correct file.
    for shape in ((0, INT64_MAX), (INT64_MAX, 0), (3, 0, INT64_MAX // 3)):
        want = np.empty(shape, np.uint8)
        text = "x".join(map(str, shape))
        for memory in ("0", "1G"):
            out = P("empty.npy")
            code, _, err = bc("broadcast-to", P("one.npy"), "--shape", text,
                              "-o", out, "--memory", memory)
            check(f"broadcast-to {text} (--memory {memory}): exit 0",
                  code == 0, err)
            if code == 0:
                with open(out, "rb") as f:
                    got = f.read()
                check(f"broadcast-to {text}: numpy.save's bytes",
                      got == npy_bytes(want))
    np.save(P("zero_wide.npy"), np.empty((0, INT64_MAX), np.uint8))
    code, _, err = bc("run", "add", P("zero_wide.npy"), P("one.npy"),
                      "--profile", "numpy", "-o", P("empty.npy"), "--memory",
                      "0")
    check("run add of a (0, INT64_MAX) operand: exit 0", code == 0, err)
    if code == 0:
        with open(P("empty.npy"), "rb") as f:
            check("run add of a (0, INT64_MAX) operand: numpy.save's bytes",
                  f.read() == npy_bytes(np.empty((0, INT64_MAX), np.uint8)))


def npy_bytes(a):
    f = io.BytesIO()
    np.save(f, a)
    return f.getvalue()


def main():
    ap = common.parser(__doc__.splitlines()[0], seed=20261125)
    args = common.parse_args(ap)
    print(f"seed {args.seed} (replay: --seed {args.seed})")
    rng = np.random.default_rng(args.seed)
    t = common.Tally(most_shown=30)
    bcast = args.bcast
    tmp = tempfile.mkdtemp(prefix="bcast-stream-")
    P = lambda name: os.path.join(tmp, name)  # noqa: E731

    def check(title, cond, details=""):
        if cond:
            t.ok()
        else:
            t.fail(title, details)

    def same_as_numpy(title, path, want):
        """The file equals want, in values and in numpy.save's bytes."""
        try:
            got = np.load(path)
        except Exception as e:  # noqa: BLE001 - reported
            t.fail(title + ": unreadable output", str(e))
            return
        check(title + ": values", got.dtype == want.dtype and
              got.shape == want.shape and np.array_equal(got, want),
              f"{got.dtype} {got.shape} vs {want.dtype} {want.shape}")
        np.save(P("want.npy"), want)
        with open(path, "rb") as f, open(P("want.npy"), "rb") as g:
            check(title + ": numpy.save's bytes", f.read() == g.read())

    col = rng.standard_normal((3000, 1)).astype(np.float32)
    row = rng.standard_normal((1, 2000)).astype(np.float32)
    i8 = rng.integers(-100, 100, (3000, 1)).astype(np.int8)
    big_row = rng.integers(-2**31, 2**31, (1, 2000)).astype(">i4")
    tall = rng.standard_normal((2000, 3)).astype(np.float32)
    full = rng.standard_normal((3000, 2000)).astype(np.float32)
    for name, a in [("col", col), ("row", row), ("i8", i8),
                    ("big_row", big_row), ("tall", tall), ("full", full)]:
        np.save(P(name + ".npy"), a)

    def bc(*argv, env=None):
        return common.run([bcast] + [str(a) for a in argv], timeout=120) \
            if env is None else _run_env([bcast] + list(argv), env)

    def _run_env(argv, env):
        p = subprocess.run(argv, capture_output=True, env=env, timeout=120)
        return p.returncode, p.stdout.decode(), p.stderr.decode()

    # --- values and bytes, every streaming command -------------------------
    cases = [
        ("run add (tosa)", ["run", "add", P("col.npy"), P("row.npy")],
         col + row),
        ("run add, scalar (numpy)", ["run", "add", P("col.npy"), "2.5",
                                     "--profile", "numpy"],
         np.broadcast_to(col + np.float32(2.5), (3000, 1)).copy()),
        ("run mul int8 x float32 (numpy)",
         ["run", "mul", P("i8.npy"), P("row.npy"), "--profile", "numpy"],
         i8.astype(np.float32) * row),
        ("broadcast-to, big-endian", ["broadcast-to", P("big_row.npy"),
                                      "--shape", "3000x2000"],
         np.broadcast_to(big_row, (3000, 2000)).copy()),
        ("broadcast-in-dim, a transposing map",
         ["broadcast-in-dim", P("tall.npy"), "--dims", "1,0", "--any-order",
          "--shape", "3x2000x1000"],
         np.broadcast_to(tall.T[:, :, None], (3, 2000, 1000)).copy()),
    ]
    for title, argv, want in cases:
        out = P("out.npy")
        code, _, err = bc(*argv, "-o", out, "--memory", MEM)
        check(title + ": exit 0", code == 0, err)
        if code == 0:
            same_as_numpy(title, out, want)
    code, _, err = bc("broadcast", P("col.npy"), P("row.npy"), "-o",
                      P("zdir"), "--memory", MEM)
    check("broadcast into a directory: exit 0", code == 0, err)
    w0, w1 = np.broadcast_arrays(col, row)
    if code == 0:
        same_as_numpy("broadcast z0", P("zdir/z0.npy"), w0.copy())
        same_as_numpy("broadcast z1", P("zdir/z1.npy"), w1.copy())

    # --- peak resident memory ----------------------------------------------
    _, _, base = peak_rss_kib([bcast, "info", P("row.npy")])
    # The sanitizer build (--scale below 1) keeps freed blocks in ASan's
    # quarantine and maps shadow memory for what it touches: its resident
    # set floats by several MiB, so its bound is looser.
    slack = 4096 if args.scale >= 1 else 12288
    out_kib = 3000 * 2000 * 4 // 1024
    code, err, streamed = peak_rss_kib(
        [bcast, "run", "add", P("col.npy"), P("row.npy"), "-o", P("o1.npy"),
         "--memory", MEM])
    code2, err2, whole = peak_rss_kib(
        [bcast, "run", "add", P("col.npy"), P("row.npy"), "-o", P("o2.npy")])
    print(f"peak RSS: bcast info {base} KiB; run add streamed (--memory "
          f"{MEM}) {streamed} KiB; whole (default --memory) {whole} KiB; "
          f"output {out_kib} KiB")
    check("streamed run: exit 0", code == 0, err)
    check("whole run: exit 0", code2 == 0, err2)
    check(f"streamed peak RSS within {slack // 1024} MiB of bcast info's",
          streamed < base + slack, f"{streamed} KiB vs {base} KiB")
    check("the default run holds the output (the measure can fail)",
          whole > base + out_kib * 3 // 4, f"{whole} KiB")
    env = dict(os.environ, BCAST_MAP_MIN_BYTES="1M")
    code, err, mapped = peak_rss_kib(
        [bcast, "run", "add", P("full.npy"), P("row.npy"), "-o", P("o3.npy"),
         "--memory", MEM], env=env)
    print(f"peak RSS, a mapped 24 MB input, streamed: {mapped} KiB")
    check("mapped input, streamed: exit 0", code == 0, err)
    check(f"mapped input, streamed: peak RSS within {slack // 1024} MiB of "
          "bcast info's", mapped < base + slack, f"{mapped} KiB vs {base} KiB")
    if code == 0:
        same_as_numpy("mapped input, streamed", P("o3.npy"), full + row)
    # The output replaces the mapped input it is computed from.
    np.save(P("inplace.npy"), full)
    code, _, err = bc("run", "add", P("inplace.npy"), P("row.npy"), "-o",
                      P("inplace.npy"), "--memory", MEM, env=env)
    check("output == mapped input: exit 0", code == 0, err)
    if code == 0:
        same_as_numpy("output == mapped input", P("inplace.npy"), full + row)

    # --- failures publish nothing ------------------------------------------
    a = np.zeros((3000, 1), np.int32)
    b = np.zeros((1, 2000), np.int32)
    a[2500, 0] = 2**30
    b[0, 1500] = 2**30
    np.save(P("a.npy"), a)
    np.save(P("b.npy"), b)
    with open(P("old.npy"), "wb") as f:
        f.write(b"old contents")
    code, _, err = bc("run", "add", P("a.npy"), P("b.npy"), "-o", P("old.npy"),
                      "--memory", MEM, "--checked")
    check("checked overflow in a later tile: exit 1", code == 1, err)
    check("checked overflow: the whole output's index",
          "index [2500,1500]" in err, err)
    with open(P("old.npy"), "rb") as f:
        check("checked overflow: the old file untouched",
              f.read() == b"old contents")
    check("no temporary file left",
          not [n for n in os.listdir(tmp) if n.startswith(".bcast-tmp")])
    # Without --max-bytes a streamed output has no cap but the disk: 1.16 GB
    # (over the 1 GiB default of --max-bytes and --memory) to /dev/null.
    np.save(P("c17.npy"), np.ones((17000, 1), np.float32))
    np.save(P("r17.npy"), np.ones((1, 17000), np.float32))
    code, _, err = bc("run", "add", P("c17.npy"), P("r17.npy"), "-o",
                      "/dev/null", "--quiet")
    check("1.16 GB without --max-bytes streams: exit 0", code == 0, err)
    code, _, err = bc("run", "add", P("col.npy"), P("row.npy"), "-o",
                      P("o4.npy"), "--memory", MEM, "--max-bytes", "10M")
    check("--max-bytes: exit 1 naming the bytes",
          code == 1 and "needs 24000000 bytes" in err, err)
    code, _, err = bc("broadcast-to", P("row.npy"), "--shape",
                      "4611686018427387904x2000", "-o", P("o5.npy"))
    check("an output size over 64 bits: exit 1", code == 1 and
          "overflows 64 bits" in err and not os.path.exists(P("o5.npy")), err)
    # A --memory too small for a tile of one element: the option named is
    # --memory (the tile budget is half of it), not --max-bytes.
    code, _, err = bc("broadcast-to", P("row.npy"), "--shape", "3000x2000",
                      "-o", P("o6.npy"), "--memory", "1")
    check("--memory 1: exit 1 naming --memory", code == 1 and
          "raise --memory" in err and "--max-bytes" not in err and
          not os.path.exists(P("o6.npy")), err)
    for target, what in ((P("o.npz"), "an archive"), ("-", "standard output")):
        code, _, err = bc("broadcast-to", P("row.npy"), "--shape", "3000x2000",
                          "-o", target, "--memory", MEM)
        check(f"over --memory to {what}: exit 2", code == 2 and what in err,
              err)
    if os.geteuid() == 0:
        mnt = P("small")
        os.mkdir(mnt)
        if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs",
                           mnt]).returncode == 0:
            try:
                code, _, err = bc("run", "add", P("col.npy"), P("row.npy"),
                                  "-o", os.path.join(mnt, "o.npy"),
                                  "--memory", MEM)
                check("no room: exit 2 before writing",
                      code == 2 and "free; nothing was written" in err, err)
                check("no room: nothing in the file system",
                      os.listdir(mnt) == [], str(os.listdir(mnt)))
                # /dev/stdout redirected to a file there: that file's file
                # system counts, not /dev's.
                redirected = os.path.join(mnt, "redirected.npy")
                with open(redirected, "wb") as f:
                    p = subprocess.run(
                        [bcast, "run", "add", P("col.npy"), P("row.npy"),
                         "-o", "/dev/stdout", "--memory", MEM],
                        stdout=f, stderr=subprocess.PIPE, timeout=120)
                err = p.stderr.decode("utf-8", "replace")
                check("no room behind /dev/stdout: exit 2 before writing",
                      p.returncode == 2 and "free; nothing was written" in err
                      and os.path.getsize(redirected) == 0,
                      f"exit {p.returncode}, "
                      f"{os.path.getsize(redirected)} bytes, {err}")
            finally:
                subprocess.run(["umount", mnt])
        else:
            print("SKIP: no room: tmpfs could not be mounted (not counted)")
    else:
        print("SKIP: no room: mounting a small tmpfs needs root (not counted)")

    # --- sizes near INT64_MAX ------------------------------------------------
    near_max(check, bc, bcast, P)

    # --- progress: on a terminal only ---------------------------------------
    big = ["run", "add", P("col.npy"), P("row.npy"), "-o", "/dev/null",
           "--memory", MEM]
    # 3000 x 2000 is under the progress line's 256 MiB: a wider row.
    np.save(P("wide.npy"), np.ones((1, 24000), np.float32))
    big[3] = P("wide.npy")
    for quiet in (False, True):
        code, seen = common.run_pty([bcast] + big +
                                    (["--quiet"] if quiet else []))
        text = seen.decode("utf-8", "replace")
        if quiet:
            check("--quiet: no progress line", code == 0 and not text, text)
        else:
            check("a terminal gets the progress line",
                  code == 0 and "MiB" in text and "GB/s" in text and
                  "ETA" in text, text)
    code, _, err = bc(*big)
    check("not a terminal: no progress line", code == 0 and err == "", err)

    subprocess.run(["rm", "-rf", tmp])
    print(f"{t.passed} passed, {t.failed} failed")
    return 1 if t.failed else 0


if __name__ == "__main__":
    sys.exit(main())
