"""What the bots beside the heuristic (``ismcts``, ``pimc``, ``cfr``) share: a delegate for the
decisions a bot does not make itself, and a per-decision random generator.

Each decides what it can — ``ismcts`` card play, ``pimc`` card play and (Setback and the Pitch
presets) bids by simulation, ``cfr`` Setback's bids and cards from its trained strategy,
without searching — and hands every other phase (trump choice, discards, card passing, the
auction where it does not bid) and any decision it cannot make to the game's heuristic bot
(:func:`other_phases_bot`; random play in a game without one). Each draws its decisions from
a generator seeded by (the seat's seed, the hand's number, the view's step)
(:func:`decision_rng`), so a match resumed from its record plays on the same.
"""

from __future__ import annotations

import random

from tricktable.bots.base import Bot
from tricktable.engine.results import HandResult
from tricktable.engine.trick import Game, View
from tricktable.errors import BotError


class SearchBot(Bot):
    """A bot that makes some decisions itself and hands the rest to :meth:`_delegate`."""

    def __init__(self) -> None:
        self._seed = 0
        self._other: Bot | None = None

    def start_match(self, game: Game, seat: int, seed: int) -> None:
        super().start_match(game, seat, seed)
        self._seed = seed
        self.close()
        self._other = other_phases_bot(game)
        self._other.start_match(game, seat, seed)

    def end_hand(self, view: View, result: HandResult) -> None:
        if self._other is not None:
            self._other.end_hand(view, result)

    def end_match(self, view: View) -> None:
        if self._other is not None:
            self._other.end_match(view)

    def close(self) -> None:
        if self._other is not None:
            self._other.close()
            self._other = None

    def _delegate(self) -> Bot:
        """The bot that makes the decisions this one does not (see :func:`other_phases_bot`)."""
        if self._other is None:
            raise BotError(f"the {self.name} bot was not started")
        return self._other

    def _rng(self, view: View) -> random.Random:
        """This decision's generator (:func:`decision_rng`)."""
        return decision_rng(self._seed, view)


def decision_rng(seed: int, view: View) -> random.Random:
    """A decision's generator, from (the seat's seed, the hand's number, the view's step): the
    same decision draws the same numbers, in a match resumed from its record too."""
    key = (seed & (1 << 64) - 1) << 40 ^ view.hand_number << 16 ^ view.step
    return random.Random(key)


def other_phases_bot(game: Game) -> Bot:
    """The bot that plays the phases a search does not: the game's heuristic, or random."""
    from tricktable.bots import load_class

    if game.heuristic_bot:
        return load_class(game.heuristic_bot)()
    from tricktable.bots.random_bot import RandomBot

    return RandomBot()
