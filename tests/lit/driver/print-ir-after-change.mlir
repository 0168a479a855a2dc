// --print-ir-after-change dumps the IR after a pass only if the pass changed it. Here cse
// merges the duplicate, dce then finds nothing to erase, and canonicalize folds.
// RUN: %npu_opt %s --pass=cse,dce,canonicalize --print-ir-after-change -o %t.out 2>&1 | %filecheck %s
// Combined with --print-ir-after=NAME, the named pass is dumped even without a change.
// RUN: %npu_opt %s --pass=cse,dce --print-ir-after-change --print-ir-after=dce -o %t.out 2>&1 | %filecheck %s --check-prefix=NAMED

// CHECK:      IR Dump After CSE (cse)
// CHECK-NEXT: module {
// CHECK-NOT:  IR Dump After DCE
// CHECK:      IR Dump After Canonicalize (canonicalize)
// CHECK-NEXT: module {
// CHECK-NEXT:   func.func @f(%[[X:.*]]: i32) -> i32 {
// CHECK-NEXT:     %[[M:.*]] = "test.muli"(%[[X]], %[[X]]) : (i32, i32) -> i32
// CHECK-NEXT:     "test.effect"(%[[M]]) : (i32) -> ()
// CHECK-NEXT:     return %[[X]] : i32
// CHECK-NOT:  IR Dump

// NAMED: IR Dump After CSE (cse)
// NAMED: IR Dump After DCE (dce)

func.func @f(%x: i32) -> i32 {
  %c0 = "test.constant"() {value = 0 : i32} : () -> i32
  %a = "test.addi"(%x, %c0) : (i32, i32) -> i32
  %b = "test.addi"(%x, %c0) : (i32, i32) -> i32
  %m = "test.muli"(%a, %b) : (i32, i32) -> i32
  "test.effect"(%m) : (i32) -> ()
  return %a : i32
}
