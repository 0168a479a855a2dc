// Malformed types and attributes: literals that do not fit their type, dense literals whose
// shape or data size disagrees with the tensor type, and malformed builtin types.
// RUN: %npu_opt %s --split-input-file --verify-diagnostics

// expected-error@+1 {{integer constant 256 out of range for i8}}
"test.effect"() {a = 256 : i8} : () -> ()

// -----

// expected-error@+1 {{floating point value not valid for specified type 'i32'}}
"test.effect"() {a = 1.5 : i32} : () -> ()

// -----

// expected-error@+1 {{integer literal not valid for specified type 'tensor<2xi32>'}}
"test.effect"() {a = 1 : tensor<2xi32>} : () -> ()

// -----

// expected-error@+1 {{inferred shape of elements literal ([3]) does not match type ([2])}}
"test.effect"() {a = dense<[1, 2, 3]> : tensor<2xi32>} : () -> ()

// -----

// expected-error@+1 {{expected an integer element, found '1.5'}}
"test.effect"() {a = dense<[1.5]> : tensor<1xi32>} : () -> ()

// -----

// expected-error@+1 {{integer constant 300 out of range for i8}}
"test.effect"() {a = dense<[1, 300]> : tensor<2xi8>} : () -> ()

// -----

// A splat is range-checked like a list element.
// expected-error@+1 {{integer constant 300 out of range}}
"test.effect"() {a = dense<300> : tensor<2xi8>} : () -> ()

// -----

// expected-error@+1 {{integer constant -129 out of range}}
"test.effect"() {a = dense<-129> : tensor<2xi8>} : () -> ()

// -----

// expected-error@+1 {{integer constant -1 out of range for ui8}}
"test.effect"() {a = dense<[-1, 255]> : tensor<2xui8>} : () -> ()

// -----

// expected-error@+1 {{elements hex data size is invalid for provided type: 1 bytes for 4 elements of 2 bytes}}
"test.effect"() {a = dense<"0xFF"> : tensor<4xi16>} : () -> ()

// -----

// expected-error@+1 {{inconsistent nesting of elements in dense attribute}}
"test.effect"() {a = dense<[[1, 2], [3]]> : tensor<2x2xi32>} : () -> ()

// -----

// expected-error@+1 {{dense attribute needs a ranked tensor type, not 'f32'}}
"test.effect"() {a = dense<1> : f32} : () -> ()

// -----

// expected-error@+1 {{tensor<2x?xi32> has a dynamic shape}}
"test.effect"() {a = dense<1> : tensor<2x?xi32>} : () -> ()

// -----

// After its 4-byte alignment header, the blob must hold exactly the tensor's data.
// expected-error@+1 {{resource 'blob' holds 2 bytes but 'tensor<2xi32>' needs 8}}
"test.effect"() {a = dense_resource<blob> : tensor<2xi32>} : () -> ()

{-#
  dialect_resources: {
    builtin: {
      blob: "0x040000000100"
    }
  }
#-}

// -----

// expected-error@+1 {{unexpected 'f32x'; expected '(', dialect type, tensor type, type}}
"test.effect"() {a = 1 : f32x} : () -> ()

// -----

// expected-error@+1 {{expected an element type}}
"test.effect"() : () -> tensor<2x?x>

// -----

// expected-error@+1 {{invalid tensor element type}}
"test.effect"() : () -> tensor<3xtensor<2xf32>>

// -----

// expected-error@+1 {{expected !quant.uniform<storage[<min:max>]:expressed[:axis], scale[:zero_point]>}}
"test.effect"() : () -> !quant.uniform<i8:f32>

// -----

// Integer types have at least one bit.
// expected-error@+1 {{unexpected 'i0'}}
"test.effect"() : () -> i0
