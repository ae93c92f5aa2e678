#!/usr/bin/env bash
# The library as other projects use it:
#  (a) installed, through find_package(bcast CONFIG): the examples built
#      against bcast::bcast and bcast::bcast_static, run, outputs checked;
#  (b) as a subdirectory of another CMake project: only the libraries are
#      built, bcast's warnings are not errors there, bcast::* aliases work;
#  (c) through pkg-config: clean printed paths, and a static link with gcc
#      and with clang from `pkg-config --static --libs` alone;
#  (d) the version everywhere is project()'s, and the installed man page
#      is scripts/gen_man.sh's output for this tool, rendering cleanly.
# Usage: test_package.sh PATH/TO/BUILD/bcast
set -u
build=$(cd "$(dirname "$1")" && pwd)
# shellcheck source-path=SCRIPTDIR source=checks.sh
. "$(dirname "$0")/checks.sh"

# A sanitized build's libraries need the sanitizer runtimes at link time.
san=""
grep -q '^BCAST_SANITIZE:BOOL=ON' "$build/CMakeCache.txt" 2>/dev/null &&
  san="-fsanitize=address,undefined"

prefix="$tmp/prefix"
check quiet cmake --install "$build" --prefix "$prefix"
libdir=$(dirname "$(find "$prefix" -name libbcast.a | head -1)")

# (d) The version and the man page.
check test "$("$1" --version)" = "bcast $version"
check grep -q "^#define BCAST_VERSION_STRING \"$version\"" "$prefix/include/bcast/version.h"
man="$prefix/share/man/man1/bcast.1"
check test -e "$man"
"$src/scripts/gen_man.sh" "$1" > "$tmp/bcast.1"
if ! cmp -s "$tmp/bcast.1" "$src/docs/bcast.1"; then
  echo "FAIL: docs/bcast.1 is not the --help texts; run: scripts/gen_man.sh $1 > docs/bcast.1"
  diff "$src/docs/bcast.1" "$tmp/bcast.1" | head -10
  fail=$((fail + 1))
else
  pass=$((pass + 1))
fi
check cmp -s "$man" "$src/docs/bcast.1"
groff -ww -man -Tutf8 "$man" > "$tmp/man.txt" 2> "$tmp/man.err"
check test ! -s "$tmp/man.err"
for cmd in $("$1" --help | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {print $1}'); do
  check grep -q "^ *$cmd " "$tmp/man.txt"
done

# The examples' outputs, worked out by hand from the ops' definitions.
expect_infer_shapes="bcast $version (headers $version)
[4,1] [5] -> [4,5]
[2,3] [4,3]: BCAST_INCOMPATIBLE (operands 0 and 1, dim 0)"
expect_broadcast_add="11 22 33
14 25 36
0 0 0
3 3 3"
expect_threads="4 threads, 65536 elements each: ok"
# TOSA's cast: round half to even, saturate to int8.
expect_cast_owned="2 4 -2 127 -128 0
BCAST_BUDGET"
examples=$(cd "$src/examples" && ls ./*.c | sed 's|^\./||; s|\.c$||')
check test "$(echo "$examples" | wc -l)" -ge 4
run_example() { # NAME BINARY
  local want="expect_$1"
  if [ -z "${!want+x}" ]; then
    echo "no expected output for examples/$1.c in $0"
    return 1
  fi
  local got
  got=$("$2") || { echo "$2 exited $?"; return 1; }
  [ "$got" = "${!want}" ] || { printf 'examples/%s.c printed:\n%s\n' "$1" "$got"; return 1; }
}

# (a) find_package against the installed tree.
mkdir -p "$tmp/consumer"
cat > "$tmp/consumer/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(consumer LANGUAGES C)
find_package(bcast 0.1 CONFIG REQUIRED)
file(GLOB examples ${EXAMPLES}/*.c)
foreach(e ${examples})
  get_filename_component(name ${e} NAME_WE)
  add_executable(${name}_shared ${e})
  target_link_libraries(${name}_shared PRIVATE bcast::bcast)
  add_executable(${name}_static ${e})
  target_link_libraries(${name}_static PRIVATE bcast::bcast_static)
endforeach()
CMAKE
check quiet cmake -S "$tmp/consumer" -B "$tmp/consumer/b" -DCMAKE_PREFIX_PATH="$prefix" \
  -DEXAMPLES="$src/examples" -DCMAKE_C_FLAGS="-Wall -Werror $san" \
  -DCMAKE_BUILD_TYPE=Release
check quiet cmake --build "$tmp/consumer/b" -j 2
for e in $examples; do
  for kind in shared static; do
    check run_example "$e" "$tmp/consumer/b/${e}_$kind"
  done
done
# The static programs carry the library; the shared ones load it.
check sh -c "! readelf -d '$tmp/consumer/b/broadcast_add_static' | grep -q 'libbcast'"
check sh -c "readelf -d '$tmp/consumer/b/broadcast_add_shared' | grep -q 'libbcast.so'"

# (b) add_subdirectory of the source tree, from a project whose flags make
# bcast's code warn (-Wpadded): a warning there, not an error, and
# none of bcast's own programs built.
mkdir -p "$tmp/parent"
cat > "$tmp/parent/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(parent LANGUAGES C)
add_subdirectory(${BCAST_SRC} bcast)
add_executable(app ${BCAST_SRC}/examples/broadcast_add.c)
target_link_libraries(app PRIVATE bcast::bcast_static)
CMAKE
check quiet cmake -S "$tmp/parent" -B "$tmp/parent/b" -DBCAST_SRC="$src" \
  -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS="-Wpadded" \
  -DCMAKE_EXPORT_COMPILE_COMMANDS=ON
cmake --build "$tmp/parent/b" -j 2 > "$tmp/parent.log" 2>&1
check test $? -eq 0
check has "$tmp/parent.log" "warning: .*-Wpadded"
check has "$tmp/parent/b/compile_commands.json" "-Wshadow"
check lacks "$tmp/parent/b/compile_commands.json" "-Werror"
check run_example broadcast_add "$tmp/parent/b/app"
for target in bcast_unit bcast_bench bcast_bench_shape bcast; do
  check test ! -e "$tmp/parent/b/bcast/$target"
done
# Sources of the project's own tests, tools and benchmarks, anchored at the
# source tree (a checkout may itself sit under a folder named bench/).
check lacks "$tmp/parent/b/compile_commands.json" \
  "$src/tests/unit/\|$src/tools/bcast/\|$src/bench/"
check lacks "$tmp/parent/b/CMakeCache.txt" "^BCAST_BUILD_TESTS:BOOL=ON"

# (c) pkg-config: printed paths without '..', and a static link from its
# output alone (the shared library removed so -lbcast can only be the .a).
export PKG_CONFIG_PATH="$libdir/pkgconfig"
pkg-config --cflags --libs --static bcast > "$tmp/pc.txt"
check has "$tmp/pc.txt" "-I$prefix/include "
check has "$tmp/pc.txt" "-L$libdir "
check lacks "$tmp/pc.txt" '/\.\.'
check has "$tmp/pc.txt" " -lm"
rm -f "$libdir"/libbcast.so*
compilers="gcc"
command -v clang >/dev/null && compilers="gcc clang"
for cc in $compilers; do
  # shellcheck disable=SC2046
  check quiet "$cc" -std=c11 -Wall -Werror "$src/examples/cast_owned.c" -o "$tmp/pc_$cc" \
    $(pkg-config --cflags --libs --static bcast) $san
  check run_example cast_owned "$tmp/pc_$cc"
done
# The OpenMP runtime the library was built with, by its library name.
if grep -q '^BCAST_OPENMP:BOOL=ON' "$build/CMakeCache.txt"; then
  check grep -qE '^Libs.private: -lm -lz .*-l(gomp|omp) -pthread$' "$libdir/pkgconfig/bcast.pc"
  check has "$build/bcastConfig.cmake" "set(bcast_OPENMP ON)"
  check has "$libdir/cmake/bcast/bcastConfig.cmake" "find_dependency(OpenMP"
fi
# Built without OpenMP, the package names no OpenMP runtime.
check quiet cmake -S "$src" -B "$tmp/noomp" -DBCAST_OPENMP=OFF -DBCAST_BUILD_TESTS=OFF \
  -DBCAST_BUILD_TOOLS=OFF -DBCAST_BUILD_BENCH=OFF
check has "$tmp/noomp/bcast.pc.in" "^Libs.private: -lm -lz$"
check has "$tmp/noomp/bcastConfig.cmake" "set(bcast_OPENMP OFF)"

summary
