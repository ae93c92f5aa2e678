#!/usr/bin/env bash
# One exit-code rule for every command: 0 success, 1 a failed check or a
# refusal of what the input asks for (shapes, types, values, the byte
# budget; a malformed op in an MLIR file, as mlir-opt), 2 usage, resources
# and input files that cannot be read or decoded.
# Usage: test_exit_codes.sh PATH/TO/bcast
set -u
bcast=$1
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
"$py" - <<'EOF'
import numpy as np
np.save("a.npy", np.ones((2, 3), np.float32))
np.save("b.npy", np.ones((4,), np.float32))
np.save("i.npy", np.ones((2, 3), np.int32))
open("bad.npy", "wb").write(b"\x93NUMPY garbage")
np.savez("s.npz", x=np.ones((2, 3), np.float32))
np.savez_compressed("c.npz", x=np.ones((2, 3), np.float32))
open("cut.npz", "wb").write(open("s.npz", "rb").read()[:-30])
EOF
cat > ok.mlir <<'EOF'
func.func @f(%a: tensor<3xf32>) -> tensor<3xf32> {
  %1 = tosa.add %a, %a : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %1 : tensor<3xf32>
}
EOF
sed 's/(tensor<3xf32>, tensor<3xf32>)/(tensor<3xf32, tensor<3xf32>)/' ok.mlir > malformed.mlir
sed 's/(tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>/(tensor<3xf32>, tensor<4xf32>) -> tensor<3xf32>/' ok.mlir > incompatible.mlir

passed=0 failed=0
expect() {
  local want=$1; shift
  "$bcast" "$@" > /dev/null 2> err.txt
  local got=$?
  if [ "$got" -eq "$want" ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: bcast $* exited $got, expected $want: $(head -c 300 err.txt)"
  fi
}

expect 0 verify ok.mlir
expect 1 verify incompatible.mlir
expect 1 verify malformed.mlir
expect 2 verify missing.mlir
expect 0 lower ok.mlir
expect 1 lower incompatible.mlir
expect 1 lower malformed.mlir
expect 2 lower missing.mlir
expect 2 lower --no-such-flag ok.mlir
expect 0 run add a.npy a.npy -o o.npy
expect 1 run add a.npy b.npy -o o.npy
expect 1 run add a.npy i.npy -o o.npy
expect 1 run clamp i.npy --attr min_val=5 --attr max_val=1 -o o.npy
expect 2 run add a.npy missing.npy -o o.npy
expect 2 run add a.npy bad.npy -o o.npy
expect 1 run add a.npy a.npy --max-bytes 8 -o o.npy
expect 2 run no_such_op a.npy -o o.npy
expect 0 info a.npy
expect 2 info bad.npy
expect 2 info missing.npy
expect 0 broadcast-to a.npy --shape 4x2x3 -o o.npy
expect 1 broadcast-to a.npy --shape 5x3 -o o.npy
expect 1 broadcast-to a.npy --shape 100000x100000x3 -o o.npy
expect 2 broadcast-to bad.npy --shape 2x3 -o o.npy
expect 1 broadcast a.npy b.npy -o out
expect 2 broadcast a.npy bad.npy -o out
expect 1 broadcast-in-dim a.npy --shape 3x2 --dims 0,1 -o o.npy
expect 2 broadcast-in-dim bad.npy --shape 2x3 --dims 0,1 -o o.npy
expect 0 infer '[2,1]' '[1,3]'
expect 1 infer '[2]' '[3]'
expect 2 infer '[2,'
# Standard input and output, .npz archives.
expect 2 run add - - -o o.npy
expect 2 broadcast a.npy a.npy -o -
expect 0 run add s.npz:x a.npy -o o.npz
expect 2 run add s.npz:y a.npy -o o.npy
expect 0 run add c.npz:x a.npy -o o.npy
expect 2 run add cut.npz:x a.npy -o o.npy
expect 2 broadcast-to a.npy --shape '4,,3' -o o.npy
expect 2 broadcast-to a.npy --shape 'n,3' -o o.npy
expect 1 run add a.npy a.npy -o o.npy --max-bytes 16
expect 0 run add a.npy a.npy --print
expect 2 run add a.npy a.npy

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
