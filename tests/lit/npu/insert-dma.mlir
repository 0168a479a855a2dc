// npu-insert-dma: an npu.dma copies into fast storage the weights an op would otherwise read from
// slow permanent storage (Dram, OffChipFlash), as Vela 5.2 moves them; the op then reads the copy.
// Fully connected ops, weights already in fast memory and LUTs (SHRAM, which no #npu.fm area
// names) get no DMA, each with a remark. In an ordered function each copy gets a time of its own
// just before its op's, and the ops after it move down.
// RUN: %npu_opt %s --split-input-file --pass=npu-insert-dma --pass-statistics -o %t.out 2> %t.stats
// RUN: %filecheck %s --input-file %t.out
// RUN: %filecheck %s --check-prefix=STATS --input-file %t.stats
// RUN: %npu_opt %s --split-input-file --pass=npu-insert-dma --verify-diagnostics -o /dev/null
// Idempotent (the schedule pipeline runs it again after npu-form-cascades): a second run adds nothing.
// RUN: %npu_opt %s --split-input-file --pass=npu-insert-dma,npu-insert-dma | %filecheck %s

// Statistics are per input: the first has two copies.
// STATS: (S) 2 weights - ops whose weights get a DMA into fast storage
// STATS: (S) 0 in-place
// STATS: (S) 1 in-place

// Shared_Sram: weights in off-chip flash, SRAM the fast storage. Each conv gets its own copy of the
// shared constant.
// CHECK-LABEL: func.func @flash_weights
// CHECK: %[[W:.*]] = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}>
// CHECK: %[[D1:.*]] = "npu.dma"(%[[W]]) {npu.time = 0 : i64} : (tensor<16x3x3x16xi8>) -> tensor<16x3x3x16xi8, #npu.fm<NHWC, Sram>>
// CHECK: %[[C1:.*]] = "npu.conv2d"(%{{.*}}, %[[D1]], %{{.*}}) <{{.*}}name = "conv1"}> {npu.time = 1 : i64} : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8, #npu.fm<NHWC, Sram>>, tensor<16xi32>)
// CHECK: %[[A:.*]] = "npu.add"(%[[C1]], %[[C1]]) <{name = "add"}> {npu.time = 2 : i64}
// CHECK: %[[D2:.*]] = "npu.dma"(%[[W]]) {npu.time = 3 : i64}
// CHECK: "npu.conv2d"(%[[A]], %[[D2]], %{{.*}}) <{{.*}}name = "conv2"}> {npu.time = 4 : i64}
module attributes {npu.target = #npu.target<"ethos-u55-128", system_config = "Ethos_U55_High_End_Embedded", memory_mode = "Shared_Sram">} {
  func.func @flash_weights(%ifm: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %0 = "npu.conv2d"(%ifm, %w, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "conv1"}> {npu.time = 0 : i64} : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %1 = "npu.add"(%0, %0) <{name = "add"}> {npu.time = 1 : i64} : (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
    %2 = "npu.conv2d"(%1, %w, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "conv2"}> {npu.time = 2 : i64} : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    return %2 : tensor<1x8x8x16xi8>
  }
}

// -----

// A fully connected op reads its weights in place.
// CHECK-LABEL: func.func @fully_connected
// CHECK-NOT: npu.dma
// CHECK: "npu.vector_product"
module attributes {npu.target = #npu.target<"ethos-u55-128", system_config = "Ethos_U55_High_End_Embedded", memory_mode = "Shared_Sram">} {
  func.func @fully_connected(%ifm: tensor<1x1x1x64xi8>) -> tensor<1x1x1x16xi8> {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x64xi8>}> : () -> tensor<16x64xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    // expected-remark@+1 {{weights of 'fc' are read in place from OffChipFlash: fully connected ops never buffer weights}}
    %0 = "npu.vector_product"(%ifm, %w, %b) <{name = "fc"}> : (tensor<1x1x1x64xi8>, tensor<16x64xi8>, tensor<16xi32>) -> tensor<1x1x1x16xi8>
    return %0 : tensor<1x1x1x16xi8>
  }
}

// -----

// Sram_Only: weights in on-chip flash with SRAM timing, nothing to copy.
// CHECK-LABEL: func.func @sram_only
// CHECK-NOT: npu.dma
// CHECK: "npu.conv2d"
module attributes {npu.target = #npu.target<"ethos-u55-128", system_config = "Ethos_U55_High_End_Embedded", memory_mode = "Sram_Only">} {
  func.func @sram_only(%ifm: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    // expected-remark@+1 {{weights of 'conv' are read in place from OnChipFlash: only weights in Dram or OffChipFlash are copied into Sram}}
    %0 = "npu.conv2d"(%ifm, %w, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "conv"}> : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    return %0 : tensor<1x8x8x16xi8>
  }
}

// -----

// Dedicated_Sram: weights in DRAM, copied into SRAM; an unordered function gets no times.
// CHECK-LABEL: func.func @dedicated
// CHECK: %[[D:.*]] = "npu.dma"(%{{.*}}) : (tensor<16x1x1x16xi8>) -> tensor<16x1x1x16xi8, #npu.fm<NHWC, Sram>>
// CHECK: "npu.conv2d"(%{{.*}}, %[[D]], %{{.*}})
module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram">} {
  func.func @dedicated(%ifm: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x1x1x16xi8>}> : () -> tensor<16x1x1x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %0 = "npu.conv2d"(%ifm, %w, %b) <{kernel = #npu.kernel<1x1>, name = "conv"}> : (tensor<1x8x8x16xi8>, tensor<16x1x1x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    return %0 : tensor<1x8x8x16xi8>
  }
}

// -----

// After npu-form-cascades, a copy npu-buffer-weights erased is inserted again, the one that is
// still there kept; times shift and the cascade keeps its id.
// CHECK-LABEL: func.func @cascaded
// CHECK: %[[D1:.*]] = "npu.dma"(%{{.*}}) {npu.time = 0 : i64}
// CHECK: "npu.conv2d"(%{{.*}}, %[[D1]], %{{.*}}) <{{.*}}name = "conv1"}> {npu.time = 1 : i64, npu.cascade = #npu.cascade<0, rolling = 2x8x16>}
// CHECK: %[[D2:.*]] = "npu.dma"(%{{.*}}) {npu.time = 2 : i64}
// CHECK: "npu.conv2d"(%{{.*}}, %[[D2]], %{{.*}}) <{{.*}}name = "conv2"}> {npu.time = 3 : i64, npu.cascade = #npu.cascade<0>}
module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram">} {
  func.func @cascaded(%ifm: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x1x1x16xi8>}> : () -> tensor<16x1x1x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %0 = "npu.conv2d"(%ifm, %w, %b) <{kernel = #npu.kernel<1x1>, name = "conv1"}> {npu.time = 0 : i64, npu.cascade = #npu.cascade<0, rolling = 2x8x16>} : (tensor<1x8x8x16xi8>, tensor<16x1x1x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %d = "npu.dma"(%w) {npu.time = 1 : i64} : (tensor<16x1x1x16xi8>) -> tensor<16x1x1x16xi8, #npu.fm<NHWC, Sram>>
    %1 = "npu.conv2d"(%0, %d, %b) <{kernel = #npu.kernel<1x1>, name = "conv2"}> {npu.time = 2 : i64, npu.cascade = #npu.cascade<0>} : (tensor<1x8x8x16xi8>, tensor<16x1x1x16xi8, #npu.fm<NHWC, Sram>>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    return %1 : tensor<1x8x8x16xi8>
  }
}

// -----

// A LUT is copied into SHRAM by Vela; that copy stays implicit (the estimate charges it).
// CHECK-LABEL: func.func @lut
// CHECK-NOT: npu.dma
// CHECK: "npu.lut"
module attributes {npu.target = #npu.target<"ethos-u55-128", system_config = "Ethos_U55_High_End_Embedded", memory_mode = "Shared_Sram">} {
  func.func @lut(%ifm: tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8> {
    %t = "tfl.pseudo_const"() <{value = dense<0> : tensor<256xi8>}> : () -> tensor<256xi8>
    // expected-remark@+1 {{the LUT of 'tanh' gets no npu.dma: Vela copies it into SHRAM, which no #npu.fm memory area names; the estimate charges that copy to the op}}
    %0 = "npu.lut"(%ifm, %t) <{name = "tanh", activation = #npu.act<lut, min = -128, max = 127>, function = "tanh"}> : (tensor<1x4x4x8xi8>, tensor<256xi8>) -> tensor<1x4x4x8xi8>
    return %0 : tensor<1x4x4x8xi8>
  }
}
