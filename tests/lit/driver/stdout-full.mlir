// Standard output that cannot be written (a full disk, here /dev/full) is one diagnostic from
// each tool, exit code 1: no traceback, no internal error, no reproducer.
// UNSUPPORTED: system-darwin, system-windows
// RUN: not %npu_opt %s > /dev/full 2> %t.opt.err
// RUN: %filecheck %s --input-file %t.opt.err --check-prefix=OPT
// OPT: npu-opt: error: cannot write to standard output: No space left on device
// OPT-NOT: Traceback
// OPT-NOT: internal error
// The summary goes to stdout too, after an IR written to a file.
// RUN: not %npu_opt %S/../../data/conv.tflite --pass=estimate --target=ethos-u55-128 --summary -o %t.mlir > /dev/full 2> %t.summary.err
// RUN: %filecheck %s --input-file %t.summary.err --check-prefix=OPT
// RUN: not %npu_translate --mlir-to-dot %s > /dev/full 2> %t.translate.err
// RUN: %filecheck %s --input-file %t.translate.err --check-prefix=TRANSLATE
// TRANSLATE: npu-translate: error: cannot write to standard output: No space left on device
// TRANSLATE-NOT: reproducer
// TRANSLATE-NOT: internal error
// RUN: not npu-run %S/../../data/conv.tflite > /dev/full 2> %t.run.err
// RUN: %filecheck %s --input-file %t.run.err --check-prefix=RUNNER
// RUNNER: npu-run: error: cannot write to standard output: No space left on device
// RUNNER-NOT: internal error

// CHECK-LABEL: func.func @f
func.func @f(%x: i32) -> i32 {
  return %x : i32
}
