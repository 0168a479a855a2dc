"""Interpreter kernels of the npu ops: the arithmetic the NPU performs, as the legalisation
expresses it (see docs/npu_arithmetic.md for where it differs from TensorFlow Lite).

Imported by the interpreter the first time it runs an npu op; each module registers its kernels
with ``NPU.kernel``. Compute kernels also take ``ofm_rows``/``ofm_channels`` keywords, so the
stripe-by-stripe executor (``interpreters.scheduled``) can run them on one stripe.
"""
from __future__ import annotations

from npu_opt.interpreters.npu import conv, elementwise, lut, memory, pool  # noqa: F401  (registration)
