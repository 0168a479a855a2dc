// --pass-statistics prints, after the run, each pass run's declared counters ((S) count name -
// description) and what its rewriter did ((R) lines), in pipeline order.
// RUN: %npu_opt %s --pass=cse,dce,cse --pass-statistics -o %t.out 2>&1 | %filecheck %s
// With a split input, the pass runs of each chunk are listed in turn.
// RUN: %npu_opt %s --pass=cse --pass-statistics --split-input-file -o %t.out 2>&1 | %filecheck %s --check-prefix=SPLIT

// CHECK:      ===-{{-+}}===
// CHECK-NEXT: {{ +}}Pass statistics report
// CHECK-NEXT: ===-{{-+}}===
// CHECK-NEXT: 'cse'
// CHECK-NEXT:   (S) 1 num-cse'd - Number of operations CSE'd
// CHECK-NEXT:   (R) 1 operands set
// CHECK-NEXT:   (R) 1 ops erased
// CHECK-NEXT:   (R) 1 uses replaced
// CHECK-NEXT: 'dce'
// CHECK-NEXT:   (S) 1 num-dce'd - Number of dead operations erased
// CHECK-NEXT:   (R) 1 ops erased
// CHECK-NEXT: 'cse'
// CHECK-NEXT:   (S) 0 num-cse'd - Number of operations CSE'd
// CHECK-NOT:  (R)

// SPLIT:      'cse'
// SPLIT-NEXT:   (S) 1 num-cse'd
// SPLIT:      'cse'
// SPLIT-NEXT:   (S) 0 num-cse'd

func.func @f(%x: i32) -> i32 {
  %a = "test.addi"(%x, %x) : (i32, i32) -> i32
  %b = "test.addi"(%x, %x) : (i32, i32) -> i32
  %dead = "test.muli"(%a, %b) : (i32, i32) -> i32
  return %a : i32
}

// -----

func.func @g() {
  return
}
