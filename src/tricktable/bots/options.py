"""Options of a built-in bot, written as a game's are: ``pimc(worlds=20, max_seconds=0.2)``.

The keys are the parameters of the bot class's constructor and each value is read by the
parameter's annotation (``int``, ``float``, ``bool``, ``str``, or one of them ``| None``,
where ``none`` gives None), so a bot declares its options once, in its signature, and the
command line, records and tournaments all take them from there.
"""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Callable
from typing import Any

from tricktable.bots.base import Bot
from tricktable.engine.options import parse_spec
from tricktable.errors import BotError, OptionError

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}
_NAMES: dict[Any, str] = {
    int: "whole number",
    float: "number",
    bool: "true or false",
    str: "text",
    type(None): "none",
}


def configured(cls: Callable[..., Bot], spec: str) -> Bot:
    """A new ``cls`` with the options of ``spec`` (``name(key=value, ...)``)."""
    try:
        name, raw = parse_spec(spec)
    except OptionError as exc:
        raise BotError(f"cannot read player {spec!r}: write NAME(option=value,...)") from exc
    params = _parameters(cls)
    kwargs: dict[str, Any] = {}
    for key, text in raw.items():
        if key not in params:
            valid = ", ".join(params) or "none"
            raise BotError(f"the {name} bot has no option {key!r}; its options: {valid}")
        kwargs[key] = _read(name, key, text, params[key])
    try:
        return cls(**kwargs)
    except (ValueError, TypeError) as exc:
        raise BotError(f"player {spec!r}: {exc}") from None


def _parameters(cls: Callable[..., Bot]) -> dict[str, Any]:
    """The constructor's keyword parameters and their resolved annotations."""
    init = getattr(cls, "__init__", None)
    try:
        hints = typing.get_type_hints(init) if init is not None else {}
        signature = inspect.signature(cls)
    except (TypeError, ValueError, NameError):
        return {}
    return {
        p.name: hints.get(p.name, str)
        for p in signature.parameters.values()
        if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
    }


def _read(bot: str, key: str, text: str, kind: Any) -> Any:
    """``text`` as a value of the annotation ``kind``: a :class:`BotError` naming what fits."""
    kinds = typing.get_args(kind) if isinstance(kind, types.UnionType) else (kind,)
    if type(None) in kinds and text.strip().lower() == "none":
        return None
    value = text.strip()
    for one in kinds:
        if one is bool:
            if value.lower() in _TRUE:
                return True
            if value.lower() in _FALSE:
                return False
        elif one is int:
            try:
                return int(value)
            except ValueError:
                pass
        elif one is float:
            try:
                return float(value)
            except ValueError:
                pass
        elif one is str:
            return value
    wanted = " or ".join(_NAMES.get(k, getattr(k, "__name__", str(k))) for k in kinds)
    raise BotError(f"the {bot} bot's option {key}={text!r} is not a {wanted}")


__all__ = ["configured"]
