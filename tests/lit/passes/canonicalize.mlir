// canonicalize: folds test dialect arithmetic (constants materialized as test.constant),
// applies the ops' patterns (constants to the right of commutative ops, reshape of reshape),
// erases dead pure ops, and keeps ops with side effects.
// RUN: %npu_opt %s --split-input-file --pass=canonicalize | %filecheck %s
// RUN: %npu_opt %s --split-input-file --pass='canonicalize{fold=false}' | %filecheck %s --check-prefix=NOFOLD

// Constant folding wraps around at the type's width (100 + 100 = -56 and 100 * 100 = 16 in i8);
// x + 0, x * 1 and x * 0 fold too.
// CHECK-LABEL: func.func @fold
// CHECK-SAME: (%[[X:.*]]: i8)
// CHECK-DAG:   %[[SUM:.*]] = "test.constant"() <{value = -56 : i8}> : () -> i8
// CHECK-DAG:   %[[PROD:.*]] = "test.constant"() <{value = 16 : i8}> : () -> i8
// CHECK-DAG:   %[[ZERO:.*]] = "test.constant"() <{value = 0 : i8}> : () -> i8
// CHECK-NOT:   "test.addi"
// CHECK-NOT:   "test.muli"
// CHECK:       return %[[SUM]], %[[PROD]], %[[X]], %[[X]], %[[ZERO]] : i8, i8, i8, i8, i8
// NOFOLD-LABEL: func.func @fold
// NOFOLD-COUNT-2: "test.addi"
// NOFOLD-COUNT-3: "test.muli"
func.func @fold(%x: i8) -> (i8, i8, i8, i8, i8) {
  %c100 = "test.constant"() {value = 100 : i8} : () -> i8
  %c0 = "test.constant"() {value = 0 : i8} : () -> i8
  %c1 = "test.constant"() {value = 1 : i8} : () -> i8
  %sum = "test.addi"(%c100, %c100) : (i8, i8) -> i8
  %prod = "test.muli"(%c100, %c100) : (i8, i8) -> i8
  %a = "test.addi"(%x, %c0) : (i8, i8) -> i8
  %b = "test.muli"(%c1, %x) : (i8, i8) -> i8
  %z = "test.muli"(%x, %c0) : (i8, i8) -> i8
  return %sum, %prod, %a, %b, %z : i8, i8, i8, i8, i8
}

// -----

// Folding iterates: (2 + 3) * 2 becomes the constant 10.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[X:.*]]: i32)
// CHECK-NEXT:   %[[TEN:.*]] = "test.constant"() <{value = 10 : i32}> : () -> i32
// CHECK-NEXT:   %[[R:.*]] = "test.addi"(%[[X]], %[[TEN]]) : (i32, i32) -> i32
// CHECK-NEXT:   return %[[R]] : i32
func.func @chain(%x: i32) -> i32 {
  %c2 = "test.constant"() {value = 2 : i32} : () -> i32
  %c3 = "test.constant"() {value = 3 : i32} : () -> i32
  %a = "test.addi"(%c2, %c3) : (i32, i32) -> i32
  %b = "test.muli"(%a, %c2) : (i32, i32) -> i32
  %c = "test.addi"(%x, %b) : (i32, i32) -> i32
  return %c : i32
}

// -----

// The constant operand of a commutative op moves to the right (also without folding).
// CHECK-LABEL: func.func @commute
// CHECK-SAME: (%[[X:.*]]: i32)
// CHECK-NEXT:   %[[C:.*]] = "test.constant"() {value = 5 : i32} : () -> i32
// CHECK-NEXT:   %[[R:.*]] = "test.addi"(%[[X]], %[[C]]) : (i32, i32) -> i32
// CHECK-NEXT:   return %[[R]] : i32
// NOFOLD-LABEL: func.func @commute
// NOFOLD: "test.addi"(%{{.*}}, %{{.*}}) : (i32, i32) -> i32
func.func @commute(%x: i32) -> i32 {
  %c = "test.constant"() {value = 5 : i32} : () -> i32
  %r = "test.addi"(%c, %x) : (i32, i32) -> i32
  return %r : i32
}

// -----

// reshape(reshape(x)) reshapes x directly; a reshape to the same type folds away.
// CHECK-LABEL: func.func @reshape
// CHECK-SAME: (%[[T:.*]]: tensor<4xf32>)
// CHECK-NEXT:   %[[R:.*]] = "test.reshape"(%[[T]]) : (tensor<4xf32>) -> tensor<2x2xf32>
// CHECK-NEXT:   return %[[R]], %[[T]] : tensor<2x2xf32>, tensor<4xf32>
// NOFOLD-LABEL: func.func @reshape
// NOFOLD-NEXT:   %[[R:.*]] = "test.reshape"(%[[T:.*]]) : (tensor<4xf32>) -> tensor<2x2xf32>
// NOFOLD-NEXT:   %[[SAME:.*]] = "test.reshape"(%[[T]]) : (tensor<4xf32>) -> tensor<4xf32>
// NOFOLD-NEXT:   return %[[R]], %[[SAME]]
func.func @reshape(%t: tensor<4xf32>) -> (tensor<2x2xf32>, tensor<4xf32>) {
  %a = "test.reshape"(%t) : (tensor<4xf32>) -> tensor<1x4xf32>
  %b = "test.reshape"(%a) : (tensor<1x4xf32>) -> tensor<2x2xf32>
  %c = "test.reshape"(%t) : (tensor<4xf32>) -> tensor<4xf32>
  return %b, %c : tensor<2x2xf32>, tensor<4xf32>
}

// -----

// Unused pure ops go, also inside regions; test.effect stays even when its results are unused.
// CHECK-LABEL: func.func @dead
// CHECK-NEXT:   %{{.*}}:2 = "test.effect"(%{{.*}}) : (i32) -> (i32, i32)
// CHECK-NEXT:   "test.region"() ({
// CHECK-NEXT:     "test.yield"() : () -> ()
// CHECK-NEXT:   }) : () -> ()
// CHECK-NEXT:   return
func.func @dead(%x: i32) {
  %d = "test.addi"(%x, %x) : (i32, i32) -> i32
  %e:2 = "test.effect"(%x) : (i32) -> (i32, i32)
  "test.region"() ({
    %dd = "test.muli"(%x, %x) : (i32, i32) -> i32
    "test.yield"() : () -> ()
  }) : () -> ()
  return
}
