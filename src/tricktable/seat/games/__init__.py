"""How each game is shown at the table: its actions, phases, public facts and hand results.

A :class:`Presenter` turns a game's states, views and hand results into lines of text for the
terminal table (:mod:`tricktable.ui.terminal`) and the replay account. The base class is the
generic presenter: it describes any game from ``View.info()`` and its hand results'
``to_dict()``, so a new game is shown without code; a game's own presenter reads its typed
result's fields. A game that deserves more names its own subclass in its class
(``Game.presenter = "module:Class"``, imported only when the game is shown); the built-in
games' presenters are this package's modules.

Presenters only format. The table decides when to show what, and a seat's private action (a
Hearts pass, a Euchre discard) is spelt out only for the seats :attr:`Seating.watchers` name —
the humans at the keyboard, or every seat in the account of a finished match.
"""

from __future__ import annotations

from tricktable.engine.declared import declared
from tricktable.engine.trick import Game
from tricktable.seat.games.base import (
    Presenter,
    Seating,
    card_text,
    cards_text,
    join,
    line,
    safely,
    suit_text,
    verb,
)


def presenter_for(game: Game) -> Presenter:
    """The presenter ``game`` declares (``Game.presenter``), the generic one if it has none."""
    return declared(type(game), "presenter", Presenter)(game)


__all__ = [
    "Presenter",
    "Seating",
    "card_text",
    "cards_text",
    "join",
    "line",
    "presenter_for",
    "safely",
    "suit_text",
    "verb",
]
