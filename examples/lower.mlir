// TOSA element-wise ops with a static and a dynamic broadcast, for bcast lower.
func.func @scale(%x: tensor<?x4xf32>, %w: tensor<1x4xf32>, %b: tensor<?x1xf32>,
                 %shift: tensor<1xi8>) -> tensor<?x4xf32> {
  %0 = tosa.mul %x, %w, %shift : (tensor<?x4xf32>, tensor<1x4xf32>, tensor<1xi8>) -> tensor<?x4xf32>
  %1 = tosa.add %0, %b : (tensor<?x4xf32>, tensor<?x1xf32>) -> tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}
