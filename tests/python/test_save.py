"""bcast.save_op and bcast.save_broadcast_to: results written to .npy files
tile by tile (bcast/save.h).  The files are byte for byte what numpy.save
writes for the same array, on random shapes, dtypes, byte orders, layouts
and memory bounds of a few elements; a 200 MB output written under
memory=8M keeps the child process's peak resident set (ru_maxrss) within a
few MiB of a process that writes nothing large; failures raise the
library's exception and leave the old file."""
import filecmp
import io
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import bcast
from conftest import SANITIZE

MiB = 1 << 20


def npy_bytes(a):
    f = io.BytesIO()
    np.save(f, a)
    return f.getvalue()


DTYPES = [np.bool_, np.int8, np.uint16, np.int32, np.int64, np.float16,
          np.float32, np.float64]


def random_array(nrng, dtype, shape):
    if dtype == np.bool_:
        return nrng.integers(0, 2, shape).astype(np.bool_)
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return nrng.integers(max(info.min, -1000), min(info.max, 1000), shape,
                             endpoint=True).astype(dtype)
    return nrng.standard_normal(shape).astype(dtype)


def random_layout(rng, a):
    """a itself, a transposed copy's transpose, or a strided slice of a
    larger array: the same values in another memory layout."""
    pick = rng.randrange(3)
    if pick == 0 or a.ndim == 0:
        return a
    if pick == 1:
        return np.ascontiguousarray(a.T).T
    big = np.zeros(tuple(2 * n for n in a.shape), a.dtype)
    view = big[tuple(slice(None, None, 2) for _ in a.shape)]
    view[...] = a
    return view


def test_save_broadcast_to_is_numpy_save(tmp_path, rng, nrng):
    path = tmp_path / "out.npy"
    for _ in range(150):
        rank = rng.randrange(0, 5)
        shape = tuple(rng.choice([0, 1, 2, 3, 5, 7]) if rng.random() < 0.1
                      else rng.randrange(1, 9) for _ in range(rank))
        in_shape = tuple(1 if rng.random() < 0.4 else n for n in shape)
        in_shape = in_shape[rng.randrange(0, rank + 1):]
        dtype = np.dtype(rng.choice(DTYPES))
        if rng.random() < 0.3:
            dtype = dtype.newbyteorder(">")
        x = random_layout(rng, random_array(nrng, dtype, in_shape))
        memory = rng.randrange(32, 4096)
        bcast.save_broadcast_to(path, x, shape, memory=memory,
                                threads=rng.choice([None, 1, 2]))
        # numpy.save writes a Fortran-ordered array in Fortran order; bcast
        # writes C order, as numpy.save does for every other layout.
        want = npy_bytes(np.broadcast_to(x, shape).copy(order="C"))
        assert pathlib.Path(path).read_bytes() == want, (dtype, in_shape, shape, memory)


OPS = [
    ("add", {}, [np.int32, np.int32]),
    ("add", {}, [np.int8, np.float32]),      # numpy promotion, per tile
    ("multiply", {}, [np.float64, np.float64]),
    ("maximum", {}, [np.float16, np.uint8]),
    ("clamp", {"min_val": -1, "max_val": 1}, [np.int16]),
    ("select", {}, [np.bool_, np.float32, np.float32]),
    ("cast", {"to": "int8"}, [np.float32]),
]


@pytest.mark.parametrize("op,attrs,dtypes", OPS)
def test_save_op_is_numpy_save(tmp_path, rng, nrng, op, attrs, dtypes):
    path = tmp_path / "op.npy"
    for _ in range(25):
        rank = rng.randrange(1, 4)
        shape = tuple(rng.randrange(1, 12) for _ in range(rank))
        inputs = [random_layout(rng, random_array(
            nrng, d, tuple(1 if rng.random() < 0.4 else n for n in shape)))
            for d in dtypes]
        if rng.random() < 0.3 and op == "add":
            inputs[1] = 3  # a Python scalar, typed by NEP 50
        memory = rng.randrange(64, 2048)
        bcast.save_op(path, op, *inputs, memory=memory, **attrs)
        want = getattr(bcast, op)(*inputs, **attrs)
        assert pathlib.Path(path).read_bytes() == npy_bytes(want), (op, shape, memory)
    # NumPy as an independent oracle for one of them.
    a = nrng.standard_normal((300, 1)).astype(np.float32)
    b = nrng.standard_normal((1, 200)).astype(np.float32)
    bcast.save_op(str(path), "add", a, b, memory=4096)
    assert pathlib.Path(path).read_bytes() == npy_bytes(a + b)


# A child that writes a 5000 x 5000 float64 file (200 MB) under memory=8M,
# with WHAT=whole the same result held in memory, or with WHAT=small the
# same imports and a small file.
CHILD = r"""
import sys
import numpy as np, bcast
what, path = sys.argv[1], sys.argv[2]
col = np.arange(5000, dtype=np.float64).reshape(5000, 1)
row = np.arange(5000, dtype=np.float64).reshape(1, 5000) / 7
if what == "broadcast":
    bcast.save_broadcast_to(path, row, (5000, 5000), memory=8 << 20)
elif what == "op":
    bcast.save_op(path, "add", col, row, memory=8 << 20)
elif what == "whole":
    np.save(path, bcast.add(col, row))
else:
    bcast.save_broadcast_to(path, row, (5, 5000), memory=8 << 20)
"""

# Runs the child from a small interpreter that prints its peak resident
# set (ru_maxrss, KiB): a child's ru_maxrss starts from its parent's
# resident set at fork (kept across exec), so it is measured from a
# process that holds nothing, not from this one.
MEASURE = r"""
import os, sys
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
print(usage.ru_maxrss)
sys.exit(os.waitstatus_to_exitcode(status))
"""


def child_peak_kib(what, path):
    p = subprocess.run([sys.executable, "-S", "-c", MEASURE, sys.executable,
                        "-c", CHILD, what, str(path)],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    return int(p.stdout.strip())


@pytest.mark.skipif(SANITIZE, reason="ASan's shadow memory and quarantine "
                    "make the resident set no measure of bcast's memory")
def test_200mb_output_under_8m_memory(tmp_path):
    base = child_peak_kib("small", tmp_path / "small.npy")
    col = np.arange(5000, dtype=np.float64).reshape(5000, 1)
    row = np.arange(5000, dtype=np.float64).reshape(1, 5000) / 7
    for what in ("broadcast", "op"):
        path = tmp_path / f"{what}.npy"
        peak = child_peak_kib(what, path)
        print(f"{what}: peak {peak} KiB, a small write's {base} KiB, "
              f"output {os.path.getsize(path) >> 10} KiB")
        # One tile of at most 4 MiB, and a few MiB of slack.
        assert peak < base + 12 * 1024, (what, peak, base)
        ref = tmp_path / "ref.npy"
        np.save(ref, np.broadcast_to(row, (5000, 5000)) if what == "broadcast"
                else col + row)
        assert filecmp.cmp(path, ref, shallow=False), what
        os.unlink(ref)
        os.unlink(path)
    # The measure sees an output held whole.
    whole = child_peak_kib("whole", tmp_path / "whole.npy")
    assert whole > base + 150 * 1024, (whole, base)


def test_checked_failure_names_the_whole_output_and_keeps_the_file(tmp_path):
    path = tmp_path / "old.npy"
    path.write_bytes(b"old contents")
    a = np.zeros((3000, 1), np.int32)
    b = np.zeros((1, 200), np.int32)
    a[2500, 0] = 2**31 - 1
    b[0, 150] = 1
    with pytest.raises(bcast.CheckedError) as e:
        bcast.save_op(path, "add", a, b, profile="tosa", checked=True,
                      memory=64 << 10)
    assert e.value.op == "add"
    assert e.value.index == (2500, 150)
    assert "output index [2500,150]" in str(e.value)
    assert str(e.value).startswith(str(path) + ": tosa.add:")
    assert path.read_bytes() == b"old contents"
    assert not [n for n in os.listdir(tmp_path) if n.startswith(".bcast-tmp")]


def test_refusals(tmp_path):
    path = tmp_path / "x.npy"
    a = np.ones((3, 4), np.float32)
    with pytest.raises(bcast.BroadcastError):
        bcast.save_broadcast_to(path, a, (5, 4))
    with pytest.raises(bcast.BroadcastError):
        bcast.save_op(path, "add", a, np.ones(5, np.float32))
    with pytest.raises(TypeError, match="dtype"):
        bcast.save_broadcast_to(path, np.array(["ab"]), (3,))
    with pytest.raises(TypeError, match="no out"):
        bcast.save_op(path, "add", a, a, out=a)
    with pytest.raises(TypeError, match="unexpected keyword"):
        bcast.save_op(path, "add", a, a, shift=1)
    with pytest.raises(ValueError, match="unknown op"):
        bcast.save_op(path, "no_such_op", a, a)
    with pytest.raises(ValueError, match="memory is negative"):
        bcast.save_broadcast_to(path, a, (3, 4), memory=-1)
    with pytest.raises(TypeError):
        bcast.save_op(path, "add", a, a, memory="1M")
    with pytest.raises(bcast.BudgetError, match="tiles of one element"):
        bcast.save_op(path, "add", a, a, memory=8)
    with pytest.raises(OSError, match="No such file or directory"):
        bcast.save_broadcast_to(tmp_path / "missing" / "x.npy", a, (3, 4))
    with pytest.raises(TypeError):
        bcast.save_op()
    assert not path.exists()
    # Paths: str, bytes and path objects alike.
    for p in (str(path), os.fsencode(path), pathlib.Path(path)):
        bcast.save_broadcast_to(p, a, (2, 3, 4), memory=1 << 10)
        assert pathlib.Path(path).read_bytes() == npy_bytes(np.broadcast_to(a, (2, 3, 4)))
