// bcast-lower-flags: --assert-broadcast
// CHLO's broadcasting ops: NumPy-style rank expansion, broadcast_dimensions
// placing the lower-rank operand, and compare's predicates.
func.func @add(%a: tensor<?x3xf32>, %b: tensor<3xf32>) -> tensor<?x3xf32> {
  %0 = "chlo.broadcast_add"(%a, %b) : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
func.func @sub_dims(%a: tensor<?x3xi32>, %b: tensor<?xi32>) -> tensor<?x3xi32> {
  %0 = "chlo.broadcast_subtract"(%a, %b) {broadcast_dimensions = array<i64: 0>} : (tensor<?x3xi32>, tensor<?xi32>) -> tensor<?x3xi32>
  return %0 : tensor<?x3xi32>
}
func.func @lt_unsigned(%a: tensor<4xi32>, %b: tensor<1xi32>) -> tensor<4xi1> {
  %0 = "chlo.broadcast_compare"(%a, %b) {comparison_direction = #chlo<comparison_direction LT>, compare_type = #chlo<comparison_type UNSIGNED>} : (tensor<4xi32>, tensor<1xi32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}
