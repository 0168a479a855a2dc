// npu-translate --decode-command-stream: a command stream Vela 5.2 made for conv.tflite on a
// U65-256 (a weight DMA, then the convolution waiting for it) as ethosu IR; encoding the IR gives
// back the same bytes, also after npu-opt has parsed and printed it.
// RUN: %npu_translate --decode-command-stream %S/../../data/ethosu/u65-256/conv_0.bin | %filecheck %s
// RUN: %npu_translate --decode-command-stream %S/../../data/ethosu/u65-256/conv_0.bin -o %t.mlir
// RUN: %npu_translate --encode-command-stream %t.mlir -o %t.bin
// RUN: diff %t.bin %S/../../data/ethosu/u65-256/conv_0.bin
// RUN: %npu_opt %t.mlir --print-op-generic | %npu_opt -o %t.again.mlir
// RUN: diff %t.mlir %t.again.mlir
// RUN: %npu_translate --encode-command-stream %t.again.mlir -o %t.again.bin
// RUN: diff %t.again.bin %S/../../data/ethosu/u65-256/conv_0.bin
// The streams of a .tflite Vela compiled (one program per ethos-u operator), and the stream in a
// driver payload (COP1, a config, NOPs, then the stream: here a lone stop).
// RUN: %npu_translate --decode-command-stream %S/../../data/vela/compiled/conv.u55-128.legacy.tflite | %filecheck %s --check-prefix=TFLITE
// RUN: %npu_translate --decode-command-stream %S/../Inputs/ethosu-payload.bin | %filecheck %s --check-prefix=PAYLOAD

// CHECK-LABEL: "ethosu.program"() <{parallel_mode = 0 : i32}> ({
// CHECK-NEXT:    "ethosu.dma"() <{src = #ethosu.mem<region = 0, address = [[W:[0-9]+]]>, dst = #ethosu.mem<region = 2, address = 0>, length = [[LEN:[0-9]+]] : i64}>
// CHECK-NEXT:    "ethosu.conv2d"() <{
// CHECK-SAME:      ifm = #ethosu.fm<int8, NHWC, region = 1, bases = [128, 0, 0, 0], tiles = [8, 8, 4], strides = [6, 24, 1], depth = 6, zero_point = -1>
// CHECK-SAME:      ofm = #ethosu.fm<int8, NHWC, region = 1, bases = [0, 0, 0, 0], tiles = [4, 4, 4], strides = [8, 32, 1], height = 4, width = 4, depth = 8, zero_point = 3>
// CHECK-SAME:      activation = #ethosu.act<none, min = 3, max = 127>
// CHECK-SAME:      block = #ethosu.block<4x4x8, ib_end = 10, ab_start = 30, acc = int32>
// CHECK-SAME:      rounding = "tfl", upscale = "none", blockdep = 0 : i32
// CHECK-SAME:      kernel = #ethosu.kernel<3x2, stride = 2x1, dilation = 1x1, padding = [0, 0, 1, 1], part_kernel_first>
// CHECK-SAME:      weights = #ethosu.stream<region = 2, base = 80, length = 288>
// CHECK-SAME:      scales = #ethosu.stream<region = 2, base = 0, length = 80>
// CHECK-SAME:      dma_wait = 0 : i32
// CHECK-NEXT:    "ethosu.stop"() <{mask = 65535 : i32}> : () -> ()
// CHECK-NEXT:  }) : () -> ()

// TFLITE-LABEL: "ethosu.program"() ({
// TFLITE-NEXT:    "ethosu.dma"()
// TFLITE-NEXT:    "ethosu.conv2d"()
// TFLITE-NEXT:    "ethosu.stop"()
// TFLITE-LABEL: "ethosu.program"() ({
// TFLITE-NEXT:    "ethosu.pool"() <{{{.*}}mode = "max"
// TFLITE-NEXT:    "ethosu.pool"()
// TFLITE-NEXT:    "ethosu.dma"()
// TFLITE-NEXT:    "ethosu.conv2d"()
// TFLITE-NEXT:    "ethosu.conv2d"()
// TFLITE-NEXT:    "ethosu.stop"()

// PAYLOAD-LABEL: "ethosu.program"() ({
// PAYLOAD-NEXT:    "ethosu.stop"() <{mask = 65535 : i32}> : () -> ()
// PAYLOAD-NEXT:  }) : () -> ()
