// npu-select-block-config writes each NPU compute op's OFM block (npu.block). By default it is
// Vela's choice (the fewest IFM and weight elements fetched per OFM element); choose=cycles, or
// the module's npu.schedule flag fastest_blocks (a schedule search's knob), takes instead the
// block of a coarse grid with the fewest estimated cycles, Vela's unless another is strictly
// faster, with a remark giving both estimates. ethos-u55-128, weights read in place from flash.
// RUN: %npu_opt %s --split-input-file --pass=npu-select-block-config | %filecheck %s
// RUN: %npu_opt %s --split-input-file --pass="npu-select-block-config{choose=cycles},npu-estimate" | %filecheck %s --check-prefix=FAST
// RUN: %npu_opt %s --split-input-file --pass="npu-select-block-config{choose=cycles}" --pass-remarks --pass-statistics -o /dev/null 2>&1 | %filecheck %s --check-prefix=REMARK
// RUN: %npu_opt %s --split-input-file --pass="npu-select-block-config{choose=vela}" | %filecheck %s --check-prefix=VELA

// A 1x1 convolution, 48 -> 96 channels on a 20x20 map: Vela's block is 2x20x48; one row of
// 20x32 costs fewer cycles (the estimate: 19520 against 20160).
// CHECK-LABEL: func.func @conv
// CHECK: npu.block = #npu.block<2x20x48, ifm = 2x20x32, acc = 32, traversal = depth_first>
// FAST-LABEL: func.func @conv
// FAST: npu.block = #npu.block<1x20x32, ifm = 1x20x32, acc = 32, traversal = depth_first>, npu.cost = #npu.cost<total = 19520,
// REMARK: select-block-config.mlir:{{[0-9]+}}:5: remark: block 1x20x32 instead of Vela's 2x20x48: 19520 estimated cycles, not 20160
module attributes {npu.target = #npu.target<"ethos-u55-128", system_config = "Ethos_U55_High_End_Embedded", memory_mode = "Shared_Sram">} {
  func.func @conv(%x: tensor<1x20x20x48xi8>) -> tensor<1x20x20x96xi8> {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<96x1x1x48xi8>}> : () -> tensor<96x1x1x48xi8>
    %bias = "tfl.pseudo_const"() <{value = dense<0> : tensor<96xi32>}> : () -> tensor<96xi32>
    %a = "npu.conv2d"(%x, %w, %bias) <{name = "conv", kernel = #npu.kernel<1x1>}> : (tensor<1x20x20x48xi8>, tensor<96x1x1x48xi8>, tensor<96xi32>) -> tensor<1x20x20x96xi8>
    return %a : tensor<1x20x20x96xi8>
  }
}

// -----

// The same op in a module whose npu.schedule has fastest_blocks: the cycles choice without the
// option; choose=vela overrides the module.
// CHECK-LABEL: func.func @by_schedule
// CHECK: npu.block = #npu.block<1x20x32,
// VELA-LABEL: func.func @by_schedule
// VELA: npu.block = #npu.block<2x20x48,
// REMARK: select-block-config.mlir:{{[0-9]+}}:5: remark: block 1x20x32 instead of Vela's 2x20x48
module attributes {npu.target = #npu.target<"ethos-u55-128", system_config = "Ethos_U55_High_End_Embedded", memory_mode = "Shared_Sram">, npu.schedule = #npu.schedule<Performance, arena_cache_size = 4294967296, sram_target = 4294967296, fastest_blocks>} {
  func.func @by_schedule(%x: tensor<1x20x20x48xi8>) -> tensor<1x20x20x96xi8> {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<96x1x1x48xi8>}> : () -> tensor<96x1x1x48xi8>
    %bias = "tfl.pseudo_const"() <{value = dense<0> : tensor<96xi32>}> : () -> tensor<96xi32>
    %a = "npu.conv2d"(%x, %w, %bias) <{name = "conv", kernel = #npu.kernel<1x1>}> : (tensor<1x20x20x48xi8>, tensor<96x1x1x48xi8>, tensor<96xi32>) -> tensor<1x20x20x96xi8>
    return %a : tensor<1x20x20x96xi8>
  }
}

// -----

// A block no other on the grid beats stays Vela's, without a remark: a 1x1x16 map (Vela's 1x2x16 block).
// FAST-LABEL: func.func @tiny
// FAST: npu.block = #npu.block<1x2x16,
// REMARK-NOT: remark: block
// REMARK: 1 faster - ops given a faster block than Vela's (choose=cycles)
// REMARK: 1 faster - ops given a faster block than Vela's (choose=cycles)
// REMARK: 0 faster - ops given a faster block than Vela's (choose=cycles)
module attributes {npu.target = #npu.target<"ethos-u55-128", system_config = "Ethos_U55_High_End_Embedded", memory_mode = "Shared_Sram">} {
  func.func @tiny(%x: tensor<1x1x1x16xi8>) -> tensor<1x1x1x16xi8> {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x1x1x16xi8>}> : () -> tensor<16x1x1x16xi8>
    %bias = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %a = "npu.conv2d"(%x, %w, %bias) <{name = "tiny", kernel = #npu.kernel<1x1>}> : (tensor<1x1x1x16xi8>, tensor<16x1x1x16xi8>, tensor<16xi32>) -> tensor<1x1x1x16xi8>
    return %a : tensor<1x1x1x16xi8>
  }
}
