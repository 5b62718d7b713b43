"""The ``expert`` level: the strongest bot of each game, chosen when a match starts.

Which bot is strongest is a measurement (docs/strength.md, duplicate play with intervals), so
the choice is a table, not a rule: ``pimc`` where it was measured stronger than ``ismcts``,
and ``ismcts`` elsewhere, with the greedy playouts at the Hearts tables where they measured
stronger than random ones (four, five and six seats, and Filippa). ``pimc`` needs the solver's
compiled core to be strong (the pure Python solver buys a few worlds a decision, and its bids
fall back to playouts), so where the core is not built every game gets ``ismcts``; in Spades
it needs DDS too (its worlds solved from the first card: without DDS it lost to ``ismcts``),
and Euchre is DDS's alone, so without endplay their expert is ``ismcts`` (and in cut-throat
Spades and Euchre, which DDS does not model).

Both search with a budget a person does not wait on: 0.5 s a decision at most.
"""

from __future__ import annotations

from typing import Final

from tricktable.bots.base import Bot, Delegate
from tricktable.engine.trick import Game

#: the budget of the expert's ismcts: a person never waits more than 0.5 s a decision
_ISMCTS_BUDGET: Final = "iterations=500,max_seconds=0.5"
#: the expert of a game not in :data:`STRONGEST`: card play searched by ismcts
ISMCTS: Final = f"ismcts({_ISMCTS_BUDGET})"
#: the expert's bot by the game's ``name`` where it is not ismcts, and the measurement that
#: put it there (docs/strength.md): pimc v ismcts, duplicate, 95% interval above 0 — Setback
#: +0.475 over 1,100 deals; Spades (whole hands by DDS) +22.5 over 80 deals; partnership
#: Euchre (by DDS) +0.062 over 600 deals
STRONGEST: Final[dict[str, str]] = {
    "setback": "pimc(max_seconds=0.5)",
    "spades": "pimc(max_seconds=0.5)",
    "euchre": "pimc(max_seconds=0.5)",
}
#: the games whose expert is pimc only where DDS is installed, at the tables it models (see
#: the module): partnership Spades and Euchre
NEEDS_DDS: Final = frozenset({"spades", "euchre"})


def expert_spec(game: Game) -> str:
    """The spec of the bot that is ``game``'s expert (see the module)."""
    spec = STRONGEST.get(game.name)
    if spec is None or not _solver_compiled():
        return ismcts_spec(game)
    if game.name in NEEDS_DDS and not _dds_loaded(game):
        return ismcts_spec(game)
    return spec


def ismcts_spec(game: Game) -> str:
    """:data:`ISMCTS` with the playout it was measured strongest with in ``game`` (greedy at
    the tables of :data:`~tricktable.search.playouts.GREEDY_MEASURED`)."""
    from tricktable.search.playouts import measured_playout

    playout = measured_playout(game)
    return ISMCTS if playout == "random" else f"ismcts({_ISMCTS_BUDGET},playout={playout})"


def _solver_compiled() -> bool:
    from tricktable.search.solver import fast

    return fast.available()


def _dds_loaded(game: Game) -> bool:
    from tricktable.search.solver import dds

    return dds.usable(game)


class ExpertBot(Delegate):
    """The ``expert`` level: at each match's start, the strongest bot of its game (plays as
    that bot, and is named by it in records)."""

    name = "expert"

    def __init__(self) -> None:
        super().__init__()
        self._spec = ""

    def choose(self, game: Game) -> Bot | None:
        spec = expert_spec(game)
        if self._inner is not None and spec == self._spec:
            return None
        from tricktable.bots.registry import make_builtin

        made = make_builtin(spec)
        assert made is not None  # every spec of this module is a built-in bot's
        self._spec = spec
        self.name = made.name
        return made
