// Custom-form ops of several families in one module; non-TOSA ops and
// comments stay as they are.
module {
  func.func @mixed(%a: tensor<2x1xf32>, %b: tensor<1x3xf32>, %i: tensor<2x3xi8>, %s: tensor<1xi8>) -> (tensor<2x3xf32>, tensor<2x3xi1>, tensor<2x3xi32>) {
    %c = arith.constant dense<1.0> : tensor<2x3xf32>
    %0 = tosa.add %a, %b : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
    %1 = tosa.clamp %0 {min_val = 0.0 : f32, max_val = 6.0 : f32, nan_mode = #tosa.nan_mode<IGNORE>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %2 = tosa.greater %1, %c : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
    %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %3 = tosa.negate %i, %zp, %zp : (tensor<2x3xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x3xi8>
    %4 = tosa.mul %3, %i, %s : (tensor<2x3xi8>, tensor<2x3xi8>, tensor<1xi8>) -> tensor<2x3xi32>
    %5 = tosa.cast %4 : (tensor<2x3xi32>) -> tensor<2x3xf32>
    %6 = tosa.sub %5, %1 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    return %6, %2, %4 : tensor<2x3xf32>, tensor<2x3xi1>, tensor<2x3xi32>
  }
}
