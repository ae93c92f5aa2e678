// Deliberate mismatch: the error is expected, but a note that nobody
// produces is expected as well.
// bcast: verify --verify-diagnostics --split-input-file
// mlir-opt: --verify-diagnostics --split-input-file
// report: 10:6: expected note "the shapes are fine" was not produced

func.func @note(%a: tensor<5xf32>, %b: tensor<6xf32>) -> tensor<5xf32> {
  %0 = tosa.minimum %a, %b : (tensor<5xf32>, tensor<6xf32>) -> tensor<5xf32>
  // expected-error @above {{'tosa.minimum' op operands don't have broadcast-compatible shapes}}
  // expected-note @-2 {{the shapes are fine}}
  return %0 : tensor<5xf32>
}
