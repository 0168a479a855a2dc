// npu-select-block-config and npu-estimate on one convolution, one depthwise convolution and one
// vector product, for both accelerator families: ethos-u55-128 (Ethos_U55_High_End_Embedded) and
// ethos-u65-256 (Ethos_U65_High_End). Memory mode Sram_Only: feature maps in SRAM, weights in an
// on-chip flash with SRAM timing (read latency 32), so no weight DMA and every number below is
// worked out by hand (tests/unit/hardware/perf/test_npu_perf_model.py has the same cases in more detail).
// RUN: %npu_opt %s --split-input-file -p npu-select-block-config,npu-estimate > %t.out
// RUN: %filecheck %s --check-prefix=U55 --input-file %t.out
// RUN: %npu_opt --split-input-file < %t.out | %filecheck %s --check-prefix=U55
// RUN: %npu_opt %s --split-input-file -p npu-select-block-config,npu-estimate --target=ethos-u65-256 --system-config=Ethos_U65_High_End | %filecheck %s --check-prefix=U65

// Conv 3x3, 8x8x16 -> 8x8x16, int8 NHWC. The whole OFM is one block; its IFM block is (8-1)+3 = 10
// square. IFM depth 16: part-kernel uses 16*9/(16*12) = 0.75 of the MACs, depth-first 16/32: part-kernel.
// ethos-u55-128 (micro-block 2 wide, 1 high, 8 deep): 4*8 = 32 micro-blocks per plane, 2 deep;
//   DPU = max(32, 4*32) * ceil(9/4) steps * ceil(16/8) IFM micro-blocks * 2 = 1536;
//   output = 0.5 * 1024 = 512 (bias fetch 10*16*32/256 = 20 is less);
//   command overhead = (IFM 32 + 2048/8 + OFM 32 + 2048/8 + 512 + 1536) / 4 = 656 (NHWC bursts are
//   16 of SRAM's 32 bytes, so 1024 B cost as 2048); cycles = 1536 * 1 block + 656 = 2192.
//   SRAM access: (1024 + 1024) * 2 / 8 = 512. MACs 9 * 16 * 1024 = 147456; hardware MACs count the
//   kernel in part-kernel steps of 4: 1024 * 12 * 16 = 196608.
// ethos-u65-256 (2x2x8 micro-blocks, 16 B/cycle): DPU = max(32, 4*16) * 3 * 2 * 2 = 768; output 0.25 * 1024 = 256;
//   overhead (160 + 160 + 256 + 768) / 4 = 336; cycles 768 + 336 = 1104; SRAM 4096 / 16 = 256.
// U55-LABEL: func.func @conv
// U55: "npu.conv2d"{{.*}}npu.block = #npu.block<8x8x16, ifm = 10x10x16, acc = 32, traversal = part_kernel>
// U55-SAME: npu.cost = #npu.cost<total = 2192, npu = 2192, compute = 2192, dma = 0, sram = 512, dram = 0,
// U55-SAME: macs = 147456, hw_macs = 196608,
// U65-LABEL: func.func @conv
// U65: "npu.conv2d"{{.*}}npu.block = #npu.block<8x8x16, ifm = 10x10x16, acc = 32, traversal = part_kernel>
// U65-SAME: npu.cost = #npu.cost<total = 1104, npu = 1104, compute = 1104, dma = 0, sram = 256, dram = 0,
// U65-SAME: macs = 147456, hw_macs = 196608,
module attributes {npu.target = #npu.target<"ethos-u55-128", system_config = "Ethos_U55_High_End_Embedded", memory_mode = "Sram_Only">} {
  func.func @conv(%ifm: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %0 = "npu.conv2d"(%ifm, %w, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "conv"}> : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    return %0 : tensor<1x8x8x16xi8>
  }
}

// -----

// Depthwise 3x3, 8x8x16: same blocks; no IFM-depth loop, 4-element kernel steps.
// On the U55, DPU = max(32, 4*32) * ceil(9/4) * 2 = 768; output 512; overhead (288 + 288 + 512 + 768) / 4 = 464;
//   cycles = 768 + 512 = 1280. MACs 9 * 1024 = 9216.
// On the U65, DPU = max(32, 64) * 3 * 2 = 384; output 256; overhead (160 + 160 + 256 + 384) / 4 = 240;
//   cycles = 384 + 256 = 640.
// U55-LABEL: func.func @depthwise
// U55: "npu.depthwise_conv2d"{{.*}}npu.block = #npu.block<8x8x16, ifm = 10x10x16, acc = 32, traversal = part_kernel>
// U55-SAME: npu.cost = #npu.cost<total = 1280, npu = 1280, compute = 1280, dma = 0, sram = 512,
// U55-SAME: macs = 9216, hw_macs = 12288,
// U65-LABEL: func.func @depthwise
// U65: npu.cost = #npu.cost<total = 640, npu = 640, compute = 640, dma = 0, sram = 256,
module attributes {npu.target = #npu.target<"ethos-u55-128", system_config = "Ethos_U55_High_End_Embedded", memory_mode = "Sram_Only">} {
  func.func @depthwise(%ifm: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<1x3x3x16xi8>}> : () -> tensor<1x3x3x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %0 = "npu.depthwise_conv2d"(%ifm, %w, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "dw"}> : (tensor<1x8x8x16xi8>, tensor<1x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    return %0 : tensor<1x8x8x16xi8>
  }
}

// -----

// Vector product 64 -> 16. On the U55 the only block is 1 high, 2 wide (one micro-block), 16 deep; IFM
//   block depth min(64, 32) = 32. DPU: 1x1 micro-block plane, 2 deep, 1 kernel step:
//   max(32, 4) * 2 = 64, x 64/32 = 2 IFM-depth passes = 128; output max(0.5 * 16, bias 20) = 20;
//   overhead (IFM 32 + 32/8 + OFM 32 + 32/8 + 20 + 128) / 4 = 55; cycles = 128 + 55 = 183.
// On the U65 the block is 2 high (2-row micro-blocks; the Conv1D rule sizes SHRAM for 1 row);
//   DPU 128, output 20, overhead (34 + 34 + 20 + 128) / 4 = 54: cycles 182.
// U55-LABEL: func.func @vector_product
// U55: "npu.vector_product"{{.*}}npu.block = #npu.block<1x2x16, ifm = 1x2x32, acc = 32, traversal = depth_first>
// U55-SAME: npu.cost = #npu.cost<total = 183, npu = 183, compute = 183, dma = 0, sram = 12,
// U55-SAME: macs = 1024,
// U65-LABEL: func.func @vector_product
// U65: npu.block = #npu.block<2x2x16, ifm = 2x2x32, acc = 32, traversal = depth_first>
// U65-SAME: npu.cost = #npu.cost<total = 182, npu = 182, compute = 182, dma = 0, sram = 6,
module attributes {npu.target = #npu.target<"ethos-u55-128", system_config = "Ethos_U55_High_End_Embedded", memory_mode = "Sram_Only">} {
  func.func @vector_product(%ifm: tensor<1x1x1x64xi8>) -> tensor<1x1x1x16xi8> {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x64xi8>}> : () -> tensor<16x64xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %0 = "npu.vector_product"(%ifm, %w, %b) <{name = "fc"}> : (tensor<1x1x1x64xi8>, tensor<16x64xi8>, tensor<16xi32>) -> tensor<1x1x1x16xi8>
    return %0 : tensor<1x1x1x16xi8>
  }
}
