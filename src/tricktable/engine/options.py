"""Rule options: one frozen dataclass per game, read from text such as ``setback(target=11)``.

A field's type says how its value is read (``int``, ``bool``, ``str`` or a ``Literal`` of
choices); ``metadata={"doc": ..., "range": (lo, hi)}`` documents it and bounds ints.
"""

from __future__ import annotations

import dataclasses
import re
import typing
from collections.abc import Mapping
from typing import Any, Literal, get_args, get_origin

from tricktable.errors import OptionError

_SPEC = re.compile(r"^\s*([A-Za-z][\w-]*)\s*(?:\((.*)\))?\s*$", re.S)
_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def parse_spec(text: str) -> tuple[str, dict[str, str]]:
    """Split ``name(key=value,...)`` into the name and its raw option values.

    >>> parse_spec("setback(target=11, low_to=dealt)")
    ('setback', {'target': '11', 'low_to': 'dealt'})
    """
    match = _SPEC.match(text)
    if not match:
        raise OptionError(f"cannot read game {text!r}: write NAME or NAME(option=value,...)")
    name, body = match.group(1).lower(), match.group(2)
    values: dict[str, str] = {}
    for item in (body or "").split(","):
        if not item.strip():
            continue
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise OptionError(f"cannot read option {item.strip()!r} in {text!r}: write key=value")
        values[key.strip()] = value.strip()
    return name, values


def _kind(cls: type, field: dataclasses.Field[Any]) -> Any:
    return typing.get_type_hints(cls)[field.name]


def describe_value(cls: type, field: dataclasses.Field[Any]) -> str:
    """What values a field takes, for help and error messages."""
    kind = _kind(cls, field)
    if get_origin(kind) is Literal:
        return " | ".join(str(a) for a in get_args(kind))
    if kind is bool:
        return "true | false"
    if kind is int:
        lo, hi = field.metadata.get("range", (None, None))
        return f"integer {lo}..{hi}" if lo is not None else "integer"
    return "text"


def _convert(cls: type, field: dataclasses.Field[Any], raw: object, game: str) -> object:
    kind = _kind(cls, field)
    text = str(raw).strip().strip("\"'") if not isinstance(raw, bool | int) else raw
    bad = OptionError(
        f"{game}: bad value {raw!r} for option {field.name!r}; valid: {describe_value(cls, field)}"
    )
    if kind is bool:
        if isinstance(text, bool):
            return text
        word = str(text).lower()
        if word in _TRUE:
            return True
        if word in _FALSE:
            return False
        raise bad
    if kind is int:
        if isinstance(text, bool):
            raise bad
        try:
            value = int(text)
        except (TypeError, ValueError):
            raise bad from None
        lo, hi = field.metadata.get("range", (None, None))
        if lo is not None and not lo <= value <= hi:
            raise bad
        return value
    if get_origin(kind) is Literal:
        word = str(text).lower()
        if word not in get_args(kind):
            raise bad
        return word
    return str(text)


def build_options(cls: type, values: Mapping[str, object], game: str, base: Any = None) -> Any:
    """An options object of ``cls``: ``base`` (or the defaults) with ``values`` applied.

    Unknown keys and bad values raise :class:`OptionError` listing what is valid.
    """
    fields = {f.name: f for f in dataclasses.fields(cls)}
    changes: dict[str, object] = {}
    for key, raw in values.items():
        name = key.strip().replace("-", "_")
        if name not in fields:
            valid = ", ".join(f"{n} ({describe_value(cls, f)})" for n, f in fields.items())
            raise OptionError(f"{game}: unknown option {key!r}; valid options: {valid}")
        changes[name] = _convert(cls, fields[name], raw, game)
    start = base if base is not None else cls()
    try:
        return dataclasses.replace(start, **changes)
    except OptionError:
        raise
    except ValueError as exc:
        raise OptionError(f"{game}: {exc}") from None


def options_dict(options: Any) -> dict[str, object]:
    """The options as a JSON-ready dict, in field order."""
    return {f.name: getattr(options, f.name) for f in dataclasses.fields(options)}


def option_rows(options: Any) -> list[tuple[str, str, str, str]]:
    """(name, valid values, value, doc) of each option, for ``tricktable rules``."""
    cls = type(options)
    return [
        (f.name, describe_value(cls, f), str(getattr(options, f.name)), f.metadata.get("doc", ""))
        for f in dataclasses.fields(options)
    ]
