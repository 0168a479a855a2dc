// The schedule's attributes (#npu.alloc, #npu.stream, #npu.stripe, #npu.cascade, #npu.schedule,
// #npu.usage) parse, print canonically and reach a fixed point; malformed bodies are errors.
// RUN: %npu_opt %s --split-input-file --allow-unregistered-dialect | %filecheck %s
// RUN: %npu_opt %s --split-input-file --allow-unregistered-dialect | %npu_opt - --split-input-file --allow-unregistered-dialect | %filecheck %s

// CHECK-LABEL: module attributes
// CHECK-SAME: npu.schedule = #npu.schedule<Size, arena_cache_size = 393216, sram_target = 1000>
// CHECK-SAME: npu.usage = #npu.usage<Sram = [4096, 4000], Dram = [0, 0]>
// CHECK: func.func @main
// CHECK-SAME: npu.arg_alloc = [#npu.alloc<Sram, offset = 0, size = 1024, live = [0, 1]>]
// CHECK: "foo.op"
// CHECK-SAME: npu.stripe = #npu.stripe<2x8x16>
// CHECK-SAME: npu.cascade = #npu.cascade<0, rolling = 4x8x16>
// CHECK-SAME: npu.alloc = #npu.alloc<Sram, offset = 1024, size = 512, live = [0, 1]>
// CHECK-SAME: npu.stream = #npu.stream<slices = [0, 16, 32], buffering = double, buffers = [768, 640], bytes = 1408, prefetch>
// CHECK-SAME: single = #npu.stream<slices = [0, 16], buffering = single, buffers = [5], bytes = 5>
// CHECK-SAME: last = #npu.cascade<0>
module attributes {npu.schedule = #npu.schedule<Size,arena_cache_size=393216,sram_target=1000>, npu.usage = #npu.usage<Sram = [4096,4000], Dram = [0, 0]>} {
  func.func @main(%arg0: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> attributes {npu.arg_alloc = [#npu.alloc<Sram, live = [0, 1], offset = 0, size = 1024>]} {
    %0 = "foo.op"(%arg0) {npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<0, rolling = 4x8x16>, npu.alloc = #npu.alloc<Sram, offset = 1024, size = 512, live = [0, 1]>, npu.stream = #npu.stream<slices = [0, 16, 32], buffering = double, buffers = [768, 640], bytes = 1408, prefetch>, single = #npu.stream<slices = [0, 16], buffering = single, buffers = [5], bytes = 5>, last = #npu.cascade<0>} : (tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
    return %0 : tensor<1x8x8x16xi8>
  }
}
