// Declared constraints of test dialect ops: operand and result counts and types, required
// attributes, and the ops' own verifiers. Every violation of an op is reported.
// RUN: %npu_opt %s --split-input-file --verify-diagnostics

func.func @float_operands(%x: f32) {
  // expected-error@+3 {{'test.addi' op operand #0 must be integer, but got 'f32'}}
  // expected-error@+2 {{'test.addi' op operand #1 must be integer, but got 'f32'}}
  // expected-error@+1 {{'test.addi' op result #0 must be integer, but got 'f32'}}
  %y = "test.addi"(%x, %x) : (f32, f32) -> f32
  return
}

// -----

func.func @operand_count(%x: i32) {
  // expected-error@+1 {{'test.muli' op expected 2 operands, but found 1}}
  %y = "test.muli"(%x) : (i32) -> i32
  return
}

// -----

func.func @result_count(%x: i32) {
  // expected-error@+1 {{'test.muli' op expected 1 result, but found 2}}
  %y:2 = "test.muli"(%x, %x) : (i32, i32) -> (i32, i32)
  return
}

// -----

func.func @missing_value() {
  // expected-error@+1 {{'test.constant' op requires attribute 'value'}}
  %y = "test.constant"() : () -> i32
  return
}

// -----

func.func @constant_type() {
  // expected-error@+1 {{'test.constant' op value type 'i64' does not match result type 'i32'}}
  %0 = "test.constant"() {value = 1 : i64} : () -> i32
  return
}

// -----

func.func @yield_not_last() {
  "test.region"() ({
    // expected-error@+1 {{'test.yield' op must be the last operation in the parent block}}
    "test.yield"() : () -> ()
    "test.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

// Variadic operands and results accept any count (no diagnostic expected).
func.func @variadic(%x: i32, %y: f32) {
  %r:3 = "test.effect"(%x, %y, %x) : (i32, f32, i32) -> (i1, i8, tensor<2xf32>)
  "test.effect"() : () -> ()
  return
}
