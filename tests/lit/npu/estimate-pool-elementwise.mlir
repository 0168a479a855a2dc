// npu-select-block-config and npu-estimate on an average pool and an elementwise add, for
// ethos-u55-128 (Ethos_U55_High_End_Embedded) and ethos-u65-256 (Ethos_U65_High_End), feature
// maps int8 NHWC in SRAM (memory mode Sram_Only). Hand computations:
// RUN: %npu_opt %s --split-input-file -p npu-select-block-config,npu-estimate | %filecheck %s --check-prefix=U55
// RUN: %npu_opt %s --split-input-file -p npu-select-block-config,npu-estimate --target=ethos-u65-256 --system-config=Ethos_U65_High_End | %filecheck %s --check-prefix=U65

// Average pool 2x2 stride 2, 8x8x16 -> 4x4x16: one 4x4x16 block fed by an 8x8x16 IFM block.
// On the U55, 2x4 micro-blocks per plane, 2 deep: DPU = max(4, 2*2 kernel) * 8 * 2 = 64; output
//   0.5 * 256 = 128; IFM block transfer 32 + 2048/8 = 288 (16-byte bursts of a 32-byte SRAM burst),
//   OFM 32 + 512/8 = 96; overhead (288 + 96 + 128 + 64) / 4 = 144, which both stages take:
//   cycles = 144 * 1 + 144 = 288. SRAM access (1024 + 256) * 2 / 8 = 320 > 288: total 320
//   (memory-bound). MACs: 4 per OFM element, 1024.
// On the U65, 2x2 micro-blocks, DPU = 4 * 4 * 2 = 32; output 64; transfers 160 and 64; overhead
//   (160 + 64 + 64 + 32) / 4 = 80: cycles 160; SRAM (1024 + 256) * 2 / 16 = 160.
// U55-LABEL: func.func @pool
// U55: "npu.avg_pool"{{.*}}npu.block = #npu.block<4x4x16, ifm = 8x8x16, acc = 32, traversal = depth_first>
// U55-SAME: npu.cost = #npu.cost<total = 320, npu = 288, compute = 288, dma = 0, sram = 320, dram = 0,
// U55-SAME: macs = 1024, hw_macs = 1024, read = [1024, 0, 0, 0], written = [256, 0, 0, 0],
// All of it feature maps (a pool has no weights, scales or LUT): nothing stored, nothing encoded.
// U55-SAME: fm_read = [1024, 0, 0, 0], fm_written = [256, 0, 0, 0], weight_read = [0, 0, 0, 0], weight_written = [0, 0, 0, 0]>
// U65-LABEL: func.func @pool
// U65: npu.cost = #npu.cost<total = 160, npu = 160, compute = 160, dma = 0, sram = 160,
module attributes {npu.target = #npu.target<"ethos-u55-128", system_config = "Ethos_U55_High_End_Embedded", memory_mode = "Sram_Only">} {
  func.func @pool(%ifm: tensor<1x8x8x16xi8>) -> tensor<1x4x4x16xi8> {
    %0 = "npu.avg_pool"(%ifm) <{kernel = #npu.kernel<2x2, stride = 2x2>, name = "pool"}> : (tensor<1x8x8x16xi8>) -> tensor<1x4x4x16xi8>
    return %0 : tensor<1x4x4x16xi8>
  }
}

// -----

// Add 8x8x16 + 8x8x16: elementwise ops have no DPU stage; the block is the whole OFM.
// On the U55, add/sub cost 1.5 cycles per element; the command overhead per element,
//   (288 + 288 + 1.5 * 1024) / 4 / 1024 = 0.52, is less: cycles = 1.5 * 1024 = 1536.
//   SRAM access: three 1024-byte streams at 16-byte bursts: 6144 / 8 = 768.
// On the U65, 0.75 per element: 768 cycles; SRAM 6144 / 16 = 384.
// U55-LABEL: func.func @add
// U55: "npu.add"{{.*}}npu.block = #npu.block<8x8x16, ifm = 8x8x16, acc = 32, traversal = depth_first>
// U55-SAME: npu.cost = #npu.cost<total = 1536, npu = 1536, compute = 1536, dma = 0, sram = 768,
// U55-SAME: macs = 0, hw_macs = 0,
// U65-LABEL: func.func @add
// U65: npu.cost = #npu.cost<total = 768, npu = 768, compute = 768, dma = 0, sram = 384,
module attributes {npu.target = #npu.target<"ethos-u55-128", system_config = "Ethos_U55_High_End_Embedded", memory_mode = "Sram_Only">} {
  func.func @add(%a: tensor<1x8x8x16xi8>, %b: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> {
    %0 = "npu.add"(%a, %b) <{name = "add"}> : (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
    return %0 : tensor<1x8x8x16xi8>
  }
}
