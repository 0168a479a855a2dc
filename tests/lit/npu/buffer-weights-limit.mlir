// npu-buffer-weights under a search's buffer limit (#npu.schedule<Size, ..., buffer_limit = N>):
// the members of a cascade keep their weight buffers until the cascade ends, so a member's
// buffer gets the limit less the feature maps live and less the buffers of the members before
// it. Both cases are the fire module of form-cascades.mlir after its cascade (squeeze, the two
// expands and the 3x3 reading their concatenation, all members), with 7,400 bytes: filling that
// limit, the 3x3's 752-byte buffer no longer fits beside the three before it and it reads its
// weights in place. Vela's rule (no buffer limit) comes to the same here: Vela adds each member's
// whole weights to the cascade's memory, so a member gets the limit less the feature maps live and
// less the weights of the members before it, buffered or not.
// RUN: %npu_opt %s --split-input-file --pass=npu-buffer-weights --pass-remarks -o %t.out 2> %t.diag
// RUN: %filecheck %s --input-file %t.out
// RUN: %filecheck %s --check-prefix=REMARK --input-file %t.diag

// CHECK-LABEL: func.func @filling_a_limit(
// CHECK-COUNT-3: npu.stream = #npu.stream<
// CHECK-NOT: npu.stream
// CHECK: return
// REMARK: remark: weights of 'expand_3x3' stream in one buffer of 560 bytes: a cascade member takes its weights whole
// REMARK: remark: weights of 'reader' are read in place from Dram: its smallest weight buffer takes 752 bytes, more than the 216 bytes of fast storage free for weight buffers
module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram_384KB">, npu.schedule = #npu.schedule<Size, arena_cache_size = 393216, sram_target = 7400, buffer_limit = 7400, cascade_concats>} {
  func.func @filling_a_limit(%arg0: tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>> {
    %0 = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x1x1x16xi8>}> : () -> tensor<16x1x1x16xi8>
    %1 = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %2 = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %3 = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x32xi8>}> : () -> tensor<16x3x3x32xi8>
    %4 = "npu.avg_pool"(%arg0) <{name = "a_in", activation = #npu.act<relu, min = 0, max = 127>, kernel = #npu.kernel<1x1, stride = 1x1, dilation = 1x1, padding = [0, 0, 0, 0]>}> {npu.time = 1 : i64, npu.block = #npu.block<2x6x16, ifm = 2x6x16, acc = 32, traversal = depth_first>, npu.stripe = #npu.stripe<1x16x16>, npu.cascade = #npu.cascade<1, rolling = 2x16x16>} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %5 = "npu.dma"(%0) {npu.time = 0 : i64, npu.stream = #npu.stream<slices = [0, 16], buffering = single, buffers = [240], bytes = 240, prefetch>} : (tensor<16x1x1x16xi8>) -> tensor<16x1x1x16xi8, #npu.fm<NHWC, Sram>>
    %6 = "npu.conv2d"(%4, %5, %1) <{kernel = #npu.kernel<1x1, stride = 1x1, dilation = 1x1, padding = [0, 0, 0, 0]>, name = "squeeze"}> {npu.time = 3 : i64, npu.block = #npu.block<2x16x16, ifm = 2x16x16, acc = 32, traversal = depth_first>, npu.stripe = #npu.stripe<1x16x16>, npu.cascade = #npu.cascade<1, rolling = 6x16x16>} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>, tensor<16x1x1x16xi8, #npu.fm<NHWC, Sram>>, tensor<16xi32>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %7 = "npu.dma"(%0) {npu.time = 2 : i64, npu.stream = #npu.stream<slices = [0, 16], buffering = single, buffers = [240], bytes = 240, prefetch>} : (tensor<16x1x1x16xi8>) -> tensor<16x1x1x16xi8, #npu.fm<NHWC, Sram>>
    %8 = "npu.conv2d"(%6, %7, %1) <{kernel = #npu.kernel<1x1, stride = 1x1, dilation = 1x1, padding = [0, 0, 0, 0]>, name = "expand_1x1"}> {npu.time = 4 : i64, npu.block = #npu.block<2x16x16, ifm = 2x16x16, acc = 32, traversal = depth_first>, npu.stripe = #npu.stripe<1x16x16>, npu.cascade = #npu.cascade<1, rolling = 2x16x16>} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>, tensor<16x1x1x16xi8, #npu.fm<NHWC, Sram>>, tensor<16xi32>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %9 = "npu.avg_pool"(%8) <{name = "part0", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<1x1, stride = 1x1, dilation = 1x1, padding = [0, 0, 0, 0]>}> {npu.time = 6 : i64, npu.block = #npu.block<2x4x32, ifm = 2x4x32, acc = 32, traversal = depth_first>, npu.stripe = #npu.stripe<1x16x16>, npu.cascade = #npu.cascade<1>} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %10 = "npu.dma"(%2) {npu.time = 5 : i64, npu.stream = #npu.stream<slices = [0, 16], buffering = single, buffers = [560], bytes = 560, prefetch>} : (tensor<16x3x3x16xi8>) -> tensor<16x3x3x16xi8, #npu.fm<NHWC, Sram>>
    %11 = "npu.conv2d"(%6, %10, %1) <{kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [1, 1, 1, 1]>, name = "expand_3x3"}> {npu.time = 7 : i64, npu.block = #npu.block<2x16x16, ifm = 4x18x16, acc = 32, traversal = part_kernel>, npu.stripe = #npu.stripe<1x16x16>, npu.cascade = #npu.cascade<1, rolling = 2x16x16>} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>, tensor<16x3x3x16xi8, #npu.fm<NHWC, Sram>>, tensor<16xi32>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %12 = "npu.avg_pool"(%11) <{name = "part1", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<1x1, stride = 1x1, dilation = 1x1, padding = [0, 0, 0, 0]>}> {npu.time = 9 : i64, npu.block = #npu.block<2x4x32, ifm = 2x4x32, acc = 32, traversal = depth_first>, npu.stripe = #npu.stripe<1x16x16>, npu.cascade = #npu.cascade<1>} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %13 = "npu.concat"(%9, %12) <{name = "cat", offsets = [#npu.offset<0, 0, 0, 0>, #npu.offset<0, 0, 0, 16>]}> {npu.cascade = #npu.cascade<1, rolling = 6x16x32>} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>, tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>) -> tensor<1x32x16x32x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %14 = "npu.dma"(%3) {npu.time = 8 : i64, npu.stream = #npu.stream<slices = [0, 16], buffering = single, buffers = [752], bytes = 752, prefetch>} : (tensor<16x3x3x32xi8>) -> tensor<16x3x3x32xi8, #npu.fm<NHWC, Sram>>
    %15 = "npu.conv2d"(%13, %14, %1) <{kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [1, 1, 1, 1]>, name = "reader"}> {npu.time = 10 : i64, npu.block = #npu.block<2x16x16, ifm = 4x18x32, acc = 32, traversal = depth_first>, npu.stripe = #npu.stripe<1x16x16>, npu.cascade = #npu.cascade<1>} : (tensor<1x32x16x32x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>, tensor<16x3x3x32xi8, #npu.fm<NHWC, Sram>>, tensor<16xi32>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>
    return %15 : tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>
  }
}

// -----

// CHECK-LABEL: func.func @vela_rule(
// CHECK-COUNT-3: npu.stream = #npu.stream<
// CHECK-NOT: npu.stream
// CHECK: return
// REMARK: remark: weights of 'reader' are read in place from Dram: its smallest weight buffer takes 752 bytes, more than the 216 bytes of fast storage free for weight buffers
module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram_384KB">, npu.schedule = #npu.schedule<Size, arena_cache_size = 393216, sram_target = 7400, buffer_limit = 0, cascade_concats>} {
  func.func @vela_rule(%arg0: tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>> {
    %0 = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x1x1x16xi8>}> : () -> tensor<16x1x1x16xi8>
    %1 = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %2 = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %3 = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x32xi8>}> : () -> tensor<16x3x3x32xi8>
    %4 = "npu.avg_pool"(%arg0) <{name = "a_in", activation = #npu.act<relu, min = 0, max = 127>, kernel = #npu.kernel<1x1, stride = 1x1, dilation = 1x1, padding = [0, 0, 0, 0]>}> {npu.time = 1 : i64, npu.block = #npu.block<2x6x16, ifm = 2x6x16, acc = 32, traversal = depth_first>, npu.stripe = #npu.stripe<1x16x16>, npu.cascade = #npu.cascade<1, rolling = 2x16x16>} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %5 = "npu.dma"(%0) {npu.time = 0 : i64, npu.stream = #npu.stream<slices = [0, 16], buffering = single, buffers = [240], bytes = 240, prefetch>} : (tensor<16x1x1x16xi8>) -> tensor<16x1x1x16xi8, #npu.fm<NHWC, Sram>>
    %6 = "npu.conv2d"(%4, %5, %1) <{kernel = #npu.kernel<1x1, stride = 1x1, dilation = 1x1, padding = [0, 0, 0, 0]>, name = "squeeze"}> {npu.time = 3 : i64, npu.block = #npu.block<2x16x16, ifm = 2x16x16, acc = 32, traversal = depth_first>, npu.stripe = #npu.stripe<1x16x16>, npu.cascade = #npu.cascade<1, rolling = 6x16x16>} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>, tensor<16x1x1x16xi8, #npu.fm<NHWC, Sram>>, tensor<16xi32>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %7 = "npu.dma"(%0) {npu.time = 2 : i64, npu.stream = #npu.stream<slices = [0, 16], buffering = single, buffers = [240], bytes = 240, prefetch>} : (tensor<16x1x1x16xi8>) -> tensor<16x1x1x16xi8, #npu.fm<NHWC, Sram>>
    %8 = "npu.conv2d"(%6, %7, %1) <{kernel = #npu.kernel<1x1, stride = 1x1, dilation = 1x1, padding = [0, 0, 0, 0]>, name = "expand_1x1"}> {npu.time = 4 : i64, npu.block = #npu.block<2x16x16, ifm = 2x16x16, acc = 32, traversal = depth_first>, npu.stripe = #npu.stripe<1x16x16>, npu.cascade = #npu.cascade<1, rolling = 2x16x16>} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>, tensor<16x1x1x16xi8, #npu.fm<NHWC, Sram>>, tensor<16xi32>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %9 = "npu.avg_pool"(%8) <{name = "part0", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<1x1, stride = 1x1, dilation = 1x1, padding = [0, 0, 0, 0]>}> {npu.time = 6 : i64, npu.block = #npu.block<2x4x32, ifm = 2x4x32, acc = 32, traversal = depth_first>, npu.stripe = #npu.stripe<1x16x16>, npu.cascade = #npu.cascade<1>} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %10 = "npu.dma"(%2) {npu.time = 5 : i64, npu.stream = #npu.stream<slices = [0, 16], buffering = single, buffers = [560], bytes = 560, prefetch>} : (tensor<16x3x3x16xi8>) -> tensor<16x3x3x16xi8, #npu.fm<NHWC, Sram>>
    %11 = "npu.conv2d"(%6, %10, %1) <{kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [1, 1, 1, 1]>, name = "expand_3x3"}> {npu.time = 7 : i64, npu.block = #npu.block<2x16x16, ifm = 4x18x16, acc = 32, traversal = part_kernel>, npu.stripe = #npu.stripe<1x16x16>, npu.cascade = #npu.cascade<1, rolling = 2x16x16>} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>, tensor<16x3x3x16xi8, #npu.fm<NHWC, Sram>>, tensor<16xi32>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %12 = "npu.avg_pool"(%11) <{name = "part1", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<1x1, stride = 1x1, dilation = 1x1, padding = [0, 0, 0, 0]>}> {npu.time = 9 : i64, npu.block = #npu.block<2x4x32, ifm = 2x4x32, acc = 32, traversal = depth_first>, npu.stripe = #npu.stripe<1x16x16>, npu.cascade = #npu.cascade<1>} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %13 = "npu.concat"(%9, %12) <{name = "cat", offsets = [#npu.offset<0, 0, 0, 0>, #npu.offset<0, 0, 0, 16>]}> {npu.cascade = #npu.cascade<1, rolling = 6x16x32>} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>, tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>) -> tensor<1x32x16x32x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %14 = "npu.dma"(%3) {npu.time = 8 : i64, npu.stream = #npu.stream<slices = [0, 16], buffering = single, buffers = [752], bytes = 752, prefetch>} : (tensor<16x3x3x32xi8>) -> tensor<16x3x3x32xi8, #npu.fm<NHWC, Sram>>
    %15 = "npu.conv2d"(%13, %14, %1) <{kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [1, 1, 1, 1]>, name = "reader"}> {npu.time = 10 : i64, npu.block = #npu.block<2x16x16, ifm = 4x18x32, acc = 32, traversal = depth_first>, npu.stripe = #npu.stripe<1x16x16>, npu.cascade = #npu.cascade<1>} : (tensor<1x32x16x32x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>, tensor<16x3x3x32xi8, #npu.fm<NHWC, Sram>>, tensor<16xi32>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>
    return %15 : tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>
  }
}
