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
echo
echo "== Named dims: inference keeps names and says what run time must check =="
run "$bcast" infer '[n,1]' '[1,m]'
run "$bcast" infer '[n]' '[m]' '[?]'
echo
echo "== Tensors: ONNX Broadcast of .npy files, zero-copy until written =="
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
run "$bcast" info examples/npy/col.npy examples/npy/row.npy examples/npy/words.npy
run "$bcast" broadcast examples/npy/col.npy examples/npy/row.npy examples/npy/words.npy --print
run "$bcast" broadcast-to examples/npy/v.npy --shape 2x3 -o "$out/v23.npy"
run "$bcast" info "$out/v23.npy"
run "$bcast" broadcast-to examples/npy/row.npy --shape 100000x100000x4 -o "$out/huge.npy"
run "$bcast" broadcast examples/npy/v.npy examples/npy/row.npy --print
echo
echo "== Explicit broadcasting (XLA's BroadcastInDim, PyTensor's partial form) =="
run "$bcast" broadcast-in-dim examples/npy/v.npy --dims 0 --shape 3x2 --print
run "$bcast" broadcast-in-dim --operand '[5,7]' --dims 0,2 --new-dims 1:4
run "$bcast" broadcast-in-dim --operand '[2,3]' --shape '[3,2]' --dims 1,0
run "$bcast" explain '[3,1]' '[2,1,4]' '[n,1,1]'
echo
echo "== Element-wise ops with TOSA's numerics =="
run "$bcast" run add examples/npy/col.npy examples/npy/row.npy -o "$out/sum.npy"
run "$bcast" info "$out/sum.npy"
run "$bcast" run select examples/npy/cond.npy examples/npy/col.npy examples/npy/row.npy -o "$out/sel.npy"
run "$bcast" info "$out/sel.npy"
run "$bcast" run clamp examples/npy/x.npy --attr min_val=0 --attr max_val=6 -o "$out/relu6.npy"
run "$bcast" info "$out/relu6.npy"
run "$bcast" run cast examples/npy/x.npy --attr to=int8 -o "$out/i8.npy"
run "$bcast" info "$out/i8.npy"
run "$bcast" run add examples/npy/i32.npy examples/npy/i32.npy --checked -o "$out/dbl.npy"
run "$bcast" run add examples/npy/v.npy examples/npy/row.npy -o "$out/bad.npy"
echo
echo "== Lowering to linalg.generic =="
run "$bcast" lower examples/lower.mlir
