"""Hash-consing base class: equal types and attributes are the same Python object.

Interning makes equality an identity check and lets printers cache each object's text,
which is what keeps parsing and printing of large graphs cheap.
"""
from __future__ import annotations

from types import MemberDescriptorType
from typing import Any, Callable, ClassVar

_TABLE: dict[tuple[Any, ...], "Interned"] = {}


class _Setters(dict):
    """Field name -> the function storing it in an instance (see _slot_setters)."""

    def __missing__(self, name: str) -> Callable[[Any, Any], None]:
        return lambda obj, value: object.__setattr__(obj, name, value)  # (raises as it always did)


_SETTERS: dict[type, _Setters] = {}


def _slot_setters(cls: type) -> _Setters:
    """The ``__set__`` of each slot of ``cls`` by name, bound once: storing a field through it
    skips the attribute lookup ``object.__setattr__`` does each time (8 fields of a per-axis
    quantised type: 2.6 us to 1.9 us). Names that are not plain slots get the generic store."""
    setters = _Setters()
    for klass in reversed(cls.__mro__):
        slots = klass.__dict__.get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            descriptor = getattr(cls, name, None)
            if isinstance(descriptor, MemberDescriptorType):
                setters[name] = descriptor.__set__
    _SETTERS[cls] = setters
    return setters


class Interned:
    """Immutable, uniqued value. Subclasses implement ``_init`` instead of ``__init__``.

    ``Cls(*args)`` returns the one instance built for ``(Cls, args)``; args must be hashable.
    Subclasses may override ``_key`` to normalise their arguments (e.g. float bit patterns).
    """

    __slots__ = ("_text",)
    _frozen: ClassVar[bool] = True

    def __new__(cls, *args: Any) -> Any:
        key = (cls, cls._key(args))
        obj = _TABLE.get(key)
        if obj is None:
            obj = object.__new__(cls)
            object.__setattr__(obj, "_text", None)
            obj._init(*args)
            _TABLE[key] = obj
        return obj

    @classmethod
    def _key(cls, args: tuple[Any, ...]) -> Any:
        return args

    @classmethod
    def _intern_fields(cls, key: Any, fields: dict[str, Any]) -> Any:
        """The instance for ``(cls, key)``, built from already-checked ``fields`` when new.

        For parsers that decode a spelling into exactly the normalised arguments ``_key`` would
        return and check them as ``_init`` would: they skip both, and the result is still the one
        object ``Cls(*args)`` gives (the same table, the same key)."""
        table_key = (cls, key)
        obj = _TABLE.get(table_key)
        if obj is None:
            obj = object.__new__(cls)
            setters = _SETTERS.get(cls) or _slot_setters(cls)
            setters["_text"](obj, None)
            for name, value in fields.items():
                setters[name](obj, value)
            _TABLE[table_key] = obj
        return obj

    def _init(self, *args: Any) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def _set(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __copy__(self) -> "Interned":
        return self

    def __deepcopy__(self, memo: Any) -> "Interned":
        return self

    def __reduce__(self) -> Any:
        raise TypeError("interned IR objects are not picklable; print them instead")

    def __str__(self) -> str:
        text = self._text
        if text is None:
            text = self._render()
            object.__setattr__(self, "_text", text)
        return text

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self})"

    def _render(self) -> str:  # pragma: no cover - overridden
        raise NotImplementedError
