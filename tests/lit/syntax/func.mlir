// The pretty form of func.func: argument and result attributes, visibility, declarations,
// 'attributes {...}', quoted names, and the properties they become in the generic form.
// RUN: %npu_opt %s --split-input-file | %filecheck %s
// RUN: %npu_opt %s --split-input-file --print-op-generic | %filecheck %s --check-prefix=GENERIC
// RUN: %roundtrip
// RUN: %fixedpoint

// CHECK-LABEL: func.func @arg_and_result_attrs
// CHECK-SAME: (%[[A:.*]]: i32 {test.one = 1 : i32}, %[[B:.*]]: f32 {test.flag}) -> (i32 {test.res}, f32) attributes {test.fn = "x"} {
// CHECK-NEXT:   return %[[A]], %[[B]] : i32, f32
// GENERIC-LABEL: "func.func"() <{sym_name = "arg_and_result_attrs", function_type = (i32, f32) -> (i32, f32), arg_attrs = [{test.one = 1 : i32}, {test.flag}], res_attrs = [{test.res}, {}]}> ({
// GENERIC-NEXT:  ^bb0(%[[A:.*]]: i32, %[[B:.*]]: f32):
// GENERIC-NEXT:    "func.return"(%[[A]], %[[B]]) : (i32, f32) -> ()
// GENERIC-NEXT:  }) {test.fn = "x"} : () -> ()
func.func @arg_and_result_attrs(%a: i32 {test.one = 1 : i32}, %b: f32 {test.flag}) -> (i32 {test.res}, f32) attributes {test.fn = "x"} {
  return %a, %b : i32, f32
}

// -----

// Declarations have no body: only types (with optional attributes) in the signature.
// XDSL-INCOMPATIBLE: xdsl-opt 0.74 drops the argument and result attributes of declarations.
// CHECK-LABEL: func.func private @declaration(i32, tensor<2xf32>) -> i32
// CHECK-LABEL: func.func @declaration_attrs(i32 {test.a}) -> (i32 {test.r = 2 : i64})
// GENERIC-LABEL: "func.func"() <{sym_name = "declaration", function_type = (i32, tensor<2xf32>) -> i32, sym_visibility = "private"}> ({
// GENERIC-NEXT:  }) : () -> ()
func.func private @declaration(i32, tensor<2xf32>) -> i32
func.func @declaration_attrs(i32 {test.a}) -> (i32 {test.r = 2 : i64})

// -----

// Visibility is printed as written; no visibility means public.
// CHECK-LABEL: func.func nested @nested_visibility()
// CHECK-LABEL: func.func public @public_visibility() {
// CHECK-LABEL: func.func @default_visibility() {
// GENERIC-LABEL: sym_name = "nested_visibility", function_type = () -> (), sym_visibility = "nested"
// GENERIC-LABEL: sym_name = "public_visibility", function_type = () -> (), sym_visibility = "public"
// GENERIC-LABEL: sym_name = "default_visibility", function_type = () -> ()}>
func.func nested @nested_visibility()
func.func public @public_visibility() {
  return
}
func.func @default_visibility() {
  return
}

// -----

// An empty 'attributes {}' is dropped; names that are not identifiers are quoted.
// CHECK-LABEL: func.func @empty_attributes() {
// CHECK-NEXT:    return
// CHECK-LABEL: func.func @"quoted name"() {
func.func @empty_attributes() attributes {} {
  return
}
func.func @"quoted name"() {
  return
}

// -----

// A single result is printed without parentheses; several results, none, or a result with
// attributes need them.
// CHECK-LABEL: func.func @one_result(%{{.*}}: i8) -> i8 {
// CHECK-LABEL: func.func @two_results(%{{.*}}: i8) -> (i8, i8) {
// CHECK-LABEL: func.func @no_result(%{{.*}}: i8) {
func.func @one_result(%x: i8) -> (i8) {
  return %x : i8
}
func.func @two_results(%x: i8) -> (i8, i8) {
  return %x, %x : i8, i8
}
func.func @no_result(%x: i8) -> () {
  return
}

// -----

// 'func.return' is the same op as 'return'; func bodies number values from %0 each.
// CHECK-LABEL: func.func @first
// CHECK-NEXT:    %0 = "test.constant"() {value = 1 : i8} : () -> i8
// CHECK-NEXT:    return %0 : i8
// CHECK-LABEL: func.func @second
// CHECK-NEXT:    %0 = "test.constant"() {value = 2 : i8} : () -> i8
// CHECK-NEXT:    return %0 : i8
func.func @first() -> i8 {
  %a = "test.constant"() {value = 1 : i8} : () -> i8
  func.return %a : i8
}
func.func @second() -> i8 {
  %b = "test.constant"() {value = 2 : i8} : () -> i8
  "func.return"(%b) : (i8) -> ()
}
