#!/usr/bin/python3
"""Writes this directory's test_np_*.py: NumPy's own tests, copied.

Run with Debian's /usr/bin/python3 (python3-numpy 1.24): for each entry of
COPIES it takes, from the installed test file, the import statements, the
named helpers and the named tests, each verbatim, replaces the import lines
EDITS lists (numpy becomes numpy_rebound's stand-in, which calls bcast), and
heads the file with its source, NumPy's version and NumPy's licence.
`--check` writes nothing and fails if a file differs from what it would
write (conftest.py runs that check, so a copy cannot drift by hand).
"""
import ast
import os
import sys

import numpy

NUMPY = os.path.dirname(numpy.__file__)
HERE = os.path.dirname(os.path.abspath(__file__))

# target file -> (source under numpy/, names to copy: helpers and tests;
# "Class.test_x" copies one test method of Class, with Class's other
# non-test members).
COPIES = {
    "test_np_umath.py": ("core/tests/test_umath.py", [
        "UFUNCS", "UFUNCS_UNARY", "UFUNCS_UNARY_FP", "UFUNCS_BINARY",
        "UFUNCS_BINARY_ACC", "interesting_binop_operands", "on_powerpc",
        "floor_divide_and_remainder", "_signs",
        "_FilterInvalids",
        "TestOut", "TestComparisons", "TestDivision",
        "TestRemainder", "TestDivisionIntegerOverflowsAndDivideByZero",
        "TestPower", "TestLog", "TestExp", "TestSpecialFloats",
        "TestMaximum", "TestMinimum", "TestFmax", "TestFmin", "TestBool",
        "TestBitwiseUFuncs", "TestInt", "TestMinMax", "TestAbsoluteNegative",
        "avx_ufuncs", "TestAVXUfuncs", "TestAVXFloat32Transcendental"]),
    "test_np_stride_tricks.py": ("lib/tests/test_stride_tricks.py", [
        "assert_shapes_correct", "assert_incompatible_shapes_raise",
        "assert_same_as_ufunc", "VerySimpleSubClass", "SimpleSubClass",
        "test_same", "test_broadcast_kwargs", "test_one_off",
        "test_same_input_shapes", "test_two_compatible_by_ones_input_shapes",
        "test_two_compatible_by_prepending_ones_input_shapes",
        "test_incompatible_shapes_raise_valueerror", "test_same_as_ufunc",
        "test_broadcast_to_succeeds", "test_broadcast_to_raises",
        "test_broadcast_shapes_succeeds", "test_broadcast_shapes_raises",
        "test_subclasses", "test_writeable", "test_writeable_memoryview",
        "test_reference_types"]),
    # TestBroadcast (test_numeric.py): LEFT_OUT, all of it.
    "test_np_multiarray.py": ("core/tests/test_multiarray.py", ["TestWhere"]),
    "test_np_nep50.py": ("core/tests/test_nep50_promotions.py", [
        "_weak_promotion_enabled", "test_nep50_examples",
        "test_nep50_weak_integers", "test_nep50_weak_integers_with_inexact",
        "test_weak_promotion_scalar_path", "test_nep50_complex_promotion",
        "test_nep50_integer_conversion_errors",
        "test_nep50_integer_regression"]),
    "test_np_half.py": ("core/tests/test_half.py", [
        "assert_raises_fpe", "TestHalf.test_nans_infs",
        "TestHalf.test_half_ordering", "TestHalf.test_half_funcs",
        "TestHalf.test_half_ufuncs", "TestHalf.test_half_coercion",
        "TestHalf.test_half_fpe"]),
    "test_np_ufunc.py": ("core/tests/test_ufunc.py", [
        "TestUfunc.test_out_broadcasts",
        "TestUfunc.test_out_broadcast_errors"]),
}

# Tests of the classes and files above not copied: not one call of theirs
# reaches bcast (conftest.py fails a test that passes so), by these reasons.
REDUCE = "ufunc methods (reduce, identity, max): NumPy's; bcast has no reductions"
TYPES = "operands of types bcast has none of (complex, object, float128, timedelta, str)"
FUNCS = "NumPy functions bcast does not have (divmod, fmod, tan, arcsin, sinh, spacing...)"
OPERATORS = "Python operators on NumPy arrays and scalars (a // b), NumPy's own"
BROADCAST = "np.broadcast, NumPy's multi-iterator object: bcast has none"
LEFT_OUT = {
    "TestComparisons.test_ignore_object_identity_in_equal": TYPES,
    "TestComparisons.test_ignore_object_identity_in_not_equal": TYPES,
    "TestComparisons.test_error_in_equal_reduce": REDUCE,
    "TestAdd": REDUCE,   # its one test, test_reduce_alignment
    "TestDivision.test_division_int": OPERATORS,
    "TestDivision.test_division_int_boundary": OPERATORS,
    "TestDivision.test_division_int_reduce": REDUCE,
    "TestDivision.test_division_int_timedelta": TYPES,
    "TestDivision.test_division_complex": TYPES,
    "TestDivision.test_zero_division_complex": TYPES,
    "TestDivision.test_floor_division_complex": TYPES,
    "TestDivision.test_floor_division_signed_zero": FUNCS,
    "TestRemainder.test_float_divmod_errors": FUNCS,
    "TestRemainder.test_float_remainder_overflow": FUNCS,
    "TestRemainder.test_float_divmod_corner_cases": FUNCS,
    "TestDivisionIntegerOverflowsAndDivideByZero.test_signed_division_overflow":
        FUNCS,
    "TestDivisionIntegerOverflowsAndDivideByZero.test_divide_by_zero": FUNCS,
    "TestPower.test_power_complex": TYPES,
    "TestPower.test_power_zero": TYPES,
    "TestPower.test_fast_power": OPERATORS,
    "TestSpecialFloats.test_tan": FUNCS,
    "TestSpecialFloats.test_arcsincos": FUNCS,
    "TestSpecialFloats.test_arctan": FUNCS,
    "TestSpecialFloats.test_sinh": FUNCS,
    "TestSpecialFloats.test_cosh": FUNCS,
    "TestSpecialFloats.test_arcsinh": FUNCS,
    "TestSpecialFloats.test_arccosh": FUNCS,
    "TestSpecialFloats.test_arctanh": FUNCS,
    "TestSpecialFloats.test_exp2": FUNCS,
    "TestSpecialFloats.test_expm1": FUNCS,
    "TestMaximum.test_reduce": REDUCE,
    "TestMaximum.test_reduce_complex": REDUCE,
    "TestMaximum.test_object_nans": TYPES,
    "TestMaximum.test_complex_nans": TYPES,
    "TestMaximum.test_object_array": TYPES,
    "TestMinimum.test_reduce": REDUCE,
    "TestMinimum.test_reduce_complex": REDUCE,
    "TestMinimum.test_object_nans": TYPES,
    "TestMinimum.test_complex_nans": TYPES,
    "TestMinimum.test_object_array": TYPES,
    "TestFmax.test_reduce": REDUCE,
    "TestFmax.test_reduce_complex": REDUCE,
    "TestFmax.test_complex_nans": TYPES,
    "TestFmin.test_reduce": REDUCE,
    "TestFmin.test_reduce_complex": REDUCE,
    "TestFmin.test_complex_nans": TYPES,
    "TestBool.test_reduce": REDUCE,
    "TestBitwiseUFuncs.test_identity": REDUCE,
    "TestBitwiseUFuncs.test_reduction": REDUCE,
    "TestMinMax.test_minmax_blocked": REDUCE,
    "TestMinMax.test_lower_align": REDUCE,
    "TestMinMax.test_reduce_reorder": REDUCE,
    "TestRoundingFunctions": TYPES,  # object and Fraction operands only
    "test_reference_types": TYPES,
    "TestWhere.test_string": TYPES,
    "TestWhere.test_empty_result": FUNCS,   # np.where(x) alone: np.nonzero
    "TestWhere.test_largedim": OPERATORS,
    "TestHalf.test_nans_infs": FUNCS,
    "TestHalf.test_half_ordering": OPERATORS,
    "TestHalf.test_half_funcs": OPERATORS,
    "test_nep50_examples": OPERATORS,
    "test_nep50_weak_integers": OPERATORS,
    "test_nep50_complex_promotion": OPERATORS,
    "test_nep50_integer_conversion_errors": OPERATORS,
    "test_nep50_integer_regression": OPERATORS,
    "TestBroadcast": BROADCAST,
}

# The only edits: import lines, each replaced by the rebinding's.
EDITS = {
    "import numpy as np":
        "from numpy_rebound import np  # bcast: was import numpy as np",
    "import numpy.core.umath as ncu":
        "from numpy_rebound import ncu  # bcast: was import numpy.core.umath as ncu",
    "from numpy.lib.stride_tricks import (":
        "from numpy_rebound.stride_tricks import (  # bcast: was numpy.lib...",
}


def licence():
    """NumPy's own licence, up to the list of bundled libraries."""
    with open(os.path.join(NUMPY, "LICENSE.txt"), encoding="utf-8") as f:
        text = f.read()
    end = text.index("SUCH DAMAGE.") + len("SUCH DAMAGE.")
    return [("# " + line).rstrip() for line in text[:end].splitlines()]


def first_line(node):
    return min([node.lineno] + [d.lineno for d in
                                getattr(node, "decorator_list", [])])


def names_of(node):
    if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, ast.Assign):
        return [t.id for t in node.targets if isinstance(t, ast.Name)]
    return []


def segment(lines, node):
    return lines[first_line(node) - 1:node.end_lineno]


def copy_class(lines, node, methods):
    """Class node with only the test methods named (its other members all)."""
    out = lines[first_line(node) - 1:node.lineno]
    for member in node.body:
        name = names_of(member)
        if name and name[0].startswith("test") and (
                methods and name[0] not in methods
                or f"{node.name}.{name[0]}" in LEFT_OUT):
            continue
        out += ([""] if len(out) > node.lineno - first_line(node) + 1 else []) \
            + segment(lines, member)
    return out if any(line.lstrip().startswith("def test") for line in out) \
        else None


def render(target):
    source, wanted = COPIES[target]
    path = os.path.join(NUMPY, source)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    lines = text.splitlines()
    tree = ast.parse(text)
    methods = {}
    for name in wanted:
        cls, _, method = name.partition(".")
        methods.setdefault(cls, set()).update([method] if method else [])
    found, body = set(), []
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            seg = segment(lines, node)
            body.append([EDITS.get(seg[0], seg[0])] + seg[1:])
            continue
        hit = [n for n in names_of(node) if n in methods]
        if not hit:
            continue
        found.update(hit)
        if hit[0] in LEFT_OUT:
            continue
        if isinstance(node, ast.ClassDef) and hit[0].startswith("Test"):
            kept = copy_class(lines, node, methods[hit[0]])
            if kept:
                body.append(kept)
        else:
            body.append(segment(lines, node))
    missing = set(methods) - found
    if missing:
        sys.exit(f"{source}: not found: {sorted(missing)}")
    head = [
        f"# Copied from NumPy {numpy.__version__}'s own tests,",
        f"# {path} (Debian's python3-numpy),",
        "# by tests/numpy_upstream/copy_tests.py, which lists what it takes",
        "# (the imports, some helpers and tests, each verbatim) and which tests",
        "# it leaves out and why (LEFT_OUT: they never reach bcast). The only edits",
        "# are the import lines marked \"bcast:\": `np` is numpy_rebound's",
        "# stand-in for numpy, whose broadcasting functions call bcast's.",
        "# Expected failures: conftest.py's table. Do not edit by hand.",
        "#",
        "# NumPy's licence (numpy/LICENSE.txt):",
        "#",
    ] + licence()
    out = head + [""]
    for seg in body:
        out += ["", ""] + seg if not seg[0].startswith(("import", "from")) \
            else seg
    return "\n".join(out) + "\n"


def main():
    check = sys.argv[1:] == ["--check"]
    stale = []
    for target in COPIES:
        text = render(target)
        path = os.path.join(HERE, target)
        if check:
            try:
                with open(path, encoding="utf-8") as f:
                    if f.read() != text:
                        stale.append(target)
            except FileNotFoundError:
                stale.append(target)
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
    if stale:
        sys.exit("stale copies (run tests/numpy_upstream/copy_tests.py): "
                 + ", ".join(stale))


if __name__ == "__main__":
    main()
