// Ops, types and attributes of unknown dialects are errors without --allow-unregistered-dialect;
// with the flag they are kept as written. (Unknown ops of a known dialect: unknown-op.mlir.)
// RUN: %npu_opt %s --split-input-file --verify-diagnostics
// RUN: %npu_opt %s --split-input-file --allow-unregistered-dialect | %filecheck %s

// CHECK: "foo.bar"() : () -> ()
// expected-error@+1 {{operation 'foo.bar' of unregistered dialect 'foo'; use --allow-unregistered-dialect to accept it}}
"foo.bar"() : () -> ()

// -----

// CHECK: "nodot"() : () -> ()
// expected-error@+1 {{operation 'nodot' of unregistered dialect 'nodot'}}
"nodot"() : () -> ()

// -----

// CHECK: %{{.*}} = "test.effect"() : () -> !foo.t
// expected-error@+1 {{type of unregistered dialect 'foo'; use --allow-unregistered-dialect to accept it}}
%0 = "test.effect"() : () -> !foo.t

// -----

// CHECK: "test.effect"() {a = #foo.attr} : () -> ()
// expected-error@+1 {{attribute '#foo.attr' of unregistered dialect 'foo'}}
"test.effect"() {a = #foo.attr} : () -> ()

// -----

// CHECK: %{{.*}} = "test.effect"() : () -> tensor<2xf32, #foo.enc>
// expected-error@+1 {{attribute '#foo.enc' of unregistered dialect 'foo'}}
%0 = "test.effect"() : () -> tensor<2xf32, #foo.enc>
