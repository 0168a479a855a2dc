// A cascaded pair costed from its npu.stripe / npu.cascade (hand-written, as npu-form-cascades
// writes them): npu-select-block-config searches each member's block for its OFM *stripe* (the
// stripe's input window as IFM), as Vela's scheduler does per stripe proposal, and npu-estimate
// costs the whole op with that block (Vela's legacy per-layer report does the same: whole
// shapes, the stripe's block config). The same pair without the attributes (second case) gets
// the whole-OFM blocks and other cycles. ethos-u65-256, Ethos_U65_High_End, Sram_Only.
// Depthwise 3x3 32x32x16 in 2-row stripes: the block is at most 2 rows high (2x32x16, IFM block
// 4x34), where the whole OFM gets 12x16x16; the 1x1 convolution gets 2x32x32 instead of 4x32x32.
// RUN: %npu_opt %s --split-input-file -p npu-select-block-config,npu-estimate > %t.out
// RUN: %filecheck %s --input-file %t.out
// RUN: %npu_opt --split-input-file < %t.out | %filecheck %s

// CHECK-LABEL: func.func @cascaded
// CHECK: "npu.depthwise_conv2d"{{.*}}npu.stripe = #npu.stripe<2x32x16>, npu.cascade = #npu.cascade<0, rolling = 4x32x16>
// CHECK-SAME: npu.block = #npu.block<2x32x16, ifm = 4x34x16, acc = 32, traversal = part_kernel>
// CHECK-SAME: npu.cost = #npu.cost<total = 6416, npu = 6416, compute = 6416, dma = 0, sram = 6144,
// CHECK: "npu.conv2d"{{.*}}npu.stripe = #npu.stripe<2x32x32>, npu.cascade = #npu.cascade<0>
// CHECK-SAME: npu.block = #npu.block<2x32x32, ifm = 2x32x16, acc = 32, traversal = depth_first>
// CHECK-SAME: npu.cost = #npu.cost<total = 8496, npu = 8496, compute = 8496, dma = 0, sram = 6144,
module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Sram_Only">} {
  func.func @cascaded(%ifm: tensor<1x32x32x16xi8>) -> tensor<1x32x32x32xi8> {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<1x3x3x16xi8>}> : () -> tensor<1x3x3x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %w2 = "tfl.pseudo_const"() <{value = dense<1> : tensor<32x1x1x16xi8>}> : () -> tensor<32x1x1x16xi8>
    %b2 = "tfl.pseudo_const"() <{value = dense<0> : tensor<32xi32>}> : () -> tensor<32xi32>
    %0 = "npu.depthwise_conv2d"(%ifm, %w, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "dw"}> {npu.stripe = #npu.stripe<2x32x16>, npu.cascade = #npu.cascade<0, rolling = 4x32x16>} : (tensor<1x32x32x16xi8>, tensor<1x3x3x16xi8>, tensor<16xi32>) -> tensor<1x32x32x16xi8>
    %1 = "npu.conv2d"(%0, %w2, %b2) <{kernel = #npu.kernel<1x1>, name = "pw"}> {npu.stripe = #npu.stripe<2x32x32>, npu.cascade = #npu.cascade<0>} : (tensor<1x32x32x16xi8>, tensor<32x1x1x16xi8>, tensor<32xi32>) -> tensor<1x32x32x32xi8>
    return %1 : tensor<1x32x32x32xi8>
  }
}

// -----

// CHECK-LABEL: func.func @whole
// CHECK: "npu.depthwise_conv2d"{{.*}}npu.block = #npu.block<12x16x16, ifm = 14x18x16, acc = 32, traversal = part_kernel>
// CHECK-SAME: npu.cost = #npu.cost<total = 7680, npu = 7680, compute = 7680, dma = 0, sram = 5072,
// CHECK: "npu.conv2d"{{.*}}npu.block = #npu.block<4x32x32, ifm = 4x32x16, acc = 32, traversal = depth_first>
// CHECK-SAME: npu.cost = #npu.cost<total = 8784, npu = 8784, compute = 8784, dma = 0, sram = 6144,
module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Sram_Only">} {
  func.func @whole(%ifm: tensor<1x32x32x16xi8>) -> tensor<1x32x32x32xi8> {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<1x3x3x16xi8>}> : () -> tensor<1x3x3x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %w2 = "tfl.pseudo_const"() <{value = dense<1> : tensor<32x1x1x16xi8>}> : () -> tensor<32x1x1x16xi8>
    %b2 = "tfl.pseudo_const"() <{value = dense<0> : tensor<32xi32>}> : () -> tensor<32xi32>
    %0 = "npu.depthwise_conv2d"(%ifm, %w, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "dw"}> : (tensor<1x32x32x16xi8>, tensor<1x3x3x16xi8>, tensor<16xi32>) -> tensor<1x32x32x16xi8>
    %1 = "npu.conv2d"(%0, %w2, %b2) <{kernel = #npu.kernel<1x1>, name = "pw"}> : (tensor<1x32x32x16xi8>, tensor<32x1x1x16xi8>, tensor<32xi32>) -> tensor<1x32x32x32xi8>
    return %1 : tensor<1x32x32x32xi8>
  }
}

// -----

// A block fitted to a 1-row stripe that does not fit SHRAM against the whole OFM: the search
// gives the 1x1 convolution 2x56x64 for its 1x56x128 stripe, which the whole 56x56x128 OFM
// would not take. The estimate (and every pass reading the op's block) checks it against the
// stripe the NPU runs, instead of refusing the op.
// CHECK-LABEL: func.func @block_for_a_thin_stripe
// CHECK: "npu.conv2d"{{.*}}npu.block = #npu.block<2x56x64, ifm = 2x56x32, acc = 32, traversal = depth_first>, npu.cost = #npu.cost<total = 102144,
module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram_384KB">} {
  func.func @block_for_a_thin_stripe(%ifm: tensor<1x56x56x64xi8, #npu.fm<NHCWB16, Sram>>) -> tensor<1x56x56x128xi8, #npu.fm<NHCWB16, Sram>> {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<128x1x1x64xi8>}> : () -> tensor<128x1x1x64xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<128xi32>}> : () -> tensor<128xi32>
    %0 = "npu.conv2d"(%ifm, %w, %b) <{kernel = #npu.kernel<1x1>, name = "pw"}> {npu.stripe = #npu.stripe<1x56x128>} : (tensor<1x56x56x64xi8, #npu.fm<NHCWB16, Sram>>, tensor<128x1x1x64xi8>, tensor<128xi32>) -> tensor<1x56x56x128xi8, #npu.fm<NHCWB16, Sram>>
    return %0 : tensor<1x56x56x128xi8, #npu.fm<NHCWB16, Sram>>
  }
}
