"""What the scripts that run Vela to make test data share: finding the ``vela`` executable."""
from __future__ import annotations

import shutil
import sys


def find_vela(name: str = "vela", script: str = "error") -> str | None:
    """The path of the ``vela`` executable ``name``, or None after printing (prefixed ``script``)
    that it is not installed."""
    found = shutil.which(name)
    if found is None:
        print(f"{script}: '{name}' is not on PATH (pip install ethos-u-vela==5.2.0)", file=sys.stderr)
    return found
