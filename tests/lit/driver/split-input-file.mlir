// --split-input-file processes each '// -----' separated chunk as its own module: names may be
// reused across chunks, an error in one chunk does not stop the others (but fails the run, and
// no output is written), and diagnostics keep the line numbers of the whole file. The outputs
// are joined with '// -----' lines. Without the flag, the separators are plain comments.
// RUN: %npu_opt %s --split-input-file --pass=cse | %filecheck %s
// RUN: not %npu_opt %s 2>&1 | %filecheck %s --check-prefix=WHOLE
// RUN: not %npu_opt %S/../Inputs/split-with-error.mlir --split-input-file 2>&1 | %filecheck %s --check-prefix=ERRORS
// RUN: not %npu_opt %S/../Inputs/split-with-error.mlir --split-input-file -o %t.out
// RUN: not %exists %t.out

// CHECK:      module {
// CHECK-NEXT:   func.func @same() -> i32 {
// CHECK-NEXT:     %[[A:.*]] = "test.constant"() {value = 1 : i32} : () -> i32
// CHECK-NEXT:     return %[[A]] : i32
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: // -----
// CHECK-NEXT: module {
// CHECK-NEXT:   func.func @same() -> i32 {
// CHECK-NEXT:     %[[B:.*]] = "test.constant"() {value = 2 : i32} : () -> i32
// CHECK-NEXT:     return %[[B]] : i32
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NOT:  {{.}}

// WHOLE:      split-input-file.mlir:42:1: error: 'func.func' op redefinition of symbol named 'same'
// WHOLE:      split-input-file.mlir:35:1: note: see existing symbol definition here

// ERRORS:     split-with-error.mlir:6:17: error: use of undeclared SSA value name '%undefined'
// ERRORS:     split-with-error.mlir:16:3: error: 'func.return' op type of return operand 0 ('i32') doesn't match function result type ('i64')
// ERRORS-NOT: error
// ERRORS-NOT: module

func.func @same() -> i32 {
  %a = "test.constant"() {value = 1 : i32} : () -> i32
  return %a : i32
}

// -----

func.func @same() -> i32 {
  %b = "test.constant"() {value = 2 : i32} : () -> i32
  %c = "test.constant"() {value = 2 : i32} : () -> i32
  return %c : i32
}
