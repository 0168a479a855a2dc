// npu-run runs a Vela-compiled .tflite: each tfl.ethos_u's command stream in the Ethos-U
// simulator, its CPU operators (here a depthwise convolution) in the tfl interpreter, compared
// with ai-edge-litert on the source model; --trace writes a line per command-stream op.
// REQUIRES: litert
// RUN: npu-run %S/../../data/vela/compiled/conv.u55-128.legacy.tflite --tflite %S/../../data/conv.tflite --compare-tflite --print-limit 0 --trace=%t.trace | %filecheck %s --check-prefix=OUT
// RUN: %filecheck %s --check-prefix=TRACE --input-file %t.trace
// RUN: npu-run %S/../../data/vela/compiled/conv.u55-128.default.tflite --tflite %S/../../data/conv.tflite --compare-tflite --print-limit 0 | %filecheck %s --check-prefix=OUT
// OUT-LABEL: input 0 'input'
// OUT:       compare 0 'logits': max abs diff 0, 0 of 10 elements differ
// TRACE-LABEL: # tfl.ethos_u "conv" (ethos-u55-128)
// TRACE-NEXT:  0 ethosu.dma r0@80 -> r1@320 len=368 bytes=736
// TRACE-NEXT:  1 ethosu.conv2d ifm=8x4x6 int8 NHWC r1@0 ofm=4x4x8 int8 NHWC r1@192 bytes=688
// TRACE-LABEL: # tfl.ethos_u "logits" (ethos-u55-128)
// TRACE-NEXT:  0 ethosu.pool ifm=4x4x16 int8 NHWC r1@320 ofm=2x2x16 int8 NHCWB16 r1@0 bytes=320
// TRACE-NEXT:  1 ethosu.pool ifm=2x2x16 int8 NHCWB16 r1@0 ofm=2x2x16 int8 NHCWB16 r1@64 bytes=128
// TRACE-NEXT:  2 ethosu.dma r0@624 -> r1@128 len=816 bytes=1632
// TRACE-NEXT:  3 ethosu.conv2d ifm=2x2x16 int8 NHCWB16 r1@64 ofm=4x4x4 int8 NHWC r1@0 bytes=936
// TRACE-NEXT:  4 ethosu.conv2d ifm=1x1x64 int8 NHWC r1@0 ofm=1x1x10 int8 NHWC r1@64 bytes=958

// A program that reads what nothing wrote is one error at the tfl.ethos_u op, naming the
// command-stream op and the address.
// RUN: npu-translate --import-tflite %S/../../data/vela/compiled/conv.u55-128.legacy.tflite -o %t.mlir
// RUN: sed -e 's/"ethosu.pool"() <{ifm = #ethosu.fm<int8, NHWC, region = 1, bases = \[320,/"ethosu.pool"() <{ifm = #ethosu.fm<int8, NHWC, region = 1, bases = [600,/' %t.mlir > %t.bad.mlir
// RUN: not npu-run %t.bad.mlir 2>&1 | %filecheck %s --check-prefix=UNWRITTEN
// UNWRITTEN: bad.mlir:{{[0-9]+}}:{{[0-9]+}}: error: its ethos-u program: op 0 (ethosu.pool): the IFM reads byte 600 of region 1, which nothing wrote

// A convolution that no longer waits for the DMA of its weights reads bytes the DMA may still be
// writing: one error naming both commands, their byte offsets, the bytes and the missing wait;
// --sim-check=order runs the stream in order without looking at the waits.
// RUN: sed -e 's/length = 80>, dma_wait = 0 : i32}>/length = 80>}>/' %t.mlir > %t.nowait.mlir
// RUN: not npu-run %t.nowait.mlir 2>&1 | %filecheck %s --check-prefix=NOWAIT
// RUN: npu-run %t.nowait.mlir --sim-check=order --print-limit 0 | %filecheck %s --check-prefix=ORDER
// NOWAIT: nowait.mlir:{{[0-9]+}}:{{[0-9]+}}: error: its ethos-u program: op 1 (ethosu.conv2d, command at byte offset {{[0-9]+}}) reads bytes 320 to {{[0-9]+}} of region 1, which op 0 (ethosu.dma, at byte offset {{[0-9]+}}) may still be writing: no NPU_OP_DMA_WAIT before op 1 retires it
// ORDER: output 0 'logits': {{.*}} crc32 6c15d195
