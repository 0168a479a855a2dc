// npu-order numbers the executed ops of each function in Vela's execution order (npu.time):
// a reversed depth-first walk from the results, so the branch feeding the later operand of a
// join runs first; views and constants get no time.
// RUN: %npu_opt %s --split-input-file --pass=npu-legalize,npu-order --pass-statistics -o %t.out 2> %t.stats
// RUN: %filecheck %s --input-file %t.out
// RUN: %filecheck %s --check-prefix=STATS --input-file %t.stats

// CHECK-LABEL: func.func @branches
// CHECK: %[[S:.*]] = "npu.avg_pool"(%{{.*}}) <{name = "stem_avgpool"{{.*}}npu.time = 0 : i64
// CHECK: %[[L:.*]] = "npu.avg_pool"(%[[S]]) <{name = "left_avgpool"{{.*}}npu.time = 2 : i64
// CHECK: %[[R:.*]] = "npu.avg_pool"(%[[S]]) <{name = "right_avgpool"{{.*}}npu.time = 1 : i64
// CHECK: "npu.add"(%[[L]], %[[R]]){{.*}}npu.time = 3 : i64
// STATS: 'npu-order'
// STATS: (S) 4 ops
// STATS: (S) 2 moved
func.func @branches(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> {
  %s = "tfl.relu"(%x) : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> loc("stem")
  %l = "tfl.relu"(%s) : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> loc("left")
  %r = "tfl.relu"(%s) : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> loc("right")
  %j = "tfl.add"(%l, %r) <{fused_activation_function = "NONE"}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> loc("join")
  return %j : tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A CPU op is numbered with the NPU ops (npu-estimate restarts its DMA chain after it); the
// constants it reads are not.
// CHECK-LABEL: func.func @cpu_between
// CHECK: "tfl.pseudo_const"() <{value = dense<0> : tensor<4x2xi32>}> : () -> tensor<4x2xi32>{{$}}
// CHECK: %[[A:.*]] = "npu.avg_pool"{{.*}}npu.time = 0 : i64
// CHECK: %[[C:.*]] = "tfl.padv2"(%[[A]], {{.*}}npu.time = 1 : i64
// CHECK: "npu.avg_pool"(%[[C]]){{.*}}npu.time = 2 : i64
func.func @cpu_between(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> {
  %p = "tfl.pseudo_const"() <{value = dense<0> : tensor<4x2xi32>}> : () -> tensor<4x2xi32>
  %v = "tfl.pseudo_qconst"() <{qtype = tensor<!quant.uniform<i8:f32, 0.5>>, value = dense<0> : tensor<i8>}> : () -> tensor<!quant.uniform<i8:f32, 0.5>>
  %a = "tfl.relu"(%x) : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> loc("a")
  %c = "tfl.padv2"(%a, %p, %v) : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<4x2xi32>, tensor<!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> loc("cpu")
  %b = "tfl.relu"(%c) : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> loc("b")
  return %b : tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>
}
