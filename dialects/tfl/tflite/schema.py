"""Facts of TFLite's flatbuffer schema (version 3) that the importer and exporter share.

Field slots of the tables read and written, the TensorType enum, and for every op of the tfl
dialect which ``BuiltinOptions`` table carries its attributes and how each field maps to an
attribute. Slot numbers count every field of a table in declaration order, deprecated ones too.
"""
from __future__ import annotations

from dataclasses import dataclass

from npu_opt.ir.types import (
    BF16, F16, F32, F64, FloatType, IntegerType, QuantUniformType, Type,
)

SCHEMA_VERSION = 3
FILE_IDENTIFIER = b"TFL3"


class Model:
    VERSION, OPERATOR_CODES, SUBGRAPHS, DESCRIPTION, BUFFERS, METADATA_BUFFER, METADATA, \
        SIGNATURE_DEFS = range(8)


class SubGraph:
    TENSORS, INPUTS, OUTPUTS, OPERATORS, NAME = range(5)


class Tensor:
    SHAPE, TYPE, BUFFER, NAME, QUANTIZATION, IS_VARIABLE, SPARSITY, SHAPE_SIGNATURE, HAS_RANK = range(9)


class Quantization:
    MIN, MAX, SCALE, ZERO_POINT, DETAILS_TYPE, DETAILS, QUANTIZED_DIMENSION = range(7)


class Buffer:
    DATA, OFFSET, SIZE = range(3)


class Operator:
    OPCODE_INDEX, INPUTS, OUTPUTS, BUILTIN_OPTIONS_TYPE, BUILTIN_OPTIONS, CUSTOM_OPTIONS, \
        CUSTOM_OPTIONS_FORMAT, MUTATING_VARIABLE_INPUTS, INTERMEDIATES, LARGE_CUSTOM_OPTIONS_OFFSET, \
        LARGE_CUSTOM_OPTIONS_SIZE, BUILTIN_OPTIONS_2_TYPE, BUILTIN_OPTIONS_2 = range(13)


class OperatorCode:
    DEPRECATED_BUILTIN_CODE, CUSTOM_CODE, VERSION, BUILTIN_CODE = range(4)


class Metadata:
    NAME, BUFFER = range(2)


class SignatureDef:
    INPUTS, OUTPUTS, SIGNATURE_KEY, _DEPRECATED_FUNCTION_NAME, SUBGRAPH_INDEX = range(5)


class TensorMap:
    NAME, TENSOR_INDEX = range(2)


# TensorType: code -> IR element type, for the types npu-opt represents.
_UNSIGNED = "unsigned"
TENSOR_TYPES: dict[int, Type] = {
    0: F32, 1: F16, 2: IntegerType(32), 3: IntegerType(8, _UNSIGNED), 4: IntegerType(64),
    6: IntegerType(1), 7: IntegerType(16), 9: IntegerType(8), 10: F64,
    12: IntegerType(64, _UNSIGNED), 15: IntegerType(32, _UNSIGNED), 16: IntegerType(16, _UNSIGNED),
    17: IntegerType(4), 18: BF16,
}
TENSOR_TYPE_NAMES = {0: "FLOAT32", 1: "FLOAT16", 2: "INT32", 3: "UINT8", 4: "INT64", 5: "STRING",
                     6: "BOOL", 7: "INT16", 8: "COMPLEX64", 9: "INT8", 10: "FLOAT64",
                     11: "COMPLEX128", 12: "UINT64", 13: "RESOURCE", 14: "VARIANT", 15: "UINT32",
                     16: "UINT16", 17: "INT4", 18: "BFLOAT16"}
TYPE_CODES: dict[Type, int] = {t: code for code, t in TENSOR_TYPES.items()}
CONSTANT_TYPES = frozenset(t for code, t in TENSOR_TYPES.items() if code not in (17, 18))
"""Element types a constant may have: those with a numpy dtype (not INT4, not BFLOAT16)."""


def element_bytes(element: Type) -> int | None:
    """Bytes per element in a buffer, or None when elements are packed below a byte (i4)."""
    if isinstance(element, FloatType):
        return element.width // 8
    if isinstance(element, IntegerType):
        if element.width == 1:
            return 1
        return element.width // 8 if element.width % 8 == 0 else None
    return None


def type_code(element: Type) -> int | None:
    """The TensorType of an element type (quantised types: of their storage type)."""
    if isinstance(element, QuantUniformType):
        element = element.storage_type
    return TYPE_CODES.get(element)


@dataclass(frozen=True)
class Field:
    """One options-table field mapped to an attribute. ``kind`` is the flatbuffer scalar type
    ('i8', 'i32', 'f32', 'bool') or 'i32[]' for a vector; ``enum`` names the values of an enum
    field (stored as string attributes); ``default`` is the schema default."""

    slot: int
    kind: str
    attr: str
    enum: tuple[str, ...] = ()
    default: object = 0
    only_if_not_default: bool = False


@dataclass(frozen=True)
class Options:
    """The BuiltinOptions union member carrying an op's attributes."""

    type: int
    name: str
    fields: tuple[Field, ...] = ()


_ACT = ("NONE", "RELU", "RELU_N1_TO_1", "RELU6", "TANH", "SIGN_BIT")
_PAD = ("SAME", "VALID")


def _act(slot: int) -> Field:
    return Field(slot, "i8", "fused_activation_function", _ACT)


def _pad(slot: int) -> Field:
    return Field(slot, "i8", "padding", _PAD)


_POOL = Options(5, "Pool2DOptions", (_pad(0), Field(1, "i32", "stride_w"), Field(2, "i32", "stride_h"),
                                     Field(3, "i32", "filter_width"), Field(4, "i32", "filter_height"),
                                     _act(5)))

OPTIONS: dict[str, Options] = {
    "CONV_2D": Options(1, "Conv2DOptions", (
        _pad(0), Field(1, "i32", "stride_w"), Field(2, "i32", "stride_h"), _act(3),
        Field(4, "i32", "dilation_w_factor", default=1), Field(5, "i32", "dilation_h_factor", default=1))),
    "DEPTHWISE_CONV_2D": Options(2, "DepthwiseConv2DOptions", (
        _pad(0), Field(1, "i32", "stride_w"), Field(2, "i32", "stride_h"),
        Field(3, "i32", "depth_multiplier"), _act(4),
        Field(5, "i32", "dilation_w_factor", default=1), Field(6, "i32", "dilation_h_factor", default=1))),
    "TRANSPOSE_CONV": Options(49, "TransposeConvOptions", (
        _pad(0), Field(1, "i32", "stride_w"), Field(2, "i32", "stride_h"), _act(3))),
    "FULLY_CONNECTED": Options(8, "FullyConnectedOptions", (
        _act(0), Field(1, "i8", "weights_format", ("DEFAULT", "SHUFFLED4x16INT8")),
        Field(2, "bool", "keep_num_dims", default=False),
        Field(3, "bool", "asymmetric_quantize_inputs", default=False, only_if_not_default=True))),
    "AVERAGE_POOL_2D": _POOL,
    "MAX_POOL_2D": _POOL,
    "ADD": Options(11, "AddOptions", (
        _act(0), Field(1, "bool", "pot_scale_int16", default=True, only_if_not_default=True))),
    "SUB": Options(28, "SubOptions", (
        _act(0), Field(1, "bool", "pot_scale_int16", default=True, only_if_not_default=True))),
    "MUL": Options(21, "MulOptions", (_act(0),)),
    "MINIMUM": Options(39, "MaximumMinimumOptions"),
    "MAXIMUM": Options(39, "MaximumMinimumOptions"),
    "SQUARED_DIFFERENCE": Options(76, "SquaredDifferenceOptions"),
    "ABS": Options(78, "AbsOptions"),
    "EXP": Options(33, "ExpOptions"),
    "HARD_SWISH": Options(91, "HardSwishOptions"),
    "LEAKY_RELU": Options(75, "LeakyReluOptions", (Field(0, "f32", "alpha", default=0.0),)),
    "SOFTMAX": Options(9, "SoftmaxOptions", (Field(0, "f32", "beta", default=0.0),)),
    "QUANTIZE": Options(89, "QuantizeOptions"),
    "DEQUANTIZE": Options(38, "DequantizeOptions"),
    "CONCATENATION": Options(10, "ConcatenationOptions", (Field(0, "i32", "axis"), _act(1))),
    "RESHAPE": Options(17, "ReshapeOptions"),
    "SQUEEZE": Options(30, "SqueezeOptions", (Field(0, "i32[]", "squeeze_dims", default=()),)),
    "EXPAND_DIMS": Options(52, "ExpandDimsOptions"),
    "PAD": Options(22, "PadOptions"),
    "PADV2": Options(43, "PadV2Options"),
    "MEAN": Options(27, "ReducerOptions", (Field(0, "bool", "keep_dims", default=False),)),
    "RESIZE_BILINEAR": Options(15, "ResizeBilinearOptions", (
        Field(2, "bool", "align_corners", default=False), Field(3, "bool", "half_pixel_centers", default=False))),
    "RESIZE_NEAREST_NEIGHBOR": Options(74, "ResizeNearestNeighborOptions", (
        Field(0, "bool", "align_corners", default=False), Field(1, "bool", "half_pixel_centers", default=False))),
    "SPLIT": Options(35, "SplitOptions", (Field(0, "i32", "num_splits"),)),
    "SPLIT_V": Options(79, "SplitVOptions", (Field(0, "i32", "num_splits"),)),
    "SLICE": Options(48, "SliceOptions"),
    "STRIDED_SLICE": Options(32, "StridedSliceOptions", (
        Field(0, "i32", "begin_mask"), Field(1, "i32", "end_mask"), Field(2, "i32", "ellipsis_mask"),
        Field(3, "i32", "new_axis_mask"), Field(4, "i32", "shrink_axis_mask"),
        Field(5, "bool", "offset", default=False))),
    "PACK": Options(59, "PackOptions", (Field(0, "i32", "values_count"), Field(1, "i32", "axis"))),
    "UNPACK": Options(64, "UnpackOptions", (Field(0, "i32", "num"), Field(1, "i32", "axis"))),
    "TRANSPOSE": Options(26, "TransposeOptions"),
    "ARG_MAX": Options(40, "ArgMaxOptions"),
    "SHAPE": Options(55, "ShapeOptions"),
}
"""Builtin operator name -> its options table, for the ops of the tfl dialect that have one."""

DERIVED_TYPE_OPTIONS = {"ARG_MAX": 0, "SHAPE": 0}
"""Options whose field (at this slot) is the TensorType of the result, derived from the IR type."""

# Versions TFLite's converter gives int8 kernels (those with an int8 or uint8 first operand);
# everything else gets 1. The importer records a version only when it differs from this rule.
_INT8_VERSIONS = {
    "CONV_2D": 3, "DEPTHWISE_CONV_2D": 3, "FULLY_CONNECTED": 4, "TRANSPOSE_CONV": 3,
    "ADD": 2, "SUB": 2, "MUL": 2, "AVERAGE_POOL_2D": 2, "MAX_POOL_2D": 2, "SOFTMAX": 2, "MEAN": 2,
    "CONCATENATION": 2, "PAD": 2, "PADV2": 2, "RESIZE_BILINEAR": 2, "RESIZE_NEAREST_NEIGHBOR": 2,
    "DEQUANTIZE": 2, "LOGISTIC": 2, "TANH": 2, "RELU": 2, "RELU6": 2, "LEAKY_RELU": 2,
    "MAXIMUM": 2, "MINIMUM": 2, "TRANSPOSE": 2, "SPLIT": 2, "SPLIT_V": 2, "SLICE": 2,
    "STRIDED_SLICE": 2, "PACK": 2, "UNPACK": 2, "ARG_MAX": 2, "RSQRT": 2, "SQUARED_DIFFERENCE": 2,
    "ABS": 2, "EXP": 2, "LOG": 2, "QUANTIZE": 2,
}


def default_version(builtin: str, first_operand: Type | None, keep_num_dims: bool = False) -> int:
    """The operator version npu-opt writes when an op carries no ``tfl.version`` attribute."""
    elem = getattr(first_operand, "element_type", None)
    storage = elem.storage_type if isinstance(elem, QuantUniformType) else elem
    if isinstance(storage, IntegerType) and storage.width == 8:
        version = _INT8_VERSIONS.get(builtin, 1)
        if builtin == "FULLY_CONNECTED" and keep_num_dims:
            version = 5
        return version
    return 1


VERSION_ATTR = "tfl.version"
"""Discardable attribute holding an operator's version when it differs from default_version."""
