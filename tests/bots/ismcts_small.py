"""Bots for the ismcts strength test, loaded by path: a small search, and its yardstick.

``SmallIsmcts`` is the ``ismcts`` bot with few iterations (fast enough for CI);
``HeuristicBidRandomPlay`` bids (and passes, names trump...) exactly as the ismcts bot does —
the game's heuristic — but plays random cards, so a duel between the two measures card play.
"""

from __future__ import annotations

from tricktable.bots.ismcts import IsmctsBot
from tricktable.bots.random_bot import RandomBot
from tricktable.engine.trick import PLAY, Game, View


class SmallIsmcts(IsmctsBot):
    """ISMCTS with 60 iterations a decision."""

    name = "ismcts-small"

    def __init__(self) -> None:
        super().__init__(iterations=60, max_seconds=None)


class HeuristicBidRandomPlay(IsmctsBot):
    """The heuristic outside card play, uniformly random cards in it."""

    name = "heuristic-bid-random-play"

    def __init__(self) -> None:
        super().__init__(iterations=1)
        self._random = RandomBot()

    def start_match(self, game: Game, seat: int, seed: int) -> None:
        super().start_match(game, seat, seed)
        self._random.start_match(game, seat, seed)

    def act(self, view: View) -> int:
        if view.phase == PLAY:
            return self._random.act(view)
        return super().act(view)
