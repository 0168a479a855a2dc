// A first npu-opt input: a function over the test dialect, with constants to fold,
// a duplicated expression for CSE and a dead value for DCE.
// Run: npu-opt examples/quickstart.mlir --pass=canonicalize,cse --pass-statistics
func.func @quickstart(%input: i32) -> i32 {
  %zero = "test.constant"() <{value = 0 : i32}> : () -> i32
  %two = "test.constant"() <{value = 2 : i32}> : () -> i32
  %three = "test.constant"() <{value = 3 : i32}> : () -> i32
  %five = "test.addi"(%two, %three) : (i32, i32) -> i32
  %same = "test.addi"(%zero, %input) : (i32, i32) -> i32
  %a = "test.muli"(%same, %five) : (i32, i32) -> i32
  %b = "test.muli"(%same, %five) : (i32, i32) -> i32
  %sum = "test.addi"(%a, %b) : (i32, i32) -> i32
  %unused = "test.addi"(%input, %input) : (i32, i32) -> i32
  return %sum : i32
}
