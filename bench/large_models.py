"""Five ImageNet-sized int8 models, seeded and written by npu-opt's own exporter (not committed: large).

    python bench/large_models.py [--out DIR] [NAME ...]    # default DIR: bench/large_models/ (git-ignored)

ResNet-50 (224x224), EfficientNet-B0 (224x224, squeeze-excite blocks and swish), MobileNetV2-1.0
(224x224), YOLO-tiny (v3-tiny, 416x416: conv + leaky relu + max pool, two heads, upsample and
concatenation) and U-Net (256x256, an encoder and a decoder with transpose convolutions and
concatenated skips). Their shapes are the published networks'; weights come from a generator
seeded by the file name, so every file is the same byte for byte on every run. They use only ops
Vela 5.2 runs on the NPU. bench/schedule_fidelity.py builds them on the fly (``build``).
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Callable

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "data"))

import make_models as mm  # noqa: E402  (the tests' MLIR-text builder and the exporter it calls)

Value = tuple[str, str]
SAME, VALID = "SAME", "VALID"


class Net:
    """One function under construction: ops named ``<prefix>_<n>``, scales kept simple (int8, zero
    point 0, per-channel weights) as a scheduler sees only shapes and types."""

    def __init__(self, name: str, shape: tuple[int, ...], rng: np.random.Generator) -> None:
        self.f = mm.Func("main", [("input", mm.t(shape, mm.q8(0.0625)))], rng)
        self.x: Value = ("%arg0", mm.t(shape, mm.q8(0.0625)))
        self.prefix = name
        self.n = 0

    def name(self, kind: str) -> str:
        self.n += 1
        return f"{self.prefix}_{kind}_{self.n}"

    @staticmethod
    def shape(v: Value) -> tuple[int, ...]:
        dims = re.match(r"tensor<((?:\d+x)+)", v[1])
        assert dims is not None, v[1]
        return tuple(int(d) for d in dims.group(1).split("x")[:-1])

    def conv(self, x: Value, cout: int, k: int = 1, stride: int = 1, act: str = "NONE",
             depthwise: bool = False, padding: str = SAME) -> Value:
        n, h, w, cin = self.shape(x)
        if padding == SAME:
            oh, ow = -(-h // stride), -(-w // stride)
        else:
            oh, ow = (h - k) // stride + 1, (w - k) // stride + 1
        if depthwise:
            cout = cin
        return mm._conv(self.f, x, mm.t((n, oh, ow, cout), mm.q8(0.125)), (k, k), (cin, cout), 0.0625,
                        self.name("dwconv" if depthwise else "conv"), stride=(stride, stride), act=act,
                        depthwise=depthwise, padding=padding)

    def pool(self, x: Value, kind: str, size: int, stride: int, padding: str) -> Value:
        n, h, w, c = self.shape(x)
        if padding == SAME:
            oh, ow = -(-h // stride), -(-w // stride)
        else:
            oh, ow = (h - size) // stride + 1, (w - size) // stride + 1
        return mm._pool(self.f, kind, x, mm.t((n, oh, ow, c), mm.q8(0.125)), size, stride, padding,
                        self.name(f"{kind}pool"))

    def unary(self, op: str, x: Value, elem: str, props: str = "") -> Value:
        return self.f.op(f"tfl.{op}", [x], [mm.t(self.shape(x), elem)], props, self.name(op))[0]

    def binary(self, op: str, a: Value, b: Value, act: str = "NONE") -> Value:
        shape = max(self.shape(a), self.shape(b))
        return self.f.op(f"tfl.{op}", [a, b], [mm.t(shape, mm.q8(0.125))], f'fused_activation_function = "{act}"',
                         self.name(op))[0]

    def swish(self, x: Value) -> Value:
        """x * logistic(x), as TFLite writes a swish (SiLU)."""
        return self.binary("mul", x, self.unary("logistic", x, mm.q8(0.00390625, -128)))

    def mean(self, x: Value, keep_dims: bool) -> Value:
        n, _, _, c = self.shape(x)
        out = (n, 1, 1, c) if keep_dims else (n, c)
        return self.f.op("tfl.mean", [x, self.f.i32([1, 2])], [mm.t(out, mm.q8(0.125))],
                         f"keep_dims = {'true' if keep_dims else 'false'}", self.name("mean"))[0]

    def dense_softmax(self, x: Value, classes: int) -> Value:
        """A flattened feature vector to ``classes`` logits and their softmax."""
        n, size = self.shape(x)
        logits = mm._dense(self.f, x, mm.t((n, classes), mm.q8(0.25)), size, classes, 0.125, self.name("dense"))
        return self.f.op("tfl.softmax", [logits], [mm.t((n, classes), mm.q8(0.00390625, -128))], "beta = 1.0 : f32",
                         self.name("softmax"))[0]

    def concat(self, parts: list[Value]) -> Value:
        n, h, w, _ = self.shape(parts[0])
        c = sum(self.shape(p)[3] for p in parts)
        return self.f.op("tfl.concatenation", parts, [mm.t((n, h, w, c), mm.q8(0.125))],
                         'axis = 3 : i32, fused_activation_function = "NONE"', self.name("concat"))[0]

    def text(self, outputs: list[Value]) -> str:
        return mm.module(self.f.text(outputs))


def resnet50(rng: np.random.Generator) -> str:
    """ResNet-50 v1: 7x7/2 stem, 3x3/2 max pool, bottleneck stages of 3, 4, 6 and 3 blocks (stride on
    the first 1x1, as Keras builds it), projection shortcuts, mean, dense 1000, softmax."""
    net = Net("resnet50", (1, 224, 224, 3), rng)
    x = net.conv(net.x, 64, 7, 2, "RELU")
    x = net.pool(x, "max", 3, 2, SAME)
    for stage, (width, blocks) in enumerate(((64, 3), (128, 4), (256, 6), (512, 3))):
        for block in range(blocks):
            stride = 2 if block == 0 and stage > 0 else 1
            shortcut = net.conv(x, width * 4, 1, stride) if block == 0 else x
            y = net.conv(x, width, 1, stride, "RELU")
            y = net.conv(y, width, 3, 1, "RELU")
            y = net.conv(y, width * 4, 1)
            x = net.binary("add", y, shortcut, "RELU")
    return net.text([net.dense_softmax(net.mean(x, False), 1000)])


def efficientnet_b0(rng: np.random.Generator) -> str:
    """EfficientNet-B0: swish activations and MBConv blocks with squeeze-excite (global mean, two 1x1
    convolutions, logistic, broadcast multiply), residual adds where shapes allow."""
    net = Net("efficientnet_b0", (1, 224, 224, 3), rng)
    x = net.swish(net.conv(net.x, 32, 3, 2))
    cin = 32
    for expand, cout, repeats, stride, kernel in ((1, 16, 1, 1, 3), (6, 24, 2, 2, 3), (6, 40, 2, 2, 5),
                                                  (6, 80, 3, 2, 3), (6, 112, 3, 1, 5), (6, 192, 4, 2, 5),
                                                  (6, 320, 1, 1, 3)):
        for r in range(repeats):
            s = stride if r == 0 else 1
            y = net.swish(net.conv(x, cin * expand, 1)) if expand != 1 else x
            y = net.swish(net.conv(y, 0, kernel, s, depthwise=True))
            se = net.mean(y, True)
            se = net.swish(net.conv(se, max(1, cin // 4), 1))
            se = net.unary("logistic", net.conv(se, cin * expand, 1), mm.q8(0.00390625, -128))
            y = net.binary("mul", y, se)
            y = net.conv(y, cout, 1)
            x = net.binary("add", y, x) if s == 1 and cin == cout else y
            cin = cout
    x = net.swish(net.conv(x, 1280, 1))
    return net.text([net.dense_softmax(net.mean(x, False), 1000)])


def mobilenet_v2(rng: np.random.Generator) -> str:
    """MobileNetV2 1.0: inverted residual blocks (1x1 expand, 3x3 depthwise, 1x1 project, relu6),
    1280-channel head, 7x7 average pool, dense 1000, softmax."""
    net = Net("mobilenet_v2", (1, 224, 224, 3), rng)
    x = net.conv(net.x, 32, 3, 2, "RELU6")
    cin = 32
    for expand, cout, repeats, stride in ((1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2),
                                          (6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1)):
        for r in range(repeats):
            s = stride if r == 0 else 1
            y = net.conv(x, cin * expand, 1, 1, "RELU6") if expand != 1 else x
            y = net.conv(y, 0, 3, s, "RELU6", depthwise=True)
            y = net.conv(y, cout, 1)
            x = net.binary("add", y, x) if s == 1 and cin == cout else y
            cin = cout
    x = net.conv(x, 1280, 1, 1, "RELU6")
    x = net.pool(x, "average", 7, 1, VALID)
    flat = net.f.op("tfl.reshape", [x, net.f.i32([1, 1280])], [mm.t((1, 1280), mm.q8(0.125))], "",
                    net.name("flatten"))[0]
    return net.text([net.dense_softmax(flat, 1000)])


def yolo_tiny(rng: np.random.Generator) -> str:
    """YOLOv3-tiny at 416x416: 3x3 convolutions with leaky relu and 2x2 max pools down to 13x13, a
    13x13 head, and a 26x26 head from a 2x nearest-neighbour upsample concatenated with the trunk."""
    net = Net("yolo_tiny", (1, 416, 416, 3), rng)

    def leaky(v: Value) -> Value:
        return net.unary("leaky_relu", v, mm.q8(0.125), "alpha = 0.1 : f32")

    x = net.x
    route = x
    for i, c in enumerate((16, 32, 64, 128, 256, 512)):
        x = leaky(net.conv(x, c, 3))
        if c == 256:
            route = x
        x = net.pool(x, "max", 2, 2 if i < 5 else 1, VALID if i < 5 else SAME)
    x = leaky(net.conv(x, 1024, 3))
    trunk = leaky(net.conv(x, 256, 1))
    head1 = net.conv(leaky(net.conv(trunk, 512, 3)), 255, 1)
    y = leaky(net.conv(trunk, 128, 1))
    y = net.f.op("tfl.resize_nearest_neighbor", [y, net.f.i32([26, 26])], [mm.t((1, 26, 26, 128), mm.q8(0.125))],
                 "align_corners = false, half_pixel_centers = false", net.name("upsample"))[0]
    y = net.concat([y, route])
    head2 = net.conv(leaky(net.conv(y, 256, 3)), 255, 1)
    return net.text([head1, head2])


def unet(rng: np.random.Generator) -> str:
    """U-Net at 256x256: four encoder levels (two 3x3 relu convs, 2x2 max pool) of 32 to 256
    channels, a 512-channel bottleneck, decoder levels of a 2x2/2 transpose convolution, a
    concatenation with the skip and two 3x3 relu convs, and a 1x1 conv to 2 classes."""
    net = Net("unet", (1, 256, 256, 3), rng)
    x, skips = net.x, []
    for c in (32, 64, 128, 256):
        x = net.conv(net.conv(x, c, 3, 1, "RELU"), c, 3, 1, "RELU")
        skips.append(x)
        x = net.pool(x, "max", 2, 2, VALID)
    x = net.conv(net.conv(x, 512, 3, 1, "RELU"), 512, 3, 1, "RELU")
    for c, skip in zip((256, 128, 64, 32), reversed(skips)):
        n, h, w, cin = net.shape(x)
        shape = net.f.i32([n, 2 * h, 2 * w, c])
        weights = net.f.weights((c, 2, 2, cin), 0, [0.015625] * c)
        none = net.f.op("tfl.no_value", [], ["none"], "value")[0]
        x = net.f.op("tfl.transpose_conv", [shape, weights, x, none], [mm.t((n, 2 * h, 2 * w, c), mm.q8(0.125))],
                     'fused_activation_function = "NONE", padding = "SAME", stride_h = 2 : i32, stride_w = 2 : i32',
                     net.name("upconv"))[0]
        x = net.concat([x, skip])
        x = net.conv(net.conv(x, c, 3, 1, "RELU"), c, 3, 1, "RELU")
    return net.text([net.conv(x, 2, 1)])


MODELS: dict[str, Callable[[np.random.Generator], str]] = {
    "resnet50_224": resnet50,
    "efficientnet_b0_224": efficientnet_b0,
    "mobilenet_v2_100_224": mobilenet_v2,
    "yolo_tiny_416": yolo_tiny,
    "unet_256": unet,
}
"""Model name -> generator of its MLIR text; each gets a generator seeded by its name."""

DEFAULT_OUT = HERE / "large_models"


def build(name: str) -> bytes:
    """The .tflite bytes of model ``name`` (reproducible: the seed is the name's byte sum)."""
    text = MODELS[name](np.random.default_rng(sum(name.encode())))
    parsed = mm.parse_module(text, f"{name}.mlir")
    if not mm.verify(parsed, mm.DiagnosticEngine()):
        raise SystemExit(f"{name}: the generated IR does not verify")
    return mm.export_tflite(parsed)


def write(out: Path, names: list[str] | None = None) -> dict[str, Path]:
    """Write the models named (default: all) into ``out`` unless an identical file is there; their paths."""
    out.mkdir(parents=True, exist_ok=True)
    paths = {}
    for name in names or list(MODELS):
        path = out / f"{name}.tflite"
        data = build(name)
        if not path.exists() or path.read_bytes() != data:
            path.write_bytes(data)
        paths[name] = path
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("names", nargs="*", metavar="NAME", help=f"models to write (default: all of {', '.join(MODELS)})")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    unknown = [n for n in args.names if n not in MODELS]
    if unknown:
        parser.error(f"no model {', '.join(unknown)} (models: {', '.join(MODELS)})")
    for name, path in write(args.out, args.names or None).items():
        print(f"wrote {path} ({path.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
