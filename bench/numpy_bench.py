#!/usr/bin/env python3
"""NumPy's side of bcast_bench: times np.broadcast_to(x, shape).copy().

Usage: numpy_bench.py REPS CASE...   where CASE is DTYPE:SRC:OUT, shapes as
comma-separated sizes ("float32:4096,1:4096,4096").  For each case prints
one line "numpy INDEX BEST_SECONDS OUTPUT_BYTES", the best of REPS runs,
including the allocation of the copy (as bcast_materialize includes it).
"""
import sys
import time

import numpy as np


def parse_shape(text):
    return tuple(int(d) for d in text.split(",")) if text else ()


def main(argv):
    reps = int(argv[1])
    print("numpy-version %s" % np.__version__, flush=True)
    for index, spec in enumerate(argv[2:]):
        dtype, src, out = spec.split(":")
        src_shape, out_shape = parse_shape(src), parse_shape(out)
        count = int(np.prod(src_shape, dtype=np.int64))
        x = (np.arange(count) % 251).astype(dtype).reshape(src_shape)
        best = float("inf")
        nbytes = 0
        for _ in range(reps):
            start = time.perf_counter()
            y = np.broadcast_to(x, out_shape).copy()
            best = min(best, time.perf_counter() - start)
            nbytes = y.nbytes
            del y
        print("numpy %d %.9f %d" % (index, best, nbytes), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
