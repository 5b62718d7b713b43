"""Bots by name: ``random``, ``heuristic`` (and, from transports, programs and URLs)."""

from __future__ import annotations

import importlib
from collections.abc import Callable

from tricktable.bots.base import Bot
from tricktable.errors import BotError

#: name -> "module:Class" of the built-in bots, imported only when used
BUILTIN: dict[str, str] = {
    "random": "tricktable.bots.random_bot:RandomBot",
    "heuristic": "tricktable.bots.family:FamilyHeuristic",
}


def load_class(target: str) -> Callable[[], Bot]:
    """The bot class a ``module:Class`` target names; a :class:`BotError` if it cannot load."""
    module, _, cls = target.partition(":")
    try:
        loaded: Callable[[], Bot] = getattr(importlib.import_module(module), cls)
        return loaded
    except (ImportError, AttributeError) as exc:
        raise BotError(f"cannot load bot {target!r}: {exc}") from None


def make_bot(spec: str) -> Bot:
    """A new bot from its name; raises :class:`BotError` naming the valid choices."""
    name = spec.strip()
    target = BUILTIN.get(name.lower())
    if target is None:
        valid = ", ".join(sorted(BUILTIN))
        raise BotError(f"unknown player {spec!r}; valid: human, {valid}")
    return load_class(target)()


def bot_names() -> list[str]:
    """The names of the built-in bots."""
    return sorted(BUILTIN)
