"""Writing results: atomically to a file (never a partial file), or to stdout."""
from __future__ import annotations

import errno
import os
import sys
import tempfile

from npu_opt.ir.diagnostics import UserError


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_output(path: str, content: str | bytes) -> None:
    """Write ``content`` to ``path`` (``-`` is stdout).

    A regular file is written through a temporary file and renamed into place, so a failure
    leaves no partial file; the new file keeps the old one's permissions (or follows the umask).
    Symlinks are followed, and devices or FIFOs (``/dev/null``) are written in place, never replaced.
    """
    data = content.encode("utf-8") if isinstance(content, str) else content
    if path == "-":
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    real = os.path.realpath(path)
    try:
        if os.path.exists(real) and not os.path.isfile(real):
            with open(real, "wb") as stream:
                stream.write(data)
            return
        mode = os.stat(real).st_mode & 0o7777 if os.path.exists(real) else 0o666 & ~_umask()
        fd, tmp = tempfile.mkstemp(prefix=".npu-opt-", suffix=".tmp", dir=os.path.dirname(real))
    except OSError as err:
        raise UserError(f"cannot write '{path}': {err.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as stream:
            stream.write(data)
        os.chmod(tmp, mode)
        os.replace(tmp, real)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def check_output_path(path: str) -> None:
    """Fail early (UserError, worded as a failed write) if ``path`` cannot be written: its
    directory is missing or not writable, or it is a directory. ``-`` (stdout) is always fine."""
    if path == "-":
        return
    real = os.path.realpath(path)
    folder = os.path.dirname(real) or "."
    problem = None
    if os.path.isdir(real):
        problem = errno.EISDIR
    elif not os.path.isdir(folder):
        problem = errno.ENOENT
    elif not os.path.exists(real) and not os.access(folder, os.W_OK | os.X_OK):
        problem = errno.EACCES
    if problem is not None:
        raise UserError(f"cannot write '{path}': {os.strerror(problem)}")


def check_suffix(flag: str, path: str, suffixes: tuple[str, ...], written: str) -> None:
    """Fail early (UserError) if ``path`` names a regular file whose suffix is none of ``suffixes``
    (the forms ``flag`` writes, ``written`` in words), so a name promising another format never
    gets this one. ``-`` and devices (``/dev/null``) have no suffix to keep."""
    if path == "-" or path.lower().endswith(suffixes):
        return
    if os.path.exists(path) and not os.path.isfile(path):  # (symlinks followed: /dev/stdout too)
        return
    names = " or ".join(suffixes)
    raise UserError(f"{flag} '{path}': {written}; give a file name ending in {names}")


def write_binary(path: str, content: bytes, what: str) -> None:
    """Write binary ``content`` (``what``: "a .tflite file", ...) as write_output does, refusing a
    terminal as stdout."""
    if path == "-" and sys.stdout.isatty():
        raise UserError(f"refusing to write {what} to the terminal; give -o FILE")
    write_output(path, content)


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
        from npu_opt.ir.location import FileLineColLoc
        line = data.count(b"\n", 0, err.start) + 1
        col = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        raise UserError(f"input is not valid UTF-8 (byte 0x{data[err.start]:02x})",
                        FileLineColLoc(name, line, col)) from None
