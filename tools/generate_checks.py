"""Generate FileCheck lines from npu-opt output, in the manner of MLIR's generate-test-checks.py
(usage: ``npu-opt x.mlir | python -m npu_opt.tools.generate_checks``).

Design notes: docs/tools_design.md, section Generating FileCheck lines (generate_checks)."""
from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass, field
from typing import Sequence

SEPARATOR = "// -----"

_VALUE = re.compile(r"%[A-Za-z0-9_$.\-]+")
_ARG = re.compile(r"%arg([0-9]+)\Z")
# The label ends just after the name (with the next character, so that @f does not match @f2).
_PRETTY_FUNC = re.compile(r"(func\.func\s+(?:(?:public|private|nested)\s+)?@(?:\"(?:[^\"\\]|\\.)*\"|[A-Za-z_][A-Za-z0-9_$.]*)\()(.*)\Z")
_GENERIC_FUNC = re.compile(r"(\"func\.func\"\(\) <\{sym_name = \"(?:[^\"\\]|\\.)*\"[,}])(.*)\Z")


def escape(text: str) -> str:
    """Literal text for a check line: FileCheck reads ``[[`` and ``{{`` as syntax."""
    out = []
    i = 0
    while i < len(text):
        pair = text[i:i + 2]
        if pair == "[[":
            out.append(r"{{\[\[}}")
            i += 2
        elif pair == "{{":
            out.append(r"{{\{\{}}")
            i += 2
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


@dataclass
class _Names:
    """FileCheck variables for the SSA names of one function (or of the module level)."""

    variables: dict[str, str] = field(default_factory=dict)
    defined: set[str] = field(default_factory=set)
    taken: set[str] = field(default_factory=set)
    next_value: int = 0

    def _fresh(self, name: str) -> str:
        arg = _ARG.match(name)
        if arg:
            base = candidate = f"ARG{arg.group(1)}"
            suffix = 0
            while candidate in self.taken:
                suffix += 1
                candidate = f"{base}_{suffix}"
        else:
            candidate = f"VAL_{self.next_value}"
            self.next_value += 1
        self.taken.add(candidate)
        return candidate

    def text(self, name: str, is_definition: bool) -> str:
        """The check text for one occurrence of ``name``."""
        variable = self.variables.get(name)
        if variable is not None and not (is_definition and name in self.defined):
            if is_definition:
                self.defined.add(name)
            return f"%[[{variable}]]"
        variable = self._fresh(name)  # first occurrence, or a redefinition in a nested scope
        self.variables[name] = variable
        if is_definition:
            self.defined.add(name)
        return f"%[[{variable}:.*]]"


def _definition_at(line: str, start: int, end: int) -> bool:
    """Whether the SSA name at line[start:end] is defined there (not used)."""
    rest = line[end:]
    if line[:start].strip() == "" and re.match(r"(?::[0-9]+)?\s*(=|,\s*%)", rest):
        return True  # '%x = ...', '%x:2 = ...', '%x, %y = ...'
    if re.match(r":\s", rest):
        return True  # a function or block argument '%x: type'
    head = line[:start].lstrip()
    if re.match(r"%[A-Za-z0-9_$.\-]+(?::[0-9]+)?(\s*,\s*%[A-Za-z0-9_$.\-]+(?::[0-9]+)?)*\s*,\s*\Z", head):
        return True  # a later name of '%x, %y = ...'
    return False


def convert(line: str, names: _Names) -> str:
    """``line`` with SSA names as FileCheck variables and the other text escaped; strings are
    copied literally (a '%' inside a string is not a value)."""
    out: list[str] = []
    literal: list[str] = []
    i = 0
    while i < len(line):
        ch = line[i]
        if ch == '"':
            j = i + 1
            while j < len(line) and line[j] != '"':
                j += 2 if line[j] == "\\" else 1
            literal.append(line[i:j + 1])
            i = j + 1
            continue
        if ch == "%":
            m = _VALUE.match(line, i)
            if m:
                out.append(escape("".join(literal)))
                literal = []
                out.append(names.text(m.group(0), _definition_at(line, m.start(), m.end())))
                i = m.end()
                continue
        literal.append(ch)
        i += 1
    out.append(escape("".join(literal)))
    return "".join(out)


def _closes(line: str, indent: int) -> bool:
    stripped = line.strip()
    return len(line) - len(line.lstrip()) == indent and (stripped == "}" or stripped.startswith("} loc(")
                                                         or stripped.startswith("})"))


def checks_for_chunk(text: str, prefix: str = "CHECK", next_lines: bool = True) -> list[str]:
    """The check lines for the npu-opt output of one chunk (one module)."""
    lines = [line.rstrip() for line in text.split("\n")]
    lines = [line for line in lines if line.strip()]
    if len(lines) > 2 and lines[0] == "module {" and lines[-1] == "}":
        lines = lines[1:-1]  # an empty module keeps them: something must be checked
        base = 2
    else:
        base = 0
    out: list[str] = []
    module_names = _Names()
    names = module_names
    function_indent: int | None = None
    in_trailer = False
    for line in lines:
        indent = len(line) - len(line.lstrip())
        body = line[min(indent, base):] if indent >= base else line.lstrip()
        stripped = line.strip()
        if stripped == "{-#":
            in_trailer = True
        if in_trailer:  # the resource trailer: literal lines
            kind = prefix if stripped == "{-#" or not next_lines else f"{prefix}-NEXT"
            out.append(f"// {kind}: {escape(stripped)}")
            if stripped == "#-}":
                in_trailer = False
            continue
        if function_indent is None:
            match = _PRETTY_FUNC.match(stripped) or _GENERIC_FUNC.match(stripped)
            if match:
                names = _Names()
                head, rest = match.group(1), match.group(2)
                out.append(f"// {prefix}-LABEL: {escape(head)}")
                if rest.strip():
                    out.append(f"// {prefix}-SAME: {convert(rest, names)}")
                if stripped.endswith("{") or stripped.endswith("({"):
                    function_indent = indent
                continue
            out.append(f"// {prefix}: {convert(body, module_names)}")
            continue
        kind = f"{prefix}-NEXT" if next_lines else prefix
        out.append(f"// {kind}: {convert(body, names)}")
        if _closes(line, function_indent):
            function_indent = None
            names = module_names
    return out


def generate(output: str, prefix: str = "CHECK", next_lines: bool = True) -> list[list[str]]:
    """Check lines for each '// -----' separated chunk of npu-opt's output."""
    chunks = re.split(r"(?m)^// -----[^\n]*\n?", output)
    return [checks_for_chunk(chunk, prefix, next_lines) for chunk in chunks]


def _is_check_line(line: str, prefix: str) -> bool:
    return re.match(rf"\s*//\s*{re.escape(prefix)}(-[A-Z]+)?:", line) is not None


def insert_into_source(source: str, checks: list[list[str]], prefix: str = "CHECK") -> str:
    """``source`` with each chunk's old check lines replaced by ``checks`` of that chunk, placed
    before the chunk's first line of IR."""
    lines = source.split("\n")
    chunks: list[list[str]] = [[]]
    separators: list[str] = []
    for line in lines:
        if line.startswith(SEPARATOR):
            separators.append(line)
            chunks.append([])
        else:
            chunks[-1].append(line)
    if len(chunks) != len(checks):
        raise ValueError(f"the source has {len(chunks)} chunks but the output {len(checks)}; "
                         "run npu-opt with --split-input-file on this very source")
    result: list[str] = []
    for index, (chunk, block) in enumerate(zip(chunks, checks)):
        kept = [line for line in chunk if not _is_check_line(line, prefix)]
        at = next((i for i, line in enumerate(kept)
                   if line.strip() and not line.lstrip().startswith("//")), len(kept))
        if block:
            kept[at:at] = block
        result.extend(kept)
        if index < len(separators):
            result.append(separators[index])
    return "\n".join(result)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="generate_checks", description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("input", nargs="?", default="-", help="npu-opt output (default: stdin)")
    parser.add_argument("--check-prefix", default="CHECK", help="the FileCheck prefix (default: CHECK)")
    parser.add_argument("--no-next", dest="next_lines", action="store_false",
                        help="use CHECK instead of CHECK-NEXT for the lines of a function body")
    parser.add_argument("--source", metavar="FILE",
                        help="put the checks into the chunks of this .mlir file (its npu-opt output is the input)")
    parser.add_argument("-i", dest="in_place", action="store_true", help="with --source: rewrite FILE")
    args = parser.parse_args(argv)
    if args.in_place and not args.source:
        parser.error("-i needs --source")
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]*", args.check_prefix):
        parser.error(f"invalid check prefix '{args.check_prefix}'")
    try:
        if args.input == "-":
            output = sys.stdin.read()
        else:
            with open(args.input, encoding="utf-8") as stream:
                output = stream.read()
        checks = generate(output, args.check_prefix, args.next_lines)
        if not args.source:
            blocks = ["\n".join(block) for block in checks]
            sys.stdout.write(("\n\n" + SEPARATOR + "\n\n").join(blocks) + "\n")
            return 0
        with open(args.source, encoding="utf-8") as stream:
            source = stream.read()
        updated = insert_into_source(source, checks, args.check_prefix)
        if args.in_place:
            with open(args.source, "w", encoding="utf-8") as stream:
                stream.write(updated)
        else:
            sys.stdout.write(updated)
        return 0
    except (OSError, UnicodeDecodeError, ValueError) as err:
        sys.stderr.write(f"generate_checks: error: {err}\n")
        return 1


if __name__ == "__main__":
    sys.exit(main())
