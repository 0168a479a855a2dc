// Damaged .tflite input: one error naming the file and the problem, exit 1, no output file.
// RUN: %python -c "open(r'%t.empty.tflite', 'wb').close()"
// RUN: not %npu_translate --import-tflite %t.empty.tflite -o %t.out.mlir 2>&1 | %filecheck %s --check-prefix=EMPTY
// RUN: not %exists %t.out.mlir
// RUN: not %npu_opt %t.empty.tflite -o %t.out.mlir 2>&1 | %filecheck %s --check-prefix=EMPTY
// RUN: not %exists %t.out.mlir
// EMPTY: error: {{.*}}.empty.tflite: the file is empty, not a TFLite model
// EMPTY-NOT: Traceback

// RUN: %python -c "d = open(r'%S/../../data/conv.tflite', 'rb').read(); open(r'%t.cut.tflite', 'wb').write(d[:1000])"
// RUN: not %npu_opt %t.cut.tflite -o %t.out.mlir 2>&1 | %filecheck %s --check-prefix=TRUNCATED
// RUN: not %exists %t.out.mlir
// TRUNCATED: error: {{.*}}.cut.tflite: malformed TFLite file: model: buffers[0]: {{.*}} lies outside the 1000-byte file

// RUN: %python -c "open(r'%t.garbage.tflite', 'wb').write(bytes(range(256)))"
// RUN: not %npu_translate --import-tflite %t.garbage.tflite -o %t.out.mlir 2>&1 | %filecheck %s --check-prefix=GARBAGE
// GARBAGE: error: {{.*}}.garbage.tflite: not a TFLite model: expected the file identifier 'TFL3' at bytes 4..8, found 0x04050607

// RUN: %python -c "import struct; d = bytearray(open(r'%S/../../data/math.tflite', 'rb').read()); d[0:4] = struct.pack('<I', 0x7fffff00); open(r'%t.root.tflite', 'wb').write(d)"
// RUN: not %npu_opt %t.root.tflite 2>&1 | %filecheck %s --check-prefix=ROOT
// ROOT: error: {{.*}}.root.tflite: malformed TFLite file: model: vtable offset at byte 2147483392 (4 bytes) lies outside the 872-byte file
