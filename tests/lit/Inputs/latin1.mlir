func.func @f() {
  "test.effect"() {s = "café"} : () -> ()
  return
}
