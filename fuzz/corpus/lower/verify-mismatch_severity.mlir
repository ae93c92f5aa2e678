// Deliberate mismatch: the message is right but the severity is not.
// bcast: verify --verify-diagnostics --split-input-file
// mlir-opt: --verify-diagnostics --split-input-file
// report: 8:6: 'error' diagnostic emitted when expecting a 'warning'
// report: 8:6: expected warning "operands don't have broadcast-compatible shapes" was not produced

func.func @severity(%a: tensor<5xf32>, %b: tensor<6xf32>) -> tensor<5xf32> {
  // expected-warning @below {{operands don't have broadcast-compatible shapes}}
  %0 = tosa.pow %a, %b : (tensor<5xf32>, tensor<6xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}
