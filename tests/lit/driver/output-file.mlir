// -o FILE writes the result to FILE (replacing it) and nothing to stdout. When the run fails
// (bad input, failing pass, crash) no file is left behind, not even a partial or stale one.
// RUN: rm -f %t.out
// RUN: %npu_opt %s -o %t.out | %filecheck %s --check-prefix=STDOUT --allow-empty
// RUN: %filecheck %s --input-file %t.out
// Overwriting an existing file.
// RUN: %npu_opt %s --pass=cse -o %t.out
// RUN: %filecheck %s --input-file %t.out --check-prefix=CSE
// A failing run leaves no file (the old one is removed first, so a stale one cannot pass).
// RUN: rm -f %t.out
// RUN: not %npu_opt %S/../Inputs/split-with-error.mlir -o %t.out
// RUN: not %exists %t.out
// RUN: not %npu_opt %s --pass=test-error{op-name=test.addi} -o %t.out
// RUN: not %exists %t.out
// RUN: not %npu_opt %s --pass=test-crash --crash-reproducer=%t.repro -o %t.out
// RUN: not %exists %t.out
// An output in a directory that does not exist is an error.
// RUN: not %npu_opt %s -o %t.missing-dir/out.mlir 2>&1 | %filecheck %s --check-prefix=NODIR
// '-o -' is stdout.
// RUN: %npu_opt %s -o - | %filecheck %s

// STDOUT-NOT: {{.}}
// CHECK: func.func @f
// CHECK-COUNT-2: "test.addi"
// CSE-COUNT-1: "test.addi"
// CSE-NOT: "test.addi"
// NODIR: npu-opt: error: cannot write '{{.*}}missing-dir{{.}}out.mlir': No such file or directory

func.func @f(%x: i32) -> i32 {
  %a = "test.addi"(%x, %x) : (i32, i32) -> i32
  %b = "test.addi"(%x, %x) : (i32, i32) -> i32
  %m = "test.muli"(%a, %b) : (i32, i32) -> i32
  return %m : i32
}
