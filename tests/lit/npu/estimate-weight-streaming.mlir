// npu-insert-dma copies weights from off-chip flash into SRAM, npu-buffer-weights decides how they
// stream (Vela's weight-buffering policy) and npu-estimate charges the DMA the previous op's
// compute cannot hide. ethos-u55-128 on
// Ethos_U55_High_End_Embedded / Shared_Sram: feature maps in SRAM, weights in off-chip flash
// (1 byte/cycle, read latency 64). encode-weights=false takes raw weight sizes so the streams can
// be sized by hand: 16 channels x 144 B of weights + 16 x 10 B of scale records = 2464 B, a
// 2464 + 64 = 2528-cycle transfer. Both convolutions compute in 2192 cycles (see
// estimate-mac-ops.mlir).
// RUN: %npu_opt %s -p "npu-select-block-config,npu-insert-dma,npu-buffer-weights{encode-weights=false},npu-estimate{encode-weights=false}" --pass-statistics -o %t.mlir 2> %t.stats
// RUN: %filecheck %s --input-file %t.mlir
// RUN: %filecheck %s --check-prefix=STATS --input-file %t.stats
// RUN: %npu_opt %s -p "npu-select-block-config,npu-estimate{encode-weights=false}" | %filecheck %s --check-prefix=INPLACE
// RUN: not %npu_opt %s -p "npu-select-block-config,npu-insert-dma,npu-estimate{encode-weights=false}" 2>&1 | %filecheck %s --check-prefix=NOSTREAM
// RUN: %npu_opt %s -p "npu-select-block-config,npu-insert-dma,npu-buffer-weights{encode-weights=false},npu-estimate{encode-weights=false weight-buffering=false}" | %filecheck %s --check-prefix=INPLACE

// First conv: nothing runs before it (slack 0), so nothing can be prefetched: one 16-channel slice,
//   single buffer, NPU = 2192 + 2528 - min(2528, 0) = 4720. The streamed weights are not read as
//   flash or SRAM accesses: SRAM access stays 512. Its own slack for the next op: 2192.
// Second conv: 2192 of the 2528 transfer cycles hide under the first: NPU = 2192 + 2528 - 2192 = 2528.
// Module totals: NPU 4720 + 2528 = 7248. Bytes: per op the flash is read for the 2464-byte stream
// (DMA) and SRAM written with it and the 1024-byte OFM (3488); SRAM is read for the IFM (1024) and
// the buffered weights and scales (2304 + 160): 3488.
// By purpose (Vela's summary split): feature maps 2 x 1024 read and written in SRAM; weights 2 x
// 2304 read from their SRAM buffers, 2 x 2464 streamed from flash into them (scale records
// included); the 2 x 160 bytes of scale records the NPU reads are neither. Compressed weights
// 2 x 2304 (raw here); in flash each stream (2464) and its scale tensor (160), padded to 16 bytes.
// The two convolutions read one constant: its 2304 original bytes count once.
// CHECK: module attributes {{{.*}}npu.cost_totals = #npu.cost<total = 7248, npu = 7248, compute = 4384,
// CHECK-SAME: read = [6976, 0, 0, 4928], written = [6976, 0, 0, 0], fm_read = [2048, 0, 0, 0],
// CHECK-SAME: fm_written = [2048, 0, 0, 0], weight_read = [4608, 0, 0, 4928], weight_written = [4928, 0, 0, 0],
// CHECK-SAME: original_weights = 2304, encoded_weights = 4608, stored = [0, 0, 0, 5248]>
// Each conv reads its own copy of the shared constant; the copy streams as one 16-channel slice.
// CHECK: %[[D1:.*]] = "npu.dma"(%[[W:.*]]) {npu.stream = #npu.stream<slices = [0, 16], buffering = single, buffers = [2464], bytes = 2464>} : (tensor<16x3x3x16xi8>) -> tensor<16x3x3x16xi8, #npu.fm<NHWC, Sram>>
// CHECK: "npu.conv2d"(%{{.*}}, %[[D1]], {{.*}}name = "conv1"}> {npu.block = #npu.block<8x8x16, {{.*}}npu.cost = #npu.cost<total = 4720, npu = 4720, compute = 2192, dma = 2528, sram = 512, dram = 0, on_chip_flash = 0, off_chip_flash = 0,
// CHECK: %[[D2:.*]] = "npu.dma"(%[[W]]) {npu.stream = #npu.stream<slices = [0, 16], buffering = single, buffers = [2464], bytes = 2464, prefetch>}
// CHECK: "npu.conv2d"(%{{.*}}, %[[D2]], {{.*}}name = "conv2"}> {npu.block = #npu.block<8x8x16, {{.*}}npu.cost = #npu.cost<total = 2528, npu = 2528, compute = 2192, dma = 2528, sram = 512, dram = 0, on_chip_flash = 0, off_chip_flash = 0,
// The estimate decides no streaming: a weight DMA without npu.stream (npu-buffer-weights not run)
// is an error naming that pass.
// NOSTREAM: error: the weight DMA of 'conv1' has no npu.stream: npu-buffer-weights decides how the weights stream, npu-estimate reads it
// STATS: 'npu-estimate'
// STATS: (S) 2 ops - NPU ops estimated
// STATS: (S) 2 streamed - ops whose weights are DMA'd into fast storage

// Without a weight DMA (npu-estimate alone), or with npu-estimate{weight-buffering=false} ignoring
//   the DMAs, the NPU reads the weights in place. The scale fetch takes
//   10 * 16 * 64 / 256 = 40 cycles (less than the 512-cycle output stage): compute is unchanged, and
//   the flash is read for 2304 B of weights + 160 B of scales at 1 B/cycle: 2464 cycles, more than
//   the NPU's 2192: the op is flash-bound, total 2464.
// INPLACE: name = "conv1"}> {npu.block{{.*}}npu.cost = #npu.cost<total = 2464, npu = 2192, compute = 2192, dma = 0, sram = 512, dram = 0, on_chip_flash = 0, off_chip_flash = 2464,
module attributes {npu.target = #npu.target<"ethos-u55-128", system_config = "Ethos_U55_High_End_Embedded", memory_mode = "Shared_Sram">} {
  func.func @main(%ifm: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %0 = "npu.conv2d"(%ifm, %w, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "conv1"}> : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %1 = "npu.conv2d"(%0, %w, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "conv2"}> : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    return %1 : tensor<1x8x8x16xi8>
  }
}
