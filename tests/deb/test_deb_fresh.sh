#!/usr/bin/env bash
# The Debian package installed the way a Debian 12 user installs it, on a
# fresh Debian 12: debootstrap makes a minimal bookworm root in a scratch
# directory, apt-get inside it (chroot) installs the .deb and the packages
# its Depends name from the archive, and each part is used there:
#  (a) dpkg's record: installed, its files present;
#  (b) the CLI: --version, infer, and run on .npy files that the root's
#      NumPy writes and checks;
#  (c) the root's /usr/bin/python3 importing the module and adding as NumPy;
#  (d) a C program built with the root's gcc through pkg-config and run;
#  (e) apt-get remove: no file of the package left, no byte-compiled
#      module either (prerm's py3clean).
# Needs root (chroot, mount) and the network to reach the Debian mirror
# ($DEBIAN_MIRROR, default http://deb.debian.org/debian); takes about a
# minute.  Not part of make test: make deb-fresh runs it.  The host is not
# touched: the root lives in the scratch directory, /proc is mounted into
# it for apt and unmounted before the directory is removed.
# Usage: test_deb_fresh.sh PATH/TO/bcast_VERSION_ARCH.deb
set -u
deb=$(realpath "$1")
# shellcheck source-path=SCRIPTDIR source=../cli/checks.sh
. "$(dirname "$0")/../cli/checks.sh"
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
root="$tmp/root"
[ "$(id -u)" -eq 0 ] || { echo "test_deb_fresh.sh: needs root (chroot, mount)" >&2; exit 2; }
command -v debootstrap >/dev/null ||
  { echo "test_deb_fresh.sh: debootstrap is missing (scripts/setup.sh deb-fresh)" >&2; exit 2; }
# /proc is unmounted before checks.sh's trap removes $tmp, and the removal
# stays on $tmp's file system whatever happens.
trap 'umount "$root/proc" 2>/dev/null; rm -rf --one-file-system "$tmp"' EXIT

echo "debootstrap bookworm from $mirror"
quiet debootstrap --variant=minbase bookworm "$root" "$mirror" ||
  { echo "test_deb_fresh.sh: debootstrap failed"; exit 1; }
mount -t proc proc "$root/proc"
cp /etc/resolv.conf "$root/etc/resolv.conf"
cp "$deb" "$root/tmp/"
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
  LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }
pkg="/tmp/$(basename "$deb")"
check quiet in_root apt-get update -qq
check quiet in_root apt-get install -y -qq --no-install-recommends "$pkg"

# (a) dpkg's record.
check equals "$(in_root dpkg-query -W -f='${Status} ${Version}' bcast)" \
  "install ok installed $version"
in_root dpkg -L bcast > "$tmp/files"
check has "$tmp/files" '^/usr/bin/bcast$'
check has "$tmp/files" '^/usr/share/man/man1/bcast.1.gz$'
check has "$tmp/files" '^/usr/include/bcast/bcast.h$'
check has "$tmp/files" '/pkgconfig/bcast.pc$'
check has "$tmp/files" '^/usr/lib/python3/dist-packages/bcast/__init__.py$'
missing() { while read -r f; do [ -e "$root$f" ] || echo "$f"; done < "$tmp/files"; }
check equals "$(missing)" ""

# (b) The CLI, on files the root's NumPy writes and reads.
check equals "$(in_root bcast --version)" "bcast $version"
check equals "$(in_root bcast infer '[4,1]' '[5]')" "[4,5]"
cat > "$root/tmp/use.py" <<'PY'
import subprocess
import sys

import numpy as np

import bcast

version = sys.argv[1]
bad = []
if bcast.__version__ != version:
    bad.append(f"__version__ {bcast.__version__}")
a = np.arange(6, dtype=np.float32).reshape(2, 3) - 2.5
b = np.array([1.5, -2.25, 3.0], dtype=np.float32)
got, want = bcast.add(a, b), np.add(a, b)
if got.dtype != want.dtype or not np.array_equal(got, want):
    bad.append(f"add: {got!r}, not {want!r}")
np.save("/tmp/a.npy", a)
np.save("/tmp/b.npy", b)
subprocess.run(["bcast", "run", "multiply", "/tmp/a.npy", "/tmp/b.npy", "--profile", "numpy",
                "-o", "/tmp/c.npy"], check=True)
c, want = np.load("/tmp/c.npy"), np.multiply(a, b)
if c.dtype != want.dtype or not np.array_equal(c, want):
    bad.append(f"bcast run multiply: {c!r}, not {want!r}")
print("\n".join(bad) if bad else "ok")
PY
# (c) Python, with (b)'s run inside.
check equals "$(in_root python3 /tmp/use.py "$version" 2>&1)" ok

# (d) C through pkg-config with the root's own compiler.
check quiet in_root apt-get install -y -qq --no-install-recommends gcc libc6-dev pkgconf
cp "$(dirname "$0")/use.c" "$root/tmp/use.c"
check quiet in_root sh -c 'cc -std=c11 -Wall -Wextra -Werror /tmp/use.c -o /tmp/use $(pkg-config --cflags --libs bcast)'
check equals "$(in_root /tmp/use)" "$version $version [4,5]"

# (e) Removal leaves nothing of the package, byte-compiled files included.
check quiet in_root apt-get remove -y -qq bcast
left() { while read -r f; do [ -f "$root$f" ] && echo "$f"; done < "$tmp/files"; }
check equals "$(left)" ""
check test ! -e "$root/usr/lib/python3/dist-packages/bcast"
summary
