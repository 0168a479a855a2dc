"""What the scripts that run Vela to make test data share: finding the ``vela`` executable, and
writing (or checking) the files they make."""
from __future__ import annotations

import shutil
import sys
from pathlib import Path


def find_vela(name: str = "vela", script: str = "error") -> str | None:
    """The path of the ``vela`` executable ``name``, or None after printing (prefixed ``script``)
    that it is not installed."""
    found = shutil.which(name)
    if found is None:
        print(f"{script}: '{name}' is not on PATH (pip install ethos-u-vela==5.2.0)", file=sys.stderr)
    return found


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
