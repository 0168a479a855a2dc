// --summary ends with the model's lower bound (dialects/npu/perf/lower_bound.py): the cycles and
// fast-storage bytes no schedule goes below, and ours as a percentage of them; --summary-csv
// has the same after Vela's columns.
// RUN: %npu_opt %S/../Inputs/scheduled-two-convs.mlir --summary -o /dev/null | %filecheck %s --check-prefix=SHARED
// RUN: %npu_opt %s --target=ethos-u65-256 --system-config=Ethos_U65_High_End --memory-mode=Dedicated_Sram --pass=schedule --summary -o /dev/null | %filecheck %s --check-prefix=DEDICATED
// RUN: %npu_opt %s --target=ethos-u65-256 --system-config=Ethos_U65_High_End --memory-mode=Dedicated_Sram --pass=schedule --summary-csv=%t.csv -o /dev/null
// RUN: %python -c "import csv; row = list(csv.DictReader(open(r'%t.csv')))[0]; print('sram', row['sram_lower_bound'], repr(row['sram_pct_of_bound']))" | %filecheck %s --check-prefix=CSV

// Two 3x3 convolutions of 8x8x16 int8 maps: 3*3*16 MACs x 1,024 outputs / 128 MACs a cycle =
// 1,152 cycles each, more than their feature-map traffic (2 x 1,024 B at 8 B/cycle = 256) and
// the weights' (all-1 and all-2 values: encoded in a few hundred bytes, 1 B/cycle from flash).
// Fast storage: conv2 reads a 3-row window of conv1 (3 x 8 x 16 = 384 B) and writes the
// network's output whole (1,024 B): 1,408 B (conv1: its whole input and one row out, 1,152 B).
// SHARED-LABEL: Lower bound (no schedule goes below it):
// SHARED-NEXT: cycles: 2,304 (ours: 315 % of bound)
// SHARED-NEXT: Sram: 1,408 B (1.38 KiB) (ours: 502 % of bound)

// With a dedicated SRAM every feature map may stay in DRAM: nothing has to be in fast storage.
// DEDICATED-LABEL: Lower bound (no schedule goes below it):
// DEDICATED-NEXT: cycles: {{[0-9,]+}} (ours: {{[0-9]+}} % of bound)
// DEDICATED-NEXT: Sram: 0 B (0.00 KiB) (ours: n/a, nothing has to be there)
// CSV: sram 0 ''
module {
  func.func @main(%x: tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>> {
    %0 = "tfl.relu"(%x) : (tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>> loc("relu")
    return %0 : tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>
  }
}
