// npu-run runs a function with the reference interpreter on given (.npy) or seeded random
// inputs, prints a line per input and output (small outputs with their values) and writes the
// outputs to an .npz keyed by the TFLite tensor names of tf.entry_function.
// RUN: %python -c "import numpy as np; np.save(r'%t.a.npy', np.array([[1.0, -2.0, 3.0], [0.5, -0.25, 4.0]], np.float32)); np.save(r'%t.b.npy', np.ones((2, 3), np.float32)); np.save(r'%t.q.npy', np.array([0.0, 1.0, -1.2, 100.0], np.float32))"
// RUN: npu-run %s --input a=%t.a.npy --input 1=%t.b.npy --input q=%t.q.npy -o %t.npz | %filecheck %s
// RUN: %python -c "import numpy as np; d = np.load(r'%t.npz'); print(sorted(d.files)); print(d['clamped'].tolist(), d['clamped'].dtype, d['quantized'].tolist(), d['quantized'].dtype)" | %filecheck %s --check-prefix=NPZ
// Inputs not given are seeded random values over the storage range: the same seed, the same values.
// RUN: npu-run %s --seed 7 | %filecheck %s --check-prefix=RANDOM
// RUN: npu-run %s --seed 7 > %t.r1 && npu-run %s --seed 7 > %t.r2 && diff %t.r1 %t.r2
// RUN: npu-run %s --seed 8 > %t.r3 && not diff %t.r1 %t.r3 > %t.diff

// CHECK:      input 0 'a': tensor<2x3xf32> from {{.*}}.a.npy
// CHECK-NEXT: input 1 'b': tensor<2x3xf32> from {{.*}}.b.npy
// CHECK-NEXT: input 2 'q': tensor<4xf32> from {{.*}}.q.npy
// CHECK-NEXT: output 0 'sum': tensor<2x3xf32> min -1.0 max 5.0 mean 2.04167 crc32 {{[0-9a-f]+}}
// CHECK-NEXT:   {{\[\[}}2.0, -1.0, 4.0], [1.5, 0.75, 5.0]]
// CHECK-NEXT: output 1 'clamped': tensor<2x3xf32> min 0.0 max 5.0 mean 2.20833
// CHECK-NEXT:   {{\[\[}}2.0, 0.0, 4.0], [1.5, 0.75, 5.0]]
// Round to nearest, offset by the zero point, saturate: 0 -> -3, 1 -> -1, -1.2 -> -5, 100 -> 127.
// CHECK-NEXT: output 2 'quantized': tensor<4x!quant.uniform<i8:f32, 0.5:-3>> min -5 max 127 mean 29.5
// CHECK-NEXT:   [-3, -1, -5, 127]
// CHECK-NOT: compare

// NPZ:      ['clamped', 'quantized', 'sum']
// NPZ-NEXT: {{\[\[}}2.0, 0.0, 4.0], [1.5, 0.75, 5.0]] float32 [-3, -1, -5, 127] int8

// RANDOM: input 0 'a': tensor<2x3xf32> random (seed 7)
// RANDOM: input 2 'q': tensor<4xf32> random (seed 7)
// RANDOM: output 2 'quantized'

func.func @main(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>, %q: tensor<4xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<4x!quant.uniform<i8:f32, 0.5:-3>>) attributes {tf.entry_function = {inputs = "a,b,q", outputs = "sum,clamped,quantized"}} {
  %s = "tfl.add"(%a, %b) <{fused_activation_function = "NONE"}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %r = "tfl.relu"(%s) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %x = "tfl.quantize"(%q) <{qtype = tensor<4x!quant.uniform<i8:f32, 0.5:-3>>}> : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5:-3>>
  return %s, %r, %x : tensor<2x3xf32>, tensor<2x3xf32>, tensor<4x!quant.uniform<i8:f32, 0.5:-3>>
}
