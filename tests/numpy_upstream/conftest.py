"""NumPy's own tests, rebound to bcast: the expected failures and the guards.

Run from a build tree: PYTHONPATH=BUILD/python /usr/bin/python3 -m pytest
tests/numpy_upstream (ctest's "numpy_upstream" test does this).

- The copies must be what copy_tests.py writes from the installed NumPy.
- A test that passes without one call reaching bcast fails: it would prove
  nothing about bcast.
- XFAIL is the one table of expected failures: every entry is
  xfail(strict=True), so a fix makes it XPASS and fail until its entry goes.
"""
import os
import sys

import numpy
import pytest

import bcast

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import copy_tests  # noqa: E402
import numpy_rebound  # noqa: E402


@pytest.fixture(params=[True, False])
def weak_promotion(request):
    """NumPy's fixture of that name (numpy/conftest.py): the test runs under
    NEP 50's weak promotion (with its warnings) and under the legacy one."""
    state = numpy._get_promotion_state()
    numpy._set_promotion_state("weak_and_warn" if request.param else "legacy")
    yield request.param
    numpy._set_promotion_state(state)


# The categories of what still differs: issue 24's items 1-3 (error
# states, NumPy's words and values) were categories a and b until they were
# done, and their entries went with them.
BUG = "c"           # a bcast bug not yet fixed
DOCUMENTED = "d"    # a documented difference (README, docs/python.md)
CATEGORIES = {BUG: "bcast bug",
              DOCUMENTED: "documented difference"}

# The reasons, each said once: (category, the exception the test fails
# with, why).  A test failing with another exception fails.
WEAK = (DOCUMENTED, AssertionError, "Python scalars are typed by NEP 50's weak rule only, "
        "not by NumPy 1.24's legacy value-based promotion")
KEYWORDS = (DOCUMENTED, TypeError, "ufunc keywords dtype=, signature=, subok= and out= "
            "as a tuple are not taken: results are base-class ndarrays of "
            "the promoted type")
READONLY = (DOCUMENTED, AssertionError, "broadcast_arrays returns read-only views (NumPy's "
            "are writeable, with a FutureWarning)")
OUT_EXACT = (DOCUMENTED, bcast.BroadcastError, "out= must have exactly the broadcast shape; it "
             "does not broadcast the inputs further")
NEG_POWER = (DOCUMENTED, AssertionError, "power of integers to a negative integer gives "
             "trunc(a^b) (docs/api.md), NumPy raises ValueError")

# node id (from this directory) -> reason: the one table.
XFAIL = {
    "test_np_half.py::TestHalf::test_half_coercion[False]": WEAK,
    "test_np_multiarray.py::TestWhere::test_exotic": WEAK,
    **{f"test_np_nep50.py::test_nep50_weak_integers_with_inexact[{t}]":
       KEYWORDS for t in "ef"},
    "test_np_umath.py::TestComparisons::test_object_dtype": KEYWORDS,
    "test_np_umath.py::TestComparisons::test_object_nonbool_dtype_error":
        KEYWORDS,
    "test_np_umath.py::TestOut::test_out_subok": KEYWORDS,
    "test_np_umath.py::TestOut::test_out_wrap_subok": KEYWORDS,
    "test_np_stride_tricks.py::test_subclasses": KEYWORDS,
    "test_np_stride_tricks.py::test_writeable": READONLY,
    "test_np_stride_tricks.py::test_writeable_memoryview": READONLY,
    "test_np_ufunc.py::TestUfunc::test_out_broadcasts": OUT_EXACT,
    "test_np_umath.py::TestPower::test_integer_to_negative_power": NEG_POWER,
}

# Bugs that abort the sanitizer builds' run (UBSan stops at the first
# report), so there they are expected failures not run; the release build
# runs them, where they pass.
SANITIZER_BUGS = {}  # test id -> reason: bugs only the sanitizers stop on
SANITIZE = os.environ.get("BCAST_TEST_SANITIZE") == "1"

# Parametrizations that reach only NumPy, by their test's own branches.
NUMPY_ONLY_IDS = {
    "test_np_nep50.py::test_nep50_weak_integers_with_inexact[d]":
        "float64 overflow is tested with Python operators only",
}


def pytest_sessionstart(session):
    stale = [t for t in copy_tests.COPIES
             if open(os.path.join(copy_tests.HERE, t), encoding="utf-8").read()
             != copy_tests.render(t)]
    if stale:
        pytest.exit("stale copies (run tests/numpy_upstream/copy_tests.py): "
                    + ", ".join(stale), returncode=3)


def _key(item):
    return item.nodeid.rpartition("numpy_upstream/")[2]


def _numpy_only(item):
    """Whether a parameter of item is a NumPy ufunc bcast does not have (the
    copies' module-level lists UFUNCS... hold numpy.core.umath's own), a
    type bcast has none of, or a Python operator with no rebound function
    beside it (`a // b` on arrays is NumPy's; test_comparison_functions
    takes operator.lt as the reference for np.less)."""
    params = getattr(getattr(item, "callspec", None), "params", {}).values()
    operator = any(getattr(v, "__module__", None) in ("operator", "_operator")
                   for v in params)
    rebound = any(isinstance(v, numpy_rebound.Rebound) for v in params)
    return (_key(item) in NUMPY_ONLY_IDS or operator and not rebound
            or any(isinstance(v, numpy.ufunc) or _other_dtype(v)
                   for v in params))


def _other_dtype(v):
    """Whether v is a dtype parameter (a type code, a scalar type, a dtype)
    of a type bcast has none of (float128: "g", "G", complex)."""
    if not (isinstance(v, str) and len(v) == 1 and v in numpy.typecodes["All"]
            or isinstance(v, numpy.dtype)
            or isinstance(v, type) and issubclass(v, numpy.generic)):
        return False
    return not numpy_rebound.takes_dtype(numpy.dtype(v))


NUMPY_ONLY = []


def pytest_collection_modifyitems(config, items):
    NUMPY_ONLY[:] = [item for item in items if _numpy_only(item)]
    if NUMPY_ONLY:
        config.hook.pytest_deselected(items=NUMPY_ONLY)
        gone = set(map(id, NUMPY_ONLY))
        items[:] = [item for item in items if id(item) not in gone]
    seen = set()
    for item in items:
        bug = SANITIZER_BUGS.get(_key(item)) if SANITIZE else None
        if bug:
            item.add_marker(pytest.mark.xfail(
                run=False, reason=f"({bug[0]}) {bug[2]}"))
        entry = XFAIL.get(_key(item))
        if entry:
            seen.add(_key(item))
            category, raises, reason = entry
            item.add_marker(pytest.mark.xfail(
                strict=True, raises=raises, reason=f"({category}) {reason}"))
    whole = not config.option.keyword and not any("::" in a
                                                  for a in config.args)
    files = {_key(item).partition("::")[0] for item in items + NUMPY_ONLY}
    unused = sorted(k for k in set(XFAIL) - seen
                    if k.partition("::")[0] in files)
    if whole and unused:
        raise pytest.UsageError("XFAIL entries naming no test: "
                                + ", ".join(unused))


def pytest_runtest_setup(item):
    item._bcast_calls = numpy_rebound.CALLS[0]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if (call.when == "call" and report.passed and not hasattr(report, "wasxfail")
            and numpy_rebound.CALLS[0] == item._bcast_calls):
        report.outcome = "failed"
        report.longrepr = ("passed without calling bcast: the test proves "
                           "nothing about bcast (drop it in copy_tests.py)")


def pytest_terminal_summary(terminalreporter):
    counts = {}
    for outcome in ("passed", "xfailed", "failed", "xpassed", "skipped"):
        for report in terminalreporter.stats.get(outcome, []):
            key = report.nodeid.rpartition("numpy_upstream/")[2]
            table = SANITIZER_BUGS if SANITIZE and key in SANITIZER_BUGS \
                else XFAIL
            category = table.get(key, ("",))[0] if outcome == "xfailed" else ""
            counts[(outcome, category)] = counts.get((outcome, category), 0) + 1
    terminalreporter.write_sep("-", "NumPy's tests through bcast")
    terminalreporter.write_line(
        f"deselected (parametrized by a NumPy ufunc, an operator or a type "
        f"bcast has none of, or NUMPY_ONLY_IDS): "
        f"{len(NUMPY_ONLY)}")
    terminalreporter.write_line(
        f"calls reaching bcast: {numpy_rebound.CALLS[0]}; handed to NumPy "
        f"(a type bcast does not have): {numpy_rebound.FALLBACKS[0]}")
    for (outcome, category), n in sorted(counts.items()):
        what = f" {CATEGORIES[category]}" if category else ""
        terminalreporter.write_line(f"{outcome}{what}: {n}")
