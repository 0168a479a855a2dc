// Import of the element-wise family (tests/data/elementwise.tflite, math.tflite): broadcasting
// binary ops with fused activations, int8 activations with their fixed output scales, softmax,
// requantize and dequantize, and float exp/log/rsqrt/relu_0_to_1/quantize.
// RUN: %npu_translate --import-tflite %S/../../data/elementwise.tflite --print-debuginfo | %filecheck %s
// RUN: %npu_translate --import-tflite %S/../../data/math.tflite --print-debuginfo | %filecheck %s --check-prefix=MATH

// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[A:.*]]: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.0625:1>>, %[[B:.*]]: tensor<1x1x1x8x!quant.uniform<i8:f32, 0.125:-2>>)
// CHECK-SAME: tf.entry_function = {inputs = "a,b", outputs = "add,sub,mul,minimum,maximum,squared_difference,abs,relu,relu6,relu_n1_to_1,tanh,logistic,hard_swish,leaky_relu,softmax,requantize,dequantize"}
// CHECK: %[[ADD:.*]] = "tfl.add"(%[[A]], %[[B]]) <{fused_activation_function = "NONE"}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.0625:1>>, tensor<1x1x1x8x!quant.uniform<i8:f32, 0.125:-2>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.25>> loc("add")
// CHECK: %[[SUB:.*]] = "tfl.sub"(%[[A]], %[[B]]) <{fused_activation_function = "RELU"}>
// CHECK: %[[MUL:.*]] = "tfl.mul"(%[[A]], %[[B]]) <{fused_activation_function = "NONE"}>
// CHECK: %[[MIN:.*]] = "tfl.minimum"(%[[A]], %[[A]]) :
// CHECK: %[[MAX:.*]] = "tfl.maximum"(%[[A]], %[[A]]) :
// CHECK: %[[SQD:.*]] = "tfl.squared_difference"(%[[A]], %[[B]]) : {{.*}} -> tensor<1x4x4x8x!quant.uniform<i8:f32, 1.0:-128>>
// CHECK: %[[ABS:.*]] = "tfl.abs"(%[[A]]) :
// CHECK: %[[RELU:.*]] = "tfl.relu"(%[[A]]) :
// CHECK: %[[RELU6:.*]] = "tfl.relu6"(%[[A]]) :
// CHECK: %[[RELU1:.*]] = "tfl.relu_n1_to_1"(%[[A]]) :
// CHECK: %[[TANH:.*]] = "tfl.tanh"(%[[A]]) : {{.*}} -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.0078125>>
// CHECK: %[[SIG:.*]] = "tfl.logistic"(%[[A]]) : {{.*}} -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.00390625:-128>>
// CHECK: %[[HSWISH:.*]] = "tfl.hard_swish"(%[[A]]) :
// CHECK: %[[LEAKY:.*]] = "tfl.leaky_relu"(%[[A]]) <{alpha = 0.125 : f32}>
// CHECK: %[[SOFTMAX:.*]] = "tfl.softmax"(%[[A]]) <{beta = 1.0 : f32}>
// CHECK: %[[REQ:.*]] = "tfl.quantize"(%[[A]]) <{qtype = tensor<1x4x4x8x!quant.uniform<i8:f32, 0.125:4>>}> : {{.*}} -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.125:4>> loc("requantize")
// CHECK: %[[DEQ:.*]] = "tfl.dequantize"(%[[A]]) : {{.*}} -> tensor<1x4x4x8xf32> loc("dequantize")
// CHECK: return %[[ADD]], %[[SUB]], %[[MUL]], %[[MIN]], %[[MAX]], %[[SQD]], %[[ABS]], %[[RELU]], %[[RELU6]], %[[RELU1]], %[[TANH]], %[[SIG]], %[[HSWISH]], %[[LEAKY]], %[[SOFTMAX]], %[[REQ]], %[[DEQ]] :

// MATH-LABEL: func.func @main(
// MATH-SAME: %[[X:.*]]: tensor<2x3xf32>)
// MATH: %[[EXP:.*]] = "tfl.exp"(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xf32> loc("exp")
// MATH: %[[LOG:.*]] = "tfl.log"(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xf32> loc("log")
// MATH: %[[RSQRT:.*]] = "tfl.rsqrt"(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xf32> loc("rsqrt")
// MATH: %[[CLAMP:.*]] = "tfl.relu_0_to_1"(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xf32> loc("relu_0_to_1")
// MATH: %[[Q:.*]] = "tfl.quantize"(%[[X]]) <{qtype = tensor<2x3x!quant.uniform<i8:f32, 0.0625:3>>}> : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8:f32, 0.0625:3>>
// MATH: return %[[EXP]], %[[LOG]], %[[RSQRT]], %[[CLAMP]], %[[Q]] :
