"""How each game is shown at the table: its actions, phases, public facts and hand results.

A :class:`Presenter` turns a game's states, views and hand results into lines of text for the
terminal table (:mod:`tricktable.ui.terminal`) and the replay account. The base class is the
generic presenter: it describes any game from ``View.info()`` and its hand results'
``to_dict()``, so a new game is shown without code; a game's own presenter reads its typed
result's fields. Games that deserve more register a subclass under their base
game name in :data:`PRESENTERS`.

Presenters only format. The table decides when to show what, and a seat's private action (a
Hearts pass, a Euchre discard) is spelt out only for the seats :attr:`Seating.watchers` name —
the humans at the keyboard, or every seat in the account of a finished match.
"""

from __future__ import annotations

from tricktable.engine.trick import Game
from tricktable.ui.games.base import (
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
from tricktable.ui.games.euchre import EuchrePresenter
from tricktable.ui.games.hearts import FilippaPresenter, HeartsPresenter
from tricktable.ui.games.oh_hell import OhHellPresenter
from tricktable.ui.games.pitch import SetbackPresenter
from tricktable.ui.games.spades import SpadesPresenter
from tricktable.ui.games.tricks import TricksPresenter

#: base game name -> its presenter class; games not listed get the generic :class:`Presenter`
PRESENTERS: dict[str, type[Presenter]] = {
    "setback": SetbackPresenter,
    "euchre": EuchrePresenter,
    "hearts": HeartsPresenter,
    "filippa": FilippaPresenter,
    "spades": SpadesPresenter,
    "oh-hell": OhHellPresenter,
    "tricks": TricksPresenter,
}


def presenter_for(game: Game) -> Presenter:
    """The presenter of ``game`` (by its base name), the generic one for a game without its own."""
    return PRESENTERS.get(game.name, Presenter)(game)


__all__ = [
    "PRESENTERS",
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
