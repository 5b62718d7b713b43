"""A duel: two bots on the same deals with the seats swapped, stopped by an SPRT or a count.

Deal ``i`` of a duel of seed ``S`` is the first deal a match of seed
``derive_seed(S, "duel", i)`` would have: its dealer and every seat's cards. It is played at
two or more tables, one hand each, with the same cards and dealer (:func:`duel_tables`):

- where the even seats and the odd seats play for different sides (four seats, two sides of
  three at six, or each for themselves at an even table), at two tables: table 1 seats bot A in
  the even seats (0 and 2) and bot B in the odd seats (1 and 3); table 2 swaps them;
- otherwise (three sides of two at six seats, where partners sit opposite, 0 and 3; or an odd
  table of players each for themselves), at one table a side: table ``t`` seats A in the seats
  of side ``t - 1`` and B in every other seat, so A holds each side's cards once.

On each table A's *margin* is the score its seats' sides gained in the hand minus B's (a
partnership's side, or in a game where each seat scores alone the sum of A's seats); where A
holds one side against several (the second way), the score of A's side minus the mean of the
other sides'. In a game where the lower score is better (``Game.lower_wins``) the sign is
turned, so a positive margin always favours A. The deal's *paired difference* is the mean of
its tables' margins: both bots held every side's cards, so the luck of the deal cancels, and
what is left measures play. Two identical deterministic bots give 0 on every deal.

The differences feed a :class:`~tricktable.analysis.sprt.Sprt` in deal order, whatever the
number of worker processes: deals are played in fixed chunks (:data:`DEALS_PER_CHUNK`), each
with its own fresh bots, and consumed in order, so a duel of one seed gives the same numbers and
stops at the same deal on one core or many. Faults of either bot are counted (by the rules of
the game and ``--on-fault``: a substitute plays on, or the side forfeits and the hand stands
unscored) and reported.

>>> duel = prepare("setback", "heuristic", "random", deals=12, seed=3, sprt=None)
>>> result = run_duel(duel, workers=1)
>>> result.n, result.verdict, result.difference.mean > 0
(12, 'fixed', True)
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from tricktable.analysis.intervals import Accumulator, Proportion, Summary, wilson
from tricktable.analysis.sprt import Sprt, SprtParams, SprtStatus, Verdict
from tricktable.bots import make_bot
from tricktable.cards import cards_in
from tricktable.engine.trick import Game
from tricktable.errors import TricktableError
from tricktable.games import load_game
from tricktable.interrupts import raise_if_lost
from tricktable.limits import RunnerOptions
from tricktable.runner import BotPool, Deal, MatchOutcome, MatchSpec, MatchStopped, run_match
from tricktable.seeds import derive_seed
from tricktable.workers import default_workers, executor

#: deals a worker plays per task: big enough that sending a task costs little beside playing
#: it, small enough that a test stopped by the SPRT wastes little of what is in flight
DEALS_PER_CHUNK: Final = 5
#: the most deals a duel plays when no other count is given (an SPRT usually stops far sooner)
DEFAULT_DEALS: Final = 20_000
#: the test a duel runs when given none: :class:`SprtParams`' defaults (see that module)
DEFAULT_SPRT: Final = SprtParams()
#: faults a bot's report lists whole (all of them are counted)
FAULTS_LISTED: Final = 10
#: the verdict of a duel played without an SPRT, and of one that ran out of deals
FIXED: Final = "fixed"
INCONCLUSIVE: Final = "inconclusive"

#: called after each deal is counted: deals so far, the mean difference, the SPRT's status
Progress = Callable[[int, float, SprtStatus | None], None]


class DuelError(TricktableError):
    """A duel that cannot be played: bad bots, a game that cannot seat two, a bot failing."""


class DuelFailure(DuelError):
    """The engine failed during a deal (a bug): the duel stops, naming the deal and its seed."""


@dataclass(frozen=True)
class Duel:
    """A checked duel request (see :func:`prepare`); it pickles, for worker processes.

    ``game`` is a game spec, ``a`` and ``b`` the bots' player specs, ``deals`` the most deals
    to play, ``seed`` the duel's seed, ``sprt`` the test (None: play every deal), ``limits``
    the referee's, ``keep_records`` whether each deal keeps its two tables' match records.
    """

    game: str
    a: str
    b: str
    deals: int = DEFAULT_DEALS
    seed: int = 1
    sprt: SprtParams | None = DEFAULT_SPRT
    limits: RunnerOptions = field(default_factory=RunnerOptions)
    keep_records: bool = False

    def __post_init__(self) -> None:
        if self.deals < 1:
            raise DuelError(f"a duel needs at least one deal, got {self.deals}")


def prepare(
    game_spec: str,
    a: str,
    b: str,
    *,
    deals: int = DEFAULT_DEALS,
    seed: int = 1,
    sprt: SprtParams | None = DEFAULT_SPRT,
    limits: RunnerOptions | None = None,
    keep_records: bool = False,
) -> Duel:
    """Check a duel and return it; a :class:`TricktableError` says what is wrong, on one line.

    ``sprt`` None plays every deal. The game must load and have two sides or more (see
    :func:`duel_tables`); each bot is made once and closed, so a bad spec fails now rather
    than in a worker.
    """
    game = load_game(game_spec)
    duel_tables(game)  # raises for a game two bots cannot share
    limits = limits if limits is not None else RunnerOptions()
    specs = []
    for name, spec in (("A", a), ("B", b)):
        spec = spec.strip()
        if not spec:
            raise DuelError(f"bot {name} is empty: give a player spec")
        if spec.lower() == "human":
            raise DuelError(f"duel plays bots only; 'human' cannot be bot {name}")
        try:
            make_bot(spec, limits).close()
        except TricktableError as exc:
            raise DuelError(f"bot {name}: {exc}") from None
        specs.append(spec)
    return Duel(game.spec(), specs[0], specs[1], deals, seed, sprt, limits, keep_records)


# ------------------------------------------------------------------------- one deal


def seat_sides(game: Game) -> tuple[frozenset[int], frozenset[int]]:
    """The sides (indices of ``scores``) of the even seats and of the odd seats of ``game``.

    Raises :class:`DuelError` for a game with an odd number of seats, or where an even and an
    odd seat play for one side: two bots cannot sit in alternate seats there (see
    :func:`duel_tables`, which then gives A one side at a time).
    """
    n = game.num_players
    if n % 2:
        raise DuelError(f"{game.name} seats {n} players: a duel needs an even number")
    even = frozenset(game.team_of(s) for s in range(0, n, 2))
    odd = frozenset(game.team_of(s) for s in range(1, n, 2))
    if even & odd:
        raise DuelError(f"in {game.name} alternate seats share a side: a duel cannot seat two bots")
    return even, odd


def duel_tables(game: Game) -> tuple[frozenset[int], ...]:
    """The sides A holds at each table of a deal: the even seats' sides, then the odd seats'
    (:func:`seat_sides`), where they differ; else each side in turn, alone.

    >>> from tricktable.games import load_game
    >>> [sorted(t) for t in duel_tables(load_game("setback(partners=3x2,players=6)"))]
    [[0], [1], [2]]
    >>> [sorted(t) for t in duel_tables(load_game("hearts"))]
    [[0, 2], [1, 3]]
    """
    try:
        return seat_sides(game)
    except DuelError:
        sides = game.num_scores
        if sides < 2:
            raise DuelError(f"{game.name} has one side: a duel cannot seat two bots") from None
        return tuple(frozenset({side}) for side in range(sides))


def deal_of(game: Game, seed: int) -> Deal:
    """The first deal of a match of ``game`` with ``seed``: its dealer and each seat's cards."""
    state = game.new_state(seed)
    state.deal()
    hands = tuple(tuple(cards_in(mask)) for mask in state.hands)
    stock = tuple(state.stock) if game.records_stock else ()
    return Deal(state.dealer, hands, stock)


def margin(game: Game, scores: Sequence[int], a_sides: frozenset[int]) -> float:
    """A's margin: its sides' score less the other sides' (where A holds fewer sides than B,
    the mean side's of each), turned where lower scores win."""
    mine = sum(score for side, score in enumerate(scores) if side in a_sides)
    theirs = sum(scores) - mine
    others = len(scores) - len(a_sides)
    if others == len(a_sides):
        return theirs - mine if game.lower_wins else mine - theirs
    # One side against several: each counted as one side (a mean).
    value = mine / len(a_sides) - theirs / others
    return -value if game.lower_wins else value


@dataclass(frozen=True)
class DuelFault:
    """A fault of a duel: whose (``"a"`` or ``"b"``), at which table (1 or 2) and seat, its
    kind and detail as the referee recorded them."""

    bot: str
    table: int
    seat: int
    kind: str
    detail: str


@dataclass(frozen=True)
class DealResult:
    """One deal played at both tables.

    ``margins`` are A's margins on each table (:func:`duel_tables`; on table 1 A holds the
    even seats, or side 0); ``faults`` the
    faults of either table; ``substituted`` and ``forfeited`` name the bot (``"a"`` or
    ``"b"``) of each seat a substitute took and of each forfeit; ``records`` are the
    tables' match records when the duel keeps them.
    """

    index: int
    seed: int
    margins: tuple[float, ...]
    faults: tuple[DuelFault, ...] = ()
    substituted: tuple[str, ...] = ()
    forfeited: tuple[str, ...] = ()
    records: tuple[dict[str, Any], ...] | None = None

    @property
    def difference(self) -> float:
        """The paired difference: the mean of the tables' margins."""
        return sum(self.margins) / len(self.margins)


def play_deal(duel: Duel, game: Game, index: int, pool: BotPool) -> DealResult:
    """Play deal ``index`` of ``duel`` at both tables with the bots of ``pool``."""
    seed = derive_seed(duel.seed, "duel", index)
    deal = deal_of(game, seed)
    n = game.num_players
    margins: list[float] = []
    faults: list[DuelFault] = []
    substituted: list[str] = []
    forfeited: list[str] = []
    records = []
    for table, a_sides in enumerate(duel_tables(game), 1):

        def bot(seat: int, a_sides: frozenset[int] = a_sides) -> str:
            return "a" if game.team_of(seat) in a_sides else "b"

        players = tuple(duel.a if bot(s) == "a" else duel.b for s in range(n))
        spec = MatchSpec(duel.game, players, seed, duel.limits, max_hands=1, deals=(deal,))
        outcome = _play(spec, pool, index, table)
        margins.append(margin(game, outcome.result.scores, a_sides))
        for f in outcome.faults:
            seat = int(f["seat"])
            faults.append(DuelFault(bot(seat), table, seat, str(f["kind"]), str(f["detail"])))
        substituted.extend(bot(seat) for seat, _, _ in outcome.substitutions)
        if outcome.result.forfeited_by is not None:
            forfeited.append(bot(outcome.result.forfeited_by))
        if duel.keep_records:
            records.append(outcome.record)
    return DealResult(
        index,
        seed,
        tuple(margins),
        tuple(faults),
        tuple(substituted),
        tuple(forfeited),
        tuple(records) if records else None,
    )


def _play(spec: MatchSpec, pool: BotPool, index: int, table: int) -> MatchOutcome:
    """Play one table; a table that cannot finish stops the duel, naming the deal's seed."""
    try:
        return run_match(spec, pool=pool)
    except MatchStopped as stop:
        # Not the players' specs: an error line is cut at 200 characters, where program paths
        # would crowd the cause out (see duel_tables for where each table seats A).
        where = f"deal {index + 1} (seed {spec.seed}, table {table})"
        raise stop.as_error(where, DuelError, DuelFailure) from None


def play_chunk(duel: Duel, start: int, count: int) -> Generator[DealResult, None, None]:
    """Deals ``start`` .. ``start + count - 1``, played one by one as they are asked for.

    The chunk's bots are made fresh and closed when it ends (or is abandoned): a chunk plays
    the same wherever it runs, which makes a duel the same whatever the worker count.
    """
    try:
        game = load_game(duel.game)
        pool = BotPool()
        try:
            for index in range(start, start + count):
                yield play_deal(duel, game, index, pool)
        finally:
            pool.close()
    except DuelError:
        raise
    except TricktableError as exc:
        # Errors with more constructor arguments do not survive pickling back from a worker.
        raise DuelError(str(exc)) from None


def _play_chunk_now(duel: Duel, start: int, count: int) -> list[DealResult]:
    """A worker's task: one whole chunk."""
    return list(play_chunk(duel, start, count))


def _chunks(duel: Duel) -> list[tuple[int, int]]:
    return [
        (start, min(DEALS_PER_CHUNK, duel.deals - start))
        for start in range(0, duel.deals, DEALS_PER_CHUNK)
    ]


def deal_results(duel: Duel, workers: int = 1) -> Generator[DealResult, None, None]:
    """Every deal of ``duel`` in order, played in ``workers`` processes (one: in this one).

    Close the iterator (or leave the ``for`` loop) to stop: work not yet begun is cancelled.
    """
    chunks = _chunks(duel)
    workers = max(1, min(workers, len(chunks)))
    if workers == 1:
        for start, count in chunks:
            raise_if_lost()  # a Ctrl-C Python lost (tricktable.interrupts)
            yield from play_chunk(duel, start, count)
        return
    yield from _pooled(duel, chunks, workers)


def _pooled(
    duel: Duel, chunks: list[tuple[int, int]], workers: int
) -> Generator[DealResult, None, None]:
    from concurrent.futures import Future
    from concurrent.futures.process import BrokenProcessPool

    # Stopped early (a verdict, Ctrl-C, SIGTERM, a failure), the block stops the workers at
    # once: the chunks running are not waited for; each worker ends its bots' processes.
    with executor(workers) as pool:
        # A window of chunks ahead of the one awaited keeps every worker busy while the
        # results are taken in deal order; an SPRT that stops wastes at most the window.
        ahead = 2 * workers
        todo = iter(chunks)
        pending: deque[Future[list[DealResult]]] = deque()
        for start, count in todo:
            pending.append(pool.submit(_play_chunk_now, duel, start, count))
            if len(pending) >= ahead:
                break
        while pending:
            try:
                results = pending.popleft().result()
                raise_if_lost()  # a Ctrl-C Python lost (tricktable.interrupts)
            except BrokenProcessPool:
                raise DuelFailure("a worker process died (out of memory, or killed)") from None
            following = next(todo, None)
            if following is not None:
                pending.append(pool.submit(_play_chunk_now, duel, *following))
            yield from results


# ------------------------------------------------------------------------- the whole duel


@dataclass
class BotFaults:
    """One bot's faults over a duel: how many, by kind, seats handed to a substitute, forfeits,
    and the first :data:`FAULTS_LISTED` in full (with the deal's number and seed, to replay it)."""

    count: int = 0
    kinds: dict[str, int] = field(default_factory=dict)
    substituted: int = 0
    forfeits: int = 0
    listed: list[dict[str, Any]] = field(default_factory=list)

    def add(self, fault: DuelFault, deal: DealResult) -> None:
        """Count one fault of ``deal``."""
        self.count += 1
        self.kinds[fault.kind] = self.kinds.get(fault.kind, 0) + 1
        if len(self.listed) < FAULTS_LISTED:
            self.listed.append(
                {
                    "deal": deal.index + 1,
                    "seed": deal.seed,
                    "table": fault.table,
                    "seat": fault.seat,
                    "kind": fault.kind,
                    "detail": fault.detail,
                }
            )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "count": self.count,
            "kinds": dict(sorted(self.kinds.items())),
            "substituted": self.substituted,
            "forfeits": self.forfeits,
            "listed": [dict(f) for f in self.listed],
        }


@dataclass(frozen=True)
class DuelResult:
    """How a duel came out.

    ``difference`` summarizes the paired differences (A minus B, points per deal; positive
    favours A) with their 95% interval; ``won`` is the share of deals A won (a tied deal
    counts a half) with its Wilson interval; ``sprt`` the test's final status (None without
    one); ``verdict`` ``"H1"``, ``"H0"``, :data:`INCONCLUSIVE` (the deals ran out first) or
    :data:`FIXED` (no test); ``deals`` every deal counted, in order.
    """

    duel: Duel
    difference: Summary
    won: Proportion
    wins: int
    losses: int
    ties: int
    sprt: SprtStatus | None
    verdict: str
    faults: dict[str, BotFaults]
    deals: tuple[DealResult, ...]
    workers: int
    elapsed: float

    @property
    def n(self) -> int:
        """How many deals were counted."""
        return self.difference.n

    @property
    def tables(self) -> int:
        """How many tables each deal is played at (:func:`duel_tables`)."""
        return len(duel_tables(load_game(self.duel.game)))

    def sentence(self) -> str:
        """The verdict in words, on one line."""
        duel, n = self.duel, self.n
        a, b = duel.a, duel.b
        params = duel.sprt
        if params is not None and self.sprt is not None:
            d0, d1 = params.d0, params.d1
            if self.verdict == Verdict.H1:
                gist = f": {a} is stronger than {b}" if d1 > d0 else f": {a} is weaker than {b}"
                return f"SPRT accepted H1 (difference {d1:+g}, not {d0:+g}) after {n} deals{gist}"
            if self.verdict == Verdict.H0:
                gist = f": {a} is not {d1 - d0:g} points a deal better than {b}" if d1 > d0 else ""
                return f"SPRT accepted H0 (difference {d0:+g}, not {d1:+g}) after {n} deals{gist}"
            llr = self.sprt.llr
            return (
                f"SPRT inconclusive after {n} deals "
                f"(LLR {llr:+.3f}, bounds {self.sprt.lower:+.3f} .. {self.sprt.upper:+.3f})"
            )
        d = self.difference
        if n < 2:
            return f"{n} deal, no SPRT: too few for an interval"
        if d.low > 0:
            gist = f"{a} is stronger than {b} (the 95% interval is above 0)"
        elif d.high < 0:
            gist = f"{a} is weaker than {b} (the 95% interval is below 0)"
        else:
            gist = "no difference shown (the 95% interval holds 0)"
        return f"{n} deals, no SPRT: {gist}"

    def warning(self) -> str | None:
        """What the bots' faults did to the figures, in words; None when neither faulted.

        A seat handed to a substitute is played on by the substitute, whose play then counts
        for the bot; a forfeited table leaves its hand unscored, a margin of 0.
        """
        said = []
        for who, spec in (("a", self.duel.a), ("b", self.duel.b)):
            f = self.faults[who]
            if not (f.count or f.substituted or f.forfeits):
                continue
            costs = []
            if f.substituted:
                costs.append(f"a substitute played {f.substituted} of its seats on")
            if f.forfeits:
                costs.append(f"{f.forfeits} tables forfeited, scored 0")
            cost = f" ({'; '.join(costs)})" if costs else ""
            said.append(f"{who.upper()} {spec} faulted {f.count} times{cost}")
        if not said:
            return None
        return "; ".join(said) + ": the difference measures that, not only its play"

    def to_dict(self) -> dict[str, Any]:
        """The result as one JSON-ready object (see docs/duel.md for the keys)."""
        duel = self.duel
        sprt: dict[str, Any] | None = None
        if duel.sprt is not None and self.sprt is not None:
            p = duel.sprt
            sprt = {
                "d0": p.d0,
                "d1": p.d1,
                "alpha": p.alpha,
                "beta": p.beta,
                "min_deals": p.min_n,
                **self.sprt.to_dict(),
            }
        hands = self.tables * self.n
        return {
            "game": duel.game,
            "a": duel.a,
            "b": duel.b,
            "seed": duel.seed,
            "max_deals": duel.deals,
            "deals": self.n,
            "lower_wins": load_game(duel.game).lower_wins,
            "difference": self.difference.to_dict(),
            "deals_won": {
                "a": self.wins,
                "b": self.losses,
                "tied": self.ties,
                **self.won.to_dict(),
            },
            "sprt": sprt,
            "verdict": self.verdict,
            "summary": self.sentence(),
            "warning": self.warning(),
            "faults": {
                "count": sum(f.count for f in self.faults.values()),
                "a": self.faults["a"].to_dict(),
                "b": self.faults["b"].to_dict(),
            },
            "timing": {
                "workers": self.workers,
                "elapsed_seconds": round(self.elapsed, 3),
                "hands_per_second": round(hands / self.elapsed, 1) if self.elapsed > 0 else 0.0,
            },
        }


def run_duel(
    duel: Duel, workers: int | None = None, progress: Progress | None = None
) -> DuelResult:
    """Play ``duel`` until its SPRT decides or its deals run out; its :class:`DuelResult`.

    ``workers`` processes play the deals (default: every core); ``progress`` is called after
    each deal is counted.
    """
    workers = workers or default_workers()
    began = time.perf_counter()
    test = Sprt(duel.sprt) if duel.sprt is not None else None
    acc = Accumulator()
    wins = losses = ties = 0
    faults = {"a": BotFaults(), "b": BotFaults()}
    played: list[DealResult] = []
    results = deal_results(duel, workers)
    try:
        for result in results:
            played.append(result)
            d = result.difference
            acc.add(d)
            if d > 0:
                wins += 1
            elif d < 0:
                losses += 1
            else:
                ties += 1
            _count_faults(faults, result)
            verdict = test.add(d) if test is not None else Verdict.CONTINUE
            if progress is not None:
                progress(acc.n, acc.mean, test.status() if test is not None else None)
            if verdict is not Verdict.CONTINUE:
                break
    finally:
        results.close()  # stops the workers: what they had begun past the verdict is dropped
    elapsed = time.perf_counter() - began
    status = test.status() if test is not None else None
    if status is None:
        verdict_text = FIXED
    elif status.verdict is Verdict.CONTINUE:
        verdict_text = INCONCLUSIVE
    else:
        verdict_text = status.verdict.value
    return DuelResult(
        duel,
        acc.summary(),
        wilson(wins + ties / 2, acc.n),
        wins,
        losses,
        ties,
        status,
        verdict_text,
        faults,
        tuple(played),
        workers,
        elapsed,
    )


def _count_faults(faults: dict[str, BotFaults], result: DealResult) -> None:
    for fault in result.faults:
        faults[fault.bot].add(fault, result)
    for who in result.substituted:
        faults[who].substituted += 1
    for who in result.forfeited:
        faults[who].forfeits += 1
