// TOSA element-wise ops as MLIR 22's TOSA dialect checks them.
func.func @tosa_examples(%a: tensor<1x3xf32>, %b: tensor<2x3xf32>, %c: tensor<3xf32>,
                         %p: tensor<2x1xi1>, %s: tensor<1xi8>) -> tensor<2x3xf32> {
  %0 = tosa.add %a, %b : (tensor<1x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // TOSA does not add leading 1s: ranks must match.
  %1 = tosa.sub %b, %c : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %2 = "tosa.select"(%p, %0, %a) : (tensor<2x1xi1>, tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  // Results are never broadcast.
  %3 = tosa.maximum %a, %a : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %4 = tosa.mul %0, %b, %s : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<1xi8>) -> tensor<2x3xf32>
  return %4 : tensor<2x3xf32>
}
