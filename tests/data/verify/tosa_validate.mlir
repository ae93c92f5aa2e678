// The type checks of MLIR 22's -tosa-validate pass, as the RUN line of
// llvm-project's mlir/test/Dialect/Tosa/invalid.mlir runs it, on at least
// one illegal type combination per class of element-wise op (and a legal
// one beside some).  Every annotation is mlir-opt 22's message for its op.
// bcast: verify --tosa-validate --verify-diagnostics --split-input-file
// mlir-opt: --verify-diagnostics --split-input-file '-tosa-attach-target=profiles=pro_int,pro_fp extensions=int16,int4,bf16,fp8e4m3,fp8e5m2,fft,variable,controlflow,doubleround,inexactround' -tosa-validate=strict-op-spec-alignment

// unary
func.func @abs_i8(%a: tensor<4xi8>) -> tensor<4xi8> {
  // expected-error@+1 {{'tosa.abs' op illegal: operation operand/result data types did not align with any profile or extension, got (i8,i8), did you mean (i32,i32)? Otherwise, please refer to the 'supported data types' for 'tosa.abs' in the specification.}}
  %0 = tosa.abs %a : (tensor<4xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// unary (float)
func.func @exp_i32(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error@+1 {{'tosa.exp' op illegal: operation operand/result data types did not align with any profile or extension, got (i32,i32), did you mean (f16,f16)? Otherwise, please refer to the 'supported data types' for 'tosa.exp' in the specification.}}
  %0 = tosa.exp %a : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// unary (bitwise)
func.func @bitwise_not_i1(%a: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error@+1 {{'tosa.bitwise_not' op illegal: operation operand/result data types did not align with any profile or extension, got (i1,i1), did you mean (i8,i8)? Otherwise, please refer to the 'supported data types' for 'tosa.bitwise_not' in the specification.}}
  %0 = tosa.bitwise_not %a : (tensor<4xi1>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// binary; mirrors Dialect/Tosa/invalid.mlir @test_add_i1
func.func @add_i1(%a: tensor<13x21x1xi1>, %b: tensor<13x21x3xi1>) -> tensor<13x21x3xi1> {
  // expected-error@+1 {{'tosa.add' op illegal: operation operand/result data types did not align with any profile or extension, got (i1,i1,i1), did you mean (i32,i32,i32)? Otherwise, please refer to the 'supported data types' for 'tosa.add' in the specification.}}
  %0 = tosa.add %a, %b : (tensor<13x21x1xi1>, tensor<13x21x3xi1>) -> tensor<13x21x3xi1>
  return %0 : tensor<13x21x3xi1>
}

// -----

// binary
func.func @maximum_i16(%a: tensor<4xi16>, %b: tensor<4xi16>) -> tensor<4xi16> {
  // expected-error@+1 {{'tosa.maximum' op illegal: operation operand/result data types did not align with any profile or extension, got (i16,i16,i16), did you mean (i32,i32,i32)? Otherwise, please refer to the 'supported data types' for 'tosa.maximum' in the specification.}}
  %0 = tosa.maximum %a, %b : (tensor<4xi16>, tensor<4xi16>) -> tensor<4xi16>
  return %0 : tensor<4xi16>
}

// -----

// binary, an element type outside TOSA
func.func @pow_f64(%a: tensor<4xf64>, %b: tensor<4xf64>) -> tensor<4xf64> {
  // expected-error@+1 {{'tosa.pow' op is not profile-aligned: element type 'f64' is not legal}}
  %0 = tosa.pow %a, %b : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

// binary, the int64 extension
func.func @intdiv_i64(%a: tensor<4xi64>, %b: tensor<4xi64>) -> tensor<4xi64> {
  // expected-error@+1 {{'tosa.intdiv' op illegal: requires [int64] but not enabled in target}}
  %0 = tosa.intdiv %a, %b : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

// comparison
func.func @greater_i8(%a: tensor<4xi8>, %b: tensor<4xi8>) -> tensor<4xi1> {
  // expected-error@+1 {{'tosa.greater' op illegal: operation operand/result data types did not align with any profile or extension, got (i8,i8,i1), did you mean (i32,i32,i1)? Otherwise, please refer to the 'supported data types' for 'tosa.greater' in the specification.}}
  %0 = tosa.greater %a, %b : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// comparison (bf16: legal)
func.func @equal_bf16(%a: tensor<4xbf16>, %b: tensor<4xbf16>) -> tensor<4xi1> {
  %0 = tosa.equal %a, %b : (tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// select (the condition is not in the signature)
func.func @select_f8(%c: tensor<4xi1>, %a: tensor<4xf8E4M3FN>, %b: tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN> {
  // expected-error@+1 {{'tosa.select' op illegal: operation operand/result data types did not align with any profile or extension, got (fp8e4m3,fp8e4m3,fp8e4m3), did you mean (i1,i1,i1)? Otherwise, please refer to the 'supported data types' for 'tosa.select' in the specification.}}
  %0 = tosa.select %c, %a, %b : (tensor<4xi1>, tensor<4xf8E4M3FN>, tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN>
  return %0 : tensor<4xf8E4M3FN>
}

// -----

// cast
func.func @cast_i1_f32(%a: tensor<4xi1>) -> tensor<4xf32> {
  // expected-error@+1 {{'tosa.cast' op illegal: operation operand/result data types did not align with any profile or extension, got (i1,f32), did you mean (i1,i8)? Otherwise, please refer to the 'supported data types' for 'tosa.cast' in the specification.}}
  %0 = tosa.cast %a : (tensor<4xi1>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// cast
func.func @cast_f16_bf16(%a: tensor<4xf16>) -> tensor<4xbf16> {
  // expected-error@+1 {{'tosa.cast' op illegal: operation operand/result data types did not align with any profile or extension, got (f16,bf16), did you mean (f16,i8)? Otherwise, please refer to the 'supported data types' for 'tosa.cast' in the specification.}}
  %0 = tosa.cast %a : (tensor<4xf16>) -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// -----

// cast, the int64 extension
func.func @cast_i32_i64(%a: tensor<4xi32>) -> tensor<4xi64> {
  // expected-error@+1 {{'tosa.cast' op illegal: requires [int64] but not enabled in target}}
  %0 = tosa.cast %a : (tensor<4xi32>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

// cast (legal)
func.func @cast_bf16_f8(%a: tensor<4xbf16>) -> tensor<4xf8E5M2> {
  %0 = tosa.cast %a : (tensor<4xbf16>) -> tensor<4xf8E5M2>
  return %0 : tensor<4xf8E5M2>
}

// -----

// clamp; mirrors Dialect/Tosa/invalid.mlir @test_unsupported_boolean_type_clamp
func.func @clamp_i1(%a: tensor<13x21x3xi1>) -> tensor<13x21x3xi1> {
  // expected-error@+1 {{'tosa.clamp' op illegal: operation operand/result data types did not align with any profile or extension, got (i1,i1), did you mean (i8,i8)? Otherwise, please refer to the 'supported data types' for 'tosa.clamp' in the specification.}}
  %0 = tosa.clamp %a {min_val = false, max_val = true} : (tensor<13x21x3xi1>) -> tensor<13x21x3xi1>
  return %0 : tensor<13x21x3xi1>
}

// -----

// clamp
func.func @clamp_i32(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error@+1 {{'tosa.clamp' op illegal: operation operand/result data types did not align with any profile or extension, got (i32,i32), did you mean (i8,i8)? Otherwise, please refer to the 'supported data types' for 'tosa.clamp' in the specification.}}
  %0 = tosa.clamp %a {min_val = 0 : i32, max_val = 1 : i32} : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// clamp, an unsigned type
func.func @clamp_ui8(%a: tensor<4xui8>) -> tensor<4xui8> {
  // expected-error@+1 {{'tosa.clamp' op is not profile-aligned: element type 'ui8' is not legal}}
  %0 = tosa.clamp %a {min_val = 0 : ui8, max_val = 1 : ui8} : (tensor<4xui8>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

// mul; mirrors Dialect/Tosa/invalid.mlir @test_mul_out_i16
func.func @mul_out_i16(%a: tensor<13x21x3xi8>, %b: tensor<13x1x3xi8>) -> tensor<13x21x3xi16> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error@+1 {{'tosa.mul' op illegal: operation operand/result data types did not align with any profile or extension, got (i8,i8,i16), did you mean (i8,i8,i32)? Otherwise, please refer to the 'supported data types' for 'tosa.mul' in the specification.}}
  %0 = tosa.mul %a, %b, %shift : (tensor<13x21x3xi8>, tensor<13x1x3xi8>, tensor<1xi8>) -> tensor<13x21x3xi16>
  return %0 : tensor<13x21x3xi16>
}

// -----

// mul
func.func @mul_i1(%a: tensor<4xi1>, %b: tensor<4xi1>) -> tensor<4xi1> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error@+1 {{'tosa.mul' op illegal: operation operand/result data types did not align with any profile or extension, got (i1,i1,i1), did you mean (i8,i8,i32)? Otherwise, please refer to the 'supported data types' for 'tosa.mul' in the specification.}}
  %0 = tosa.mul %a, %b, %shift : (tensor<4xi1>, tensor<4xi1>, tensor<1xi8>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// shift
func.func @lsl_i1(%a: tensor<4xi1>, %b: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error@+1 {{'tosa.logical_left_shift' op illegal: operation operand/result data types did not align with any profile or extension, got (i1,i1,i1), did you mean (i8,i8,i8)? Otherwise, please refer to the 'supported data types' for 'tosa.logical_left_shift' in the specification.}}
  %0 = tosa.logical_left_shift %a, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// shift
func.func @asr_f32(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'tosa.arithmetic_right_shift' op illegal: operation operand/result data types did not align with any profile or extension, got (f32,f32,f32), did you mean (i8,i8,i8)? Otherwise, please refer to the 'supported data types' for 'tosa.arithmetic_right_shift' in the specification.}}
  %0 = tosa.arithmetic_right_shift %a, %b {round = false} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// shift (i48: a TOSA type, in no entry)
func.func @lsr_i48(%a: tensor<4xi48>, %b: tensor<4xi48>) -> tensor<4xi48> {
  // expected-error@+1 {{'tosa.logical_right_shift' op illegal: operation operand/result data types did not align with any profile or extension, got (i48,i48,i48), did you mean (i8,i8,i8)? Otherwise, please refer to the 'supported data types' for 'tosa.logical_right_shift' in the specification.}}
  %0 = tosa.logical_right_shift %a, %b : (tensor<4xi48>, tensor<4xi48>) -> tensor<4xi48>
  return %0 : tensor<4xi48>
}

// -----

// negate
func.func @negate_i1(%a: tensor<4xi1>) -> tensor<4xi1> {
  %zp = "tosa.const"() <{values = dense<false> : tensor<1xi1>}> : () -> tensor<1xi1>
  // expected-error@+1 {{'tosa.negate' op illegal: operation operand/result data types did not align with any profile or extension, got (i1,i1,i1,i1), did you mean (i8,i8,i8,i8)? Otherwise, please refer to the 'supported data types' for 'tosa.negate' in the specification.}}
  %0 = tosa.negate %a, %zp, %zp : (tensor<4xi1>, tensor<1xi1>, tensor<1xi1>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}
