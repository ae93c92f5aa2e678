// Type and attribute aliases (`!name = TYPE`, `#name = ATTR`) as
// StableHLO's printer and engineers write them: a type alias for a whole
// tensor type, for a quantized element type and for an encoding; an
// attribute alias for broadcast_dimensions.  Each case is judged as if the
// alias were spelled out.  Cases written for bcast; the expected-error
// texts are StableHLO's and CHLO's own diagnostics, quoted from
// openxla/stablehlo at commit 3c9301c11 (TypeInference.cpp
// verifyBroadcastInDimOp, ChloOps.cpp), Apache-2.0 WITH LLVM-exception.
// Cases that mirror an upstream test name its file and function.
// Run: bcast verify --verify-diagnostics FILE

!t2 = tensor<2xf32>
!t32 = tensor<3x2xf32>
func.func @type_alias(%arg0: !t2) -> !t32 {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [1] : (!t2) -> !t32
  return %0 : !t32
}

// -----

// broadcast_in_dim C5 through aliases.
!operand = tensor<3xi32>
!result = tensor<2x3xi32>
func.func @type_alias_c5(%arg0: !operand) -> !result {
  // expected-error @+1 {{size of operand dimension 0 (3) is not equal to 1 or size of result dimension 0 (2)}}
  %0 = "stablehlo.broadcast_in_dim"(%arg0) {broadcast_dimensions = array<i64: 0>} : (!operand) -> !result
  func.return %0 : !result
}

// -----

// An alias of an alias, and a dims attribute alias.
#dims = array<i64: 1>
!elem = f32
!row = tensor<3x!elem>
func.func @attribute_alias(%arg0: !row) -> tensor<4x3x!elem> {
  %0 = "stablehlo.broadcast_in_dim"(%arg0) {broadcast_dimensions = #dims} : (!row) -> tensor<4x3x!elem>
  func.return %0 : tensor<4x3x!elem>
}

// -----

// A dims attribute alias that breaks C2.
#dims2 = array<i64: 0, 1>
func.func @attribute_alias_c2(%arg0: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{broadcast_dimensions size (2) does not match operand rank (1)}}
  %0 = "stablehlo.broadcast_in_dim"(%arg0) {broadcast_dimensions = #dims2} : (tensor<3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

// A quantized element type alias (per-axis), C6 holding.
!q1 = !quant.uniform<i8:f32:1, {0.1:-30, 0.5:-20}>
!q2 = !quant.uniform<i8:f32:2, {0.1:-30, 0.5:-20}>
func.func @quant_alias(%arg0: tensor<1x2x!q1>) -> tensor<3x4x2x!q2> {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 2] : (tensor<1x2x!q1>) -> tensor<3x4x2x!q2>
  return %0 : tensor<3x4x2x!q2>
}

// -----

// The same aliases, C6 broken.
!q1 = !quant.uniform<i8:f32:1, {0.1:-30, 0.5:-20}>
!q2 = !quant.uniform<i8:f32:2, {0.1:-30, 0.5:-20}>
func.func @quant_alias_c6(%arg0: tensor<1x2x!q1>) -> tensor<3x2x2x!q2> {
  // expected-error @+1 {{result quantization_dimension 2 not same as broadcast_dimensions[1] = 1}}
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<1x2x!q1>) -> tensor<3x2x2x!q2>
  return %0 : tensor<3x2x2x!q2>
}

// -----

// An encoding alias (#stablehlo.bounds), single bounded dim.
#b1 = #stablehlo.bounds<?, 5>
#b2 = #stablehlo.bounds<?, ?, 5>
func.func @bounds_alias(%arg0: tensor<1x?xf32, #b1>) -> tensor<2x1x?xf32, #b2> {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<1x?xf32, #b1>) -> tensor<2x1x?xf32, #b2>
  return %0 : tensor<2x1x?xf32, #b2>
}

// -----

// An encoding alias with two bounded dims in the result.
#b55 = #stablehlo.bounds<?, 5, 5>
func.func @bounds_alias_two(%arg0: tensor<?x?xf32, #stablehlo.bounds<5, 5>>) -> tensor<2x?x?xf32, #b55> {
  // expected-error @+1 {{result #0 must be statically shaped or single bounded dimension tensor}}
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [1, 2] : (tensor<?x?xf32, #stablehlo.bounds<5, 5>>) -> tensor<2x?x?xf32, #b55>
  return %0 : tensor<2x?x?xf32, #b55>
}

// -----

// CHLO through aliases, the result mismatching the inferred type (the
// message prints the types spelled out).
!lhs = tensor<2x3xf32>
!rhs = tensor<3xf32>
!bad = tensor<2x4xf32>
func.func @chlo_alias(%arg0: !lhs, %arg1: !rhs) -> (!lhs, !bad) {
  %0 = chlo.broadcast_add %arg0, %arg1 : (!lhs, !rhs) -> !lhs
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'chlo.broadcast_add' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<2x4xf32>'}}
  %1 = chlo.broadcast_add %arg0, %arg1 : (!lhs, !rhs) -> !bad
  return %0, %1 : !lhs, !bad
}

// -----

// dynamic_broadcast_in_dim with aliased operand, shape and result types.
!in = tensor<?x?xi32>
!shape = tensor<3xi64>
!out = tensor<?x?x?xi32>
func.func @dynamic_alias(%arg0: !in, %arg1: !shape) -> !out {
  %0 = stablehlo.dynamic_broadcast_in_dim %arg0, %arg1, dims = [1, 2] : (!in, !shape) -> !out
  return %0 : !out
}

// -----

// stablehlo.broadcast with aliases, result rank wrong.
!v = tensor<3xi32>
!m = tensor<1x2x3xi32>
func.func @broadcast_alias(%arg0: !v) -> !m {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'stablehlo.broadcast' op inferred type(s) 'tensor<2x3xi32>' are incompatible with return type(s) of operation 'tensor<1x2x3xi32>'}}
  %0 = stablehlo.broadcast %arg0, sizes = [2] : (!v) -> !m
  return %0 : !m
}
