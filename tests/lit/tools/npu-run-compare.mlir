// npu-run --compare-tflite runs ai-edge-litert (its reference kernels) on the TFLite model with
// the same inputs and prints, per output, the largest absolute difference and how many elements
// differ; any difference beyond --tolerance (default 0) is an error and exit code 1.
// REQUIRES: litert
// RUN: npu-run %S/../../data/two_outputs.tflite --compare-tflite --print-limit 0 | %filecheck %s --check-prefix=SAME
// SAME:      input 0 'input': tensor<1x10x10x8x!quant.uniform<i8:f32, 0.0625>> random (seed 0)
// SAME-NEXT: output 0 'head_a_pool': tensor<1x5x5x32x!quant.uniform<i8:f32, 0.25>>
// SAME-NEXT: output 1 'head_b_conv': tensor<1x5x5x40x!quant.uniform<i8:f32, 0.25>>
// SAME-NEXT: compare 0 'head_a_pool': max abs diff 0, 0 of 800 elements differ
// SAME-NEXT: compare 1 'head_b_conv': max abs diff 0, 0 of 1000 elements differ
// After a pipeline: legalised to npu ops (estimate), and scheduled (run stripe by stripe in its
// memory areas), the outputs are still TFLite's.
// RUN: npu-run %S/../../data/two_outputs.tflite --pipeline=estimate --target=ethos-u55-256 --compare-tflite --print-limit 0 | %filecheck %s --check-prefix=SAME
// RUN: npu-run %S/../../data/two_outputs.tflite --pipeline=schedule --target=ethos-u55-256 --compare-tflite --print-limit 0 | %filecheck %s --check-prefix=SAME
// --compare-each-op also compares each op result that carries a TFLite tensor name (its location)
// with that tensor, as ai-edge-litert computed it.
// RUN: npu-run %S/../../data/conv.tflite --compare-tflite --compare-each-op --print-limit 0 | %filecheck %s --check-prefix=EACH
// EACH:      compare 0 'logits': max abs diff 0, 0 of 10 elements differ
// EACH-NEXT: op 'conv' (tfl.conv_2d): max abs diff 0, 0 of 128 elements differ
// EACH-NEXT: op 'depthwise' (tfl.depthwise_conv_2d): max abs diff 0, 0 of 256 elements differ
// EACH:      op 'logits' (tfl.fully_connected): max abs diff 0, 0 of 10 elements differ
// EACH-NEXT: ops: 7 result(s) compared by tensor name, 0 differ
// RUN: not npu-run %S/../../data/conv.tflite --compare-each-op 2>&1 | %filecheck %s --check-prefix=EACH-ALONE
// EACH-ALONE: npu-run: error: --compare-each-op compares with TFLite: it needs --compare-tflite
// The function below has odd_channels.tflite's signature but returns a constant.
// RUN: not npu-run %s --compare-tflite --tflite %S/../../data/odd_channels.tflite -o %t.npz > %t.out 2> %t.err
// RUN: %filecheck %s --check-prefix=DIFF --input-file %t.out
// RUN: %filecheck %s --check-prefix=DIFF-ERR --input-file %t.err
// DIFF:      output 0 'odd_dense7': tensor<1x7x!quant.uniform<i8:f32, 0.5>> min 0 max 0
// DIFF:      compare 0 'odd_dense7': max abs diff 128, 7 of 7 elements differ
// DIFF-ERR:  npu-run: error: 1 output(s) differ from TFLite by more than the tolerance 0: 'odd_dense7' (max abs diff 128)
// A difference is still a result: the outputs are written.
// RUN: %exists %t.npz
// RUN: npu-run %s --compare-tflite --tflite %S/../../data/odd_channels.tflite --tolerance 128 | %filecheck %s --check-prefix=TOLERATED
// TOLERATED: compare 0 'odd_dense7': max abs diff 128, 7 of 7 elements differ

func.func @main(%x: tensor<1x9x11x3x!quant.uniform<i8:f32, 0.0625>>) -> tensor<1x7x!quant.uniform<i8:f32, 0.5>> attributes {tf.entry_function = {inputs = "input", outputs = "odd_dense7"}} {
  %c = "tfl.pseudo_qconst"() <{qtype = tensor<1x7x!quant.uniform<i8:f32, 0.5>>, value = dense<0> : tensor<1x7xi8>}> : () -> tensor<1x7x!quant.uniform<i8:f32, 0.5>>
  return %c : tensor<1x7x!quant.uniform<i8:f32, 0.5>>
}

// ai-edge-litert aborting the process (its reference int8 softmax, on a row whose exponentials
// sum to 512 or more) is one error naming the model, the kernels and the signal, and the flag of
// its optimised kernels, which run the model (bit-exact with the NPU's softmax there); nothing
// else is printed and no file is written.
// RUN: %npu_translate --export-tflite %S/../Inputs/npu-run-softmax-abort.mlir -o %t.abort.tflite
// RUN: rm -f %t.abort.npz
// RUN: not npu-run %t.abort.tflite --compare-tflite -o %t.abort.npz > %t.abort.out 2> %t.abort.err
// RUN: %filecheck %s --check-prefix=ABORT --input-file %t.abort.err
// ABORT: {{^}}npu-run: error: ai-edge-litert crashed running '{{.*}}.abort.tflite' with its reference kernels (killed by signal SIGABRT); its optimised kernels may run it: --tflite-kernels=builtin
// ABORT-NOT: {{.}}
// RUN: %filecheck %s --check-prefix=NOTHING --allow-empty --input-file %t.abort.out
// NOTHING-NOT: {{.}}
// RUN: not %exists %t.abort.npz
// RUN: npu-run %t.abort.tflite --compare-tflite --tflite-kernels=builtin --pipeline=estimate --target=ethos-u55-128 --print-limit 0 | %filecheck %s --check-prefix=BUILTIN
// BUILTIN: compare 0 'probs': max abs diff 0, 0 of 1000 elements differ
