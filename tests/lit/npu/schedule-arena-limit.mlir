// --arena-cache-size below what the schedule needs, in every memory mode, as Vela treats it.
// With the arena in SRAM (Shared_Sram, Sram_Only) the arena cache size is the scheduler's target,
// not a limit: one warning naming the bytes used, the limit and the op at the peak; the schedule
// stands and the output is written (exit 0), under Performance and under Size alike.
// RUN: rm -f %t.shared.mlir
// RUN: %npu_opt %S/../../data/conv.tflite --pass=schedule --target=ethos-u55-128 --memory-mode=Shared_Sram --arena-cache-size=100 -o %t.shared.mlir 2> %t.shared.err
// RUN: %filecheck %s --input-file %t.shared.err --check-prefix=TARGET
// RUN: %exists %t.shared.mlir
// RUN: %npu_opt %S/../../data/conv.tflite --pass=schedule --target=ethos-u55-128 --memory-mode=Sram_Only --arena-cache-size=100 -o %t.only.mlir 2> %t.only.err
// RUN: %filecheck %s --input-file %t.only.err --check-prefix=TARGET
// RUN: %npu_opt %S/../../data/conv.tflite --pass='schedule{optimise=Size}' --target=ethos-u55-128 --memory-mode=Shared_Sram --arena-cache-size=100 -o %t.size.mlir 2> %t.size.err
// RUN: %filecheck %s --input-file %t.size.err --check-prefix=TARGET
// TARGET: warning: the Sram allocation spans 384 bytes, more than the arena cache size of 100 bytes; 384 bytes are live at once while 'tfl.depthwise_conv_2d' runs; with the arena in Sram, the arena cache size is a target, not a limit, so the schedule stands
// TARGET-NOT: error
// A dedicated SRAM (Dedicated_Sram: the arena in DRAM) is a hard limit: feature maps that do not
// fit stay in DRAM, and what must be in SRAM and does not fit is one error at the op at the peak,
// exit 1, no output file.
// RUN: rm -f %t.dedicated.mlir
// RUN: not %npu_opt %S/../../data/classifier.tflite --pass=schedule --target=ethos-u65-256 --memory-mode=Dedicated_Sram --arena-cache-size=16 -o %t.dedicated.mlir 2> %t.dedicated.err
// RUN: %filecheck %s --input-file %t.dedicated.err --check-prefix=LIMIT
// RUN: not %exists %t.dedicated.mlir
// LIMIT: error: the Sram allocation spans 64 bytes, more than the arena cache size of 16 bytes; 64 bytes are live at once while 'head_softmax_mul13' (npu.mul) runs
// LIMIT-NOT: warning
// The same model with room for it: no diagnostic.
// RUN: %npu_opt %S/../../data/classifier.tflite --pass=schedule --target=ethos-u65-256 --memory-mode=Dedicated_Sram --arena-cache-size=1024 -o %t.fits.mlir 2> %t.fits.err
// RUN: %filecheck %s --input-file %t.fits.err --check-prefix=FITS --allow-empty
// FITS-NOT: {{.}}
