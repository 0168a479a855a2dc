"""Declarative dialect attributes: parameters with types, defaults and constraints, and a syntax.

An attribute is described once, as a class of ``Param`` declarations (docs/attributes.md);
construction, checks, interning, parsing, printing and ``--dialect-docs`` come from it.
"""
from __future__ import annotations

import inspect
import re
from typing import Any, ClassVar, Sequence

from npu_opt.ir.attributes import Attribute
from npu_opt.ir.attr_params import ParamType, closest, describe_choices, entries_of
from npu_opt.ir.interning import forget, interned
from npu_opt.ir.type_parser import AttributeSyntaxError

POSITIONAL, KEYED, FLAG, WORDS, ENTRIES, BODY = "positional", "keyed", "flag", "words", "entries", "body"
"""How a parameter is written: a bare value in its place, ``name = value``, a bare word when true,
a bare word per non-default value (``Param.words``), every ``key = value`` entry of the body, or
the whole body."""

_NO_DEFAULT = object()
_KEYED = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*=(.*)\Z", re.S)


class Param:
    """One parameter of an attribute: its type, syntax, default and meaning."""

    def __init__(self, type: ParamType, syntax: str = KEYED, *, default: Any = _NO_DEFAULT, key: str = "",
                 print_default: bool = False, group: str = "", words: dict[Any, str] | None = None,
                 doc: str = "", **meta: Any) -> None:
        if syntax == FLAG and default is _NO_DEFAULT:
            default = False
        self.type, self.syntax, self.default, self.key = type, syntax, default, key
        self.print_default = print_default
        self.group = group
        """Parameters of one group print together: all of them when any is not its default."""
        self.words = words or {}
        """With WORDS: the bare word standing for each value other than the default."""
        self.doc = doc
        self.meta = meta
        """Further declarations read by others (a knob's phrase, the pass that reads it, ...)."""
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name
        self.key = self.key or name

    @property
    def required(self) -> bool:
        return self.default is _NO_DEFAULT

    def normalize(self, value: Any, where: str) -> Any:
        """``value`` as stored; ValueError naming the attribute and parameter when out of bounds."""
        if value is None and self.default is None:
            return None
        try:
            return self.type.normalize(value)
        except ValueError as err:
            message = str(err)
            label = getattr(self.type, "what", "") or self.name
            message = message.replace("{name}", label) if "{name}" in message else f"{self.name} {message}"
            raise ValueError(f"{where}: {message}") from None
        except TypeError:
            raise ValueError(f"{where}: {self.name} cannot be {value!r}") from None

    def describe(self) -> str:
        """One line of ``--dialect-docs``."""
        spelled = {POSITIONAL: "positional", KEYED: f"`{self.key} = ...`", FLAG: f"flag `{self.key}`",
                   WORDS: "words " + ", ".join(f"`{w}`" for w in self.words.values()),
                   ENTRIES: "`KEY = VALUE` entries", BODY: "the whole body"}[self.syntax]
        default = "" if self.required or self.syntax == FLAG else f", default {self.default!r}"
        doc = f": {' '.join(self.doc.split())}" if self.doc else ""
        return f"- `{self.name}` ({spelled}; {self.type.description}{default}){doc}"


class AttrDefMeta(type):
    """Turns ``Param`` declarations into slots and records them in declaration order."""

    def __new__(mcs, name: str, bases: tuple, namespace: dict[str, Any]) -> "AttrDefMeta":
        params = []
        for key, value in list(namespace.items()):
            if isinstance(value, Param):
                value.__set_name__(None, key)  # type: ignore[arg-type]  (not a class attribute: a slot)
                params.append(value)
                del namespace[key]
        namespace["__slots__"] = tuple(p.name for p in params) + tuple(namespace.get("EXTRA_SLOTS", ()))
        shadowed = [p.name for p in params for base in bases if hasattr(base, p.name)]
        if shadowed:
            raise TypeError(f"{name}: parameter {shadowed[0]} hides a method or attribute of its base")
        cls = super().__new__(mcs, name, bases, namespace)
        if params:
            cls.params = tuple(params)  # type: ignore[attr-defined]
            cls._names = tuple(p.name for p in params)  # type: ignore[attr-defined]
            cls._keyed = {p.key: p for p in params if p.syntax in (KEYED, FLAG)}  # type: ignore[attr-defined]
            cls._words = {w: (p, v) for p in params if p.syntax == WORDS  # type: ignore[attr-defined]
                          for v, w in p.words.items()}
        return cls


class AttrDef(Attribute, metaclass=AttrDefMeta):
    """Base of declared attributes. ``NAME`` is ``dialect.mnemonic`` (empty for a record written
    ``[...]`` inside another attribute)."""

    NAME: ClassVar[str] = ""
    EXTRA_SLOTS: ClassVar[tuple[str, ...]] = ()
    """Slots beyond the parameters, for what ``verify`` derives from them (set with ``_derive``)."""
    PREFIX_ERRORS: ClassVar[bool] = True
    """Whether ``verify``'s messages get the attribute's name in front (``canonical``'s never do)."""
    params: ClassVar[tuple[Param, ...]] = ()
    _names: ClassVar[tuple[str, ...]] = ()
    _keyed: ClassVar[dict[str, Param]] = {}
    _words: ClassVar[dict[str, tuple[Param, Any]]] = {}

    def __new__(cls, *args: Any) -> Any:
        values = cls._normalized(args)
        obj = interned(cls, values)
        if obj is None:
            obj = cls._intern_fields(values, dict(zip(cls._names, values)))
            try:
                obj.verify()
            except ValueError as err:
                forget(cls, values)
                if cls.PREFIX_ERRORS:
                    err.args = (f"{cls._where()}: {err}",)
                raise
        return obj

    @classmethod
    def canonical(cls, values: tuple) -> tuple:
        """The parameters in the one spelling an attribute is interned by (beyond each
        parameter's own normalisation); ValueError when they cannot be."""
        return values

    def _derive(self, name: str, value: Any) -> None:
        """Set one of EXTRA_SLOTS (from ``verify``)."""
        object.__setattr__(self, name, value)

    @classmethod
    def _where(cls) -> str:
        return f"#{cls.NAME}" if cls.NAME else f"a {cls.__name__}"

    @classmethod
    def _normalized(cls, args: tuple) -> tuple:
        if len(args) > len(cls.params):
            raise TypeError(f"{cls.__name__} takes at most {len(cls.params)} arguments, not {len(args)}")
        where = cls._where()
        values = []
        for index, param in enumerate(cls.params):
            if index < len(args):
                value = args[index]
            elif param.required:
                raise TypeError(f"{cls.__name__} needs its {param.name}")
            else:
                value = param.default
            values.append(param.normalize(value, where))
        return cls.canonical(tuple(values))

    @classmethod
    def build(cls, **values: Any) -> Any:
        """The attribute with these parameters by name (the others at their defaults)."""
        unknown = set(values) - set(cls._names)
        if unknown:
            raise TypeError(f"{cls.__name__} has no parameter {', '.join(sorted(unknown))}")
        missing = [p.name for p in cls.params if p.required and p.name not in values]
        if missing:
            raise TypeError(f"{cls.__name__} needs its {', '.join(missing)}")
        return cls(*(values.get(p.name, p.default) for p in cls.params))

    def replaced(self, **changes: Any) -> Any:
        """This attribute with the named parameters changed."""
        return type(self).build(**{**{n: getattr(self, n) for n in self._names}, **changes})

    def verify(self) -> None:
        """Checks across parameters beyond their types; raise ValueError with a message."""

    # -- printing ------------------------------------------------------------------------------
    def body(self) -> str:
        """The text between the brackets: the parameters in declared order, defaults left out."""
        shown = {p.group for p in self.params if p.group and getattr(self, p.name) != p.default}
        parts: list[str] = []
        for param in self.params:
            value = getattr(self, param.name)
            if param.syntax in (POSITIONAL, BODY) and (param.required or value != param.default):
                parts.append(param.type.print(value))
            elif param.syntax in (POSITIONAL, BODY):
                continue
            elif param.syntax == ENTRIES:
                parts.extend(param.type.print_entries(value))
            elif not (param.print_default or value != param.default or param.group in shown):
                continue
            elif param.syntax == FLAG:
                parts.append(param.key)
            elif param.syntax == WORDS:
                parts.append(param.words[value])
            else:
                parts.append(f"{param.key} = {param.type.print(value)}")
        return ", ".join(parts)

    def _render(self) -> str:
        return f"#{self.NAME}<{self.body()}>" if self.NAME else f"[{self.body()}]"

    # -- parsing -------------------------------------------------------------------------------
    @classmethod
    def parse(cls, body: str | None) -> Any:
        """The attribute ``body`` spells; AttributeSyntaxError (with the offset into the body of
        the entry at fault) when it is malformed or breaks a constraint."""
        where = cls._where()
        whole = next((p for p in cls.params if p.syntax == BODY), None)
        if body is None or not (body.strip() or whole):
            raise AttributeSyntaxError(f"{where} needs a body")
        values: dict[str, Any] = {}
        if whole is not None:
            try:
                values[whole.name] = whole.type.parse(body)
            except ValueError as err:
                raise AttributeSyntaxError(f"{where}: {err}") from None
            return cls._build(values)
        positional = [p for p in cls.params if p.syntax == POSITIONAL]
        entries_param = next((p for p in cls.params if p.syntax == ENTRIES), None)
        entries: list[tuple[str, str, int]] = []
        for text, offset in entries_of(body):
            try:
                if not text:
                    raise AttributeSyntaxError(f"empty entry in '{body[:80]}'")
                keyed = _KEYED.match(text)
                if keyed is not None and entries_param is not None:
                    entries.append((keyed.group(1), keyed.group(2).strip(), offset))
                elif keyed is not None:
                    cls._parse_keyed(keyed.group(1), keyed.group(2).strip(), values)
                elif positional and text not in cls._keyed and text not in cls._words:
                    param = positional.pop(0)
                    values[param.name] = param.normalize(param.type.parse(text), where)
                else:
                    cls._parse_word(text, values)
            except (AttributeSyntaxError, ValueError) as err:
                message = str(err)
                raise AttributeSyntaxError(message if message.startswith(where) else f"{where}: {message}",
                                           offset) from None
        if entries_param is not None:
            try:
                values[entries_param.name] = entries_param.type.parse_entries([(k, v) for k, v, _ in entries])
            except ValueError as err:
                raise AttributeSyntaxError(f"{where}: {err}") from None
        missing = [p for p in cls.params if p.required and p.name not in values]
        if missing:
            param = missing[0]
            what = (f"its {param.name} ({param.type.description}) as the first value" if param.syntax == POSITIONAL
                    else f"field '{param.key}'")
            raise AttributeSyntaxError(f"{where}: missing {what}")
        return cls._build(values)

    @classmethod
    def _build(cls, values: dict[str, Any]) -> Any:
        """The attribute of parsed ``values``; a broken constraint is a syntax error of the body."""
        where = cls._where()
        try:
            return cls.build(**values)
        except ValueError as err:
            message = str(err)
            raise AttributeSyntaxError(message if message.startswith(where) else f"{where}: {message}") from None

    @classmethod
    def _parse_keyed(cls, key: str, text: str, values: dict[str, Any]) -> None:
        param = cls._keyed.get(key)
        if param is None:
            keys = [p.key for p in cls.params if p.syntax == KEYED]
            guess = closest(key, keys)
            hint = f"; did you mean '{guess}'?" if guess else ""
            raise AttributeSyntaxError(f"unknown field '{key}'{hint} (expected {describe_choices(keys)})")
        if param.syntax == FLAG:
            raise AttributeSyntaxError(f"'{key}' is a flag and takes no value")
        if param.name in values:
            raise AttributeSyntaxError(f"field '{key}' is given twice")
        values[param.name] = param.normalize(param.type.parse(text), cls._where())

    @classmethod
    def _parse_word(cls, word: str, values: dict[str, Any]) -> None:
        param = cls._keyed.get(word)
        if param is not None and param.syntax == KEYED:
            raise AttributeSyntaxError(f"'{word}' takes a value, as '{word} = ...'")
        if param is None and word in cls._words:
            param, value = cls._words[word]
        elif param is not None:
            value = True
        else:
            words = [p.key for p in cls.params if p.syntax == FLAG] + list(cls._words)
            raise AttributeSyntaxError(f"unexpected '{word[:40]}' (the flags are {', '.join(words)}, "
                                       f"each at most once)")
        if param.name in values:
            raise AttributeSyntaxError(f"'{word}' is given twice" if param.syntax == FLAG
                                       else f"{param.name} is given twice ('{word}')")
        values[param.name] = value

    # -- documentation -------------------------------------------------------------------------
    @classmethod
    def describe(cls) -> str:
        """Markdown documentation generated from the declaration."""
        title = f"#{cls.NAME}" if cls.NAME else f"{cls.__name__} (written `[...]`)"
        lines = [f"### `{title}`", "", inspect.cleandoc(cls.__doc__ or ""), "", "Parameters, in printing order:"]
        lines += [param.describe() for param in cls.params]
        return "\n".join(lines) + "\n"


def describe_attributes(classes: Sequence[type[AttrDef]]) -> str:
    """Markdown of several declared attributes, for ``--dialect-docs``."""
    return "\n".join(cls.describe() for cls in classes)


__all__ = ["AttrDef", "BODY", "ENTRIES", "FLAG", "KEYED", "POSITIONAL", "Param", "WORDS", "describe_attributes"]
