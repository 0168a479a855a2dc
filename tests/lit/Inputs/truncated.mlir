func.func @f(%a: i32) -> i32 {
  %0 = "test.addi"(%a, %a) : (i32, i32) -> i32
