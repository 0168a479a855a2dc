// npu-legalize on an imported model (tests/data/conv.tflite): the first convolution folds its
// width stride into the depth, the depthwise convolution with depth multiplier 2 over 8 channels
// stays on the CPU with the reason, the rest lowers one to one, names from the TFLite tensors.
// RUN: %npu_opt %S/../../data/conv.tflite --pass=npu-legalize --pass-remarks 2>&1 | %filecheck %s

// CHECK: "depthwise": remark: DEPTHWISE_CONV_2D 'depthwise' runs on the CPU: depth_multiplier = 2 needs a 1-channel IFM and a 2-channel OFM; they have 8 and 16 channels
// CHECK-LABEL: func.func @main
// CHECK: %[[V:.*]] = "npu.reshape"(%arg0) <{name = "conv"}> : (tensor<1x8x8x3x{{.*}}) -> tensor<1x8x4x6x
// CHECK: %[[C:.*]] = "npu.conv2d"(%[[V]], {{.*}}) <{name = "conv", activation = #npu.act<relu, min = 3, max = 127>, kernel = #npu.kernel<3x2, stride = 2x1, dilation = 1x1, padding = [0, 0, 1, 1]>}>
// CHECK: %[[D:.*]] = "tfl.depthwise_conv_2d"(%[[C]], {{.*}}) {{.*}}{npu.placement = "cpu"}
// CHECK: %[[M:.*]] = "npu.max_pool"(%[[D]]) <{name = "maxpool",
// CHECK: %[[A:.*]] = "npu.avg_pool"(%[[M]]) <{name = "avgpool",
// CHECK: %[[T:.*]] = "npu.transpose_conv2d"(%[[A]], {{.*}}) <{name = "transpose_conv",
// CHECK: %[[F:.*]] = "npu.reshape"(%[[T]]) <{name = "logits"}>
// CHECK: %[[FC:.*]] = "npu.vector_product"(%[[F]], {{.*}}) <{name = "logits",
// CHECK: %[[R:.*]] = "npu.reshape"(%[[FC]]) <{name = "logits"}>
// CHECK: return %[[R]]
