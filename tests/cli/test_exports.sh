#!/usr/bin/env bash
# Checks that the shared library exports exactly the public API: the
# functions declared with BCAST_API in include/bcast/*.h, nothing internal
# (bcast__*) and nothing missing, and that the static library defines no
# global symbol outside the bcast_ prefix.  It also checks that no function
# in a public header is declared without BCAST_API, which would leave it
# out of both lists unnoticed.
# Usage: test_exports.sh PATH/TO/BUILD/bcast   (libbcast.so sits beside it)
set -u
build=$(cd "$(dirname "$1")" && pwd)
include=$(cd "$(dirname "$0")/../../include/bcast" && pwd)
lib="$build/libbcast.so"
if [ ! -e "$lib" ]; then
  echo "FAIL: no shared library at $lib"
  exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# The declared API: the identifier just before the '(' of each BCAST_API
# declaration (on its first line, or on the next when the return type
# stands alone), in the headers and the templates CMake generates headers
# from (version.h.in).
cat "$include"/*.h "$include"/*.h.in |
  awk '/^BCAST_API / && !/\(/ { getline next_line; $0 = $0 " " next_line }
       /^BCAST_API / { print }' |
  sed -E 's/^([^(]*[^A-Za-z0-9_(])([A-Za-z_][A-Za-z0-9_]*)\(.*/\2/' |
  sort -u > "$tmp/declared"
# What the library defines for the dynamic linker.
nm -D --defined-only "$lib" | awk '{print $NF}' | sort -u > "$tmp/exported"

if [ ! -s "$tmp/declared" ] || [ ! -s "$tmp/exported" ]; then
  echo "FAIL: empty symbol list (declared $(wc -l < "$tmp/declared"), exported $(wc -l < "$tmp/exported"))"
  exit 1
fi
extra=$(comm -13 "$tmp/declared" "$tmp/exported")
missing=$(comm -23 "$tmp/declared" "$tmp/exported")
if [ -n "$extra" ]; then
  echo "FAIL: exported but not declared with BCAST_API:"
  echo "$extra" | sed 's/^/  /'
  fail=1
fi
if [ -n "$missing" ]; then
  echo "FAIL: declared with BCAST_API but not exported:"
  echo "$missing" | sed 's/^/  /'
  fail=1
fi

# A function declaration in a public header starts at column 0 with its
# return type and names a bcast_ function; every one must carry BCAST_API.
unmarked=$(grep -nE '^[A-Za-z_][A-Za-z0-9_ *]*[ *]bcast_[A-Za-z0-9_]*\(' \
             "$include"/*.h "$include"/*.h.in | grep -vE ':(BCAST_API|typedef|#|return) ')
if [ -n "$unmarked" ]; then
  echo "FAIL: public functions declared without BCAST_API:"
  echo "$unmarked" | sed 's/^/  /'
  fail=1
fi

# The static library cannot hide its internals, so their names are the
# protection against clashing with a program's own: every global symbol
# starts with bcast_ (public) or bcast__ (internal).
static="$build/libbcast.a"
if [ -e "$static" ]; then
  unprefixed=$(nm -g --defined-only "$static" 2>/dev/null |
                 awk 'NF == 3 {print $3}' | grep -v '^bcast_' | sort -u)
  if [ -n "$unprefixed" ]; then
    echo "FAIL: global symbols of libbcast.a without the bcast_ prefix:"
    echo "$unprefixed" | sed 's/^/  /'
    fail=1
  fi
else
  echo "FAIL: no static library at $static"
  fail=1
fi

if [ "$fail" -ne 0 ]; then exit 1; fi
echo "exports: $(wc -l < "$tmp/exported") symbols, all declared with BCAST_API"
