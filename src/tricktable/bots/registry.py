"""The built-in bots by name, and the one way to make one: ``random``, ``pimc(worlds=20)``...

Kept apart from :func:`tricktable.bots.make_bot` (which also reads characters, programs,
URLs and plug-ins) so that a character, which plays its cards with a built-in bot, can make
one without importing the whole of ``make_bot``'s choices: the characters import this module,
and ``make_bot`` imports the characters.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from tricktable.bots.base import Bot
from tricktable.bots.options import configured
from tricktable.errors import BotError

#: name -> "module:Class" of the built-in bots, imported only when used
BUILTIN: dict[str, str] = {
    "random": "tricktable.bots.random_bot:RandomBot",
    "heuristic": "tricktable.bots.family:FamilyHeuristic",
    "ismcts": "tricktable.bots.ismcts:IsmctsBot",
    "pimc": "tricktable.bots.pimc:PimcBot",
    "cfr": "tricktable.bots.cfr_bot:CfrBot",
    # OpenSpiel's own Hearts bots, through a mirror of the hand (the `openspiel` extra)
    "openspiel-ismcts": "tricktable.bridges.openspiel:OpenSpielIsmctsBot",
    "openspiel-random": "tricktable.bridges.openspiel:OpenSpielRandomBot",
}


def load_class(target: str) -> Callable[[], Bot]:
    """The bot class a ``module:Class`` target names; a :class:`BotError` if it cannot load."""
    module, _, cls = target.partition(":")
    try:
        loaded: Callable[[], Bot] = getattr(importlib.import_module(module), cls)
        return loaded
    except (ImportError, AttributeError) as exc:
        raise BotError(f"cannot load bot {target!r}: {exc}") from None


def builtin_name(spec: str) -> str | None:
    """The built-in bot ``spec`` names, with options or without (``PIMC(worlds=2)`` -> pimc),
    or None.

    >>> builtin_name("pimc(worlds=20)"), builtin_name("edna")
    ('pimc', None)
    """
    base = spec.strip().partition("(")[0].strip().lower()
    return base if base in BUILTIN else None


def make_builtin(spec: str) -> Bot | None:
    """A new built-in bot from its spec (``random``, ``pimc(worlds=20)``), or None when
    ``spec`` names none; bad options raise :class:`BotError`."""
    name = spec.strip()
    target = BUILTIN.get(name.lower())
    if target is not None:
        return load_class(target)()
    base, paren, _ = name.partition("(")
    if paren and base.strip().lower() in BUILTIN:
        return configured(load_class(BUILTIN[base.strip().lower()]), name)
    return None


__all__ = ["BUILTIN", "builtin_name", "load_class", "make_builtin"]
