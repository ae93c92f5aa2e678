"""Shared fixtures of the Python module's tests.

Run from a build tree: PYTHONPATH=BUILD/python /usr/bin/python3 -m pytest
tests/python (ctest's "python" test does this).  Random tests take their
seed from BCAST_SEED (default: a new one) and print it with the replay
command, which pytest shows for a failing test.
"""
import os
import random
import sys

import pytest

SANITIZE = os.environ.get("BCAST_TEST_SANITIZE") == "1"


@pytest.fixture
def rng(request):
    seed = int(os.environ.get("BCAST_SEED", random.randrange(1 << 32)))
    print(f"seed {seed}; replay: BCAST_SEED={seed} PYTHONPATH={os.environ.get('PYTHONPATH', '')} "
          f"{sys.executable} -m pytest {request.node.nodeid}")
    return random.Random(seed)


@pytest.fixture
def nrng(rng):
    """A NumPy generator seeded from rng (so from the printed seed)."""
    import numpy as np
    return np.random.default_rng(rng.randrange(1 << 32))


def in_threads(work, n):
    """Runs work(k) for k in 0..n-1, each in its own thread, side by side;
    returns their results in order."""
    import threading
    results = [None] * n

    def run(k):
        results[k] = work(k)

    threads = [threading.Thread(target=run, args=(k,)) for k in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results
