// An internal error (a bug, here the deliberate test-crash pass) exits with 2, names the stage,
// and writes a crash reproducer: the failing input with the options needed to replay it in a
// header. --run-reproducer replays it and fails the same way.
// RUN: rm -f %t.repro %t.repro2
// RUN: not %npu_opt %s --pass='cse,test-crash{message=boom}' --allow-unregistered-dialect --crash-reproducer=%t.repro 2>&1 | %filecheck %s
// RUN: %filecheck %s --input-file %t.repro --check-prefix=REPRO
// RUN: not %npu_opt --run-reproducer %t.repro --crash-reproducer=%t.repro2 2>&1 | %filecheck %s --check-prefix=REPLAY
// The replayed reproducer is the same input with the same configuration.
// RUN: diff %t.repro %t.repro2
// The exit code of a crash is 2, not 1 (the 'not' of the internal shell accepts any failure).
// RUN: %python -c "import subprocess, sys; sys.exit(subprocess.call(['npu-opt', sys.argv[1], '--pass=test-crash', '--allow-unregistered-dialect', '--crash-reproducer=' + sys.argv[2]], stderr=subprocess.DEVNULL) != 2)" %s %t.repro3
// With --split-input-file only the crashing chunk is kept.
// RUN: not %npu_opt %S/../Inputs/split-with-error.mlir --split-input-file --no-verify --pass=test-crash --crash-reproducer=%t.split 2>&1 | %filecheck %s --check-prefix=SPLIT
// RUN: %filecheck %s --input-file %t.split --check-prefix=SPLITREPRO
// Files that are not reproducers are refused.
// RUN: not %npu_opt --run-reproducer %s 2>&1 | %filecheck %s --check-prefix=NOTREPRO
// RUN: not %npu_opt --run-reproducer %t.does-not-exist 2>&1 | %filecheck %s --check-prefix=MISSING

// CHECK: npu-opt: internal error during pass 'test-crash' (RuntimeError: boom); reproducer written to {{.*}}.repro
// CHECK-NOT: Traceback

// REPRO:      // npu-opt crash reproducer; replay with: npu-opt --run-reproducer <this file>
// REPRO-NEXT: // configuration: '--pass=cse,test-crash{message=boom}' --allow-unregistered-dialect
// REPRO:      func.func @f(%x: i32) -> i32 {
// REPRO-NEXT:   %a = "test.addi"(%x, %x) : (i32, i32) -> i32
// REPRO-NEXT:   "foo.unregistered"() : () -> ()

// REPLAY: npu-opt: internal error during pass 'test-crash' (RuntimeError: boom); reproducer written to {{.*}}.repro2

// SPLIT: internal error during pass 'test-crash'
// SPLITREPRO:     // configuration: --pass=test-crash --no-verify --split-input-file
// SPLITREPRO:     func.func @fine() {
// SPLITREPRO-NOT: @bad

// NOTREPRO: npu-opt: error: '{{.*}}crash-reproducer.mlir' is not an npu-opt crash reproducer (no '// configuration:' header)
// MISSING: npu-opt: error: cannot read reproducer '{{.*}}does-not-exist'

func.func @f(%x: i32) -> i32 {
  %a = "test.addi"(%x, %x) : (i32, i32) -> i32
  "foo.unregistered"() : () -> ()
  return %a : i32
}
