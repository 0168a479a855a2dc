// --pareto=FILE writes the (cycles, SRAM) frontier a schedule search recorded (npu.search): a
// table for .csv (the plot for .svg/.png: pareto-plot.mlir). Without a search, or with another
// suffix, it is one error and nothing is written. (Inputs: tests/data/branches.tflite on a
// 16 KiB dedicated SRAM; the frontier's figures are those of tests/lit/npu/search-schedule.mlir.)
// (monotone=false: the search directed at its budget alone, whose steps these checks pin;
// tests/unit/passes/schedule/test_search_monotone.py sweeps the default, monotone search.)
// RUN: rm -f %t.csv %t.plain.csv %t.pdf %t.fill.csv
// RUN: %npu_opt %S/../../data/branches.tflite --target ethos-u65-256 --system-config Ethos_U65_High_End --memory-mode Dedicated_Sram --arena-cache-size 16384 --pass='schedule{sram-budget=8000 monotone=false}' -o /dev/null --summary --pareto=%t.csv | %filecheck %s --check-prefix=SUMMARY
// RUN: %filecheck %s --check-prefix=CSV < %t.csv
// RUN: %npu_opt %S/../../data/branches.tflite --target ethos-u65-256 --system-config Ethos_U65_High_End --memory-mode Dedicated_Sram --arena-cache-size 16384 --pass='schedule{sram-budget=14496 monotone=false}' -o /dev/null --summary --pareto=%t.fill.csv | %filecheck %s --check-prefix=FILL
// RUN: %filecheck %s --check-prefix=FILLCSV < %t.fill.csv
// RUN: %npu_opt %S/../../data/conv.tflite --target ethos-u55-128 --pass='schedule{sram-budget=100000 monotone=false}' -o /dev/null --summary --pareto=%t.size.csv | %filecheck %s --check-prefix=SIZE
// RUN: %filecheck %s --check-prefix=SIZECSV < %t.size.csv
// RUN: not %npu_opt %S/../../data/branches.tflite --target ethos-u65-256 --system-config Ethos_U65_High_End --memory-mode Dedicated_Sram --arena-cache-size 16384 --pass=schedule -o %t.plain.mlir --pareto=%t.plain.csv 2>&1 | %filecheck %s --check-prefix=NOSEARCH
// RUN: not %exists %t.plain.csv
// RUN: not %exists %t.plain.mlir
// RUN: not %npu_opt %S/../../data/branches.tflite --pass=schedule{sram-budget=8000} --target ethos-u55-128 -o /dev/null --pareto=%t.pdf 2>&1 | %filecheck %s --check-prefix=SUFFIX
// RUN: not %exists %t.pdf

// CSV: network,accelerator,system_config,memory_mode,budget,point,strategy,sram_target,flags,total_cycles,sram_bytes,chosen,vela_performance_cycles,vela_performance_sram,vela_size_cycles,vela_size_sram
// CSV-NEXT: branches,ethos-u65-256,Ethos_U65_High_End,Dedicated_Sram,8000,1,Performance,16384,,27913,14496,no,27913,14496,47856,768
// CSV-NEXT: branches,ethos-u65-256,Ethos_U65_High_End,Dedicated_Sram,8000,2,Performance,6640,cascade_joins fastest_blocks,29338,5968,yes,
// CSV-NEXT: branches,ethos-u65-256,Ethos_U65_High_End,Dedicated_Sram,8000,3,Performance,6640,cost_growth fastest_blocks,33205,4784,no,
// CSV-NEXT: branches,ethos-u65-256,Ethos_U65_High_End,Dedicated_Sram,8000,4,Performance,4688,fastest_blocks,35376,4432,no,
// CSV-NEXT: branches,ethos-u65-256,Ethos_U65_High_End,Dedicated_Sram,8000,5,Performance,16,fastest_blocks,36894,0,no,
// CSV-EMPTY:

// SUMMARY: Schedule: Performance (arena cache size 16,384 B, SRAM target 6,640 B; cascade joins, fastest block configs)
// SUMMARY-NEXT: Search: the fastest of 5 frontier points within 8,000 B of SRAM is point 2
// SUMMARY-NEXT: Vela-equivalent Performance: 27,913 cycles, 14,496 B
// SUMMARY-NEXT: Vela-equivalent Size: 47,856 cycles, 768 B
// SUMMARY-NEXT: point 1: 27,913 cycles, 14,496 B (Performance, SRAM target 16,384 B)
// SUMMARY: point 2: 29,338 cycles, 5,968 B (Performance, SRAM target 6,640 B, cascade joins, fastest block configs) <- chosen
// The total is rounded as the points are: the chosen point's cycles.
// SUMMARY: Total cycles: 29,338 (NPU

// In the Performance schedule's SRAM, that schedule with each op on its fastest block wins, and
// Size's cascades (the residual block whole) with the passes after them filling the budget come
// next, nearly as fast in 2,816 B less; a Size point names no SRAM target (Size makes its own),
// but the bytes its later passes filled.
// FILL: Schedule: Performance (arena cache size 16,384 B, SRAM target 16,384 B; fastest block configs)
// FILL: point 1: 26,275 cycles, 14,496 B (Performance, SRAM target 16,384 B, fastest block configs) <- chosen
// FILL-NEXT: point 2: 26,543 cycles, 11,680 B (Size, prefetch overlap, fastest block configs, cascade branches, buffers filling 11,680 B)
// The table writes that point's buffer limit with its number: the point names the whole schedule.
// Points are numbered from 1 in the table as in the summary; a Size point that was not chosen has
// no SRAM target to show (Size makes its own when it is scheduled).
// FILLCSV: 14496,2,Size,,prefetch_overlap fastest_blocks cascade_branches buffer_limit=11680,26543,11680,no,

// A chosen Size point shows the SRAM target it was scheduled with, in the summary and the table
// alike (not the arena cache size its knob holds); one point is "1 frontier point".
// SIZE: Schedule: Size (arena cache size 4,294,967,296 B, SRAM target 320 B; prefetch overlap)
// SIZE-NEXT: Search: the fastest of 1 frontier point within 100,000 B of SRAM is point 1
// SIZE: point 1: 2,228 cycles, 384 B (Size, SRAM target 320 B, prefetch overlap) <- chosen
// SIZECSV: conv,ethos-u55-128,Ethos_U55_High_End_Embedded,Shared_Sram,100000,1,Size,320,prefetch_overlap,2228,384,yes,

// NOSEARCH: npu-opt: error: --pareto needs a schedule search, but the module has no 'npu.search' attribute
// NOSEARCH-NOT: error

// SUFFIX: npu-opt: error: --pareto: '{{.*}}.pdf' must end in .csv (a table), .svg or .png (a plot)
