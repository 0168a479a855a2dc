// npu-check-schedule reads a scheduled module and reports every broken rule as an error at the
// offending op, changing nothing. The first function is a valid schedule: a conv -> depthwise
// cascade through a 6-row rolling buffer, a double-buffered weight stream prefetched two ops
// ahead, an add written in place over the depthwise's OFM. Each later case breaks one rule of a
// copy of it (or of a small function) and gets exactly one error. A module that keeps every rule
// gets the verdict, one note at the module.
// RUN: %npu_opt %s --split-input-file --verify-diagnostics --pass=npu-check-schedule
// RUN: not %npu_opt %s --split-input-file --pass=npu-check-schedule -o /dev/null 2> %t.err
// RUN: %filecheck %s --input-file %t.err --check-prefix=VERDICT
// VERDICT: check-schedule.mlir:{{[0-9]+}}:1: note: schedule OK: 6 rules checked (1 function, 6 allocations)

// expected-note@+1 {{schedule OK: 6 rules checked (1 function, }}
module attributes {npu.schedule = #npu.schedule<Performance, arena_cache_size = 8192, sram_target = 8192>, npu.usage = #npu.usage<Sram = [5376, 3584]>} {
  func.func @valid(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x32xi8> attributes {npu.arg_alloc = [#npu.alloc<Sram, offset = 0, size = 1024, live = [0, 3]>]} {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %dw = "tfl.pseudo_const"() <{value = dense<1> : tensor<1x3x3x16xi8>}> : () -> tensor<1x3x3x16xi8>
    %w2 = "tfl.pseudo_const"() <{value = dense<1> : tensor<32x1x1x16xi8>}> : () -> tensor<32x1x1x16xi8>
    %b2 = "tfl.pseudo_const"() <{value = dense<0> : tensor<32xi32>}> : () -> tensor<32xi32>
    %0 = "npu.conv2d"(%x, %w, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "conv1"}> {npu.time = 0 : i64, npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<0, rolling = 6x8x16>, npu.alloc = #npu.alloc<Sram, offset = 1024, size = 768, live = [0, 2]>} : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %1 = "npu.dma"(%w2) <{name = "conv2_weights"}> {npu.time = 1 : i64, npu.stream = #npu.stream<slices = [0, 16, 32], buffering = double, buffers = [256, 256], bytes = 512, prefetch>, npu.alloc = #npu.alloc<Sram, offset = 1792, size = 512, live = [1, 4]>} : (tensor<32x1x1x16xi8>) -> tensor<32x1x1x16xi8>
    %2 = "npu.depthwise_conv2d"(%0, %dw, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "dw"}> {npu.time = 2 : i64, npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<0>, npu.alloc = #npu.alloc<Sram, offset = 2304, size = 1024, live = [2, 3]>} : (tensor<1x8x8x16xi8>, tensor<1x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %3 = "npu.add"(%2, %x) <{name = "add"}> {npu.time = 3 : i64, npu.alloc = #npu.alloc<Sram, offset = 2304, size = 1024, live = [3, 4]>} : (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
    %4 = "npu.conv2d"(%3, %1, %b2) <{kernel = #npu.kernel<1x1>, name = "conv2"}> {npu.time = 4 : i64, npu.alloc = #npu.alloc<Sram, offset = 3328, size = 2048, live = [4, 4]>} : (tensor<1x8x8x16xi8>, tensor<32x1x1x16xi8>, tensor<32xi32>) -> tensor<1x8x8x32xi8>
    return %4 : tensor<1x8x8x32xi8>
  }
}

// -----

// Rule 1: an op runs after the ops it reads, through views (the reshape does not run).
func.func @reads_later(%x: tensor<1x8x8x16xi8>) -> tensor<1x64x1x16xi8> {
  %0 = "npu.add"(%x, %x) <{name = "a"}> {npu.time = 1 : i64} : (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
  %1 = "npu.reshape"(%0) : (tensor<1x8x8x16xi8>) -> tensor<1x64x1x16xi8>
  // expected-error@+1 {{schedule rule 1 (time): 'b' runs at time 0 but reads the result of 'a', which runs at time 1}}
  %2 = "npu.add"(%1, %1) <{name = "b"}> {npu.time = 0 : i64} : (tensor<1x64x1x16xi8>, tensor<1x64x1x16xi8>) -> tensor<1x64x1x16xi8>
  return %2 : tensor<1x64x1x16xi8>
}

// -----

// Rule 1: every executed op has a time.
func.func @no_time(%x: tensor<1x8x8x16xi8>) -> tensor<1x64x1x16xi8> {
  %0 = "npu.add"(%x, %x) <{name = "a"}> {npu.time = 0 : i64} : (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
  %1 = "npu.reshape"(%0) : (tensor<1x8x8x16xi8>) -> tensor<1x64x1x16xi8>
  // expected-error@+1 {{schedule rule 1 (time): 'b' is executed but has no npu.time}}
  %2 = "npu.add"(%1, %1) <{name = "b"}> {} : (tensor<1x64x1x16xi8>, tensor<1x64x1x16xi8>) -> tensor<1x64x1x16xi8>
  return %2 : tensor<1x64x1x16xi8>
}

// -----

// Rule 1: no two ops share a time.
func.func @same_time(%x: tensor<1x8x8x16xi8>) -> tensor<1x64x1x16xi8> {
  %0 = "npu.add"(%x, %x) <{name = "a"}> {npu.time = 0 : i64} : (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
  %1 = "npu.reshape"(%0) : (tensor<1x8x8x16xi8>) -> tensor<1x64x1x16xi8>
  // expected-error@+1 {{schedule rule 1 (time): 'b' has time 0, already the time of 'a'}}
  %2 = "npu.add"(%1, %1) <{name = "b"}> {npu.time = 0 : i64} : (tensor<1x64x1x16xi8>, tensor<1x64x1x16xi8>) -> tensor<1x64x1x16xi8>
  return %2 : tensor<1x64x1x16xi8>
}

// -----

// Rule 1: views do not execute, so they have no time.
func.func @view_time(%x: tensor<1x8x8x16xi8>) -> tensor<1x64x1x16xi8> {
  %0 = "npu.add"(%x, %x) <{name = "a"}> {npu.time = 0 : i64} : (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
  // expected-error@+1 {{schedule rule 1 (time): 'npu.reshape' (time 2) does not execute (a view or constant) but has an npu.time}}
  %1 = "npu.reshape"(%0) {npu.time = 2 : i64} : (tensor<1x8x8x16xi8>) -> tensor<1x64x1x16xi8>
  %2 = "npu.add"(%1, %1) <{name = "b"}> {npu.time = 1 : i64} : (tensor<1x64x1x16xi8>, tensor<1x64x1x16xi8>) -> tensor<1x64x1x16xi8>
  return %2 : tensor<1x64x1x16xi8>
}

// -----

// Rule 2: a DMA must be issued before the op reading it.
module attributes {npu.schedule = #npu.schedule<Performance, arena_cache_size = 8192, sram_target = 8192>, npu.usage = #npu.usage<Sram = [5376, 3584]>} {
  func.func @dma_after_reader(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x32xi8> attributes {npu.arg_alloc = [#npu.alloc<Sram, offset = 0, size = 1024, live = [0, 3]>]} {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %dw = "tfl.pseudo_const"() <{value = dense<1> : tensor<1x3x3x16xi8>}> : () -> tensor<1x3x3x16xi8>
    %w2 = "tfl.pseudo_const"() <{value = dense<1> : tensor<32x1x1x16xi8>}> : () -> tensor<32x1x1x16xi8>
    %b2 = "tfl.pseudo_const"() <{value = dense<0> : tensor<32xi32>}> : () -> tensor<32xi32>
    %0 = "npu.conv2d"(%x, %w, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "conv1"}> {npu.time = 0 : i64, npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<0, rolling = 6x8x16>, npu.alloc = #npu.alloc<Sram, offset = 1024, size = 768, live = [0, 2]>} : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    // expected-error@+1 {{schedule rule 2 (DMA): DMA 'conv2_weights' runs at time 5, so it has not completed when 'conv2' reads it at time 4}}
    %1 = "npu.dma"(%w2) <{name = "conv2_weights"}> {npu.time = 5 : i64, npu.stream = #npu.stream<slices = [0, 16, 32], buffering = double, buffers = [256, 256], bytes = 512, prefetch>, npu.alloc = #npu.alloc<Sram, offset = 1792, size = 512, live = [1, 4]>} : (tensor<32x1x1x16xi8>) -> tensor<32x1x1x16xi8>
    %2 = "npu.depthwise_conv2d"(%0, %dw, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "dw"}> {npu.time = 2 : i64, npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<0>, npu.alloc = #npu.alloc<Sram, offset = 2304, size = 1024, live = [2, 3]>} : (tensor<1x8x8x16xi8>, tensor<1x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %3 = "npu.add"(%2, %x) <{name = "add"}> {npu.time = 3 : i64, npu.alloc = #npu.alloc<Sram, offset = 2304, size = 1024, live = [3, 4]>} : (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
    %4 = "npu.conv2d"(%3, %1, %b2) <{kernel = #npu.kernel<1x1>, name = "conv2"}> {npu.time = 4 : i64, npu.alloc = #npu.alloc<Sram, offset = 3328, size = 2048, live = [4, 5]>} : (tensor<1x8x8x16xi8>, tensor<32x1x1x16xi8>, tensor<32xi32>) -> tensor<1x8x8x32xi8>
    return %4 : tensor<1x8x8x32xi8>
  }
}

// -----

// Rule 2: a prefetched weight DMA fills its first buffer while the op before its consumer
// runs; before the first op nothing runs.
func.func @prefetch_first(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> {
  %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x1x1x16xi8>}> : () -> tensor<16x1x1x16xi8>
  %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
  // expected-error@+1 {{schedule rule 2 (DMA): DMA 'w_dma' prefetches the weights of 'conv' but nothing runs, so no NPU op hides the transfer}}
  %0 = "npu.dma"(%w) <{name = "w_dma"}> {npu.time = 0 : i64, npu.stream = #npu.stream<slices = [0, 16], buffering = single, buffers = [256], bytes = 256, prefetch>} : (tensor<16x1x1x16xi8>) -> tensor<16x1x1x16xi8>
  %1 = "npu.conv2d"(%x, %0, %b) <{kernel = #npu.kernel<1x1>, name = "conv"}> {npu.time = 1 : i64} : (tensor<1x8x8x16xi8>, tensor<16x1x1x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
  return %1 : tensor<1x8x8x16xi8>
}

// -----

// Rule 3: a prefetched weight DMA's buffer is live from the op before its consumer ('add' at
// time 2), when its transfer starts, even though the DMA's own time is 3.
module attributes {npu.schedule = #npu.schedule<Performance, arena_cache_size = 8192, sram_target = 8192>} {
  func.func @prefetch_buffer_late(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x32xi8> attributes {npu.arg_alloc = [#npu.alloc<Sram, offset = 0, size = 1024, live = [0, 3]>]} {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %dw = "tfl.pseudo_const"() <{value = dense<1> : tensor<1x3x3x16xi8>}> : () -> tensor<1x3x3x16xi8>
    %w2 = "tfl.pseudo_const"() <{value = dense<1> : tensor<32x1x1x16xi8>}> : () -> tensor<32x1x1x16xi8>
    %b2 = "tfl.pseudo_const"() <{value = dense<0> : tensor<32xi32>}> : () -> tensor<32xi32>
    %0 = "npu.conv2d"(%x, %w, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "conv1"}> {npu.time = 0 : i64, npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<0, rolling = 6x8x16>, npu.alloc = #npu.alloc<Sram, offset = 1024, size = 768, live = [0, 2]>} : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    // expected-error@+1 {{schedule rule 3 (allocation): the allocation of 'conv2_weights' is live from time 3, after its transfer starts at time 2}}
    %1 = "npu.dma"(%w2) <{name = "conv2_weights"}> {npu.time = 3 : i64, npu.stream = #npu.stream<slices = [0, 16, 32], buffering = double, buffers = [256, 256], bytes = 512, prefetch>, npu.alloc = #npu.alloc<Sram, offset = 1792, size = 512, live = [3, 4]>} : (tensor<32x1x1x16xi8>) -> tensor<32x1x1x16xi8>
    %2 = "npu.depthwise_conv2d"(%0, %dw, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "dw"}> {npu.time = 1 : i64, npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<0>, npu.alloc = #npu.alloc<Sram, offset = 2304, size = 1024, live = [1, 2]>} : (tensor<1x8x8x16xi8>, tensor<1x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %3 = "npu.add"(%2, %x) <{name = "add"}> {npu.time = 2 : i64, npu.alloc = #npu.alloc<Sram, offset = 2304, size = 1024, live = [2, 4]>} : (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
    %4 = "npu.conv2d"(%3, %1, %b2) <{kernel = #npu.kernel<1x1>, name = "conv2"}> {npu.time = 4 : i64, npu.alloc = #npu.alloc<Sram, offset = 3328, size = 2048, live = [4, 4]>} : (tensor<1x8x8x16xi8>, tensor<32x1x1x16xi8>, tensor<32xi32>) -> tensor<1x8x8x32xi8>
    return %4 : tensor<1x8x8x32xi8>
  }
}

// -----

// Rule 3: the depthwise's OFM overlaps the rolling buffer, still live at time 2.
module attributes {npu.schedule = #npu.schedule<Performance, arena_cache_size = 8192, sram_target = 8192>} {
  func.func @overlap(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x32xi8> attributes {npu.arg_alloc = [#npu.alloc<Sram, offset = 0, size = 1024, live = [0, 3]>]} {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %dw = "tfl.pseudo_const"() <{value = dense<1> : tensor<1x3x3x16xi8>}> : () -> tensor<1x3x3x16xi8>
    %w2 = "tfl.pseudo_const"() <{value = dense<1> : tensor<32x1x1x16xi8>}> : () -> tensor<32x1x1x16xi8>
    %b2 = "tfl.pseudo_const"() <{value = dense<0> : tensor<32xi32>}> : () -> tensor<32xi32>
    %0 = "npu.conv2d"(%x, %w, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "conv1"}> {npu.time = 0 : i64, npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<0, rolling = 6x8x16>, npu.alloc = #npu.alloc<Sram, offset = 1024, size = 768, live = [0, 2]>} : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %1 = "npu.dma"(%w2) <{name = "conv2_weights"}> {npu.time = 1 : i64, npu.stream = #npu.stream<slices = [0, 16, 32], buffering = double, buffers = [256, 256], bytes = 512, prefetch>, npu.alloc = #npu.alloc<Sram, offset = 1792, size = 512, live = [1, 4]>} : (tensor<32x1x1x16xi8>) -> tensor<32x1x1x16xi8>
    // expected-error@+1 {{schedule rule 3 (allocation): 'dw' (Sram bytes 1536..2559, live 2..3) overlaps 'conv1' (Sram bytes 1024..1791, live 0..2)}}
    %2 = "npu.depthwise_conv2d"(%0, %dw, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "dw"}> {npu.time = 2 : i64, npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<0>, npu.alloc = #npu.alloc<Sram, offset = 1536, size = 1024, live = [2, 3]>} : (tensor<1x8x8x16xi8>, tensor<1x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %3 = "npu.add"(%2, %x) <{name = "add"}> {npu.time = 3 : i64, npu.alloc = #npu.alloc<Sram, offset = 2304, size = 1024, live = [3, 4]>} : (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
    %4 = "npu.conv2d"(%3, %1, %b2) <{kernel = #npu.kernel<1x1>, name = "conv2"}> {npu.time = 4 : i64, npu.alloc = #npu.alloc<Sram, offset = 3328, size = 2048, live = [4, 4]>} : (tensor<1x8x8x16xi8>, tensor<32x1x1x16xi8>, tensor<32xi32>) -> tensor<1x8x8x32xi8>
    return %4 : tensor<1x8x8x32xi8>
  }
}

// -----

// Rule 3: in place only at the one time the IFM's range ends and the OFM's starts.
module attributes {npu.schedule = #npu.schedule<Performance, arena_cache_size = 8192, sram_target = 8192>} {
  func.func @in_place_too_long(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x32xi8> attributes {npu.arg_alloc = [#npu.alloc<Sram, offset = 0, size = 1024, live = [0, 3]>]} {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %dw = "tfl.pseudo_const"() <{value = dense<1> : tensor<1x3x3x16xi8>}> : () -> tensor<1x3x3x16xi8>
    %w2 = "tfl.pseudo_const"() <{value = dense<1> : tensor<32x1x1x16xi8>}> : () -> tensor<32x1x1x16xi8>
    %b2 = "tfl.pseudo_const"() <{value = dense<0> : tensor<32xi32>}> : () -> tensor<32xi32>
    %0 = "npu.conv2d"(%x, %w, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "conv1"}> {npu.time = 0 : i64, npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<0, rolling = 6x8x16>, npu.alloc = #npu.alloc<Sram, offset = 1024, size = 768, live = [0, 2]>} : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %1 = "npu.dma"(%w2) <{name = "conv2_weights"}> {npu.time = 1 : i64, npu.stream = #npu.stream<slices = [0, 16, 32], buffering = double, buffers = [256, 256], bytes = 512, prefetch>, npu.alloc = #npu.alloc<Sram, offset = 1792, size = 512, live = [1, 4]>} : (tensor<32x1x1x16xi8>) -> tensor<32x1x1x16xi8>
    %2 = "npu.depthwise_conv2d"(%0, %dw, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "dw"}> {npu.time = 2 : i64, npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<0>, npu.alloc = #npu.alloc<Sram, offset = 2304, size = 1024, live = [2, 4]>} : (tensor<1x8x8x16xi8>, tensor<1x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    // expected-error@+1 {{schedule rule 3 (allocation): 'add' (Sram bytes 2304..3327, live 3..4) overlaps 'dw' (Sram bytes 2304..3327, live 2..4)}}
    %3 = "npu.add"(%2, %x) <{name = "add"}> {npu.time = 3 : i64, npu.alloc = #npu.alloc<Sram, offset = 2304, size = 1024, live = [3, 4]>} : (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
    %4 = "npu.conv2d"(%3, %1, %b2) <{kernel = #npu.kernel<1x1>, name = "conv2"}> {npu.time = 4 : i64, npu.alloc = #npu.alloc<Sram, offset = 3328, size = 2048, live = [4, 4]>} : (tensor<1x8x8x16xi8>, tensor<32x1x1x16xi8>, tensor<32xi32>) -> tensor<1x8x8x32xi8>
    return %4 : tensor<1x8x8x32xi8>
  }
}

// -----

// Rule 3: the OFM of 'conv2' is 1x8x8x32 i8: 2048 bytes.
module attributes {npu.schedule = #npu.schedule<Performance, arena_cache_size = 8192, sram_target = 8192>} {
  func.func @too_small(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x32xi8> attributes {npu.arg_alloc = [#npu.alloc<Sram, offset = 0, size = 1024, live = [0, 3]>]} {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %dw = "tfl.pseudo_const"() <{value = dense<1> : tensor<1x3x3x16xi8>}> : () -> tensor<1x3x3x16xi8>
    %w2 = "tfl.pseudo_const"() <{value = dense<1> : tensor<32x1x1x16xi8>}> : () -> tensor<32x1x1x16xi8>
    %b2 = "tfl.pseudo_const"() <{value = dense<0> : tensor<32xi32>}> : () -> tensor<32xi32>
    %0 = "npu.conv2d"(%x, %w, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "conv1"}> {npu.time = 0 : i64, npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<0, rolling = 6x8x16>, npu.alloc = #npu.alloc<Sram, offset = 1024, size = 768, live = [0, 2]>} : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %1 = "npu.dma"(%w2) <{name = "conv2_weights"}> {npu.time = 1 : i64, npu.stream = #npu.stream<slices = [0, 16, 32], buffering = double, buffers = [256, 256], bytes = 512, prefetch>, npu.alloc = #npu.alloc<Sram, offset = 1792, size = 512, live = [1, 4]>} : (tensor<32x1x1x16xi8>) -> tensor<32x1x1x16xi8>
    %2 = "npu.depthwise_conv2d"(%0, %dw, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "dw"}> {npu.time = 2 : i64, npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<0>, npu.alloc = #npu.alloc<Sram, offset = 2304, size = 1024, live = [2, 3]>} : (tensor<1x8x8x16xi8>, tensor<1x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %3 = "npu.add"(%2, %x) <{name = "add"}> {npu.time = 3 : i64, npu.alloc = #npu.alloc<Sram, offset = 2304, size = 1024, live = [3, 4]>} : (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
    // expected-error@+1 {{schedule rule 3 (allocation): 'conv2' needs 2048 bytes (1x8x8x32) but its allocation reserves 1024}}
    %4 = "npu.conv2d"(%3, %1, %b2) <{kernel = #npu.kernel<1x1>, name = "conv2"}> {npu.time = 4 : i64, npu.alloc = #npu.alloc<Sram, offset = 3328, size = 1024, live = [4, 4]>} : (tensor<1x8x8x16xi8>, tensor<32x1x1x16xi8>, tensor<32xi32>) -> tensor<1x8x8x32xi8>
    return %4 : tensor<1x8x8x32xi8>
  }
}

// -----

// Rule 3: a cascade member's OFM takes its rolling buffer's bytes (6x8x16).
module attributes {npu.schedule = #npu.schedule<Performance, arena_cache_size = 8192, sram_target = 8192>} {
  func.func @rolling_too_small(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x32xi8> attributes {npu.arg_alloc = [#npu.alloc<Sram, offset = 0, size = 1024, live = [0, 3]>]} {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %dw = "tfl.pseudo_const"() <{value = dense<1> : tensor<1x3x3x16xi8>}> : () -> tensor<1x3x3x16xi8>
    %w2 = "tfl.pseudo_const"() <{value = dense<1> : tensor<32x1x1x16xi8>}> : () -> tensor<32x1x1x16xi8>
    %b2 = "tfl.pseudo_const"() <{value = dense<0> : tensor<32xi32>}> : () -> tensor<32xi32>
    // expected-error@+1 {{schedule rule 3 (allocation): 'conv1' needs 768 bytes (the rolling buffer 6x8x16) but its allocation reserves 512}}
    %0 = "npu.conv2d"(%x, %w, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "conv1"}> {npu.time = 0 : i64, npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<0, rolling = 6x8x16>, npu.alloc = #npu.alloc<Sram, offset = 1024, size = 512, live = [0, 2]>} : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %1 = "npu.dma"(%w2) <{name = "conv2_weights"}> {npu.time = 1 : i64, npu.stream = #npu.stream<slices = [0, 16, 32], buffering = double, buffers = [256, 256], bytes = 512, prefetch>, npu.alloc = #npu.alloc<Sram, offset = 1792, size = 512, live = [1, 4]>} : (tensor<32x1x1x16xi8>) -> tensor<32x1x1x16xi8>
    %2 = "npu.depthwise_conv2d"(%0, %dw, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "dw"}> {npu.time = 2 : i64, npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<0>, npu.alloc = #npu.alloc<Sram, offset = 2304, size = 1024, live = [2, 3]>} : (tensor<1x8x8x16xi8>, tensor<1x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %3 = "npu.add"(%2, %x) <{name = "add"}> {npu.time = 3 : i64, npu.alloc = #npu.alloc<Sram, offset = 2304, size = 1024, live = [3, 4]>} : (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
    %4 = "npu.conv2d"(%3, %1, %b2) <{kernel = #npu.kernel<1x1>, name = "conv2"}> {npu.time = 4 : i64, npu.alloc = #npu.alloc<Sram, offset = 3328, size = 2048, live = [4, 4]>} : (tensor<1x8x8x16xi8>, tensor<32x1x1x16xi8>, tensor<32xi32>) -> tensor<1x8x8x32xi8>
    return %4 : tensor<1x8x8x32xi8>
  }
}

// -----

// Rule 3: the rolling buffer is read by 'dw' at time 2.
module attributes {npu.schedule = #npu.schedule<Performance, arena_cache_size = 8192, sram_target = 8192>} {
  func.func @live_too_short(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x32xi8> attributes {npu.arg_alloc = [#npu.alloc<Sram, offset = 0, size = 1024, live = [0, 3]>]} {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %dw = "tfl.pseudo_const"() <{value = dense<1> : tensor<1x3x3x16xi8>}> : () -> tensor<1x3x3x16xi8>
    %w2 = "tfl.pseudo_const"() <{value = dense<1> : tensor<32x1x1x16xi8>}> : () -> tensor<32x1x1x16xi8>
    %b2 = "tfl.pseudo_const"() <{value = dense<0> : tensor<32xi32>}> : () -> tensor<32xi32>
    // expected-error@+1 {{schedule rule 3 (allocation): the allocation of 'conv1' is live until time 1, before its last reader at time 2}}
    %0 = "npu.conv2d"(%x, %w, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "conv1"}> {npu.time = 0 : i64, npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<0, rolling = 6x8x16>, npu.alloc = #npu.alloc<Sram, offset = 1024, size = 768, live = [0, 1]>} : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %1 = "npu.dma"(%w2) <{name = "conv2_weights"}> {npu.time = 1 : i64, npu.stream = #npu.stream<slices = [0, 16, 32], buffering = double, buffers = [256, 256], bytes = 512, prefetch>, npu.alloc = #npu.alloc<Sram, offset = 1792, size = 512, live = [1, 4]>} : (tensor<32x1x1x16xi8>) -> tensor<32x1x1x16xi8>
    %2 = "npu.depthwise_conv2d"(%0, %dw, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "dw"}> {npu.time = 2 : i64, npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<0>, npu.alloc = #npu.alloc<Sram, offset = 2304, size = 1024, live = [2, 3]>} : (tensor<1x8x8x16xi8>, tensor<1x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %3 = "npu.add"(%2, %x) <{name = "add"}> {npu.time = 3 : i64, npu.alloc = #npu.alloc<Sram, offset = 2304, size = 1024, live = [3, 4]>} : (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
    %4 = "npu.conv2d"(%3, %1, %b2) <{kernel = #npu.kernel<1x1>, name = "conv2"}> {npu.time = 4 : i64, npu.alloc = #npu.alloc<Sram, offset = 3328, size = 2048, live = [4, 4]>} : (tensor<1x8x8x16xi8>, tensor<32x1x1x16xi8>, tensor<32xi32>) -> tensor<1x8x8x32xi8>
    return %4 : tensor<1x8x8x32xi8>
  }
}

// -----

// Rule 3: a weight stream's allocation holds its buffers (256 + 256 bytes).
module attributes {npu.schedule = #npu.schedule<Performance, arena_cache_size = 8192, sram_target = 8192>} {
  func.func @stream_buffers(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x32xi8> attributes {npu.arg_alloc = [#npu.alloc<Sram, offset = 0, size = 1024, live = [0, 3]>]} {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %dw = "tfl.pseudo_const"() <{value = dense<1> : tensor<1x3x3x16xi8>}> : () -> tensor<1x3x3x16xi8>
    %w2 = "tfl.pseudo_const"() <{value = dense<1> : tensor<32x1x1x16xi8>}> : () -> tensor<32x1x1x16xi8>
    %b2 = "tfl.pseudo_const"() <{value = dense<0> : tensor<32xi32>}> : () -> tensor<32xi32>
    %0 = "npu.conv2d"(%x, %w, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "conv1"}> {npu.time = 0 : i64, npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<0, rolling = 6x8x16>, npu.alloc = #npu.alloc<Sram, offset = 1024, size = 768, live = [0, 2]>} : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    // expected-error@+1 {{schedule rule 3 (allocation): 'conv2_weights' needs 768 bytes (its double-buffered weight stream) but its allocation reserves 512}}
    %1 = "npu.dma"(%w2) <{name = "conv2_weights"}> {npu.time = 1 : i64, npu.stream = #npu.stream<slices = [0, 16, 32], buffering = double, buffers = [256, 512], bytes = 768, prefetch>, npu.alloc = #npu.alloc<Sram, offset = 1792, size = 512, live = [1, 4]>} : (tensor<32x1x1x16xi8>) -> tensor<32x1x1x16xi8>
    %2 = "npu.depthwise_conv2d"(%0, %dw, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "dw"}> {npu.time = 2 : i64, npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<0>, npu.alloc = #npu.alloc<Sram, offset = 2304, size = 1024, live = [2, 3]>} : (tensor<1x8x8x16xi8>, tensor<1x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %3 = "npu.add"(%2, %x) <{name = "add"}> {npu.time = 3 : i64, npu.alloc = #npu.alloc<Sram, offset = 2304, size = 1024, live = [3, 4]>} : (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
    %4 = "npu.conv2d"(%3, %1, %b2) <{kernel = #npu.kernel<1x1>, name = "conv2"}> {npu.time = 4 : i64, npu.alloc = #npu.alloc<Sram, offset = 3328, size = 2048, live = [4, 4]>} : (tensor<1x8x8x16xi8>, tensor<32x1x1x16xi8>, tensor<32xi32>) -> tensor<1x8x8x32xi8>
    return %4 : tensor<1x8x8x32xi8>
  }
}

// -----

// Rule 3: a double-buffered stream's second buffer allocated apart (npu.second_buffer) is
// filled once its reader runs, so it may take bytes a tensor frees before then (conv1's
// rolling buffer, live 0..2); the first buffer alone is live from the prefetch.
// expected-note@+1 {{schedule OK: 6 rules checked (1 function, }}
module attributes {npu.schedule = #npu.schedule<Performance, arena_cache_size = 8192, sram_target = 8192>} {
  func.func @second_buffer(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x32xi8> attributes {npu.arg_alloc = [#npu.alloc<Sram, offset = 0, size = 1024, live = [0, 3]>]} {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %dw = "tfl.pseudo_const"() <{value = dense<1> : tensor<1x3x3x16xi8>}> : () -> tensor<1x3x3x16xi8>
    %w2 = "tfl.pseudo_const"() <{value = dense<1> : tensor<32x1x1x16xi8>}> : () -> tensor<32x1x1x16xi8>
    %b2 = "tfl.pseudo_const"() <{value = dense<0> : tensor<32xi32>}> : () -> tensor<32xi32>
    %0 = "npu.conv2d"(%x, %w, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "conv1"}> {npu.time = 0 : i64, npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<0, rolling = 6x8x16>, npu.alloc = #npu.alloc<Sram, offset = 1024, size = 768, live = [0, 2]>} : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %1 = "npu.dma"(%w2) <{name = "conv2_weights"}> {npu.time = 1 : i64, npu.stream = #npu.stream<slices = [0, 16, 32], buffering = double, buffers = [256, 256], bytes = 512, prefetch>, npu.alloc = #npu.alloc<Sram, offset = 1792, size = 256, live = [1, 4]>, npu.second_buffer = #npu.alloc<Sram, offset = 1024, size = 256, live = [4, 4]>} : (tensor<32x1x1x16xi8>) -> tensor<32x1x1x16xi8>
    %2 = "npu.depthwise_conv2d"(%0, %dw, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "dw"}> {npu.time = 2 : i64, npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<0>, npu.alloc = #npu.alloc<Sram, offset = 2304, size = 1024, live = [2, 3]>} : (tensor<1x8x8x16xi8>, tensor<1x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %3 = "npu.add"(%2, %x) <{name = "add"}> {npu.time = 3 : i64, npu.alloc = #npu.alloc<Sram, offset = 2304, size = 1024, live = [3, 4]>} : (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
    %4 = "npu.conv2d"(%3, %1, %b2) <{kernel = #npu.kernel<1x1>, name = "conv2"}> {npu.time = 4 : i64, npu.alloc = #npu.alloc<Sram, offset = 3328, size = 2048, live = [4, 4]>} : (tensor<1x8x8x16xi8>, tensor<32x1x1x16xi8>, tensor<32xi32>) -> tensor<1x8x8x32xi8>
    return %4 : tensor<1x8x8x32xi8>
  }
}


// -----

// Rule 3: the second buffer must be live when its reader starts.
module attributes {npu.schedule = #npu.schedule<Performance, arena_cache_size = 8192, sram_target = 8192>} {
  func.func @second_buffer_late(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x32xi8> attributes {npu.arg_alloc = [#npu.alloc<Sram, offset = 0, size = 1024, live = [0, 3]>]} {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %dw = "tfl.pseudo_const"() <{value = dense<1> : tensor<1x3x3x16xi8>}> : () -> tensor<1x3x3x16xi8>
    %w2 = "tfl.pseudo_const"() <{value = dense<1> : tensor<32x1x1x16xi8>}> : () -> tensor<32x1x1x16xi8>
    %b2 = "tfl.pseudo_const"() <{value = dense<0> : tensor<32xi32>}> : () -> tensor<32xi32>
    %0 = "npu.conv2d"(%x, %w, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "conv1"}> {npu.time = 0 : i64, npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<0, rolling = 6x8x16>, npu.alloc = #npu.alloc<Sram, offset = 1024, size = 768, live = [0, 2]>} : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    // expected-error@+1 {{schedule rule 3 (allocation): the allocation of the second buffer of 'conv2_weights' is live from time 5, after its reader starts at time 4}}
    %1 = "npu.dma"(%w2) <{name = "conv2_weights"}> {npu.time = 1 : i64, npu.stream = #npu.stream<slices = [0, 16, 32], buffering = double, buffers = [256, 256], bytes = 512, prefetch>, npu.alloc = #npu.alloc<Sram, offset = 1792, size = 256, live = [1, 4]>, npu.second_buffer = #npu.alloc<Sram, offset = 1024, size = 256, live = [5, 5]>} : (tensor<32x1x1x16xi8>) -> tensor<32x1x1x16xi8>
    %2 = "npu.depthwise_conv2d"(%0, %dw, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "dw"}> {npu.time = 2 : i64, npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<0>, npu.alloc = #npu.alloc<Sram, offset = 2304, size = 1024, live = [2, 3]>} : (tensor<1x8x8x16xi8>, tensor<1x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %3 = "npu.add"(%2, %x) <{name = "add"}> {npu.time = 3 : i64, npu.alloc = #npu.alloc<Sram, offset = 2304, size = 1024, live = [3, 4]>} : (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
    %4 = "npu.conv2d"(%3, %1, %b2) <{kernel = #npu.kernel<1x1>, name = "conv2"}> {npu.time = 4 : i64, npu.alloc = #npu.alloc<Sram, offset = 3328, size = 2048, live = [4, 4]>} : (tensor<1x8x8x16xi8>, tensor<32x1x1x16xi8>, tensor<32xi32>) -> tensor<1x8x8x32xi8>
    return %4 : tensor<1x8x8x32xi8>
  }
}


// -----

// Rule 3: the second buffer may not share bytes with a tensor live while its reader runs.
module attributes {npu.schedule = #npu.schedule<Performance, arena_cache_size = 8192, sram_target = 8192>} {
  func.func @second_buffer_over(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x32xi8> attributes {npu.arg_alloc = [#npu.alloc<Sram, offset = 0, size = 1024, live = [0, 3]>]} {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %dw = "tfl.pseudo_const"() <{value = dense<1> : tensor<1x3x3x16xi8>}> : () -> tensor<1x3x3x16xi8>
    %w2 = "tfl.pseudo_const"() <{value = dense<1> : tensor<32x1x1x16xi8>}> : () -> tensor<32x1x1x16xi8>
    %b2 = "tfl.pseudo_const"() <{value = dense<0> : tensor<32xi32>}> : () -> tensor<32xi32>
    %0 = "npu.conv2d"(%x, %w, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "conv1"}> {npu.time = 0 : i64, npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<0, rolling = 6x8x16>, npu.alloc = #npu.alloc<Sram, offset = 1024, size = 768, live = [0, 2]>} : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    // expected-error@+1 {{schedule rule 3 (allocation): the second buffer of 'conv2_weights' (Sram bytes 2304..2559, live 4..4) overlaps 'add' (Sram bytes 2304..3327, live 3..4)}}
    %1 = "npu.dma"(%w2) <{name = "conv2_weights"}> {npu.time = 1 : i64, npu.stream = #npu.stream<slices = [0, 16, 32], buffering = double, buffers = [256, 256], bytes = 512, prefetch>, npu.alloc = #npu.alloc<Sram, offset = 1792, size = 256, live = [1, 4]>, npu.second_buffer = #npu.alloc<Sram, offset = 2304, size = 256, live = [4, 4]>} : (tensor<32x1x1x16xi8>) -> tensor<32x1x1x16xi8>
    %2 = "npu.depthwise_conv2d"(%0, %dw, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "dw"}> {npu.time = 2 : i64, npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<0>, npu.alloc = #npu.alloc<Sram, offset = 2304, size = 1024, live = [2, 3]>} : (tensor<1x8x8x16xi8>, tensor<1x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %3 = "npu.add"(%2, %x) <{name = "add"}> {npu.time = 3 : i64, npu.alloc = #npu.alloc<Sram, offset = 2304, size = 1024, live = [3, 4]>} : (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
    %4 = "npu.conv2d"(%3, %1, %b2) <{kernel = #npu.kernel<1x1>, name = "conv2"}> {npu.time = 4 : i64, npu.alloc = #npu.alloc<Sram, offset = 3328, size = 2048, live = [4, 4]>} : (tensor<1x8x8x16xi8>, tensor<32x1x1x16xi8>, tensor<32xi32>) -> tensor<1x8x8x32xi8>
    return %4 : tensor<1x8x8x32xi8>
  }
}


// -----

// Rule 4: every allocation ends within the arena cache size (4096 here) of fast storage.
module attributes {npu.schedule = #npu.schedule<Performance, arena_cache_size = 4096, sram_target = 8192>} {
  func.func @over_arena(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x32xi8> attributes {npu.arg_alloc = [#npu.alloc<Sram, offset = 0, size = 1024, live = [0, 3]>]} {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %dw = "tfl.pseudo_const"() <{value = dense<1> : tensor<1x3x3x16xi8>}> : () -> tensor<1x3x3x16xi8>
    %w2 = "tfl.pseudo_const"() <{value = dense<1> : tensor<32x1x1x16xi8>}> : () -> tensor<32x1x1x16xi8>
    %b2 = "tfl.pseudo_const"() <{value = dense<0> : tensor<32xi32>}> : () -> tensor<32xi32>
    %0 = "npu.conv2d"(%x, %w, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "conv1"}> {npu.time = 0 : i64, npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<0, rolling = 6x8x16>, npu.alloc = #npu.alloc<Sram, offset = 1024, size = 768, live = [0, 2]>} : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %1 = "npu.dma"(%w2) <{name = "conv2_weights"}> {npu.time = 1 : i64, npu.stream = #npu.stream<slices = [0, 16, 32], buffering = double, buffers = [256, 256], bytes = 512, prefetch>, npu.alloc = #npu.alloc<Sram, offset = 1792, size = 512, live = [1, 4]>} : (tensor<32x1x1x16xi8>) -> tensor<32x1x1x16xi8>
    %2 = "npu.depthwise_conv2d"(%0, %dw, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "dw"}> {npu.time = 2 : i64, npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<0>, npu.alloc = #npu.alloc<Sram, offset = 2304, size = 1024, live = [2, 3]>} : (tensor<1x8x8x16xi8>, tensor<1x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %3 = "npu.add"(%2, %x) <{name = "add"}> {npu.time = 3 : i64, npu.alloc = #npu.alloc<Sram, offset = 2304, size = 1024, live = [3, 4]>} : (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
    // expected-error@+1 {{schedule rule 4 (memory limit): 'conv2' ends at byte 5376 of Sram, beyond the scheduled arena cache size of 4096 bytes}}
    %4 = "npu.conv2d"(%3, %1, %b2) <{kernel = #npu.kernel<1x1>, name = "conv2"}> {npu.time = 4 : i64, npu.alloc = #npu.alloc<Sram, offset = 3328, size = 2048, live = [4, 4]>} : (tensor<1x8x8x16xi8>, tensor<32x1x1x16xi8>, tensor<32xi32>) -> tensor<1x8x8x32xi8>
    return %4 : tensor<1x8x8x32xi8>
  }
}

// -----

// Rule 4 with a target: a fast storage separate from the arena (Dedicated_Sram) holds at most
// the arena cache size.
module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram_384KB">, npu.schedule = #npu.schedule<Performance, arena_cache_size = 4096, sram_target = 8192>} {
  func.func @dedicated_over_arena(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x32xi8> attributes {npu.arg_alloc = [#npu.alloc<Sram, offset = 0, size = 1024, live = [0, 3]>]} {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %dw = "tfl.pseudo_const"() <{value = dense<1> : tensor<1x3x3x16xi8>}> : () -> tensor<1x3x3x16xi8>
    %w2 = "tfl.pseudo_const"() <{value = dense<1> : tensor<32x1x1x16xi8>}> : () -> tensor<32x1x1x16xi8>
    %b2 = "tfl.pseudo_const"() <{value = dense<0> : tensor<32xi32>}> : () -> tensor<32xi32>
    %0 = "npu.conv2d"(%x, %w, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "conv1"}> {npu.time = 0 : i64, npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<0, rolling = 6x8x16>, npu.alloc = #npu.alloc<Sram, offset = 1024, size = 768, live = [0, 2]>} : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %1 = "npu.dma"(%w2) <{name = "conv2_weights"}> {npu.time = 1 : i64, npu.stream = #npu.stream<slices = [0, 16, 32], buffering = double, buffers = [256, 256], bytes = 512, prefetch>, npu.alloc = #npu.alloc<Sram, offset = 1792, size = 512, live = [1, 4]>} : (tensor<32x1x1x16xi8>) -> tensor<32x1x1x16xi8>
    %2 = "npu.depthwise_conv2d"(%0, %dw, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "dw"}> {npu.time = 2 : i64, npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<0>, npu.alloc = #npu.alloc<Sram, offset = 2304, size = 1024, live = [2, 3]>} : (tensor<1x8x8x16xi8>, tensor<1x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %3 = "npu.add"(%2, %x) <{name = "add"}> {npu.time = 3 : i64, npu.alloc = #npu.alloc<Sram, offset = 2304, size = 1024, live = [3, 4]>} : (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
    // expected-error@+1 {{schedule rule 4 (memory limit): 'conv2' ends at byte 5376 of Sram, beyond the scheduled arena cache size of 4096 bytes}}
    %4 = "npu.conv2d"(%3, %1, %b2) <{kernel = #npu.kernel<1x1>, name = "conv2"}> {npu.time = 4 : i64, npu.alloc = #npu.alloc<Sram, offset = 3328, size = 2048, live = [4, 4]>} : (tensor<1x8x8x16xi8>, tensor<32x1x1x16xi8>, tensor<32xi32>) -> tensor<1x8x8x32xi8>
    return %4 : tensor<1x8x8x32xi8>
  }
}


// -----

// Where the arena is in a shared SRAM the arena cache size is a target (npu-allocate remarks on
// it, Vela warns): an allocation past it is no error.
// expected-note@+1 {{schedule OK: 6 rules checked (1 function, }}
module attributes {npu.target = #npu.target<"ethos-u55-128", system_config = "Ethos_U55_High_End_Embedded", memory_mode = "Shared_Sram">, npu.schedule = #npu.schedule<Performance, arena_cache_size = 4096, sram_target = 8192>} {
  func.func @shared_over_arena(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x32xi8> attributes {npu.arg_alloc = [#npu.alloc<Sram, offset = 0, size = 1024, live = [0, 3]>]} {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %dw = "tfl.pseudo_const"() <{value = dense<1> : tensor<1x3x3x16xi8>}> : () -> tensor<1x3x3x16xi8>
    %w2 = "tfl.pseudo_const"() <{value = dense<1> : tensor<32x1x1x16xi8>}> : () -> tensor<32x1x1x16xi8>
    %b2 = "tfl.pseudo_const"() <{value = dense<0> : tensor<32xi32>}> : () -> tensor<32xi32>
    %0 = "npu.conv2d"(%x, %w, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "conv1"}> {npu.time = 0 : i64, npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<0, rolling = 6x8x16>, npu.alloc = #npu.alloc<Sram, offset = 1024, size = 768, live = [0, 2]>} : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %1 = "npu.dma"(%w2) <{name = "conv2_weights"}> {npu.time = 1 : i64, npu.stream = #npu.stream<slices = [0, 16, 32], buffering = double, buffers = [256, 256], bytes = 512, prefetch>, npu.alloc = #npu.alloc<Sram, offset = 1792, size = 512, live = [1, 4]>} : (tensor<32x1x1x16xi8>) -> tensor<32x1x1x16xi8>
    %2 = "npu.depthwise_conv2d"(%0, %dw, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "dw"}> {npu.time = 2 : i64, npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<0>, npu.alloc = #npu.alloc<Sram, offset = 2304, size = 1024, live = [2, 3]>} : (tensor<1x8x8x16xi8>, tensor<1x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %3 = "npu.add"(%2, %x) <{name = "add"}> {npu.time = 3 : i64, npu.alloc = #npu.alloc<Sram, offset = 2304, size = 1024, live = [3, 4]>} : (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
    %4 = "npu.conv2d"(%3, %1, %b2) <{kernel = #npu.kernel<1x1>, name = "conv2"}> {npu.time = 4 : i64, npu.alloc = #npu.alloc<Sram, offset = 3328, size = 2048, live = [4, 4]>} : (tensor<1x8x8x16xi8>, tensor<32x1x1x16xi8>, tensor<32xi32>) -> tensor<1x8x8x32xi8>
    return %4 : tensor<1x8x8x32xi8>
  }
}


// -----

// Rule 4: npu.usage's bound is the most bytes live at one time: 3584 at time 4.
// expected-error@+1 {{schedule rule 4 (memory limit): npu.usage says at most 3000 bytes of Sram are live at once but the allocations have 3584}}
module attributes {npu.schedule = #npu.schedule<Performance, arena_cache_size = 8192, sram_target = 8192>, npu.usage = #npu.usage<Sram = [5376, 3000]>} {
  func.func @usage(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x32xi8> attributes {npu.arg_alloc = [#npu.alloc<Sram, offset = 0, size = 1024, live = [0, 3]>]} {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %dw = "tfl.pseudo_const"() <{value = dense<1> : tensor<1x3x3x16xi8>}> : () -> tensor<1x3x3x16xi8>
    %w2 = "tfl.pseudo_const"() <{value = dense<1> : tensor<32x1x1x16xi8>}> : () -> tensor<32x1x1x16xi8>
    %b2 = "tfl.pseudo_const"() <{value = dense<0> : tensor<32xi32>}> : () -> tensor<32xi32>
    %0 = "npu.conv2d"(%x, %w, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "conv1"}> {npu.time = 0 : i64, npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<0, rolling = 6x8x16>, npu.alloc = #npu.alloc<Sram, offset = 1024, size = 768, live = [0, 2]>} : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %1 = "npu.dma"(%w2) <{name = "conv2_weights"}> {npu.time = 1 : i64, npu.stream = #npu.stream<slices = [0, 16, 32], buffering = double, buffers = [256, 256], bytes = 512, prefetch>, npu.alloc = #npu.alloc<Sram, offset = 1792, size = 512, live = [1, 4]>} : (tensor<32x1x1x16xi8>) -> tensor<32x1x1x16xi8>
    %2 = "npu.depthwise_conv2d"(%0, %dw, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "dw"}> {npu.time = 2 : i64, npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<0>, npu.alloc = #npu.alloc<Sram, offset = 2304, size = 1024, live = [2, 3]>} : (tensor<1x8x8x16xi8>, tensor<1x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %3 = "npu.add"(%2, %x) <{name = "add"}> {npu.time = 3 : i64, npu.alloc = #npu.alloc<Sram, offset = 2304, size = 1024, live = [3, 4]>} : (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
    %4 = "npu.conv2d"(%3, %1, %b2) <{kernel = #npu.kernel<1x1>, name = "conv2"}> {npu.time = 4 : i64, npu.alloc = #npu.alloc<Sram, offset = 3328, size = 2048, live = [4, 4]>} : (tensor<1x8x8x16xi8>, tensor<32x1x1x16xi8>, tensor<32xi32>) -> tensor<1x8x8x32xi8>
    return %4 : tensor<1x8x8x32xi8>
  }
}

// -----

// Rule 5: 'dw' needs 4 input rows per 2-row stripe (3x3 kernel) and 'conv1' writes 2 more.
module attributes {npu.schedule = #npu.schedule<Performance, arena_cache_size = 8192, sram_target = 8192>} {
  func.func @rolling_rows(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x32xi8> attributes {npu.arg_alloc = [#npu.alloc<Sram, offset = 0, size = 1024, live = [0, 3]>]} {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %dw = "tfl.pseudo_const"() <{value = dense<1> : tensor<1x3x3x16xi8>}> : () -> tensor<1x3x3x16xi8>
    %w2 = "tfl.pseudo_const"() <{value = dense<1> : tensor<32x1x1x16xi8>}> : () -> tensor<32x1x1x16xi8>
    %b2 = "tfl.pseudo_const"() <{value = dense<0> : tensor<32xi32>}> : () -> tensor<32xi32>
    %0 = "npu.conv2d"(%x, %w, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "conv1"}> {npu.time = 0 : i64, npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<0, rolling = 5x8x16>, npu.alloc = #npu.alloc<Sram, offset = 1024, size = 640, live = [0, 2]>} : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %1 = "npu.dma"(%w2) <{name = "conv2_weights"}> {npu.time = 1 : i64, npu.stream = #npu.stream<slices = [0, 16, 32], buffering = double, buffers = [256, 256], bytes = 512, prefetch>, npu.alloc = #npu.alloc<Sram, offset = 1792, size = 512, live = [1, 4]>} : (tensor<32x1x1x16xi8>) -> tensor<32x1x1x16xi8>
    // expected-error@+1 {{schedule rule 5 (cascade): 'dw' reads rows 1..4 of its input (4 rows: stripe 2, stride 1, kernel 3x3) while 'conv1' writes stripes of 2 rows, but the rolling buffer holds 5 rows (needs 6)}}
    %2 = "npu.depthwise_conv2d"(%0, %dw, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "dw"}> {npu.time = 2 : i64, npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<0>, npu.alloc = #npu.alloc<Sram, offset = 2304, size = 1024, live = [2, 3]>} : (tensor<1x8x8x16xi8>, tensor<1x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %3 = "npu.add"(%2, %x) <{name = "add"}> {npu.time = 3 : i64, npu.alloc = #npu.alloc<Sram, offset = 2304, size = 1024, live = [3, 4]>} : (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
    %4 = "npu.conv2d"(%3, %1, %b2) <{kernel = #npu.kernel<1x1>, name = "conv2"}> {npu.time = 4 : i64, npu.alloc = #npu.alloc<Sram, offset = 3328, size = 2048, live = [4, 4]>} : (tensor<1x8x8x16xi8>, tensor<32x1x1x16xi8>, tensor<32xi32>) -> tensor<1x8x8x32xi8>
    return %4 : tensor<1x8x8x32xi8>
  }
}

// -----

// Rule 5: a stripe is no larger than its OFM.
module attributes {npu.schedule = #npu.schedule<Performance, arena_cache_size = 8192, sram_target = 8192>} {
  func.func @stripe_too_big(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x32xi8> attributes {npu.arg_alloc = [#npu.alloc<Sram, offset = 0, size = 1024, live = [0, 3]>]} {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %dw = "tfl.pseudo_const"() <{value = dense<1> : tensor<1x3x3x16xi8>}> : () -> tensor<1x3x3x16xi8>
    %w2 = "tfl.pseudo_const"() <{value = dense<1> : tensor<32x1x1x16xi8>}> : () -> tensor<32x1x1x16xi8>
    %b2 = "tfl.pseudo_const"() <{value = dense<0> : tensor<32xi32>}> : () -> tensor<32xi32>
    %0 = "npu.conv2d"(%x, %w, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "conv1"}> {npu.time = 0 : i64, npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<0, rolling = 6x8x16>, npu.alloc = #npu.alloc<Sram, offset = 1024, size = 768, live = [0, 2]>} : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %1 = "npu.dma"(%w2) <{name = "conv2_weights"}> {npu.time = 1 : i64, npu.stream = #npu.stream<slices = [0, 16, 32], buffering = double, buffers = [256, 256], bytes = 512, prefetch>, npu.alloc = #npu.alloc<Sram, offset = 1792, size = 512, live = [1, 4]>} : (tensor<32x1x1x16xi8>) -> tensor<32x1x1x16xi8>
    // expected-error@+1 {{schedule rule 5 (cascade): 'dw' has stripe 2x8x32, larger than its OFM 8x8x16}}
    %2 = "npu.depthwise_conv2d"(%0, %dw, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "dw"}> {npu.time = 2 : i64, npu.stripe = #npu.stripe<2x8x32>, npu.cascade = #npu.cascade<0>, npu.alloc = #npu.alloc<Sram, offset = 2304, size = 1024, live = [2, 3]>} : (tensor<1x8x8x16xi8>, tensor<1x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %3 = "npu.add"(%2, %x) <{name = "add"}> {npu.time = 3 : i64, npu.alloc = #npu.alloc<Sram, offset = 2304, size = 1024, live = [3, 4]>} : (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
    %4 = "npu.conv2d"(%3, %1, %b2) <{kernel = #npu.kernel<1x1>, name = "conv2"}> {npu.time = 4 : i64, npu.alloc = #npu.alloc<Sram, offset = 3328, size = 2048, live = [4, 4]>} : (tensor<1x8x8x16xi8>, tensor<32x1x1x16xi8>, tensor<32xi32>) -> tensor<1x8x8x32xi8>
    return %4 : tensor<1x8x8x32xi8>
  }
}

// -----

// Rule 6: the weight slices end at the consumer's OFM depth (32).
module attributes {npu.schedule = #npu.schedule<Performance, arena_cache_size = 8192, sram_target = 8192>, npu.usage = #npu.usage<Sram = [5376, 3584]>} {
  func.func @slices_end(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x32xi8> attributes {npu.arg_alloc = [#npu.alloc<Sram, offset = 0, size = 1024, live = [0, 3]>]} {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %dw = "tfl.pseudo_const"() <{value = dense<1> : tensor<1x3x3x16xi8>}> : () -> tensor<1x3x3x16xi8>
    %w2 = "tfl.pseudo_const"() <{value = dense<1> : tensor<32x1x1x16xi8>}> : () -> tensor<32x1x1x16xi8>
    %b2 = "tfl.pseudo_const"() <{value = dense<0> : tensor<32xi32>}> : () -> tensor<32xi32>
    %0 = "npu.conv2d"(%x, %w, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "conv1"}> {npu.time = 0 : i64, npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<0, rolling = 6x8x16>, npu.alloc = #npu.alloc<Sram, offset = 1024, size = 768, live = [0, 2]>} : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    // expected-error@+1 {{schedule rule 6 (weight slices): the weight slices of 'conv2' end at depth 48 but its OFM depth is 32}}
    %1 = "npu.dma"(%w2) <{name = "conv2_weights"}> {npu.time = 1 : i64, npu.stream = #npu.stream<slices = [0, 16, 48], buffering = double, buffers = [256, 256], bytes = 512, prefetch>, npu.alloc = #npu.alloc<Sram, offset = 1792, size = 512, live = [1, 4]>} : (tensor<32x1x1x16xi8>) -> tensor<32x1x1x16xi8>
    %2 = "npu.depthwise_conv2d"(%0, %dw, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "dw"}> {npu.time = 2 : i64, npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<0>, npu.alloc = #npu.alloc<Sram, offset = 2304, size = 1024, live = [2, 3]>} : (tensor<1x8x8x16xi8>, tensor<1x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %3 = "npu.add"(%2, %x) <{name = "add"}> {npu.time = 3 : i64, npu.alloc = #npu.alloc<Sram, offset = 2304, size = 1024, live = [3, 4]>} : (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
    %4 = "npu.conv2d"(%3, %1, %b2) <{kernel = #npu.kernel<1x1>, name = "conv2"}> {npu.time = 4 : i64, npu.alloc = #npu.alloc<Sram, offset = 3328, size = 2048, live = [4, 4]>} : (tensor<1x8x8x16xi8>, tensor<32x1x1x16xi8>, tensor<32xi32>) -> tensor<1x8x8x32xi8>
    return %4 : tensor<1x8x8x32xi8>
  }
}

// -----

// Rule 6: slice boundaries but the last are multiples of 16.
module attributes {npu.schedule = #npu.schedule<Performance, arena_cache_size = 8192, sram_target = 8192>, npu.usage = #npu.usage<Sram = [5376, 3584]>} {
  func.func @slices_align(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x32xi8> attributes {npu.arg_alloc = [#npu.alloc<Sram, offset = 0, size = 1024, live = [0, 3]>]} {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %dw = "tfl.pseudo_const"() <{value = dense<1> : tensor<1x3x3x16xi8>}> : () -> tensor<1x3x3x16xi8>
    %w2 = "tfl.pseudo_const"() <{value = dense<1> : tensor<32x1x1x16xi8>}> : () -> tensor<32x1x1x16xi8>
    %b2 = "tfl.pseudo_const"() <{value = dense<0> : tensor<32xi32>}> : () -> tensor<32xi32>
    %0 = "npu.conv2d"(%x, %w, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "conv1"}> {npu.time = 0 : i64, npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<0, rolling = 6x8x16>, npu.alloc = #npu.alloc<Sram, offset = 1024, size = 768, live = [0, 2]>} : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    // expected-error@+1 {{schedule rule 6 (weight slices): weight slice boundary 8 of 'conv2' is not a multiple of 16}}
    %1 = "npu.dma"(%w2) <{name = "conv2_weights"}> {npu.time = 1 : i64, npu.stream = #npu.stream<slices = [0, 8, 32], buffering = double, buffers = [256, 256], bytes = 512, prefetch>, npu.alloc = #npu.alloc<Sram, offset = 1792, size = 512, live = [1, 4]>} : (tensor<32x1x1x16xi8>) -> tensor<32x1x1x16xi8>
    %2 = "npu.depthwise_conv2d"(%0, %dw, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "dw"}> {npu.time = 2 : i64, npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<0>, npu.alloc = #npu.alloc<Sram, offset = 2304, size = 1024, live = [2, 3]>} : (tensor<1x8x8x16xi8>, tensor<1x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %3 = "npu.add"(%2, %x) <{name = "add"}> {npu.time = 3 : i64, npu.alloc = #npu.alloc<Sram, offset = 2304, size = 1024, live = [3, 4]>} : (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
    %4 = "npu.conv2d"(%3, %1, %b2) <{kernel = #npu.kernel<1x1>, name = "conv2"}> {npu.time = 4 : i64, npu.alloc = #npu.alloc<Sram, offset = 3328, size = 2048, live = [4, 4]>} : (tensor<1x8x8x16xi8>, tensor<32x1x1x16xi8>, tensor<32xi32>) -> tensor<1x8x8x32xi8>
    return %4 : tensor<1x8x8x32xi8>
  }
}

// -----

// Rule 6: double buffering alternates between at least two slices.
module attributes {npu.schedule = #npu.schedule<Performance, arena_cache_size = 8192, sram_target = 8192>, npu.usage = #npu.usage<Sram = [5376, 3584]>} {
  func.func @double_one_slice(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x32xi8> attributes {npu.arg_alloc = [#npu.alloc<Sram, offset = 0, size = 1024, live = [0, 3]>]} {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x3x3x16xi8>}> : () -> tensor<16x3x3x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %dw = "tfl.pseudo_const"() <{value = dense<1> : tensor<1x3x3x16xi8>}> : () -> tensor<1x3x3x16xi8>
    %w2 = "tfl.pseudo_const"() <{value = dense<1> : tensor<32x1x1x16xi8>}> : () -> tensor<32x1x1x16xi8>
    %b2 = "tfl.pseudo_const"() <{value = dense<0> : tensor<32xi32>}> : () -> tensor<32xi32>
    %0 = "npu.conv2d"(%x, %w, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "conv1"}> {npu.time = 0 : i64, npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<0, rolling = 6x8x16>, npu.alloc = #npu.alloc<Sram, offset = 1024, size = 768, live = [0, 2]>} : (tensor<1x8x8x16xi8>, tensor<16x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    // expected-error@+1 {{schedule rule 6 (weight slices): 'conv2_weights' double-buffers the weights of 'conv2' in 1 slice (double buffering needs at least 2)}}
    %1 = "npu.dma"(%w2) <{name = "conv2_weights"}> {npu.time = 1 : i64, npu.stream = #npu.stream<slices = [0, 32], buffering = double, buffers = [256, 256], bytes = 512, prefetch>, npu.alloc = #npu.alloc<Sram, offset = 1792, size = 512, live = [1, 4]>} : (tensor<32x1x1x16xi8>) -> tensor<32x1x1x16xi8>
    %2 = "npu.depthwise_conv2d"(%0, %dw, %b) <{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>, name = "dw"}> {npu.time = 2 : i64, npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<0>, npu.alloc = #npu.alloc<Sram, offset = 2304, size = 1024, live = [2, 3]>} : (tensor<1x8x8x16xi8>, tensor<1x3x3x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %3 = "npu.add"(%2, %x) <{name = "add"}> {npu.time = 3 : i64, npu.alloc = #npu.alloc<Sram, offset = 2304, size = 1024, live = [3, 4]>} : (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
    %4 = "npu.conv2d"(%3, %1, %b2) <{kernel = #npu.kernel<1x1>, name = "conv2"}> {npu.time = 4 : i64, npu.alloc = #npu.alloc<Sram, offset = 3328, size = 2048, live = [4, 4]>} : (tensor<1x8x8x16xi8>, tensor<32x1x1x16xi8>, tensor<32xi32>) -> tensor<1x8x8x32xi8>
    return %4 : tensor<1x8x8x32xi8>
  }
}

// -----

// Rule 3 in half steps: conv_a's two-slice double buffer is read by its last slice in the second
// buffer only, so conv_b's weights, prefetched under conv_a (the DMA issued after it), may take the
// first buffer's bytes (the transfer runs under that last slice). No error.
// expected-note@+1 {{schedule OK: 6 rules checked (1 function, }}
module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram">, npu.usage = #npu.usage<Dram = [3072, 3072], Sram = [2048, 2048]>} {
  func.func @prefetch_into_tail(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> attributes {npu.arg_alloc = [#npu.alloc<Dram, offset = 0, size = 1024, live = [0, 1]>]} {
    %wa = "tfl.pseudo_const"() <{value = dense<1> : tensor<32x1x1x16xi8>}> : () -> tensor<32x1x1x16xi8>
    %wb = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x1x1x32xi8>}> : () -> tensor<16x1x1x32xi8>
    %ba = "tfl.pseudo_const"() <{value = dense<0> : tensor<32xi32>}> : () -> tensor<32xi32>
    %bb = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %da = "npu.dma"(%wa) <{name = "conv_a_weights"}> {npu.time = 0 : i64, npu.stream = #npu.stream<slices = [0, 16, 32], buffering = double, buffers = [1024, 1024], bytes = 2048>, npu.alloc = #npu.alloc<Sram, offset = 0, size = 1024, live = [0, 1]>, npu.second_buffer = #npu.alloc<Sram, offset = 1024, size = 1024, live = [1, 1]>} : (tensor<32x1x1x16xi8>) -> tensor<32x1x1x16xi8, #npu.fm<NHWC, Sram>>
    %a = "npu.conv2d"(%x, %da, %ba) <{name = "conv_a", kernel = #npu.kernel<1x1>}> {npu.time = 1 : i64, npu.alloc = #npu.alloc<Dram, offset = 1024, size = 2048, live = [1, 3]>} : (tensor<1x8x8x16xi8>, tensor<32x1x1x16xi8, #npu.fm<NHWC, Sram>>, tensor<32xi32>) -> tensor<1x8x8x32xi8>
    %db = "npu.dma"(%wb) <{name = "conv_b_weights"}> {npu.time = 2 : i64, npu.stream = #npu.stream<slices = [0, 16], buffering = single, buffers = [1024], bytes = 1024, prefetch>, npu.alloc = #npu.alloc<Sram, offset = 0, size = 1024, live = [1, 3]>} : (tensor<16x1x1x32xi8>) -> tensor<16x1x1x32xi8, #npu.fm<NHWC, Sram>>
    %b = "npu.conv2d"(%a, %db, %bb) <{name = "conv_b", kernel = #npu.kernel<1x1>}> {npu.time = 3 : i64, npu.alloc = #npu.alloc<Dram, offset = 0, size = 1024, live = [3, 3]>} : (tensor<1x8x8x32xi8>, tensor<16x1x1x32xi8, #npu.fm<NHWC, Sram>>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    return %b : tensor<1x8x8x16xi8>
  }
}

// -----

// Rule 3: an elementwise op may write its result over an input's allocation only when no later op
// reads that input: 'c' reads 'a' after 'b' has overwritten it.
func.func @in_place_read_later(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> attributes {npu.arg_alloc = [#npu.alloc<Sram, offset = 0, size = 1024, live = [0, 2]>]} {
  %0 = "npu.add"(%x, %x) <{name = "a"}> {npu.time = 0 : i64, npu.alloc = #npu.alloc<Sram, offset = 1024, size = 1024, live = [0, 2]>} : (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
  // expected-error@+1 {{schedule rule 3 (allocation): 'b' writes 'b' in place over 'a' (Sram bytes 1024..2047) at time 1, but 'c' reads it at time 2}}
  %1 = "npu.add"(%0, %x) <{name = "b"}> {npu.time = 1 : i64, npu.alloc = #npu.alloc<Sram, offset = 1024, size = 1024, live = [0, 2]>} : (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
  %2 = "npu.add"(%1, %0) <{name = "c"}> {npu.time = 2 : i64, npu.alloc = #npu.alloc<Sram, offset = 2048, size = 1024, live = [2, 2]>} : (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
  return %2 : tensor<1x8x8x16xi8>
}

// -----

// As above, but the prefetch takes the second buffer's bytes, which conv_a's last slice still reads.
module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram">, npu.usage = #npu.usage<Dram = [3072, 3072], Sram = [2048, 2048]>} {
  func.func @prefetch_into_last_read(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> attributes {npu.arg_alloc = [#npu.alloc<Dram, offset = 0, size = 1024, live = [0, 1]>]} {
    %wa = "tfl.pseudo_const"() <{value = dense<1> : tensor<32x1x1x16xi8>}> : () -> tensor<32x1x1x16xi8>
    %wb = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x1x1x32xi8>}> : () -> tensor<16x1x1x32xi8>
    %ba = "tfl.pseudo_const"() <{value = dense<0> : tensor<32xi32>}> : () -> tensor<32xi32>
    %bb = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %da = "npu.dma"(%wa) <{name = "conv_a_weights"}> {npu.time = 0 : i64, npu.stream = #npu.stream<slices = [0, 16, 32], buffering = double, buffers = [1024, 1024], bytes = 2048>, npu.alloc = #npu.alloc<Sram, offset = 0, size = 1024, live = [0, 1]>, npu.second_buffer = #npu.alloc<Sram, offset = 1024, size = 1024, live = [1, 1]>} : (tensor<32x1x1x16xi8>) -> tensor<32x1x1x16xi8, #npu.fm<NHWC, Sram>>
    %a = "npu.conv2d"(%x, %da, %ba) <{name = "conv_a", kernel = #npu.kernel<1x1>}> {npu.time = 1 : i64, npu.alloc = #npu.alloc<Dram, offset = 1024, size = 2048, live = [1, 3]>} : (tensor<1x8x8x16xi8>, tensor<32x1x1x16xi8, #npu.fm<NHWC, Sram>>, tensor<32xi32>) -> tensor<1x8x8x32xi8>
    // expected-error@+1 {{schedule rule 3 (allocation): 'conv_b_weights' (Sram bytes 1024..2047, live 1..3) overlaps the second buffer of 'conv_a_weights' (Sram bytes 1024..2047, live 1..1)}}
    %db = "npu.dma"(%wb) <{name = "conv_b_weights"}> {npu.time = 2 : i64, npu.stream = #npu.stream<slices = [0, 16], buffering = single, buffers = [1024], bytes = 1024, prefetch>, npu.alloc = #npu.alloc<Sram, offset = 1024, size = 1024, live = [1, 3]>} : (tensor<16x1x1x32xi8>) -> tensor<16x1x1x32xi8, #npu.fm<NHWC, Sram>>
    %b = "npu.conv2d"(%a, %db, %bb) <{name = "conv_b", kernel = #npu.kernel<1x1>}> {npu.time = 3 : i64, npu.alloc = #npu.alloc<Dram, offset = 0, size = 1024, live = [3, 3]>} : (tensor<1x8x8x32xi8>, tensor<16x1x1x32xi8, #npu.fm<NHWC, Sram>>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    return %b : tensor<1x8x8x16xi8>
  }
}

// -----

// Rule 6: a weight stream's buffers hold its bytes: one 368-byte slice in a 1-byte buffer.
func.func @tiny_buffer(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> {
  %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x1x1x16xi8>}> : () -> tensor<16x1x1x16xi8>
  %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
  // expected-error@+1 {{schedule rule 6 (weight slices): the weight stream of 'conv' is 368 bytes but its 1 slice(s) in buffers of [1] bytes hold at most 1}}
  %0 = "npu.dma"(%w) {npu.time = 0 : i64, npu.stream = #npu.stream<slices = [0, 16], buffering = single, buffers = [1], bytes = 368>} : (tensor<16x1x1x16xi8>) -> tensor<16x1x1x16xi8>
  %1 = "npu.conv2d"(%x, %0, %b) <{kernel = #npu.kernel<1x1>, name = "conv"}> {npu.time = 1 : i64} : (tensor<1x8x8x16xi8>, tensor<16x1x1x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
  return %1 : tensor<1x8x8x16xi8>
}

// -----

// As the first, but the DMA is issued before conv_a: its copy would land in the first buffer before
// conv_a reads it, so the bytes may not be shared.
module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram">, npu.usage = #npu.usage<Dram = [3072, 3072], Sram = [2048, 3072]>} {
  func.func @prefetch_issued_too_early(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> attributes {npu.arg_alloc = [#npu.alloc<Dram, offset = 0, size = 1024, live = [0, 2]>]} {
    %wa = "tfl.pseudo_const"() <{value = dense<1> : tensor<32x1x1x16xi8>}> : () -> tensor<32x1x1x16xi8>
    %wb = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x1x1x32xi8>}> : () -> tensor<16x1x1x32xi8>
    %ba = "tfl.pseudo_const"() <{value = dense<0> : tensor<32xi32>}> : () -> tensor<32xi32>
    %bb = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %da = "npu.dma"(%wa) <{name = "conv_a_weights"}> {npu.time = 0 : i64, npu.stream = #npu.stream<slices = [0, 16, 32], buffering = double, buffers = [1024, 1024], bytes = 2048>, npu.alloc = #npu.alloc<Sram, offset = 0, size = 1024, live = [0, 2]>, npu.second_buffer = #npu.alloc<Sram, offset = 1024, size = 1024, live = [2, 2]>} : (tensor<32x1x1x16xi8>) -> tensor<32x1x1x16xi8, #npu.fm<NHWC, Sram>>
    // expected-error@+1 {{schedule rule 3 (allocation): 'conv_b_weights' (Sram bytes 0..1023, live 1..3) overlaps 'conv_a_weights' (Sram bytes 0..1023, live 0..2)}}
    %db = "npu.dma"(%wb) <{name = "conv_b_weights"}> {npu.time = 1 : i64, npu.stream = #npu.stream<slices = [0, 16], buffering = single, buffers = [1024], bytes = 1024, prefetch>, npu.alloc = #npu.alloc<Sram, offset = 0, size = 1024, live = [1, 3]>} : (tensor<16x1x1x32xi8>) -> tensor<16x1x1x32xi8, #npu.fm<NHWC, Sram>>
    %a = "npu.conv2d"(%x, %da, %ba) <{name = "conv_a", kernel = #npu.kernel<1x1>}> {npu.time = 2 : i64, npu.alloc = #npu.alloc<Dram, offset = 1024, size = 2048, live = [2, 3]>} : (tensor<1x8x8x16xi8>, tensor<32x1x1x16xi8, #npu.fm<NHWC, Sram>>, tensor<32xi32>) -> tensor<1x8x8x32xi8>
    %b = "npu.conv2d"(%a, %db, %bb) <{name = "conv_b", kernel = #npu.kernel<1x1>}> {npu.time = 3 : i64, npu.alloc = #npu.alloc<Dram, offset = 0, size = 1024, live = [3, 3]>} : (tensor<1x8x8x32xi8>, tensor<16x1x1x32xi8, #npu.fm<NHWC, Sram>>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    return %b : tensor<1x8x8x16xi8>
  }
}

// -----

// Rule 6: each slice fits its buffer: two 16-channel slices merged into one need the scale
// records of 32 channels (320 bytes) in the 300-byte buffer kept.
func.func @merged_slices(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x32xi8> {
  %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<32x1x1x16xi8>}> : () -> tensor<32x1x1x16xi8>
  %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<32xi32>}> : () -> tensor<32xi32>
  // expected-error@+1 {{schedule rule 6 (weight slices): weight slice 0..32 of 'conv' needs at least 320 bytes (its 32 channels' scale records) but its buffer holds 300}}
  %0 = "npu.dma"(%w) {npu.time = 0 : i64, npu.stream = #npu.stream<slices = [0, 32], buffering = single, buffers = [300], bytes = 300>} : (tensor<32x1x1x16xi8>) -> tensor<32x1x1x16xi8>
  %1 = "npu.conv2d"(%x, %0, %b) <{kernel = #npu.kernel<1x1>, name = "conv"}> {npu.time = 1 : i64} : (tensor<1x8x8x16xi8>, tensor<32x1x1x16xi8>, tensor<32xi32>) -> tensor<1x8x8x32xi8>
  return %1 : tensor<1x8x8x32xi8>
}

// -----

// Rule 5: stripes cover their OFM's width and depth (an op steps down the rows only).
func.func @narrow_stripe(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> {
  // expected-error@+1 {{schedule rule 5 (cascade): 'a' has stripe 2x4x16, which does not cover the width and depth of its OFM 8x8x16 (stripes step down the rows only)}}
  %0 = "npu.add"(%x, %x) <{name = "a"}> {npu.time = 0 : i64, npu.stripe = #npu.stripe<2x4x16>} : (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
  return %0 : tensor<1x8x8x16xi8>
}
