#!/usr/bin/env bash
# The demo: every example of the Broadcastable document through bcast, under
# the document's rules and under what MLIR 22 really does, then shapes and
# TOSA ops.  Usage: scripts/demo.sh path/to/bcast
set -u
bcast=${1:-build/bcast}
cd "$(dirname "$0")/.."
run() {
  printf '\n$ %s\n' "$*"
  "$@" 2>&1
  printf '(exit %d)\n' $?
}
echo "== The Broadcastable trait document: 8 valid examples (trait profile) =="
run "$bcast" verify --summary examples/trait-valid.mlir
echo
echo "== ...and its 5 invalid examples, each with MLIR's message and bcast's explanation =="
run "$bcast" verify --summary examples/trait-invalid.mlir
echo
echo "== The same 5 under the 'mlir' profile: MLIR 22 accepts two of them =="
run "$bcast" verify --summary --profile mlir examples/trait-invalid.mlir
echo
echo "== Shape inference =="
run "$bcast" infer '[2,?,1]' '[3]'
run "$bcast" infer 'tensor<4x1xf32>' '1x5' '[]'
run "$bcast" infer '[0]' '[1]'
run "$bcast" infer '*' '[2,3]'
run "$bcast" infer '[2,3,4]' '[5,4]'
run "$bcast" infer --profile tosa '[3]' '[1,3]'
echo
echo "== TOSA ops (tosa profile by default for tosa.*) =="
run "$bcast" verify examples/tosa.mlir
