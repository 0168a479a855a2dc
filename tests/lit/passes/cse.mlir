// cse: a pure op identical to a dominating one (same name, operands, result types and
// attributes) is replaced by it. Ops with side effects are never merged. Nested regions see the
// ops of their parents, but not of sibling regions; functions are isolated from each other.
// RUN: %npu_opt %s --split-input-file --pass=cse | %filecheck %s

// CHECK-LABEL: func.func @basic
// CHECK-SAME: (%[[X:.*]]: i32)
// CHECK-NEXT:   %[[A:.*]] = "test.addi"(%[[X]], %[[X]]) : (i32, i32) -> i32
// CHECK-NEXT:   %[[M:.*]] = "test.muli"(%[[A]], %[[A]]) : (i32, i32) -> i32
// CHECK-NEXT:   return %[[A]], %[[A]], %[[M]], %[[M]] : i32, i32, i32, i32
func.func @basic(%x: i32) -> (i32, i32, i32, i32) {
  %a = "test.addi"(%x, %x) : (i32, i32) -> i32
  %b = "test.addi"(%x, %x) : (i32, i32) -> i32
  %c = "test.addi"(%x, %x) : (i32, i32) -> i32
  %d = "test.muli"(%a, %b) : (i32, i32) -> i32
  %e = "test.muli"(%a, %c) : (i32, i32) -> i32
  return %a, %b, %d, %e : i32, i32, i32, i32
}

// -----

// Different attributes or result types: not the same computation.
// CHECK-LABEL: func.func @differ
// CHECK-NEXT:   "test.addi"(%{{.*}}) {tag = 1 : i64}
// CHECK-NEXT:   "test.addi"(%{{.*}}) {tag = 2 : i64}
// CHECK-NEXT:   "test.reshape"(%{{.*}}) : (tensor<4xf32>) -> tensor<2x2xf32>
// CHECK-NEXT:   "test.reshape"(%{{.*}}) : (tensor<4xf32>) -> tensor<1x4xf32>
func.func @differ(%x: i32, %t: tensor<4xf32>) -> (i32, i32, tensor<2x2xf32>, tensor<1x4xf32>) {
  %a = "test.addi"(%x, %x) {tag = 1} : (i32, i32) -> i32
  %b = "test.addi"(%x, %x) {tag = 2} : (i32, i32) -> i32
  %c = "test.reshape"(%t) : (tensor<4xf32>) -> tensor<2x2xf32>
  %d = "test.reshape"(%t) : (tensor<4xf32>) -> tensor<1x4xf32>
  return %a, %b, %c, %d : i32, i32, tensor<2x2xf32>, tensor<1x4xf32>
}

// -----

// test.effect has side effects: both stay.
// CHECK-LABEL: func.func @effects
// CHECK-NEXT:   %[[A:.*]] = "test.effect"(%{{.*}}) : (i32) -> i32
// CHECK-NEXT:   %[[B:.*]] = "test.effect"(%{{.*}}) : (i32) -> i32
// CHECK-NEXT:   return %[[A]], %[[B]] : i32, i32
func.func @effects(%x: i32) -> (i32, i32) {
  %a = "test.effect"(%x) : (i32) -> i32
  %b = "test.effect"(%x) : (i32) -> i32
  return %a, %b : i32, i32
}

// -----

// An op in a nested region is replaced by an equal op before the region; ops in sibling
// regions, and an op after a region that equals one inside it, are not merged.
// CHECK-LABEL: func.func @nested
// CHECK-SAME: (%[[X:.*]]: i32)
// CHECK-NEXT:   %[[A:.*]] = "test.addi"(%[[X]], %[[X]]) : (i32, i32) -> i32
// CHECK-NEXT:   %[[R1:.*]] = "test.region"() ({
// CHECK-NEXT:     %[[M1:.*]] = "test.muli"(%[[A]], %[[A]]) : (i32, i32) -> i32
// CHECK-NEXT:     "test.yield"(%[[M1]]) : (i32) -> ()
// CHECK-NEXT:   }) : () -> i32
// CHECK-NEXT:   %[[R2:.*]] = "test.region"() ({
// CHECK-NEXT:     %[[M2:.*]] = "test.muli"(%[[A]], %[[A]]) : (i32, i32) -> i32
// CHECK-NEXT:     "test.yield"(%[[M2]]) : (i32) -> ()
// CHECK-NEXT:   }) : () -> i32
// CHECK-NEXT:   %[[M3:.*]] = "test.muli"(%[[A]], %[[A]]) : (i32, i32) -> i32
func.func @nested(%x: i32) -> i32 {
  %a = "test.addi"(%x, %x) : (i32, i32) -> i32
  %r = "test.region"() ({
    %b = "test.addi"(%x, %x) : (i32, i32) -> i32
    %c = "test.muli"(%b, %b) : (i32, i32) -> i32
    "test.yield"(%c) : (i32) -> ()
  }) : () -> i32
  %r2 = "test.region"() ({
    %d = "test.muli"(%a, %a) : (i32, i32) -> i32
    "test.yield"(%d) : (i32) -> ()
  }) : () -> i32
  %e = "test.muli"(%a, %a) : (i32, i32) -> i32
  %s = "test.addi"(%r, %e) : (i32, i32) -> i32
  %t = "test.addi"(%s, %r2) : (i32, i32) -> i32
  return %t : i32
}

// -----

// A function nested in a region is isolated: its constant is not replaced by the outer one.
// XDSL-INCOMPATIBLE: xDSL rejects the nested function's %0 ("already defined"): it does not
// give isolated regions their own value names, as MLIR and npu-opt do.
// CHECK-LABEL: func.func @isolated
// CHECK-NEXT:   %[[OUTER:.*]] = "test.constant"() {value = 1 : i32} : () -> i32
// CHECK-NEXT:   "test.region"() ({
// CHECK-NEXT:     func.func @inner() -> i32 {
// CHECK-NEXT:       %[[INNER:.*]] = "test.constant"() {value = 1 : i32} : () -> i32
// CHECK-NEXT:       return %[[INNER]] : i32
// CHECK-LABEL: func.func @other_function
// CHECK-NEXT:   %[[OTHER:.*]] = "test.constant"() {value = 1 : i32} : () -> i32
func.func @isolated() {
  %a = "test.constant"() {value = 1 : i32} : () -> i32
  "test.region"() ({
    func.func @inner() -> i32 {
      %b = "test.constant"() {value = 1 : i32} : () -> i32
      return %b : i32
    }
    "test.yield"() : () -> ()
  }) : () -> ()
  "test.effect"(%a) : (i32) -> ()
  return
}
func.func @other_function() -> i32 {
  %a = "test.constant"() {value = 1 : i32} : () -> i32
  return %a : i32
}

// -----

// Across blocks: an op is replaced by an equal op in a dominating block, but not by one in a
// block that does not dominate it (the two branches of a diamond). Blocks unreachable from the
// entry are processed on their own.
// CHECK-LABEL: func.func @blocks
// CHECK-SAME: (%[[X:.*]]: i32)
// CHECK-NEXT:   %[[A:.*]] = "test.addi"(%[[X]], %[[X]]) : (i32, i32) -> i32
// CHECK-NEXT:   "test.br"()[^bb1, ^bb2] : () -> ()
// CHECK-NEXT: ^bb1:
// CHECK-NEXT:   %[[M1:.*]] = "test.muli"(%[[X]], %[[X]]) : (i32, i32) -> i32
// CHECK-NEXT:   "test.br"(%[[M1]])[^bb3] : (i32) -> ()
// CHECK-NEXT: ^bb2:
// CHECK-NEXT:   %[[M2:.*]] = "test.muli"(%[[X]], %[[X]]) : (i32, i32) -> i32
// CHECK-NEXT:   "test.br"(%[[M2]])[^bb3] : (i32) -> ()
// CHECK-NEXT: ^bb3(%[[P:.*]]: i32):
// CHECK-NEXT:   %[[M3:.*]] = "test.muli"(%[[X]], %[[X]]) : (i32, i32) -> i32
// CHECK-NEXT:   %[[S:.*]] = "test.addi"(%[[P]], %[[M3]]) : (i32, i32) -> i32
// CHECK-NEXT:   %[[T:.*]] = "test.addi"(%[[S]], %[[A]]) : (i32, i32) -> i32
// CHECK-NEXT:   return %[[T]] : i32
// CHECK-NEXT: ^bb4:
// CHECK-NEXT:   %[[K:.*]] = "test.constant"() {value = 1 : i32} : () -> i32
// CHECK-NEXT:   "test.effect"(%[[K]], %[[K]]) : (i32, i32) -> ()
func.func @blocks(%x: i32) -> i32 {
  %a = "test.addi"(%x, %x) : (i32, i32) -> i32
  "test.br"()[^bb1, ^bb2] : () -> ()
^bb1:
  %b = "test.addi"(%x, %x) : (i32, i32) -> i32
  %m1 = "test.muli"(%x, %x) : (i32, i32) -> i32
  "test.br"(%m1)[^bb3] : (i32) -> ()
^bb2:
  %m2 = "test.muli"(%x, %x) : (i32, i32) -> i32
  "test.br"(%m2)[^bb3] : (i32) -> ()
^bb3(%p: i32):
  %m3 = "test.muli"(%x, %x) : (i32, i32) -> i32
  %c = "test.addi"(%x, %x) : (i32, i32) -> i32
  %s = "test.addi"(%p, %m3) : (i32, i32) -> i32
  %t = "test.addi"(%s, %c) : (i32, i32) -> i32
  return %t : i32
^bb4:
  %k1 = "test.constant"() {value = 1 : i32} : () -> i32
  %k2 = "test.constant"() {value = 1 : i32} : () -> i32
  "test.effect"(%k1, %k2) : (i32, i32) -> ()
  "test.br"()[^bb4] : () -> ()
}

// -----

// A constant written with its value in the attribute dictionary and one materialized by folding
// (value as a property) are the same op.
// CHECK-LABEL: func.func @inherent_attribute_spelling
// CHECK-NEXT:   %[[C:.*]] = "test.constant"() <{value = 5 : i32}> : () -> i32
// CHECK-NEXT:   return %[[C]], %[[C]] : i32, i32
func.func @inherent_attribute_spelling() -> (i32, i32) {
  %a = "test.constant"() <{value = 5 : i32}> : () -> i32
  %b = "test.constant"() {value = 5 : i32} : () -> i32
  return %a, %b : i32, i32
}

// -----

// Two identical transfers are two transfers: npu.dma has memory effects (it reads and writes
// memory), so cse keeps both. Two identical views (npu.reshape, pure) are one.
// CHECK-LABEL: func.func @dma_not_merged
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x4x8xi8>)
// CHECK-NEXT:   %[[A:.*]] = "npu.dma"(%[[X]]) : (tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8>
// CHECK-NEXT:   %[[B:.*]] = "npu.dma"(%[[X]]) : (tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8>
// CHECK-NEXT:   %[[R:.*]] = "npu.reshape"(%[[X]]) : (tensor<1x4x4x8xi8>) -> tensor<1x16x8xi8>
// CHECK-NEXT:   return %[[A]], %[[B]], %[[R]], %[[R]] :
func.func @dma_not_merged(%x: tensor<1x4x4x8xi8>) -> (tensor<1x4x4x8xi8>, tensor<1x4x4x8xi8>, tensor<1x16x8xi8>, tensor<1x16x8xi8>) {
  %a = "npu.dma"(%x) : (tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8>
  %b = "npu.dma"(%x) : (tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8>
  %r = "npu.reshape"(%x) : (tensor<1x4x4x8xi8>) -> tensor<1x16x8xi8>
  %s = "npu.reshape"(%x) : (tensor<1x4x4x8xi8>) -> tensor<1x16x8xi8>
  return %a, %b, %r, %s : tensor<1x4x4x8xi8>, tensor<1x4x4x8xi8>, tensor<1x16x8xi8>, tensor<1x16x8xi8>
}
