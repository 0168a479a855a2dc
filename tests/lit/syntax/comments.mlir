// Comments run from '//' to the end of the line, anywhere whitespace may appear; '//' inside a
// string is text. Commented-out ops disappear.
// RUN: %npu_opt %s | %filecheck %s
// RUN: %roundtrip

// CHECK-LABEL: func.func @comments
// CHECK-SAME: (%[[A:.*]]: i32) -> i32 {
// CHECK-NEXT:   "test.effect"() {s = "// not a comment", t = "a /* b */ c"} : () -> ()
// CHECK-NEXT:   %[[S:.*]] = "test.addi"(%[[A]], %[[A]]) : (i32, i32) -> i32
// CHECK-NEXT:   return %[[S]] : i32
// CHECK-NEXT: }
// CHECK-NOT: removed
func.func @comments(%a: i32) -> i32 { // after the opening brace
  // a whole-line comment
  // "test.effect"() {removed} : () -> ()
  "test.effect"() {s = "// not a comment", t = "a /* b */ c"} : () -> () // after an op
  %s = "test.addi"(%a,
                   %a) : (i32, i32) -> i32 // the operand list spans two lines
  return %s : i32 // before the closing brace
} // after the function
//no space after the slashes
// the last line has no newline
// "test.effect"() {removed} : () -> ()