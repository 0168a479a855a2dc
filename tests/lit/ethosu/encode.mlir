// npu-translate --encode-command-stream writes a program's command words; decoding them gives
// the program back: a LUT DMA into SHRAM, then a scalar multiply with a LUT activation that waits
// for it and for the NPU.
// RUN: %npu_translate --encode-command-stream %s -o %t.bin
// RUN: %npu_translate --decode-command-stream %t.bin -o %t.mlir
// RUN: %npu_opt %s -o %t.expected.mlir
// RUN: diff %t.mlir %t.expected.mlir
// RUN: %filecheck %s --input-file %t.mlir

// CHECK-LABEL: "ethosu.program"() ({
// CHECK-NEXT:    "ethosu.dma"() <{src = #ethosu.mem<region = 0, address = 768>, dst = #ethosu.mem<region = 3, address = 0, internal>, length = 256 : i64}>
// CHECK-NEXT:    "ethosu.elementwise"() <{{{.*}}activation = #ethosu.act<lut0, min = -128, max = 127>{{.*}}ifm2_scalar = 4 : i32{{.*}}kernel_wait = 0 : i32, dma_wait = 0 : i32}>
// CHECK-NEXT:    "ethosu.stop"() <{mask = 65535 : i32}>
"ethosu.program"() ({
  "ethosu.dma"() <{src = #ethosu.mem<region = 0, address = 768>, dst = #ethosu.mem<region = 3, address = 0, internal>, length = 256 : i64}> : () -> ()
  "ethosu.elementwise"() <{ifm = #ethosu.fm<int8, NHWC, region = 1, bases = [0, 0, 0, 0], tiles = [4, 0, 4], strides = [16, 64, 1], depth = 16, zero_point = 1>, ofm = #ethosu.fm<int8, NHWC, region = 1, bases = [32768, 0, 0, 0], tiles = [4, 0, 4], strides = [16, 64, 1], height = 4, width = 4, depth = 16, zero_point = 0>, activation = #ethosu.act<lut0, min = -128, max = 127>, block = #ethosu.block<4x4x16, ib_end = 22, ab_start = 22, acc = int32>, rounding = "tfl", upscale = "none", blockdep = 0 : i32, mode = "mul", ifm2 = #ethosu.fm<int8, NHWC, zero_point = 0>, ifm2_scalar = 4 : i32, scale_mode = "opa16_opb16", global_scale, ofm_scale = #ethosu.scale<1431655808, shift = 32>, kernel_wait = 0 : i32, dma_wait = 0 : i32}> : () -> ()
  "ethosu.stop"() <{mask = 65535 : i32}> : () -> ()
}) : () -> ()
