#!/usr/bin/python3
"""Differential test of bcast's command-line I/O against NumPy.

Checks, with NumPy 1.24 on the other side:
  - '-' as standard output (the exact bytes numpy.save writes) and as
    standard input (a pipe), once only, and ./- for a file named '-';
  - .npz members read from np.savez and np.savez_compressed archives
    (zipfile's deflate levels 0, 1 and 9 too), malformed (truncated,
    corrupted) archives refused with exit 2 naming the file, and archives written by broadcast / broadcast-to / run that
    np.load and zipfile's CRC check accept;
  - run --print against the computed array, and --shape in every form
    infer takes (4x3, [4,3], (4,3), 4,3) against np.broadcast_to;
  - budget errors naming --max-bytes and the exact bytes needed;
  - bfloat16 results as '<V2' whose uint16 view equals float32 rounded to
    nearest even (computed here from the bits), and read back;
  - the progress line through a pseudo-terminal, absent with --quiet or
    without a terminal;
  - bcast --list-ops against docs/ops.md's op list and against what run
    accepts.
Random values print their seed; replay with --seed.
"""
import io
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile

import numpy as np

import common

HERE = os.path.dirname(os.path.abspath(__file__))
OPS_DOC = os.path.join(HERE, '..', '..', 'docs', 'ops.md')


class Runner(common.Tally):
    def __init__(self, bcast, tmp):
        super().__init__()
        self.bcast = bcast
        self.tmp = tmp

    def path(self, name):
        return os.path.join(self.tmp, name)

    def run(self, *args, stdin=None, cwd=None):
        """(exit status, stdout bytes, stderr text)."""
        p = subprocess.run([self.bcast] + [str(a) for a in args], input=stdin,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           cwd=cwd, timeout=120)
        return p.returncode, p.stdout, p.stderr.decode('utf-8', 'replace')

    def check(self, cond, title, details=''):
        if cond:
            self.ok()
        else:
            self.fail(title, details)

    def save(self, name, a):
        path = self.path(name)
        np.save(path, a)
        return path


def npy_bytes(a):
    buf = io.BytesIO()
    np.save(buf, a)
    return buf.getvalue()


def load_bytes(b):
    # numpy.load seeks back after reading the magic, so it cannot read a
    # pipe itself; the bytes go through BytesIO.
    return np.load(io.BytesIO(b))


def test_stdio(r, rng):
    x = np.array([rng.randint(-50, 50) for _ in range(6)], np.float32).reshape(2, 3)
    y = np.array([rng.randint(-50, 50) for _ in range(3)], np.float32).reshape(1, 3)
    xp, yp = r.save('x.npy', x), r.save('y.npy', y)
    want = npy_bytes(x + y)
    rc, out, err = r.run('run', 'add', xp, yp, '-o', '-')
    r.check(rc == 0 and out == want, 'run add -o -: numpy.save bytes', err)
    rc, out, err = r.run('run', 'add', '-', yp, '-o', '-', stdin=npy_bytes(x))
    r.check(rc == 0 and out == want, 'run add - y.npy (stdin pipe)', err)
    rc, out, err = r.run('run', 'add', xp, '-', '-o', '-', stdin=npy_bytes(y))
    r.check(rc == 0 and out == want, 'run add x.npy - (stdin second)', err)
    rc, out, err = r.run('broadcast-to', '-', '--shape', '4x2x3', '-o', '-',
                         stdin=npy_bytes(x))
    r.check(rc == 0 and out == npy_bytes(np.broadcast_to(x, (4, 2, 3)).copy()),
            'broadcast-to - -o -', err)
    rc, out, err = r.run('info', '-', stdin=npy_bytes(x))
    r.check(rc == 0 and b'shape (2, 3)' in out, 'info -', err)
    # A pipe through a shell, as docs/cli.md shows it.
    p = subprocess.run('%s run add %s %s -o - | /usr/bin/python3 -c "import io,numpy,sys;'
                       'print(numpy.load(io.BytesIO(sys.stdin.buffer.read())).sum())"'
                       % (r.bcast, xp, yp), shell=True, capture_output=True, text=True)
    r.check(p.returncode == 0 and float(p.stdout) == float((x + y).sum()),
            'shell pipe into numpy.load', p.stderr)
    # Errors: stdin twice, several results to stdout, a truncated stream,
    # trailing bytes after the data.
    rc, _, err = r.run('run', 'add', '-', '-', '-o', '-', stdin=npy_bytes(x))
    r.check(rc == 2 and "'-'" in err and './-' in err, 'two - inputs exit 2', err)
    rc, _, err = r.run('broadcast', xp, yp, '-o', '-')
    r.check(rc == 2 and 'standard output' in err, 'broadcast of 2 to - exit 2', err)
    for cut in (0, 5, 9, 40, len(npy_bytes(x)) - 1):
        rc, _, err = r.run('info', '-', stdin=npy_bytes(x)[:cut])
        r.check(rc == 2 and '<stdin>' in err, 'truncated stdin at %d exits 2' % cut, err)
    for k in range(r.scaled(20)):
        mutated = bytearray(npy_bytes(x))
        mutated[rng.randrange(len(mutated))] = rng.randrange(256)
        rc, _, err = r.run('info', '-', stdin=bytes(mutated))
        r.check(rc == 0 or (rc in (1, 2) and '<stdin>' in err),
                'stdin with a changed byte: exit %s' % rc, err)
    rc, _, err = r.run('info', '-', stdin=npy_bytes(x) + b'\0')
    r.check(rc == 2 and 'goes on after' in err, 'stdin with trailing bytes exits 2', err)
    # A file named '-' is ./-, and '-' still means standard input.
    np.save(r.path('dash.npy'), y)
    shutil.move(r.path('dash.npy'), r.path('-'))
    rc, out, err = r.run('run', 'add', xp, './-', '-o', '-', cwd=r.tmp)
    r.check(rc == 0 and out == want, 'a file named - as ./-', err)
    rc, out, err = r.run('run', 'add', xp, '-', '-o', '-', cwd=r.tmp, stdin=npy_bytes(x))
    r.check(rc == 0 and out == npy_bytes(x + x), '- is stdin even when ./- exists', err)


def change_bytes(r, rng, raw, stem, members):
    """Archives RAW with 1 to 3 random bytes changed anywhere (headers,
    directory, data), each read by member: a clean answer (0, or 1/2 naming
    the file), never a crash."""
    for k in range(r.scaled(40)):
        bad = r.path('%s%d.npz' % (stem, k))
        mutated = bytearray(raw)
        for _ in range(rng.randint(1, 3)):
            mutated[rng.randrange(len(raw))] = rng.randrange(256)
        open(bad, 'wb').write(bytes(mutated))
        rc, _, err = r.run('info', bad + ':' + rng.choice(members))
        r.check(rc == 0 or (rc in (1, 2) and bad in err),
                '%s: archive with changed bytes: exit %s' % (stem, rc), err)


def test_npz(r, rng):
    a = np.arange(12, dtype=np.int32).reshape(3, 4)
    b = np.array([rng.random() for _ in range(4)], np.float64)
    s = np.array(['ab', 'c\u00e9'])
    arch = r.path('arrays.npz')
    np.savez(arch, a=a, b=b, s=s)
    for name, arr in (('a', a), ('b', b)):
        rc, out, err = r.run('broadcast-to', '%s:%s' % (arch, name), '--shape',
                             '2x3x4', '-o', '-')
        r.check(rc == 0 and out == npy_bytes(np.broadcast_to(arr, (2, 3, 4)).copy()),
                'read member %s' % name, err)
    rc, out, err = r.run('info', arch + ':s')
    r.check(rc == 0 and b"<U2" in out, 'read string member', err)
    one = r.path('one.npz')
    np.savez(one, b)
    rc, out, err = r.run('broadcast-to', one, '--shape', '4', '-o', '-')
    r.check(rc == 0 and out == npy_bytes(b), 'a one-member archive alone', err)
    rc, _, err = r.run('info', arch)
    r.check(rc == 2 and "'a', 'b', 's'" in err, 'several members need a name', err)
    rc, _, err = r.run('info', arch + ':z')
    r.check(rc == 2 and "no member 'z'" in err and arch in err, 'missing member', err)
    # Deflated members: np.savez_compressed, and zipfile at levels 0, 1
    # (fixed and dynamic Huffman blocks) and 9, over data that compress
    # well, badly (stored blocks) and not at all (empty).
    members = {'a': a, 'b': b, 's': s,
               'zeros': np.zeros((300, 200), np.float32),
               'noise': np.frombuffer(bytes(rng.getrandbits(8) for _ in range(70000)), np.uint8),
               'ramp': np.arange(40000, dtype=np.int64) % 1000,
               'empty': np.zeros((0, 3), np.float32), 'scalar': np.array(2.5)}
    comp = r.path('comp.npz')
    np.savez_compressed(comp, **members)
    archives = [comp]
    for level in (0, 1, 9):
        path = r.path('level%d.npz' % level)
        with zipfile.ZipFile(path, 'w', compression=zipfile.ZIP_DEFLATED,
                             compresslevel=level) as z:
            for name, arr in members.items():
                z.writestr(name + '.npy', npy_bytes(arr))
        archives.append(path)
    for path in archives:
        for name, arr in members.items():
            rc, out, err = r.run('broadcast-to', '%s:%s' % (path, name), '--shape',
                                 '[%s]' % ','.join(map(str, arr.shape)), '-o', '-')
            r.check(rc == 0 and out == npy_bytes(arr),
                    'deflated member %s of %s' % (name, os.path.basename(path)), err)
    change_bytes(r, rng, open(comp, 'rb').read(), 'cfuzz', list(members))
    rc, _, err = r.run('info', comp + ':noise', '--max-bytes', '1000')
    r.check(rc == 1 and '--max-bytes' in err, 'deflated member over the budget', err)
    # Malformed archives: every truncation, and one flipped data byte (CRC).
    raw = open(arch, 'rb').read()
    cuts = sorted(set([0, 4, 21, 22, len(raw) - 23, len(raw) - 1] +
                      [rng.randrange(len(raw)) for _ in range(r.scaled(12))]))
    for cut in cuts:
        bad = r.path('cut%d.npz' % cut)
        open(bad, 'wb').write(raw[:cut])
        rc, _, err = r.run('info', bad + ':a')
        r.check(rc == 2 and bad in err, 'archive cut at %d exits 2 naming it' % cut, err)
    change_bytes(r, rng, raw, 'fuzz', ['a', 'b', 's'])
    flipped = bytearray(raw)
    flipped[raw.index(a.tobytes()) + 5] ^= 1
    bad = r.path('flip.npz')
    open(bad, 'wb').write(bytes(flipped))
    rc, _, err = r.run('info', bad + ':a')
    r.check(rc == 2 and 'CRC-32' in err and bad in err, 'corrupt member: CRC mismatch', err)
    # Writing: broadcast's results as arr_0.., broadcast-to and run as one
    # member, every archive checked by zipfile (CRC) and np.load.
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    y = np.array([1, 2, 3], np.int16)
    xp, yp = r.save('bx.npy', x), r.save('by.npy', y)
    out = r.path('out.npz')
    rc, _, err = r.run('broadcast', xp, yp, '-o', out)
    if rc != 0:
        r.fail('broadcast -o out.npz', err)
    else:
        with zipfile.ZipFile(out) as z:
            r.check(z.testzip() is None, 'written archive passes zipfile CRC check')
        z = np.load(out)
        ex = np.broadcast_arrays(x, y)
        r.check(z.files == ['arr_0', 'arr_1'] and
                all(z['arr_%d' % i].dtype == ex[i].dtype and
                    np.array_equal(z['arr_%d' % i], ex[i]) for i in range(2)),
                'broadcast -o out.npz matches np.broadcast_arrays', str(z.files))
    # A member written into an existing archive keeps the others.
    rc, _, err = r.run('broadcast-to', yp, '--shape', '2,3', '-o', out + ':wide')
    ex = np.broadcast_arrays(x, y)
    with np.load(out) as z:
        r.check(rc == 0 and z.files == ['arr_0', 'arr_1', 'wide'] and
                np.array_equal(z['wide'], np.broadcast_to(y, (2, 3))) and
                np.array_equal(z['arr_1'], ex[1]),
                'broadcast-to -o x.npz:NAME adds NAME', err)
    rc, _, err = r.run('run', 'add', '--profile', 'numpy', xp, xp, '-o', out)
    with np.load(out) as z:
        r.check(rc == 0 and z.files == ['arr_0', 'arr_1', 'wide'] and
                np.array_equal(z['arr_0'], x + x) and
                np.array_equal(z['arr_1'], ex[1]),
                'run -o x.npz replaces arr_0 only', err)
    # An existing file of the whole name wins over the archive reading.
    literal = arch + ':a'
    np.save(r.path('lit.npy'), b)
    shutil.move(r.path('lit.npy'), literal)
    rc, out_b, err = r.run('broadcast-to', literal, '--shape', '4', '-o', '-')
    r.check(rc == 0 and out_b == npy_bytes(b), 'an existing file named x.npz:a wins', err)
    os.unlink(literal)


def test_print_and_shape(r, rng):
    x = np.array([rng.randint(-9, 9) / 2 for _ in range(3)], np.float32)
    y = np.array([rng.randint(-9, 9) / 2 for _ in range(2)], np.float32).reshape(2, 1)
    xp, yp = r.save('px.npy', x), r.save('py.npy', y)
    rc, out, err = r.run('run', 'mul', '--profile', 'numpy', xp, yp, '--print')
    want = x * y
    lines = out.decode().split('\n')
    ok = rc == 0 and lines[0] == 'result: float32 (2, 3)'
    if ok:
        got = np.array(eval(lines[1].strip()), np.float32)  # a nested list
        ok = np.array_equal(got, want)
    r.check(ok, 'run --print shows the result', out.decode() + err)
    rc2, out2, _ = r.run('broadcast-to', r.save('pw.npy', want), '--shape', '2x3', '--print')
    r.check(rc2 == 0 and out2.decode().split('\n')[1:] == lines[1:],
            'run --print prints as broadcast-to --print does')
    # --shape: every form infer takes, against np.broadcast_to.
    forms = {(4, 3): ['4x3', '[4,3]', '(4,3)', '4,3', '(4, 3)', '[4, 3]'],
             (3,): ['3', '[3]', '(3,)', '3,'],
             (2, 1, 3): ['2x1x3', '2,1,3', '(2,1,3)']}
    z = np.arange(3, dtype=np.int8)
    zp = r.save('z.npy', z)
    for shape, texts in forms.items():
        for text in texts:
            rc, out, err = r.run('broadcast-to', zp, '--shape', text, '-o', '-')
            r.check(rc == 0 and out == npy_bytes(np.broadcast_to(z, shape).copy()),
                    '--shape %r' % text, err)
    s0 = r.save('s0.npy', np.array(5, np.int8))
    for text in ('[]', '()'):
        rc, out, err = r.run('broadcast-to', s0, '--shape', text, '-o', '-')
        r.check(rc == 0 and out == npy_bytes(np.array(5, np.int8)), '--shape %r' % text, err)
    for text in ('4,,3', '(4,3', '4x', 'x3', '4,3)', '-1,3', '', 'n,3', '4;3', '(4,3),'):
        rc, _, err = r.run('broadcast-to', zp, '--shape', text, '-o', '-')
        r.check(rc == 2 and err, 'malformed --shape %r exits 2' % text, err)


def test_budget(r):
    x = np.ones((64, 1), np.float32)
    y = np.ones((1, 64), np.float32)
    xp, yp = r.save('bx.npy', x), r.save('by.npy', y)
    need_out = 64 * 64 * 4
    cases = [(['run', 'add', xp, yp, '-o', '-', '--max-bytes', '1K'], need_out),
             (['broadcast', xp, yp, '--print', '--max-bytes', '1K'], None),
             (['broadcast-to', xp, '--shape', '64x64', '--print', '--max-bytes', '1K'], need_out),
             (['info', xp, '--max-bytes', '100'], 64 * 4)]
    for argv, need in cases:
        rc, _, err = r.run(*argv)
        ok = rc == 1 and '--max-bytes' in err and 'bytes' in err
        if need is not None:
            ok = ok and re.search(r'\b%d bytes' % need, err) is not None
        r.check(ok, 'budget error of %s names --max-bytes and %s bytes' % (argv[0], need), err)


def bf16_bits(f32):
    """float32 -> bfloat16 bits, round to nearest even (finite values)."""
    u = f32.view(np.uint32).astype(np.uint64)
    return ((u + 0x7fff + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def test_bfloat16(r, rng):
    vals = [rng.uniform(-1e4, 1e4) for _ in range(200)] + \
           [1.0, -0.0, 0.0, 3.0, 1 + 2 ** -8, 1 + 3 * 2 ** -8, 1 + 2 ** -9, 65504.0]
    x = np.array(vals, np.float32)
    # Ties and exact halfway bit patterns.
    x = np.concatenate([x, (np.arange(16, dtype=np.uint32) * 0x8000 + 0x3f800000).view(np.float32)])
    xp = r.save('f.npy', x)
    bp = r.path('b.npy')
    rc, _, err = r.run('run', 'cast', '--attr', 'to=bfloat16', xp, '-o', bp)
    if rc != 0:
        r.fail('cast to bfloat16 writes a file', err)
        return
    with open(bp, 'rb') as f:
        np.lib.format.read_magic(f)
        header = np.lib.format.read_array_header_1_0(f)
    r.check(header[2].str == '|V2', "bfloat16 .npy loads as a 2-byte void", str(header))
    got = np.load(bp)
    r.check(got.dtype.itemsize == 2 and
            np.array_equal(got.view(np.uint16), bf16_bits(x)),
            'bfloat16 bits equal float32 rounded to nearest even')
    with open(bp, 'rb') as f:
        r.check(b"'descr': '<V2'" in f.read(128), "descr is '<V2' (as ml_dtypes saves)")
    # Read back: the bfloat16 file cast to float32 gives the bits << 16.
    rc, out, err = r.run('run', 'cast', '--attr', 'to=float32', bp, '-o', '-')
    back = load_bytes(out) if rc == 0 else None
    r.check(rc == 0 and np.array_equal(back.view(np.uint32),
                                       bf16_bits(x).astype(np.uint32) << 16),
            'bfloat16 .npy reads back as bfloat16', err)
    # A '<V2' file written by NumPy itself (what ml_dtypes' np.save gives).
    v = bf16_bits(x[:8]).view('V2')
    vp = r.save('v.npy', v)
    rc, out, err = r.run('run', 'cast', '--attr', 'to=float32', vp, '-o', '-')
    r.check(rc == 0 and np.array_equal(load_bytes(out).view(np.uint32),
                                       bf16_bits(x[:8]).astype(np.uint32) << 16),
            'numpy-written V2 file reads as bfloat16', err)




def test_progress(r):
    # 8192 x 8192 float32 = 256 MiB, the threshold; --print writes no file.
    cp = r.save('col.npy', np.ones((8192, 1), np.float32))
    rp = r.save('row.npy', np.full((1, 8192), 2, np.float32))
    argv = [r.bcast, 'run', 'add', cp, rp, '--print']
    rc, data = common.run_pty(argv)
    text = data.decode('utf-8', 'replace')
    r.check(rc == 0 and re.search(r'\d+ / 256 MiB +[0-9.]+ GB/s +ETA [0-9.]+ s', text)
            and text.endswith('\r\x1b[K'),
            'progress line on a terminal, erased at the end', repr(text[:300]))
    rc, data = common.run_pty(argv + ['--quiet'])
    r.check(rc == 0 and data == b'', '--quiet: no progress', repr(data[:200]))
    rc, data = common.run_pty(argv, stderr_tty=False)
    r.check(rc == 0 and data == b'', 'no terminal: no progress', repr(data[:200]))
    small = r.save('small.npy', np.ones((64, 64), np.float32))
    rc, data = common.run_pty([r.bcast, 'run', 'add', small, small, '--print'])
    r.check(rc == 0 and data == b'', 'small output: no progress', repr(data[:200]))


def documented_op_list():
    text = open(OPS_DOC, encoding='utf-8').read()
    m = re.search(r'<!-- list-ops begin -->\n```\n(.*?)```\n<!-- list-ops end -->', text, re.S)
    return m.group(1) if m else None


def update_ops_doc(listing):
    text = open(OPS_DOC, encoding='utf-8').read()
    new = re.sub(r'(<!-- list-ops begin -->\n```\n).*?(```\n<!-- list-ops end -->)',
                 lambda m: m.group(1) + listing + m.group(2), text, flags=re.S)
    open(OPS_DOC, 'w', encoding='utf-8').write(new)


def test_list_ops(r, rng):
    rc, out, err = r.run('--list-ops')
    rc2, out2, _ = r.run('run', '--list-ops')
    r.check(rc == 0 and rc2 == 0 and out == out2, 'bcast --list-ops == bcast run --list-ops', err)
    listed = documented_op_list()
    r.check(listed == out.decode(), "docs/ops.md's op list is bcast --list-ops' output "
            "(regenerate: --update-ops-doc)", 'docs/ops.md section missing' if listed is None else '')
    # Listed numpy-profile types (a random few per op, --scale times 3) are
    # ones run accepts, with inputs of that type (select: a bool condition
    # first).
    blocks = re.findall(r'\n(\w+): (\d) inputs? -> .*\n  also named: (.*)\n  tosa, trait: .*\n  numpy: +(.*)\n',
                        out.decode())
    r.check(len(blocks) >= 36, 'at least the 36 TOSA ops are listed', str(len(blocks)))
    files = {}
    for name, arity, aliases, numpy_types in blocks:
        if name == 'cast':
            continue
        types = [t for t in numpy_types.split() if t != 'none']
        for t in rng.sample(types, min(len(types), r.scaled(3))):
            if t not in files:
                dt = np.uint16 if t == 'bfloat16' else np.dtype(t if t != 'bool' else '?')
                a = np.ones((2,), dt)
                files[t] = r.save('lt_%s.npy' % t, a.view('V2') if t == 'bfloat16' else a)
            if 'bool' not in files:
                files['bool'] = r.save('lt_bool.npy', np.ones((2,), '?'))
            ins = [files[t]] * int(arity)
            if name == 'select':
                ins[0] = files['bool']
            rc, want, err = r.run('run', name, '--profile', 'numpy', *ins, '--print')
            r.check(rc == 0, 'listed type %s of %s runs' % (t, name), err)
            # Each other name listed is the same op.
            for alias in aliases.split():
                if alias == '-':
                    continue
                rc, got, err = r.run('run', alias, '--profile', 'numpy', *ins, '--print')
                r.check(rc == 0 and got == want, 'listed name %s runs as %s on %s' % (alias, name, t),
                        err)


def main():
    ap = common.parser(__doc__, seed=lambda: int(time.time()) % 1000000)
    ap.add_argument('--update-ops-doc', action='store_true',
                    help="rewrite docs/ops.md's op list from bcast --list-ops and exit")
    args = common.parse_args(ap)
    if args.update_ops_doc:
        p = subprocess.run([args.bcast, '--list-ops'], capture_output=True, text=True, check=True)
        update_ops_doc(p.stdout)
        return 0
    print('seed %d (replay: --seed %d)' % (args.seed, args.seed))
    rng = random.Random(args.seed)
    tmp = tempfile.mkdtemp(prefix='bcast-cli-io-')
    r = Runner(os.path.abspath(args.bcast), tmp)
    r.scaled = args.scaled
    try:
        test_stdio(r, rng)
        test_npz(r, rng)
        test_print_and_shape(r, rng)
        test_budget(r)
        test_bfloat16(r, rng)
        test_progress(r)
        test_list_ops(r, rng)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return r.summary('replay: --seed %d' % args.seed)


if __name__ == '__main__':
    sys.exit(main())
