// Deliberate mismatch: a failing op without an annotation, in the second
// chunk; the first chunk's annotation is matched.
// bcast: verify --verify-diagnostics --split-input-file
// mlir-opt: --verify-diagnostics --split-input-file
// report: 17:8: unexpected error: 'test.broadcastable' op operands don't have broadcast-compatible shapes

func.func @expected(%a: tensor<3xi32>, %b: tensor<2xi32>) -> tensor<3xi32> {
  // expected-error @+1 {{operands don't have broadcast-compatible shapes}}
  %0 = "test.broadcastable"(%a, %b) : (tensor<3xi32>, tensor<2xi32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

func.func @unexpected(%a: tensor<3xi32>, %b: tensor<2xi32>) -> tensor<3xi32> {
  // The error is on the next line, but nothing expects it.
  %0 = "test.broadcastable"(%a, %b) : (tensor<3xi32>, tensor<2xi32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}
