// Deliberate mismatch: malformed regex annotations.  Both are reported at
// the annotation, first, as the file is read; the errors they meant to
// match are then unexpected.
// mlir-opt fails the file too, but words the regex error its own way.
// bcast: verify --verify-diagnostics --split-input-file
// mlir-opt: --verify-diagnostics --split-input-file
// report-bcast: 13:6: invalid regex: ...
// report-bcast: 21:6: found start of regex with no end '}}'
// report-bcast: 14:8: unexpected error: 'tosa.add' op operands don't have broadcast-compatible shapes
// report-bcast: 22:8: unexpected error: 'tosa.sub' op operands don't have broadcast-compatible shapes

func.func @bad_class(%a: tensor<3xf32>, %b: tensor<4xf32>) -> tensor<3xf32> {
  // expected-error-re @+1 {{operands don't have {{[a-z}} shapes}}
  %0 = tosa.add %a, %b : (tensor<3xf32>, tensor<4xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @unterminated(%a: tensor<3xf32>, %b: tensor<4xf32>) -> tensor<3xf32> {
  // expected-error-re @+1 {{operands {{don't}} have {{broadcast-compatible shapes}}
  %0 = tosa.sub %a, %b : (tensor<3xf32>, tensor<4xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
