// Numerals beyond what the IR can hold are one located error naming the value and the limit
// (the 5,000-digit versions are in tests/unit/fuzz/test_fuzz_regressions.py); so are a function
// without its signature and non-finite options the NPU lowering would turn into integers.
// RUN: %npu_opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

// expected-error@+1 {{tensor dimension 9223372036854775808 is larger than 9223372036854775807}}
"x.op"() : () -> tensor<9223372036854775808xi8>

// -----

// expected-error@+1 {{integer width 16777217 is larger than 16777216}}
"x.op"() : () -> i16777217

// -----

// expected-error@+1 {{line or column number 4294967296 is larger than 4294967295}}
"x.op"() : () -> () loc("f.mlir":4294967296:1)

// -----

%0 = "x.a"() : () -> i8
// expected-error@+1 {{result number 4294967296 is larger than 4294967295}}
"x.b"(%0#4294967296) : (i8) -> ()

// -----

// expected-error@+1 {{zero point 99999999999999999999 is larger than 9223372036854775807}}
"x.op"() : () -> !quant.uniform<i8:f32, 0.5:99999999999999999999>

// -----

// A signed bound is checked with its sign: -2^63 is an i64 zero point (and prints back as it is),
// one below it is not.
"x.op"() : () -> !quant.uniform<i64<-9223372036854775808:9223372036854775807>:f32, 0.5:-9223372036854775808>
// expected-error@+1 {{zero point -9223372036854775809 is smaller than -9223372036854775808}}
"x.op"() : () -> !quant.uniform<i64:f32, 0.5:-9223372036854775809>

// -----

// A control character is not whitespace (float() would refuse it after the last per-axis scale).
// expected-error@+1 {{expected a scale[:zero_point], found '0.25\x1d'}}
"x.op"() : () -> tensor<2x!quant.uniform<i8:f32:0, {0.5,0.25}>>

// -----

// expected-error@+1 {{#npu.offset: integer 9223372036854775808 does not fit in 64 bits}}
"x.op"() {a = #npu.offset<9223372036854775808, 0, 0, 0>} : () -> ()

// -----

// expected-error@+1 {{'func.func' op requires attribute 'function_type'}}
"func.func"() <{sym_name = "f"}> ({
  "func.return"() : () -> ()
}) : () -> ()

// -----

func.func @nan_alpha(%x: tensor<1x4x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x!quant.uniform<i8:f32, 0.5>> {
  // expected-error@+1 {{'tfl.leaky_relu' op attribute 'alpha' failed to satisfy constraint: finite 32-bit float attribute}}
  %0 = "tfl.leaky_relu"(%x) <{alpha = 0x7FC00000 : f32}> : (tensor<1x4x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x!quant.uniform<i8:f32, 0.5>>
  return %0 : tensor<1x4x!quant.uniform<i8:f32, 0.5>>
}

// -----

func.func @infinite_beta(%x: tensor<1x4x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x!quant.uniform<i8:f32, 0.5>> {
  // expected-error@+1 {{'tfl.softmax' op attribute 'beta' failed to satisfy constraint: finite 32-bit float attribute}}
  %0 = "tfl.softmax"(%x) <{beta = 0x7F800000 : f32}> : (tensor<1x4x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x!quant.uniform<i8:f32, 0.5>>
  return %0 : tensor<1x4x!quant.uniform<i8:f32, 0.5>>
}
