// --memory-timeline=FILE checks what it can before any work: the suffix (.svg or .png) and the
// path; nothing is printed and no file is written. (Drawing, and the errors that need
// matplotlib installed, are covered by tests/unit/test_memory_timeline.py.)
// RUN: rm -f %t.pdf
// RUN: not %npu_opt %S/../Inputs/scheduled-two-convs.mlir --memory-timeline=%t.pdf 2>&1 | %filecheck %s --check-prefix=SUFFIX
// RUN: not %exists %t.pdf
// RUN: not %npu_opt %S/../Inputs/scheduled-two-convs.mlir --memory-timeline=%t.nodir/out.svg 2>&1 | %filecheck %s --check-prefix=NODIR
// RUN: env COLUMNS=400 %npu_opt --help | %filecheck %s --check-prefix=HELP

// SUFFIX: npu-opt: error: --memory-timeline: '{{.*}}.pdf' must end in .svg or .png
// SUFFIX-NOT: module
// NODIR: npu-opt: error: cannot write '{{.*}}.nodir{{.}}out.svg': No such file or directory
// NODIR-NOT: module
// HELP: after the passes, draw each memory area's allocations (npu.alloc) as address against schedule time
// HELP: pip install 'npu-opt[plot]'
