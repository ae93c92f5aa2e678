#!/usr/bin/python3
"""make soak: random bcast CLI and library calls for a given time under
AddressSanitizer + UndefinedBehaviorSanitizer, with a bounded memory.

Each action is one random bcast command run in its own folder: every
command of the CLI with valid inputs (random .npy/.npz files of random
dtypes, shapes, byte orders and memory orders written with NumPy; MLIR
from tests/data, examples/ and fuzz/corpus, and generated; random shapes),
with invalid ones (truncated or bit-flipped files, headers with huge or
negative dims, garbage flags and values), under an allocation failure (the
LD_PRELOAD shim bcast_failalloc fails the Nth allocation of bcast's own
code), killed (SIGTERM, SIGINT, SIGHUP or SIGKILL at a random moment of a
large output written tile by tile), or a child interpreter that imports the
ASan build's Python module and makes random library calls for a while.

Every action is checked:
  - no sanitizer report on stderr (ASan, LSan, UBSan);
  - the exit status is 0, 1 or 2 (README: Exit status), or death by the
    signal that was sent; a failing run says why on stderr;
  - for valid inputs the result equals NumPy's (values, and numpy.save's
    exact bytes for the broadcasts), JSON output parses;
  - input files are never modified (SHA-256 before and after); after a
    failure or a kill, the outputs are as they were and no file or folder
    was created: no temporary file (.bcast-tmp-*) is left.  A SIGKILL can
    leave a named temporary file or a created folder (README: kill -9);
    those are counted as the known limit, not as failures;
  - the peak resident memory of each child (ru_maxrss from wait4, taken in
    a small launcher so the figure is the child's and not this process's)
    stays under --rss-limit-mib; bcast runs with --max-bytes;
  - no run hangs (--timeout), and this process's own RSS stays flat.

Every failure is saved under OUT/fail-SEED-N/: the action's folder, its
stdout and stderr, and repro.sh, which runs the command again there.
Each action draws from its own generator seeded by (seed, N), so
`--seed S --action N` replays action N alone.

Usage:
  /usr/bin/python3 scripts/soak.py --build build-asan [--seconds 600]
      [--seed N] [--action N] [--rss-limit-mib 2048] [--out DIR]
"""

import argparse
import collections
import ctypes
import hashlib
import io
import json
import math
import os
import random
import re
import select
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import zipfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OLD = b"the old contents of an output file\n"
TEMP_PREFIX = ".bcast-tmp-"
MiB = 1 << 20

# Sanitizer reports: ASan/LSan ("==PID==ERROR: AddressSanitizer: ..."),
# UBSan ("file:line:col: runtime error: ...") and their summaries.
SANITIZER = re.compile(r"==\d+==ERROR: |runtime error: |Sanitizer:|"
                       r"SUMMARY: (Address|Leak|UndefinedBehavior)Sanitizer")
# Exit statuses the sanitizers use here, apart from bcast's 0, 1, 2.
ASAN_EXIT, UBSAN_EXIT = 86, 87

# Runs argv[3:] with LD_PRELOAD argv[2] (empty: none) and writes to file
# descriptor argv[1] the child's pid, then its wait status and peak RSS in
# KiB.  A child's ru_maxrss starts at its parent's resident set (exec keeps
# it), so the parent is this small interpreter, not the soak process.
LAUNCHER = r"""
import os, sys
fd, preload, argv = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
env = dict(os.environ)
if preload:
    env["LD_PRELOAD"] = preload
pid = os.fork()
if pid == 0:
    try:
        os.close(fd)
        os.execve(argv[0], argv, env)
    finally:
        os._exit(127)
os.write(fd, b"%d\n" % pid)
_, status, usage = os.wait4(pid, 0)
os.write(fd, b"%d %d\n" % (status, usage.ru_maxrss))
"""

# ---------------------------------------------------------------------------
# Random data.

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
          "uint32", "uint64", "float16", "float32", "float64"]
SIGNALS = [(signal.SIGTERM, 4), (signal.SIGKILL, 3), (signal.SIGINT, 2),
           (signal.SIGHUP, 1)]


def weighted(rng, pairs):
    total = sum(w for _, w in pairs)
    x = rng.uniform(0, total)
    for item, w in pairs:
        x -= w
        if x <= 0:
            return item
    return pairs[-1][0]


def rand_dim(rng, big=False):
    if big and rng.random() < 0.3:
        return rng.randint(8, 40)
    return weighted(rng, [(1, 5), (2, 3), (3, 3), (4, 2), (5, 1), (0, 0.4),
                          (7, 1)])


def rand_shape(rng, rank=None, big=False):
    if rank is None:
        rank = weighted(rng, [(0, 1), (1, 3), (2, 4), (3, 3), (4, 1), (5, 0.3)])
    return tuple(rand_dim(rng, big) for _ in range(rank))


def shrink_to(rng, shape, rank=None):
    """A shape that broadcasts to SHAPE: its trailing dims, each kept or 1."""
    if rank is None:
        rank = rng.randint(0, len(shape))
    tail = shape[len(shape) - rank:]
    return tuple(d if rng.random() < 0.6 else 1 for d in tail)


def broadcastable(rng, n, rank=None, equal_ranks=False, big=False):
    """N shapes that broadcast together, and the result."""
    out = rand_shape(rng, rank, big)
    shapes = [shrink_to(rng, out, len(out) if equal_ranks else None)
              for _ in range(n)]
    result = tuple(np.broadcast_shapes(*shapes)) if shapes else out
    return shapes, result


def incompatible(rng, shapes):
    """SHAPES with one dim changed so that they (likely) do not broadcast."""
    shapes = [list(s) for s in shapes]
    ranked = [s for s in shapes if s]
    if ranked:
        s = rng.choice(ranked)
        i = rng.randrange(len(s))
        s[i] = s[i] + rng.randint(2, 5)
    return [tuple(s) for s in shapes]


def rand_array(rng, shape, dtype):
    g = np.random.default_rng(rng.getrandbits(64))
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return g.integers(0, 2, size=shape).astype(bool)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        if rng.random() < 0.5:
            lo, hi = max(info.min, -6), min(info.max, 6)
        else:
            lo, hi = info.min, info.max
        return g.integers(lo, hi, size=shape, dtype=dt, endpoint=True)
    a = g.standard_normal(size=shape) * 10 ** rng.randint(-2, 3)
    if rng.random() < 0.5:
        a = np.round(a)
    a = a.astype(dt)
    if a.size and rng.random() < 0.4:
        flat = a.reshape(-1)
        for _ in range(rng.randint(1, 3)):
            flat[rng.randrange(flat.size)] = rng.choice(
                [np.nan, np.inf, -np.inf, -0.0, 0.0, 65504.0, 1e-8])
    return a


def shape_text(rng, shape):
    if not shape:
        return rng.choice(["[]", "()"])
    forms = ["[%s]" % ",".join(map(str, shape)),
             "(%s)" % ",".join(map(str, shape)),
             ",".join(map(str, shape)),
             "x".join(map(str, shape))]
    return rng.choice(forms)


def sha(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def npy_bytes(arr):
    buf = io.BytesIO()
    np.save(buf, arr)
    return buf.getvalue()


def same_values(got, want):
    """Same shape, the same kind and size of type, the same values (NaN
    equal to NaN).  A string, or None when they agree."""
    if got.shape != want.shape:
        return "shape %s, expected %s" % (got.shape, want.shape)
    if (got.dtype.kind, got.dtype.itemsize) != (want.dtype.kind,
                                                 want.dtype.itemsize):
        return "dtype %s, expected %s" % (got.dtype, want.dtype)
    g = got.astype(got.dtype.newbyteorder("="))
    w = want.astype(want.dtype.newbyteorder("="))
    equal_nan = g.dtype.kind == "f"
    if not np.array_equal(g, w, equal_nan=equal_nan):
        bad = np.argwhere(~((g == w) | (np.isnan(g) & np.isnan(w))
                            if equal_nan else g == w))
        i = tuple(bad[0]) if len(bad) else ()
        return "values differ at %s: %r, expected %r" % (
            i, g[i] if g.ndim else g[()], w[i] if w.ndim else w[()])
    return None


# ---------------------------------------------------------------------------
# Mutations of bytes and of command lines.

def mutate_bytes(rng, data):
    data = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        how = rng.randrange(7)
        if how == 0 and data:                       # truncate
            del data[rng.randrange(len(data)):]
        elif how == 1 and data:                     # flip bits
            for _ in range(rng.randint(1, 8)):
                i = rng.randrange(len(data))
                data[i] ^= 1 << rng.randrange(8)
        elif how == 2 and data:                     # overwrite a byte
            data[rng.randrange(len(data))] = rng.randrange(256)
        elif how == 3:                              # insert garbage
            i = rng.randint(0, len(data))
            data[i:i] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))
        elif how == 4 and data:                     # duplicate a slice
            i = rng.randrange(len(data))
            j = min(len(data), i + rng.randint(1, 200))
            data[j:j] = data[i:j]
        elif how == 5:                              # a number made huge
            m = list(re.finditer(rb"\d+", bytes(data)))
            if m:
                x = rng.choice(m)
                data[x.start():x.end()] = rng.choice(
                    [b"99999999999999999999", b"9223372036854775807",
                     b"4294967296", b"-1", b"0", b"65536"])
        elif how == 6 and data:                     # delete a slice
            i = rng.randrange(len(data))
            del data[i:i + rng.randint(1, 40)]
    return bytes(data)


GARBAGE = ["", "-", "--", "=", "--=", "x" * 5000, "\x7f", "\u00e9", "%s%n",
           "99999999999999999999999", "-1", "0", "nan", "1e309", "4x", "[",
           "[1,", "(,)", "[-1]", "[?]", "*", "tensor<", "1:", ":5", "0:0",
           "9223372036854775807", "18446744073709551616", "1K", "1T", "1P",
           "K", "0x10", " 3", "3 ", "add", "tosa.add", "--help", "-o",
           "--print", "99999999999x99999999999", "[4294967296,4294967296]",
           "2x3x4x5x6x7x8x9x10x11x12x13x14x15x16x17x18", "true", "PROPAGATE",
           "to=int8", "shift=99", "min_val=", "=1", "a.npy:b", "x.npz:",
           "4096", "1,2,3", "0,0", "-3", "3.5", "bf16", "i1", "f8E4M3FN"]
OPTIONS = ["--profile", "--op-profile", "--op", "--summary", "--format",
           "--verify-diagnostics", "--split-input-file", "--max-input-bytes",
           "--broadcast-dimensions", "-o", "--output", "--print", "--shape",
           "--dims", "--new-dims", "--any-order", "--operand", "--count",
           "--attr", "--checked", "--mlir", "--quiet", "--threads",
           "--only", "--assert-broadcast", "--stats", "--list-ops",
           "--bogus", "-x", "--memory", "--max-bytes", "-h"]
# Values that may follow --max-bytes or --memory in garbage: none of them
# lets an output grow past the budget the soak appends.
BUDGET_VALUES = ["", "0", "-1", "1", "1K", "K", "nan", "x", "1e3", "64K",
                 "99999999999999999999999P"]


def garbage_token(rng):
    if rng.random() < 0.7:
        return rng.choice(GARBAGE)
    return "".join(chr(rng.choice([rng.randrange(32, 127), rng.randrange(1, 32),
                                   rng.randrange(128, 0x3000)]))
                   for _ in range(rng.randint(1, 12))).replace("/", "")


def mutate_argv(rng, argv):
    argv = list(argv)
    for _ in range(weighted(rng, [(1, 6), (2, 2), (3, 1)])):
        how = rng.randrange(6)
        i = rng.randint(0, len(argv))
        if how == 0:
            opt = rng.choice(OPTIONS)
            val = (rng.choice(BUDGET_VALUES) if opt in ("--memory", "--max-bytes")
                   else garbage_token(rng))
            argv[i:i] = [opt, val] if rng.random() < 0.7 else [opt + "=" + val]
        elif how == 1 and argv:
            del argv[min(i, len(argv) - 1)]
        elif how == 2 and argv:
            j = min(i, len(argv) - 1)
            argv.insert(j, argv[j])
        elif how == 3 and argv:
            argv[min(i, len(argv) - 1)] = garbage_token(rng)
        elif how == 4 and len(argv) > 1:
            a, b = rng.sample(range(len(argv)), 2)
            argv[a], argv[b] = argv[b], argv[a]
        else:
            argv.insert(i, "--")
    return argv


# ---------------------------------------------------------------------------
# The ops, as `bcast --list-ops` prints them.

class Op:
    def __init__(self, name):
        self.name, self.inputs, self.aliases = name, 1, []
        self.tosa_types, self.numpy_types, self.attrs = [], [], []


def parse_list_ops(text):
    ops, op = [], None
    for line in text.splitlines():
        m = re.match(r"^([a-z_0-9]+): (\d+) inputs? ->", line)
        if m:
            op = Op(m.group(1))
            op.inputs = int(m.group(2))
            ops.append(op)
            continue
        if op is None or ":" not in line:
            continue
        key, _, value = line.strip().partition(":")
        words = [w for w in value.split() if w not in ("-", "none")]
        if key == "also named":
            op.aliases = words
        elif key == "tosa, trait":
            op.tosa_types = words
        elif key == "numpy":
            op.numpy_types = words
        elif key == "attributes":
            op.attrs = words
    return ops


def numpy_oracle():
    """NumPy's function for the ops whose numpy-profile results the README
    says are NumPy's exactly (no attributes; the transcendental ops, pow,
    the shifts, clz and cast are left out)."""
    table = {
        "add": np.add, "sub": np.subtract, "subtract": np.subtract,
        "mul": np.multiply, "multiply": np.multiply, "maximum": np.maximum,
        "minimum": np.minimum, "equal": np.equal, "greater": np.greater,
        "greater_equal": np.greater_equal, "less": np.less,
        "less_equal": np.less_equal, "not_equal": np.not_equal,
        "logical_and": np.logical_and, "logical_or": np.logical_or,
        "logical_xor": np.logical_xor, "logical_not": np.logical_not,
        "bitwise_and": np.bitwise_and, "bitwise_or": np.bitwise_or,
        "bitwise_xor": np.bitwise_xor, "bitwise_not": np.invert,
        "invert": np.invert, "abs": np.absolute, "absolute": np.absolute,
        "negate": np.negative, "negative": np.negative, "floor": np.floor,
        "ceil": np.ceil, "fmax": np.fmax, "fmin": np.fmin, "square": np.square,
        "sqrt": np.sqrt, "divide": np.divide, "true_divide": np.divide,
        "floor_divide": np.floor_divide, "remainder": np.remainder,
        "mod": np.remainder, "select": np.where, "where": np.where,
    }
    return table


def scalar_literal(rng, dtype_kind):
    if dtype_kind == "b" or rng.random() < 0.1:
        return rng.choice(["true", "false"])
    if dtype_kind == "f" and rng.random() < 0.5:
        return rng.choice(["2.5", "-0.5", "nan", "inf", "-inf", "0.0", "1e3"])
    return str(rng.choice([0, 1, -1, 2, 3, 7, 127, -128, 255, 300, 70000]))


def scalar_value(text):
    """The Python scalar a literal of scalar_literal() stands for."""
    named = {"true": True, "false": False, "nan": float("nan"),
             "inf": float("inf"), "-inf": float("-inf")}
    if text in named:
        return named[text]
    return float(text) if "." in text or "e" in text else int(text)


# ---------------------------------------------------------------------------
# MLIR inputs.

MLIR_ELEM = ["f32", "f16", "bf16", "i8", "i16", "i32", "i1", "i64", "f64",
             "f8E4M3FN", "complex<f32>", "index", "!d.t", "ui8", "foo"]
TOSA_BINARY = ["add", "sub", "mul", "maximum", "minimum", "pow", "equal",
               "greater", "greater_equal", "logical_and", "bitwise_and",
               "arithmetic_right_shift", "logical_left_shift", "intdiv"]
TOSA_UNARY = ["abs", "exp", "negate", "ceil", "floor", "clz", "cast", "tanh",
              "sigmoid", "reciprocal", "logical_not", "bitwise_not", "clamp"]


def mlir_type(rng, shape, elem, dynamic=0.15):
    if rng.random() < 0.03:
        return "tensor<*x%s>" % elem
    dims = ["?" if rng.random() < dynamic else str(d) for d in shape]
    return "tensor<%s%s>" % ("".join(d + "x" for d in dims), elem)


def gen_mlir(rng):
    """A function of random element-wise ops: TOSA (custom or generic form),
    test.broadcastable and chlo ops with broadcast_dimensions."""
    lines, args, n = [], [], 0
    for k in range(rng.randint(1, 5)):
        kind = rng.random()
        elem = rng.choice(MLIR_ELEM[:4]) if rng.random() < 0.8 else rng.choice(MLIR_ELEM)
        if kind < 0.5:
            op = rng.choice(TOSA_BINARY)
            shapes, out = broadcastable(rng, 2, equal_ranks=rng.random() < 0.8)
            if rng.random() < 0.2:
                shapes = incompatible(rng, shapes)
            ts = [mlir_type(rng, s, elem) for s in shapes]
            rt = mlir_type(rng, out, "i1" if op.startswith(("equal", "greater")) else elem)
            names = ["%%a%d" % (n + i) for i in range(2)]
            args += ["%s: %s" % (a, t) for a, t in zip(names, ts)]
            extra, extra_t = "", ""
            if op == "mul":
                args.append("%%s%d: tensor<1xi8>" % k)
                extra, extra_t = ", %%s%d" % k, ", tensor<1xi8>"
            if rng.random() < 0.5:
                lines.append("  %%r%d = tosa.%s %s, %s%s : (%s, %s%s) -> %s" % (
                    k, op, names[0], names[1], extra, ts[0], ts[1], extra_t, rt))
            else:
                lines.append('  %%r%d = "tosa.%s"(%s, %s%s) : (%s, %s%s) -> %s' % (
                    k, op, names[0], names[1], extra, ts[0], ts[1], extra_t, rt))
            n += 2
        elif kind < 0.7:
            op = rng.choice(TOSA_UNARY)
            shape = rand_shape(rng)
            t = mlir_type(rng, shape, elem)
            attrs = ""
            if op == "clamp":
                attrs = " {min_val = 0.0 : f32, max_val = 6.0 : f32}"
            args.append("%%a%d: %s" % (n, t))
            lines.append("  %%r%d = tosa.%s %%a%d%s : (%s) -> %s" % (
                k, op, n, attrs, t, mlir_type(rng, shape, elem, 0)))
            n += 1
        elif kind < 0.85:
            shapes, out = broadcastable(rng, rng.randint(1, 3))
            ts = [mlir_type(rng, s, elem) for s in shapes]
            names = ["%%a%d" % (n + i) for i in range(len(shapes))]
            args += ["%s: %s" % (a, t) for a, t in zip(names, ts)]
            lines.append('  %%r%d = "test.broadcastable"(%s) : (%s) -> %s' % (
                k, ", ".join(names), ", ".join(ts), mlir_type(rng, out, elem)))
            n += len(shapes)
        else:
            big = rand_shape(rng, rng.randint(1, 3))
            small_rank = rng.randint(0, len(big))
            dims = sorted(rng.sample(range(len(big)), small_rank))
            small = [big[d] if rng.random() < 0.7 else 1 for d in dims]
            if rng.random() < 0.2:
                dims = [rng.randint(-1, 6) for _ in dims]
            ta, tb = mlir_type(rng, big, elem), mlir_type(rng, small, elem)
            attr = ("array<i64: %s>" % ", ".join(map(str, dims)) if rng.random() < 0.7
                    else "dense<[%s]> : tensor<%dxi64>" % (
                        ", ".join(map(str, dims)), len(dims)))
            args += ["%%a%d: %s" % (n, ta), "%%a%d: %s" % (n + 1, tb)]
            lines.append("  %%r%d = chlo.broadcast_add %%a%d, %%a%d "
                         "{broadcast_dimensions = %s} : (%s, %s) -> %s" % (
                             k, n, n + 1, attr, ta, tb, mlir_type(rng, big, elem)))
            n += 2
    return "func.func @f(%s) {\n%s\n  return\n}\n" % (", ".join(args),
                                                     "\n".join(lines))


def mlir_corpus():
    """The MLIR files of the tests and examples, and the fuzz corpora."""
    files = []
    for d in ("tests/data/verify", "tests/data/lower", "examples"):
        full = os.path.join(ROOT, d)
        files += [os.path.join(full, f) for f in sorted(os.listdir(full))
                  if f.endswith(".mlir")]
    fuzz = []
    for d in ("fuzz/corpus/mlir", "fuzz/corpus/lower"):
        full = os.path.join(ROOT, d)
        if os.path.isdir(full):
            fuzz += [os.path.join(full, f) for f in sorted(os.listdir(full))]
    return files, fuzz


def mlir_text(rng, corpus):
    """MLIR bytes: a file of the corpus or a generated function, maybe
    mutated."""
    files, fuzz = corpus
    x = rng.random()
    if x < 0.35:
        with open(rng.choice(files), "rb") as f:
            data = f.read()
    elif x < 0.55 and fuzz:
        with open(rng.choice(fuzz), "rb") as f:
            data = f.read()
    else:
        data = gen_mlir(rng).encode()
    if rng.random() < 0.4:
        data = mutate_bytes(rng, data)
    return data


# ---------------------------------------------------------------------------
# One action: a command line, its files, and what to check.

class Job:
    def __init__(self, kind, argv):
        self.kind = kind
        self.argv = argv            # arguments after the program
        self.outputs = []           # files that may appear or change on success
        self.outdirs = []           # folders that may appear on success
        self.stdin = None           # a file fed to standard input
        self.stdin_pipe = False     # through a pipe rather than the file
        self.env = {}
        self.expect = {0, 1, 2}     # exit statuses allowed (no kill, no fault)
        self.oracle = None          # fn(dir, stdout bytes) -> problem or None
        self.kill = None            # (signal, delay in seconds)
        self.failalloc = None       # N: the Nth allocation fails
        self.may_write_inputs = False  # garbage argv may name an input as -o
        self.npz_refused = False    # -o names a file that is no archive
        self.program = None         # None: bcast; else an argv prefix
        self.preload = ""
        self.timeout = None
        self.what = ""              # a few words for the report


class Soak:
    def __init__(self, args):
        self.args = args
        self.build = os.path.abspath(args.build)
        self.bcast = os.path.join(self.build, "bcast")
        self.shim = os.path.join(self.build, "libbcast_failalloc.so")
        self.out = os.path.abspath(args.out or os.path.join(self.build, "soak"))
        os.makedirs(self.out, exist_ok=True)
        self.work = tempfile.mkdtemp(prefix="work-", dir=self.out)
        self.rss_limit_kib = args.rss_limit_mib * 1024
        self.counts = collections.Counter()
        self.statuses = collections.defaultdict(collections.Counter)
        self.failures = []
        self.known = collections.Counter()
        self.tally = collections.Counter()   # value checks, failalloc hits
        self.peak = (0, None)
        self.py_calls = collections.Counter()
        self.stream_rate = 50e6     # bytes/s of streamed outputs, learned
        self.corpus = mlir_corpus()
        self.npy_corpus = sorted(
            os.path.join(ROOT, "fuzz/corpus/npy", f)
            for f in os.listdir(os.path.join(ROOT, "fuzz/corpus/npy")))
        self.ops = []
        self.oracle = numpy_oracle()
        self.base_env = dict(os.environ)
        for k in ("LD_PRELOAD", "BCAST_OUTPUT_NAMED_TEMP", "BCAST_MAP_MIN_BYTES",
                  "BCAST_ISA", "BCAST_BUFFER_CACHE", "OMP_NUM_THREADS"):
            self.base_env.pop(k, None)
        self.base_env.update(
            ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1:"
                         "exitcode=%d" % ASAN_EXIT,
            UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:exitcode=%d"
                          % UBSAN_EXIT)
        # The interpreter of the python child is not instrumented: in a
        # sanitizer build the runtimes are preloaded (as ctest does).
        self.sanitized = self.cache_says("BCAST_SANITIZE:BOOL=ON")
        self.asan_libs = " ".join(
            subprocess.run(["gcc", "-print-file-name=" + lib], capture_output=True,
                           text=True).stdout.strip()
            for lib in ("libasan.so", "libubsan.so")) if self.sanitized else ""

    def cache_says(self, line):
        try:
            with open(os.path.join(self.build, "CMakeCache.txt")) as f:
                return any(l.strip() == line for l in f)
        except OSError:
            return False

    # -- running ------------------------------------------------------------

    def env_for(self, job):
        env = dict(self.base_env)
        env.update(job.env)
        if job.failalloc:
            env["ASAN_OPTIONS"] += ":verify_asan_link_order=0"
            env["BCAST_FAIL_ALLOC_AT"] = str(job.failalloc)
            env["BCAST_FAIL_ALLOC_LOG"] = os.path.join(self.work, "failalloc.log")
        return env

    def launch(self, job, cwd):
        """Runs the job; a dict: status (exit code, or -signal), rss_kib,
        seconds, sent (the signal sent, or None), timed_out, stdout, stderr."""
        argv = (job.program or [self.bcast]) + job.argv
        r, w = os.pipe()
        out_path = os.path.join(self.work, "stdout")
        err_path = os.path.join(self.work, "stderr")
        feeder = None
        stdin = subprocess.DEVNULL
        if job.stdin is not None:
            if job.stdin_pipe:
                feeder = subprocess.Popen(["cat", job.stdin], cwd=cwd,
                                          stdout=subprocess.PIPE)
                stdin = feeder.stdout
            else:
                stdin = open(os.path.join(cwd, job.stdin), "rb")
        start = time.monotonic()
        with open(out_path, "wb") as out, open(err_path, "wb") as err:
            p = subprocess.Popen([sys.executable, "-S", "-c", LAUNCHER, str(w),
                                  job.preload] + argv,
                                 cwd=cwd, env=self.env_for(job), stdin=stdin,
                                 stdout=out, stderr=err, pass_fds=(w,))
        os.close(w)
        if feeder:
            feeder.stdout.close()
        elif job.stdin is not None:
            stdin.close()
        timeout = job.timeout or self.args.timeout
        buf = b""

        def read_line(deadline):
            nonlocal buf
            while b"\n" not in buf:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                ready, _, _ = select.select([r], [], [], left)
                if ready:
                    chunk = os.read(r, 256)
                    if not chunk:
                        return ""
                    buf += chunk
            line, _, buf = buf.partition(b"\n")
            return line.decode()

        pid_line = read_line(start + timeout)
        pid = int(pid_line) if pid_line else None
        sent = None
        if job.kill and pid and b"\n" not in buf:
            sig, delay = job.kill
            # Wait for the delay unless the child ends first.
            ready, _, _ = select.select([r], [], [], delay)
            if not ready:
                try:
                    os.kill(pid, sig)
                    sent = sig
                except ProcessLookupError:
                    pass
        final = read_line(start + timeout)
        timed_out = final is None
        if timed_out and pid:
            os.kill(pid, signal.SIGKILL)
            final = read_line(time.monotonic() + 60)
        p.wait()
        os.close(r)
        if feeder:
            feeder.kill()
            feeder.wait()
        seconds = time.monotonic() - start
        status, rss = -1, 0
        if final:
            st, rss = map(int, final.split())
            status = os.waitstatus_to_exitcode(st)
        with open(out_path, "rb") as f:
            stdout = f.read()
        with open(err_path, "rb") as f:
            stderr = f.read()
        return dict(status=status, rss_kib=rss, seconds=seconds, sent=sent,
                    timed_out=timed_out, stdout=stdout,
                    stderr=stderr.decode("utf-8", "replace"))

    @staticmethod
    def snapshot(d):
        """{relative path: (kind, size, hash of files up to 16 MiB)}."""
        snap = {}
        for root, dirs, files in os.walk(d):
            for name in dirs:
                snap[os.path.relpath(os.path.join(root, name), d)] = ("dir", 0, None)
            for name in files:
                full = os.path.join(root, name)
                st = os.lstat(full)
                h = sha(full) if st.st_size <= 16 * MiB else (st.st_mtime_ns, st.st_ino)
                snap[os.path.relpath(full, d)] = ("file", st.st_size, h)
        return snap

    def run_job(self, n, job, d):
        """Runs the job in folder d and checks it; a list of problems."""
        before = self.snapshot(d)
        log = os.path.join(self.work, "failalloc.log")
        if os.path.exists(log):
            os.unlink(log)
        res = self.launch(job, d)
        after = self.snapshot(d)
        problems = []
        st, sent = res["status"], res["sent"]
        err = res["stderr"]
        if SANITIZER.search(err) or st in (ASAN_EXIT, UBSAN_EXIT):
            problems.append("sanitizer report (exit %s)" % st)
        if res["timed_out"]:
            problems.append("no exit within %d s" % (job.timeout or self.args.timeout))
        killed = sent is not None and st == -sent
        if st < 0 and not killed and not res["timed_out"]:
            problems.append("died of signal %d%s" % (
                -st, "" if sent is None else " (sent %d)" % sent))
        elif st >= 0 and not res["timed_out"]:
            allowed = set(job.expect)
            hit = job.failalloc and os.path.exists(log)
            if hit:
                allowed |= {1, 2}
                self.tally["allocation failures injected"] += 1
            if st not in allowed:
                problems.append("exit status %d, expected %s" % (st, sorted(allowed)))
            if st in (1, 2) and not err.strip() and not res["stdout"].strip():
                problems.append("exit status %d with no message" % st)
        if res["rss_kib"] > self.rss_limit_kib:
            problems.append("peak RSS %.1f MiB over the limit" % (res["rss_kib"] / 1024))
        if res["rss_kib"] > self.peak[0]:
            self.peak = (res["rss_kib"], "action %d (%s)" % (n, job.kind))
        # Files: inputs unchanged; after a failure or a kill nothing new and
        # the outputs as they were; after success only the outputs new.  A
        # signal that comes after the outputs were renamed into place kills
        # a run that is done: then every output must be complete.
        outputs = set(job.outputs)
        changed = [p for p in outputs if after.get(p) != before.get(p)]
        oracle_done = False
        if killed and changed:
            why = (None if set(changed) == outputs else
                   "outputs %s of %s replaced" % (changed, sorted(outputs)))
            why = why or self.call_oracle(job, d, res)
            if why:
                problems.append("killed with outputs changed: %s" % why)
            oracle_done = True
            self.statuses[job.kind]["killed after publishing"] += 1
        failed = (st != 0 or res["timed_out"]) and not (killed and changed)
        new = sorted(set(after) - set(before))
        temps = [p for p in new if os.path.basename(p).startswith(TEMP_PREFIX)]
        if temps:
            if killed and sent == signal.SIGKILL:
                how = ("the named fallback forced" if job.env.get("BCAST_OUTPUT_NAMED_TEMP")
                       else "O_TMPFILE, killed after linking, before renaming")
                self.known["named temporary file left by SIGKILL (%s)" % how] += len(temps)
            else:
                problems.append("temporary files left: %s" % temps)
        for p, old in before.items():
            if old[0] != "file":
                continue
            now = after.get(p)
            if p in outputs:
                if failed and now != old:
                    problems.append("output %s changed by a failed run" % p)
            elif now != old and not (job.may_write_inputs and not failed):
                problems.append("input %s %s" % (p, "removed" if now is None
                                                   else "modified"))
        others = [p for p in new if p not in temps]
        if failed:
            left = [p for p in others if not (killed and sent == signal.SIGKILL
                                             and p in job.outdirs)]
            if len(left) < len(others):
                self.known["folder created and left by SIGKILL"] += 1
            if left:
                problems.append("left behind by a failed run: %s" % left)
        elif not job.may_write_inputs:
            extra = [p for p in others if p not in outputs and p not in job.outdirs]
            if extra:
                problems.append("unexpected new files: %s" % extra)
        if st == 0 and not oracle_done and not problems:
            why = self.call_oracle(job, d, res)
            if why:
                problems.append(why)
        self.statuses[job.kind]["killed" if killed else str(st)] += 1
        return problems, res

    def call_oracle(self, job, d, res):
        if not job.oracle:
            return None
        self.tally["results checked against NumPy or parsed"] += 1
        try:
            return job.oracle(d, res["stdout"])
        except Exception as e:  # the output cannot even be read
            return "checking the result: %s: %s" % (type(e).__name__, e)

    def save_failure(self, n, job, d, res, problems):
        dest = os.path.join(self.out, "fail-%d-%d" % (self.args.seed, n))
        shutil.rmtree(dest, ignore_errors=True)
        shutil.copytree(d, os.path.join(dest, "files"), symlinks=True)
        with open(os.path.join(dest, "stdout"), "wb") as f:
            f.write(res["stdout"])
        with open(os.path.join(dest, "stderr"), "w") as f:
            f.write(res["stderr"])
        env = {k: v for k, v in self.env_for(job).items()
               if k.startswith(("BCAST_", "ASAN_", "UBSAN_", "OMP_"))}
        if job.preload:
            env["LD_PRELOAD"] = job.preload
        if job.failalloc:
            env["BCAST_FAIL_ALLOC_LOG"] = "../failalloc.log"
        argv = (job.program or [self.bcast]) + job.argv
        cmd = " ".join(shlex.quote(a) for a in argv)
        if job.stdin is not None:
            cmd += " < " + shlex.quote(job.stdin)
        if job.kill:
            cmd += " &\nsleep %.3f; kill -%d $!; wait $!" % (job.kill[1], job.kill[0])
        with open(os.path.join(dest, "repro.sh"), "w") as f:
            f.write("#!/bin/sh\n# soak action %d (%s): %s\n" % (n, job.kind, job.what))
            for p in problems:
                f.write("# %s\n" % p.replace("\n", " "))
            f.write("# replay: %s\n" % self.replay(n))
            f.write('cd "$(dirname "$0")/files"\n')
            f.write("".join("%s=%s " % (k, shlex.quote(v)) for k, v in sorted(env.items())))
            f.write(cmd + "\necho \"exit $?\"\n")
        os.chmod(os.path.join(dest, "repro.sh"), 0o755)
        return dest

    def replay(self, n):
        return "/usr/bin/python3 scripts/soak.py --build %s --seed %d --action %d" % (
            os.path.relpath(self.build, ROOT), self.args.seed, n)

    # -- the actions --------------------------------------------------------

    def put_npy(self, rng, d, name, arr, allow_stdin=False, job=None):
        """Writes arr in one of the input forms; the argument naming it."""
        form = rng.random()
        if arr.dtype.kind != "b" and arr.dtype.itemsize > 1 and rng.random() < 0.2:
            arr = arr.astype(arr.dtype.newbyteorder(">"))
        if arr.ndim > 1 and rng.random() < 0.2:
            arr = np.asfortranarray(arr)
        if form < 0.12:
            path = name + ".npz"
            member = "m%d" % rng.randrange(100)
            save = np.savez_compressed if rng.random() < 0.5 else np.savez
            if rng.random() < 0.5:
                save(os.path.join(d, path), **{member: arr})
                return path + rng.choice([":" + member, ""])
            save(os.path.join(d, path), **{member: arr, "other": np.zeros(2)})
            return path + ":" + member
        path = name + ".npy"
        np.save(os.path.join(d, path), arr)
        if allow_stdin and job is not None and job.stdin is None and form > 0.92:
            job.stdin = path
            job.stdin_pipe = rng.random() < 0.5
            return "-"
        return path

    def output_form(self, rng, d, job, n_results=1,
                    forms=("print", "stdout", "npz", "npy")):
        """Appends an output option of one of FORMS; returns (kind, path)
        for the oracle: ('npy', p), ('npz', p, member), ('stdout', None) or
        ('print', None)."""
        x = rng.random()
        form = ("print" if x < 0.1 else "stdout" if x < 0.2 else
                "npz" if x < 0.32 else "npy")
        if form not in forms:
            form = rng.choice(forms)
        if form == "print":
            job.argv += ["--print"]
            return ("print", None)
        if form == "stdout":
            job.argv += ["-o", "-"]
            return ("stdout", None)
        if form == "npz":
            path = "out.npz"
            member = None
            if n_results == 1 and rng.random() < 0.5:
                member = "r%d" % rng.randrange(10)
            ours = [member] if member else ["arr_%d" % i for i in range(n_results)]
            kept = None
            x = rng.random()
            if x < 0.2:
                # Not an archive: refused (exit 2) and left as it is.
                with open(os.path.join(d, path), "wb") as f:
                    f.write(OLD)
                job.npz_refused = True
            elif x < 0.5:
                # An archive: its other members kept, one of ours replaced.
                members = {"keep": rand_array(rng, (3,), "int16")}
                if rng.random() < 0.5:
                    members[rng.choice(ours)] = np.zeros(2)
                save = np.savez_compressed if rng.random() < 0.5 else np.savez
                save(os.path.join(d, path), **members)
                with zipfile.ZipFile(os.path.join(d, path)) as z:
                    kept = z.read("keep.npy")
            job.argv += ["-o", path + (":" + member if member else "")]
            job.outputs.append(path)
            return ("npz", path, ours, kept)
        path = "out.npy"
        self.maybe_old(rng, d, path)
        job.argv += ["-o", path]
        job.outputs.append(path)
        return ("npy", path)

    @staticmethod
    def maybe_old(rng, d, path):
        if rng.random() < 0.5:
            with open(os.path.join(d, path), "wb") as f:
                f.write(OLD)

    @staticmethod
    def budget(rng, job, out):
        """Appends --max-bytes (always: no output grows past it) and maybe
        --memory, and sets the exit statuses a valid command may end
        with: 0; 1 when the budget is small; 2 when a small --memory meets
        an output that cannot stream (an archive, standard output)."""
        small = rng.random() < 0.2
        job.argv += ["--max-bytes", rng.choice(["64M", "1M", "4K"]) if small
                     else "256M"]
        job.expect = {0, 1} if small else {0}
        if job.npz_refused:
            job.expect = {1, 2} if small else {2}
        if rng.random() < 0.3:
            memory = rng.choice(["1", "64", "1K", "4K", "64K"])
            job.argv += ["--memory", memory]
            if out[0] in ("npz", "stdout"):
                job.expect = job.expect | {2}
            if memory == "1":
                # Tiles of at most half a byte: refused, naming --memory.
                job.expect = job.expect | {1}

    def random_env(self, rng, job):
        if rng.random() < 0.3:
            job.env["BCAST_OUTPUT_NAMED_TEMP"] = "1"
        if rng.random() < 0.2:
            job.env["BCAST_MAP_MIN_BYTES"] = rng.choice(["0", "1", "4K"])
        if rng.random() < 0.1:
            job.env["BCAST_ISA"] = "portable"
        if rng.random() < 0.3:
            job.env["OMP_NUM_THREADS"] = str(rng.randint(1, 3))
        if rng.random() < 0.1:
            job.env["BCAST_BUFFER_CACHE"] = rng.choice(["0", "1M", "64M"])

    @staticmethod
    def read_result(d, out, stdout):
        kind = out[0]
        if kind == "npy":
            with open(os.path.join(d, out[1]), "rb") as f:
                raw = f.read()
            return [np.load(io.BytesIO(raw))], [raw]
        if kind == "stdout":
            return [np.load(io.BytesIO(stdout))], [stdout]
        if kind == "npz":
            _, path, ours, kept = out
            with zipfile.ZipFile(os.path.join(d, path)) as z:
                names = z.namelist()
                raws = {n: z.read(n) for n in names}
            want = [m + ".npy" for m in ours] + ([] if kept is None else ["keep.npy"])
            if sorted(names) != sorted(want):
                raise ValueError("archive members %s, expected %s" % (names, want))
            if kept is not None and raws["keep.npy"] != kept:
                raise ValueError("the archive's other member keep.npy changed")
            mine = [raws[m + ".npy"] for m in ours]
            return [np.load(io.BytesIO(r)) for r in mine], mine
        return None, None

    def check_copies(self, out, wants):
        """An oracle: the results are exactly numpy.save of WANTS."""
        def oracle(d, stdout):
            if out[0] == "print":
                return None
            if out[0] == "dir":
                raws = []
                for i in range(len(wants)):
                    with open(os.path.join(d, out[1], "z%d.npy" % i), "rb") as f:
                        raws.append(f.read())
            else:
                _, raws = self.read_result(d, out, stdout)
            if len(raws) != len(wants):
                return "%d results, expected %d" % (len(raws), len(wants))
            for i, (raw, want) in enumerate(zip(raws, wants)):
                if raw != npy_bytes(want):
                    got = np.load(io.BytesIO(raw))
                    why = same_values(got, want) or "same values, other bytes"
                    return "result %d: %s (dtype %s)" % (i, why, want.dtype)
            return None
        return oracle

    def act_shapes(self, rng, d):
        cmd = weighted(rng, [("infer", 5), ("explain", 3), ("broadcast-in-dim", 2)])
        n = rng.randint(1, 4)
        shapes, result = broadcastable(rng, n, big=True)
        ok = rng.random() < 0.7
        if not ok:
            shapes = incompatible(rng, shapes)
        profile = rng.choice([None, "numpy", "trait", "mlir", "tosa", "xla"])
        texts = [shape_text(rng, s) for s in shapes]
        plain = all(re.fullmatch(r"\[[0-9,]*\]", t) for t in texts)
        if rng.random() < 0.3:
            # Named and dynamic dims, unranked operands, MLIR types.
            for i, s in enumerate(shapes):
                dims = [rng.choice([str(x), "?", "n", "m", "batch"]) for x in s]
                texts[i] = rng.choice([
                    "[%s]" % ",".join(dims), "*",
                    "tensor<%sf32>" % "".join(x + "x" for x in dims),
                    "vector<%sf16>" % "".join(str(x) + "x" for x in s) if s else "[]"])
            plain = False
        if rng.random() < 0.1:
            texts.append(rng.choice(["[99999999999,99999999999]",
                                     "[9223372036854775807]", "[-1]",
                                     "4294967296x4294967296"]))
            plain = False
        if cmd == "broadcast-in-dim":
            out = rand_shape(rng, big=True)
            rank = rng.randint(0, len(out))
            dims = sorted(rng.sample(range(len(out)), rank))
            operand = [out[i] if rng.random() < 0.7 else 1 for i in dims]
            if rng.random() < 0.2:
                dims = [rng.randint(-1, len(out) + 1) for _ in dims]
            job = Job("shapes", ["broadcast-in-dim", "--operand",
                                 shape_text(rng, tuple(operand)), "--dims",
                                 ",".join(map(str, dims)), "--shape",
                                 shape_text(rng, out)])
            if rng.random() < 0.2:
                job.argv.append("--any-order")
            job.what = "broadcast-in-dim --operand"
            return job
        job = Job("shapes", [cmd] + (["--profile", profile] if profile else []))
        fmt = rng.random() < 0.4
        if fmt:
            job.argv += ["--format", "json"]
        job.argv += texts
        job.what = "%s of %d shapes" % (cmd, len(texts))
        check_value = plain and cmd == "infer" and profile in (None, "numpy", "trait", "mlir")

        def oracle(_, stdout):
            text = stdout.decode("utf-8", "replace")
            if fmt:
                try:
                    obj = json.loads(text)
                except ValueError as e:
                    return "--format json output does not parse: %s: %r" % (e, text[:300])
                got = obj.get("result")
            else:
                got = text.split("\n")[0]
            if check_value:
                try:
                    want = "[%s]" % ",".join(map(str, np.broadcast_shapes(*shapes)))
                except ValueError:
                    return "NumPy refuses the shapes, bcast inferred %s" % got
                if got != want:
                    return "inferred %s, NumPy %s" % (got, want)
            return None
        job.oracle = oracle
        if check_value:
            try:
                np.broadcast_shapes(*shapes)
                job.expect = {0}
            except ValueError:
                job.expect = {1}
        return job

    def mlir_text(self, rng):
        return mlir_text(rng, self.corpus)

    def act_verify(self, rng, d):
        job = Job("verify", ["verify"])
        files = []
        for i in range(weighted(rng, [(1, 6), (2, 2), (3, 1)])):
            name = "in%d.mlir" % i
            with open(os.path.join(d, name), "wb") as f:
                f.write(self.mlir_text(rng))
            files.append(name)
        if rng.random() < 0.15:
            job.stdin, job.stdin_pipe = files[0], rng.random() < 0.5
            files[0] = "-"
        opts = []
        if rng.random() < 0.3:
            opts += ["--profile", rng.choice(["trait", "mlir", "tosa", "numpy", "xla"])]
        if rng.random() < 0.2:
            opts += ["--op-profile", rng.choice(["tosa.*=trait", "*=numpy",
                                                 "chlo.broadcast_add=xla",
                                                 "test.broadcastable=mlir"])]
        if rng.random() < 0.1:
            opts += ["--op", rng.choice(["my.add", "func.return", "tosa.add"])]
        if rng.random() < 0.3:
            opts.append("--summary")
        fmt = weighted(rng, [(None, 5), ("json", 2), ("sarif", 2), ("text", 1)])
        if fmt:
            opts += ["--format", fmt]
        if rng.random() < 0.2:
            opts.append("--verify-diagnostics")
            if rng.random() < 0.5:
                opts.append("--split-input-file")
        if rng.random() < 0.1:
            opts += ["--max-input-bytes", rng.choice(["1", "100", "1K"])]
        job.argv += opts + files
        job.what = "verify %s" % " ".join(opts)

        def oracle(_, stdout):
            text = stdout.decode("utf-8", "replace")
            try:
                if fmt == "sarif":
                    json.loads(text)
                elif fmt == "json":
                    for line in text.splitlines():
                        json.loads(line)
            except ValueError as e:
                return "--format %s output does not parse: %s" % (fmt, e)
            return None
        job.oracle = oracle
        return job

    def act_lower(self, rng, d):
        job = Job("lower", ["lower"])
        with open(os.path.join(d, "in.mlir"), "wb") as f:
            f.write(self.mlir_text(rng))
        src = "in.mlir"
        if rng.random() < 0.15:
            job.stdin, job.stdin_pipe = src, rng.random() < 0.5
            src = "-"
        if rng.random() < 0.2:
            job.argv += ["--only", rng.choice(["add", "tosa.mul", "clamp", "select"])]
        if rng.random() < 0.2:
            job.argv += ["--op-profile", rng.choice(["tosa.*=trait", "tosa.add=numpy"])]
        if rng.random() < 0.2:
            job.argv.append("--assert-broadcast")
        if rng.random() < 0.3:
            job.argv.append("--stats")
        if rng.random() < 0.2:
            job.argv += ["--format", "json"]
        if rng.random() < 0.6:
            out = "in.mlir" if rng.random() < 0.1 and src != "-" else "out.mlir"
            if out != "in.mlir":
                self.maybe_old(rng, d, out)
            job.argv += ["-o", out]
            job.outputs.append(out)
        job.argv.append(src)
        job.what = " ".join(job.argv[:-1])
        return job

    def act_info(self, rng, d):
        job = Job("info", ["info"])
        valid = True
        for i in range(rng.randint(1, 3)):
            if rng.random() < 0.5:
                arr = rand_array(rng, rand_shape(rng), rng.choice(DTYPES + ["S5", "U3"]))
                job.argv.append(self.put_npy(rng, d, "x%d" % i, arr, True, job))
            else:
                valid = False
                src = rng.choice(self.npy_corpus) if rng.random() < 0.4 else None
                if src:
                    with open(src, "rb") as f:
                        data = f.read()
                else:
                    data = npy_bytes(rand_array(rng, rand_shape(rng), rng.choice(DTYPES)))
                with open(os.path.join(d, "bad%d.npy" % i), "wb") as f:
                    f.write(mutate_bytes(rng, data))
                job.argv.append("bad%d.npy" % i)
        if rng.random() < 0.3:
            job.argv += ["--count", str(rng.choice([0, 1, 3, 100]))]
        if rng.random() < 0.2:
            job.argv += ["--max-bytes", rng.choice(["1", "100", "1K", "1G"])]
            valid = False
        if valid:
            job.expect = {0}
        job.what = "info of %d files" % (len(job.argv) - 1)
        return job

    def act_broadcast_to(self, rng, d):
        job = Job("broadcast-to", ["broadcast-to"])
        (shape,), out_shape = broadcastable(rng, 1, big=True)
        dtype = rng.choice(DTYPES + ["S4", "U2"])
        arr = rand_array(rng, shape, dtype)
        src = self.put_npy(rng, d, "x", arr, True, job)
        ok = rng.random() < 0.85
        if not ok:
            out_shape = incompatible(rng, [out_shape])[0]
        job.argv += [src, "--shape", shape_text(rng, out_shape)]
        out = self.output_form(rng, d, job)
        self.budget(rng, job, out)
        self.random_env(rng, job)
        job.what = "broadcast-to %s -> %s %s" % (shape, out_shape, dtype)
        if src.endswith(".npy") and rng.random() < 0.05 and out[0] == "npy":
            job.argv[job.argv.index("out.npy")] = src     # in place
            job.outputs = [src]
            out = ("npy", src)
        stored = np.load(os.path.join(d, src.split(":")[0])) if src.endswith(".npy") else None
        try:
            want = np.broadcast_to(stored if stored is not None else arr, out_shape).copy()
        except ValueError:
            job.expect = {1}
            return job
        if stored is None:
            return job
        job.oracle = self.check_copies(out, [want])
        return job

    def act_broadcast(self, rng, d):
        job = Job("broadcast", ["broadcast"])
        n = rng.randint(1, 4)
        shapes, _ = broadcastable(rng, n, big=True)
        if rng.random() < 0.15:
            shapes = incompatible(rng, shapes)
        arrays, loaded = [], []
        for i, s in enumerate(shapes):
            arr = rand_array(rng, s, rng.choice(DTYPES))
            src = self.put_npy(rng, d, "x%d" % i, arr, n == 1, job)
            job.argv.append(src)
            path = src.split(":")[0]
            loaded.append(np.load(os.path.join(d, path)) if src.endswith(".npy") else None)
            arrays.append(arr)
        x = rng.random()
        if x < 0.6:
            outdir = "outdir"
            if rng.random() < 0.5:
                os.makedirs(os.path.join(d, outdir))
                for i in range(n):
                    if rng.random() < 0.5:
                        self.maybe_old(rng, d, os.path.join(outdir, "z%d.npy" % i))
            else:
                job.outdirs.append(outdir)
            job.argv += ["-o", outdir]
            job.outputs += [os.path.join(outdir, "z%d.npy" % i) for i in range(n)]
            out = ("dir", outdir)
        elif x < 0.85 or n > 1:
            out = self.output_form(rng, d, job, n_results=n, forms=("npz", "print"))
        else:
            out = self.output_form(rng, d, job, n_results=n, forms=("stdout",))
        self.budget(rng, job, out)
        self.random_env(rng, job)
        job.what = "broadcast of %s" % (shapes,)
        try:
            wants = [a.copy() for a in np.broadcast_arrays(
                *[l if l is not None else a for l, a in zip(loaded, arrays)])]
        except ValueError:
            job.expect = {1}
            return job
        if all(l is not None for l in loaded):
            job.oracle = self.check_copies(out, wants)
        return job

    def act_broadcast_in_dim(self, rng, d):
        job = Job("broadcast-in-dim", ["broadcast-in-dim"])
        out_shape = rand_shape(rng, big=True)
        rank = rng.randint(0, len(out_shape))
        dims = sorted(rng.sample(range(len(out_shape)), rank))
        any_order = rng.random() < 0.3
        if any_order:
            rng.shuffle(dims)
        shape = tuple(out_shape[i] if rng.random() < 0.7 else 1 for i in dims)
        arr = rand_array(rng, shape, rng.choice(DTYPES))
        src = self.put_npy(rng, d, "x", arr, True, job)
        bad = rng.random() < 0.15
        if bad:
            dims = [rng.randint(-1, len(out_shape)) for _ in dims]
        job.argv += [src, "--dims", ",".join(map(str, dims))]
        new = [] if bad else (
            ["%d:%d" % (i, out_shape[i]) for i in range(len(out_shape))
             if i not in dims] +
            ["%d:%d" % (dims[k], out_shape[dims[k]]) for k in range(rank)
             if shape[k] == 1 and out_shape[dims[k]] != 1])
        if rng.random() < 0.7 or not new:
            job.argv += ["--shape", shape_text(rng, out_shape)]
        else:
            job.argv += ["--new-dims", ",".join(new)]
        if any_order or rng.random() < 0.1:
            job.argv.append("--any-order")
        out = self.output_form(rng, d, job)
        self.budget(rng, job, out)
        self.random_env(rng, job)
        job.what = "broadcast-in-dim %s dims %s -> %s" % (shape, dims, out_shape)
        if bad or not src.endswith(".npy"):
            job.expect = {0, 1, 2}
            return job
        stored = np.load(os.path.join(d, src))
        order = sorted(range(rank), key=lambda k: dims[k])
        full = [1] * len(out_shape)
        for k in range(rank):
            full[dims[k]] = shape[k]
        want = np.broadcast_to(stored.transpose(order).reshape(full), out_shape).copy()
        job.oracle = self.check_copies(out, [want])
        return job

    def act_run(self, rng, d):
        op = rng.choice(self.ops)
        profile = weighted(rng, [("numpy", 6), ("tosa", 3), ("trait", 1)])
        numpy_profile = profile == "numpy"
        types = op.numpy_types if numpy_profile else op.tosa_types
        if not types or rng.random() < 0.05:
            types = DTYPES
        names = [op.name] + op.aliases + ([] if numpy_profile else ["tosa." + op.name])
        name = rng.choice(names)
        job = Job("run", ["run", name, "--profile", profile])
        n = op.inputs
        shapes, out_shape = broadcastable(rng, n, equal_ranks=not numpy_profile
                                          and profile == "tosa")
        if rng.random() < 0.08:
            shapes = incompatible(rng, shapes)
        # Types NumPy has no dtype for (bfloat16; the 8-bit floats, which
        # run reads as uint8 bits typed by --mlir only).
        types = [t for t in types if t not in ("bfloat16", "float8_e4m3fn",
                                               "float8_e5m2")] or ["float32"]
        if numpy_profile and rng.random() < 0.5:
            dtypes = [rng.choice(types) for _ in range(n)]
        else:
            dtypes = [rng.choice(types)] * n
        if op.name == "select" and (not numpy_profile or rng.random() < 0.5):
            dtypes[0] = "bool"
        operands, args = [], []
        for i in range(n):
            scalar = (numpy_profile and i > 0 and rng.random() < 0.15 and
                      any(a is not None for a in operands))
            if scalar:
                text = scalar_literal(rng, np.dtype(dtypes[i]).kind)
                operands.append(None)
                args.append(text)
            else:
                arr = rand_array(rng, shapes[i], dtypes[i])
                src = self.put_npy(rng, d, "x%d" % i, arr, True, job)
                operands.append(np.load(os.path.join(d, src))
                                if src.endswith(".npy") else arr)
                args.append(src)
        job.argv[2:2] = args
        attrs = []
        for a in op.attrs:
            if rng.random() < 0.5:
                attrs.append(a + "=" + self.attr_value(rng, a, dtypes[0]))
        if rng.random() < 0.05:
            attrs.append(rng.choice(["shift=99", "bogus=1", "to=", "min_val=nan",
                                     "round=maybe", "nan_mode=X"]))
        for a in attrs:
            job.argv += ["--attr", a]
        checked = rng.random() < 0.15
        if checked:
            job.argv.append("--checked")
        if rng.random() < 0.1:
            job.argv += ["--threads", str(rng.choice([0, 1, 2, 3]))]
        if rng.random() < 0.05 and n == 2:
            job.argv += ["--broadcast-dimensions", ",".join(
                map(str, range(rng.randint(0, 2))))]
        out = self.output_form(rng, d, job)
        self.budget(rng, job, out)
        self.random_env(rng, job)
        job.what = "run %s %s %s %s" % (name, profile, shapes, dtypes)
        fn = self.oracle.get(name)
        valid = job.expect
        job.expect = {0, 1, 2}
        if (not numpy_profile or fn is None or attrs or checked
                or "--broadcast-dimensions" in job.argv or out[0] == "print"
                or (fn is np.where and any(o is None for o in operands))):
            return job
        inputs = [o if o is not None else scalar_value(t)
                  for o, t in zip(operands, args)]
        if any(x is None for x in inputs):
            return job
        try:
            with np.errstate(all="ignore"):
                if fn is np.where:
                    want = np.where(inputs[0].astype(bool) if isinstance(inputs[0], np.ndarray)
                                    else bool(inputs[0]), inputs[1], inputs[2])
                else:
                    want = np.asarray(fn(*inputs))
        except (TypeError, ValueError, OverflowError):
            return job
        if want.dtype.kind not in "biuf":
            return job

        def oracle(dd, stdout):
            got, _ = self.read_result(dd, out, stdout)
            return same_values(got[0], want)
        job.oracle = oracle
        job.expect = valid
        return job

    @staticmethod
    def attr_value(rng, name, dtype):
        kind = np.dtype(dtype).kind if dtype in DTYPES else "f"
        if name == "shift":
            return str(rng.choice([0, 1, 5, 31, 63, 64, -1]))
        if name == "round":
            return rng.choice(["true", "false", "1"])
        if name in ("min_val", "max_val"):
            if kind == "f":
                return rng.choice(["0", "-1.5", "6", "inf", "-inf", "1e40", "nan"])
            return str(rng.choice([0, -1, 5, 127, -128, 300, 40000]))
        if name == "nan_mode":
            return rng.choice(["PROPAGATE", "IGNORE", "propagate", "ignore"])
        if name in ("input_zp", "output_zp"):
            return str(rng.choice([0, 0, 1, -128, 127, 300]))
        if name == "to":
            return rng.choice(DTYPES + ["bfloat16", "f32", "i1", "i8", "bf16", "f16"])
        return "1"

    # The kinds whose command lines garbage and failalloc actions start from.
    BASE_KINDS = [("shapes", 1), ("verify", 2), ("lower", 2), ("info", 1),
                  ("broadcast-to", 2), ("broadcast", 2), ("broadcast-in-dim", 2),
                  ("run", 4)]

    def base_job(self, rng, d, kind):
        job = self.builders[weighted(rng, self.BASE_KINDS)](rng, d)
        job.kind = kind
        return job

    def act_garbage(self, rng, d):
        """A valid command line of another kind with its arguments mutated."""
        job = self.base_job(rng, d, "garbage")
        job.argv = mutate_argv(rng, job.argv)
        if job.argv and job.argv[0] in ("broadcast", "broadcast-to", "run",
                                         "broadcast-in-dim"):
            job.argv += ["--max-bytes", "256M"]
        job.oracle = None
        job.expect = {0, 1, 2}
        job.may_write_inputs = True
        job.what = "garbage: " + " ".join(a[:40] for a in job.argv)
        return job

    def act_failalloc(self, rng, d):
        """A command of another kind whose Nth allocation fails."""
        job = self.base_job(rng, d, "failalloc")
        job.failalloc = max(1, int(math.exp(rng.uniform(0, math.log(150)))))
        job.preload = self.shim
        job.what = "failalloc %d: %s" % (job.failalloc, job.what)
        return job

    def act_kill(self, rng, d):
        """A large output written tile by tile, killed at a random moment."""
        target = rng.choice([32, 64, 128, 256]) * MiB
        rows = rng.choice([256, 1024, 4096])
        cols = max(1, target // 4 // rows)
        col = rand_array(rng, (rows, 1), "float32")
        row = rand_array(rng, (1, cols), "float32")
        np.save(os.path.join(d, "col.npy"), col)
        np.save(os.path.join(d, "row.npy"), row)
        cmd = weighted(rng, [("run", 4), ("broadcast-to", 2), ("broadcast", 1),
                             ("broadcast-in-dim", 1)])
        # 1G: held whole in memory and written through the output writer.
        mem = rng.choice(["256K", "1M", "4M", "16M", "1G"])
        out = "out.npy"
        if cmd == "run":
            argv = ["run", "add", "col.npy", "row.npy", "-o", out]
        elif cmd == "broadcast-to":
            argv = ["broadcast-to", "row.npy", "--shape", "%d,%d" % (rows, cols),
                    "-o", out]
        elif cmd == "broadcast-in-dim":
            argv = ["broadcast-in-dim", "row.npy", "--dims", "0,1", "--shape",
                    "%d,%d" % (rows, cols), "-o", out]
        else:
            out = "outdir"
            argv = ["broadcast", "col.npy", "row.npy", "-o", out]
        job = Job("kill", argv + ["--memory", mem, "--max-bytes", "1G"])
        if out == "outdir":
            if rng.random() < 0.5:
                os.makedirs(os.path.join(d, out))
            else:
                job.outdirs.append(out)
            job.outputs = ["outdir/z0.npy", "outdir/z1.npy"]
            for o in job.outputs:
                if os.path.isdir(os.path.join(d, out)) and rng.random() < 0.5:
                    self.maybe_old(rng, d, o)
        else:
            self.maybe_old(rng, d, out)
            job.outputs = [out]
        self.random_env(rng, job)
        job.env.pop("BCAST_BUFFER_CACHE", None)
        sig = weighted(rng, SIGNALS)
        total = rows * cols * 4 * (2 if cmd == "broadcast" else 1)
        expected = 0.15 + total / self.stream_rate
        delay = rng.uniform(0, 1.2 * expected) if rng.random() < 0.9 else rng.uniform(0, 0.1)
        job.kill = (sig, delay)
        job.total_bytes = total
        job.what = "%s %d MiB, %s after %.2f s" % (cmd, total >> 20,
                                                   signal.Signals(sig).name, delay)

        def oracle(dd, _):
            # Finished before the signal: spot-check the result.
            names = job.outputs if out == "outdir" else [out]
            for i, name in enumerate(names):
                z = np.load(os.path.join(dd, name), mmap_mode="r")
                if z.shape != (rows, cols):
                    return "%s: shape %s" % (name, z.shape)
                for _ in range(8):
                    r, c = rng.randrange(rows), rng.randrange(cols)
                    want = (col[r, 0] + row[0, c] if cmd == "run" else
                            (col[r, 0] if out == "outdir" and i == 0 else row[0, c]))
                    if not (z[r, c] == want or (np.isnan(z[r, c]) and np.isnan(want))):
                        return "%s[%d,%d] = %r, expected %r" % (name, r, c, z[r, c], want)
            return None
        job.oracle = oracle
        job.expect = {0}
        return job

    def act_python(self, rng, d):
        seconds = min(rng.uniform(4, 15), max(1.0, self.args.seconds / 20))
        job = Job("python", [os.path.abspath(__file__), "--python-child",
                             "--seed", str(rng.getrandbits(31)), "--seconds",
                             "%.1f" % seconds])
        job.program = ["/usr/bin/python3"]
        job.preload = self.asan_libs
        job.env = dict(PYTHONPATH=os.path.join(self.build, "python"),
                       PYTHONDONTWRITEBYTECODE="1",
                       ASAN_OPTIONS="detect_leaks=0:allocator_may_return_null=1:"
                                    "exitcode=%d" % ASAN_EXIT)
        if rng.random() < 0.2:
            job.env["BCAST_ISA"] = "portable"
        job.expect = {0}
        job.timeout = self.args.timeout + seconds
        job.what = "python child for %.1f s" % seconds
        return job

    # -- the loop -----------------------------------------------------------

    KINDS = [("shapes", 8), ("verify", 8), ("lower", 6), ("info", 4),
             ("broadcast-to", 8), ("broadcast", 6), ("broadcast-in-dim", 6),
             ("run", 16), ("garbage", 8), ("failalloc", 10), ("kill", 4),
             ("python", 1)]

    def setup(self):
        self.builders = {
            "shapes": self.act_shapes, "verify": self.act_verify,
            "lower": self.act_lower, "info": self.act_info,
            "broadcast-to": self.act_broadcast_to, "broadcast": self.act_broadcast,
            "broadcast-in-dim": self.act_broadcast_in_dim, "run": self.act_run,
            "garbage": self.act_garbage, "failalloc": self.act_failalloc,
            "kill": self.act_kill, "python": self.act_python}
        p = subprocess.run([self.bcast, "--list-ops"], capture_output=True,
                           env=self.base_env)
        if p.returncode != 0 or SANITIZER.search(p.stderr.decode("utf-8", "replace")):
            raise SystemExit("soak: %s --list-ops failed:\n%s" % (
                self.bcast, p.stderr.decode("utf-8", "replace")))
        self.ops = parse_list_ops(p.stdout.decode())
        if len(self.ops) < 30:
            raise SystemExit("soak: --list-ops listed only %d ops" % len(self.ops))

    def one(self, n):
        rng = random.Random("%d:%d" % (self.args.seed, n))
        kind = weighted(rng, self.KINDS)
        d = os.path.join(self.work, "a%d" % n)
        os.makedirs(d)
        job = self.builders[kind](rng, d)
        problems, res = self.run_job(n, job, d)
        self.counts[job.kind] += 1
        if job.kind == "kill" and res["sent"] is None and res["status"] == 0:
            rate = job.total_bytes / max(0.05, res["seconds"] - 0.15)
            self.stream_rate = 0.7 * self.stream_rate + 0.3 * rate
        if job.kind == "python":
            m = re.search(r"^soak-python (.*)$", res["stdout"].decode("utf-8", "replace"),
                          re.M)
            if m:
                for k, v in json.loads(m.group(1)).items():
                    self.py_calls[k] += v
            elif not problems:
                problems.append("the python child printed no summary")
        if job.kind == "python" and res["status"] != 0:
            problems.append("python child output:\n" +
                            res["stdout"].decode("utf-8", "replace")[-3000:])
        if problems:
            dest = self.save_failure(n, job, d, res, problems)
            self.failures.append((n, job, problems, dest))
            print("FAIL action %d (%s): %s" % (n, job.kind, job.what), flush=True)
            for p in problems:
                print("    " + p.replace("\n", "\n    "), flush=True)
            print("    stderr: %s" % res["stderr"][-2000:].replace("\n", "\n    "))
            print("    saved: %s\n    replay: %s" % (dest, self.replay(n)), flush=True)
        shutil.rmtree(d, ignore_errors=True)
        return res


def own_rss_kib():
    """This process's resident set in KiB, after handing the C heap's free
    pages back (malloc_trim), so that it measures what is live rather than
    how fragmented the heap is."""
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build-asan",
                    help="the sanitizer build folder (bcast, python/, the shim)")
    ap.add_argument("--seconds", type=float, default=600)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--action", type=int, default=None,
                    help="replay action N of --seed alone")
    ap.add_argument("--rss-limit-mib", type=int, default=2048)
    ap.add_argument("--timeout", type=int, default=300,
                    help="seconds after which a run counts as hung")
    ap.add_argument("--out", default=None, help="reproducers (default BUILD/soak)")
    ap.add_argument("--python-child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.python_child:
        return python_child(args.seed, args.seconds)
    if args.seed is None:
        args.seed = random.SystemRandom().randrange(1 << 31)
    np._set_promotion_state("weak")
    soak = Soak(args)
    for tool in (soak.bcast, soak.shim):
        if not os.path.exists(tool):
            raise SystemExit("soak: %s is missing (make asan builds it)" % tool)
    print("soak: seed %d, %g s, %s (%s), child RSS limit %d MiB" % (
        args.seed, args.seconds, soak.bcast,
        "ASan + UBSan" if soak.sanitized else "no sanitizer", args.rss_limit_mib),
        flush=True)
    soak.setup()
    start = time.monotonic()
    rss_samples = []
    warm = min(60.0, args.seconds / 10)
    n = 0
    try:
        if args.action is not None:
            soak.one(args.action)
            n = 1
        else:
            last_print = start
            while time.monotonic() - start < args.seconds:
                soak.one(n)
                n += 1
                now = time.monotonic()
                if n % 20 == 0:
                    rss_samples.append((now - start, own_rss_kib()))
                if now - last_print > 60:
                    last_print = now
                    print("  %4.0f s: %d actions, %d failures, peak child RSS %.1f MiB, "
                          "soak RSS %.1f MiB" % (now - start, n, len(soak.failures),
                                                 soak.peak[0] / 1024,
                                                 own_rss_kib() / 1024), flush=True)
    finally:
        shutil.rmtree(soak.work, ignore_errors=True)
    elapsed = time.monotonic() - start
    # This process's RSS: after the warm-up, and at the end.
    rss_fail = None
    after_warm = [kib for t, kib in rss_samples if t >= warm]
    if len(after_warm) >= 2:
        base, end = after_warm[0], after_warm[-1]
        if end - base > 64 * 1024:
            rss_fail = "the soak's own RSS grew from %.1f to %.1f MiB" % (
                base / 1024, end / 1024)
    print("\nsoak: seed %d, %.0f s, %d actions" % (args.seed, elapsed, n))
    for kind, _ in Soak.KINDS:
        st = soak.statuses.get(kind, {})
        print("  %-17s %6d   %s" % (kind, soak.counts[kind], ", ".join(
            "%s: %d" % ("exit " + k if k.isdigit() else k, v)
            for k, v in sorted(st.items()))))
    if soak.py_calls:
        calls = sum(v for k, v in soak.py_calls.items() if not k.startswith("raised "))
        print("  python library calls: %d (%s)" % (calls, ", ".join(
            "%s %d" % kv for kv in sorted(soak.py_calls.items()))))
    print("  peak child RSS: %.1f MiB (%s), limit %d MiB" % (
        soak.peak[0] / 1024, soak.peak[1], args.rss_limit_mib))
    if after_warm:
        print("  soak RSS: %.1f MiB after %.0f s, %.1f MiB at the end" % (
            after_warm[0] / 1024, warm, after_warm[-1] / 1024))
    for what, count in sorted(soak.tally.items()):
        print("  %s: %d" % (what, count))
    for what, count in sorted(soak.known.items()):
        print("  known limit: %s: %d" % (what, count))
    failures = len(soak.failures) + (1 if rss_fail else 0)
    if rss_fail:
        print("FAIL: " + rss_fail)
    print("  failures: %d" % failures)
    for n_, job, problems, dest in soak.failures:
        print("    action %d (%s): %s -> %s" % (n_, job.kind, problems[0][:200], dest))
    print("  replay: /usr/bin/python3 scripts/soak.py --build %s --seed %d --seconds %g"
          % (os.path.relpath(soak.build, ROOT), args.seed, args.seconds))
    return 1 if failures else 0


# ---------------------------------------------------------------------------
# The library through the Python module, in a child interpreter (the
# sanitizer runtimes preloaded, as ctest runs the python test under ASan).

def python_child(seed, seconds):
    import bcast
    np._set_promotion_state("weak")
    rng = random.Random(seed)
    counts = collections.Counter()
    problems = []
    allowed = (ValueError, TypeError, OverflowError, MemoryError, ArithmeticError)
    oracle = numpy_oracle()
    corpus = mlir_corpus()

    def layout(a):
        """a in another memory layout with the same values."""
        x = rng.random()
        if a.ndim and x < 0.2:
            return np.asfortranarray(a)
        if a.ndim and x < 0.35:
            ax = rng.randrange(a.ndim)
            big = np.repeat(a, 2, axis=ax)
            return big[(slice(None),) * ax + (slice(None, None, 2),)]
        if a.ndim and x < 0.45:
            return np.flip(np.flip(a, 0).copy(), 0)
        if x < 0.55 and a.dtype.itemsize > 1 and a.dtype.kind != "b":
            return a.astype(a.dtype.newbyteorder(">"))
        return a

    def garbage():
        return rng.choice([None, -1, 2 ** 70, -(2 ** 70), 1.5, "x", "[", "*", "[n,",
                           (), ((),), ((1, 2),), [[-1]], (2 ** 63,), ("?", 3),
                           {"a": 1}, b"\x00", float("nan"), (1,) * 70, object()])

    def call_shapes():
        shapes, _ = broadcastable(rng, rng.randint(1, 4), big=True)
        if rng.random() < 0.3:
            shapes = incompatible(rng, shapes)
        if rng.random() < 0.15:
            args = [garbage() for _ in range(rng.randint(0, 3))]
            for fn in (bcast.broadcast_shapes, bcast.infer, bcast.explain):
                try:
                    fn(*args)
                except allowed:
                    counts["raised"] += 1
            return
        try:
            want = tuple(np.broadcast_shapes(*shapes))
        except ValueError:
            want = None
        try:
            got = bcast.broadcast_shapes(*shapes)
        except bcast.BroadcastError:
            got = None
        assert got == want, "broadcast_shapes%s = %s, NumPy %s" % (shapes, got, want)
        profile = rng.choice(["numpy", "trait", "mlir", "tosa", "xla"])
        for fn in (bcast.infer, bcast.explain):
            try:
                fn(*shapes, profile=profile)
            except bcast.BroadcastError:
                pass
        try:
            bcast.verify_shapes(shapes, want or (1,), profile=profile)
        except (bcast.BroadcastError, ValueError):
            pass

    def rand_input(shape):
        return layout(rand_array(rng, shape, rng.choice(DTYPES)))

    def call_views():
        (shape,), out = broadcastable(rng, 1, big=True)
        a = rand_input(shape)
        which = rng.randrange(4)
        if which == 0:
            v = bcast.broadcast_to(a, out)
            w = np.broadcast_to(a, out)
            assert v.shape == w.shape and not v.flags.writeable
            assert np.array_equal(v, w, equal_nan=a.dtype.kind == "f"), "broadcast_to"
        elif which == 1:
            shapes, _ = broadcastable(rng, rng.randint(1, 3), big=True)
            arrs = [rand_input(s) for s in shapes]
            got = bcast.broadcast_arrays(*arrs)
            for g, w in zip(got, np.broadcast_arrays(*arrs)):
                assert g.shape == w.shape and np.array_equal(
                    g, w, equal_nan=g.dtype.kind == "f"), "broadcast_arrays"
        elif which == 2:
            shapes, _ = broadcastable(rng, rng.randint(1, 3), big=True)
            arrs = [rand_input(s) for s in shapes]
            budget = rng.choice([None, 64, 1 << 20])
            try:
                got = bcast.materialize(*arrs, **({} if budget is None else
                                                  {"max_bytes": budget}))
            except bcast.BudgetError:
                assert budget is not None, "BudgetError without a budget"
                return
            for g, w in zip(got, np.broadcast_arrays(*arrs)):
                assert g.flags.c_contiguous and np.array_equal(
                    g, w, equal_nan=g.dtype.kind == "f"), "materialize"
        else:
            rank = rng.randint(0, len(out))
            dims = sorted(rng.sample(range(len(out)), rank))
            src_shape = tuple(out[i] if rng.random() < 0.7 else 1 for i in dims)
            a = rand_input(src_shape)
            v = bcast.broadcast_in_dim(a, out, dims)
            full = [1] * len(out)
            for k in range(rank):
                full[dims[k]] = src_shape[k]
            w = np.broadcast_to(a.reshape(full), out)
            assert np.array_equal(v, w, equal_nan=a.dtype.kind == "f"), "broadcast_in_dim"

    def call_views_bad():
        a = rand_input(rand_shape(rng))
        fn = rng.choice([lambda: bcast.broadcast_to(a, garbage()),
                         lambda: bcast.broadcast_to(garbage(), (2, 3)),
                         lambda: bcast.broadcast_in_dim(a, garbage(), garbage()),
                         lambda: bcast.broadcast_in_dim(a, (3, 4), (0, 0)),
                         lambda: bcast.materialize(a, garbage(), max_bytes=garbage()),
                         lambda: bcast.broadcast_arrays(a, np.zeros((7, 5, 3)))])
        try:
            fn()
        except allowed:
            counts["raised"] += 1

    def call_op():
        name = rng.choice(bcast.OPS)
        fn = getattr(bcast, name)
        shapes, out = broadcastable(rng, 3)
        dtype = rng.choice(DTYPES)
        arrs = [layout(rand_array(rng, s, dtype if rng.random() < 0.7 else
                                  rng.choice(DTYPES))) for s in shapes]
        for k in range(1, 4):
            try:
                with np.errstate(all="ignore"):
                    got = fn(*arrs[:k])
                break
            except TypeError:
                got = None
                continue
            except allowed:
                counts["raised"] += 1
                return
        if got is None:
            counts["raised"] += 1
            return
        ref = oracle.get(name)
        if ref is None or not isinstance(got, np.ndarray):
            return
        try:
            with np.errstate(all="ignore"):
                want = np.asarray(ref(*arrs[:k]))
        except (TypeError, ValueError):
            return
        why = same_values(got, want)
        assert why is None, "%s%s: %s" % (name, [a.dtype.str for a in arrs[:k]], why)
        if rng.random() < 0.3:
            out_arr = np.empty_like(want)
            with np.errstate(all="ignore"):
                fn(*arrs[:k], out=out_arr)
            why = same_values(out_arr, want)
            assert why is None, "%s out=: %s" % (name, why)
        if rng.random() < 0.3:
            p = bcast.plan(name, *arrs[:k])
            with np.errstate(all="ignore"):
                again = p(*arrs[:k])
            why = same_values(again, want)
            assert why is None, "plan %s: %s" % (name, why)

    def call_op_bad():
        name = rng.choice(bcast.OPS)
        fn = getattr(bcast, name)
        args = [rand_input(rand_shape(rng)) if rng.random() < 0.6 else garbage()
                for _ in range(rng.randint(0, 4))]
        kw = rng.choice([{}, {"out": garbage()}, {"profile": garbage()},
                         {"threads": rng.choice([-1, 0, 1, 2, 10 ** 6])},
                         {"checked": True}, {"bogus": 1},
                         {"out": np.zeros((3, 3), dtype=rng.choice(DTYPES))},
                         {"profile": "tosa"}, {"shift": rng.randint(-2, 70)},
                         {"min_val": garbage()}])
        try:
            with np.errstate(all="ignore"):
                fn(*args, **kw)
        except allowed:
            counts["raised"] += 1

    def call_mlir():
        text = mlir_text(rng, corpus).decode("utf-8", "replace")
        try:
            res = bcast.verify_mlir(text, profile=rng.choice([None, "trait", "mlir"]))
            assert isinstance(res, list)
        except allowed:
            counts["raised"] += 1
        try:
            assert isinstance(bcast.lower(text, assert_broadcast=rng.random() < 0.3), str)
        except allowed:
            counts["raised"] += 1

    def call_tiles():
        shapes, out = broadcastable(rng, rng.randint(1, 3), big=True)
        budget = rng.choice([1, 8, 64, 512, 4096, 1 << 20])
        try:
            boxes = bcast.tiles(out, shapes, budget)
        except bcast.BudgetError:
            return
        total = 0
        for lo, hi in boxes:
            total += int(np.prod([h - l for l, h in zip(lo, hi)]))
            for s in shapes:
                bcast.input_box(s, out, lo, hi)
        want = int(np.prod(out)) if out else 1
        assert total == want or (want == 0 and not boxes), \
            "tiles%s cover %d elements of %d" % ((out, shapes, budget), total, want)
        if rng.random() < 0.2:
            try:
                bcast.tiles(garbage(), [garbage()], garbage())
            except allowed:
                counts["raised"] += 1

    calls = [call_shapes, call_views, call_views_bad, call_op, call_op,
             call_op_bad, call_mlir, call_tiles]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        fn = rng.choice(calls)
        counts[fn.__name__] += 1
        try:
            fn()
        except AssertionError as e:
            problems.append("%s: %s" % (fn.__name__, e))
        except Exception as e:
            problems.append("%s: unexpected %s: %s" % (fn.__name__, type(e).__name__, e))
        if len(problems) > 20:
            break
    summary = {k: v for k, v in counts.items()}
    summary["raised allowed"] = summary.pop("raised", 0)
    print("soak-python " + json.dumps(summary))
    for p in problems:
        print("PROBLEM (seed %d): %s" % (seed, p))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
