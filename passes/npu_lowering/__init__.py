"""The lowerings behind npu-legalize (passes/npu_legalize.py).

- support.py (with support_common.py and support_ops.py): Vela's semantic and supported-operator
  checks, deciding which ops go to the NPU and why the others stay on the CPU;
- view.py: the Vela-shaped view of a tfl op (its IFM, IFM2, weights, bias, OFM, data types);
- builder.py and context.py: creating npu ops and constants, and the per-function state;
- conv.py, pool.py, elementwise.py, softmax.py, mean.py, shape.py, split.py: the lowering of each
  operator family, following Vela's graph optimiser;
- tables.py (lookup tables and fixed-point arithmetic) and padding.py (hardware padding);
- fuse.py: folding reshape chains and fusing stand-alone activations after lowering.
"""
