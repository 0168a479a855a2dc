// --no-verify also skips the verification after parsing: IR that parses but is invalid (here a
// type mismatch with the signature, and a use that is not dominated) is printed unchanged.
// RUN: %npu_opt %s --no-verify | %filecheck %s
// RUN: not %npu_opt %s 2>&1 | %filecheck %s --check-prefix=VERIFY

// CHECK-LABEL: func.func @invalid
// CHECK-SAME: (%[[X:.*]]: i32) -> i64 {
// CHECK-NEXT:   "test.effect"(%[[LATE:.*]]) : (i32) -> ()
// CHECK-NEXT:   %[[LATE]] = "test.constant"() {value = 1 : i32} : () -> i32
// CHECK-NEXT:   return %[[X]] : i32

// VERIFY-DAG: error: 'test.effect' op operand #0 does not dominate this use
// VERIFY-DAG: error: 'func.return' op type of return operand 0 ('i32') doesn't match function result type ('i64')

func.func @invalid(%x: i32) -> i64 {
  "test.effect"(%late) : (i32) -> ()
  %late = "test.constant"() {value = 1 : i32} : () -> i32
  return %x : i32
}
