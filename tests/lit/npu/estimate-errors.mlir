// Errors of npu-select-block-config and npu-estimate: a module without a target, an npu.block
// that does not fit the op, facts the estimate reads that no pass wrote.
// RUN: %npu_opt %s --split-input-file --verify-diagnostics -p npu-estimate
// RUN: not %npu_opt %s --split-input-file -p npu-select-block-config 2>&1 | %filecheck %s --check-prefix=SELECT

// npu-select-block-config needs the target too (on the second module it would replace the block).
// SELECT: error: the module has no 'npu.target' attribute

// expected-error@+1 {{the module has no 'npu.target' attribute}}
module {
  func.func @main(%ifm: tensor<1x8x8x16xi8>) -> tensor<1x4x4x16xi8> {
    %0 = "npu.avg_pool"(%ifm) <{kernel = #npu.kernel<2x2, stride = 2x2>}> : (tensor<1x8x8x16xi8>) -> tensor<1x4x4x16xi8>
    return %0 : tensor<1x4x4x16xi8>
  }
}

// -----

// A 32x64x128 block cannot fit ethos-u55-32's 16 SHRAM banks; npu-select-block-config replaces
// it, npu-estimate checks it.
module attributes {npu.target = #npu.target<"ethos-u55-32">} {
  func.func @main(%ifm: tensor<1x32x64x128xi8>) -> tensor<1x32x64x128xi8> {
    // expected-error@+1 {{does not fit this op on ethos-u55-32}}
    %0 = "npu.avg_pool"(%ifm) <{kernel = #npu.kernel<1x1>}> {npu.block = #npu.block<32x64x128, ifm = 32x64x128, acc = 32, traversal = depth_first>} : (tensor<1x32x64x128xi8>) -> tensor<1x32x64x128xi8>
    return %0 : tensor<1x32x64x128xi8>
  }
}

// -----

// Weight slices that stop short of the OFM depth (npu-check-schedule's rule 6) cannot be costed.
module attributes {npu.target = #npu.target<"ethos-u55-128">} {
  func.func @main(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x1x1x16xi8>}> : () -> tensor<16x1x1x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    // expected-error@+1 {{the weight slices of 'conv' end at depth 8 but its OFM depth is 16}}
    %0 = "npu.dma"(%w) {npu.stream = #npu.stream<slices = [0, 8], buffering = single, buffers = [200], bytes = 200>} : (tensor<16x1x1x16xi8>) -> tensor<16x1x1x16xi8>
    %1 = "npu.conv2d"(%x, %0, %b) <{kernel = #npu.kernel<1x1>, name = "conv"}> {npu.block = #npu.block<8x8x16, ifm = 8x8x16, acc = 32, traversal = depth_first>} : (tensor<1x8x8x16xi8>, tensor<16x1x1x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    return %1 : tensor<1x8x8x16xi8>
  }
}

// -----

// The estimate reads the schedule's facts and computes none: an op without npu.block, or a weight
// DMA without npu.stream, is an error naming the pass that writes the fact.
module attributes {npu.target = #npu.target<"ethos-u55-128">} {
  func.func @main(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x1x1x16xi8>}> : () -> tensor<16x1x1x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    // expected-error@+1 {{'conv' has no npu.block: npu-select-block-config chooses the block configurations npu-estimate reads}}
    %0 = "npu.conv2d"(%x, %w, %b) <{kernel = #npu.kernel<1x1>, name = "conv"}> : (tensor<1x8x8x16xi8>, tensor<16x1x1x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    // expected-error@+1 {{the weight DMA of 'conv2' has no npu.stream: npu-buffer-weights decides how the weights stream, npu-estimate reads it}}
    %1 = "npu.dma"(%w) : (tensor<16x1x1x16xi8>) -> tensor<16x1x1x16xi8>
    %2 = "npu.conv2d"(%0, %1, %b) <{kernel = #npu.kernel<1x1>, name = "conv2"}> {npu.block = #npu.block<8x8x16, ifm = 8x8x16, acc = 32, traversal = depth_first>} : (tensor<1x8x8x16xi8>, tensor<16x1x1x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    return %2 : tensor<1x8x8x16xi8>
  }
}
