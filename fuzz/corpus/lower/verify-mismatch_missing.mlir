// Deliberate mismatch: an expected error that the op does not produce.
// bcast: verify --verify-diagnostics --split-input-file
// mlir-opt: --verify-diagnostics --split-input-file
// report: 8:6: expected error "operands don't have broadcast-compatible shapes" was not produced

func.func @fine(%a: tensor<4x1xf32>, %b: tensor<1x7xf32>) -> tensor<4x7xf32> {
  // This op is valid.
  // expected-error @+1 {{operands don't have broadcast-compatible shapes}}
  %0 = tosa.add %a, %b : (tensor<4x1xf32>, tensor<1x7xf32>) -> tensor<4x7xf32>
  return %0 : tensor<4x7xf32>
}
