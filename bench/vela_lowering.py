"""Lower an imported TFLite module (tfl dialect) into the NPU operations Vela 5.2.0 costs.

For the benchmark only (see vela_graph.py): each TFL op becomes the operations Vela's graph
optimiser turns it into, with Vela's shape rewrites, because those decide what the cost model is
asked:

* CONV_2D: the first op of the network with stride 2 and few input channels, and any conv with
  a width stride >= 4, is rewritten with the IFM width folded into its depth (stride 1 or less;
  ``fixup_strided_conv``); a 1x1 conv on a 1x1 IFM becomes a FULLY_CONNECTED (``convert_conv_to_fc``);
  a stride on an axis of OFM size 1 becomes 1;
* AVERAGE_POOL_2D / MAX_POOL_2D: a pool covering the whole IFM gets stride 1
  (``fixup_pool_strides``); an average pool with a width stride >= 4 becomes a CONV_2D of unit
  weights (named ``..._conv2d``), then strided-conv fixed up;
* FULLY_CONNECTED: the IFM seen as 1 x 1 x 1 x inputs;
* MEAN over height and width: a depthwise convolution of unit weights into int32 (``..._conv_0``)
  then a Mul by the scale (``..._mul``);
* SOFTMAX: vela_softmax.py; RESHAPE, SQUEEZE, EXPAND_DIMS: no operation (the tensor is shared);
* ADD, SUB, MUL, MINIMUM, MAXIMUM: elementwise, a constant first operand swapped to second.

Ops outside this list are left to the CPU (not costed).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from dialects.npu.perf import Kernel, OpKind, Shape4
from ir.core import Operation

from bench.vela_graph import Tensor, VelaOp, connect
from bench.vela_softmax import lower_softmax

ACTIVATIONS = {"NONE": "none", "RELU": "relu", "RELU6": "relu6", "RELU_N1_TO_1": "relu_n1_to_1", "TANH": "tanh"}
MEMORY_ONLY = {"tfl.reshape", "tfl.squeeze", "tfl.expand_dims"}
ELEMENTWISE = {"tfl.add": "add", "tfl.sub": "sub", "tfl.mul": "mul", "tfl.minimum": "min", "tfl.maximum": "max"}


@dataclass
class LoweredGraph:
    ops: list[VelaOp] = field(default_factory=list)
    outputs: list[Tensor] = field(default_factory=list)
    groups: dict[VelaOp, list[VelaOp]] = field(default_factory=dict)
    cpu_ops: list[str] = field(default_factory=list)


def _name(op: Operation) -> str:
    loc = op.location
    return getattr(loc, "name", None) or str(loc)


def _bits(type_: object) -> int:
    element = getattr(type_, "element_type", None)
    storage = getattr(element, "storage_type", element)
    return int(getattr(storage, "width", 8))


def _const_array(value: object) -> np.ndarray:
    op = getattr(value, "op", None)
    if op is None or op.name not in ("tfl.pseudo_qconst", "tfl.pseudo_const"):
        raise ValueError("expected a constant operand")
    value = op.attr("value")
    return np.asarray(value.array if hasattr(value, "array") else value.as_array())


def _zero_points(value: object) -> np.ndarray:
    quant = getattr(value.type, "element_type", None)  # type: ignore[attr-defined]
    return np.asarray(getattr(quant, "zero_points", (0,)), dtype=np.int64)


class _Lowerer:
    def __init__(self, func: Operation) -> None:
        self.graph = LoweredGraph()
        self.tensors: dict[int, Tensor] = {}
        self.func = func

    # -- tensors -------------------------------------------------------------------------------
    def tensor(self, value: object) -> Tensor:
        key = id(value)
        found = self.tensors.get(key)
        if found is None:
            producer = getattr(value, "op", None)
            const = producer is not None and producer.name in ("tfl.pseudo_qconst", "tfl.pseudo_const")
            name = _name(producer) if producer is not None else f"input{len(self.tensors)}"
            shape = Shape4.of(value.type.shape)  # type: ignore[attr-defined]
            found = Tensor(name, shape, _bits(value.type), const=const,  # type: ignore[attr-defined]
                           graph_input=producer is None)
            self.tensors[key] = found
        return found

    def alias(self, result: object, source: object) -> None:
        self.tensors[id(result)] = self.tensor(source)

    def add(self, op: VelaOp) -> VelaOp:
        self.graph.ops.append(connect(op))
        return op

    # -- lowering --------------------------------------------------------------------------------
    def run(self) -> LoweredGraph:
        index = 0
        for op in list(self.func.regions[0].blocks[0].ops):
            name = op.name
            if name in ("tfl.pseudo_qconst", "tfl.pseudo_const", "tfl.no_value"):
                continue
            if name == "func.return":
                for value in op.operands:
                    tensor = self.tensor(value)
                    tensor.graph_output = True
                    self.graph.outputs.append(tensor)
                continue
            handler = getattr(self, "lower_" + name.split(".", 1)[1], None)
            if name in MEMORY_ONLY:
                self.alias(op.results[0], op.operands[0])
            elif name in ELEMENTWISE:
                self.lower_elementwise(op, index)
            elif handler is not None:
                handler(op, index)
            else:
                self.graph.cpu_ops.append(name)
            index += 1
        for op in self.graph.ops:
            _swap_constant_first_operand(op)
        return self.graph

    def lower_conv_2d(self, op: Operation, index: int) -> None:
        ofm = self.tensor(op.results[0])
        ifm = self.tensor(op.operands[0])
        ohwi = _const_array(op.operands[1]).astype(np.int16) - _zero_points(op.operands[1])[:, None, None, None]
        hwio = np.transpose(ohwi, (1, 2, 3, 0))
        self._conv(_name(op), "CONV_2D", ifm, ofm, ifm.shape, hwio, op.stride_w, op.stride_h,
                   op.dilation_w_factor, op.dilation_h_factor, op.padding,
                   _activation(op), index)

    def _conv(self, name: str, tflite: str, ifm: Tensor, ofm: Tensor, ifm_shape: Shape4, hwio: np.ndarray,
              stride_x: int, stride_y: int, dil_x: int, dil_y: int, padding: str, activation: str,
              index: int) -> None:
        ifm_shape, hwio, stride_x = _fixup_strided_conv(ifm_shape, hwio, stride_x, padding, index)
        if ofm.shape.height == 1:
            stride_y = 1
        if ofm.shape.width == 1:
            stride_x = 1
        kh, kw = hwio.shape[0], hwio.shape[1]
        if ifm_shape.height == 1 and ifm_shape.width == 1 and kh == 1 and kw == 1:
            self.add(VelaOp(name + "_fc", tflite, OpKind.VECTOR_PRODUCT, ifm, ofm, ifm_shape, ofm.shape,
                            activation=activation, weights=hwio, tflite_index=index))
            return
        self.add(VelaOp(name, tflite, OpKind.CONV2D, ifm, ofm, ifm_shape, ofm.shape,
                        kernel=Kernel(kw, kh, stride_x, stride_y, dil_x, dil_y), activation=activation,
                        weights=hwio, tflite_index=index))

    def lower_depthwise_conv_2d(self, op: Operation, index: int) -> None:
        ofm = self.tensor(op.results[0])
        ifm = self.tensor(op.operands[0])
        filt = _const_array(op.operands[1]).astype(np.int16)  # 1 x H x W x C
        hwio = np.transpose(filt - _zero_points(op.operands[1]).reshape(1, 1, 1, -1), (1, 2, 0, 3))
        stride_x = 1 if ofm.shape.width == 1 else op.stride_w
        stride_y = 1 if ofm.shape.height == 1 else op.stride_h
        self.add(VelaOp(_name(op), "DEPTHWISE_CONV_2D", OpKind.DEPTHWISE_CONV2D, ifm, ofm, ifm.shape, ofm.shape,
                        kernel=Kernel(hwio.shape[1], hwio.shape[0], stride_x, stride_y, op.dilation_w_factor,
                                      op.dilation_h_factor),
                        activation=_activation(op), weights=hwio,
                        tflite_index=index))

    def lower_fully_connected(self, op: Operation, index: int) -> None:
        ofm = self.tensor(op.results[0])
        ifm = self.tensor(op.operands[0])
        weights = _const_array(op.operands[1]).astype(np.int16) - _zero_points(op.operands[1])[:, None]
        inputs = weights.shape[1]
        ifm_shape = Shape4(ifm.shape.elements() // inputs, 1, 1, inputs)
        ofm_shape = Shape4(1, 1, 1, ofm.shape.depth)
        self.add(VelaOp(_name(op), "FULLY_CONNECTED", OpKind.VECTOR_PRODUCT, ifm, ofm, ifm_shape, ofm_shape,
                        activation=_activation(op),
                        weights=weights.T[None, None, :, :], tflite_index=index))

    def _pool(self, op: Operation, index: int, kind: OpKind, tflite: str) -> None:
        ofm = self.tensor(op.results[0])
        ifm = self.tensor(op.operands[0])
        kw, kh, sx, sy = op.filter_width, op.filter_height, op.stride_w, op.stride_h
        if kw == sx == ifm.shape.width and kh == sy == ifm.shape.height:
            sx = sy = 1
        activation = _activation(op)
        if kind is OpKind.AVG_POOL and sx > 3:
            hwio = np.ones((kh, kw, 1, ofm.shape.depth), np.int16)
            self._conv(_name(op) + "_conv2d", tflite, ifm, ofm, ifm.shape, hwio, sx, sy, 1, 1, op.padding,
                       activation, index)
            return
        self.add(VelaOp(_name(op), tflite, kind, ifm, ofm, ifm.shape, ofm.shape, kernel=Kernel(kw, kh, sx, sy),
                        activation=activation, tflite_index=index))

    def lower_average_pool_2d(self, op: Operation, index: int) -> None:
        self._pool(op, index, OpKind.AVG_POOL, "AVERAGE_POOL_2D")

    def lower_max_pool_2d(self, op: Operation, index: int) -> None:
        self._pool(op, index, OpKind.MAX_POOL, "MAX_POOL_2D")

    def lower_elementwise(self, op: Operation, index: int) -> None:
        lhs, rhs = self.tensor(op.operands[0]), self.tensor(op.operands[1])
        ofm = self.tensor(op.results[0])
        activation = _activation(op)
        self.add(VelaOp(_name(op), op.name.split(".")[1].upper(), OpKind.ELEMENTWISE_BINARY, lhs, ofm, lhs.shape,
                        ofm.shape, rhs, rhs.shape, elementwise=ELEMENTWISE[op.name], activation=activation,
                        tflite_index=index))

    def lower_softmax(self, op: Operation, index: int) -> None:
        ifm = self.tensor(op.operands[0])
        ofm = self.tensor(op.results[0])
        ops = lower_softmax(_name(op), ifm, ofm, ifm.shape, index)
        self.graph.ops.extend(ops)
        self.graph.groups[ops[-1]] = ops

    def lower_mean(self, op: Operation, index: int) -> None:
        ifm = self.tensor(op.operands[0])
        ofm = self.tensor(op.results[0])
        axes = sorted(int(a) % 4 for a in np.atleast_1d(_const_array(op.operands[1])))
        shape = ifm.shape
        if axes != [1, 2] or shape.height > 64 or shape.elements_wh() > 4096:
            self.graph.cpu_ops.append("tfl.mean (unsupported shape in the benchmark)")
            return
        sums = Shape4(1, 1, 1, shape.depth)
        name = _name(op)
        acc = Tensor(name + "_conv_sum_0", sums, 32)
        # Vela clones the op with suffix f"{name}_conv_0", so the name appears twice.
        conv = self.add(VelaOp(name + name + "_conv_0", "MEAN", OpKind.DEPTHWISE_CONV2D, ifm, acc, shape, sums,
                               kernel=Kernel(shape.width, shape.height),
                               weights=np.ones((shape.height, shape.width, 1, shape.depth), np.int16),
                               tflite_index=index))
        scale = Tensor(name + "_mul_scalar", Shape4(1, 1, 1, 1), 32, const=True)
        mul = self.add(VelaOp(name + "_mul", "MEAN", OpKind.ELEMENTWISE_BINARY, acc, ofm, sums, sums, scale,
                              scale.shape, elementwise="mul", tflite_index=index))
        self.graph.groups[mul] = [conv, mul]


def _activation(op: Operation) -> str:
    """The fused activation of ``op`` (none for ops without the attribute)."""
    attr = op.attr("fused_activation_function")
    return ACTIVATIONS.get(getattr(attr, "value", "NONE"), "none") if attr is not None else "none"


def _needed_padding(size: int, stride: int, kernel: int) -> int:
    if size % stride == 0:
        return max(kernel - stride, 0)
    return max(kernel - size % stride, 0)


def _resize_factor(width: int, stride: int) -> tuple[int, int]:
    factor = stride
    if width % factor != 0:
        candidates = [s for s in (2, 3) if factor % s == 0 and width % (stride // s) == 0]
        new = factor // (candidates[0] if candidates else 1)
        factor = new if factor != new else 1
    return factor, stride // factor


def _fixup_strided_conv(ifm: Shape4, hwio: np.ndarray, stride_x: int, padding: str,
                        index: int) -> tuple[Shape4, np.ndarray, int]:
    """Fold width stride into depth: Vela's ``fixup_strided_conv`` for the first op of the
    network (or any width stride >= 4)."""
    if index != 0 and stride_x < 4:
        return ifm, hwio, stride_x
    factor, final = _resize_factor(ifm.width, stride_x)
    if not (stride_x > 1 and (ifm.depth * factor <= 8 or stride_x > 3) and factor != 1):
        return ifm, hwio, stride_x
    kw = hwio.shape[1]
    current = _needed_padding(ifm.width, stride_x, kw)
    left = right = size = 0
    if padding == "SAME":
        expected = current + (final if ifm.width % stride_x == 0 else (ifm.width // factor) % final)
        size = expected * factor - kw
        left = size // 2 if current == 0 else size // current * (current // 2)
        right = size - left
    if kw % factor != 0 and (size == 0 or current == 0):
        left, right = 0, factor - kw % factor
    if padding == "SAME" and current != _needed_padding(ifm.width // factor, final, (kw + 1 + left + right) // factor):
        return ifm, hwio, stride_x
    padded = np.pad(hwio, ((0, 0), (left, right), (0, 0), (0, 0)))
    h, w, i, o = padded.shape
    return (Shape4(ifm.batch, ifm.height, ifm.width // factor, ifm.depth * factor),
            padded.reshape(h, w // factor, i * factor, o), final)


def _swap_constant_first_operand(op: VelaOp) -> None:
    """A binary elementwise op whose first operand is a constant reads the other one as its IFM
    (Vela's scheduler swaps them so the feature map can be cascaded)."""
    if op.kind is not OpKind.ELEMENTWISE_BINARY or op.ifm2 is None:
        return
    ifm2_primary = not (op.ifm2.const or op.ifm2.shape != op.ofm.shape)
    if op.ifm.const and ifm2_primary:
        op.ifm, op.ifm2 = op.ifm2, op.ifm
        op.ifm_shape, op.ifm2_shape = op.ifm2_shape, op.ifm_shape
        op.reversed_operands = True


def lower_module(module: Operation) -> LoweredGraph:
    """The Vela operations of the module's first function."""
    for op in module.walk():
        if op.name == "func.func":
            return _Lowerer(op).run()
    raise ValueError("the module has no function")


__all__ = ["LoweredGraph", "lower_module"]
