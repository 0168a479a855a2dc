// An unknown op of a dialect npu-opt knows is an error even with --allow-unregistered-dialect
// (as in MLIR): the flag admits unknown dialects, not typos in known ones.
// RUN: %npu_opt %s --split-input-file --verify-diagnostics
// RUN: %npu_opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

// expected-error@+1 {{unregistered operation 'builtin.unknown' found in dialect ('builtin') that does not allow unknown operations}}
"builtin.unknown"() : () -> ()

// -----

func.func @typo(%a: i32) -> i32 {
  // expected-error@+1 {{unregistered operation 'test.addx' found in dialect ('test') that does not allow unknown operations}}
  %0 = "test.addx"(%a, %a) : (i32, i32) -> i32
  return %0 : i32
}
