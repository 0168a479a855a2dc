// npu-search-schedule: schedule{sram-budget=N} materialises candidate schedules (strategy and SRAM
// target, the knobs npu.schedule holds) on copies of the module, keeps the (cycles, SRAM)
// frontier as npu.search and writes the fastest point within the budget as npu.schedule; the
// passes after it build exactly that point. This file holds only RUN lines and checks: the
// schedules are made from tests/data/branches.tflite (a residual block) on a 16 KiB dedicated
// SRAM, where the Vela-equivalent Performance schedule takes 27913 cycles (as Vela 5.2's own) in
// 14496 bytes of SRAM and Size 47856 cycles in 768 bytes.
// (monotone=false: the search directed at its budget alone, whose steps these checks pin;
// tests/unit/passes/schedule/test_search_monotone.py sweeps the default, monotone search.)
//
// RUN: %npu_opt %S/../../data/branches.tflite --target ethos-u65-256 --system-config Ethos_U65_High_End --memory-mode Dedicated_Sram --arena-cache-size 16384 --pass='schedule{sram-budget=8000 monotone=false}' --pass-remarks --pass-statistics -o %t.mlir > %t.remarks 2>&1
// RUN: %filecheck %s --check-prefix=REMARK --input-file %t.remarks
// RUN: %filecheck %s < %t.mlir
// RUN: %npu_opt %t.mlir --pass=npu-check-schedule -o /dev/null
//
// The search alone on a printed module holding its predecessors' results, then the rest of the
// pipeline on its printed output, gives the same schedule as the pipeline in one run.
// RUN: %npu_opt %S/../../data/branches.tflite --target ethos-u65-256 --system-config Ethos_U65_High_End --memory-mode Dedicated_Sram --arena-cache-size 16384 --pass='npu-legalize,npu-order,npu-format-nhcwb16,npu-place-tensors{check-limit=false},npu-select-block-config,npu-insert-dma,npu-order{dmas-only=true}' -o %t.head.mlir
// RUN: %npu_opt %t.head.mlir --pass='npu-search-schedule{sram-budget=8000 monotone=false}' -o %t.knobs.mlir
// RUN: %filecheck %s --check-prefix=KNOBS < %t.knobs.mlir
// RUN: %npu_opt %t.knobs.mlir --pass='npu-order,npu-buffer-weights,npu-order{dmas-only=true},npu-form-cascades,npu-select-block-config,npu-insert-dma,npu-order{dmas-only=true},npu-buffer-weights,npu-order{dmas-only=true},npu-place-fast-storage,npu-allocate,npu-order{dmas-only=true},npu-estimate' -o %t.tail.mlir
// RUN: %npu_opt %t.mlir | diff - %t.tail.mlir
//
// A budget no candidate fits is one error, and no output file is written.
// RUN: not %npu_opt %S/../../data/conv.tflite --target ethos-u55-128 --system-config Ethos_U55_High_End_Embedded --memory-mode Shared_Sram --pass='schedule{sram-budget=100}' -o %t.none.mlir 2>&1 | %filecheck %s --check-prefix=NONE
// RUN: not %exists %t.none.mlir
// RUN: not %npu_opt %S/../../data/conv.tflite --target ethos-u55-128 --pass='schedule{sram-budget=-5}' -o %t.neg.mlir 2>&1 | %filecheck %s --check-prefix=NEGATIVE
// RUN: not %exists %t.neg.mlir
// A budget beyond the address space (npu.search would record it, and 2^64 does not parse back).
// RUN: not %npu_opt %S/../../data/conv.tflite --target ethos-u55-128 --pass='schedule{sram-budget=18446744073709551616}' -o %t.huge.mlir 2>&1 | %filecheck %s --check-prefix=HUGE
// RUN: not %exists %t.huge.mlir
//
// Size prefetches nothing here, so Size without prefetch overlap would be Size again, the
// memory-aware order is Vela's, there is no concatenation and no chain wide enough for two column
// bands: eleven variants are skipped, not materialised (the memory-aware order on four points,
// column bands on three). (Checked on the first run's remarks and statistics.)
// RUN: %filecheck %s --check-prefix=SKIP --input-file %t.remarks
// SKIP-NOT: candidate Size with an SRAM target of 16384 bytes: {{[0-9]+}} cycles
// SKIP-NOT: memory-aware order
// SKIP-NOT: cascades through concatenations
// SKIP-NOT: column bands:
// SKIP: (S) 11 skipped - variants not materialised

// Without a budget the pass does nothing: the pipeline is Vela's.
// RUN: %npu_opt %S/../../data/branches.tflite --target ethos-u65-256 --system-config Ethos_U65_High_End --memory-mode Dedicated_Sram --arena-cache-size 16384 --pass=schedule | %filecheck %s --check-prefix=PLAIN

// REMARK-DAG: remark: candidate Performance with an SRAM target of 16384 bytes: 27913 cycles, 14496 bytes of SRAM (on the frontier)
// REMARK-DAG: remark: candidate Size with an SRAM target of 16384 bytes, prefetch overlap: 47856 cycles, 768 bytes of SRAM (dominated)
// Every point of the staircase within the budget is tried with each op on its fastest block too,
// and each of those replaces its point on the frontier.
// REMARK-DAG: remark: candidate Performance with an SRAM target of 16 bytes: 38353 cycles, 0 bytes of SRAM (dominated)
// REMARK-DAG: remark: candidate Performance with an SRAM target of 16 bytes, fastest block configs: 36894 cycles, 0 bytes of SRAM (on the frontier)
// REMARK-DAG: remark: candidate Performance with an SRAM target of 4688 bytes, fastest block configs: 35376 cycles, 4432 bytes of SRAM (on the frontier)
// REMARK-DAG: remark: candidate Performance with an SRAM target of 6640 bytes: 32176 cycles, 5968 bytes of SRAM (dominated)
// REMARK-DAG: remark: candidate Performance with an SRAM target of 6640 bytes, stripe heights by cost, fastest block configs: 33205 cycles, 4784 bytes of SRAM (on the frontier)
// REMARK: remark: chose Performance with an SRAM target of 6640 bytes, cascade joins, fastest block configs: the fastest of {{[0-9]+}} schedules within the budget of 8000 bytes (29338 cycles, 5968 bytes)

// CHECK-LABEL: module attributes
// CHECK-SAME: npu.schedule = #npu.schedule<Performance, arena_cache_size = 16384, sram_target = 6640, cascade_joins, fastest_blocks>
// CHECK-SAME: npu.search = #npu.search<budget = 8000, chosen = 1, performance = [27913, 14496], size = [47856, 768], points = [
// CHECK-SAME: [Performance, 16384, 27913, 14496], [Performance, 6640, 29338, 5968, cascade_joins, fastest_blocks], [Performance, 6640, 33205, 4784, cost_growth, fastest_blocks], [Performance, 4688, 35376, 4432, fastest_blocks], [Performance, 16, 36894, 0, fastest_blocks]]>
// CHECK-SAME: npu.usage = #npu.usage<Dram = [13824, 13824], Sram = [5968, 5968]>
// CHECK-SAME: npu.cost_totals = #npu.cost<total = 29338.467

// KNOBS-LABEL: module attributes
// KNOBS-SAME: npu.schedule = #npu.schedule<Performance, arena_cache_size = 16384, sram_target = 6640, cascade_joins, fastest_blocks>
// KNOBS-SAME: npu.search = #npu.search<budget = 8000, chosen = 1,
// KNOBS-NOT: npu.alloc

// The error names the smallest schedule's peak (the op running, the largest tensors live) and what would help.
// NONE: error: no schedule fits the SRAM budget of 100 bytes: the smallest of {{[0-9]+}} schedules tried (Size with an SRAM target of {{[0-9]+}} bytes, prefetch overlap) needs 384 bytes; 384 bytes are live at once while 'tfl.depthwise_conv_2d' runs (the result of 'tfl.depthwise_conv_2d': 256 bytes, the result of 'conv' (npu.conv2d): 128 bytes); feature maps live in the SRAM in memory mode Shared_Sram: a budget of at least 384 bytes, or a memory mode with a dedicated SRAM (feature maps in DRAM, the SRAM their cache) would fit
// NONE-NOT: error

// NEGATIVE: error: sram-budget must be a number of bytes (or -1: no search), not -5
// NEGATIVE-NOT: error
// HUGE: error: sram-budget 18446744073709551616 is larger than the address space of ethos-u55-128 (at most 4294967296 bytes)
// HUGE-NOT: error

// PLAIN-LABEL: module attributes
// PLAIN-NOT: npu.search
// PLAIN-SAME: npu.policy = #npu.schedule<Performance, arena_cache_size = 16384, sram_target = 16384>
