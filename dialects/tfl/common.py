"""What every tfl op shares: the dialect object, the base class, type and attribute constraints.

Names follow TensorFlow's TFL MLIR dialect (``tfl_ops.td``): enum-like options such as ``padding``
and ``fused_activation_function`` are string attributes, integer options are ``i32`` attributes,
``beta``/``alpha`` are ``f32`` attributes. Each op class also records the TFLite builtin operator
it stands for (``BUILTIN``), which the TFLite importer and exporter use. An operator version
other than the one the exporter would write is kept in a discardable ``tfl.version`` attribute
(see dialects.tfl.tflite.schema.default_version).
"""
from __future__ import annotations

from typing import ClassVar

from npu_opt.ir.constraints import (
    BoolAttrC, FloatAttrC, IntAttrC, Optional_, StrAttrC, TensorOf, TypeConstraint,
)
from npu_opt.ir.opdef import Dialect, Op, VerifyError, register_dialect
from npu_opt.ir.types import F32, NoneType, TensorType

TFL = register_dialect(Dialect(
    "tfl",
    "TensorFlow Lite's builtin operators, one op per TFLite operator, as in TensorFlow's TFL dialect.",
    kernel_modules=("npu_opt.interpreters.tfl", "npu_opt.interpreters.ethosu")))

ACTIVATIONS = ("NONE", "RELU", "RELU_N1_TO_1", "RELU6", "TANH", "SIGN_BIT")
"""TFLite's ActivationFunctionType, in enum order (the index is the flatbuffer value)."""
PADDINGS = ("SAME", "VALID")
"""TFLite's Padding, in enum order."""
WEIGHTS_FORMATS = ("DEFAULT", "SHUFFLED4x16INT8")
"""TFLite's FullyConnectedOptionsWeightsFormat, in enum order."""

# Attribute constraints, named after their TableGen counterparts.
I32Attr = IntAttrC(32)
PositiveI32Attr = IntAttrC(32, min_value=1)
F32Attr = FloatAttrC(F32)
FiniteF32Attr = FloatAttrC(F32, finite=True)
"""An f32 option the NPU lowering turns into integer scales (LEAKY_RELU alpha, SOFTMAX beta)."""
BoolAttr = BoolAttrC()
ActivationAttr = StrAttrC(ACTIVATIONS)
PaddingAttr = StrAttrC(PADDINGS)
WeightsFormatAttr = StrAttrC(WEIGHTS_FORMATS)

# Type constraints. TFLite kernels support fewer combinations than these admit; the lists keep
# every element type a TFLite model can legitimately carry for the operand.
_NUMERIC = ("f32", "f16", "i8", "ui8", "i16", "i32", "i64", "qi8", "qu8", "qi16", "qi32")
AnyTflTensor = TensorOf(*_NUMERIC, "i1", "ui16", "ui32", "ui64", "f64", "i4", "qi4")
Activations = TensorOf("f32", "f16", "qi8", "qu8", "qi16", "i8", "ui8", "i16", "i32", "i64")
Numeric = TensorOf(*_NUMERIC)
Filter = TensorOf("f32", "f16", "qi8", "qu8", "qi16", "qi4", "i8")
Bias = Optional_(TensorOf("f32", "f16", "i32", "i64", "qi32", "qi64"))
IndexTensor = TensorOf("i32", "i64")
I32Tensor = TensorOf("i32")
NoneOrTensor = TypeConstraint("tensor or none type",
                              lambda t: isinstance(t, (TensorType, NoneType)))


class TflOp(Op):
    """Base of tfl ops. The verifier runs ``verify_op`` (the shape checks) only when the declared
    operand, result and attribute constraints hold (it reports those), so ``verify_shapes`` can
    rely on them."""

    BUILTIN: ClassVar[str] = ""
    """The TFLite builtin operator this op imports from and exports to ('' for pseudo ops)."""

    VERIFY_OP_NEEDS_DECLARED = True

    def verify_op(self) -> None:
        self.verify_shapes()

    def verify_shapes(self) -> None:
        """Shape and element-type checks of the op; raise VerifyError."""


__all__ = ["TFL", "TflOp", "VerifyError", "ACTIVATIONS", "PADDINGS", "WEIGHTS_FORMATS"]
