// --version prints the tool and its version and exits 0 without reading input (also combined
// with other flags, or for npu-translate).
// RUN: %npu_opt --version | %filecheck %s
// RUN: %npu_opt --version %S/../Inputs/does-not-exist.mlir | %filecheck %s
// RUN: %npu_opt --pass=cse --version | %filecheck %s
// RUN: %npu_translate --version | %filecheck %s --check-prefix=TRANSLATE

// CHECK: {{^}}npu-opt {{[0-9]+\.[0-9]+\.[0-9]+$}}
// CHECK-NOT: {{.}}
// TRANSLATE: {{^}}npu-translate {{[0-9]+\.[0-9]+\.[0-9]+$}}
