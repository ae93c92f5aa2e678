// stablehlo.broadcast: broadcast_sizes become leading dims.
func.func @leading(%x: tensor<?x3xi32>) -> tensor<2x?x3xi32> {
  %0 = "stablehlo.broadcast"(%x) {broadcast_sizes = array<i64: 2>} : (tensor<?x3xi32>) -> tensor<2x?x3xi32>
  return %0 : tensor<2x?x3xi32>
}
