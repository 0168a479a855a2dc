// A hand-scheduled module for the report tests (--summary, --summary-csv, --perf-report,
// --memory-timeline), written out so they do not depend on the scheduling passes: the two
// convolutions of npu/estimate-weight-streaming.mlir with its npu-estimate costs, each fed by a
// weight DMA (npu.stream: 2 slices double-buffered and prefetched; 1 slice single), cascaded
// (id 1; conv1 in 2x8x16 stripes into a 4x8x16 rolling buffer), with every tensor in SRAM
// (npu.alloc, npu.arg_alloc): 7072 bytes spanned, at most 4000 live (times 1 and 3).
module attributes {npu.target = #npu.target<"ethos-u55-128", system_config = "Ethos_U55_High_End_Embedded", memory_mode = "Shared_Sram">, npu.schedule = #npu.schedule<Performance, arena_cache_size = 393216, sram_target = 393216>, npu.usage = #npu.usage<Sram = [7072, 4000]>, npu.cost_totals = #npu.cost<total = 7248, npu = 7248, compute = 4384, dma = 5056, sram = 1024, dram = 0, on_chip_flash = 0, off_chip_flash = 0, macs = 294912, hw_macs = 393216, read = [6976, 0, 0, 4928], written = [6976, 0, 0, 0]>} {
  func.func @main(%arg0: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> attributes {npu.arg_alloc = [#npu.alloc<Sram, offset = 0, size = 1024, live = [0, 1]>]} {
    %w1 = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %w2 = "tfl.pseudo_const"() <{value = dense<2> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %d1 = "npu.dma"(%w1) {npu.time = 0 : i64, npu.stream = #npu.stream<slices = [0, 8, 16], buffering = double, buffers = [1232, 1232], bytes = 2464, prefetch>, npu.alloc = #npu.alloc<Sram, offset = 2048, size = 2464, live = [0, 1]>} : (tensor<16x3x3x16xi8>) -> tensor<16x3x3x16xi8>
    %c1 = "npu.conv2d"(%arg0, %d1, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "conv1"}> {npu.time = 1 : i64, npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<1, rolling = 4x8x16>, npu.alloc = #npu.alloc<Sram, offset = 1024, size = 512, live = [1, 3]>, npu.block = #npu.block<8x8x16, ifm = 10x10x16, acc = 32, traversal = part_kernel>, npu.cost = #npu.cost<total = 4720, npu = 4720, compute = 2192, dma = 2528, sram = 512, dram = 0, on_chip_flash = 0, off_chip_flash = 0, macs = 147456, hw_macs = 196608, read = [3488, 0, 0, 2464], written = [3488, 0, 0, 0]>} : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %d2 = "npu.dma"(%w2) {npu.time = 2 : i64, npu.stream = #npu.stream<slices = [0, 16], buffering = single, buffers = [2464], bytes = 2464>, npu.alloc = #npu.alloc<Sram, offset = 4608, size = 2464, live = [2, 3]>} : (tensor<16x3x3x16xi8>) -> tensor<16x3x3x16xi8>
    %c2 = "npu.conv2d"(%c1, %d2, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "conv2"}> {npu.time = 3 : i64, npu.stripe = #npu.stripe<8x8x16>, npu.cascade = #npu.cascade<1>, npu.alloc = #npu.alloc<Sram, offset = 0, size = 1024, live = [3, 4]>, npu.block = #npu.block<8x8x16, ifm = 10x10x16, acc = 32, traversal = part_kernel>, npu.cost = #npu.cost<total = 2528, npu = 2528, compute = 2192, dma = 2528, sram = 512, dram = 0, on_chip_flash = 0, off_chip_flash = 0, macs = 147456, hw_macs = 196608, read = [3488, 0, 0, 2464], written = [3488, 0, 0, 0]>} : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    return %c2 : tensor<1x8x8x16xi8>
  }
}
