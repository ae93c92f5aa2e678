// stablehlo.dynamic_broadcast_in_dim against the StableHLO specification's
// constraints C1-C10 (docs/spec.md, "dynamic_broadcast_in_dim"): the
// broadcast_in_dim rules with an output_dimensions operand and the
// known_expanding/known_nonexpanding hints.  Cases written for bcast; the
// expected-error texts are StableHLO's own diagnostics, quoted from
// openxla/stablehlo at commit 3c9301c11 (stablehlo/dialect/TypeInference.cpp
// verifyDynamicBroadcastInDimOp and verifyShapeOperandIsCompatibleWithResultType,
// and the ODS operand constraint of StablehloOps.td), Apache-2.0 WITH
// LLVM-exception.  Cases that mirror an upstream test name its file and
// function.  Note the verifier's own order, which is not the spec's
// numbering: element type, dims size, result rank, duplicates, range and
// sizes, output_dimensions, hints, sizes against a constant shape.
// Run: bcast verify --verify-diagnostics FILE

// The specification's example, with both hints.
func.func @spec_example(%arg0: tensor<1x3xi64>) -> tensor<2x3x2xi64> {
  %shape = stablehlo.constant dense<[2, 3, 2]> : tensor<3xi64>
  %0 = "stablehlo.dynamic_broadcast_in_dim"(%arg0, %shape) {
    broadcast_dimensions = array<i64: 2, 1>,
    known_expanding_dimensions = array<i64: 0>,
    known_nonexpanding_dimensions = array<i64: 1>
  } : (tensor<1x3xi64>, tensor<3xi64>) -> tensor<2x3x2xi64>
  func.return %0 : tensor<2x3x2xi64>
}

// -----

// A shape argument and a dynamic result: the shape operand is data, not a
// second operand to broadcast with.
// mirrors stablehlo/tests/ops_stablehlo.mlir @dynamic_broadcast_in_dim
func.func @shape_argument(%arg0: tensor<?x?xi32>, %shape: tensor<3xi64>) -> tensor<?x?x?xi32> {
  %0 = "stablehlo.dynamic_broadcast_in_dim"(%arg0, %shape) {broadcast_dimensions = array<i64: 1, 2>} : (tensor<?x?xi32>, tensor<3xi64>) -> tensor<?x?x?xi32>
  func.return %0 : tensor<?x?x?xi32>
}

// -----

// The pretty form, an index shape, a static result.
func.func @pretty_index_shape(%arg0: tensor<4xf32>, %shape: tensor<2xindex>) -> tensor<3x4xf32> {
  %0 = stablehlo.dynamic_broadcast_in_dim %arg0, %shape, dims = [1] : (tensor<4xf32>, tensor<2xindex>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// A size-1 operand dim into a static result of any size.
// mirrors stablehlo/tests/ops_stablehlo.mlir @dynamic_broadcast_in_dim_ok_dim
func.func @size_one(%arg0: tensor<1xf32>, %shape: tensor<3xi64>) -> tensor<7x8x9xf32> {
  %0 = "stablehlo.dynamic_broadcast_in_dim"(%arg0, %shape) {broadcast_dimensions = array<i64: 2>} : (tensor<1xf32>, tensor<3xi64>) -> tensor<7x8x9xf32>
  func.return %0 : tensor<7x8x9xf32>
}

// -----

// C1: the element type is kept.
// mirrors stablehlo/tests/ops_stablehlo.mlir @dynamic_broadcast_in_dim_c1
func.func @c1_element_type(%arg0: tensor<?x?xi32>, %shape: tensor<3xi64>) -> tensor<?x?x?xi64> {
  // expected-error @+1 {{expects operand and result to have compatible element type. Got: 'tensor<?x?xi32>' and 'tensor<?x?x?xi64>'}}
  %0 = "stablehlo.dynamic_broadcast_in_dim"(%arg0, %shape) {broadcast_dimensions = array<i64: 1, 2>} : (tensor<?x?xi32>, tensor<3xi64>) -> tensor<?x?x?xi64>
  func.return %0 : tensor<?x?x?xi64>
}

// -----

// C2: size(broadcast_dimensions) = rank(operand).
// mirrors stablehlo/tests/ops_stablehlo.mlir @dynamic_broadcast_in_dim_c2
func.func @c2(%arg0: tensor<?x?xi32>, %shape: tensor<3xi64>) -> tensor<?x?x?xi32> {
  // expected-error @+1 {{broadcast_dimensions size (1) does not match operand rank (2)}}
  %0 = stablehlo.dynamic_broadcast_in_dim %arg0, %shape, dims = [1] : (tensor<?x?xi32>, tensor<3xi64>) -> tensor<?x?x?xi32>
  return %0 : tensor<?x?x?xi32>
}

// -----

// C3 (the verifier's rank check before the range check): the result rank
// is at least the operand's.
func.func @c3_result_rank(%arg0: tensor<2x3xf32>, %shape: tensor<1xi64>) -> tensor<3xf32> {
  // expected-error @+1 {{result rank (1) is less than operand rank (2)}}
  %0 = stablehlo.dynamic_broadcast_in_dim %arg0, %shape, dims = [0, 1] : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// C3: 0 <= broadcast_dimensions < rank(result).
// mirrors stablehlo/tests/ops_stablehlo.mlir @dynamic_broadcast_in_dim_c3_negative_size
func.func @c3_negative(%arg0: tensor<1xf32>, %shape: tensor<3xi64>) -> tensor<7x8x9xf32> {
  // expected-error @+1 {{broadcast_dimensions contains invalid value -1 for result with rank 3}}
  %0 = "stablehlo.dynamic_broadcast_in_dim"(%arg0, %shape) {broadcast_dimensions = array<i64: -1>} : (tensor<1xf32>, tensor<3xi64>) -> tensor<7x8x9xf32>
  func.return %0 : tensor<7x8x9xf32>
}

// -----

// C3: too large, pretty form.
// mirrors stablehlo/tests/ops_stablehlo.mlir @dynamic_broadcast_in_dim_c3_too_large
func.func @c3_too_large(%arg0: tensor<1xf32>, %shape: tensor<3xi64>) -> tensor<7x8x9xf32> {
  // expected-error @+1 {{broadcast_dimensions contains invalid value 3 for result with rank 3}}
  %0 = stablehlo.dynamic_broadcast_in_dim %arg0, %shape, dims = [3] : (tensor<1xf32>, tensor<3xi64>) -> tensor<7x8x9xf32>
  return %0 : tensor<7x8x9xf32>
}

// -----

// C4: is_unique(broadcast_dimensions).
// mirrors stablehlo/tests/ops_stablehlo.mlir @dynamic_broadcast_in_dim_c4
func.func @c4(%arg0: tensor<?x?xi32>, %shape: tensor<3xi64>) -> tensor<?x?x?xi32> {
  // expected-error @+1 {{broadcast_dimensions should not have duplicates}}
  %0 = "stablehlo.dynamic_broadcast_in_dim"(%arg0, %shape) {broadcast_dimensions = array<i64: 1, 1>} : (tensor<?x?xi32>, tensor<3xi64>) -> tensor<?x?x?xi32>
  func.return %0 : tensor<?x?x?xi32>
}

// -----

// C5: a static operand dim other than 1 must be compatible with the
// result dim it maps to.
// mirrors stablehlo/tests/ops_stablehlo.mlir @dynamic_broadcast_in_dim_c5_shape_mismatch
func.func @c5_mismatch(%arg0: tensor<32xf32>, %shape: tensor<3xi64>) -> tensor<7x8x9xf32> {
  // expected-error @+1 {{size of operand dimension 0 (32) is not compatible with size of result dimension 2 (9)}}
  %0 = "stablehlo.dynamic_broadcast_in_dim"(%arg0, %shape) {broadcast_dimensions = array<i64: 2>} : (tensor<32xf32>, tensor<3xi64>) -> tensor<7x8x9xf32>
  func.return %0 : tensor<7x8x9xf32>
}

// -----

// C5: a dynamic result dim is compatible with any operand size.
// mirrors stablehlo/tests/ops_stablehlo.mlir @dynamic_broadcast_in_dim_unknown_dim
func.func @c5_dynamic_result(%arg0: tensor<32xf32>, %shape: tensor<3xi64>) -> tensor<?x?x?xf32> {
  %0 = "stablehlo.dynamic_broadcast_in_dim"(%arg0, %shape) {broadcast_dimensions = array<i64: 2>} : (tensor<32xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
  func.return %0 : tensor<?x?x?xf32>
}

// -----

// C5 against a constant output_dimensions: a static operand's dims must be
// 1 or the shape's value.
// mirrors stablehlo/tests/ops_stablehlo.mlir @dynamic_broadcast_in_dim_c5_input_mismatch_with_shape
func.func @c5_constant_shape(%arg0: tensor<1x3xi32>) -> tensor<?x?x?xi32> {
  %shape = stablehlo.constant dense<[2, 1, 1]> : tensor<3xi32>
  // expected-error @+1 {{size of operand dimension 1 (3) is not equal to 1 or value of shape at index 2 (1)}}
  %0 = "stablehlo.dynamic_broadcast_in_dim"(%arg0, %shape) {broadcast_dimensions = array<i64: 1, 2>} : (tensor<1x3xi32>, tensor<3xi32>) -> tensor<?x?x?xi32>
  return %0 : tensor<?x?x?xi32>
}

// -----

// C7: a constant output_dimensions equal to the result shape ...
// mirrors stablehlo/tests/ops_stablehlo.mlir @dynamic_broadcast_in_dim_output_dimensions_match_result
func.func @c7_constant_match(%arg0: tensor<4xf32>) -> tensor<3x4xf32> {
  %0 = stablehlo.constant dense<[3, 4]> : tensor<2xi64>
  %1 = stablehlo.dynamic_broadcast_in_dim %arg0, %0, dims = [1] : (tensor<4xf32>, tensor<2xi64>) -> tensor<3x4xf32>
  return %1 : tensor<3x4xf32>
}

// -----

// C7: ... or compatible with it.
// mirrors stablehlo/tests/ops_stablehlo.mlir @dynamic_broadcast_in_dim_output_dimensions_compatible_with_result
func.func @c7_constant_compatible(%arg0: tensor<4xf32>) -> tensor<?x?xf32> {
  %0 = stablehlo.constant dense<[3, 4]> : tensor<2xi64>
  %1 = stablehlo.dynamic_broadcast_in_dim %arg0, %0, dims = [1] : (tensor<4xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %1 : tensor<?x?xf32>
}

// -----

// C7: a constant output_dimensions that differs from the result shape.
// mirrors stablehlo/tests/ops_stablehlo.mlir @dynamic_broadcast_in_dim_c7_output_dimensions_mismatching_size
func.func @c7_constant_mismatch(%arg0: tensor<4xf32>) -> tensor<3x4xf32> {
  // expected-error @+2 {{output shape [1, 4] is incompatible with return type of operation 'tensor<3x4xf32>'}}
  %0 = stablehlo.constant dense<[1, 4]> : tensor<2xi64>
  %1 = stablehlo.dynamic_broadcast_in_dim %arg0, %0, dims = [1] : (tensor<4xf32>, tensor<2xi64>) -> tensor<3x4xf32>
  return %1 : tensor<3x4xf32>
}

// -----

// C7: a negative size in a constant output_dimensions.
// mirrors stablehlo/tests/ops_stablehlo.mlir @dynamic_broadcast_in_dim_c7_output_dimensions_negative_size
func.func @c7_constant_negative(%arg0: tensor<4xf32>) -> tensor<?x4xf32> {
  %0 = stablehlo.constant dense<[-1, 4]> : tensor<2xi64>
  // expected-error @+1 {{output shape [-1, 4] is incompatible with return type of operation 'tensor<?x4xf32>'}}
  %1 = stablehlo.dynamic_broadcast_in_dim %arg0, %0, dims = [1] : (tensor<4xf32>, tensor<2xi64>) -> tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}

// -----

// C7: size(output_dimensions) = rank(result), a constant of the wrong
// length.
func.func @c7_constant_length(%arg0: tensor<4xf32>) -> tensor<3x4xf32> {
  %0 = stablehlo.constant dense<[3, 4, 5]> : tensor<3xi64>
  // expected-error @+1 {{output shape [3, 4, 5] is incompatible with return type of operation 'tensor<3x4xf32>'}}
  %1 = stablehlo.dynamic_broadcast_in_dim %arg0, %0, dims = [1] : (tensor<4xf32>, tensor<3xi64>) -> tensor<3x4xf32>
  return %1 : tensor<3x4xf32>
}

// -----

// C7 for an output_dimensions that is not a constant: its type's length is
// not the result's rank.  The specification's C7 makes this invalid;
// StableHLO's verifier checks C7 only on a constant (it accepts this op),
// so the expected text is bcast's own.
func.func @c7_type_length(%arg0: tensor<4xf32>, %shape: tensor<3xi64>) -> tensor<3x4xf32> {
  // expected-error @+1 {{op output_dimensions has 3 elements but the result has rank 2}}
  %0 = stablehlo.dynamic_broadcast_in_dim %arg0, %shape, dims = [1] : (tensor<4xf32>, tensor<3xi64>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// output_dimensions is a statically shaped 1-d tensor (the operand's type
// constraint).
// mirrors stablehlo/tests/ops_stablehlo.mlir @dynamic_broadcast_in_dim_dynamic_output_shape
func.func @shape_operand_dynamic(%arg0: tensor<?x?xi32>, %shape: tensor<?xi64>) -> tensor<7x8x9xi32> {
  // expected-error @+1 {{op operand #1 must be statically shaped}}
  %0 = "stablehlo.dynamic_broadcast_in_dim"(%arg0, %shape) {broadcast_dimensions = array<i64: 1, 2>} : (tensor<?x?xi32>, tensor<?xi64>) -> tensor<7x8x9xi32>
  func.return %0 : tensor<7x8x9xi32>
}

// -----

// C8: is_unique(known_expanding_dimensions + known_nonexpanding_dimensions),
// within one list.
// mirrors stablehlo/tests/ops_stablehlo.mlir @dynamic_broadcast_in_dim_c8
func.func @c8_within(%arg0: tensor<?x?xi32>, %shape: tensor<3xi64>) -> tensor<?x?x?xi32> {
  // expected-error @+1 {{duplicate expansion hint for at least one operand dimension}}
  %0 = "stablehlo.dynamic_broadcast_in_dim"(%arg0, %shape) {
    broadcast_dimensions = array<i64: 1, 2>,
    known_expanding_dimensions = array<i64: 0, 0>
  } : (tensor<?x?xi32>, tensor<3xi64>) -> tensor<?x?x?xi32>
  func.return %0 : tensor<?x?x?xi32>
}

// -----

// C8: across the two lists, pretty form with an attribute dictionary.
func.func @c8_across(%arg0: tensor<?x?xi32>, %shape: tensor<3xi64>) -> tensor<?x?x?xi32> {
  // expected-error @+1 {{duplicate expansion hint for at least one operand dimension}}
  %0 = stablehlo.dynamic_broadcast_in_dim %arg0, %shape, dims = [1, 2] {known_expanding_dimensions = array<i64: 1>, known_nonexpanding_dimensions = array<i64: 1>} : (tensor<?x?xi32>, tensor<3xi64>) -> tensor<?x?x?xi32>
  return %0 : tensor<?x?x?xi32>
}

// -----

// C9: 0 <= known_expanding_dimensions < rank(operand).
// mirrors stablehlo/tests/ops_stablehlo.mlir @dynamic_broadcast_in_dim_c9_c10
func.func @c9(%arg0: tensor<?x?xi32>, %shape: tensor<3xi64>) -> tensor<?x?x?xi32> {
  // expected-error @+1 {{hint for expanding dimension 3 does not refer to a valid operand dimension}}
  %0 = "stablehlo.dynamic_broadcast_in_dim"(%arg0, %shape) {
    broadcast_dimensions = array<i64: 1, 2>,
    known_expanding_dimensions = array<i64: 3>
  } : (tensor<?x?xi32>, tensor<3xi64>) -> tensor<?x?x?xi32>
  func.return %0 : tensor<?x?x?xi32>
}

// -----

// C10: 0 <= known_nonexpanding_dimensions < rank(operand) (StableHLO's
// message says "expanding" for both lists).
func.func @c10(%arg0: tensor<?x?xi32>, %shape: tensor<3xi64>) -> tensor<?x?x?xi32> {
  // expected-error @+1 {{hint for expanding dimension -1 does not refer to a valid operand dimension}}
  %0 = stablehlo.dynamic_broadcast_in_dim %arg0, %shape, dims = [1, 2] {known_nonexpanding_dimensions = array<i64: -1>} : (tensor<?x?xi32>, tensor<3xi64>) -> tensor<?x?x?xi32>
  return %0 : tensor<?x?x?xi32>
}

// -----

// C8-C10 hold: disjoint hints naming operand dims.
func.func @hints_valid(%arg0: tensor<?x?xi32>, %shape: tensor<3xi64>) -> tensor<?x?x?xi32> {
  %0 = stablehlo.dynamic_broadcast_in_dim %arg0, %shape, dims = [1, 2] {known_expanding_dimensions = array<i64: 0>, known_nonexpanding_dimensions = array<i64: 1>} : (tensor<?x?xi32>, tensor<3xi64>) -> tensor<?x?x?xi32>
  return %0 : tensor<?x?x?xi32>
}
