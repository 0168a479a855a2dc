"""Compiled token patterns kept between runs, so a short npu-opt run does not spend its start-up
recompiling the lexer's regular expressions.

Design notes: docs/tools_design.md, section The compiled-pattern cache (regex_cache)."""
from __future__ import annotations

import contextlib
import functools
import hashlib
import marshal
import os
import re
import sys
import tempfile
from typing import Any, Iterable, Iterator

try:  # Python 3.11+
    from re import _compiler as _sre_compile, _parser as _sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - Python 3.10
    import sre_compile as _sre_compile  # type: ignore[no-redef]
    import sre_parse as _sre_parse  # type: ignore[no-redef]
import _sre

Entry = tuple[int, list[int], int, dict[str, int], tuple[Any, ...]]

_OPTIMIZE_CHARSET = getattr(_sre_compile, "_optimize_charset", None)


@contextlib.contextmanager
def shared_charsets() -> Iterator[None]:
    """Within the block, each character class sre optimises is optimised once.

    The parser's patterns spell negated classes as ranges up to U+10FFFF (lexing.faster_classes:
    faster to match), and sre's charset optimiser walks such a range one code point at a time to
    U+FFFF, about 3 ms each; the pieces repeat the same few classes thousands of times, so the
    cold compile took 10-17 s of CPU. The optimiser is a pure function of a case-sensitive class,
    so its result is kept per class here (a copy handed out each time); case-insensitive classes
    and unfamiliar sre versions go through unchanged."""
    original = _OPTIMIZE_CHARSET
    if original is None or getattr(_sre_compile, "_optimize_charset", None) is not original:
        yield  # (another sre, or already shared further up)
        return
    results: dict[tuple, tuple[list, bool]] = {}

    def optimise(charset, iscased=None, fixup=None, fixes=None):  # type: ignore[no-untyped-def]
        if fixup is not None or fixes is not None or iscased is not None:
            return original(charset, iscased, fixup, fixes)
        try:
            key = tuple((op, tuple(av) if isinstance(av, list) else av) for op, av in charset)
            hash(key)
        except TypeError:
            return original(charset, iscased, fixup, fixes)
        found = results.get(key)
        if found is None:
            found = results[key] = original(charset, iscased, fixup, fixes)
        out, hascased = found
        return [(op, list(av) if isinstance(av, list) else av) for op, av in out], hascased

    _sre_compile._optimize_charset = optimise
    try:
        yield
    finally:
        _sre_compile._optimize_charset = original


def compile_shared(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile`` with each character class optimised once (``shared_charsets``), from the
    compiled code kept between runs (``shared_patterns``) when it holds ``pattern``."""
    cache = shared_patterns()
    with shared_charsets():
        compiled = cache.compile(pattern, flags)
        if cache.recording:  # a pattern the file did not hold yet: add it for the next runs
            keys = [*cache.entries, *cache.recording]
            cache.recording.clear()
            cache.save(keys)
    return compiled


@functools.lru_cache(maxsize=1)
def shared_patterns() -> PatternCache:
    """The PatternCache of ``compile_shared``'s patterns (the parser's signature, constant and
    quantised-type matchers, ~30 ms of compiling per process), in the parser's cache directory;
    keyed by interpreter only, as its entries are keyed by the pattern text itself."""
    from npu_opt.ir.lexing import _cache_path

    grammar_cache, path = _cache_path(), None
    if isinstance(grammar_cache, str):
        stamp = hashlib.sha256(f"{sys.version}\0{_sre.MAGIC}\0{sys.implementation.name}".encode()).hexdigest()
        path = os.path.join(os.path.dirname(grammar_cache), f"shared-patterns-{stamp[:20]}.marshal")
    cache = PatternCache(path)
    cache.recording = {}
    return cache
"""What ``_sre.compile`` takes after the pattern: flags, code, groups - 1, groupindex, indexgroup."""


def _compiled_parts(pattern: str, flags: int) -> Entry:
    """Compile ``pattern`` as re.compile does, keeping the pieces ``_sre.compile`` is given."""
    parsed = _sre_parse.parse(pattern, flags)
    code = [int(word) for word in _sre_compile._code(parsed, flags)]
    groupindex = dict(parsed.state.groupdict)
    indexgroup: list[Any] = [None] * parsed.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    return int(flags | parsed.state.flags), code, parsed.state.groups - 1, groupindex, tuple(indexgroup)


class PatternCache:
    """A stand-in for the ``re`` module in lark's lexers (``compile``, ``match``, ``error``):
    patterns are rebuilt from compiled code loaded from ``path`` when it holds them."""

    error = re.error

    def __init__(self, path: str | None) -> None:
        self.path = path
        self.entries: dict[tuple[str, int], Entry] = {}
        self.loaded = False
        self.recording: dict[tuple[str, int], None] | None = None
        self._compiled: dict[tuple[str, int], re.Pattern[str]] = {}
        if path is not None:
            try:
                with open(path, "rb") as stream:
                    self.entries = marshal.loads(stream.read())  # (load() reads in tiny pieces)
                self.loaded = isinstance(self.entries, dict)
            except (OSError, EOFError, ValueError, TypeError):
                self.entries = {}
            if not self.loaded:
                self.entries = {}

    def compile(self, pattern: str, flags: int = 0) -> re.Pattern[str]:
        """The compiled ``pattern``: from this process's table, the file's code, or re.compile."""
        key = (pattern, int(flags))
        compiled = self._compiled.get(key)
        if compiled is not None:
            return compiled
        entry = self.entries.get(key)
        if entry is not None:
            try:
                compiled = _sre.compile(pattern, *entry)
            except (TypeError, ValueError, RuntimeError):  # other sre internals: compile instead
                compiled = None
        if compiled is None:
            compiled = re.compile(pattern, flags)
            if self.recording is not None:
                self.recording[key] = None
        self._compiled[key] = compiled
        return compiled

    def match(self, pattern: str, string: str, flags: int = 0) -> re.Match[str] | None:
        return self.compile(pattern, flags).match(string)

    def save(self, keys: Iterable[tuple[str, int]]) -> bool:
        """Write the compiled code of ``keys`` to the file (atomically), each checked against
        re.compile; False when the file could not be written or an entry does not check out."""
        if self.path is None:
            return False
        entries: dict[tuple[str, int], Entry] = {}
        for pattern, flags in keys:
            try:
                entry = _compiled_parts(pattern, flags)
                if _sre.compile(pattern, *entry) != re.compile(pattern, flags):
                    return False
            except Exception:  # noqa: BLE001 - unfamiliar sre internals: keep compiling instead
                return False
            entries[(pattern, int(flags))] = entry
        directory = os.path.dirname(self.path)
        try:
            fd, temporary = tempfile.mkstemp(dir=directory, prefix=".regex-", suffix=".tmp")
            with os.fdopen(fd, "wb") as stream:
                marshal.dump(entries, stream)
            os.replace(temporary, self.path)
        except (OSError, ValueError):  # (ValueError: marshal met something it cannot write)
            return False
        self.entries = entries
        return True


def cache_file(directory: str | None, grammar: str) -> str | None:
    """The cache file for ``grammar`` under this interpreter, in ``directory`` (None: no cache)."""
    if directory is None:
        return None
    from lark import __version__ as lark_version  # (how lark combines terminals may change with it)
    stamp = hashlib.sha256(f"{sys.version}\0{_sre.MAGIC}\0{sys.implementation.name}\0{lark_version}\0{grammar}"
                           .encode())
    return os.path.join(directory, f"mlir-patterns-{stamp.hexdigest()[:20]}.marshal")


def lexers_of(parser: Any) -> list[Any]:
    """The basic lexers of a lark LALR parser with a contextual lexer ([] for any other shape)."""
    lexer = getattr(getattr(parser, "parser", None), "lexer", None)
    table = getattr(lexer, "lexers", None)
    if not isinstance(table, dict):
        return []
    unique = {id(basic): basic for basic in table.values()}
    root = getattr(lexer, "root_lexer", None)
    if root is not None:
        unique[id(root)] = root
    # (``scanner`` is a property that builds the scanner: test the class, not the lexer)
    return [basic for basic in unique.values()
            if hasattr(basic, "re") and isinstance(getattr(type(basic), "scanner", None), property)]


def use_pattern_cache(parser: Any, path: str | None, extra: Iterable[str] = ()) -> PatternCache:
    """See ``_use_pattern_cache``; every compile it does shares optimised character classes."""
    with shared_charsets():
        return _use_pattern_cache(parser, path, extra)


def _use_pattern_cache(parser: Any, path: str | None, extra: Iterable[str] = ()) -> PatternCache:
    """Let ``parser``'s lexers compile through a PatternCache on ``path`` (returned, so the caller
    can compile its own ``extra`` patterns through it too); when the file is not there yet, build
    every lexer's scanner now (once, about 1 s of CPU), compile ``extra`` and write the file."""
    cache = PatternCache(path)
    lexers = lexers_of(parser)
    for basic in lexers:
        basic.re = cache
    extra = list(extra)
    if path is None:
        return cache
    if cache.loaded:
        missing = [pattern for pattern in extra if (pattern, 0) not in cache.entries]
        if missing:  # the caller's own patterns changed since the file was written: add them to it
            cache.recording = {}
            for pattern in missing:
                cache.compile(pattern)
            keys = [*cache.entries, *cache.recording]
            cache.recording = None
            cache.save(keys)
        return cache
    cache.recording = {}
    for basic in lexers:
        basic.scanner  # noqa: B018 - builds (and caches) the lexer's scanner
    for pattern in extra:
        cache.compile(pattern)
    keys = list(cache.recording)
    cache.recording = None
    cache.save(keys)
    return cache


__all__ = ["PatternCache", "cache_file", "compile_shared", "lexers_of", "shared_charsets", "shared_patterns",
           "use_pattern_cache"]
