// stablehlo.broadcast_in_dim: a static expansion through a transposing map,
// a dynamic operand dim that may expand at run time, and a plain broadcast.
func.func @transpose_expand(%x: tensor<1x3xi32>) -> tensor<2x3x2xi32> {
  %0 = "stablehlo.broadcast_in_dim"(%x) {broadcast_dimensions = array<i64: 2, 1>} : (tensor<1x3xi32>) -> tensor<2x3x2xi32>
  return %0 : tensor<2x3x2xi32>
}
func.func @runtime_expand(%x: tensor<?x3xf32>) -> tensor<2x4x3xf32> {
  %0 = "stablehlo.broadcast_in_dim"(%x) {broadcast_dimensions = array<i64: 1, 2>} : (tensor<?x3xf32>) -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}
func.func @plain(%x: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = "stablehlo.broadcast_in_dim"(%x) {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
