// Mistakes in --pass are reported before the input is read, with a suggestion for a close
// name: an unknown pass, an unknown option, a value of the wrong type, malformed syntax.
// RUN: not %npu_opt %s --pass=cse,canonicalise 2>&1 | %filecheck %s --check-prefix=PASS
// RUN: not %npu_opt %s --pass='canonicalize{max-iteration=3}' 2>&1 | %filecheck %s --check-prefix=OPTION
// RUN: not %npu_opt %s --pass='canonicalize{max-iterations=many}' 2>&1 | %filecheck %s --check-prefix=INT
// RUN: not %npu_opt %s --pass='canonicalize{fold=maybe}' 2>&1 | %filecheck %s --check-prefix=BOOL
// RUN: not %npu_opt %s --pass='cse{' 2>&1 | %filecheck %s --check-prefix=BRACE
// RUN: not %npu_opt %s --pass='cse,,dce' 2>&1 | %filecheck %s --check-prefix=EMPTY
// RUN: not %npu_opt %s --pass='foo.bar(cse)' 2>&1 | %filecheck %s --check-prefix=ANCHOR
// RUN: not %npu_opt %s --pass=zzzzzz 2>&1 | %filecheck %s --check-prefix=NOHINT
// A named pipeline's options set that option on each of its passes that has it; a misspelt
// option or value of one gets a suggestion too.
// RUN: not %npu_opt %s --pass='schedule{optimize=Size}' 2>&1 | %filecheck %s --check-prefix=PIPEOPT
// RUN: not %npu_opt %s --pass='schedule{optimise=Sise}' 2>&1 | %filecheck %s --check-prefix=STRATEGY
// RUN: %npu_opt %s --pass='schedule{optimise=Size}' --target=ethos-u55-128 --dump-pass-pipeline -o /dev/null 2>&1 | %filecheck %s --check-prefix=FORWARD
// With an SRAM budget the search chooses what optimise and the later passes' options would.
// RUN: not %npu_opt %s --pass='schedule{sram-budget=8000 optimise=Size}' 2>&1 | %filecheck %s --check-prefix=BUDGET
// The pipeline is checked before the input file is opened.
// RUN: not %npu_opt %S/../Inputs/does-not-exist.mlir --pass=bogus 2>&1 | %filecheck %s --check-prefix=FIRST

// PASS: npu-opt: error: 'canonicalise' does not refer to a registered pass or pipeline; did you mean 'canonicalize'? (see --list-passes)
// OPTION: npu-opt: error: pass 'canonicalize' has no option 'max-iteration'; did you mean 'max-iterations'? (options: max-iterations, test-convergence, fold)
// INT: npu-opt: error: option 'max-iterations' of pass 'canonicalize' expects integer, got 'many'
// BOOL: npu-opt: error: option 'fold' of pass 'canonicalize' expects boolean, got 'maybe'
// BRACE: npu-opt: error: unbalanced brackets in pass pipeline 'cse{'
// EMPTY: npu-opt: error: empty pass name in pipeline 'cse,,dce'
// ANCHOR: npu-opt: error: unknown pass manager anchor 'foo.bar'
// NOHINT: npu-opt: error: 'zzzzzz' does not refer to a registered pass or pipeline (see --list-passes)
// PIPEOPT: npu-opt: error: pipeline 'schedule' has no option 'optimize'; did you mean 'optimise'?
// STRATEGY: npu-opt: error: option 'optimise' of pipeline 'schedule' expects 'Performance' | 'Size', got 'Sise'; did you mean 'Size'?
// A value no pass of the pipeline takes names the pipeline's option as typed, never an inner pass.
// RUN: not %npu_opt %s --pass='schedule{optimise=Fast}' 2>&1 | %filecheck %s --check-prefix=FAST
// FAST: npu-opt: error: option 'optimise' of pipeline 'schedule' expects 'Performance' | 'Size', got 'Fast'
// FAST-NOT: npu-buffer-weights
// A value a pass checks itself is reported with the pipeline option that carried it.
// RUN: not %npu_opt %s --pass='schedule{allocator=best}' 2>&1 | %filecheck %s --check-prefix=CHECKED
// CHECKED: npu-opt: error: schedule{allocator=best}: option 'allocator' of pass 'npu-allocate' is one of hillclimb, greedy, linear, not 'best'
// BUDGET: npu-opt: error: options 'optimise' and 'sram-budget' of pipeline 'schedule' cannot be given together: the search compares candidates scheduled with the passes' defaults
// FORWARD: npu-buffer-weights{optimise=Size
// FIRST: error: 'bogus' does not refer to a registered pass
// FIRST-NOT: does-not-exist

func.func private @f()
