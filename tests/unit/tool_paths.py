"""Where the tests find a console script (filecheck, xdsl-opt): beside the Python running them
first, then beside its base interpreter, then on PATH. A version manager's shim on PATH (pyenv's
is a bash script running ``pyenv exec``) costs ~0.13 s of CPU per call; tests/lit/lit.cfg.py
looks in the same places."""
from __future__ import annotations

import os
import shutil
import sys
import sysconfig


def which_tool(name: str) -> str | None:
    """The path of console script ``name``, or None when it is not installed."""
    scripts = sysconfig.get_path("scripts")
    base = sysconfig.get_path("scripts", vars={"base": sys.base_prefix, "platbase": sys.base_exec_prefix})
    places = [place for place in (scripts, base) if place]
    return (shutil.which(name, path=os.pathsep.join(places)) if places else None) or shutil.which(name)
