#!/usr/bin/python3
"""bcast's .npz archives against NumPy and Python's zipfile:

  - reading: archives built byte by byte (tests/diff/npz_craft.py) that
    zipfile reads in its own way or refuses (duplicate names, a member "a"
    beside "a.npy", names in code page 437 or cut at a NUL, zip64 records
    and extra fields, comments, wrong entry counts, a local header naming
    another file, a broken directory entry after the one read, versions
    and flag bits zipfile refuses, an incomplete Huffman code, cut sizes),
    each read by `bcast broadcast ARCHIVE:NAME -o -` and `bcast info`:
    the same array as numpy.load(ARCHIVE)[NAME], or both refuse; then the
    same over random changes to the archives' zip records;
  - writing into an archive: every command's -o X.npz:NAME and -o X.npz
    keep the other members byte for byte (compressed ones compressed, CRCs
    and the comment kept), replace what numpy.load gave for NAME, work when
    the archive is also an input, and refuse (leaving it as it was) a file
    that is not an archive;
  - memory: a deflated member is inflated into the array's own buffer, so
    the peak resident size of reading it stays near the array's size.

bcast is stricter than numpy.load in two documented ways, checked here as
such: a member whose bytes go on after the array (numpy.load ignores them
and then skips the CRC check) and bzip2/LZMA members are refused.
"""
import io
import os
import random
import struct
import subprocess
import sys
import tempfile
import time
import zipfile
import zlib

import numpy as np

import common
import npz_craft as c
from npz_craft import Member as M


class Runner(common.Tally):
    def __init__(self, bcast, tmp):
        super().__init__(most_shown=40, width=200)
        self.bcast = bcast
        self.tmp = tmp
        self.skipped = 0

    def path(self, name):
        return os.path.join(self.tmp, name)

    def run(self, *args):
        """(exit status, stdout bytes, stderr text)."""
        p = subprocess.run([self.bcast] + [str(a) for a in args],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=120)
        return p.returncode, p.stdout, p.stderr.decode('utf-8', 'replace')

    def write(self, name, data):
        path = self.path(name)
        with open(path, 'wb') as f:
            f.write(data)
        return path

    def skip(self, title, why):
        self.skipped += 1
        print('SKIP: %s (%s)' % (title, why))


def numpy_reads(path, key):
    """numpy.load(path)[key] as an array, or None where it refuses (an
    exception, or bytes for a member that is not .npy)."""
    try:
        with np.load(path) as z:
            a = z[key]
    except Exception:
        return None
    return a if isinstance(a, np.ndarray) else None


def bcast_reads(r, path, key):
    """bcast's array for path:key (broadcast -o -), or None where it
    refuses; info must agree on refusing."""
    rc, out, err = r.run('broadcast', '%s:%s' % (path, key), '-o', '-')
    rc_info, _, _ = r.run('info', '%s:%s' % (path, key))
    if (rc == 0) != (rc_info == 0):
        r.fail('broadcast and info agree on %s:%s' % (path, key),
               'broadcast exit %s, info exit %s\n%s' % (rc, rc_info, err))
    if rc not in (0, 1, 2):
        r.fail('%s:%s: exit %s (a crash?)' % (path, key, rc), err)
    if rc != 0:
        return None, err
    return np.load(io.BytesIO(out)), err


def same_array(a, b):
    return (a is not None and b is not None and a.dtype == b.dtype and a.shape == b.shape and
            np.array_equal(a, b, equal_nan=a.dtype.kind == 'f'))


def compare(r, title, path, key):
    want = numpy_reads(path, key)
    got, err = bcast_reads(r, path, key)
    if want is None or got is None:
        return r.check(want is None and got is None, title + ': both refuse',
                       'numpy %s, bcast %s\n%s' % (
                           'refuses' if want is None else 'reads %r' % want,
                           'refuses' if got is None else 'reads %r' % got, err))
    return r.check(same_array(want, got), title + ': the same array',
                   'numpy %r\nbcast %r' % (want, got))


A = np.arange(6, dtype='<i4').reshape(2, 3)
B = np.array([0.5, -1.0, 2.0])
S = np.array(['x', 'yz'])
a, b, s = c.npy_bytes(A), c.npy_bytes(B), c.npy_bytes(S)


def reading_cases():
    """(title, archive bytes, key)."""
    dup = [M('a.npy', a), M('a.npy', b)]
    both = [M('a', b), M('a.npy', a)]
    z64 = M('a.npy', a, csize=0xffffffff, usize=0xffffffff,
            central_extra=c.zip64_extra(len(a), len(a)))
    off64 = M('a.npy', a, offset=0xffffffff, central_extra=c.zip64_extra(0))
    big = c.npy_bytes(np.arange(3000, dtype='<i8') % 7)
    cases = [
        ('np.savez layout', c.build([c.savez_member('a.npy', a),
                                     c.savez_member('b.npy', b)]), 'b'),
        ('np.savez_compressed layout', c.build([c.savez_member('a.npy', a, 8),
                                                c.savez_member('b.npy', big, 8)]), 'b'),
        ('a duplicate name: the last copy', c.build(dup), 'a'),
        ('a duplicate deflated name: the last copy',
         c.build([M('x.npy', s, 8), M('x.npy', a, 8)]), 'x'),
        ('"a" beside "a.npy": a is the exact name', c.build(both), 'a'),
        ('"a.npy" beside "a": a.npy by its whole name', c.build(both), 'a.npy'),
        ('"a.npy" then "a" in the other order', c.build(both[::-1]), 'a'),
        ('a name cut at a NUL', c.build([M(b'a\0junk.npy', a)]), 'a'),
        ('a cp437 name (byte 0x82 is e-acute)', c.build([M(b'\x82.npy', a)]),
         '\u00e9'),
        ('a UTF-8 name flagged', c.build([M('\u00e9.npy'.encode(), a, flags=0x800)]),
         '\u00e9'),
        ('a UTF-8 name not flagged is cp437',
         c.build([M('\u00e9.npy'.encode(), a)]), '\u00e9'),
        ('invalid UTF-8 in a flagged name of another member',
         c.build([M('a.npy', a), M(b'\xff.npy', b, flags=0x800)]), 'a'),
        ('the local header names another file',
         c.build([M('a.npy', a, local_name=b'b.npy')]), 'a'),
        ('the local header flags the name UTF-8, the directory does not',
         c.build([M(b'\xc3\xa9.npy', a, local_flags=0x800)]), '\u00e9'),
        ('a broken directory entry after the one read',
         c.build([M('a.npy', a), M('b.npy', b)])
         .replace(b'PK\x01\x02', b'PK\x01\x03', 2).replace(b'PK\x01\x03', b'PK\x01\x02', 1),
         'a'),
        ('a corrupt extra field in another entry',
         c.build([M('a.npy', a), M('b.npy', b, central_extra=b'\x09\x00\xff\x00')]), 'a'),
        ('a short zip64 field in another entry',
         c.build([M('a.npy', a), M('b.npy', b, usize=0xffffffff,
                                   central_extra=b'\x01\x00\x04\x00abcd')]), 'a'),
        ('another entry needs version 6.4', c.build([M('a.npy', a), M('b.npy', b, version=64)]),
         'a'),
        ('this entry needs version 6.3', c.build([M('a.npy', a, version=63)]), 'a'),
        ('version 6.4 in the local header only',
         c.build([M('a.npy', a)]).replace(b'PK\x03\x04\x14', b'PK\x03\x04\x40', 1), 'a'),
        ('encrypted (flag bit 0)', c.build([M('a.npy', a, flags=1)]), 'a'),
        ('encrypted in the local header only', c.build([M('a.npy', a, local_flags=1)]), 'a'),
        ('compressed patched data (flag bit 5)', c.build([M('a.npy', a, flags=0x20)]), 'a'),
        ('strong encryption (flag bit 6)', c.build([M('a.npy', a, flags=0x40)]), 'a'),
        ('a data descriptor (flag bit 3), sizes in the directory',
         c.build([M('a.npy', a, flags=8, local_flags=8, local_csize=0, local_usize=0)]), 'a'),
        ('another entry flagged encrypted', c.build([M('a.npy', a), M('b.npy', b, flags=1)]),
         'a'),
        ('compression method 99', c.build([M('a.npy', a, method=99)]), 'a'),
        ('a zip64 end record, zip64 sizes', c.build([z64], zip64=True), 'a'),
        ('a zip64 header offset', c.build([M('x.npy', s), off64]), 'a'),
        ('a zip64 locator naming disk 1', c.build([M('a.npy', a)], zip64=True, locator_disk=1),
         'a'),
        ('a comment', c.build([M('a.npy', a)], comment=b'note'), 'a'),
        ('a comment longer than stated', c.build([M('a.npy', a)], comment=b'note',
                                                 end_comment_len=2), 'a'),
        ('a comment shorter than stated', c.build([M('a.npy', a)], comment=b'note',
                                                  end_comment_len=9), 'a'),
        ('an end record counting 1 of 2 entries',
         c.build([M('a.npy', a), M('b.npy', b)], end_count=1), 'b'),
        ('members stored in another order than listed',
         c.build([M('a.npy', a), M('b.npy', b)], directory=None), 'b'),
        ('bytes before the archive', c.build([M('a.npy', a)], prefix=b'junk'), 'a'),
        ('two entries at one offset: the last reads nothing',
         (lambda m: c.build([m], directory=[m, m]))(M('a.npy', a)), 'a'),
        ('a bad CRC-32', c.build([M('a.npy', a, crc=12345)]), 'a'),
        ('a deflated bad CRC-32', c.build([M('a.npy', a, 8, crc=12345)]), 'a'),
        ('an incomplete Huffman code (zlib refuses it)',
         c.build([M('a.npy', a, 8, packed=c.incomplete_code_stream(a))]), 'a'),
        ('a stored member with a smaller usize',
         c.build([M('a.npy', a + b'zz', usize=len(a), crc=zlib.crc32(a))]), 'a'),
        ('a stored member with a smaller csize',
         c.build([M('a.npy', a, csize=len(a) - 4, usize=len(a))]), 'a'),
        ('a deflate stream longer than usize',
         c.build([M('a.npy', a + b'tail', 8, usize=len(a), crc=zlib.crc32(a))]), 'a'),
        ('a deflate stream shorter than usize',
         c.build([M('a.npy', a, 8, usize=len(a) + 50)]), 'a'),
        ('a deflate stream cut short', c.build([M('a.npy', big, 8,
                                                  packed=c.deflate(big)[:-9])]), 'b'),
        ('a deflated member with csize past the next header',
         c.build([M('a.npy', a, 8, csize=400), M('b.npy', b)]), 'a'),
        ('an empty archive', c.build([]), 'a'),
        ('a missing member', c.build([M('a.npy', a)]), 'b'),
    ]
    return cases


def test_reading(r):
    for k, (title, data, key) in enumerate(reading_cases()):
        compare(r, title, r.write('case%d.npz' % k, data), key)
    # Where bcast is stricter than numpy.load, by design.
    for title, data in (
            ('bytes after the array in the member',
             c.build([M('a.npy', a + b'junk')])),
            ('a bzip2 member', c.build([M('a.npy', a, 12,
                                          packed=__import__('bz2').compress(a))])),
            ('an LZMA member', c.build([M('a.npy', a, 14, packed=lzma_zip(a))]))):
        path = r.write('strict.npz', data)
        want = numpy_reads(path, 'a')
        got, err = bcast_reads(r, path, 'a')
        r.check(want is not None and same_array(want, A) and got is None and err,
                'bcast refuses, numpy.load reads: ' + title, err)


def lzma_zip(data):
    """A zip LZMA member's bytes: version, properties size and properties,
    then raw LZMA1 (as zipfile writes them)."""
    import lzma
    comp = lzma.LZMACompressor(lzma.FORMAT_RAW, filters=[{'id': lzma.FILTER_LZMA1}])
    props = lzma._encode_filter_properties({'id': lzma.FILTER_LZMA1})
    return struct.pack('<BBH', 9, 4, len(props)) + props + comp.compress(data) + comp.flush()


def zip_records(data):
    """The byte ranges of an archive's zip records (local headers with
    their names, the directory, the end record): what random changes hit,
    leaving the .npy bytes alone."""
    spans = []
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        for info in z.infolist():
            at = info.header_offset
            n, x = struct.unpack('<HH', data[at + 26:at + 30])
            spans.append((at, at + 30 + n + x))
        start = z.start_dir
    spans.append((start, len(data)))
    return spans


def test_random_records(r, rng):
    """Random changes to the zip records of valid archives: numpy.load and
    bcast read the same array or both refuse."""
    bases = [c.build([c.savez_member('a.npy', a), c.savez_member('b.npy', b)]),
             c.build([M('a.npy', a, 8), M('b.npy', b, 8), M('s.npy', s)]),
             c.build([M('a.npy', a), M('a.npy', b, 8)], comment=b'c'),
             c.build([M('b.npy', b, csize=0xffffffff, usize=0xffffffff,
                        central_extra=c.zip64_extra(len(b), len(b))),
                      M('a.npy', a)], zip64=True)]
    for k in range(r.scaled(150)):
        data = bytearray(rng.choice(bases))
        spans = zip_records(bytes(data))
        for _ in range(rng.randint(1, 3)):
            lo, hi = rng.choice(spans)
            data[rng.randrange(lo, hi)] = rng.choice([0, 1, 0xff, 0x14, 0x3f, 0x40,
                                                     rng.randrange(256)])
        path = r.write('rand%d.npz' % k, bytes(data))
        compare(r, 'random record change %d' % k, path, rng.choice('ab'))


def entries(path):
    """Name -> (compress type, CRC, the stored bytes) of every member."""
    out = {}
    with open(path, 'rb') as f:
        raw = f.read()
    with zipfile.ZipFile(path) as z:
        assert z.testzip() is None
        for info in z.infolist():
            at = info.header_offset
            n, x = struct.unpack('<HH', raw[at + 26:at + 30])
            start = at + 30 + n + x
            out[info.filename] = (info.compress_type, info.CRC,
                                  raw[start:start + info.compress_size])
    return out


def test_writing(r):
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    y = np.array([1, 2, 3], np.float32)
    xp, yp = r.path('x.npy'), r.path('y.npy')
    np.save(xp, x)
    np.save(yp, y)

    def fresh():
        """An archive of a stored, a deflated and a string member, and a
        comment, as zipfile writes them."""
        path = r.path('data.npz')
        with zipfile.ZipFile(path, 'w') as z:
            z.writestr('keep.npy', c.npy_bytes(np.arange(4)))
            z.writestr(zipfile.ZipInfo('packed.npy'), c.npy_bytes(np.zeros(500)),
                       compress_type=zipfile.ZIP_DEFLATED)
            z.writestr('s.npy', s)
            z.comment = b'kept comment'
        return path

    commands = [
        ('run add', ['run', 'add', '--profile', 'numpy', xp, yp], x + y),
        ('broadcast-to', ['broadcast-to', yp, '--shape', '2,3'], np.broadcast_to(y, (2, 3))),
        ('broadcast-in-dim', ['broadcast-in-dim', yp, '--shape', '2,3', '--dims', '1'],
         np.broadcast_to(y, (2, 3))),
        ('broadcast (one input)', ['broadcast', xp], x),
    ]
    for title, argv, want in commands:
        path = fresh()
        before = entries(path)
        rc, _, err = r.run(*(argv + ['-o', path + ':c']))
        ok = rc == 0
        if ok:
            after = entries(path)
            got = numpy_reads(path, 'c')
            ok = (sorted(after) == sorted(list(before) + ['c.npy']) and
                  all(after[k] == before[k] for k in before) and
                  same_array(got, want) and
                  zipfile.ZipFile(path).comment == b'kept comment')
        r.check(ok, '%s -o X.npz:c keeps every other member as it was' % title,
                'exit %s\n%s' % (rc, err))
        # The same name again replaces it, in its place.
        rc, _, err = r.run(*(argv + ['-o', path + ':keep']))
        with zipfile.ZipFile(path) as z:
            names = z.namelist()
        r.check(rc == 0 and names == ['keep.npy', 'packed.npy', 's.npy', 'c.npy'] and
                same_array(numpy_reads(path, 'keep'), want) and
                entries(path)['packed.npy'] == before['packed.npy'],
                '%s -o X.npz:keep replaces keep in its place' % title,
                'exit %s names %s\n%s' % (rc, names, err))

    # Every entry np.load could give for the name goes: "c" and "c.npy".
    path = r.write('both.npz', c.build([M('c', a), M('k.npy', b, 8), M('c.npy', a)]))
    rc, _, err = r.run('broadcast', yp, '-o', path + ':c')
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
    r.check(rc == 0 and names == ['c.npy', 'k.npy'] and
            same_array(numpy_reads(path, 'c'), y) and same_array(numpy_reads(path, 'k'), B),
            'writing c replaces both "c" and "c.npy"', 'names %s\n%s' % (names, err))

    # The archive is also an input (the example).
    path = fresh()
    with zipfile.ZipFile(path, 'a') as z:
        z.writestr('a.npy', c.npy_bytes(x))
        z.writestr('b.npy', c.npy_bytes(y))
    before = entries(path)
    rc, _, err = r.run('run', 'add', '--profile', 'numpy', path + ':a', path + ':b', '-o', path + ':c')
    after = entries(path) if rc == 0 else {}
    r.check(rc == 0 and all(after.get(k) == v for k, v in before.items()) and
            same_array(numpy_reads(path, 'c'), x + y),
            'run add data.npz:a data.npz:b -o data.npz:c keeps a and b', err)
    rc, _, err = r.run('run', 'add', '--profile', 'numpy', path + ':a', path + ':b', '-o', path + ':a')
    r.check(rc == 0 and same_array(numpy_reads(path, 'a'), x + y) and
            same_array(numpy_reads(path, 'b'), y),
            'run add data.npz:a data.npz:b -o data.npz:a replaces a', err)

    # broadcast -o OUT.npz: arr_0..arr_L into the archive, the rest kept.
    path = fresh()
    before = entries(path)
    rc, _, err = r.run('broadcast', xp, yp, '-o', path)
    after = entries(path) if rc == 0 else {}
    ex = np.broadcast_arrays(x, y)
    r.check(rc == 0 and all(after.get(k) == v for k, v in before.items()) and
            same_array(numpy_reads(path, 'arr_0'), ex[0]) and
            same_array(numpy_reads(path, 'arr_1'), ex[1]),
            'broadcast -o OUT.npz adds arr_0, arr_1 and keeps the rest', err)
    rc, _, err = r.run('run', 'add', '--profile', 'numpy', xp, xp, '-o', path)
    r.check(rc == 0 and same_array(numpy_reads(path, 'arr_0'), x + x) and
            same_array(numpy_reads(path, 'arr_1'), ex[1]) and
            len(entries(path)) == len(before) + 2,
            'run -o OUT.npz replaces arr_0 only', err)

    # What cannot be kept is refused, the file left as it was.
    for title, data in (('a file that is not an archive', b'not an archive\n'),
                        ('an archive with a broken member',
                         c.build([M('a.npy', a, local_name=b'q.npy')])),
                        ('an archive numpy.load refuses',
                         c.build([M('a.npy', a), M('b.npy', b, version=64)]))):
        path = r.write('keep.npz', data)
        rc, _, err = r.run('broadcast', yp, '-o', path + ':c')
        with open(path, 'rb') as f:
            r.check(rc == 2 and path in err and f.read() == data,
                    'writing into %s is refused, the file kept' % title,
                    'exit %s\n%s' % (rc, err))
    # A name past ASCII is flagged UTF-8, as zipfile writes it: numpy.load
    # finds it, and writing it again replaces it.
    path = r.path('utf8.npz')
    for _ in range(2):
        rc, _, err = r.run('broadcast', yp, '-o', path + ':\u00e9t\u00e9')
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
    r.check(rc == 0 and names == ['\u00e9t\u00e9.npy'] and
            same_array(numpy_reads(path, '\u00e9t\u00e9'), y),
            'a UTF-8 member name as numpy.load names it', 'names %s\n%s' % (names, err))
    # An empty file, or none, is a new archive.
    path = r.write('empty.npz', b'')
    rc, _, err = r.run('broadcast', yp, '-o', path + ':c')
    r.check(rc == 0 and list(entries(path)) == ['c.npy'], 'an empty file becomes an archive',
            err)


def is_sanitized(bcast):
    p = subprocess.run(['ldd', bcast], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    return b'libasan' in p.stdout or b'libtsan' in p.stdout


def peak_rss(argv):
    """(exit status, peak resident bytes) of argv, run from a fresh
    interpreter so that the children's maximum is argv's alone."""
    code = ('import resource, subprocess, sys\n'
            'rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL,'
            ' stderr=subprocess.DEVNULL).returncode\n'
            'print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n')
    p = subprocess.run([sys.executable, '-c', code] + argv, stdout=subprocess.PIPE,
                       check=True, timeout=300)
    rc, kib = p.stdout.split()
    return int(rc), int(kib) * 1024


def test_memory(r):
    if is_sanitized(r.bcast):
        r.skip('peak memory of a deflated member', 'a sanitizer build')
        return
    mib = 1 << 20
    # 100 MB of zeros deflate to about 97 KB.
    n = 100 * 1000 * 1000 // 8
    path = r.path('zeros.npz')
    np.savez_compressed(path, z=np.zeros(n))
    base = peak_rss([r.bcast, 'info', r.path('x.npy')])[1]
    for budget in ('100M', '1G'):
        rc, peak = peak_rss([r.bcast, 'info', path + ':z', '--max-bytes', budget])
        r.check(rc == 0 and peak < n * 8 + base + 24 * mib,
                'a 100 MB deflated member read under --max-bytes %s peaks at %.0f MB '
                '(data %.0f MB, bcast alone %.0f MB)' % (budget, peak / 1e6, n * 8 / 1e6,
                                                         base / 1e6),
                'exit %s' % rc)
    # Over the budget: refused from the header, before the data are made.
    rc, peak = peak_rss([r.bcast, 'info', path + ':z', '--max-bytes', '10M'])
    r.check(rc == 1 and peak < base + 24 * mib,
            'a member over --max-bytes is refused at %.0f MB' % (peak / 1e6), 'exit %s' % rc)


def main():
    ap = common.parser(__doc__, seed=lambda: int(time.time()) % 1000000)
    args = common.parse_args(ap)
    print('seed %d (replay: --seed %d)' % (args.seed, args.seed))
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix='bcast-npz-') as tmp:
        r = Runner(os.path.abspath(args.bcast), tmp)
        r.scaled = args.scaled
        test_reading(r)
        test_random_records(r, rng)
        test_writing(r)
        test_memory(r)
        if r.skipped:
            print('%d skipped (not counted)' % r.skipped)
        return r.summary('replay: --seed %d' % args.seed)


if __name__ == '__main__':
    sys.exit(main())
