// --print-ir-before-all and --print-ir-after-all dump the IR around every pass, in pipeline
// order, also for passes that change nothing.
// RUN: %npu_opt %s --pass=cse,dce --print-ir-before-all --print-ir-after-all -o %t.out 2>&1 | %filecheck %s
// RUN: %npu_opt %s --pass=cse,dce --print-ir-after-all -o %t.out 2>&1 | %filecheck %s --check-prefix=AFTER

// CHECK:      IR Dump Before CSE (cse)
// CHECK-NEXT: module {
// CHECK:      IR Dump After CSE (cse)
// CHECK-NEXT: module {
// CHECK:      IR Dump Before DCE (dce)
// CHECK-NEXT: module {
// CHECK:      IR Dump After DCE (dce)
// CHECK-NEXT: module {
// CHECK-NOT:  IR Dump

// AFTER-NOT:  IR Dump Before
// AFTER:      IR Dump After CSE (cse)
// AFTER:      IR Dump After DCE (dce)
// AFTER-NOT:  IR Dump

func.func @f(%x: i32) -> i32 {
  %a = "test.addi"(%x, %x) : (i32, i32) -> i32
  return %a : i32
}
