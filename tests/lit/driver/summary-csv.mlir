// --summary-csv=FILE writes Vela's summary CSV (same columns, order and units) from the IR:
// the target (clock, arena cache size in KiB, bandwidths in GiB/s, storage areas), the costs
// (cycles, MACs, bytes per memory), npu.usage (memory used, KiB) and the ops (passes, weights).
// Columns without a source in the IR are empty, never guessed (before npu-allocate, the memory used
// of an area holding feature maps). It checks its path before any
// work and needs the ops costed (else an error, exit 1, no file).
// RUN: rm -f %t.csv %t-none.csv
// RUN: %npu_opt %S/../Inputs/scheduled-two-convs.mlir --summary-csv=%t.csv -o /dev/null
// RUN: %filecheck %s --input-file %t.csv --check-prefix=SCHED
// RUN: %npu_opt %s --pass=estimate --summary-csv=%t-est.csv -o /dev/null
// RUN: %filecheck %s --input-file %t-est.csv --check-prefix=EST
// RUN: not %npu_opt %s --summary-csv=%t-none.csv -o /dev/null 2>&1 | %filecheck %s --check-prefix=NOCOST
// RUN: not %exists %t-none.csv
// RUN: not %npu_opt %s --pass=estimate --summary-csv=%t.nodir/out.csv 2>&1 | %filecheck %s --check-prefix=NODIR
// RUN: env COLUMNS=400 %npu_opt --help | %filecheck %s --check-prefix=HELP

// The header is Vela 5.2.0's, column for column, then ours (cycles_lower_bound, ...).
// SCHED-LABEL: experiment,network,accelerator_configuration,system_config,memory_mode,core_clock,arena_cache_size,sram_bandwidth,dram_bandwidth,on_chip_flash_bandwidth,off_chip_flash_bandwidth,weights_storage_area,feature_map_storage_area,inferences_per_second,batch_size,inference_time,passes_before_fusing,passes_after_fusing,sram_memory_used,dram_memory_used,on_chip_flash_memory_used,off_chip_flash_memory_used,total_original_weights,total_npu_encoded_weights,sram_feature_map_read_bytes,sram_feature_map_write_bytes,sram_weight_read_bytes,sram_weight_write_bytes,sram_total_bytes,dram_feature_map_read_bytes,dram_feature_map_write_bytes,dram_weight_read_bytes,dram_weight_write_bytes,dram_total_bytes,on_chip_flash_feature_map_read_bytes,on_chip_flash_feature_map_write_bytes,on_chip_flash_weight_read_bytes,on_chip_flash_weight_write_bytes,on_chip_flash_total_bytes,off_chip_flash_feature_map_read_bytes,off_chip_flash_feature_map_write_bytes,off_chip_flash_weight_read_bytes,off_chip_flash_weight_write_bytes,off_chip_flash_total_bytes,nn_macs,nn_tops,cycles_npu,cycles_sram_access,cycles_dram_access,cycles_on_chip_flash_access,cycles_off_chip_flash_access,cycles_total
// Configuration: ethos-u55-128 at 500 MHz; Shared_Sram's arena cache is the 4 GiB address space
// (4194304 KiB); SRAM moves 8 B/cycle (3.73 GiB/s), the off-chip flash 1 B/cycle.
// SCHED-NEXT: default,[[NET:scheduled-two-convs]],Ethos_U55_128,Ethos_U55_High_End_Embedded,Shared_Sram,500000000.0,4194304.0,3.725290298461914,3.725290298461914,3.725290298461914,0.46566128730773926,Off-chip Flash,SRAM,
// 7248 cycles at 500 MHz: 68984.5 inferences/s, 14.496 us; passes as Vela's legacy core counts
// them: start-up and the call of the one NPU stretch, then its start-up and 2 costed ops (5), and
// after fusing the first two (2); 7072 B of SRAM spanned = 6.90625 KiB; no DRAM or on-chip flash on any port (0);
// off-chip flash holds the constants npu-estimate sized (stored, 5248 B = 5.125 KiB); 2 x 2304 B of
// weights, 4608 B encoded; per memory the feature-map and weight bytes read and written
// (npu.cost_totals' split), then the total read + written.
// SCHED-SAME: 68984.54746136865,1,1.4496e-05,5,2,6.90625,0.0,0.0,5.125,4608,4608,
// SCHED-SAME: 2048,2048,4608,4928,13952,0,0,0,0,0,0,0,0,0,0,0,0,4928,0,4928,
// SCHED-SAME: 294912,0.0406887417218543,7248,1024,0,0,0,7248
// Ours after Vela's: the lower bound and our figures as a percentage (tools/summary-bound.mlir).
// SCHED-SAME: ,2304,314.6,1408,502.3
// SCHED-NOT: {{.}}

// Estimated, not allocated: SRAM and DRAM used are unknown (empty), the flashes are on no port of
// Dedicated_Sram_384KB (0); its arena cache is 384 KiB; weights and the arena live in DRAM. No
// weights (0, 0); the relu reads and writes 128 B of feature map in DRAM. Passes: 1 + 1 + (1 + 1)
// before fusing, 1 + 1 after.
// EST-LABEL: experiment,network,
// EST-NEXT: default,summary-csv,Ethos_U65_256,Ethos_U65_High_End,Dedicated_Sram_384KB,1000000000.0,384.0,{{[0-9.]+}},{{[0-9.]+}},{{[0-9.]+}},{{[0-9.]+}},DRAM,DRAM,
// EST-SAME: ,4,2,,,0.0,0.0,0,0,0,0,0,0,0,128,128,0,0,256,

// NOCOST: error: --summary-csv needs the ops costed, but the module has no 'npu.cost_totals' attribute: run the estimate pipeline
// NODIR: npu-opt: error: cannot write '{{.*}}.nodir{{.}}out.csv': No such file or directory
// NODIR-NOT: module
// HELP: --summary-csv FILE {{ +}}after the passes
// HELP-SAME: the columns, order and units of Vela's summary CSV
// HELP: are left empty
module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram_384KB">} {
  func.func @f(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> {
    %0 = "tfl.relu"(%x) : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> loc("relu")
    return %0 : tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>
  }
}
