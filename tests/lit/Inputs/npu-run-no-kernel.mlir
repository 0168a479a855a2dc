// An op whose dialect has no interpreter kernel (npu-run-errors.mlir runs this).
func.func @no_kernel(%x: i32, %y: i32) -> i32 {
  %s = "test.addi"(%x, %y) : (i32, i32) -> i32
  return %s : i32
}
