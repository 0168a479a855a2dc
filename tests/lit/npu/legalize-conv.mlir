// npu-legalize on the MAC operators: CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, TRANSPOSE_CONV,
// with Vela's rewrites (hardware padding, zero biases, the strided first convolution, 1x1
// convolutions on 1x1 IFMs as vector products, depth multipliers, dilation > 2, batched vector
// products).
// RUN: %npu_opt %s --split-input-file --pass=npu-legalize | %filecheck %s

// A convolution lowers one to one: the model's weights and bias are reused, SAME padding
// becomes explicit hardware padding (stride 2 over 8 rows needs 1: none at the top, 1 at the
// bottom), the fused RELU6 is clamped in OFM units (zero point -1, scale 0.5: [-1, 11]) and the
// op is named after the TFLite output tensor.
// CHECK-LABEL: func.func @conv
// CHECK-SAME: (%[[X:.*]]: tensor<1x8x8x4x!quant.uniform<i8:f32, 0.5:-1>>
// CHECK: %[[W:.*]] = "tfl.pseudo_qconst"
// CHECK: %[[B:.*]] = "tfl.pseudo_qconst"
// CHECK: %[[C:.*]] = "npu.conv2d"(%[[X]], %[[W]], %[[B]]) <{name = "conv1", activation = #npu.act<relu6, min = -1, max = 11>, kernel = #npu.kernel<3x3, stride = 2x2, dilation = 1x1, padding = [0, 0, 1, 1]>}>
// CHECK-SAME: -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5:-1>>
// CHECK: return %[[C]]
func.func @conv(%x: tensor<1x8x8x4x!quant.uniform<i8:f32, 0.5:-1>>, %y: tensor<1x4x4x4x!quant.uniform<i8:f32, 0.5:-1>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5:-1>> {
  // a first op, so that @conv's convolution is not the network's first operator
  %0 = "tfl.relu"(%y) : (tensor<1x4x4x4x!quant.uniform<i8:f32, 0.5:-1>>) -> tensor<1x4x4x4x!quant.uniform<i8:f32, 0.5:-1>>
  %w = "tfl.pseudo_qconst"() <{qtype = tensor<8x3x3x4x!quant.uniform<i8<-127:127>:f32:0, {0.1,0.1,0.1,0.1,0.1,0.1,0.1,0.1}>>, value = dense<1> : tensor<8x3x3x4xi8>}> : () -> tensor<8x3x3x4x!quant.uniform<i8<-127:127>:f32:0, {0.1,0.1,0.1,0.1,0.1,0.1,0.1,0.1}>>
  %b = "tfl.pseudo_qconst"() <{qtype = tensor<8x!quant.uniform<i32:f32:0, {0.05,0.05,0.05,0.05,0.05,0.05,0.05,0.05}>>, value = dense<7> : tensor<8xi32>}> : () -> tensor<8x!quant.uniform<i32:f32:0, {0.05,0.05,0.05,0.05,0.05,0.05,0.05,0.05}>>
  %1 = "tfl.conv_2d"(%x, %w, %b) <{dilation_h_factor = 1 : i32, dilation_w_factor = 1 : i32, fused_activation_function = "RELU6", padding = "SAME", stride_h = 2 : i32, stride_w = 2 : i32}> : (tensor<1x8x8x4x!quant.uniform<i8:f32, 0.5:-1>>, tensor<8x3x3x4x!quant.uniform<i8<-127:127>:f32:0, {0.1,0.1,0.1,0.1,0.1,0.1,0.1,0.1}>>, tensor<8x!quant.uniform<i32:f32:0, {0.05,0.05,0.05,0.05,0.05,0.05,0.05,0.05}>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5:-1>> loc("conv1")
  return %1 : tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5:-1>>
}

// -----

// The network's first convolution with stride 2 over a shallow IFM folds the width stride into
// the depth (Vela's fixup_strided_conv): the 96x96x3 IFM is viewed as 96x48x6, the 3x3 filter is
// padded to 3x4 and reshaped to 3x2x6, the width stride becomes 1. A zero bias is created.
// CHECK-LABEL: func.func @first_strided
// CHECK-SAME: (%[[X:.*]]: tensor<1x96x96x3x!quant.uniform<i8:f32, 0.5>>
// CHECK: %[[V:.*]] = "npu.reshape"(%[[X]]) <{name = "first"}> : (tensor<1x96x96x3x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x96x48x6x!quant.uniform<i8:f32, 0.5>>
// CHECK: %[[W:.*]] = "tfl.pseudo_qconst"() <{qtype = tensor<8x3x2x6x!quant.uniform<i8:f32, 0.1>>
// CHECK: %[[B:.*]] = "tfl.pseudo_const"() <{value = dense<0> : tensor<8xi32>}>
// CHECK: %[[C:.*]] = "npu.conv2d"(%[[V]], %[[W]], %[[B]]) <{name = "first", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<3x2, stride = 2x1, dilation = 1x1, padding = [0, 0, 1, 1]>}>
// CHECK-SAME: -> tensor<1x48x48x8x!quant.uniform<i8:f32, 0.5>>
func.func @first_strided(%x: tensor<1x96x96x3x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x48x48x8x!quant.uniform<i8:f32, 0.5>> {
  %w = "tfl.pseudo_qconst"() <{qtype = tensor<8x3x3x3x!quant.uniform<i8:f32, 0.1>>, value = dense<1> : tensor<8x3x3x3xi8>}> : () -> tensor<8x3x3x3x!quant.uniform<i8:f32, 0.1>>
  %n = "tfl.no_value"() <{value}> : () -> none
  %0 = "tfl.conv_2d"(%x, %w, %n) <{dilation_h_factor = 1 : i32, dilation_w_factor = 1 : i32, fused_activation_function = "NONE", padding = "SAME", stride_h = 2 : i32, stride_w = 2 : i32}> : (tensor<1x96x96x3x!quant.uniform<i8:f32, 0.5>>, tensor<8x3x3x3x!quant.uniform<i8:f32, 0.1>>, none) -> tensor<1x48x48x8x!quant.uniform<i8:f32, 0.5>> loc("first")
  return %0 : tensor<1x48x48x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A 1x1 convolution over a 1x1 IFM is a vector product named <name>_fc (convert_conv_to_fc);
// its OHWI weights become [O, K].
// CHECK-LABEL: func.func @conv_to_fc
// CHECK: %[[W:.*]] = "tfl.pseudo_qconst"() <{qtype = tensor<10x16x!quant.uniform<i8:f32, 0.1>>
// CHECK: %[[FC:.*]] = "npu.vector_product"(%[[X:.*]], %[[W]], %[[B:.*]]) <{name = "logits_fc", activation = #npu.act<none, min = -128, max = 127>}>
// CHECK-SAME: -> tensor<1x1x1x10x!quant.uniform<i8:f32, 0.5>>
func.func @conv_to_fc(%x: tensor<1x1x1x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x1x10x!quant.uniform<i8:f32, 0.5>> {
  %0 = "tfl.relu"(%x) : (tensor<1x1x1x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x1x16x!quant.uniform<i8:f32, 0.5>>
  %w = "tfl.pseudo_qconst"() <{qtype = tensor<10x1x1x16x!quant.uniform<i8:f32, 0.1>>, value = dense<2> : tensor<10x1x1x16xi8>}> : () -> tensor<10x1x1x16x!quant.uniform<i8:f32, 0.1>>
  %b = "tfl.pseudo_const"() <{value = dense<1> : tensor<10xi32>}> : () -> tensor<10xi32>
  %1 = "tfl.conv_2d"(%0, %w, %b) <{dilation_h_factor = 1 : i32, dilation_w_factor = 1 : i32, fused_activation_function = "NONE", padding = "SAME", stride_h = 1 : i32, stride_w = 1 : i32}> : (tensor<1x1x1x16x!quant.uniform<i8:f32, 0.5>>, tensor<10x1x1x16x!quant.uniform<i8:f32, 0.1>>, tensor<10xi32>) -> tensor<1x1x1x10x!quant.uniform<i8:f32, 0.5>> loc("logits")
  return %1 : tensor<1x1x1x10x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A width stride of 4 is folded for any convolution (96 wide, 2 deep: viewed as 24 wide, 8
// deep, stride 1; a 1x4 filter becomes 1x1 over 8 channels). The OFM is one row high, so the
// height stride is 1 and the padding explicit.
// CHECK-LABEL: func.func @stride4
// CHECK: %[[V:.*]] = "npu.reshape"(%[[X:.*]]) <{name = "s4"}> : (tensor<1x1x96x2x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x24x8x!quant.uniform<i8:f32, 0.5>>
// CHECK: %[[W:.*]] = "tfl.pseudo_qconst"() <{qtype = tensor<4x1x1x8x!quant.uniform<i8:f32, 0.1>>
// CHECK: "npu.conv2d"(%[[V]], %[[W]], %{{.*}}) <{name = "s4", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<1x1, stride = 1x1, dilation = 1x1, padding = [0, 0, 0, 0]>}>
// CHECK-SAME: -> tensor<1x1x24x4x!quant.uniform<i8:f32, 0.5>>
func.func @stride4(%x: tensor<1x1x96x2x!quant.uniform<i8:f32, 0.5>>, %y: tensor<1x1x1x1x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x24x4x!quant.uniform<i8:f32, 0.5>> {
  %0 = "tfl.relu"(%y) : (tensor<1x1x1x1x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x1x1x!quant.uniform<i8:f32, 0.5>>
  %w = "tfl.pseudo_qconst"() <{qtype = tensor<4x1x4x2x!quant.uniform<i8:f32, 0.1>>, value = dense<1> : tensor<4x1x4x2xi8>}> : () -> tensor<4x1x4x2x!quant.uniform<i8:f32, 0.1>>
  %n = "tfl.no_value"() <{value}> : () -> none
  %1 = "tfl.conv_2d"(%x, %w, %n) <{dilation_h_factor = 1 : i32, dilation_w_factor = 1 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 1 : i32, stride_w = 4 : i32}> : (tensor<1x1x96x2x!quant.uniform<i8:f32, 0.5>>, tensor<4x1x4x2x!quant.uniform<i8:f32, 0.1>>, none) -> tensor<1x1x24x4x!quant.uniform<i8:f32, 0.5>> loc("s4")
  return %1 : tensor<1x1x24x4x!quant.uniform<i8:f32, 0.5>>
}

// -----

// Width stride 4 over a 6 wide IFM folds by 2 (3 wide, 32 deep, stride 2; the 4 wide filter gets
// a zero column each side: 3 wide). The OFM is one row high, so the height stride becomes 1 and
// the padding explicit -- computed on the folded IFM (Vela uses the unfolded one, giving
// [1, 0, 2, 0], which would need 5 columns of a 3 wide IFM). Dilation 4 becomes a 3 high kernel
// with hardware dilation 2.
// CHECK-LABEL: func.func @stride4_one_row
// CHECK: %[[V:.*]] = "npu.reshape"(%[[X:.*]]) <{name = "s4r"}> : (tensor<1x2x6x16x!quant.uniform<i8:f32, 0.5:-1>>) -> tensor<1x2x3x32x!quant.uniform<i8:f32, 0.5:-1>>
// CHECK: %[[W:.*]] = "tfl.pseudo_qconst"() <{qtype = tensor<3x3x3x32x!quant.uniform<i8:f32, 0.1>>
// CHECK: "npu.conv2d"(%[[V]], %[[W]], %{{.*}}) <{name = "s4r", activation = #npu.act<relu, min = -1, max = 127>, kernel = #npu.kernel<3x3, stride = 1x2, dilation = 2x1, padding = [1, 1, 2, 1]>}>
// CHECK-SAME: -> tensor<1x1x2x3x!quant.uniform<i8:f32, 0.5:-1>>
func.func @stride4_one_row(%x: tensor<1x2x6x16x!quant.uniform<i8:f32, 0.5:-1>>, %y: tensor<1x1x1x1x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x2x3x!quant.uniform<i8:f32, 0.5:-1>> {
  %0 = "tfl.relu"(%y) : (tensor<1x1x1x1x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x1x1x!quant.uniform<i8:f32, 0.5>>
  %w = "tfl.pseudo_qconst"() <{qtype = tensor<3x2x4x16x!quant.uniform<i8:f32, 0.1>>, value = dense<1> : tensor<3x2x4x16xi8>}> : () -> tensor<3x2x4x16x!quant.uniform<i8:f32, 0.1>>
  %n = "tfl.no_value"() <{value}> : () -> none
  %1 = "tfl.conv_2d"(%x, %w, %n) <{dilation_h_factor = 4 : i32, dilation_w_factor = 1 : i32, fused_activation_function = "RELU", padding = "SAME", stride_h = 5 : i32, stride_w = 4 : i32}> : (tensor<1x2x6x16x!quant.uniform<i8:f32, 0.5:-1>>, tensor<3x2x4x16x!quant.uniform<i8:f32, 0.1>>, none) -> tensor<1x1x2x3x!quant.uniform<i8:f32, 0.5:-1>> loc("s4r")
  return %1 : tensor<1x1x2x3x!quant.uniform<i8:f32, 0.5:-1>>
}

// -----

// Depthwise: the 1HWC weights stay; dilation 4x3 is above what the NPU does, so the kernel is
// spread out by 2x3 (5x7) and the hardware dilation is 2x1 (fixup_dilation_gt2).
// CHECK-LABEL: func.func @depthwise
// CHECK: %[[D:.*]] = "npu.depthwise_conv2d"(%[[X:.*]], %[[W:.*]], %[[B:.*]]) <{name = "dw", activation = #npu.act<relu, min = 0, max = 127>, kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [1, 1, 1, 1]>}>
// CHECK: %[[W2:.*]] = "tfl.pseudo_qconst"() <{qtype = tensor<1x5x7x4x!quant.uniform<i8:f32, 0.1>>
// CHECK: "npu.depthwise_conv2d"(%[[D]], %[[W2]], %{{.*}}) <{name = "dilated", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<5x7, stride = 1x1, dilation = 2x1, padding = [4, 3, 4, 3]>}>
func.func @depthwise(%x: tensor<1x16x16x4x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x16x16x4x!quant.uniform<i8:f32, 0.5>> {
  %w = "tfl.pseudo_qconst"() <{qtype = tensor<1x3x3x4x!quant.uniform<i8:f32, 0.1>>, value = dense<1> : tensor<1x3x3x4xi8>}> : () -> tensor<1x3x3x4x!quant.uniform<i8:f32, 0.1>>
  %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<4xi32>}> : () -> tensor<4xi32>
  %0 = "tfl.depthwise_conv_2d"(%x, %w, %b) <{depth_multiplier = 1 : i32, dilation_h_factor = 1 : i32, dilation_w_factor = 1 : i32, fused_activation_function = "RELU", padding = "SAME", stride_h = 1 : i32, stride_w = 1 : i32}> : (tensor<1x16x16x4x!quant.uniform<i8:f32, 0.5>>, tensor<1x3x3x4x!quant.uniform<i8:f32, 0.1>>, tensor<4xi32>) -> tensor<1x16x16x4x!quant.uniform<i8:f32, 0.5>> loc("dw")
  %1 = "tfl.depthwise_conv_2d"(%0, %w, %b) <{depth_multiplier = 1 : i32, dilation_h_factor = 4 : i32, dilation_w_factor = 3 : i32, fused_activation_function = "NONE", padding = "SAME", stride_h = 1 : i32, stride_w = 1 : i32}> : (tensor<1x16x16x4x!quant.uniform<i8:f32, 0.5>>, tensor<1x3x3x4x!quant.uniform<i8:f32, 0.1>>, tensor<4xi32>) -> tensor<1x16x16x4x!quant.uniform<i8:f32, 0.5>> loc("dilated")
  return %1 : tensor<1x16x16x4x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A depth multiplier over a one-channel IFM is a convolution with one input channel.
// CHECK-LABEL: func.func @depth_multiplier
// CHECK: %[[W:.*]] = "tfl.pseudo_qconst"() <{qtype = tensor<4x3x3x1x!quant.uniform<i8:f32, 0.1>>
// CHECK: "npu.conv2d"(%[[X:.*]], %[[W]], %{{.*}}) <{name = "dwm", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [1, 1, 1, 1]>}>
func.func @depth_multiplier(%x: tensor<1x8x8x1x!quant.uniform<i8:f32, 0.5>>, %y: tensor<1x1x1x1x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x8x8x4x!quant.uniform<i8:f32, 0.5>> {
  %0 = "tfl.relu"(%y) : (tensor<1x1x1x1x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x1x1x!quant.uniform<i8:f32, 0.5>>
  %w = "tfl.pseudo_qconst"() <{qtype = tensor<1x3x3x4x!quant.uniform<i8:f32, 0.1>>, value = dense<1> : tensor<1x3x3x4xi8>}> : () -> tensor<1x3x3x4x!quant.uniform<i8:f32, 0.1>>
  %n = "tfl.no_value"() <{value}> : () -> none
  %1 = "tfl.depthwise_conv_2d"(%x, %w, %n) <{depth_multiplier = 4 : i32, dilation_h_factor = 1 : i32, dilation_w_factor = 1 : i32, fused_activation_function = "NONE", padding = "SAME", stride_h = 1 : i32, stride_w = 1 : i32}> : (tensor<1x8x8x1x!quant.uniform<i8:f32, 0.5>>, tensor<1x3x3x4x!quant.uniform<i8:f32, 0.1>>, none) -> tensor<1x8x8x4x!quant.uniform<i8:f32, 0.5>> loc("dwm")
  return %1 : tensor<1x8x8x4x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A fully connected layer reads its rows as [N, 1, 1, K] and writes [N, 1, 1, O], viewed back in
// the model's shapes; a batch of 8 is folded into 2x4 (convert_batched_fc_shape).
// CHECK-LABEL: func.func @fully_connected
// CHECK-SAME: (%[[X:.*]]: tensor<1x16x!quant.uniform<i8:f32, 0.5>>, %[[Y:.*]]: tensor<8x16x!quant.uniform<i8:f32, 0.5>>)
// CHECK: %[[V:.*]] = "npu.reshape"(%[[X]]) <{name = "fc"}> : (tensor<1x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x1x16x!quant.uniform<i8:f32, 0.5>>
// CHECK: %[[B:.*]] = "tfl.pseudo_const"() <{value = dense<0> : tensor<4xi32>}>
// CHECK: %[[FC:.*]] = "npu.vector_product"(%[[V]], %[[W:.*]], %[[B]]) <{name = "fc", activation = #npu.act<relu, min = 0, max = 127>}>
// CHECK: %[[R:.*]] = "npu.reshape"(%[[FC]]) <{name = "fc"}> : (tensor<1x1x1x4x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x!quant.uniform<i8:f32, 0.5>>
// CHECK: %[[VB:.*]] = "npu.reshape"(%[[Y]]) <{name = "batched"}> : (tensor<8x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x2x4x16x!quant.uniform<i8:f32, 0.5>>
// CHECK: %[[FB:.*]] = "npu.vector_product"(%[[VB]], %[[W]], %{{.*}}) <{name = "batched", activation = #npu.act<none, min = -128, max = 127>}> : {{.*}} -> tensor<1x2x4x4x!quant.uniform<i8:f32, 0.5>>
// CHECK: %[[RB:.*]] = "npu.reshape"(%[[FB]]) <{name = "batched"}> : (tensor<1x2x4x4x!quant.uniform<i8:f32, 0.5>>) -> tensor<8x4x!quant.uniform<i8:f32, 0.5>>
// CHECK: return %[[R]], %[[RB]]
func.func @fully_connected(%x: tensor<1x16x!quant.uniform<i8:f32, 0.5>>, %y: tensor<8x16x!quant.uniform<i8:f32, 0.5>>) -> (tensor<1x4x!quant.uniform<i8:f32, 0.5>>, tensor<8x4x!quant.uniform<i8:f32, 0.5>>) {
  %w = "tfl.pseudo_qconst"() <{qtype = tensor<4x16x!quant.uniform<i8:f32, 0.1>>, value = dense<1> : tensor<4x16xi8>}> : () -> tensor<4x16x!quant.uniform<i8:f32, 0.1>>
  %n = "tfl.no_value"() <{value}> : () -> none
  %0 = "tfl.fully_connected"(%x, %w, %n) <{fused_activation_function = "RELU", keep_num_dims = false, weights_format = "DEFAULT"}> : (tensor<1x16x!quant.uniform<i8:f32, 0.5>>, tensor<4x16x!quant.uniform<i8:f32, 0.1>>, none) -> tensor<1x4x!quant.uniform<i8:f32, 0.5>> loc("fc")
  %1 = "tfl.fully_connected"(%y, %w, %n) <{fused_activation_function = "NONE", keep_num_dims = false, weights_format = "DEFAULT"}> : (tensor<8x16x!quant.uniform<i8:f32, 0.5>>, tensor<4x16x!quant.uniform<i8:f32, 0.1>>, none) -> tensor<8x4x!quant.uniform<i8:f32, 0.5>> loc("batched")
  return %0, %1 : tensor<1x4x!quant.uniform<i8:f32, 0.5>>, tensor<8x4x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A batch of 5 (not in Vela's table) becomes 1x5, and with more than 4 columns a 1x1 convolution.
// CHECK-LABEL: func.func @batched_conv
// CHECK: %[[V:.*]] = "npu.reshape"(%[[X:.*]]) <{name = "fc5"}> : (tensor<5x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x5x16x!quant.uniform<i8:f32, 0.5>>
// CHECK: %[[W:.*]] = "tfl.pseudo_qconst"() <{qtype = tensor<4x1x1x16x!quant.uniform<i8:f32, 0.1>>
// CHECK: "npu.conv2d"(%[[V]], %[[W]], %{{.*}}) <{name = "fc5", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<1x1, stride = 1x1, dilation = 1x1, padding = [0, 0, 0, 0]>}>
func.func @batched_conv(%x: tensor<5x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<5x4x!quant.uniform<i8:f32, 0.5>> {
  %w = "tfl.pseudo_qconst"() <{qtype = tensor<4x16x!quant.uniform<i8:f32, 0.1>>, value = dense<1> : tensor<4x16xi8>}> : () -> tensor<4x16x!quant.uniform<i8:f32, 0.1>>
  %n = "tfl.no_value"() <{value}> : () -> none
  %0 = "tfl.fully_connected"(%x, %w, %n) <{fused_activation_function = "NONE", keep_num_dims = false, weights_format = "DEFAULT"}> : (tensor<5x16x!quant.uniform<i8:f32, 0.5>>, tensor<4x16x!quant.uniform<i8:f32, 0.1>>, none) -> tensor<5x4x!quant.uniform<i8:f32, 0.5>> loc("fc5")
  return %0 : tensor<5x4x!quant.uniform<i8:f32, 0.5>>
}

// -----

// Transpose convolutions run with stride 1 over the IFM upscaled x2 by zero insertion, with
// Vela's upscaled padding: SAME 3x3 pads 2 before and 0 after, VALID 3x3 pads 2 and 1.
// CHECK-LABEL: func.func @transpose_conv
// CHECK: %[[B:.*]] = "tfl.pseudo_const"() <{value = dense<0> : tensor<4xi32>}>
// CHECK: %[[S:.*]] = "npu.transpose_conv2d"(%[[X:.*]], %[[W:.*]], %[[B]]) <{name = "same", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [2, 2, 0, 0]>, resampling = "transpose"}>
// CHECK-SAME: -> tensor<1x8x8x4x!quant.uniform<i8:f32, 0.5>>
// CHECK: "npu.transpose_conv2d"(%[[X]], %[[W]], %{{.*}}) <{name = "valid", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [2, 2, 1, 1]>, resampling = "transpose"}>
// CHECK-SAME: -> tensor<1x9x9x4x!quant.uniform<i8:f32, 0.5>>
func.func @transpose_conv(%x: tensor<1x4x4x4x!quant.uniform<i8:f32, 0.5>>) -> (tensor<1x8x8x4x!quant.uniform<i8:f32, 0.5>>, tensor<1x9x9x4x!quant.uniform<i8:f32, 0.5>>) {
  %s = "tfl.pseudo_const"() <{value = dense<[1, 8, 8, 4]> : tensor<4xi32>}> : () -> tensor<4xi32>
  %s2 = "tfl.pseudo_const"() <{value = dense<[1, 9, 9, 4]> : tensor<4xi32>}> : () -> tensor<4xi32>
  %w = "tfl.pseudo_qconst"() <{qtype = tensor<4x3x3x4x!quant.uniform<i8:f32, 0.1>>, value = dense<1> : tensor<4x3x3x4xi8>}> : () -> tensor<4x3x3x4x!quant.uniform<i8:f32, 0.1>>
  %n = "tfl.no_value"() <{value}> : () -> none
  %0 = "tfl.transpose_conv"(%s, %w, %x, %n) <{fused_activation_function = "NONE", padding = "SAME", stride_h = 2 : i32, stride_w = 2 : i32}> : (tensor<4xi32>, tensor<4x3x3x4x!quant.uniform<i8:f32, 0.1>>, tensor<1x4x4x4x!quant.uniform<i8:f32, 0.5>>, none) -> tensor<1x8x8x4x!quant.uniform<i8:f32, 0.5>> loc("same")
  %1 = "tfl.transpose_conv"(%s2, %w, %x, %n) <{fused_activation_function = "NONE", padding = "VALID", stride_h = 2 : i32, stride_w = 2 : i32}> : (tensor<4xi32>, tensor<4x3x3x4x!quant.uniform<i8:f32, 0.1>>, tensor<1x4x4x4x!quant.uniform<i8:f32, 0.5>>, none) -> tensor<1x9x9x4x!quant.uniform<i8:f32, 0.5>> loc("valid")
  return %0, %1 : tensor<1x8x8x4x!quant.uniform<i8:f32, 0.5>>, tensor<1x9x9x4x!quant.uniform<i8:f32, 0.5>>
}
