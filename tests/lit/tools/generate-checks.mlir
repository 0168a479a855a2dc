// tools/generate_checks.py turns npu-opt output into FileCheck lines that pass on that output:
// a CHECK-LABEL per function, CHECK-SAME for the rest of its signature, CHECK-NEXT for its body,
// every SSA name captured on first sight and matched afterwards, '[[' escaped.
// RUN: %npu_opt %s --split-input-file --pass=cse | %python -m npu_opt.tools.generate_checks > %t.checks
// RUN: %npu_opt %s --split-input-file --pass=cse | %filecheck %t.checks
// RUN: %filecheck %s --input-file %t.checks --check-prefix=GEN
// The checks bind values: the output without cse (a different use) does not pass them.
// RUN: %npu_opt %s --split-input-file | not %filecheck %t.checks
// With --source and -i, each chunk's checks go into the chunk, before its first op, replacing
// the old ones of the same prefix (here the stale line); the file then checks itself. (The
// INSERTED lines spell AUTO-{{LABEL}} so that FileCheck does not read them as AUTO checks.)
// RUN: cat %s > %t.mlir
// RUN: %npu_opt %t.mlir --split-input-file --pass=cse | %python -m npu_opt.tools.generate_checks --source %t.mlir -i --check-prefix=AUTO
// RUN: %npu_opt %t.mlir --split-input-file --pass=cse | %filecheck %t.mlir --check-prefix=AUTO
// RUN: %filecheck %s --input-file %t.mlir --check-prefix=INSERTED
// Running it again changes nothing.
// RUN: %npu_opt %t.mlir --split-input-file --pass=cse | %python -m npu_opt.tools.generate_checks --source %t.mlir --check-prefix=AUTO | diff %t.mlir -

// GEN:      // CHECK-LABEL: func.func @cse(
// GEN-NEXT: // CHECK-SAME: %{{\[\[}}ARG0:.*]]: i32) -> (i32, tensor<2x2xi32>) {
// GEN-NEXT: // CHECK-NEXT:   %{{\[\[}}VAL_0:.*]] = "test.addi"(%{{\[\[}}ARG0]], %{{\[\[}}ARG0]]) : (i32, i32) -> i32
// GEN-NEXT: // CHECK-NEXT:   %{{\[\[}}VAL_1:.*]]:2 = "test.effect"(%{{\[\[}}VAL_0]], %{{\[\[}}VAL_0]]) {s = "%0 is text"} : (i32, i32) -> (i32, i32)
// GEN-NEXT: // CHECK-NEXT:   %{{\[\[}}VAL_2:.*]] = "test.constant"() {value = dense<{{[{][{]}}\[\[}}1, 2], [3, 4]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
// GEN-NEXT: // CHECK-NEXT:   return %{{\[\[}}VAL_1]]#1, %{{\[\[}}VAL_2]] : i32, tensor<2x2xi32>
// GEN-NEXT: // CHECK-NEXT: }
// GEN-EMPTY:
// GEN-NEXT: // -----
// GEN-EMPTY:
// GEN-NEXT: // CHECK-LABEL: func.func private @declaration(
// GEN-NEXT: // CHECK-SAME: i32) -> i32

// INSERTED:      // RUN:
// INSERTED:      // AUTO-{{LABEL}}: func.func @cse(
// INSERTED:      // AUTO-{{NEXT}}: }
// INSERTED-NEXT: func.func @cse(
// INSERTED-NOT:  stale
// INSERTED:      // -----
// INSERTED:      // AUTO-{{LABEL}}: func.func private @declaration(
// INSERTED-NEXT: // AUTO-{{SAME}}: i32) -> i32
// INSERTED-NEXT: func.func private @declaration(i32) -> i32

func.func @cse(%x: i32) -> (i32, tensor<2x2xi32>) {
  %a = "test.addi"(%x, %x) : (i32, i32) -> i32
  %b = "test.addi"(%x, %x) : (i32, i32) -> i32
  %e:2 = "test.effect"(%a, %b) {s = "%0 is text"} : (i32, i32) -> (i32, i32)
  %c = "test.constant"() {value = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  return %e#1, %c : i32, tensor<2x2xi32>
}

// -----

// AUTO: stale
func.func private @declaration(i32) -> i32
