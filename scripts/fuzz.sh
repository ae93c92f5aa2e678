#!/usr/bin/env bash
# Runs each libFuzzer harness for FUZZ_SECONDS (make fuzz), one after the
# other, under nice: new corpus entries go to fuzz/corpus/<harness>/ (the
# checked-in seeds stay), crashes to fuzz/crashes/<harness>/.  Prints per
# harness: seconds, execs, cov, ft, corpus size and findings.
#   scripts/fuzz.sh BUILD_DIR [HARNESS...]     (default: all seven)
# Environment: FUZZ_SECONDS (60), FUZZ_ARGS (extra libFuzzer flags, e.g.
# "-max_len=8192"), FUZZ_MINIMIZE (1: afterwards drop the new corpus
# entries that add no coverage, so the checked-in corpus stays small).
set -uo pipefail
build=${1:?usage: scripts/fuzz.sh BUILD_DIR [HARNESS...]}
shift
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${FUZZ_SECONDS:-60}
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(npy npz mlir shape explicit attr lower)
status=0
printf '%-9s %8s %12s %7s %7s %7s %s\n' harness seconds execs cov ft corpus findings
for h in "${targets[@]}"; do
  bin="$build/bcast_fuzz_$h"
  if [ ! -x "$bin" ]; then
    echo "fuzz: no harness '$h' ($bin; known: npy npz mlir shape explicit attr lower)" >&2
    status=2
    continue
  fi
  case $h in
    npy) dict="$root/fuzz/npy.dict" ;;
    npz) dict="$root/fuzz/npz.dict" ;;
    *) dict="$root/fuzz/mlir.dict" ;;
  esac
  corpus="$root/fuzz/corpus/$h"
  crashes="$root/fuzz/crashes/$h"
  mkdir -p "$corpus" "$crashes"
  log="$crashes/last-run.log"
  before=$(find "$crashes" -type f ! -name '*.log' | wc -l)
  old=$(mktemp)
  ls "$corpus" >"$old"
  start=$(date +%s)
  # A crash stops the run: its input is in $crashes/crash-<sha1>.
  nice -n 10 "$bin" "$corpus" -dict="$dict" -max_total_time="$seconds" \
    -artifact_prefix="$crashes/" -print_final_stats=1 -timeout=10 \
    -rss_limit_mb=2048 ${FUZZ_ARGS:-} >"$log" 2>&1
  rc=$?
  end=$(date +%s)
  # Of this run's new inputs keep those that add coverage over what was
  # there before (-merge=1 copies into its first directory, which starts as
  # the old corpus, only the inputs that add features); the old stay.
  if [ "${FUZZ_MINIMIZE:-1}" = 1 ]; then
    kept=$(mktemp -d)
    (cd "$corpus" && xargs -r -d '\n' cp -t "$kept" <"$old")
    if nice -n 10 "$bin" -merge=1 "$kept" "$corpus" >"$crashes/merge.log" 2>&1; then
      for f in "$corpus"/*; do
        b=$(basename "$f")
        if ! grep -qxF "$b" "$old" && [ ! -e "$kept/$b" ]; then rm -f "$f"; fi
      done
    fi
    rm -rf "$kept"
  fi
  rm -f "$old"
  after=$(find "$crashes" -type f ! -name '*.log' | wc -l)
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  last=$(grep -E '^#[0-9]+' "$log" | tail -1)
  cov=$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.*ft: \([0-9]*\).*/\1/p' <<<"$last")
  size=$(find "$corpus" -type f | wc -l)
  findings=$((after - before))
  printf '%-9s %8d %12s %7s %7s %7d %d\n' "$h" $((end - start)) "${execs:-?}" \
    "${cov:-?}" "${ft:-?}" "$size" "$findings"
  if [ $rc -ne 0 ] || [ $findings -gt 0 ]; then
    echo "  $h: exit $rc, see $log and $crashes/" >&2
    status=1
  fi
done
exit $status
