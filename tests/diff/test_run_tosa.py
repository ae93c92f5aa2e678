#!/usr/bin/python3
"""Differential test of `bcast run` in the tosa profile against an independent
NumPy oracle built from the TOSA v1.0.2 rules summarized in
shared/research/tosa-op-semantics.md (cited below as "ref §N").

For every op x every element type the TOSA profile supports (bf16 cannot be
stored in .npy and is skipped): random equal-rank broadcast shapes (rank
0..6, size-1 dims) with random and boundary values kept inside TOSA's defined
domain, plus boundary-value outer products.  Integer results must be exact;
float results must lie within the reference's accuracy budgets against an
fp64 reference.  Then a table of the TOSA traps with exact expected values,
the ERROR_IF cases (rank mismatch, zero points, clamp bounds), and the
unpredictable cases: with --checked exit 1 naming op, index and values;
without, exit 0 and deterministic bytes.

Prints the seed; replay with --seed (and --case K --keep for one case).
"""
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import run_oracle as ro  # noqa: E402
from run_oracle import Case, Exact, Tol, Pred, ulp, abs_error_bound  # noqa: E402

I8, I16, I32 = np.dtype('i1'), np.dtype('i2'), np.dtype('i4')
F16, F32 = np.dtype('f2'), np.dtype('f4')
BOOL = np.dtype('?')

UNARY_F = ['ceil', 'floor', 'erf', 'exp', 'log', 'reciprocal', 'rsqrt', 'sigmoid', 'tanh',
           'sin', 'cos']
# ref §1 type columns (bf16 skipped: no .npy dtype)
TYPES = {
    'abs': [I32, F16, F32],
    'bitwise_not': [I8, I16, I32],
    'clamp': [I8, I16, F16, F32],
    'clz': [I32],
    'logical_not': [BOOL],
    'negate': [I8, I16, I32, F16, F32],
    'add': [I32, F16, F32],
    'sub': [I32, F16, F32],
    'arithmetic_right_shift': [I8, I16, I32],
    'bitwise_and': [I8, I16, I32],
    'bitwise_or': [I8, I16, I32],
    'bitwise_xor': [I8, I16, I32],
    'intdiv': [I32],
    'equal': [I32, F16, F32],
    'greater': [I32, F16, F32],
    'greater_equal': [I32, F16, F32],
    'logical_and': [BOOL],
    'logical_or': [BOOL],
    'logical_xor': [BOOL],
    'logical_left_shift': [I8, I16, I32],
    'logical_right_shift': [I8, I16, I32],
    'maximum': [I32, F16, F32],
    'minimum': [I32, F16, F32],
    'mul': [I8, I16, I32, F16, F32],
    'pow': [F16, F32],
    'select': [BOOL, I8, I16, I32, F16, F32],
}
for _op in UNARY_F:
    TYPES[_op] = [F16, F32]
UNARY = ['abs', 'bitwise_not', 'clamp', 'clz', 'logical_not', 'negate'] + UNARY_F
BINARY = ['add', 'sub', 'arithmetic_right_shift', 'bitwise_and', 'bitwise_or', 'bitwise_xor',
          'intdiv', 'equal', 'greater', 'greater_equal', 'logical_and', 'logical_or',
          'logical_xor', 'logical_left_shift', 'logical_right_shift', 'maximum', 'minimum',
          'mul', 'pow']
SHIFTS = ['arithmetic_right_shift', 'logical_left_shift', 'logical_right_shift']
# ref §2: CAST modes of v1.0.2 (PRO-INT / PRO-FP; bf16, fp8 skipped)
CAST_MODES = ([(BOOL, t) for t in (I8, I16, I32)] + [(t, BOOL) for t in (I8, I16, I32)] +
              [(I8, I16), (I8, I32), (I16, I8), (I16, I32), (I32, I8), (I32, I16)] +
              [(a, b) for a in (I8, I16, I32) for b in (F16, F32)] +
              [(a, b) for a in (F16, F32) for b in (I8, I16, I32)] +
              [(F16, F32), (F32, F16)])

NEGATE_ZP = ['input_zp', 'output_zp']   # names per the brief; probed at start


def bits(d):
    return d.itemsize * 8


def wrap(v, d):
    """Two's complement wrap of int64 values to dtype d."""
    b = bits(d)
    v = np.asarray(v, dtype=np.int64)
    if b == 64:
        return v.astype(d)
    m = (v & ((1 << b) - 1))
    return np.where(m >= (1 << (b - 1)), m - (1 << b), m).astype(d)


def f64(a):
    return np.asarray(a).astype(np.float64)


def attr_dict(attrs):
    return dict(a.split('=', 1) for a in attrs)


# ---------------------------------------------------------------- oracle

def bcast_all(ins):
    shape = np.broadcast_shapes(*[a.shape for a in ins])
    return shape, [np.broadcast_to(a, shape) for a in ins]


def expect(op, ins, attrs):
    """Expected result per ref §1 (inputs already inside the defined domain)."""
    at = attr_dict(attrs)
    shape, B = bcast_all(ins)
    d = ins[0].dtype
    fm = np.errstate(all='ignore')
    fm.__enter__()
    try:
        return _expect(op, ins, at, shape, B, d)
    finally:
        fm.__exit__(None, None, None)


def _expect(op, ins, at, shape, B, d):
    isf = d.kind == 'f'
    if op == 'cast':
        return expect_cast(ins[0], np.dtype(CAST_TO[at['to']]))
    if op in UNARY_F:
        x = f64(ins[0])
        b = 3.0 if d == F32 else 1.0
        if op in ('ceil', 'floor'):
            ref = np.ceil(x) if op == 'ceil' else np.floor(x)
            # 0.5 ulp; +-inf and +-0 preserved (ref §1 CEIL/FLOOR)
            return Tol(ref, 0.5 * ulp(ref, d), d, sign_mask=(x == 0) | np.isinf(x))
        if op == 'erf':
            ref = np.vectorize(math.erf, otypes=[np.float64])(x) if x.size else x
            return Tol(ref, 5 * ulp(ref, d), d)
        if op == 'exp':
            ref = np.exp(x)
            return Tol(ref, abs_error_bound(ref, b + 2 * np.abs(x), 0, d), d)
        if op == 'log':
            ref = np.log(x)
            return Tol(ref, abs_error_bound(ref, 5, 0.5, d), d)
        if op == 'reciprocal':
            return ro.within_ulps(1.0 / x, 1, d)
        if op == 'rsqrt':
            return ro.within_ulps(1.0 / np.sqrt(x), 2, d)
        if op == 'sigmoid':
            ref = 1.0 / (1.0 + np.exp(-x))
            return Tol(ref, abs_error_bound(ref, 2 * (1 + np.abs(x)), 0, d), d)
        if op == 'tanh':
            ref = np.tanh(x)
            return Tol(ref, abs_error_bound(ref, 4 * (b + 2 * np.abs(x)), 0.5, d), d)
        # TOSA 1.0 SIN / COS precision requirements (chapters/ewise_unary.adoc):
        # sin: max(calcAbsErrorBound(x, 2, 0, 2), pi * normal_min), the sign
        # of a zero kept; cos: calcAbsErrorBound(1 + |x|, 1, 0, 2).
        if op == 'sin':
            bnd = np.maximum(abs_error_bound(x, 2, 0, d, div=2),
                             math.pi * float(np.finfo(d).tiny))
            return Tol(np.sin(x), bnd, d, sign_mask=(x == 0))
        if op == 'cos':
            return Tol(np.cos(x), abs_error_bound(1 + np.abs(x), 1, 0, d, div=2), d)
    if op == 'abs':
        if isf:
            return Exact(np.abs(ins[0]))          # -0 -> +0, -inf -> +inf
        return Exact(np.abs(ins[0].astype(np.int64)).astype(d))
    if op == 'bitwise_not':
        return Exact(~ins[0])
    if op == 'logical_not':
        return Exact(~ins[0])
    if op == 'clz':
        x = ins[0].astype(np.int64) & 0xffffffff
        bl = np.zeros(x.shape, np.int64)
        y = x.copy()
        for _ in range(32):
            bl += (y != 0)
            y >>= 1
        return Exact((32 - bl).astype(I32))
    if op == 'negate':
        if isf:
            return Exact(-ins[0])                 # +0 <-> -0, +-inf swapped
        izp = int(at.get(NEGATE_ZP[0], 0))
        ozp = int(at.get(NEGATE_ZP[1], 0))
        info = np.iinfo(d)
        v = -(ins[0].astype(np.int64) - izp) + ozp
        return Exact(np.clip(v, info.min, info.max).astype(d))   # saturates (ref §1 NEGATE)
    if op == 'clamp':
        lo, hi = at['min_val'], at['max_val']
        if isf:
            lo, hi = float(lo), float(hi)
            x = f64(ins[0])
            r = np.minimum(np.maximum(x, lo), hi)   # max with min_val first, then min (ref §3.10)
            nan = np.isnan(x)
            if at.get('nan_mode', 'PROPAGATE') == 'IGNORE':
                r = np.where(nan, lo, r)
            return Exact(r.astype(d), signed_zero=False)
        x = ins[0].astype(np.int64)
        return Exact(np.minimum(np.maximum(x, int(lo)), int(hi)).astype(d))
    if op == 'select':
        return Exact(np.where(B[0], B[1], B[2]).astype(ins[1].dtype))
    a, b = B
    if op in ('equal', 'greater', 'greater_equal'):
        fn = {'equal': np.equal, 'greater': np.greater, 'greater_equal': np.greater_equal}[op]
        if isf:
            return Exact(fn(f64(a), f64(b)))
        return Exact(fn(a.astype(np.int64), b.astype(np.int64)))
    if op in ('logical_and', 'logical_or', 'logical_xor'):
        fn = {'logical_and': np.logical_and, 'logical_or': np.logical_or,
              'logical_xor': np.logical_xor}[op]
        return Exact(fn(a, b))
    if op in ('bitwise_and', 'bitwise_or', 'bitwise_xor'):
        fn = {'bitwise_and': np.bitwise_and, 'bitwise_or': np.bitwise_or,
              'bitwise_xor': np.bitwise_xor}[op]
        return Exact(fn(a, b).astype(d))
    if op in ('maximum', 'minimum'):
        if not isf:
            fn = np.maximum if op == 'maximum' else np.minimum
            return Exact(fn(a, b).astype(d))
        x, y = f64(a), f64(b)
        r = np.fmax(x, y) if op == 'maximum' else np.fmin(x, y)   # non-NaN of the two
        if at.get('nan_mode', 'PROPAGATE') != 'IGNORE':
            r = np.where(np.isnan(x) | np.isnan(y), np.nan, r)
        return Exact(r.astype(d), signed_zero=False)   # either zero ok (ref §1)
    if op in ('add', 'sub'):
        if isf:
            ref = f64(a) + f64(b) if op == 'add' else f64(a) - f64(b)
            return Tol(ref, 0.5 * ulp(ref, d), d)
        r = a.astype(np.int64) + b.astype(np.int64) if op == 'add' else \
            a.astype(np.int64) - b.astype(np.int64)
        return Exact(r.astype(d))
    if op == 'mul':
        if isf:
            ref = f64(a) * f64(b)
            return Tol(ref, 0.5 * ulp(ref, d), d)
        return Exact(mul_ref(a, b, int(at.get('shift', 0))))
    if op == 'intdiv':
        x, y = a.astype(np.int64), b.astype(np.int64)
        q = np.abs(x) // np.abs(y)
        return Exact(np.where((x < 0) != (y < 0), -q, q).astype(d))   # truncation
    if op == 'arithmetic_right_shift':
        x, s = a.astype(np.int64), b.astype(np.int64)
        r = x >> s
        if at.get('round', 'false').lower() in ('true', '1'):
            r = r + ((s > 0) & (((x >> np.maximum(s - 1, 0)) & 1) == 1))
        return Exact(r.astype(d))
    if op == 'logical_left_shift':
        return Exact(wrap(a.astype(np.int64) << b.astype(np.int64), d))
    if op == 'logical_right_shift':
        u = a.astype(np.int64) & ((1 << bits(d)) - 1)    # unsigned bit pattern
        return Exact(wrap(u >> b.astype(np.int64), d))
    if op == 'pow':
        x, y = f64(a), f64(b)
        ref = np.power(x, y)
        yl = y * np.log(x)
        with np.errstate(all='ignore'):
            lg = np.maximum(np.abs(np.log(x)), 0.1)
            k = 3 + 3 * np.abs(yl) + 5 * np.abs(y) * lg
            k = np.where(np.isfinite(k), k, 0.0)
        # composite budget: exp(b*log a) with EXP's and LOG's bounds (ref §1 POW)
        bound = abs_error_bound(ref, k, 0, d)
        bound = np.where((x == 0) | (y == 0), 0.0, bound)   # 0^b = 0, a^0 = 1 exactly
        return Tol(ref, bound, d)
    raise ValueError(op)


def mul_ref(a, b, shift):
    """ref §1 MUL: i32 with shift>0: (a*b + 2^(shift-1)) >> shift in i64
    (round half up); otherwise the low 32 bits of a*b; i8/i16 -> i32."""
    p = a.astype(np.int64) * b.astype(np.int64)
    if shift > 0:
        p = (p + (1 << (shift - 1))) >> shift
        return p.astype(I32)
    return wrap(p, I32)


CAST_TO = {}
for _c, _n in ro.DT_NAME.items():
    CAST_TO[_n] = _c
CAST_TO.update({'i8': 'i1', 'i16': 'i2', 'i32': 'i4', 'i1': '?', 'f16': 'f2', 'f32': 'f4'})


def expect_cast(x, to):
    """ref §2 CAST."""
    fr = x.dtype
    with np.errstate(all='ignore'):
        if to == BOOL:
            return Exact(x != 0)
        if fr == BOOL:
            return Exact(x.astype(to))
        if fr.kind == 'i' and to.kind == 'i':
            return Exact(wrap(x.astype(np.int64), to))       # sign-extend / wrap
        if fr.kind == 'f' and to.kind == 'i':
            info = np.iinfo(to)
            r = np.clip(np.rint(f64(x)), info.min, info.max)  # ties-to-even, saturate
            return Exact(r.astype(to))
        if fr.kind == 'i' and to.kind == 'f':
            ref = f64(x)
            return Tol(ref, 0.5 * ulp(ref, to), to)
        if fr == F16 and to == F32:
            return Exact(x.astype(F32))
        if fr == F32 and to == F16:
            return cast_f32_f16(x)
    raise ValueError((fr, to))


def cast_f32_f16(x):
    """ref §2 fp -> fp: |ref|-1ulp <= |r| <= |ref|+0.5ulp, sign correct (RNE or
    RTZ); below the normal range also a signed zero; out of range -> +-inf;
    NaN -> NaN."""
    ref = f64(x)
    u = ulp(ref, F16)
    tiny = float(np.finfo(F16).tiny)
    fmax = float(np.finfo(F16).max)
    rne_overflow = fmax + 0.5 * ulp(fmax, F16)    # 65520: RNE overflows from here

    def ok(got):
        g = f64(got)
        with np.errstate(invalid='ignore'):
            a, ar = np.abs(g), np.abs(ref)
            sign = (np.signbit(g) == np.signbit(ref))
            inrange = (a >= ar - u) & (a <= ar + 0.5 * u) & sign & np.isfinite(g)
            flush = (ar < tiny) & (g == 0) & sign
            big = (ar > fmax) & np.isinf(g) & sign
            must_inf = np.isfinite(ref) & (ar >= rne_overflow)
            m = np.where(must_inf, big, inrange | flush | big)
            m = np.where(np.isinf(ref), g == ref, m)
            m = np.where(np.isnan(ref), np.isnan(g), m)
        return m
    return Pred(F16, x.shape, ok, lambda idx: '%r (fp32 value; fp16 RNE %r, RTZ ok)' % (
        ref[idx].item(), float(np.float16(ref[idx]))))


# ---------------------------------------------------------------- domain

def fix_domain(op, ins, attrs):
    """Keep inputs inside TOSA's defined domain (REQUIREs of ref §1)."""
    at = attr_dict(attrs)
    shape = np.broadcast_shapes(*[a.shape for a in ins])
    d = ins[0].dtype
    with np.errstate(all='ignore'):
        if op == 'abs' and d == I32:
            ins[0][ins[0] == np.iinfo(I32).min] = 0
        if op == 'negate' and d == I32:
            ins[0][ins[0] == np.iinfo(I32).min] = 0
        if op == 'cast' and d.kind == 'f':
            ins[0][np.isnan(ins[0])] = 0
        if op in ('add', 'sub') and d == I32:
            a, b = [np.broadcast_to(v, shape).astype(np.int64) for v in ins]
            r = a + b if op == 'add' else a - b
            ro.fix_where(ins[1], shape, (r < -2**31) | (r >= 2**31), 0)
        if op == 'intdiv':
            a, b = [np.broadcast_to(v, shape).astype(np.int64) for v in ins]
            ro.fix_where(ins[1], shape, (b == 0) | ((a == -2**31) & (b == -1)), 1)
        if op == 'mul' and d == I32 and int(at.get('shift', 0)) > 0:
            s = int(at['shift'])
            a, b = [np.broadcast_to(v, shape).astype(np.int64) for v in ins]
            p = a * b
            rnd = 1 << (s - 1)
            bad = p > (2**63 - 1 - rnd)
            r = (np.where(bad, 0, p) + rnd) >> s
            bad |= (r < -2**31) | (r >= 2**31)
            ro.fix_where(ins[1], shape, bad, 0)
        if op == 'pow':
            a, b = ins
            a[~np.isfinite(a)] = 1.0
            b[~np.isfinite(b)] = 1.0
            a[...] = np.abs(a)
            A, Bb = [np.broadcast_to(v, shape) for v in ins]
            ro.fix_where(a, shape, (A == 0) & (Bb <= 0), 1.0)
    return ins


def shift_counts(rng, d, shape):
    return rng.integers(0, bits(d), size=shape).astype(d)


# ---------------------------------------------------------------- generation

def gen_inputs(rng, op, d, shapes):
    return [np.array(v) for v in _gen_inputs(rng, op, d, shapes)]   # 0-d stays an array


def _gen_inputs(rng, op, d, shapes):
    if op == 'select':
        return [ro.random_values(rng, BOOL, shapes[0]),
                ro.random_values(rng, d, shapes[1]), ro.random_values(rng, d, shapes[2])]
    ins = []
    for j, s in enumerate(shapes):
        if op in SHIFTS and j == 1:
            ins.append(shift_counts(rng, d, s))
        elif op == 'pow':
            # moderate magnitudes keep the budget meaningful; boundary values too
            v = ro.random_values(rng, d, s, kind='small')
            if j == 0:
                v = np.abs(v)
            ins.append(v)
        elif op in ('exp', 'sigmoid', 'tanh', 'erf') and rng.random() < 0.7:
            ins.append(ro.random_values(rng, d, s, kind='small'))
        else:
            ins.append(ro.random_values(rng, d, s))
    return ins


def attr_variants(rng, op, d):
    """Attribute sets to exercise for (op, dtype)."""
    if op == 'mul':
        if d == I32:
            return [[]] + [['shift=%d' % s] for s in (0, 1, 2, 3, 7, 15, 16, 31, 32, 40, 62, 63)]
        return [[], ['shift=0']]
    if op == 'arithmetic_right_shift':
        return [[], ['round=false'], ['round=true'], ['round=1'], ['round=0']]
    if op in ('maximum', 'minimum') and d.kind == 'f':
        return [[], ['nan_mode=PROPAGATE'], ['nan_mode=IGNORE']]
    if op == 'clamp':
        out = []
        for _ in range(4):
            if d.kind == 'f':
                pool = np.concatenate([ro.boundaries(d), ro.random_values(rng, d, (8,), kind='small')])
                pool = pool[~np.isnan(pool)]
                lo, hi = sorted(float(v) for v in rng.choice(pool, 2))
                a = ['min_val=%r' % lo, 'max_val=%r' % hi]
                mode = rng.choice(['', 'PROPAGATE', 'IGNORE'])
                if mode:
                    a.append('nan_mode=%s' % mode)
            else:
                info = np.iinfo(d)
                lo, hi = sorted(int(v) for v in rng.integers(info.min, info.max, 2, endpoint=True))
                a = ['min_val=%d' % lo, 'max_val=%d' % hi]
            out.append(a)
        out.append(['min_val=0', 'max_val=6'])
        if d.kind == 'f':
            out.append(['min_val=-inf', 'max_val=inf', 'nan_mode=IGNORE'])
            out.append(['min_val=-1.5', 'max_val=-1.5'])
        return out
    if op == 'negate':
        if d == I8:
            return [[], ['%s=0' % NEGATE_ZP[0], '%s=0' % NEGATE_ZP[1]],
                    ['%s=-128' % NEGATE_ZP[0]], ['%s=127' % NEGATE_ZP[1]],
                    ['%s=%d' % (NEGATE_ZP[0], rng.integers(-128, 128)),
                     '%s=%d' % (NEGATE_ZP[1], rng.integers(-128, 128))]]
        return [[]]
    return [[]]


def add_random(h, rng, reps):
    n = 0
    ops = UNARY + BINARY + ['select']
    for op in ops:
        nin = 1 if op in UNARY else 3 if op == 'select' else 2
        for d in TYPES[op]:
            for attrs in attr_variants(rng, op, d):
                variants_reps = reps if attrs == [] or op != 'mul' else max(2, reps // 2)
                for i in range(variants_reps):
                    shapes, _ = ro.tosa_shapes(rng, nin, 300000, big=(i == 0))
                    ins = fix_domain(op, gen_inputs(rng, op, d, shapes), attrs)
                    # --checked on in-domain inputs must give the same result
                    h.add(Case(op, ins, expect(op, ins, attrs), attrs, profile_choice(rng),
                               checked=bool(rng.random() < 0.25),
                               label='random %s %s' % (op, ro.name_of(d))))
                    n += 1
                # boundary values against each other (outer product via broadcasting)
                ins = boundary_inputs(rng, op, d, nin)
                if ins is not None:
                    ins = fix_domain(op, ins, attrs)
                    h.add(Case(op, ins, expect(op, ins, attrs), attrs, profile_choice(rng),
                               label='boundary %s %s' % (op, ro.name_of(d))))
    for fr, to in CAST_MODES:
        for name in (ro.name_of(to),):
            attrs = ['to=%s' % name]
            for i in range(reps):
                shapes, _ = ro.tosa_shapes(rng, 1, 300000, big=(i == 0))
                x = ro.random_values(rng, fr, shapes[0])
                if fr.kind == 'f' and to.kind == 'i' and rng.random() < 0.5:
                    # values near the target range and ties
                    info = np.iinfo(to)
                    v = rng.uniform(info.min * 1.1, info.max * 1.1, x.size)
                    v = np.where(rng.random(x.size) < 0.5, np.round(v) + 0.5, v)
                    with np.errstate(over='ignore'):      # beyond fp16: +-inf saturates
                        x = v.astype(fr).reshape(x.shape)
                ins = fix_domain('cast', [x], attrs)
                h.add(Case('cast', ins, expect('cast', ins, attrs), attrs, profile_choice(rng),
                           checked=bool(rng.random() < 0.25), label='random cast %s->%s' % (ro.name_of(fr), ro.name_of(to))))
            ins = fix_domain('cast', [ro.boundaries(fr).copy()], attrs)
            h.add(Case('cast', ins, expect('cast', ins, attrs), attrs, profile_choice(rng),
                       label='boundary cast %s->%s' % (ro.name_of(fr), ro.name_of(to))))


def profile_choice(rng):
    return 'tosa' if rng.random() < 0.6 else None    # tosa is the default for these ops


def boundary_inputs(rng, op, d, nin):
    bv = ro.boundaries(d).copy()
    if nin == 1:
        return [bv]
    if op == 'select':
        c = np.array([True, False]).reshape(2, 1, 1)
        return [c, bv.reshape(1, -1, 1), bv[::-1].copy().reshape(1, 1, -1)]
    a = bv.reshape(-1, 1)
    if op in SHIFTS:
        b = np.arange(bits(d), dtype=d).reshape(1, -1)
    elif op == 'pow':
        a = np.abs(bv).reshape(-1, 1)
        b = bv.reshape(1, -1)
    else:
        b = bv.copy().reshape(1, -1)
    return [a.copy(), b.copy()]


# ---------------------------------------------------------------- traps (exact table)

def T(h, op, d, vals, exp, attrs=(), out=None, signed_zero=True, label=''):
    """A trap row set: inputs are lists (one per operand), expected list."""
    ins = [np.array(v, dtype=dd) for v, dd in zip(vals, d)]
    e = np.array(exp, dtype=out or d[-1])
    h.add(Case(op, ins, Exact(e, signed_zero=signed_zero), list(attrs), 'tosa',
               label='trap ' + (label or op)))


def add_traps(h):
    nan, inf = float('nan'), float('inf')
    i32min, i32max = -2**31, 2**31 - 1
    # MUL shift: (a*b + 2^(s-1)) >> s, round half toward +inf (ref §1 MUL)
    T(h, 'mul', [I32, I32], [[3, -3, 5, 6, -6, -5, 1, -1, 7], [1] * 9],
      [2, -1, 3, 3, -3, -2, 1, 0, 4], ['shift=1'], label='mul shift=1 round half up')
    T(h, 'mul', [I32, I32], [[5, 6, -6, -5, 2, -2, 10], [1] * 7],
      [1, 2, -1, -1, 1, 0, 3], ['shift=2'], label='mul shift=2')
    # (INT_MAX*2 + 1) >> 1 = INT_MAX; (2^31 + 1) >> 1 = 2^30; (-2^32 + 1) >> 1 = INT_MIN
    T(h, 'mul', [I32, I32], [[i32max, i32min, i32min, -2**31 + 2], [2, -1, 2, 2]],
      [i32max, 2**30, i32min, -2**31 + 2], ['shift=1'], label='mul shift=1 extremes')
    T(h, 'mul', [I32, I32], [[65536, i32max, 0x10001, i32min, -1, 46341],
                             [65536, 2, 0x10001, -1, i32min, 46341]],
      [0, -2, 131073, i32min, i32min, -2147479015], ['shift=0'], label='mul shift=0 wraps')
    T(h, 'mul', [I32, I32], [[i32max, i32min, 3 << 20, i32min], [i32max, i32min, 5, i32max]],
      [1, 1, 0, -1], ['shift=62'], label='mul shift=62')
    T(h, 'mul', [I32, I32], [[i32max, -i32max, 1 << 30, -1], [i32max, i32max, 1 << 30, 1]],
      [0, 0, 0, 0], ['shift=63'], label='mul shift=63')
    T(h, 'mul', [I8, I8], [[-128, -128, 127, -1], [-128, 127, 127, 1]],
      [16384, -16256, 16129, -1], out=I32, label='mul i8 widens')
    T(h, 'mul', [I16, I16], [[-32768, -32768, 32767], [-32768, 32767, 32767]],
      [1073741824, -1073709056, 1073676289], out=I32, label='mul i16 widens')
    # ARITHMETIC_RIGHT_SHIFT round (ref §1, §3.3)
    T(h, 'arithmetic_right_shift', [I8, I8],
      [[-1, 5, -5, 4, 7, -128, 127, -3, 6, -7], [1, 1, 1, 1, 0, 7, 7, 1, 2, 2]],
      [0, 3, -2, 2, 7, -1, 1, -1, 2, -2], ['round=true'], label='ars i8 round')
    T(h, 'arithmetic_right_shift', [I8, I8],
      [[-1, 5, -5, 4, 7, -128, 127, -3], [1, 1, 1, 1, 0, 7, 7, 1]],
      [-1, 2, -3, 2, 7, -1, 0, -2], ['round=false'], label='ars i8 no round')
    T(h, 'arithmetic_right_shift', [I32, I32],
      [[i32min, i32max, -1, 3, i32min + 1], [31, 31, 31, 1, 30]],
      [-1, 1, 0, 2, -2], ['round=true'], label='ars i32 round')
    T(h, 'arithmetic_right_shift', [I16, I16], [[-32768, 32767, -32767], [15, 15, 15]],
      [-1, 1, -1], ['round=true'], label='ars i16 round')
    # CAST rounding and saturation (ref §2)
    T(h, 'cast', [F32], [[2.5, 3.5, -2.5, -3.5, 0.5, 1.5, -0.5, -1.5, 2.4999998, 1e10, -1e10,
                          inf, -inf, 2147483648.0, -2147483648.0, 2147483520.0, -0.0]],
      [2, 4, -2, -4, 0, 2, 0, -2, 2, i32max, i32min, i32max, i32min, i32max, i32min,
       2147483520, 0], ['to=int32'], out=I32, label='cast f32->i32 rne saturate')
    T(h, 'cast', [F32], [[127.5, -128.5, 126.5, 200, -200, 0.5, -0.5, inf, -inf, 300.7]],
      [127, -128, 126, 127, -128, 0, 0, 127, -128, 127], ['to=int8'], out=I8,
      label='cast f32->i8 saturate')
    T(h, 'cast', [F16], [[65504, -65504, 2.5, -2.5, 32767.0, 40000, inf]],
      [32767, -32768, 2, -2, 32767, 32767, 32767], ['to=int16'], out=I16,
      label='cast f16->i16 saturate')
    T(h, 'cast', [F16], [[2.5, 3.5, 0.5, 1.5, 127.5, -128.5, 1000, -1000, 0.0001]],
      [2, 4, 0, 2, 127, -128, 127, -128, 0], ['to=int8'], out=I8, label='cast f16->i8')
    T(h, 'cast', [I32], [[300, -129, 128, 255, 256, i32min, i32max, -1]],
      [44, 127, -128, -1, 0, 0, -1, -1], ['to=int8'], out=I8, label='cast i32->i8 wraps')
    T(h, 'cast', [I32], [[65535, 32768, -32769, i32max]], [-1, -32768, 32767, -1],
      ['to=int16'], out=I16, label='cast i32->i16 wraps')
    T(h, 'cast', [I16], [[255, 128, -129, -32768]], [-1, -128, 127, 0],
      ['to=int8'], out=I8, label='cast i16->i8 wraps')
    T(h, 'cast', [I8], [[-128, -1, 127]], [-128, -1, 127], ['to=int32'], out=I32,
      label='cast i8->i32 sign-extends')
    T(h, 'cast', [I32], [[2, -1, 0, i32min, 256]], [True, True, False, True, True],
      ['to=bool'], out=BOOL, label='cast i32->bool')
    T(h, 'cast', [I8], [[0, -128, 1]], [False, True, True], ['to=bool'], out=BOOL,
      label='cast i8->bool')
    T(h, 'cast', [BOOL], [[True, False]], [1, 0], ['to=int32'], out=I32, label='cast bool->i32')
    T(h, 'cast', [BOOL], [[True, False]], [1, 0], ['to=int8'], out=I8, label='cast bool->i8')
    T(h, 'cast', [F32], [[65520.0, -65520.0, 1e6, 1.0, -0.0, inf, nan, 65504.0, 0.1]],
      [inf, -inf, inf, 1.0, -0.0, inf, nan, 65504.0, np.float16(0.1)], ['to=float16'], out=F16,
      label='cast f32->f16 overflow')
    # (ties excluded: the reference only asks for 0.5 ulp)
    T(h, 'cast', [I32], [[70000, -70000, 65504, 4097, 4099, 1, 2**31 - 1]],
      [inf, -inf, 65504, 4096, 4100, 1, inf], ['to=float16'], out=F16, label='cast i32->f16 rne')
    T(h, 'cast', [I32], [[33554435, 33554433, i32max, i32min]],
      [33554436, 33554432, 2147483648.0, -2147483648.0], ['to=float32'], out=F32,
      label='cast i32->f32 rne')
    T(h, 'cast', [F16], [[-0.0, 6e-8, inf, nan, 65504]], [-0.0, np.float16(6e-8), inf, nan, 65504],
      ['to=float32'], out=F32, label='cast f16->f32 exact')
    # NEGATE zero points and saturation (ref §1 NEGATE)
    T(h, 'negate', [I8], [[-128, 127, 0, -1]], [127, -127, 0, 1], label='negate i8 saturates')
    T(h, 'negate', [I16], [[-32768, 32767, 5]], [32767, -32767, -5], label='negate i16 saturates')
    T(h, 'negate', [I32], [[i32max, -i32max, 0, 7]], [-i32max, i32max, 0, -7], label='negate i32')
    T(h, 'negate', [I8], [[127, -128, 0, 10]], [-128, 0, -128, -128],
      ['%s=-128' % NEGATE_ZP[0]], label='negate i8 input_zp=-128')
    T(h, 'negate', [I8], [[-100, 100, 0, -128]], [127, 0, 100, 127],
      ['%s=100' % NEGATE_ZP[1]], label='negate i8 output_zp=100')
    T(h, 'negate', [I8], [[5, -128, 127]], [-9, 124, -128],
      ['%s=3' % NEGATE_ZP[0], '%s=-7' % NEGATE_ZP[1]], label='negate i8 both zps')
    T(h, 'negate', [F32], [[0.0, -0.0, inf, -inf, nan, 1.5]], [-0.0, 0.0, -inf, inf, nan, -1.5],
      label='negate f32 zeros/infs')
    T(h, 'negate', [F16], [[0.0, -0.0, 65504, -6e-8]], [-0.0, 0.0, -65504, np.float16(6e-8)],
      label='negate f16')
    # CLAMP: max with min_val first, then min with max_val; NaN modes (ref §1, §3.10)
    T(h, 'clamp', [F32], [[-1, 7, 3, nan, -inf, inf]], [0, 6, 3, nan, 0, 6],
      ['min_val=0', 'max_val=6'], signed_zero=False, label='clamp f32 default propagate')
    T(h, 'clamp', [F32], [[-1, 7, 3, nan]], [0, 6, 3, nan],
      ['min_val=0', 'max_val=6', 'nan_mode=PROPAGATE'], signed_zero=False, label='clamp propagate')
    T(h, 'clamp', [F32], [[-1, 7, 3, nan, nan]], [0, 6, 3, 0, 0],
      ['min_val=0', 'max_val=6', 'nan_mode=IGNORE'], signed_zero=False, label='clamp ignore')
    T(h, 'clamp', [F16], [[nan, 2.0, -5.0]], [-1.5, 2.0, -1.5],
      ['min_val=-1.5', 'max_val=2.5', 'nan_mode=IGNORE'], signed_zero=False, label='clamp f16 ignore')
    T(h, 'clamp', [F32], [[-1, 7, 2]], [2, 2, 2], ['min_val=2', 'max_val=2'], label='clamp min==max')
    T(h, 'clamp', [I8], [[-128, 127, 0, 5, -6]], [-5, 5, 0, 5, -5],
      ['min_val=-5', 'max_val=5'], label='clamp i8')
    T(h, 'clamp', [I16], [[-32768, 32767, 100]], [-32768, 0, 0],
      ['min_val=-32768', 'max_val=0'], label='clamp i16')
    # MAXIMUM / MINIMUM nan_mode (ref §1)
    for op, fn in (('maximum', max), ('minimum', min)):
        T(h, op, [F32, F32], [[nan, 1.0, nan, 2.0], [1.0, nan, nan, -3.0]],
          [nan, nan, nan, fn(2.0, -3.0)], signed_zero=False, label=op + ' propagate default')
        T(h, op, [F32, F32], [[nan, 1.0, nan, 2.0], [1.0, nan, nan, -3.0]],
          [1.0, 1.0, nan, fn(2.0, -3.0)], ['nan_mode=IGNORE'], signed_zero=False,
          label=op + ' ignore')
        T(h, op, [F16, F16], [[nan, -inf], [-2.0, nan]], [-2.0, -inf], ['nan_mode=IGNORE'],
          signed_zero=False, label=op + ' f16 ignore')
        T(h, op, [I32, I32], [[i32min, i32max, -1], [i32max, i32min, 0]],
          [fn(i32min, i32max), fn(i32max, i32min), fn(-1, 0)], label=op + ' i32')
    # logical shifts of negative values (ref §1, §3)
    T(h, 'logical_right_shift', [I8, I8], [[-128, -1, -1, -2, 64], [1, 7, 0, 1, 6]],
      [64, 1, -1, 127, 1], label='lrs i8 negatives')
    T(h, 'logical_right_shift', [I16, I16], [[-1, -32768], [1, 15]], [32767, 1], label='lrs i16')
    T(h, 'logical_right_shift', [I32, I32], [[-1, -2, i32min, -1], [31, 1, 31, 0]],
      [1, i32max, 1, -1], label='lrs i32')
    T(h, 'logical_left_shift', [I8, I8], [[-1, 1, 65, -128, 3], [7, 7, 1, 1, 0]],
      [-128, -128, -126, 0, 3], label='lls i8 truncates')
    T(h, 'logical_left_shift', [I32, I32], [[1, -1, 0x40000001], [31, 31, 2]],
      [i32min, i32min, 4], label='lls i32')
    T(h, 'logical_left_shift', [I16, I16], [[-1, 0x4001], [15, 1]], [-32768, -32766], label='lls i16')
    # INTDIV truncation, CLZ, comparisons, ABS, specials
    T(h, 'intdiv', [I32, I32], [[-7, 7, -7, 7, i32min, i32max, i32min, 0, -1],
                                [2, -2, -2, 2, 1, -1, 2, 5, 2]],
      [-3, -3, 3, 3, i32min, -i32max, -2**30, 0, 0], label='intdiv truncates')
    T(h, 'clz', [I32], [[0, -1, 1, i32max, i32min, 0x00010000, 0xff]], [32, 0, 31, 1, 0, 15, 24],
      label='clz')
    T(h, 'equal', [F32, F32], [[nan, 0.0, inf, 1.0], [nan, -0.0, inf, nan]],
      [False, True, True, False], out=BOOL, label='equal nan/zero')
    T(h, 'greater', [F32, F32], [[nan, 0.0, inf, 1.0, -0.0], [1.0, -0.0, 3.0, nan, 0.0]],
      [False, False, True, False, False], out=BOOL, label='greater nan/zero')
    T(h, 'greater_equal', [F16, F16], [[nan, -0.0, -inf], [nan, 0.0, -inf]], [False, True, True],
      out=BOOL, label='greater_equal nan/zero')
    T(h, 'greater', [I32, I32], [[i32min, i32max, -1], [i32max, i32min, 0]], [False, True, False],
      out=BOOL, label='greater i32')
    T(h, 'abs', [F32], [[-0.0, -inf, nan, -1.5]], [0.0, inf, nan, 1.5], label='abs -0 -> +0')
    T(h, 'abs', [I32], [[-i32max, i32max, 0, -1]], [i32max, i32max, 0, 1], label='abs i32')
    T(h, 'rsqrt', [F32], [[-0.0, 0.0, inf, 4.0, 0.25]], [-inf, inf, 0.0, 0.5, 2.0], label='rsqrt specials')
    T(h, 'reciprocal', [F32], [[-0.0, 0.0, inf, -inf, 4.0]], [-inf, inf, 0.0, -0.0, 0.25],
      label='reciprocal specials')
    T(h, 'log', [F32], [[0.0, -0.0, 1.0, inf]], [-inf, -inf, 0.0, inf], label='log specials')
    T(h, 'exp', [F32], [[-inf, inf, 0.0, -0.0]], [0.0, inf, 1.0, 1.0], label='exp specials')
    T(h, 'sigmoid', [F32], [[-inf, inf, 0.0, -0.0]], [0.0, 1.0, 0.5, 0.5], label='sigmoid specials')
    T(h, 'tanh', [F32], [[-inf, inf, 0.0, -0.0]], [-1.0, 1.0, 0.0, -0.0], label='tanh specials')
    T(h, 'sin', [F32], [[-inf, inf, 0.0, -0.0, nan]], [nan, nan, 0.0, -0.0, nan],
      label='sin specials (TOSA 1.0 table)')
    T(h, 'cos', [F16], [[-inf, inf, 0.0, -0.0, nan]], [nan, nan, 1.0, 1.0, nan],
      label='cos specials (TOSA 1.0 table)')
    T(h, 'ceil', [F32], [[-0.5, 0.5, -0.0, inf, -inf, 2.0]], [-0.0, 1.0, -0.0, inf, -inf, 2.0],
      signed_zero=False, label='ceil')
    T(h, 'floor', [F16], [[-0.5, 0.5, -0.0, -inf, 65504]], [-1.0, 0.0, -0.0, -inf, 65504],
      signed_zero=False, label='floor')
    T(h, 'pow', [F32, F32], [[0.0, 2.0, 0.0, 7.5], [2.0, 0.0, 0.5, 0.0]], [0.0, 1.0, 0.0, 1.0],
      label='pow exact points')
    T(h, 'select', [BOOL, F32, F32], [[True, False, True], [-0.0, 1.0, nan], [5.0, 0.0, 1.0]],
      [-0.0, 0.0, nan], label='select passes values')
    T(h, 'logical_xor', [BOOL, BOOL], [[True, True, False, False], [True, False, True, False]],
      [False, True, True, False], label='logical_xor')
    T(h, 'bitwise_not', [I8], [[0, -1, 127, -128]], [-1, 0, -128, 127], label='bitwise_not i8')
    # broadcasting of the scalar-shaped operand in a trap: mul i8 by a [1] tensor
    h.add(Case('mul', [np.array([[1, -2], [3, 4]], I8), np.array([[-128]], I8)],
               Exact(np.array([[-128, 256], [-384, -512]], I32)), [], 'tosa', label='trap mul i8 bcast'))


# ---------------------------------------------------------------- errors

def add_errors(h, rng):
    rank_msg = "operands don't have matching ranks"
    for prof in ('tosa', None):
        for op, d in (('add', F32), ('mul', I32), ('maximum', F16), ('equal', I32),
                      ('logical_and', BOOL), ('pow', F32)):
            a = ro.random_values(rng, d, (3, 4))
            b = ro.random_values(rng, d, (4,))
            if op == 'pow':
                a, b = np.abs(a) + 1, np.ones((4,), d)
            h.add(Case(op, [a, b], None, [], prof, rc=1, err_all=[rank_msg],
                       label='rank mismatch %s' % op))
        a = np.ones((2, 3), I32)
        h.add(Case('select', [np.ones((2, 3), BOOL), a, np.ones((3,), I32)], None, [], prof,
                   rc=1, err_all=[rank_msg], label='rank mismatch select'))
        h.add(Case('add', [np.ones((), F32), np.ones((1,), F32)], None, [], prof,
                   rc=1, err_all=[rank_msg], label='rank mismatch rank 0 vs 1'))
    # incompatible dims
    h.add(Case('add', [np.ones((2, 3), F32), np.ones((2, 4), F32)], None, [], 'tosa', rc=1,
               label='incompatible dims'))
    # zero-size dims are not allowed in TOSA (ref §0)
    h.add(Case('add', [np.ones((0, 3), F32), np.ones((1, 3), F32)], None, [], 'tosa', rc=1,
               label='zero-size dim in tosa profile'))
    # ERROR_IF: NEGATE zero points only for i8 (ref §1 NEGATE)
    h.add(Case('negate', [np.ones((3,), I16)], None, ['%s=1' % NEGATE_ZP[0]], 'tosa', rc=1,
               label='negate i16 input_zp!=0'))
    h.add(Case('negate', [np.ones((3,), I32)], None, ['%s=2' % NEGATE_ZP[1]], 'tosa', rc=1,
               label='negate i32 output_zp!=0'))
    h.add(Case('negate', [np.ones((3,), F32)], None, ['%s=1' % NEGATE_ZP[0]], 'tosa', rc=1,
               label='negate f32 input_zp!=0'))
    # ERROR_IF: CLAMP max_val < min_val, NaN bounds (ref §1 CLAMP)
    h.add(Case('clamp', [np.ones((3,), F32)], None, ['min_val=2', 'max_val=1'], 'tosa', rc=1,
               label='clamp max<min'))
    h.add(Case('clamp', [np.ones((3,), I8)], None, ['min_val=5', 'max_val=-5'], 'tosa', rc=1,
               label='clamp i8 max<min'))
    h.add(Case('clamp', [np.ones((3,), F32)], None, ['min_val=nan', 'max_val=1'], 'tosa', rc=1,
               label='clamp nan min'))
    # element types outside TOSA 1.0.2's tables (ref §1, §2, §3.5) are refused
    # in the tosa profile with --types tosa-1.0; the default (MLIR 22's
    # dialect) takes int64, float64 and every signed integer of an integer
    # op (tests/diff/test_tosa22_types.py) and the unsigned types of the
    # ops MLIR 22 lowers on them (add, mul, bitwise_and, ...) but refuses
    # the rest here too (maximum and arithmetic_right_shift of unsigned
    # types: MLIR 22's tosa-to-linalg fails on them).
    mlir_refuses = {('intdiv', 'i1'), ('maximum', 'u1'), ('arithmetic_right_shift', 'u4'),
                    ('logical_and', 'i1'), ('pow', 'i4'), ('exp', 'i4'),
                    ('negate', 'u2'), ('logical_left_shift', 'f4')}
    for op, t, n in (('add', 'i1', 2), ('add', 'u1', 2), ('add', 'f8', 2), ('sub', 'i2', 2),
                     ('maximum', 'u1', 2), ('arithmetic_right_shift', 'u4', 2),
                     ('clamp', 'i4', 1), ('equal', 'i1', 2), ('greater', '?', 2), ('abs', 'i1', 1),
                     ('mul', 'u1', 2), ('intdiv', 'i1', 2), ('clz', 'i1', 1), ('bitwise_and', 'u1', 2),
                     ('logical_and', 'i1', 2), ('pow', 'i4', 2), ('maximum', 'i1', 2),
                     ('exp', 'i4', 1), ('negate', 'u2', 1), ('logical_left_shift', 'f4', 2)):
        attrs = ['min_val=0', 'max_val=1'] if op == 'clamp' else []
        h.add(Case(op, [np.ones((2,), t)] * n, None, attrs, 'tosa', rc=1, types='tosa-1.0',
                   err_any=[[ro.name_of(t), t]], label='tosa-1.0 refuses %s %s' % (op, t)))
        if (op, t) in mlir_refuses:
            h.add(Case(op, [np.ones((2,), t)] * n, None, attrs, 'tosa', rc=1,
                       err_any=[[ro.name_of(t), t]], label='mlir refuses %s %s' % (op, t)))
    for fr, to in (('f2', 'bool'), ('f4', 'bool'), ('i1', 'uint8'), ('f4', 'float64'), ('i1', 'int8'),
                   ('?', 'float32'), ('i4', 'int64')):
        h.add(Case('cast', [np.ones((2,), fr)], None, ['to=' + to], 'tosa', rc=1, types='tosa-1.0',
                   label='tosa-1.0 has no cast mode %s->%s' % (fr, to)))
    # MLIR 22 lowers casts of unsigned types on their signless view, but
    # not an unsigned -> same-width integer cast (its arith.trunci fails).
    for fr, to in (('i1', 'int8'), ('f2', 'bfloat16'), ('u1', 'int8'), ('u2', 'int16'),
                   ('u8', 'int64'), ('u4', 'int32')):
        h.add(Case('cast', [np.ones((2,), fr)], None, ['to=' + to], 'tosa', rc=1,
                   label='mlir has no cast mode %s->%s' % (fr, to)))
    # usage: unknown op, missing output
    h.add(Case('frobnicate', [np.ones((3,), F32)], None, [], 'tosa', rc=2, label='unknown op'))


def add_checked(h):
    """Unpredictable cases (ref §0 REQUIRE): --checked exits 1 naming the op,
    the first offending output index and operand values; without it the result
    is deterministic."""
    i32min, i32max = -2**31, 2**31 - 1

    def idx_re(idx, shape):
        flat = int(np.ravel_multi_index(idx, shape))
        if len(idx) <= 1:
            return r'\b%d\b' % flat
        multi = r'\D{1,3}'.join(str(i) for i in idx)
        return r'(\b%s\b)|(\b%d\b)' % (multi, flat)

    def C(op, ins, attrs, idx, names, val, label):
        shape = np.broadcast_shapes(*[a.shape for a in ins])
        h.add(Case(op, ins, None, attrs, 'tosa', checked=True, rc=1, err_any=[names],
                   err_re=[idx_re(idx, shape)] + ([r'(?<![\d.])%d(?![\d.])' % val] if val is not None else []),
                   label='checked ' + label))
        h.add(Case(op, [a.copy() for a in ins], None, attrs, 'tosa', rc=0, deterministic=True,
                   label='unchecked deterministic ' + label))

    a = np.array([[1, 2, 3], [4, i32max, 6]], I32)
    b = np.array([[1, 1, 1], [1, 5, 1]], I32)
    C('add', [a, b], [], (1, 1), ['add'], i32max, 'i32 add overflow')
    a = np.array([[0, i32min, 3], [i32min, 5, 6]], I32)
    b = np.array([[1, 0, 0], [1, 1, 1]], I32)
    C('sub', [a, np.array([[1, 1, 1], [1, 1, 1]], I32) * np.array([[0, 7, 0], [9, 0, 0]], I32)],
      [], (0, 1), ['sub'], i32min, 'i32 sub overflow')
    a = np.array([[7, 8], [9, 10]], I32)
    b = np.array([[1, 2], [0, 0]], I32)
    for name in ('intdiv', 'int_div', 'div'):
        C(name, [a, b], [], (1, 0), ['intdiv', 'int_div', 'div'], None, name + ' by zero')
    C('intdiv', [np.array([5, i32min, 2], I32), np.array([1, -1, 0], I32)], [], (1,),
      ['intdiv', 'int_div', 'div'], i32min, 'intdiv INT_MIN/-1')
    for op in SHIFTS:
        C(op, [np.array([[1, 2, 3, 4]], I32), np.array([[0, 1, 40, 2]], I32)], [], (0, 2),
          [op], 40, op + ' count 40')
        C(op, [np.array([5, 6, 7], I8), np.array([0, 8, -1], I8)], [], (1,), [op], 8,
          op + ' i8 count 8')
    C('abs', [np.array([1, -5, i32min], I32)], [], (2,), ['abs'], i32min, 'abs INT_MIN')
    C('negate', [np.array([i32min, 1], I32)], [], (0,), ['negate'], i32min, 'negate INT_MIN')
    C('mul', [np.array([1, 65536, 3], I32), np.array([1, 65536, 3], I32)], ['shift=1'], (1,),
      ['mul'], 65536, 'mul shift result out of range')
    C('pow', [np.array([2.0, -2.0, 3.0], F32), np.array([1.0, 0.5, 1.0], F32)], [], (1,),
      ['pow'], None, 'pow negative base')
    C('cast', [np.array([1.0, 2.0, float('nan')], F32)], ['to=int32'], (2,), ['cast'], None,
      'cast NaN->int')


# ---------------------------------------------------------------- self-test of the oracle

def self_test():
    """Hand-computed values from ref §1/§2 checked against the oracle formulas."""
    ok = True

    def eq(got, want, what):
        nonlocal ok
        got = np.asarray(got)
        if not np.array_equal(got, np.asarray(want, got.dtype), equal_nan=got.dtype.kind == 'f'):
            print('ORACLE SELF-TEST FAIL %s: %s != %s' % (what, got.tolist(), want))
            ok = False
    eq(mul_ref(np.array([3, -3, 5, -5], I32), np.array([1, 1, 1, 1], I32), 1), [2, -1, 3, -2], 'mul shift1')
    eq(mul_ref(np.array([65536], I32), np.array([65536], I32), 0), [0], 'mul wrap')
    eq(mul_ref(np.array([2**31 - 1], I32), np.array([2**31 - 1], I32), 62), [1], 'mul s62')
    e = expect('arithmetic_right_shift', [np.array([-1, 5, -5, -128], I8), np.array([1, 1, 1, 7], I8)], ['round=true'])
    eq(e.exp, [0, 3, -2, -1], 'ars round')
    e = expect('logical_right_shift', [np.array([-128, -1], I8), np.array([1, 7], I8)], [])
    eq(e.exp, [64, 1], 'lrs')
    e = expect_cast(np.array([2.5, 3.5, -2.5, 1e10, float('inf')], F32), I32)
    eq(e.exp, [2, 4, -2, 2**31 - 1, 2**31 - 1], 'cast rne sat')
    e = expect_cast(np.array([300, -129], I32), I8)
    eq(e.exp, [44, 127], 'cast wrap')
    e = expect('clz', [np.array([0, -1, 1, 256], I32)], [])
    eq(e.exp, [32, 0, 31, 23], 'clz')
    e = expect('negate', [np.array([-128, 127], I8)], [])
    eq(e.exp, [127, -127], 'negate sat')
    e = expect('intdiv', [np.array([-7, 7], I32), np.array([2, -2], I32)], [])
    eq(e.exp, [-3, -3], 'intdiv')
    e = expect('clamp', [np.array([float('nan'), -3.0], F32)], ['min_val=0', 'max_val=6', 'nan_mode=IGNORE'])
    eq(e.exp, [0.0, 0.0], 'clamp ignore')
    u = ulp(np.array([1.0, 0.0, 65504.0]), F16)
    eq(u, [2.0**-10, 2.0**-24, 32.0], 'ulp f16')
    t = expect('add', [np.array([65504.0], F16), np.array([16.0], F16)], [])
    eq(t.ok(np.array([np.inf], F16)), [True], 'add overflow tie -> inf ok')
    eq(t.ok(np.array([65504.0], F16)), [True], 'add tie -> max ok (0.5 ulp)')
    t = expect('add', [np.array([65504.0], F16), np.array([64.0], F16)], [])
    eq(t.ok(np.array([65504.0], F16)), [False], 'add beyond tie -> max not ok')
    p = cast_f32_f16(np.array([65519.0, 65520.0, 1e-8, 0.1], F32))
    eq(p.ok(np.array([65504.0, np.inf, 0.0, np.float16(0.1)], F16)), [True, True, True, True], 'cast f16 ok')
    eq(p.ok(np.array([np.inf, 65504.0, -0.0, 0.2], F16)), [True, False, False, False], 'cast f16 bad')
    return ok


def probe_zp_names(bcast, tmp):
    """The brief says input_zp/output_zp; the spec says input1_zp.  Use the
    one the implementation accepts (exit 0 on an i8 negate)."""
    x = os.path.join(tmp, 'zp.npy')
    np.save(x, np.array([1], I8))
    for names in (['input_zp', 'output_zp'], ['input1_zp', 'output_zp']):
        rc, _, _ = common.run([bcast, 'run', 'negate', x, '-o', os.path.join(tmp, 'zpo.npy'),
                               '--attr', names[0] + '=1', '--attr', names[1] + '=1'])
        if rc == 0:
            return names
    return ['input_zp', 'output_zp']


def main():
    args = ro.parse_args(__doc__)
    print('seed %d (replay: --seed %d)' % (args.seed, args.seed))
    if not self_test():
        print('0 passed, 1 failed')
        return 1
    rng = np.random.default_rng(args.seed)
    h = ro.Harness(args.bcast, args.seed, os.path.abspath(__file__), args.jobs, args.keep, args.case,
                   args.scale)
    NEGATE_ZP[:] = probe_zp_names(h.bcast, h.tmp)
    print('negate zero-point attributes: %s' % ', '.join(NEGATE_ZP))
    add_traps(h)
    add_errors(h, rng)
    add_checked(h)
    add_random(h, rng, args.reps or args.scaled(4))
    elapsed = h.run_all()
    return ro.finish(h, elapsed)


if __name__ == '__main__':
    ro.main_guard(main)
