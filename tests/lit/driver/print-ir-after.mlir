// --print-ir-after=PASSES dumps the IR to stderr after each run of the named passes.
// RUN: %npu_opt %s --pass=cse,dce --print-ir-after=cse 2>&1 >/dev/null | %filecheck %s
// RUN: %npu_opt %s --pass=cse,dce --print-ir-after=dce -o %t.out 2>&1 | %filecheck %s --check-prefix=DCE
// RUN: %npu_opt %s --pass=cse --print-ir-after=dce 2>&1 >/dev/null | %filecheck %s --check-prefix=NONE --allow-empty

// After cse the duplicate addi is gone but the dead muli is still there.
// CHECK:      // -----// IR Dump After CSE (cse) //----- //
// CHECK-NEXT: module {
// CHECK-NEXT:   func.func @f(%[[X:.*]]: i32) -> i32 {
// CHECK-NEXT:     %[[A:.*]] = "test.addi"(%[[X]], %[[X]]) : (i32, i32) -> i32
// CHECK-NEXT:     %{{.*}} = "test.muli"(%[[A]], %[[A]]) : (i32, i32) -> i32
// CHECK-NEXT:     return %[[A]] : i32
// CHECK-NOT:  IR Dump

// DCE:      // -----// IR Dump After DCE (dce) //----- //
// DCE-NEXT: module {
// DCE-NEXT:   func.func @f(%[[X:.*]]: i32) -> i32 {
// DCE-NEXT:     %[[A:.*]] = "test.addi"(%[[X]], %[[X]]) : (i32, i32) -> i32
// DCE-NEXT:     return %[[A]] : i32

// NONE-NOT: IR Dump

func.func @f(%x: i32) -> i32 {
  %a = "test.addi"(%x, %x) : (i32, i32) -> i32
  %b = "test.addi"(%x, %x) : (i32, i32) -> i32
  %m = "test.muli"(%a, %b) : (i32, i32) -> i32
  return %b : i32
}
