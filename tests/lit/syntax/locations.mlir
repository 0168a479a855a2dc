// Locations: parsed from loc(...) after an op, printed only with --print-debuginfo. Ops without
// an explicit location get their position in the input file (line numbers count the whole file,
// also with --split-input-file).
// RUN: %npu_opt %s --split-input-file --print-debuginfo | %filecheck %s
// RUN: %npu_opt %s --split-input-file | %filecheck %s --check-prefix=NODEBUG
// RUN: %npu_opt %s --split-input-file --print-debuginfo --print-op-generic | %npu_opt --split-input-file --print-debuginfo | %filecheck %s --check-prefix=ROUNDTRIP

// CHECK-LABEL: func.func @explicit
// CHECK-NEXT: "test.addi"({{.*}}) : (i32, i32) -> i32 loc("named")
// CHECK-NEXT: "test.addi"({{.*}}) : (i32, i32) -> i32 loc("file.mlir":10:20)
// CHECK-NEXT: "test.addi"({{.*}}) : (i32, i32) -> i32 loc(unknown)
// CHECK-NEXT: "test.addi"({{.*}}) : (i32, i32) -> i32 loc("outer"("inner.mlir":1:2))
// CHECK-NEXT: "test.addi"({{.*}}) : (i32, i32) -> i32 loc(fused["a.mlir":1:1, "b"])
// CHECK-NEXT: return %{{.*}} : i32 loc("ret")
// CHECK-NEXT: } loc("func")
// NODEBUG-LABEL: func.func @explicit
// NODEBUG-NOT: loc(
// NODEBUG: }
// ROUNDTRIP-LABEL: func.func @explicit
// ROUNDTRIP: loc("named")
// ROUNDTRIP: loc("file.mlir":10:20)
// ROUNDTRIP: loc(unknown)
// ROUNDTRIP: loc("outer"("inner.mlir":1:2))
// ROUNDTRIP: loc(fused["a.mlir":1:1, "b"])
// ROUNDTRIP: loc("ret")
// ROUNDTRIP: } loc("func")
func.func @explicit(%a: i32) -> i32 {
  %0 = "test.addi"(%a, %a) : (i32, i32) -> i32 loc("named")
  %1 = "test.addi"(%0, %a) : (i32, i32) -> i32 loc("file.mlir":10:20)
  %2 = "test.addi"(%1, %a) : (i32, i32) -> i32 loc(unknown)
  %3 = "test.addi"(%2, %a) : (i32, i32) -> i32 loc("outer"("inner.mlir":1:2))
  %4 = "test.addi"(%3, %a) : (i32, i32) -> i32 loc(fused["a.mlir":1:1, "b"])
  return %4 : i32 loc("ret")
} loc("func")

// -----

// Without loc(...), an op is located where it starts (its first result name, if any). The line
// numbers below are those of @implicit in this file (filecheck 1.0.6 has no [[@LINE]] offsets).
// CHECK-LABEL: func.func @implicit
// CHECK-NEXT: "test.constant"() {value = 1 : i32} : () -> i32 loc("{{.*}}locations.mlir":46:3)
// CHECK-NEXT: "test.effect"(%{{.*}}) : (i32) -> () loc("{{.*}}locations.mlir":47:5)
// CHECK-NEXT: return loc("{{.*}}locations.mlir":48:3)
// CHECK-NEXT: } loc("{{.*}}locations.mlir":45:1)
func.func @implicit() {
  %c = "test.constant"() {value = 1 : i32} : () -> i32
    "test.effect"(%c) : (i32) -> ()
  return
}

// -----

// Locations of ops in nested regions.
// CHECK-LABEL: func.func @nested
// CHECK: "test.yield"() : () -> () loc("y")
// CHECK-NEXT: }) : () -> () loc("r")
func.func @nested() {
  "test.region"() ({
    "test.yield"() : () -> () loc("y")
  }) : () -> () loc("r")
  return
}

// -----

// Block and function arguments keep their locations (the TFLite importer names inputs this way).
// CHECK-LABEL: func.func @arg_locations
// CHECK-SAME: (%[[A:.*]]: i32 loc("input_0"))
// CHECK: ^bb0(%[[X:.*]]: i32 loc("inner")):
// NODEBUG-LABEL: func.func @arg_locations
// NODEBUG-SAME: (%{{.*}}: i32) -> i32 {
// ROUNDTRIP-LABEL: func.func @arg_locations
// ROUNDTRIP-SAME: (%{{.*}}: i32 loc("input_0"))
// ROUNDTRIP: ^bb0(%{{.*}}: i32 loc("inner")):
func.func @arg_locations(%a: i32 loc("input_0")) -> i32 {
  %0 = "test.region"() ({
  ^bb0(%x: i32 loc("inner")):
    "test.yield"(%x) : (i32) -> ()
  }) : () -> i32
  return %a : i32
}
