"""The lexer's compiled-pattern cache: what it writes rebuilds patterns identical to re.compile's,
and a missing, corrupt or foreign file only means compiling as usual."""
from __future__ import annotations

import re

from lark import Lark

from npu_opt.ir.regex_cache import PatternCache, cache_file, lexers_of, use_pattern_cache

PATTERNS = [(r"(?P<A>[a-z]++)|(?P<B>\d+(?:\.\d*)?)", 0), (r"\s*+->\s*+", re.MULTILINE), ("x|y", re.IGNORECASE)]


def test_saved_patterns_load_identical_to_re_compile(tmp_path):
    path = str(tmp_path / "patterns.marshal")
    assert PatternCache(path).save(PATTERNS)
    cache = PatternCache(path)
    assert cache.loaded and set(cache.entries) == set(PATTERNS)
    for pattern, flags in PATTERNS:
        rebuilt = cache.compile(pattern, flags)
        assert rebuilt == re.compile(pattern, flags)  # Pattern equality compares the compiled code
        assert rebuilt.groupindex == re.compile(pattern, flags).groupindex
    assert cache.match(PATTERNS[0][0], "abc1").lastgroup == "A"


def test_corrupt_or_missing_files_fall_back_to_compiling(tmp_path):
    for content in (b"", b"\x00garbage", b"not marshal at all"):
        path = tmp_path / "bad.marshal"
        path.write_bytes(content)
        cache = PatternCache(str(path))
        assert not cache.loaded
        assert cache.compile("a+b", 0) == re.compile("a+b")
    missing = PatternCache(str(tmp_path / "absent.marshal"))
    assert not missing.loaded and missing.compile("q", 0).match("q")
    assert PatternCache(None).compile("z", 0).match("z")


def test_a_wrong_entry_is_not_trusted(tmp_path):
    path = str(tmp_path / "patterns.marshal")
    assert PatternCache(path).save([("ab", 0)])
    cache = PatternCache(path)
    cache.entries[("ab", 0)] = (0, [1, 2, 3], 0, {}, (None,))  # code that _sre rejects
    assert cache.compile("ab", 0).match("ab")


def test_a_parser_writes_the_file_once_and_later_parsers_use_it(tmp_path):
    grammar = 'start: WORD ("," WORD)*\nWORD: /[a-z]+/\n%ignore " "\n'
    path = cache_file(str(tmp_path), grammar)
    assert path is not None and cache_file(str(tmp_path), grammar + " ") != path  # keyed by grammar
    first = Lark(grammar, parser="lalr", lexer="contextual")
    use_pattern_cache(first, path)
    assert (tmp_path / path.rsplit("/", 1)[-1]).exists()
    second = Lark(grammar, parser="lalr", lexer="contextual")
    use_pattern_cache(second, path)
    lexers = lexers_of(second)
    assert lexers and all(isinstance(lexer.re, PatternCache) and lexer.re.loaded for lexer in lexers)
    assert second.parse("a, bc, d") == first.parse("a, bc, d")


def test_extra_patterns_missing_from_the_file_are_added_to_it(tmp_path):
    """A caller's own pattern added after the file was written (a new fast path) is compiled
    once and written to the file, not compiled again in every later process."""
    grammar = 'start: WORD ("," WORD)*\nWORD: /[a-z]+/\n%ignore " "\n'
    path = cache_file(str(tmp_path), grammar)
    use_pattern_cache(Lark(grammar, parser="lalr", lexer="contextual"), path, ["q+"])
    use_pattern_cache(Lark(grammar, parser="lalr", lexer="contextual"), path, ["q+", "r(s)"])
    cache = PatternCache(path)
    assert ("q+", 0) in cache.entries and ("r(s)", 0) in cache.entries
    assert cache.compile("r(s)", 0) == re.compile("r(s)")


PROBE = [chr(code) for code in range(0x800)] + [chr(code) for code in (0xD7FF, 0xD800, 0xDFFF, 0xE000, 0xFFFF,
                                                                        0x10000, 0x10FFFF)]


def _same_characters(one: str, other: str) -> bool:
    first, second = re.compile(one), re.compile(other)
    return all(bool(first.fullmatch(ch)) == bool(second.fullmatch(ch)) for ch in PROBE)


def test_negated_classes_spelled_as_ranges_name_the_same_characters():
    """faster_classes rewrites every negated class of the parser's own patterns (the grammar's
    terminals) into ranges of exactly the same characters, and leaves what it cannot rewrite."""
    from npu_opt.ir import parser as parser_module
    from npu_opt.ir.lexing import _NEGATED, faster_classes
    from npu_opt.ir.parse_generic_op import _piece_patterns

    lark_parser = parser_module._lark_with_builder()[0]
    classes = {m.group(0) for pattern in _piece_patterns(lark_parser).values() for m in _NEGATED.finditer(pattern)}
    assert len(classes) >= 3
    for negated in classes | {r'[^<>"\-]', r"[^\\n]", r"[^\\\\n]", r"[^\n\t]", r"[^\]\[x]"}:
        ranges = faster_classes(negated)
        assert _same_characters(negated, ranges), negated
        excluded = sum(1 for ch in PROBE if not re.fullmatch(negated, ch))
        assert (ranges == negated) == (excluded == 1), negated  # ([^x] is kept: it is fast already)
    for kept in (r"[^a-z]", r"[^\d,]", r"\[^ab]", r'[^"]', r"[^\\]"):  # a range, a class escape, no class, one character
        assert faster_classes(kept) == kept


def test_the_parsers_line_pattern_matches_as_the_grammars_own_does():
    """The generic-op line pattern compiled with ranges finds the same pieces as the grammar's."""
    from npu_opt.ir import parser as parser_module
    from npu_opt.ir.fast_lines import line_pattern
    from npu_opt.ir.parse_generic_op import _piece_patterns

    lark_parser, builder = parser_module._lark_with_builder()
    grammar = re.compile(line_pattern(_piece_patterns(lark_parser)))
    assert builder.pieces["line"].pattern != grammar.pattern
    lines = ['"a.b"(%0, %1) <{q = tensor<2x!quant.uniform<i8<-127:127>:f32:0, {0.5,1.5e-05}>>}> : '
             '(tensor<2xi8>, i8) -> tensor<2xi8> loc("n")',
             '"a.b"() {s = "x\\"y", t = #d<"-> >">, c = 1 : i32 // c\n} : () -> ((i8) -> i8)',
             '"a.b"() : (tensor<2x"x">) -> i8', '"a\\n.b"() ({\n}) : () -> ()', '"a.b"() :: () -> ()']
    for line in lines:
        for end in range(len(line) + 1):
            mine, theirs = builder.pieces["line"].match(line, 0, end), grammar.match(line, 0, end)
            assert (mine and mine.groupdict()) == (theirs and theirs.groupdict()), (line, end)


def test_shared_charsets_compile_every_parser_pattern_to_the_same_code_and_restore_sre() -> None:
    """Optimising each character class once (the cold compile went from 10-17 s to about 1 s)
    gives the code sre itself gives, for the parser's own pieces (ranges up to U+10FFFF) and a
    case-insensitive class (passed through), and leaves sre's optimiser as it was."""
    import re as re_module

    from npu_opt.ir.lexing import chars_except, faster_classes
    from npu_opt.ir.regex_cache import _compiled_parts, _sre_compile, compile_shared, shared_charsets
    from npu_opt.ir.signature_split import PATTERNS

    before = _sre_compile._optimize_charset
    patterns = [faster_classes(r'"[^"\\\n]*+"[^<>]*+'), *PATTERNS.values(), f"{chars_except('<>')}+x",
                f"(?:{chars_except('<>')}|{chars_except('<>')})+"]
    for pattern in patterns:
        plain = _compiled_parts(pattern, 0)
        with shared_charsets():
            shared = _compiled_parts(pattern, 0)
            again = _compiled_parts(pattern, 0)  # (the second time from the kept result)
        assert plain == shared == again
    folded = _compiled_parts("[a-z\u0100-\U0010ffff]+", re_module.IGNORECASE)
    with shared_charsets():
        assert _compiled_parts("[a-z\u0100-\U0010ffff]+", re_module.IGNORECASE) == folded
    assert _sre_compile._optimize_charset is before
    assert compile_shared(patterns[0]).pattern == patterns[0]


def test_compile_shared_keeps_its_patterns_for_the_next_process(tmp_path, monkeypatch) -> None:
    """What compile_shared compiles goes into a file in the parser's cache directory, and a later
    process (a fresh PatternCache on that file) rebuilds the same pattern from it."""
    from npu_opt.ir import lexing, regex_cache
    from npu_opt.ir.lexing import faster_classes

    monkeypatch.setattr(lexing, "_cache_path", lambda: str(tmp_path / "mlir-grammar.lark-cache"))
    regex_cache.shared_patterns.cache_clear()
    try:
        pattern = faster_classes(r'"[^"\\\n]*+"[^<>]*+=')
        assert regex_cache.compile_shared(pattern) == re.compile(pattern)
        (saved,) = tmp_path.glob("shared-patterns-*.marshal")
        later = PatternCache(str(saved))
        assert later.loaded and set(later.entries) == {(pattern, 0)}
        assert later.compile(pattern) == re.compile(pattern)
        assert regex_cache.compile_shared(pattern) is regex_cache.compile_shared(pattern)
    finally:
        regex_cache.shared_patterns.cache_clear()
