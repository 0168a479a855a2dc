"""Compile the tests/data models whose Size schedule cascades with Vela 5.2's legacy core and keep
its .tflite outputs: streams whose ops run in interleaved stripes through rolling buffers, which
ethosu-estimate puts back together (tests/unit/passes/test_ethosu_estimate.py).

    python tests/data/vela/cascaded/make_cascaded.py           # write <model>.<config>.tflite
    python tests/data/vela/cascaded/make_cascaded.py --check   # exit 1 if a committed output differs

Each run is ``vela --debug-force-legacy-core --optimise Size`` with the config's accelerator,
system config and memory mode (Vela's built-in Arm/vela.ini). Vela is a tool here, never a
dependency of the tests.
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # (tests/data: vela_cli)
from vela_cli import CONFIGS, find_vela, script_arguments, vela_tflite, write_or_check  # noqa: E402

HERE = Path(__file__).resolve().parent
DATA = HERE.parents[1]
MODELS = ("wide_image", "fire")
"""tests/data models our Size schedule cascades (so does Vela's)."""
FLAGS = ("--debug-force-legacy-core", "--optimise", "Size")


def main() -> int:
    args = script_arguments(__doc__)
    vela = find_vela(args.vela, "make_cascaded.py")
    if vela is None:
        return 1
    outputs: dict[str, bytes] = {}
    with tempfile.TemporaryDirectory() as work:
        for model in MODELS:
            for config in CONFIGS:
                found = vela_tflite(vela, FLAGS, config, DATA / f"{model}.tflite", Path(work))
                if isinstance(found, str):
                    print(f"make_cascaded.py: vela failed on {model} {config}: {found}", file=sys.stderr)
                    return 1
                outputs[f"{model}.{config}.tflite"] = found
    return write_or_check(outputs, HERE, args.check)


if __name__ == "__main__":
    sys.exit(main())
