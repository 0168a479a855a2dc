// A misspelt or unknown flag, or a bad flag value, is an error (exit 1) with a hint; nothing is
// processed.
// RUN: not %npu_opt %s --verfy-each 2>&1 | %filecheck %s --check-prefix=TYPO
// RUN: not %npu_opt %s --no-such-flag 2>&1 | %filecheck %s --check-prefix=UNKNOWN
// RUN: not %npu_opt %s --elide-large-constants=lots 2>&1 | %filecheck %s --check-prefix=VALUE
// RUN: not %npu_opt %s --split-input-fle -o %t.out 2>&1 | %filecheck %s --check-prefix=SPLIT
// RUN: not %exists %t.out

// TYPO:      npu-opt: error: unrecognized arguments: --verfy-each ('--verfy-each': did you mean '--verify-each'?)
// TYPO-NEXT: Try 'npu-opt --help' for the list of options.
// UNKNOWN:      npu-opt: error: unrecognized arguments: --no-such-flag
// UNKNOWN-NEXT: Try 'npu-opt --help'
// VALUE: npu-opt: error: argument --elide-large-constants: invalid int value: 'lots'
// SPLIT: did you mean '--split-input-file'?

func.func private @f()
