"""Zip archives built byte by byte, for the .npz tests and the npz fuzz
seeds: every header field can be set, so archives that Python's zipfile
reads in its own way (duplicates, zip64 records, names in code page 437,
comments, sizes it cuts short) and archives it refuses can be made.

Imported, not run: CMake runs only tests/diff/test_*.py; fuzz/make_corpus.py
imports it too.
"""
import io
import struct
import zlib

import numpy as np


def npy_bytes(a):
    buf = io.BytesIO()
    np.save(buf, a)
    return buf.getvalue()


def deflate(data, level=6):
    c = zlib.compressobj(level, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush()


class Member:
    """One member: NAME (str or bytes) holding DATA (bytes), stored or
    deflated (METHOD 0 or 8).  Any other keyword overrides a field:
    crc, csize, usize, version (needed to extract), flags, local_flags,
    local_name, local_extra, local_csize, local_usize, central_extra,
    packed (the bytes as stored), offset (the directory's header offset)."""

    def __init__(self, name, data, method=0, **fields):
        self.name = name.encode() if isinstance(name, str) else name
        self.data = data
        self.method = method
        self.fields = fields
        packed = data if method != 8 else deflate(data)
        self.packed = fields.get('packed', packed)
        self.offset = None

    def get(self, key, default):
        return self.fields.get(key, default)

    def local(self):
        f = self.get
        name = f('local_name', self.name)
        extra = f('local_extra', b'')
        return struct.pack('<IHHHHHIIIHH', 0x04034b50, f('version', 20),
                           f('local_flags', f('flags', 0)), self.method, 0, 0x21,
                           f('crc', zlib.crc32(self.data)),
                           f('local_csize', f('csize', len(self.packed))),
                           f('local_usize', f('usize', len(self.data))),
                           len(name), len(extra)) + name + extra

    def central(self):
        f = self.get
        extra = f('central_extra', b'')
        return struct.pack('<IHHHHHHIIIHHHHHII', 0x02014b50, 0x0314,
                           f('version', 20), f('flags', 0), self.method, 0, 0x21,
                           f('crc', zlib.crc32(self.data)),
                           f('csize', len(self.packed)), f('usize', len(self.data)),
                           len(self.name), len(extra), 0, 0, 0, 0o644 << 16,
                           f('offset', self.offset)) + self.name + extra


def savez_member(name, data, method=0):
    """A member as numpy.savez writes it (zipfile's force_zip64): version
    4.5, 0xFFFFFFFF sizes in the local header and the real ones in its
    zip64 extra field; the directory has plain sizes."""
    m = Member(name, data, method, version=45)
    m.fields.update(local_csize=0xffffffff, local_usize=0xffffffff,
                    local_extra=zip64_extra(len(data), len(m.packed)))
    return m


def build(members, directory=None, comment=b'', prefix=b'', zip64=False,
          end_count=None, end_comment_len=None, locator_disk=0):
    """The archive of MEMBERS (their local headers and data in order) whose
    directory lists DIRECTORY (default: MEMBERS; a member may be listed
    twice, or not at all).  PREFIX goes before the archive; ZIP64 adds a
    zip64 end record and locator and puts 0xFFFF.. in the plain end record;
    END_COUNT and END_COMMENT_LEN override the plain end record's entry
    count and comment length."""
    out = bytearray(prefix)
    for m in members:
        m.offset = len(out) - len(prefix)
        out += m.local() + m.packed
    dir_at = len(out) - len(prefix)
    central = b''.join(m.central() for m in (members if directory is None
                                             else directory))
    out += central
    n = len(members if directory is None else directory)
    count = n if end_count is None else end_count
    if zip64:
        end64_at = len(out) - len(prefix)
        out += struct.pack('<IQHHIIQQQQ', 0x06064b50, 44, 45, 45, 0, 0, count,
                           count, len(central), dir_at)
        out += struct.pack('<IIQI', 0x07064b50, locator_disk, end64_at, 1)
        out += struct.pack('<IHHHHIIH', 0x06054b50, 0, 0, 0xffff, 0xffff,
                           0xffffffff, 0xffffffff,
                           len(comment) if end_comment_len is None else end_comment_len)
    else:
        out += struct.pack('<IHHHHIIH', 0x06054b50, 0, 0, count, count,
                           len(central), dir_at,
                           len(comment) if end_comment_len is None else end_comment_len)
    return bytes(out + comment)


def zip64_extra(*values):
    """A zip64 extra field holding VALUES (8 bytes each)."""
    return struct.pack('<HH', 1, 8 * len(values)) + b''.join(
        struct.pack('<Q', v) for v in values)


def incomplete_code_stream(data):
    """DATA as one dynamic deflate block whose literal/length code is
    incomplete: all 257 symbols (the bytes and end-of-block) have 9-bit
    codes, which use half the code space.  RFC 1951 decoders that accept
    incomplete codes (puff's construct() reports them, and bcast's old
    inflater took them) decode it; zlib refuses it ("invalid literal/
    lengths set"), and so Python's zipfile and numpy.load."""
    bits = []

    def put(value, n):              # fixed-width fields: least bit first
        bits.extend((value >> i) & 1 for i in range(n))

    def code(value, n):             # Huffman codes: most bit first
        bits.extend((value >> (n - 1 - i)) & 1 for i in range(n))
    put(1, 1)                       # BFINAL
    put(2, 2)                       # BTYPE 2: dynamic codes
    put(0, 5)                       # HLIT: 257 literal/length codes
    put(0, 5)                       # HDIST: 1 distance code
    put(3, 4)                       # HCLEN: 7 code length codes
    for length in (0, 0, 0, 1, 0, 0, 1):   # of 16, 17, 18, 0, 8, 7, 9
        put(length, 3)
    # The code length code is complete: 0 -> '0', 9 -> '1'.
    for _ in range(257):
        code(1, 1)                  # length 9 for each literal/length
    code(0, 1)                      # length 0: no distance code
    for b in data:
        code(b, 9)
    code(256, 9)                    # end of block
    bits.extend([0] * (-len(bits) % 8))
    return bytes(sum(b << k for k, b in enumerate(bits[i:i + 8]))
                 for i in range(0, len(bits), 8))
