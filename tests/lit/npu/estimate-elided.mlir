// npu-estimate sizes weight streams with the codec model, which needs the weight values. When a
// constant's data was elided (IR printed with --elide-large-constants), the raw size is used and a
// remark says so, naming the op; the statistic raw-weights counts such ops.
// RUN: %npu_opt %S/../../data/conv.tflite --target=ethos-u55-128 --pass=npu-legalize,npu-order --elide-large-constants=16 -o %t.mlir
// RUN: %npu_opt %t.mlir --pass=npu-format-nhcwb16,npu-place-tensors,npu-select-block-config,npu-estimate --pass-remarks --pass-statistics -o /dev/null 2>&1 | %filecheck %s
// Without the remarks flag the run is quiet about it, as for every remark.
// RUN: %npu_opt %t.mlir --pass=npu-format-nhcwb16,npu-place-tensors,npu-select-block-config,npu-estimate -o /dev/null 2>&1 | %filecheck %s --check-prefix=QUIET --allow-empty

// CHECK: remark: the weight values of 'conv' are not in the IR (an elided constant, e.g. printed with --elide-large-constants); its weight stream is sized raw (288 weights, uncompressed) instead of by the codec model
// CHECK: remark: the weight values of 'logits' are not in the IR
// CHECK: 'npu-estimate'
// CHECK: (S) 3 raw-weights
// QUIET-NOT: remark
