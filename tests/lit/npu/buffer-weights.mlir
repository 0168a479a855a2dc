// npu-buffer-weights decides how each weight npu.dma streams into fast storage (Vela's weight
// buffering) and writes it as npu.stream on the DMA; a DMA no buffer can serve is erased (the op
// reads the constant in place) with a remark giving the bytes and the limit. ethos-u55-128,
// Ethos_U55_High_End_Embedded / Shared_Sram: weights in off-chip flash (1 byte/cycle, latency 64).
// encode-weights=false sizes streams raw: per 16 channels of a 3x3x16 kernel, 16 x 144 B of weights
// + 16 x 10 B of scale records = 2464 B, a 2528-cycle transfer; each conv computes in 2192 cycles.
// npu-order (dmas-only, as the schedule pipeline runs it next) then numbers the function: a
// prefetched DMA just before the op before its reader, an erased DMA's slot closed up.
// RUN: %npu_opt %s --split-input-file --pass="npu-buffer-weights{encode-weights=false},npu-order{dmas-only=true}" | %filecheck %s
// RUN: %npu_opt %s --split-input-file --pass="npu-buffer-weights{encode-weights=false},npu-order{dmas-only=true}" --verify-diagnostics -o /dev/null
// RUN: %npu_opt %s --split-input-file --pass="npu-buffer-weights{encode-weights=false buffer-limit=8120},npu-order{dmas-only=true}" | %filecheck %s --check-prefix=LIMIT
// RUN: %npu_opt %s --split-input-file --pass="npu-buffer-weights{encode-weights=false optimise=Size},npu-order{dmas-only=true}" --pass-remarks 2>&1 | %filecheck %s --check-prefix=SIZE
// RUN: %npu_opt %s --split-input-file --pass="npu-buffer-weights{encode-weights=false optimise=Performance},npu-order{dmas-only=true}" | %filecheck %s --check-prefix=PERF

// Nothing runs before conv1 (slack 0): its one 16-channel slice streams into a single buffer, not
// prefetched. conv1's 2192 cycles hide most of conv2's transfer: conv2's buffer is prefetched, so
// its DMA moves before conv1 (time 1) and conv1 one slot later.
// CHECK-LABEL: func.func @single
// CHECK: %[[W:.*]] = "tfl.pseudo_const"
// CHECK: %[[D1:.*]] = "npu.dma"(%[[W]]) {npu.time = 0 : i64, npu.stream = #npu.stream<slices = [0, 16], buffering = single, buffers = [2464], bytes = 2464>}
// CHECK: %[[C1:.*]] = "npu.conv2d"(%{{.*}}, %[[D1]], {{.*}}name = "conv1"}> {npu.time = 2 : i64}
// CHECK: %[[D2:.*]] = "npu.dma"(%[[W]]) {npu.time = 1 : i64, npu.stream = #npu.stream<slices = [0, 16], buffering = single, buffers = [2464], bytes = 2464, prefetch>}
// CHECK: "npu.conv2d"(%[[C1]], %[[D2]], {{.*}}name = "conv2"}> {npu.time = 3 : i64}
// LIMIT-LABEL: func.func @single
// LIMIT: npu.stream = #npu.stream<slices = [0, 16], buffering = single, buffers = [2464], bytes = 2464>
// LIMIT: npu.stream = #npu.stream<slices = [0, 16], buffering = single, buffers = [2464], bytes = 2464, prefetch>
module attributes {npu.target = #npu.target<"ethos-u55-128", system_config = "Ethos_U55_High_End_Embedded", memory_mode = "Shared_Sram">} {
  func.func @single(%ifm: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    // expected-remark@+1 {{weights of 'conv1' stream in one buffer of 2464 bytes: its 16 OFM channels are the shallowest slice; not prefetched: no NPU op runs before it}}
    %d1 = "npu.dma"(%w) {npu.time = 0 : i64} : (tensor<16x3x3x16xi8>) -> tensor<16x3x3x16xi8, #npu.fm<NHWC, Sram>>
    %0 = "npu.conv2d"(%ifm, %d1, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "conv1"}> {npu.time = 1 : i64} : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8, #npu.fm<NHWC, Sram>>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    // expected-remark@+1 {{weights of 'conv2' stream in one buffer of 2464 bytes: its 16 OFM channels are the shallowest slice; prefetched under the op before}}
    %d2 = "npu.dma"(%w) {npu.time = 2 : i64} : (tensor<16x3x3x16xi8>) -> tensor<16x3x3x16xi8, #npu.fm<NHWC, Sram>>
    %1 = "npu.conv2d"(%0, %d2, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "conv2"}> {npu.time = 3 : i64} : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8, #npu.fm<NHWC, Sram>>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    return %1 : tensor<1x8x8x16xi8>
  }
}

// -----

// 64 channels with nothing to hide under: a first 16-channel slice, then slices whose transfer
// takes about as long as the first computes (32 channels), alternating between two buffers.
// With an 8120-byte limit, less the 5120 bytes of IFM and OFM live in Sram beside the conv, the
// two buffers (2464 + 4928) do not fit: the slices shrink to 16 and stream through one 2464-byte
// buffer.
// CHECK-LABEL: func.func @double
// CHECK: "npu.dma"(%{{.*}}) {npu.time = 0 : i64, npu.stream = #npu.stream<slices = [0, 16, 48, 64], buffering = double, buffers = [2464, 4928], bytes = 9856>}
// LIMIT-LABEL: func.func @double
// LIMIT: "npu.dma"(%{{.*}}) {npu.time = 0 : i64, npu.stream = #npu.stream<slices = [0, 16, 32, 48, 64], buffering = single, buffers = [2464], bytes = 9856>}
module attributes {npu.target = #npu.target<"ethos-u55-128", system_config = "Ethos_U55_High_End_Embedded", memory_mode = "Shared_Sram">} {
  func.func @double(%ifm: tensor<1x8x8x16xi8>) -> tensor<1x8x8x64xi8> {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<64x3x3x16xi8>}> : () -> tensor<64x3x3x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<64xi32>}> : () -> tensor<64xi32>
    // expected-remark@+1 {{weights of 'conv' stream in 3 slices of 16, 32, 16 OFM channels, double buffered (2464 + 4928 bytes)}}
    %d = "npu.dma"(%w) {npu.time = 0 : i64} : (tensor<64x3x3x16xi8>) -> tensor<64x3x3x16xi8, #npu.fm<NHWC, Sram>>
    %0 = "npu.conv2d"(%ifm, %d, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "conv"}> {npu.time = 1 : i64} : (tensor<1x8x8x16xi8>, tensor<64x3x3x16xi8, #npu.fm<NHWC, Sram>>, tensor<64xi32>) -> tensor<1x8x8x64xi8>
    return %0 : tensor<1x8x8x64xi8>
  }
}

// -----

// A DMA on a fully connected op's weights is erased: Vela reads those in place.
// CHECK-LABEL: func.func @fully_connected
// CHECK-NOT: npu.dma
// CHECK: %[[W:.*]] = "tfl.pseudo_const"
// CHECK: "npu.vector_product"(%{{.*}}, %[[W]], %{{.*}})
module attributes {npu.target = #npu.target<"ethos-u55-128", system_config = "Ethos_U55_High_End_Embedded", memory_mode = "Shared_Sram">} {
  func.func @fully_connected(%ifm: tensor<1x1x1x64xi8>) -> tensor<1x1x1x16xi8> {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x64xi8>}> : () -> tensor<16x64xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %d = "npu.dma"(%w) : (tensor<16x64xi8>) -> tensor<16x64xi8, #npu.fm<NHWC, Sram>>
    // expected-remark@+1 {{weights of 'fc' are read in place from OffChipFlash: fully connected ops never buffer weights}}
    %0 = "npu.vector_product"(%ifm, %d, %b) <{name = "fc"}> : (tensor<1x1x1x64xi8>, tensor<16x64xi8, #npu.fm<NHWC, Sram>>, tensor<16xi32>) -> tensor<1x1x1x16xi8>
    return %0 : tensor<1x1x1x16xi8>
  }
}

// -----

// Sram_Only: the weights are in on-chip flash with SRAM timing; the copy is erased.
// CHECK-LABEL: func.func @sram_only
// CHECK-NOT: npu.dma
// CHECK: %[[W:.*]] = "tfl.pseudo_const"
// CHECK: "npu.conv2d"(%{{.*}}, %[[W]], %{{.*}})
module attributes {npu.target = #npu.target<"ethos-u55-128", system_config = "Ethos_U55_High_End_Embedded", memory_mode = "Sram_Only">} {
  func.func @sram_only(%ifm: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %d = "npu.dma"(%w) : (tensor<16x3x3x16xi8>) -> tensor<16x3x3x16xi8, #npu.fm<NHWC, Sram>>
    // expected-remark@+1 {{weights of 'conv' are read in place from OnChipFlash: OnChipFlash weights need no copy on this target}}
    %0 = "npu.conv2d"(%ifm, %d, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "conv"}> : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8, #npu.fm<NHWC, Sram>>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    return %0 : tensor<1x8x8x16xi8>
  }
}

// -----

// optimise=Size takes the module's SRAM target (2048 bytes) as the limit, less the IFM and OFM
// (2048 bytes) live in Sram: the smallest buffer, 2464 bytes, does not fit, so the weights are
// read in place and npu-order numbers the function again. Without the option the pass follows the module's
// npu.schedule, Size here, and does the same; optimise=Performance takes the arena cache size
// and streams.
// CHECK-LABEL: func.func @size
// CHECK-NOT: npu.dma
// CHECK: "npu.conv2d"(%{{.*}}) {{.*}}name = "conv"}> {npu.time = 0 : i64}
// PERF-LABEL: func.func @size
// PERF: npu.stream = #npu.stream<slices = [0, 16], buffering = single, buffers = [2464], bytes = 2464>
// SIZE: remark: weights of 'conv' are read in place from OffChipFlash: its smallest weight buffer takes 2464 bytes, more than the 0 bytes of fast storage free for weight buffers
// SIZE-LABEL: func.func @size
// SIZE-NOT: npu.dma
// SIZE: "npu.conv2d"(%{{.*}}) {{.*}}name = "conv"}> {npu.time = 0 : i64}
module attributes {npu.target = #npu.target<"ethos-u55-128", system_config = "Ethos_U55_High_End_Embedded", memory_mode = "Shared_Sram">, npu.schedule = #npu.schedule<Size, arena_cache_size = 4294967296, sram_target = 2048>} {
  func.func @size(%ifm: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %d = "npu.dma"(%w) {npu.time = 0 : i64} : (tensor<16x3x3x16xi8>) -> tensor<16x3x3x16xi8, #npu.fm<NHWC, Sram>>
    // expected-remark@+1 {{weights of 'conv' are read in place from OffChipFlash}}
    %0 = "npu.conv2d"(%ifm, %d, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "conv"}> {npu.time = 1 : i64} : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8, #npu.fm<NHWC, Sram>>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    return %0 : tensor<1x8x8x16xi8>
  }
}

// -----

// The memory snapshot: buffers get the limit less what else is live in fast storage while they
// are (the feature maps npu-place-tensors moved to Sram count as in the arena, as in Vela; a
// cascade's rolling buffer always counts). Both convs are one cascade (ID 1), so each takes one
// full-depth buffer, never prefetched, read until the cascade ends. With buffer-limit=10000 less
// conv1's 4x16x32 rolling buffer (2048 bytes), 7952 bytes are free: conv1's 4928-byte buffer
// fits; conv2 gets what conv1's whole weights leave (Vela adds each member's weights to the
// cascade's memory), 3024 bytes: its 9536 bytes, which the bare limit would hold, do not fit, so
// conv2 reads its weights in place and npu-order numbers the function again.
// MEM-LABEL: func.func @snapshot
// MEM: "npu.dma"(%{{.*}}) {npu.time = 0 : i64, npu.stream = #npu.stream<slices = [0, 32], buffering = single, buffers = [4928], bytes = 4928>}
// MEM: "npu.conv2d"({{.*}}name = "conv1"}> {npu.time = 1 : i64, npu.cascade = #npu.cascade<1, rolling = 4x16x32>}
// MEM-NOT: npu.dma
// MEM: "npu.conv2d"({{.*}}name = "conv2"}> {npu.time = 2 : i64, npu.cascade = #npu.cascade<1>}
// MEMR: remark: weights of 'conv2' are read in place from Dram: its smallest weight buffer takes 9536 bytes, more than the 3024 bytes of fast storage free for weight buffers
// RUN: %npu_opt %s --split-input-file --pass="npu-buffer-weights{encode-weights=false buffer-limit=10000},npu-order{dmas-only=true}" | %filecheck %s --check-prefix=MEM
// RUN: %npu_opt %s --split-input-file --pass="npu-buffer-weights{encode-weights=false buffer-limit=10000},npu-order{dmas-only=true}" --pass-remarks 2>&1 | %filecheck %s --check-prefix=MEMR
module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram">} {
  func.func @snapshot(%ifm: tensor<1x16x16x16xi8>) -> tensor<1x16x16x32xi8> {
    %w1 = "tfl.pseudo_const"() <{value = dense<1> : tensor<32x3x3x16xi8>}> : () -> tensor<32x3x3x16xi8>
    %b1 = "tfl.pseudo_const"() <{value = dense<0> : tensor<32xi32>}> : () -> tensor<32xi32>
    %w2 = "tfl.pseudo_const"() <{value = dense<1> : tensor<32x3x3x32xi8>}> : () -> tensor<32x3x3x32xi8>
    %b2 = "tfl.pseudo_const"() <{value = dense<0> : tensor<32xi32>}> : () -> tensor<32xi32>
    // expected-remark@+1 {{weights of 'conv1' stream in one buffer of 4928 bytes: a cascade member takes its weights whole; not prefetched: cascade members never are}}
    %d1 = "npu.dma"(%w1) {npu.time = 0 : i64} : (tensor<32x3x3x16xi8>) -> tensor<32x3x3x16xi8, #npu.fm<NHWC, Sram>>
    %0 = "npu.conv2d"(%ifm, %d1, %b1) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "conv1"}> {npu.time = 1 : i64, npu.cascade = #npu.cascade<1, rolling = 4x16x32>} : (tensor<1x16x16x16xi8>, tensor<32x3x3x16xi8, #npu.fm<NHWC, Sram>>, tensor<32xi32>) -> tensor<1x16x16x32xi8, #npu.fm<NHCWB16, Sram>>
    // expected-remark@+1 {{weights of 'conv2' stream in one buffer of 9536 bytes: a cascade member takes its weights whole}}
    %d2 = "npu.dma"(%w2) {npu.time = 2 : i64} : (tensor<32x3x3x32xi8>) -> tensor<32x3x3x32xi8, #npu.fm<NHWC, Sram>>
    %1 = "npu.conv2d"(%0, %d2, %b2) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "conv2"}> {npu.time = 3 : i64, npu.cascade = #npu.cascade<1>} : (tensor<1x16x16x32xi8, #npu.fm<NHCWB16, Sram>>, tensor<32x3x3x32xi8, #npu.fm<NHWC, Sram>>, tensor<32xi32>) -> tensor<1x16x16x32xi8>
    return %1 : tensor<1x16x16x32xi8>
  }
}
