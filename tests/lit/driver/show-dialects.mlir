// --show-dialects lists each registered dialect with its description and its ops with the first
// line of their documentation, sorted; it reads no input.
// RUN: %npu_opt --show-dialects | %filecheck %s

// CHECK:      builtin: MLIR's builtin dialect: the module container.
// CHECK-NEXT:   builtin.module {{ +}}A container of functions and other symbols
// CHECK:      func: Functions, returns.
// CHECK-NEXT:   func.func {{ +}}A function: a symbol with a signature and a body region (empty for a declaration).
// CHECK-NEXT:   func.return {{ +}}Returns the values of a function's results; must end the function's blocks.
// CHECK:      test: Ops for testing the IR infrastructure and built-in passes.
// CHECK-NEXT:   test.addi {{ +}}Integer addition with wrap-around; folds constants and ``x + 0``.
// CHECK-NEXT:   test.br {{ +}}A terminator
// CHECK-NEXT:   test.constant {{ +}}A constant of any type
// CHECK-NEXT:   test.effect {{ +}}An op with side effects
// CHECK-NEXT:   test.muli
// CHECK-NEXT:   test.region
// CHECK-NEXT:   test.reshape
// CHECK-NEXT:   test.yield {{ +}}Terminates a test.region block.
