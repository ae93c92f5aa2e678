// Quantized element types (!quant.uniform, per-tensor and per-axis) in
// stablehlo.broadcast_in_dim and dynamic_broadcast_in_dim: the
// specification's C1 (a per-tensor type is kept exactly) and C6 (a per-axis
// result's quantization_dimension follows broadcast_dimensions, and an
// expanded size-1 quantized dim repeats the operand's scale and zero point).
// Cases written for bcast; the expected-error texts are StableHLO's own
// diagnostics, quoted from openxla/stablehlo at commit 3c9301c11
// (stablehlo/dialect/TypeInference.cpp verifyBroadcastInDimOp,
// verifyQPerTensorScaleAndZeroPointConstraints,
// verifyBroadcastInDimOpQuantConstraints; the
// CompatibleOperandsAndResultElementType trait of Base.h), Apache-2.0 WITH
// LLVM-exception.  Cases that mirror an upstream test name its file and
// function.
// Run: bcast verify --verify-diagnostics FILE

// Per-tensor: the same type in and out.
func.func @per_tensor(%arg0: tensor<1x2x!quant.uniform<i8:f32, 1.0:17>>) -> tensor<3x2x!quant.uniform<i8:f32, 1.0:17>> {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<1x2x!quant.uniform<i8:f32, 1.0:17>>) -> tensor<3x2x!quant.uniform<i8:f32, 1.0:17>>
  return %0 : tensor<3x2x!quant.uniform<i8:f32, 1.0:17>>
}

// -----

// C1, per-tensor: a different scale.
// mirrors stablehlo/tests/ops_stablehlo_quantized.mlir @broadcast_in_dim_c1_mismatch_scale
func.func @c1_scale(%arg0: tensor<1x2x1x!quant.uniform<i8<-128:127>:f32, 0.2:-30>>) {
  // expected-error @+1 {{expect same quantization scale and zero_point}}
  %0 = "stablehlo.broadcast_in_dim" (%arg0) {broadcast_dimensions = array<i64: 0, 1, 2>
  } : (tensor<1x2x1x!quant.uniform<i8<-128:127>:f32, 0.2:-30>>) -> tensor<1x2x3x2x!quant.uniform<i8<-128:127>:f32, 0.1:-30>>
  func.return
}

// -----

// C1, per-tensor: a different zero point, pretty form.
// mirrors stablehlo/tests/ops_stablehlo_quantized.mlir @broadcast_in_dim_c1_mismatch_zero_point
func.func @c1_zero_point(%arg0: tensor<2x!quant.uniform<i8:f32, 0.5:3>>) -> tensor<4x2x!quant.uniform<i8:f32, 0.5:4>> {
  // expected-error @+1 {{expect same quantization scale and zero_point}}
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [1] : (tensor<2x!quant.uniform<i8:f32, 0.5:3>>) -> tensor<4x2x!quant.uniform<i8:f32, 0.5:4>>
  return %0 : tensor<4x2x!quant.uniform<i8:f32, 0.5:4>>
}

// -----

// C1: a different storage type is not a compatible element type.
func.func @c1_storage(%arg0: tensor<2x!quant.uniform<i8:f32, 0.5:3>>) -> tensor<4x2x!quant.uniform<i16:f32, 0.5:3>> {
  // expected-error @+1 {{'stablehlo.broadcast_in_dim' op requires compatible element types for all operands and results}}
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [1] : (tensor<2x!quant.uniform<i8:f32, 0.5:3>>) -> tensor<4x2x!quant.uniform<i16:f32, 0.5:3>>
  return %0 : tensor<4x2x!quant.uniform<i16:f32, 0.5:3>>
}

// -----

// C1: per-tensor in, per-axis out is not a compatible element type.
func.func @c1_granularity(%arg0: tensor<2x!quant.uniform<i8:f32, 0.5:3>>) -> tensor<4x2x!quant.uniform<i8:f32:1, {0.5:3, 0.5:3}>> {
  // expected-error @+1 {{'stablehlo.broadcast_in_dim' op requires compatible element types for all operands and results}}
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [1] : (tensor<2x!quant.uniform<i8:f32, 0.5:3>>) -> tensor<4x2x!quant.uniform<i8:f32:1, {0.5:3, 0.5:3}>>
  return %0 : tensor<4x2x!quant.uniform<i8:f32:1, {0.5:3, 0.5:3}>>
}

// -----

// C6, per-axis: the quantized dim (operand dim 1) moves to result dim 2 =
// broadcast_dimensions[1]; scales and zero points as they were.
func.func @c6_follows(%arg0: tensor<1x2x!quant.uniform<i8:f32:1, {0.1:-30, 0.5:-20}>>) -> tensor<3x4x2x!quant.uniform<i8:f32:2, {0.1:-30, 0.5:-20}>> {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 2] : (tensor<1x2x!quant.uniform<i8:f32:1, {0.1:-30, 0.5:-20}>>) -> tensor<3x4x2x!quant.uniform<i8:f32:2, {0.1:-30, 0.5:-20}>>
  return %0 : tensor<3x4x2x!quant.uniform<i8:f32:2, {0.1:-30, 0.5:-20}>>
}

// -----

// C6: quantization_dimension(result) = broadcast_dimensions[quantization_dimension(operand)].
func.func @c6_dimension(%arg0: tensor<1x2x!quant.uniform<i8:f32:1, {0.1:-30, 0.5:-20}>>) -> tensor<3x2x2x!quant.uniform<i8:f32:2, {0.1:-30, 0.5:-20}>> {
  // expected-error @+1 {{result quantization_dimension 2 not same as broadcast_dimensions[1] = 1}}
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<1x2x!quant.uniform<i8:f32:1, {0.1:-30, 0.5:-20}>>) -> tensor<3x2x2x!quant.uniform<i8:f32:2, {0.1:-30, 0.5:-20}>>
  return %0 : tensor<3x2x2x!quant.uniform<i8:f32:2, {0.1:-30, 0.5:-20}>>
}

// -----

// C6: the same, generic form.
// mirrors stablehlo/tests/ops_stablehlo_quantized.mlir @broadcast_in_dim_c6 (the first)
func.func @c6_dimension_generic(
  %arg0: tensor<1x2x1x!quant.uniform<i8<-128:127>:f32:2, {0.1:-30}>>) {
  // expected-error@+1 {{result quantization_dimension 3 not same as broadcast_dimensions[2] = 2}}
  %broadcast_in_dim = "stablehlo.broadcast_in_dim" (%arg0) {broadcast_dimensions = array<i64: 0, 1, 2>
  } : (tensor<1x2x1x!quant.uniform<i8<-128:127>:f32:2, {0.1:-30}>>) ->
        tensor<1x2x3x2x!quant.uniform<i8<-128:127>:f32:3, {0.1:-30, 0.1:-30}>>
  func.return
}

// -----

// C6: an expanded size-1 quantized dim repeats the operand's scale and
// zero point ...
func.func @c6_expand_repeats(%arg0: tensor<2x1x!quant.uniform<i8:f32:1, {0.1:-30}>>) -> tensor<2x3x!quant.uniform<i8:f32:1, {0.1:-30, 0.1:-30, 0.1:-30}>> {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<2x1x!quant.uniform<i8:f32:1, {0.1:-30}>>) -> tensor<2x3x!quant.uniform<i8:f32:1, {0.1:-30, 0.1:-30, 0.1:-30}>>
  return %0 : tensor<2x3x!quant.uniform<i8:f32:1, {0.1:-30, 0.1:-30, 0.1:-30}>>
}

// -----

// C6: ... a different scale is reported with its index ...
func.func @c6_expand_scale(%arg0: tensor<2x1x!quant.uniform<i8:f32:1, {0.1:-30}>>) -> tensor<2x3x!quant.uniform<i8:f32:1, {0.1:-30, 0.2:-30, 0.1:-30}>> {
  // expected-error @+1 {{mismatch result scale 1 (2.000000e-01) and operand scale 0 (1.000000e-01)}}
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<2x1x!quant.uniform<i8:f32:1, {0.1:-30}>>) -> tensor<2x3x!quant.uniform<i8:f32:1, {0.1:-30, 0.2:-30, 0.1:-30}>>
  return %0 : tensor<2x3x!quant.uniform<i8:f32:1, {0.1:-30, 0.2:-30, 0.1:-30}>>
}

// -----

// C6: ... and so is a different zero point.
func.func @c6_expand_zero_point(%arg0: tensor<2x1x!quant.uniform<i8:f32:1, {0.1:-30}>>) -> tensor<2x3x!quant.uniform<i8:f32:1, {0.1:-30, 0.1:-30, 0.1:-29}>> {
  // expected-error @+1 {{mismatch result zero_point 2 (-29) and operand zero_point 0 (-30)}}
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<2x1x!quant.uniform<i8:f32:1, {0.1:-30}>>) -> tensor<2x3x!quant.uniform<i8:f32:1, {0.1:-30, 0.1:-30, 0.1:-29}>>
  return %0 : tensor<2x3x!quant.uniform<i8:f32:1, {0.1:-30, 0.1:-30, 0.1:-29}>>
}

// -----

// C6: the scale check comes first for each index, generic form.
// mirrors stablehlo/tests/ops_stablehlo_quantized.mlir @broadcast_in_dim_c6 (the second)
func.func @c6_scale_generic(
  %arg0: tensor<1x2x1x!quant.uniform<i8<-128:127>:f32:2, {0.1:-30}>>) {
  // expected-error@+1 {{mismatch result scale 0 (2.000000e-01) and operand scale 0 (1.000000e-01)}}
  %broadcast_in_dim = "stablehlo.broadcast_in_dim" (%arg0) {broadcast_dimensions = array<i64: 0, 1, 3>
  } : (tensor<1x2x1x!quant.uniform<i8<-128:127>:f32:2, {0.1:-30}>>) -> tensor<1x2x3x2x!quant.uniform<i8<-128:127>:f32:3, {0.2:2, 0.5:-20}>>
  func.return
}

// -----

// C6 for dynamic_broadcast_in_dim.
// mirrors stablehlo/tests/ops_stablehlo_quantized.mlir @dynamic_broadcast_in_dim_c6 (the first)
func.func @dynamic_c6_dimension(%arg0: tensor<2x1x!quant.uniform<i8:f32:1, {0.1:-30}>>, %shape: tensor<2xi64>) -> tensor<2x3x!quant.uniform<i8:f32:0, {0.1:-30, 0.1:-30}>> {
  // expected-error @+1 {{result quantization_dimension 0 not same as broadcast_dimensions[1] = 1}}
  %0 = stablehlo.dynamic_broadcast_in_dim %arg0, %shape, dims = [0, 1] : (tensor<2x1x!quant.uniform<i8:f32:1, {0.1:-30}>>, tensor<2xi64>) -> tensor<2x3x!quant.uniform<i8:f32:0, {0.1:-30, 0.1:-30}>>
  return %0 : tensor<2x3x!quant.uniform<i8:f32:0, {0.1:-30, 0.1:-30}>>
}

// -----

// dynamic_broadcast_in_dim with per-axis types that satisfy C6.
func.func @dynamic_c6_valid(%arg0: tensor<2x1x!quant.uniform<i8:f32:1, {0.1:-30}>>, %shape: tensor<3xi64>) -> tensor<4x2x3x!quant.uniform<i8:f32:2, {0.1:-30, 0.1:-30, 0.1:-30}>> {
  %0 = stablehlo.dynamic_broadcast_in_dim %arg0, %shape, dims = [1, 2] : (tensor<2x1x!quant.uniform<i8:f32:1, {0.1:-30}>>, tensor<3xi64>) -> tensor<4x2x3x!quant.uniform<i8:f32:2, {0.1:-30, 0.1:-30, 0.1:-30}>>
  return %0 : tensor<4x2x3x!quant.uniform<i8:f32:2, {0.1:-30, 0.1:-30, 0.1:-30}>>
}
