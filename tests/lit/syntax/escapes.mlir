// Op names and strings with quotes and backslash runs print escaped, so the output parses back
// to the same text (the fuzz campaign's print -> parse fixed point).
// RUN: %npu_opt %s --split-input-file --allow-unregistered-dialect > %t.out
// RUN: %filecheck %s --input-file %t.out
// RUN: %npu_opt --split-input-file --allow-unregistered-dialect < %t.out | %filecheck %s

// XDSL-INCOMPATIBLE: xdsl-opt prints op names without escaping them
// CHECK-LABEL: "x.quote\22name"() : () -> ()
"x.quote\22name"() : () -> ()

// -----

// XDSL-INCOMPATIBLE: xdsl-opt prints op names without escaping them
// CHECK-LABEL: "x.back\\slash"() : () -> ()
"x.back\\slash"() : () -> ()

// -----

// CHECK-LABEL: "x.strings"()
// CHECK-SAME:  {s = "\\\\\\\22\\\\", t = "a\\\\\\\\b"} : () -> ()
"x.strings"() {s = "\\\\\\\"\\\\", t = "a\\\\\\\\b"} : () -> ()
