"""Simulate's statistics of each game: the hook a game declares, and the generic one.

A hook (:class:`GameStats`) reduces each finished hand's typed result (its game's
:class:`~tricktable.engine.results.HandResult`) to a small hashable *key* holding the few facts
its statistics need; the simulation counts the keys (one dict update per hand), and
the counts of chunks add up, so a report does not depend on how the run was split among
workers. At the end the hook turns the counts into the report's ``game_stats`` section, whose
``family`` names the hook that made it.

A game names its hook in its own class (``Game.statistics = "module:Class"``; the built-in
games' hooks are this package's modules, one a family of games, each saying what it counts).
A game that names none gets this module's generic hook (``generic``): the change of each
side's score per hand — mean, lowest, highest, and how often it rose or fell.

A hand whose result is not of the class a hook reads is counted in ``unread_hands`` rather
than stopping the run.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, ClassVar, TypeVar

from tricktable.engine.declared import declared
from tricktable.engine.results import HandResult
from tricktable.engine.trick import Game

#: how many decimals the rates keep
DIGITS = 6
#: the key of a hand whose result a hook could not read
UNREAD: tuple[str] = ("unread",)

Counts = dict[Any, int]
R = TypeVar("R", bound=HandResult)


def ratio(part: float, whole: float) -> float | None:
    """``part / whole`` rounded, or None when ``whole`` is 0."""
    return round(part / whole, DIGITS) if whole else None


def ratios(parts: Sequence[float], whole: float) -> list[float | None]:
    """Each part over ``whole``."""
    return [ratio(p, whole) for p in parts]


def counted(total: list[int], rates: bool, whole: int, name: str = "count") -> dict[str, Any]:
    """``total`` under ``name``, with each part's rate (``rates``) or mean per hand."""
    return {name: total, ("rate" if rates else "per_hand"): ratios(total, whole)}


def read_as(result: HandResult, cls: type[R]) -> R:
    """``result`` as the result class a hook reads; TypeError (an unread hand) if it is not."""
    if not isinstance(result, cls):
        raise TypeError(f"a {cls.__name__} was expected, not a {type(result).__name__}")
    return result


class GameStats:
    """The statistics hook of one game family: a key per hand, a report from the counts.

    This base class is the generic hook: each side's score change per hand.
    """

    family: ClassVar[str] = "generic"
    #: whether the hook reads the simulation's own per-hand kinds (``Tally.kinds``: declarer,
    #: bid, stuck, points taken and won) rather than keys of its own: the kinds that its
    #: fastest path counts anyway, so the hook adds no cost per hand
    reads_hand_kinds: ClassVar[bool] = False

    def key(self, result: HandResult, before: Sequence[int]) -> Hashable:
        """The facts of one hand the report needs (``before``: the scores before the hand).

        Raises TypeError (or ValueError) for a result it cannot read: the hand is counted apart.
        """
        return tuple(s - b for s, b in zip(result.scores, before, strict=True))

    def report(self, game: Game, counts: Counts, hands: int) -> dict[str, Any]:
        """The ``game_stats`` section from the counted keys."""
        sides = game.num_scores
        total, low, high = [0] * sides, [0] * sides, [0] * sides
        rose, fell = [0] * sides, [0] * sides
        first = True
        for deltas, n in sorted(counts.items(), key=repr):
            if len(deltas) != sides:
                continue
            for t, d in enumerate(deltas):
                total[t] += d * n
                low[t] = d if first else min(low[t], d)
                high[t] = d if first else max(high[t], d)
                rose[t] += n if d > 0 else 0
                fell[t] += n if d < 0 else 0
            first = False
        return {
            "family": self.family,
            "score_change": {
                "per_hand": ratios(total, hands),
                "lowest": low,
                "highest": high,
                "rose_rate": ratios(rose, hands),
                "fell_rate": ratios(fell, hands),
            },
        }


#: game class -> its hook; hooks keep no state, so one of each serves every run
_HOOKS: dict[type[Game], GameStats] = {}


def stats_for(game: Game | type[Game]) -> GameStats:
    """The statistics hook ``game`` declares (``Game.statistics``), the generic one if none."""
    cls = game if isinstance(game, type) else type(game)
    hook = _HOOKS.get(cls)
    if hook is None:
        hook = declared(cls, "statistics", GameStats)()
        _HOOKS[cls] = hook
    return hook


def game_report(game: Game, counts: Counts, hands: int) -> dict[str, Any]:
    """The ``game_stats`` section of a report: the game's hook over the hands it could read."""
    unread = counts.get(UNREAD, 0)
    readable = {k: n for k, n in counts.items() if k != UNREAD}
    report = stats_for(game).report(game, readable, hands - unread)
    if unread:
        report["unread_hands"] = unread
    return report
