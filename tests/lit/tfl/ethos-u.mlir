// A Vela-compiled model imports: each ethos-u operator becomes a tfl.ethos_u op whose operands
// and results are its feature maps, whose region holds its command stream decoded (an
// ethosu.program) and whose attributes hold the read-only data, the scratch sizes and offsets
// and the NPU's CONFIG and ID words; the arena offsets of OfflineMemoryAllocation become tfl.arena_offsets.
// Exported, the model is Vela's byte for byte, and imported again the same IR. A damaged payload or a missing tensor is one
// error naming the file and the problem.
// RUN: %npu_opt %S/../../data/vela/compiled/conv.u55-128.legacy.tflite | %filecheck %s
// RUN: %npu_translate --import-tflite %S/../../data/vela/compiled/cpu_middle.u65-256.legacy.tflite | %filecheck %s --check-prefix=MIDDLE
// RUN: %npu_translate --import-tflite %S/../../data/vela/compiled/conv.u55-128.default.tflite | %filecheck %s --check-prefix=DEFAULT
// RUN: %npu_translate --import-tflite %S/../../data/vela/compiled/cpu_middle.u65-256.legacy.tflite --print-debuginfo -o %t.mlir
// RUN: %npu_translate --export-tflite %t.mlir -o %t.tflite
// RUN: %npu_translate --import-tflite %t.tflite --print-debuginfo -o %t.again.mlir
// RUN: diff %t.mlir %t.again.mlir
// RUN: %python -c "import filecmp, sys; sys.exit(not filecmp.cmp(r'%t.tflite', r'%S/../../data/vela/compiled/cpu_middle.u65-256.legacy.tflite', shallow=False))"

// CHECK-LABEL: module attributes {tfl.description = "Vela 5.2.0 Optimised", tfl.metadata = {vela_version = "5.2.0"}
// CHECK: func.func @main(%[[IN:.*]]: tensor<1x8x8x3x!quant.uniform<i8:f32, 0.0625:-1>>) -> tensor<1x10x!quant.uniform<i8:f32, 0.25>> attributes {tfl.arena_offsets = [0 : i64]
// CHECK: %[[NPU1:.*]] = "tfl.ethos_u"(%[[IN]]) <{read_only = dense_resource<[[RO:.*]]> : tensor<2336xui8>, scratch_size = 944 : i64, fast_scratch_size = 944 : i64, scratch_offset = 0 : i64, fast_scratch_offset = 0 : i64, npu_config = 6151 : i64, npu_id = 268828672 : i64, tensor_names = ["main_split_1_command_stream", "main_split_1_flash", "main_split_1_scratch", "main_split_1_scratch_fast"]}> ({
// CHECK-NEXT: "ethosu.program"() ({
// CHECK-NEXT: "ethosu.dma"() <{src = #ethosu.mem<region = 0, address = 80>, dst = #ethosu.mem<region = 1, address = 320>, length = 368 : i64}>
// CHECK-NEXT: "ethosu.conv2d"() <{ifm = #ethosu.fm<int8, NHWC, region = 1, bases = [0, 0, 0, 0]
// CHECK-SAME: weights = #ethosu.stream<region = 1, base = 400, length = 288>, scales = #ethosu.stream<region = 1, base = 320, length = 80>, dma_wait = 0 : i32
// CHECK-NEXT: "ethosu.stop"()
// CHECK: }) {tfl.arena_offsets = [192 : i64]} : (tensor<1x8x8x3x!quant.uniform<i8:f32, 0.0625:-1>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.125:3>>
// CHECK: %[[DW:.*]] = "tfl.depthwise_conv_2d"(%[[NPU1]], %{{.*}}, %{{.*}}) {{.*}} {tfl.arena_offsets = [320 : i64]}
// CHECK: %[[NPU2:.*]] = "tfl.ethos_u"(%[[DW]]) <{read_only = dense_resource<[[RO]]> : tensor<2336xui8>
// CHECK-COUNT-2: "ethosu.pool"
// CHECK-NEXT: "ethosu.dma"() <{{.*}}kernel_wait = 1 : i32}>
// CHECK-COUNT-2: "ethosu.conv2d"
// CHECK: return %[[NPU2]]

// MIDDLE-LABEL: func.func @main(
// MIDDLE: %[[A:.*]]:2 = "tfl.ethos_u"(%{{.*}}) <{{.*}}scratch_size = 11008 : i64, fast_scratch_size = 12768 : i64{{.*}}npu_config = 268447752 : i64{{.*}}}> ({
// MIDDLE: }) {tfl.arena_offsets = [3200 : i64, 0 : i64]}
// MIDDLE: %[[PAD:.*]] = "tfl.padv2"(%[[A]]#0, {{.*}} {tfl.arena_offsets = [6400 : i64]}
// MIDDLE: "tfl.ethos_u"(%[[PAD]], %[[A]]#1)

// DEFAULT-LABEL: module attributes {tfl.description = "Vela Optimised"
// DEFAULT: "tfl.ethos_u"(%{{.*}}) <{read_only = dense_resource<{{.*}}> : tensor<2544xui8>, scratch_size = 512 : i64, fast_scratch_size = 512 : i64{{.*}}tensor_names = ["ethos_u_command_stream", "read_only", "scratch", "scratch"]}> ({
// DEFAULT-NEXT: "ethosu.program"() ({

// RUN: %python -c "d = bytearray(open(r'%S/../../data/vela/compiled/conv.u55-128.legacy.tflite', 'rb').read()); i = d.index(b'COP1'); d[i:i + 4] = b'XOP1'; open(r'%t.magic.tflite', 'wb').write(d)"
// RUN: not %npu_opt %t.magic.tflite -o %t.out.mlir 2>&1 | %filecheck %s --check-prefix=MAGIC
// RUN: not %exists %t.out.mlir
// MAGIC: error: {{.*}}.magic.tflite: subgraph 0 operator 2 (ethos-u): tensor 'main_split_2_command_stream': the command-stream payload starts with 'XOP1', not the driver magic 'COP1'
// MAGIC-NOT: Traceback

// RUN: %python -c "d = bytearray(open(r'%S/../../data/vela/compiled/conv.u55-128.legacy.tflite', 'rb').read()); i = d.index(b'COP1') + 28; d[i + 2] += 5; open(r'%t.cut.tflite', 'wb').write(d)"
// RUN: not %npu_translate --import-tflite %t.cut.tflite 2>&1 | %filecheck %s --check-prefix=CUT
// CUT: error: {{.*}}.cut.tflite: subgraph 0 operator 2 (ethos-u): tensor 'main_split_2_command_stream': the command stream announces 186 words but the payload holds only 181 after its header (truncated)

// RUN: %python -c "from npu_opt.dialects.tfl.tflite.ethosu_reader import read_compiled; from npu_opt.dialects.tfl.tflite.ethosu_writer import write_compiled; m = read_compiled(open(r'%S/../../data/vela/compiled/two_outputs.u55-128.legacy.tflite', 'rb').read()); op = m.ethos_u()[0]; op.memory_tensors = op.memory_tensors[:2] + (99, op.memory_tensors[3]); open(r'%t.missing.tflite', 'wb').write(write_compiled(m))"
// RUN: not %npu_opt %t.missing.tflite 2>&1 | %filecheck %s --check-prefix=MISSING
// MISSING: error: {{.*}}.missing.tflite: subgraph 0 operator 0 (ethos-u) inputs refer to tensor 99, but the subgraph has 7 tensors
// MISSING-NOT: error

// --export-vela-raw writes Vela's raw .npz (the legacy core's: the first ethos-u operator),
// from the IR or from the .tflite; the target's memory mode decides the fast scratch's region.
// RUN: %npu_translate --export-vela-raw %t.mlir --target ethos-u65-256 --system-config Ethos_U65_High_End --memory-mode Dedicated_Sram -o %t.npz 2>&1 | %filecheck %s --check-prefix=RAW
// RUN: %python -c "import filecmp, sys; sys.exit(not filecmp.cmp(r'%t.npz', r'%S/../../data/vela/compiled/cpu_middle.u65-256.legacy.sg0.npz', shallow=False))"
// RUN: %npu_translate --export-vela-raw %S/../../data/vela/compiled/weight_stream.u55-128.legacy.tflite --target ethos-u55-128 -o %t.ws.npz
// RUN: %python -c "import filecmp, sys; sys.exit(not filecmp.cmp(r'%t.ws.npz', r'%S/../../data/vela/compiled/weight_stream.u55-128.legacy.sg0.npz', shallow=False))"
// RUN: not %npu_translate --export-vela-raw %t.mlir -o %t.none.npz 2>&1 | %filecheck %s --check-prefix=NOTARGET
// RAW: warning: the raw format holds the first ethos-u operator of a subgraph; 1 more are not written (as Vela does)
// NOTARGET: error: --export-vela-raw needs --target (and --memory-mode)
