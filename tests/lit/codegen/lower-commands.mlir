// npu-flash-layout and npu-lower-commands after the schedule: conv.tflite's first NPU run on a
// U65-256 lowers to Vela's command stream: the weight DMA from the read-only data (after the
// 80 bytes of the conv's bias range) into the fast storage, then the convolution reading it.
// RUN: %npu_opt %S/../../data/conv.tflite --target ethos-u65-256 --system-config Ethos_U65_High_End --memory-mode Dedicated_Sram --pass='schedule{optimise=Performance},npu-flash-layout,npu-lower-commands' | %filecheck %s
// RUN: %npu_opt %S/../../data/conv.tflite --target ethos-u65-256 --system-config Ethos_U65_High_End --memory-mode Dedicated_Sram --pass='schedule{optimise=Performance},npu-flash-layout,npu-lower-commands' --pass-remarks -o /dev/null 2>&1 | %filecheck %s --check-prefix=REMARK
// RUN: not %npu_opt %S/../../data/resize_bilinear.tflite --target ethos-u55-128 --pass='schedule{optimise=Performance},npu-flash-layout,npu-lower-commands' -o /dev/null 2>&1 | %filecheck %s --check-prefix=ERROR

// CHECK-LABEL: func.func @main
// CHECK: "npu.conv2d"{{.*}}npu.flash = #npu.flash<offset = 80, size = 368>
// CHECK-LABEL: "ethosu.program"() <{parallel_mode = 0 : i32}>
// CHECK-NEXT: "ethosu.dma"() <{src = #ethosu.mem<region = 0, address = 80>, dst = #ethosu.mem<region = 2, address = 0>, length = 368 : i64}>
// CHECK-NEXT: "ethosu.conv2d"() <{ifm = #ethosu.fm<int8, NHWC, region = 1, bases = [128, 0, 0, 0], tiles = [8, 8, 4], strides = [6, 24, 1], depth = 6, zero_point = -1>
// CHECK-SAME: weights = #ethosu.stream<region = 2, base = 80, length = 288>, scales = #ethosu.stream<region = 2, base = 0, length = 80>, dma_wait = 0 : i32
// CHECK-NEXT: "ethosu.stop"() <{mask = 65535 : i32}>
// CHECK-LABEL: "ethosu.program"() <{parallel_mode = 0 : i32}>
// CHECK: "ethosu.pool"(){{.*}}mode = "max"

// REMARK: remark: 2 command stream(s) written

// ERROR: "rb_half_pixel": error: 'npu.depthwise_conv2d': replicated padding (a bilinear resize's phases: Vela's tile padding) is not lowered yet
