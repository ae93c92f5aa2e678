// StableHLO's pretty forms and a type alias, as engineers write them.
!t = tensor<?x3xf32>
func.func @pretty(%x: !t, %s: tensor<3xi32>) -> tensor<?x?x3xf32> {
  %0 = stablehlo.dynamic_broadcast_in_dim %x, %s, dims = [1, 2] : (!t, tensor<3xi32>) -> tensor<?x?x3xf32>
  return %0 : tensor<?x?x3xf32>
}
func.func @sizes(%x: tensor<3xi32>) -> tensor<2x1x3xi32> {
  %0 = stablehlo.broadcast %x, sizes = [2, 1] : (tensor<3xi32>) -> tensor<2x1x3xi32>
  return %0 : tensor<2x1x3xi32>
}
func.func @chlo(%a: tensor<?x3xf32>, %b: tensor<f32>) -> tensor<?x3xf32> {
  %0 = chlo.broadcast_maximum %a, %b : (tensor<?x3xf32>, tensor<f32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
