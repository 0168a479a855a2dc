// Syntax errors: each is reported at its position with what was expected; every chunk fails on
// its own and the others are still checked.
// RUN: %npu_opt %s --split-input-file --verify-diagnostics

// expected-error@+1 {{unexpected '{'; expected '(', ')', SSA value}}
func.func @missing_paren( {

// -----

// A signature without its result types: the input ends (on the blank line below) too early.
// expected-error@+2 {{unexpected end of file}}
"test.effect"() : () ->

// -----

// expected-error@+1 {{expected ',' or ')' in the operand list, found ':'}}
"test.effect"(%a : () -> ()

// -----

func.func @unclosed() {
  return
// The chunk ends on the blank line below the annotation: that is where the error is.
// expected-error@+1 {{unexpected end of file}}

// -----

// expected-error@+1 {{unexpected '}'}}
}

// -----

// The operand list and the signature disagree.
// expected-error@+1 {{expected 0 operand types but had 1}}
"test.effect"() : (i32) -> ()

// -----

func.func @return_types(%a: i32) {
  // expected-error@+1 {{expected 1 types to match the returned values, found 2}}
  return %a : i32, i32
}

// -----

// Custom assembly of ops is not supported: only the generic form.
// expected-error@+1 {{unexpected 'test.constant'}}
%0 = test.constant 1 : i32

// -----

// expected-error@+1 {{unexpected 'nonsense'; expected 'fused', 'unknown', string}}
"test.effect"() : () -> () loc(nonsense)

// -----

"test.region"() ({
^bb0:
  "test.yield"() : () -> ()
// expected-error@+1 {{redefinition of block '^bb0'}}
^bb0:
  "test.yield"() : () -> ()
}) : () -> ()

// -----

// expected-error@+1 {{unknown escape '\q' in string literal}}
"test.effect"() {a = "bad \q escape"} : () -> ()
