// Constructs bcast does not model must not get a confident verdict: each
// broadcasting op below gets a remark "cannot check: REASON" (and is
// counted as such by --summary; --strict turns it into an error).  Unranked
// operands and results (CHLO accepts them: its inference then gives an
// unranked type), and tokens where a tensor is expected.  Cases written for
// bcast from the StableHLO specification and CHLO's ops
// (openxla/stablehlo at commit 3c9301c11, Apache-2.0 WITH LLVM-exception);
// cases that mirror an upstream test name its file and function.  A token
// or unranked type elsewhere in a file (a function's signature) does not
// stop the checked ops around it.
// Run: bcast verify --verify-diagnostics FILE

// Unranked CHLO operands (valid for CHLO's verifier).
func.func @chlo_unranked(%arg0: tensor<*xf32>, %arg1: tensor<*xf32>) -> tensor<*xf32> {
  // expected-remark @+1 {{cannot check: }}
  %0 = chlo.broadcast_add %arg0, %arg1 : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Unranked operands with broadcast_dimensions.
// mirrors stablehlo/tests/infer_chlo.mlir @broadcast_compare_unranked_reify
func.func @chlo_unranked_dims(%arg0: tensor<*xf32>, %arg1: tensor<*xf32>) -> tensor<*xi1> {
  // expected-remark @+1 {{cannot check: }}
  %0 = chlo.broadcast_compare %arg0, %arg1 {broadcast_dimensions = array<i64: 1>, comparison_direction = #chlo<comparison_direction EQ>} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xi1>
  return %0 : tensor<*xi1>
}

// -----

// One unranked operand, one ranked, a ranked result.
func.func @chlo_one_unranked(%arg0: tensor<*xf32>, %arg1: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-remark @+1 {{cannot check: }}
  %0 = "chlo.broadcast_multiply"(%arg0, %arg1) : (tensor<*xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// A token where broadcast_in_dim expects a tensor.
func.func @token_operand(%arg0: !stablehlo.token) -> tensor<2xf32> {
  // expected-remark @+1 {{cannot check: }}
  %0 = "stablehlo.broadcast_in_dim"(%arg0) {broadcast_dimensions = array<i64>} : (!stablehlo.token) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// A token operand of a CHLO op.
func.func @chlo_token(%arg0: !stablehlo.token, %arg1: tensor<2xf32>) -> tensor<2xf32> {
  // expected-remark @+1 {{cannot check: }}
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
