#!/usr/bin/python3
"""Differential test of `bcast run --profile numpy` against NumPy.

The 36 element-wise ops widened to every numeric type (int8..uint64,
float16/32/64, bool where NumPy defines the op), with NumPy's result for
equal input types as the oracle: wrapping integer arithmetic, IEEE floats,
NaN-propagating maximum/minimum, comparisons -> bool, select = np.where,
cast = ndarray.astype.  Shapes are NumPy broadcasts of rank 0..6 with size-0
and size-1 dims and different ranks; inputs are saved C-order, Fortran-order,
from non-contiguous views and big-endian.  Output dtype, shape and values
must equal NumPy's (transcendental float ops: within a few ulp / the TOSA
budget of an fp64 reference).  Mixed input dtypes are refused by the tosa
profile with a message naming the numpy profile's promotion (the numpy
profile's promotion and NumPy's own ops: test_numpy_ops.py).

Prints the seed; replay with --seed (and --case K --keep for one case).
"""
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_oracle as ro  # noqa: E402
from run_oracle import Case, Exact, Tol, ulp, abs_error_bound  # noqa: E402

INTS = [np.dtype(c) for c in ('i1', 'i2', 'i4', 'i8', 'u1', 'u2', 'u4', 'u8')]
FLOATS = [np.dtype(c) for c in ('f2', 'f4', 'f8')]
NUM = INTS + FLOATS
BOOL = np.dtype('?')
ALL_T = NUM + [BOOL]

TYPES = {
    'abs': NUM, 'negate': NUM, 'clamp': NUM, 'add': NUM, 'sub': NUM, 'mul': NUM,
    'maximum': NUM, 'minimum': NUM,
    'bitwise_not': INTS + [BOOL], 'bitwise_and': INTS + [BOOL], 'bitwise_or': INTS + [BOOL],
    'bitwise_xor': INTS + [BOOL],
    'clz': INTS, 'arithmetic_right_shift': INTS, 'logical_left_shift': INTS,
    'logical_right_shift': INTS, 'intdiv': INTS,
    'equal': NUM + [BOOL], 'greater': NUM + [BOOL], 'greater_equal': NUM + [BOOL],
    # NumPy's logical ops take any numeric type (x != 0) and return bool
    'logical_not': ALL_T, 'logical_and': ALL_T, 'logical_or': ALL_T, 'logical_xor': ALL_T,
    'pow': NUM,
    'select': NUM + [BOOL],
}
TRANS = ['ceil', 'floor', 'erf', 'exp', 'log', 'reciprocal', 'rsqrt', 'sigmoid', 'tanh',
         'sin', 'cos']
for _op in TRANS:
    TYPES[_op] = FLOATS
UNARY = ['abs', 'negate', 'clamp', 'bitwise_not', 'clz', 'logical_not'] + TRANS
SHIFTS = ['arithmetic_right_shift', 'logical_left_shift', 'logical_right_shift']
ALL = NUM + [BOOL]


def bits(d):
    return d.itemsize * 8


def unsigned_of(d):
    return np.dtype('u%d' % d.itemsize)


def f64(a):
    return np.asarray(a).astype(np.float64)


def attr_dict(attrs):
    return dict(a.split('=', 1) for a in attrs)


def fuzzy(ref, d, n_ulp, extra=None):
    """Tolerance for NumPy's transcendental results: n ulp of the fp64
    reference, or the TOSA budget if larger."""
    b = n_ulp * ulp(ref, d)
    if extra is not None:
        b = np.maximum(b, extra)
    return Tol(ref, b, d)


def expect(op, ins, attrs):
    with np.errstate(all='ignore'):
        return _expect(op, ins, attr_dict(attrs))


def _expect(op, ins, at):
    d = ins[-1].dtype if op == 'select' else ins[0].dtype
    if op == 'cast':
        to = np.dtype(CAST_TO[at['to']])
        return Exact(ins[0].astype(to))
    if op in TRANS:
        x = f64(ins[0])
        m = 3.0 if d != np.float16 else 1.0
        if op == 'ceil':
            return Exact(np.ceil(ins[0]))
        if op == 'floor':
            return Exact(np.floor(ins[0]))
        if op == 'reciprocal':
            return ro.within_ulps(1.0 / x, 1, d)
        if op == 'rsqrt':
            return ro.within_ulps(1.0 / np.sqrt(x), 2, d)
        if op == 'erf':
            ref = np.vectorize(math.erf, otypes=[np.float64])(x) if x.size else x
            return fuzzy(ref, d, 5)
        if op == 'exp':
            ref = np.exp(x)
            return fuzzy(ref, d, 4, abs_error_bound(ref, m + 2 * np.abs(x), 0, d))
        if op == 'log':
            ref = np.log(x)
            return fuzzy(ref, d, 4, abs_error_bound(ref, 5, 0.5, d))
        if op == 'sigmoid':
            # e/(1+e) with e = exp(-|x|): 1/(1+exp(-x)) underflows to 0 where
            # the result is still subnormal (x near -715)
            e = np.exp(-np.abs(x))
            ref = np.where(x >= 0, 1.0 / (1.0 + e), e / (1.0 + e))
            return fuzzy(ref, d, 4, abs_error_bound(ref, 2 * (1 + np.abs(x)), 0, d))
        if op == 'tanh':
            ref = np.tanh(x)
            return fuzzy(ref, d, 4, abs_error_bound(ref, 4 * (m + 2 * np.abs(x)), 0.5, d))
        if op in ('sin', 'cos'):
            return fuzzy(np.sin(x) if op == 'sin' else np.cos(x), d, 4)
    if op == 'abs':
        return Exact(np.abs(ins[0]))
    if op == 'negate':
        return Exact(np.negative(ins[0]))
    if op == 'bitwise_not':
        return Exact(np.invert(ins[0]))
    if op == 'logical_not':
        return Exact(np.logical_not(ins[0]))
    if op == 'clz':
        x = ins[0].view(unsigned_of(d)).astype(np.uint64)
        n = np.zeros(x.shape, np.int64)
        y = x.copy()
        for _ in range(bits(d)):
            n += (y != 0)
            y >>= np.uint64(1)
        return Exact((bits(d) - n).astype(d))
    if op == 'clamp':
        lo, hi = parse_attr(at['min_val'], d), parse_attr(at['max_val'], d)
        return Exact(np.clip(ins[0], lo, hi).astype(d), signed_zero=False)
    if op == 'select':
        return Exact(np.where(ins[0], ins[1], ins[2]))
    a, b = ins
    fn = {'add': np.add, 'sub': np.subtract, 'mul': np.multiply, 'maximum': np.maximum,
          'minimum': np.minimum, 'bitwise_and': np.bitwise_and, 'bitwise_or': np.bitwise_or,
          'bitwise_xor': np.bitwise_xor, 'equal': np.equal, 'greater': np.greater,
          'greater_equal': np.greater_equal, 'logical_and': np.logical_and,
          'logical_or': np.logical_or, 'logical_xor': np.logical_xor,
          'arithmetic_right_shift': np.right_shift, 'logical_left_shift': np.left_shift,
          'intdiv': np.floor_divide}.get(op)
    if fn is not None:
        r = fn(a, b)
        return Exact(r, signed_zero=op not in ('maximum', 'minimum'))
    if op == 'logical_right_shift':
        u = unsigned_of(d)
        return Exact(np.right_shift(a.view(u), b.view(u)).view(d))
    if op == 'pow':
        if d.kind == 'f':
            x, y = f64(a), f64(b)
            ref = np.power(x, y)
            yl = y * np.log(np.abs(x))
            lg = np.maximum(np.abs(np.log(np.abs(x))), 0.1)
            k = 3 + 3 * np.abs(yl) + 5 * np.abs(y) * lg
            k = np.where(np.isfinite(k), k, 0.0)
            return fuzzy(ref, d, 4, abs_error_bound(ref, k, 0, d))
        return Exact(np.power(a, b))
    raise ValueError(op)


def parse_attr(text, d):
    if d.kind == 'f':
        return d.type(float(text))
    return d.type(int(text))


CAST_TO = {n: c for c, n in ro.DT_NAME.items()}


def fix_domain(op, ins, attrs):
    """Keep inputs where NumPy's result is defined and platform independent."""
    shape = np.broadcast_shapes(*[a.shape for a in ins])
    d = ins[0].dtype
    with np.errstate(all='ignore'):
        if op in SHIFTS:
            ins[1][...] = np.abs(ins[1].astype(np.int64) % bits(d)).astype(d)
        if op == 'intdiv':
            a, b = [np.broadcast_to(v, shape) for v in ins]
            bad = b == 0
            if d.kind == 'i':
                bad |= (a == np.iinfo(d).min) & (b == -1)
            ro.fix_where(ins[1], shape, bad, 1)
            a, b = [np.broadcast_to(v, shape).astype(object) for v in ins]
            if a.size:
                # NumPy floors; the op is TOSA's truncating INTDIV: keep to the
                # cases where both agree (exact quotient or same signs)
                disagree = np.vectorize(lambda x, y: (x % y != 0) and ((x < 0) != (y < 0)),
                                        otypes=[bool])(a, b)
                ro.fix_where(ins[0], shape, disagree, 0)
        if op == 'pow' and d.kind in 'iu':
            ins[1][...] = (np.abs(ins[1].astype(np.int64)) % (bits(d) + 3)).astype(d)
    return ins


def cast_input(rng, fr, to, shape):
    x = ro.random_values(rng, fr, shape)
    if fr.kind == 'f' and to.kind in 'iu':
        info = np.iinfo(to)
        lim = min(float(info.max), float(np.finfo(fr).max))
        lo = -1.0 if to.kind == 'u' else max(float(info.min), -float(np.finfo(fr).max))
        v = x.astype(np.float64)
        ok = np.isfinite(v) & (v > lo - (0 if to.kind == 'u' else 1)) & (v < lim)
        # avoid the boundary where the float rounds above the integer range
        ok &= np.abs(v) < float(info.max) * 0.999
        small = rng.uniform(-1 if to.kind == 'u' else -300, 300, x.size).reshape(shape)
        small = np.where(rng.random(x.size).reshape(shape) < 0.5, np.round(small) + 0.5, small)
        v = np.where(ok, v, small)
        if to.kind == 'u':
            v = np.where(v <= -1, 0.25, v)
        x = v.astype(fr)
        # after rounding to fr the value may have moved; clamp to a safe range again
        xv = x.astype(np.float64)
        x = np.where((xv >= float(info.max)) | (xv <= (-1 if to.kind == 'u' else float(info.min) - 1)),
                     fr.type(0), x).astype(fr)
    return x


def gen_inputs(rng, op, d, shapes):
    return [np.array(v) for v in _gen_inputs(rng, op, d, shapes)]   # 0-d stays an array


def _gen_inputs(rng, op, d, shapes):
    if op == 'select':
        return [ro.random_values(rng, BOOL, shapes[0]), ro.random_values(rng, d, shapes[1]),
                ro.random_values(rng, d, shapes[2])]
    out = []
    for s in shapes:
        kind = 'small' if op in ('exp', 'sigmoid', 'tanh', 'erf', 'pow') and rng.random() < 0.6 else 'any'
        out.append(ro.random_values(rng, d, s, kind=kind))
    return out


def clamp_attrs(rng, d):
    if d.kind == 'f':
        pool = np.concatenate([ro.boundaries(d), ro.random_values(rng, d, (8,), kind='small')])
        pool = pool[~np.isnan(pool)]
        lo, hi = sorted(float(v) for v in rng.choice(pool, 2))
        return ['min_val=%r' % lo, 'max_val=%r' % hi]
    info = np.iinfo(d)
    lo, hi = sorted(int(v) for v in rng.integers(int(info.min), int(info.max), 2, endpoint=True,
                                                  dtype=np.int64 if d != np.uint64 else np.uint64))
    return ['min_val=%d' % lo, 'max_val=%d' % hi]


def orders(rng, n):
    return [str(rng.choice(['C', 'C', 'F', 'N', 'B'])) for _ in range(n)]


def add_random(h, rng, reps):
    ops = UNARY + ['add', 'sub', 'mul', 'maximum', 'minimum', 'bitwise_and', 'bitwise_or',
                   'bitwise_xor', 'arithmetic_right_shift', 'logical_left_shift',
                   'logical_right_shift', 'intdiv', 'equal', 'greater', 'greater_equal',
                   'logical_and', 'logical_or', 'logical_xor', 'pow', 'select']
    for op in ops:
        nin = 1 if op in UNARY else 3 if op == 'select' else 2
        for d in TYPES[op]:
            for rep in range(reps + 1):
                attrs = clamp_attrs(rng, d) if op == 'clamp' else []
                if rep < reps:
                    shapes, _ = ro.numpy_shapes(rng, nin, 300000, big=(rep == 0))
                    ins = gen_inputs(rng, op, d, shapes)
                    label = 'random %s %s' % (op, ro.name_of(d))
                else:
                    ins = boundary_inputs(op, d, nin)
                    label = 'boundary %s %s' % (op, ro.name_of(d))
                ins = fix_domain(op, ins, attrs)
                h.add(Case(op, ins, expect(op, ins, attrs), attrs, 'numpy', label=label,
                           orders=orders(rng, nin)))
    names = ['bool', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64',
             'float16', 'float32', 'float64']
    for fr in ALL:
        for to_name in names:
            to = np.dtype(CAST_TO[to_name])
            attrs = ['to=' + to_name]
            for rep in range(2):
                if rep == 0:
                    shapes, _ = ro.numpy_shapes(rng, 1, 300000, big=True)
                    x = cast_input(rng, fr, to, shapes[0])
                else:
                    x = ro.boundaries(fr).copy()
                    if fr.kind == 'f' and to.kind in 'iu':
                        v = x.astype(np.float64)
                        info = np.iinfo(to)
                        keep = np.isfinite(v) & (v < float(info.max)) & \
                            (v > (-1 if to.kind == 'u' else float(info.min) - 1))
                        x = x[keep]
                h.add(Case('cast', [x], expect('cast', [x], attrs), attrs, 'numpy',
                           label='%s cast %s->%s' % ('random' if rep == 0 else 'boundary',
                                                     ro.name_of(fr), to_name),
                           orders=orders(rng, 1)))


def boundary_inputs(op, d, nin):
    bv = ro.boundaries(d).copy()
    if nin == 1:
        return [bv]
    if op == 'select':
        return [np.array([True, False]).reshape(2, 1, 1), bv.reshape(-1, 1), bv[::-1].copy()]
    a = bv.reshape(-1, 1).copy()
    b = bv.copy()                     # rank 1 against rank 2: NumPy prepends 1s
    if op in SHIFTS:
        b = np.arange(bits(d)).astype(d)
    if op == 'pow' and d.kind in 'iu':
        b = np.arange(0, bits(d) + 2).astype(d)
    return [a, b]


def add_probes(h, rng):
    """Conversions NumPy does in one rounding (a detour through float32 or
    float64 rounds twice), and shift counts outside [0, bits-1], which NumPy
    defines (left: 0; right: 0 or -1 by sign)."""
    # float64 -> float16 just above/below a float16 tie
    v = ro.random_values(rng, np.float16, (400,), p_boundary=0, kind='small').astype(np.float64)
    v = v[np.isfinite(v)]
    w = np.nextafter(v.astype(np.float16), np.float16(np.inf)).astype(np.float64)
    mid = (v + w) / 2
    eps = np.abs(mid) * 2.0 ** -40
    x = np.concatenate([mid + eps, mid - eps, mid])
    h.add(Case('cast', [x], Exact(x.astype(np.float16)), ['to=float16'], 'numpy',
               label='probe cast float64->float16 single rounding'))
    # int64 / uint64 -> float32 just above a float32 tie
    e = rng.integers(30, 62, 300)
    base = (np.int64(1) << e.astype(np.int64))
    sp = base >> 24                                  # float32 spacing at 2^e is 2^(e-23)
    xi = base + sp + 1                               # tie + 1 -> rounds up (once)
    xi = np.concatenate([xi, -xi, base + sp - 1, base + 3 * sp])
    h.add(Case('cast', [xi], Exact(xi.astype(np.float32)), ['to=float32'], 'numpy',
               label='probe cast int64->float32 single rounding'))
    xu = xi[xi > 0].astype(np.uint64) * np.uint64(2)
    h.add(Case('cast', [xu], Exact(xu.astype(np.float32)), ['to=float32'], 'numpy',
               label='probe cast uint64->float32 single rounding'))
    with np.errstate(over='ignore'):
        xi16 = xi.astype(np.float16)
    h.add(Case('cast', [xi], Exact(xi16), ['to=float16'], 'numpy',
               label='probe cast int64->float16'))
    for d in INTS:
        b = bits(d)
        counts = [b, b + 1, 2 * b - 1, int(np.iinfo(d).max)]
        if d.kind == 'i':
            counts += [-1, -b, int(np.iinfo(d).min)]
        a = ro.boundaries(d).reshape(-1, 1)
        c = np.array(counts, d)
        for op, fn in (('logical_left_shift', np.left_shift), ('arithmetic_right_shift', np.right_shift)):
            with np.errstate(all='ignore'):
                h.add(Case(op, [a, c], Exact(fn(a, c)), [], 'numpy',
                           label='probe %s %s counts outside [0, bits-1]' % (op, ro.name_of(d))))


def add_errors(h, rng):
    pairs = [('add', 'i4', 'f4'), ('add', 'i4', 'i8'), ('mul', 'u1', 'i1'), ('maximum', 'f2', 'f4'),
             ('equal', 'i2', 'u2'), ('bitwise_and', 'i4', 'u4'), ('sub', 'f8', 'f4'),
             ('logical_and', '?', 'i1')]
    # the tosa profile refuses mixed types and names the numpy profile's
    # promotion (test_numpy_ops.py runs them under numpy)
    for op, x, y in pairs:
        a = ro.random_values(rng, x, (2, 3))
        b = ro.random_values(rng, y, (2, 3))
        h.add(Case(op, [a, b], None, [], 'tosa', rc=(1, 2),
                   err_all=['numpy profile promotes', '-> ' + ro.name_of(np.result_type(x, y))],
                   label='tosa refuses mixed dtypes %s %s/%s' % (op, x, y)))
    # in NumPy's words under numpy (issue 24), TOSA's under tosa
    h.add(Case('add', [np.ones((2, 3), 'f4'), np.ones((4,), 'f4')], None, [], 'numpy', rc=1,
               err_all=['operands could not be broadcast together with shapes (2,3) (4,) '],
               label='incompatible shapes'))
    h.add(Case('floor_divide', [np.ones((2, 3), 'f4'), np.ones((1, 4), 'f4')], None, [], 'numpy',
               rc=1, err_all=['operands could not be broadcast together with shapes (2,3) (1,4) '],
               label='incompatible shapes, floor_divide'))
    h.add(Case('add', [np.ones((2, 3), 'f4'), np.ones((2, 4), 'f4')], None, [], 'tosa', rc=1,
               err_all=['tosa.add: at broadcast dim 1'], label='incompatible shapes, tosa'))
    # ops NumPy does not define for a type are refused
    for op, t in (('bitwise_and', 'f4'), ('bitwise_not', 'f8'), ('clz', 'f2'),
                  ('logical_left_shift', 'f4'), ('sub', '?'), ('negate', '?')):
        ins = [np.ones((3,), t)] * (1 if op in UNARY else 2)
        h.add(Case(op, ins, None, [], 'numpy', rc=(1, 2), err_any=[['type', t, ro.name_of(t)]],
                   label='numpy profile refuses %s %s' % (op, t)))
    # numpy profile allows rank differences and size-0 dims (exact expected)
    a = np.arange(6, dtype='i4').reshape(2, 3)
    b = np.array([10, 20, 30], 'i4')
    h.add(Case('add', [a, b], Exact(a + b), [], 'numpy', label='rank 2 + rank 1'))
    z = np.zeros((0, 3), 'f8')
    h.add(Case('mul', [z, np.ones((1, 3), 'f8')], Exact(z * 1), [], 'numpy', label='size-0 dim'))
    h.add(Case('add', [np.ones((5, 0, 1), 'i2'), np.ones((4,), 'i2')],
               Exact(np.ones((5, 0, 4), 'i2')), [], 'numpy', label='size-0 dim broadcast'))


def main():
    args = ro.parse_args(__doc__)
    print('seed %d (replay: --seed %d)' % (args.seed, args.seed))
    rng = np.random.default_rng(args.seed)
    h = ro.Harness(args.bcast, args.seed, os.path.abspath(__file__), args.jobs, args.keep, args.case,
                   args.scale)
    add_errors(h, rng)
    add_probes(h, rng)
    add_random(h, rng, args.reps or args.scaled(3))
    elapsed = h.run_all()
    return ro.finish(h, elapsed)


if __name__ == '__main__':
    ro.main_guard(main)
