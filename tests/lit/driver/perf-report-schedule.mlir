// --perf-report rows gain the schedule's columns when the IR carries a schedule: time, cascade
// id, stripe, rolling buffer, the streamed weights' depth slices, buffering and buffer bytes, and
// the OFM's area, offset and size. Rows are in npu.time order; the TOTAL row leaves them empty.
// Without schedule attributes the table keeps its columns (see perf-report.mlir).
// RUN: %npu_opt %S/../Inputs/scheduled-two-convs.mlir --perf-report=%t.csv -o /dev/null
// RUN: %filecheck %s --input-file %t.csv
// RUN: %npu_opt %S/../Inputs/scheduled-two-convs.mlir --perf-report=%t.json -o /dev/null
// RUN: %filecheck %s --input-file %t.json --check-prefix=JSON

// CHECK-LABEL: name,op,block,npu_cycles,sram_access_cycles,dram_access_cycles,on_chip_flash_access_cycles,off_chip_flash_access_cycles,total_cycles,nn_macs,hw_macs,time,cascade,stripe,rolling,weight_slices,buffering,weight_buffer_bytes,area,offset,size
// CHECK-NEXT: conv1,npu.conv2d,8x8x16,4720,512,0,0,0,4720,147456,196608,1,[[CASCADE:1]],2x8x16,4x8x16,0 8 16,double+prefetch,2464,Sram,1024,512
// CHECK-NEXT: conv2,npu.conv2d,8x8x16,2528,512,0,0,0,2528,147456,196608,3,[[CASCADE]],8x8x16,,0 16,single,2464,Sram,0,1024
// CHECK-NEXT: TOTAL,,,7248,1024,0,0,0,7248,294912,393216,,,,,,,,,,
// CHECK-NOT: {{.}}

// JSON: "name": "conv1",
// JSON: "time": 1,
// JSON-NEXT: "cascade": 1,
// JSON-NEXT: "stripe": "2x8x16",
// JSON-NEXT: "rolling": "4x8x16",
// JSON-NEXT: "weight_slices": "0 8 16",
// JSON-NEXT: "buffering": "double+prefetch",
// JSON-NEXT: "weight_buffer_bytes": 2464,
// JSON-NEXT: "area": "Sram",
// JSON-NEXT: "offset": 1024,
// JSON-NEXT: "size": 512
