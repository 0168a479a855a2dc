// --elide-large-constants=N prints elements attributes with more than N elements as
// dense_resource<__elided__>, which parses back (as a resource without data). Blobs of elided
// resources are left out of the trailer; smaller constants, and splats of any size (as in MLIR),
// are printed in full.
// RUN: %npu_opt %s --elide-large-constants=4 > %t.out
// RUN: %filecheck %s --input-file %t.out
// RUN: %npu_opt < %t.out | %filecheck %s
// RUN: %npu_opt %s --elide-large-constants=0 | %filecheck %s --check-prefix=ZERO
// RUN: %npu_opt %s | %filecheck %s --check-prefix=FULL

// CHECK-LABEL: func.func @constants
// CHECK-NEXT: "test.effect"() {big = dense_resource<__elided__> : tensor<2x3xf32>, small = dense<[1, 2, 3, 4]> : tensor<4xi32>, blob = dense_resource<__elided__> : tensor<8xi8>, tiny = dense_resource<tiny> : tensor<1xi32>, scalar = 5 : i32, splat = dense<1.5> : tensor<100xf32>} : () -> ()
// CHECK:      {-#
// CHECK-NOT:  big_blob
// CHECK:      tiny: "0x0400000007000000"
// CHECK-NOT:  big_blob

// ZERO: {big = dense_resource<__elided__> : tensor<2x3xf32>, small = dense_resource<__elided__> : tensor<4xi32>, blob = dense_resource<__elided__> : tensor<8xi8>, tiny = dense_resource<__elided__> : tensor<1xi32>, scalar = 5 : i32, splat = dense<1.5> : tensor<100xf32>}
// ZERO-NOT: {-#

// FULL: {big = dense<[{{\[}}1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>, small = dense<[1, 2, 3, 4]> : tensor<4xi32>, blob = dense_resource<big_blob> : tensor<8xi8>, tiny = dense_resource<tiny> : tensor<1xi32>, scalar = 5 : i32, splat = dense<1.5> : tensor<100xf32>}
// FULL: big_blob: "0x010000000102030405060708"
func.func @constants() {
  "test.effect"() {big = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>, small = dense<[1, 2, 3, 4]> : tensor<4xi32>, blob = dense_resource<big_blob> : tensor<8xi8>, tiny = dense_resource<tiny> : tensor<1xi32>, scalar = 5 : i32, splat = dense<1.5> : tensor<100xf32>} : () -> ()
  return
}

{-#
  dialect_resources: {
    builtin: {
      big_blob: "0x010000000102030405060708",
      tiny: "0x0400000007000000"
    }
  }
#-}
