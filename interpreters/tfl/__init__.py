"""Interpreter kernels of the tfl ops: TensorFlow Lite's reference-kernel arithmetic in numpy.

Imported by the interpreter (ir.interpreter) the first time it runs a tfl op; each module
registers its kernels with ``TFL.kernel``.
"""
from __future__ import annotations

from npu_opt.interpreters.tfl import constants  # noqa: F401  (registration happens on import)
from npu_opt.interpreters.tfl import shape, slicing, resize  # noqa: F401,E402  (data movement)
from npu_opt.interpreters.tfl import elementwise, activations, quantize  # noqa: F401,E402  (element-wise)
from npu_opt.interpreters.tfl import conv, pool, reduce, softmax  # noqa: F401,E402  (MAC, pooling, reductions)
