// --print-op-generic prints every op, including builtin.module, func.func and func.return, as
// "name"(operands)[successors] <{properties}> ({regions}) {attributes} : (types) -> types.
// The entry block of a function gets an explicit ^bb0 label carrying its arguments.
// RUN: %npu_opt %s --split-input-file --print-op-generic > %t.out
// RUN: %filecheck %s --input-file %t.out
// RUN: %npu_opt --split-input-file --print-op-generic < %t.out | %filecheck %s

// CHECK:      "builtin.module"() ({
// CHECK-NEXT:   "func.func"() <{sym_name = "add", function_type = (i32, i32) -> i32}> ({
// CHECK-NEXT:   ^bb0(%[[A:.*]]: i32, %[[B:.*]]: i32):
// CHECK-NEXT:     %[[S:.*]] = "test.addi"(%[[A]], %[[B]]) : (i32, i32) -> i32
// CHECK-NEXT:     "func.return"(%[[S]]) : (i32) -> ()
// CHECK-NEXT:   }) : () -> ()
// CHECK-NEXT: }) : () -> ()
func.func @add(%a: i32, %b: i32) -> i32 {
  %s = "test.addi"(%a, %b) : (i32, i32) -> i32
  return %s : i32
}

// -----

// A named module keeps its name as a property; its attributes stay discardable attributes.
// CHECK:      "builtin.module"() <{sym_name = "m"}> ({
// CHECK-NEXT:   "func.func"() <{sym_name = "decl", function_type = () -> (), sym_visibility = "private"}> ({
// CHECK-NEXT:   }) : () -> ()
// CHECK-NEXT: }) {test.attr} : () -> ()
module @m attributes {test.attr} {
  func.func private @decl()
}

// -----

// Successors and block arguments of later blocks; properties before regions, attributes after.
// CHECK:        "test.br"(%{{.*}})[^bb1] : (i8) -> ()
// CHECK-NEXT:   ^bb1(%[[X:.*]]: i8):
// CHECK-NEXT:     %[[R:.*]] = "test.region"(%[[X]]) <{kind = 1 : i32}> ({
// CHECK-NEXT:       "test.yield"(%[[X]]) : (i8) -> ()
// CHECK-NEXT:     }) {note = "after"} : (i8) -> i8
// CHECK-NEXT:     "func.return"(%[[R]]) : (i8) -> ()
func.func @cfg(%a: i8) -> i8 {
  "test.br"(%a)[^next] : (i8) -> ()
^next(%x: i8):
  %r = "test.region"(%x) <{kind = 1 : i32}> ({
    "test.yield"(%x) : (i8) -> ()
  }) {note = "after"} : (i8) -> i8
  return %r : i8
}
