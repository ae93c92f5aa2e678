#!/usr/bin/python3
"""Draws bcast_bench's results (--tsv) as one chart per section.

Usage: chart.py RESULTS.tsv OUTDIR

For each section of the TSV that has bcast figures (materialize, peer,
ew, dram) writes OUTDIR/bench-SECTION.png and .svg: per case, grouped
bars of GB/s for bcast (out: a prepared plan into a warm output; alloc: a
new output each call), NumPy (the same two; single-threaded) and the
limit (the STREAM-style kernel the case is anchored to, measured in the
same run), one panel with 1 thread and one with 2.  Run with Debian's
/usr/bin/python3 and python3-matplotlib.
"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# (who, variant or None for any, label, colour); NumPy is measured with one
# thread and drawn in both panels.
SERIES = [
    ("bcast", "out", "bcast out", "#1f5fa8"),
    ("bcast", "alloc", "bcast alloc", "#7fa7d6"),
    ("numpy", "out", "NumPy out (1 thread)", "#d0741c"),
    ("numpy", "alloc", "NumPy alloc (1 thread)", "#f0b27a"),
    ("limit", None, "limit (STREAM anchor)", "#7a7a7a"),
]

TITLES = {
    "materialize": "Materialize (broadcast_to + copy)",
    "peer": "Peer harness cases (cases.txt)",
    "dram": "Peer harness DRAM cases (cases_dram.txt)",
    "ew": "Element-wise ops, the other cases",
}


def load(path):
    """{section: {case: {(who, variant, threads): gbps}}}, cases in order."""
    sections = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            cases = sections.setdefault(row["section"], {})
            key = (row["who"], row["variant"], int(row["threads"]))
            cases.setdefault(row["case"], {})[key] = float(row["gbps"])
    return sections


def value(figures, who, variant, threads):
    if who == "numpy":
        threads = 1
    for (w, v, t), gbps in figures.items():
        if w == who and (variant is None or v == variant) and t == threads:
            return gbps
    return None


def draw(section, cases, outdir):
    names = list(cases)
    series = [s for s in SERIES
              if any(value(cases[c], s[0], s[1], 1) is not None for c in names)]
    width = 0.8 / len(series)
    fig, axes = plt.subplots(2, 1, figsize=(max(8, 0.9 * len(names) + 2), 8),
                             sharex=True)
    for panel, threads in zip(axes, (1, 2)):
        for k, (who, variant, label, colour) in enumerate(series):
            xs, ys = [], []
            for i, c in enumerate(names):
                v = value(cases[c], who, variant, threads)
                if v is not None:
                    xs.append(i + (k - (len(series) - 1) / 2) * width)
                    ys.append(v)
            panel.bar(xs, ys, width, label=label, color=colour)
        panel.set_ylabel("GB/s, %d thread%s" % (threads, "s" * (threads > 1)))
        panel.grid(axis="y", alpha=0.3)
    fig.suptitle(TITLES.get(section, section) +
                 ": GB/s of operands read + output written")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, fontsize="small", ncol=len(series),
               loc="upper center", bbox_to_anchor=(0.5, 0.955))
    axes[1].set_xticks(range(len(names)))
    axes[1].set_xticklabels(names, rotation=35, ha="right", fontsize="small")
    fig.tight_layout(rect=(0, 0, 1, 0.92))
    for ext in ("png", "svg"):
        fig.savefig(os.path.join(outdir, "bench-%s.%s" % (section, ext)),
                    dpi=110)
    plt.close(fig)


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    sections = load(argv[1])
    os.makedirs(argv[2], exist_ok=True)
    drawn = 0
    for section, cases in sections.items():
        if any(w == "bcast" for c in cases.values() for (w, _, _) in c):
            draw(section, cases, argv[2])
            drawn += 1
    print("chart.py: %d charts in %s" % (drawn, argv[2]))
    return 0 if drawn else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
