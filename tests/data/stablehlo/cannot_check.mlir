// Constructs outside bcast's model of StableHLO's types must not get a
// confident verdict: each broadcasting op below gets a remark
// "cannot check: REASON" at the op, is counted as such by --summary, and
// does not fail the run; --strict turns it into an error.  Outside the
// model: a tensor encoding other than #stablehlo.bounds (a sparse tensor),
// an element type StableHLO does not name (index as data, i3) and a
// quantized type other than !quant.uniform.  Ops the model covers keep
// their verdicts next to them.  Cases written for bcast from the StableHLO
// specification's types and StableHLO's ODS type constraints
// (openxla/stablehlo at commit 3c9301c11, docs/spec.md and
// stablehlo/dialect/Base.td; the message quoted is TypeInference.cpp's),
// Apache-2.0 WITH LLVM-exception.
// Run: bcast verify --verify-diagnostics FILE

// A sparse result encoding (upstream's sparsity rule accepts any mix of
// encodings; bcast does not model them).
#csr = #sparse_tensor.encoding<{map = (d0, d1) -> (d0 : dense, d1 : compressed)}>
func.func @sparse_result(%arg0: tensor<4xf32>) -> tensor<3x4xf32, #csr> {
  // expected-remark @+1 {{cannot check: }}
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32, #csr>
  return %0 : tensor<3x4xf32, #csr>
}

// -----

// Sparse CHLO operands.
#csr = #sparse_tensor.encoding<{map = (d0, d1) -> (d0 : dense, d1 : compressed)}>
func.func @sparse_chlo(%arg0: tensor<4x4xf32, #csr>) -> tensor<4x4xf32, #csr> {
  // expected-remark @+1 {{cannot check: }}
  %0 = chlo.broadcast_add %arg0, %arg0 : (tensor<4x4xf32, #csr>, tensor<4x4xf32, #csr>) -> tensor<4x4xf32, #csr>
  return %0 : tensor<4x4xf32, #csr>
}

// -----

// index as a data element type.
func.func @index_data(%arg0: tensor<2xindex>) -> tensor<3x2xindex> {
  // expected-remark @+1 {{cannot check: }}
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [1] : (tensor<2xindex>) -> tensor<3x2xindex>
  return %0 : tensor<3x2xindex>
}

// -----

// An integer width StableHLO does not have.
func.func @i3(%arg0: tensor<2xi3>) -> tensor<3x2xi3> {
  // expected-remark @+1 {{cannot check: }}
  %0 = "stablehlo.broadcast_in_dim"(%arg0) {broadcast_dimensions = array<i64: 1>} : (tensor<2xi3>) -> tensor<3x2xi3>
  func.return %0 : tensor<3x2xi3>
}

// -----

// A calibrated quantized type.
func.func @calibrated(%arg0: tensor<2x!quant.calibrated<f32<-1.0:1.0>>>) -> tensor<3x2x!quant.calibrated<f32<-1.0:1.0>>> {
  // expected-remark @+1 {{cannot check: }}
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [1] : (tensor<2x!quant.calibrated<f32<-1.0:1.0>>>) -> tensor<3x2x!quant.calibrated<f32<-1.0:1.0>>>
  return %0 : tensor<3x2x!quant.calibrated<f32<-1.0:1.0>>>
}

// -----

// Checked ops around one bcast cannot check keep their verdicts (C5).
func.func @mixed(%arg0: tensor<3xf32>, %arg1: tensor<2xi3>) -> (tensor<2x3xf32>, tensor<3x2xi3>) {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  // expected-remark @+1 {{cannot check: }}
  %1 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<2xi3>) -> tensor<3x2xi3>
  // expected-error @+1 {{size of operand dimension 0 (3) is not equal to 1 or size of result dimension 0 (2)}}
  %2 = stablehlo.broadcast_in_dim %arg0, dims = [0] : (tensor<3xf32>) -> tensor<2x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<3x2xi3>
}
