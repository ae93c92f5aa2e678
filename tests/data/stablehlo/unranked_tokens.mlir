// Unranked tensors and tokens, as StableHLO's and CHLO's verifiers judge
// them.  CHLO's ops take unranked tensors: their type inference then gives
// an unranked result, which every result type matches, with or without
// broadcast_dimensions (ChloOps.cpp getNumpyBroadcastType,
// getBroadcastTypeWithBroadcastDimensions).  A token is not a tensor: the
// ops' operand type constraints reject it (ODS: broadcast_in_dim's operand
// is a ranked tensor, a CHLO op's a tensor of any rank; the texts "ranked
// tensor of ... values" and "tensor of ... values" are MLIR 22's for those
// constraints).  A token elsewhere in a function does not stop the checked
// ops around it.  Cases written for bcast; sources: openxla/stablehlo at
// commit 3c9301c11 (ChloOps.cpp, Base.td, StablehloOps.td, TypeInference.cpp),
// Apache-2.0 WITH LLVM-exception.  Cases that mirror an upstream test name
// its file and function.
// Run: bcast verify --verify-diagnostics FILE

// Unranked CHLO operands and result.
func.func @chlo_unranked(%arg0: tensor<*xf32>, %arg1: tensor<*xf32>) -> tensor<*xf32> {
  %0 = chlo.broadcast_add %arg0, %arg1 : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Unranked operands with broadcast_dimensions.
// mirrors stablehlo/tests/infer_chlo.mlir @broadcast_compare_unranked_reify
func.func @chlo_unranked_dims(%arg0: tensor<*xf32>, %arg1: tensor<*xf32>) -> tensor<*xi1> {
  %0 = chlo.broadcast_compare %arg0, %arg1 {broadcast_dimensions = array<i64: 1>, comparison_direction = #chlo<comparison_direction EQ>} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xi1>
  return %0 : tensor<*xi1>
}

// -----

// One unranked operand makes any ranked result match.
func.func @chlo_one_unranked(%arg0: tensor<*xf32>, %arg1: tensor<2x3xf32>) -> tensor<5xf32> {
  %0 = "chlo.broadcast_multiply"(%arg0, %arg1) : (tensor<*xf32>, tensor<2x3xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

// Unranked operands still meet the element-type rule.
func.func @chlo_unranked_element_type(%arg0: tensor<*xf32>, %arg1: tensor<*xf64>) -> tensor<*xf32> {
  // expected-error @+1 {{'chlo.broadcast_atan2' op requires the same element type for all operands and results}}
  %0 = chlo.broadcast_atan2 %arg0, %arg1 : (tensor<*xf32>, tensor<*xf64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// A token where broadcast_in_dim expects a ranked tensor.
func.func @token_operand(%arg0: !stablehlo.token) -> tensor<2xf32> {
  // expected-error @+1 {{'stablehlo.broadcast_in_dim' op operand #0 must be ranked tensor of}}
  %0 = "stablehlo.broadcast_in_dim"(%arg0) {broadcast_dimensions = array<i64>} : (!stablehlo.token) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// A token operand of a CHLO op.
func.func @chlo_token(%arg0: !stablehlo.token, %arg1: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'chlo.broadcast_add' op operand #0 must be tensor of}}
  %0 = "chlo.broadcast_add"(%arg0, %arg1) : (!stablehlo.token, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// Tokens in the signature around checked ops: the ops are judged as usual.
func.func @token_signature(%arg0: tensor<3xf32>, %tok: !stablehlo.token) -> (tensor<2x3xf32>, !stablehlo.token) {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  // expected-error @+1 {{size of operand dimension 0 (3) is not equal to 1 or size of result dimension 0 (2)}}
  %1 = stablehlo.broadcast_in_dim %arg0, dims = [0] : (tensor<3xf32>) -> tensor<2x3xf32>
  return %0, %tok : tensor<2x3xf32>, !stablehlo.token
}
