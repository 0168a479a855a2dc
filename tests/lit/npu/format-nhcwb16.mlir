// npu-format-nhcwb16 gives the NHCWB16 (16-channel brick) format to the feature maps Vela stores
// that way: outputs of NPU compute ops read only by NPU compute ops. Graph outputs, tensors seen
// through a memory-only view or copied by a DMA, and int32 tensors a ReduceSum reads stay NHWC; an
// elementwise op with a depth not a multiple of 16 keeps its OFM NHWC when an input of the same
// shape and width is NHWC (the OFM may overwrite it in place).
// RUN: %npu_opt %s -p npu-format-nhcwb16 | %filecheck %s
// RUN: %npu_opt %s -p npu-format-nhcwb16 --pass-statistics -o /dev/null 2>&1 | %filecheck %s --check-prefix=STATS
// RUN: %npu_opt %s -p "npu-format-nhcwb16{enabled=false}" | %filecheck %s --check-prefix=OFF

// STATS: 'npu-format-nhcwb16'
// STATS: (S) 4 nhcwb16 - feature maps given the NHCWB16 format
// STATS: (S) 8 kept-linear - NPU op outputs kept NHWC
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
}
