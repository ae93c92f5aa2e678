// The Broadcastable trait through "test.broadcastable", in the style of
// MLIR's mlir/test/Dialect/traits.mlir: each case is a function of its own,
// the failing ones annotated with the error MLIR 22 gives.
// bcast: verify --profile mlir --verify-diagnostics --split-input-file
// mlir-opt: --verify-diagnostics --split-input-file

func.func @scalars(%x: tensor<i32>, %y: tensor<i32>) -> tensor<i32> {
  %0 = "test.broadcastable"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  return %0 : tensor<i32>
}

// -----

func.func @vector_and_scalar(%x: tensor<5xi32>, %y: tensor<i32>) -> tensor<5xi32> {
  %0 = "test.broadcastable"(%x, %y) : (tensor<5xi32>, tensor<i32>) -> tensor<5xi32>
  return %0 : tensor<5xi32>
}

// -----

// Size-1 dims in both operands expand.
func.func @ones_both_sides(%x: tensor<9x1x4x1xi32>, %y: tensor<3x1x2xi32>) -> tensor<9x3x4x2xi32> {
  %0 = "test.broadcastable"(%x, %y) : (tensor<9x1x4x1xi32>, tensor<3x1x2xi32>) -> tensor<9x3x4x2xi32>
  return %0 : tensor<9x3x4x2xi32>
}

// -----

// A dynamic dim in the middle stays dynamic.
func.func @dynamic_middle(%x: tensor<6x1x?x1xi32>, %y: tensor<3x1x2xi32>) -> tensor<6x3x?x2xi32> {
  %0 = "test.broadcastable"(%x, %y) : (tensor<6x1x?x1xi32>, tensor<3x1x2xi32>) -> tensor<6x3x?x2xi32>
  return %0 : tensor<6x3x?x2xi32>
}

// -----

func.func @static_mismatch(%x: tensor<5x4x2xi32>, %y: tensor<4x4xi32>) -> tensor<5x4x2xi32> {
  // expected-error @+1 {{operands don't have broadcast-compatible shapes}}
  %0 = "test.broadcastable"(%x, %y) : (tensor<5x4x2xi32>, tensor<4x4xi32>) -> tensor<5x4x2xi32>
  return %0 : tensor<5x4x2xi32>
}

// -----

func.func @wrong_result(%x: tensor<5x4x2xi32>, %y: tensor<4x1xi32>) -> tensor<5x4x3xi32> {
  %0 = "test.broadcastable"(%x, %y) : (tensor<5x4x2xi32>, tensor<4x1xi32>) -> tensor<5x4x3xi32>
  // expected-error @-1 {{op result type '5x4x3' not broadcast compatible with broadcasted operands's shapes '5x4x2'}}
  return %0 : tensor<5x4x3xi32>
}

// -----

func.func @result_is_not_broadcast(%x: tensor<1xi32>, %y: tensor<1xi32>) -> tensor<7xi32> {
  // expected-error @below {{not broadcast compatible with broadcasted operands's shapes '1'}}
  %0 = "test.broadcastable"(%x, %y) : (tensor<1xi32>, tensor<1xi32>) -> tensor<7xi32>
  return %0 : tensor<7xi32>
}

// -----

func.func @unranked_result(%x: tensor<3xi32>, %y: tensor<3xi32>) -> tensor<*xi32> {
  %0 = "test.broadcastable"(%x, %y) : (tensor<3xi32>, tensor<3xi32>) -> tensor<*xi32>
  return %0 : tensor<*xi32>
}

// -----

func.func @unranked_operand_short_result(%x: tensor<4x3xi32>, %y: tensor<*xi32>) -> tensor<3xi32> {
  %0 = "test.broadcastable"(%x, %y) : (tensor<4x3xi32>, tensor<*xi32>) -> tensor<3xi32>
  // expected-error-re @above {{op result type '3' not broadcast compatible with broadcasted operands's shapes '{{[0-9]+x[0-9]+}}'}}
  return %0 : tensor<3xi32>
}

// -----

func.func @three_operands(%x: tensor<4x1xi32>, %y: tensor<1x5xi32>, %z: tensor<5xi32>) -> tensor<4x5xi32> {
  %0 = "test.broadcastable"(%x, %y, %z) : (tensor<4x1xi32>, tensor<1x5xi32>, tensor<5xi32>) -> tensor<4x5xi32>
  return %0 : tensor<4x5xi32>
}

// -----

func.func @three_operands_bad(%x: tensor<4x1xi32>, %y: tensor<1x5xi32>, %z: tensor<6xi32>) -> tensor<4x5xi32> {
  // expected-error-re @+1 {{'test.broadcastable' op operands don't have {{broadcast-compatible|matching}} shapes}}
  %0 = "test.broadcastable"(%x, %y, %z) : (tensor<4x1xi32>, tensor<1x5xi32>, tensor<6xi32>) -> tensor<4x5xi32>
  return %0 : tensor<4x5xi32>
}
