#!/usr/bin/python3
"""Writes the seed corpora under fuzz/corpus/<harness>/: small valid inputs
of every kind.  .npy files of every dtype, byte order, memory order and
format version (numpy.save and numpy.lib.format with version=(2,0) and
(3,0)); .npz archives built byte by byte (tests/diff/npz_craft.py); every
MLIR file the tests use (tests/data/**) for the scanner and
the emitter; shapes, attribute values and dictionaries.  Deterministic:
re-running it rewrites the same files.  Run with /usr/bin/python3 (NumPy).
"""
import hashlib
import io
import os
import sys
import zlib

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def put(harness, data, name=None):
    if isinstance(data, str):
        data = data.encode()
    d = os.path.join(HERE, "corpus", harness)
    os.makedirs(d, exist_ok=True)
    name = name or "seed-" + hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def npy_bytes(a, version=None):
    buf = io.BytesIO()
    if version is None:
        np.save(buf, a)
    else:
        np.lib.format.write_array(buf, a, version=version)
    return buf.getvalue()


def npy_seeds():
    base = np.arange(6).reshape(2, 3)
    dtypes = ["?", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2", "f4", "f8"]
    for dt in dtypes:
        for order in "<>":
            d = np.dtype(dt).newbyteorder(order) if np.dtype(dt).itemsize > 1 else np.dtype(dt)
            a = base.astype(d)
            put("npy", npy_bytes(a), "%s%s-c" % (dt, order))
            put("npy", npy_bytes(np.asfortranarray(a)), "%s%s-f" % (dt, order))
    for version in [(1, 0), (2, 0), (3, 0)]:
        put("npy", npy_bytes(np.arange(4, dtype="<f4"), version), "f4-v%d" % version[0])
    put("npy", npy_bytes(np.float64(2.5)), "rank0")
    put("npy", npy_bytes(np.zeros((0, 3), dtype="<i4")), "size0")
    put("npy", npy_bytes(np.array([b"ab", b"c"], dtype="S2")), "bytes")
    put("npy", npy_bytes(np.array(["x", "\u00e9t\u00e9"], dtype="<U3")), "unicode")
    put("npy", npy_bytes(np.array(["x", "yz"], dtype=">U2")), "unicode-be")
    put("npy", npy_bytes(np.array(["\u00e9"], dtype="<U1"), (3, 0)), "unicode-v3")
    # bfloat16 as ml_dtypes saves it: '<V2'.
    put("npy", npy_bytes(np.array([0x3F80, 0x4000], dtype="<u2").view("V2")), "bf16")
    put("npy", npy_bytes(np.ones((1, 1, 1, 2), dtype="<f4")), "rank4")


def mlir_seeds():
    for sub in ["lower", "verify"]:
        d = os.path.join(ROOT, "tests", "data", sub)
        for name in sorted(os.listdir(d)):
            if name.endswith(".mlir") or name.endswith(".golden"):
                with open(os.path.join(d, name), "rb") as f:
                    data = f.read()
                put("mlir", data, "%s-%s" % (sub, name))
                put("lower", data, "%s-%s" % (sub, name))
    extra = [
        '%0 = "tosa.add"(%a, %b) : (tensor<1x2xf32>, tensor<2xf32>) -> tensor<1x2xf32>\n',
        "%r:2 = test.op %a {x = \"s: t\"} : tensor<*xi8>\n",
        "%s = chlo.broadcast_add %a, %b {broadcast_dimensions = array<i64: 1>} : "
        "(tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>\n",
        "%t = stablehlo.add %a, %b {broadcast_dimensions = dense<[0, 1]> : tensor<2xi64>} : "
        "(vector<[4]x2xf16>, tensor<4x2xf16>) -> tensor<4x2xf16>\n",
        "tensor<1x?x3xf32>", "vector<[4]x2xbf16>", "tensor<4xf32, #enc<\"a\">>",
    ]
    for text in extra:
        put("mlir", text)
    put("lower",
        "func.func @f(%a: tensor<?x1xi32>, %b: tensor<3xi32>) -> tensor<?x3xi32> {\n"
        "  %0 = tosa.add %a, %b : (tensor<?x1xi32>, tensor<3xi32>) -> tensor<?x3xi32>\n"
        "  %1 = tosa.clamp %0 {min_val = 0 : i32, max_val = 6 : i32} : (tensor<?x3xi32>) -> tensor<?x3xi32>\n"
        "  return %1 : tensor<?x3xi32>\n}\n")


def shape_seeds():
    for text in ["[2,?,1]", "[]", "*", "2x?x1", "(3,)", "(2, 3)", "[n,1]",
                 "[batch,?,3]", "tensor<2x?xf32>", "vector<4xf16>",
                 "tensor<*xi32>", " [ 1 , 2 ] ", "7", "[9223372036854775807]"]:
        put("shape", text)


def explicit_seeds():
    for text in ["array<i64: 0, 2>\n[3,4]\n[3,5,4]",
                 "array<i64: 1>\n[1]\n[2,3]",
                 "dense<[1, 0]> : tensor<2xi64>\n[2,1]\n[1,2]",
                 "dense<0> : tensor<1xi64>\n[?]\n[?,4]",
                 "array<i64>\n[]\n[2,2]",
                 "dense<> : tensor<0xi64>\n[]\n[]"]:
        put("explicit", text)


def attr_seeds():
    import re
    # The first byte picks the op (index into the op table, modulo).
    with open(os.path.join(ROOT, "include", "bcast", "op.h")) as f:
        text = f.read()
    # The rows of BCAST_OP_LIST, in enum order: "X(ABS, ...".
    table = text[text.index("#define BCAST_OP_LIST"):text.index("typedef enum bcast_op {")]
    names = re.findall(r"X\((\w+),", table)

    def op_index(name):
        return names.index(name)
    dicts = [
        ("CLAMP", "{min_val = 0.0 : f32, max_val = 6.0 : f32}"),
        ("CLAMP", "{min_val = -1 : i32, max_val = 0x7F : i8, nan_mode = \"IGNORE\"}"),
        ("CLAMP", "{\"min_val\" = 0xFFC00000 : f32, max_val = 1.5e3 : f32}"),
        ("MUL", "{shift = 3 : i8}"),
        ("ARITHMETIC_RIGHT_SHIFT", "{round = true}"),
        ("ADD", "{}"),
        ("CLAMP", "min_val=0"),
        ("CLAMP", "max_val = -inf"),
        ("CLAMP", "tosa.*=trait"),
    ]
    for op, text in dicts:
        put("attr", bytes([op_index(op) % 256]) + text.encode())


def npz_seeds():
    """Archives the npz harness reads by the names a, b, arr_0, x: np.savez
    and np.savez_compressed, several members, zip64 records, a comment, a
    data descriptor, names the way zipfile decodes them, and broken ones
    (cut, a bad CRC, a local name unlike the directory's, an incomplete
    Huffman code)."""
    sys.path.insert(0, os.path.join(ROOT, "tests", "diff"))
    import npz_craft as c
    a = c.npy_bytes(np.arange(6, dtype="<i4").reshape(2, 3))
    b = c.npy_bytes(np.array([0.5, -1.0]))
    s = c.npy_bytes(np.array(["x", "yz"]))
    for name, method in (("savez", 0), ("compressed", 8)):
        put("npz", c.build([c.savez_member("a.npy", a, method),
                            c.savez_member("b.npy", b, method)]), name)
        put("npz", c.build([c.savez_member("arr_0.npy", b, method)]), name + "-one")
    M = c.Member
    seeds = {
        "stored": c.build([M("a.npy", a), M("b.npy", b, 8), M("x.npy", s)]),
        "duplicate": c.build([M("a.npy", a), M("a.npy", b)]),
        "exact-and-npy": c.build([M("a", b), M("a.npy", a)]),
        "nul-name": c.build([M(b"a\0junk.npy", a)]),
        "cp437-name": c.build([M(b"\x82.npy", a), M("b.npy", b)]),
        "utf8-name": c.build([M("\u00e9.npy".encode(), a, flags=0x800), M("b.npy", b)]),
        "zip64": c.build([M("a.npy", a, csize=0xffffffff, usize=0xffffffff,
                            central_extra=c.zip64_extra(len(a), len(a)))], zip64=True),
        "zip64-offset": c.build([M("x.npy", s), M("a.npy", a, offset=0xffffffff,
                                                  central_extra=c.zip64_extra(0))]),
        "comment": c.build([M("a.npy", a)], comment=b"a comment PK"),
        "descriptor": c.build([M("a.npy", a, flags=8, local_flags=8)]),
        "empty": c.build([]),
        "count-wrong": c.build([M("a.npy", a), M("b.npy", b)], end_count=1),
        "bad-crc": c.build([M("a.npy", a, crc=1)]),
        "local-name": c.build([M("a.npy", a, local_name=b"b.npy")]),
        "version64": c.build([M("a.npy", a), M("b.npy", b, version=64)]),
        "encrypted": c.build([M("a.npy", a, flags=1)]),
        "huffman-incomplete": c.build([M("a.npy", a, 8, packed=c.incomplete_code_stream(a))]),
        "usize-short": c.build([M("a.npy", a + b"tail", 8, usize=len(a),
                                  crc=zlib.crc32(a))]),
    }
    for name, data in seeds.items():
        put("npz", data, name)
    put("npz", seeds["stored"][:len(seeds["stored"]) // 2], "cut")


def main():
    np.random.seed(0)
    npy_seeds()
    npz_seeds()
    mlir_seeds()
    shape_seeds()
    explicit_seeds()
    attr_seeds()
    for h in sorted(os.listdir(os.path.join(HERE, "corpus"))):
        print("%-9s %d seeds" % (h, len(os.listdir(os.path.join(HERE, "corpus", h)))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
