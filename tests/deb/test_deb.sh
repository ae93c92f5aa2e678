#!/usr/bin/env bash
# The Debian package `make deb` builds, unpacked into a scratch root with
# dpkg -x (the system and its dpkg database are not touched; the root is
# removed afterwards, also on failure) and each part used from there:
#  (a) the control data: name, project()'s version, this machine's
#      architecture, maintainer, section, a summary and a long description;
#      Depends naming libc6, libgomp1, zlib1g, python3 for this
#      interpreter's release and python3-numpy, each met on this machine;
#      the shlibs entry of libbcast.so.0, dpkg's ldconfig trigger (not
#      ldconfig in postinst and postrm, which lintian refuses),
#      the module byte-compiled by postinst and cleaned by prerm;
#      every file under /usr, owned by root; nothing of the source tree's
#      headers or Python package missing; no debug sections;
#  (b) the CLI: --version, infer, and run on .npy files checked by NumPy;
#  (c) the man page through man -l, and groff -ww without a warning;
#  (d) a C program built against the installed headers and libbcast.so
#      through pkg-config (PKG_CONFIG_SYSROOT_DIR) and through CMake's
#      find_package, both run, libbcast.so.0 loaded from the root;
#  (e) /usr/bin/python3 importing the module from the root: its extension
#      has that interpreter's EXT_SUFFIX, and add equals NumPy's.
# make test runs it after make deb (the package needs its own build for
# /usr).  Usage: test_deb.sh PATH/TO/bcast_VERSION_ARCH.deb
set -u
deb=$(realpath "$1")
# shellcheck source-path=SCRIPTDIR source=../cli/checks.sh
. "$(dirname "$0")/../cli/checks.sh"
py=/usr/bin/python3
arch=$(dpkg --print-architecture)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
pyrel=$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
pynext=$("$py" -c 'import sys; print("%d.%d" % (sys.version_info[0], sys.version_info[1] + 1))')
ext_suffix=$("$py" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')

# (a) The control data.
field() { dpkg-deb -f "$deb" "$1"; }
check equals "$(field Package)" bcast
check equals "$(field Version)" "$version"
check equals "$(field Architecture)" "$arch"
check equals "$(basename "$deb")" "bcast_${version}_$arch.deb"
check grep -qE '^[^<>]+ <[^@ ]+@[^@ ]+>$' <<< "$(field Maintainer)"
check test -n "$(field Section)"
description=$(field Description)
check test "$(wc -l <<< "$description")" -ge 3
check grep -q '^ bcast ' <<< "$(sed -n 2p <<< "$description")"
depends=$(field Depends)
entries=$(tr ',' '\n' <<< "$depends" | sed 's/^ *//; s/ *$//')
for want in '^libc6 ' '^libgomp1( |$)' '^zlib1g( |$)' "^python3 \\(>= $pyrel\\)\$" \
  "^python3 \\(<< $pynext\\)\$" '^python3-numpy( |$)'; do
  check grep -qE "$want" <<< "$entries"
done
# An entry "name" or "name (op version)" is met by an installed package of
# that name and version, or, without a version, by one providing it.
satisfied() {
  local name=${1%% *} op="" want="" have
  if [[ $1 =~ \(([<>=]+)\ (.+)\)$ ]]; then
    op=${BASH_REMATCH[1]} want=${BASH_REMATCH[2]}
  fi
  have=$(dpkg-query -W -f='${db:Status-Abbrev}|${Version}\n' "$name" 2>/dev/null | grep '^ii' | head -1)
  if [[ $have == ii* ]]; then
    [ -z "$op" ] || dpkg --compare-versions "${have#*|}" "$op" "$want"
  else
    [ -z "$op" ] && dpkg-query -W -f='${db:Status-Abbrev}|${Provides}\n' |
      grep '^ii' | grep -qE "[|, ]$name(\$|[ ,])"
  fi || { echo "Depends: $1: not met here"; return 1; }
}
while read -r entry; do
  check satisfied "$entry"
done <<< "$entries"
dpkg-deb -e "$deb" "$tmp/control"
check equals "$(cat "$tmp/control/shlibs")" "libbcast 0 bcast (>= $version)"
for script in postinst prerm postrm; do
  check sh -n "$tmp/control/$script"
done
check equals "$(cat "$tmp/control/triggers")" "activate-noawait ldconfig"
check lacks "$tmp/control/postinst" "^[[:space:]]*ldconfig"
check lacks "$tmp/control/postrm" "^[[:space:]]*ldconfig"
check grep -q '^[[:space:]]*py3compile -p bcast$' "$tmp/control/postinst"
check grep -q '^[[:space:]]*py3clean -p bcast$' "$tmp/control/prerm"
dpkg-deb -c "$deb" > "$tmp/contents"
check test "$(awk '$6 !~ /^\.\/usr\// && $6 != "./"' "$tmp/contents" | wc -l)" -eq 0
check test "$(awk '$2 != "root/root"' "$tmp/contents" | wc -l)" -eq 0

root="$tmp/root"
check dpkg -x "$deb" "$root"
lib="$root/usr/lib/$multiarch"
pydir="$root/usr/lib/python3/dist-packages"
for f in "$src"/include/bcast/*.h; do
  check test -f "$root/usr/include/bcast/$(basename "$f")"
done
check test -f "$root/usr/include/bcast/version.h"
for f in "$src"/python/bcast/*; do
  [ -f "$f" ] && check test -f "$pydir/bcast/$(basename "$f")"
done
check test -f "$pydir/bcast/_bcast$ext_suffix"
check test "$(find "$pydir/bcast" -name '_bcast*.so' | wc -l)" -eq 1
for f in libbcast.a libbcast.so libbcast.so.0 "libbcast.so.$version" pkgconfig/bcast.pc \
  cmake/bcast/bcastConfig.cmake cmake/bcast/bcastConfigVersion.cmake; do
  check test -e "$lib/$f"
done
# Without debug sections (dpkg-buildflags' -g): CPack strips the ELF
# files, cmake/deb-prebuild.cmake the static library.
nodebug() { ! readelf -SW "$1" | grep -q '\.debug_' || { echo "$1 has debug sections"; return 1; }; }
for f in "$root/usr/bin/bcast" "$lib/libbcast.so.$version" "$lib/libbcast.a" "$pydir"/bcast/_bcast*; do
  check nodebug "$f"
done

# (b) The CLI.
bcast="$root/usr/bin/bcast"
check equals "$("$bcast" --version)" "bcast $version"
check equals "$("$bcast" infer '[4,1]' '[5]')" "[4,5]"
check sh -c "! ldd '$bcast' | grep -q 'not found'"

# (c) The man page, as man shows it, and as groff checks it.
page="$root/usr/share/man/man1/bcast.1.gz"
check test -f "$page"
MANPAGER=cat MANWIDTH=80 man -l "$page" > "$tmp/man.txt" 2> "$tmp/man.err"
check test $? -eq 0
check test ! -s "$tmp/man.err"
check grep -q '^BCAST(1)' "$tmp/man.txt"
check grep -qE '^ +bcast +- ' "$tmp/man.txt"
check grep -qF "bcast --version" "$tmp/man.txt"
zcat "$page" | groff -ww -man -Tutf8 -z 2> "$tmp/groff.err"
check test ! -s "$tmp/groff.err"

# (d) C: the version of the headers and of the library loaded, and a shape.
cp "$(dirname "$0")/use.c" "$tmp/use.c"
expect_use="$version $version [4,5]"
# run_use PROGRAM: prints what it should, with libbcast.so.0 from the root.
run_use() {
  LD_LIBRARY_PATH="$lib" ldd "$1" | grep -q "libbcast.so.0 => $lib/libbcast.so.0 " ||
    { echo "$1 does not load $lib/libbcast.so.0:"; LD_LIBRARY_PATH="$lib" ldd "$1"; return 1; }
  equals "$(LD_LIBRARY_PATH="$lib" "$1")" "$expect_use"
}
# The .pc file names /usr, which the sysroot maps into the root.
pc() { PKG_CONFIG_SYSROOT_DIR="$root" PKG_CONFIG_PATH="$lib/pkgconfig" pkg-config "$@" bcast; }
check equals "$(pc --path)" "$lib/pkgconfig/bcast.pc"
check equals "$(pc --variable=includedir)" "$root/usr/include"
check equals "$(pc --variable=libdir)" "$lib"
flags=$(pc --cflags --libs)
# shellcheck disable=SC2086
check quiet cc -std=c11 -Wall -Wextra -Werror "$tmp/use.c" -o "$tmp/use_pc" $flags
check run_use "$tmp/use_pc"

mkdir -p "$tmp/consumer"
cat > "$tmp/consumer/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(consumer LANGUAGES C)
find_package(bcast ${BCAST_VERSION} EXACT CONFIG REQUIRED)
add_executable(use ${USE_C})
target_link_libraries(use PRIVATE bcast::bcast)
CMAKE
check quiet cmake -S "$tmp/consumer" -B "$tmp/consumer/b" -DCMAKE_PREFIX_PATH="$root/usr" \
  -DBCAST_VERSION="$version" -DUSE_C="$tmp/use.c" -DCMAKE_C_FLAGS="-Wall -Werror"
check grep -qx "bcast_DIR:PATH=$lib/cmake/bcast" "$tmp/consumer/b/CMakeCache.txt"
check quiet cmake --build "$tmp/consumer/b"
check run_use "$tmp/consumer/b/use"

# (e) Python: Debian's interpreter, the module from the root, one op and
# the CLI's run against NumPy.
cat > "$tmp/use.py" <<'PY'
import os
import subprocess
import sys
import sysconfig

import numpy as np

import bcast
import bcast.dask

root, cli, tmp, version = sys.argv[1:]
bad = []
def expect(ok, what):
    if not ok:
        bad.append(what)
for mod in (bcast, bcast._bcast, bcast.dask):
    expect(mod.__file__.startswith(root + "/"), f"{mod.__name__} from {mod.__file__}")
suffix = sysconfig.get_config_var("EXT_SUFFIX")
expect(bcast._bcast.__file__.endswith(suffix), f"{bcast._bcast.__file__}: not *{suffix}")
expect(bcast.__version__ == version, f"__version__ {bcast.__version__}")
a = np.arange(6, dtype=np.float32).reshape(2, 3) - 2.5
b = np.array([1.5, -2.25, 3.0], dtype=np.float32)
got, want = bcast.add(a, b), np.add(a, b)
expect(got.dtype == want.dtype and np.array_equal(got, want), f"add: {got!r}, not {want!r}")
np.save(os.path.join(tmp, "a.npy"), a)
np.save(os.path.join(tmp, "b.npy"), b)
subprocess.run([cli, "run", "add", "a.npy", "b.npy", "--profile", "numpy", "-o", "c.npy"],
               cwd=tmp, check=True)
c = np.load(os.path.join(tmp, "c.npy"))
expect(c.dtype == want.dtype and np.array_equal(c, want), f"bcast run add: {c!r}")
for b_ in bad:
    print("FAIL:", b_)
sys.exit(1 if bad else 0)
PY
check env -u PYTHONHOME PYTHONPATH="$pydir" PYTHONDONTWRITEBYTECODE=1 \
  "$py" "$tmp/use.py" "$root" "$bcast" "$tmp" "$version"

summary
