"""Why a search bot would act so: its top actions with their values and what is behind them.

:func:`hint` asks the best search bot for a game — ``pimc`` where it plays the game (it
solves sampled worlds exactly), else ``ismcts`` (any game) — about one decision, from one
seat's :class:`~tricktable.engine.trick.View` and nothing else, and returns a :class:`Hint`:
the bot's name, its actions best first with each one's mean value and support (the worlds
solved, or the tree's visits through it), and the words for the values. Where pimc solves no
world within :data:`PIMC_SHARE` of the budget (the first tricks of a hand cost the
pure-Python solver up to seconds a world), ismcts answers in the rest of it. The terminal game's
``hint`` command, ``tricktable analyze`` and any other screen use this one function, so they
all say the same thing about the same position.

**Deterministic for a seed.** The bot draws each decision from a generator seeded by
(``seed``, the hand's number, the view's step), so the same position gives the same worlds in
the same order. The time budget (``budget`` seconds, 0.5 by default: the issue's ceiling for
a decision) can only cut that list short on a slow or loaded machine; ``budget=None`` with a
fixed ``samples`` gives the same hint on every machine.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Final

from tricktable.bots.base import Bot
from tricktable.bots.ismcts import DEFAULT_ITERATIONS, IsmctsBot
from tricktable.bots.pimc import DEFAULT_BID_WORLDS, DEFAULT_WORLDS, PimcBot, plays
from tricktable.bots.search_base import other_phases_bot
from tricktable.engine.trick import PLAY, Game, View
from tricktable.errors import TricktableError
from tricktable.search.playouts import measured_playout

__all__ = ["DEFAULT_BUDGET", "Choice", "Hint", "hint", "hint_bot"]

#: seconds a hint may take by default (the issue's ceiling for one decision, one core)
DEFAULT_BUDGET: Final = 0.5
#: the part of the budget pimc may use: where it solves no world in it, ismcts has the rest
PIMC_SHARE: Final = 0.8


@dataclass(frozen=True)
class Choice:
    """One action the bot searched: its mean value and how many samples stand behind it."""

    action: int
    #: the mean value, in points (see :attr:`Hint.value_text`)
    value: float
    #: worlds solved (pimc: every card is valued in every world) or visits (ismcts)
    support: int


@dataclass(frozen=True)
class Hint:
    """What a search bot thinks of one decision: its actions, best first."""

    #: the bot that searched: ``pimc`` or ``ismcts``
    bot: str
    #: the searched actions, best first (empty: nothing searched, see :attr:`heuristic`)
    choices: tuple[Choice, ...]
    #: what :attr:`Choice.support` counts: ``worlds`` or ``visits``
    unit: str
    #: worlds solved or iterations run in all
    samples: int
    #: what a value is, in words ("points for your side minus the other side's ...")
    value_text: str
    #: seconds the search took
    seconds: float
    #: where nothing was searched (a phase the bot leaves to the game's heuristic, or no world
    #: solved within the budget): the action the heuristic takes, if it was asked
    heuristic: int | None = None
    #: why the bot is not the one first asked, if it is not ("pimc solved no world in time")
    note: str = ""

    def best(self) -> Choice | None:
        """The bot's choice, or None if nothing was searched."""
        return self.choices[0] if self.choices else None

    def value_of(self, action: int) -> float | None:
        """The mean value of ``action``, or None where the search did not value it."""
        for choice in self.choices:
            if choice.action == action:
                return choice.value
        return None


def hint_bot(game: Game) -> str:
    """The search bot a hint asks for ``game``: ``pimc`` where a solver it needs handles
    the game's hands (what :meth:`PimcBot.start_match` checks: the project's, or DDS for
    Euchre), else ``ismcts``."""
    return "pimc" if plays(game) else "ismcts"


def hint(
    view: View,
    budget: float | None = DEFAULT_BUDGET,
    samples: int | None = None,
    seed: int = 0,
    bot: str | None = None,
    heuristic: bool = True,
) -> Hint:
    """What the best search bot for the view's game thinks of the seat's decision.

    ``budget`` is the most seconds the search may take (None: no limit), ``samples`` the
    most worlds (pimc, a card or a bid) or iterations (ismcts) — each bot's default when
    None; ``seed`` seeds
    the search (with the hand's number and the view's step); ``bot`` names the bot instead of
    the best one for the game (and no other is asked). With ``heuristic``, a decision that is
    not searched is answered by the game's heuristic (:attr:`Hint.heuristic`). Only ``view``
    is read: a hint knows what the seat knows and nothing more, and changes nothing.
    """
    if view.to_act != view.seat:
        raise TricktableError(f"no hint: it is not seat {view.seat}'s turn")
    game = view.game
    name = bot or hint_bot(game)
    if name not in ("pimc", "ismcts"):
        raise TricktableError(f"no hint from {name!r}: pimc or ismcts")
    start = time.perf_counter()
    note = ""
    left = budget
    if name == "pimc":
        share = None if budget is None else budget * PIMC_SHARE
        pimc = PimcBot(
            worlds=samples or DEFAULT_WORLDS,
            max_seconds=share,
            bid_worlds=samples or DEFAULT_BID_WORLDS,
        )
        choices, used = _run(pimc, game, view, seed)
        if not choices and view.phase == PLAY and bot is None:
            # No world solved in time (the first tricks of a long hand): ismcts, whose
            # iterations are cheap, answers in the rest of the budget.
            left = None if budget is None else max(budget - (time.perf_counter() - start), 0.0)
            name, note = "ismcts", "pimc solved no world in time"
    if name == "ismcts":
        ismcts = IsmctsBot(
            iterations=samples or DEFAULT_ITERATIONS,
            max_seconds=left,
            playout=measured_playout(game),
        )
        choices, used = _run(ismcts, game, view, seed)
    seconds = time.perf_counter() - start
    advice = None
    if not choices and heuristic:
        advice = _heuristic(game, view, seed)
    return Hint(
        bot=name,
        choices=choices,
        unit="worlds" if name == "pimc" else "visits",
        samples=used,
        value_text=value_text(game, name),
        seconds=seconds,
        heuristic=advice,
        note=note,
    )


def _run(
    searcher: PimcBot | IsmctsBot, game: Game, view: View, seed: int
) -> tuple[tuple[Choice, ...], int]:
    """Start ``searcher`` for the view's seat, ask it, close it."""
    searcher.start_match(game, view.seat, seed)
    try:
        return _search(searcher, view)
    finally:
        searcher.close()


def _search(searcher: PimcBot | IsmctsBot, view: View) -> tuple[tuple[Choice, ...], int]:
    """The bot's ranked choices and the samples behind them (none where nothing was searched)."""
    try:
        if isinstance(searcher, PimcBot):
            ranked = searcher.hint(view)
            return tuple(Choice(a, v, n) for a, v, n in ranked), searcher.last_worlds
        visited = searcher.hint(view)
    except TricktableError:
        return (), 0  # no world consistent with the view could be drawn: nothing searched
    return tuple(Choice(a, v, n) for a, n, v in visited), searcher.last_iterations


def _heuristic(game: Game, view: View, seed: int) -> int | None:
    """The action of the game's heuristic (the search bots' own choice where they do not
    search), or None if it fails."""
    model: Bot = other_phases_bot(game)
    try:
        model.start_match(game, view.seat, seed)
        return model.act(view)
    except TricktableError:
        return None
    finally:
        model.close()


def value_text(game: Game, bot: str, you: bool = True) -> str:
    """What a hint's value means for ``game`` and ``bot``, in words: to the person at the
    table (``you``), or about "the seat" (a report)."""
    your, yours = ("your", "yours") if you else ("the seat's", "the seat's")
    if game.num_scores == 2:
        whose = f"{your} side's points minus the other side's"
    elif bot == "pimc":  # the solver's measure: the others play together against the seat
        if type(game).lower_wins:
            whose = f"the other seats' points minus {yours}, summed over the three"
        else:
            whose = f"{your} points minus the other seats' together"
    elif type(game).lower_wins:
        whose = f"the other seats' mean points minus {yours}"
    else:
        whose = f"{your} points minus the other seats' mean"
    if type(game).lower_wins and game.num_scores == 2:
        whose = f"minus ({whose}), since the lower score wins"
    return f"{whose}, over the rest of this hand (higher is better)"
