// npu-translate --import-tflite prints each op's location, the TFLite tensor name, so the names
// survive the text: a report on the imported .mlir names its rows as one on the .tflite does,
// and an export of the text writes the original tensor names back.
// RUN: %npu_translate --import-tflite %S/../../data/conv.tflite -o %t.mlir
// RUN: %filecheck %s --input-file %t.mlir
// RUN: %npu_opt %t.mlir --pass=estimate --target=ethos-u55-128 --perf-report=%t.text.csv -o /dev/null
// RUN: %npu_opt %S/../../data/conv.tflite --pass=estimate --target=ethos-u55-128 --perf-report=%t.model.csv -o /dev/null
// RUN: diff %t.text.csv %t.model.csv
// RUN: %filecheck %s --input-file %t.text.csv --check-prefix=CSV
// RUN: %npu_translate --export-tflite %t.mlir -o %t.tflite
// RUN: cmp %t.tflite %S/../../data/conv.tflite

// CHECK-LABEL: func.func @main
// CHECK: "tfl.conv_2d"({{.*}} loc("conv")
// CHECK: "tfl.fully_connected"({{.*}} loc("logits")
// CSV: name,op,
// CSV-NEXT: conv,npu.conv2d,
