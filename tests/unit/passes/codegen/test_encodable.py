"""An address the NPU cannot be given (outside the address space, a misaligned NHCWB16 base, an
arena offset OfflineMemoryAllocation cannot hold) is one located error at the npu op naming the
register, the value and the limit; no words are written and the CLI writes no file."""
from __future__ import annotations

import re
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest

from npu_opt.passes.codegen.pipeline import CODEGEN_PIPELINE
from npu_opt.tools import api

DATA = Path(__file__).resolve().parents[3] / "data"


@lru_cache(maxsize=None)
def _scheduled_conv() -> str:
    """conv.tflite scheduled for a U55-128 (Performance), as IR text."""
    found = api.load(DATA / "conv.tflite").set_target("ethos-u55-128")
    found.run("schedule{optimise=Performance}")
    return found.text()


def _with_offset(op_name: str, offset: int) -> str:
    """The scheduled IR with the npu.alloc offset of the op named ``op_name`` replaced."""
    lines = _scheduled_conv().split("\n")
    index = next(i for i, line in enumerate(lines) if f'name = "{op_name}"' in line and "npu.alloc" in line)
    lines[index] = re.sub(r"npu\.alloc = #npu\.alloc<Sram, offset = \d+", f"npu.alloc = #npu.alloc<Sram, offset = {offset}",
                          lines[index])
    return "\n".join(lines)


def _codegen_error(text: str) -> str:
    module = api.parse(text, "conv.mlir")
    with pytest.raises(api.NpuOptError) as caught:
        module.run(CODEGEN_PIPELINE)
    return str(caught.value)


def test_an_address_past_the_address_space():
    message = _codegen_error(_with_offset("conv", 1 << 33))
    assert "'npu.conv2d': ofm base0 = 8589934592 cannot be encoded: ethos-u55-128 addresses 0..4294967295" in message


def test_a_misaligned_nhcwb16_base():
    message = _codegen_error(_with_offset("maxpool", 8))
    assert ("'npu.max_pool': ofm base0 = 8 cannot be encoded: a NHCWB16 feature map starts on a multiple "
            "of 16 bytes") in message


def test_an_arena_offset_the_offline_allocation_cannot_hold():
    message = _codegen_error(_with_offset("conv", 3_000_000_000))
    assert ("a feature map the CPU shares at arena offset 3000000000 cannot be written: OfflineMemoryAllocation "
            "holds offsets up to 2147483647") in message


def test_the_cli_reports_it_at_the_op_and_writes_nothing(tmp_path):
    source = tmp_path / "conv.mlir"
    source.write_text(_with_offset("conv", 1 << 33))
    out = tmp_path / "conv_npu.tflite"
    done = subprocess.run([sys.executable, "-m", "npu_opt.tools.npu_opt", str(source), f"--pass={CODEGEN_PIPELINE}",
                           "-o", str(out)], capture_output=True, text=True, check=False)
    assert done.returncode == 1, done.stderr
    errors = [line for line in done.stderr.splitlines() if "error:" in line]
    assert len(errors) == 1 and re.match(rf"{re.escape(str(source))}:\d+:\d+: error: 'npu.conv2d': ofm base0", errors[0])
    assert not out.exists()
