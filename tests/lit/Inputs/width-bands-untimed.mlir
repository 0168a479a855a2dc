// The chain of npu/width-bands.mlir with npu.time on one op only: an incomplete numbering is one
// error, as the other scheduling passes report it.
module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram_384KB">} {
  func.func @chain(%ifm: tensor<1x8x20x16xi8>) -> tensor<1x8x20x16xi8> {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %0 = "npu.conv2d"(%ifm, %w, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "conv"}> {npu.time = 0 : i64} : (tensor<1x8x20x16xi8>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x20x16xi8>
    %1 = "npu.max_pool"(%0) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "pool"}> : (tensor<1x8x20x16xi8>) -> tensor<1x8x20x16xi8>
    return %1 : tensor<1x8x20x16xi8>
  }
}
