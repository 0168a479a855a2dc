// builtin.module: named modules with attributes, nesting, the 'builtin.module' and generic
// spellings, and the implicit module that wraps top-level ops that are not a single module.
// RUN: %npu_opt %s --split-input-file | %filecheck %s
// RUN: %roundtrip
// RUN: %fixedpoint

// CHECK:      module @named attributes {test.a = 1 : i32} {
// CHECK-NEXT:   func.func @f() {
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NEXT: {{^$}}
// CHECK-NEXT: // -----
module @named attributes {test.a = 1 : i32} {
  func.func @f() {
    return
  }
}

// -----

// Modules nest; symbols only need to be unique within their own module.
// CHECK:      module {
// CHECK-NEXT:   module @a {
// CHECK-NEXT:     func.func private @same()
// CHECK-NEXT:   }
// CHECK-NEXT:   module @b {
// CHECK-NEXT:     func.func private @same()
// CHECK-NEXT:   }
// CHECK-NEXT:   module {
// CHECK-NEXT:   }
// CHECK-NEXT: }
module {
  module @a {
    func.func private @same()
  }
  module @b {
    func.func private @same()
  }
  module {
  }
}

// -----

// 'builtin.module' is the same op; the pretty form prints it as 'module'.
// CHECK:      module @spelled {
// CHECK-NEXT:   func.func private @g()
// CHECK-NEXT: }
builtin.module @spelled {
  func.func private @g()
}

// -----

// The generic form of a module and its functions is printed in the pretty form.
// CHECK:      module {
// CHECK-NEXT:   func.func @generic() {
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT: }
"builtin.module"() ({
  "func.func"() <{sym_name = "generic", function_type = () -> ()}> ({
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----

// Several top-level ops are wrapped in one implicit module.
// CHECK:      module {
// CHECK-NEXT:   func.func private @first()
// CHECK-NEXT:   func.func private @second()
// CHECK-NEXT: }
func.func private @first()
func.func private @second()

// -----

// Two top-level modules are wrapped too (only a single module is taken as the top level).
// CHECK:      module {
// CHECK-NEXT:   module @one {
// CHECK-NEXT:   }
// CHECK-NEXT:   module @two {
// CHECK-NEXT:   }
// CHECK-NEXT: }
module @one {
}
module @two {
}

// -----

// CHECK: module @"not an identifier" {
module @"not an identifier" {
}
