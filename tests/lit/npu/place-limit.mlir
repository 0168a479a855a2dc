// npu-place-tensors does not cascade or spill yet, but it says when the feature maps live in fast
// storage during an NPU op exceed the arena cache size: one warning per function naming the op
// with the most live bytes, and the statistic over-limit counting the NPU ops over the limit.
// Live: from the writing op to the last reader; NHCWB16 rounds the depth (8) up to 16.
// RUN: %npu_opt %s --pass=npu-legalize,npu-order,npu-format-nhcwb16,npu-place-tensors --target=ethos-u65-256 --memory-mode=Dedicated_Sram --arena-cache-size=6000 --pass-statistics -o /dev/null 2>&1 | %filecheck %s
// RUN: %npu_opt %s --pass=npu-legalize,npu-order,npu-format-nhcwb16,npu-place-tensors --target=ethos-u65-256 --memory-mode=Dedicated_Sram --arena-cache-size=8192 -o /dev/null 2>&1 | %filecheck %s --check-prefix=FITS --allow-empty

// CHECK: warning: feature maps live in Sram while 'mid_avgpool' runs take 8192 bytes, more than the arena cache size of 6000 bytes (1 NPU op(s) over it)
// CHECK: 'npu-place-tensors'
// CHECK: (S) 1 over-limit
// FITS-NOT: warning
module {
  func.func @chain(%x: tensor<1x16x16x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x16x16x8x!quant.uniform<i8:f32, 0.5>> {
    %a = "tfl.relu"(%x) : (tensor<1x16x16x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x16x16x8x!quant.uniform<i8:f32, 0.5>> loc("first")
    %b = "tfl.relu"(%a) : (tensor<1x16x16x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x16x16x8x!quant.uniform<i8:f32, 0.5>> loc("mid")
    %c = "tfl.relu"(%b) : (tensor<1x16x16x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x16x16x8x!quant.uniform<i8:f32, 0.5>> loc("last")
    return %c : tensor<1x16x16x8x!quant.uniform<i8:f32, 0.5>>
  }
}
