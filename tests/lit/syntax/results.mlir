// Results: a multi-result op binds a result group '%x:N' whose members are used as '%x#i';
// several names may be bound at once ('%a, %b:2 = ...'), as xDSL prints them.
// RUN: %npu_opt %s --split-input-file | %filecheck %s
// RUN: %roundtrip
// RUN: %fixedpoint

// CHECK-LABEL: func.func @group
// CHECK-NEXT:   %[[G:.*]]:3 = "test.effect"() : () -> (i32, i64, f32)
// CHECK-NEXT:   "test.effect"(%[[G]]#2, %[[G]]#0, %[[G]]#1) : (f32, i32, i64) -> ()
// CHECK-NEXT:   return %[[G]]#1 : i64
func.func @group() -> i64 {
  %x:3 = "test.effect"() : () -> (i32, i64, f32)
  "test.effect"(%x#2, %x#0, %x#1) : (f32, i32, i64) -> ()
  return %x#1 : i64
}

// -----

// Separately named results are printed as one group.
// CHECK-LABEL: func.func @names_to_group
// CHECK-NEXT:   %[[G:.*]]:3 = "test.effect"() : () -> (i1, i8, i16)
// CHECK-NEXT:   "test.effect"(%[[G]]#2, %[[G]]#1, %[[G]]#0) : (i16, i8, i1) -> ()
func.func @names_to_group() {
  %a, %b:2 = "test.effect"() : () -> (i1, i8, i16)
  "test.effect"(%b#1, %b#0, %a) : (i16, i8, i1) -> ()
  return
}

// -----

// '%x#0' of a single-result op is the result itself; an op with one result has no '#'.
// CHECK-LABEL: func.func @single
// CHECK-NEXT:   %[[V:.*]] = "test.constant"() {value = 4 : i32} : () -> i32
// CHECK-NEXT:   %[[S:.*]] = "test.addi"(%[[V]], %[[V]]) : (i32, i32) -> i32
// CHECK-NEXT:   return %[[S]] : i32
func.func @single() -> i32 {
  %v = "test.constant"() {value = 4 : i32} : () -> i32
  %s = "test.addi"(%v#0, %v) : (i32, i32) -> i32
  return %s : i32
}

// -----

// Result names may use any of MLIR's identifier characters, or be numbers.
// CHECK-LABEL: func.func @odd_names
// CHECK-NEXT:   %[[A:.*]] = "test.constant"() {value = 1 : i32} : () -> i32
// CHECK-NEXT:   %[[B:.*]] = "test.addi"(%[[A]], %[[A]]) : (i32, i32) -> i32
// CHECK-NEXT:   %[[C:.*]] = "test.addi"(%[[B]], %[[A]]) : (i32, i32) -> i32
// CHECK-NEXT:   return %[[C]] : i32
func.func @odd_names() -> i32 {
  %x.y$z-w_1 = "test.constant"() {value = 1 : i32} : () -> i32
  %42 = "test.addi"(%x.y$z-w_1, %x.y$z-w_1) : (i32, i32) -> i32
  %0 = "test.addi"(%42, %x.y$z-w_1) : (i32, i32) -> i32
  return %0 : i32
}

// -----

// An op without results binds no name.
// CHECK-LABEL: func.func @no_results
// CHECK-NEXT:   "test.effect"() : () -> ()
// CHECK-NEXT:   return
func.func @no_results() {
  "test.effect"() : () -> ()
  return
}
