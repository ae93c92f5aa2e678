#!/usr/bin/python3
"""Differential test of the .npy commands of bcast against NumPy.

For random arrays of every supported dtype and byte order (rank 0..8,
size-0 and size-1 dims, Fortran-order and non-contiguous sources, strings),
checks that
  bcast broadcast    == np.save(np.broadcast_arrays(...)[i].copy())
  bcast broadcast-to == np.save(np.broadcast_to(x, shape).copy())
byte for byte; that version 2.0/3.0 files are read; that malformed files
exit 2 naming the file, incompatible shapes exit 1 naming operands and dims,
and --max-bytes refusals exit 1.  Prints the seed; replay with --seed.
"""
import hashlib
import io
import os
import random
import shutil
import sys
import tempfile
import time

import numpy as np
import numpy.lib.format as npformat

import common

NUMERIC = ['?', 'i1', 'i2', 'i4', 'i8', 'u1', 'u2', 'u4', 'u8', 'f2', 'f4', 'f8']
UNICODE_CHARS = 'abcXYZ019 \u00e9\u00df\u4e2d\U0001F600\x00'


class Runner(common.Tally):
    def __init__(self, bcast, tmp):
        super().__init__()
        self.bcast = bcast
        self.tmp = tmp
        self.counter = 0

    def path(self, stem):
        self.counter += 1
        return os.path.join(self.tmp, '%s%d.npy' % (stem, self.counter))

    def run(self, *args):
        return common.run([self.bcast] + [str(a) for a in args])


def npy_bytes(a, version=None):
    buf = io.BytesIO()
    if version is None:
        np.save(buf, a)
    else:
        npformat.write_array(buf, a, version=version)
    return buf.getvalue()


def random_values(rng, dtype, shape):
    """Random contents; strings get a random width and embedded NULs."""
    n = int(np.prod(shape, dtype=np.int64))
    kind = dtype.lstrip('<>|=')[0]
    if kind in 'SU':
        width = rng.randint(1, 6)
        full = '%s%d' % (dtype, width)
        if kind == 'S':
            vals = [bytes(rng.choice([0, 97, 98, 99, 200, 255]) for _ in range(rng.randint(0, width)))
                    for _ in range(n)]
        else:
            vals = [''.join(rng.choice(UNICODE_CHARS) for _ in range(rng.randint(0, width)))
                    for _ in range(n)]
        return (np.array(vals, dtype=full) if n else np.zeros(0, full)).reshape(shape)
    base = np.dtype(dtype)
    if kind == '?':
        a = np.array([rng.random() < 0.5 for _ in range(n)], dtype='?')
    else:
        # Raw random bytes: every bit pattern, NaN payloads included.
        a = np.frombuffer(bytes(rng.getrandbits(8) for _ in range(n * base.itemsize)),
                          dtype=base).copy()
    return a.reshape(shape)


def random_dtype(rng):
    d = rng.choice(NUMERIC + ['S', 'U', 'U'])
    if d in ('S',):
        return '|S'
    if d == 'U':
        return rng.choice('<>') + 'U'
    if d in ('?', 'i1', 'u1'):
        return d
    return rng.choice('<><') + d


def random_layout(rng, a):
    """The same values as C, Fortran or non-contiguous memory."""
    r = rng.random()
    if r < 0.25:
        return np.asfortranarray(a)
    if r < 0.4 and a.ndim > 0 and a.size > 0:
        big = np.concatenate([a, a], axis=-1)
        return big[..., ::2] if a.shape[-1] > 0 else a
    return a


def random_common_shape(rng):
    rank = rng.choice([0, 1, 1, 2, 2, 3, 3, 4, 5, 6, 7, 8])
    dims = []
    for _ in range(rank):
        dims.append(rng.choice([1, 1, 2, 3, 4, 5]) if rank <= 4 else rng.choice([1, 1, 2, 3]))
    if rng.random() < 0.1 and rank:
        dims[rng.randrange(rank)] = 0
    return tuple(dims)


def operand_shape(rng, common):
    drop = rng.randint(0, len(common))
    dims = list(common[drop:])
    for i in range(len(dims)):
        if rng.random() < 0.35:
            dims[i] = 1
    return tuple(dims)


def test_broadcast(r, rng, cases):
    out = os.path.join(r.tmp, 'out')
    for case in range(cases):
        common = random_common_shape(rng)
        n = rng.randint(1, 4)
        arrays, paths = [], []
        incompatible = rng.random() < 0.1 and len(common) > 0
        for k in range(n):
            shape = operand_shape(rng, common)
            if incompatible and k == n - 1:
                shape = tuple(list(shape[:-1]) + [common[-1] + 2]) if shape else (7,)
            a = random_layout(rng, random_values(rng, random_dtype(rng), shape))
            p = r.path('x')
            np.save(p, a)
            arrays.append(np.load(p))
            paths.append(p)
        try:
            expected = [npy_bytes(z.copy()) for z in np.broadcast_arrays(*arrays)]
        except ValueError:
            expected = None
        digests = [hashlib.sha256(open(p, 'rb').read()).hexdigest() for p in paths]
        shutil.rmtree(out, ignore_errors=True)
        rc, _, err = r.run('broadcast', *paths, '-o', out)
        what = 'broadcast case %d %s' % (case, [(a.dtype.str, a.shape) for a in arrays])
        if expected is None:
            r.check(rc == 1 and 'operand' in err and 'size' in err and
                    sum(os.path.basename(p) in err for p in paths) >= 2,
                    what + ' (incompatible)', 'rc=%d %s' % (rc, err))
            continue
        if not r.check(rc == 0, what, 'rc=%d %s' % (rc, err)):
            continue
        for i, want in enumerate(expected):
            got = open(os.path.join(out, 'z%d.npy' % i), 'rb').read()
            r.check(got == want, what + ' output z%d' % i,
                    'got %r... want %r...' % (got[:140], want[:140]))
        r.check(digests == [hashlib.sha256(open(p, 'rb').read()).hexdigest() for p in paths],
                what + ' inputs unchanged')


def shape_arg(shape):
    return '[' + ','.join(str(d) for d in shape) + ']'


def test_broadcast_to(r, rng, cases):
    for case in range(cases):
        target = random_common_shape(rng)
        shape = operand_shape(rng, target)
        bad = rng.random() < 0.1 and len(shape) > 0
        if bad:
            shape = tuple(list(shape[:-1]) + [target[-1] + 2])
        a = random_layout(rng, random_values(rng, random_dtype(rng), shape))
        src, dst = r.path('x'), r.path('y')
        np.save(src, a)
        a = np.load(src)
        rc, _, err = r.run('broadcast-to', src, '--shape', shape_arg(target), '-o', dst)
        what = 'broadcast-to %s %s -> %s' % (a.dtype.str, a.shape, target)
        try:
            want = npy_bytes(np.broadcast_to(a, target).copy())
        except ValueError:
            r.check(rc == 1 and os.path.basename(src) in err and ('dim' in err or 'rank' in err),
                    what + ' (incompatible)', 'rc=%d %s' % (rc, err))
            continue
        if r.check(rc == 0, what, 'rc=%d %s' % (rc, err)):
            got = open(dst, 'rb').read()
            r.check(got == want, what + ' bytes', 'got %r want %r' % (got[:140], want[:140]))


def test_round_trips(r, rng, scale):
    """Read then write with bcast: v1.0 C-order files come back identical
    for every dtype and shape (at --scale below 1, two shapes per dtype in
    turn); per dtype, on one of the shapes in turn, the output path may be
    the input and v2.0/v3.0 files are readable."""
    shapes = [(), (0,), (3,), (2, 0, 3), (4, 1, 2)]
    dtypes = NUMERIC + ['|S', '<U', '>U'] + ['>' + d for d in NUMERIC if d not in ('?', 'i1', 'u1')]
    for k, dtype in enumerate(dtypes):
        some = shapes if scale >= 1 else [shapes[k % 5], shapes[(k + 2) % 5]]
        for shape in some:
            a = random_values(rng, dtype, shape)
            src = r.path('r')
            np.save(src, a)
            original = open(src, 'rb').read()
            out = r.path('o')
            rc, _, err = r.run('broadcast-to', src, '--shape', shape_arg(shape), '-o', out)
            what = 'round trip %s %s' % (dtype, shape)
            if r.check(rc == 0, what, err):
                r.check(open(out, 'rb').read() == original, what + ' bytes')
            if shape != shapes[k % len(shapes)]:
                continue
            # In place: the output path names the input.
            rc, _, err = r.run('broadcast-to', src, '--shape', shape_arg(shape), '-o', src)
            r.check(rc == 0 and open(src, 'rb').read() == original, what + ' in place', err)
            for version in [(2, 0), (3, 0)]:
                vpath = r.path('v')
                with open(vpath, 'wb') as f:
                    f.write(npy_bytes(a, version))
                out = r.path('o')
                rc, _, err = r.run('broadcast-to', vpath, '--shape', shape_arg(shape), '-o', out)
                w = 'v%d.0 %s' % (version[0], what)
                if r.check(rc == 0, w, err):
                    r.check(open(out, 'rb').read() == original, w + ' bytes')
                rc, outp, err = r.run('info', vpath)
                r.check(rc == 0 and 'version %d.0' % version[0] in outp, w + ' info', outp + err)


def test_info(r, rng):
    for dtype in NUMERIC + ['|S', '<U']:
        a = random_values(rng, dtype, (2, 3))
        p = r.path('i')
        np.save(p, np.asfortranarray(a))
        rc, out, err = r.run('info', p)
        ok = rc == 0 and np.dtype(a.dtype).str[1:] in out and '(2, 3)' in out and 'Fortran' in out
        r.check(ok, 'info %s' % dtype, out + err)
    p = r.path('h')
    np.save(p, np.array([1.5, -0.25, 65504], dtype='<f2'))
    rc, out, err = r.run('info', p)
    r.check(rc == 0 and '1.5, -0.25, 65504' in out, 'info float16 values', out + err)


def test_malformed(r, rng):
    good = npy_bytes(np.arange(12, dtype='<i4').reshape(3, 4))
    variants = []
    for cut in sorted(set([0, 1, 5, 6, 8, 9, 10, 20, 60, 127, 128, 130, len(good) - 1])):
        variants.append(('truncated at %d' % cut, good[:cut]))
    variants.append(('bad magic', b'\x93NUMPZ' + good[6:]))
    variants.append(('version 9.0', good[:6] + b'\x09\x00' + good[8:]))
    variants.append(('extra data', good + b'\x00' * 4))
    header = good[10:128]
    for bad in [b"{'descr': '<c8', ", b"{'descr': '<i4', 'fortran_order': 1, ",
                b"{'descr': [('a', '<i4')], ", b"['descr', '<i4'], "]:
        h = bad + header[len(bad):]
        variants.append(('header %r' % bad, good[:10] + h[:118] + good[128:]))
    for _ in range(60):
        b = bytearray(good)
        for _ in range(rng.randint(1, 3)):
            b[rng.randrange(10, 128)] = rng.choice(b"{}()[],:' 0123456789-xTF\xff")
        variants.append(('mutated header', bytes(b)))
    for name, data in variants:
        p = r.path('bad')
        with open(p, 'wb') as f:
            f.write(data)
        try:
            np.load(p)
            numpy_ok = True
        except Exception:
            numpy_ok = False
        rc, _, err = r.run('info', p)
        if rc == 0:
            r.check(numpy_ok, 'malformed %s accepted, numpy refuses it' % name, repr(data[:128]))
        else:
            r.check(rc == 2 and os.path.basename(p) in err, 'malformed %s' % name,
                    'rc=%d %s' % (rc, err))
    missing = os.path.join(r.tmp, 'missing.npy')
    rc, _, err = r.run('broadcast', missing, '-o', os.path.join(r.tmp, 'o'))
    r.check(rc == 2 and 'missing.npy' in err, 'missing input', err)


def test_budget_and_usage(r):
    p = r.path('b')
    np.save(p, np.zeros((4, 1), dtype='<f8'))
    rc, _, err = r.run('broadcast-to', p, '--shape', '4x1000', '-o', r.path('o'), '--max-bytes', '16K')
    r.check(rc == 1 and 'budget' in err, 'broadcast-to budget refusal', err)
    rc, _, err = r.run('broadcast-to', p, '--shape', '4x1000', '-o', r.path('o'), '--max-bytes', '1M')
    r.check(rc == 0, 'broadcast-to within budget', err)
    rc, _, err = r.run('broadcast', p, p, '-o', os.path.join(r.tmp, 'bo'), '--max-bytes', '40')
    r.check(rc == 1 and 'budget' in err, 'broadcast budget refusal', err)
    for args in [['broadcast'], ['broadcast', p], ['broadcast-to', p, '-o', r.path('o')],
                 ['broadcast', p, '--bogus', '-o', 'x'], ['broadcast-to', p, '--shape', 'zz', '-o', 'x'],
                 ['info'], ['broadcast', p, '--max-bytes', '12Q', '-o', 'x']]:
        rc, _, err = r.run(*args)
        r.check(rc == 2 and err.startswith('bcast'), 'usage error %s' % args[1:], 'rc=%d %s' % (rc, err))
    for cmd in ['broadcast', 'broadcast-to', 'info']:
        rc, out, _ = r.run(cmd, '--help')
        r.check(rc == 0 and '--max-bytes' in out and 'usage' in out, cmd + ' --help')
    rc, out, err = r.run('broadcast', p, p, '--print')
    r.check(rc == 0 and 'z1: float64 (4, 1)' in out, 'broadcast --print', out + err)


def main():
    ap = common.parser(__doc__, seed=lambda: int(time.time()) % 1000000)
    ap.add_argument('--cases', type=int, default=None, help='random cases (250 times --scale)')
    args = common.parse_args(ap)
    if args.cases is None:
        args.cases = args.scaled(250)
    seed = args.seed
    print('seed %d (replay: --seed %d --cases %d)' % (seed, seed, args.cases))
    rng = random.Random(seed)
    tmp = tempfile.mkdtemp(prefix='bcast-npy-diff-')
    r = Runner(os.path.abspath(args.bcast), tmp)
    try:
        test_broadcast(r, rng, args.cases)
        test_broadcast_to(r, rng, args.cases)
        test_round_trips(r, rng, args.scale)
        test_info(r, rng)
        test_malformed(r, rng)
        test_budget_and_usage(r)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return r.summary()


if __name__ == '__main__':
    sys.exit(main())
