// SSA value errors found while parsing: undefined and redefined names, uses whose types
// disagree, result groups of the wrong size, and uses across an isolated-from-above boundary.
// RUN: %npu_opt %s --split-input-file --verify-diagnostics

func.func @undefined() {
  // expected-error@+1 {{use of undeclared SSA value name '%nope'}}
  "test.effect"(%nope) : (i32) -> ()
  return
}

// -----

func.func @redefined() {
  %a = "test.constant"() {value = 1 : i32} : () -> i32
  // expected-error@+1 {{redefinition of SSA value '%a'}}
  %a = "test.constant"() {value = 2 : i32} : () -> i32
  return
}

// -----

// expected-error@+1 {{redefinition of SSA value '%a'}}
func.func @redefined_argument(%a: i32, %a: i32) {
  return
}

// -----

func.func @type_mismatch(%x: i32) {
  // expected-error@+1 {{use of value '%x' expects different type than prior uses: 'i64' vs 'i32'}}
  "test.effect"(%x) : (i64) -> ()
  return
}

// -----

// Two uses before the definition disagree with the definition's type.
func.func @forward_type_mismatch() {
  "test.br"()[^bb2] : () -> ()
^bb1:
  // expected-error@+1 {{use of value '%late' expects different type than prior uses: 'i64' vs 'i32'}}
  "test.effect"(%late) : (i64) -> ()
  "test.br"()[^bb2] : () -> ()
^bb2:
  %late = "test.constant"() {value = 1 : i32} : () -> i32
  "test.br"()[^bb1] : () -> ()
}

// -----

func.func @too_many_names() {
  // expected-error@+1 {{operation defines 2 results but was provided 3 to bind}}
  %a:3 = "test.effect"() : () -> (i32, i32)
  return
}

// -----

func.func @too_few_names() {
  // expected-error@+1 {{operation defines 2 results but was provided 1 to bind}}
  %a = "test.effect"() : () -> (i32, i32)
  return
}

// -----

func.func @result_out_of_range() {
  %a:2 = "test.effect"() : () -> (i32, i32)
  // expected-error@+1 {{result number 2 out of range for '%a' (2 results)}}
  "test.effect"(%a#2) : (i32) -> ()
  return
}

// -----

// A function is isolated from above: the value of the enclosing function is not visible.
func.func @outer(%x: i32) {
  "test.region"() ({
    func.func @inner() {
      // expected-error@+1 {{use of undeclared SSA value name '%x'}}
      "test.effect"(%x) : (i32) -> ()
      return
    }
    "test.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

// A value defined in a nested region is not visible after the region.
func.func @escaping() {
  "test.region"() ({
    %inner = "test.constant"() {value = 1 : i32} : () -> i32
    "test.yield"() : () -> ()
  }) : () -> ()
  // expected-error@+1 {{use of undeclared SSA value name '%inner'}}
  "test.effect"(%inner) : (i32) -> ()
  return
}
