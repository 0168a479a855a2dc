"""Declarative operation definitions and the dialect registry.

An op is described once, as a class: name, operands, results, attributes (with constraints and
defaults), traits, a docstring and an optional ``verify_op``. Parsing, printing, verification,
builders, accessors and ``--show-dialects`` docs all come from that description.
"""
from __future__ import annotations

import importlib
import inspect
import itertools
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Iterable, Iterator, Sequence, TypeVar

from npu_opt.ir.attributes import Attribute
from npu_opt.ir.constraints import AnyAttr, AnyType, AttrConstraint, TypeConstraint
from npu_opt.ir.core import Operation, Region, Value
from npu_opt.ir.location import UNKNOWN_LOC, Location
from npu_opt.ir.traits import MemoryEffects, Pure, Trait
from npu_opt.ir.types import Type

_ORDER = itertools.count()
T = TypeVar("T", bound=Trait)


class VerifyError(Exception):
    """Raised by an op's ``verify_op`` with a message; the verifier reports it at the op."""


class OperandDef:
    """An operand slot. ``variadic`` takes any number of values, ``optional`` zero or one."""

    def __init__(self, constraint: TypeConstraint = AnyType, *, variadic: bool = False,
                 optional: bool = False, doc: str = "") -> None:
        self.constraint = constraint
        self.variadic = variadic or optional
        self.optional = optional
        self.doc = doc
        self.order = next(_ORDER)
        self.name = ""
        self.index = 0

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, op: Operation | None, owner: type) -> Any:
        if op is None:
            return self
        return _slice(op.operands, owner._operand_defs, owner._operand_variadic, self.index)  # type: ignore[attr-defined]


class ResultDef(OperandDef):
    def __get__(self, op: Operation | None, owner: type) -> Any:
        if op is None:
            return self
        return _slice(op.results, owner._result_defs, owner._result_variadic, self.index)  # type: ignore[attr-defined]


def _slice(values: Sequence[Value], defs: Sequence[OperandDef], variadic_at: int | None, index: int) -> Any:
    """Pick the values of slot ``index``; at most one slot is variadic (the one at ``variadic_at``,
    None: none), so its range is implied."""
    if variadic_at is None or index < variadic_at:
        return values[index] if index < len(values) else None
    extra = len(values) - (len(defs) - 1)
    if index == variadic_at:
        group = list(values[variadic_at:variadic_at + extra])
        if defs[index].optional:
            return group[0] if group else None
        return group
    pos = index + extra - 1
    return values[pos] if 0 <= pos < len(values) else None


_NO_DEFAULT = object()


class AttrDef:
    """An inherent attribute with a constraint, an optional default, and whether it is required."""

    def __init__(self, constraint: AttrConstraint | None = None, *, default: Any = _NO_DEFAULT,
                 optional: bool = False, doc: str = "") -> None:
        self.constraint = constraint or AnyAttr()
        self.default = default
        self.optional = optional or default is not _NO_DEFAULT
        self.doc = doc
        self.order = next(_ORDER)
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, op: Operation | None, owner: type) -> Any:
        if op is None:
            return self
        attr = op.attr(self.name)
        if attr is None:
            return None if self.default is _NO_DEFAULT else self.default
        if not self.constraint.check(attr):
            return attr
        return self.constraint.to_python(attr)

    def default_attr(self) -> Attribute | None:
        if self.default is _NO_DEFAULT or self.default is None:
            return None
        return self.constraint.from_python(self.default)


class OpMeta(type):
    """Gives every op class empty ``__slots__`` (no per-op dict) and collects its declarations."""

    def __new__(mcs, name: str, bases: tuple, namespace: dict[str, Any]) -> "OpMeta":
        namespace.setdefault("__slots__", ())
        cls = super().__new__(mcs, name, bases, namespace)
        # Collect declarations along the MRO; a subclass re-declaring a name replaces the base's
        # declaration but keeps its position.
        found: dict[str, tuple[int, Any]] = {}
        for klass in reversed(cls.__mro__):
            for key, value in vars(klass).items():
                if isinstance(value, (OperandDef, AttrDef)):
                    position = found[key][0] if key in found else value.order
                    found[key] = (position, value)
        ordered = [d for _, d in sorted(found.values(), key=lambda item: item[0])]
        results: list[ResultDef] = [d for d in ordered if isinstance(d, ResultDef)]
        operands: list[OperandDef] = [d for d in ordered if isinstance(d, OperandDef) and not isinstance(d, ResultDef)]
        attrs: list[AttrDef] = [d for d in ordered if isinstance(d, AttrDef)]
        for kind, group in (("operand", operands), ("result", results)):
            if sum(1 for d in group if d.variadic) > 1:
                raise TypeError(f"{name}: at most one variadic or optional {kind} is supported")
            for index, definition in enumerate(group):
                definition.index = index
        cls._operand_defs = tuple(operands)  # type: ignore[attr-defined]
        cls._result_defs = tuple(results)  # type: ignore[attr-defined]
        cls._operand_variadic = next((i for i, d in enumerate(operands) if d.variadic), None)  # type: ignore[attr-defined]
        cls._result_variadic = next((i for i, d in enumerate(results) if d.variadic), None)  # type: ignore[attr-defined]
        cls._attr_defs = tuple(attrs)  # type: ignore[attr-defined]
        traits = tuple(getattr(cls, "traits", ()))
        cls._trait_types = frozenset(type(t) for t in traits)  # type: ignore[attr-defined]
        cls._trait_by_type = {type(t): t for t in traits}  # type: ignore[attr-defined]
        contradiction = _contradiction(cls._trait_types)  # type: ignore[attr-defined]
        if contradiction:
            raise TypeError(f"{name}: {contradiction}")
        return cls


def _contradiction(kinds: frozenset[type]) -> str:
    """Why a set of traits cannot hold together, or ''."""
    if Pure in kinds and MemoryEffects in kinds:
        return "an op cannot be Pure (no effects) and have MemoryEffects"
    return ""


class Op(Operation, metaclass=OpMeta):
    """Base class of registered (declared) operations."""

    OP_NAME: ClassVar[str] = ""
    registered: ClassVar[bool] = True
    traits: ClassVar[tuple[Trait, ...]] = ()
    VERIFY_OP_NEEDS_DECLARED: ClassVar[bool] = False
    """True when ``verify_op`` relies on the declared operand, result and attribute constraints:
    the verifier then runs it only for an op that satisfies them (it reports the violations)."""
    _operand_defs: ClassVar[tuple[OperandDef, ...]]
    _operand_variadic: ClassVar[int | None]
    _result_variadic: ClassVar[int | None]
    _result_defs: ClassVar[tuple[ResultDef, ...]]
    _attr_defs: ClassVar[tuple[AttrDef, ...]]
    _trait_types: ClassVar[frozenset[type]]
    _trait_by_type: ClassVar[dict[type, Trait]]

    def has_trait(self, trait: type) -> bool:
        return trait in self._trait_types

    def has_any_trait(self, traits: frozenset[type]) -> bool:
        return not self._trait_types.isdisjoint(traits)

    @classmethod
    def trait(cls, kind: type[T]) -> T | None:
        """The op's trait of class ``kind`` (interfaces carry data: ``op.trait(CostedOp).kind``),
        or None."""
        return cls._trait_by_type.get(kind)  # type: ignore[return-value]

    @classmethod
    def build(
        cls,
        operands: Sequence[Value] = (),
        result_types: Sequence[Type] = (),
        attrs: dict[str, Any] | None = None,
        regions: Sequence[Region] = (),
        location: Location = UNKNOWN_LOC,
        discardable: dict[str, Attribute] | None = None,
    ) -> "Op":
        """Create a detached op. ``attrs`` may hold Python values for declared attributes;
        declared attributes become properties and get their defaults."""
        props: dict[str, Attribute] = {}
        given = dict(attrs or {})
        for definition in cls._attr_defs:
            if definition.name in given:
                value = given.pop(definition.name)
                if value is not None:
                    props[definition.name] = definition.constraint.from_python(value)
            else:
                default = definition.default_attr()
                if default is not None:
                    props[definition.name] = default
        for key, value in given.items():
            if not isinstance(value, Attribute):
                raise TypeError(f"{cls.OP_NAME}: undeclared attribute {key!r} needs an Attribute value")
            props[key] = value
        return cls(cls.OP_NAME, operands, result_types, dict(discardable or {}), props, regions,
                   location=location)

    def verify_op(self) -> None:
        """Op-specific checks beyond the declaration; raise VerifyError with a message."""

    def fold(self) -> Sequence[Attribute | Value] | None:
        """Constant-fold: return one Attribute or Value per result, or None if it does not fold."""
        return None

    @classmethod
    def canonicalization_patterns(cls) -> Sequence[Any]:
        """RewritePatterns that canonicalize this op (see ir.patterns)."""
        return ()

    @classmethod
    def describe(cls) -> str:
        """Markdown documentation generated from the declaration."""
        lines = [f"### `{cls.OP_NAME}`", "", inspect.cleandoc(cls.__doc__ or ""), ""]
        if cls.traits:
            lines.append("Traits: " + ", ".join(repr(t) for t in cls.traits))
            lines.append("")
        for title, defs in (("Operands", cls._operand_defs), ("Results", cls._result_defs)):
            if defs:
                lines.append(f"{title}:")
                for d in defs:
                    kind = " (optional)" if d.optional else " (variadic)" if d.variadic else ""
                    lines.append(f"- `{d.name}`{kind}: {d.constraint.description}")
                lines.append("")
        if cls._attr_defs:
            lines.append("Attributes:")
            for a in cls._attr_defs:
                extra = f", default {a.default!r}" if a.default is not _NO_DEFAULT else (
                    ", optional" if a.optional else "")
                lines.append(f"- `{a.name}`: {a.constraint.description}{extra}")
            lines.append("")
        return "\n".join(lines)


def describe_traits(ops: Iterable[type[Op]]) -> str:
    """Markdown list of the traits and interfaces ``ops`` declare, each with its meaning (the
    trait class's docstring), for ``--dialect-docs``."""
    kinds: dict[str, type] = {}
    for cls in ops:
        for trait in cls.traits:
            kinds.setdefault(type(trait).__name__, type(trait))
    lines = ["## Traits and interfaces", ""]
    for name in sorted(kinds):
        meaning = " ".join(inspect.cleandoc(kinds[name].__doc__ or "").split())
        lines.append(f"- `{name}`: {meaning}")
    return "\n".join(lines) + "\n"


@dataclass
class Dialect:
    """A namespace of ops, plus hooks for its own attribute syntax and constant materialisation."""

    name: str
    doc: str = ""
    ops: dict[str, type[Op]] = field(default_factory=dict)
    attribute_parsers: dict[str, Callable[[str | None], Attribute]] = field(default_factory=dict)
    materialize_constant: Callable[[Attribute, Type, Location], Operation | None] | None = None
    allow_unknown_ops: bool = False
    sections: dict[str, str] = field(default_factory=dict)
    """Further documentation for ``--dialect-docs``, by heading (e.g. how a schedule is written)."""
    kernel_modules: tuple[str, ...] = ()
    """Modules holding the interpreter's kernels of this dialect's ops (see ir.interpreter),
    imported the first time a kernel is looked up, so a run that interprets nothing pays nothing."""
    kernels: dict[str, Callable[..., Any]] = field(default_factory=dict)
    attribute_defs: dict[str, Callable[[], type]] = field(default_factory=dict)
    """Declared attributes (ir/attrdef.py) by mnemonic, each behind a loader (a module may define
    one that only its first use imports), for ``--dialect-docs``."""

    def op(self, cls: type[Op]) -> type[Op]:
        """Class decorator: register ``cls`` in this dialect."""
        if not cls.OP_NAME.startswith(self.name + "."):
            raise TypeError(f"{cls.__name__}: op name {cls.OP_NAME!r} is not in dialect {self.name!r}")
        if cls.OP_NAME in self.ops:
            raise TypeError(f"op {cls.OP_NAME!r} is registered twice")
        self.ops[cls.OP_NAME] = cls
        _OPS[cls.OP_NAME] = cls
        return cls

    def kernel(self, *ops: type[Op]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Decorator registering an interpreter kernel for ``ops`` (op classes of this dialect)."""
        def register(fn: Callable[..., Any]) -> Callable[..., Any]:
            for cls in ops:
                if cls.OP_NAME in self.kernels:
                    raise TypeError(f"op {cls.OP_NAME!r} has two interpreter kernels")
                self.kernels[cls.OP_NAME] = fn
            return fn
        return register

    def load_kernels(self) -> None:
        """Import the kernel modules (once); they register with ``kernel``."""
        modules, self.kernel_modules = self.kernel_modules, ()
        for module in modules:
            importlib.import_module(module)

    def find_kernel(self, op_name: str) -> Callable[..., Any] | None:
        """The interpreter kernel of ``op_name``, loading the kernel modules first; None if none."""
        if self.kernel_modules:
            self.load_kernels()
        return self.kernels.get(op_name)

    def attribute(self, name: str) -> Callable[[Callable[[str | None], Attribute]], Callable[[str | None], Attribute]]:
        """Decorator registering a parser for ``#dialect.name<body>``."""
        def register(fn: Callable[[str | None], Attribute]) -> Callable[[str | None], Attribute]:
            self.attribute_parsers[name] = fn
            return fn
        return register


    def declared_attribute(self, cls: type, loader: Callable[[], type] | None = None) -> type:
        """Register declared attribute ``cls`` (its parser and its docs) under its mnemonic;
        ``loader`` imports it on first use when ``cls`` is given as a name only."""
        mnemonic = cls.NAME.partition(".")[2] if isinstance(cls, type) else str(cls)
        if loader is None:
            self.attribute_parsers[mnemonic] = cls.parse  # type: ignore[attr-defined]
            self.attribute_defs[mnemonic] = lambda: cls
        else:
            self.attribute_parsers[mnemonic] = lambda body: loader().parse(body)  # type: ignore[attr-defined]
            self.attribute_defs[mnemonic] = loader
        return cls

    def attribute_classes(self) -> list[type]:
        """The declared attributes, by mnemonic (importing those registered with a loader)."""
        return [self.attribute_defs[name]() for name in sorted(self.attribute_defs)]


_DIALECTS: dict[str, Dialect] = {}
_OPS: dict[str, type[Op]] = {}


def register_dialect(dialect: Dialect) -> Dialect:
    existing = _DIALECTS.get(dialect.name)
    if existing is not None and existing is not dialect:
        raise TypeError(f"dialect {dialect.name!r} is registered twice")
    _DIALECTS[dialect.name] = dialect
    return dialect


_DEFERRED: dict[str, str] = {}
"""Dialects known by name whose module is not imported yet: dialect name -> module."""


def declare_dialect(name: str, module: str) -> None:
    """Make dialect ``name`` load on first reference: importing ``module`` registers it with all
    of its ops and attributes (so a run imports only the dialects its IR names)."""
    if name not in _DIALECTS:
        _DEFERRED[name] = module


def _load(name: str) -> Dialect | None:
    """The dialect ``name``, importing its module first if it was declared but not loaded."""
    module = _DEFERRED.pop(name, None)
    if module is not None:
        importlib.import_module(module)
        if name not in _DIALECTS:
            raise TypeError(f"module {module!r} was declared to register dialect {name!r} but did not")
    return _DIALECTS.get(name)


def lookup_op(name: str) -> type[Op] | None:
    """The class of op ``name``, loading its dialect on first reference; None if unknown."""
    cls = _OPS.get(name)
    if cls is None and _DEFERRED:
        dialect = name.partition(".")[0]
        if dialect in _DEFERRED:
            _load(dialect)
            cls = _OPS.get(name)
    return cls


def lookup_dialect(name: str) -> Dialect | None:
    """The dialect ``name``, loading it on first reference; None if unknown."""
    dialect = _DIALECTS.get(name)
    if dialect is None and name in _DEFERRED:
        dialect = _load(name)
    return dialect


def all_dialects() -> list[Dialect]:
    """Every dialect, loading those declared but not loaded yet."""
    for name in list(_DEFERRED):
        _load(name)
    return sorted(_DIALECTS.values(), key=lambda d: d.name)


def iter_ops() -> Iterator[type[Op]]:
    """The ops of the dialects loaded so far (IR can only hold ops of a loaded dialect)."""
    return iter(sorted(_OPS.values(), key=lambda c: c.OP_NAME))
