// Symbols defined directly in a module must be unique: the redefinition is reported, with a
// note at the first definition.
// RUN: %npu_opt %s --split-input-file --verify-diagnostics

func.func @twice() {
  // expected-note@-1 {{see existing symbol definition here}}
  return
}
// expected-error@+1 {{'func.func' op redefinition of symbol named 'twice'}}
func.func private @twice()

// -----

// A nested module's name is a symbol of the outer module as well.
module @outer {
  // expected-note@+1 {{see existing symbol definition here}}
  func.func private @a()
  // expected-error@+1 {{'builtin.module' op redefinition of symbol named 'a'}}
  module @a {
  }
}

// -----

// Each redefinition is reported, with a note at the first definition.
// expected-note@+2 {{see existing symbol definition here}}
// expected-note@+1 {{see existing symbol definition here}}
func.func private @x()
// expected-error@+1 {{redefinition of symbol named 'x'}}
func.func private @x()
// expected-error@+1 {{redefinition of symbol named 'x'}}
func.func private @x()

// -----

// The same name in two different modules is fine (no diagnostic expected).
module {
  module @m1 {
    func.func private @same()
  }
  module @m2 {
    func.func private @same()
  }
}
