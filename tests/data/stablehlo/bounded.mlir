// Bounded dynamism (#stablehlo.bounds): a '?' dim with an upper bound.
// broadcast_in_dim's result is statically shaped or has a single bounded
// dim; CHLO's NumPy rule carries bounds into the inferred type, which must
// be compatible with the result (a static size above a bound is not).
// Cases written for bcast; the expected-error texts are StableHLO's and
// CHLO's own diagnostics, quoted from openxla/stablehlo at commit 3c9301c11
// (StablehloOps.td result constraints, TypeInference.cpp
// verifyBroadcastInDimOp, Base.cpp verifyCompatibleShapeWithBounds, and
// the messages tests/ops_broadcasting.mlir expects from the NumPy
// broadcast of bounded shapes), Apache-2.0 WITH LLVM-exception.  Cases that
// mirror an upstream test name its file and function.
// Run: bcast verify --verify-diagnostics FILE

// A single bounded dim carried from the operand to the result.
// mirrors stablehlo/tests/ops_stablehlo_bounded_dynamism.mlir @broadcast_in_dim_with_single_bounded_dimension
func.func @single_bounded(%arg0: tensor<1x?xf32, #stablehlo.bounds<?, 5>>) -> tensor<2x1x?xf32, #stablehlo.bounds<?, ?, 5>> {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<1x?xf32, #stablehlo.bounds<?, 5>>) -> tensor<2x1x?xf32, #stablehlo.bounds<?, ?, 5>>
  return %0 : tensor<2x1x?xf32, #stablehlo.bounds<?, ?, 5>>
}

// -----

// Two bounded dims in broadcast_in_dim's result.
// mirrors stablehlo/tests/ops_stablehlo_bounded_dynamism.mlir @broadcast_in_dim_with_multiple_bounded_dimensions
func.func @two_bounded(%arg0: tensor<?x?xf32, #stablehlo.bounds<5, 5>>) -> tensor<2x?x?xf32, #stablehlo.bounds<?, 5, 5>> {
  // expected-error @+1 {{result #0 must be statically shaped or single bounded dimension tensor}}
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [1, 2] : (tensor<?x?xf32, #stablehlo.bounds<5, 5>>) -> tensor<2x?x?xf32, #stablehlo.bounds<?, 5, 5>>
  return %0 : tensor<2x?x?xf32, #stablehlo.bounds<?, 5, 5>>
}

// -----

// A scalar splat into a bounded result.
// mirrors stablehlo/tests/ops_stablehlo_bounded_dynamism.mlir @constant_splat_broadcast
func.func @splat_to_bounded(%arg0: tensor<f32>) -> tensor<1x?xf32, #stablehlo.bounds<?, 5>> {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<f32>) -> tensor<1x?xf32, #stablehlo.bounds<?, 5>>
  return %0 : tensor<1x?xf32, #stablehlo.bounds<?, 5>>
}

// -----

// A bounded operand dim into a static result dim: C5 does not check a
// dynamic operand dim.
func.func @bounded_operand_static_result(%arg0: tensor<?xf32, #stablehlo.bounds<10>>) -> tensor<3x4xf32> {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [1] : (tensor<?xf32, #stablehlo.bounds<10>>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// C5 with a bounded result dim: a static operand size other than 1 is not
// equal to the result's dynamic size (StableHLO prints that size as the
// raw value of '?').
func.func @static_operand_bounded_result(%arg0: tensor<5xf32>) -> tensor<2x?xf32, #stablehlo.bounds<?, 8>> {
  // expected-error @+1 {{size of operand dimension 0 (5) is not equal to 1 or size of result dimension 1 (-9223372036854775808)}}
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [1] : (tensor<5xf32>) -> tensor<2x?xf32, #stablehlo.bounds<?, 8>>
  return %0 : tensor<2x?xf32, #stablehlo.bounds<?, 8>>
}

// -----

// CHLO: [<=10] x [] => [<=10].
// mirrors stablehlo/tests/infer_chlo.mlir @bounded_dynamic_broadcast_scalar
func.func @chlo_bounded_scalar(%arg0: tensor<?xf64, #stablehlo.bounds<10>>, %arg1: tensor<f64>) -> tensor<?xf64, #stablehlo.bounds<10>> {
  %0 = chlo.broadcast_add %arg0, %arg1 : (tensor<?xf64, #stablehlo.bounds<10>>, tensor<f64>) -> tensor<?xf64, #stablehlo.bounds<10>>
  return %0 : tensor<?xf64, #stablehlo.bounds<10>>
}

// -----

// CHLO: [<=10] x [1] => [<=10], into a result of static size within the
// bound.
func.func @chlo_bounded_within(%arg0: tensor<?xf64, #stablehlo.bounds<10>>, %arg1: tensor<1xf64>) -> tensor<7xf64> {
  %0 = chlo.broadcast_add %arg0, %arg1 : (tensor<?xf64, #stablehlo.bounds<10>>, tensor<1xf64>) -> tensor<7xf64>
  return %0 : tensor<7xf64>
}

// -----

// CHLO: a static result size above the inferred bound is incompatible.
func.func @chlo_bounded_exceeded(%arg0: tensor<?xf64, #stablehlo.bounds<10>>, %arg1: tensor<1xf64>) -> tensor<12xf64> {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{are incompatible with return type(s) of operation 'tensor<12xf64>'}}
  %0 = chlo.broadcast_add %arg0, %arg1 : (tensor<?xf64, #stablehlo.bounds<10>>, tensor<1xf64>) -> tensor<12xf64>
  return %0 : tensor<12xf64>
}

// -----

// CHLO: [<=10] x [?] => [?]: an unbounded dynamic operand makes the rule
// the plain dynamic one.
// mirrors stablehlo/tests/infer_chlo.mlir @bounded_dynamic_broadcast_unbounded
!bounded_type = tensor<?xf64, #stablehlo.bounds<10>>
!unbounded_type = tensor<?xf64>
func.func @chlo_bounded_unbounded(%arg0: !bounded_type, %arg1: !unbounded_type) -> !unbounded_type {
  %0 = chlo.broadcast_add %arg0, %arg1 : (!bounded_type, !unbounded_type) -> !unbounded_type
  return %0 : !unbounded_type
}

// -----

// CHLO: a static 10 and a bounded dim cannot be broadcast together; the
// error comes from CHLO's type inference, which then infers an unranked
// result (so no second error).
func.func @chlo_bounded_static_mix(%arg0: tensor<10xf64>, %arg1: tensor<?xf64, #stablehlo.bounds<10>>) -> tensor<10xf64> {
  // stablehlo-opt reports it at the second operand's definition (here the
  // function line); bcast, which does not track definitions, at the op.
  // expected-error @+1 {{cannot mix bounded and static dimensions in broadcast}}
  %0 = chlo.broadcast_add %arg0, %arg1 : (tensor<10xf64>, tensor<?xf64, #stablehlo.bounds<10>>) -> tensor<10xf64>
  return %0 : tensor<10xf64>
}

// -----

// CHLO: broadcast_select with bounded branches.
// mirrors stablehlo/tests/infer_chlo.mlir @broadcast_select_types_bounded
!bounded_type = tensor<?xf64, #stablehlo.bounds<10>>
func.func @chlo_select_bounded(%arg0: tensor<i1>, %arg1: !bounded_type, %arg2: !bounded_type) -> !bounded_type {
  %0 = "chlo.broadcast_select"(%arg0, %arg1, %arg2) : (tensor<i1>, !bounded_type, !bounded_type) -> !bounded_type
  return %0: !bounded_type
}
