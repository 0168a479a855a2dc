// Block reference errors: a successor naming a block that does not exist (also at the top
// level, and across region boundaries: block names are local to their region), and a block
// defined twice.
// RUN: %npu_opt %s --split-input-file --verify-diagnostics

func.func @undefined_successor() {
  // expected-error@+1 {{reference to an undefined block '^missing'}}
  "test.br"()[^missing] : () -> ()
}

// -----

// The function cannot branch into a nested region.
func.func @into_nested_region() {
  "test.region"() ({
    "test.br"()[^inner] : () -> ()
  ^inner:
    "test.yield"() : () -> ()
  }) : () -> ()
  // expected-error@+1 {{reference to an undefined block '^inner'}}
  "test.br"()[^inner] : () -> ()
}

// -----

// Ops at the top level are in the implicit module's block, which has no other blocks.
// expected-error@+1 {{reference to an undefined block '^nowhere'}}
"test.br"()[^nowhere] : () -> ()

// -----

func.func @redefined_block() {
  "test.br"()[^bb1] : () -> ()
^bb1:
  "test.br"()[^bb1] : () -> ()
// expected-error@+1 {{redefinition of block '^bb1'}}
^bb1:
  return
}
