// The ethosu ops in npu-opt's text: printing is a fixed point and the generic form parses back,
// in npu-opt and in xdsl-opt.
// RUN: %npu_opt %s --split-input-file | %filecheck %s
// RUN: %fixedpoint
// RUN: %npu_opt %s --split-input-file --print-op-generic | %npu_opt --split-input-file | %filecheck %s

// CHECK-LABEL: "ethosu.program"() ({
// CHECK-NEXT:    "ethosu.dma"() <{src = #ethosu.mem<region = 0, address = 768>, dst = #ethosu.mem<region = 3, address = 0, internal>, length = 256 : i64}>
// CHECK-NEXT:    "ethosu.elementwise"() <{{{.*}}activation = #ethosu.act<lut0, min = -128, max = 127>{{.*}}mode = "mul", ifm2 = #ethosu.fm<int8, NHWC, zero_point = 0>, ifm2_scalar = 4 : i32{{.*}}ofm_scale = #ethosu.scale<1431655808, shift = 32>, kernel_wait = 0 : i32, dma_wait = 0 : i32}>
// CHECK-NEXT:    "ethosu.stop"() <{mask = 65535 : i32}>
"ethosu.program"() ({
  "ethosu.dma"() <{src = #ethosu.mem<region = 0, address = 768>, dst = #ethosu.mem<region = 3, address = 0, internal>, length = 256 : i64}> : () -> ()
  "ethosu.elementwise"() <{ifm = #ethosu.fm<int8, NHWC, region = 1, bases = [0, 0, 0, 0], tiles = [4, 0, 4], strides = [16, 64, 1], depth = 16, zero_point = 1>, ofm = #ethosu.fm<int8, NHWC, region = 1, bases = [32768, 0, 0, 0], tiles = [4, 0, 4], strides = [16, 64, 1], height = 4, width = 4, depth = 16, zero_point = 0>, activation = #ethosu.act<lut0, min = -128, max = 127>, block = #ethosu.block<4x4x16, ib_end = 22, ab_start = 22, acc = int32>, rounding = "tfl", upscale = "none", blockdep = 0 : i32, mode = "mul", ifm2 = #ethosu.fm<int8, NHWC, zero_point = 0>, ifm2_scalar = 4 : i32, scale_mode = "opa16_opb16", global_scale, ofm_scale = #ethosu.scale<1431655808, shift = 32>, kernel_wait = 0 : i32, dma_wait = 0 : i32}> : () -> ()
  "ethosu.stop"() <{mask = 65535 : i32}> : () -> ()
}) : () -> ()

// -----

// A U65-512 program: each weight and scale stream has the second core's range.
// CHECK-LABEL: "ethosu.program"() <{parallel_mode = 1 : i32}> ({
// CHECK-NEXT:    "ethosu.depthwise"() <{{{.*}}kernel = #ethosu.kernel<3x3, stride = 2x2, dilation = 2x2, padding = [1, 0, 1, 0]>, weights = #ethosu.stream<region = 2, base = 0, length = 96, base1 = 96, length1 = 96>, scales = #ethosu.stream<region = 2, base = 192, length = 80, base1 = 192, length1 = 0>}>
// CHECK-NEXT:    "ethosu.pool"() <{{{.*}}mode = "average", kernel = #ethosu.kernel<2x2, stride = 2x2, dilation = 1x1, padding = [0, 0, 0, 0]>, ofm_scale = #ethosu.scale<16384, shift = 16>, kernel_wait = 0 : i32}>
// CHECK-NEXT:    "ethosu.stop"()
"ethosu.program"() <{parallel_mode = 1 : i32}> ({
  "ethosu.depthwise"() <{ifm = #ethosu.fm<int16, NHCWB16, region = 1, bases = [0, 0, 0, 0], tiles = [9, 0, 9], strides = [32, 288, 162], depth = 16>, ofm = #ethosu.fm<int16, NHCWB16, region = 1, bases = [8192, 0, 0, 0], tiles = [4, 0, 4], strides = [32, 128, 128], height = 4, width = 4, depth = 16>, activation = #ethosu.act<none, clip = int16, min = -32768, max = 32767>, block = #ethosu.block<4x4x16, ib_end = 16, ab_start = 16, acc = int40>, rounding = "natural", upscale = "none", blockdep = 0 : i32, kernel = #ethosu.kernel<3x3, stride = 2x2, dilation = 2x2, padding = [1, 0, 1, 0]>, weights = #ethosu.stream<region = 2, base = 0, length = 96, base1 = 96, length1 = 96>, scales = #ethosu.stream<region = 2, base = 192, length = 80, base1 = 192, length1 = 0>}> : () -> ()
  "ethosu.pool"() <{ifm = #ethosu.fm<int16, NHCWB16, region = 1, bases = [8192, 0, 0, 0], tiles = [4, 0, 4], strides = [32, 128, 128], depth = 16>, ofm = #ethosu.fm<int16, NHWC, region = 1, bases = [0, 0, 0, 0], tiles = [2, 0, 2], strides = [32, 64, 2], height = 2, width = 2, depth = 16>, activation = #ethosu.act<none, min = -32768, max = 32767>, block = #ethosu.block<2x2x16, ib_end = 16, ab_start = 16, acc = int32>, rounding = "tfl", upscale = "none", blockdep = 2 : i32, mode = "average", kernel = #ethosu.kernel<2x2, stride = 2x2>, ofm_scale = #ethosu.scale<16384, shift = 16>, kernel_wait = 0 : i32}> : () -> ()
  "ethosu.stop"() <{mask = 65535 : i32}> : () -> ()
}) : () -> ()
