// CHLO's broadcasting ops as CHLO's verifier and type inference judge them
// (stablehlo/dialect/ChloOps.cpp): the result must be compatible with the
// type inferred by NumPy's rule, or by broadcast_dimensions when given.
// Where inference gives up (illegal broadcast_dimensions; incompatible dims
// when some operand is dynamic and unbounded) it infers an unranked type,
// which every result matches: CHLO accepts those ops, where XLA's rule
// would not.  With only static or bounded operands the NumPy broadcast
// reports incompatible dims itself, at the location of the operand that
// does not broadcast with the ones before it (stablehlo/transforms/
// StablehloBroadcastLowering.cpp getNumpyBroadcastShape).
// Element types: broadcast_add's operands and result are compatible (equal,
// or quantized alike), broadcast_atan2's equal, broadcast_complex's and
// broadcast_select's operands alike.  Cases written for bcast; the
// expected-error texts are CHLO's own diagnostics, quoted from
// openxla/stablehlo at commit 3c9301c11 (ChloOps.cpp, Base.h, the messages
// of MLIR's InferTypeOpInterface and SameOperandsAndResultElementType as
// StableHLO's tests expect them, and tests/ops_broadcasting.mlir for the
// NumPy broadcast's), Apache-2.0 WITH LLVM-exception.  Cases that mirror
// an upstream test name its file and function.
// Run: bcast verify --verify-diagnostics FILE

// NumPy's rule: prefix padding, size-1 dims expand.
func.func @numpy(%arg0: tensor<2x3xf32>, %arg1: tensor<3xf32>, %arg2: tensor<2x1xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = chlo.broadcast_add %arg0, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = "chlo.broadcast_multiply"(%arg2, %arg1) : (tensor<2x1xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// Explicit broadcast_dimensions map the lower-rank operand's dims.
// mirrors stablehlo/tests/infer_chlo.mlir @broadcast_add_different_operand_size
func.func @explicit_dims(%arg1: tensor<1xi32>, %arg2: tensor<1x2xi32>) -> tensor<1x2xi32> {
  %0 = "chlo.broadcast_add"(%arg1, %arg2) {broadcast_dimensions = array<i64: 1>} : (tensor<1xi32>, tensor<1x2xi32>) -> tensor<1x2xi32>
  return %0: tensor<1x2xi32>
}

// -----

// A legal broadcast whose result differs from the inferred shape.
func.func @result_mismatch(%arg0: tensor<2x3xf32>, %arg1: tensor<3xf32>) -> tensor<2x4xf32> {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'chlo.broadcast_add' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<2x4xf32>'}}
  %0 = chlo.broadcast_add %arg0, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// The same with explicit broadcast_dimensions, pretty form.
func.func @result_mismatch_dims(%arg0: tensor<3xf32>, %arg1: tensor<2x3xf32>) -> tensor<2x4xf32> {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'chlo.broadcast_subtract' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<2x4xf32>'}}
  %0 = chlo.broadcast_subtract %arg0, %arg1 {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// Static dims that do not broadcast: the NumPy broadcast's error from
// CHLO's type inference, which then infers an unranked result (so no
// second error).
func.func @static_incompatible(%arg0: tensor<10xf64>, %arg1: tensor<5xf64>) -> tensor<10xf64> {
  // stablehlo-opt reports it at the second operand's definition (here the
  // function line); bcast, which does not track definitions, at the op.
  // expected-error @+1 {{incompatible shapes for broadcasting 10 and 5}}
  %0 = chlo.broadcast_add %arg0, %arg1 : (tensor<10xf64>, tensor<5xf64>) -> tensor<10xf64>
  return %0 : tensor<10xf64>
}

// -----

// Lenient: broadcast_dimensions of the wrong length (operands of equal
// rank take none) make the inferred type unranked; any result matches.
// mirrors stablehlo/tests/ops_chlo_roundtrip.mlir @chlo_broadcast_compare
func.func @lenient_dims_length(%arg0: tensor<2x3x4xf64>, %arg1: tensor<2x3x4xf64>) -> tensor<2x3x4xi1> {
  %0 = chlo.broadcast_compare %arg0, %arg1 {comparison_direction = #chlo<comparison_direction LT>, broadcast_dimensions = array<i64: 1>} : (tensor<2x3x4xf64>, tensor<2x3x4xf64>) -> tensor<2x3x4xi1>
  return %0 : tensor<2x3x4xi1>
}

// -----

// Lenient: broadcast_dimensions mapping a dim onto one of another size.
func.func @lenient_dims_size(%arg0: tensor<2xf32>, %arg1: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = chlo.broadcast_add %arg0, %arg1 {broadcast_dimensions = array<i64: 1>} : (tensor<2xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Lenient: broadcast_dimensions out of range.
func.func @lenient_dims_range(%arg0: tensor<3xf32>, %arg1: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "chlo.broadcast_maximum"(%arg0, %arg1) {broadcast_dimensions = array<i64: 5>} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Lenient: incompatible static dims next to an unbounded dynamic operand
// dim; not even the result's rank is checked.
func.func @lenient_dynamic(%arg0: tensor<?x2xf32>, %arg1: tensor<?x3xf32>) -> (tensor<?x?xf32>, tensor<7xf32>) {
  %0 = chlo.broadcast_add %arg0, %arg1 : (tensor<?x2xf32>, tensor<?x3xf32>) -> tensor<?x?xf32>
  %1 = chlo.broadcast_add %arg0, %arg1 : (tensor<?x2xf32>, tensor<?x3xf32>) -> tensor<7xf32>
  return %0, %1 : tensor<?x?xf32>, tensor<7xf32>
}

// -----

// A dynamic dim against a static one infers the static size; a result of
// another static size does not match it.
func.func @dynamic_against_static(%arg0: tensor<?xf32>, %arg1: tensor<4xf32>) -> tensor<5xf32> {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'chlo.broadcast_add' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<5xf32>'}}
  %0 = chlo.broadcast_add %arg0, %arg1 : (tensor<?xf32>, tensor<4xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

// broadcast_add: operand and result element types are compatible ...
func.func @add_element_types(%arg0: tensor<2xi32>, %arg1: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'chlo.broadcast_add' op requires compatible element types for all operands and results}}
  %0 = chlo.broadcast_add %arg0, %arg1 : (tensor<2xi32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// ... which quantized types of other scales are.
// mirrors stablehlo/tests/ops_chlo.mlir @broadcast_add_quantized
func.func @add_quantized(%arg0: tensor<2x2x!quant.uniform<i8:f32, 2.0:15>>, %arg1: tensor<2x2x!quant.uniform<i8:f32, 3.0:15>>) -> tensor<2x2x!quant.uniform<i8:f32, 2.0:15>> {
  %0 = "chlo.broadcast_add"(%arg0, %arg1) : (tensor<2x2x!quant.uniform<i8:f32, 2.0:15>>, tensor<2x2x!quant.uniform<i8:f32, 3.0:15>>) -> tensor<2x2x!quant.uniform<i8:f32, 2.0:15>>
  func.return %0: tensor<2x2x!quant.uniform<i8:f32, 2.0:15>>
}

// -----

// ... and of another storage type are not.
// mirrors stablehlo/tests/ops_chlo.mlir @broadcast_add_quantized (the second)
func.func @add_quantized_storage(%arg0: tensor<2x2x!quant.uniform<i8:f32, 2.0:15>>, %arg1: tensor<2x2x!quant.uniform<i8:f32, 3.0:15>>) -> tensor<2x2x!quant.uniform<i16:f32, 2.0:15>> {
  // expected-error @+1{{'chlo.broadcast_add' op requires compatible element types for all operands and results}}
  %0 = "chlo.broadcast_add"(%arg0, %arg1) : (tensor<2x2x!quant.uniform<i8:f32, 2.0:15>>, tensor<2x2x!quant.uniform<i8:f32, 3.0:15>>) -> tensor<2x2x!quant.uniform<i16:f32, 2.0:15>>
  func.return %0: tensor<2x2x!quant.uniform<i16:f32, 2.0:15>>
}

// -----

// broadcast_atan2: the same element type everywhere.
func.func @atan2_element_types(%arg0: tensor<2xf32>, %arg1: tensor<2xf64>) -> tensor<2xf32> {
  // expected-error @+1 {{'chlo.broadcast_atan2' op requires the same element type for all operands and results}}
  %0 = chlo.broadcast_atan2 %arg0, %arg1 : (tensor<2xf32>, tensor<2xf64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// broadcast_complex: two float operands give a complex result.
// mirrors stablehlo/tests/infer_chlo.mlir @broadcast_complex_ranked_components
func.func @complex(%arg0: tensor<?xf32>, %arg1: tensor<?x?xf32>) -> tensor<?x?xcomplex<f32>> {
  %0 = chlo.broadcast_complex %arg0, %arg1 : (tensor<?xf32>, tensor<?x?xf32>) -> tensor<?x?xcomplex<f32>>
  return %0 : tensor<?x?xcomplex<f32>>
}

// -----

// broadcast_complex of f64 and f32: inference fails.
// mirrors stablehlo/tests/infer_chlo.mlir @broadcast_complex_mismatch
func.func @complex_mismatch(%arg0: tensor<2xf64>, %arg1: tensor<2xf32>) -> tensor<2xcomplex<f32>> {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{mismatched operand types}}
  %0 = "chlo.broadcast_complex"(%arg0, %arg1) : (tensor<2xf64>, tensor<2xf32>) -> tensor<2xcomplex<f32>>
  return %0: tensor<2xcomplex<f32>>
}

// -----

// broadcast_complex: the result's element type is complex of the operands'.
func.func @complex_result_type(%arg0: tensor<2xf32>, %arg1: tensor<2xf32>) -> tensor<2xcomplex<f64>> {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'chlo.broadcast_complex' op inferred type(s) 'tensor<2xcomplex<f32>>' are incompatible with return type(s) of operation 'tensor<2xcomplex<f64>>'}}
  %0 = chlo.broadcast_complex %arg0, %arg1 : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xcomplex<f64>>
  return %0 : tensor<2xcomplex<f64>>
}

// -----

// broadcast_compare: an i1 result of the broadcast shape.
// mirrors stablehlo/tests/infer_chlo.mlir @broadcast_compare_ranked_components
func.func @compare(%arg0: tensor<?xf32>, %arg1: tensor<?x?xf32>) -> tensor<?x?xi1> {
  %0 = chlo.broadcast_compare %arg0, %arg1 {comparison_direction = #chlo<comparison_direction EQ>} : (tensor<?xf32>, tensor<?x?xf32>) -> tensor<?x?xi1>
  return %0 : tensor<?x?xi1>
}

// -----

// broadcast_select: NumPy's rule over all three operands.
func.func @select(%arg0: tensor<i1>, %arg1: tensor<2x1xf32>, %arg2: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = chlo.broadcast_select %arg0, %arg1, %arg2 : (tensor<i1>, tensor<2x1xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// broadcast_select: a static predicate and dynamic branches.
// mirrors stablehlo/tests/infer_chlo.mlir @broadcast_select_reify
func.func @select_dynamic(%arg0: tensor<2xi1>, %arg1: tensor<?xi32>, %arg2: tensor<?xi32>) -> tensor<?xi32> {
  %0 = "chlo.broadcast_select"(%arg0, %arg1, %arg2) : (tensor<2xi1>, tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
  return %0: tensor<?xi32>
}

// -----

// broadcast_select: branches of different element types.
// mirrors stablehlo/tests/infer_chlo.mlir @broadcast_select_branch_mismatch
func.func @select_branch_mismatch(%arg0: tensor<2xi1>, %arg1: tensor<2xi32>, %arg2: tensor<2xf32>) -> tensor<2xi32> {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{mismatched operand types}}
  %0 = "chlo.broadcast_select"(%arg0, %arg1, %arg2) : (tensor<2xi1>, tensor<2xi32>, tensor<2xf32>) -> tensor<2xi32>
  return %0: tensor<2xi32>
}

// -----

// broadcast_select: a result shape other than the inferred one.
func.func @select_result_shape(%arg0: tensor<2xi1>, %arg1: tensor<2xf32>, %arg2: tensor<2xf32>) -> tensor<3xf32> {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'chlo.broadcast_select' op inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  %0 = chlo.broadcast_select %arg0, %arg1, %arg2 : (tensor<2xi1>, tensor<2xf32>, tensor<2xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// broadcast_select compares shapes only (its isCompatibleReturnTypes is
// verifyCompatibleShapes): a result of another element type is accepted.
func.func @select_result_element_type(%arg0: tensor<2xi1>, %arg1: tensor<2xf32>, %arg2: tensor<2xf32>) -> tensor<2xi32> {
  %0 = chlo.broadcast_select %arg0, %arg1, %arg2 : (tensor<2xi1>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}
