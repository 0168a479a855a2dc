// npu-place-fast-storage: with a separate fast storage (Dedicated_Sram), the intermediate feature
// maps that fit the limit and are accessed most stay in SRAM; the others, and cascade results,
// return to the arena (DRAM). Each case runs the pass alone on what earlier passes left.
// RUN: %npu_opt %s --split-input-file --pass=npu-place-fast-storage --pass-remarks 2>&1 | %filecheck %s

// Two 1 KiB maps live together at time 1 but only 1500 bytes fit: the one with more element
// accesses (p1's: 1024 written, 2304 read by p2's blocks; p2's: 1024 + 1024) stays, the other
// goes back to the arena, with a remark.
// CHECK-LABEL: remark: 'p2' writes its OFM (1024 bytes, live 1..2) to the arena in Dram, not to fast storage (1500 bytes): feature maps accessed more often fill the fast storage while it lives
// CHECK-LABEL: func.func @competing
// CHECK: %[[P1:.*]] = "npu.max_pool"(%{{.*}}) {{.*}} -> tensor<1x8x8x16xi8, #npu.fm<NHCWB16, Sram>>
// CHECK: %[[P2:.*]] = "npu.max_pool"(%[[P1]]) {{.*}} -> tensor<1x8x8x16xi8, #npu.fm<NHCWB16>>
// CHECK: "npu.max_pool"(%[[P2]])
module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram", arena_cache_size = 1500>} {
  func.func @competing(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> {
    %0 = "npu.max_pool"(%x) <{name = "p1", kernel = #npu.kernel<1x1>}> {npu.time = 0 : i64} : (tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8, #npu.fm<NHCWB16, Sram>>
    %1 = "npu.max_pool"(%0) <{name = "p2", kernel = #npu.kernel<1x1>}> {npu.time = 1 : i64} : (tensor<1x8x8x16xi8, #npu.fm<NHCWB16, Sram>>) -> tensor<1x8x8x16xi8, #npu.fm<NHCWB16, Sram>>
    %2 = "npu.max_pool"(%1) <{name = "p3", kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>}> {npu.time = 2 : i64} : (tensor<1x8x8x16xi8, #npu.fm<NHCWB16, Sram>>) -> tensor<1x8x8x16xi8>
    return %2 : tensor<1x8x8x16xi8>
  }
}

// -----

// Everything fits the 4096 bytes: nothing moves.
// CHECK-LABEL: func.func @fits
// CHECK: -> tensor<1x8x8x16xi8, #npu.fm<NHCWB16, Sram>>
// CHECK: -> tensor<1x8x8x16xi8, #npu.fm<NHCWB16, Sram>>
module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram", arena_cache_size = 4096>} {
  func.func @fits(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> {
    %0 = "npu.max_pool"(%x) <{name = "p1", kernel = #npu.kernel<1x1>}> {npu.time = 0 : i64} : (tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8, #npu.fm<NHCWB16, Sram>>
    %1 = "npu.max_pool"(%0) <{name = "p2", kernel = #npu.kernel<1x1>}> {npu.time = 1 : i64} : (tensor<1x8x8x16xi8, #npu.fm<NHCWB16, Sram>>) -> tensor<1x8x8x16xi8, #npu.fm<NHCWB16, Sram>>
    %2 = "npu.max_pool"(%1) <{name = "p3", kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>}> {npu.time = 2 : i64} : (tensor<1x8x8x16xi8, #npu.fm<NHCWB16, Sram>>) -> tensor<1x8x8x16xi8>
    return %2 : tensor<1x8x8x16xi8>
  }
}

// -----

// A cascade's result (its last member's OFM) goes back to the arena; its rolling buffer stays.
// CHECK-LABEL: func.func @cascade_result
// CHECK: "npu.max_pool"(%{{.*}}) {{.*}}npu.cascade = #npu.cascade<0, rolling = 2x8x16>{{.*}} -> tensor<1x8x8x16xi8, #npu.fm<NHCWB16, Sram>>
// CHECK: "npu.max_pool"(%{{.*}}) {{.*}}npu.cascade = #npu.cascade<0>{{.*}} -> tensor<1x8x8x16xi8, #npu.fm<NHCWB16>>
module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram", arena_cache_size = 65536>} {
  func.func @cascade_result(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> {
    %0 = "npu.max_pool"(%x) <{name = "c1", kernel = #npu.kernel<1x1>}> {npu.time = 0 : i64, npu.stripe = #npu.stripe<1x8x16>, npu.cascade = #npu.cascade<0, rolling = 2x8x16>} : (tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8, #npu.fm<NHCWB16, Sram>>
    %1 = "npu.max_pool"(%0) <{name = "c2", kernel = #npu.kernel<1x1>}> {npu.time = 1 : i64, npu.stripe = #npu.stripe<1x8x16>, npu.cascade = #npu.cascade<0>} : (tensor<1x8x8x16xi8, #npu.fm<NHCWB16, Sram>>) -> tensor<1x8x8x16xi8, #npu.fm<NHCWB16, Sram>>
    %2 = "npu.max_pool"(%1) <{name = "p3", kernel = #npu.kernel<1x1>}> {npu.time = 2 : i64} : (tensor<1x8x8x16xi8, #npu.fm<NHCWB16, Sram>>) -> tensor<1x8x8x16xi8>
    return %2 : tensor<1x8x8x16xi8>
  }
}

// -----

// A cascade's result that is a part of a concatenation: the concatenation is one tensor, each
// writer its slice, so it goes back to the arena whole, its other part (written outside the
// cascade) too. (Moving the cascade's part alone left the parts in two memory areas: an IR the
// verifier refuses, which a schedule search on fire.tflite in 1,280 B of dedicated SRAM chose.)
// CHECK-LABEL: func.func @cascade_result_in_a_concat
// CHECK: npu.cascade = #npu.cascade<0, rolling = 2x8x16>{{.*}} -> tensor<1x8x8x16xi8, #npu.fm<NHCWB16, Sram>>
// CHECK: %[[A:.*]] = "npu.max_pool"(%{{.*}}) {{.*}}npu.cascade = #npu.cascade<0>{{.*}} -> tensor<1x8x8x16xi8, #npu.fm<NHCWB16>>
// CHECK: %[[B:.*]] = "npu.max_pool"(%{{.*}}) <{name = "other"{{.*}} -> tensor<1x8x8x16xi8, #npu.fm<NHCWB16>>
// CHECK: "npu.concat"(%[[A]], %[[B]]) {{.*}} -> tensor<1x8x8x32xi8, #npu.fm<NHCWB16>>
module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram", arena_cache_size = 65536>} {
  func.func @cascade_result_in_a_concat(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x32xi8> {
    %0 = "npu.max_pool"(%x) <{name = "c1", kernel = #npu.kernel<1x1>}> {npu.time = 0 : i64, npu.stripe = #npu.stripe<1x8x16>, npu.cascade = #npu.cascade<0, rolling = 2x8x16>} : (tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8, #npu.fm<NHCWB16, Sram>>
    %1 = "npu.max_pool"(%0) <{name = "c2", kernel = #npu.kernel<1x1>}> {npu.time = 1 : i64, npu.stripe = #npu.stripe<1x8x16>, npu.cascade = #npu.cascade<0>} : (tensor<1x8x8x16xi8, #npu.fm<NHCWB16, Sram>>) -> tensor<1x8x8x16xi8, #npu.fm<NHCWB16, Sram>>
    %2 = "npu.max_pool"(%x) <{name = "other", kernel = #npu.kernel<1x1>}> {npu.time = 2 : i64} : (tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8, #npu.fm<NHCWB16, Sram>>
    %3 = "npu.concat"(%1, %2) <{name = "both", offsets = [#npu.offset<0, 0, 0, 0>, #npu.offset<0, 0, 0, 16>]}> : (tensor<1x8x8x16xi8, #npu.fm<NHCWB16, Sram>>, tensor<1x8x8x16xi8, #npu.fm<NHCWB16, Sram>>) -> tensor<1x8x8x32xi8, #npu.fm<NHCWB16, Sram>>
    %4 = "npu.max_pool"(%3) <{name = "reader", kernel = #npu.kernel<1x1>}> {npu.time = 3 : i64} : (tensor<1x8x8x32xi8, #npu.fm<NHCWB16, Sram>>) -> tensor<1x8x8x32xi8>
    return %4 : tensor<1x8x8x32xi8>
  }
}

// -----

// Shared_Sram: the arena is the fast storage, nothing to decide.
// CHECK-LABEL: func.func @shared
// CHECK: -> tensor<1x8x8x16xi8, #npu.fm<NHCWB16>>
module attributes {npu.target = #npu.target<"ethos-u55-128", system_config = "Ethos_U55_High_End_Embedded", memory_mode = "Shared_Sram", arena_cache_size = 100>} {
  func.func @shared(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> {
    %0 = "npu.max_pool"(%x) <{name = "p1", kernel = #npu.kernel<1x1>}> {npu.time = 0 : i64} : (tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8, #npu.fm<NHCWB16>>
    %1 = "npu.max_pool"(%0) <{name = "p2", kernel = #npu.kernel<1x1>}> {npu.time = 1 : i64} : (tensor<1x8x8x16xi8, #npu.fm<NHCWB16>>) -> tensor<1x8x8x16xi8>
    return %1 : tensor<1x8x8x16xi8>
  }
}

// -----

// A view of a returned map moves with it: a reshape reads in place, in its source's area.
// CHECK-LABEL: func.func @cascade_result_view
// CHECK: %[[R:.*]] = "npu.max_pool"(%{{.*}}) {{.*}}npu.cascade = #npu.cascade<0>{{.*}} -> tensor<1x8x8x16xi8>
// CHECK: "npu.reshape"(%[[R]]) {{.*}} -> tensor<1x8x1x128xi8>
module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram", arena_cache_size = 65536>} {
  func.func @cascade_result_view(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x1x128xi8> {
    %0 = "npu.max_pool"(%x) <{name = "c1", kernel = #npu.kernel<1x1>}> {npu.time = 0 : i64, npu.stripe = #npu.stripe<1x8x16>, npu.cascade = #npu.cascade<0, rolling = 2x8x16>} : (tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8, #npu.fm<NHWC, Sram>>
    %1 = "npu.max_pool"(%0) <{name = "c2", kernel = #npu.kernel<1x1>}> {npu.time = 1 : i64, npu.stripe = #npu.stripe<1x8x16>, npu.cascade = #npu.cascade<0>} : (tensor<1x8x8x16xi8, #npu.fm<NHWC, Sram>>) -> tensor<1x8x8x16xi8, #npu.fm<NHWC, Sram>>
    %2 = "npu.reshape"(%1) : (tensor<1x8x8x16xi8, #npu.fm<NHWC, Sram>>) -> tensor<1x8x1x128xi8, #npu.fm<NHWC, Sram>>
    %3 = "npu.max_pool"(%2) <{name = "p3", kernel = #npu.kernel<1x1>}> {npu.time = 2 : i64} : (tensor<1x8x1x128xi8, #npu.fm<NHWC, Sram>>) -> tensor<1x8x1x128xi8>
    return %3 : tensor<1x8x1x128xi8>
  }
}
