// Dense elements attributes: splats, nested lists, hex data, empty tensors, booleans, and
// dense_resource blobs carried in the {-# dialect_resources #-} trailer.
// RUN: %npu_opt %s --split-input-file | %filecheck %s
// RUN: %roundtrip
// RUN: %fixedpoint

// CHECK-LABEL: func.func @splats
// CHECK: "test.effect"() {a = dense<1.5> : tensor<2x3xf32>, b = dense<7> : tensor<i32>, c = dense<-1> : tensor<4xi8>, d = dense<true> : tensor<2xi1>} : () -> ()
func.func @splats() {
  "test.effect"() {a = dense<1.5> : tensor<2x3xf32>, b = dense<7> : tensor<i32>, c = dense<-1> : tensor<4xi8>, d = dense<true> : tensor<2xi1>} : () -> ()
  return
}

// -----

// A list whose elements are all equal prints as a splat.
// CHECK-LABEL: func.func @nested
// CHECK: "test.effect"() {a = dense<{{\[\[}}1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>, b = dense<{{\[\[\[}}1]], {{\[\[}}2]]]> : tensor<2x1x1xi8>, c = dense<5> : tensor<3xi32>} : () -> ()
func.func @nested() {
  "test.effect"() {a = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>, b = dense<[[[1]], [[2]]]> : tensor<2x1x1xi8>, c = dense<[5, 5, 5]> : tensor<3xi32>} : () -> ()
  return
}

// -----

// Hex strings hold the raw little-endian data; one element's worth of data is a splat.
// CHECK-LABEL: func.func @hex
// CHECK: "test.effect"() {a = dense<[-1, 0, -1, 0]> : tensor<4xi8>, b = dense<1> : tensor<3xi32>, c = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> ()
func.func @hex() {
  "test.effect"() {a = dense<"0xFF00FF00"> : tensor<4xi8>, b = dense<"0x01000000"> : tensor<3xi32>, c = dense<"0x0000803F00000040"> : tensor<2xf32>} : () -> ()
  return
}

// -----

// CHECK-LABEL: func.func @empty_and_bool
// CHECK: "test.effect"() {a = dense<> : tensor<0xi32>, b = dense<[true, false, true]> : tensor<3xi1>, c = dense<[1, 2]> : tensor<2xindex>} : () -> ()
func.func @empty_and_bool() {
  "test.effect"() {a = dense<[]> : tensor<0xi32>, b = dense<[true, false, true]> : tensor<3xi1>, c = dense<[1, 2]> : tensor<2xindex>} : () -> ()
  return
}

// -----

// A dense_resource refers to a blob of the trailer by key; the printer re-emits the trailer
// after the module, with the blob's 4-byte alignment header kept.
// CHECK-LABEL: func.func @resource
// CHECK: "test.effect"() {a = dense_resource<blob1> : tensor<2xi16>} : () -> ()
// CHECK: {-#
// CHECK-NEXT: dialect_resources: {
// CHECK-NEXT: builtin: {
// CHECK-NEXT: blob1: "0x0200000001000200"
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: #-}
func.func @resource() {
  "test.effect"() {a = dense_resource<blob1> : tensor<2xi16>} : () -> ()
  return
}

{-#
  dialect_resources: {
    builtin: {
      blob1: "0x0200000001000200"
    }
  }
#-}

// -----

// Only referenced blobs are printed; two attributes may share a blob.
// CHECK-LABEL: func.func @shared_resource
// CHECK: "test.effect"() {a = dense_resource<used> : tensor<1xi32>, b = dense_resource<used> : tensor<1xi32>} : () -> ()
// CHECK: {-#
// CHECK-NOT: unused
// CHECK: used: "0x040000002A000000"
func.func @shared_resource() {
  "test.effect"() {a = dense_resource<used> : tensor<1xi32>, b = dense_resource<used> : tensor<1xi32>} : () -> ()
  return
}

{-#
  dialect_resources: {
    builtin: {
      unused: "0x0400000001000000",
      used: "0x040000002A000000"
    }
  }
#-}
