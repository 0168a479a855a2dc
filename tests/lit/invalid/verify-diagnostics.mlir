// --verify-diagnostics: annotations name the line of the diagnostic directly, by offset (@+N,
// @-N), or as @above/@below; -re annotations hold regular expressions in {{...}}. Notes,
// warnings and remarks are matched like errors. A run whose diagnostics all match succeeds.
// RUN: %npu_opt %s --split-input-file --verify-diagnostics

// Each expectation needs a diagnostic of its own: one per function here.
func.func @below(%x: i32) -> i64 {
  // expected-error@below {{doesn't match function result type ('i64')}}
  return %x : i32
}
func.func @above(%x: i32) -> i64 {
  return %x : i32
  // expected-error@above {{type of return operand 0}}
}
func.func @same_line(%x: i32) -> i64 {
  return %x : i32 // expected-error {{in function @same_line}}
}
func.func @offset_minus(%x: i32) -> i64 {
  return %x : i32
  // A comment line in between.
  // expected-error@-2 {{in function @offset_minus}}
}

// -----

func.func @regex(%x: i32) -> i64 {
  // expected-error-re@+1 {{type of return operand {{[0-9]+}} ('i{{(32|16)}}')}}
  return %x : i32
}

// -----

// Two diagnostics and two notes on the same lines (each expectation matches one diagnostic).
func.func @notes() {
  // expected-error@+2 {{operand #0 does not dominate}}
  // expected-error@+1 {{operand #1 does not dominate}}
  %s = "test.addi"(%s, %s) : (i32, i32) -> i32
  // expected-note@-1 {{operand defined here}}
  // expected-note@-2 {{operand defined here}}
  return
}
