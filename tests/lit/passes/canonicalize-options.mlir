// canonicalize options: max-iterations bounds the greedy sweeps; with test-convergence=true not
// reaching a fixed point within them is an error (reported on the module). Statistics count the
// folds, pattern rewrites, erased ops and sweeps.
// RUN: %npu_opt %s --pass='canonicalize{max-iterations=1 test-convergence=true}' --verify-diagnostics
// RUN: %npu_opt %s --pass='canonicalize{max-iterations=10 test-convergence=true}' | %filecheck %s
// RUN: %npu_opt %s --pass=canonicalize --pass-statistics 2>&1 >/dev/null | %filecheck %s --check-prefix=STATS

// CHECK-LABEL: func.func @needs_sweeps
// CHECK-NEXT:    %[[C:.*]] = "test.constant"() <{value = 10 : i32}> : () -> i32
// CHECK-NEXT:    %[[R:.*]] = "test.addi"(%{{.*}}, %[[C]]) : (i32, i32) -> i32
// CHECK-NEXT:    return %[[R]] : i32

// STATS:      'canonicalize'
// STATS-NEXT:   (S) 2 num-folded - Number of ops folded
// STATS-NEXT:   (S) 1 num-rewritten - Number of pattern rewrites applied
// STATS-NEXT:   (S) 3 num-dce'd - Number of trivially dead ops erased
// STATS-NEXT:   (S) {{[2-9]}} num-iterations - Number of greedy sweeps run

// expected-error@+1 {{canonicalizer failed to converge within 1 iterations}}
module {
  func.func @needs_sweeps(%x: i32) -> i32 {
    %c2 = "test.constant"() {value = 2 : i32} : () -> i32
    %c3 = "test.constant"() {value = 3 : i32} : () -> i32
    %a = "test.addi"(%c2, %c3) : (i32, i32) -> i32
    %b = "test.muli"(%a, %c2) : (i32, i32) -> i32
    %c = "test.addi"(%b, %x) : (i32, i32) -> i32
    return %c : i32
  }
}
