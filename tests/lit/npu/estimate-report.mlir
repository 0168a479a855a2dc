// npu-opt --perf-report=FILE writes one row per op npu-estimate costed (name = the op's Vela name,
// the TFLite output tensor name), then a TOTAL row: CSV, or JSON for a .json file. The ops are
// those of estimate-pool-elementwise.mlir (ethos-u55-128, Sram_Only): a 288-cycle, SRAM-bound
// (320) average pool and a 1536-cycle add.
// RUN: %npu_opt %s -p npu-select-block-config,npu-estimate --perf-report=%t.csv -o /dev/null
// RUN: cat %t.csv | %filecheck %s --check-prefix=CSV
// RUN: %npu_opt %s -p npu-select-block-config,npu-estimate --perf-report=%t.json -o /dev/null
// RUN: cat %t.json | %filecheck %s --check-prefix=JSON
// RUN: rm -f %t-noblock.csv
// RUN: not %npu_opt %s -p npu-estimate --perf-report=%t-noblock.csv -o /dev/null 2>&1 | %filecheck %s --check-prefix=NOBLOCK
// RUN: not %exists %t-noblock.csv
// Without npu-estimate there is nothing to report: an error names the missing pass, no file.
// RUN: rm -f %t-none.csv
// RUN: not %npu_opt %s --perf-report=%t-none.csv -o /dev/null 2>&1 | %filecheck %s --check-prefix=NONE
// RUN: not %exists %t-none.csv

// CSV: name,op,block,npu_cycles,sram_access_cycles,dram_access_cycles,on_chip_flash_access_cycles,off_chip_flash_access_cycles,total_cycles,nn_macs,hw_macs
// CSV-NEXT: pool,npu.avg_pool,4x4x16,288,320,0,0,0,320,1024,1024
// CSV-NEXT: add,npu.add,8x8x16,1536,768,0,0,0,1536,0,0
// CSV-NEXT: TOTAL,,,1824,1088,0,0,0,1856,1024,1024
// CSV-NOT: {{.}}

// JSON: "name": "pool",
// JSON-NEXT: "op": "npu.avg_pool",
// JSON-NEXT: "block": "4x4x16",
// JSON-NEXT: "npu_cycles": 288,
// JSON: "name": "TOTAL",
// JSON: "total_cycles": 1856,

// Without npu-select-block-config there is no npu.block to read: an error names that pass, no file.
// NOBLOCK: error: 'pool' has no npu.block: npu-select-block-config chooses the block configurations npu-estimate reads

// Without npu-estimate nothing is costed: the header and a zero total.
// NONE: error: --perf-report needs the ops costed, but the module has no 'npu.cost_totals' attribute
module attributes {npu.target = #npu.target<"ethos-u55-128", system_config = "Ethos_U55_High_End_Embedded", memory_mode = "Sram_Only">} {
  func.func @main(%ifm: tensor<1x8x8x16xi8>, %other: tensor<1x4x4x16xi8>) -> tensor<1x4x4x16xi8> {
    %0 = "npu.avg_pool"(%ifm) <{kernel = #npu.kernel<2x2, stride = 2x2>, name = "pool"}> : (tensor<1x8x8x16xi8>) -> tensor<1x4x4x16xi8>
    %1 = "npu.reshape"(%0) : (tensor<1x4x4x16xi8>) -> tensor<1x16x1x16xi8>
    %2 = "npu.reshape"(%1) : (tensor<1x16x1x16xi8>) -> tensor<1x4x4x16xi8>
    %3 = "npu.add"(%ifm, %ifm) <{name = "add"}> : (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
    return %2 : tensor<1x4x4x16xi8>
  }
}
