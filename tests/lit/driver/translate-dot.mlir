// npu-translate --mlir-to-dot prints each function's dataflow graph as Graphviz DOT: one
// cluster per function with a body, ops as nodes, uses as edges labelled with operand indices.
// RUN: %npu_translate --mlir-to-dot %s | %filecheck %s
// RUN: %npu_translate --mlir-to-dot %s -o %t.dot
// RUN: %filecheck %s --input-file %t.dot
// RUN: not %npu_translate %s 2>&1 | %filecheck %s --check-prefix=NOTRANSLATION
// RUN: not %npu_translate --mlir-to-dot %S/../Inputs/latin1.mlir 2>&1 | %filecheck %s --check-prefix=BADINPUT

// CHECK:      digraph dataflow {
// CHECK-NEXT:   node [shape=box];
// CHECK-NEXT:   subgraph "cluster_f" { label="@f";
// CHECK-NEXT:     [[C:n[0-9]+]] [label="test.constant"];
// CHECK-NEXT:     [[A:n[0-9]+]] [label="test.addi"];
// CHECK-NEXT:     [[M:n[0-9]+]] [label="test.muli"];
// CHECK-NEXT:     [[R:n[0-9]+]] [label="func.return"];
// CHECK-DAG:      [[C]] -> [[A]] [label="1"];
// CHECK-DAG:      [[C]] -> [[M]] [label="1"];
// CHECK-DAG:      [[A]] -> [[M]] [label="0"];
// CHECK-DAG:      [[M]] -> [[R]] [label="0"];
// CHECK:        }
// CHECK-NEXT:   subgraph "cluster_g" { label="@g";
// CHECK-NEXT:     [[RG:n[0-9]+]] [label="func.return"];
// CHECK-NEXT:   }
// CHECK-NEXT: }

// NOTRANSLATION: npu-translate: error: one of the arguments {{.*}}--mlir-to-dot{{.*}} is required
// BADINPUT: latin1.mlir:2:28: error: input is not valid UTF-8

func.func @f(%x: i32) -> i32 {
  %c = "test.constant"() {value = 1 : i32} : () -> i32
  %a = "test.addi"(%x, %c) : (i32, i32) -> i32
  %m = "test.muli"(%a, %c) : (i32, i32) -> i32
  return %m : i32
}
func.func @g() {
  return
}
func.func private @decl()
