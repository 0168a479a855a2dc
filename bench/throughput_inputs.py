"""The generated inputs of bench/ir_throughput.py: NPU-like, pure and blob modules (fixed seeds)."""
from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

SEED = 20240601


# ---------------------------------------------------------------------------------------------
# Input generation
# ---------------------------------------------------------------------------------------------

SHAPES = ("1x16x16x32xi8", "1x8x8x64xi8", "1x32x32x16xi8", "1x4x4x128xi8")
STRIDES = ("[1 : i32, 1 : i32]", "[2 : i32, 2 : i32]", "[1 : i32, 2 : i32]")


def _npu_properties(name: str, rng: random.Random) -> str:
    """The ``<{...}>`` text for one op, keys in the order npu-opt prints them (as written)."""
    engine = f"engine = {rng.randrange(4)} : i64"
    tile = f'tile = "t{rng.randrange(16)}"'
    if name in ("nn.conv", "nn.depthwise"):
        kernel = rng.choice((1, 3, 5))
        return (f"{engine}, kernel = [{kernel} : i32, {kernel} : i32], "
                f"stride = {rng.choice(STRIDES)}, {tile}")
    if name == "nn.pool":
        mode = rng.choice(('"max"', '"avg"'))
        return f"{engine}, mode = {mode}, stride = {rng.choice(STRIDES)}, {tile}"
    if name == "nn.matmul":
        return f"{engine}, {tile}, transpose_b = {rng.choice(('true', 'false'))}"
    # nn.add, nn.mul: rounding and a zero point
    return f"{engine}, rounding = {rng.choice(('0', '1'))} : i32, {tile}, zp = {rng.randrange(-8, 8)} : i8"


def npu_module_text(num_ops: int, seed: int = SEED, distinct: bool = False) -> str:
    """``num_ops`` NPU-like generic ops in one function; every value (and argument) is used.

    Each op draws a shape lane; its first operand is the oldest not-yet-used value of that lane
    (so nothing stays unused for long), its second a random recent value of the lane. The values
    still unused at the end are returned. With ``distinct``, each op's ``tile`` names the op, so no
    two ops spell their attributes the same way (the parser's per-text cache never hits).
    """
    rng = random.Random(seed)
    names = ("nn.conv", "nn.depthwise", "nn.add", "nn.mul", "nn.pool", "nn.matmul")
    weights = (5, 2, 3, 2, 2, 1)
    types = [f"tensor<{shape}>" for shape in SHAPES]
    unused: list[list[str]] = [[f"%arg{i}"] for i in range(len(types))]
    recent: list[list[str]] = [[f"%arg{i}"] for i in range(len(types))]
    lines = []
    for number in range(num_ops):
        lane = rng.randrange(len(types))
        type_ = types[lane]
        first = unused[lane].pop(0) if unused[lane] else rng.choice(recent[lane])
        second = rng.choice(recent[lane])
        name = rng.choices(names, weights)[0]
        props = _npu_properties(name, rng)
        if distinct:
            props = re.sub(r'tile = "t[0-9]+"', f'tile = "op{number}"', props)
        attrs = f" {{group = {rng.randrange(64)} : i64}}" if rng.random() < 0.25 else ""
        lines.append(f'    %{number} = "{name}"({first}, {second}) <{{{props}}}>{attrs} : '
                     f"({type_}, {type_}) -> {type_}\n")
        value = f"%{number}"
        unused[lane].append(value)
        recent[lane].append(value)
        if len(recent[lane]) > 8:
            del recent[lane][0]
    returned = [(value, types[lane]) for lane in range(len(types)) for value in unused[lane]]
    args = ", ".join(f"%arg{i}: {t}" for i, t in enumerate(types))
    results = ", ".join(t for _, t in returned)
    return ("module {\n"
            f"  func.func @main({args}) -> ({results}) {{\n"
            + "".join(lines)
            + f"    return {', '.join(v for v, _ in returned)} : {results}\n"
            "  }\n"
            "}\n")


def pure_module_text(num_ops: int, seed: int = SEED + 1) -> str:
    """Pure registered ops for cse/dce: ~10% exact duplicates of a recent op, ~10% dead ops."""
    rng = random.Random(seed)
    recent_ops: list[tuple[str, str, str]] = []
    live = ["%arg0", "%arg1", "%arg2", "%arg3"]
    unused = list(live)
    lines = []
    for number in range(num_ops):
        roll = rng.random()
        if roll < 0.10 and recent_ops:
            name, a, b = rng.choice(recent_ops)           # a duplicate: cse merges it
        else:
            name = rng.choice(("test.addi", "test.muli"))
            a = unused.pop(0) if unused else rng.choice(live)
            b = rng.choice(live)
            recent_ops.append((name, a, b))
            if len(recent_ops) > 16:
                del recent_ops[0]
        lines.append(f'    %{number} = "{name}"({a}, {b}) : (i32, i32) -> i32\n')
        if 0.10 <= roll < 0.20:
            continue                                     # never used: dce erases it
        unused.append(f"%{number}")
        live.append(f"%{number}")
        if len(live) > 12:
            del live[0]
    returned = unused or [live[-1]]
    return ("module {\n"
            "  func.func @main(%arg0: i32, %arg1: i32, %arg2: i32, %arg3: i32) -> ("
            + ", ".join("i32" for _ in returned) + ") {\n"
            + "".join(lines)
            + f"    return {', '.join(returned)} : {', '.join('i32' for _ in returned)}\n"
            "  }\n"
            "}\n")


def write_blob_module(path: Path, nbytes: int, seed: int = SEED + 2) -> None:
    data = random.Random(seed).randbytes(nbytes)
    type_ = f"tensor<{nbytes}xi8>"
    with open(path, "w", encoding="utf-8") as stream:
        stream.write("module {\n"
                     f"  func.func @main() -> {type_} {{\n"
                     f'    %0 = "nn.const"() <{{value = dense_resource<w> : {type_}}}> : () -> {type_}\n'
                     f"    return %0 : {type_}\n"
                     "  }\n"
                     "}\n"
                     "{-#\n  dialect_resources: {\n    builtin: {\n      w: \"0x04000000")
        stream.write(data.hex())
        stream.write('"\n    }\n  }\n#-}\n')


def worker_generate(directory: str, num_ops: int, quick_ops: int, distinct_ops: int,
                    blob_bytes: int) -> dict[str, Any]:
    """Write every input into ``directory`` (in a child, so the driver process stays small: a
    child's peak RSS starts from its parent's at fork)."""
    work = Path(directory)
    big_text = npu_module_text(num_ops)
    (work / "big.mlir").write_text(big_text, encoding="utf-8")
    out: dict[str, Any] = {"distinct_dicts": {
        "properties": len(set(re.findall(r"<\{.*?\}> ", big_text))),
        "attributes": len(set(re.findall(r"\}> (\{.*?\}) : ", big_text))),
        "ops_with_attributes": len(re.findall(r"\}> (\{.*?\}) : ", big_text)),
    }}
    del big_text
    (work / "small.mlir").write_text(npu_module_text(quick_ops), encoding="utf-8")
    (work / "distinct.mlir").write_text(npu_module_text(distinct_ops, distinct=True), encoding="utf-8")
    (work / "pure.mlir").write_text(pure_module_text(num_ops), encoding="utf-8")
    (work / "empty.mlir").write_text("module {\n}\n", encoding="utf-8")
    write_blob_module(work / "blob.mlir", blob_bytes)
    out["sizes"] = {p.name: p.stat().st_size for p in sorted(work.glob("*.mlir"))}
    return out
