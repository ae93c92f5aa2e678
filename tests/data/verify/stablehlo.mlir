// StableHLO's and CHLO's broadcasting ops, checked by default, with the
// messages of their own verifiers (docs/stablehlo.md).  Cases written for
// bcast after the constraints of StableHLO's spec (docs/spec.md of
// openxla/stablehlo); no stablehlo-opt here, so no mlir-opt line.
// bcast: verify --verify-diagnostics --split-input-file

!operand = tensor<1x3xi32>
func.func @pretty_and_aliases(%x: !operand) -> tensor<2x3xi32> {
  %0 = stablehlo.broadcast_in_dim %x, dims = [0, 1] : (!operand) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

func.func @c5_size(%x: tensor<3xi32>) -> tensor<2x2xi32> {
  // expected-error @+1 {{size of operand dimension 0 (3) is not equal to 1 or size of result dimension 1 (2)}}
  %0 = stablehlo.broadcast_in_dim %x, dims = [1] : (tensor<3xi32>) -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// -----

// broadcast's type inference fails twice over, as stablehlo-opt says.
func.func @sizes(%x: tensor<3xi32>) -> tensor<2x4xi32> {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{inferred type(s) 'tensor<2x3xi32>' are incompatible with return type(s) of operation 'tensor<2x4xi32>'}}
  %0 = stablehlo.broadcast %x, sizes = [2] : (tensor<3xi32>) -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}

// -----

// output_dimensions is a shape operand; a constant one meets the result.
func.func @dynamic(%x: tensor<4xf32>) -> tensor<5x4xf32> {
  %s = stablehlo.constant dense<[3, 4]> : tensor<2xi64>
  // expected-error @+1 {{output shape [3, 4] is incompatible with return type of operation 'tensor<5x4xf32>'}}
  %0 = stablehlo.dynamic_broadcast_in_dim %x, %s, dims = [1] : (tensor<4xf32>, tensor<2xi64>) -> tensor<5x4xf32>
  return %0 : tensor<5x4xf32>
}

// -----

// output_dimensions may be index (HLO_DimensionTensor: index or integers).
func.func @dynamic_index(%x: tensor<4xf32>, %s: tensor<2xindex>) -> tensor<5x4xf32> {
  %0 = stablehlo.dynamic_broadcast_in_dim %x, %s, dims = [1] : (tensor<4xf32>, tensor<2xindex>) -> tensor<5x4xf32>
  return %0 : tensor<5x4xf32>
}

// A value is its own function's: %s of @dynamic_other is not the constant
// %s of @dynamic_own above it, so no shape is known and the op is valid.
func.func @dynamic_own(%x: tensor<4xf32>) -> tensor<3x4xf32> {
  %s = stablehlo.constant dense<[3, 4]> : tensor<2xi64>
  %0 = stablehlo.dynamic_broadcast_in_dim %x, %s, dims = [1] : (tensor<4xf32>, tensor<2xi64>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
func.func @dynamic_other(%x: tensor<4xf32>, %s: tensor<2xi64>) -> tensor<5x4xf32> {
  %0 = stablehlo.dynamic_broadcast_in_dim %x, %s, dims = [1] : (tensor<4xf32>, tensor<2xi64>) -> tensor<5x4xf32>
  return %0 : tensor<5x4xf32>
}

// -----

// A constant of the wrong length: StableHLO's message, not the length's.
func.func @dynamic_const_length(%x: tensor<4xf32>) -> tensor<3x4xf32> {
  %s = stablehlo.constant dense<[3, 4, 5]> : tensor<3xi64>
  // expected-error @+1 {{output shape [3, 4, 5] is incompatible with return type of operation 'tensor<3x4xf32>'}}
  %0 = stablehlo.dynamic_broadcast_in_dim %x, %s, dims = [1] : (tensor<4xf32>, tensor<3xi64>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// CHLO infers an unranked result from an illegal broadcast_dimensions:
// any result type matches it (--chlo-rule xla refuses it).
func.func @chlo_lenient(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = chlo.broadcast_add %a, %b {broadcast_dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @chlo_complex(%a: tensor<2xf64>, %b: tensor<2xf32>) -> tensor<2xcomplex<f64>> {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{mismatched operand types}}
  %0 = chlo.broadcast_complex %a, %b : (tensor<2xf64>, tensor<2xf32>) -> tensor<2xcomplex<f64>>
  return %0 : tensor<2xcomplex<f64>>
}

// -----

// An encoding bcast does not model: a remark, not a verdict.
func.func @unmodelled(%x: tensor<3xf32, #my.layout>) -> tensor<2x3xf32> {
  // expected-remark @+1 {{cannot check: tensor encoding '#my.layout' is outside bcast's model}}
  %0 = stablehlo.broadcast_in_dim %x, dims = [1] : (tensor<3xf32, #my.layout>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
