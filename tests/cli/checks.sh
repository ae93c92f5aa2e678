# shellcheck shell=bash disable=SC2034  # the variables are for the sourcing test
# Sourced by the package tests (test_install.sh, test_package.sh,
# tests/deb/test_deb.sh): a scratch directory $tmp, removed when the test
# exits (also on failure or a signal), counted checks, the source tree
# $src and project()'s version $version.
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
version=$(sed -nE 's/^project\(bcast VERSION ([0-9.]+).*/\1/p' "$src/CMakeLists.txt")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
pass=0 fail=0
# check CMD...: runs CMD and counts it; a failure is named.
check() { if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $*"; fi; }
# quiet CMD...: runs CMD, showing its output only when it fails.
quiet() {
  if ! "$@" > "$tmp/log" 2>&1; then
    tail -20 "$tmp/log"
    return 1
  fi
}
# equals GOT WANT: string equality, showing both when they differ.
equals() { [ "$1" = "$2" ] || { echo "'$1' is not '$2'"; return 1; }; }
# has FILE PATTERN / lacks FILE PATTERN: grep, showing FILE when wrong.
has() { grep -q -- "$2" "$1" || { echo "'$2' not in $1:"; cat "$1"; return 1; }; }
lacks() { ! grep -q -- "$2" "$1" || { echo "'$2' in $1:"; cat "$1"; return 1; }; }
# The counts, and the exit status: 0 when nothing failed.
summary() {
  echo "$pass passed, $fail failed"
  [ "$fail" -eq 0 ]
}
