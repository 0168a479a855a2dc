"""Run Vela 5.2 on the tests/data models and keep each ``ethos-u`` operator's command stream.

    python tests/data/ethosu/make_streams.py                     # every model x every config
    python tests/data/ethosu/make_streams.py --configs u65-512   # the two-core U65 only
    python tests/data/ethosu/make_streams.py --models conv,int16
    python tests/data/ethosu/make_streams.py --optimise Size --models kernels,branches   # into <config>/size/

For each model and config, Vela compiles the model (``vela --config Arm/vela.ini
--accelerator-config A --system-config S --memory-mode M --debug-force-legacy-core``: the
legacy core's register_command_stream_generator is the reference of the encoder's order) and
this script reads the optimised .tflite it writes: the first input of each ``ethos-u`` custom
operator is the driver payload (a ``COP1`` header, the NPU's config, then the command stream).
The stream's 32-bit words are saved, little-endian and without the
header, as ``<config>/<model>_<n>.bin`` (n counts the model's ``ethos-u`` operators); the
manifest records the Vela version, the command lines and each model's SHA-256. The tests read
only the committed .bin files.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # (tests/data: vela_cli)
from vela_cli import find_vela  # noqa: E402

HERE = Path(__file__).resolve().parent
DATA = HERE.parent

CONFIGS: dict[str, tuple[str, ...]] = {
    "u55-128": ("--accelerator-config", "ethos-u55-128", "--system-config", "Ethos_U55_High_End_Embedded",
                "--memory-mode", "Shared_Sram", "--debug-force-legacy-core"),
    "u65-256": ("--accelerator-config", "ethos-u65-256", "--system-config", "Ethos_U65_High_End",
                "--memory-mode", "Dedicated_Sram", "--debug-force-legacy-core"),
    "u65-512": ("--accelerator-config", "ethos-u65-512", "--system-config", "Ethos_U65_High_End",
                "--memory-mode", "Dedicated_Sram", "--debug-force-legacy-core"),
}
"""Config directory -> the flags that select it."""

MODELS: tuple[str, ...] = (
    "conv", "elementwise", "int16", "dilation", "stride3", "odd_channels", "weight_stream", "classifier",
    "branches", "two_outputs", "cpu_middle", "data_movement", "kernels", "int16_elementwise",
    "resize_bilinear", "wide_batch", "fire",
)
"""Models Vela maps at least partly to the NPU (as in tests/data/vela/make_reports.py)."""

COMMAND_STREAM_TAG = 0x02
NOP_TAG = 0x05
CONFIG_TAG = 0x01


def stream_of_payload(payload: bytes) -> bytes:
    """The command stream inside a Vela driver payload: after the ``COP1`` fourcc, driver actions
    (a config with two words, NOPs) until the command-stream tag, whose length (in words) is its
    upper 16 bits and its bits 8-15 as bits 16-23."""
    words = struct.unpack(f"<{len(payload) // 4}I", payload)
    if payload[:4] != b"COP1":
        raise ValueError(f"the payload starts with {payload[:4]!r}, not COP1")
    index = 1
    while index < len(words):
        tag = words[index]
        kind = tag & 0xFF
        if kind == COMMAND_STREAM_TAG:
            length = (tag >> 16) | ((tag >> 8) & 0xFF) << 16
            stream = words[index + 1:index + 1 + length]
            if len(stream) != length:
                raise ValueError(f"the command stream tag says {length} words, the payload has {len(stream)}")
            return struct.pack(f"<{length}I", *stream)
        index += 3 if kind == CONFIG_TAG else 1
        if kind not in (CONFIG_TAG, NOP_TAG):
            raise ValueError(f"unexpected driver action 0x{kind:02x} in the payload")
    raise ValueError("the payload holds no command stream")


def ethos_u_payloads(path: Path) -> list[bytes]:
    """The first input's bytes of each ``ethos-u`` custom operator of a .tflite, in order."""
    from ethosu.vela.tflite.Model import Model

    model = Model.GetRootAsModel(path.read_bytes(), 0)
    payloads = []
    for g in range(model.SubgraphsLength()):
        graph = model.Subgraphs(g)
        for o in range(graph.OperatorsLength()):
            op = graph.Operators(o)
            code = model.OperatorCodes(op.OpcodeIndex())
            if code.CustomCode() != b"ethos-u":
                continue
            tensor = graph.Tensors(op.Inputs(0))
            payloads.append(model.Buffers(tensor.Buffer()).DataAsNumpy().tobytes())
    return payloads


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", default=",".join(MODELS), help="comma-separated model names")
    parser.add_argument("--configs", default=",".join(CONFIGS), help="comma-separated config names")
    parser.add_argument("--vela", default="vela", help="the vela executable")
    parser.add_argument("--optimise", choices=("Performance", "Size"), default="Performance",
                        help="Vela's strategy (Size streams go to <config>/size/)")
    args = parser.parse_args(argv)
    strategy = ("--optimise", args.optimise)
    subfolder = "size" if args.optimise == "Size" else ""
    vela = find_vela(args.vela, "make_streams.py")
    if vela is None:
        return 1
    models = [m.strip() for m in args.models.split(",") if m.strip()]
    configs = {name: CONFIGS[name] for name in (c.strip() for c in args.configs.split(",")) if name}
    manifest_path = HERE / "manifest.json"
    manifest = json.loads(manifest_path.read_text(encoding="utf-8")) if manifest_path.exists() else {}
    manifest["vela"] = subprocess.run([vela, "--version"], capture_output=True, text=True).stdout.strip()
    manifest.setdefault("configs", {}).update(
        {f"{name}/{subfolder}".rstrip("/"): ["vela", "--config", "Arm/vela.ini", *flags, *strategy, "MODEL"]
         for name, flags in configs.items()})
    manifest.setdefault("models", {})
    with tempfile.TemporaryDirectory(prefix="vela-streams-") as tmp:
        for name in models:
            model = DATA / f"{name}.tflite"
            if not model.exists():
                print(f"error: no model tests/data/{name}.tflite", file=sys.stderr)
                return 1
            for config, flags in configs.items():
                out = Path(tmp) / config
                done = subprocess.run([vela, "--config", "Arm/vela.ini", *flags, *strategy, "--output-dir", str(out),
                                       str(model)], capture_output=True, text=True)
                if done.returncode != 0:
                    print(f"error: vela failed on {name} ({config}):\n{done.stderr}", file=sys.stderr)
                    return 1
                folder = HERE / config / subfolder
                folder.mkdir(parents=True, exist_ok=True)
                for stale in folder.glob(f"{name}_*.bin"):
                    stale.unlink()
                payloads = ethos_u_payloads(out / f"{name}_vela.tflite")
                for index, payload in enumerate(payloads):
                    (folder / f"{name}_{index}.bin").write_bytes(stream_of_payload(payload))
                print(f"{name} ({config}): {len(payloads)} command stream(s)")
            manifest["models"][name] = sha256(model)
    manifest["models"] = dict(sorted(manifest["models"].items()))
    manifest_path.write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
