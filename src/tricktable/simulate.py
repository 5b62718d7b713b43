"""Simulation: many hands or matches between bots, split into fixed chunks, with statistics.

The work is cut into chunks that do not depend on the number of workers, each chunk is played
with fresh bots from seeds derived from the run's seed, and the chunks' counts are summed in
chunk order — so a seed gives the same report with one worker or with twenty.

- ``--matches M``: match ``i`` (0-based) is seeded ``derive_seed(seed, "match", i)``; chunks
  hold :data:`MATCHES_PER_CHUNK` consecutive matches.
- ``--hands N``: chunk ``j`` holds :data:`HANDS_PER_CHUNK` hands (the last one may hold fewer).
  It plays consecutive matches seeded ``derive_seed(seed, "hands", j, k)`` for k = 0, 1, ...,
  starting a new match when one ends, and stops the last one when its quota is played. The
  hands are therefore played inside real matches: the scores are real and bots may use them.

Every match goes through :func:`tricktable.runner.run_match` (bots' ``act(view)`` and
``state.apply``), the path every bot uses; a chunk keeps its bots between matches
(:class:`~tricktable.runner.BotPool`). Statistics come from the match's final state, one
``state.results`` entry (a typed :class:`~tricktable.engine.results.HandResult`) per hand; no
listener runs per action.

The report (:func:`build_report`, the JSON of ``tricktable simulate --json``) has these keys:

``game``
    the game spec that loads the game again, e.g. ``setback(target=11)``.
``players``
    the four players, by seat.
``seed``
    the run's seed.
``mode``
    ``"hands"`` or ``"matches"``: which of ``--hands`` and ``--matches`` was given.
``hands``
    hands played.
``matches``
    matches completed: played until a team won.
``matches_shared``
    completed matches whose win was shared (Oh Hell's equal top totals); they count in no
    team's ``match_wins``, nor does a match forfeited by a seat of a game without partners.
``matches_stopped``
    matches stopped unfinished: with ``--hands``, a chunk's last match when its quota is
    played; with either, a match still undecided after :data:`MAX_HANDS_PER_MATCH` hands
    (random bots rarely finish one). With ``--matches M``, ``matches + matches_stopped == M``.
``teams``
    one entry per score: ``{"seats": [0, 2], "players": [...]}``; every list below that has
    one number per team follows this order. A player whose seat was handed to a substitute
    after a fault is labelled so: ``cmd:./bot (substituted by heuristic in 3 of 10 matches)``.
``match_wins``
    completed matches won by each team (they sum to ``matches`` less ``matches_shared`` and
    forfeits without a winner).
``points_taken``
    ``{"total": [...], "per_hand": [...]}``: points of the hand taken by each team (the
    hand results' ``taken``); absent for a game whose results have no ``taken``.
``score_change``
    ``{"total": [...], "per_hand": [...]}``: how each team's match score moved (a set-back
    declarer loses its bid), from the scores themselves, so every game has it.
``bids``
    for each bid value (``"2"`` .. ``"6"``) and ``"stuck"`` (every seat passed and the dealer
    declares at the minimum bid): ``{"count", "share", "made", "make_rate"}`` — hands won at
    that bid, their share of all hands, how many the declarers made (took at least the bid)
    and ``made / count`` (null when count is 0). The counts sum to ``hands``.
``points``
    for each of ``high``, ``low``, ``jack``, ``off_jack``, ``joker``, ``game``:
    ``available`` (hands in which the point was in play), ``available_rate``
    (``available / hands``), ``won`` (by team), ``won_share`` (``won / available``, by team),
    ``won_by_declarers``, ``declarers_share`` (``won_by_declarers / available``) and ``tied``.
    A point is available when the result names a team for it (null means the card was not
    dealt), except **Game**, which is in play in every hand: a null Game point means a tie, so
    Game's ``available_rate`` is always 1.0 and its ``tied`` counts the ties (its
    ``won_share`` then sums to ``1 - tied / available``). High and Low are available in every
    hand, since trump is the suit of a dealt card.
``game_stats``
    the statistics of the hook the game declares (:mod:`tricktable.stats`): ``family`` names
    the hook (``setback``, ``hearts``, ``filippa``, ``spades``, ``tricks``, ``oh-hell``,
    ``euchre``, or ``generic`` for a game without one) and the other keys are its: penalty
    points, moons and the queen of spades; bids made, nils and bags; exact bids; makers,
    marches and euchres; score changes.
``faults``
    every fault of the run: ``count``; ``by_seat``, one entry a seat: ``{"seat", "player",
    "count", "kinds" (count by kind), "matches_substituted", "hands_by_substitute",
    "matches_forfeited"}``; and ``listed``: the first :data:`FAULTS_LISTED` faults as the
    referee records them (``seat``, ``hand``, ``action``, ``kind``, ``detail``, ``penalty``),
    with the ``seed`` of their match (and its number ``match`` with ``--matches``), so that
    ``tricktable play --players ... --seed SEED`` plays that match again.
``timing``
    ``{"workers", "elapsed_seconds", "hands_per_second"}``: the only keys that vary between
    runs of one seed; elapsed time counts the play, not the start of the process.

A game whose hand results are not Setback's (no ``bid``, ``taken`` or ``points``) still
simulates: the report leaves out what its results do not have.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

from tricktable.bots import is_builtin_player, make_bot, split_players, substitute_factory
from tricktable.bots.base import Bot
from tricktable.engine.actions import BID, PASS
from tricktable.engine.trick import Game, TrickState
from tricktable.errors import TricktableError
from tricktable.games import load_game
from tricktable.games.setback_results import SetbackResult
from tricktable.interrupts import raise_if_lost
from tricktable.limits import RunnerOptions
from tricktable.match import Referee, end_bots, play_on
from tricktable.runner import BotPool, MatchOutcome, MatchSpec, MatchStopped, run_match
from tricktable.seeds import Seeds, derive_seed
from tricktable.stats import UNREAD, game_report, stats_for
from tricktable.workers import default_workers, executor

#: hands per chunk of a ``--hands`` run (a fixed size, so results ignore the worker count)
HANDS_PER_CHUNK = 1000
#: matches per chunk of a ``--matches`` run
MATCHES_PER_CHUNK = 10
#: hands after which a match is stopped unfinished: random bots, which bid high and go set,
#: can drive both scores down for ever and never reach the target
MAX_HANDS_PER_MATCH = 1000
#: points in play in every hand, whose null means a tie rather than "not dealt"
ALWAYS_IN_PLAY = frozenset({"game"})
#: how many decimals the rates of the report keep
DIGITS = 6
#: faults the report lists whole (all of them are counted)
FAULTS_LISTED = 20

#: one kind of hand: (declarer, bid, stuck, taken by team, point winners by point name)
HandKind = tuple[int | None, int | None, bool, tuple[int, ...], tuple[int | None, ...]]
#: called after each chunk with how many hands (``--hands``) or matches it played
Progress = Callable[[int], None]
K = TypeVar("K")


class SimulationError(TricktableError):
    """A simulation that cannot run: bad players, or a bot that failed in a worker."""


class SimulationFailure(SimulationError):
    """A match the engine could not play on (a bug): the run stops, naming the match's seed."""


# Plain classes rather than dataclasses: building a dataclass costs milliseconds at import,
# and the speed benchmark times the whole process.


#: (decision_time, match_time, on_fault): how the run referees program and URL bots
Limits = tuple[float, float, str]
_RUNNER = RunnerOptions()  # the referee's defaults, as the run's
DEFAULT_LIMITS: Limits = (_RUNNER.decision_time, _RUNNER.match_time, _RUNNER.on_fault)


class Chunk:
    """One fixed piece of a run: ``count`` hands, or ``count`` matches from match ``start``."""

    __slots__ = ("count", "game_spec", "index", "limits", "mode", "players", "seed", "start")

    def __init__(
        self,
        index: int,
        game_spec: str,
        players: tuple[str, ...],
        seed: int,
        mode: str,
        start: int,
        count: int,
        limits: Limits = DEFAULT_LIMITS,
    ) -> None:
        self.limits = limits
        self.index = index
        self.game_spec = game_spec
        self.players = players
        self.seed = seed
        self.mode = mode
        self.start = start
        self.count = count


class Tally:
    """The counts of a chunk or a run; tallies of chunks add up to the tally of the run.

    ``kinds`` counts the hands of each :data:`HandKind`: a few thousand distinct keys cover
    any number of hands, which keeps the per-hand work to one dict update. Games whose
    statistics hook reads these kinds (``reads_hand_kinds``: Setback and its presets) fill it;
    every other game fills ``game_kinds`` with its hook's keys (:mod:`tricktable.stats`).
    """

    def __init__(
        self,
        num_scores: int,
        hands: int = 0,
        matches: int = 0,
        stopped: int = 0,
        wins: list[int] | None = None,
        score_change: list[int] | None = None,
    ) -> None:
        self.num_scores = num_scores
        self.hands = hands
        self.matches = matches
        self.stopped = stopped
        self.wins = wins if wins is not None else [0] * num_scores
        self.score_change = score_change if score_change is not None else [0] * num_scores
        self.shared = 0
        self.point_names: tuple[str, ...] = ()
        self.kinds: dict[HandKind, int] = {}
        self.game_kinds: dict[Any, int] = {}
        self.faults = FaultTally()

    def add(self, other: Tally) -> None:
        """Add another tally's counts to this one."""
        self.hands += other.hands
        self.matches += other.matches
        self.stopped += other.stopped
        self.shared += other.shared
        game_kinds = self.game_kinds
        for key, n in other.game_kinds.items():
            game_kinds[key] = game_kinds.get(key, 0) + n
        for team in range(self.num_scores):
            self.wins[team] += other.wins[team]
            self.score_change[team] += other.score_change[team]
        if not self.point_names:
            self.point_names = other.point_names
        kinds = self.kinds
        for kind, n in other.kinds.items():
            kinds[kind] = kinds.get(kind, 0) + n
        self.faults.add(other.faults)

    def add_outcome(self, outcome: MatchOutcome, seed: int, match: int | None = None) -> None:
        """Count a match played by :func:`~tricktable.runner.run_match`, its faults too."""
        assert outcome.state is not None
        self.add_match(outcome.state)
        if outcome.faults or outcome.substitutions or outcome.result.forfeited_by is not None:
            self.faults.add_outcome(outcome, seed, match)

    def add_match(self, state: TrickState) -> None:
        """Count the hands of a match that was played (or stopped), from its final state."""
        results = state.results
        hook = stats_for(state.game)
        if hook.reads_hand_kinds:
            self._add_hand_kinds(state)
        else:
            self._add_hands(state, hook.key)
        self.hands += len(state.results)
        scores = state.scores
        for team in range(min(self.num_scores, len(scores))):
            self.score_change[team] += scores[team]
        if not state.is_over:
            self.stopped += 1
            return
        self.matches += 1
        winner = state.winner
        if results and results[-1].shared_win():
            self.shared += 1
        elif winner is not None and 0 <= winner < self.num_scores:
            self.wins[winner] += 1

    def _add_hands(self, state: TrickState, key: Callable[..., Hashable]) -> None:
        """Count each hand by its statistics hook's ``key`` (games whose hook has keys of
        their own)."""
        kinds = self.game_kinds
        count = kinds.get
        before: tuple[int, ...] = (0,) * self.num_scores
        for result in state.results:
            try:
                kind = key(result, before)
            except (TypeError, ValueError, IndexError):
                kind = UNREAD  # a result the hook cannot read: counted apart
            kinds[kind] = count(kind, 0) + 1
            if len(result.scores) == len(before):
                before = result.scores

    def _add_hand_kinds(self, state: TrickState) -> None:
        """Count each hand by its :data:`HandKind` (the Pitch family's hot path)."""
        results = state.results
        history = state.history
        kinds = self.kinds
        count = kinds.get
        if results and not self.point_names:
            first = results[0]
            self.point_names = tuple(first.points) if isinstance(first, SetbackResult) else ()
        # Only a hand won at the lowest bid can be a stuck dealer's; others skip the check.
        low = getattr(state.options, "min_bid", None)
        low = low if isinstance(low, int) else 1 << 30
        for i, result in enumerate(results):
            # The fast path: one tuple per hand and one dict update (see Tally).
            kind: HandKind
            if isinstance(result, SetbackResult):
                bid = result.bid
                kind = (
                    result.declarer,
                    bid,
                    bid is not None and bid <= low and _stuck(history[i].actions),
                    result.taken,
                    tuple(result.points.values()),
                )
            else:
                kind = (None, None, False, (), ())  # not a Setback result: scores only
            kinds[kind] = count(kind, 0) + 1


def _stuck(actions: list[int]) -> bool:
    """Whether a hand's auction ended without a bid: the first card came before any bid."""
    for action in actions:
        if action < PASS:
            return True
        if BID <= action < BID + 64:
            return False
    return True


class FaultTally:
    """The faults of a chunk or a run, by seat, and what substitutes and forfeits cost.

    Tallies of chunks add up, in chunk order, to the tally of the run: the faults listed are
    the run's first, whatever the number of workers.
    """

    def __init__(self) -> None:
        self.count: dict[int, int] = {}
        self.kinds: dict[tuple[int, str], int] = {}
        self.listed: list[dict[str, Any]] = []
        #: (seat, substitute) -> matches in which it took the seat
        self.substituted: dict[tuple[int, str], int] = {}
        self.substitute_hands: dict[int, int] = {}
        self.forfeited: dict[int, int] = {}

    @property
    def total(self) -> int:
        """How many faults."""
        return sum(self.count.values())

    def add_outcome(self, outcome: MatchOutcome, seed: int, match: int | None) -> None:
        """Count the faults, substitutions and forfeit of one match."""
        for fault in outcome.faults:
            seat, kind = fault["seat"], str(fault["kind"])
            self.count[seat] = self.count.get(seat, 0) + 1
            self.kinds[(seat, kind)] = self.kinds.get((seat, kind), 0) + 1
            if len(self.listed) < FAULTS_LISTED:
                where = {"seed": seed} if match is None else {"match": match, "seed": seed}
                self.listed.append({**where, **fault})
        dealt = outcome.result.dealt
        for seat, hand, player in outcome.substitutions:
            key = (seat, player)
            self.substituted[key] = self.substituted.get(key, 0) + 1
            self.substitute_hands[seat] = self.substitute_hands.get(seat, 0) + dealt - hand
        seat = outcome.result.forfeited_by
        if seat is not None:
            self.forfeited[seat] = self.forfeited.get(seat, 0) + 1

    def add(self, other: FaultTally) -> None:
        """Add a later chunk's faults to these."""
        _merge(self.count, other.count)
        _merge(self.kinds, other.kinds)
        _merge(self.substituted, other.substituted)
        _merge(self.substitute_hands, other.substitute_hands)
        _merge(self.forfeited, other.forfeited)
        self.listed.extend(other.listed[: FAULTS_LISTED - len(self.listed)])

    def report(self, players: Sequence[str]) -> dict[str, Any]:
        """The report's ``faults`` (see this module's docstring)."""
        seats = []
        for seat, player in enumerate(players):
            kinds = {k: n for (s, k), n in sorted(self.kinds.items()) if s == seat}
            seats.append(
                {
                    "seat": seat,
                    "player": player,
                    "count": self.count.get(seat, 0),
                    "kinds": kinds,
                    "matches_substituted": sum(
                        n for (s, _), n in self.substituted.items() if s == seat
                    ),
                    "hands_by_substitute": self.substitute_hands.get(seat, 0),
                    "matches_forfeited": self.forfeited.get(seat, 0),
                }
            )
        return {"count": self.total, "by_seat": seats, "listed": [dict(f) for f in self.listed]}

    def label(self, seat: int, player: str, matches: int) -> str:
        """``player``, saying which substitute took its seat in how many of ``matches``."""
        subs = [(name, n) for (s, name), n in sorted(self.substituted.items()) if s == seat]
        if not subs:
            return player
        said = ", ".join(f"{name} in {n} of {matches} matches" for name, n in subs)
        return f"{player} (substituted by {said})"


def _merge(mine: dict[K, int], theirs: dict[K, int]) -> None:
    for key, n in theirs.items():
        mine[key] = mine.get(key, 0) + n


class Simulation:
    """A checked request (see :func:`prepare`): what to play, by whom, how much, which seed."""

    def __init__(
        self,
        game_spec: str,
        players: tuple[str, ...],
        seed: int,
        hands: int | None = None,
        matches: int | None = None,
        limits: Limits = DEFAULT_LIMITS,
    ) -> None:
        self.limits = limits
        self.game_spec = game_spec
        self.players = players
        self.seed = seed
        self.hands = hands
        self.matches = matches

    @property
    def mode(self) -> str:
        """``"hands"`` or ``"matches"``."""
        return "hands" if self.hands is not None else "matches"

    @property
    def total(self) -> int:
        """How many hands or matches the run plays (the unit of progress)."""
        return self.hands if self.hands is not None else (self.matches or 0)

    def chunks(self) -> list[Chunk]:
        """The fixed chunks of the run, in order."""
        size = HANDS_PER_CHUNK if self.hands is not None else MATCHES_PER_CHUNK
        total = self.total
        return [
            Chunk(
                i,
                self.game_spec,
                self.players,
                self.seed,
                self.mode,
                start,
                min(size, total - start),
                self.limits,
            )
            for i, start in enumerate(range(0, total, size))
        ]


def prepare(
    game_spec: str,
    players: str | Sequence[str],
    seed: int,
    hands: int | None = None,
    matches: int | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> Simulation:
    """Check a request and return it as a :class:`Simulation`; raises :class:`TricktableError`.

    ``players`` is one name per seat, as a list or as comma-separated text.
    """
    if (hands is None) == (matches is None):
        raise SimulationError("give exactly one of --hands N or --matches M")
    if (hands if hands is not None else matches or 0) < 1:
        raise SimulationError("the number of hands or matches must be at least 1")
    names = split_players(players) if isinstance(players, str) else list(players)
    names = [name.strip() for name in names]
    game = load_game(game_spec, players=len(names))  # the table the players given make
    if len(names) != game.num_players:
        raise SimulationError(
            f"{game.name} needs {game.num_players} players, got {len(names)}: {','.join(names)}"
        )
    for name in names:
        if name.lower() == "human":
            raise SimulationError("simulate plays bots only; 'human' cannot take a seat")
        make_bot(name).close()
    RunnerOptions(*limits)  # checked now, not in a worker
    return Simulation(game.spec(), tuple(names), seed, hands, matches, limits)


def play_chunk(chunk: Chunk) -> Tally:
    """Play one chunk with fresh bots and return its tally (run in this or a worker process)."""
    try:
        game = load_game(chunk.game_spec)
        options = RunnerOptions(*chunk.limits)
        pool = BotPool()  # the chunk's bots, kept between its matches
        try:
            if chunk.mode == "hands":
                return _play_hands(game, pool, chunk, options)
            return _play_matches(game, pool, chunk, options)
        finally:
            pool.close()
    except SimulationError:
        raise
    except TricktableError as exc:
        # Errors with extra constructor arguments do not survive pickling back from a worker.
        raise SimulationError(str(exc)) from None


def _play_hands(game: Game, pool: BotPool, chunk: Chunk, options: RunnerOptions) -> Tally:
    tally = Tally(game.num_scores)
    series = Series(game, pool, chunk.players, options)
    seeds = Seeds(chunk.seed, "hands", chunk.index)
    k = 0
    while tally.hands < chunk.count:
        seed = seeds.of(k)
        quota = min(chunk.count - tally.hands, MAX_HANDS_PER_MATCH)
        state = series.play(seed, quota)
        if state is not None:
            tally.add_match(state)
        else:
            spec = MatchSpec(chunk.game_spec, chunk.players, seed, options, quota)
            tally.add_outcome(_run_match(spec, pool), seed)
        k += 1
    return tally


def _play_matches(game: Game, pool: BotPool, chunk: Chunk, options: RunnerOptions) -> Tally:
    tally = Tally(game.num_scores)
    series = Series(game, pool, chunk.players, options)
    for i in range(chunk.start, chunk.start + chunk.count):
        seed = derive_seed(chunk.seed, "match", i)
        state = series.play(seed, MAX_HANDS_PER_MATCH)
        if state is not None:
            tally.add_match(state)
            continue
        spec = MatchSpec(chunk.game_spec, chunk.players, seed, options, MAX_HANDS_PER_MATCH)
        tally.add_outcome(_run_match(spec, pool), seed, i + 1)
    return tally


#: a bot's end_match that does nothing (the base class's)
_SILENT_END = Bot.end_match


class Series:
    """The matches of one chunk played straight through the match loop, one after another.

    :func:`~tricktable.runner.run_match` plays a match with the same steps (``start_bots``,
    ``play_on``, ``end_bots``, the referee), but it also reads its spec, seats people, resumes
    records, deals given deals and builds a typed outcome: work for a single match that cost
    a random match of two-hand All Fours (3.4 hands) as much as a hand of it. A chunk's
    matches need none of it while nothing goes wrong, so a series keeps its bots and one
    referee, and :meth:`play` hands back the final state alone.

    Anything out of the ordinary leaves the match to ``run_match``: :meth:`play` gives None,
    and the caller plays that match again there (same seed, same bots), which records its
    faults, substitutes and forfeits, or names the failure that stops the run, as for any
    match. Played that way are: a match in which any fault was recorded (a bot's error, a
    refused chat line), a match the engine could not finish, and every match of a series
    with a player that is not tricktable's own (a program, a URL, a plug-in: their pool
    entries are run_match's to manage), a person, or a character that talks.
    """

    __slots__ = ("bots", "game", "limits", "players", "pool", "quiet_end", "referee", "straight")

    def __init__(
        self, game: Game, pool: BotPool, players: Sequence[str], limits: RunnerOptions
    ) -> None:
        self.game = game
        self.pool = pool
        self.players = tuple(players)
        self.limits = limits
        #: the substitute and limits run_match's referee has (MatchSpec's default substitute)
        self.referee = Referee(limits, substitute_factory("heuristic", limits))
        self.straight = all(is_builtin_player(p) for p in self.players)
        self.bots: list[Bot] = []
        #: whether no bot of ``bots`` does anything when told the match is over (each would
        #: be handed a view of its seat for nothing)
        self.quiet_end = False

    def play(self, seed: int, max_hands: int) -> TrickState | None:
        """Play the match of ``seed`` (at most ``max_hands`` hands): its final state, or None
        where it must be played by ``run_match`` instead (see the class)."""
        if not self.straight:
            return None
        bots = self.bots
        if not bots:
            limits = self.limits
            bots = [self.pool.bot(s, p, limits) for s, p in enumerate(self.players)]
            if any(bot.talks or bot.interactive for bot in bots):
                self.straight = False
                return None
            self.bots = bots
            self.quiet_end = all(type(bot).end_match is _SILENT_END for bot in bots)
        referee = self.referee
        game = self.game
        try:
            # start_bots and end_bots, called directly: every bot here is tricktable's own
            # (called directly by make_calls too, never through the clock), and one that
            # fails to start would be a fault, which sends the match to run_match anyway.
            referee.start(seed)
            seats = Seeds(seed, "seat")
            for seat, bot in enumerate(bots):
                bot.start_match(game, seat, seats.of(seat))
            state = play_on(game.new_state(seed), bots, None, max_hands, referee)
            if self.quiet_end:
                referee.close_substitutes()  # all match_ended would do: no bot listens
            else:
                end_bots(state, bots, referee)
        except Exception:
            self._again()
            return None
        if referee.faults:
            self._again()
            return None
        return state

    def _again(self) -> None:
        """Leave this match to run_match: it plays it again with the same bots (each told
        its seat and seed anew), as if never played here, and drops from the pool those that
        fault; the series takes its bots from the pool again afterwards."""
        self.referee.close_substitutes()
        self.bots = []


def _run_match(spec: MatchSpec, pool: BotPool) -> MatchOutcome:
    """Play one match of the run; a match that cannot go on stops the run, naming its seed."""
    try:
        return run_match(spec, pool=pool)
    except MatchStopped as stop:
        # The seed alone: the players are the run's (on the command line), and an error line
        # is cut at 200 characters, where program paths would crowd the cause out.
        where = f"match seed {spec.seed}"
        raise stop.as_error(where, SimulationError, SimulationFailure) from None


def run(sim: Simulation, workers: int | None = None, progress: Progress | None = None) -> Tally:
    """Play every chunk of ``sim`` (in ``workers`` processes) and return the run's tally.

    One worker, or a run of one chunk, plays in this process and starts no pool at all.
    """
    chunks = sim.chunks()
    workers = min(workers or default_workers(), len(chunks))
    tallies: list[Tally | None] = [None] * len(chunks)
    if workers <= 1:
        with _sparse_gc():
            for chunk in chunks:
                raise_if_lost()  # a Ctrl-C Python lost (tricktable.interrupts)
                tallies[chunk.index] = play_chunk(chunk)
                if progress is not None:
                    progress(chunk.count)
    else:
        _run_pool(chunks, workers, tallies, progress)
    total = Tally(load_game(sim.game_spec).num_scores)
    for tally in tallies:
        assert tally is not None
        total.add(tally)
    return total


def _run_pool(
    chunks: list[Chunk], workers: int, tallies: list[Tally | None], progress: Progress | None
) -> None:
    from concurrent.futures import as_completed

    # Every chunk submitted at once (a chunk is already a task's worth of matches); leaving
    # the block on Ctrl-C or a failed chunk stops the workers, nobody waits for the chunks
    # still running.
    with executor(workers, initializer=_collect_sparsely) as pool:
        futures = {pool.submit(play_chunk, chunk): chunk for chunk in chunks}
        for future in as_completed(futures):
            raise_if_lost()  # a Ctrl-C Python lost (tricktable.interrupts)
            chunk = futures[future]
            tallies[chunk.index] = future.result()
            if progress is not None:
                progress(chunk.count)


@contextmanager
def _sparse_gc() -> Iterator[None]:
    """Collect cycles less often while matches play, then restore the collector's settings.

    A hand makes and frees many small lists and tuples; with the default thresholds the
    collector ran every few hands and walked every object of the imports each full pass
    (about 5% of a Setback hand's instructions). Freezing moves the objects alive now out of
    its sight; the larger first threshold still collects each match's few cycles (a state
    and its views) before they add up: about 12 MB more at most for a 100,000-hand run, where
    thresholds ten times larger again cost 30 MB for 1% more speed.
    """
    thresholds = gc.get_threshold()
    _collect_sparsely()
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()


def _collect_sparsely() -> None:
    gc.freeze()
    gc.set_threshold(20_000, 10, 10)


def simulate(
    sim: Simulation, workers: int | None = None, progress: Progress | None = None
) -> dict[str, Any]:
    """Run ``sim`` and return its report (see this module's docstring for the keys)."""
    workers = workers or default_workers()
    began = time.perf_counter()
    tally = run(sim, workers, progress)
    elapsed = time.perf_counter() - began
    return build_report(sim, tally, workers, elapsed)


def build_report(sim: Simulation, tally: Tally, workers: int, elapsed: float) -> dict[str, Any]:
    """The report of a run from its tally (see this module's docstring for the keys)."""
    game = load_game(sim.game_spec)
    teams = tally.num_scores
    hands = tally.hands
    seats = [[s for s in range(game.num_players) if game.team_of(s) == t] for t in range(teams)]
    faults = tally.faults
    played = tally.matches + tally.stopped
    report: dict[str, Any] = {
        "game": sim.game_spec,
        "players": list(sim.players),
        "seed": sim.seed,
        "mode": sim.mode,
        "hands": hands,
        "matches": tally.matches,
        "matches_shared": tally.shared,
        "matches_stopped": tally.stopped,
        "teams": [
            {"seats": s, "players": [faults.label(i, sim.players[i], played) for i in s]}
            for s in seats
        ],
        "match_wins": list(tally.wins),
    }
    taken_total = [0] * teams
    has_taken = False
    bids: dict[str, list[int]] = {}
    point_names = tally.point_names
    # per point: [available, tied, won by declarers, won by team 0, won by team 1, ...]
    points = {name: [0] * (3 + teams) for name in point_names}
    for (declarer, bid, stuck, taken, winners), n in tally.kinds.items():
        if len(taken) == teams:
            has_taken = True
            for team in range(teams):
                taken_total[team] += taken[team] * n
        side = game.team_of(declarer) if declarer is not None else -1
        if bid is not None:
            row = bids.setdefault("stuck" if stuck else str(bid), [0, 0])
            row[0] += n
            if len(taken) == teams and side >= 0 and taken[side] >= bid:
                row[1] += n
        for name, winner in zip(point_names, winners, strict=False):
            counts = points[name]
            if winner is None:
                if name in ALWAYS_IN_PLAY:
                    counts[0] += n
                    counts[1] += n
                continue
            counts[0] += n
            if winner == side:
                counts[2] += n
            if 0 <= winner < teams:
                counts[3 + winner] += n
    if has_taken:
        report["points_taken"] = _total_and_mean(taken_total, hands)
    report["score_change"] = _total_and_mean(tally.score_change, hands)
    if bids:
        report["bids"] = _bid_report(game, bids, hands)
    if point_names:
        report["points"] = {
            name: _point_report(counts, teams, hands) for name, counts in points.items()
        }
    kinds: dict[Any, int] = tally.kinds if stats_for(game).reads_hand_kinds else tally.game_kinds
    report["game_stats"] = game_report(game, kinds, hands)
    report["faults"] = faults.report(sim.players)
    rate = hands / elapsed if elapsed > 0 else 0.0
    report["timing"] = {
        "workers": workers,
        "elapsed_seconds": round(elapsed, 3),
        "hands_per_second": round(rate, 1),
    }
    return report


def _ratio(part: int, whole: int) -> float | None:
    return round(part / whole, DIGITS) if whole else None


def _total_and_mean(totals: list[int], hands: int) -> dict[str, Any]:
    return {"total": list(totals), "per_hand": [_ratio(t, hands) for t in totals]}


def _bid_report(game: Game, bids: dict[str, list[int]], hands: int) -> dict[str, Any]:
    # Every bid the rules allow gets a row, made or not, so that reports share one shape.
    values = {int(k) for k in bids if k != "stuck"}
    low, high = getattr(game.options, "min_bid", None), getattr(game.options, "max_bid", None)
    if isinstance(low, int) and isinstance(high, int):
        values.update(range(low, high + 1))
    out: dict[str, Any] = {}
    for key in [*map(str, sorted(values)), "stuck"]:
        count, made = bids.get(key, (0, 0))
        out[key] = {
            "count": count,
            "share": _ratio(count, hands),
            "made": made,
            "make_rate": _ratio(made, count),
        }
    return out


def _point_report(counts: list[int], teams: int, hands: int) -> dict[str, Any]:
    available, tied, declarers = counts[0], counts[1], counts[2]
    won = counts[3 : 3 + teams]
    return {
        "available": available,
        "available_rate": _ratio(available, hands),
        "won": won,
        "won_share": [_ratio(w, available) for w in won],
        "won_by_declarers": declarers,
        "declarers_share": _ratio(declarers, available),
        "tied": tied,
    }
