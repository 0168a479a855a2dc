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

// expected-error@+1 {{#npu.stripe: shape must be 3 positive sizes HxWxD, not [0, 8, 16]}}
"foo.op"() {a = #npu.stripe<0x8x16>} : () -> ()

// -----

// expected-error@+1 {{#npu.cascade: unknown field 'rows' (expected rolling or staged)}}
"foo.op"() {a = #npu.cascade<3, rows = 4>} : () -> ()

// -----

// expected-error@+1 {{#npu.schedule: unknown strategy 'Fast' (expected Performance or Size)}}
"foo.op"() {a = #npu.schedule<Fast, arena_cache_size = 1, sram_target = 1>} : () -> ()

// -----

// expected-error@+1 {{#npu.usage: Sram takes 2 values, not [1]}}
"foo.op"() {a = #npu.usage<Sram = [1]>} : () -> ()

// -----

// expected-error@+1 {{#npu.alloc: integer 99999999999999999999999 does not fit in 64 bits}}
"foo.op"() {a = #npu.alloc<Sram, offset = 99999999999999999999999, size = 1, live = [0, 0]>} : () -> ()

// -----

// expected-error@+1 {{#npu.schedule: unknown stripe_growth 'half' (expected one of vela, full, cost)}}
"foo.op"() {a = #npu.schedule<Size, arena_cache_size = 1, sram_target = 1, stripe_growth = half>} : () -> ()

// -----

// expected-error@+1 {{#npu.schedule: unexpected 'overlap' (the flags are prefetch_overlap, cascade_joins, fastest_blocks, memory_order, cascade_branches, cascade_concats, each at most once)}}
"foo.op"() {a = #npu.schedule<Size, overlap, arena_cache_size = 1, sram_target = 1>} : () -> ()

// -----

// expected-error@+1 {{#npu.schedule: 'cascade_joins' is given twice}}
"foo.op"() {a = #npu.schedule<Size, cascade_joins, arena_cache_size = 1, sram_target = 1, cascade_joins>} : () -> ()

// -----

// expected-error@+1 {{#npu.schedule: missing its strategy (one of Performance, Size) as the first value}}
"foo.op"() {a = #npu.schedule<cascade_joins, arena_cache_size = 1, sram_target = 1>} : () -> ()

// -----

// expected-error@+1 {{#npu.search: unexpected 'fast' (the flags are prefetch_overlap, cascade_joins, fastest_blocks, memory_order, cascade_branches, cascade_concats, full_growth, cost_growth, each at most once)}}
"foo.op"() {a = #npu.search<budget = 1, chosen = 0, points = [[Size, 1, 2, 3, fast]]>} : () -> ()

// -----

// expected-error@+1 {{#npu.search: width_bands must be at least 1, not 0}}
"foo.op"() {a = #npu.search<budget = 1, chosen = 0, points = [[Size, 1, 2, 3, prefetch_overlap, width_bands = 0]]>} : () -> ()

// -----

// expected-error@+1 {{#npu.search: 'buffer_limit' takes a value, as 'buffer_limit = ...'}}
"foo.op"() {a = #npu.search<budget = 1, chosen = 0, points = [[Size, 1, 2, 3, buffer_limit]]>} : () -> ()

// -----

// expected-error@+1 {{#npu.search: 'fastest_blocks' is a flag and takes no value}}
"foo.op"() {a = #npu.search<budget = 1, chosen = 0, points = [[Size, 1, 2, 3, fastest_blocks = 1]]>} : () -> ()

// -----

// expected-error@+1 {{#npu.search: chosen = 2 names none of the 1 points}}
"foo.op"() {a = #npu.search<budget = 1, chosen = 2, points = [[Size, 1, 2, 3]]>} : () -> ()

// -----

// expected-error@+1 {{#npu.schedule: buffer_limit must not be negative, not -16}}
"foo.op"() {a = #npu.schedule<Size, arena_cache_size = 1, sram_target = 1, buffer_limit = -16>} : () -> ()
