"""Strict construction of frozen rule dataclasses from TOML tables.

Every section of a variant file is a frozen, keyword-only dataclass.  :func:`build` turns a TOML
table into one, checking each key against the dataclass fields and each value against the field's
annotation; any mismatch raises :class:`VariantError` naming the file, the key path, what was
found and what is allowed.  New sections only declare a dataclass: the checking comes for free.

Supported annotations: ``bool``, ``int``, ``float`` (ints accepted), ``str``, ``Literal[...]``,
``tuple[T, ...]`` of those, ``FrozenMap[str, T]`` (a TOML table with free keys), ``T | None``,
nested dataclasses, and any class with a ``from_toml(value, where)`` classmethod that parses its
own written form.  A field's key in the file is its name, or ``metadata["key"]`` when the Python
name differs; fields with ``init=False`` are derived, never read from a file.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Iterator, Mapping
from typing import Any, Literal, TypeVar, get_args, get_origin

K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")


class VariantError(ValueError):
    """A variant file (or an override of one) is not valid; the message names file and key."""


class FrozenMap(Mapping[K, V]):
    """An immutable, hashable mapping, so rule objects stay frozen and usable as cache keys."""

    __slots__ = ("_items",)

    def __init__(self, items: Mapping[K, V] | None = None) -> None:
        self._items: dict[K, V] = dict(items or {})

    def __getitem__(self, key: K) -> V:
        return self._items[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(tuple(sorted(self._items.items(), key=lambda kv: repr(kv[0]))))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mapping) and dict(self._items) == dict(other)

    def __repr__(self) -> str:
        return f"FrozenMap({self._items!r})"


def _type_name(tp: Any) -> str:
    origin = get_origin(tp)
    if origin is Literal:
        return "one of " + ", ".join(repr(a) for a in get_args(tp))
    if origin in (types.UnionType, typing.Union):
        return " or ".join(_type_name(a) for a in get_args(tp))
    if origin is tuple:
        return f"a list of {_type_name(get_args(tp)[0])}"
    if origin is FrozenMap:
        return f"a table of {_type_name(get_args(tp)[1])}"
    if tp is type(None):
        return "absent"
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return f"a table ({tp.__name__})"
    return getattr(tp, "__name__", str(tp))


def _convert(tp: Any, value: Any, where: str) -> Any:
    origin = get_origin(tp)
    if origin is Literal:
        if value not in get_args(tp):
            raise VariantError(f"{where}: {value!r} is not valid; choose {_type_name(tp)}")
        return value
    if origin in (types.UnionType, typing.Union):
        for arg in get_args(tp):
            if arg is type(None):
                continue
            try:
                return _convert(arg, value, where)
            except VariantError:
                continue  # try the union's next type
        raise VariantError(f"{where}: {value!r} is not {_type_name(tp)}")
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise VariantError(f"{where}: expected {_type_name(tp)}, got {value!r}")
        (item_tp, *_rest) = get_args(tp)
        return tuple(_convert(item_tp, v, f"{where}[{i}]") for i, v in enumerate(value))
    if origin is FrozenMap:
        if not isinstance(value, Mapping):
            raise VariantError(f"{where}: expected {_type_name(tp)}, got {value!r}")
        _key_tp, val_tp = get_args(tp)
        return FrozenMap({str(k): _convert(val_tp, v, f"{where}.{k}") for k, v in value.items()})
    if isinstance(tp, type) and hasattr(tp, "from_toml"):
        return tp.from_toml(value, where)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if not isinstance(value, Mapping):
            raise VariantError(f"{where}: expected a table, got {value!r}")
        return build(tp, value, where)
    if tp is bool:
        if not isinstance(value, bool):
            raise VariantError(f"{where}: expected true or false, got {value!r}")
        return value
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise VariantError(f"{where}: expected an integer, got {value!r}")
        return value
    if tp is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise VariantError(f"{where}: expected a number, got {value!r}")
        return float(value)
    if tp is str:
        if not isinstance(value, str):
            raise VariantError(f"{where}: expected a string, got {value!r}")
        return value
    raise TypeError(f"schema annotation {tp!r} at {where} is not supported")  # programming error


def file_key(f: dataclasses.Field[Any]) -> str:
    """The key a dataclass field is written under in a variant file."""
    return str(f.metadata.get("key", f.name))


def file_fields(cls: type) -> list[dataclasses.Field[Any]]:
    """The fields of ``cls`` a file may set (derived ``init=False`` fields left out)."""
    return [f for f in dataclasses.fields(cls) if f.init]


def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls, globalns=vars(__import__(cls.__module__, fromlist=["_"])))


def build(cls: type[T], table: Mapping[str, Any], where: str, *, label: str = "") -> T:
    """Build the frozen dataclass ``cls`` from ``table``, rejecting unknown keys and bad types.

    ``where`` names the place for error messages, e.g. ``"guangxi.toml: [ranking]"``; ``label``,
    when given, names what the table describes in the unknown-key message.
    """
    if not isinstance(table, Mapping):
        raise VariantError(f"{where}: expected a table, got {table!r}")
    hints = _hints(cls)
    fields = {file_key(f): f for f in file_fields(cls)}
    unknown = sorted(set(table) - set(fields))
    if unknown:
        what = f" for {label}" if label else ""
        valid = ", ".join(sorted(fields))
        raise VariantError(f"{where}: unknown key {unknown[0]!r}{what}; valid keys are: {valid}")
    kwargs: dict[str, Any] = {}
    for key, field in fields.items():
        if key in table:
            kwargs[field.name] = _convert(hints[field.name], table[key], f"{where}.{key}")
        elif field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING:
            raise VariantError(
                f"{where}: missing required key {key!r} ({_type_name(hints[field.name])})"
            )
    try:
        return cls(**kwargs)
    except VariantError:
        raise
    except (ValueError, TypeError) as exc:
        raise VariantError(f"{where}: {exc}") from exc


def describe_schema(cls: type) -> list[tuple[str, str]]:
    """(key, type description) for each field a file may set, for docs and error messages."""
    hints = _hints(cls)
    return [(file_key(f), _type_name(hints[f.name])) for f in file_fields(cls)]


def to_plain(obj: Any, *, sources: bool = True) -> Any:
    """A rule object as plain TOML-like data (dicts, lists, scalars), keyed as files write it,
    for hashing and display; ``sources=False`` leaves out every ``source`` citation."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {
            file_key(f): to_plain(getattr(obj, f.name), sources=sources)
            for f in file_fields(type(obj))
            if sources or f.name != "source"
        }
    if isinstance(obj, Mapping):
        return {str(k): to_plain(v, sources=sources) for k, v in obj.items()}
    if isinstance(obj, tuple | list):
        return [to_plain(v, sources=sources) for v in obj]
    return obj
