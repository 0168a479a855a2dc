// --dump-pass-pipeline prints the parsed pipeline to stderr with every option spelled out
// (defaults included), in the textual form --pass accepts. Several --pass flags are joined;
// 'builtin.module(...)' wrappers are flattened.
// RUN: %npu_opt %s --pass='cse,canonicalize{max-iterations=3}' --pass=dce --dump-pass-pipeline -o %t.out 2>&1 | %filecheck %s
// RUN: %npu_opt %s --pass='builtin.module(cse, test-error{op-name=x.y})' --dump-pass-pipeline -o %t.out 2>&1 | %filecheck %s --check-prefix=NESTED
// RUN: %npu_opt %s --dump-pass-pipeline -o %t.out 2>&1 | %filecheck %s --check-prefix=EMPTY
// The dumped text is itself a valid pipeline.
// RUN: %npu_opt %s --pass='builtin.module(cse, canonicalize{max-iterations=3 test-convergence=false fold=true}, dce)' --dump-pass-pipeline -o %t.out 2>&1 | %filecheck %s

// CHECK:      Pass Manager with 3 passes:
// CHECK-NEXT: builtin.module(cse, canonicalize{max-iterations=3 test-convergence=false fold=true}, dce)
// NESTED:      Pass Manager with 2 passes:
// NESTED-NEXT: builtin.module(cse, test-error{op-name=x.y})
// EMPTY:      Pass Manager with 0 passes:
// EMPTY-NEXT: builtin.module()

func.func private @f()
