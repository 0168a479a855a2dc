// --list-passes lists every registered pass with its description, its options (type and
// default) and its statistics, then exits without reading any input.
// RUN: %npu_opt --list-passes | %filecheck %s
// RUN: %npu_opt --list-passes %S/../Inputs/does-not-exist.mlir | %filecheck %s

// CHECK:      Available passes:
// CHECK-NEXT:   canonicalize {{ +}}Fold ops, erase dead pure ops and apply canonicalization patterns until a fixed point.
// CHECK-NEXT:       max-iterations=<integer>  the most greedy sweeps to run (default: 10)
// CHECK-NEXT:       test-convergence=<boolean>  fail if the sweeps have not converged at the limit (default: false)
// CHECK-NEXT:       fold=<boolean>  also fold ops with their fold hooks (default: true)
// CHECK-NEXT:       statistic num-folded: Number of ops folded
// CHECK:        cse {{ +}}Eliminate common subexpressions
// CHECK-NEXT:       statistic num-cse'd: Number of operations CSE'd
// CHECK-NEXT:   dce {{ +}}Erase operations without side effects whose results are never used.
// CHECK:        test-crash {{ +}}Raise an internal error
// CHECK-NEXT:       message=<string>  the text of the raised error (default: deliberate crash)
// CHECK:        test-dataflow
// CHECK:        test-error
// CHECK-NEXT:       op-name=<string>  ops of this name get an error (default: test.effect)
