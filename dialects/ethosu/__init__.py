"""The ethosu dialect: Ethos-U command streams at register level, and their translation to and
from 32-bit command words (``encode``, ``decode``). Design notes: docs/command_stream.md."""
from __future__ import annotations

from npu_opt.dialects.ethosu.attrs import ATTRIBUTES
from npu_opt.dialects.ethosu.dialect import ETHOSU
from npu_opt.dialects.ethosu.interfaces import IssuesCommand
from npu_opt.dialects.ethosu.ops_block import *  # noqa: F401,F403  (registration happens on import)
from npu_opt.dialects.ethosu.ops_stream import *  # noqa: F401,F403

for _class in ATTRIBUTES:
    ETHOSU.declared_attribute(_class)

__all__ = ["ETHOSU", "IssuesCommand"]
