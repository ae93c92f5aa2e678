// TOSA's broadcasting element-wise ops, in the style of MLIR's
// mlir/test/Dialect/Tosa tests: equal ranks, size-1 dims broadcast,
// custom and generic forms.
// bcast: verify --verify-diagnostics --split-input-file
// mlir-opt: --verify-diagnostics --split-input-file

func.func @add_broadcast(%a: tensor<4x1xf32>, %b: tensor<1x7xf32>) -> tensor<4x7xf32> {
  %0 = tosa.add %a, %b : (tensor<4x1xf32>, tensor<1x7xf32>) -> tensor<4x7xf32>
  return %0 : tensor<4x7xf32>
}

// -----

func.func @add_incompatible(%a: tensor<4x3xf32>, %b: tensor<4x5xf32>) -> tensor<4x5xf32> {
  // expected-error @+1 {{'tosa.add' op operands don't have broadcast-compatible shapes}}
  %0 = tosa.add %a, %b : (tensor<4x3xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @sub_rank_mismatch(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'tosa.sub' op operands don't have matching ranks}}
  %0 = tosa.sub %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @maximum_generic(%a: tensor<1x3x1xi32>, %b: tensor<2x1x5xi32>) -> tensor<2x3x5xi32> {
  %0 = "tosa.maximum"(%a, %b) : (tensor<1x3x1xi32>, tensor<2x1x5xi32>) -> tensor<2x3x5xi32>
  return %0 : tensor<2x3x5xi32>
}

// -----

func.func @maximum_generic_bad(%a: tensor<2x3x1xi32>, %b: tensor<3x1x5xi32>) -> tensor<3x3x5xi32> {
  // expected-error @+1 {{operands don't have broadcast-compatible shapes}}
  %0 = "tosa.maximum"(%a, %b) : (tensor<2x3x1xi32>, tensor<3x1x5xi32>) -> tensor<3x3x5xi32>
  return %0 : tensor<3x3x5xi32>
}

// -----

func.func @select_broadcast(%c: tensor<1x6xi1>, %a: tensor<3x1xf32>, %b: tensor<3x6xf32>) -> tensor<3x6xf32> {
  %0 = tosa.select %c, %a, %b : (tensor<1x6xi1>, tensor<3x1xf32>, tensor<3x6xf32>) -> tensor<3x6xf32>
  return %0 : tensor<3x6xf32>
}

// -----

func.func @select_bad(%c: tensor<2x6xi1>, %a: tensor<3x1xf32>, %b: tensor<3x6xf32>) -> tensor<3x6xf32> {
  // expected-error @+1 {{'tosa.select' op operands don't have broadcast-compatible shapes}}
  %0 = tosa.select %c, %a, %b : (tensor<2x6xi1>, tensor<3x1xf32>, tensor<3x6xf32>) -> tensor<3x6xf32>
  return %0 : tensor<3x6xf32>
}

// -----

func.func @greater_dynamic(%a: tensor<?x4xf32>, %b: tensor<1x4xf32>) -> tensor<?x4xi1> {
  %0 = tosa.greater %a, %b : (tensor<?x4xf32>, tensor<1x4xf32>) -> tensor<?x4xi1>
  return %0 : tensor<?x4xi1>
}

// -----

func.func @zero_dim(%a: tensor<0x4xf32>, %b: tensor<1x4xf32>) -> tensor<0x4xf32> {
  // expected-error-re @+1 {{'tosa.add' op operand #0 must be tosa-conformant tensor of {{.*}} values, but got 'tensor<0x4xf32>'}}
  %0 = tosa.add %a, %b : (tensor<0x4xf32>, tensor<1x4xf32>) -> tensor<0x4xf32>
  return %0 : tensor<0x4xf32>
}

// -----

// What mlir-opt 22's parser and ODS refuse in the attributes, at the
// position mlir-opt reports (the plain run compares the carets).
func.func @ars_without_round(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'tosa.arithmetic_right_shift' op requires attribute 'round'}}
  %0 = tosa.arithmetic_right_shift %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @ars_round_not_bool(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{custom op 'tosa.arithmetic_right_shift' 'tosa.arithmetic_right_shift' op attribute 'round' failed to satisfy constraint: bool attribute}}
  %0 = tosa.arithmetic_right_shift %a, %b {round = 1 : i32} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// round is a BoolAttr, an i1 IntegerAttr: "1 : i1" is true (mirrors
// Conversion/TosaToLinalg/tosa-to-linalg.mlir @test_simple_i32).
func.func @ars_round_i1(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = tosa.arithmetic_right_shift %a, %b {round = 1 : i1} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %1 = tosa.arithmetic_right_shift %0, %b {round = 0 : i1} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %1 : tensor<4xi32>
}

// -----

func.func @clamp_integer_literal_f64(%x: tensor<4xf64>) -> tensor<4xf64> {
  // expected-error @+2 {{unexpected decimal integer literal for a floating point value}}
  // expected-note @+1 {{add a trailing dot to make the literal a float}}
  %0 = tosa.clamp %x {min_val = -1 : f64, max_val = 3.0 : f64} : (tensor<4xf64>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

func.func @clamp_negative_hex_bound(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{hexadecimal float literal should not have a leading minus}}
  %0 = "tosa.clamp"(%x) {min_val = 0x00000000 : f32, max_val = -0x3 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @minimum_unknown_nan_mode(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{custom op 'tosa.minimum' invalid nan_mode value: BOGUS}}
  %0 = tosa.minimum %a, %b {nan_mode =  BOGUS , foo = 1} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @maximum_generic_bare_nan_mode(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected attribute value}}
  %0 = "tosa.maximum"(%a, %b) {nan_mode =   BOGUS} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
