// The npu ops and attributes: every op parses, verifies, prints canonically and round-trips
// through the generic form; the #npu.* attributes print in full.
// RUN: %npu_opt %s --split-input-file | %filecheck %s
// RUN: %roundtrip
// RUN: %fixedpoint

// CHECK-LABEL: func.func @mac
// CHECK: %[[C:.*]] = "npu.conv2d"(%[[X:.*]], %[[W:.*]], %[[B:.*]]) <{name = "conv", kernel = #npu.kernel<3x3, stride = 2x2, dilation = 1x1, padding = [0, 0, 1, 1]>, activation = #npu.act<relu, min = -1, max = 127>}>
// CHECK-SAME: -> tensor<1x4x4x8xi8, #npu.fm<NHCWB16>>
// CHECK: %[[D:.*]] = "npu.depthwise_conv2d"(%[[C]], %[[DW:.*]], %[[B]]) <{kernel = #npu.kernel<3x3, stride = 1x1, dilation = 2x2, padding = [2, 2, 2, 2]>, resampling = "none"}>
// CHECK: %[[T:.*]] = "npu.transpose_conv2d"(%[[D]], %[[TW:.*]], %[[B]]) <{kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [2, 2, 0, 0]>, resampling = "transpose"}>
// CHECK: %[[V:.*]] = "npu.vector_product"(%[[T]], %[[FW:.*]], %[[B]])
// CHECK-SAME: -> tensor<1x8x8x8xi8, #npu.fm<NHWC, Sram>>
func.func @mac(%x: tensor<1x8x8x4xi8>, %w: tensor<8x3x3x4xi8>, %b: tensor<8xi32>, %dw: tensor<1x3x3x8xi8>,
               %tw: tensor<8x3x3x8xi8>, %fw: tensor<8x8xi8>) -> tensor<1x8x8x8xi8, #npu.fm<NHWC, Sram>> {
  %c = "npu.conv2d"(%x, %w, %b) <{name = "conv", kernel = #npu.kernel<3x3, stride = 2x2, padding = [0, 0, 1, 1]>, activation = #npu.act<relu, min = -1, max = 127>}> : (tensor<1x8x8x4xi8>, tensor<8x3x3x4xi8>, tensor<8xi32>) -> tensor<1x4x4x8xi8, #npu.fm<NHCWB16>>
  %d = "npu.depthwise_conv2d"(%c, %dw, %b) <{kernel = #npu.kernel<3x3, dilation = 2x2, padding = [2, 2, 2, 2]>, resampling = "none"}> : (tensor<1x4x4x8xi8, #npu.fm<NHCWB16>>, tensor<1x3x3x8xi8>, tensor<8xi32>) -> tensor<1x4x4x8xi8>
  %t = "npu.transpose_conv2d"(%d, %tw, %b) <{kernel = #npu.kernel<3x3, padding = [2, 2, 0, 0]>, resampling = "transpose"}> : (tensor<1x4x4x8xi8>, tensor<8x3x3x8xi8>, tensor<8xi32>) -> tensor<1x8x8x8xi8>
  %v = "npu.vector_product"(%t, %fw, %b) : (tensor<1x8x8x8xi8>, tensor<8x8xi8>, tensor<8xi32>) -> tensor<1x8x8x8xi8, #npu.fm<NHWC, Sram>>
  return %v : tensor<1x8x8x8xi8, #npu.fm<NHWC, Sram>>
}

// -----

// CHECK-LABEL: func.func @pool
// CHECK: %[[A:.*]] = "npu.avg_pool"(%[[X:.*]]) <{kernel = #npu.kernel<2x2, stride = 2x2, dilation = 1x1, padding = [0, 0, 0, 0]>, rescale = #npu.rescale<multiplier = 1073741824, shift = 30>, rounding = "away_zero"}>
// CHECK: %[[M:.*]] = "npu.max_pool"(%[[A]], %[[L:.*]]) <{kernel = #npu.kernel<1x1, stride = 1x1, dilation = 1x1, padding = [0, 0, 0, 0]>, activation = #npu.act<lut, min = -128, max = 127>, output_quant = !quant.uniform<i8:f32, 0.5>}>
// CHECK: "npu.reduce_sum"(%[[M]]) : (tensor<1x4x4x8xi8>) -> tensor<1x4x4x1xi32>
func.func @pool(%x: tensor<1x8x8x8xi8>, %lut: tensor<256xi8>) -> tensor<1x4x4x1xi32> {
  %a = "npu.avg_pool"(%x) <{kernel = #npu.kernel<2x2, stride = 2x2>, rescale = #npu.rescale<multiplier = 1073741824, shift = 30>, rounding = "away_zero"}> : (tensor<1x8x8x8xi8>) -> tensor<1x4x4x8xi8>
  %m = "npu.max_pool"(%a, %lut) <{kernel = #npu.kernel<1x1>, activation = #npu.act<lut, min = -128, max = 127>, output_quant = !quant.uniform<i8:f32, 0.5>}> : (tensor<1x4x4x8xi8>, tensor<256xi8>) -> tensor<1x4x4x8xi8>
  %s = "npu.reduce_sum"(%m) : (tensor<1x4x4x8xi8>) -> tensor<1x4x4x1xi32>
  return %s : tensor<1x4x4x1xi32>
}

// -----

// Binary ops with a full, a broadcast and a scalar second operand; unary ops; a table lookup.
// CHECK-LABEL: func.func @elementwise
// CHECK: %[[S:.*]] = "tfl.pseudo_const"() <{value = dense<3> : tensor<i32>}>
// CHECK: %[[ADD:.*]] = "npu.add"(%[[X:.*]], %[[Y:.*]]) : (tensor<1x4x4x8xi32>, tensor<1x4x4x8xi32>) -> tensor<1x4x4x8xi32>
// CHECK: %[[SUB:.*]] = "npu.sub"(%[[ADD]], %[[C:.*]]) : (tensor<1x4x4x8xi32>, tensor<1x1x1x8xi32>) -> tensor<1x4x4x8xi32>
// CHECK: %[[MUL:.*]] = "npu.mul"(%[[S]], %[[SUB]]) : (tensor<i32>, tensor<1x4x4x8xi32>) -> tensor<1x4x4x8xi32>
// CHECK: %[[MIN:.*]] = "npu.minimum"(%[[MUL]], %[[P:.*]]) : (tensor<1x4x4x8xi32>, tensor<1x4x4x1xi32>)
// CHECK: %[[MAX:.*]] = "npu.maximum"(%[[MIN]], %[[MIN]])
// CHECK: %[[SHL:.*]] = "npu.shl"(%[[MAX]], %[[S]])
// CHECK: %[[SHR:.*]] = "npu.shr"(%[[SHL]], %[[S]])
// CHECK: %[[ABS:.*]] = "npu.abs"(%[[SHR]])
// CHECK: %[[CLZ:.*]] = "npu.clz"(%[[ABS]])
// CHECK: %[[NARROW:.*]] = "npu.avg_pool"(%[[CLZ]])
// CHECK: %[[LRELU:.*]] = "npu.leaky_relu"(%[[NARROW]]) <{alpha = 0.1 : f32}>
// CHECK: "npu.lut"(%[[LRELU]], %[[T:.*]]) <{name = "t", activation = #npu.act<lut, min = -128, max = 127>, function = "tanh"}>
func.func @elementwise(%x: tensor<1x4x4x8xi32>, %y: tensor<1x4x4x8xi32>, %c: tensor<1x1x1x8xi32>, %p: tensor<1x4x4x1xi32>,
                       %t: tensor<256xi8>) -> tensor<1x4x4x8xi8> {
  %s = "tfl.pseudo_const"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
  %0 = "npu.add"(%x, %y) : (tensor<1x4x4x8xi32>, tensor<1x4x4x8xi32>) -> tensor<1x4x4x8xi32>
  %1 = "npu.sub"(%0, %c) : (tensor<1x4x4x8xi32>, tensor<1x1x1x8xi32>) -> tensor<1x4x4x8xi32>
  %2 = "npu.mul"(%s, %1) : (tensor<i32>, tensor<1x4x4x8xi32>) -> tensor<1x4x4x8xi32>
  %3 = "npu.minimum"(%2, %p) : (tensor<1x4x4x8xi32>, tensor<1x4x4x1xi32>) -> tensor<1x4x4x8xi32>
  %4 = "npu.maximum"(%3, %3) : (tensor<1x4x4x8xi32>, tensor<1x4x4x8xi32>) -> tensor<1x4x4x8xi32>
  %5 = "npu.shl"(%4, %s) : (tensor<1x4x4x8xi32>, tensor<i32>) -> tensor<1x4x4x8xi32>
  %6 = "npu.shr"(%5, %s) : (tensor<1x4x4x8xi32>, tensor<i32>) -> tensor<1x4x4x8xi32>
  %7 = "npu.abs"(%6) : (tensor<1x4x4x8xi32>) -> tensor<1x4x4x8xi32>
  %8 = "npu.clz"(%7) : (tensor<1x4x4x8xi32>) -> tensor<1x4x4x8xi32>
  %9 = "npu.avg_pool"(%8) <{kernel = #npu.kernel<1x1>}> : (tensor<1x4x4x8xi32>) -> tensor<1x4x4x8xi8>
  %10 = "npu.leaky_relu"(%9) <{alpha = 0.1 : f32}> : (tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8>
  %11 = "npu.lut"(%10, %t) <{name = "t", activation = #npu.act<lut, min = -128, max = 127>, function = "tanh"}> : (tensor<1x4x4x8xi8>, tensor<256xi8>) -> tensor<1x4x4x8xi8>
  return %11 : tensor<1x4x4x8xi8>
}

// -----

// Views and copies: a reshape, a slice, two producers writing into one concatenation, a DMA
// into SRAM.
// CHECK-LABEL: func.func @memory
// CHECK: %[[R:.*]] = "npu.reshape"(%[[X:.*]]) : (tensor<1x64xi8>) -> tensor<1x4x4x4xi8>
// CHECK: %[[S:.*]] = "npu.slice"(%[[R]]) <{offset = #npu.offset<0, 2, 0, 0>}> : (tensor<1x4x4x4xi8>) -> tensor<1x2x4x4xi8>
// CHECK: %[[A:.*]] = "npu.avg_pool"(%[[R]])
// CHECK: %[[B:.*]] = "npu.avg_pool"(%[[S]])
// CHECK: %[[CAT:.*]] = "npu.concat"(%[[A]], %[[B]]) <{offsets = [#npu.offset<0, 0, 0, 0>, #npu.offset<0, 0, 0, 4>]}>
// CHECK: %[[D:.*]] = "npu.dma"(%[[CAT]]) <{name = "copy"}> : (tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8, #npu.fm<NHWC, Sram>>
func.func @memory(%x: tensor<1x64xi8>) -> (tensor<1x4x4x8xi8, #npu.fm<NHWC, Sram>>) {
  %r = "npu.reshape"(%x) : (tensor<1x64xi8>) -> tensor<1x4x4x4xi8>
  %s = "npu.slice"(%r) <{offset = #npu.offset<0, 2, 0, 0>}> : (tensor<1x4x4x4xi8>) -> tensor<1x2x4x4xi8>
  %a = "npu.avg_pool"(%r) <{kernel = #npu.kernel<1x1>}> : (tensor<1x4x4x4xi8>) -> tensor<1x4x4x4xi8>
  %b = "npu.avg_pool"(%s) <{kernel = #npu.kernel<1x1, padding = [1, 0, 1, 0]>}> : (tensor<1x2x4x4xi8>) -> tensor<1x4x4x4xi8>
  %cat = "npu.concat"(%a, %b) <{offsets = [#npu.offset<0, 0, 0, 0>, #npu.offset<0, 0, 0, 4>]}> : (tensor<1x4x4x4xi8>, tensor<1x4x4x4xi8>) -> tensor<1x4x4x8xi8>
  %d = "npu.dma"(%cat) <{name = "copy"}> : (tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8, #npu.fm<NHWC, Sram>>
  return %d : tensor<1x4x4x8xi8, #npu.fm<NHWC, Sram>>
}
