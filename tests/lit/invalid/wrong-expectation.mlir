// A wrong, missing or unmet expectation makes --verify-diagnostics fail, reporting both the
// diagnostic nobody expected and the expectation nothing produced; the other chunks are still
// checked.
// RUN: not %npu_opt %s --split-input-file --verify-diagnostics 2>&1 | %filecheck %s

// CHECK: wrong-expectation.mlir:{{[0-9]+}}:3: error: unexpected error: 'func.return' op type of return operand 0 ('i32') doesn't match function result type ('i64') in function @wrong_text
// CHECK: wrong-expectation.mlir:{{[0-9]+}}:6: error: expected error "this is not the message" was not produced
func.func @wrong_text(%x: i32) -> i64 {
  // expected-error@+1 {{this is not the message}}
  return %x : i32
}

// -----

// CHECK: error: unexpected error: {{.*}} in function @wrong_line
// CHECK: wrong-expectation.mlir:{{[0-9]+}}:6: error: expected error "doesn't match function result type" was not produced
func.func @wrong_line(%x: i32) -> i64 {
  // expected-error@+2 {{doesn't match function result type}}
  return %x : i32
  // (the annotation above points one line too far)
}

// -----

// CHECK: error: unexpected error: 'func.return' op has 1 operands
func.func @unannotated(%x: i32) {
  return %x : i32
}

// -----

// CHECK: wrong-expectation.mlir:{{[0-9]+}}:6: error: expected warning "nothing warns here" was not produced
func.func @never_produced() {
  // expected-warning@+1 {{nothing warns here}}
  return
}

// -----

// A note is not an error: the severity must match too.
// CHECK: error: unexpected error: 'test.effect' op operand #0 does not dominate this use
// CHECK: error: unexpected note: operand defined here
// CHECK: error: expected note "does not dominate" was not produced
func.func @severity() {
  // expected-note@+1 {{does not dominate}}
  "test.effect"(%v) : (i32) -> ()
  %v = "test.constant"() {value = 1 : i32} : () -> i32
  return
}
