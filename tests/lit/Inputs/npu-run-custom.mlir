// A custom operator the interpreter has no reference kernel for (npu-run-errors.mlir runs this).
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = "tfl.custom"(%x) <{custom_code = "NoSuchOp", custom_option = dense<[1]> : tensor<1xui8>}> : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
