func.func @fine() {
  return
}
// -----
func.func @bad() {
  "test.effect"(%undefined) : (i32) -> ()
  return
}
// -----
func.func @fine_too() {
  return
}
// -----
func.func @also_bad() -> i64 {
  %0 = "test.constant"() {value = 1 : i32} : () -> i32
  return %0 : i32
}
