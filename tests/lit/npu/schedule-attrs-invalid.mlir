// The schedule attributes reject malformed bodies with one located error each.
// RUN: %npu_opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

// expected-error@+1 {{#npu.stream: double buffering takes 2 buffer size(s), not [5]}}
"foo.op"() {a = #npu.stream<slices = [0, 16], buffering = double, buffers = [5], bytes = 5>} : () -> ()

// -----

// expected-error@+1 {{#npu.stream: slices must start at 0 and increase, not [0, 16, 16]}}
"foo.op"() {a = #npu.stream<slices = [0, 16, 16], buffering = single, buffers = [5], bytes = 5>} : () -> ()

// -----

// expected-error@+1 {{#npu.alloc: the live range [5, 2] ends before it starts}}
"foo.op"() {a = #npu.alloc<Sram, offset = 0, size = 16, live = [5, 2]>} : () -> ()

// -----

// expected-error@+1 {{#npu.alloc: unknown memory area 'L2'}}
"foo.op"() {a = #npu.alloc<L2, offset = 0, size = 16, live = [0, 2]>} : () -> ()

// -----

// expected-error@+1 {{#npu.alloc: missing field 'size'}}
"foo.op"() {a = #npu.alloc<Sram, offset = 0, live = [0, 2]>} : () -> ()

// -----

// expected-error@+1 {{#npu.stripe: a shape is three positive sizes HxWxD, not [0, 8, 16]}}
"foo.op"() {a = #npu.stripe<0x8x16>} : () -> ()

// -----

// expected-error@+1 {{#npu.cascade: unknown field 'rows' (expected rolling)}}
"foo.op"() {a = #npu.cascade<3, rows = 4>} : () -> ()

// -----

// expected-error@+1 {{#npu.schedule: unknown strategy 'Fast' (expected Performance or Size)}}
"foo.op"() {a = #npu.schedule<Fast, arena_cache_size = 1, sram_target = 1>} : () -> ()

// -----

// expected-error@+1 {{#npu.usage: Sram takes [used, bound]}}
"foo.op"() {a = #npu.usage<Sram = [1]>} : () -> ()

// -----

// expected-error@+1 {{#npu.alloc: integer 99999999999999999999999 does not fit in 64 bits}}
"foo.op"() {a = #npu.alloc<Sram, offset = 99999999999999999999999, size = 1, live = [0, 0]>} : () -> ()

// -----

// expected-error@+1 {{#npu.schedule: unknown stripe_growth 'half' (expected vela or full or cost)}}
"foo.op"() {a = #npu.schedule<Size, arena_cache_size = 1, sram_target = 1, stripe_growth = half>} : () -> ()

// -----

// expected-error@+1 {{#npu.schedule: unexpected 'overlap' (the flags after the strategy are prefetch_overlap, cascade_joins, fastest_blocks, memory_order, cascade_branches and cascade_concats, each once)}}
"foo.op"() {a = #npu.schedule<Size, overlap, arena_cache_size = 1, sram_target = 1>} : () -> ()

// -----

// expected-error@+1 {{#npu.schedule: unexpected 'cascade_joins' (the flags after the strategy are prefetch_overlap, cascade_joins, fastest_blocks, memory_order, cascade_branches and cascade_concats, each once)}}
"foo.op"() {a = #npu.schedule<Size, cascade_joins, arena_cache_size = 1, sram_target = 1, cascade_joins>} : () -> ()

// -----

// expected-error@+1 {{#npu.schedule takes one strategy before its fields}}
"foo.op"() {a = #npu.schedule<cascade_joins, arena_cache_size = 1, sram_target = 1>} : () -> ()

// -----

// expected-error@+1 {{#npu.search: a point's flags are some of full_growth, cost_growth, prefetch_overlap, cascade_joins, fastest_blocks, memory_order, cascade_branches, cascade_concats, buffer_limit, width_bands, once each, not fast}}
"foo.op"() {a = #npu.search<budget = 1, chosen = 0, points = [[Size, 1, 2, 3, fast]]>} : () -> ()

// -----

// expected-error@+1 {{#npu.search: a point has buffer_limit = N (N > 0) exactly when it has the buffer_limit flag and width_bands = N (N > 1) exactly when it has that flag, not flags prefetch_overlap, width_bands with buffer_limit = 0, width_bands = 1}}
"foo.op"() {a = #npu.search<budget = 1, chosen = 0, points = [[Size, 1, 2, 3, prefetch_overlap, width_bands = 1]]>} : () -> ()

// -----

// expected-error@+1 {{#npu.search: a point's 'buffer_limit' takes its number, as 'buffer_limit = N'}}
"foo.op"() {a = #npu.search<budget = 1, chosen = 0, points = [[Size, 1, 2, 3, buffer_limit]]>} : () -> ()

// -----

// expected-error@+1 {{#npu.search: 'fastest_blocks = 1': of a point's flags only buffer_limit and width_bands take a number}}
"foo.op"() {a = #npu.search<budget = 1, chosen = 0, points = [[Size, 1, 2, 3, fastest_blocks = 1]]>} : () -> ()

// -----

// expected-error@+1 {{#npu.search: chosen = 2 names none of the 1 points}}
"foo.op"() {a = #npu.search<budget = 1, chosen = 2, points = [[Size, 1, 2, 3]]>} : () -> ()

// -----

// expected-error@+1 {{#npu.schedule: limits must not be negative}}
"foo.op"() {a = #npu.schedule<Size, arena_cache_size = 1, sram_target = 1, buffer_limit = -16>} : () -> ()
