"""What the scripts that run Vela to make test data share: finding the ``vela`` executable, and
writing (or checking) the files they make."""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

CONFIGS: dict[str, tuple[str, str, str]] = {
    "u55-128": ("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram"),
    "u65-256": ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram"),
}
"""Config name -> (accelerator, system config, memory mode) of the Vela outputs the tests keep."""


def find_vela(name: str = "vela", script: str = "error") -> str | None:
    """The path of the ``vela`` executable ``name``, or None after printing (prefixed ``script``)
    that it is not installed."""
    found = shutil.which(name)
    if found is None:
        print(f"{script}: '{name}' is not on PATH (pip install ethos-u-vela==5.2.0)", file=sys.stderr)
    return found


def script_arguments(doc: str) -> argparse.Namespace:
    """The command line every such script takes: ``--check`` and ``--vela``."""
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed files instead")
    parser.add_argument("--vela", default="vela", help="the vela executable")
    return parser.parse_args()


def vela_tflite(vela: str, flags: tuple[str, ...], config: str, model: Path, work: Path) -> bytes | str:
    """Vela's .tflite of ``model`` with ``flags`` on ``config`` (a CONFIGS name), compiled in a
    folder of ``work``; or the last line Vela printed when it fails."""
    accel, system, mode = CONFIGS[config]
    out = work / f"{model.stem}-{config}"
    done = subprocess.run([vela, *flags, "--accelerator-config", accel, "--system-config", system,
                           "--memory-mode", mode, "--output-dir", str(out), str(model)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        lines = [line for line in (done.stderr or done.stdout).splitlines() if line.strip()]
        return lines[-1] if lines else f"exit {done.returncode}"
    return (out / f"{model.stem}_vela.tflite").read_bytes()


def write_or_check(outputs: dict[str, bytes], here: Path, check: bool) -> int:
    """Write each of ``outputs`` (file name -> bytes) into ``here``; with ``check``, write nothing
    and name each file that differs from what the script made. The exit status: 1 when any differs."""
    if check:
        stale = [name for name, data in outputs.items()
                 if not (here / name).exists() or (here / name).read_bytes() != data]
        for name in stale:
            print(f"differs: {name}")
        return 1 if stale else 0
    for name, data in outputs.items():
        (here / name).write_bytes(data)
    print(f"wrote {len(outputs)} files to {here.relative_to(here.parents[3])}")
    return 0
