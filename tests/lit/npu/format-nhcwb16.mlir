// npu-format-nhcwb16 gives the NHCWB16 (16-channel brick) format to the feature maps Vela stores
// that way: outputs of NPU compute ops read only by NPU compute ops. A concatenation and the parts
// written into it, or a tensor and the slices read from it, are one tensor with one format: NHCWB16
// only when every part or slice starts at a depth that is a multiple of 16 and no part is written
// with strides. Graph outputs, tensors seen through a reshape or copied by a DMA, and int32
// tensors a ReduceSum reads stay NHWC; an elementwise op with a depth not a multiple of 16 keeps
// its OFM NHWC when an input of the same shape and width is NHWC (the OFM may overwrite it).
// RUN: %npu_opt %s -p npu-format-nhcwb16 --pass-statistics -o %t.out 2> %t.stats
// RUN: %filecheck %s --input-file %t.out
// RUN: %filecheck %s --check-prefix=STATS --input-file %t.stats
// RUN: %npu_opt %s -p "npu-format-nhcwb16{enabled=false}" | %filecheck %s --check-prefix=OFF

// STATS: 'npu-format-nhcwb16'
// STATS: (S) 9 nhcwb16 - feature maps given the NHCWB16 format
// STATS: (S) 19 kept-linear - NPU op outputs kept NHWC
// OFF-NOT: #npu.fm

module attributes {npu.target = #npu.target<"ethos-u55-128", system_config = "Ethos_U55_High_End_Embedded", memory_mode = "Shared_Sram">} {
  // An internal feature map becomes NHCWB16 on its producer and its consumer (one type); the
  // graph input and output stay NHWC, and so does the function's signature.
  // CHECK-LABEL: func.func @chain
  // CHECK-SAME: (%[[IFM:.*]]: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
  // CHECK: %[[C1:.*]] = "npu.conv2d"(%[[IFM]], {{.*}}name = "conv1"}> : ({{.*}}) -> tensor<1x8x8x16xi8, #npu.fm<NHCWB16>>
  // CHECK: %[[C2:.*]] = "npu.conv2d"(%[[C1]], {{.*}}name = "conv2"}> : (tensor<1x8x8x16xi8, #npu.fm<NHCWB16>>, {{.*}}) -> tensor<1x8x8x16xi8>
  // CHECK: return %[[C2]] : tensor<1x8x8x16xi8>
  func.func @chain(%ifm: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x1x1x16xi8>}> : () -> tensor<16x1x1x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %0 = "npu.conv2d"(%ifm, %w, %b) <{kernel = #npu.kernel<1x1>, name = "conv1"}> : (tensor<1x8x8x16xi8>, tensor<16x1x1x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %1 = "npu.conv2d"(%0, %w, %b) <{kernel = #npu.kernel<1x1>, name = "conv2"}> : (tensor<1x8x8x16xi8>, tensor<16x1x1x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    return %1 : tensor<1x8x8x16xi8>
  }

  // A reshape sees the tensor with another shape, a DMA copies linear data: both inputs stay NHWC.
  // CHECK-LABEL: func.func @views
  // CHECK: %[[R:.*]] = "npu.conv2d"({{.*}}name = "to_reshape"}> : ({{.*}}) -> tensor<1x8x8x16xi8>
  // CHECK-NEXT: "npu.reshape"(%[[R]]) : (tensor<1x8x8x16xi8>) -> tensor<1x1024xi8>
  // CHECK: %[[D:.*]] = "npu.conv2d"({{.*}}name = "to_dma"}> : ({{.*}}) -> tensor<1x8x8x16xi8>
  // CHECK-NEXT: "npu.dma"(%[[D]]) : (tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
  func.func @views(%ifm: tensor<1x8x8x16xi8>) -> (tensor<1x1024xi8>, tensor<1x8x8x16xi8>) {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x1x1x16xi8>}> : () -> tensor<16x1x1x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %0 = "npu.conv2d"(%ifm, %w, %b) <{kernel = #npu.kernel<1x1>, name = "to_reshape"}> : (tensor<1x8x8x16xi8>, tensor<16x1x1x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %1 = "npu.reshape"(%0) : (tensor<1x8x8x16xi8>) -> tensor<1x1024xi8>
    %2 = "npu.conv2d"(%ifm, %w, %b) <{kernel = #npu.kernel<1x1>, name = "to_dma"}> : (tensor<1x8x8x16xi8>, tensor<16x1x1x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %3 = "npu.dma"(%2) : (tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
    return %1, %3 : tensor<1x1024xi8>, tensor<1x8x8x16xi8>
  }

  // Depth 8 with an NHWC input of the same shape: NHWC. Depth 16: NHCWB16, except the int32
  // tensor the ReduceSum reads.
  // CHECK-LABEL: func.func @elementwise
  // CHECK: "npu.add"({{.*}}name = "in_place"}> : ({{.*}}) -> tensor<1x4x4x8xi32>
  // CHECK: "npu.add"({{.*}}name = "deep"}> : ({{.*}}) -> tensor<1x4x4x16xi32, #npu.fm<NHCWB16>>
  // CHECK: %[[A16:.*]] = "npu.abs"({{.*}}name = "abs16"}> : ({{.*}}) -> tensor<1x4x4x16xi32>
  // CHECK-NEXT: "npu.reduce_sum"(%[[A16]])
  func.func @elementwise(%x: tensor<1x4x4x8xi32>, %y: tensor<1x4x4x16xi32>) -> (tensor<1x4x4x8xi32>, tensor<1x4x4x1xi32>) {
    %0 = "npu.add"(%x, %x) <{name = "in_place"}> : (tensor<1x4x4x8xi32>, tensor<1x4x4x8xi32>) -> tensor<1x4x4x8xi32>
    %1 = "npu.abs"(%0) <{name = "abs"}> : (tensor<1x4x4x8xi32>) -> tensor<1x4x4x8xi32>
    %2 = "npu.add"(%y, %y) <{name = "deep"}> : (tensor<1x4x4x16xi32>, tensor<1x4x4x16xi32>) -> tensor<1x4x4x16xi32>
    %3 = "npu.abs"(%2) <{name = "abs16"}> : (tensor<1x4x4x16xi32>) -> tensor<1x4x4x16xi32>
    %4 = "npu.reduce_sum"(%3) <{name = "sum"}> : (tensor<1x4x4x16xi32>) -> tensor<1x4x4x1xi32>
    return %1, %4 : tensor<1x4x4x8xi32>, tensor<1x4x4x1xi32>
  }

  // Depth 8 whose inputs are already NHCWB16 (a convolution's output): NHCWB16 too.
  // CHECK-LABEL: func.func @brick_inputs
  // CHECK: %[[C:.*]] = "npu.conv2d"({{.*}}name = "conv8"}> : ({{.*}}) -> tensor<1x4x4x8xi8, #npu.fm<NHCWB16>>
  // CHECK: "npu.add"(%[[C]], %[[C]]) <{name = "sum8"}> : ({{.*}}) -> tensor<1x4x4x8xi8, #npu.fm<NHCWB16>>
  func.func @brick_inputs(%ifm: tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8> {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<8x1x1x8xi8>}> : () -> tensor<8x1x1x8xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<8xi32>}> : () -> tensor<8xi32>
    %0 = "npu.conv2d"(%ifm, %w, %b) <{kernel = #npu.kernel<1x1>, name = "conv8"}> : (tensor<1x4x4x8xi8>, tensor<8x1x1x8xi8>, tensor<8xi32>) -> tensor<1x4x4x8xi8>
    %1 = "npu.add"(%0, %0) <{name = "sum8"}> : (tensor<1x4x4x8xi8>, tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8>
    %2 = "npu.abs"(%1) <{name = "out"}> : (tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8>
    return %2 : tensor<1x4x4x8xi8>
  }

  // Parts written at depths 0 and 16: the concatenation, both parts and the 16x16 reader are
  // NHCWB16 (the 5-channel copy too: it writes a whole brick row of the result).
  // CHECK-LABEL: func.func @concat_on_bricks
  // CHECK: %[[P0:.*]] = "npu.avg_pool"{{.*}}name = "part0"}> : ({{.*}}) -> tensor<1x4x4x16xi8, #npu.fm<NHCWB16>>
  // CHECK: %[[P1:.*]] = "npu.avg_pool"{{.*}}name = "part1"}> : ({{.*}}) -> tensor<1x4x4x5xi8, #npu.fm<NHCWB16>>
  // CHECK: %[[CAT:.*]] = "npu.concat"(%[[P0]], %[[P1]]) {{.*}} -> tensor<1x4x4x21xi8, #npu.fm<NHCWB16>>
  // CHECK: "npu.conv2d"(%[[CAT]], {{.*}}name = "reader"}> : (tensor<1x4x4x21xi8, #npu.fm<NHCWB16>>
  func.func @concat_on_bricks(%a: tensor<1x4x4x16xi8>, %b: tensor<1x4x4x5xi8>) -> tensor<1x4x4x16xi8> {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x1x1x21xi8>}> : () -> tensor<16x1x1x21xi8>
    %bias = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %0 = "npu.avg_pool"(%a) <{kernel = #npu.kernel<1x1>, name = "part0"}> : (tensor<1x4x4x16xi8>) -> tensor<1x4x4x16xi8>
    %1 = "npu.avg_pool"(%b) <{kernel = #npu.kernel<1x1>, name = "part1"}> : (tensor<1x4x4x5xi8>) -> tensor<1x4x4x5xi8>
    %2 = "npu.concat"(%0, %1) <{offsets = [#npu.offset<0, 0, 0, 0>, #npu.offset<0, 0, 0, 16>]}> : (tensor<1x4x4x16xi8>, tensor<1x4x4x5xi8>) -> tensor<1x4x4x21xi8>
    %3 = "npu.conv2d"(%2, %w, %bias) <{kernel = #npu.kernel<1x1>, name = "reader"}> : (tensor<1x4x4x21xi8>, tensor<16x1x1x21xi8>, tensor<16xi32>) -> tensor<1x4x4x16xi8>
    return %3 : tensor<1x4x4x16xi8>
  }

  // A part written at depth 8 would split a brick: the whole concatenation stays NHWC.
  // CHECK-LABEL: func.func @concat_off_bricks
  // CHECK: "npu.avg_pool"{{.*}}name = "low"}> : ({{.*}}) -> tensor<1x4x4x8xi8>
  // CHECK: "npu.avg_pool"{{.*}}name = "high"}> : ({{.*}}) -> tensor<1x4x4x8xi8>
  // CHECK: "npu.concat"{{.*}} -> tensor<1x4x4x16xi8>
  func.func @concat_off_bricks(%a: tensor<1x4x4x8xi8>) -> tensor<1x4x4x16xi8> {
    %0 = "npu.avg_pool"(%a) <{kernel = #npu.kernel<1x1>, name = "low"}> : (tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8>
    %1 = "npu.avg_pool"(%a) <{kernel = #npu.kernel<1x1>, name = "high"}> : (tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8>
    %2 = "npu.concat"(%0, %1) <{offsets = [#npu.offset<0, 0, 0, 0>, #npu.offset<0, 0, 0, 8>]}> : (tensor<1x4x4x8xi8>, tensor<1x4x4x8xi8>) -> tensor<1x4x4x16xi8>
    %3 = "npu.abs"(%2) <{name = "out"}> : (tensor<1x4x4x16xi8>) -> tensor<1x4x4x16xi8>
    return %3 : tensor<1x4x4x16xi8>
  }

  // Along the width every part starts at depth 0: NHCWB16.
  // CHECK-LABEL: func.func @concat_width
  // CHECK: "npu.avg_pool"{{.*}}name = "left"}> : ({{.*}}) -> tensor<1x4x3x8xi8, #npu.fm<NHCWB16>>
  // CHECK: "npu.avg_pool"{{.*}}name = "right"}> : ({{.*}}) -> tensor<1x4x5x8xi8, #npu.fm<NHCWB16>>
  // CHECK: "npu.concat"{{.*}} -> tensor<1x4x8x8xi8, #npu.fm<NHCWB16>>
  func.func @concat_width(%a: tensor<1x4x3x8xi8>, %b: tensor<1x4x5x8xi8>) -> tensor<1x4x8x8xi8> {
    %0 = "npu.avg_pool"(%a) <{kernel = #npu.kernel<1x1>, name = "left"}> : (tensor<1x4x3x8xi8>) -> tensor<1x4x3x8xi8>
    %1 = "npu.avg_pool"(%b) <{kernel = #npu.kernel<1x1>, name = "right"}> : (tensor<1x4x5x8xi8>) -> tensor<1x4x5x8xi8>
    %2 = "npu.concat"(%0, %1) <{offsets = [#npu.offset<0, 0, 0, 0>, #npu.offset<0, 0, 3, 0>]}> : (tensor<1x4x3x8xi8>, tensor<1x4x5x8xi8>) -> tensor<1x4x8x8xi8>
    %3 = "npu.abs"(%2) <{name = "out"}> : (tensor<1x4x8x8xi8>) -> tensor<1x4x8x8xi8>
    return %3 : tensor<1x4x8x8xi8>
  }

  // Slices read at depth 0 (and at rows 2..5): the sliced tensor and its window are NHCWB16. A
  // slice read at depth 12 keeps the other tensor NHWC.
  // CHECK-LABEL: func.func @slices
  // CHECK: %[[S:.*]] = "npu.avg_pool"{{.*}}name = "sliced"}> : ({{.*}}) -> tensor<1x8x8x24xi8, #npu.fm<NHCWB16>>
  // CHECK: "npu.slice"(%[[S]]) {{.*}} -> tensor<1x4x8x24xi8, #npu.fm<NHCWB16>>
  // CHECK: %[[O:.*]] = "npu.avg_pool"{{.*}}name = "split"}> : ({{.*}}) -> tensor<1x8x8x24xi8>
  // CHECK: "npu.slice"(%[[O]]) {{.*}} -> tensor<1x8x8x12xi8>
  func.func @slices(%a: tensor<1x8x8x24xi8>) -> (tensor<1x4x8x24xi8>, tensor<1x8x8x12xi8>) {
    %0 = "npu.avg_pool"(%a) <{kernel = #npu.kernel<1x1>, name = "sliced"}> : (tensor<1x8x8x24xi8>) -> tensor<1x8x8x24xi8>
    %1 = "npu.slice"(%0) <{offset = #npu.offset<0, 2, 0, 0>}> : (tensor<1x8x8x24xi8>) -> tensor<1x4x8x24xi8>
    %2 = "npu.abs"(%1) <{name = "rows"}> : (tensor<1x4x8x24xi8>) -> tensor<1x4x8x24xi8>
    %3 = "npu.avg_pool"(%a) <{kernel = #npu.kernel<1x1>, name = "split"}> : (tensor<1x8x8x24xi8>) -> tensor<1x8x8x24xi8>
    %4 = "npu.slice"(%3) <{offset = #npu.offset<0, 0, 0, 12>}> : (tensor<1x8x8x24xi8>) -> tensor<1x8x8x12xi8>
    %5 = "npu.abs"(%4) <{name = "upper"}> : (tensor<1x8x8x12xi8>) -> tensor<1x8x8x12xi8>
    return %2, %5 : tensor<1x4x8x24xi8>, tensor<1x8x8x12xi8>
  }

  // Parts written with strides (interleaved rows, as a half-pixel bilinear resize writes them)
  // need linear data: NHWC.
  // CHECK-LABEL: func.func @concat_strided
  // CHECK: "npu.avg_pool"{{.*}}name = "even"}> : ({{.*}}) -> tensor<1x2x4x16xi8>
  // CHECK: "npu.avg_pool"{{.*}}name = "odd"}> : ({{.*}}) -> tensor<1x2x4x16xi8>
  // CHECK: "npu.concat"{{.*}} -> tensor<1x4x4x16xi8>
  func.func @concat_strided(%a: tensor<1x2x4x16xi8>) -> tensor<1x4x4x16xi8> {
    %0 = "npu.avg_pool"(%a) <{kernel = #npu.kernel<1x1>, name = "even"}> : (tensor<1x2x4x16xi8>) -> tensor<1x2x4x16xi8>
    %1 = "npu.avg_pool"(%a) <{kernel = #npu.kernel<1x1>, name = "odd"}> : (tensor<1x2x4x16xi8>) -> tensor<1x2x4x16xi8>
    %2 = "npu.concat"(%0, %1) <{offsets = [#npu.offset<0, 0, 0, 0>, #npu.offset<0, 1, 0, 0>], strides = [1, 2, 1, 1]}> : (tensor<1x2x4x16xi8>, tensor<1x2x4x16xi8>) -> tensor<1x4x4x16xi8>
    %3 = "npu.abs"(%2) <{name = "out"}> : (tensor<1x4x4x16xi8>) -> tensor<1x4x4x16xi8>
    return %3 : tensor<1x4x4x16xi8>
  }
}
