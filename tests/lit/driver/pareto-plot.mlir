// --pareto=FILE with a .svg (or .png) suffix plots the frontier a schedule search recorded; given
// twice, --pareto writes both the table and the plot. (The table's figures: pareto.mlir.)
// REQUIRES: matplotlib
// RUN: rm -f %t.csv %t.svg
// RUN: %npu_opt %S/../../data/branches.tflite --target ethos-u65-256 --system-config Ethos_U65_High_End --memory-mode Dedicated_Sram --arena-cache-size 16384 --pass='schedule{sram-budget=8000 monotone=false}' -o /dev/null --pareto=%t.csv --pareto=%t.svg
// RUN: %filecheck %s --check-prefix=CSV < %t.csv
// RUN: %filecheck %s --check-prefix=SVG < %t.svg

// CSV: network,accelerator,system_config,memory_mode,budget,point,
// CSV-NEXT: branches,ethos-u65-256,Ethos_U65_High_End,Dedicated_Sram,8000,1,

// SVG: <svg
// SVG: branches: ethos-u65-256, Ethos_U65_High_End, Dedicated_Sram
// SVG: </svg>
