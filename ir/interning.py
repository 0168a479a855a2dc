"""Hash-consing base class: equal types and attributes are the same Python object.

Interning makes equality an identity check and lets printers cache each object's text,
which is what keeps parsing and printing of large graphs cheap.
"""
from __future__ import annotations

from typing import Any, ClassVar

_TABLE: dict[tuple[Any, ...], "Interned"] = {}


_BUILDERS: dict[type, type] = {}


def _builder(cls: type) -> type:
    """A subclass of ``cls`` with the ordinary attribute store and the same layout (no slots of
    its own), made once per class: ``_intern_fields`` fills a new object in as one of these and
    then gives it its real class. Storing a slot that way costs a quarter of going around
    ``Interned.__setattr__`` with ``object.__setattr__`` (a per-axis quantised type's 8 fields:
    1.5 us to 0.9 us), and every type and constant of an imported layer is a new object."""
    builder = type(f"_{cls.__name__}Builder", (cls,),
                   {"__slots__": (), "__setattr__": object.__setattr__, "__module__": cls.__module__})
    _BUILDERS[cls] = builder
    return builder


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
            obj = object.__new__(_BUILDERS.get(cls) or _builder(cls))
            obj._text = None
            for name, value in fields.items():
                setattr(obj, name, value)
            obj.__class__ = cls  # (what it was built as: from here on immutable)
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


def interned(cls: type, key: Any) -> Any:
    """The instance interned for ``(cls, key)``, or None (for classes that build their own)."""
    return _TABLE.get((cls, key))


def forget(cls: type, key: Any) -> None:
    """Drop the instance of ``(cls, key)`` (one that failed its checks right after being built)."""
    _TABLE.pop((cls, key), None)
