#!/usr/bin/python3
"""The modules of src/ depend on each other in one direction.

MODULES below is the one table of which module may use which (documented
in docs/architecture.md, whose "Modules and their one direction" block
must list the same dependencies).  A module may include its own headers
and those of the modules it depends on, directly or through them; the
public headers in include/bcast/ belong to the modules named beside them.
The test reads every `#include` of every file under src/ (and of the
public headers, whose includes follow the same rule) and fails on each
one that reaches outside the allowed set, naming the file and line.  The
CLI (tools/bcast) and the Python module (python/src) use public headers
only.  It also fails when a folder of src/ or a public header is missing
from the table, and when the table itself has a cycle.

Usage:
  /usr/bin/python3 tests/diff/test_includes.py --bcast BUILD/bcast [--root DIR]
(--bcast is taken for the test runner's sake and not used; --root is the
checkout to read, by default the one this file is in.)
"""

import os
import re

import common

# module: (the modules it uses directly, the public headers it owns)
MODULES = {
    "core": ((), ("export.h", "status.h", "allocator.h", "output.h",
                  "version.h")),
    "dtype": (("core",), ("dtype.h",)),
    "shape": (("core",), ("shape.h", "explicit.h")),
    "plan": (("core", "shape"), ("plan.h",)),
    "op": (("dtype", "shape"), ("op.h",)),
    "type": (("op", "shape"), ("mlir.h",)),
    "tensor": (("plan", "dtype", "shape"), ("tensor.h", "tile.h")),
    "npy": (("tensor",), ("npy.h",)),
    "ew": (("op", "tensor", "plan"), ("elementwise.h",)),
    "emit": (("type", "op", "shape"), ("emit.h",)),
    "save": (("ew", "npy"), ("save.h",)),
}
# The umbrella header includes every module's; only users outside src/
# include it.
UMBRELLA = "bcast.h"
# Folders outside src/ that may include public headers (and their own
# files) only.
PUBLIC_ONLY = ("tools/bcast", "python/src")

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]')
HERE = os.path.dirname(os.path.abspath(__file__))


def closure(table):
    """{module: every module it may use, directly or not}; raises
    ValueError naming a cycle or an unknown dependency."""
    done = {}

    def visit(m, path):
        if m in path:
            raise ValueError("cycle: " + " -> ".join(path + [m]))
        if m not in table:
            raise ValueError("%s uses %s, which is not in the table"
                             % (path[-1], m))
        if m not in done:
            reach = set()
            for d in table[m][0]:
                reach |= {d} | visit(d, path + [m])
            done[m] = reach
        return done[m]

    for m in table:
        visit(m, [])
    return done


def includes(path):
    """[(line number, '<' or '"', included path)] of a file."""
    out = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for n, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if m:
                out.append((n, m.group(1), m.group(2)))
    return out


def owner(included, header_owner):
    """The module an include names, None for a file of the includer's own
    folder or the system's, or '?' for an unknown public header."""
    parts = included.split("/")
    if len(parts) == 1:
        return None
    if parts[0] == "bcast":
        return header_owner.get(parts[1], "?")
    if parts[0] in MODULES:
        return parts[0]
    return None


def sources(folder, exts=(".c", ".h", ".h.in")):
    if not os.path.isdir(folder):
        return []
    return sorted(os.path.join(folder, f) for f in os.listdir(folder)
                  if f.endswith(exts))


def check_module_files(tally, root, reach, header_owner):
    """Every include of src/M/* and of M's public headers."""
    for module in MODULES:
        allowed = reach[module] | {module}
        own = MODULES[module][1]
        files = sources(os.path.join(root, "src", module))
        files += [os.path.join(root, "include", "bcast", h) for h in own]
        files += [os.path.join(root, "include", "bcast", h + ".in")
                  for h in own]
        for path in files:
            if not os.path.exists(path):
                continue
            rel = os.path.relpath(path, root)
            for n, kind, inc in includes(path):
                m = owner(inc, header_owner)
                if m is None and kind == "<":
                    continue
                if m is None:
                    # A file of the same folder, or a header of another
                    # module written without its folder: resolve it.
                    local = os.path.join(os.path.dirname(path), inc)
                    tally.check(os.path.exists(local),
                                "%s:%d: includes \"%s\", which is neither in "
                                "its folder nor a module's header"
                                % (rel, n, inc))
                    continue
                if m == "umbrella":
                    tally.fail("%s:%d: %s includes the umbrella header "
                               "bcast/bcast.h; include the modules' own "
                               "headers" % (rel, n, module))
                    continue
                if m == "?":
                    tally.fail("%s:%d: includes %s, a public header the "
                               "table does not give to any module"
                               % (rel, n, inc))
                    continue
                tally.check(m in allowed,
                            "%s:%d: %s includes %s (module %s), which %s "
                            "may not use (allowed: %s)"
                            % (rel, n, module, inc, m, module,
                               ", ".join(sorted(allowed))))


def check_public_only(tally, root, header_owner):
    for folder in PUBLIC_ONLY:
        for path in sources(os.path.join(root, folder)):
            rel = os.path.relpath(path, root)
            for n, kind, inc in includes(path):
                m = owner(inc, header_owner)
                if m is None or inc.startswith("bcast/"):
                    continue
                tally.fail("%s:%d: %s includes the internal header %s; it "
                           "uses public headers only" % (rel, n, folder, inc))


def check_table_covers(tally, root, header_owner):
    for d in sorted(os.listdir(os.path.join(root, "src"))):
        if os.path.isdir(os.path.join(root, "src", d)):
            tally.check(d in MODULES,
                        "src/%s is a module the table does not list" % d)
    for h in sorted(os.listdir(os.path.join(root, "include", "bcast"))):
        name = h[:-3] if h.endswith(".h.in") else h
        if name.endswith(".h"):
            tally.check(name in header_owner,
                        "include/bcast/%s belongs to no module of the table"
                        % h)


def check_doc(tally, root, reach):
    """docs/architecture.md's dependency block names the same direct
    dependencies as MODULES, module by module."""
    path = os.path.join(root, "docs", "architecture.md")
    if not os.path.exists(path):
        tally.fail("docs/architecture.md is missing")
        return
    text = open(path, encoding="utf-8").read()
    m = re.search(r"<!-- modules: begin -->\s*```\n(.*?)```", text, re.S)
    if not tally.check(m is not None, "docs/architecture.md has no "
                       "'<!-- modules: begin -->' dependency block"):
        return
    doc = {}
    for line in m.group(1).split("\n"):
        # "module  dep, dep  (what it is)": the words before any "(".
        words = line.split("(")[0].replace(",", " ").split()
        if words and words[0] in MODULES:
            doc[words[0]] = set(w for w in words[1:] if w != "-")
    for module, (deps, _) in MODULES.items():
        tally.check(doc.get(module) == set(deps),
                    "docs/architecture.md gives %s the dependencies %s; the "
                    "table says %s" % (module, sorted(doc.get(module, [])),
                                       sorted(deps)))


def main():
    ap = common.parser(__doc__)
    ap.add_argument("--root", default=os.path.normpath(os.path.join(HERE, "..", "..")),
                    help="the checkout to read")
    args = common.parse_args(ap)
    tally = common.Tally()
    header_owner = {UMBRELLA: "umbrella"}
    for module, (_, headers) in MODULES.items():
        for h in headers:
            header_owner[h] = module
    try:
        reach = closure(MODULES)
    except ValueError as e:
        tally.fail("the module table: %s" % e)
        return tally.summary()
    tally.ok()
    check_table_covers(tally, args.root, header_owner)
    check_module_files(tally, args.root, reach, header_owner)
    check_public_only(tally, args.root, header_owner)
    check_doc(tally, args.root, reach)
    return tally.summary()


if __name__ == "__main__":
    raise SystemExit(main())
