// npu-place-tensors: with Dedicated_Sram (arena in DRAM, SRAM an unlimited cache) the feature maps
// NPU ops produce move to SRAM (#npu.fm<FORMAT, Sram>), except graph inputs and outputs, and every
// view aliasing them (a view stays in its source's area). With Shared_Sram the arena is the fast
// storage: nothing changes.
// RUN: %npu_opt %s --split-input-file -p "npu-format-nhcwb16,npu-place-tensors" --pass-statistics -o %t.out 2> %t.stats
// RUN: %filecheck %s --input-file %t.out
// RUN: %filecheck %s --check-prefix=STATS --input-file %t.stats
// RUN: %npu_opt %s --split-input-file -p "npu-place-tensors{enabled=false}" | %filecheck %s --check-prefix=OFF
//
// npu-buffer-weights takes the weight-buffering decisions (and npu-estimate the DMA slack each op leaves the next)
// with those feature maps still in DRAM, as Vela's scheduler does before it moves them to SRAM,
// and the final estimate with them in SRAM. ethos-u65-256, Ethos_U65_High_End: weights in DRAM,
// 3042-cycle raw weight transfers. conv2's slack, computed with its feature maps in DRAM (their
// planned placement), is long enough to hide all of conv3's transfer: conv3's NPU cycles are its
// compute (4202). Deciding with the final SRAM placement (decide-in-arena=false) hides less: 4405.
// RUN: %npu_opt %s --split-input-file -p "npu-format-nhcwb16,npu-place-tensors,npu-select-block-config,npu-insert-dma,npu-buffer-weights{encode-weights=false},npu-estimate{encode-weights=false}" | %filecheck %s --check-prefix=ARENA
// RUN: %npu_opt %s --split-input-file -p "npu-format-nhcwb16,npu-place-tensors,npu-select-block-config,npu-insert-dma,npu-buffer-weights{encode-weights=false decide-in-arena=false},npu-estimate{encode-weights=false decide-in-arena=false}" | %filecheck %s --check-prefix=FINAL

// STATS: 'npu-place-tensors'
// STATS: (S) 2 fast - feature maps placed in fast storage
// STATS: (S) 2 arena - feature maps left in place (graph inputs and outputs, their views, explicit areas)
// OFF-NOT: Sram>

// CHECK-LABEL: func.func @dedicated
// CHECK-SAME: (%[[IFM:.*]]: tensor<1x8x8x32xi8>) -> tensor<1x2048xi8>
// CHECK: %[[C1:.*]] = "npu.conv2d"(%[[IFM]], {{.*}}name = "conv1"}> : ({{.*}}) -> tensor<1x8x8x32xi8, #npu.fm<NHCWB16, Sram>>
// CHECK: %[[C2:.*]] = "npu.conv2d"(%[[C1]], {{.*}}name = "conv2"}> : ({{.*}}) -> tensor<1x8x8x32xi8, #npu.fm<NHCWB16, Sram>>
// The last OFM aliases the graph output through the reshape: it stays in the arena (DRAM).
// CHECK: %[[C3:.*]] = "npu.conv2d"(%[[C2]], {{.*}}name = "conv3"}> : ({{.*}}) -> tensor<1x8x8x32xi8>
// CHECK: "npu.reshape"(%[[C3]]) : (tensor<1x8x8x32xi8>) -> tensor<1x2048xi8>

// ARENA-LABEL: func.func @dedicated
// ARENA: name = "conv3"}> {npu.block = {{.*}}npu.cost = #npu.cost<total = 4369.067, npu = 4202, compute = 4202, dma = 3042,
// FINAL-LABEL: func.func @dedicated
// FINAL: name = "conv3"}> {npu.block = {{.*}}npu.cost = #npu.cost<total = 4405, npu = 4405, compute = 4202, dma = 3042,
module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram">} {
  func.func @dedicated(%ifm: tensor<1x8x8x32xi8>) -> tensor<1x2048xi8> {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<32x3x3x32xi8>}> : () -> tensor<32x3x3x32xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<32xi32>}> : () -> tensor<32xi32>
    %0 = "npu.conv2d"(%ifm, %w, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "conv1"}> : (tensor<1x8x8x32xi8>, tensor<32x3x3x32xi8>, tensor<32xi32>) -> tensor<1x8x8x32xi8>
    %1 = "npu.conv2d"(%0, %w, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "conv2"}> : (tensor<1x8x8x32xi8>, tensor<32x3x3x32xi8>, tensor<32xi32>) -> tensor<1x8x8x32xi8>
    %2 = "npu.conv2d"(%1, %w, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "conv3"}> : (tensor<1x8x8x32xi8>, tensor<32x3x3x32xi8>, tensor<32xi32>) -> tensor<1x8x8x32xi8>
    %3 = "npu.reshape"(%2) : (tensor<1x8x8x32xi8>) -> tensor<1x2048xi8>
    return %3 : tensor<1x2048xi8>
  }
}

// -----

// CHECK-LABEL: func.func @shared
// CHECK: "npu.conv2d"({{.*}}name = "shared1"}> : ({{.*}}) -> tensor<1x8x8x32xi8, #npu.fm<NHCWB16>>
// CHECK: "npu.conv2d"({{.*}}name = "shared2"}> : (tensor<1x8x8x32xi8, #npu.fm<NHCWB16>>, {{.*}}) -> tensor<1x8x8x32xi8>
module attributes {npu.target = #npu.target<"ethos-u55-128", system_config = "Ethos_U55_High_End_Embedded", memory_mode = "Shared_Sram">} {
  func.func @shared(%ifm: tensor<1x8x8x32xi8>) -> tensor<1x8x8x32xi8> {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<32x1x1x32xi8>}> : () -> tensor<32x1x1x32xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<32xi32>}> : () -> tensor<32xi32>
    %0 = "npu.conv2d"(%ifm, %w, %b) <{kernel = #npu.kernel<1x1>, name = "shared1"}> : (tensor<1x8x8x32xi8>, tensor<32x1x1x32xi8>, tensor<32xi32>) -> tensor<1x8x8x32xi8>
    %1 = "npu.conv2d"(%0, %w, %b) <{kernel = #npu.kernel<1x1>, name = "shared2"}> : (tensor<1x8x8x32xi8>, tensor<32x1x1x32xi8>, tensor<32xi32>) -> tensor<1x8x8x32xi8>
    return %1 : tensor<1x8x8x32xi8>
  }
}

// -----

// A value whose area is already explicit (the DMA's destination in DRAM) keeps it; the DMA's
// source, an internal feature map, moves to SRAM.
// CHECK-LABEL: func.func @explicit
// CHECK: %[[C:.*]] = "npu.conv2d"({{.*}}name = "to_copy"}> : ({{.*}}) -> tensor<1x8x8x32xi8, #npu.fm<NHWC, Sram>>
// CHECK: %[[D:.*]] = "npu.dma"(%[[C]]) : (tensor<1x8x8x32xi8, #npu.fm<NHWC, Sram>>) -> tensor<1x8x8x32xi8, #npu.fm<NHWC, Dram>>
// CHECK: "npu.conv2d"(%[[D]], {{.*}}name = "after_copy"}> : (tensor<1x8x8x32xi8, #npu.fm<NHWC, Dram>>, {{.*}}) -> tensor<1x8x8x32xi8>
module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram">} {
  func.func @explicit(%ifm: tensor<1x8x8x32xi8>) -> tensor<1x8x8x32xi8> {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<32x1x1x32xi8>}> : () -> tensor<32x1x1x32xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<32xi32>}> : () -> tensor<32xi32>
    %0 = "npu.conv2d"(%ifm, %w, %b) <{kernel = #npu.kernel<1x1>, name = "to_copy"}> : (tensor<1x8x8x32xi8>, tensor<32x1x1x32xi8>, tensor<32xi32>) -> tensor<1x8x8x32xi8>
    %1 = "npu.dma"(%0) : (tensor<1x8x8x32xi8>) -> tensor<1x8x8x32xi8, #npu.fm<NHWC, Dram>>
    %2 = "npu.conv2d"(%1, %w, %b) <{kernel = #npu.kernel<1x1>, name = "after_copy"}> : (tensor<1x8x8x32xi8, #npu.fm<NHWC, Dram>>, tensor<32x1x1x32xi8>, tensor<32xi32>) -> tensor<1x8x8x32xi8>
    return %2 : tensor<1x8x8x32xi8>
  }
}
