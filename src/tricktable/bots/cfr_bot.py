"""The ``cfr`` bot: Setback from a trained CFR strategy (seed 003), the heuristic where unseen.

At each decision it computes its seat's abstract decision (:func:`tricktable.cfr.keys.decision`,
from the view alone). A decision with one abstract action plays that action's card. Otherwise
it looks the key up in the strategy database and draws an abstract action from the stored
*average* strategy (the one CFR's guarantees are about) with its per-decision generator —
seeded by (the seat's seed, the hand's number, the view's step), so a seed gives the same
match, resumed or not — and plays the concrete action it names. A key the database lacks is
played by the heuristic (:class:`~tricktable.bots.pitch_heuristic.PitchHeuristic`); ``seen``
and ``unseen`` count the keyed decisions of each kind.

The database is the ``db`` option (``--players "cfr(db=strategy.db),..."``; the registry
reads a built-in bot's options from its constructor) or, by default, the strategy shipped in
the package (``tricktable/cfr/data/setback.db``, see docs/cfr.md).

Only Setback with the rules the strategy was trained on plays: the keys assume one joker, an
off-jack that stays in its suit, six cards a seat, partnerships and bids 2 to 6; only the
target and the way a match is won (the keys are score-blind) may differ (``setback-11``).
"""

from __future__ import annotations

import os
from importlib.resources import as_file, files
from pathlib import Path
from typing import Final

from tricktable.bots.search_base import SearchBot
from tricktable.cfr.keys import decision
from tricktable.cfr.store import Store, StrategyError, draw
from tricktable.engine.trick import Game, View
from tricktable.errors import BotError
from tricktable.games.setback import Setback, SetbackOptions

#: the options that may differ from the trained game's (the keys are blind to the score)
FREE_OPTIONS: Final = frozenset({"target", "win"})

#: open databases of this process, by (resolved path, process id): bots of a duel share one
_OPEN: dict[tuple[str, int], Store] = {}


def shipped_db() -> str:
    """The path of the strategy shipped with the package."""
    with as_file(files("tricktable.cfr").joinpath("data/setback.db")) as path:
        return str(path)


def open_strategy(path: str) -> Store:
    """The strategy database at ``path``, opened read-only once per process."""
    key = (str(Path(path).resolve()), os.getpid())
    store = _OPEN.get(key)
    if store is None:
        store = _OPEN[key] = Store.open(path, readonly=True)
    return store


class CfrBot(SearchBot):
    """Plays Setback from a CFR strategy database (see the module); ``db`` names one."""

    name = "cfr"

    def __init__(self, db: str | None = None) -> None:
        super().__init__()
        self.db = db
        self.store: Store | None = None
        #: keyed decisions found in the database, and those played by the heuristic
        self.seen = 0
        self.unseen = 0

    def start_match(self, game: Game, seat: int, seed: int) -> None:
        if not isinstance(game, Setback):
            raise BotError(
                f"the cfr bot plays only Setback (its keys are Setback's), not {game.name}"
            )
        path = self.db or shipped_db()
        try:
            store = open_strategy(path)
        except StrategyError as exc:
            raise BotError(f"the cfr bot cannot load its strategy: {exc}") from None
        _check_game(game, store)
        super().start_match(game, seat, seed)
        self.store = store

    def act(self, view: View) -> int:
        found = decision(view)
        if found is None:
            return self._delegate().act(view)
        if found.key is None:
            return found.concrete[0]
        store = self.store
        if store is None:
            raise BotError("the cfr bot was not started")
        probs = store.average(found.key)
        if probs is None or len(probs) != len(found.concrete):
            self.unseen += 1
            return self._delegate().act(view)
        self.seen += 1
        return found.concrete[draw(probs, self._rng(view))]


def _check_game(game: Game, store: Store) -> None:
    """Refuse, in one line, a game whose rules the strategy was not trained on."""
    from tricktable.games import load_game

    trained = load_game(store.meta.get("game", "setback")).options
    assert isinstance(trained, SetbackOptions)
    differ = [
        name
        for name in SetbackOptions.__dataclass_fields__
        if name not in FREE_OPTIONS and getattr(game.options, name) != getattr(trained, name)
    ]
    if differ:
        raise BotError(
            f"the cfr bot's strategy was trained on Setback's rules; {game.preset} differs in"
            f" {', '.join(differ)}"
        )


__all__ = ["CfrBot", "open_strategy", "shipped_db"]
