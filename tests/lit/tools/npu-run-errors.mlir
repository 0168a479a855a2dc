// npu-run's errors: one diagnostic, exit code 1, no traceback and no output file.
// RUN: rm -f %t.npz
// RUN: %python -c "import numpy as np; np.save(r'%t.shape.npy', np.zeros((2, 4), np.int8)); np.save(r'%t.dtype.npy', np.zeros((2, 3), np.int16)); np.save(r'%t.ok.npy', np.zeros((2, 3), np.int8))"
// An op without a kernel, or one its kernel cannot run: the error is at the op.
// RUN: not npu-run %S/../Inputs/npu-run-no-kernel.mlir -o %t.npz 2>&1 | %filecheck %s --check-prefix=NOKERNEL
// RUN: not %exists %t.npz
// NOKERNEL: npu-run-no-kernel.mlir:3:3: error: 'test.addi' cannot be interpreted: its dialect has no kernel for it
// NOKERNEL-NEXT: %s = "test.addi"(%x, %y) : (i32, i32) -> i32
// NOKERNEL-NEXT: ^
// NOKERNEL-NOT: Traceback
// RUN: not npu-run %S/../Inputs/npu-run-custom.mlir -o %t.npz 2>&1 | %filecheck %s --check-prefix=CUSTOM
// RUN: not %exists %t.npz
// CUSTOM: npu-run-custom.mlir:3:3: error: 'tfl.custom' cannot be interpreted: custom operator 'NoSuchOp' has no reference kernel
// Inputs of the wrong shape or dtype, or names that are no input.
// RUN: not npu-run %s --input x=%t.shape.npy -o %t.npz 2>&1 | %filecheck %s --check-prefix=SHAPE
// SHAPE: npu-run: error: input 'x' from '{{.*}}.shape.npy' has shape 2x4, but the argument of type tensor<2x3x!quant.uniform<i8:f32, 0.25:1>> has shape 2x3
// RUN: not npu-run %s --input x=%t.dtype.npy -o %t.npz 2>&1 | %filecheck %s --check-prefix=DTYPE
// DTYPE: npu-run: error: input 'x' from '{{.*}}.dtype.npy' has dtype int16, but the argument of type tensor<2x3x!quant.uniform<i8:f32, 0.25:1>> is held as int8
// RUN: not npu-run %s --input y=%t.ok.npy -o %t.npz 2>&1 | %filecheck %s --check-prefix=NAME
// NAME: npu-run: error: --input names 'y', which is not an input of the function (its inputs: 'x'; or a position 0..0)
// RUN: not npu-run %s --input x=%t.missing.npy 2>&1 | %filecheck %s --check-prefix=MISSING
// MISSING: npu-run: error: cannot open input file '{{.*}}.missing.npy'
// RUN: not npu-run %s --input %t.ok.npy 2>&1 | %filecheck %s --check-prefix=FORM
// FORM: npu-run: error: --input '{{.*}}.ok.npy' must be NAME=FILE.npy (or a FILE.npz whose keys are input names)
// RUN: not %exists %t.npz
// A text file named .npy is not read as a pickle: the error says what the file is not.
// RUN: %python -c "open(r'%t.text.npy', 'w').write('1 2 3\n')"
// RUN: not npu-run %s --input x=%t.text.npy 2>&1 | %filecheck %s --check-prefix=TEXT
// TEXT: npu-run: error: '{{.*}}.text.npy' is not a numpy .npy or .npz file: it starts with neither the .npy magic '\x93NUMPY' nor a zip header (numpy.save and numpy.savez write those)
// TEXT-NOT: allow_pickle
// -o names an .npz: another suffix is refused before any work, and no file is written.
// RUN: rm -f %t.y.txt
// RUN: not npu-run %s -o %t.y.txt 2>&1 | %filecheck %s --check-prefix=SUFFIX
// SUFFIX: npu-run: error: -o '{{.*}}.y.txt': npu-run writes the outputs as a NumPy .npz archive; give a file name ending in .npz
// SUFFIX-NOT: output 0
// RUN: not %exists %t.y.txt
// An unknown pass, and a comparison with no TFLite model to compare with.
// RUN: not npu-run %s --pipeline=no-such-pass -o %t.npz 2>&1 | %filecheck %s --check-prefix=PIPELINE
// PIPELINE: npu-run: error: 'no-such-pass' does not refer to a registered pass or pipeline
// RUN: not npu-run %s --compare-tflite 2>&1 | %filecheck %s --check-prefix=NOTFLITE
// NOTFLITE: npu-run: error: --compare-tflite needs the TFLite model for an MLIR input: give it with --tflite FILE
// RUN: not npu-run %s --tflite %t.ok.npy 2>&1 | %filecheck %s --check-prefix=TFLITEONLY
// TFLITEONLY: npu-run: error: --tflite names the model to compare with: it needs --compare-tflite
// RUN: not %exists %t.npz
// A negative seed, and a corrupt .npz (a zip that is not one).
// RUN: not npu-run %s --seed -1 -o %t.npz 2>&1 | %filecheck %s --check-prefix=SEED
// SEED: npu-run: error: argument --seed: must not be negative, not -1
// RUN: %python -c "open(r'%t.bad.npz', 'wb').write(b'PK\x03\x04garbage')"
// RUN: not npu-run %s --input %t.bad.npz -o %t.npz 2>&1 | %filecheck %s --check-prefix=BADZIP
// BADZIP: npu-run: error: cannot read '{{.*}}.bad.npz' as a numpy .npy/.npz file: File is not a zip file
// Resource limits: a value of 2^31-1 elements, an allocation 1 GiB into a memory area; and a
// schedule is checked (npu-check-schedule's rules) before it runs.
// RUN: not npu-run %S/../Inputs/npu-run-huge.mlir -o %t.npz 2>&1 | %filecheck %s --check-prefix=HUGE
// HUGE: npu-run-huge.mlir:2:1: error: argument #0 (tensor<1x2147483647xi8>) has 2147483647 elements, more than the 67108864 the interpreter can hold
// RUN: not npu-run %S/../Inputs/npu-run-far-alloc.mlir -o %t.npz 2>&1 | %filecheck %s --check-prefix=FAR
// FAR: npu-run-far-alloc.mlir:4:3: error: the schedule's allocations span 1073742848 bytes of Dram, more than the 268435456 bytes a run models per memory area
// RUN: not npu-run %S/../Inputs/scheduled-two-convs.mlir -o %t.npz 2>&1 | %filecheck %s --check-prefix=UNCHECKED
// UNCHECKED: error: schedule rule 2 (DMA): DMA 'npu.dma' (time 0) prefetches the weights of 'conv1' but nothing runs
// RUN: not %exists %t.npz
// The same run with a good input works and writes the file.
// RUN: npu-run %s --input x=%t.ok.npy -o %t.npz | %filecheck %s --check-prefix=OK
// RUN: %exists %t.npz
// OK: output 0 'relu': tensor<2x3x!quant.uniform<i8:f32, 0.25:1>> min 1 max 1
// OK-NEXT: {{\[\[}}1, 1, 1], [1, 1, 1]]

func.func @main(%x: tensor<2x3x!quant.uniform<i8:f32, 0.25:1>>) -> tensor<2x3x!quant.uniform<i8:f32, 0.25:1>> attributes {tf.entry_function = {inputs = "x", outputs = "relu"}} {
  %y = "tfl.relu"(%x) : (tensor<2x3x!quant.uniform<i8:f32, 0.25:1>>) -> tensor<2x3x!quant.uniform<i8:f32, 0.25:1>>
  return %y : tensor<2x3x!quant.uniform<i8:f32, 0.25:1>>
}
