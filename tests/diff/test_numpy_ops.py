#!/usr/bin/python3
"""The numpy profile is NumPy: type promotion, NumPy's own ops, scalar
operands, against NumPy 1.24 (Debian's /usr/bin/python3).

1. The promotion table: bcast_dtype_result_type (through ctypes, from the
   libbcast.so beside the bcast binary) equals numpy.result_type for every
   pair and every triple of NumPy's 12 types, and random quadruples.
2. `bcast run where true A B --profile numpy` gives numpy.where's dtype and
   values for every pair of types (execution with promotion).
3. Binary ops over every pair of types (random broadcast shapes and
   values): NumPy's result dtype and values, exact (comparisons, integer and
   float arithmetic, divide, floor_divide, remainder, logical and bitwise
   ops); where NumPy raises TypeError, bcast refuses.  bool with bool
   included: add, multiply, maximum, minimum as logical or / and,
   floor_divide, remainder, power, square and reciprocal in int8, as NumPy.
4. Unary ops over every type: sqrt and square (new), negative, absolute,
   reciprocal (NumPy's integer reciprocal: 1.0 / x converted to the type),
   and the float ops NumPy runs on integers in the smallest float that holds
   them (exp, log, tanh, floor, ceil).
5. Scalar operands with NEP 50's weak typing (and as truth values of their
   own beside the logical ops, whose loop NumPy runs in bool).
The oracle is NumPy 1.24 with numpy._set_promotion_state('weak') (NEP 50,
NumPy 2's rule): 0-d arrays promote like any array (NumPy 1.x's legacy
rule types them by value) and Python scalars are weak.
6. The tosa profile's refusals name the numpy profile.

Prints the seed; replay with --seed (and --case K --keep for one case).
"""
import ctypes
import itertools
import os
import re
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_oracle as ro  # noqa: E402
from run_oracle import Case, Exact, Scalar  # noqa: E402
import test_run_numpy as trn  # noqa: E402

TYPES = [np.dtype(c) for c in ('?', 'i1', 'i2', 'i4', 'i8', 'u1', 'u2', 'u4', 'u8',
                               'f2', 'f4', 'f8')]

# bcast's name -> NumPy's function
BINARY = {
    'add': np.add, 'subtract': np.subtract, 'multiply': np.multiply,
    'maximum': np.maximum, 'minimum': np.minimum, 'fmax': np.fmax, 'fmin': np.fmin,
    'divide': np.divide,
    'floor_divide': np.floor_divide, 'remainder': np.remainder,
    'equal': np.equal, 'not_equal': np.not_equal, 'less': np.less,
    'less_equal': np.less_equal, 'greater': np.greater, 'greater_equal': np.greater_equal,
    'logical_and': np.logical_and, 'logical_or': np.logical_or, 'logical_xor': np.logical_xor,
    'bitwise_and': np.bitwise_and, 'bitwise_or': np.bitwise_or, 'bitwise_xor': np.bitwise_xor,
}
FULL_PAIRS = {'floor_divide', 'less'}
UNARY = {'sqrt': np.sqrt, 'square': np.square, 'negative': np.negative,
         'absolute': np.absolute, 'reciprocal': np.reciprocal}
FLOAT_OPS = ['exp', 'log', 'tanh', 'floor', 'ceil']


def numpy_result(fn, ins):
    """NumPy's result, or None where NumPy raises TypeError."""
    try:
        with np.errstate(all='ignore'):
            return fn(*ins)
    except TypeError:
        return None


def add_result_type(h, lib):
    """bcast_dtype_result_type against numpy.result_type (in-process)."""
    lib.bcast_dtype_name.restype = ctypes.c_char_p
    ids = {}
    for k in range(64):
        name = lib.bcast_dtype_name(k).decode()
        if name == 'unknown':
            break
        ids[name] = k
    names = {v: k for k, v in ids.items()}
    diag = ctypes.create_string_buffer(16384)

    def bcast_rt(types):
        arr = (ctypes.c_int * len(types))(*[ids[ro.name_of(t)] for t in types])
        out = ctypes.c_int(-1)
        st = lib.bcast_dtype_result_type(ctypes.c_size_t(len(types)), arr, ctypes.byref(out), diag)
        return names.get(out.value) if st == 0 else 'error %d' % st

    rng = np.random.default_rng(h.seed)
    tuples = list(itertools.product(TYPES, repeat=2)) + list(itertools.product(TYPES, repeat=3))
    tuples += [tuple(TYPES[i] for i in rng.integers(0, 12, 4)) for _ in range(h.scaled(3000))]
    bad = 0
    for t in tuples:
        want = ro.name_of(np.result_type(*t))
        got = bcast_rt(t)
        if got != want:
            bad += 1
            if bad <= 10:
                print('FAIL result_type%s: bcast %s, numpy %s' % (
                    tuple(ro.name_of(x) for x in t), got, want))
    # bfloat16 is not NumPy's: bcast's documented rule (ml_dtypes')
    bf = [(('bfloat16', 'float16'), 'float32'), (('bfloat16', 'float32'), 'float32'),
          (('bfloat16', 'float64'), 'float64'), (('bfloat16', 'bool'), 'bfloat16'),
          (('bfloat16', 'int8'), 'float32'), (('bfloat16', 'bfloat16'), 'bfloat16')]
    for (a, b), want in bf:
        arr = (ctypes.c_int * 2)(ids[a], ids[b])
        out = ctypes.c_int(-1)
        lib.bcast_dtype_result_type(ctypes.c_size_t(2), arr, ctypes.byref(out), diag)
        if names.get(out.value) != want:
            bad += 1
            print('FAIL result_type(%s, %s): bcast %s, rule %s' % (a, b, names.get(out.value), want))
    print('result_type: %d type tuples checked, %d differ' % (len(tuples) + len(bf), bad))


def values(rng, d, shape, op):
    x = ro.random_values(rng, d, shape)
    if op in ('floor_divide', 'remainder', 'divide') and d.kind in 'iu' and rng.random() < 0.5:
        x = np.array(x)
        x[...] = ro.random_values(rng, d, shape) % 50   # small divisors and dividends too
    return np.array(x)


def sample(h, rng, items, n):
    """n of items at random (all of them at --scale 1), scaled."""
    n = min(len(items), h.scaled(n))
    return [items[i] for i in sorted(rng.choice(len(items), n, replace=False))]


def add_pairs(h, rng):
    for a, b in sample(h, rng, list(itertools.product(TYPES, repeat=2)), 144):
        x, y = np.array([ro.boundaries(a)[-1]]), np.array([ro.boundaries(b)[0]])
        h.add(Case('where', [np.array(True), x, y], Exact(np.where(True, x, y)), [], 'numpy',
                   label='promotion where %s %s' % (ro.name_of(a), ro.name_of(b))))
    all_pairs = list(itertools.product(TYPES, repeat=2))
    for op, fn in BINARY.items():
        # every pair for two ops; a random share of the pairs for the others
        pairs = sample(h, rng, all_pairs, 144 if op in FULL_PAIRS else 14)
        for a, b in pairs:
            shapes, _ = ro.numpy_shapes(rng, 2, 2000)
            ins = [values(rng, a, shapes[0], op), values(rng, b, shapes[1], op)]
            label = '%s %s %s' % (op, ro.name_of(a), ro.name_of(b))
            ref = numpy_result(fn, ins)
            if ref is None:
                h.add(Case(op, ins, None, [], 'numpy', rc=1, err_any=[['take', 'type']],
                           label='refused ' + label))
                continue
            h.add(Case(op, ins, Exact(ref, signed_zero=op not in ('maximum', 'minimum', 'fmax', 'fmin')),
                       [], 'numpy', label=label, orders=trn.orders(rng, 2)))
    # the other NumPy names, same type
    for op, fn in (('power', np.power), ('left_shift', np.left_shift),
                   ('right_shift', np.right_shift), ('mod', np.remainder),
                   ('true_divide', np.true_divide)):
        for d in (np.dtype('i1'), np.dtype('u2'), np.dtype('i8')):
            a = values(rng, d, (4, 5), op)
            b = (np.abs(values(rng, d, (5,), op).astype(np.int64)) % (d.itemsize * 8)).astype(d)
            h.add(Case(op, [a, b], Exact(numpy_result(fn, [a, b])), [], 'numpy',
                       label='%s %s' % (op, ro.name_of(d))))


def add_unary(h, rng):
    for d in sample(h, rng, TYPES, 12):
        shapes, _ = ro.numpy_shapes(rng, 1, 3000)
        x = np.array(ro.random_values(rng, d, shapes[0]))
        for op, fn in UNARY.items():
            ref = numpy_result(fn, [x])
            if ref is None:
                h.add(Case(op, [x], None, [], 'numpy', rc=1, label='refused %s %s' % (
                    op, ro.name_of(d))))
                continue
            if op == 'reciprocal' and d.kind == 'f':
                ref = ro.within_ulps(1.0 / x.astype(np.float64), 1, d)
            else:
                ref = Exact(ref)
            h.add(Case(op, [x], ref, [], 'numpy', label='%s %s' % (op, ro.name_of(d))))
        if d.kind == 'f':
            continue
        for op in FLOAT_OPS:
            ft = getattr(np, op)(np.zeros(1, d)).dtype   # NumPy's float for this input
            xf = x.astype(ft)
            h.add(Case(op, [x], trn.expect(op, [xf], []), [], 'numpy',
                       label='%s of %s in %s' % (op, ro.name_of(d), ro.name_of(ft))))


def add_scalars(h, rng):
    if True:
        lits = [('3', 3), ('-1', -1), ('2.5', 2.5), ('true', True), ('false', False),
                ('300', 300), ('nan', float('nan')), ('inf', float('inf')), ('-0.5', -0.5),
                ('70000', 70000)]
        for d in TYPES:
            x = np.array(ro.random_values(rng, d, (3, 4)))
            for text, v in lits:
                # divide and logical_or type the scalar by their loop (float64,
                # bool): int8 array / 300 is float64, not out of bounds
                for op, fn in (('add', np.add), ('less', np.less), ('multiply', np.multiply),
                               ('maximum', np.maximum), ('divide', np.true_divide),
                               ('logical_or', np.logical_or)):
                    for first in ((False, True) if op == 'add' else (bool(rng.random() < 0.5),)):
                        if rng.random() > (1.0 if op == 'add' else 0.4) * min(1.0, h.scale):
                            continue
                        ins = [Scalar(text, v), x] if first else [x, Scalar(text, v)]
                        label = 'scalar %s %s %s' % (op, ro.name_of(d), text)
                        try:
                            with np.errstate(all='ignore'):
                                ref = fn(v, x) if first else fn(x, v)
                        except OverflowError:
                            h.add(Case(op, ins, None, [], 'numpy', rc=1,
                                       err_all=['out of bounds for ' + ro.name_of(d)],
                                       label=label))
                            continue
                        except TypeError:
                            ref = None
                        if ref is None:
                            h.add(Case(op, ins, None, [], 'numpy', rc=1, label='refused ' + label))
                            continue
                        h.add(Case(op, ins, Exact(ref, signed_zero=op != 'maximum'), [], 'numpy',
                                   label=label))
        # both scalars; where with a scalar value
        h.add(Case('multiply', [Scalar('3', 3), Scalar('4', 4)], Exact(np.multiply(3, 4)), [],
                   'numpy', label='scalar * scalar'))
        x = np.arange(6, dtype='i1').reshape(2, 3)
        c = x % 2 == 0
        h.add(Case('where', [c, x, Scalar('7', 7)], Exact(np.where(c, x, np.int8(7))), [],
                   'numpy', label='where with a scalar value'))


def add_hints(h, rng):
    u2 = np.ones((2, 3), 'u2')
    # maximum: MLIR 22's tosa-to-linalg lowers add of uint16, not maximum.
    h.add(Case('maximum', [u2, u2], None, [], 'tosa', rc=1,
               err_all=['uint16', 'numpy profile takes it'],
               label='tosa refuses uint16 maximum, names numpy'))
    f8 = np.ones((2, 3), 'f8')
    h.add(Case('add', [f8, f8], None, [], 'tosa', rc=1, err_all=['float64', 'numpy profile takes it'],
               label='tosa-1.0 tables refuse float64, name numpy', types='tosa-1.0'))
    i4 = np.ones((2, 3), 'i4')
    h.add(Case('add', [i4, np.ones((3,), 'i4')], None, [], 'tosa', rc=1,
               err_all=['matching ranks', 'numpy'], label='tosa refuses ranks, names numpy'))
    h.add(Case('add', [i4, np.ones((2, 3), 'i1')], None, [], 'tosa', rc=1,
               err_all=['numpy profile promotes: int32 + int8 -> int32'],
               label='tosa refuses mixed types, names numpy'))
    for op in ('divide', 'floor_divide', 'sqrt', 'less'):
        ins = [np.ones((2,), 'f4')] * (1 if op == 'sqrt' else 2)
        h.add(Case(op, ins, None, [], 'tosa', rc=1, err_all=['numpy profile'],
                   label='tosa refuses NumPy op %s' % op))


def result_type_child(h, lib_path):
    """Runs add_result_type in a child python that loads lib_path; a
    sanitized library needs its sanitizer runtimes preloaded."""
    env = dict(os.environ)
    ldd = subprocess.run(['ldd', lib_path], capture_output=True, text=True).stdout
    pre = [line.split('=>')[1].split('(')[0].strip() for line in ldd.splitlines()
           if ('libasan' in line or 'libubsan' in line) and '=>' in line]
    if pre:
        env['LD_PRELOAD'] = ' '.join(pre)
        env['ASAN_OPTIONS'] = 'detect_leaks=0'
    p = subprocess.run([sys.executable, os.path.abspath(__file__), '--result-type-lib',
                        lib_path, '--seed', str(h.seed), '--scale', str(h.scale)],
                       capture_output=True, text=True, env=env, timeout=300)
    sys.stdout.write(p.stdout)
    m = re.search(r'^result_type: (\d+) type tuples checked, (\d+) differ$', p.stdout, re.M)
    if p.returncode != 0 or not m:
        print('FAIL result_type child (exit %d): %s' % (p.returncode, p.stderr.strip()[-600:]))
        h.failed += 1
        return
    h.failed += int(m.group(2))
    h.passed += int(m.group(1)) - int(m.group(2))


def main():
    if len(sys.argv) > 2 and sys.argv[1] == '--result-type-lib':
        child = ro.Harness('/bin/true', int(sys.argv[4]), __file__, scale=float(sys.argv[6]))
        child.scaled = lambda n: max(1, int(n * child.scale))
        add_result_type(child, ctypes.CDLL(sys.argv[2]))
        return 0
    args = ro.parse_args(__doc__)
    print('seed %d (replay: --seed %d)' % (args.seed, args.seed))
    rng = np.random.default_rng(args.seed)
    # NEP 50 (NumPy 2's rule): 0-d arrays are typed like any array, not by
    # value as NumPy 1.x's legacy promotion does; Python scalars are weak
    np._set_promotion_state('weak')
    h = ro.Harness(args.bcast, args.seed, os.path.abspath(__file__), args.jobs, args.keep,
                   args.case, args.scale)
    h.scaled = args.scaled
    lib_path = os.path.join(os.path.dirname(os.path.abspath(args.bcast)), 'libbcast.so')
    if args.case is None:
        result_type_child(h, lib_path)
    add_hints(h, rng)
    add_pairs(h, rng)
    add_unary(h, rng)
    add_scalars(h, rng)
    elapsed = h.run_all()
    return ro.finish(h, elapsed)


if __name__ == '__main__':
    ro.main_guard(main)
