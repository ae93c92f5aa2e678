// --strict makes "cannot check" an error; --chlo-rule xla judges CHLO's
// broadcast_dimensions by XLA's rule; --no-dialect stablehlo leaves
// StableHLO's ops unchecked (the invalid one below passes unseen).
// bcast: verify --strict --chlo-rule xla --no-dialect stablehlo --verify-diagnostics

func.func @chlo_strict(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{invalid broadcast_dimensions = array<i64: 1>}}
  %0 = chlo.broadcast_add %a, %b {broadcast_dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // expected-error @+1 {{cannot check: tensor encoding '#my.layout'}}
  %1 = chlo.broadcast_add %a, %c : (tensor<2x3xf32>, tensor<3xf32, #my.layout>) -> tensor<2x3xf32>
  %2 = stablehlo.broadcast_in_dim %b, dims = [0] : (tensor<2x3xf32>) -> tensor<9xf32>
  return %0 : tensor<2x3xf32>
}
