"""bcast.tiles at the edges of int64: outputs of up to INT64_MAX elements
are planned exactly (the tiles, checked here with Python's unbounded
ints, cover the output once, in order, each within the budget), larger
ones raise OverflowError naming the shape, and a 0 dim beside huge ones
gives no tiles."""
import pytest

import bcast

INT64_MAX = 2**63 - 1


def covers_in_order(out_shape, tiles, budget, in_shape):
    """Each tile a run of whole trailing dims, starting where the last one
    ended, within budget (1-byte elements, the operand's box included);
    together the whole output."""
    def position(index):
        p = 0
        for i, n in zip(index, out_shape):
            p = p * n + i
        return p

    end = 0
    for lo, hi in tiles:
        assert all(0 <= a < b <= n for a, b, n in zip(lo, hi, out_shape))
        size = 1
        for a, b in zip(lo, hi):
            size *= b - a
        first = position(lo)
        last = position([b - 1 for b in hi])
        assert last - first + 1 == size  # one contiguous run
        assert first == end
        end = last + 1
        reads = 1
        for d, n in enumerate(in_shape):
            if n != 1:
                reads *= hi[d] - lo[d]
        assert size + reads <= budget
    total = 1
    for n in out_shape:
        total *= n
    assert end == total


@pytest.mark.parametrize("out_shape, in_shape, budget", [
    ((INT64_MAX,), (1,), 2**62),          # a last run past lo + step
    ((INT64_MAX - 256,), (1,), 2**61),
    ((INT64_MAX,), (INT64_MAX,), INT64_MAX),  # 2**64 bytes: never one tile
    ((3, INT64_MAX // 3), (3, 1), 2**61),
])
def test_tiles_near_int64_max(out_shape, in_shape, budget):
    tiles = bcast.tiles(out_shape, [in_shape], budget, itemsizes=[1],
                        out_itemsize=1)
    covers_in_order(out_shape, tiles, budget, in_shape)


def test_tiles_past_int64_elements_raise_overflow():
    with pytest.raises(OverflowError, match=r"\[4294967296,4294967296\]"):
        bcast.tiles((2**32, 2**32), [(1, 1)], 16, itemsizes=[1],
                    out_itemsize=1)


@pytest.mark.parametrize("out_shape", [
    (0, INT64_MAX), (INT64_MAX, 0), (2**62, 0, 2**62)])
def test_tiles_of_an_empty_output_with_huge_dims(out_shape):
    assert bcast.tiles(out_shape, [(1,) * len(out_shape)], 16) == []
