"""NumPy with its broadcasting functions rebound to bcast's.

The copied NumPy tests in this directory import `np` (and `ncu`, and the
stride_tricks names) from here instead of from numpy; that import line is
the only edit to them.  `np` is a stand-in for the numpy module: every
name is NumPy's except REBOUND's, whose calls go to bcast.

A rebound ufunc keeps everything but its call: `np.add.reduce`,
`np.add.nin`, `np.add.types`, `np.add.__name__` are NumPy's ufunc's (bcast's
ops are element-wise broadcasting functions, with no reductions), while
`np.add(x, y, out=z)` is `bcast.add(x, y, out=z)`, keywords and all.
Two kinds of call stay NumPy's: those with an operand of a type bcast has
none of (complex, object, float128, datetime; bcast is tested on its own
types), and np.where(condition) alone, which is np.nonzero.  CALLS counts
the calls that reached bcast, so conftest.py can tell a test that proves
something about bcast from one that only ran NumPy; FALLBACKS the others.
"""
import sys
import types

import numpy
import numpy.core.umath
import numpy.lib.stride_tricks

import bcast

# bcast.OPS names that are NumPy functions of another meaning (np.select
# takes lists of conditions and choices), so they stay NumPy's.
NOT_NUMPYS = frozenset({"select"})

# The view and shape functions, as numpy and numpy.lib.stride_tricks name them.
VIEWS = ("broadcast_to", "broadcast_arrays", "broadcast_shapes")

# Calls that reached bcast, and calls handed to NumPy (an operand of a
# type bcast has no type for).
CALLS = [0]
FALLBACKS = [0]


def _bcast_takes(x, view):
    """Whether bcast has a type for operand x: bool, int8..uint64,
    float16..float64 (and for the view functions NumPy's strings).  Any
    other (float128, complex, object, datetime) is NumPy's alone, so a call
    with one goes to NumPy: the rebinding tests bcast on its own types."""
    if isinstance(x, (bool, int, float)):
        return True
    if isinstance(x, tuple) and view:
        return True          # a shape
    if isinstance(x, tuple):
        return all(_bcast_takes(v, view) for v in x)
    try:
        return takes_dtype(numpy.asarray(x).dtype, view)
    except Exception:
        return True          # bcast's own error, then


def takes_dtype(dtype, view=False):
    """Whether bcast has a type for NumPy dtype `dtype`."""
    return (dtype.kind in "biu" or dtype.kind == "f" and dtype.itemsize <= 8
            or view and dtype.kind in "SU")


class Rebound:
    """numpy.NAME whose call is bcast.NAME; other attributes are NumPy's."""

    def __init__(self, name, numpy_obj):
        self._name = name
        self._numpy = numpy_obj
        self._bcast = getattr(bcast, name)

    def __call__(self, *args, **kwargs):
        out = kwargs.get("out")
        operands = args + ((out,) if out is not None else ())
        # np.where(condition) alone is np.nonzero, no broadcasting function.
        nonzero = self._name == "where" and len(args) == 1
        if nonzero or not all(_bcast_takes(x, self._name in VIEWS)
                              for x in operands):
            FALLBACKS[0] += 1
            return self._numpy(*args, **kwargs)
        CALLS[0] += 1
        return self._bcast(*args, **kwargs)

    def __getattr__(self, attr):
        return getattr(self._numpy, attr)

    def __repr__(self):
        return f"<bcast.{self._name} as numpy.{self._name}>"


REBOUND = {name: Rebound(name, getattr(numpy, name))
           for name in bcast.OPS + VIEWS
           if hasattr(numpy, name) and name not in NOT_NUMPYS}


class _Namespace(types.ModuleType):
    """A module's stand-in: REBOUND's names first, then the module's."""

    def __init__(self, module):
        super().__init__(module.__name__, module.__doc__)
        self._module = module

    def __getattr__(self, name):
        if name in REBOUND and hasattr(self._module, name):
            return REBOUND[name]
        return getattr(self._module, name)

    def __dir__(self):
        return dir(self._module)


np = _Namespace(numpy)
ncu = _Namespace(numpy.core.umath)
stride_tricks = _Namespace(numpy.lib.stride_tricks)
# `from numpy_rebound.stride_tricks import (...)` replaces the copied
# tests' `from numpy.lib.stride_tricks import (...)` line for line.
sys.modules[__name__ + ".stride_tricks"] = stride_tricks
