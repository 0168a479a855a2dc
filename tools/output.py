"""Writing results: atomically to a file (never a partial file), or to stdout."""
from __future__ import annotations

import os
import sys
import tempfile

from ir.diagnostics import UserError


def write_output(path: str, text: str) -> None:
    """Write ``text`` to ``path`` via a temporary file and rename, so failure leaves no file."""
    if path == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    directory = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix=".npu-opt-", suffix=".tmp", dir=directory)
    except OSError as err:
        raise UserError(f"cannot write '{path}': {err.strerror}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def read_input(path: str) -> tuple[str, bytes]:
    """Return (display name, raw bytes) of the input."""
    if path == "-":
        return "<stdin>", sys.stdin.buffer.read()
    try:
        with open(path, "rb") as stream:
            return path, stream.read()
    except OSError as err:
        raise UserError(f"cannot open input file '{path}': {err.strerror}") from None


def decode_utf8(name: str, data: bytes) -> str:
    """Decode ``data``; a non-UTF-8 byte is a located error."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        from ir.location import FileLineColLoc
        line = data.count(b"\n", 0, err.start) + 1
        col = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        raise UserError(f"input is not valid UTF-8 (byte 0x{data[err.start]:02x})",
                        FileLineColLoc(name, line, col)) from None
