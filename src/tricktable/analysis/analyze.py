"""A finished match analysed decision by decision, as a chess engine analyses a game.

:func:`analyze` replays a match record (:func:`tricktable.records.replay` checks it whole
first) and at each decision of the chosen seats asks two questions:

- **double-dummy** — on the real deal, every hand known: the exact value of each legal card
  (:func:`tricktable.search.solver.solve`: the rest of the hand's score change for the seat's
  side minus the other side's under perfect play by everyone), the best card(s), and what the
  card played lost against them. Card play only, where the solver handles the game
  (:func:`tricktable.search.solver.supports`). Spades from its first card: beyond six cards a
  seat, by DDS where it models the hand (``solve(..., dds=True)``; a nil open or ten bags in
  reach are searched by the project's solver, in the time given). Partnership Euchre by DDS
  alone (:func:`double_dummy_solvable`).
- **with sampling** — what the best search bot would have done from the seat's own
  :class:`~tricktable.engine.trick.View` at that moment and nothing more
  (:func:`tricktable.search.explain.hint`: the same advice as the terminal game's ``hint``),
  and the difference between its choice and the action played by its own estimate.

A decision with one legal action is *forced* and not analysed. A decision *lost points* when
either loss reaches the threshold (``threshold``, 0.5 points by default); the per-seat summary
counts the decisions analysed, those mistakes, and the points lost in all and on average.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from time import perf_counter
from typing import Any, Final

from tricktable.engine.trick import PLAY, Game, TrickState
from tricktable.errors import TricktableError
from tricktable.records import replay
from tricktable.search.explain import DEFAULT_BUDGET, Hint, hint
from tricktable.search.solver import SolveTimeout, solve, supports

__all__ = [
    "Analysis",
    "AnalysisError",
    "Decision",
    "DoubleDummy",
    "Sampled",
    "SeatSummary",
    "analyze",
    "double_dummy_solvable",
]

#: points a decision must lose (by either measure) to count as a mistake, by default
DEFAULT_THRESHOLD: Final = 0.5
#: seconds one double-dummy solve may take by default: a Setback hand's first lead takes up
#: to about 3 s in pure Python; Hearts' and Spades' first tricks far more (left unsolved)
DEFAULT_SOLVE_TIME: Final = 5.0

#: told of each decision analysed: (decisions done, decisions in all)
Progress = Callable[[int, int], None]
#: told as each hand chosen begins: (the hand, from 0; hands done; hands chosen)
HandProgress = Callable[[int, int, int], None]


class AnalysisError(TricktableError):
    """A record that cannot be analysed: unfinished, or of a game no analyser handles."""


@dataclass(frozen=True)
class DoubleDummy:
    """The exact value of each legal card on the real deal, for the seat's side."""

    #: every legal card with its value (score change, the seat's side minus the other's)
    values: dict[int, int]
    #: the value of the card played
    played: int

    @property
    def value(self) -> int:
        """The value of the best card(s): what perfect play gets from here."""
        return max(self.values.values())

    @property
    def best(self) -> list[int]:
        """The cards that reach :attr:`value`, lowest code first."""
        top = self.value
        return sorted(c for c, v in self.values.items() if v == top)

    @property
    def loss(self) -> int:
        """Points the card played gave away against the best card (0: a best card)."""
        return self.value - self.played


@dataclass(frozen=True)
class Sampled:
    """A search bot's advice from the seat's view, and what the action played cost by it."""

    hint: Hint
    #: the action played
    action: int

    @property
    def best(self) -> int:
        """The bot's choice."""
        choice = self.hint.best()
        assert choice is not None  # a Sampled is made only from a hint with choices
        return choice.action

    @property
    def loss(self) -> float | None:
        """The bot's value of its choice minus its value of the action played (never below
        0: an action it prefers yet values lower — ismcts ranks by visits — costs nothing), or
        None where it did not value the action played."""
        if self.best == self.action:
            return 0.0
        played = self.hint.value_of(self.action)
        top = self.hint.value_of(self.best)
        if played is None or top is None:
            return None
        return max(top - played, 0.0)


@dataclass(frozen=True)
class Decision:
    """One action of one seat, and what the analysers make of it."""

    #: the hand (0 is the first) and the action's place in it (0 is the hand's first action)
    hand: int
    index: int
    seat: int
    action: int
    #: the seat's legal actions then
    legal: tuple[int, ...]
    #: whether the hand was in card play, and the trick (0 is the first; -1 before play)
    playing: bool
    trick: int
    #: the trump cards then (a mask, for showing cards as the table does)
    trumps: int
    double_dummy: DoubleDummy | None = None
    sampled: Sampled | None = None
    #: whether the solver ran out of time here (or in this trick before: not tried again)
    unsolved: bool = False

    @property
    def forced(self) -> bool:
        """Whether the seat had no choice (the action played was its one legal action)."""
        return self.legal == (self.action,)

    @property
    def analysed(self) -> bool:
        """Whether either analyser judged it."""
        return self.double_dummy is not None or self.sampled is not None

    def dd_loss(self) -> int | None:
        """The double-dummy loss, or None where it was not solved."""
        return None if self.double_dummy is None else self.double_dummy.loss

    def sampled_loss(self) -> float | None:
        """The sampled loss, or None where it was not searched or the action not valued."""
        return None if self.sampled is None else self.sampled.loss

    def is_mistake(self, threshold: float) -> bool:
        """Whether either analyser finds at least ``threshold`` points lost."""
        losses = (self.dd_loss(), self.sampled_loss())
        return any(loss is not None and loss >= threshold for loss in losses)

    def to_dict(self, game: Game) -> dict[str, Any]:
        """The decision in the record's notation (``play TD``), for ``--json``."""
        name = game.action_name
        out: dict[str, Any] = {
            "hand": self.hand + 1,
            "index": self.index,
            "seat": self.seat,
            "phase": "play" if self.playing else "before play",
            "trick": self.trick + 1 if self.playing else None,
            "action": name(self.action),
            "legal": [name(a) for a in self.legal],
            "forced": self.forced,
            "unsolved": self.unsolved,
            "double_dummy": None,
            "sampled": None,
        }
        dd = self.double_dummy
        if dd is not None:
            out["double_dummy"] = {
                "values": {name(c): v for c, v in sorted(dd.values.items())},
                "value": dd.value,
                "best": [name(c) for c in dd.best],
                "played": dd.played,
                "loss": dd.loss,
            }
        sampled = self.sampled
        if sampled is not None:
            h = sampled.hint
            out["sampled"] = {
                "bot": h.bot,
                "unit": h.unit,
                "samples": h.samples,
                "seconds": round(h.seconds, 4),
                "choices": [
                    {"action": name(c.action), "value": c.value, "support": c.support}
                    for c in h.choices
                ],
                "best": name(sampled.best),
                "loss": sampled.loss,
            }
        return out


@dataclass
class SeatSummary:
    """One seat's decisions: how many were analysed, the mistakes, the points lost."""

    seat: int
    label: str
    #: decisions with a choice that either analyser judged
    analysed: int = 0
    #: double-dummy: decisions solved, mistakes, points lost in all
    dd_decisions: int = 0
    dd_mistakes: int = 0
    dd_lost: int = 0
    #: decisions the solver could not finish within its time
    dd_unsolved: int = 0
    #: with sampling: decisions valued, mistakes, points lost in all (the bot's estimate)
    sampled_decisions: int = 0
    sampled_mistakes: int = 0
    sampled_lost: float = 0.0

    @property
    def dd_mean(self) -> float | None:
        """Double-dummy points lost per decision solved."""
        return self.dd_lost / self.dd_decisions if self.dd_decisions else None

    @property
    def sampled_mean(self) -> float | None:
        """Sampled points lost per decision valued."""
        return self.sampled_lost / self.sampled_decisions if self.sampled_decisions else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "player": self.label,
            "analysed": self.analysed,
            "double_dummy": {
                "decisions": self.dd_decisions,
                "mistakes": self.dd_mistakes,
                "lost": self.dd_lost,
                "mean": self.dd_mean,
                "unsolved": self.dd_unsolved,
            },
            "sampled": {
                "decisions": self.sampled_decisions,
                "mistakes": self.sampled_mistakes,
                "lost": self.sampled_lost,
                "mean": self.sampled_mean,
            },
        }


@dataclass
class Analysis:
    """A match record analysed: every decision of the chosen seats in the chosen hands."""

    game: Game
    players: list[str]
    seed: int | None
    #: the record's hands (all of them, analysed or not)
    state: TrickState
    #: the hands analysed (0 is the first) and seats
    hands: list[int]
    seats: list[int]
    decisions: list[Decision]
    threshold: float
    double_dummy: bool
    sampling: bool
    #: the match scores after each hand of the record
    scores_after: list[tuple[int, ...]] = field(default_factory=list)
    #: the most seconds a solve was given (None: no limit)
    solve_time: float | None = None

    def mistakes(self, hand: int | None = None) -> list[Decision]:
        """The decisions that lost at least the threshold (of one hand, or all)."""
        return [
            d
            for d in self.decisions
            if (hand is None or d.hand == hand) and d.is_mistake(self.threshold)
        ]

    def summary(self) -> list[SeatSummary]:
        """One line per seat analysed."""
        rows = {s: SeatSummary(s, self.players[s]) for s in self.seats}
        for d in self.decisions:
            row = rows[d.seat]
            row.analysed += d.analysed
            row.dd_unsolved += d.unsolved
            dd = d.dd_loss()
            if dd is not None:
                row.dd_decisions += 1
                row.dd_lost += dd
                row.dd_mistakes += dd >= self.threshold
            sampled = d.sampled_loss()
            if sampled is not None:
                row.sampled_decisions += 1
                row.sampled_lost += sampled
                row.sampled_mistakes += sampled >= self.threshold
        return [rows[s] for s in self.seats]

    def to_dict(self) -> dict[str, Any]:
        """The analysis as one JSON object (``tricktable analyze --json``)."""
        game = self.game
        return {
            "game": game.spec(),
            "players": self.players,
            "seed": self.seed,
            "hands": [h + 1 for h in self.hands],
            "seats": self.seats,
            "threshold": self.threshold,
            "double_dummy": self.double_dummy,
            "sampling": self.sampling,
            "solve_time": self.solve_time,
            "decisions": [d.to_dict(game) for d in self.decisions],
            "summary": [row.to_dict() for row in self.summary()],
        }


@dataclass(frozen=True)
class _Asked:
    """What to ask of each decision (the options of :func:`analyze`)."""

    #: whether the game has a double-dummy solver
    solvable: bool
    solve_time: float | None
    sampling: bool
    budget: float | None
    samples: int | None
    seed: int
    #: whether to solve this decision (not in the rest of a trick whose solve ran out of time)
    solving: bool = True


def analyze(
    record: dict[str, Any],
    seats: Iterable[int] | None = None,
    hands: Iterable[int] | None = None,
    sampling: bool = True,
    budget: float | None = DEFAULT_BUDGET,
    samples: int | None = None,
    seed: int = 0,
    threshold: float = DEFAULT_THRESHOLD,
    solve_time: float | None = DEFAULT_SOLVE_TIME,
    progress: Progress | None = None,
    on_hand: HandProgress | None = None,
) -> Analysis:
    """Analyse a finished match record; raises :class:`~tricktable.errors.RecordError` for a
    record that does not replay and :class:`AnalysisError` for one that cannot be analysed.

    ``seats`` and ``hands`` (0 is the first) choose what to analyse (default: everything);
    ``sampling`` adds the search bot's advice (``budget`` seconds and at most ``samples``
    worlds or iterations a decision, seeded by ``seed``: see :func:`~tricktable.search.
    explain.hint`); ``threshold`` is the loss, in points, that makes a mistake;
    ``solve_time`` the most seconds one double-dummy solve may take (None: no limit).
    ``progress`` is told of each decision, ``on_hand`` of each hand chosen as it begins (a
    Hearts hand may take a minute).
    """
    final = replay(record)
    game = final.game
    if record.get("unfinished_hand") is not None:
        raise AnalysisError(
            f"the match stopped in the middle of hand {len(final.history)}: only a record whose"
            " hands all finished can be analysed"
        )
    if not final.history:
        raise AnalysisError("the record has no hand to analyse")
    solvable = double_dummy_solvable(game)
    if not solvable and not sampling:
        named = game.name if game.num_players == 4 else game.spec()  # a size it does not solve
        raise AnalysisError(
            f"no double-dummy solver for {named}: analyse it with sampling (without --no-sampling)"
        )
    chosen_seats = _chosen(seats, game.num_players, "seat", 0)
    chosen_hands = _chosen(hands, len(final.history), "hand", 1)
    players = _players(record, game.num_players)
    total = sum(
        sum(1 for actor in final.history[h].actors if actor in chosen_seats) for h in chosen_hands
    )
    asked = _Asked(solvable, solve_time, sampling, budget, samples, seed)
    skipped = replace(asked, solving=False)
    state = game.new_state(final.seed)
    decisions: list[Decision] = []
    scores_after: list[tuple[int, ...]] = []
    begun = 0
    for h, log in enumerate(final.history):
        state.deal(list(log.deal), dealer=log.dealer, stock=list(log.stock))
        look = h in chosen_hands
        if look and on_hand is not None:
            on_hand(h, begun, len(chosen_hands))
        begun += look
        hard = -1  # a trick of this hand where a solve ran out of time
        for i, action in enumerate(log.actions):
            actor = log.actors[i]
            if look and actor in chosen_seats:
                # The rest of a trick where a solve ran out of time is as hard: not tried.
                trick = len(state.tricks)
                decision = _decision(
                    state, h, i, actor, action, skipped if trick == hard else asked
                )
                if decision.unsolved:
                    hard = trick
                decisions.append(decision)
                if progress is not None:
                    progress(len(decisions), total)
            state.apply(action)
        scores_after.append(tuple(state.scores))
    return Analysis(
        game=game,
        players=players,
        seed=final.seed,
        state=final,
        hands=sorted(chosen_hands),
        seats=sorted(chosen_seats),
        decisions=decisions,
        threshold=threshold,
        double_dummy=solvable,
        sampling=sampling,
        scores_after=scores_after,
        solve_time=solve_time,
    )


def _decision(state: TrickState, h: int, i: int, seat: int, action: int, asked: _Asked) -> Decision:
    """Analyse ``seat``'s ``action`` in ``state`` (which is left as it was)."""
    view = state.view(seat)
    legal = tuple(view.legal_actions()) if state.to_act == seat else ()
    playing = state.phase == PLAY
    decision = Decision(
        hand=h,
        index=i,
        seat=seat,
        action=action,
        legal=legal,
        playing=playing,
        trick=len(state.tricks) if playing else -1,
        trumps=state.tables.mask,
    )
    # Forced, or an action not among those listed (a pass of cards is one action of many
    # cards, listed as its kind): nothing to compare.
    if len(legal) < 2 or action not in legal:
        return decision
    dd = None
    unsolved = False
    if playing and asked.solvable:
        unsolved = True  # until solved: out of time now, or skipped with its trick
        if asked.solving:
            limit = asked.solve_time
            try:
                end = None if limit is None else perf_counter() + limit
                solved = solve(state, seat, end, dds=True)
                dd = DoubleDummy(dict(solved.moves), solved.moves[action])
                unsolved = False
            except SolveTimeout:
                pass
            except TricktableError:
                unsolved = False  # a position the solver does not take: not a matter of time
    advice = None
    if asked.sampling:
        # The view alone: the bot knows what the seat knew then, and not one card more.
        given = hint(
            view, budget=asked.budget, samples=asked.samples, seed=asked.seed, heuristic=False
        )
        if given.choices:
            advice = Sampled(given, action)
    return replace(decision, double_dummy=dd, sampled=advice, unsolved=unsolved)


def double_dummy_solvable(game: Game) -> bool:
    """Whether :func:`analyze` gives ``game``'s card play double-dummy values: the solver
    :func:`~tricktable.search.solver.supports` it, or it is partnership Euchre with DDS
    installed (``solve(..., dds=True)``; a lone hand is left without values)."""
    from tricktable.search.solver import dds

    if supports(game):
        return True
    return game.name == "euchre" and dds.usable(game)


def _chosen(given: Iterable[int] | None, count: int, what: str, base: int) -> set[int]:
    """The seats or hands chosen (all without a choice), checked; ``base`` is how they are
    counted to people (seats from 0, hands from 1)."""
    if given is None:
        return set(range(count))
    chosen = set(given)
    bad = sorted(x for x in chosen if not 0 <= x < count)
    if bad:
        shown = ", ".join(str(x + base) for x in bad)
        raise AnalysisError(
            f"no {what} {shown} in this record: {what}s are {base} to {count - 1 + base}"
        )
    if not chosen:
        raise AnalysisError(f"no {what} chosen")
    return chosen


def _players(record: dict[str, Any], count: int) -> list[str]:
    """The record's names of the players, or seat numbers where it has none."""
    names = record.get("players")
    if isinstance(names, list) and len(names) == count and all(isinstance(n, str) for n in names):
        return list(names)
    return [f"seat {s}" for s in range(count)]
