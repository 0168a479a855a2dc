// npu-legalize on RESHAPE, SQUEEZE and EXPAND_DIMS: views (npu.reshape) that fold away between
// NPU ops, and copies (npu.dma, Vela's Memcpy) where Vela cannot bypass them.
// RUN: %npu_opt %s --split-input-file --pass=npu-legalize | %filecheck %s

// 1x1 conv (a vector product on a 1x1 IFM) -> reshape 1x1x1x16 to 1x16 -> fully connected: the
// fully connected layer reads the convolution's OFM directly (the views fold), and its
// 1x1x1x10 OFM is viewed as 1x10 once.
// CHECK-LABEL: func.func @between_npu_ops
// CHECK: %[[C:.*]] = "npu.vector_product"({{.*}}) <{name = "conv_fc"
// CHECK-NOT: npu.reshape
// CHECK: %[[FC:.*]] = "npu.vector_product"(%[[C]],
// CHECK: %[[R:.*]] = "npu.reshape"(%[[FC]]) <{name = "fc"}> : (tensor<1x1x1x10x{{.*}}) -> tensor<1x10x
// CHECK: return %[[R]]
func.func @between_npu_ops(%x: tensor<1x1x1x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x10x!quant.uniform<i8:f32, 0.5>> {
  %w = "tfl.pseudo_qconst"() <{qtype = tensor<16x1x1x8x!quant.uniform<i8:f32, 0.1>>, value = dense<1> : tensor<16x1x1x8xi8>}> : () -> tensor<16x1x1x8x!quant.uniform<i8:f32, 0.1>>
  %n = "tfl.no_value"() <{value}> : () -> none
  %0 = "tfl.average_pool_2d"(%x) <{filter_height = 1 : i32, filter_width = 1 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 1 : i32, stride_w = 1 : i32}> : (tensor<1x1x1x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x1x8x!quant.uniform<i8:f32, 0.5>>
  %1 = "tfl.conv_2d"(%0, %w, %n) <{dilation_h_factor = 1 : i32, dilation_w_factor = 1 : i32, fused_activation_function = "NONE", padding = "SAME", stride_h = 1 : i32, stride_w = 1 : i32}> : (tensor<1x1x1x8x!quant.uniform<i8:f32, 0.5>>, tensor<16x1x1x8x!quant.uniform<i8:f32, 0.1>>, none) -> tensor<1x1x1x16x!quant.uniform<i8:f32, 0.5>> loc("conv")
  %s = "tfl.pseudo_const"() <{value = dense<[1, 16]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %2 = "tfl.reshape"(%1, %s) : (tensor<1x1x1x16x!quant.uniform<i8:f32, 0.5>>, tensor<2xi32>) -> tensor<1x16x!quant.uniform<i8:f32, 0.5>> loc("flat")
  %fw = "tfl.pseudo_qconst"() <{qtype = tensor<10x16x!quant.uniform<i8:f32, 0.1>>, value = dense<1> : tensor<10x16xi8>}> : () -> tensor<10x16x!quant.uniform<i8:f32, 0.1>>
  %3 = "tfl.fully_connected"(%2, %fw, %n) <{fused_activation_function = "NONE", keep_num_dims = false, weights_format = "DEFAULT"}> : (tensor<1x16x!quant.uniform<i8:f32, 0.5>>, tensor<10x16x!quant.uniform<i8:f32, 0.1>>, none) -> tensor<1x10x!quant.uniform<i8:f32, 0.5>> loc("fc")
  return %3 : tensor<1x10x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A graph input cannot be bypassed: the reshape is a DMA copy viewed in the new shape.
// CHECK-LABEL: func.func @graph_input
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x4x8x
// CHECK: %[[D:.*]] = "npu.dma"(%[[X]]) <{name = "flat"}> : (tensor<1x4x4x8x{{.*}}) -> tensor<1x4x4x8x
// CHECK: %[[V:.*]] = "npu.reshape"(%[[D]]) <{name = "relu"}> : ({{.*}}) -> tensor<1x1x1x128x
// CHECK: "npu.avg_pool"(%[[V]]) <{name = "relu_avgpool", activation = #npu.act<relu
func.func @graph_input(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x128x!quant.uniform<i8:f32, 0.5>> {
  %s = "tfl.pseudo_const"() <{value = dense<[1, 128]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %0 = "tfl.reshape"(%x, %s) : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<2xi32>) -> tensor<1x128x!quant.uniform<i8:f32, 0.5>> loc("flat")
  %1 = "tfl.relu"(%0) : (tensor<1x128x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x128x!quant.uniform<i8:f32, 0.5>> loc("relu")
  return %1 : tensor<1x128x!quant.uniform<i8:f32, 0.5>>
}

// -----

// The squeeze's IFM has a second user, so it is copied; the expand_dims of the squeeze's result
// is a view of the copy.
// CHECK-LABEL: func.func @squeeze_expand
// CHECK: %[[M:.*]] = "npu.max_pool"
// CHECK: %[[D:.*]] = "npu.dma"(%[[M]]) <{name = "squeeze"}>
// CHECK: %[[E:.*]] = "npu.reshape"(%[[D]]) <{name = "expand"}> : ({{.*}}) -> tensor<1x4x8x
// CHECK: return %[[M]], %[[E]]
func.func @squeeze_expand(%x: tensor<1x1x4x8x!quant.uniform<i8:f32, 0.5>>) -> (tensor<1x1x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<1x4x8x!quant.uniform<i8:f32, 0.5>>) {
  %0 = "tfl.max_pool_2d"(%x) <{filter_height = 1 : i32, filter_width = 1 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 1 : i32, stride_w = 1 : i32}> : (tensor<1x1x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x4x8x!quant.uniform<i8:f32, 0.5>>
  %1 = "tfl.squeeze"(%0) <{squeeze_dims = [0 : i64, 1 : i64]}> : (tensor<1x1x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<4x8x!quant.uniform<i8:f32, 0.5>> loc("squeeze")
  %d = "tfl.pseudo_const"() <{value = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %2 = "tfl.expand_dims"(%1, %d) : (tensor<4x8x!quant.uniform<i8:f32, 0.5>>, tensor<1xi32>) -> tensor<1x4x8x!quant.uniform<i8:f32, 0.5>> loc("expand")
  return %0, %2 : tensor<1x1x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<1x4x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// SHAPE of a static tensor folds to a constant (Vela does so before its support checks).
// CHECK-LABEL: func.func @shape
// CHECK: %[[C:.*]] = "tfl.pseudo_const"() <{value = dense<[1, 4, 4, 8]> : tensor<4xi32>}>
// CHECK: return %[[C]]
func.func @shape(%x: tensor<1x4x4x8xf32>) -> tensor<4xi32> {
  %0 = "tfl.shape"(%x) : (tensor<1x4x4x8xf32>) -> tensor<4xi32> loc("shape")
  return %0 : tensor<4xi32>
}
