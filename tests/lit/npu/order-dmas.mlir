// npu-order places each weight DMA from the facts of the passes that decide it, and it alone
// writes npu.time: a copy runs just before the op reading it; a prefetched one (npu.stream's
// prefetch, npu-buffer-weights) before the op before that, after that op's own copy; one whose
// prefetch npu-allocate took back (npu.unhidden, npu.shares_tail) just before its reader again,
// after the copy prefetched under that reader. With dmas-only the order npu.time records is kept
// and only the DMAs move (their own times are ignored); without, Vela's order gives the same here.
// RUN: %npu_opt %s --split-input-file --pass="npu-order{dmas-only=true}" --verify-diagnostics | %filecheck %s
// RUN: %npu_opt %s --split-input-file --pass="npu-order{dmas-only=true}" --pass-statistics --verify-diagnostics -o /dev/null 2>&1 | %filecheck %s --check-prefix=STATS
// RUN: %npu_opt %s --split-input-file --pass=npu-order | %filecheck %s --check-prefix=VELA

// STATS: (S) 10 ops
// CHECK-LABEL: func.func @placed_by_facts
// CHECK: %[[D1:.*]] = "npu.dma"{{.*}}name = "d1"{{.*}}npu.time = 0 : i64
// CHECK: %[[D2:.*]] = "npu.dma"{{.*}}name = "d2"{{.*}}npu.time = 1 : i64
// CHECK: %[[D3:.*]] = "npu.dma"{{.*}}name = "d3"{{.*}}npu.time = 4 : i64
// CHECK: %[[D4:.*]] = "npu.dma"{{.*}}name = "d4"{{.*}}npu.time = 7 : i64
// CHECK: %[[D5:.*]] = "npu.dma"{{.*}}name = "d5"{{.*}}npu.time = 6 : i64
// CHECK: "npu.conv2d"{{.*}}name = "c1"{{.*}}npu.time = 2 : i64
// CHECK: "npu.conv2d"{{.*}}name = "c2"{{.*}}npu.time = 3 : i64
// CHECK: "npu.conv2d"{{.*}}name = "c3"{{.*}}npu.time = 5 : i64
// CHECK: "npu.conv2d"{{.*}}name = "c4"{{.*}}npu.time = 8 : i64
// CHECK: "npu.conv2d"{{.*}}name = "c5"{{.*}}npu.time = 9 : i64
// VELA-LABEL: func.func @placed_by_facts
// VELA: name = "d1"{{.*}}npu.time = 0 : i64
// VELA: name = "d2"{{.*}}npu.time = 1 : i64
// VELA: name = "d3"{{.*}}npu.time = 4 : i64
// VELA: name = "d4"{{.*}}npu.time = 7 : i64
// VELA: name = "d5"{{.*}}npu.time = 6 : i64
// VELA: name = "c1"{{.*}}npu.time = 2 : i64
// VELA: name = "c5"{{.*}}npu.time = 9 : i64
module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram">} {
  func.func @placed_by_facts(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x1x1x16xi8>}> : () -> tensor<16x1x1x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %d1 = "npu.dma"(%w) <{name = "d1"}> {npu.time = 9 : i64} : (tensor<16x1x1x16xi8>) -> tensor<16x1x1x16xi8, #npu.fm<NHWC, Sram>>
    %d2 = "npu.dma"(%w) <{name = "d2"}> {npu.time = 8 : i64, npu.stream = #npu.stream<slices = [0, 16], buffering = single, buffers = [512], bytes = 512, prefetch>} : (tensor<16x1x1x16xi8>) -> tensor<16x1x1x16xi8, #npu.fm<NHWC, Sram>>
    %d3 = "npu.dma"(%w) <{name = "d3"}> {npu.time = 7 : i64, npu.stream = #npu.stream<slices = [0, 16], buffering = single, buffers = [512], bytes = 512, prefetch>, npu.unhidden} : (tensor<16x1x1x16xi8>) -> tensor<16x1x1x16xi8, #npu.fm<NHWC, Sram>>
    %d4 = "npu.dma"(%w) <{name = "d4"}> {npu.time = 6 : i64, npu.stream = #npu.stream<slices = [0, 16], buffering = single, buffers = [512], bytes = 512, prefetch>, npu.shares_tail} : (tensor<16x1x1x16xi8>) -> tensor<16x1x1x16xi8, #npu.fm<NHWC, Sram>>
    %d5 = "npu.dma"(%w) <{name = "d5"}> {npu.time = 5 : i64, npu.stream = #npu.stream<slices = [0, 16], buffering = single, buffers = [512], bytes = 512, prefetch>} : (tensor<16x1x1x16xi8>) -> tensor<16x1x1x16xi8, #npu.fm<NHWC, Sram>>
    %c1 = "npu.conv2d"(%x, %d1, %b) <{kernel = #npu.kernel<1x1>, name = "c1"}> {npu.time = 0 : i64} : (tensor<1x8x8x16xi8>, tensor<16x1x1x16xi8, #npu.fm<NHWC, Sram>>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %c2 = "npu.conv2d"(%c1, %d2, %b) <{kernel = #npu.kernel<1x1>, name = "c2"}> {npu.time = 1 : i64} : (tensor<1x8x8x16xi8>, tensor<16x1x1x16xi8, #npu.fm<NHWC, Sram>>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %c3 = "npu.conv2d"(%c2, %d3, %b) <{kernel = #npu.kernel<1x1>, name = "c3"}> {npu.time = 2 : i64} : (tensor<1x8x8x16xi8>, tensor<16x1x1x16xi8, #npu.fm<NHWC, Sram>>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %c4 = "npu.conv2d"(%c3, %d4, %b) <{kernel = #npu.kernel<1x1>, name = "c4"}> {npu.time = 3 : i64} : (tensor<1x8x8x16xi8>, tensor<16x1x1x16xi8, #npu.fm<NHWC, Sram>>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %c5 = "npu.conv2d"(%c4, %d5, %b) <{kernel = #npu.kernel<1x1>, name = "c5"}> {npu.time = 4 : i64} : (tensor<1x8x8x16xi8>, tensor<16x1x1x16xi8, #npu.fm<NHWC, Sram>>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    return %c5 : tensor<1x8x8x16xi8>
  }
}

// -----

// A prefetch has nothing to run under after a CPU op (a new command stream starts): its DMA
// stays just before its reader.
// CHECK-LABEL: func.func @after_cpu
// CHECK: "npu.dma"{{.*}}npu.time = 2 : i64
// CHECK: "npu.conv2d"{{.*}}name = "c1"{{.*}}npu.time = 0 : i64
// CHECK: "tfl.relu"{{.*}}npu.time = 1 : i64
// CHECK: "npu.conv2d"{{.*}}name = "c2"{{.*}}npu.time = 3 : i64
module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram">} {
  func.func @after_cpu(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x1x1x16xi8>}> : () -> tensor<16x1x1x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %d = "npu.dma"(%w) {npu.time = 0 : i64, npu.stream = #npu.stream<slices = [0, 16], buffering = single, buffers = [512], bytes = 512, prefetch>} : (tensor<16x1x1x16xi8>) -> tensor<16x1x1x16xi8, #npu.fm<NHWC, Sram>>
    %c1 = "npu.conv2d"(%x, %w, %b) <{kernel = #npu.kernel<1x1>, name = "c1"}> {npu.time = 1 : i64} : (tensor<1x8x8x16xi8>, tensor<16x1x1x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %r = "tfl.relu"(%c1) {npu.time = 2 : i64} : (tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
    %c2 = "npu.conv2d"(%r, %d, %b) <{kernel = #npu.kernel<1x1>, name = "c2"}> {npu.time = 3 : i64} : (tensor<1x8x8x16xi8>, tensor<16x1x1x16xi8, #npu.fm<NHWC, Sram>>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    return %c2 : tensor<1x8x8x16xi8>
  }
}

// -----

// dmas-only keeps an unordered function unordered.
// CHECK-LABEL: func.func @unordered
// CHECK-NOT: npu.time
// CHECK: return
module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram">} {
  func.func @unordered(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x1x1x16xi8>}> : () -> tensor<16x1x1x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %d = "npu.dma"(%w) : (tensor<16x1x1x16xi8>) -> tensor<16x1x1x16xi8, #npu.fm<NHWC, Sram>>
    %c = "npu.conv2d"(%x, %d, %b) <{kernel = #npu.kernel<1x1>, name = "c"}> : (tensor<1x8x8x16xi8>, tensor<16x1x1x16xi8, #npu.fm<NHWC, Sram>>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    return %c : tensor<1x8x8x16xi8>
  }
}

// -----

// An op other than a weight DMA without a time among timed ones was added after npu-order: only
// a full npu-order may number it (which numbers the function as Vela runs it).
// VELA-LABEL: func.func @added_after_order
// VELA: "npu.conv2d"{{.*}}name = "c1"{{.*}}npu.time = 0 : i64
// VELA: "npu.conv2d"{{.*}}name = "c2"{{.*}}npu.time = 1 : i64
module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram">} {
  // expected-error@+1 {{'npu.conv2d' has no integer npu.time while other ops of its function do; run npu-order (without dmas-only) after the last pass that adds ops}}
  func.func @added_after_order(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x1x1x16xi8>}> : () -> tensor<16x1x1x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %c1 = "npu.conv2d"(%x, %w, %b) <{kernel = #npu.kernel<1x1>, name = "c1"}> {npu.time = 0 : i64} : (tensor<1x8x8x16xi8>, tensor<16x1x1x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %c2 = "npu.conv2d"(%c1, %w, %b) <{kernel = #npu.kernel<1x1>, name = "c2"}> : (tensor<1x8x8x16xi8>, tensor<16x1x1x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    return %c2 : tensor<1x8x8x16xi8>
  }
}
