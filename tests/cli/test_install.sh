#!/usr/bin/env bash
# Installs the build into a temporary prefix and builds a program against
# the installed headers and libraries through pkg-config, static and shared.
# Usage: test_install.sh PATH/TO/BUILD/bcast
set -u
build=$(cd "$(dirname "$1")" && pwd)
# shellcheck source-path=SCRIPTDIR source=checks.sh
. "$(dirname "$0")/checks.sh"
prefix="$tmp/prefix"

cmake --install "$build" --prefix "$prefix" >/dev/null
for f in include/bcast/bcast.h include/bcast/shape.h bin/bcast; do
  check test -e "$prefix/$f"
done
libdir=$(dirname "$(find "$prefix" -name libbcast.a | head -1)")
check test -e "$libdir/libbcast.a"
check test -e "$libdir/libbcast.so"
check test -e "$libdir/pkgconfig/bcast.pc"

cat > "$prefix/use.c" <<'C'
#include <stdio.h>
#include <bcast/bcast.h>
int main(void) {
  bcast_shape ops[2] = {{2, {4, 1}}, {1, {5}}}, out;
  if (bcast_shape_infer(2, ops, BCAST_PROFILE_TRAIT, &out, NULL) != BCAST_OK) return 1;
  char text[64];
  bcast_shape_format(&out, BCAST_SHAPE_STYLE_LIST, text, sizeof text);
  puts(text);
  return 0;
}
C
# A sanitized build's libraries need the sanitizer runtimes at link time.
san=""
grep -q '^BCAST_SANITIZE:BOOL=ON' "$build/CMakeCache.txt" 2>/dev/null && san="-fsanitize=address,undefined"
export PKG_CONFIG_PATH="$libdir/pkgconfig"
if command -v pkg-config >/dev/null; then
  flags=$(pkg-config --cflags --libs bcast)
else
  flags="-I$prefix/include -L$libdir -lbcast"
fi
# Shared: the installed .so, found at run time through the rpath.
check cc -std=c11 -Wall -Werror "$prefix/use.c" -o "$prefix/use_shared" $flags -Wl,-rpath,"$libdir" -fopenmp -lm $san
check test "$("$prefix/use_shared")" = "[4,5]"
# Static.
check cc -std=c11 -Wall -Werror "$prefix/use.c" -o "$prefix/use_static" -I"$prefix/include" "$libdir/libbcast.a" -fopenmp -lm $san
check test "$("$prefix/use_static")" = "[4,5]"
check test "$("$prefix/bin/bcast" infer '[4,1]' '[5]')" = "[4,5]"

# Installs to several prefixes at once (as ctest -j runs the package
# tests): each bcast.pc names its own prefix, each install succeeds.
# The .pc file was configured in one place in the build tree, which the
# installs overwrote in turn, and that place must not come back.
concurrent_installs() {
  local i pids=() bad=0
  for i in 1 2 3 4 5 6; do
    cmake --install "$build" --prefix "$tmp/at$i" > "$tmp/at$i.log" 2>&1 &
    pids+=($!)
  done
  for i in 1 2 3 4 5 6; do
    wait "${pids[i - 1]}" || { echo "install $i failed:"; cat "$tmp/at$i.log"; bad=1; }
    grep -qx "prefix=$tmp/at$i" "$(find "$tmp/at$i" -name bcast.pc)" ||
      { echo "install $i: bcast.pc names another prefix"; bad=1; }
  done
  rm -rf "$tmp"/at*
  return "$bad"
}
# (One round under ASan, whose build is ten times the size to copy.)
rounds=3
[ -n "$san" ] && rounds=1
for _ in $(seq "$rounds"); do
  check concurrent_installs
done
summary
