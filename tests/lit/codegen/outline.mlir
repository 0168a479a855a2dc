// npu-outline: each NPU run becomes a tfl.ethos_u op holding its ethosu.program; CPU ops stay tfl ops.
// RUN: %npu_opt %s --split-input-file --pass=npu-outline --verify-diagnostics --print-debuginfo | %filecheck %s
// RUN: %npu_opt %S/../../data/conv.tflite --target ethos-u55-128 --pass='compile{optimise=Performance}' --pass-remarks -o /dev/null 2>&1 | %filecheck %s --check-prefix=REMARK

// REMARK: remark: 2 tfl.ethos_u op(s) written, 1 CPU op(s) kept, 2336 bytes of read-only data, scratch 944 and fast scratch 944 bytes

// A run whose output the function returns through a reshape: the op's result is the reshape's
// value (its name and type), at the pool's arena offset; the schedule's attributes go.
// CHECK-LABEL: module attributes {npu.target = #npu.target<"ethos-u55-128"
// CHECK-SAME: tfl.description = "Compiled by npu-opt"
// CHECK-LABEL: func.func @reshape_output
// CHECK-SAME: attributes {tfl.arena_offsets = [0 : i64]}
// CHECK-NEXT: %[[OUT:.*]] = "tfl.ethos_u"(%arg0) <{read_only = dense_resource<ethos_u_read_only> : tensor<0xui8>, scratch_size = 320 : i64, fast_scratch_size = 320 : i64, scratch_offset = 0 : i64, fast_scratch_offset = 0 : i64, npu_config = 6151 : i64, npu_id = 268828672 : i64, tensor_names = ["reshape_output_split_1_command_stream", "reshape_output_split_1_flash", "reshape_output_split_1_scratch", "reshape_output_split_1_scratch_fast"]}> ({
// CHECK-NEXT: "ethosu.program"() ({
// CHECK-NEXT: "ethosu.stop"()
// CHECK: }) {tfl.arena_offsets = [256 : i64]} : (tensor<1x4x4x16x!quant.uniform<i8:f32, 0.25:-5>>) -> tensor<1x64x!quant.uniform<i8:f32, 0.25:-5>> loc("flat")
// CHECK-NEXT: return %[[OUT]]
// expected-remark@+1 {{1 tfl.ethos_u op(s) written, 0 CPU op(s) kept, 0 bytes of read-only data, scratch 320 and fast scratch 320 bytes}}
module attributes {npu.target = #npu.target<"ethos-u55-128", system_config = "Ethos_U55_High_End_Embedded", memory_mode = "Shared_Sram">, npu.usage = #npu.usage<Sram = [320, 320]>} {
  func.func @reshape_output(%arg0: tensor<1x4x4x16x!quant.uniform<i8:f32, 0.25:-5>>) -> tensor<1x64x!quant.uniform<i8:f32, 0.25:-5>> attributes {npu.arg_alloc = [#npu.alloc<Sram, offset = 0, size = 256, live = [0, 0]>]} {
    %0 = "npu.max_pool"(%arg0) <{name = "pool", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<2x2, stride = 2x2, dilation = 1x1, padding = [0, 0, 0, 0]>}> {npu.time = 0 : i64, npu.alloc = #npu.alloc<Sram, offset = 256, size = 64, live = [0, 1]>} : (tensor<1x4x4x16x!quant.uniform<i8:f32, 0.25:-5>>) -> tensor<1x2x2x16x!quant.uniform<i8:f32, 0.25:-5>> loc("pool")
    %1 = "npu.reshape"(%0) : (tensor<1x2x2x16x!quant.uniform<i8:f32, 0.25:-5>>) -> tensor<1x64x!quant.uniform<i8:f32, 0.25:-5>> loc("flat")
    return %1 : tensor<1x64x!quant.uniform<i8:f32, 0.25:-5>>
  }
  "ethosu.program"() ({
    "ethosu.stop"() <{mask = 65535 : i32}> : () -> ()
  }) : () -> ()
}

// -----

// A CPU op between two runs: two tfl.ethos_u ops around it, the second named split 2 and sharing
// the first's memory tensors; the U65's scratch is the arena (Dram), its fast scratch the Sram.
// CHECK-LABEL: func.func @cpu_between
// CHECK-NEXT: %[[A:.*]] = "tfl.ethos_u"(%arg0)
// CHECK-SAME: scratch_size = 512 : i64, fast_scratch_size = 128 : i64
// CHECK-SAME: npu_config = 268447752 : i64
// CHECK-SAME: tensor_names = ["cpu_between_split_1_command_stream", "cpu_between_split_1_flash", "cpu_between_split_1_scratch", "cpu_between_split_1_scratch_fast"]
// CHECK: }) {tfl.arena_offsets = [256 : i64]} : {{.*}} loc("first")
// CHECK-NEXT: %[[R:.*]] = "tfl.relu"(%[[A]]) {tfl.arena_offsets = [320 : i64]} : {{.*}} loc("relu")
// CHECK-NEXT: %[[B:.*]] = "tfl.ethos_u"(%[[R]])
// CHECK-SAME: tensor_names = ["cpu_between_split_2_command_stream", "cpu_between_split_1_flash", "cpu_between_split_1_scratch", "cpu_between_split_1_scratch_fast"]
// CHECK-NEXT: "ethosu.program"() ({
// CHECK-NEXT: "ethosu.dma"()
// CHECK: }) {tfl.arena_offsets = [384 : i64]} : {{.*}} loc("second")
// CHECK-NEXT: return %[[B]]
// expected-remark@+1 {{2 tfl.ethos_u op(s) written, 1 CPU op(s) kept, 0 bytes of read-only data, scratch 512 and fast scratch 128 bytes}}
module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram">, npu.usage = #npu.usage<Dram = [512, 512], Sram = [128, 128]>} {
  func.func @cpu_between(%arg0: tensor<1x4x4x16x!quant.uniform<i8:f32, 0.25:-5>>) -> tensor<1x1x1x16x!quant.uniform<i8:f32, 0.25:-5>> attributes {npu.arg_alloc = [#npu.alloc<Dram, offset = 0, size = 256, live = [0, 0]>]} {
    %0 = "npu.max_pool"(%arg0) <{name = "first", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<2x2, stride = 2x2, dilation = 1x1, padding = [0, 0, 0, 0]>}> {npu.time = 0 : i64, npu.alloc = #npu.alloc<Dram, offset = 256, size = 64, live = [0, 1]>} : (tensor<1x4x4x16x!quant.uniform<i8:f32, 0.25:-5>>) -> tensor<1x2x2x16x!quant.uniform<i8:f32, 0.25:-5>> loc("first")
    %1 = "tfl.relu"(%0) {npu.placement = "cpu", npu.time = 1 : i64, npu.alloc = #npu.alloc<Dram, offset = 320, size = 64, live = [1, 2]>} : (tensor<1x2x2x16x!quant.uniform<i8:f32, 0.25:-5>>) -> tensor<1x2x2x16x!quant.uniform<i8:f32, 0.25:-5>> loc("relu")
    %2 = "npu.max_pool"(%1) <{name = "second", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<2x2, stride = 2x2, dilation = 1x1, padding = [0, 0, 0, 0]>}> {npu.time = 2 : i64, npu.alloc = #npu.alloc<Dram, offset = 384, size = 16, live = [2, 3]>} : (tensor<1x2x2x16x!quant.uniform<i8:f32, 0.25:-5>>) -> tensor<1x1x1x16x!quant.uniform<i8:f32, 0.25:-5>> loc("second")
    return %2 : tensor<1x1x1x16x!quant.uniform<i8:f32, 0.25:-5>>
  }
  "ethosu.program"() ({
    "ethosu.stop"() <{mask = 65535 : i32}> : () -> ()
  }) : () -> ()
  "ethosu.program"() ({
    "ethosu.dma"() <{src = #ethosu.mem<region = 1, address = 320>, dst = #ethosu.mem<region = 2, address = 0>, length = 64 : i64}> : () -> ()
    "ethosu.stop"() <{mask = 65535 : i32}> : () -> ()
  }) : () -> ()
}

// -----

// The ops in execution order (npu.time), not file order: the CPU op first, then one run whose
// outputs are listed in the order it writes them (the second pool first).
// CHECK-LABEL: func.func @reordered
// CHECK-NEXT: %[[R:.*]] = "tfl.relu"(%arg0) {tfl.arena_offsets = [256 : i64]}
// CHECK-NEXT: %[[OUT:.*]]:2 = "tfl.ethos_u"(%[[R]], %arg0)
// CHECK: }) {tfl.arena_offsets = [576 : i64, 512 : i64]} : {{.*}} loc(fused["second", "first"])
// CHECK-NEXT: return %[[OUT]]#1, %[[OUT]]#0
// expected-remark@+1 {{1 tfl.ethos_u op(s) written, 1 CPU op(s) kept, 0 bytes of read-only data, scratch 640 and fast scratch 640 bytes}}
module attributes {npu.target = #npu.target<"ethos-u55-128">, npu.usage = #npu.usage<Sram = [640, 640]>} {
  func.func @reordered(%arg0: tensor<1x4x4x16x!quant.uniform<i8:f32, 0.25:-5>>) -> (tensor<1x2x2x16x!quant.uniform<i8:f32, 0.25:-5>>, tensor<1x2x2x16x!quant.uniform<i8:f32, 0.25:-5>>) attributes {npu.arg_alloc = [#npu.alloc<Sram, offset = 0, size = 256, live = [0, 2]>]} {
    %0 = "npu.max_pool"(%arg0) <{name = "first", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<2x2, stride = 2x2, dilation = 1x1, padding = [0, 0, 0, 0]>}> {npu.time = 2 : i64, npu.alloc = #npu.alloc<Sram, offset = 512, size = 64, live = [2, 3]>} : (tensor<1x4x4x16x!quant.uniform<i8:f32, 0.25:-5>>) -> tensor<1x2x2x16x!quant.uniform<i8:f32, 0.25:-5>> loc("first")
    %1 = "tfl.relu"(%arg0) {npu.time = 0 : i64, npu.alloc = #npu.alloc<Sram, offset = 256, size = 256, live = [0, 1]>} : (tensor<1x4x4x16x!quant.uniform<i8:f32, 0.25:-5>>) -> tensor<1x4x4x16x!quant.uniform<i8:f32, 0.25:-5>> loc("relu")
    %2 = "npu.max_pool"(%1) <{name = "second", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<2x2, stride = 2x2, dilation = 1x1, padding = [0, 0, 0, 0]>}> {npu.time = 1 : i64, npu.alloc = #npu.alloc<Sram, offset = 576, size = 64, live = [1, 3]>} : (tensor<1x4x4x16x!quant.uniform<i8:f32, 0.25:-5>>) -> tensor<1x2x2x16x!quant.uniform<i8:f32, 0.25:-5>> loc("second")
    return %0, %2 : tensor<1x2x2x16x!quant.uniform<i8:f32, 0.25:-5>>, tensor<1x2x2x16x!quant.uniform<i8:f32, 0.25:-5>>
  }
  "ethosu.program"() ({
    "ethosu.stop"() <{mask = 65535 : i32}> : () -> ()
  }) : () -> ()
}

// -----

// A module whose every op runs on the CPU: nothing to outline; the CPU ops get their arena offsets.
// CHECK-LABEL: func.func @all_cpu
// CHECK-NEXT: "tfl.relu"(%arg0) {tfl.arena_offsets = [16 : i64]}
// expected-remark@+1 {{no NPU run to outline: every op runs on the CPU}}
module attributes {npu.target = #npu.target<"ethos-u55-128">, npu.usage = #npu.usage<Sram = [32, 32]>} {
  func.func @all_cpu(%arg0: tensor<16xf32>) -> tensor<16xf32> attributes {npu.arg_alloc = [#npu.alloc<Sram, offset = 0, size = 16, live = [0, 0]>]} {
    %0 = "tfl.relu"(%arg0) {npu.time = 0 : i64, npu.alloc = #npu.alloc<Sram, offset = 16, size = 16, live = [0, 1]>} : (tensor<16xf32>) -> tensor<16xf32>
    return %0 : tensor<16xf32>
  }
}

// -----

// A run without its ethosu.program (npu-lower-commands has not run): an error, nothing changed.
module attributes {npu.target = #npu.target<"ethos-u55-128">, npu.usage = #npu.usage<Sram = [320, 320]>} {
  // expected-error@+1 {{1 NPU runs but only 0 ethosu.program ops left (run npu-lower-commands first)}}
  func.func @no_program(%arg0: tensor<1x4x4x16x!quant.uniform<i8:f32, 0.25:-5>>) -> tensor<1x2x2x16x!quant.uniform<i8:f32, 0.25:-5>> attributes {npu.arg_alloc = [#npu.alloc<Sram, offset = 0, size = 256, live = [0, 0]>]} {
    %0 = "npu.max_pool"(%arg0) <{name = "pool", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<2x2, stride = 2x2, dilation = 1x1, padding = [0, 0, 0, 0]>}> {npu.time = 0 : i64, npu.alloc = #npu.alloc<Sram, offset = 256, size = 64, live = [0, 1]>} : (tensor<1x4x4x16x!quant.uniform<i8:f32, 0.25:-5>>) -> tensor<1x2x2x16x!quant.uniform<i8:f32, 0.25:-5>>
    return %0 : tensor<1x2x2x16x!quant.uniform<i8:f32, 0.25:-5>>
  }
}

// -----

// A feature map the CPU reads, stored NHCWB16: the CPU reads NHWC only.
module attributes {npu.target = #npu.target<"ethos-u55-128">, npu.usage = #npu.usage<Sram = [384, 384]>} {
  func.func @brick_format(%arg0: tensor<1x4x4x16x!quant.uniform<i8:f32, 0.25:-5>>) -> tensor<1x2x2x16x!quant.uniform<i8:f32, 0.25:-5>> attributes {npu.arg_alloc = [#npu.alloc<Sram, offset = 0, size = 256, live = [0, 0]>]} {
    // expected-error@+1 {{a feature map the CPU shares is stored NHCWB16; the CPU reads NHWC}}
    %0 = "npu.max_pool"(%arg0) <{name = "pool", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<2x2, stride = 2x2, dilation = 1x1, padding = [0, 0, 0, 0]>}> {npu.time = 0 : i64, npu.alloc = #npu.alloc<Sram, offset = 256, size = 64, live = [0, 1]>} : (tensor<1x4x4x16x!quant.uniform<i8:f32, 0.25:-5>>) -> tensor<1x2x2x16x!quant.uniform<i8:f32, 0.25:-5>, #npu.fm<NHCWB16>>
    %1 = "tfl.relu"(%0) {npu.time = 1 : i64, npu.alloc = #npu.alloc<Sram, offset = 320, size = 64, live = [1, 2]>} : (tensor<1x2x2x16x!quant.uniform<i8:f32, 0.25:-5>, #npu.fm<NHCWB16>>) -> tensor<1x2x2x16x!quant.uniform<i8:f32, 0.25:-5>>
    return %1 : tensor<1x2x2x16x!quant.uniform<i8:f32, 0.25:-5>>
  }
  "ethosu.program"() ({
    "ethosu.stop"() <{mask = 65535 : i32}> : () -> ()
  }) : () -> ()
}

// -----

// A feature map the CPU reads, kept in the U65's fast storage: TFLite Micro reaches the arena only.
module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram">, npu.usage = #npu.usage<Dram = [256, 256], Sram = [64, 64]>} {
  func.func @fast_storage(%arg0: tensor<1x4x4x16x!quant.uniform<i8:f32, 0.25:-5>>) -> tensor<1x2x2x16x!quant.uniform<i8:f32, 0.25:-5>> attributes {npu.arg_alloc = [#npu.alloc<Dram, offset = 0, size = 256, live = [0, 0]>]} {
    // expected-error@+1 {{a feature map the CPU shares lies in Sram, not in the arena (Dram) where TFLite Micro can reach it}}
    %0 = "npu.max_pool"(%arg0) <{name = "pool", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<2x2, stride = 2x2, dilation = 1x1, padding = [0, 0, 0, 0]>}> {npu.time = 0 : i64, npu.alloc = #npu.alloc<Sram, offset = 0, size = 64, live = [0, 1]>} : (tensor<1x4x4x16x!quant.uniform<i8:f32, 0.25:-5>>) -> tensor<1x2x2x16x!quant.uniform<i8:f32, 0.25:-5>>
    return %0 : tensor<1x2x2x16x!quant.uniform<i8:f32, 0.25:-5>>
  }
  "ethosu.program"() ({
    "ethosu.stop"() <{mask = 65535 : i32}> : () -> ()
  }) : () -> ()
}
