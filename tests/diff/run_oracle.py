"""Shared machinery of the `bcast run` differential tests (test_run_tosa.py,
test_run_numpy.py): random shapes and values, a batch runner that writes all
inputs first and runs the cases in parallel, and comparators (exact, ulp /
absolute error bounds against an fp64 reference).

Written from the issue text and the TOSA semantics reference
(shared/research/tosa-op-semantics.md), not from the implementation.
"""
import concurrent.futures
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

import common

DT_NAME = {'?': 'bool', 'i1': 'int8', 'i2': 'int16', 'i4': 'int32', 'i8': 'int64',
           'u1': 'uint8', 'u2': 'uint16', 'u4': 'uint32', 'u8': 'uint64',
           'f2': 'float16', 'f4': 'float32', 'f8': 'float64'}


def dt(code):
    return np.dtype(code)


def name_of(d):
    d = np.dtype(d)
    return DT_NAME.get(d.kind + str(d.itemsize) if d.kind != 'b' else '?', str(d))


# ---------------------------------------------------------------- values

def int_boundaries(d):
    info = np.iinfo(d)
    vals = {info.min, info.min + 1, info.max, info.max - 1, 0, 1, 2, 3, 7,
            info.max // 2, info.max // 2 + 1}
    if info.min < 0:
        vals |= {-1, -2, -3, -7, info.min // 2, info.min // 2 - 1}
    bits = d.itemsize * 8
    if bits >= 16:
        vals |= {1 << (bits // 2), (1 << (bits // 2)) - 1}
        if info.min < 0:
            vals |= {-(1 << (bits // 2))}
    return sorted(v for v in vals if info.min <= v <= info.max)


def float_boundaries(d):
    fi = np.finfo(d)
    sub = float(fi.smallest_subnormal)
    tiny = float(fi.tiny)
    vals = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 3.5, 0.25,
            float('inf'), float('-inf'), float('nan'),
            float(fi.max), -float(fi.max), tiny, -tiny, sub, -sub,
            tiny - sub, -(tiny - sub), 2 * sub, float(fi.eps), 1 + float(fi.eps),
            1 - float(fi.epsneg), 100.0, -100.0, 1e4, -3e4]
    return np.array(vals, dtype=np.float64).astype(d)


def boundaries(d):
    d = np.dtype(d)
    if d.kind == 'b':
        return np.array([False, True])
    if d.kind in 'iu':
        return np.array(int_boundaries(d), dtype=d)
    return float_boundaries(d)


def random_values(rng, d, shape, p_boundary=0.2, kind='any'):
    """Random array of dtype d: a mix of small, wide-range and boundary values."""
    d = np.dtype(d)
    n = int(np.prod(shape, dtype=np.int64))
    if d.kind == 'b':
        return rng.random(n).reshape(shape) < 0.5
    if d.kind in 'iu':
        info = np.iinfo(d)
        lo, hi = int(info.min), int(info.max)
        a = rng.integers(lo, hi, size=n, dtype=d, endpoint=True)
        small = rng.integers(max(lo, -20), min(hi, 20), size=n, endpoint=True).astype(d)
        pick = rng.random(n)
        a = np.where(pick < 0.3, small, a)
        b = boundaries(d)
        a = np.where(rng.random(n) < p_boundary, b[rng.integers(0, len(b), n)], a)
        return a.astype(d).reshape(shape)
    fi = np.finfo(d)
    maxexp = np.log2(float(fi.max))
    minexp = np.log2(float(fi.smallest_subnormal))
    e = rng.uniform(minexp, maxexp, n)
    wide = np.exp2(e) * np.where(rng.random(n) < 0.5, -1.0, 1.0)
    small = rng.uniform(-10, 10, n)
    halves = np.round(rng.uniform(-20, 20, n)) + rng.choice([0.0, 0.5], n)
    pick = rng.random(n)
    a = np.where(pick < 0.4, small, np.where(pick < 0.7, wide, halves))
    if kind == 'small':
        a = np.where(pick < 0.7, small, halves)
    a = a.astype(d)
    b = boundaries(d)
    a = np.where(rng.random(n) < p_boundary, b[rng.integers(0, len(b), n)], a)
    return a.astype(d).reshape(shape)


# ---------------------------------------------------------------- shapes

SMALL_DIMS = [1, 1, 2, 3, 4, 5]
# long rows reach the vector kernels, their tails and the threaded paths
BIG_DIMS = [1, 2, 3, 7, 8, 15, 16, 17, 31, 33, 64, 65, 127, 255, 1000, 4099]


def pick_dims(rng, rank, big):
    if not big:
        return [int(rng.choice(SMALL_DIMS)) for _ in range(rank)]
    out = [int(rng.choice(BIG_DIMS)) if rng.random() < 0.3 else int(rng.choice(SMALL_DIMS))
           for _ in range(rank)]
    if rank:
        out[int(rng.integers(0, rank))] = int(rng.choice([255, 1000, 4099, 20011, 100003, 250007]))
    return out


def tosa_shapes(rng, nin, max_elems=3000, big=False):
    """Equal-rank broadcast shapes, rank 0..6, every dim >= 1."""
    while True:
        rank = int(rng.integers(1, 4)) if big else int(rng.integers(0, 7))
        out = pick_dims(rng, rank, big)
        if np.prod(out, dtype=np.int64) > max_elems:
            continue
        ins = []
        for _ in range(nin):
            ins.append(tuple(o if rng.random() < 0.6 else 1 for o in out))
        real = tuple(max([s[i] for s in ins]) if ins else 1 for i in range(rank))
        return ins, real


def numpy_shapes(rng, nin, max_elems=3000, big=False):
    """NumPy broadcast shapes: ranks may differ (right-aligned), size-0 dims."""
    while True:
        rank = int(rng.integers(1, 4)) if big else int(rng.integers(0, 7))
        out = pick_dims(rng, rank, big)
        if not big and rng.random() < 0.25:
            out = [0 if rng.random() < 0.15 else o for o in out]
        if np.prod(out, dtype=np.int64) > max_elems:
            continue
        ins = []
        for _ in range(nin):
            r = int(rng.integers(0, rank + 1)) if rng.random() < 0.5 else rank
            sub = out[rank - r:]
            ins.append(tuple(o if rng.random() < 0.6 else 1 for o in sub))
        real = np.broadcast_shapes(*ins) if ins else ()
        return ins, tuple(real)


def bcast_index(arr_shape, out_idx):
    """Index into an input of shape arr_shape for output index out_idx (right-aligned)."""
    r = len(arr_shape)
    off = len(out_idx) - r
    return tuple(0 if arr_shape[k] == 1 else out_idx[off + k] for k in range(r))


def fix_where(arr, out_shape, mask, value):
    """Set arr's elements that feed the output positions in mask to value."""
    mask = np.broadcast_to(mask, out_shape)
    if not mask.any():
        return
    if mask.ndim == 0:
        arr[()] = value
        return
    idx = np.nonzero(mask)
    off = len(out_shape) - arr.ndim
    ai = tuple(np.zeros_like(idx[off + k]) if arr.shape[k] == 1 else idx[off + k]
               for k in range(arr.ndim))
    arr[ai] = value


# ---------------------------------------------------------------- accuracy

def ulp(ref, d):
    """TOSA ulp(ref) = 2^(floor(log2|ref|) - mantissa_bits), |ref| floored at
    the type's smallest normal (tosa_reference_check.tosac)."""
    fi = np.finfo(d)
    a = np.abs(np.asarray(ref, dtype=np.float64))
    a = np.where(np.isfinite(a), np.maximum(a, float(fi.tiny)), float(fi.max))
    _, e = np.frexp(a)
    return np.ldexp(1.0, (e - 1 - fi.nmant).astype(np.int64))


def abs_error_bound(ref, k, lo, d, div=1):
    """calcAbsErrorBound(mag, k, lo, div) ~ k * 2^(-m/div) * max(|mag|, normal_min, lo/k)."""
    fi = np.finfo(d)
    k = np.asarray(k, dtype=np.float64)
    with np.errstate(divide='ignore', invalid='ignore'):
        lok = np.where(k > 0, lo / np.where(k > 0, k, 1), 0.0)
    mag = np.maximum(np.maximum(np.abs(ref), float(fi.tiny)), lok)
    return k * 2.0 ** (-fi.nmant / div) * mag


# ---------------------------------------------------------------- expectations

class Exact:
    """Bitwise-equal values (NaN matches any NaN; signed zero optional)."""

    def __init__(self, expected, signed_zero=True):
        self.exp = np.asarray(expected)
        self.dtype = self.exp.dtype
        self.shape = self.exp.shape
        self.signed_zero = signed_zero

    def ok(self, got):
        e = self.exp
        if e.dtype.kind == 'f':
            with np.errstate(invalid='ignore'):
                m = (e == got) | (np.isnan(e) & np.isnan(got))
            if self.signed_zero:
                m &= (np.signbit(e) == np.signbit(got)) | np.isnan(e)
            return m
        return e == got

    def describe(self, idx):
        return repr(self.exp[idx].item()) if self.exp.ndim else repr(self.exp.item())


class Tol:
    """|got - ref| <= bound against an fp64 reference (TOSA reference check):
    ref NaN -> any NaN; ref infinite -> exactly that infinity; |ref| above
    the type's largest finite value -> the same-signed infinity is also
    accepted.  sign_mask marks positions where the sign of a zero result is
    prescribed."""

    def __init__(self, ref, bound, dtype, sign_mask=None):
        self.ref = np.asarray(ref, dtype=np.float64)
        self.bound = np.where(np.isfinite(bound), bound, 0.0)
        self.dtype = np.dtype(dtype)
        self.shape = self.ref.shape
        self.sign_mask = sign_mask

    def ok(self, got):
        g = got.astype(np.float64)
        r = self.ref
        fmax = float(np.finfo(self.dtype).max)
        with np.errstate(invalid='ignore', over='ignore'):
            m = np.abs(g - r) <= self.bound
            m &= ~np.isinf(r) & ~np.isnan(g)
            m |= np.isnan(r) & np.isnan(g)
            m |= np.isinf(r) & (g == r)
            m |= np.isfinite(r) & (np.abs(r) > fmax) & np.isinf(g) & (np.sign(g) == np.sign(r))
        if self.sign_mask is not None:
            sm = np.broadcast_to(self.sign_mask, self.shape)
            m &= ~sm | (np.signbit(g) == np.signbit(r))
        return m

    def describe(self, idx):
        idx = idx if self.ref.ndim else ()
        return '%r (fp64 ref, allowed error %.3g)' % (self.ref[idx].item(), self.bound[idx].item())


def within_ulps(ref, n_ulp, d):
    """REF within N_ULP ulps of dtype D, zeros and infinities with REF's sign
    (reciprocal, rsqrt)."""
    return Tol(ref, n_ulp * ulp(ref, d), d, sign_mask=(ref == 0) | np.isinf(ref))


class Pred:
    """A custom element predicate: ok_fn(got) -> mask; desc_fn(idx) -> str."""

    def __init__(self, dtype, shape, ok_fn, desc_fn):
        self.dtype = np.dtype(dtype)
        self.shape = tuple(shape)
        self.ok = ok_fn
        self.describe = desc_fn


# ---------------------------------------------------------------- cases

class Scalar:
    """A scalar operand: passed to `bcast run` as its literal text."""

    dtype = np.dtype(object)
    shape = ()
    ndim = 0

    def __init__(self, text, value):
        self.text = text
        self.value = value

    def __getitem__(self, idx):
        return np.asarray(self.value)


class Case:
    def __init__(self, op, inputs, expect=None, attrs=(), profile=None, checked=False,
                 label='', rc=0, err_all=(), err_any=(), err_re=(), orders=None,
                 deterministic=False, types=None):
        self.op = op
        self.types = types            # --types (element-type tables)
        self.inputs = [a if isinstance(a, Scalar) else np.asarray(a) for a in inputs]
        self.expect = expect
        self.attrs = list(attrs)
        self.profile = profile
        self.checked = checked
        self.label = label
        self.rc = rc                  # expected exit status (int or tuple)
        self.err_all = err_all        # substrings that must all be in stderr (case-insensitive)
        self.err_any = err_any        # groups: each group needs one of its substrings
        self.err_re = err_re          # regexes that must match stderr
        self.orders = orders or ['C'] * len(self.inputs)
        self.deterministic = deterministic  # run twice, outputs byte-identical
        self.files = []
        self.out = None

    def argv(self, bcast, out):
        a = [bcast, 'run', self.op] + self.files + ['-o', out]
        for at in self.attrs:
            a += ['--attr', at]
        if self.profile:
            a += ['--profile', self.profile]
        if self.types:
            a += ['--types', self.types]
        if self.checked:
            a += ['--checked']
        return a


def save_input(path, arr, order):
    if order == 'F' and arr.ndim >= 1:     # asfortranarray makes 0-d arrays 1-d
        arr = np.asfortranarray(arr)
    elif order == 'N' and arr.ndim >= 1 and arr.size > 0:
        big = np.repeat(arr, 2, axis=arr.ndim - 1)
        arr = big[..., ::2]
    elif order == 'B':
        arr = arr.astype(arr.dtype.newbyteorder('>'))
    np.save(path, arr)


def fmt_val(v):
    v = np.asarray(v)
    if v.dtype.kind == 'f':
        return '%r' % v.item()
    return repr(v.item())


class Harness(common.Tally):
    def __init__(self, bcast, seed, script, jobs=None, keep=False, only=None,
                 scale=1.0):
        super().__init__()
        self.scale = scale
        self.bcast = os.path.abspath(bcast)
        self.seed = seed
        self.script = script
        self.jobs = jobs or max(2, (os.cpu_count() or 2) * 2)
        self.keep = keep
        self.only = only
        self.cases = []
        self.tmp = tempfile.mkdtemp(prefix='bcast-run-diff-')

    def add(self, case):
        self.cases.append(case)
        return case

    def replay(self, k):
        return '%s --case %d --keep' % (self.replay_all(), k)

    def replay_all(self):
        return '/usr/bin/python3 %s --bcast %s --seed %d --scale %g' % (
            self.script, self.bcast, self.seed, self.scale)

    def _run_one(self, k):
        c = self.cases[k]
        out = os.path.join(self.tmp, 'c%d_out.npy' % k)
        argv = c.argv(self.bcast, out)
        try:
            p = subprocess.run(argv, capture_output=True, timeout=60)
            res = (p.returncode, p.stdout.decode('utf-8', 'replace'),
                   p.stderr.decode('utf-8', 'replace'))
        except subprocess.TimeoutExpired:
            res = (-999, '', 'TIMEOUT')
        second = None
        if c.deterministic and res[0] == 0:
            out2 = os.path.join(self.tmp, 'c%d_out2.npy' % k)
            p2 = subprocess.run(c.argv(self.bcast, out2), capture_output=True, timeout=60)
            second = (p2.returncode, out2)
        return argv, out, res, second

    def run_all(self):
        t0 = time.time()
        todo = range(len(self.cases)) if self.only is None else [self.only]
        for k in todo:
            c = self.cases[k]
            c.files = []
            for j, (a, o) in enumerate(zip(c.inputs, c.orders)):
                if isinstance(a, Scalar):
                    c.files.append(a.text)
                    continue
                f = os.path.join(self.tmp, 'c%d_in%d.npy' % (k, j))
                save_input(f, a, o)
                c.files.append(f)
        with concurrent.futures.ThreadPoolExecutor(self.jobs) as ex:
            results = list(ex.map(self._run_one, todo))
        for k, (argv, out, res, second) in zip(todo, results):
            self._judge(k, argv, out, res, second)
        if not self.keep:
            shutil.rmtree(self.tmp, ignore_errors=True)
        else:
            print('kept temp dir %s' % self.tmp)
        return time.time() - t0

    def _fail(self, k, argv, msg):
        c = self.cases[k]
        self.failed += 1
        print('FAIL case %d [%s] op=%s profile=%s attrs=%s dtypes=%s shapes=%s' % (
            k, c.label, c.op, c.profile or '(default)', c.attrs,
            [name_of(a.dtype) for a in c.inputs], [a.shape for a in c.inputs]))
        for line in msg.rstrip().split('\n'):
            print('    ' + line)
        print('    cmd: ' + ' '.join(argv))
        print('    replay: ' + self.replay(k))

    def _judge(self, k, argv, out, res, second):
        c = self.cases[k]
        rc, so, se = res
        want = c.rc if isinstance(c.rc, tuple) else (c.rc,)
        if rc not in want:
            self._fail(k, argv, 'exit %d, expected %s\nstderr: %s' % (rc, '/'.join(map(str, want)), se.strip()[:600]))
            return
        low = se.lower()
        for s in c.err_all:
            if s.lower() not in low:
                self._fail(k, argv, 'stderr lacks %r\nstderr: %s' % (s, se.strip()[:600]))
                return
        for grp in c.err_any:
            if not any(s.lower() in low for s in grp):
                self._fail(k, argv, 'stderr names none of %r\nstderr: %s' % (grp, se.strip()[:600]))
                return
        for rx in c.err_re:
            if not re.search(rx, se, re.I):
                self._fail(k, argv, 'stderr does not match /%s/\nstderr: %s' % (rx, se.strip()[:600]))
                return
        if rc != 0:
            self.passed += 1
            return
        if second is not None:
            rc2, out2 = second
            b1 = open(out, 'rb').read() if os.path.exists(out) else None
            b2 = open(out2, 'rb').read() if os.path.exists(out2) else None
            if rc2 != 0 or b1 is None or b1 != b2:
                self._fail(k, argv, 'two runs differ (second exit %d)' % rc2)
                return
        if c.expect is None:
            self.passed += 1
            return
        try:
            got = np.load(out)
        except Exception as e:  # noqa: BLE001
            self._fail(k, argv, 'cannot load output: %s' % e)
            return
        e = c.expect
        if got.dtype != e.dtype or got.shape != tuple(e.shape):
            self._fail(k, argv, 'output %s %s, expected %s %s' % (
                got.dtype.str, got.shape, np.dtype(e.dtype).str, tuple(e.shape)))
            return
        okm = np.asarray(e.ok(got))
        if okm.all():
            if isinstance(e, Exact) and e.signed_zero and not (
                    e.exp.dtype.kind == 'f' and np.isnan(e.exp).any()):
                # the result file is written with numpy.save's bytes (C order)
                buf = io.BytesIO()
                np.save(buf, e.exp.copy(order='C'))   # (ascontiguousarray makes 0-d 1-d)
                if open(out, 'rb').read() != buf.getvalue():
                    self._fail(k, argv, 'values equal but the file differs from numpy.save bytes')
                    return
            self.passed += 1
            return
        bad = np.argwhere(~np.broadcast_to(okm, got.shape))
        idx = tuple(int(i) for i in bad[0]) if got.ndim else ()
        ins = ', '.join('in%d=%s' % (j, fmt_val(a[bcast_index(a.shape, idx)]))
                        for j, a in enumerate(c.inputs))
        self._fail(k, argv, '%d of %d elements differ; first at index %s: %s\n'
                   'expected %s, got %s' % (
                       int((~okm).sum()), got.size, idx, ins, e.describe(idx),
                       fmt_val(got[idx])))


def parse_args(doc):
    ap = common.parser(doc, seed=20261122)  # fixed, so CI is reproducible
    ap.add_argument('--case', type=int, default=None, help='run only this case number')
    ap.add_argument('--keep', action='store_true', help='keep the temp dir')
    ap.add_argument('--reps', type=int, default=None, help='random cases per (op, type)')
    ap.add_argument('--jobs', type=int, default=None)
    return common.parse_args(ap)


def finish(h, elapsed):
    print('%d cases in %.1f s' % (len(h.cases) if h.only is None else 1, elapsed))
    print('replay: ' + h.replay_all())
    return h.summary()


def main_guard(fn):
    try:
        sys.exit(fn())
    except BrokenPipeError:
        sys.exit(1)
