// --perf-report checks what it needs before and after the passes: a writable path (checked
// before any work, so nothing is printed) and an estimated module (else it says which pass is
// missing instead of writing an all-zero report). Help and behaviour agree on the target.
// RUN: rm -f %t.csv
// RUN: not %npu_opt %s --perf-report=%t.csv -o /dev/null 2>&1 | %filecheck %s --check-prefix=NOEST
// RUN: not %exists %t.csv
// RUN: not %npu_opt %s --pass=estimate --perf-report=%t.nodir/out.csv 2>&1 | %filecheck %s --check-prefix=NODIR
// RUN: not %npu_opt %s --pass=estimate -o %t.nodir/out.mlir 2>&1 | %filecheck %s --check-prefix=NODIR-O
// RUN: %npu_opt %s --pass=estimate --perf-report=%t.csv -o /dev/null
// RUN: %filecheck %s --input-file %t.csv --check-prefix=CSV
// RUN: env COLUMNS=400 %npu_opt --help | %filecheck %s --check-prefix=HELP
// The suffix picks the form (.csv, .json); another is refused before any work, and nothing written.
// RUN: rm -f %t.x.txt
// RUN: not %npu_opt %s --pass=estimate --perf-report=%t.x.txt 2>&1 | %filecheck %s --check-prefix=SUFFIX
// RUN: not %exists %t.x.txt
// SUFFIX: npu-opt: error: --perf-report '{{.*}}.x.txt': the report is CSV or JSON, as the name's suffix says; give a file name ending in .csv or .json
// SUFFIX-NOT: module

// NOEST: error: --perf-report needs the ops costed, but the module has no 'npu.cost_totals' attribute: run the estimate pipeline (--pass=estimate --target=ACCELERATOR)
// NODIR: npu-opt: error: cannot write '{{.*}}.nodir{{.}}out.csv': No such file or directory
// NODIR-NOT: module
// NODIR-O: npu-opt: error: cannot write '{{.*}}.nodir{{.}}out.mlir': No such file or directory
// NODIR-O-NOT: module
// CSV: name,op,block,npu_cycles
// CSV-NEXT: relu_avgpool,npu.avg_pool,
// CSV-NEXT: TOTAL,
// HELP: input file: MLIR text (.mlir) or a TFLite model (.tflite, also recognised by its 'TFL3' identifier)
// HELP: --target ACCELERATOR
// HELP-SAME: default: the module's own; else ethos-u55-256 when another target
// HELP-SAME: with no target at all, passes that need one, such as estimate, stop with an error
module attributes {npu.target = #npu.target<"ethos-u55-128">} {
  func.func @f(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> {
    %0 = "tfl.relu"(%x) : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> loc("relu")
    return %0 : tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>
  }
}
