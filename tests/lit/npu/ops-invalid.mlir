// The npu ops' verifiers and the #npu.* attribute parsers reject malformed IR.
// RUN: %npu_opt %s --split-input-file --verify-diagnostics

func.func @kernel_size(%x: tensor<1x8x8x4xi8>, %w: tensor<8x3x3x4xi8>, %b: tensor<8xi32>) -> tensor<1x8x8x8xi8> {
  // expected-error@+1 {{weights 8x3x3x4 do not match the 5x5 kernel}}
  %0 = "npu.conv2d"(%x, %w, %b) <{kernel = #npu.kernel<5x5>}> : (tensor<1x8x8x4xi8>, tensor<8x3x3x4xi8>, tensor<8xi32>) -> tensor<1x8x8x8xi8>
  return %0 : tensor<1x8x8x8xi8>
}

// -----

func.func @input_depth(%x: tensor<1x8x8x6xi8>, %w: tensor<8x1x1x4xi8>, %b: tensor<8xi32>) -> tensor<1x8x8x8xi8> {
  // expected-error@+1 {{the IFM depth 6 is not a multiple of the weights' input depth 4}}
  %0 = "npu.conv2d"(%x, %w, %b) <{kernel = #npu.kernel<1x1>}> : (tensor<1x8x8x6xi8>, tensor<8x1x1x4xi8>, tensor<8xi32>) -> tensor<1x8x8x8xi8>
  return %0 : tensor<1x8x8x8xi8>
}

// -----

func.func @window(%x: tensor<1x8x8x4xi8>, %w: tensor<8x3x3x4xi8>, %b: tensor<8xi32>) -> tensor<1x8x8x8xi8> {
  // expected-error@+1 {{OFM height 8 needs 10 input rows/columns}}
  %0 = "npu.conv2d"(%x, %w, %b) <{kernel = #npu.kernel<3x3>}> : (tensor<1x8x8x4xi8>, tensor<8x3x3x4xi8>, tensor<8xi32>) -> tensor<1x8x8x8xi8>
  return %0 : tensor<1x8x8x8xi8>
}

// -----

func.func @bias(%x: tensor<1x8x8x4xi8>, %w: tensor<8x1x1x4xi8>, %b: tensor<4xi32>) -> tensor<1x8x8x8xi8> {
  // expected-error@+1 {{the bias length is 4, expected 8}}
  %0 = "npu.conv2d"(%x, %w, %b) <{kernel = #npu.kernel<1x1>}> : (tensor<1x8x8x4xi8>, tensor<8x1x1x4xi8>, tensor<4xi32>) -> tensor<1x8x8x8xi8>
  return %0 : tensor<1x8x8x8xi8>
}

// -----

func.func @rank(%x: tensor<8x8x4xi8>, %w: tensor<8x1x1x4xi8>, %b: tensor<8xi32>) -> tensor<1x8x8x8xi8> {
  // expected-error@+1 {{operand #0 must be static 4-D tensor of 8-, 16- or 32-bit (quantised) integers, but got 'tensor<8x8x4xi8>'}}
  %0 = "npu.conv2d"(%x, %w, %b) <{kernel = #npu.kernel<1x1>}> : (tensor<8x8x4xi8>, tensor<8x1x1x4xi8>, tensor<8xi32>) -> tensor<1x8x8x8xi8>
  return %0 : tensor<1x8x8x8xi8>
}

// -----

func.func @depthwise_weights(%x: tensor<1x8x8x4xi8>, %w: tensor<2x3x3x4xi8>, %b: tensor<4xi32>) -> tensor<1x6x6x4xi8> {
  // expected-error@+1 {{weights must be 1HWC, not 2x3x3x4}}
  %0 = "npu.depthwise_conv2d"(%x, %w, %b) <{kernel = #npu.kernel<3x3>}> : (tensor<1x8x8x4xi8>, tensor<2x3x3x4xi8>, tensor<4xi32>) -> tensor<1x6x6x4xi8>
  return %0 : tensor<1x6x6x4xi8>
}

// -----

func.func @transpose_stride(%x: tensor<1x4x4x4xi8>, %w: tensor<4x3x3x4xi8>, %b: tensor<4xi32>) -> tensor<1x8x8x4xi8> {
  // expected-error@+1 {{a transpose convolution has stride 1x1 (the upscaling is its resampling)}}
  %0 = "npu.transpose_conv2d"(%x, %w, %b) <{kernel = #npu.kernel<3x3, stride = 2x2>, resampling = "transpose"}> : (tensor<1x4x4x4xi8>, tensor<4x3x3x4xi8>, tensor<4xi32>) -> tensor<1x8x8x4xi8>
  return %0 : tensor<1x8x8x4xi8>
}

// -----

func.func @vector_product(%x: tensor<1x1x1x16xi8>, %w: tensor<4x8xi8>, %b: tensor<4xi32>) -> tensor<1x1x1x4xi8> {
  // expected-error@+1 {{the IFM depth is 16, expected 8}}
  %0 = "npu.vector_product"(%x, %w, %b) : (tensor<1x1x1x16xi8>, tensor<4x8xi8>, tensor<4xi32>) -> tensor<1x1x1x4xi8>
  return %0 : tensor<1x1x1x4xi8>
}

// -----

func.func @pool_dilation(%x: tensor<1x8x8x4xi8>) -> tensor<1x4x4x4xi8> {
  // expected-error@+1 {{pooling has no dilation}}
  %0 = "npu.max_pool"(%x) <{kernel = #npu.kernel<2x2, stride = 2x2, dilation = 2x2>}> : (tensor<1x8x8x4xi8>) -> tensor<1x4x4x4xi8>
  return %0 : tensor<1x4x4x4xi8>
}

// -----

func.func @reduce_sum(%x: tensor<1x8x8x4xi8>) -> tensor<1x8x8x1xi8> {
  // expected-error@+1 {{the OFM of a reduce-sum is 32-bit}}
  %0 = "npu.reduce_sum"(%x) : (tensor<1x8x8x4xi8>) -> tensor<1x8x8x1xi8>
  return %0 : tensor<1x8x8x1xi8>
}

// -----

func.func @broadcast(%x: tensor<1x8x8x4xi8>, %y: tensor<1x8x2x4xi8>) -> tensor<1x8x8x4xi8> {
  // expected-error@+1 {{operands 1x8x8x4 and 1x8x2x4 do not broadcast to the OFM 1x8x8x4}}
  %0 = "npu.add"(%x, %y) : (tensor<1x8x8x4xi8>, tensor<1x8x2x4xi8>) -> tensor<1x8x8x4xi8>
  return %0 : tensor<1x8x8x4xi8>
}

// -----

func.func @scalar(%x: tensor<1x8x8x4xi8>, %s: tensor<i8>) -> tensor<1x8x8x4xi8> {
  // expected-error@+1 {{scalar operand #1 must be a constant}}
  %0 = "npu.mul"(%x, %s) : (tensor<1x8x8x4xi8>, tensor<i8>) -> tensor<1x8x8x4xi8>
  return %0 : tensor<1x8x8x4xi8>
}

// -----

func.func @lut_missing(%x: tensor<1x8x8x4xi8>, %y: tensor<1x8x8x4xi8>) -> tensor<1x8x8x4xi8> {
  // expected-error@+1 {{a 'lut' activation needs a lookup table operand}}
  %0 = "npu.add"(%x, %y) <{activation = #npu.act<lut, min = -128, max = 127>}> : (tensor<1x8x8x4xi8>, tensor<1x8x8x4xi8>) -> tensor<1x8x8x4xi8>
  return %0 : tensor<1x8x8x4xi8>
}

// -----

func.func @lut_unused(%x: tensor<1x8x8x4xi8>, %y: tensor<1x8x8x4xi8>, %t: tensor<256xi8>) -> tensor<1x8x8x4xi8> {
  // expected-error@+1 {{a lookup table operand needs a 'lut' activation}}
  %0 = "npu.add"(%x, %y, %t) : (tensor<1x8x8x4xi8>, tensor<1x8x8x4xi8>, tensor<256xi8>) -> tensor<1x8x8x4xi8>
  return %0 : tensor<1x8x8x4xi8>
}

// -----

func.func @clamp(%x: tensor<1x8x8x4xi8>) -> tensor<1x8x8x4xui8> {
  // expected-error@+1 {{activation range [-128, 127] is outside the OFM range [0, 255]}}
  %0 = "npu.max_pool"(%x) <{kernel = #npu.kernel<1x1>, activation = #npu.act<relu, min = -128, max = 127>}> : (tensor<1x8x8x4xi8>) -> tensor<1x8x8x4xui8>
  return %0 : tensor<1x8x8x4xui8>
}

// -----

func.func @reshape_count(%x: tensor<1x8x8x4xi8>) -> tensor<1x100xi8> {
  // expected-error@+1 {{cannot view 1x8x8x4 (256 elements) as 1x100 (100 elements)}}
  %0 = "npu.reshape"(%x) : (tensor<1x8x8x4xi8>) -> tensor<1x100xi8>
  return %0 : tensor<1x100xi8>
}

// -----

func.func @reshape_brick(%x: tensor<1x8x8x4xi8, #npu.fm<NHCWB16>>) -> tensor<1x256xi8, #npu.fm<NHCWB16>> {
  // expected-error@+1 {{an NHCWB16 tensor can only be viewed with the same 4-D shape}}
  %0 = "npu.reshape"(%x) : (tensor<1x8x8x4xi8, #npu.fm<NHCWB16>>) -> tensor<1x256xi8, #npu.fm<NHCWB16>>
  return %0 : tensor<1x256xi8, #npu.fm<NHCWB16>>
}

// -----

func.func @slice_bounds(%x: tensor<1x8x8x4xi8>) -> tensor<1x4x8x4xi8> {
  // expected-error@+1 {{box 1x4x8x4 at [0, 6, 0, 0] is outside the source 1x8x8x4}}
  %0 = "npu.slice"(%x) <{offset = #npu.offset<0, 6, 0, 0>}> : (tensor<1x8x8x4xi8>) -> tensor<1x4x8x4xi8>
  return %0 : tensor<1x4x8x4xi8>
}

// -----

func.func @concat_overlap(%x: tensor<1x8x8x4xi8>) -> tensor<1x8x8x8xi8> {
  %a = "npu.avg_pool"(%x) <{kernel = #npu.kernel<1x1>}> : (tensor<1x8x8x4xi8>) -> tensor<1x8x8x4xi8>
  %b = "npu.avg_pool"(%x) <{kernel = #npu.kernel<1x1>}> : (tensor<1x8x8x4xi8>) -> tensor<1x8x8x4xi8>
  // expected-error@+1 {{slices #0 and #1 overlap}}
  %0 = "npu.concat"(%a, %b) <{offsets = [#npu.offset<0, 0, 0, 0>, #npu.offset<0, 0, 0, 2>]}> : (tensor<1x8x8x4xi8>, tensor<1x8x8x4xi8>) -> tensor<1x8x8x8xi8>
  return %0 : tensor<1x8x8x8xi8>
}

// -----

func.func @concat_writer(%x: tensor<1x8x8x4xi8>, %y: tensor<1x8x8x4xi8>) -> tensor<1x8x8x8xi8> {
  // expected-error@+1 {{slice #0 must be written by an npu compute or DMA op and used only here}}
  %0 = "npu.concat"(%x, %y) <{offsets = [#npu.offset<0, 0, 0, 0>, #npu.offset<0, 0, 0, 4>]}> : (tensor<1x8x8x4xi8>, tensor<1x8x8x4xi8>) -> tensor<1x8x8x8xi8>
  return %0 : tensor<1x8x8x8xi8>
}

// -----

func.func @concat_cover(%x: tensor<1x8x8x4xi8>) -> tensor<1x8x8x8xi8> {
  %a = "npu.avg_pool"(%x) <{kernel = #npu.kernel<1x1>}> : (tensor<1x8x8x4xi8>) -> tensor<1x8x8x4xi8>
  // expected-error@+1 {{the slices cover 256 of the result's 512 elements}}
  %0 = "npu.concat"(%a) <{offsets = [#npu.offset<0, 0, 0, 0>]}> : (tensor<1x8x8x4xi8>) -> tensor<1x8x8x8xi8>
  return %0 : tensor<1x8x8x8xi8>
}

// -----

// Strided slices interleave; rows 0, 2, 4 and rows 2, 4, 6 overlap.
func.func @concat_strided_overlap(%x: tensor<1x3x8x4xi8>) -> tensor<1x8x8x4xi8> {
  %a = "npu.avg_pool"(%x) <{kernel = #npu.kernel<1x1>}> : (tensor<1x3x8x4xi8>) -> tensor<1x3x8x4xi8>
  %b = "npu.avg_pool"(%x) <{kernel = #npu.kernel<1x1>}> : (tensor<1x3x8x4xi8>) -> tensor<1x3x8x4xi8>
  // expected-error@+1 {{slices #0 and #1 overlap}}
  %0 = "npu.concat"(%a, %b) <{offsets = [#npu.offset<0, 0, 0, 0>, #npu.offset<0, 2, 0, 0>], strides = [1, 2, 1, 1]}> : (tensor<1x3x8x4xi8>, tensor<1x3x8x4xi8>) -> tensor<1x8x8x4xi8>
  return %0 : tensor<1x8x8x4xi8>
}

// -----

// A strided slice must stay inside the result: its last row lands at 1 + 2 * 3 = 7 of 7 rows.
func.func @concat_strided_outside(%x: tensor<1x4x8x4xi8>) -> tensor<1x7x8x4xi8> {
  %a = "npu.avg_pool"(%x) <{kernel = #npu.kernel<1x1>}> : (tensor<1x4x8x4xi8>) -> tensor<1x4x8x4xi8>
  // expected-error@+1 {{slice #0 1x4x8x4 at [0, 1, 0, 0] is outside the result 1x7x8x4}}
  %0 = "npu.concat"(%a) <{offsets = [#npu.offset<0, 1, 0, 0>], strides = [1, 2, 1, 1]}> : (tensor<1x4x8x4xi8>) -> tensor<1x7x8x4xi8>
  return %0 : tensor<1x7x8x4xi8>
}

// -----

func.func @dma_format(%x: tensor<1x8x8x4xi8, #npu.fm<NHCWB16>>) -> tensor<1x8x8x4xi8> {
  // expected-error@+1 {{a DMA copies NHWC (linear) tensors only}}
  %0 = "npu.dma"(%x) : (tensor<1x8x8x4xi8, #npu.fm<NHCWB16>>) -> tensor<1x8x8x4xi8>
  return %0 : tensor<1x8x8x4xi8>
}

// -----

// expected-error@+1 {{unknown format 'NCHW'}}
func.func @fm_format(%x: tensor<1x8x8x4xi8, #npu.fm<NCHW>>) {
  return
}

// -----

func.func @kernel_key(%x: tensor<1x8x8x4xi8>) -> tensor<1x8x8x4xi8> {
  // expected-error@+1 {{#npu.kernel: unknown field 'strides'; did you mean 'stride'? (expected stride, dilation or padding)}}
  %0 = "npu.max_pool"(%x) <{kernel = #npu.kernel<1x1, strides = 1x1>}> : (tensor<1x8x8x4xi8>) -> tensor<1x8x8x4xi8>
  return %0 : tensor<1x8x8x4xi8>
}

// -----

func.func @act_kind(%x: tensor<1x8x8x4xi8>) -> tensor<1x8x8x4xi8> {
  // expected-error@+1 {{#npu.act: unknown activation 'gelu'}}
  %0 = "npu.max_pool"(%x) <{kernel = #npu.kernel<1x1>, activation = #npu.act<gelu, min = 0, max = 1>}> : (tensor<1x8x8x4xi8>) -> tensor<1x8x8x4xi8>
  return %0 : tensor<1x8x8x4xi8>
}
