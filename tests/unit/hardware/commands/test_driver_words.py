"""hardware/commands/driver_words.py: the CONFIG and ID words equal those Vela 5.2 writes in its
driver payloads, on every accelerator, and those of the compiled test models."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from npu_opt.hardware.accelerators import ACCELERATORS, accelerator
from npu_opt.hardware.commands.driver_words import config_word, id_word

COMPILED = Path(__file__).resolve().parents[3] / "data" / "vela" / "compiled"


@pytest.mark.parametrize("name", sorted(ACCELERATORS))
def test_the_words_are_those_of_vela_s_driver_payload(name: str) -> None:
    api = pytest.importorskip("ethosu.vela.api")
    member = getattr(api.NpuAccelerator, "Ethos_U" + name.removeprefix("ethos-u").replace("-", "_"))
    payload = np.frombuffer(api.npu_create_driver_payload([0], member), "<u4")
    assert payload[0] == int.from_bytes(b"COP1", "little")
    assert (int(payload[2]), int(payload[3])) == (config_word(accelerator(name)), id_word())


def test_the_compiled_models_carry_them() -> None:
    from npu_opt.dialects.tfl.tflite.ethosu_reader import read_compiled
    for path, name in (("conv.u55-128.legacy.tflite", "ethos-u55-128"),
                       ("conv.u65-256.legacy.tflite", "ethos-u65-256")):
        header = read_compiled((COMPILED / path).read_bytes()).ethos_u()[0].header
        assert (header.config_word, header.id_word) == (config_word(accelerator(name)), id_word())
