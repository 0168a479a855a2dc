"""The lowerings behind npu-legalize (passes/npu_legalize.py): support checks (support.py), the
Vela-shaped view of a tfl op (view.py), the op builder (builder.py), the lowering of each operator
family (conv.py, pool.py, elementwise.py, softmax.py, mean.py, shape.py), lookup tables
(tables.py), hardware padding (padding.py) and the activation fusion after lowering (fuse.py)."""
