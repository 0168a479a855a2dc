// A schedule keeping every rule, with an allocation 1 GiB into DRAM: beyond what npu-run models
// (npu-run-errors.mlir).
module attributes {npu.target = #npu.target<"ethos-u65-256">, npu.schedule = #npu.schedule<Performance, arena_cache_size = 393216, sram_target = 393216>} {
  func.func @main(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> attributes {npu.arg_alloc = [#npu.alloc<Sram, offset = 0, size = 1024, live = [0, 0]>]} {
    %0 = "npu.add"(%x, %x) <{name = "a"}> {npu.time = 0 : i64, npu.alloc = #npu.alloc<Dram, offset = 1073741824, size = 1024, live = [0, 0]>} : (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
    return %0 : tensor<1x8x8x16xi8>
  }
}
