#!/usr/bin/python3
"""bcast tune and bcast info --machine (docs/thresholds.md):
  - `tune --quick -o FILE` writes a cache file that `info --machine` then
    reports as the source of both thresholds; `--dry-run` writes nothing;
  - a corrupt or foreign cache file is ignored: exit 0, a warning naming
    the file and the reason on standard error, the cache sizes' values;
  - BCAST_NT_STORE_MIN_BYTES and BCAST_PARALLEL_MIN_BYTES win over the
    file, BCAST_TUNE=off does not read it; a value that is not a byte
    count is ignored with a warning naming the variable;
  - plans race the two kinds of store on fills reading a row unless the
    file's fills put non-temporal stores at least 1.25x ahead;
  - the default place is under $XDG_CACHE_HOME, named by the machine;
  - a cache that cannot be written is exit 2 (an output error) with the
    old file kept, as is an argument."""
import os
import re
import shutil
import subprocess
import tempfile

import common

CLEAN = ("BCAST_TUNE", "BCAST_TUNE_FILE", "BCAST_NT_STORE_MIN_BYTES",
         "BCAST_STREAM_MIN_BYTES", "BCAST_PARALLEL_MIN_BYTES",
         "BCAST_NT_FILL_MIN_BYTES")


def bcast(binary, args, **env):
    """(exit status, stdout, stderr) of bcast ARGS under the environment
    without the tuning variables, plus ENV."""
    e = {k: v for k, v in os.environ.items() if k not in CLEAN}
    e.update(env)
    p = subprocess.run([binary] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, env=e, timeout=120)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def field(out, name):
    """The text after 'NAME: ' in info --machine's output ('' if none)."""
    m = re.search(r"^%s: (.*)$" % re.escape(name), out, re.M)
    return m.group(1) if m else ""


def main():
    args = common.parse_args(common.parser(__doc__.splitlines()[0]))
    tally = common.Tally()
    wd = tempfile.mkdtemp(prefix="bcast-tune-")
    try:
        path = os.path.join(wd, "tune.txt")
        rc, out, err = bcast(args.bcast, ["info", "--machine"],
                             BCAST_TUNE_FILE=path)
        tally.check(rc == 0 and err == "" and
                    field(out, "tuning cache") == path and
                    "(cache sizes)" in field(out, "non-temporal stores from"),
                    "info --machine without a cache file", out + err)
        key = field(out, "machine")
        tally.check(key.startswith("cpu=") and ";cpus=" in key,
                    "the machine key names the CPU and its count", key)

        rc, out, err = bcast(args.bcast, ["tune", "--quick", "--dry-run"],
                             BCAST_TUNE_FILE=path)
        tally.check(rc == 0 and not os.path.exists(path) and
                    "calibration:" in out,
                    "tune --dry-run measures and writes nothing", out + err)

        rc, out, err = bcast(args.bcast, ["tune", "--quick", "-o", path])
        tally.check(rc == 0 and os.path.exists(path) and
                    ("written: " + path) in out, "tune -o FILE", out + err)
        text = open(path).read() if os.path.exists(path) else ""
        tally.check(("machine %s\n" % key) in text,
                    "the cache file holds the machine key", text)
        rc, out, err = bcast(args.bcast, ["info", "--machine"],
                             BCAST_TUNE_FILE=path)
        tally.check(rc == 0 and err == "" and
                    "(cache file)" in field(out, "non-temporal stores from")
                    and "(cache file)" in field(out, "threads from"),
                    "info --machine reads the file tune wrote", out + err)

        # A file of this machine with chosen values, then the environment.
        good = ("bcast-tune 1\nmachine %s\nnt_store_min_bytes 3145728\n"
                "parallel_min_bytes 98304\n" % key)
        with open(path, "w") as f:
            f.write(good)
        # (environment, what info --machine then says of each threshold)
        sources = [({}, "3 MiB (cache file)", "96 KiB (cache file)"),
                   ({"BCAST_NT_STORE_MIN_BYTES": "5M"},
                    "5 MiB (environment)", "96 KiB (cache file)"),
                   ({"BCAST_PARALLEL_MIN_BYTES": "1K"},
                    "3 MiB (cache file)", "1 KiB (environment)")]
        for env, nt, par in sources:
            rc, out, err = bcast(args.bcast, ["info", "--machine"],
                                 BCAST_TUNE_FILE=path, **env)
            tally.check(field(out, "non-temporal stores from") == nt and
                        field(out, "threads from") == par,
                        "the file's values under %s" % (env or "no variable"),
                        out + err)
        # A value that is not a byte count: the file's, and a warning.
        for name, value in (("BCAST_NT_STORE_MIN_BYTES", "1T"),
                            ("BCAST_PARALLEL_MIN_BYTES", "-1K"),
                            ("BCAST_NT_FILL_MIN_BYTES", "8MB")):
            for command in (["info", "--machine"],
                            ["tune", "--quick", "--dry-run"]):
                rc, out, err = bcast(args.bcast, command,
                                     BCAST_TUNE_FILE=path, **{name: value})
                tally.check(rc == 0 and err.startswith("bcast: warning: ") and
                            ("%s='%s' ignored" % (name, value)) in err and
                            "(environment)" not in out,
                            "%s %s=%s: ignored with a warning"
                            % (command[0], name, value), out + err)
        rc, out, err = bcast(args.bcast, ["info", "--machine"],
                             BCAST_TUNE_FILE=path, BCAST_TUNE="off")
        tally.check("(cache sizes)" in field(out, "threads from"),
                    "BCAST_TUNE=off does not read the file", out + err)

        # Store races: on without fill points, off where the file's fills
        # put non-temporal stores at least 1.25x ahead at every size.
        race = "store races on fills reading a row"
        tally.check(field(out, race) == "yes",
                    "plans race without a cache file", out + err)
        fills = [("fill 33554432 3200000.0 1290000.0\n"
                  "fill 67108864 6700000.0 2580000.0\n", "no"),
                 ("fill 33554432 3200000.0 1290000.0\n"
                  "fill 67108864 3100000.0 2580000.0\n", "yes")]
        for points, says in fills:
            with open(path, "w") as f:
                f.write(good + "nt_fill_min_bytes 33554432\n" + points)
            rc, out, err = bcast(args.bcast, ["info", "--machine"],
                                 BCAST_TUNE_FILE=path)
            tally.check(rc == 0 and err == "" and
                        field(out, race).startswith(says),
                        "store races: %s from the file's fills" % says,
                        out + err)

        # Corrupt and foreign files: a warning, the cache sizes' values.
        bad = [(good.replace("98304", "96KB"), "line 4"),
               ("\x00\x01binary", "NUL"),
               (good.replace("bcast-tune 1", "bcast-tune 9"), "line 1"),
               (good.replace(key, "cpu=Elsewhere;l2=1;llc=2;cpus=3"),
                "measured on another machine")]
        for text, reason in bad:
            with open(path, "w") as f:
                f.write(text)
            rc, out, err = bcast(args.bcast, ["info", "--machine"],
                                 BCAST_TUNE_FILE=path)
            tally.check(rc == 0 and err.startswith("bcast: warning: ") and
                        ("tuning cache %s ignored" % path) in err and
                        reason in err and
                        "(cache sizes)" in field(out, "threads from"),
                        "ignored with a warning: %s" % reason, out + err)

        # The default place, named by the machine.
        cache = os.path.join(wd, "xdg")
        rc, out, err = bcast(args.bcast, ["tune", "--quick"],
                             XDG_CACHE_HOME=cache)
        made = os.listdir(os.path.join(cache, "bcast")) \
            if os.path.isdir(os.path.join(cache, "bcast")) else []
        tally.check(rc == 0 and len(made) == 1 and
                    re.fullmatch(r"tune-[0-9a-f]{16}\.txt", made[0]),
                    "tune writes $XDG_CACHE_HOME/bcast/tune-HASH.txt",
                    out + err + str(made))

        # Failures: the old file stays; an argument is refused.
        with open(path, "w") as f:
            f.write(good)
        rc, out, err = bcast(args.bcast, ["tune", "--quick", "-o",
                                          os.path.join(wd, "no", "t.txt")])
        tally.check(rc == 2 and "no" in err, "tune -o into a missing "
                    "directory fails", out + err)
        rc, out, err = bcast(args.bcast, ["tune", "--quick", "-o", wd])
        tally.check(rc == 2 and os.path.isdir(wd) and
                    open(path).read() == good,
                    "tune -o onto a directory fails, nothing lost",
                    out + err)
        rc, out, err = bcast(args.bcast, ["tune", "now"])
        tally.check(rc == 2 and "takes no arguments" in err,
                    "tune refuses an argument", out + err)
    finally:
        shutil.rmtree(wd)
    return tally.summary()


if __name__ == "__main__":
    raise SystemExit(main())
