// npu-form-cascades groups chains of ops into cascades (Vela 5.2 legacy): MIN stripes, the greedy
// builder under the SRAM target, stripe growth; it writes npu.stripe and npu.cascade on the
// members and says with --pass-remarks why each chain stops. Inputs hold npu-order's times and
// npu-format-nhcwb16/npu-place-tensors' formats and areas; the SRAM target is the module's
// npu.schedule sram_target.
// RUN: %npu_opt %s --split-input-file --pass=npu-form-cascades --pass-remarks -o %t.out 2> %t.diag
// RUN: %filecheck %s --input-file %t.out
// RUN: %filecheck %s --check-prefix=REMARK --input-file %t.diag
// RUN: %npu_opt %s --split-input-file --pass=npu-form-cascades --pass-statistics -o /dev/null 2>&1 | %filecheck %s --check-prefix=STATS
// RUN: %npu_opt %s --split-input-file --pass='npu-form-cascades{optimise=Size}' | %filecheck %s --check-prefix=SIZE

// Dedicated SRAM: 'a' and 'b' cascade ('b' alone needs 16384 bytes, over 16000); 'c' fits whole.
// Stripes grow to half the OFM (16 rows); a's OFM rolls in 16 + 18 rows, rounded to 18-row windows.
// CHECK-LABEL: func.func @chain
// CHECK: %[[A:.*]] = "npu.avg_pool"(%{{.*}}){{.*}}npu.stripe = #npu.stripe<16x16x16>, npu.cascade = #npu.cascade<0, rolling = 36x16x16>
// CHECK: %[[B:.*]] = "npu.max_pool"(%[[A]]){{.*}}npu.stripe = #npu.stripe<16x16x16>, npu.cascade = #npu.cascade<0>}
// CHECK: "npu.max_pool"(%[[B]]){{.*}}{npu.time = 2 : i64}
// REMARK: remark: stripe growth of the cascade 'a_avgpool'..'b': final stripe 16 rows; stopped: the last proposal (16 rows) is half the OFM height or more
// REMARK: remark: cascade of 2 ops from 'a_avgpool' to 'b': final stripe 16 rows, 9216 bytes of rolling buffers, 9216 bytes of fast storage
// REMARK: remark: cascading stops at 'b': 'c' fits uncascaded (10240 bytes, under the limit of 16000 bytes): everything fits
// REMARK: remark: cascading stops at 'c': its OFM has no consumer in this NPU run
module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram_384KB">, npu.schedule = #npu.schedule<Performance, arena_cache_size = 393216, sram_target = 16000>} {
  func.func @chain(%arg0: tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x16x8x16x!quant.uniform<i8:f32, 0.5>> {
    %0 = "npu.avg_pool"(%arg0) <{name = "a_avgpool", activation = #npu.act<relu, min = 0, max = 127>, kernel = #npu.kernel<1x1, stride = 1x1, dilation = 1x1, padding = [0, 0, 0, 0]>}> {npu.time = 0 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %1 = "npu.max_pool"(%0) <{name = "b", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [1, 1, 1, 1]>}> {npu.time = 1 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %2 = "npu.max_pool"(%1) <{name = "c", activation = #npu.act<relu, min = 0, max = 127>, kernel = #npu.kernel<3x3, stride = 2x2, dilation = 1x1, padding = [0, 0, 1, 1]>}> {npu.time = 2 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>) -> tensor<1x16x8x16x!quant.uniform<i8:f32, 0.5>>
    return %2 : tensor<1x16x8x16x!quant.uniform<i8:f32, 0.5>>
  }
}

// -----

// Five ops, none fitting whole: one cascade; four rolling buffers of 2 x (h + 2) rows x 256 bytes
// fit 16000 bytes up to a final stripe of 5 rows.
// CHECK-LABEL: func.func @grow_limited
// CHECK: "npu.avg_pool"{{.*}}npu.stripe = #npu.stripe<5x16x16>, npu.cascade = #npu.cascade<0, rolling = 14x16x16>
// CHECK-COUNT-3: "npu.max_pool"{{.*}}npu.stripe = #npu.stripe<5x16x16>, npu.cascade = #npu.cascade<0, rolling = 14x16x16>
// CHECK: "npu.max_pool"{{.*}}npu.stripe = #npu.stripe<5x16x16>, npu.cascade = #npu.cascade<0>}
// REMARK: remark: stripe growth of the cascade 'a_avgpool'..'e': final stripe 5 rows; stopped: a final stripe of 6 rows needs 16384 bytes, more than the limit of 16000 bytes
// REMARK: remark: cascade of 5 ops from 'a_avgpool' to 'e': final stripe 5 rows, 14336 bytes of rolling buffers, 14336 bytes of fast storage
module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram_384KB">, npu.schedule = #npu.schedule<Performance, arena_cache_size = 393216, sram_target = 16000>} {
  func.func @grow_limited(%arg0: tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>> {
    %0 = "npu.avg_pool"(%arg0) <{name = "a_avgpool", activation = #npu.act<relu, min = 0, max = 127>, kernel = #npu.kernel<1x1, stride = 1x1, dilation = 1x1, padding = [0, 0, 0, 0]>}> {npu.time = 0 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %1 = "npu.max_pool"(%0) <{name = "b", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [1, 1, 1, 1]>}> {npu.time = 1 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %2 = "npu.max_pool"(%1) <{name = "c", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [1, 1, 1, 1]>}> {npu.time = 2 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %3 = "npu.max_pool"(%2) <{name = "d", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [1, 1, 1, 1]>}> {npu.time = 3 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %4 = "npu.max_pool"(%3) <{name = "e", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [1, 1, 1, 1]>}> {npu.time = 4 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>
    return %4 : tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>
  }
}

// -----

// Refusals: a branch point ends a chain, an add of two feature maps is not cascadable.
// CHECK-LABEL: func.func @refusals
// CHECK-NOT: npu.cascade
// REMARK: remark: cascading stops at 'a_avgpool': its OFM branches to 2 consumers
// REMARK: remark: cascading stops at 'c': its consumer 'join' cannot be cascaded: its second operand is a feature map (only a constant or scalar may be)
// REMARK: remark: cascading stops at 'b': its consumer 'join' cannot be cascaded: its second operand is a feature map (only a constant or scalar may be)
// REMARK: remark: cascading stops at 'join': not cascadable: its second operand is a feature map (only a constant or scalar may be)
module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram_384KB">, npu.schedule = #npu.schedule<Performance, arena_cache_size = 393216, sram_target = 16000>} {
  func.func @refusals(%arg0: tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>> {
    %0 = "npu.avg_pool"(%arg0) <{name = "a_avgpool", activation = #npu.act<relu, min = 0, max = 127>, kernel = #npu.kernel<1x1, stride = 1x1, dilation = 1x1, padding = [0, 0, 0, 0]>}> {npu.time = 0 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %1 = "npu.max_pool"(%0) <{name = "b", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [1, 1, 1, 1]>}> {npu.time = 2 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %2 = "npu.max_pool"(%0) <{name = "c", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [1, 1, 1, 1]>}> {npu.time = 1 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %3 = "npu.add"(%1, %2) <{name = "join", activation = #npu.act<none, min = -128, max = 127>}> {npu.time = 3 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>, tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %4 = "npu.max_pool"(%3) <{name = "e", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [1, 1, 1, 1]>}> {npu.time = 4 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>
    return %4 : tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>
  }
}

// -----

// Shared SRAM (no spilling), Performance: the uncascaded schedule fits the target, nothing cascades.
// CHECK-LABEL: func.func @fits
// CHECK-NOT: npu.cascade
// REMARK: remark: no cascades: the uncascaded schedule needs at most 16384 bytes of fast storage, under the SRAM target of 20000 bytes
module attributes {npu.target = #npu.target<"ethos-u55-128", system_config = "Ethos_U55_High_End_Embedded", memory_mode = "Shared_Sram">, npu.schedule = #npu.schedule<Performance, arena_cache_size = 4294967296, sram_target = 20000>} {
  func.func @fits(%arg0: tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>> {
    %0 = "npu.avg_pool"(%arg0) <{name = "a_avgpool", activation = #npu.act<relu, min = 0, max = 127>, kernel = #npu.kernel<1x1, stride = 1x1, dilation = 1x1, padding = [0, 0, 0, 0]>}> {npu.time = 0 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16>>
    %1 = "npu.max_pool"(%0) <{name = "b", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [1, 1, 1, 1]>}> {npu.time = 1 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16>>
    %2 = "npu.max_pool"(%1) <{name = "c", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [1, 1, 1, 1]>}> {npu.time = 2 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>
    return %2 : tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>
  }
}

// -----

// Size, shared SRAM: the MIN build finds no cascade that beats 'a' alone (16384 bytes); the MIN
// schedule's peak becomes the module's SRAM target, the limit weight buffering and fast storage
// then work under (not the arena cache size).
// CHECK: npu.policy = #npu.schedule<Size, arena_cache_size = 4294967296, sram_target = 16384>
// CHECK-LABEL: func.func @size_min_peak
// CHECK-NOT: npu.cascade
// REMARK: remark: cascading stops at 'a_avgpool': no longer chain up to 'c' needs less fast storage than 16384 bytes
module attributes {npu.target = #npu.target<"ethos-u55-128", system_config = "Ethos_U55_High_End_Embedded", memory_mode = "Shared_Sram">, npu.schedule = #npu.schedule<Size, arena_cache_size = 4294967296, sram_target = 4294967296>} {
  func.func @size_min_peak(%arg0: tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>> {
    %0 = "npu.avg_pool"(%arg0) <{name = "a_avgpool", activation = #npu.act<relu, min = 0, max = 127>, kernel = #npu.kernel<1x1, stride = 1x1, dilation = 1x1, padding = [0, 0, 0, 0]>}> {npu.time = 0 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16>>
    %1 = "npu.max_pool"(%0) <{name = "b", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [1, 1, 1, 1]>}> {npu.time = 1 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16>>
    %2 = "npu.max_pool"(%1) <{name = "c", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [1, 1, 1, 1]>}> {npu.time = 2 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>
    return %2 : tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>
  }
}

// -----

// The same with a buffer limit (a search's choice): the cascades are Size's, but the SRAM target
// the passes after them work under is the limit, as it is larger than the MIN schedule's peak.
// CHECK: npu.policy = #npu.schedule<Size, arena_cache_size = 4294967296, sram_target = 20000, buffer_limit = 20000>
// CHECK-LABEL: func.func @size_buffer_limit
// CHECK-NOT: npu.cascade
// REMARK: remark: Size: the passes after the cascades may fill 20000 bytes of fast storage (npu.schedule's buffer_limit), more than the cascaded MIN schedule's 16384
module attributes {npu.target = #npu.target<"ethos-u55-128", system_config = "Ethos_U55_High_End_Embedded", memory_mode = "Shared_Sram">, npu.schedule = #npu.schedule<Size, arena_cache_size = 4294967296, sram_target = 4294967296, buffer_limit = 20000>} {
  func.func @size_buffer_limit(%arg0: tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>> {
    %0 = "npu.avg_pool"(%arg0) <{name = "a_avgpool", activation = #npu.act<relu, min = 0, max = 127>, kernel = #npu.kernel<1x1, stride = 1x1, dilation = 1x1, padding = [0, 0, 0, 0]>}> {npu.time = 0 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16>>
    %1 = "npu.max_pool"(%0) <{name = "b", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [1, 1, 1, 1]>}> {npu.time = 1 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16>>
    %2 = "npu.max_pool"(%1) <{name = "c", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [1, 1, 1, 1]>}> {npu.time = 2 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>
    return %2 : tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>
  }
}

// -----

// Size with spilling (Dedicated SRAM): only rolling buffers live in fast storage, so the MIN
// cascade's 6144 bytes of them are the limit; a taller stripe does not fit it and the SRAM target
// written is that peak.
// CHECK: npu.policy = #npu.schedule<Size, arena_cache_size = 393216, sram_target = 6144>
// CHECK-LABEL: func.func @size_spilling
// CHECK: "npu.avg_pool"{{.*}}npu.stripe = #npu.stripe<1x16x16>, npu.cascade = #npu.cascade<0, rolling = 
// REMARK: remark: stripe growth of the cascade 'a_avgpool'..'e': kept the MIN stripes: a final stripe of 2 rows needs 16384 bytes, more than the limit of 6144 bytes
// REMARK: remark: cascade of 5 ops from 'a_avgpool' to 'e': final stripe 1 rows, 6144 bytes of rolling buffers, 6144 bytes of fast storage
module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram_384KB">, npu.schedule = #npu.schedule<Size, arena_cache_size = 393216, sram_target = 393216>} {
  func.func @size_spilling(%arg0: tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>> {
    %0 = "npu.avg_pool"(%arg0) <{name = "a_avgpool", activation = #npu.act<relu, min = 0, max = 127>, kernel = #npu.kernel<1x1, stride = 1x1, dilation = 1x1, padding = [0, 0, 0, 0]>}> {npu.time = 0 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %1 = "npu.max_pool"(%0) <{name = "b", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [1, 1, 1, 1]>}> {npu.time = 1 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %2 = "npu.max_pool"(%1) <{name = "c", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [1, 1, 1, 1]>}> {npu.time = 2 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %3 = "npu.max_pool"(%2) <{name = "d", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [1, 1, 1, 1]>}> {npu.time = 3 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %4 = "npu.max_pool"(%3) <{name = "e", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [1, 1, 1, 1]>}> {npu.time = 4 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>
    return %4 : tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>
  }
}

// STATS: 'npu-form-cascades'
// STATS: (S) 1 cascades
// STATS: (S) 2 ops-cascaded
// STATS: (S) 2 largest-cascade
// STATS: (S) 9216 rolling-bytes

// -----

// Size with spilling: stripe growth counts a member's weight buffer only when it fits what the
// limit (the pool cascade's 6144 bytes) leaves beside the MIN cascade at it (1024 bytes): conv1's
// does, conv2's is read in place. conv1's buffer keeps the MIN stripe (2 rows would not fit).
// CHECK-LABEL: func.func @size_staged_weights
// CHECK: name = "conv1"}> {npu.time = 6 : i64, npu.stripe = #npu.stripe<1x16x32>
// REMARK: remark: weight buffers not counted while growing stripes: 'conv2' (1776 bytes); the limit of 6144 bytes leaves 1024 bytes beside the MIN cascade's 5120 bytes
// REMARK: remark: stripe growth of the cascade 'conv1'..'conv2': kept the MIN stripes
module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram_384KB">, npu.schedule = #npu.schedule<Size, arena_cache_size = 393216, sram_target = 393216>} {
  func.func @size_staged_weights(%arg0: tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>) -> (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>, tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>) {
    %0 = "npu.avg_pool"(%arg0) <{name = "a_avgpool", activation = #npu.act<relu, min = 0, max = 127>, kernel = #npu.kernel<1x1, stride = 1x1, dilation = 1x1, padding = [0, 0, 0, 0]>}> {npu.time = 0 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %1 = "npu.max_pool"(%0) <{name = "b", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [1, 1, 1, 1]>}> {npu.time = 1 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %2 = "npu.max_pool"(%1) <{name = "c", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [1, 1, 1, 1]>}> {npu.time = 2 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %3 = "npu.max_pool"(%2) <{name = "d", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [1, 1, 1, 1]>}> {npu.time = 3 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %4 = "npu.max_pool"(%3) <{name = "e", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [1, 1, 1, 1]>}> {npu.time = 4 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>
    %w1 = "tfl.pseudo_const"() <{value = dense<1> : tensor<32x1x1x16xi8>}> : () -> tensor<32x1x1x16xi8>
    %b1 = "tfl.pseudo_const"() <{value = dense<0> : tensor<32xi32>}> : () -> tensor<32xi32>
    %w2 = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x5x5x32xi8>}> : () -> tensor<16x5x5x32xi8>
    %b2 = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %d1 = "npu.dma"(%w1) {npu.time = 5 : i64} : (tensor<32x1x1x16xi8>) -> tensor<32x1x1x16xi8, #npu.fm<NHWC, Sram>>
    %5 = "npu.conv2d"(%arg0, %d1, %b1) <{kernel = #npu.kernel<1x1, padding = [0, 0, 0, 0]>, name = "conv1"}> {npu.time = 6 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>, tensor<32x1x1x16xi8, #npu.fm<NHWC, Sram>>, tensor<32xi32>) -> tensor<1x32x16x32x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %d2 = "npu.dma"(%w2) {npu.time = 7 : i64} : (tensor<16x5x5x32xi8>) -> tensor<16x5x5x32xi8, #npu.fm<NHWC, Sram>>
    %6 = "npu.conv2d"(%5, %d2, %b2) <{kernel = #npu.kernel<5x5, padding = [2, 2, 2, 2]>, name = "conv2"}> {npu.time = 8 : i64} : (tensor<1x32x16x32x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>, tensor<16x5x5x32xi8, #npu.fm<NHWC, Sram>>, tensor<16xi32>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>
    return %4, %6 : tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>, tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>
  }
}

// -----

// Size, shared SRAM: an elementwise OFM overwrites its IFM whatever their quantisations (only the
// stored i8 must match), so 'b_add' needs its IFM and the live %arg0, 16384 bytes, not 24576.
// CHECK: npu.policy = #npu.schedule<Size, arena_cache_size = 4294967296, sram_target = 16384>
// CHECK-LABEL: func.func @size_add_in_place
module attributes {npu.target = #npu.target<"ethos-u55-128", system_config = "Ethos_U55_High_End_Embedded", memory_mode = "Shared_Sram">, npu.schedule = #npu.schedule<Size, arena_cache_size = 4294967296, sram_target = 4294967296>} {
  func.func @size_add_in_place(%arg0: tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.25>> {
    %0 = "npu.avg_pool"(%arg0) <{name = "a_avgpool", activation = #npu.act<relu, min = 0, max = 127>, kernel = #npu.kernel<1x1, stride = 1x1, dilation = 1x1, padding = [0, 0, 0, 0]>}> {npu.time = 0 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>
    %1 = "npu.add"(%0, %arg0) <{name = "b_add", activation = #npu.act<none, min = -128, max = 127>}> {npu.time = 1 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>, tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.25>>
    return %1 : tensor<1x32x16x16x!quant.uniform<i8:f32, 0.25>>
  }
}

// -----

// A residual block (conv -> project conv -> add with the block input, which is a branch point and
// so whole anyway) in 8000 bytes of dedicated SRAM. Without cascade joins the add is not
// cascadable and the chain stops at the project conv.
// CHECK-LABEL: func.func @residual(
// CHECK: "npu.conv2d"{{.*}}name = "c_project"{{.*}}npu.cascade = #npu.cascade<0, staged = 240>}
// CHECK: "npu.add"{{.*}}name = "d_join"{{.*}}{npu.time = 3 : i64} :
// REMARK: remark: cascading stops at 'c_project': its consumer 'd_join' cannot be cascaded: its second operand is a feature map (only a constant or scalar may be)
module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram_384KB">, npu.schedule = #npu.schedule<Performance, arena_cache_size = 393216, sram_target = 8000>} {
  func.func @residual(%arg0: tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>> {
    %w1 = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %b1 = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %w2 = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x1x1x16xi8>}> : () -> tensor<16x1x1x16xi8>
    %b2 = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %0 = "npu.avg_pool"(%arg0) <{name = "a_in", activation = #npu.act<relu, min = 0, max = 127>, kernel = #npu.kernel<1x1, stride = 1x1, dilation = 1x1, padding = [0, 0, 0, 0]>}> {npu.time = 0 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %1 = "npu.conv2d"(%0, %w1, %b1) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "b_conv"}> {npu.time = 1 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %2 = "npu.conv2d"(%1, %w2, %b2) <{kernel = #npu.kernel<1x1, padding = [0, 0, 0, 0]>, name = "c_project"}> {npu.time = 2 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>, tensor<16x1x1x16xi8>, tensor<16xi32>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %3 = "npu.add"(%2, %0) <{name = "d_join", activation = #npu.act<none, min = -128, max = 127>}> {npu.time = 3 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>, tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %4 = "npu.max_pool"(%3) <{name = "e", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [1, 1, 1, 1]>}> {npu.time = 4 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>
    return %4 : tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>
  }
}

// -----

// The same block with cascade_joins: the add joins the cascade (its IFM, the project conv's OFM,
// now rolls; the block input is read stripe by stripe from the whole tensor), and so does the
// pool after it, with a final stripe of 4 rows. The written npu.schedule keeps the flag.
// CHECK: npu.policy = #npu.schedule<Performance, arena_cache_size = 393216, sram_target = 8000, cascade_joins>
// CHECK-LABEL: func.func @residual_joined(
// CHECK: "npu.conv2d"{{.*}}name = "c_project"{{.*}}npu.stripe = #npu.stripe<4x16x16>, npu.cascade = #npu.cascade<0, rolling = 8x16x16, staged = 240>}
// CHECK: "npu.add"{{.*}}name = "d_join"{{.*}}npu.stripe = #npu.stripe<4x16x16>, npu.cascade = #npu.cascade<0, rolling = 12x16x16>}
// CHECK: "npu.max_pool"{{.*}}name = "e"{{.*}}npu.stripe = #npu.stripe<4x16x16>, npu.cascade = #npu.cascade<0>}
// REMARK: remark: cascade of 4 ops from 'b_conv' to 'e': final stripe 4 rows, 7168 bytes of rolling buffers, 7968 bytes of fast storage
module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram_384KB">, npu.schedule = #npu.schedule<Performance, arena_cache_size = 393216, sram_target = 8000, cascade_joins>} {
  func.func @residual_joined(%arg0: tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>> {
    %w1 = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %b1 = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %w2 = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x1x1x16xi8>}> : () -> tensor<16x1x1x16xi8>
    %b2 = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %0 = "npu.avg_pool"(%arg0) <{name = "a_in", activation = #npu.act<relu, min = 0, max = 127>, kernel = #npu.kernel<1x1, stride = 1x1, dilation = 1x1, padding = [0, 0, 0, 0]>}> {npu.time = 0 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %1 = "npu.conv2d"(%0, %w1, %b1) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "b_conv"}> {npu.time = 1 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %2 = "npu.conv2d"(%1, %w2, %b2) <{kernel = #npu.kernel<1x1, padding = [0, 0, 0, 0]>, name = "c_project"}> {npu.time = 2 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>, tensor<16x1x1x16xi8>, tensor<16xi32>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %3 = "npu.add"(%2, %0) <{name = "d_join", activation = #npu.act<none, min = -128, max = 127>}> {npu.time = 3 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>, tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %4 = "npu.max_pool"(%3) <{name = "e", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [1, 1, 1, 1]>}> {npu.time = 4 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>
    return %4 : tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>
  }
}

// -----

// The same block with cascade_branches: the block input 'a_in' is a branch point (read by 'b_conv'
// and by the add), so it joins the cascade too and its OFM rolls in a buffer that must also hold
// the rows the add reads after 'b_conv' and 'c_project' have run ahead (here the chain's 8 rows
// already do). The whole block is one cascade in 6944 bytes, where joins alone need 7968.
// CHECK: npu.policy = #npu.schedule<Performance, arena_cache_size = 393216, sram_target = 8000, cascade_branches>
// CHECK-LABEL: func.func @residual_branched(
// CHECK: name = "a_in"{{.*}}npu.stripe = #npu.stripe<2x16x16>, npu.cascade = #npu.cascade<0, rolling = 8x16x16>}
// CHECK: name = "b_conv"{{.*}}npu.cascade = #npu.cascade<0, rolling = 4x16x16, staged = 560>}
// CHECK: name = "c_project"{{.*}}npu.cascade = #npu.cascade<0, rolling = 4x16x16, staged = 240>}
// CHECK: "npu.add"{{.*}}name = "d_join"{{.*}}npu.cascade = #npu.cascade<0, rolling = 8x16x16>}
// CHECK: name = "e"{{.*}}npu.cascade = #npu.cascade<0>}
// REMARK: remark: cascade of 5 ops from 'a_in' to 'e': final stripe 2 rows, 6144 bytes of rolling buffers, 6944 bytes of fast storage
// REMARK: remark: 'a_in' is a branch point of the cascade: 'd_join' reads its OFM too, after 'b_conv' and the ops between have pulled it ahead, so it rolls in 8 rows
module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram_384KB">, npu.schedule = #npu.schedule<Performance, arena_cache_size = 393216, sram_target = 8000, cascade_branches>} {
  func.func @residual_branched(%arg0: tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>> {
    %w1 = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %b1 = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %w2 = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x1x1x16xi8>}> : () -> tensor<16x1x1x16xi8>
    %b2 = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %0 = "npu.avg_pool"(%arg0) <{name = "a_in", activation = #npu.act<relu, min = 0, max = 127>, kernel = #npu.kernel<1x1, stride = 1x1, dilation = 1x1, padding = [0, 0, 0, 0]>}> {npu.time = 0 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %1 = "npu.conv2d"(%0, %w1, %b1) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "b_conv"}> {npu.time = 1 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %2 = "npu.conv2d"(%1, %w2, %b2) <{kernel = #npu.kernel<1x1, padding = [0, 0, 0, 0]>, name = "c_project"}> {npu.time = 2 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>, tensor<16x1x1x16xi8>, tensor<16xi32>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %3 = "npu.add"(%2, %0) <{name = "d_join", activation = #npu.act<none, min = -128, max = 127>}> {npu.time = 3 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>, tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %4 = "npu.max_pool"(%3) <{name = "e", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [1, 1, 1, 1]>}> {npu.time = 4 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>
    return %4 : tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>
  }
}


// -----

// A join whose second operand is the OFM it chains through (an add of a feature map with itself)
// reads that OFM twice, so the op writing it writes it whole (Vela counts each read as a
// consumer): the chain stops before the add, which starts a cascade of its own with the pool
// (both its operands are whole, written before it).
// CHECK-LABEL: func.func @self_join(
// CHECK: name = "c_project"}> {npu.time = 1 : i64, npu.stripe = #npu.stripe<{{.*}}>, npu.cascade = #npu.cascade<0, staged = 240>}
// CHECK: name = "d_join"{{.*}}npu.cascade = #npu.cascade<1, rolling =
// REMARK: remark: cascading stops at 'c_project': it must write its whole OFM ('d_join' reads it 2 times)
module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram_384KB">, npu.schedule = #npu.schedule<Performance, arena_cache_size = 393216, sram_target = 8000, cascade_joins>} {
  func.func @self_join(%arg0: tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>> {
    %w2 = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x1x1x16xi8>}> : () -> tensor<16x1x1x16xi8>
    %b2 = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %0 = "npu.avg_pool"(%arg0) <{name = "a_in", activation = #npu.act<relu, min = 0, max = 127>, kernel = #npu.kernel<1x1, stride = 1x1, dilation = 1x1, padding = [0, 0, 0, 0]>}> {npu.time = 0 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %2 = "npu.conv2d"(%0, %w2, %b2) <{kernel = #npu.kernel<1x1, padding = [0, 0, 0, 0]>, name = "c_project"}> {npu.time = 1 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>, tensor<16x1x1x16xi8>, tensor<16xi32>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %3 = "npu.add"(%2, %2) <{name = "d_join", activation = #npu.act<none, min = -128, max = 127>}> {npu.time = 2 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>, tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %4 = "npu.max_pool"(%3) <{name = "e", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [1, 1, 1, 1]>}> {npu.time = 3 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>
    return %4 : tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>
  }
}

// -----

// The skip as the add's first operand (add(skip, project), as TFLite's residual blocks often
// write it): the chain runs through the second operand and the first is read whole; the same
// cascade forms.
// CHECK-LABEL: func.func @residual_skip_first(
// CHECK: "npu.conv2d"{{.*}}name = "c_project"{{.*}}npu.stripe = #npu.stripe<4x16x16>, npu.cascade = #npu.cascade<0, rolling = 8x16x16, staged = 240>}
// CHECK: "npu.add"{{.*}}name = "d_join"{{.*}}npu.stripe = #npu.stripe<4x16x16>, npu.cascade = #npu.cascade<0, rolling = 12x16x16>}
// CHECK: "npu.max_pool"{{.*}}name = "e"{{.*}}npu.cascade = #npu.cascade<0>}
module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram_384KB">, npu.schedule = #npu.schedule<Performance, arena_cache_size = 393216, sram_target = 8000, cascade_joins>} {
  func.func @residual_skip_first(%arg0: tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>> {
    %w1 = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %b1 = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %w2 = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x1x1x16xi8>}> : () -> tensor<16x1x1x16xi8>
    %b2 = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %0 = "npu.avg_pool"(%arg0) <{name = "a_in", activation = #npu.act<relu, min = 0, max = 127>, kernel = #npu.kernel<1x1, stride = 1x1, dilation = 1x1, padding = [0, 0, 0, 0]>}> {npu.time = 0 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %1 = "npu.conv2d"(%0, %w1, %b1) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "b_conv"}> {npu.time = 1 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %2 = "npu.conv2d"(%1, %w2, %b2) <{kernel = #npu.kernel<1x1, padding = [0, 0, 0, 0]>, name = "c_project"}> {npu.time = 2 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>, tensor<16x1x1x16xi8>, tensor<16xi32>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %3 = "npu.add"(%0, %2) <{name = "d_join", activation = #npu.act<none, min = -128, max = 127>}> {npu.time = 3 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>, tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %4 = "npu.max_pool"(%3) <{name = "e", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [1, 1, 1, 1]>}> {npu.time = 4 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>
    return %4 : tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>
  }
}

// -----

// The prefetch policy comes with the strategy: Performance keeps every prefetch (no flag); a
// module scheduled for Performance and then for Size takes Size's prefetch_overlap (a prefetched
// weight buffer may share bytes the previous op frees; npu-allocate follows it).
// CHECK: npu.policy = #npu.schedule<Performance, arena_cache_size = 4294967296, sram_target = 4294967296>
// CHECK-LABEL: func.func @prefetch_policy
// SIZE: npu.policy = #npu.schedule<Size, arena_cache_size = 4294967296, sram_target = {{[0-9]+}}, prefetch_overlap>
// SIZE-LABEL: func.func @prefetch_policy
module attributes {npu.target = #npu.target<"ethos-u55-128", system_config = "Ethos_U55_High_End_Embedded", memory_mode = "Shared_Sram">, npu.schedule = #npu.schedule<Performance, arena_cache_size = 4294967296, sram_target = 4294967296>} {
  func.func @prefetch_policy(%arg0: tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>> {
    %0 = "npu.avg_pool"(%arg0) <{name = "a_avgpool", activation = #npu.act<relu, min = 0, max = 127>, kernel = #npu.kernel<1x1, stride = 1x1, dilation = 1x1, padding = [0, 0, 0, 0]>}> {npu.time = 0 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16>>
    %1 = "npu.max_pool"(%0) <{name = "b", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [1, 1, 1, 1]>}> {npu.time = 1 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16>>
    %2 = "npu.max_pool"(%1) <{name = "c", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [1, 1, 1, 1]>}> {npu.time = 2 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>
    return %2 : tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>
  }
}

// -----

// A fire module with cascade concats: the squeeze is a fork (both expands read it), each expand
// writes its part of the concatenation through a copy, and the 3x3 reading the concatenation
// ends the cascade. The concatenation carries the cascade and its rolling buffer (full depth);
// the parts' writers have no buffer of their own. The squeeze rolls for the 3x3 expand, which
// lags the 1x1 one.
// CHECK-LABEL: func.func @fire_concat(
// CHECK: name = "squeeze"}> {npu.time = 1 : i64, npu.stripe = #npu.stripe<1x16x16>, npu.cascade = #npu.cascade<0, rolling = 6x16x16>}
// CHECK: name = "part0"{{.*}}npu.cascade = #npu.cascade<0>}
// CHECK: name = "part1"{{.*}}npu.cascade = #npu.cascade<0>}
// CHECK: "npu.concat"{{.*}}name = "cat"{{.*}}{npu.cascade = #npu.cascade<0, rolling = 6x16x32>}
// CHECK: name = "reader"}> {npu.time = 6 : i64, npu.stripe = #npu.stripe<1x16x16>, npu.cascade = #npu.cascade<0>}
// REMARK: remark: cascade of 7 ops from 'a_in' to 'reader': final stripe 1 rows, 6144 bytes of rolling buffers, 6144 bytes of fast storage
// REMARK: remark: 'squeeze' is a fork of the cascade: 'expand_1x1', 'expand_3x3' read its OFM, so it rolls in 6 rows, enough for the one that lags most
// REMARK: remark: the concatenation 'cat' that 'reader' reads rolls in the cascade: 'part0', 'part1' write their parts into one buffer of 6x16x32
module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram_384KB">, npu.schedule = #npu.schedule<Performance, arena_cache_size = 393216, sram_target = 8000, cascade_concats>} {
  func.func @fire_concat(%arg0: tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>> {
    %w1 = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x1x1x16xi8>}> : () -> tensor<16x1x1x16xi8>
    %b1 = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %w3 = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %wc = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x32xi8>}> : () -> tensor<16x3x3x32xi8>
    %0 = "npu.avg_pool"(%arg0) <{name = "a_in", activation = #npu.act<relu, min = 0, max = 127>, kernel = #npu.kernel<1x1, stride = 1x1, dilation = 1x1, padding = [0, 0, 0, 0]>}> {npu.time = 0 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %1 = "npu.conv2d"(%0, %w1, %b1) <{kernel = #npu.kernel<1x1, padding = [0, 0, 0, 0]>, name = "squeeze"}> {npu.time = 1 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>, tensor<16x1x1x16xi8>, tensor<16xi32>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %2 = "npu.conv2d"(%1, %w1, %b1) <{kernel = #npu.kernel<1x1, padding = [0, 0, 0, 0]>, name = "expand_1x1"}> {npu.time = 2 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>, tensor<16x1x1x16xi8>, tensor<16xi32>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %3 = "npu.avg_pool"(%2) <{name = "part0", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<1x1, stride = 1x1, dilation = 1x1, padding = [0, 0, 0, 0]>}> {npu.time = 3 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %4 = "npu.conv2d"(%1, %w3, %b1) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "expand_3x3"}> {npu.time = 4 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %5 = "npu.avg_pool"(%4) <{name = "part1", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<1x1, stride = 1x1, dilation = 1x1, padding = [0, 0, 0, 0]>}> {npu.time = 5 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %6 = "npu.concat"(%3, %5) <{name = "cat", offsets = [#npu.offset<0, 0, 0, 0>, #npu.offset<0, 0, 0, 16>]}> : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>, tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>) -> tensor<1x32x16x32x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %7 = "npu.conv2d"(%6, %wc, %b1) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "reader"}> {npu.time = 6 : i64} : (tensor<1x32x16x32x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>, tensor<16x3x3x32xi8>, tensor<16xi32>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>
    return %7 : tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>
  }
}

// -----

// stripe_growth = cost (npu.schedule; the search's cost_growth): the same chain as @chain, every
// height that fits tried and the fastest kept, ties to less memory. Pooling costs the same on
// every stripe's block here, so the MIN stripes stay: 2,048 bytes of rolling buffers where the
// Vela growth of @chain keeps 9,216.
// CHECK-LABEL: func.func @chain_by_cost
// CHECK: "npu.avg_pool"(%{{.*}}){{.*}}npu.stripe = #npu.stripe<1x16x16>, npu.cascade = #npu.cascade<0, rolling = 8x16x16>
// CHECK: "npu.max_pool"(%{{.*}}){{.*}}npu.stripe = #npu.stripe<2x16x16>, npu.cascade = #npu.cascade<0>}
// REMARK: remark: stripe growth of the cascade 'a_avgpool'..'b': kept the MIN stripes: the fastest of 28 stripe heights tried, 22057 estimated cycles; a final stripe of 31 rows needs 16384 bytes, more than the limit of 16000 bytes
// REMARK: remark: cascade of 2 ops from 'a_avgpool' to 'b': final stripe 2 rows, 2048 bytes of rolling buffers, 2048 bytes of fast storage
module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram_384KB">, npu.schedule = #npu.schedule<Performance, arena_cache_size = 393216, sram_target = 16000, stripe_growth = cost>} {
  func.func @chain_by_cost(%arg0: tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x16x8x16x!quant.uniform<i8:f32, 0.5>> {
    %0 = "npu.avg_pool"(%arg0) <{name = "a_avgpool", activation = #npu.act<relu, min = 0, max = 127>, kernel = #npu.kernel<1x1, stride = 1x1, dilation = 1x1, padding = [0, 0, 0, 0]>}> {npu.time = 0 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %1 = "npu.max_pool"(%0) <{name = "b", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [1, 1, 1, 1]>}> {npu.time = 1 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>) -> tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>
    %2 = "npu.max_pool"(%1) <{name = "c", activation = #npu.act<relu, min = 0, max = 127>, kernel = #npu.kernel<3x3, stride = 2x2, dilation = 1x1, padding = [0, 0, 1, 1]>}> {npu.time = 2 : i64} : (tensor<1x32x16x16x!quant.uniform<i8:f32, 0.5>, #npu.fm<NHCWB16, Sram>>) -> tensor<1x16x8x16x!quant.uniform<i8:f32, 0.5>>
    return %2 : tensor<1x16x8x16x!quant.uniform<i8:f32, 0.5>>
  }
}
