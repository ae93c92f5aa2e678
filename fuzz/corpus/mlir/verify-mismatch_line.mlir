// Deliberate mismatch: the right text on the wrong line (@+2 instead of
// @+1): the error is unexpected where it is, and the annotation unmatched.
// bcast: verify --verify-diagnostics --split-input-file
// mlir-opt: --verify-diagnostics --split-input-file
// report: 10:8: unexpected error: 'tosa.mul' op a and b operands don't have broadcast-compatible shapes, got 'tensor<2x3xi32>' and 'tensor<2x4xi32>'
// report: 9:6: expected error "operands don't have broadcast-compatible shapes" was not produced

func.func @off_by_one(%a: tensor<2x3xi32>, %b: tensor<2x4xi32>, %s: tensor<1xi8>) -> tensor<2x4xi32> {
  // expected-error @+2 {{operands don't have broadcast-compatible shapes}}
  %0 = tosa.mul %a, %b, %s : (tensor<2x3xi32>, tensor<2x4xi32>, tensor<1xi8>) -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}
