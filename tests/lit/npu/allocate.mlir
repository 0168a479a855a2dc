// npu-allocate gives each tensor needing scratch storage an address (npu.alloc on its defining
// op, npu.arg_alloc for arguments) and records per memory area the bytes used and the lower
// bound (npu.usage). Sizes are rounded up to 16 bytes; live = [first, last] in npu.time.
// RUN: %npu_opt %s --split-input-file --pass=npu-allocate --pass-remarks -o %t.out 2> %t.diag
// RUN: %filecheck %s --input-file %t.out
// RUN: %filecheck %s --check-prefix=TAIL --input-file %t.diag
// RUN: %npu_opt %s --split-input-file --pass="npu-allocate{allocator=greedy}" | %filecheck %s --check-prefix=GREEDY
// RUN: %npu_opt %s --split-input-file --pass="npu-allocate{allocator=linear}" | %filecheck %s --check-prefix=LINEAR
// RUN: not %npu_opt %s --split-input-file --pass="npu-allocate{allocator=hilclimb}" 2>&1 | %filecheck %s --check-prefix=BAD
// BAD: option 'allocator' of pass 'npu-allocate' is one of hillclimb, greedy, linear, not 'hilclimb'; did you mean 'hillclimb'?

// A chain: each tensor lives from its writer to its reader, so storage is reused two apart.
// CHECK: npu.usage = #npu.usage<Sram = [2048, 2048]>
// CHECK-LABEL: func.func @chain
// CHECK-SAME: npu.arg_alloc = [#npu.alloc<Sram, offset = [[IN:[0-9]+]], size = 1024, live = [0, 0]>]
// CHECK: %[[A:.*]] = "npu.avg_pool"(%arg0){{.*}}npu.alloc = #npu.alloc<Sram, offset = [[A_OFF:[0-9]+]], size = 1024, live = [0, 1]>
// CHECK: %[[B:.*]] = "npu.avg_pool"(%[[A]]){{.*}}npu.alloc = #npu.alloc<Sram, offset = [[IN]], size = 1024, live = [1, 2]>
// CHECK: "npu.avg_pool"(%[[B]]){{.*}}npu.alloc = #npu.alloc<Sram, offset = [[A_OFF]], size = 1024, live = [2, 2]>
// GREEDY: npu.usage = #npu.usage<Sram = [2048, 2048]>
// LINEAR: npu.usage = #npu.usage<Sram = [4096, 2048]>
// LINEAR-LABEL: func.func @chain
// LINEAR-SAME: npu.arg_alloc = [#npu.alloc<Sram, offset = 0, size = 1024, live = [0, 0]>]
// LINEAR: npu.alloc = #npu.alloc<Sram, offset = 1024,
// LINEAR: npu.alloc = #npu.alloc<Sram, offset = 2048,
// LINEAR: npu.alloc = #npu.alloc<Sram, offset = 3072,
module attributes {npu.target = #npu.target<"ethos-u55-128">} {
  func.func @chain(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> {
    %a = "npu.avg_pool"(%x) <{kernel = #npu.kernel<1x1>}> {npu.time = 0 : i64} : (tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
    %b = "npu.avg_pool"(%a) <{kernel = #npu.kernel<1x1>}> {npu.time = 1 : i64} : (tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
    %c = "npu.avg_pool"(%b) <{kernel = #npu.kernel<1x1>}> {npu.time = 2 : i64} : (tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
    return %c : tensor<1x8x8x16xi8>
  }
}

// -----

// In-place elementwise: the add is the only reader of %a with the same shape, format and
// type, so its OFM overwrites %a (one range, one address, live from %a's writer to the end).
// CHECK-LABEL: func.func @in_place
// CHECK: %[[A:.*]] = "npu.avg_pool"{{.*}}npu.alloc = #npu.alloc<Sram, offset = [[OFF:[0-9]+]], size = 1024, live = [0, 1]>
// CHECK: "npu.add"(%[[A]], %arg1){{.*}}npu.alloc = #npu.alloc<Sram, offset = [[OFF]], size = 1024, live = [0, 1]>
module attributes {npu.target = #npu.target<"ethos-u55-128">} {
  func.func @in_place(%x: tensor<1x8x8x16xi8>, %y: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> {
    %a = "npu.avg_pool"(%x) <{kernel = #npu.kernel<1x1>}> {npu.time = 0 : i64} : (tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
    %b = "npu.add"(%a, %y) {npu.time = 1 : i64} : (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
    return %b : tensor<1x8x8x16xi8>
  }
}

// -----

// Views and a concat: the reshape and slice alias the graph input (no npu.alloc of their own);
// both writers of the concat write into its buffer, which the concat op owns.
// CHECK: npu.usage = #npu.usage<Sram = [256, 256]>
// CHECK-LABEL: func.func @views_concat
// CHECK-SAME: npu.arg_alloc = [#npu.alloc<Sram, offset = [[IN:[0-9]+]], size = 64, live = [0, 1]>]
// CHECK: %[[R:.*]] = "npu.reshape"(%arg0) : (
// CHECK: %[[S:.*]] = "npu.slice"(%[[R]]) <{offset = #npu.offset<0, 2, 0, 0>}> : (
// CHECK: %[[A:.*]] = "npu.avg_pool"(%[[R]]){{.*}}npu.alloc = #npu.alloc<Sram, offset = [[CAT:[0-9]+]], size = 128, live = [0, 2]>
// CHECK: %[[B:.*]] = "npu.avg_pool"(%[[S]]){{.*}}npu.alloc = #npu.alloc<Sram, offset = [[CAT]], size = 128, live = [0, 2]>
// CHECK: "npu.concat"(%[[A]], %[[B]]){{.*}}npu.alloc = #npu.alloc<Sram, offset = [[CAT]], size = 128, live = [0, 2]>
// CHECK: "npu.avg_pool"{{.*}}npu.alloc = #npu.alloc<Sram, offset = [[IN]], size = 128, live = [2, 2]>
module attributes {npu.target = #npu.target<"ethos-u55-128">} {
  func.func @views_concat(%x: tensor<1x64xi8>) -> tensor<1x4x4x8xi8> {
    %r = "npu.reshape"(%x) : (tensor<1x64xi8>) -> tensor<1x4x4x4xi8>
    %s = "npu.slice"(%r) <{offset = #npu.offset<0, 2, 0, 0>}> : (tensor<1x4x4x4xi8>) -> tensor<1x2x4x4xi8>
    %a = "npu.avg_pool"(%r) <{kernel = #npu.kernel<1x1>}> {npu.time = 0 : i64} : (tensor<1x4x4x4xi8>) -> tensor<1x4x4x4xi8>
    %b = "npu.avg_pool"(%s) <{kernel = #npu.kernel<1x1, padding = [1, 0, 1, 0]>}> {npu.time = 1 : i64} : (tensor<1x2x4x4xi8>) -> tensor<1x4x4x4xi8>
    %cat = "npu.concat"(%a, %b) <{offsets = [#npu.offset<0, 0, 0, 0>, #npu.offset<0, 0, 0, 4>]}> : (tensor<1x4x4x4xi8>, tensor<1x4x4x4xi8>) -> tensor<1x4x4x8xi8>
    %d = "npu.avg_pool"(%cat) <{kernel = #npu.kernel<1x1>}> {npu.time = 2 : i64} : (tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8>
    return %d : tensor<1x4x4x8xi8>
  }
}

// -----

// Graph inputs live from time 0 and outputs to the last time, in the arena (Dram with
// Dedicated_Sram); the intermediate tensor placed in Sram gets a Sram address.
// CHECK: npu.usage = #npu.usage<Dram = [2048, 2048], Sram = [1024, 1024]>
// CHECK-LABEL: func.func @inputs_outputs
// CHECK-SAME: npu.arg_alloc = [#npu.alloc<Dram, offset = {{[0-9]+}}, size = 1024, live = [0, 0]>]
// CHECK: "npu.avg_pool"(%arg0){{.*}}npu.alloc = #npu.alloc<Dram, offset = {{[0-9]+}}, size = 1024, live = [0, 2]>
// CHECK: "npu.avg_pool"{{.*}}npu.alloc = #npu.alloc<Sram, offset = 0, size = 1024, live = [1, 2]>
// CHECK: "npu.add"{{.*}}npu.alloc = #npu.alloc<Dram, offset = {{[0-9]+}}, size = 1024, live = [2, 2]>
module attributes {npu.target = #npu.target<"ethos-u65-256", memory_mode = "Dedicated_Sram">} {
  func.func @inputs_outputs(%x: tensor<1x8x8x16xi8>) -> (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>) {
    %a = "npu.avg_pool"(%x) <{kernel = #npu.kernel<1x1>}> {npu.time = 0 : i64} : (tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
    %b = "npu.avg_pool"(%a) <{kernel = #npu.kernel<1x1>}> {npu.time = 1 : i64} : (tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8, #npu.fm<NHWC, Sram>>
    %c = "npu.add"(%a, %b) {npu.time = 2 : i64} : (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8, #npu.fm<NHWC, Sram>>) -> tensor<1x8x8x16xi8>
    return %a, %c : tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>
  }
}

// -----

// A weight DMA with a double-buffered, prefetched stream: the first buffer (640 bytes) is live
// from the op before the DMA (time 0), whose run hides its transfer, to the conv (time 2); the
// second (512 bytes), filled while the first slice computes, only while the conv runs, and is
// placed apart as npu.second_buffer.
// CHECK-LABEL: func.func @weights
// CHECK: "npu.dma"{{.*}}npu.alloc = #npu.alloc<Sram, offset = {{[0-9]+}}, size = 640, live = [0, 2]>, npu.second_buffer = #npu.alloc<Sram, offset = {{[0-9]+}}, size = 512, live = [2, 2]>
module attributes {npu.target = #npu.target<"ethos-u55-128">} {
  func.func @weights(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %bias = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %a = "npu.avg_pool"(%x) <{kernel = #npu.kernel<1x1>}> {npu.time = 0 : i64} : (tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
    %wd = "npu.dma"(%w) {npu.time = 1 : i64, npu.stream = #npu.stream<slices = [0, 8, 16], buffering = double, buffers = [640, 512], bytes = 1152, prefetch>} : (tensor<16x3x3x16xi8>) -> tensor<16x3x3x16xi8, #npu.fm<NHWC, Sram>>
    %c = "npu.conv2d"(%a, %wd, %bias) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>}> {npu.time = 2 : i64} : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8, #npu.fm<NHWC, Sram>>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    return %c : tensor<1x8x8x16xi8>
  }
}

// -----

// Half steps (Vela's live ranges): conv_a's weights stream in two slices through a double buffer;
// its last slice reads the second buffer only, so the first is free while that slice computes,
// and conv_b's weight DMA, prefetched under conv_a (issued at time 1, just before it), takes its
// bytes: the fast storage holds two buffers at once, not three (Sram used 2048, not 3072). The DMA
// is then issued after conv_a (its copy must not land before conv_a has read that buffer), the
// times renumbered: conv_a 1, the DMA 2, conv_b 3; its buffer is still live from conv_a's time.
// CHECK: npu.usage = #npu.usage<Dram = [3072, 3072], Sram = [2048, 2048]>
// CHECK-LABEL: func.func @prefetch_into_tail
// CHECK: "npu.dma"{{.*}}<{name = "conv_a_weights"}>{{.*}}npu.alloc = #npu.alloc<Sram, offset = [[FIRST:[0-9]+]], size = 1024, live = [0, 1]>, npu.second_buffer = #npu.alloc<Sram, offset = [[SECOND:[0-9]+]], size = 1024, live = [1, 1]>
// CHECK: "npu.dma"{{.*}}<{name = "conv_b_weights"}> {npu.time = 2 : i64{{.*}}npu.alloc = #npu.alloc<Sram, offset = [[FIRST]], size = 1024, live = [1, 3]>
// TAIL: remark: the prefetched weights of 'conv_b' (npu.conv2d) take bytes of the first buffer of 'conv_a' (npu.conv2d)'s weights, which its last depth slice does not read: the prefetch runs under that slice, as Vela's live ranges allow, and its DMA is issued after that op
// TAIL: remark: the prefetched weights of 'conv_b' (npu.conv2d) take bytes of the second buffer of 'conv_a' (npu.conv2d)'s weights
module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram">} {
  func.func @prefetch_into_tail(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> {
    %wa = "tfl.pseudo_const"() <{value = dense<1> : tensor<32x1x1x16xi8>}> : () -> tensor<32x1x1x16xi8>
    %wb = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x1x1x32xi8>}> : () -> tensor<16x1x1x32xi8>
    %ba = "tfl.pseudo_const"() <{value = dense<0> : tensor<32xi32>}> : () -> tensor<32xi32>
    %bb = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %da = "npu.dma"(%wa) <{name = "conv_a_weights"}> {npu.time = 0 : i64, npu.stream = #npu.stream<slices = [0, 16, 32], buffering = double, buffers = [1024, 1024], bytes = 2048>} : (tensor<32x1x1x16xi8>) -> tensor<32x1x1x16xi8, #npu.fm<NHWC, Sram>>
    %db = "npu.dma"(%wb) <{name = "conv_b_weights"}> {npu.time = 1 : i64, npu.stream = #npu.stream<slices = [0, 16], buffering = single, buffers = [1024], bytes = 1024, prefetch>} : (tensor<16x1x1x32xi8>) -> tensor<16x1x1x32xi8, #npu.fm<NHWC, Sram>>
    %a = "npu.conv2d"(%x, %da, %ba) <{name = "conv_a", kernel = #npu.kernel<1x1>}> {npu.time = 2 : i64} : (tensor<1x8x8x16xi8>, tensor<32x1x1x16xi8, #npu.fm<NHWC, Sram>>, tensor<32xi32>) -> tensor<1x8x8x32xi8>
    %b = "npu.conv2d"(%a, %db, %bb) <{name = "conv_b", kernel = #npu.kernel<1x1>}> {npu.time = 3 : i64} : (tensor<1x8x8x32xi8>, tensor<16x1x1x32xi8, #npu.fm<NHWC, Sram>>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    return %b : tensor<1x8x8x16xi8>
  }
}

// -----

// As above with three slices: the last reads the first buffer again, so the second is the one
// conv_b's prefetch may take.
// CHECK: npu.usage = #npu.usage<Dram = [4096, 4096], Sram = [2048, 2048]>
// CHECK-LABEL: func.func @prefetch_into_second
// CHECK: "npu.dma"{{.*}}<{name = "conv_a_weights"}>{{.*}}npu.alloc = #npu.alloc<Sram, offset = [[FIRST:[0-9]+]], size = 1024, live = [0, 1]>, npu.second_buffer = #npu.alloc<Sram, offset = [[SECOND:[0-9]+]], size = 1024, live = [1, 1]>
// CHECK: "npu.dma"{{.*}}<{name = "conv_b_weights"}> {npu.time = 2 : i64{{.*}}npu.alloc = #npu.alloc<Sram, offset = [[SECOND]], size = 1024, live = [1, 3]>
module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram">} {
  func.func @prefetch_into_second(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> {
    %wa = "tfl.pseudo_const"() <{value = dense<1> : tensor<48x1x1x16xi8>}> : () -> tensor<48x1x1x16xi8>
    %wb = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x1x1x48xi8>}> : () -> tensor<16x1x1x48xi8>
    %ba = "tfl.pseudo_const"() <{value = dense<0> : tensor<48xi32>}> : () -> tensor<48xi32>
    %bb = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %da = "npu.dma"(%wa) <{name = "conv_a_weights"}> {npu.time = 0 : i64, npu.stream = #npu.stream<slices = [0, 16, 32, 48], buffering = double, buffers = [1024, 1024], bytes = 3072>} : (tensor<48x1x1x16xi8>) -> tensor<48x1x1x16xi8, #npu.fm<NHWC, Sram>>
    %db = "npu.dma"(%wb) <{name = "conv_b_weights"}> {npu.time = 1 : i64, npu.stream = #npu.stream<slices = [0, 16], buffering = single, buffers = [1024], bytes = 1024, prefetch>} : (tensor<16x1x1x48xi8>) -> tensor<16x1x1x48xi8, #npu.fm<NHWC, Sram>>
    %a = "npu.conv2d"(%x, %da, %ba) <{name = "conv_a", kernel = #npu.kernel<1x1>}> {npu.time = 2 : i64} : (tensor<1x8x8x16xi8>, tensor<48x1x1x16xi8, #npu.fm<NHWC, Sram>>, tensor<48xi32>) -> tensor<1x8x8x48xi8>
    %b = "npu.conv2d"(%a, %db, %bb) <{name = "conv_b", kernel = #npu.kernel<1x1>}> {npu.time = 3 : i64} : (tensor<1x8x8x48xi8>, tensor<16x1x1x48xi8, #npu.fm<NHWC, Sram>>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    return %b : tensor<1x8x8x16xi8>
  }
}
