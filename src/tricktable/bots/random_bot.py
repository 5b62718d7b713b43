"""The random bot: uniform over the legal actions, from its own seeded generator."""

from __future__ import annotations

import random

from tricktable.bots.base import Bot
from tricktable.engine.trick import Game, View


class RandomBot(Bot):
    """Chooses uniformly among the legal actions."""

    name = "random"

    def start_match(self, game: Game, seat: int, seed: int) -> None:
        super().start_match(game, seat, seed)
        self._random = random.Random(seed).random

    def act(self, view: View) -> int:
        legal = view.legal_actions()
        return legal[int(self._random() * len(legal))]
