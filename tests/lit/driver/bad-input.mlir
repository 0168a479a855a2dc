// Inputs that are not IR get a located error and exit 1, never a traceback: binary garbage,
// bytes that are not UTF-8, NUL bytes, a truncated file, a missing file, a directory. An empty
// file is an empty module; CRLF line ends are whitespace.
// RUN: not %npu_opt %S/../Inputs/binary.bin 2>&1 | %filecheck %s --check-prefix=BINARY
// RUN: not %npu_opt %S/../Inputs/latin1.mlir 2>&1 | %filecheck %s --check-prefix=LATIN1
// RUN: not %npu_opt < %S/../Inputs/latin1.mlir 2>&1 | %filecheck %s --check-prefix=STDIN
// RUN: not %npu_opt %S/../Inputs/nul-bytes.mlir 2>&1 | %filecheck %s --check-prefix=NUL
// RUN: not %npu_opt %S/../Inputs/truncated.mlir 2>&1 | %filecheck %s --check-prefix=TRUNCATED
// RUN: not %npu_opt %S/../Inputs/does-not-exist.mlir 2>&1 | %filecheck %s --check-prefix=MISSING
// RUN: not %npu_opt %S/../Inputs 2>&1 | %filecheck %s --check-prefix=DIRECTORY
// RUN: %npu_opt %S/../Inputs/empty.mlir | %filecheck %s --check-prefix=EMPTY
// RUN: %npu_opt %S/../Inputs/crlf.mlir | %filecheck %s --check-prefix=CRLF
// The same through --split-input-file and --verify-diagnostics.
// RUN: not %npu_opt %S/../Inputs/latin1.mlir --split-input-file --verify-diagnostics 2>&1 | %filecheck %s --check-prefix=LATIN1
// RUN: not %npu_opt %S/../Inputs/truncated.mlir --split-input-file 2>&1 | %filecheck %s --check-prefix=TRUNCATED

// BINARY: binary.bin:1:1: error:
// BINARY-NOT: Traceback
// LATIN1: latin1.mlir:2:28: error: input is not valid UTF-8 (byte 0xe9)
// LATIN1-NOT: Traceback
// STDIN: <stdin>:2:28: error: input is not valid UTF-8 (byte 0xe9)
// NUL: nul-bytes.mlir:4:1: error:
// NUL-NOT: Traceback
// TRUNCATED: truncated.mlir:3:1: error: unexpected end of file
// TRUNCATED-NOT: Traceback
// MISSING: npu-opt: error: cannot open input file '{{.*}}does-not-exist.mlir': No such file or directory
// DIRECTORY: npu-opt: error: cannot open input file '{{.*}}Inputs': Is a directory
// EMPTY: module {
// CRLF:      func.func @crlf() {
// CRLF-NEXT:   return
