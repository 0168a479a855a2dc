// The IR is verified after parsing and after every pass (--verify-each, the default). A pass
// that breaks the IR (test-break-ir erases every func.return) fails the run, naming the pass;
// --no-verify skips verification, so invalid IR is printed.
// RUN: not %npu_opt %s --pass=test-break-ir 2>&1 | %filecheck %s
// RUN: not %npu_opt %s --pass=test-break-ir --verify-each 2>&1 | %filecheck %s
// RUN: %npu_opt %s --pass=test-break-ir --no-verify | %filecheck %s --check-prefix=NOVERIFY
// The passes after the failing one do not run.
// RUN: not %npu_opt %s --pass=test-break-ir,cse --print-ir-before=cse 2>&1 | %filecheck %s --check-prefix=STOP

// CHECK:      verify-each.mlir:{{[0-9]+}}:3: error: 'test.addi' op block must end with a terminator operation (e.g. 'func.return')
// CHECK:      npu-opt: error: verification failed after pass 'test-break-ir'
// CHECK-NOT:  module

// NOVERIFY:      func.func @f(%[[X:.*]]: i32) -> i32 {
// NOVERIFY-NEXT:   %{{.*}} = "test.addi"(%[[X]], %[[X]]) : (i32, i32) -> i32
// NOVERIFY-NEXT: }

// STOP-NOT: IR Dump Before CSE

func.func @f(%x: i32) -> i32 {
  %a = "test.addi"(%x, %x) : (i32, i32) -> i32
  return %a : i32
}
