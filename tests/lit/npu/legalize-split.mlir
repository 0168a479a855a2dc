// npu-legalize on SPLIT, SPLIT_V, SLICE, STRIDED_SLICE and UNPACK: each output is an npu.slice of
// the input's 4-D view, read in place by NPU consumers, or copied by a 1x1 average pool
// (<name>_avgpool) when a consumer cannot read at an offset (e.g. a graph output); and ABS.
// RUN: %npu_opt %s --split-input-file --pass=npu-legalize | %filecheck %s

// Both halves feed NPU ops, which read them in place.
// CHECK-LABEL: func.func @split_in_place
// CHECK: %[[A:.*]] = "npu.slice"(%[[X:.*]]) <{name = "split", offset = #npu.offset<0, 0, 0, 0>}> : (tensor<1x4x4x16x{{.*}}) -> tensor<1x4x4x8x
// CHECK: %[[B:.*]] = "npu.slice"(%[[X]]) <{name = "split", offset = #npu.offset<0, 0, 0, 8>}> : (tensor<1x4x4x16x{{.*}}) -> tensor<1x4x4x8x
// CHECK: %[[ADD:.*]] = "npu.add"(%[[A]], %[[B]]) <{name = "add"
// CHECK: return %[[ADD]]
func.func @split_in_place(%x: tensor<1x4x4x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> {
  %d = "tfl.pseudo_const"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
  %0:2 = "tfl.split"(%d, %x) <{num_splits = 2 : i32}> : (tensor<i32>, tensor<1x4x4x16x!quant.uniform<i8:f32, 0.5>>) -> (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) loc("split")
  %1 = "tfl.add"(%0#0, %0#1) <{fused_activation_function = "NONE"}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> loc("add")
  return %1 : tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// SPLIT_V with an inferred size; the parts go to the graph outputs, so each is copied.
// CHECK-LABEL: func.func @split_v_outputs
// CHECK: %[[A:.*]] = "npu.slice"(%[[X:.*]]) <{name = "sv", offset = #npu.offset<0, 0, 0, 0>}> : ({{.*}}) -> tensor<1x1x2x4x
// CHECK: %[[CA:.*]] = "npu.avg_pool"(%[[A]]) <{name = "sv_avgpool",
// CHECK: %[[B:.*]] = "npu.slice"(%[[X]]) <{name = "sv", offset = #npu.offset<0, 0, 2, 0>}> : ({{.*}}) -> tensor<1x1x6x4x
// CHECK: %[[CB:.*]] = "npu.avg_pool"(%[[B]]) <{name = "sv_avgpool",
// CHECK: "npu.reshape"(%[[CA]]) <{name = "sv"}> : ({{.*}}) -> tensor<2x4x
func.func @split_v_outputs(%x: tensor<8x4x!quant.uniform<i8:f32, 0.5>>) -> (tensor<2x4x!quant.uniform<i8:f32, 0.5>>, tensor<6x4x!quant.uniform<i8:f32, 0.5>>) {
  %s = "tfl.pseudo_const"() <{value = dense<[2, -1]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %d = "tfl.pseudo_const"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %0:2 = "tfl.split_v"(%x, %s, %d) <{num_splits = 2 : i32}> : (tensor<8x4x!quant.uniform<i8:f32, 0.5>>, tensor<2xi32>, tensor<i32>) -> (tensor<2x4x!quant.uniform<i8:f32, 0.5>>, tensor<6x4x!quant.uniform<i8:f32, 0.5>>) loc("sv")
  return %0#0, %0#1 : tensor<2x4x!quant.uniform<i8:f32, 0.5>>, tensor<6x4x!quant.uniform<i8:f32, 0.5>>
}

// -----

// SLICE and a STRIDED_SLICE shrinking the height axis, both read in place by a max pool and ABS.
// CHECK-LABEL: func.func @slices
// CHECK: %[[S:.*]] = "npu.slice"(%[[X:.*]]) <{name = "slice", offset = #npu.offset<0, 1, 0, 4>}> : ({{.*}}) -> tensor<1x2x4x4x
// CHECK: "npu.max_pool"(%[[S]])
// CHECK: %[[T:.*]] = "npu.slice"(%[[X]]) <{name = "row", offset = #npu.offset<0, 3, 0, 0>}> : ({{.*}}) -> tensor<1x1x4x8x
// CHECK: "npu.abs"(%[[T]]) <{name = "abs", activation = #npu.act<none, min = -128, max = 127>}>
func.func @slices(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> (tensor<1x2x4x4x!quant.uniform<i8:f32, 0.5>>, tensor<1x4x8x!quant.uniform<i8:f32, 0.5>>) {
  %b = "tfl.pseudo_const"() <{value = dense<[0, 1, 0, 4]> : tensor<4xi32>}> : () -> tensor<4xi32>
  %z = "tfl.pseudo_const"() <{value = dense<[1, 2, -1, 4]> : tensor<4xi32>}> : () -> tensor<4xi32>
  %0 = "tfl.slice"(%x, %b, %z) : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<4xi32>, tensor<4xi32>) -> tensor<1x2x4x4x!quant.uniform<i8:f32, 0.5>> loc("slice")
  %1 = "tfl.max_pool_2d"(%0) <{filter_height = 1 : i32, filter_width = 1 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 1 : i32, stride_w = 1 : i32}> : (tensor<1x2x4x4x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x2x4x4x!quant.uniform<i8:f32, 0.5>>
  %sb = "tfl.pseudo_const"() <{value = dense<[0, -1, 0, 0]> : tensor<4xi32>}> : () -> tensor<4xi32>
  %se = "tfl.pseudo_const"() <{value = dense<[1, 4, 4, 8]> : tensor<4xi32>}> : () -> tensor<4xi32>
  %ss = "tfl.pseudo_const"() <{value = dense<1> : tensor<4xi32>}> : () -> tensor<4xi32>
  %2 = "tfl.strided_slice"(%x, %sb, %se, %ss) <{begin_mask = 0 : i32, ellipsis_mask = 0 : i32, end_mask = 0 : i32, new_axis_mask = 0 : i32, offset = false, shrink_axis_mask = 2 : i32}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) -> tensor<1x4x8x!quant.uniform<i8:f32, 0.5>> loc("row")
  %3 = "tfl.abs"(%2) : (tensor<1x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x8x!quant.uniform<i8:f32, 0.5>> loc("abs")
  return %1, %3 : tensor<1x2x4x4x!quant.uniform<i8:f32, 0.5>>, tensor<1x4x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// UNPACK of a 1x3x8 tensor along axis 1 (the width of its 1x1x3x8 view): three slices, copied
// for the graph outputs.
// CHECK-LABEL: func.func @unpack
// CHECK: %[[V:.*]] = "npu.reshape"(%[[X:.*]]) <{name = "un"}> : ({{.*}}) -> tensor<1x1x3x8x
// CHECK: "npu.slice"(%[[V]]) <{name = "un", offset = #npu.offset<0, 0, 1, 0>}> : ({{.*}}) -> tensor<1x1x1x8x
// CHECK: "npu.avg_pool"({{.*}}) <{name = "un_avgpool",
// CHECK: "npu.slice"(%[[V]]) <{name = "un", offset = #npu.offset<0, 0, 2, 0>}>
func.func @unpack(%x: tensor<1x3x8x!quant.uniform<i8:f32, 0.5>>) -> (tensor<1x8x!quant.uniform<i8:f32, 0.5>>, tensor<1x8x!quant.uniform<i8:f32, 0.5>>, tensor<1x8x!quant.uniform<i8:f32, 0.5>>) {
  %0:3 = "tfl.unpack"(%x) <{axis = 1 : i32, num = 3 : i32}> : (tensor<1x3x8x!quant.uniform<i8:f32, 0.5>>) -> (tensor<1x8x!quant.uniform<i8:f32, 0.5>>, tensor<1x8x!quant.uniform<i8:f32, 0.5>>, tensor<1x8x!quant.uniform<i8:f32, 0.5>>) loc("un")
  return %0#0, %0#1, %0#2 : tensor<1x8x!quant.uniform<i8:f32, 0.5>>, tensor<1x8x!quant.uniform<i8:f32, 0.5>>, tensor<1x8x!quant.uniform<i8:f32, 0.5>>
}
