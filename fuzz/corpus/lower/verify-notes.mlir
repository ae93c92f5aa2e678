// bcast's own explanation is a note that mlir-opt does not print: an
// expected-note may match it (here with a regex), and it is not
// "unexpected" when none does (the second op).  mlir-opt fails this file:
// it produces no note.
// bcast: verify --verify-diagnostics --split-input-file

func.func @explained(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // expected-error @+2 {{operands don't have broadcast-compatible shapes}}
  // expected-note-re @+1 {{at broadcast dim 1: operand #0 dim 1 (size 3) is incompatible with operand #1 dim 1 (size 4) [{{tosa}} profile]}}
  %0 = tosa.add %a, %b : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @unexplained(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{operands don't have broadcast-compatible shapes}}
  %0 = tosa.add %a, %b : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
