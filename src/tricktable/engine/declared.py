"""The classes a game names in its declarations, imported when first asked for.

A :class:`~tricktable.engine.trick.Game` declares its companions beside its rules, as
``"module:Class"`` text: ``heuristic_bot``, ``presenter`` (the table),
``statistics`` (simulate). Text rather than classes, so that the engine imports no layer above
it (the UI's presenters need Rich) and a command loads only what it uses. Each layer asks for
its own declaration here with the base class it expects; "" (the default) means that base
class, the generic companion, so a new game is shown and counted without code of its own.

>>> from tricktable.games import load_game
>>> from tricktable.stats import GameStats
>>> declared(type(load_game("hearts")), "statistics", GameStats).__name__
'HeartsStats'
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, TypeVar

from tricktable.errors import TricktableError

if TYPE_CHECKING:
    from tricktable.engine.trick import Game

T = TypeVar("T")

#: (game class, declaration) -> the class it names: each is imported and checked once
_LOADED: dict[tuple[type, str], type] = {}


def declared(game: type[Game], attribute: str, base: type[T]) -> type[T]:
    """The class that ``game``'s ``attribute`` names, a subclass of ``base`` (``base`` for "").

    Raises :class:`TricktableError` naming the game and its declaration when the text does not
    name a class, cannot be imported, or names a class of the wrong kind.
    """
    key = (game, attribute)
    loaded = _LOADED.get(key)
    if loaded is None:
        loaded = _load(game, attribute, base)
        _LOADED[key] = loaded
    return loaded


def _load(game: type[Game], attribute: str, base: type[T]) -> type[T]:
    target = getattr(game, attribute, "")
    if not target:
        return base
    where = f"{game.__name__}.{attribute} = {target!r}"
    module, _, name = str(target).partition(":")
    if not module or not name:
        raise TricktableError(f"{where}: expected 'module:Class'")
    try:
        cls = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as exc:
        raise TricktableError(f"{where}: cannot import it: {exc}") from None
    if not (isinstance(cls, type) and issubclass(cls, base)):
        raise TricktableError(f"{where}: not a subclass of {base.__name__}")
    return cls
