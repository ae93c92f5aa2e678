#!/usr/bin/python3
"""How bcast writes its output files (docs/cli.md: How outputs are written),
with NumPy as the oracle for the bytes:
  - a new file; an overwritten one keeps its mode (0600) and, as root, its
    owner; a symbolic link to a file has its target replaced and stays a
    link; a dangling link, a directory, 'dir/', '.' and '' are refused
    (exit 2, the path named);
  - a FIFO (a reader thread), a character device (/dev/null, and a
    mknod'ed null device as root; a full one fails with ENOSPC) and
    /dev/stdout (a pipe; a file opened with '>' or '>>') are written
    through and stay what they were; an .npz archive through a FIFO has
    the bytes of a file's;
  - a read-only directory (a read-only tmpfs as root, chmod 0555 as
    another user) and a full disk (a 256 KiB tmpfs, root only) leave the
    old file as it was, no temporary file, exit 2 with the OS's reason;
  - kill -9 and SIGTERM in the middle of a ~200 MB output: the old file as
    it was, no temporary file (unnamed O_TMPFILE files; and with
    BCAST_OUTPUT_NAMED_TEMP=1, the named ones the SIGTERM handler removes);
  - broadcast's z0..zL published all or none (a refused z1, a disk full at
    z1);
  - broadcast -o DIR: a DIR the run made is removed again when it fails
    after making it (outputs over --max-bytes, a full disk in memory and
    streamed, SIGTERM mid-write); a DIR there before stays; a later input
    failing makes none; a file named DIR is refused and kept;
  - an output path equal to an input for every command that takes -o;
  - --max-input-bytes on /dev/zero and on a pipe, a directory as MLIR
    input.
Everything here is deterministic (no random values, so no seed).  Checks
that need root say SKIP with the reason and are not counted."""
import os
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time

import numpy as np

import common

MLIR = """func.func @f(%a: tensor<2x1xf32>, %b: tensor<1x3xf32>) -> tensor<2x3xf32> {
  %0 = tosa.add %a, %b : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
"""
OLD = b"the old contents\n"
IS_ROOT = os.geteuid() == 0


class Out(common.Tally):
    def __init__(self, bcast, tmp):
        super().__init__(most_shown=40)
        self.bcast = bcast
        self.tmp = tmp
        self.skipped = 0

    def skip(self, what, why):
        self.skipped += 1
        print("SKIP: %s: %s" % (what, why))

    def p(self, *names):
        return os.path.join(self.tmp, *names)

    def run(self, *args, env=None, stdin=None):
        e = dict(os.environ, **(env or {}))
        proc = subprocess.run([self.bcast] + [str(a) for a in args],
                              input=stdin, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, env=e, timeout=60)
        return proc.returncode, proc.stdout, proc.stderr.decode("utf-8", "replace")


def npy_bytes(arr):
    import io
    f = io.BytesIO()
    np.save(f, arr)
    return f.getvalue()


def read(path):
    with open(path, "rb") as f:
        return f.read()


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def temps(d):
    return [n for n in os.listdir(d) if n.startswith(".bcast-tmp")]


def mount_tmpfs(path, size, ro=False):
    """Mounts a tmpfs of SIZE on PATH; None or the reason it failed."""
    p = subprocess.run(["mount", "-t", "tmpfs", "-o",
                        "size=%s%s" % (size, ",ro" if ro else ""), "tmpfs", path],
                       capture_output=True, text=True)
    return None if p.returncode == 0 else (p.stderr.strip() or "mount failed")


def umount(path):
    subprocess.run(["umount", path], capture_output=True)


A = np.arange(6, dtype=np.float32).reshape(2, 3)
B = np.arange(3, dtype=np.float32)
C = np.arange(4, dtype=np.int16)


def prepare(t):
    np.save(t.p("a.npy"), A)
    np.save(t.p("b.npy"), B)
    np.save(t.p("c.npy"), C)
    with open(t.p("f.mlir"), "w") as f:
        f.write(MLIR)


def to_shape(t, out, env=None):
    """broadcast-to a.npy --shape 4,2,3 -o OUT; (rc, stderr)."""
    rc, _, err = t.run("broadcast-to", t.p("a.npy"), "--shape", "4,2,3",
                       "-o", out, env=env)
    return rc, err


EXPECT = npy_bytes(np.broadcast_to(A, (4, 2, 3)).copy())


def check_targets(t, env, tag):
    """New file, overwrite (mode, owner), symlink; refusals."""
    d = tempfile.mkdtemp(dir=t.tmp)
    new = os.path.join(d, "new.npy")
    rc, err = to_shape(t, new, env)
    mode = stat.S_IMODE(os.stat(new).st_mode) if os.path.exists(new) else None
    t.check(rc == 0 and read(new) == EXPECT and mode == 0o644,
            tag + "new file: numpy's bytes, mode 0644 under umask 022",
            "exit %s mode %s\n%s" % (rc, oct(mode or 0), err))

    old = os.path.join(d, "old.npy")
    write(old, OLD)
    os.chmod(old, 0o600)
    if IS_ROOT:
        os.chown(old, 4321, 4322)
    rc, err = to_shape(t, old, env)
    st = os.stat(old)
    t.check(rc == 0 and read(old) == EXPECT and stat.S_IMODE(st.st_mode) == 0o600,
            tag + "overwrite keeps mode 0600",
            "exit %s mode %o\n%s" % (rc, stat.S_IMODE(st.st_mode), err))
    if IS_ROOT:
        t.check((st.st_uid, st.st_gid) == (4321, 4322),
                tag + "overwrite keeps the owner (root)",
                "owner %d:%d" % (st.st_uid, st.st_gid))
    else:
        t.skip(tag + "overwrite keeps the owner", "needs root to chown")

    target = os.path.join(d, "target.npy")
    link = os.path.join(d, "link.npy")
    write(target, OLD)
    os.chmod(target, 0o640)
    os.symlink("target.npy", link)
    rc, err = to_shape(t, link, env)
    t.check(rc == 0 and os.path.islink(link) and
            os.readlink(link) == "target.npy" and read(target) == EXPECT and
            stat.S_IMODE(os.stat(target).st_mode) == 0o640,
            tag + "symlink: target replaced (mode kept), link kept",
            "exit %s\n%s" % (rc, err))

    dangling = os.path.join(d, "dangling.npy")
    os.symlink("nowhere.npy", dangling)
    rc, err = to_shape(t, dangling, env)
    t.check(rc == 2 and dangling in err and "dangling" in err and
            os.path.islink(dangling) and
            not os.path.exists(os.path.join(d, "nowhere.npy")),
            tag + "dangling symlink refused", "exit %s\n%s" % (rc, err))

    sub = os.path.join(d, "sub")
    os.mkdir(sub)
    for target_path in (sub, sub + "/", os.path.join(d, "missing") + "/", "."):
        rc, err = to_shape(t, target_path, env)
        t.check(rc == 2 and ("%s: Is a directory" % target_path) in err,
                tag + "directory %r refused" % target_path,
                "exit %s\n%s" % (rc, err))
    rc, err = to_shape(t, "", env)
    t.check(rc == 2 and "empty" in err, tag + "'' refused",
            "exit %s\n%s" % (rc, err))
    rc, err = to_shape(t, os.path.join(d, "nodir", "x.npy"), env)
    t.check(rc == 2 and "nodir/x.npy" in err and
            "No such file or directory" in err,
            tag + "missing directory: the path and the reason",
            "exit %s\n%s" % (rc, err))
    t.check(temps(d) == [] and temps(sub) == [], tag + "no temporary file left",
            str(temps(d)))


def check_special(t):
    """FIFOs and character devices are written through."""
    d = tempfile.mkdtemp(dir=t.tmp)
    failed_before = t.failed
    fifo = os.path.join(d, "fifo")
    for name, args, expect in (
            ("npy", ["broadcast-to", t.p("a.npy"), "--shape", "4,2,3"], EXPECT),
            ("npz", ["broadcast", t.p("a.npy"), t.p("b.npy")], None)):
        os.mkfifo(fifo)
        got = []
        def drain():
            try:
                got.append(read(fifo))
            except OSError as e:
                got.append(str(e).encode())
        reader = threading.Thread(target=drain)
        reader.start()
        link = fifo + ".npz" if name == "npz" else fifo
        if link != fifo:
            os.symlink(fifo, link)
        rc, _, err = t.run(*(args + ["-o", link]))
        reader.join(10)
        if reader.is_alive():
            # Nothing was written to the FIFO: release the blocked reader.
            try:
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:
                pass
            reader.join(10)
        if expect is None:
            ref = os.path.join(d, "ref.npz")
            t.run(*(args + ["-o", ref]))
            expect = read(ref)
        t.check(rc == 0 and got == [expect] and
                stat.S_ISFIFO(os.lstat(fifo).st_mode),
                "FIFO written through (%s), still a FIFO" % name,
                "exit %s, %d bytes\n%s" % (rc, len(got[0]) if got else -1, err))
        os.unlink(fifo)
        if link != fifo:
            os.unlink(link)

    if IS_ROOT:
        null = os.path.join(d, "null")
        try:
            os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))
        except OSError as e:
            t.skip("mknod'ed null device", "mknod failed: %s" % e)
        else:
            rc, err = to_shape(t, null)
            t.check(rc == 0 and stat.S_ISCHR(os.lstat(null).st_mode) and
                    os.lstat(null).st_rdev == os.makedev(1, 3),
                    "mknod'ed null device written through, still a device",
                    "exit %s\n%s" % (rc, err))
        full = os.path.join(d, "full")
        try:
            os.mknod(full, stat.S_IFCHR | 0o666, os.makedev(1, 7))
            os.symlink("full", full + ".npz")
        except OSError as e:
            t.skip("mknod'ed full device", "mknod failed: %s" % e)
        else:
            for name, argv in (
                    ("npy", ["broadcast-to", t.p("a.npy"), "--shape", "4,2,3"]),
                    ("npz", ["broadcast", t.p("a.npy"), t.p("b.npy")]),
                    ("lower", ["lower", t.p("f.mlir")])):
                target = full + ".npz" if name == "npz" else full
                rc, _, err = t.run(*(argv + ["-o", target]))
                t.check(rc == 2 and target + ": write failed: No space left "
                        "on device" in err and
                        stat.S_ISCHR(os.lstat(full).st_mode),
                        "a full device (%s): exit 2, ENOSPC, still a device"
                        % name, "exit %s\n%s" % (rc, err))
    else:
        t.skip("mknod'ed null and full devices", "needs root for mknod")
    # The system's own /dev/stdout and /dev/null only once write-through
    # passed above on the test's own FIFO and devices: a bcast that
    # replaces its target would otherwise replace them.
    if t.failed > failed_before:
        t.skip("/dev/stdout and /dev/null", "write-through failed on the "
               "test's own FIFO or device; not risking the system's")
    else:
        # /dev/stdout: a pipe, and a file the shell opened (the same inode
        # gets the bytes: '>' truncated it, '>>' appends).
        rc, out, err = t.run("broadcast-to", t.p("a.npy"), "--shape", "4,2,3",
                             "-o", "/dev/stdout")
        t.check(rc == 0 and out == EXPECT, "-o /dev/stdout into a pipe",
                "exit %s, %d bytes\n%s" % (rc, len(out), err))
        redirected = os.path.join(d, "redirected.npy")
        for mode, before in (("wb", b""), ("ab", OLD)):
            write(redirected, OLD)
            ino = os.stat(redirected).st_ino
            with open(redirected, mode) as f:
                proc = subprocess.run([t.bcast, "broadcast-to", t.p("a.npy"),
                                       "--shape", "4,2,3", "-o", "/dev/stdout"],
                                      stdout=f, stderr=subprocess.PIPE, timeout=60)
            t.check(proc.returncode == 0 and read(redirected) == before + EXPECT
                    and os.stat(redirected).st_ino == ino,
                    "-o /dev/stdout redirected (%s): written in place" % mode,
                    "exit %s\n%s" % (proc.returncode, proc.stderr[-300:]))
        rc, err = to_shape(t, "/dev/null")
        t.check(rc == 0 and stat.S_ISCHR(os.stat("/dev/null").st_mode),
                "/dev/null written through, still a character device",
                "exit %s\n%s" % (rc, err))
        rc, _, err = t.run("lower", t.p("f.mlir"), "-o", "/dev/null")
        t.check(rc == 0 and stat.S_ISCHR(os.stat("/dev/null").st_mode),
                "lower -o /dev/null, still a character device",
                "exit %s\n%s" % (rc, err))
    t.check(temps(d) == [], "special files: no temporary file", str(temps(d)))


def check_unwritable(t):
    d = tempfile.mkdtemp(dir=t.tmp)
    old = os.path.join(d, "old.npy")
    mounted = False
    if IS_ROOT:
        why = mount_tmpfs(d, "64k")
        if why:
            t.skip("read-only directory", "cannot mount a tmpfs: " + why)
            return
        mounted = True
    try:
        write(old, OLD)
        if IS_ROOT:
            p = subprocess.run(["mount", "-o", "remount,ro", d],
                               capture_output=True, text=True)
            if p.returncode:
                t.skip("read-only directory", "remount,ro failed: " + p.stderr)
                return
            reason = "Read-only file system"
        else:
            os.chmod(d, 0o555)
            reason = "Permission denied"
        for name, argv in (
                ("broadcast-to", ["broadcast-to", t.p("a.npy"), "--shape",
                                  "4,2,3", "-o", old]),
                ("lower", ["lower", t.p("f.mlir"), "-o", old])):
            rc, _, err = t.run(*argv)
            t.check(rc == 2 and old in err and reason in err and
                    read(old) == OLD and temps(d) == [],
                    "%s into a read-only directory: exit 2, path and "
                    "reason, old file kept" % name, "exit %s\n%s" % (rc, err))
    finally:
        if mounted:
            umount(d)
        else:
            os.chmod(d, 0o755)


def check_disk_full(t, env, tag):
    if not IS_ROOT:
        t.skip(tag + "disk full", "mounting a small tmpfs needs root")
        return
    d = tempfile.mkdtemp(dir=t.tmp)
    why = mount_tmpfs(d, "256k")
    if why:
        t.skip(tag + "disk full", "cannot mount a tmpfs: " + why)
        return
    try:
        old = os.path.join(d, "old.npy")
        write(old, OLD)
        big = t.p("big.npy")
        np.save(big, np.arange(1 << 16, dtype=np.float32).reshape(1, -1))
        for name, argv in (
                ("npy", ["broadcast-to", big, "--shape", "2,65536", "-o", old]),
                ("npz", ["broadcast", big, big, "-o", old + ".npz"])):
            before = OLD
            if name == "npz":
                # An archive: the new members are added to it.
                old = old + ".npz"
                np.savez(old, kept=np.arange(3))
                before = read(old)
            rc, _, err = t.run(*argv, env=env)
            t.check(rc == 2 and old in err and "No space left on device" in err
                    and read(old) == before and temps(d) == [],
                    tag + "disk full (%s): exit 2, ENOSPC named, old file "
                    "kept, no temporary file" % name,
                    "exit %s temps %s\n%s" % (rc, temps(d), err))
        # broadcast: z0 (128 KiB) fits, z1 does not: neither is published.
        outdir = os.path.join(d, "out")
        os.mkdir(outdir)
        for z in ("z0.npy", "z1.npy"):
            write(os.path.join(outdir, z), OLD)
        half = t.p("half.npy")
        np.save(half, np.arange(1 << 15, dtype=np.float32))
        rc, _, err = t.run("broadcast", half, half, "-o", outdir, env=env)
        t.check(rc == 2 and "No space left on device" in err and
                all(read(os.path.join(outdir, z)) == OLD
                    for z in ("z0.npy", "z1.npy")) and temps(outdir) == [],
                tag + "broadcast, disk full at z1: no output published",
                "exit %s\n%s" % (rc, err))
    finally:
        umount(d)


def open_temp_of(pid, d):
    """Whether process PID has an output file open in D (O_TMPFILE files
    show as 'D/#inode (deleted)', named ones as D/.bcast-tmp-*)."""
    fds = "/proc/%d/fd" % pid
    try:
        for fd in os.listdir(fds):
            try:
                link = os.readlink(os.path.join(fds, fd))
            except OSError:
                continue
            if link.startswith(d + "/") and ("(deleted)" in link or
                                             ".bcast-tmp" in link):
                return True
    except OSError:
        pass
    return False


def check_killed(t, sig, env, tag):
    """SIG in the middle of a ~200 MB output."""
    d = tempfile.mkdtemp(dir=t.tmp)
    old = os.path.join(d, "old.npy")
    write(old, OLD)
    row = t.p("row.npy")
    if not os.path.exists(row):
        np.save(row, np.zeros((1, 1 << 20), dtype=np.float32))
    proc = subprocess.Popen([t.bcast, "broadcast-to", row, "--shape",
                             "50,1048576", "-o", old],
                            env=dict(os.environ, **(env or {})),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    caught = False
    deadline = time.time() + 20
    while time.time() < deadline and proc.poll() is None:
        if open_temp_of(proc.pid, d):
            proc.send_signal(sig)
            caught = True
            break
        time.sleep(0.0005)
    proc.wait(30)
    proc.stderr.close()
    what = tag + "%s mid-write" % signal.Signals(sig).name
    if not t.check(caught and proc.returncode == -sig,
                   what + ": the process was caught writing and died of it",
                   "caught %s, exit %s" % (caught, proc.returncode)):
        return
    t.check(read(old) == OLD and temps(d) == [] and os.listdir(d) == ["old.npy"],
            what + ": old file kept, no temporary file", str(os.listdir(d)))


def check_all_or_none(t):
    """broadcast publishes z0..zL together: z1 refused, z0 untouched."""
    d = tempfile.mkdtemp(dir=t.tmp)
    write(os.path.join(d, "z0.npy"), OLD)
    os.symlink("nowhere", os.path.join(d, "z1.npy"))
    rc, _, err = t.run("broadcast", t.p("a.npy"), t.p("b.npy"), "-o", d)
    t.check(rc == 2 and "z1.npy" in err and
            read(os.path.join(d, "z0.npy")) == OLD and temps(d) == [],
            "broadcast: z1 refused, z0 not published", "exit %s\n%s" % (rc, err))


def check_made_dir(t, env, tag):
    """broadcast -o DIR makes DIR when it is missing, and a failure after
    that (a refusal, a full disk, a signal) removes it again; a directory
    that was there before is never removed, and a later input that fails
    to read makes none."""
    d = tempfile.mkdtemp(dir=t.tmp)
    new = os.path.join(d, "new")
    big = t.p("wide.npy")
    if not os.path.exists(big):
        np.save(big, np.zeros((1, 1 << 20), dtype=np.float32))
    tall = t.p("tall.npy")
    if not os.path.exists(tall):
        np.save(tall, np.zeros((25, 1), dtype=np.float32))
    row = t.p("row256k.npy")
    if not os.path.exists(row):
        np.save(row, np.zeros((1, 1 << 16), dtype=np.float32))
    stream = ["--memory", "1M"]
    # Refused after DIR was made: streamed outputs (2 x 6.5 MB) over
    # --max-bytes (the inputs are within it).
    rc, _, err = t.run("broadcast", row, tall, "-o", new, *stream,
                       "--max-bytes", "1M", env=env)
    t.check(rc == 1 and "--max-bytes" in err and os.listdir(d) == [],
            tag + "made DIR, outputs over --max-bytes: DIR removed",
            "exit %s, %s\n%s" % (rc, os.listdir(d), err))

    def clear():  # what a failed check left, so the next starts clean
        subprocess.run(["rm", "-rf", new])

    clear()
    # ... and the same with DIR there before: it stays, empty.
    os.mkdir(new)
    rc, _, err = t.run("broadcast", row, tall, "-o", new, *stream,
                       "--max-bytes", "1M", env=env)
    t.check(rc == 1 and os.path.isdir(new) and os.listdir(new) == [],
            tag + "DIR there before, outputs over --max-bytes: DIR kept",
            "exit %s, %s\n%s" % (rc, os.listdir(d), err))
    os.rmdir(new)
    # A later input that cannot be read: nothing made.
    for bad in (os.path.join(d, "missing.npy"), t.p("f.mlir")):
        rc, _, err = t.run("broadcast", t.p("a.npy"), bad, "-o", new, env=env)
        t.check(rc == 2 and os.listdir(d) == [],
                tag + "a later input failing (%s): no DIR" %
                os.path.basename(bad), "exit %s, %s\n%s" % (rc, os.listdir(d),
                                                            err))
        clear()
    # A file where DIR should be: refused, the file as it was.
    write(new, OLD)
    rc, _, err = t.run("broadcast", t.p("a.npy"), t.p("b.npy"), "-o", new,
                       env=env)
    t.check(rc == 2 and "not a directory" in err and read(new) == OLD,
            tag + "a file named DIR: refused, kept", "exit %s\n%s" % (rc, err))
    os.unlink(new)
    # SIGTERM while z0 is written: DIR goes with the temporary file.
    proc = subprocess.Popen([t.bcast, "broadcast", big, tall, "-o", new] +
                            stream, env=dict(os.environ, **(env or {})),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    caught = False
    deadline = time.time() + 20
    while time.time() < deadline and proc.poll() is None:
        if os.path.isdir(new) and open_temp_of(proc.pid, new):
            proc.send_signal(signal.SIGTERM)
            caught = True
            break
        time.sleep(0.0005)
    proc.wait(30)
    proc.stderr.close()
    if t.check(caught and proc.returncode == -signal.SIGTERM,
               tag + "made DIR, SIGTERM mid-write: caught writing",
               "caught %s, exit %s" % (caught, proc.returncode)):
        t.check(os.listdir(d) == [], tag + "made DIR, SIGTERM: DIR removed",
                str(os.listdir(d)))
    clear()
    if not IS_ROOT:
        t.skip(tag + "made DIR, disk full", "mounting a small tmpfs needs root")
        return
    why = mount_tmpfs(d, "256k")
    if why:
        t.skip(tag + "made DIR, disk full", "cannot mount a tmpfs: " + why)
        return
    try:
        half = t.p("half.npy")
        np.save(half, np.arange(1 << 15, dtype=np.float32))
        # In memory, z1 not fitting; streamed, refused before writing.
        for how, extra in (("in memory", []), ("streamed", ["--memory", "1K"])):
            rc, _, err = t.run("broadcast", half, half, "-o", new, *extra,
                               env=env)
            t.check(rc == 2 and os.listdir(d) == [],
                    tag + "made DIR, disk full (%s): DIR removed" % how,
                    "exit %s, %s\n%s" % (rc, os.listdir(d), err))
            clear()
    finally:
        umount(d)


def check_same_as_input(t):
    d = tempfile.mkdtemp(dir=t.tmp)

    def fresh(name, arr):
        path = os.path.join(d, name)
        np.save(path, arr)
        return path

    a = fresh("a.npy", A)
    rc, _, err = t.run("broadcast-to", a, "--shape", "2,2,3", "-o", a)
    t.check(rc == 0 and read(a) == npy_bytes(np.broadcast_to(A, (2, 2, 3)).copy()),
            "broadcast-to -o its input", "exit %s\n%s" % (rc, err))
    a, b = fresh("a.npy", A), fresh("b.npy", B)
    rc, _, err = t.run("run", "add", a, b, "--profile", "numpy", "-o", b)
    t.check(rc == 0 and read(b) == npy_bytes(A + B), "run -o its input",
            "exit %s\n%s" % (rc, err))
    c = fresh("c.npy", C)
    rc, _, err = t.run("broadcast-in-dim", c, "--dims", "1", "--shape", "2,4",
                       "-o", c)
    t.check(rc == 0 and read(c) == npy_bytes(np.broadcast_to(C, (2, 4)).copy()),
            "broadcast-in-dim -o its input", "exit %s\n%s" % (rc, err))
    z0, z1 = fresh("z0.npy", A), fresh("z1.npy", B)
    rc, _, err = t.run("broadcast", z0, z1, "-o", d)
    x, y = np.broadcast_arrays(A, B)
    t.check(rc == 0 and read(z0) == npy_bytes(x.copy()) and
            read(z1) == npy_bytes(y.copy()),
            "broadcast -o the directory of its inputs z0, z1",
            "exit %s\n%s" % (rc, err))
    npz = os.path.join(d, "in.npz")
    np.savez(npz, A, B)
    rc, _, err = t.run("broadcast", npz + ":arr_0", npz + ":arr_1", "-o", npz)
    ok = rc == 0
    if ok:
        with np.load(npz) as z:
            ok = np.array_equal(z["arr_0"], x) and np.array_equal(z["arr_1"], y)
    t.check(ok, "broadcast -o the .npz archive it reads", "exit %s\n%s" % (rc, err))
    g = os.path.join(d, "g.mlir")
    with open(g, "w") as f:
        f.write(MLIR)
    rc0, want, _ = t.run("lower", t.p("f.mlir"))
    rc, _, err = t.run("lower", g, "-o", g)
    t.check(rc == 0 and rc0 == 0 and read(g) == want,
            "lower -o its input: the module stdout gets",
            "exit %s\n%s" % (rc, err))
    t.check(temps(d) == [], "output == input: no temporary file", str(temps(d)))


def check_input_cap(t):
    for cmd in ("verify", "lower"):
        rc, _, err = t.run(cmd, "/dev/zero", "--max-input-bytes", "1M")
        t.check(rc == 2 and "/dev/zero" in err and "1048576" in err and
                "--max-input-bytes" in err,
                "%s /dev/zero: exit 2 naming the path, the cap, the option" % cmd,
                "exit %s\n%s" % (rc, err))
        rc, _, err = t.run(cmd, "-", "--max-input-bytes", "64K",
                           stdin=b" " * (200 << 10))
        t.check(rc == 2 and "<stdin>" in err and "65536" in err,
                "%s: a pipe over the cap" % cmd, "exit %s\n%s" % (rc, err))
        rc, _, err = t.run(cmd, "-", "--max-input-bytes", "1K",
                           stdin=MLIR.encode())
        t.check(rc == 0, "%s: a pipe under the cap" % cmd,
                "exit %s\n%s" % (rc, err))
        rc, _, err = t.run(cmd, t.p("f.mlir"), "--max-input-bytes",
                           str(len(MLIR) - 1))
        t.check(rc == 2 and "f.mlir" in err, "%s: a file one byte over" % cmd,
                "exit %s\n%s" % (rc, err))
        rc, _, err = t.run(cmd, t.tmp)
        t.check(rc == 2 and ("%s: Is a directory" % t.tmp) in err,
                "%s: a directory as input names the path and reason" % cmd,
                "exit %s\n%s" % (rc, err))


def main():
    ap = common.parser(__doc__)
    args = common.parse_args(ap)
    os.umask(0o022)
    tmp = tempfile.mkdtemp(prefix="bcast-output-")
    t = Out(args.bcast, tmp)
    start = time.time()
    try:
        prepare(t)
        named = {"BCAST_OUTPUT_NAMED_TEMP": "1"}
        for env, tag in ((None, ""), (named, "named temp: ")):
            check_targets(t, env, tag)
            check_disk_full(t, env, tag)
            check_made_dir(t, env, tag)
        check_special(t)
        check_unwritable(t)
        check_killed(t, signal.SIGKILL, None, "")
        check_killed(t, signal.SIGTERM, None, "")
        check_killed(t, signal.SIGTERM, named, "named temp: ")
        check_all_or_none(t)
        check_same_as_input(t)
        check_input_cap(t)
    finally:
        subprocess.run(["rm", "-rf", tmp])
    print("%.1f s, %d skipped (not counted)" % (time.time() - start, t.skipped))
    return t.summary()


if __name__ == "__main__":
    sys.exit(main())
