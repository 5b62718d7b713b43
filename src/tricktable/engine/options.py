"""Rule options: one frozen dataclass per game, read from text such as ``setback(target=11)``.

A field's type says how its value is read (``int``, ``bool``, ``str`` or a ``Literal`` of
choices); ``metadata={"doc": ..., "range": (lo, hi)}`` documents it and bounds ints. A field
with a spelling of its own gives ``"read"`` (text or a JSON value to the value, raising
ValueError) and ``"values"`` (how help shows what it takes).

A field marked ``"recorded": "if changed"`` came after records existed: a record names it
only where it differs from the variant's own value (:meth:`Game.options_dict`), so that
every record written before it still reads, and writes, the same.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import typing
from collections.abc import Mapping
from typing import Any, Literal, get_args, get_origin

from tricktable.errors import OptionError, quote

_SPEC = re.compile(r"^\s*([A-Za-z][\w-]*)\s*(?:\((.*)\))?\s*$", re.S)
_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


#: an integer option's text: ASCII digits, perhaps a minus sign, at most 18 of them
_INTEGER = re.compile(r"-?[0-9]{1,18}")
_ITEM = re.compile(r"""\s*([^=,\s]+)\s*=\s*("[^"]*"|'[^']*'|[^,]*?)\s*(?:,|$)""")


def parse_spec(text: str) -> tuple[str, dict[str, str]]:
    """Split ``name(key=value,...)`` into the name and its raw option values.

    A value in quotes may hold commas: ``setback(points="high,low,jack,game")``. A key given
    twice is an error: which of ``setback(target=5,target=7)`` was meant is not ours to guess.

    >>> parse_spec("setback(target=11, low_to=dealt)")
    ('setback', {'target': '11', 'low_to': 'dealt'})
    >>> parse_spec('setback(points="high,low", target=7)')[1]
    {'points': 'high,low', 'target': '7'}
    """
    match = _SPEC.match(text)
    if not match:
        raise OptionError(f"cannot read game {quote(text)}: write NAME or NAME(option=value,...)")
    name, body = match.group(1).lower(), (match.group(2) or "").strip()
    values: dict[str, str] = {}
    pos = 0
    while pos < len(body):
        item = _ITEM.match(body, pos)
        if not item or item.end() == pos:
            rest = body[pos:].split(",")[0].strip()
            raise OptionError(
                f"cannot read option {quote(rest, 40)} in {quote(text)}: write key=value"
            )
        key, value = item.group(1), item.group(2)
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        if key in values:
            raise OptionError(f"option {quote(key, 40)} is given twice in {quote(text)}")
        values[key] = value
        pos = item.end()
    return name, values


def format_value(value: object) -> str:
    """An option value as a spec writes it (quoted when it holds a comma or parenthesis)."""
    text = str(value).lower() if isinstance(value, bool) else str(value)
    return f'"{text}"' if any(ch in text for ch in ",()= ") else text


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    # Resolving string annotations is slow; every preset at start-up asks for the same classes.
    return typing.get_type_hints(cls)


def _kind(cls: type, field: dataclasses.Field[Any]) -> Any:
    return _hints(cls)[field.name]


def describe_value(cls: type, field: dataclasses.Field[Any]) -> str:
    """What values a field takes, for help and error messages."""
    if "values" in field.metadata:
        return str(field.metadata["values"])
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
        f"{game}: bad value {quote(raw, 40)} for option {field.name!r}; "
        f"valid: {describe_value(cls, field)}"
    )
    if not isinstance(raw, str | int | float):
        raise bad  # a list or a table from a record or a rules file: no option takes one
    reader = field.metadata.get("read")
    if reader is not None:
        try:
            return reader(text)
        except (TypeError, ValueError):
            raise bad from None
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
        # ASCII digits only: int() also reads "1_0", "+5" and other scripts' digits ("٥"),
        # which no one writes as a number of points on purpose.
        if isinstance(text, str) and not _INTEGER.fullmatch(text):
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
            # Names alone keep the line short; ``tricktable rules GAME`` gives each one's values.
            valid = ", ".join(fields)
            raise OptionError(f"{game}: unknown option {quote(key, 40)}; valid options: {valid}")
        changes[name] = _convert(cls, fields[name], raw, game)
    start = base if base is not None else cls()
    try:
        return dataclasses.replace(start, **changes)
    except OptionError:
        raise
    except ValueError as exc:
        raise OptionError(f"{game}: {exc}") from None


def options_dict(options: Any, baseline: Any = None) -> dict[str, object]:
    """The options as a JSON-ready dict, in field order; given the variant's own options
    (``baseline``), a field recorded "if changed" is left out where it equals them."""
    out: dict[str, object] = {}
    for f in dataclasses.fields(options):
        value = getattr(options, f.name)
        if (
            baseline is not None
            and f.metadata.get("recorded") == "if changed"
            and getattr(baseline, f.name) == value
        ):
            continue
        out[f.name] = value
    return out


def option_rows(options: Any) -> list[tuple[str, str, str, str]]:
    """(name, valid values, value, doc) of each option, for ``tricktable rules``."""
    cls = type(options)
    return [
        (f.name, describe_value(cls, f), str(getattr(options, f.name)), f.metadata.get("doc", ""))
        for f in dataclasses.fields(options)
    ]
