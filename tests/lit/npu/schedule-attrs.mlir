// The schedule's attributes (#npu.alloc, #npu.stream, #npu.stripe, #npu.cascade, #npu.schedule,
// #npu.usage) parse, print canonically and reach a fixed point; malformed bodies are errors.
// RUN: %npu_opt %s --split-input-file --allow-unregistered-dialect > %t.out
// RUN: %filecheck %s --input-file %t.out
// RUN: %npu_opt - --split-input-file --allow-unregistered-dialect < %t.out | %filecheck %s

// CHECK-LABEL: module attributes
// CHECK-SAME: npu.schedule = #npu.schedule<Size, arena_cache_size = 393216, sram_target = 1000>
// CHECK-SAME: npu.usage = #npu.usage<Sram = [4096, 4000], Dram = [0, 0]>
// CHECK: func.func @main
// CHECK-SAME: npu.arg_alloc = [#npu.alloc<Sram, offset = 0, size = 1024, live = [0, 1]>]
// CHECK: "foo.op"
// CHECK-SAME: npu.stripe = #npu.stripe<2x8x16>
// CHECK-SAME: npu.cascade = #npu.cascade<0, rolling = 4x8x16>
// CHECK-SAME: npu.alloc = #npu.alloc<Sram, offset = 1024, size = 512, live = [0, 1]>
// CHECK-SAME: npu.stream = #npu.stream<slices = [0, 16, 32], buffering = double, buffers = [768, 640], bytes = 1408, prefetch>
// CHECK-SAME: single = #npu.stream<slices = [0, 16], buffering = single, buffers = [5], bytes = 5>
// CHECK-SAME: last = #npu.cascade<0>
module attributes {npu.schedule = #npu.schedule<Size,arena_cache_size=393216,sram_target=1000>, npu.usage = #npu.usage<Sram = [4096,4000], Dram = [0, 0]>} {
  func.func @main(%arg0: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> attributes {npu.arg_alloc = [#npu.alloc<Sram, live = [0, 1], offset = 0, size = 1024>]} {
    %0 = "foo.op"(%arg0) {npu.stripe = #npu.stripe<2x8x16>, npu.cascade = #npu.cascade<0, rolling = 4x8x16>, npu.alloc = #npu.alloc<Sram, offset = 1024, size = 512, live = [0, 1]>, npu.stream = #npu.stream<slices = [0, 16, 32], buffering = double, buffers = [768, 640], bytes = 1408, prefetch>, single = #npu.stream<slices = [0, 16], buffering = single, buffers = [5], bytes = 5>, last = #npu.cascade<0>} : (tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
    return %0 : tensor<1x8x8x16xi8>
  }
}

// -----

// A schedule search's knobs beyond Vela's (stripe growth, prefetch overlap) and its frontier,
// whose points may carry them as flags.
// CHECK-LABEL: module attributes
// CHECK-SAME: npu.schedule = #npu.schedule<Performance, arena_cache_size = 16384, sram_target = 7088, stripe_growth = full, prefetch_overlap>
// CHECK-SAME: npu.search = #npu.search<budget = 8000, chosen = 1, performance = [29076, 15536], size = [47856, 768], points = {{\[\[}}Performance, 16384, 29076, 15536], [Performance, 7088, 31000, 6000, full_growth, prefetch_overlap], [Size, 16384, 47856, 768]]>
// CHECK-SAME: plain = #npu.schedule<Size, arena_cache_size = 1, sram_target = 1>
module attributes {npu.schedule = #npu.schedule<Performance, prefetch_overlap, stripe_growth = full, arena_cache_size = 16384, sram_target = 7088>, npu.search = #npu.search<points = [[Performance, 16384, 29076, 15536], [Performance,7088,31000,6000,full_growth,prefetch_overlap], [Size, 16384, 47856, 768]], budget = 8000, chosen = 1, size = [47856, 768], performance = [29076, 15536]>, plain = #npu.schedule<Size, arena_cache_size = 1, sram_target = 1, stripe_growth = vela>} {
}

// -----

// Cascade joins (a cascade may run through a residual add): a flag like prefetch_overlap, in any
// order after the strategy, printed after it; a search point may carry it.
// CHECK-LABEL: module attributes
// CHECK-SAME: npu.schedule = #npu.schedule<Size, arena_cache_size = 32, sram_target = 16, prefetch_overlap, cascade_joins>
// CHECK-SAME: npu.search = #npu.search<budget = 100, chosen = 0, points = {{\[\[}}Performance, 64, 900, 96, cascade_joins]]>
// CHECK-SAME: only = #npu.schedule<Performance, arena_cache_size = 1, sram_target = 1, stripe_growth = full, cascade_joins>
module attributes {npu.schedule = #npu.schedule<Size, cascade_joins, arena_cache_size = 32, sram_target = 16, prefetch_overlap>, npu.search = #npu.search<budget = 100, chosen = 0, points = [[Performance, 64, 900, 96, cascade_joins]]>, only = #npu.schedule<Performance, arena_cache_size = 1, stripe_growth = full, sram_target = 1, cascade_joins>} {
}

// -----

// Fastest block configs (npu-select-block-config's choose=cycles as a knob): a flag like the
// others, printed last; a search point may carry it beside other flags.
// CHECK-LABEL: module attributes
// CHECK-SAME: npu.schedule = #npu.schedule<Performance, arena_cache_size = 64, sram_target = 48, prefetch_overlap, fastest_blocks>
// CHECK-SAME: npu.search = #npu.search<budget = 100, chosen = 0, points = {{\[\[}}Performance, 48, 700, 96, full_growth, fastest_blocks]]>
module attributes {npu.schedule = #npu.schedule<Performance, fastest_blocks, arena_cache_size = 64, sram_target = 48, prefetch_overlap>, npu.search = #npu.search<budget = 100, chosen = 0, points = [[Performance, 48, 700, 96, full_growth, fastest_blocks]]>} {
}

// -----

// The memory-aware order (npu-order's order=memory as a knob): printed after the other flags,
// wherever it was written.
// CHECK-LABEL: module attributes
// CHECK-SAME: npu.schedule = #npu.schedule<Size, arena_cache_size = 64, sram_target = 48, fastest_blocks, memory_order>
// CHECK-SAME: npu.search = #npu.search<budget = 100, chosen = 0, points = {{\[\[}}Size, 48, 700, 96, prefetch_overlap, memory_order]]>
module attributes {npu.schedule = #npu.schedule<Size, memory_order, fastest_blocks, arena_cache_size = 64, sram_target = 48>, npu.search = #npu.search<budget = 100, chosen = 0, points = [[Size, 48, 700, 96, prefetch_overlap, memory_order]]>} {
}

// -----

// Cascade branches (npu-form-cascades' cascade-branches as a knob): printed last of the flags,
// wherever it was written; a search point carries it as a flag of its own.
// CHECK-LABEL: module attributes
// CHECK-SAME: npu.schedule = #npu.schedule<Performance, arena_cache_size = 64, sram_target = 48, cascade_joins, cascade_branches>
// CHECK-SAME: npu.search = #npu.search<budget = 100, chosen = 0, points = {{\[\[}}Size, 48, 700, 96, prefetch_overlap, cascade_branches]]>
module attributes {npu.schedule = #npu.schedule<Performance, cascade_branches, arena_cache_size = 64, sram_target = 48, cascade_joins>, npu.search = #npu.search<budget = 100, chosen = 0, points = [[Size, 48, 700, 96, prefetch_overlap, cascade_branches]]>} {
}

// -----

// Size's buffer limit (the fast storage the passes after the cascades fill): a field printed after
// the stripe growth, before the flags, and not at all when 0; a search point writes it (and its
// column bands) as a flag with its number, so the point names the whole schedule that makes it.
// CHECK-LABEL: module attributes
// CHECK-SAME: npu.schedule = #npu.schedule<Size, arena_cache_size = 64, sram_target = 48, buffer_limit = 32, prefetch_overlap, cascade_branches>
// CHECK-SAME: npu.search = #npu.search<budget = 100, chosen = 0, points = {{\[\[}}Size, 64, 700, 96, prefetch_overlap, cascade_branches, buffer_limit = 32], [Size, 64, 900, 80, width_bands = 2]]>
// CHECK-SAME: plain = #npu.schedule<Size, arena_cache_size = 64, sram_target = 48>
module attributes {npu.schedule = #npu.schedule<Size, cascade_branches, buffer_limit = 32, arena_cache_size = 64, sram_target = 48, prefetch_overlap>, npu.search = #npu.search<budget = 100, chosen = 0, points = [[Size, 64, 700, 96, prefetch_overlap, cascade_branches, buffer_limit=32], [Size, 64, 900, 80, width_bands = 2]]>, plain = #npu.schedule<Size, arena_cache_size = 64, sram_target = 48, buffer_limit = 0>} {
}
