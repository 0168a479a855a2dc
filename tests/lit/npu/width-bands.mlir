// npu-width-bands: a chain of windowed ops (each OFM read only by the next op, as its IFM) cut
// into column bands. Each band is a copy of the chain on narrower feature maps: its first op
// reads a slice of the chain's IFM (with the halo its windows need), each op keeps the padding of
// the true image edge it meets only, and the last ops write their columns of one concatenation
// that stands for the chain's OFM; each band's ops carry npu.band. npu-exec and npu-check-schedule runs: tests/unit/passes/schedule/test_width_bands.py.
// RUN: %npu_opt %s --split-input-file --pass='npu-width-bands{bands=2}' --pass-statistics -o %t.mlir 2> %t.stats
// RUN: %filecheck %s --input-file %t.mlir
// RUN: %filecheck %s --check-prefix=STATS --input-file %t.stats
// RUN: %npu_opt %s --split-input-file --pass='npu-width-bands{bands=2}' --verify-diagnostics -o /dev/null
// One band (the default without npu.schedule's width_bands) changes nothing.
// RUN: %npu_opt %s --split-input-file --pass=npu-width-bands | %filecheck %s --check-prefix=ONE
// RUN: not %npu_opt %s --split-input-file --pass='npu-width-bands{bands=-2}' -o /dev/null 2>&1 | %filecheck %s --check-prefix=BAD
// RUN: not %npu_opt %S/../Inputs/width-bands-untimed.mlir --pass='npu-width-bands{bands=2}' -o /dev/null 2>&1 | %filecheck %s --check-prefix=UNTIMED

// STATS: (S) 1 chains - chains of windowed ops cut into column bands
// STATS: (S) 2 bands - bands made
// STATS: (S) 0 chains
// UNTIMED: width-bands-untimed.mlir:4:3: error: cannot split into column bands: 'npu.max_pool' has no integer npu.time while other ops of its function do
// BAD: error: bands and max-overhead must not be negative and min-width must be at least 1 (bands = -2, min-width = 8, max-overhead = 25)
// ONE-LABEL: func.func @chain
// ONE-NOT: npu.slice
// ONE: name = "conv"
// ONE: name = "pool"

// A 3x3 conv and a 3x3 max pool, 20 columns: bands of 10 OFM columns; the conv computes one
// halo column more per band (11), and reads IFM columns 0..12 and 8..20.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[IFM:.*]]: tensor<1x8x20x16xi8>)
// CHECK: %[[W:.*]] = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}>
// CHECK: %[[B:.*]] = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}>
// CHECK: %[[S0:.*]] = "npu.slice"(%[[IFM]]) <{offset = #npu.offset<0, 0, 0, 0>}> : (tensor<1x8x20x16xi8>) -> tensor<1x8x12x16xi8>
// CHECK: %[[C0:.*]] = "npu.conv2d"(%[[S0]], %[[W]], %[[B]]) <{kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [1, 1, 1, 0]>, name = "conv_band0"}> {npu.band = 0 : i64} : {{.*}} -> tensor<1x8x11x16xi8>
// CHECK: %[[P0:.*]] = "npu.max_pool"(%[[C0]]) <{kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [1, 1, 1, 0]>, name = "pool_band0"}> {npu.band = 0 : i64} : (tensor<1x8x11x16xi8>) -> tensor<1x8x10x16xi8>
// CHECK: %[[S1:.*]] = "npu.slice"(%[[IFM]]) <{offset = #npu.offset<0, 0, 8, 0>}> : (tensor<1x8x20x16xi8>) -> tensor<1x8x12x16xi8>
// CHECK: %[[C1:.*]] = "npu.conv2d"(%[[S1]], %[[W]], %[[B]]) <{kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [1, 0, 1, 1]>, name = "conv_band1"}> {npu.band = 1 : i64}
// CHECK: %[[P1:.*]] = "npu.max_pool"(%[[C1]]) <{kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [1, 0, 1, 1]>, name = "pool_band1"}> {npu.band = 1 : i64}
// CHECK: %[[CAT:.*]] = "npu.concat"(%[[P0]], %[[P1]]) <{offsets = [#npu.offset<0, 0, 0, 0>, #npu.offset<0, 0, 10, 0>]}> : (tensor<1x8x10x16xi8>, tensor<1x8x10x16xi8>) -> tensor<1x8x20x16xi8>
// CHECK: return %[[CAT]]
module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram_384KB">} {
  func.func @chain(%ifm: tensor<1x8x20x16xi8>) -> tensor<1x8x20x16xi8> {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %0 = "npu.conv2d"(%ifm, %w, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "conv"}> : (tensor<1x8x20x16xi8>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x20x16xi8>
    // expected-remark@+1 {{the chain of 2 ops from 'conv' to 'pool' runs in 2 column bands of 10, 10 OFM columns; the first op reads IFM columns 0..12, 8..20}}
    %1 = "npu.max_pool"(%0) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "pool"}> : (tensor<1x8x20x16xi8>) -> tensor<1x8x20x16xi8>
    return %1 : tensor<1x8x20x16xi8>
  }
}

// -----

// An OFM read twice is no chain link: the conv's OFM feeds the pool and the add, so nothing is
// cut (a chain needs two ops); and a chain whose OFM is too narrow for two bands stays whole.
// CHECK-LABEL: func.func @branch
// CHECK-NOT: npu.slice
// CHECK: "npu.conv2d"
// CHECK: "npu.max_pool"
// CHECK: "npu.add"
// CHECK-LABEL: func.func @narrow
// CHECK-NOT: npu.slice
module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram_384KB">} {
  func.func @branch(%ifm: tensor<1x8x20x16xi8>) -> tensor<1x8x20x16xi8> {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %0 = "npu.conv2d"(%ifm, %w, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "conv"}> : (tensor<1x8x20x16xi8>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x20x16xi8>
    %1 = "npu.max_pool"(%0) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "pool"}> : (tensor<1x8x20x16xi8>) -> tensor<1x8x20x16xi8>
    %2 = "npu.add"(%0, %1) <{name = "add"}> : (tensor<1x8x20x16xi8>, tensor<1x8x20x16xi8>) -> tensor<1x8x20x16xi8>
    return %2 : tensor<1x8x20x16xi8>
  }
  func.func @narrow(%ifm: tensor<1x8x12x16xi8>) -> tensor<1x8x12x16xi8> {
    %0 = "npu.max_pool"(%ifm) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "pool1"}> : (tensor<1x8x12x16xi8>) -> tensor<1x8x12x16xi8>
    %1 = "npu.max_pool"(%0) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "pool2"}> : (tensor<1x8x12x16xi8>) -> tensor<1x8x12x16xi8>
    return %1 : tensor<1x8x12x16xi8>
  }
}
