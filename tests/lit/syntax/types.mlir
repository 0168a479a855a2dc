// Builtin and dialect types: each is printed back in its canonical spelling, survives the generic
// round trip (%roundtrip) and printing is a fixed point (%fixedpoint).
// RUN: %npu_opt %s --split-input-file --allow-unregistered-dialect | %filecheck %s
// RUN: %roundtrip
// RUN: %fixedpoint

// CHECK-LABEL: func.func @integers
// CHECK-SAME: (%[[A:.*]]: i1, %[[B:.*]]: i8, %[[C:.*]]: si16, %[[D:.*]]: ui32, %[[E:.*]]: i64, %[[F:.*]]: index)
// CHECK-SAME: -> (i1, i8, si16, ui32, i64, index)
// CHECK-NEXT: return %[[A]], %[[B]], %[[C]], %[[D]], %[[E]], %[[F]] : i1, i8, si16, ui32, i64, index
func.func @integers(%a: i1, %b: i8, %c: si16, %d: ui32, %e: i64, %f: index) -> (i1, i8, si16, ui32, i64, index) {
  return %a, %b, %c, %d, %e, %f : i1, i8, si16, ui32, i64, index
}

// -----

// CHECK-LABEL: func.func @wide_integers(i3, i17, si64, ui1, i128)
func.func @wide_integers(i3, i17, si64, ui1, i128)

// -----

// CHECK-LABEL: func.func @floats(f16, bf16, f32, f64) -> none
func.func @floats(f16, bf16, f32, f64) -> none

// -----

// CHECK-LABEL: func.func @tensors
// CHECK-SAME: (tensor<4x?xf32>, tensor<*xi8>, tensor<f32>, tensor<0x3xi1>, tensor<?x?x?xbf16>)
func.func @tensors(tensor<4x?xf32>, tensor<*xi8>, tensor<f32>, tensor<0x3xi1>, tensor<?x?x?xbf16>)

// -----

// A tensor encoding is any attribute, printed after the element type.
// CHECK-LABEL: func.func @encodings
// CHECK-SAME: (tensor<2xf32, #foo.enc<1>>, tensor<2xf32, "enc">, tensor<3x?xi8, {k = 1 : i64}>)
func.func @encodings(tensor<2xf32, #foo.enc<1>>, tensor<2xf32, "enc">, tensor<3x?xi8, {k = 1}>)

// -----

// CHECK-LABEL: func.func @quantized
// CHECK-SAME: (!quant.uniform<i8:f32, 0.5:3>,
// CHECK-SAME: !quant.uniform<u8<1:255>:f32:1, {0.5:3,0.25:4}>,
// CHECK-SAME: !quant.uniform<i8:f16, 2.0>)
func.func @quantized(!quant.uniform<i8:f32, 0.5:3>, !quant.uniform<u8<1:255>:f32:1, {0.5:3,0.25:4}>, !quant.uniform<i8:f16, 2.0>)

// -----

// Function types as results need parentheses; a single non-function result does not.
// CHECK-LABEL: func.func @function_types() -> ((i32) -> i64, () -> ())
func.func @function_types() -> ((i32) -> i64, () -> ())

// CHECK-LABEL: func.func @returns_function() -> ((i32, f32) -> (i1, i1))
func.func @returns_function() -> ((i32, f32) -> (i1, i1))

// -----

// Types of unregistered dialects are kept as written.
// CHECK-LABEL: func.func @dialect_types(!foo.bar, !foo.baz<"x", 3>, !foo.nest<<1, 2>, [3]>)
func.func @dialect_types(!foo.bar, !foo.baz<"x", 3>, !foo.nest<<1, 2>, [3]>)

// -----

// Types in an op signature, including several results.
// CHECK-LABEL: func.func @op_signature
// CHECK: %{{.*}}:3 = "test.effect"() : () -> (tensor<1x2x3xi32>, index, !foo.t)
func.func @op_signature() {
  %0:3 = "test.effect"() : () -> (tensor<1x2x3xi32>, index, !foo.t)
  return
}
