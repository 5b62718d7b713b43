"""The ``expert`` level: the strongest bot of each game, chosen when a match starts.

Which bot is strongest is a measurement (docs/strength.md, duplicate play with intervals), so
the choice is a table, not a rule: ``pimc`` where it was measured stronger than ``ismcts``,
and ``ismcts`` elsewhere. ``pimc`` needs the solver's compiled core to be strong (the pure
Python solver buys a few worlds a decision, and its bids fall back to playouts), so where the
core is not built every game gets ``ismcts``.

Both search with a budget a person does not wait on: 0.5 s a decision at most.
"""

from __future__ import annotations

from typing import Final

from tricktable.bots.base import Bot
from tricktable.engine.results import HandResult
from tricktable.engine.trick import Game, View
from tricktable.errors import BotError

#: the expert of a game not in :data:`STRONGEST`: card play searched by ismcts
ISMCTS: Final = "ismcts(iterations=500,max_seconds=0.5)"
#: the expert's bot by the game's ``name`` where it is not ismcts, and the measurement that
#: put it there (docs/strength.md): pimc v ismcts in Setback, duplicate, 95% interval above 0
STRONGEST: Final[dict[str, str]] = {"setback": "pimc(max_seconds=0.5)"}


def expert_spec(game: Game) -> str:
    """The spec of the bot that is ``game``'s expert (see the module)."""
    spec = STRONGEST.get(game.name)
    if spec is None or not _solver_compiled():
        return ISMCTS
    return spec


def _solver_compiled() -> bool:
    from tricktable.search.solver import fast

    return fast.available()


class ExpertBot(Bot):
    """The ``expert`` level: at each match's start, the strongest bot of its game (plays as
    that bot, and is named by it in records)."""

    name = "expert"

    def __init__(self) -> None:
        self._bot: Bot | None = None
        self._spec = ""

    def start_match(self, game: Game, seat: int, seed: int) -> None:
        super().start_match(game, seat, seed)
        spec = expert_spec(game)
        if self._bot is None or spec != self._spec:
            from tricktable.bots.registry import make_builtin

            self.close()
            made = make_builtin(spec)
            assert made is not None  # every spec of this module is a built-in bot's
            self._bot, self._spec = made, spec
            self.name = made.name
        self._bot.start_match(game, seat, seed)

    def act(self, view: View) -> int:
        return self._playing().act(view)

    def end_hand(self, view: View, result: HandResult) -> None:
        self._playing().end_hand(view, result)

    def end_match(self, view: View) -> None:
        self._playing().end_match(view)

    def close(self) -> None:
        if self._bot is not None:
            self._bot.close()

    def _playing(self) -> Bot:
        if self._bot is None:
            raise BotError("the expert bot was not started")
        return self._bot
