// Verifier errors of func.func and func.return: results that disagree with the signature,
// entry blocks that disagree with it, malformed properties, and returns outside a function.
// RUN: %npu_opt %s --split-input-file --verify-diagnostics

func.func @return_type(%x: i32) -> i64 {
  // expected-error@+1 {{'func.return' op type of return operand 0 ('i32') doesn't match function result type ('i64') in function @return_type}}
  return %x : i32
}

// -----

func.func @return_count(%x: i32) -> (i32, i32) {
  // expected-error@+1 {{'func.return' op has 1 operands, but enclosing function (@return_count) returns 2}}
  return %x : i32
}

// -----

func.func @return_nothing() -> f32 {
  // expected-error@+1 {{has 0 operands, but enclosing function (@return_nothing) returns 1}}
  return
}

// -----

// The error is reported at the return (the annotation below refers to the line above it).
func.func @second_operand(%x: i32, %y: i8) -> (i32, i32) {
  return %x, %y : i32, i8
  // expected-error@-1 {{type of return operand 1 ('i8') doesn't match function result type ('i32')}}
}

// -----

// expected-error@+1 {{'func.func' op type of entry block argument #0('i64') must match the type of the corresponding argument in function signature('i32')}}
"func.func"() <{sym_name = "entry_type", function_type = (i32) -> ()}> ({
^bb0(%a: i64):
  "func.return"() : () -> ()
}) : () -> ()

// -----

// expected-error@+1 {{'func.func' op entry block must have 1 arguments to match function signature}}
"func.func"() <{sym_name = "entry_count", function_type = (i32) -> ()}> ({
^bb0:
  "func.return"() : () -> ()
}) : () -> ()

// -----

// expected-error@+1 {{'func.return' op expects parent op 'func.func'}}
"func.return"() : () -> ()

// -----

func.func @return_in_region() {
  "test.region"() ({
    // expected-error@+1 {{'func.return' op expects parent op 'func.func'}}
    "func.return"() : () -> ()
  }) : () -> ()
  return
}

// -----

// expected-error@+1 {{'func.func' op expects 'arg_attrs' to hold 1 dictionaries}}
"func.func"() <{sym_name = "arg_attrs", function_type = (i32) -> (), arg_attrs = [{}, {}]}> ({
}) : () -> ()

// -----

// Several problems with one op are all reported.
// expected-error@+2 {{'func.func' op requires attribute 'sym_name'}}
// expected-error@+1 {{'func.func' op requires string attribute 'sym_name'}}
"func.func"() <{function_type = () -> ()}> ({
}) : () -> ()

// -----

// expected-error@+1 {{attribute 'function_type' failed to satisfy constraint: function type attribute}}
"func.func"() <{sym_name = "not_a_function_type", function_type = i32}> ({
}) : () -> ()

// -----

// expected-error@+1 {{attribute 'sym_visibility' failed to satisfy constraint: string attribute whose value is public, or private, or nested}}
"func.func"() <{sym_name = "visibility", function_type = () -> (), sym_visibility = "secret"}> ({
}) : () -> ()
