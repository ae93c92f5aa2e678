"""Pieces the differential tests in tests/diff share: where mlir-opt and
mlir-runner 22 live and how they are called, the --bcast / --seed command
line, running a program, and counting checks.

Imported, not run: CMake runs only tests/diff/test_*.py.  A script's own
folder is on sys.path, so `import common` finds this file."""

import argparse
import contextlib
from decimal import Decimal
import os
import pty
import random
import select
import subprocess
import tempfile

LLVM = "/usr/lib/llvm-22"
MLIR_OPT = LLVM + "/bin/mlir-opt"
MLIR_RUNNER = LLVM + "/bin/mlir-runner"
RUNNER_LIBS = (LLVM + "/lib/libmlir_runner_utils.so.22.1," +
               LLVM + "/lib/libmlir_c_runner_utils.so.22.1")
# The documented pipeline for `bcast lower` output: TOSA leftovers
# (tosa.const, tosa.apply_scale) to arith, tensors to buffers across
# function boundaries, loops, then LLVM.
LLVM_PIPELINE = ("builtin.module(func.func(tosa-to-arith{include-apply-rescale=true}),"
                 "one-shot-bufferize{bufferize-function-boundaries},"
                 "func.func(convert-linalg-to-loops),convert-scf-to-cf,"
                 "expand-strided-metadata,lower-affine,finalize-memref-to-llvm,"
                 "convert-math-to-llvm,convert-math-to-libm,convert-arith-to-llvm,"
                 "convert-index-to-llvm,convert-cf-to-llvm,convert-func-to-llvm,"
                 "reconcile-unrealized-casts)")


# mlir-opt 22's own lowering of TOSA, before LLVM_PIPELINE.
MLIR_OWN = ("builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,"
            "tosa-to-arith{include-apply-rescale=true},tosa-to-tensor))")


# mlir-opt 22's tosa-to-linalg alone (the 8-bit float tests compare its
# linalg bodies with bcast's).
TOSA_TO_LINALG = "builtin.module(func.func(tosa-to-linalg))"


def exact_decimal(v):
    """v's exact decimal value in MLIR's float literal form (d.ddd e N):
    mlir-opt parses it as a literal of a narrower float type with one
    rounding to nearest even (APFloat), from the exact value."""
    t = Decimal(v).as_tuple()
    digits = "".join(map(str, t.digits)).lstrip("0") or "0"
    exp = t.exponent + len(digits) - 1
    return ("-" if t.sign else "") + digits[0] + "." + (digits[1:] or "0") + f"e{exp}"


def linalg_bodies(text):
    """func name -> (block arguments, body lines, yielded value) of each
    function's linalg.generic in TEXT."""
    import re
    out, cur, body, args = {}, None, None, None
    for line in text.splitlines():
        m = re.match(r"\s*func\.func (?:private )?@(\w+)", line)
        if m:
            cur = m.group(1)
            continue
        m = re.match(r"\s*\^bb0\((.*)\):", line)
        if m and cur:
            args = re.findall(r"(%[\w$.\-]+): ", m.group(1))
            body = []
            continue
        m = re.match(r"\s*linalg\.yield (%[\w$.\-]+)", line)
        if m and body is not None:
            out[cur] = (args, body, m.group(1))
            body = None
            continue
        if body is not None:
            body.append(line.strip())
    return out


def body_ops(args, body):
    """The op sequence of a linalg body, block arguments numbered and
    constants as their values: a form two writers of the same IR share."""
    import re
    names = {a: f"arg{k}" for k, a in enumerate(args)}
    seq, count = [], len(args)
    for line in body:
        m = re.match(r"(%[\w$.\-]+) = ([\w.]+)(.*)", line)
        op, rest = m.group(2), m.group(3)
        # An unrealized cast of a type to itself (MLIR's unsigned lowerings
        # write one on the signless view) is its operand.
        same = re.fullmatch(r" (%[\w$.\-]+) : (\S+) to (\S+)", rest)
        if op == "builtin.unrealized_conversion_cast" and same and same.group(2) == same.group(3):
            names[m.group(1)] = names.get(same.group(1), "?")
            continue
        names[m.group(1)] = f"v{count}"
        count += 1
        if op == "arith.constant":
            lit, _, ty = rest.strip().rpartition(" : ")
            val = lit if lit.startswith("0x") or ty.startswith("i") else repr(float(lit))
            seq.append(("const", val, ty))
        else:
            rest = re.sub(r"%[\w$.\-]+", lambda k: names.get(k.group(0), "?"), rest)
            seq.append((op, rest.strip()))
    return seq


def lower_both(bcast, wd, src, check):
    """Writes SRC to WD/lower.mlir and lowers it with mlir-opt's
    tosa-to-linalg and `bcast lower`; checks both succeed and returns the
    two texts' linalg bodies (mlir-opt's, bcast's), or None."""
    path = os.path.join(wd, "lower.mlir")
    with open(path, "w") as f:
        f.write(src)
    own = mlir_opt(path, pipeline=TOSA_TO_LINALG)
    ours = bcast_text(bcast, ["lower", path])
    check(own.returncode == 0 and ours.returncode == 0, "both lower every case",
          own.stderr[-2000:] + ours.stderr[-2000:])
    if own.returncode or ours.returncode:
        return None
    return linalg_bodies(own.stdout), linalg_bodies(ours.stdout)


def print_bits_lines(p, value, shape, et):
    """Lines of a function body that print tensor VALUE (static SHAPE,
    element type ET) through printMemrefI64 as the i64 bit patterns of its
    elements (floats as their bits, integers sign-extended, i1 as 0 / 1);
    names start with P."""
    dims = "".join("%dx" % d for d in shape)
    t, ti, mref = ("tensor<%s%s>" % (dims, et), "tensor<%si64>" % dims,
                   "memref<%si64>" % dims)
    iv = ", ".join("d%d" % d for d in range(len(shape)))
    idm = "affine_map<(%s) -> (%s)>" % (iv, iv)
    conv = {"f64": ["{p}_y = arith.bitcast {p}_b : f64 to i64"],
            "f32": ["{p}_z = arith.bitcast {p}_b : f32 to i32",
                    "{p}_y = arith.extui {p}_z : i32 to i64"],
            "f16": ["{p}_z = arith.bitcast {p}_b : f16 to i16",
                    "{p}_y = arith.extui {p}_z : i16 to i64"],
            "bf16": ["{p}_z = arith.bitcast {p}_b : bf16 to i16",
                     "{p}_y = arith.extui {p}_z : i16 to i64"],
            "i1": ["{p}_y = arith.extui {p}_b : i1 to i64"],
            "i64": ["{p}_y = arith.addi {p}_b, {p}_zero : i64"]}.get(
                et, ["{p}_y = arith.extsi {p}_b : %s to i64" % et])
    L = ["  %s_zero = arith.constant 0 : i64" % p,
         "  %s_e = tensor.empty() : %s" % (p, ti),
         "  %s_i = linalg.generic {indexing_maps = [%s, %s], iterator_types = [%s]} "
         "ins(%s : %s) outs(%s_e : %s) {" % (p, idm, idm,
                                             ", ".join(['"parallel"'] * len(shape)),
                                             value, t, p, ti),
         "  ^bb0(%s_b: %s, %s_o: i64):" % (p, et, p)]
    L += ["    " + c.format(p=p) for c in conv]
    L += ["    linalg.yield %s_y : i64" % p, "  } -> %s" % ti,
          "  %s_m = bufferization.to_buffer %s_i : %s to %s" % (p, p, ti, mref),
          "  %s_u = memref.cast %s_m : %s to memref<*xi64>" % (p, p, mref),
          "  call @printMemrefI64(%s_u) : (memref<*xi64>) -> ()" % p]
    return L


# Unsigned tensors: both lowerings view them as signless through
# builtin.unrealized_conversion_cast at the function boundary, which is not
# executable.  A @main that feeds them the same way (signless values cast to
# the unsigned type, the result cast back) calls private functions: inlined,
# every cast meets its inverse and reconcile-unrealized-casts cancels the
# pairs before bufferization.
VIEWS = "builtin.module(inline,reconcile-unrealized-casts)"


def run_lowered(text, wd, tag, pre=None, views=False):
    """Runs @main of module TEXT (written to WD/TAG.mlir): through PRE
    first when given (MLIR_OWN: mlir-opt's own lowering), then VIEWS when
    views is set, then LLVM_PIPELINE and mlir-runner.  Returns the values
    of each printed memref, in order, and "" -- or None and what failed."""
    import re
    path = os.path.join(wd, tag + ".mlir")
    with open(path, "w") as f:
        f.write(text)
    for step, passes in (("pre", pre), ("views", VIEWS if views else None)):
        if not passes:
            continue
        r = mlir_opt(path, pipeline=passes)
        if r.returncode:
            return None, r.stderr[-3000:]
        path = os.path.join(wd, "%s.%s.mlir" % (tag, step))
        with open(path, "w") as f:
            f.write(r.stdout)
    r = mlir_opt(path, pipeline=LLVM_PIPELINE)
    if r.returncode:
        return None, r.stderr[-3000:]
    llvm = os.path.join(wd, tag + ".llvm.mlir")
    with open(llvm, "w") as f:
        f.write(r.stdout)
    r = mlir_runner(llvm)
    if r.returncode:
        return None, r.stdout[-2000:] + r.stderr[-2000:]
    blocks = r.stdout.split("Unranked Memref")[1:]
    return [[int(v) for v in re.findall(r"-?\d+", b.split("data =", 1)[1])]
            for b in blocks], ""


def executable(*paths):
    return all(os.access(p, os.X_OK) for p in paths)


def missing(path, message):
    """False when PATH is an executable; else prints MESSAGE (with the path
    for %s) and a failed count, for the caller to return 1."""
    if executable(path):
        return False
    print(message % path)
    print("0 passed, 1 failed")
    return True


def add_mlir_opt_args(ap):
    """Adds --mlir-opt PATH and --keep DIR to AP, for a test that writes
    .mlir files for bcast and mlir-opt to read."""
    ap.add_argument("--mlir-opt", default=MLIR_OPT)
    ap.add_argument("--keep", help="write the generated .mlir files to this "
                    "directory instead of a temporary one")


def tools_missing(args):
    """True, after saying which, when args.bcast or args.mlir_opt is not an
    executable (the caller returns 1)."""
    return (missing(args.bcast, "bcast binary not found or not executable: %s") or
            missing(args.mlir_opt, "mlir-opt not found at %s (package mlir-22-tools); "
                    "the differential test cannot run"))


@contextlib.contextmanager
def work_dir(keep, prefix):
    """The folder for generated files: KEEP (made if missing) when given,
    else a temporary one named PREFIX..., removed on leaving."""
    if keep:
        os.makedirs(keep, exist_ok=True)
        yield keep
    else:
        with tempfile.TemporaryDirectory(prefix=prefix) as tmpdir:
            yield tmpdir


def save_npys(wd, stem, arrays):
    """Saves arrays as WD/STEM_0.npy, WD/STEM_1.npy, ... and returns the
    paths (the inputs of a `bcast run` line)."""
    import numpy as np
    paths = []
    for k, x in enumerate(arrays):
        path = os.path.join(wd, f"{stem}_{k}.npy")
        np.save(path, x)
        paths.append(path)
    return paths


def run_text(argv, text=None):
    """Runs ARGV with TEXT on stdin; a CompletedProcess of str."""
    return subprocess.run(argv, input=text, capture_output=True, text=True)


def bcast_text(bcast, args, text=None):
    return run_text([bcast] + list(args), text)


def lowers_alike(check, bcast, path, label):
    """Checks that `bcast lower` succeeds on path exactly where mlir-opt's
    own tosa-to-linalg does; returns whether mlir-opt lowers it."""
    ml = mlir_opt(path, pipeline=TOSA_TO_LINALG).returncode == 0
    bl = bcast_text(bcast, ["lower", path])
    check(ml == (bl.returncode == 0),
          f"lower {label}: mlir-opt {ml}, bcast {bl.returncode == 0}",
          bl.stderr[-500:])
    return ml


def mlir_opt(path="-", pipeline=None, text=None):
    """mlir-opt [--pass-pipeline=PIPELINE] PATH (TEXT on stdin for "-")."""
    argv = [MLIR_OPT] + (["--pass-pipeline=" + pipeline] if pipeline else []) + [path]
    return run_text(argv, text)


def mlir_runner(llvm_path, entry="main"):
    """Runs ENTRY of an LLVM-dialect file with the runner libraries; stdout
    is unbuffered so a crash keeps what was printed before it."""
    return run_text(["stdbuf", "-o0", MLIR_RUNNER, llvm_path, "-e", entry,
                     "-entry-point-result=void", "-shared-libs=" + RUNNER_LIBS])


def run(argv, stdin=None, timeout=60):
    """Runs ARGV with bytes STDIN; (exit status, stdout, stderr) as text.
    Past TIMEOUT seconds the exit status is None and stderr says so."""
    try:
        p = subprocess.run(argv, input=stdin, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "", "(timed out after %d s)" % timeout
    return (p.returncode, p.stdout.decode("utf-8", "replace"),
            p.stderr.decode("utf-8", "replace"))


def parser(doc=None, seed=None):
    """An argument parser with --bcast PATH and, when SEED is given,
    --seed N|random whose default is SEED (a number, or a function that
    returns one).  Read it with parse_args()."""
    ap = argparse.ArgumentParser(description=doc)
    ap.add_argument("--bcast", required=True, help="path to the bcast binary")
    ap.add_argument("--scale", type=float, default=1.0,
                    help="multiply the counts of random cases (the sanitizer "
                         "run uses less than 1: it looks for memory errors, "
                         "the release run for wrong values)")
    if seed is not None:
        ap.add_argument("--seed", default=None,
                        help="random seed, or 'random' for a fresh one")
    ap.seed_default = seed
    return ap


def parse_args(ap):
    """ap.parse_args() with --seed turned into a number and args.scaled(n),
    the count n times --scale (at least 1)."""
    args = ap.parse_args()
    if not args.scale > 0:
        ap.error("--scale must be a positive number, not %r" % args.scale)
    args.scaled = lambda n: max(1, int(round(n * args.scale)))
    default = ap.seed_default
    if default is not None:
        if args.seed is None:
            args.seed = default() if callable(default) else default
        elif args.seed == "random":
            args.seed = random.SystemRandom().randrange(1 << 31)
        else:
            args.seed = int(args.seed)
    return args


class Tally:
    """Counts passed and failed checks and prints failures: the first
    MOST_SHOWN of them (all when None), detail lines cut to WIDTH."""

    def __init__(self, most_shown=None, width=None):
        self.passed = 0
        self.failed = 0
        self.shown = 0
        self.most_shown = most_shown
        self.width = width

    def ok(self):
        self.passed += 1

    def fail(self, title, details=""):
        self.failed += 1
        if self.most_shown is not None and self.shown >= self.most_shown:
            if self.shown == self.most_shown:
                self.shown += 1
                print("(further failures are counted but not shown)")
            return
        self.shown += 1
        print("FAIL: " + title)
        if not details:
            return
        for line in str(details).rstrip("\n").split("\n"):
            print("    " + (line if self.width is None else line[:self.width]))

    def check(self, cond, title, details=""):
        if cond:
            self.ok()
        else:
            self.fail(title, details)
        return cond

    def summary(self, replay=None):
        """Prints REPLAY when anything failed, then the counts; the exit
        status."""
        if self.failed and replay:
            print(replay)
        print("%d passed, %d failed" % (self.passed, self.failed))
        return 1 if self.failed else 0


def run_pty(argv, stderr_tty=True):
    """Runs ARGV with stderr on a pseudo-terminal (or a pipe); returns
    (exit status, stderr bytes)."""
    if not stderr_tty:
        p = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        return p.returncode, p.stderr
    master, slave = pty.openpty()
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    data = b''
    while True:
        ready, _, _ = select.select([master], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        data += chunk
    os.close(master)
    return p.wait(), data
