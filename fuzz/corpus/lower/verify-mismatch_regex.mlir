// Deliberate mismatch: a regex that does not match the message (the shapes
// are printed with digits, not letters).
// bcast: verify --profile mlir --verify-diagnostics --split-input-file
// mlir-opt: --verify-diagnostics --split-input-file
// report: 10:8: unexpected error: 'test.broadcastable' op result type '4x3' not broadcast compatible with broadcasted operands's shapes '4x2'
// report: 9:6: expected error "result type '{{[a-z]+}}' not broadcast compatible" was not produced

func.func @regex(%a: tensor<4x2xi32>, %b: tensor<1x2xi32>) -> tensor<4x3xi32> {
  // expected-error-re @+1 {{result type '{{[a-z]+}}' not broadcast compatible}}
  %0 = "test.broadcastable"(%a, %b) : (tensor<4x2xi32>, tensor<1x2xi32>) -> tensor<4x3xi32>
  return %0 : tensor<4x3xi32>
}
