#!/usr/bin/env bash
# The CTest fuzz_replay: each harness's replay driver over its seed corpus
# (fuzz/corpus/<harness>) and the reproducers of past findings
# (fuzz/regressions/<harness>).  Usage: replay.sh BIN_DIR HARNESS...
set -euo pipefail
bin=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
for h in "$@"; do
  dirs=()
  for d in "$here/corpus/$h" "$here/regressions/$h"; do
    [ -d "$d" ] && dirs+=("$d")
  done
  if [ ${#dirs[@]} -eq 0 ]; then
    echo "fuzz_replay: no corpus for $h" >&2
    exit 1
  fi
  printf '%-9s ' "$h"
  "$bin/bcast_fuzz_replay_$h" "${dirs[@]}" 2>"${TMPDIR:-/tmp}/bcast_replay_$$.log" || {
    tail -n 40 "${TMPDIR:-/tmp}/bcast_replay_$$.log" >&2
    rm -f "${TMPDIR:-/tmp}/bcast_replay_$$.log"
    exit 1
  }
done
rm -f "${TMPDIR:-/tmp}/bcast_replay_$$.log"
