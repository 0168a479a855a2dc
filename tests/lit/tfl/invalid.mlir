// The tfl ops' verifiers: shapes that do not follow from the operands and attributes.
// RUN: %npu_opt %s --split-input-file --verify-diagnostics

func.func @conv_output(%x: tensor<1x8x8x3xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x8x8x4xf32> {
  // expected-error@+1 {{'tfl.conv_2d' op result shape 1x8x8x4 does not match the inferred shape 1x4x4x4}}
  %0 = "tfl.conv_2d"(%x, %w, %b) <{dilation_h_factor = 1 : i32, dilation_w_factor = 1 : i32, fused_activation_function = "NONE", padding = "SAME", stride_h = 2 : i32, stride_w = 2 : i32}> : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x8x8x4xf32>
  return %0 : tensor<1x8x8x4xf32>
}

// -----

func.func @conv_valid_dilation(%x: tensor<1x8x8x3xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x6x6x4xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error@+1 {{result shape 1x6x6x4 does not match the inferred shape 1x4x4x4}}
  %0 = "tfl.conv_2d"(%x, %w, %none) <{dilation_h_factor = 2 : i32, dilation_w_factor = 2 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 1 : i32, stride_w = 1 : i32}> : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, none) -> tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}

// -----

func.func @conv_stride(%x: tensor<1x8x8x3xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x8x8x4xf32> {
  // expected-error@+1 {{'stride_h' must be at least 1, but is 0}}
  %0 = "tfl.conv_2d"(%x, %w, %b) <{dilation_h_factor = 1 : i32, dilation_w_factor = 1 : i32, fused_activation_function = "NONE", padding = "SAME", stride_h = 0 : i32, stride_w = 1 : i32}> : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x8x8x4xf32>
  return %0 : tensor<1x8x8x4xf32>
}

// -----

func.func @conv_bias(%x: tensor<1x8x8x3xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<5xf32>) -> tensor<1x8x8x4xf32> {
  // expected-error@+1 {{bias has 5 elements but the output has 4 channels}}
  %0 = "tfl.conv_2d"(%x, %w, %b) <{dilation_h_factor = 1 : i32, dilation_w_factor = 1 : i32, fused_activation_function = "NONE", padding = "SAME", stride_h = 1 : i32, stride_w = 1 : i32}> : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<5xf32>) -> tensor<1x8x8x4xf32>
  return %0 : tensor<1x8x8x4xf32>
}

// -----

func.func @conv_padding_enum(%x: tensor<1x8x8x3xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x8x8x4xf32> {
  // expected-error@+1 {{attribute 'padding' failed to satisfy constraint: string attribute whose value is SAME, or VALID}}
  %0 = "tfl.conv_2d"(%x, %w, %b) <{dilation_h_factor = 1 : i32, dilation_w_factor = 1 : i32, fused_activation_function = "NONE", padding = "FULL", stride_h = 1 : i32, stride_w = 1 : i32}> : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x8x8x4xf32>
  return %0 : tensor<1x8x8x4xf32>
}

// -----

func.func @depthwise_channels(%x: tensor<1x8x8x3xf32>, %w: tensor<1x3x3x4xf32>, %b: tensor<4xf32>) -> tensor<1x8x8x4xf32> {
  // expected-error@+1 {{filter channels (4) must be a multiple of the input channels (3)}}
  %0 = "tfl.depthwise_conv_2d"(%x, %w, %b) <{depth_multiplier = 1 : i32, dilation_h_factor = 1 : i32, dilation_w_factor = 1 : i32, fused_activation_function = "NONE", padding = "SAME", stride_h = 1 : i32, stride_w = 1 : i32}> : (tensor<1x8x8x3xf32>, tensor<1x3x3x4xf32>, tensor<4xf32>) -> tensor<1x8x8x4xf32>
  return %0 : tensor<1x8x8x4xf32>
}

// -----

func.func @fully_connected(%x: tensor<1x64xf32>, %w: tensor<10x60xf32>) -> tensor<1x10xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error@+1 {{input of 64 elements cannot be split into rows of 60}}
  %0 = "tfl.fully_connected"(%x, %w, %none) <{fused_activation_function = "NONE", keep_num_dims = false, weights_format = "DEFAULT"}> : (tensor<1x64xf32>, tensor<10x60xf32>, none) -> tensor<1x10xf32>
  return %0 : tensor<1x10xf32>
}

// -----

func.func @pool(%x: tensor<1x8x8x3xf32>) -> tensor<1x4x4x3xf32> {
  // expected-error@+1 {{'tfl.max_pool_2d' op result shape 1x4x4x3 does not match the inferred shape 1x3x3x3}}
  %0 = "tfl.max_pool_2d"(%x) <{filter_height = 3 : i32, filter_width = 3 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 2 : i32, stride_w = 2 : i32}> : (tensor<1x8x8x3xf32>) -> tensor<1x4x4x3xf32>
  return %0 : tensor<1x4x4x3xf32>
}

// -----

func.func @broadcast(%a: tensor<2x3xf32>, %b: tensor<4xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{operands of shapes 2x3 and 4 are not broadcastable}}
  %0 = "tfl.add"(%a, %b) <{fused_activation_function = "NONE"}> : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @element_types(%a: tensor<2x3xf32>, %b: tensor<2x3xi32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{operands and result must have the same element type, but have f32, i32, f32}}
  %0 = "tfl.mul"(%a, %b) <{fused_activation_function = "NONE"}> : (tensor<2x3xf32>, tensor<2x3xi32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @unary(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error@+1 {{result shape 3x2 does not match the inferred shape 2x3}}
  %0 = "tfl.tanh"(%a) : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @concat(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) -> tensor<4x3xf32> {
  // expected-error@+1 {{input #1 has shape 2x4, which disagrees with 2x3 outside axis 0}}
  %0 = "tfl.concatenation"(%a, %b) <{axis = 0 : i32, fused_activation_function = "NONE"}> : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @reshape(%a: tensor<2x3xf32>) -> tensor<7xf32> {
  %s = "tfl.pseudo_const"() <{value = dense<7> : tensor<1xi32>}> : () -> tensor<1xi32>
  // expected-error@+1 {{input of shape 2x3 has 6 elements but the result of shape 7 has 7}}
  %0 = "tfl.reshape"(%a, %s) : (tensor<2x3xf32>, tensor<1xi32>) -> tensor<7xf32>
  return %0 : tensor<7xf32>
}

// -----

func.func @transpose(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %p = "tfl.pseudo_const"() <{value = dense<[0, 0]> : tensor<2xi32>}> : () -> tensor<2xi32>
  // expected-error@+1 {{perm [0, 0] is not a permutation of the input's 2 dimensions}}
  %0 = "tfl.transpose"(%a, %p) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @split(%a: tensor<2x3xf32>) -> tensor<2x1xf32> {
  %d = "tfl.pseudo_const"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
  // expected-error@+1 {{dimension 1 of size 3 cannot be split into 2 parts}}
  %0:2 = "tfl.split"(%d, %a) <{num_splits = 2 : i32}> : (tensor<i32>, tensor<2x3xf32>) -> (tensor<2x1xf32>, tensor<2x1xf32>)
  return %0#0 : tensor<2x1xf32>
}

// -----

func.func @pad(%a: tensor<2x3xf32>) -> tensor<4x3xf32> {
  %p = "tfl.pseudo_const"() <{value = dense<[[1, 1], [0, 1]]> : tensor<2x2xi32>}> : () -> tensor<2x2xi32>
  // expected-error@+1 {{result shape 4x3 does not match the inferred shape 4x4}}
  %0 = "tfl.pad"(%a, %p) : (tensor<2x3xf32>, tensor<2x2xi32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @mean(%a: tensor<1x4x4x8xf32>) -> tensor<1x8xf32> {
  %axes = "tfl.pseudo_const"() <{value = dense<[1, 2]> : tensor<2xi32>}> : () -> tensor<2xi32>
  // expected-error@+1 {{result shape 1x8 does not match the inferred shape 1x1x1x8}}
  %0 = "tfl.mean"(%a, %axes) <{keep_dims = true}> : (tensor<1x4x4x8xf32>, tensor<2xi32>) -> tensor<1x8xf32>
  return %0 : tensor<1x8xf32>
}

// -----

func.func @qconst() -> tensor<4x!quant.uniform<i8:f32, 0.5>> {
  // expected-error@+1 {{value type 'tensor<4xi32>' must be tensor<4xi8> to hold the result 'tensor<4x!quant.uniform<i8:f32, 0.5>>'}}
  %0 = "tfl.pseudo_qconst"() <{qtype = tensor<4x!quant.uniform<i8:f32, 0.5>>, value = dense<1> : tensor<4xi32>}> : () -> tensor<4x!quant.uniform<i8:f32, 0.5>>
  return %0 : tensor<4x!quant.uniform<i8:f32, 0.5>>
}

// -----

func.func @per_axis(%x: tensor<3x!quant.uniform<i8:f32, 0.5>>) -> tensor<3x!quant.uniform<i8:f32, 0.5>> {
  // expected-error@+1 {{dimension 0 has 3 elements but there are 2 scales}}
  %0 = "tfl.pseudo_qconst"() <{qtype = tensor<3x!quant.uniform<i8:f32:0, {0.5,0.25}>>, value = dense<1> : tensor<3xi8>}> : () -> tensor<3x!quant.uniform<i8:f32:0, {0.5,0.25}>>
  return %x : tensor<3x!quant.uniform<i8:f32, 0.5>>
}

// -----

func.func @quantize(%x: tensor<3xf32>) -> tensor<3x!quant.uniform<i8:f32, 0.5>> {
  // expected-error@+1 {{qtype 'tensor<3x!quant.uniform<i8:f32, 0.25>>' must equal the result type 'tensor<3x!quant.uniform<i8:f32, 0.5>>'}}
  %0 = "tfl.quantize"(%x) <{qtype = tensor<3x!quant.uniform<i8:f32, 0.25>>}> : (tensor<3xf32>) -> tensor<3x!quant.uniform<i8:f32, 0.5>>
  return %0 : tensor<3x!quant.uniform<i8:f32, 0.5>>
}

// -----

func.func @unsupported(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error@+1 {{opcode 'GATHER' is builtin code 36, not 37}}
  %0 = "tfl.unsupported"(%x) <{builtin_code = 37 : i32, opcode = "GATHER", version = 1 : i32}> : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
