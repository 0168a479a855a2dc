// Interoperability with xDSL (xdsl-opt): xDSL parses what npu-opt prints, in the pretty and
// the generic form, and npu-opt parses what xDSL prints (its pretty form spells multi-result
// ops '%a, %b = ...', the module 'builtin.module' and returns 'func.return'), getting back
// exactly the IR it printed.
// REQUIRES: xdsl
// RUN: %npu_opt %s --split-input-file --allow-unregistered-dialect -o %t.npu.mlir
// RUN: xdsl-opt %t.npu.mlir --split-input-file --allow-unregistered-dialect -o %t.xdsl.mlir
// RUN: %filecheck %s --input-file %t.xdsl.mlir --check-prefix=XDSL
// RUN: %npu_opt %t.xdsl.mlir --split-input-file --allow-unregistered-dialect -o %t.back.mlir
// RUN: diff %t.npu.mlir %t.back.mlir
// RUN: %filecheck %s --input-file %t.back.mlir
// Generic form in both directions.
// RUN: %npu_opt %s --split-input-file --allow-unregistered-dialect --print-op-generic | xdsl-opt --split-input-file --allow-unregistered-dialect --print-op-generic -o %t.xdsl-generic.mlir
// RUN: %filecheck %s --input-file %t.xdsl-generic.mlir --check-prefix=XDSL-GENERIC
// RUN: %npu_opt %t.xdsl-generic.mlir --split-input-file --allow-unregistered-dialect -o %t.back-generic.mlir
// RUN: diff %t.npu.mlir %t.back-generic.mlir

// XDSL:         builtin.module {
// XDSL:           func.func @ops
// XDSL:           %{{.*}}, %{{.*}} = "test.effect"
// XDSL:           func.return
// XDSL-GENERIC: "builtin.module"() ({
// XDSL-GENERIC:   "func.func"() <{sym_name = "ops"

// CHECK-LABEL: func.func @ops
// CHECK-SAME: (%[[A:.*]]: i32, %[[B:.*]]: i32 {test.attr = 1 : i64}) -> (i32, i32) attributes {test.fn} {
// CHECK-NEXT:   %[[C:.*]] = "test.constant"() {value = 0 : i32} : () -> i32
// CHECK-NEXT:   %[[S:.*]] = "test.addi"(%[[A]], %[[C]]) : (i32, i32) -> i32
// CHECK-NEXT:   %[[E:.*]]:2 = "test.effect"(%[[S]]) <{p = 2 : i8}> : (i32) -> (i32, i32)
// CHECK-NEXT:   %[[M:.*]] = "test.muli"(%[[E]]#1, %[[B]]) : (i32, i32) -> i32
// CHECK-NEXT:   return %[[M]], %[[E]]#0 : i32, i32
func.func @ops(%a: i32, %b: i32 {test.attr = 1}) -> (i32, i32) attributes {test.fn} {
  %c = "test.constant"() {value = 0 : i32} : () -> i32
  %s = "test.addi"(%a, %c) : (i32, i32) -> i32
  %e:2 = "test.effect"(%s) <{p = 2 : i8}> : (i32) -> (i32, i32)
  %m = "test.muli"(%e#1, %b) : (i32, i32) -> i32
  return %m, %e#0 : i32, i32
}

// -----

// CHECK-LABEL: func.func private @types
// CHECK-SAME: (i1, si8, ui16, index, bf16, f16, f64, tensor<4x?xf32>, tensor<*xi8>, tensor<f32>, !foo.bar<"x">, !quant.uniform<i8:f32, 0.5:3>) -> none
func.func private @types(i1, si8, ui16, index, bf16, f16, f64, tensor<4x?xf32>, tensor<*xi8>, tensor<f32>, !foo.bar<"x">, !quant.uniform<i8:f32, 0.5:3>) -> none

// -----

// CHECK-LABEL: func.func @attributes
// CHECK-NEXT: "test.effect"() {a = [1 : i64, "s\0A", @sym::@nested], b = {k}, c = 1.5 : f32, d = dense<[1, 2]> : tensor<2xi32>, e = dense<2.5> : tensor<2x2xf32>, f = #foo.attr<"x">, g = i32, h = true, i = dense_resource<blob> : tensor<1xi32>} : () -> ()
// CHECK: blob: "0x0400000007000000"
func.func @attributes() {
  "test.effect"() {a = [1, "s\n", @sym::@nested], b = {k}, c = 1.5 : f32, d = dense<[1, 2]> : tensor<2xi32>, e = dense<2.5> : tensor<2x2xf32>, f = #foo.attr<"x">, g = i32, h = true, i = dense_resource<blob> : tensor<1xi32>} : () -> ()
  return
}

{-#
  dialect_resources: {
    builtin: {
      blob: "0x0400000007000000"
    }
  }
#-}

// -----

// CHECK-LABEL: func.func @regions
// CHECK: "test.br"(%{{.*}})[^bb1, ^bb2] : (i32) -> ()
// CHECK: ^bb1(%{{.*}}: i32):
// CHECK: "test.region"(%{{.*}}) ({
// CHECK-NEXT: ^bb0(%{{.*}}: i32):
// CHECK: }, {
// CHECK: ^bb2(%{{.*}}: i32):
func.func @regions(%a: i32) -> i32 {
  "test.br"(%a)[^bb1, ^bb2] : (i32) -> ()
^bb1(%p: i32):
  %r = "test.region"(%p) ({
  ^bb0(%inner: i32):
    %s = "test.addi"(%inner, %a) : (i32, i32) -> i32
    "test.yield"(%s) : (i32) -> ()
  }, {
    "test.yield"(%a) : (i32) -> ()
  }) : (i32) -> i32
  "test.br"(%r)[^bb2] : (i32) -> ()
^bb2(%x: i32):
  return %x : i32
}

// -----

// CHECK: module @named attributes {test.m = 1 : i32} {
// CHECK-NEXT:   module @inner {
module @named attributes {test.m = 1 : i32} {
  module @inner {
    func.func private @f()
  }
}
