// An input without ops (an empty file, only comments, an empty chunk) is an empty module.
// RUN: %npu_opt %S/../Inputs/empty.mlir | %filecheck %s --check-prefix=EMPTY
// RUN: %npu_opt %S/../Inputs/comments-only.mlir | %filecheck %s --check-prefix=EMPTY
// RUN: %npu_opt < %S/../Inputs/empty.mlir | %filecheck %s --check-prefix=EMPTY
// RUN: %npu_opt %S/../Inputs/empty.mlir --print-op-generic | %filecheck %s --check-prefix=GENERIC
// RUN: %npu_opt %s --split-input-file | %filecheck %s --check-prefix=CHUNKS

// EMPTY:      {{^}}module {
// EMPTY-NEXT: {{^}}}
// EMPTY-NOT:  {{.}}

// In the generic form the module's empty block is printed with its label, as MLIR does.
// GENERIC:      {{^}}"builtin.module"() ({
// GENERIC-NEXT: {{^}}^bb0:
// GENERIC-NEXT: {{^}}}) : () -> ()

// Three chunks: the empty text before the first separator, one function, an empty chunk.
// CHUNKS:      {{^}}module {
// CHUNKS-NEXT: {{^}}}
// CHUNKS:      // -----
// CHUNKS-NEXT: {{^}}module {
// CHUNKS-NEXT:   func.func private @only()
// CHUNKS-NEXT: {{^}}}
// CHUNKS:      // -----
// CHUNKS-NEXT: {{^}}module {
// CHUNKS-NEXT: {{^}}}

// -----
func.func private @only()
// -----
