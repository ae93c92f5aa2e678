// stablehlo.broadcast_in_dim against the StableHLO specification's
// constraints C1-C6 (docs/spec.md, "broadcast_in_dim"), generic and pretty
// forms.  Cases written for bcast; the expected-error texts are StableHLO's
// own diagnostics, quoted from openxla/stablehlo at commit 3c9301c11
// (stablehlo/dialect/TypeInference.cpp verifyBroadcastInDimOp, the
// CompatibleOperandsAndResultElementType trait of Base.h, and the ODS
// result constraint of StablehloOps.td), Apache-2.0 WITH LLVM-exception.
// Cases that mirror an upstream test name its file and function.
// Run: bcast verify --verify-diagnostics FILE

// The specification's example (dims = [2, 1] transposes and expands).
func.func @spec_example(%arg0: tensor<1x3xi32>) -> tensor<2x3x2xi32> {
  %0 = "stablehlo.broadcast_in_dim"(%arg0) {broadcast_dimensions = array<i64: 2, 1>} : (tensor<1x3xi32>) -> tensor<2x3x2xi32>
  func.return %0 : tensor<2x3x2xi32>
}

// -----

// The same op in the pretty form.
func.func @spec_example_pretty(%arg0: tensor<1x3xi32>) -> tensor<2x3x2xi32> {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [2, 1] : (tensor<1x3xi32>) -> tensor<2x3x2xi32>
  return %0 : tensor<2x3x2xi32>
}

// -----

// mirrors stablehlo/tests/ops_stablehlo.mlir @broadcast_in_dim
func.func @broadcast_in_dim(%arg0: tensor<1x2xi32>) -> tensor<1x2x2xi32> {
  %0 = "stablehlo.broadcast_in_dim"(%arg0) {broadcast_dimensions = array<i64: 1, 2>} : (tensor<1x2xi32>) -> tensor<1x2x2xi32>
  func.return %0 : tensor<1x2x2xi32>
}

// -----

// C1: the element type is kept (no quantization involved).
func.func @c1_element_type(%arg0: tensor<3xi32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'stablehlo.broadcast_in_dim' op requires compatible element types for all operands and results}}
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [1] : (tensor<3xi32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// C2: size(broadcast_dimensions) = rank(operand).
// mirrors stablehlo/tests/ops_stablehlo.mlir @broadcast_in_dim_c2
func.func @c2_too_few(%arg0: tensor<1x2xi32>) -> tensor<1x2x3xi32> {
  // expected-error @+1 {{broadcast_dimensions size (1) does not match operand rank (2)}}
  %0 = "stablehlo.broadcast_in_dim"(%arg0) {broadcast_dimensions = array<i64: 1>} : (tensor<1x2xi32>) -> tensor<1x2x3xi32>
  func.return %0 : tensor<1x2x3xi32>
}

// -----

// C2: too many entries, pretty form.
func.func @c2_too_many(%arg0: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{broadcast_dimensions size (2) does not match operand rank (1)}}
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// C2: a rank-0 operand takes no dims (splat).
func.func @c2_scalar(%arg0: tensor<f32>) -> tensor<2x3xf32> {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// C3: 0 <= broadcast_dimensions (a negative entry).
// mirrors stablehlo/tests/ops_stablehlo.mlir @broadcast_in_dim_c3
func.func @c3_negative(%arg0: tensor<3xi32>) -> tensor<2x3xi32> {
  // expected-error @+1 {{broadcast_dimensions contains invalid value -1 for result with rank 2}}
  %0 = "stablehlo.broadcast_in_dim"(%arg0) {broadcast_dimensions = array<i64: -1>} : (tensor<3xi32>) -> tensor<2x3xi32>
  func.return %0 : tensor<2x3xi32>
}

// -----

// C3: broadcast_dimensions < rank(result); the entry after a valid one.
func.func @c3_too_large(%arg0: tensor<1x2xi32>) -> tensor<1x2x2xi32> {
  // expected-error @+1 {{broadcast_dimensions contains invalid value 3 for result with rank 3}}
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 3] : (tensor<1x2xi32>) -> tensor<1x2x2xi32>
  return %0 : tensor<1x2x2xi32>
}

// -----

// C3: the result rank is smaller than the operand's.
// mirrors stablehlo/tests/ops_stablehlo.mlir @broadcast_in_dim_c3 (the second)
func.func @c3_result_rank(%arg0: tensor<1x2x3xi32>) -> tensor<3xi32> {
  // expected-error @+1 {{broadcast_dimensions contains invalid value 1 for result with rank 1}}
  %0 = "stablehlo.broadcast_in_dim"(%arg0) {broadcast_dimensions = array<i64: 0, 1, 2>} : (tensor<1x2x3xi32>) -> tensor<3xi32>
  func.return %0 : tensor<3xi32>
}

// -----

// C4: is_unique(broadcast_dimensions).
// mirrors stablehlo/tests/ops_stablehlo.mlir @broadcast_in_dim_c4
func.func @c4_duplicates(%arg0: tensor<1x1x3xi32>) -> tensor<1x2x3xi32> {
  // expected-error @+1 {{broadcast_dimensions should not have duplicates}}
  %0 = "stablehlo.broadcast_in_dim"(%arg0) {broadcast_dimensions = array<i64: 0, 0, 2>} : (tensor<1x1x3xi32>) -> tensor<1x2x3xi32>
  func.return %0 : tensor<1x2x3xi32>
}

// -----

// C4 is checked before C3: duplicated out-of-range entries report the
// duplicates.
func.func @c4_before_c3(%arg0: tensor<1x1xi32>) -> tensor<2x3xi32> {
  // expected-error @+1 {{broadcast_dimensions should not have duplicates}}
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [5, 5] : (tensor<1x1xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

// C5: dim(operand, d) = 1 or dim(result, broadcast_dimensions[d]).
func.func @c5_mismatch(%arg0: tensor<2x3xi32>) -> tensor<2x4xi32> {
  // expected-error @+1 {{size of operand dimension 1 (3) is not equal to 1 or size of result dimension 1 (4)}}
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<2x3xi32>) -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}

// -----

// C5: the operand's dim maps onto a result dim of another size.
// mirrors stablehlo/tests/ops_stablehlo.mlir @broadcast_in_dim_c5
func.func @c5_mapped_dim(%arg0: tensor<3xi32>) -> tensor<1x2x3xi32> {
  // expected-error @+1 {{size of operand dimension 0 (3) is not equal to 1 or size of result dimension 1 (2)}}
  %0 = "stablehlo.broadcast_in_dim"(%arg0) {broadcast_dimensions = array<i64: 1>} : (tensor<3xi32>) -> tensor<1x2x3xi32>
  func.return %0 : tensor<1x2x3xi32>
}

// -----

// C5: a size-1 dim expands; a transposition is allowed.
func.func @c5_expand_transpose(%arg0: tensor<1x3xf32>, %arg1: tensor<2x3xf32>) -> (tensor<5x3xf32>, tensor<3x2xf32>) {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<1x3xf32>) -> tensor<5x3xf32>
  %1 = stablehlo.broadcast_in_dim %arg1, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0, %1 : tensor<5x3xf32>, tensor<3x2xf32>
}

// -----

// C5: a dynamic operand dim is not checked against the result.
// mirrors stablehlo/tests/ops_stablehlo.mlir @broadcast_in_dim_dynamic_shaped_operand
func.func @c5_dynamic_operand(%arg0 : tensor<?xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.broadcast_in_dim"(%arg0) {
    broadcast_dimensions = array<i64: 0>
  } : (tensor<?xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// C5: a dynamic operand dim, pretty form, into a new leading dim of 1.
// mirrors stablehlo/tests/ops_stablehlo.mlir @broadcast_in_dim_dynamic_i1
func.func @c5_dynamic_pretty(%arg0: tensor<?xi32>) -> tensor<1x3xi32> {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [1] : (tensor<?xi32>) -> tensor<1x3xi32>
  return %0 : tensor<1x3xi32>
}

// -----

// C5: a size-0 dim equals a size-0 result dim ...
func.func @c5_zero(%arg0: tensor<0xf32>) -> tensor<2x0xf32> {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [1] : (tensor<0xf32>) -> tensor<2x0xf32>
  return %0 : tensor<2x0xf32>
}

// -----

// C5: ... but is not 1: it does not expand.
func.func @c5_zero_does_not_expand(%arg0: tensor<0xf32>) -> tensor<2x1xf32> {
  // expected-error @+1 {{size of operand dimension 0 (0) is not equal to 1 or size of result dimension 1 (1)}}
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [1] : (tensor<0xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

// C2 is checked before C5.
func.func @c2_before_c5(%arg0: tensor<2x3xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{broadcast_dimensions size (1) does not match operand rank (2)}}
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [0] : (tensor<2x3xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// The result is statically shaped (or has a single bounded dim): an
// unbounded '?' is rejected by the op's result type constraint.
// mirrors stablehlo/tests/ops_stablehlo.mlir @broadcast_in_dim_dynamic_result
func.func @result_not_static(%arg0: tensor<3xi32>) -> tensor<?x3xi32> {
  // expected-error @+1 {{must be statically shaped or single bounded dimension tensor}}
  %0 = "stablehlo.broadcast_in_dim"(%arg0) {broadcast_dimensions = array<i64: 1>} : (tensor<3xi32>) -> tensor<?x3xi32>
  func.return %0 : tensor<?x3xi32>
}

// -----

// Two broadcasts in one function, one failing: the error is on its line.
func.func @two_ops(%arg0: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3x3xf32>) {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  // expected-error @+1 {{size of operand dimension 0 (3) is not equal to 1 or size of result dimension 0 (2)}}
  %1 = stablehlo.broadcast_in_dim %arg0, dims = [0] : (tensor<3xf32>) -> tensor<2x3xf32>
  %2 = stablehlo.broadcast_in_dim %arg0, dims = [0] : (tensor<3xf32>) -> tensor<3x3xf32>
  return %0, %2 : tensor<2x3xf32>, tensor<3x3xf32>
}
