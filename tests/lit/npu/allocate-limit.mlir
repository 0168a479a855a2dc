// npu-allocate against the limits: with a separate fast storage (Dedicated_Sram) the arena cache
// size is a hard limit, so data that cannot fit is one error at the op running at the peak, with
// the bytes; in a shared arena it is only a target, as in Vela: a warning, and the
// schedule stands (exit 0). The command exits 1 and writes no
// output file.
// RUN: %npu_opt %s --split-input-file --pass=npu-allocate --verify-diagnostics
// RUN: rm -f %t.mlir && not %npu_opt %s --split-input-file --pass=npu-allocate -o %t.mlir 2>&1 | %filecheck %s --check-prefix=CLI
// RUN: not test -e %t.mlir

// CLI: error: the Sram allocation spans 2048 bytes, more than the arena cache size of 1500 bytes; 2048 bytes are live at once while 'p2' (npu.max_pool) runs

module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram", arena_cache_size = 1500>} {
  func.func @too_small(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> {
    %0 = "npu.max_pool"(%x) <{name = "p1", kernel = #npu.kernel<1x1>}> {npu.time = 0 : i64} : (tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8, #npu.fm<NHCWB16, Sram>>
    // expected-error@+1 {{the Sram allocation spans 2048 bytes, more than the arena cache size of 1500 bytes; 2048 bytes are live at once while 'p2' (npu.max_pool) runs}}
    %1 = "npu.max_pool"(%0) <{name = "p2", kernel = #npu.kernel<1x1>}> {npu.time = 1 : i64} : (tensor<1x8x8x16xi8, #npu.fm<NHCWB16, Sram>>) -> tensor<1x8x8x16xi8, #npu.fm<NHCWB16, Sram>>
    %2 = "npu.max_pool"(%1) <{name = "p3", kernel = #npu.kernel<1x1>}> {npu.time = 2 : i64} : (tensor<1x8x8x16xi8, #npu.fm<NHCWB16, Sram>>) -> tensor<1x8x8x16xi8>
    return %2 : tensor<1x8x8x16xi8>
  }
}

// -----

module attributes {npu.target = #npu.target<"ethos-u55-128", system_config = "Ethos_U55_High_End_Embedded", memory_mode = "Shared_Sram", arena_cache_size = 1500>} {
  func.func @shared_target(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> {
    // expected-warning@+1 {{the Sram allocation spans 2048 bytes, more than the arena cache size of 1500 bytes; 2048 bytes are live at once while 'p1' (npu.max_pool) runs; with the arena in Sram, the arena cache size is a target, not a limit, so the schedule stands}}
    %0 = "npu.max_pool"(%x) <{name = "p1", kernel = #npu.kernel<1x1>}> {npu.time = 0 : i64} : (tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8, #npu.fm<NHCWB16>>
    %1 = "npu.max_pool"(%0) <{name = "p2", kernel = #npu.kernel<1x1>}> {npu.time = 1 : i64} : (tensor<1x8x8x16xi8, #npu.fm<NHCWB16>>) -> tensor<1x8x8x16xi8>
    return %1 : tensor<1x8x8x16xi8>
  }
}
