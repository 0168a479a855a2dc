// --timing prints MLIR's execution time report to stderr: parsing, each pass, verification and
// output, then the total. Without it nothing is printed.
// RUN: %npu_opt %s --pass=cse,dce --timing -o %t.out 2>&1 | %filecheck %s
// RUN: %npu_opt %s --pass=cse --timing -o %t.out --split-input-file 2>&1 | %filecheck %s --check-prefix=SPLIT
// RUN: %npu_opt %s --pass=cse -o %t.out 2>&1 | %filecheck %s --check-prefix=NONE --allow-empty

// CHECK:      ===-{{-+}}===
// CHECK-NEXT: {{ +}}Execution time report
// CHECK-NEXT: ===-{{-+}}===
// CHECK-NEXT:   Total Execution Time: {{[0-9]+\.[0-9]+}} seconds
// CHECK-EMPTY:
// CHECK-NEXT:   ----Wall Time----  ----Name----
// CHECK-NEXT:   {{ *[0-9]+\.[0-9]+}} ({{ *[0-9]+\.[0-9]}}%)  Parser
// CHECK-NEXT:   {{ *[0-9]+\.[0-9]+}} ({{ *[0-9]+\.[0-9]}}%)  (V) Verifier
// CHECK-NEXT:   {{ *[0-9]+\.[0-9]+}} ({{ *[0-9]+\.[0-9]}}%)  'cse'
// CHECK-NEXT:   {{ *[0-9]+\.[0-9]+}} ({{ *[0-9]+\.[0-9]}}%)  'dce'
// CHECK-NEXT:   {{ *[0-9]+\.[0-9]+}} ({{ *[0-9]+\.[0-9]}}%)  Output
// CHECK-NEXT:   {{ *[0-9]+\.[0-9]+}} (100.0%)  Total

// Phases are summed over the chunks of a split input: one line each.
// SPLIT-COUNT-1: Parser
// SPLIT-NOT:     Parser

// NONE-NOT: Execution time report

func.func @f(%x: i32) -> i32 {
  %a = "test.addi"(%x, %x) : (i32, i32) -> i32
  return %a : i32
}

// -----

func.func @g() {
  return
}
