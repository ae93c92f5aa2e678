// Line designators: @below and @above skip annotation lines and an
// annotation may share the op's line.  One diagnostic satisfies one
// annotation (the first that matches), so a second annotation for the same
// error is "not produced".  A dangling @below lands on the last line.
// bcast: verify --verify-diagnostics --split-input-file
// mlir-opt: --verify-diagnostics --split-input-file
// report: 13:6: expected error "'tosa.add' op" was not produced
// report: 23:6: expected error "operands" was not produced
// report: 33:4: expected error "nothing below" was not produced

func.func @below(%a: tensor<2xf32>, %b: tensor<3xf32>) -> tensor<2xf32> {
  // expected-error @below {{broadcast-compatible}}
  // expected-error @below {{'tosa.add' op}}
  %0 = tosa.add %a, %b : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @above_twice(%a: tensor<2xf32>, %b: tensor<3xf32>) -> tensor<2xf32> {
  %0 = tosa.sub %a, %b : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>
  // expected-error @above {{operands}}
  // expected-error @above {{operands}}
  return %0 : tensor<2xf32>
}

// -----

func.func @same_line(%a: tensor<2xi32>, %b: tensor<3xi32>) -> tensor<2xi32> {
  %0 = tosa.bitwise_and %a, %b : (tensor<2xi32>, tensor<3xi32>) -> tensor<2xi32> // expected-error {{'tosa.bitwise_and' op operands don't}}
  return %0 : tensor<2xi32>
}
// expected-error @below {{nothing below}}
