"""Monte Carlo CFR for Setback's abstract game (:mod:`tricktable.cfr.keys`), on every core.

**The variant: external sampling** (Lanctot et al., *Monte Carlo Sampling for Regret
Minimization in Extensive Games*, 2009). Vanilla CFR walks the whole tree of every deal: with
53-choose-6 hands a seat and four seats' play, even the abstract game's tree is far out of
reach. External sampling draws the chance events and the other players' actions and walks
every action of one player only, the *traverser*: each iteration deals one hand at random and
walks it once for each of the four seats as traverser. At the traverser's decisions every
abstract action is tried and its regret (its value less the node's expected value under the
current strategy) added; at the other seats' decisions one action is drawn from the current
strategy (regret matching), and that node's strategy sum gains the current strategy (the
"stochastically weighted" average, unbiased since those nodes are reached in proportion to
the other players' reach). Outcome sampling, which draws the traverser's actions too, costs
less an iteration but weighs each regret by the inverse of a product of ten or so sampling
probabilities; external sampling's estimates have far less variance, which matters more in a
run of minutes. The game is partnership Setback: the partner is another player, sampled like
the opponents; the utility is the traverser's side's score change in the hand less the other
side's (zero-sum between the sides; the match score is not in the keys).

**Workers and merging.** ``train`` runs on a process pool. Each worker starts from the
database's sums (loaded once, at the pool's start), trains on its own table and, every chunk
of about :data:`CHUNK_SECONDS`, hands back the *increments* of its regret and strategy sums
since its last chunk; the parent adds them to the database's sums and writes the changed keys
to SQLite at least every :data:`CHECKPOINT_SECONDS` and at the end. Sums add, so the merged
table is what one table would hold had it received every worker's updates; a worker sees the
others' updates only at the next run (each run's workers start from the merged database).

**Payoffs from strong card play** (issue 21). Learnt in one walk, the bids are valued against
the other seats' card play *in the training*, which after minutes is still close to uniform over
the abstract actions: against it a contract is made easily, and the strategy overbids (the
shipped strategy of the first scheme lost 3 points a deal to the heuristic, nearly all in the
auction). So a run may learn one *phase* of the keys (:data:`PHASES`) and have the heuristic
(:class:`~tricktable.bots.pitch_heuristic.PitchHeuristic`, one per seat) play every decision
of the others — ``payoff="heuristic"``:

- ``phase="auction"``: the auction and establish-trump keys are learnt; after the first lead
  the heuristic plays the cards out, so a bid is valued by what competent play makes of the
  hand;
- ``phase="play"``: the playout keys are learnt; the heuristic bids and leads the first card;
- ``phase="all"``: every key (the first scheme; ``payoff`` is then irrelevant).

``against="heuristic"`` has the heuristic play every decision of the traverser's *opponents*
too, learnt phase or not, so the traverser's side (the traverser explores, its partner samples
the strategy and adds to its average) learns to play with itself against the heuristic — the
setting of a duel; ``against="self"`` has them sample the strategy (self-play). The utility
is the same in every scheme; the keys and the store are too, so one database may be trained
phase after phase (the auction, then the play).

**Linear CFR** (Brown and Sandholm, *Solving Imperfect-Information Games via Discounted Regret
Minimization*, 2019): with ``linear``, iteration t's regret and strategy-sum increments weigh t,
t counting the iterations of the run's phase (``meta.iterations_<phase>``; a worker of W
numbers its k-th iteration ``base + k * W``). The first iterations play a nearly uniform
strategy; weighed as much as the last, they would stay in the average for a long time.
:func:`train` trains a new database so (``meta.weighting = linear``) and one made before,
uniformly, as it was begun.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass
from typing import Final

from tricktable.bots.base import Bot
from tricktable.cfr.keys import decision
from tricktable.cfr.store import (
    Node,
    Store,
    StrategyError,
    draw,
    key_kind,
    normalise,
    phase_iterations,
)
from tricktable.engine.trick import AUCTION, PLAY, Game, TrickState
from tricktable.interrupts import raise_if_lost
from tricktable.seeds import derive_seed
from tricktable.workers import default_workers, executor

#: the game trained (the keys assume Setback's rules: see keys.py)
GAME_SPEC: Final = "setback"
#: about how long a worker trains before handing its increments back
CHUNK_SECONDS: Final = 20.0
#: the longest the parent keeps merged increments before writing them
CHECKPOINT_SECONDS: Final = 60.0
#: what plays the decisions a run does not learn: the strategy itself, or the heuristic
PAYOFFS: Final = ("abstract", "heuristic")
#: which keys a run learns (see the module)
PHASES: Final = ("all", "auction", "play")
#: who the traverser's opponents are: the strategy (self-play), or the heuristic
AGAINST: Final = ("self", "heuristic")
#: the kinds of decision a phase learns: (auction, establish trump, playout)
_LEARNS: Final = {
    "all": (True, True, True),
    "auction": (True, True, False),
    "play": (False, False, True),
}


@dataclass(frozen=True)
class Scheme:
    """How a run trains: the ``phase`` learnt, the ``payoff`` (what plays the other phases)
    and who the traverser plays ``against`` (see the module)."""

    phase: str = "all"
    payoff: str = "abstract"
    against: str = "self"

    def __post_init__(self) -> None:
        for name, allowed in (("phase", PHASES), ("payoff", PAYOFFS), ("against", AGAINST)):
            value = getattr(self, name)
            if value not in allowed:
                raise StrategyError(f"unknown CFR {name} {value!r}: one of {', '.join(allowed)}")
        if self.phase != "all" and self.payoff == "abstract":
            raise StrategyError(
                f"phase {self.phase!r} learns only some keys: the others need a player"
                " (payoff 'heuristic')"
            )

    @property
    def uses_heuristic(self) -> bool:
        """Whether any decision is played by the heuristic."""
        return self.payoff == "heuristic" or self.against == "heuristic"

    def text(self) -> str:
        """The scheme in words, as the database's meta records it."""
        return f"phase={self.phase} payoff={self.payoff} against={self.against}"


class Trainer:
    """External-sampling MCCFR over random deals of ``game``, into ``table`` (key -> node).

    ``deltas`` gathers every increment since the last :meth:`take_deltas`, for merging.
    """

    def __init__(
        self,
        game: Game,
        table: dict[str, Node] | None = None,
        scheme: Scheme | None = None,
        linear: bool = False,
        base: int = 0,
        stride: int = 1,
    ) -> None:
        self.game = game
        self.table: dict[str, Node] = table if table is not None else {}
        self.deltas: dict[str, Node] = {}
        self.iterations = 0
        #: Linear CFR: iteration t's regrets and strategy weigh t (see the module)
        self.linear = linear
        #: the iterations done before this trainer's first, and how many trainers run side by
        #: side (this one's k-th iteration is about the ``base + k * stride``-th of them all)
        self.base = base
        self.stride = stride
        self._weight = 1.0
        self.scheme = scheme = scheme or Scheme()
        self._learns = _LEARNS[scheme.phase]
        self._against = scheme.against == "heuristic"
        #: the heuristic of each seat, where the scheme has one play (else none)
        self.bots: list[Bot] = []
        if scheme.uses_heuristic:
            from tricktable.bots.pitch_heuristic import PitchHeuristic

            self.bots = [PitchHeuristic() for _ in range(game.num_players)]
            for seat, bot in enumerate(self.bots):
                bot.start_match(game, seat, 0)  # it draws nothing at random

    def take_deltas(self) -> dict[str, Node]:
        """The increments since the last call (and forget them)."""
        out, self.deltas = self.deltas, {}
        return out

    def run(self, iterations: int, seconds: float | None, seed: int) -> int:
        """Train up to ``iterations`` iterations or ``seconds``; the number done."""
        rng = random.Random(seed)
        end = None if seconds is None else time.monotonic() + seconds
        done = 0
        while done < iterations and (end is None or time.monotonic() < end):
            self.iteration(rng)
            done += 1
        return done

    def iteration(self, rng: random.Random) -> None:
        """One deal at random, walked once for each seat as the traverser."""
        state = self.game.new_state(rng.getrandbits(62))
        state.deal()
        if self.linear:
            self._weight = float(self.base + self.iterations * self.stride + 1)
        for traverser in range(state.n):
            self.traverse(state.clone(), traverser, rng)
        self.iterations += 1

    def _node(self, key: str, size: int) -> tuple[Node, Node]:
        node = self.table.get(key)
        if node is None:
            node = self.table[key] = [[0.0] * size, [0.0] * size]
        delta = self.deltas.get(key)
        if delta is None:
            delta = self.deltas[key] = [[0.0] * size, [0.0] * size]
        return node, delta

    def traverse(self, state: TrickState, traverser: int, rng: random.Random) -> float:
        """The sampled value of ``state`` (which this call may change) for ``traverser``."""
        bots = self.bots
        learns = self._learns
        against = self._against
        sides = self.game.num_scores
        while state.phase == AUCTION or state.phase == PLAY:
            mask = state.legal_mask()
            if not mask & (mask - 1):  # one legal action: no decision
                state.apply(mask.bit_length() - 1)
                continue
            seat = state.to_act
            view = state.view(seat)
            if bots:
                kind = 0 if state.phase == AUCTION else 1 if view.trump < 0 else 2
                if not learns[kind] or (against and (seat - traverser) % sides):
                    state.apply(bots[seat].act(view))
                    continue
            found = decision(view)
            assert found is not None
            if found.key is None:
                state.apply(found.concrete[0])
                continue
            size = len(found.concrete)
            node, delta = self._node(found.key, size)
            sigma = normalise(node[0])  # regret matching
            if seat == traverser:
                values = []
                for action in found.concrete:
                    child = state.clone()
                    child.apply(action)
                    values.append(self.traverse(child, traverser, rng))
                expected = sum(p * v for p, v in zip(sigma, values, strict=True))
                regret, dregret = node[0], delta[0]
                weight = self._weight
                for i in range(size):
                    gain = (values[i] - expected) * weight
                    regret[i] += gain
                    dregret[i] += gain
                return expected
            total, dtotal = node[1], delta[1]
            weight = self._weight
            for i in range(size):
                total[i] += sigma[i] * weight
                dtotal[i] += sigma[i] * weight
            state.apply(found.concrete[draw(sigma, rng)])
        # The hand is over (a fresh match: the scores are this hand's changes).
        scores = state.scores
        side = traverser & 1
        return float(scores[side] - scores[1 - side])


# ---------------------------------------------------------------- the parallel driver


@dataclass
class Progress:
    """What a training run has done so far (passed to the progress callback)."""

    iterations: int
    seconds: float
    keys: int
    total_iterations: int

    @property
    def rate(self) -> float:
        """Iterations a second, this run."""
        return self.iterations / self.seconds if self.seconds > 0 else 0.0


#: the trainer of this worker process (made by its initializer)
_WORKER: Trainer | None = None


def _load_game() -> Game:
    from tricktable.games import load_game

    return load_game(GAME_SPEC)


def _init_worker(path: str, scheme: Scheme, linear: bool, stride: int) -> None:
    global _WORKER
    store = Store.open(path, readonly=True)
    try:
        table = store.load_sums()
        base = phase_iterations(store, scheme.phase)
    finally:
        store.close()
    _WORKER = Trainer(_load_game(), table, scheme, linear, base, stride)


def _chunk(iterations: int, seconds: float | None, seed: int) -> tuple[int, dict[str, Node]]:
    trainer = _WORKER
    if trainer is None:
        raise StrategyError("the CFR worker was not started")
    done = trainer.run(iterations, seconds, seed)
    return done, trainer.take_deltas()


def merge(table: dict[str, Node], deltas: dict[str, Node], dirty: set[str]) -> None:
    """Add a worker's increments into ``table``, noting the keys changed in ``dirty``."""
    for key, (dregret, dtotal) in deltas.items():
        node = table.get(key)
        if node is None:
            table[key] = [list(dregret), list(dtotal)]
        else:
            regret, total = node
            for i, v in enumerate(dregret):
                regret[i] += v
            for i, v in enumerate(dtotal):
                total[i] += v
        dirty.add(key)


class _Run:
    """One training run's bookkeeping: the merged table, its unsaved keys, the counts."""

    def __init__(self, store: Store, seconds: float | None, scheme: Scheme) -> None:
        self.store = store
        self.scheme = scheme
        # What this database was trained by, run after run ("; " between them).
        self.history = store.meta.get("schemes", "")
        # A new database is trained by Linear CFR; one made before it, as it was begun.
        self.weighting = store.meta.get("weighting") or (
            "linear" if store.iterations == 0 else "uniform"
        )
        self.linear = self.weighting == "linear"
        self.table = store.load_sums()
        self.dirty: set[str] = set()
        self.done = 0
        self.before = store.iterations
        # Linear CFR counts a phase's iterations alone: the play learnt after the auction
        # weighs its own first iterations least, not as the auction's last.
        self.phase_before = phase_iterations(store, scheme.phase)
        self.before_seconds = store.seconds
        self.start = self.last_write = time.monotonic()
        self.seconds = seconds

    def report(self) -> Progress:
        return Progress(
            self.done, time.monotonic() - self.start, len(self.table), self.before + self.done
        )

    def time_left(self) -> float | None:
        return None if self.seconds is None else self.seconds - (time.monotonic() - self.start)

    def save(self, force: bool = False) -> None:
        """Write the changed keys and the counts, when a checkpoint is due (or ``force``)."""
        now = time.monotonic()
        if not force and now - self.last_write < CHECKPOINT_SECONDS:
            return
        spent = self.before_seconds + now - self.start
        meta = {
            "iterations": str(self.before + self.done),
            f"iterations_{self.scheme.phase}": str(self.phase_before + self.done),
            "seconds": f"{spent:.1f}",
            "game": GAME_SPEC,
            "weighting": self.weighting,
            "schemes": "; ".join(
                filter(None, [self.history, f"{self.scheme.text()} iterations={self.done}"])
            ),
        }
        self.store.write_sums(((k, self.table[k]) for k in self.dirty), meta)
        self.dirty = set()
        self.last_write = now


def train(
    path: str,
    iterations: int | None,
    seconds: float | None = None,
    workers: int | None = None,
    seed: int = 1,
    progress: Callable[[Progress], None] | None = None,
    scheme: Scheme | None = None,
) -> Progress:
    """Train the strategy of the database at ``path`` (made if new) for ``iterations``
    iterations or ``seconds``, whichever ends first (at least one must be given), by
    ``scheme`` (the first scheme, every key learnt in self-play, by default).

    Runs on ``workers`` processes (every core by default; 1: in this process). Ctrl-C stops
    it; what was merged is written first, then KeyboardInterrupt goes on.
    """
    scheme = scheme or Scheme()
    if iterations is None and seconds is None:
        raise StrategyError("give the iterations or the seconds to train")
    target = iterations if iterations is not None else 1 << 62
    workers = workers or default_workers()
    store = Store.open(path, create=True)
    try:
        run = _Run(store, seconds, scheme)
        if target == 0:
            return run.report()  # nothing to train (e.g. only --compact): nothing to write
        try:
            if workers <= 1:
                _train_here(run, target, seed, progress)
            else:
                _train_pool(run, path, workers, target, seed, progress)
        finally:
            run.save(force=True)
        return run.report()
    finally:
        store.close()


def _train_here(
    run: _Run, target: int, seed: int, progress: Callable[[Progress], None] | None
) -> None:
    trainer = Trainer(_load_game(), run.table, run.scheme, run.linear, run.phase_before)
    task = 0
    while run.done < target:
        left = run.time_left()
        if left is not None and left <= 0:
            return
        chunk = CHUNK_SECONDS if left is None else min(CHUNK_SECONDS, left)
        task += 1
        run.done += trainer.run(target - run.done, chunk, derive_seed(seed, "cfr", task))
        run.dirty.update(trainer.take_deltas())  # the table itself was trained
        if progress is not None:
            progress(run.report())
        run.save()


def _train_pool(
    run: _Run,
    path: str,
    workers: int,
    target: int,
    seed: int,
    progress: Callable[[Progress], None] | None,
) -> None:
    """Train on a pool of ``workers`` processes (see the module)."""
    assigned = 0
    task = 0
    setup = (path, run.scheme, run.linear, workers)
    # Stopped (Ctrl-C, a failure), the workers end at once: the run saves what was merged.
    with executor(workers, initializer=_init_worker, initargs=setup) as pool:
        running: dict[Future[tuple[int, dict[str, Node]]], int] = {}
        while True:
            left = run.time_left()
            while (left is None or left > 0) and len(running) < workers and assigned < target:
                # Share what is left among the idle workers, so that no one is given it all.
                share = max(1, (target - assigned) // (workers - len(running)))
                chunk = CHUNK_SECONDS if left is None else min(CHUNK_SECONDS, left)
                task += 1
                future = pool.submit(_chunk, share, chunk, derive_seed(seed, "cfr", task))
                running[future] = share
                assigned += share
            if not running:
                return
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            raise_if_lost()  # a Ctrl-C Python lost (tricktable.interrupts): what was merged is kept
            for future in finished:
                share = running.pop(future)
                count, deltas = future.result()
                run.done += count
                assigned -= share - count
                merge(run.table, deltas, run.dirty)
            if progress is not None:
                progress(run.report())
            run.save()


__all__ = [
    "AGAINST",
    "GAME_SPEC",
    "PAYOFFS",
    "PHASES",
    "Progress",
    "Scheme",
    "Trainer",
    "key_kind",
    "merge",
    "train",
]
