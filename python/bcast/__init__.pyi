# Type stubs of the package bcast (__init__.py): everything is re-exported
# from the C extension bcast._bcast (_bcast.pyi).  The ctest test
# `stubtest` checks the stubs against the built module.  No __all__ here:
# the public names are the ones stubtest compares, and __init__.py's list
# stays the one list.
from . import _bcast as _bcast
from ._bcast import *
from ._bcast import __version__ as __version__
