"""What the upstream-conformance scripts share (scripts/upstream_*.py):
splitting a test file as `mlir-opt --split-input-file` splits it, finding
ops and `expected-*` annotations in a chunk, running a tool, and reading
the located diagnostics that mlir-opt and `bcast verify` print.

Imported, not run: a script's own folder is on sys.path, so
`import upstream_common` finds this file (tests/diff adds scripts/ to
sys.path to import it)."""

import argparse
import os
import re
import subprocess

# An op name where an op starts: after '=' or at the start of the line,
# quoted (generic form) or bare (pretty form).  Format with an alternation.
OP_AT = r'(?:^|=)\s*"?(%s)"?(?=[\s(<{]|$)'
# MLIR's verifier matches this anywhere in a line.
ANNOTATION = re.compile(r"expected-(error|note|remark|warning)(?:-re)? *"
                        r"(@[+-][0-9]+|@above|@below|@unknown)? *\{\{(.*)\}\}")
SPLIT = re.compile(r"^\s*// -----")
# "FILE:LINE:COL: error: MESSAGE" as mlir-opt and bcast print it.
LOCATED = re.compile(r"^(.*?):(\d+):(\d+): (error|warning|note|remark): (.*)$")


def split_chunks(text):
    """[(first line number, [lines])] at the `// -----` lines."""
    chunks, cur, start = [], [], 1
    for n, line in enumerate(text.split("\n"), 1):
        if SPLIT.match(line):
            chunks.append((start, cur))
            cur, start = [], n + 1
        else:
            cur.append(line)
    chunks.append((start, cur))
    return chunks


def code(line):
    """LINE without a whole-line comment ('' for a comment line)."""
    return "" if line.lstrip().startswith("//") else line


def ops_in(start, lines, pattern):
    """{line number: op name} of the ops PATTERN finds."""
    found = {}
    for k, line in enumerate(lines):
        m = pattern.search(code(line))
        if m:
            found[start + k] = m.group(1)
    return found


def annotations(start, lines):
    """[(index in lines, kind, target line number, text)]."""
    out = []
    for k, line in enumerate(lines):
        m = ANNOTATION.search(line)
        if not m:
            continue
        where, n = m.group(2), start + k
        if where is None:
            target = n
        elif where == "@above":
            target = n - 1
        elif where == "@below":
            target = n + 1
        elif where == "@unknown":
            target = None
        else:
            target = n + int(where[1:])
        out.append((k, m.group(1), target, m.group(3)))
    return out


def write_chunk(path, start, lines):
    """Writes a chunk padded with empty lines, so that its line numbers
    are those of the file it came from."""
    with open(path, "w") as f:
        f.write("\n" * (start - 1) + "\n".join(lines) + "\n")


def run(argv, timeout=120):
    """(exit status, stdout, stderr) of ARGV as text."""
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=timeout)
    return (p.returncode, p.stdout.decode("utf-8", "replace"),
            p.stderr.decode("utf-8", "replace"))


def located(err, path):
    """[(line, col, severity, message)] of the diagnostics for PATH."""
    out = []
    name = os.path.basename(path)
    for line in err.split("\n"):
        m = LOCATED.match(line)
        if m and os.path.basename(m.group(1)) == name:
            out.append((int(m.group(2)), int(m.group(3)), m.group(4), m.group(5)))
    return out


def arg_parser(doc, upstream_help, verbose_help):
    """The options both upstream scripts take: --upstream, --bcast (the
    build's CLI by default), --json and -v."""
    ap = argparse.ArgumentParser(description=doc,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--upstream", required=True, help=upstream_help)
    ap.add_argument("--bcast", default=os.path.join(here, "..", "build", "bcast"))
    ap.add_argument("--json", action="store_true", help="print JSON, not a table")
    ap.add_argument("-v", "--verbose", action="store_true", help=verbose_help)
    return ap
