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
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Final

from tricktable.cfr.keys import decision
from tricktable.cfr.store import Node, Store, StrategyError, draw, normalise
from tricktable.engine.trick import AUCTION, PLAY, Game, TrickState
from tricktable.seeds import derive_seed
from tricktable.workers import default_workers, forking, ignore_interrupts

#: the game trained (the keys assume Setback's rules: see keys.py)
GAME_SPEC: Final = "setback"
#: about how long a worker trains before handing its increments back
CHUNK_SECONDS: Final = 20.0
#: the longest the parent keeps merged increments before writing them
CHECKPOINT_SECONDS: Final = 60.0


class Trainer:
    """External-sampling MCCFR over random deals of ``game``, into ``table`` (key -> node).

    ``deltas`` gathers every increment since the last :meth:`take_deltas`, for merging.
    """

    def __init__(self, game: Game, table: dict[str, Node] | None = None) -> None:
        self.game = game
        self.table: dict[str, Node] = table if table is not None else {}
        self.deltas: dict[str, Node] = {}
        self.iterations = 0

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
        while state.phase == AUCTION or state.phase == PLAY:
            mask = state.legal_mask()
            if not mask & (mask - 1):  # one legal action: no decision
                state.apply(mask.bit_length() - 1)
                continue
            seat = state.to_act
            found = decision(state.view(seat))
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
                for i in range(size):
                    gain = values[i] - expected
                    regret[i] += gain
                    dregret[i] += gain
                return expected
            total, dtotal = node[1], delta[1]
            for i in range(size):
                total[i] += sigma[i]
                dtotal[i] += sigma[i]
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


def _init_worker(path: str) -> None:
    ignore_interrupts()
    global _WORKER
    store = Store.open(path, readonly=True)
    try:
        table = store.load_sums()
    finally:
        store.close()
    _WORKER = Trainer(_load_game(), table)


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

    def __init__(self, store: Store, seconds: float | None) -> None:
        self.store = store
        self.table = store.load_sums()
        self.dirty: set[str] = set()
        self.done = 0
        self.before = store.iterations
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
            "seconds": f"{spent:.1f}",
            "game": GAME_SPEC,
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
) -> Progress:
    """Train the strategy of the database at ``path`` (made if new) for ``iterations``
    iterations or ``seconds``, whichever ends first (at least one must be given).

    Runs on ``workers`` processes (every core by default; 1: in this process). Ctrl-C stops
    it; what was merged is written first, then KeyboardInterrupt goes on.
    """
    if iterations is None and seconds is None:
        raise StrategyError("give the iterations or the seconds to train")
    target = iterations if iterations is not None else 1 << 62
    workers = workers or default_workers()
    store = Store.open(path, create=True)
    try:
        run = _Run(store, seconds)
        try:
            if target == 0:
                pass  # nothing to train (e.g. only --compact): no pool to start
            elif workers <= 1:
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
    trainer = Trainer(_load_game(), run.table)
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
    with ProcessPoolExecutor(workers, initializer=_init_worker, initargs=(path,)) as pool:
        running: dict[Future[tuple[int, dict[str, Node]]], int] = {}
        while True:
            left = run.time_left()
            while (left is None or left > 0) and len(running) < workers and assigned < target:
                # Share what is left among the idle workers, so that no one is given it all.
                share = max(1, (target - assigned) // (workers - len(running)))
                chunk = CHUNK_SECONDS if left is None else min(CHUNK_SECONDS, left)
                task += 1
                with forking():  # the first submit forks the workers
                    future = pool.submit(_chunk, share, chunk, derive_seed(seed, "cfr", task))
                running[future] = share
                assigned += share
            if not running:
                return
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                share = running.pop(future)
                count, deltas = future.result()
                run.done += count
                assigned -= share - count
                merge(run.table, deltas, run.dirty)
            if progress is not None:
                progress(run.report())
            run.save()


__all__ = ["GAME_SPEC", "Progress", "Trainer", "merge", "train"]
