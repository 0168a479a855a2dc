// Builtin attributes in discardable attribute dictionaries: canonical spellings, default types,
// escaping, nesting. Checked on the output, after a generic round trip, and for a fixed point.
// RUN: %npu_opt %s --split-input-file --allow-unregistered-dialect | %filecheck %s
// RUN: %roundtrip
// RUN: %fixedpoint

// Integers: an untyped literal is i64; hexadecimal literals print in decimal.
// CHECK-LABEL: func.func @integers
// CHECK: "test.effect"() {a = 42 : i64, b = -7 : i8, c = 31 : i32, d = 255 : ui8, e = 3 : index, f = -1 : si4, g = true, h = false} : () -> ()
func.func @integers() {
  "test.effect"() {a = 42, b = -7 : i8, c = 0x1F : i32, d = 255 : ui8, e = 3 : index, f = -1 : si4, g = true, h = false} : () -> ()
  return
}

// -----

// Floats: an untyped literal is f64; NaN payloads are kept as hexadecimal bit patterns.
// CHECK-LABEL: func.func @floats
// CHECK: "test.effect"() {a = 1.5 : f64, b = -0.0025 : f32, c = 0x7FC00000 : f32, d = 1.0 : bf16, e = 1.0e+20 : f64} : () -> ()
func.func @floats() {
  "test.effect"() {a = 1.5, b = -2.5e-3 : f32, c = 0x7FC00000 : f32, d = 1.0 : bf16, e = 1.0e20} : () -> ()
  return
}

// -----

// Strings are printed with MLIR's escapes (\22 for a quote, \0A for a newline).
// CHECK-LABEL: func.func @strings
// CHECK: "test.effect"() {a = "plain", b = "he said \22hi\22\0A", c = "tab\09end", d = ""} : () -> ()
func.func @strings() {
  "test.effect"() {a = "plain", b = "he said \"hi\"\n", c = "tab\tend", d = ""} : () -> ()
  return
}

// -----

// A unit attribute prints as its bare name; keys that are not bare identifiers are quoted
// (dots are allowed in bare identifiers).
// CHECK-LABEL: func.func @unit_and_keys
// CHECK: "test.effect"() {flag, "quoted key" = 1 : i64, with.dots.ok = 2 : i64} : () -> ()
func.func @unit_and_keys() {
  "test.effect"() {flag, "quoted key" = 1, with.dots.ok = 2} : () -> ()
  return
}

// -----

// CHECK-LABEL: func.func @symbols
// CHECK: "test.effect"() {a = @foo, b = @a::@b::@c, c = @"not an identifier"} : () -> ()
func.func @symbols() {
  "test.effect"() {a = @foo, b = @a::@b::@c, c = @"not an identifier"} : () -> ()
  return
}

// -----

// Arrays and dictionaries nest.
// CHECK-LABEL: func.func @containers
// CHECK: "test.effect"() {a = [], b = {}, c = [1 : i64, "two", [3.0 : f16]], d = {a = {inner = [unit]}, z = 1 : i32}} : () -> ()
func.func @containers() {
  "test.effect"() {a = [], b = {}, c = [1, "two", [3.0 : f16]], d = {a = {inner = [unit]}, z = 1 : i32}} : () -> ()
  return
}

// -----

// Types as attributes, and attributes of unregistered dialects (kept verbatim).
// CHECK-LABEL: func.func @types_and_dialect_attrs
// CHECK: "test.effect"() {a = i32, b = (i32) -> f32, c = tensor<2xf32>, d = #foo.bar<"x">, e = #foo.flag} : () -> ()
func.func @types_and_dialect_attrs() {
  "test.effect"() {a = i32, b = (i32) -> f32, c = tensor<2xf32>, d = #foo.bar<"x">, e = #foo.flag} : () -> ()
  return
}

// -----

// Properties (inherent attributes) print in <{...}> in the generic form.
// CHECK-LABEL: func.func @properties
// CHECK: "test.effect"() <{p = 1 : i32}> {q = 2 : i32} : () -> ()
func.func @properties() {
  "test.effect"() <{p = 1 : i32}> {q = 2 : i32} : () -> ()
  return
}
