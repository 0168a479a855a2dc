// ethosu IR the verifier rejects, values no register holds, and streams that do not decode: one
// error each, at the op (file:line:col) or at the word's byte offset.
// RUN: %npu_opt %s --split-input-file --verify-diagnostics
// RUN: not %npu_translate --encode-command-stream %S/../Inputs/ethosu-wide-padding.mlir -o %t.bin 2>&1 | %filecheck %s --check-prefix=ENCODE
// RUN: not test -e %t.bin
// RUN: not %npu_translate --decode-command-stream %S/../Inputs/ethosu-unknown-opcode.bin 2>&1 | %filecheck %s --check-prefix=DECODE
// RUN: not %npu_translate --decode-command-stream %S/../Inputs/ethosu-odd-length.bin 2>&1 | %filecheck %s --check-prefix=LENGTH
// RUN: not %npu_translate --decode-command-stream %S/../../data/conv.tflite 2>&1 | %filecheck %s --check-prefix=NOSTREAM

// ENCODE: ethosu-wide-padding.mlir:3:3: error: ethosu.conv2d (op #0 of the program): NPU_SET_IFM_PAD_TOP: value = 70000 does not fit its 16-bit field (0..65535)
// DECODE: npu-translate: error: {{.*}}ethosu-unknown-opcode.bin: at byte offset 8: unknown cmd0 opcode 0x3ff (word 0x000003ff)
// NOSTREAM: npu-translate: error: {{.*}}conv.tflite has no ethos-u operator, so no command stream
// LENGTH: npu-translate: error: {{.*}}ethosu-odd-length.bin: a command stream is whole 32-bit words, but this one has 6 bytes (2 past the last whole word)

// A binary elementwise operation needs its IFM2.
"ethosu.program"() ({
  // expected-error@+1 {{mode add needs ifm2}}
  "ethosu.elementwise"() <{ifm = #ethosu.fm<int8, NHWC, region = 1, bases = [0, 0, 0, 0], tiles = [4, 0, 4], strides = [16, 64, 1], depth = 16>, ofm = #ethosu.fm<int8, NHWC, region = 1, bases = [32768, 0, 0, 0], tiles = [4, 0, 4], strides = [16, 64, 1], height = 4, width = 4, depth = 16>, activation = #ethosu.act<none, min = -128, max = 127>, block = #ethosu.block<4x4x16, ib_end = 22, ab_start = 22>, rounding = "tfl", upscale = "none", blockdep = 0 : i32, mode = "add", scale_mode = "opa16_opb16", ofm_scale = #ethosu.scale<1, shift = 0>, opa_scale = #ethosu.scale<1, shift = 0>, opb_scale = #ethosu.scale<1>}> : () -> ()
  "ethosu.stop"() <{mask = 65535 : i32}> : () -> ()
}) : () -> ()

// -----

// An OFM without its height, width and depth.
"ethosu.program"() ({
  // expected-error@+1 {{the ofm needs its region, bases, tiles, strides and height, width, depth}}
  "ethosu.pool"() <{ifm = #ethosu.fm<int8, NHWC, region = 1, bases = [0, 0, 0, 0], tiles = [4, 0, 4], strides = [16, 64, 1], depth = 16>, ofm = #ethosu.fm<int8, NHWC, region = 1, bases = [32768, 0, 0, 0], tiles = [4, 0, 4], strides = [16, 64, 1]>, activation = #ethosu.act<none, min = -128, max = 127>, block = #ethosu.block<4x4x16, ib_end = 22, ab_start = 22>, rounding = "tfl", upscale = "none", blockdep = 0 : i32, mode = "max", kernel = #ethosu.kernel<1x1>}> : () -> ()
  "ethosu.stop"() <{mask = 65535 : i32}> : () -> ()
}) : () -> ()

// -----

// A program ends with ethosu.stop.
"ethosu.program"() ({
  // expected-error@+1 {{block must end with a terminator operation}}
  "ethosu.dma"() <{src = #ethosu.mem<region = 0, address = 768>, dst = #ethosu.mem<region = 1, address = 0>, length = 256 : i64}> : () -> ()
}) : () -> ()

// -----

// A DMA stands in a program.
func.func @outside() {
  // expected-error@+1 {{expects parent op 'ethosu.program'}}
  "ethosu.dma"() <{src = #ethosu.mem<region = 0, address = 768>, dst = #ethosu.mem<region = 1, address = 0>, length = 256 : i64}> : () -> ()
  return
}

// -----

// A zero point past the 16-bit register.
"ethosu.program"() ({
  // expected-error@+1 {{#ethosu.fm: zero_point must be at most 32767, not 40000}}
  "ethosu.dma"() <{src = #ethosu.mem<region = 0, address = 0>, dst = #ethosu.mem<region = 1, address = 0>, length = 1 : i64, kernel_wait = 0 : i32, x = #ethosu.fm<int8, NHWC, zero_point = 40000>}> : () -> ()
  "ethosu.stop"() <{mask = 65535 : i32}> : () -> ()
}) : () -> ()
