// test-dataflow builds each function's dataflow graph (ops as nodes, uses as edges; function
// arguments are not nodes) and reports its size as a remark on the function. Remarks are shown
// with --pass-remarks, can be expected with --verify-diagnostics, and are hidden otherwise.
// RUN: %npu_opt %s --pass=test-dataflow --pass-remarks -o %t.out 2>&1 | %filecheck %s
// RUN: %npu_opt %s --pass=test-dataflow --verify-diagnostics
// RUN: %npu_opt %s --pass=test-dataflow 2>&1 | %filecheck %s --check-prefix=QUIET
// RUN: %npu_opt %s --pass=test-dataflow --pass-statistics -o %t.out 2>&1 | %filecheck %s --check-prefix=STATS

// CHECK: test-dataflow.mlir:21:1: remark: dataflow of @diamond: 5 ops, 5 edges
// CHECK-NEXT: func.func @diamond(%x: i32) -> i32 {
// CHECK-NEXT: ^
// CHECK: test-dataflow.mlir:29:1: remark: dataflow of @empty: 1 ops, 0 edges
// CHECK-NOT: remark
// QUIET-NOT: remark
// QUIET: func.func @diamond
// STATS:      'test-dataflow'
// STATS-NEXT:   (S) 6 nodes - ops in function bodies
// STATS-NEXT:   (S) 5 edges - use edges

// expected-remark@+1 {{dataflow of @diamond: 5 ops, 5 edges}}
func.func @diamond(%x: i32) -> i32 {
  %c = "test.constant"() {value = 1 : i32} : () -> i32
  %a = "test.addi"(%x, %c) : (i32, i32) -> i32
  %b = "test.muli"(%x, %c) : (i32, i32) -> i32
  %s = "test.addi"(%a, %b) : (i32, i32) -> i32
  return %s : i32
}
// expected-remark@+1 {{dataflow of @empty: 1 ops, 0 edges}}
func.func @empty() {
  return
}
// Declarations have no graph.
func.func private @declaration(i32) -> i32
