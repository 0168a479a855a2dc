// Blocks must end with a terminator (except in builtin.module), and a terminator must be the
// last op of its block.
// RUN: %npu_opt %s --split-input-file --verify-diagnostics

// expected-error@+1 {{'func.func' op empty block: expect at least a terminator}}
func.func @empty_body() {
}

// -----

func.func @no_terminator() -> i32 {
  // expected-error@+1 {{'test.constant' op block must end with a terminator operation (e.g. 'func.return')}}
  %0 = "test.constant"() {value = 1 : i32} : () -> i32
}

// -----

func.func @terminator_in_the_middle() {
  // expected-error@+1 {{'func.return' op must be the last operation in the parent block}}
  return
  // expected-error@+1 {{'test.effect' op block must end with a terminator operation}}
  "test.effect"() : () -> ()
}

// -----

// Every block of a multi-block region needs one.
func.func @second_block() {
  "test.br"()[^bb1] : () -> ()
^bb1:
  // expected-error@+1 {{'test.effect' op block must end with a terminator operation}}
  "test.effect"() : () -> ()
}

// -----

// Blocks of nested regions too.
func.func @nested_block() {
  %1 = "test.constant"() {value = 1 : i32} : () -> i32
  "test.region"() ({
    // expected-error@+1 {{'test.addi' op block must end with a terminator operation}}
    %0 = "test.addi"(%1, %1) : (i32, i32) -> i32
  }) : () -> ()
  return
}

// -----

// A branch must have somewhere to go, with block arguments of the types it passes.
func.func @branches(%a: i32) {
  // expected-error@+1 {{'test.br' op expects at least one successor}}
  "test.br"() : () -> ()
}

// -----

func.func @branch_arguments(%a: i32) {
  // expected-error@+1 {{'test.br' op successor #0 takes (i64) but the op passes (i32)}}
  "test.br"(%a)[^bb1] : (i32) -> ()
^bb1(%b: i64):
  return
}

// -----

// The module needs no terminator: any op may come last (no diagnostic expected here).
"test.effect"() : () -> ()
