"""Crash reproducers: the input IR with the command-line configuration in a header comment.

``npu-opt --run-reproducer FILE`` reads the configuration back and replays the run.
"""
from __future__ import annotations

import os
import shlex
import tempfile

from npu_opt.tools.target_options import target_flags

HEADER = "// npu-opt crash reproducer; replay with: npu-opt --run-reproducer <this file>\n"
CONFIG_PREFIX = "// configuration: "

# Options that describe how to process the input (the ones a replay needs).
_REPLAYED = ("pipeline", "allow_unregistered_dialect", "verify_each", "split_input_file", "target",
             "config", "system_config", "memory_mode", "arena_cache_size")


def configuration(args: object) -> list[str]:
    """The command-line options of ``args`` that a replay needs."""
    flags: list[str] = []
    for text in getattr(args, "pipeline"):
        flags.append(f"--pass={text}")
    if getattr(args, "allow_unregistered_dialect"):
        flags.append("--allow-unregistered-dialect")
    if not getattr(args, "verify_each"):
        flags.append("--no-verify")
    if getattr(args, "split_input_file"):
        flags.append("--split-input-file")
    flags.extend(target_flags(args))
    return flags


def write_reproducer(args: object, source: str, path: str | None) -> str:
    """Write the reproducer and return its path."""
    # Replaying a reproducer that crashes again writes the same file, not one with two headers.
    if source.startswith(HEADER):
        first, _, rest = source[len(HEADER):].partition("\n")
        if first.startswith(CONFIG_PREFIX):
            source = rest
    text = HEADER + CONFIG_PREFIX + shlex.join(configuration(args)) + "\n" + source
    if path is None:
        fd, path = tempfile.mkstemp(prefix="npu-opt-reproducer-", suffix=".mlir")
        with os.fdopen(fd, "w", encoding="utf-8") as stream:
            stream.write(text)
    else:
        with open(path, "w", encoding="utf-8") as stream:
            stream.write(text)
    return path


def read_configuration(text: str) -> list[str] | None:
    """The recorded flags of a reproducer, or None if ``text`` is not one."""
    for line in text.split("\n", 3)[:3]:
        if line.startswith(CONFIG_PREFIX):
            return shlex.split(line[len(CONFIG_PREFIX):])
    return None


def save_input_copy(input_path: str, path: str | None) -> str:
    """Copy the input file of a crashed npu-translate run to ``path`` (default: a temporary file
    with the same suffix) and return where it went; stdin cannot be re-read, so it is refused."""
    if input_path == "-":
        raise OSError(0, "the input was stdin")
    with open(input_path, "rb") as stream:
        data = stream.read()
    if path is None:
        suffix = os.path.splitext(input_path)[1] or ".mlir"
        fd, path = tempfile.mkstemp(prefix="npu-translate-reproducer-", suffix=suffix)
        os.close(fd)
    with open(path, "wb") as out:
        out.write(data)
    return path
