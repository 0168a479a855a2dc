// A pass that reports an error fails the run: npu-opt exits with 1, prints no IR, and the
// passes after it do not run. test-error reports an error on every op with a given name.
// RUN: %npu_opt %s --pass=test-error --verify-diagnostics
// RUN: not %npu_opt %s --pass='test-error{op-name=test.addi}' 2>&1 | %filecheck %s --check-prefix=ADDI
// RUN: not %npu_opt %s --pass='test-error,cse' --print-ir-before=cse --print-ir-after=test-error 2>&1 | %filecheck %s

// CHECK:     test-error.mlir:{{[0-9]+}}:3: error: test-error: found 'test.effect'
// CHECK:     test-error.mlir:{{[0-9]+}}:5: error: test-error: found 'test.effect'
// CHECK-NOT: IR Dump
// CHECK-NOT: {{^}}module
// ADDI:     error: test-error: found 'test.addi'
// ADDI-NOT: error

func.func @f(%x: i32) {
  // expected-error@+1 {{test-error: found 'test.effect'}}
  "test.effect"(%x) : (i32) -> ()
  "test.region"() ({
    // expected-error@+1 {{test-error: found 'test.effect'}}
    "test.effect"() : () -> ()
    "test.yield"() : () -> ()
  }) : () -> ()
  %a = "test.addi"(%x, %x) : (i32, i32) -> i32
  return
}
