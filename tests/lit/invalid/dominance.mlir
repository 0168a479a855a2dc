// Dominance: a value must be defined in a block that dominates the use (or earlier in the same
// block). The verifier points at the use and notes the definition.
// RUN: %npu_opt %s --split-input-file --verify-diagnostics

func.func @use_before_def() {
  // expected-error@+1 {{'test.effect' op operand #0 does not dominate this use}}
  "test.effect"(%b) : (i32) -> ()
  // expected-note@+1 {{operand defined here}}
  %b = "test.constant"() {value = 1 : i32} : () -> i32
  return
}

// -----

// Defined on one path of a diamond only.
func.func @one_path() -> i32 {
  "test.br"()[^bb1, ^bb2] : () -> ()
^bb1:
  // expected-note@+1 {{operand defined here}}
  %a = "test.constant"() {value = 1 : i32} : () -> i32
  "test.br"()[^bb3] : () -> ()
^bb2:
  "test.br"()[^bb3] : () -> ()
^bb3:
  // expected-error@+1 {{'func.return' op operand #0 does not dominate this use}}
  return %a : i32
}

// -----

// Defined in a block that is unreachable from the use's block.
func.func @unreachable_definition() {
  "test.br"()[^bb1] : () -> ()
^bb1:
  // expected-error@+1 {{operand #0 does not dominate this use}}
  "test.effect"(%u) : (i32) -> ()
  "test.br"()[^bb1] : () -> ()
^bb2:
  // expected-note@+1 {{operand defined here}}
  %u = "test.constant"() {value = 1 : i32} : () -> i32
  "test.br"()[^bb1] : () -> ()
}

// -----

// A nested region sees the values of the enclosing blocks only where they dominate the op.
func.func @region_before_def() {
  "test.region"() ({
    // expected-error@+1 {{operand #0 does not dominate this use}}
    "test.effect"(%late) : (i32) -> ()
    "test.yield"() : () -> ()
  }) : () -> ()
  // expected-note@+1 {{operand defined here}}
  %late = "test.constant"() {value = 1 : i32} : () -> i32
  return
}

// -----

// A block argument is only visible in its block (and the blocks that it dominates).
func.func @block_argument() {
  // expected-error@+1 {{'test.br' op operand #0 is a block argument that does not dominate this use}}
  "test.br"(%x)[^bb1] : (i32) -> ()
^bb1(%x: i32):
  return
}

// -----

// An op cannot use its own result: each operand gets its own error and note.
func.func @self_use() {
  // expected-error@+4 {{'test.addi' op operand #0 does not dominate this use}}
  // expected-error@+3 {{'test.addi' op operand #1 does not dominate this use}}
  // expected-note@+2 {{operand defined here}}
  // expected-note@+1 {{operand defined here}}
  %s = "test.addi"(%s, %s) : (i32, i32) -> i32
  return
}
