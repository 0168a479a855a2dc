// --print-ir-before=PASSES dumps the IR to stderr before each run of the named passes, with
// MLIR's header; the final IR still goes to stdout.
// RUN: %npu_opt %s --pass=cse,dce,cse --print-ir-before=cse 2>&1 >/dev/null | %filecheck %s
// RUN: %npu_opt %s --pass=cse,dce --print-ir-before=dce,cse 2>&1 >/dev/null | %filecheck %s --check-prefix=BOTH
// RUN: %npu_opt %s --pass=cse --print-ir-before=cse --print-op-generic 2>&1 >/dev/null | %filecheck %s --check-prefix=GENERIC

// CHECK:      // -----// IR Dump Before CSE (cse) //----- //
// CHECK-NEXT: module {
// CHECK-NEXT:   func.func @f(%[[X:.*]]: i32) -> i32 {
// CHECK-NEXT:     %[[A:.*]] = "test.addi"(%[[X]], %[[X]]) : (i32, i32) -> i32
// CHECK-NEXT:     %[[B:.*]] = "test.addi"(%[[X]], %[[X]]) : (i32, i32) -> i32
// CHECK:      // -----// IR Dump Before CSE (cse) //----- //
// CHECK-NEXT: module {
// CHECK-NEXT:   func.func @f(%[[X:.*]]: i32) -> i32 {
// CHECK-NEXT:     %[[A:.*]] = "test.addi"(%[[X]], %[[X]]) : (i32, i32) -> i32
// CHECK-NEXT:     %[[M:.*]] = "test.muli"(%[[A]], %[[A]]) : (i32, i32) -> i32
// CHECK-NOT:  IR Dump

// BOTH:      IR Dump Before CSE (cse)
// BOTH:      IR Dump Before DCE (dce)
// BOTH-NOT:  IR Dump

// GENERIC:      IR Dump Before CSE (cse)
// GENERIC-NEXT: "builtin.module"() ({

func.func @f(%x: i32) -> i32 {
  %a = "test.addi"(%x, %x) : (i32, i32) -> i32
  %b = "test.addi"(%x, %x) : (i32, i32) -> i32
  %m = "test.muli"(%a, %b) : (i32, i32) -> i32
  return %m : i32
}
