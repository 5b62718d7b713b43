"""The ``heuristic`` player: whichever game is played, that game's own heuristic bot."""

from __future__ import annotations

from tricktable.bots.base import Bot, Delegate
from tricktable.bots.registry import load_class
from tricktable.engine.trick import Game
from tricktable.errors import BotError


class FamilyHeuristic(Delegate):
    """Plays each game with the heuristic bot its ``Game.heuristic_bot`` names."""

    name = "heuristic"

    def __init__(self) -> None:
        super().__init__()
        self._for: type[Game] | None = None

    def choose(self, game: Game) -> Bot | None:
        if self._inner is not None and self._for is type(game):
            return None
        if not game.heuristic_bot:
            raise BotError(f"{game.name} has no heuristic bot")
        self._for = type(game)
        made: Bot = load_class(game.heuristic_bot)()
        return made
