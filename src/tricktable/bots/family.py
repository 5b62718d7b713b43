"""The ``heuristic`` player: whichever game is played, that game's own heuristic bot."""

from __future__ import annotations

from tricktable.bots.base import Bot
from tricktable.bots.registry import load_class
from tricktable.engine.results import HandResult
from tricktable.engine.trick import Game, View
from tricktable.errors import BotError


class FamilyHeuristic(Bot):
    """Plays each game with the heuristic bot its ``Game.heuristic_bot`` names."""

    name = "heuristic"

    def __init__(self) -> None:
        self._inner: Bot | None = None
        self._for: type[Game] | None = None

    def start_match(self, game: Game, seat: int, seed: int) -> None:
        super().start_match(game, seat, seed)
        if self._inner is None or self._for is not type(game):
            if not game.heuristic_bot:
                raise BotError(f"{game.name} has no heuristic bot")
            self._inner = load_class(game.heuristic_bot)()
            self._for = type(game)
        self._inner.start_match(game, seat, seed)

    def _bot(self) -> Bot:
        if self._inner is None:
            raise BotError("the heuristic bot was not started")
        return self._inner

    def act(self, view: View) -> int:
        return self._bot().act(view)

    def end_hand(self, view: View, result: HandResult) -> None:
        self._bot().end_hand(view, result)

    def end_match(self, view: View) -> None:
        self._bot().end_match(view)

    def close(self) -> None:
        if self._inner is not None:
            self._inner.close()
