#!/usr/bin/python3
"""Writes the element-wise ops' part of the type stubs python/bcast/_bcast.pyi
and python/bcast/dask.pyi from the built module: one def per name of
bcast.OPS with the signature the module gives it (the op table's, through
the functions' text signatures).  The rest of each stub is written by hand.

    PYTHONPATH=build/python /usr/bin/python3 scripts/pystubs.py [--check]

--check changes nothing and exits 1 when a stub differs from what this
would write (the stubtest ctest test checks the stubs against the module
itself, whoever wrote them).
"""
import argparse
import inspect
import pathlib
import sys

import bcast
import bcast.dask

ROOT = pathlib.Path(__file__).resolve().parent.parent
BEGIN = "# ops: begin (scripts/pystubs.py writes this part)\n"
END = "# ops: end\n"

# The type of each parameter the op functions have, by name: the inputs,
# the calls' keywords and the attributes of the op table's attribute list.
TYPES = {
    "x": "ArrayLike", "y": "ArrayLike", "cond": "ArrayLike",
    "out": "Optional[np.ndarray]", "profile": "str", "checked": "bool",
    "threads": "Optional[int]", "chunks": "Any",
    "shift": "int", "round": "bool", "min_val": "_Bound",
    "max_val": "_Bound", "nan_mode": "str", "input_zp": "int",
    "output_zp": "int", "to": "Optional[DTypeLike]",
    "dtype": "Optional[DTypeLike]",
}


def stub_def(name, fn, returns):
    params = list(inspect.signature(fn).parameters.values())
    parts, star = [], False
    for i, p in enumerate(params):
        if p.kind is p.KEYWORD_ONLY and not star:
            parts.append("*")
            star = True
        if p.name not in TYPES:
            raise SystemExit(f"pystubs: {name}: no type for parameter "
                             f"{p.name!r}; add it to TYPES")
        text = f"{p.name}: {TYPES[p.name]}"
        if p.default is not p.empty:
            text += f" = {p.default!r}"
        parts.append(text)
        after = params[i + 1].kind if i + 1 < len(params) else None
        if p.kind is p.POSITIONAL_ONLY and after is not p.POSITIONAL_ONLY:
            parts.append("/")
    return f"def {name}({', '.join(parts)}) -> {returns}: ...\n"


def ops_block(module, returns):
    return "".join(stub_def(n, getattr(module, n), returns)
                   for n in bcast.OPS)


def rewrite(path, block):
    text = path.read_text()
    a, b = text.index(BEGIN) + len(BEGIN), text.index(END)
    return text[:a] + block + text[b:]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    stale = []
    for rel, module, returns in (
            ("python/bcast/_bcast.pyi", bcast._bcast, "np.ndarray"),
            ("python/bcast/dask.pyi", bcast.dask, "da.Array")):
        path = ROOT / rel
        new = rewrite(path, ops_block(module, returns))
        if new != path.read_text():
            stale.append(rel)
            if not args.check:
                path.write_text(new)
    if args.check and stale:
        print("pystubs: out of date: " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
