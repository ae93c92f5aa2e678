// stablehlo.broadcast: broadcast_sizes become new leading dims, the
// operand's dims follow unchanged (the op is not in the current
// specification; its rule is StableHLO's type inference).  Cases written for
// bcast; the expected-error texts are StableHLO's own diagnostics, quoted
// from openxla/stablehlo at commit 3c9301c11 (stablehlo/dialect/
// TypeInference.cpp inferBroadcastOp, MLIR's InferTypeOpInterface messages
// as StableHLO's tests expect them), Apache-2.0 WITH LLVM-exception.  Cases
// that mirror an upstream test name its file and function.
// Run: bcast verify --verify-diagnostics FILE

// mirrors stablehlo/tests/ops_stablehlo.mlir @broadcast
func.func @broadcast(%arg0: tensor<3xi32>) -> tensor<1x2x3xi32> {
  %0 = "stablehlo.broadcast"(%arg0) {broadcast_sizes = array<i64: 1, 2>} : (tensor<3xi32>) -> tensor<1x2x3xi32>
  func.return %0 : tensor<1x2x3xi32>
}

// -----

// The pretty form.
func.func @pretty(%arg0: tensor<3xi32>) -> tensor<1x2x3xi32> {
  %0 = stablehlo.broadcast %arg0, sizes = [1, 2] : (tensor<3xi32>) -> tensor<1x2x3xi32>
  return %0 : tensor<1x2x3xi32>
}

// -----

// No new dims; a new dim of size 0.
func.func @empty_and_zero(%arg0: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<0x2x3xf32>) {
  %0 = stablehlo.broadcast %arg0, sizes = [] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = stablehlo.broadcast %arg0, sizes = [0] : (tensor<2x3xf32>) -> tensor<0x2x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<0x2x3xf32>
}

// -----

// A dynamic operand dim stays dynamic; a '?' in the result is compatible
// with the inferred size and a static size with an inferred '?'.
func.func @dynamic(%arg0: tensor<?xi32>, %arg1: tensor<3xi32>) -> (tensor<1x2x?xi32>, tensor<1x2x4xi32>, tensor<?x2x3xi32>) {
  %0 = stablehlo.broadcast %arg0, sizes = [1, 2] : (tensor<?xi32>) -> tensor<1x2x?xi32>
  %1 = stablehlo.broadcast %arg0, sizes = [1, 2] : (tensor<?xi32>) -> tensor<1x2x4xi32>
  %2 = stablehlo.broadcast %arg1, sizes = [1, 2] : (tensor<3xi32>) -> tensor<?x2x3xi32>
  return %0, %1, %2 : tensor<1x2x?xi32>, tensor<1x2x4xi32>, tensor<?x2x3xi32>
}

// -----

// The result rank is rank(operand) + size(broadcast_sizes).
// mirrors stablehlo/tests/ops_stablehlo.mlir @broadcast_bad_result_rank
func.func @bad_result_rank(%arg0: tensor<3xi32>) -> tensor<1x2x3xi32> {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'stablehlo.broadcast' op inferred type(s) 'tensor<2x3xi32>' are incompatible with return type(s) of operation 'tensor<1x2x3xi32>'}}
  %0 = "stablehlo.broadcast"(%arg0) {broadcast_sizes = array<i64: 2>} : (tensor<3xi32>) -> tensor<1x2x3xi32>
  func.return %0 : tensor<1x2x3xi32>
}

// -----

// The new dims are broadcast_sizes.
// mirrors stablehlo/tests/ops_stablehlo.mlir @broadcast_bad_first_part_result_shape
func.func @bad_new_dims(%arg0: tensor<3xi32>) -> tensor<1x3xi32> {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'stablehlo.broadcast' op inferred type(s) 'tensor<2x3xi32>' are incompatible with return type(s) of operation 'tensor<1x3xi32>'}}
  %0 = stablehlo.broadcast %arg0, sizes = [2] : (tensor<3xi32>) -> tensor<1x3xi32>
  return %0 : tensor<1x3xi32>
}

// -----

// The operand's dims are kept as they are: no size-1 expansion.
// mirrors stablehlo/tests/ops_stablehlo.mlir @broadcast_bad_second_part_result_shape
func.func @bad_operand_dims(%arg0: tensor<1xi32>) -> tensor<2x3xi32> {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'stablehlo.broadcast' op inferred type(s) 'tensor<2x1xi32>' are incompatible with return type(s) of operation 'tensor<2x3xi32>'}}
  %0 = stablehlo.broadcast %arg0, sizes = [2] : (tensor<1xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

// A negative size: inference itself fails.
// mirrors stablehlo/tests/infer_stablehlo.mlir @broadcast (the second)
func.func @negative_size(%arg0: tensor<3xi32>) -> tensor<1x2x3xi32> {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{Broadcast with negative dimension size -2}}
  %0 = "stablehlo.broadcast"(%arg0) {broadcast_sizes = array<i64: 1, -2>}
      : (tensor<3xi32>) -> tensor<1x2x3xi32>
  func.return %0 : tensor<1x2x3xi32>
}

// -----

// The element type is kept.
func.func @element_type(%arg0: tensor<3xi32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'stablehlo.broadcast' op requires the same element type for all operands and results}}
  %0 = stablehlo.broadcast %arg0, sizes = [2] : (tensor<3xi32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
