// bcast-lower-flags: --assert-broadcast
// stablehlo.dynamic_broadcast_in_dim: sizes from output_dimensions (i64,
// cast to index; index as is), known_expanding / known_nonexpanding
// dimensions, and the runtime checks of --assert-broadcast.
func.func @from_i64(%x: tensor<?x3xf32>, %s: tensor<3xi64>) -> tensor<?x?x3xf32> {
  %0 = "stablehlo.dynamic_broadcast_in_dim"(%x, %s) {broadcast_dimensions = array<i64: 1, 2>} : (tensor<?x3xf32>, tensor<3xi64>) -> tensor<?x?x3xf32>
  return %0 : tensor<?x?x3xf32>
}
func.func @known(%x: tensor<?x?xf32>, %s: tensor<3xindex>) -> tensor<?x?x?xf32> {
  %0 = "stablehlo.dynamic_broadcast_in_dim"(%x, %s) {broadcast_dimensions = array<i64: 0, 2>, known_expanding_dimensions = array<i64: 0>, known_nonexpanding_dimensions = array<i64: 1>} : (tensor<?x?xf32>, tensor<3xindex>) -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}
