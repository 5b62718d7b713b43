"""The ``ismcts`` bot: information-set Monte Carlo tree search for card play, any game.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, *Information Set Monte Carlo Tree
Search*, 2012). One tree is grown per decision over the actions of every seat, as the deciding
seat sees them; each iteration

1. **samples a world** consistent with the seat's view
   (:class:`~tricktable.search.determinize.Determinizer`: the hidden cards dealt uniformly
   among the holdings that fit all the seat knows);
2. **selects**: from the root, while every action legal *in that world* has a child, it picks
   the child of best UCB1, where a child's "parent visits" are its *availability* — how
   often it was legal when its parent was reached — since in another world it may not be;
3. **expands** one untried legal action;
4. **plays out** the rest of the hand with uniformly random legal cards (measured: a random
   card costs a few microseconds, a heuristic card — a view and the heuristic's thought —
   hundreds, so a heuristic playout would buy a tenth of the iterations); in the Hearts family
   ``playout="greedy"`` plays it by a few rules on masks instead (duck, dump the Q♠, shed
   high: :mod:`tricktable.search.playouts`), at a random card's cost;
5. **backs up** each node's reward for the seat that chose it: the change of the hand's
   scores from the decision on, as that seat's *margin* — its side's gain minus the mean gain
   of the other sides (two partnerships: its side's gain minus the other's; a game where each
   seat scores alone: its own gain minus the mean of the others'), its sign turned where the
   lower score wins (Hearts: ``Game.lower_wins``). UCB's exploration term is scaled by the
   spread of the rewards seen so far in this decision, so one constant serves games whose
   hands are worth 4 points (Setback) or 26 (Hearts).

The world of each iteration is fresh and thrown away afterwards, so the tree walk and the
playout ``apply`` cards to it directly: ``push``/``undo`` would only add the frames to take
back (and a clone at the hand's last card) for nothing.

**Only card play is searched.** The auction, trump choice, discards and card passing are
played by the game's own heuristic bot (``Game.heuristic_bot``; the random bot where a game
has none): the tree covers the play phase of the current hand, and nothing after it.

The choice is the root child visited most (ties: the better mean). It is deterministic for a
seed: each decision draws from a generator seeded by (the seat's seed, the hand's number, the
view's step), so a match resumed from its record plays on the same — unless the time budget
(``max_seconds``, a safety cap well above the default ``iterations``' cost) cuts a search
short on a loaded machine.
"""

from __future__ import annotations

import math
import random
import time
from typing import Final

from tricktable.bots.search_base import SearchBot
from tricktable.engine.trick import PLAY, Game, TrickState, View
from tricktable.errors import BotError, TricktableError
from tricktable.search.determinize import Determinizer
from tricktable.search.playouts import PLAYOUTS, Playout, playout_for, random_playout
from tricktable.search.rules import unsupported

#: iterations a decision runs by default: at most about 0.45 s on one core (Hearts' first
#: tricks; Setback about 0.12 s); most of an iteration is the world's sample and its playout
DEFAULT_ITERATIONS: Final = 500
#: the time budget of a decision by default, seconds: a safety cap under the referee's 2 s
DEFAULT_SECONDS: Final = 1.5
#: UCB1's exploration constant, in units of the spread of the rewards seen
DEFAULT_EXPLORATION: Final = 0.7
#: iterations between two looks at the clock
_CLOCK_EVERY: Final = 16


class Node:
    """A node of the tree: the action that led here, by whom, and its statistics."""

    __slots__ = ("action", "avail", "children", "seat", "total", "visits")

    def __init__(self, action: int, seat: int) -> None:
        self.action = action
        #: the seat that took ``action`` (whose reward ``total`` sums)
        self.seat = seat
        self.children: dict[int, Node] = {}
        self.visits = 0
        #: how often this node's action was legal when its parent was reached
        self.avail = 0
        self.total = 0.0


class IsmctsBot(SearchBot):
    """Plays cards by single-observer ISMCTS; every other phase by the game's heuristic.

    ``iterations`` is the number of sampled worlds a decision searches, ``max_seconds`` its
    time budget (None: none; the search stops at whichever comes first), ``exploration``
    UCB1's constant, ``playout`` how a sampled hand is played out past the tree (``random``,
    or ``greedy`` in the Hearts family: see :mod:`tricktable.search.playouts`).
    """

    name = "ismcts"

    def __init__(
        self,
        iterations: int = DEFAULT_ITERATIONS,
        max_seconds: float | None = DEFAULT_SECONDS,
        exploration: float = DEFAULT_EXPLORATION,
        playout: str = "random",
    ) -> None:
        if iterations < 1:
            raise ValueError(f"ismcts needs at least one iteration, got {iterations}")
        if playout not in PLAYOUTS:
            names = ", ".join(PLAYOUTS)
            raise ValueError(f"ismcts has no playout {playout!r}; its playouts: {names}")
        super().__init__()
        self.playout = playout
        self._play_out: Playout = random_playout
        self.iterations = iterations
        self.max_seconds = max_seconds
        self.exploration = exploration
        #: iterations the last search ran (for reports and tests)
        self.last_iterations = 0

    # ------------------------------------------------------------------ the Bot interface

    def start_match(self, game: Game, seat: int, seed: int) -> None:
        why = unsupported(game)
        if why:
            raise BotError(f"the ismcts bot cannot play {game.name}: {why}")
        self._play_out = playout_for(self.playout, game)
        super().start_match(game, seat, seed)

    def act(self, view: View) -> int:
        if view.phase != PLAY:
            return self._delegate().act(view)
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        try:
            root = self._search(view)
        except TricktableError:
            # No world could be sampled (a fact the sampler cannot say, every draw refused):
            # the heuristic plays this card rather than the bot faulting.
            return self._delegate().act(view)
        best = max(root.children.values(), key=_preference, default=None)
        if best is None or best.action not in legal:
            return self._delegate().act(view)
        return best.action

    # ---------------------------------------------------------------------- explanation

    def hint(self, view: View) -> list[tuple[int, int, float]]:
        """The searched actions of a card-play decision, best first: (action, visits, mean).

        ``mean`` is the average reward (the seat's margin in points, see the module) of the
        iterations through that action. Empty outside card play, where nothing is searched.
        """
        if view.phase != PLAY:
            return []
        root = self._search(view)
        ranked = sorted(root.children.values(), key=_preference, reverse=True)
        return [(n.action, n.visits, n.total / n.visits if n.visits else 0.0) for n in ranked]

    # --------------------------------------------------------------------------- search

    def _search(self, view: View) -> Node:
        """Grow the tree of this decision and return its root."""
        rng = self._rng(view)
        sampler = Determinizer(view)
        game = view.game
        teams = [game.team_of(s) for s in range(game.num_players)]
        sign = -1.0 if type(game).lower_wins else 1.0
        before = view.scores
        others = max(len(before) - 1, 1)
        root = Node(-1, -1)
        low = high = 0.0
        deadline = None if self.max_seconds is None else time.perf_counter() + self.max_seconds
        done = 0
        while done < self.iterations:
            # The clock is read every few iterations only: reading it costs like a card.
            if (
                deadline is not None
                and done % _CLOCK_EVERY == 0
                and done
                and time.perf_counter() > deadline
            ):
                break
            world = sampler.sample(rng)
            path = self._descend(root, world, rng, (high - low) or 1.0)
            self._play_out(world, rng)
            gains = [after - was for after, was in zip(world.scores, before, strict=False)]
            total = sum(gains)
            rewards = [
                sign * (gains[t] - (total - gains[t]) / others) if len(gains) > 1 else 0.0
                for t in range(len(gains))
            ]
            for node in path:
                r = rewards[teams[node.seat]]
                node.visits += 1
                node.total += r
                if r < low:
                    low = r
                elif r > high:
                    high = r
            done += 1
        self.last_iterations = done
        return root

    def _descend(
        self, root: Node, world: TrickState, rng: random.Random, spread: float
    ) -> list[Node]:
        """Select and expand in ``world`` (applying the cards); the nodes passed, root excluded."""
        c = self.exploration * spread
        node = root
        path: list[Node] = []
        while world.phase == PLAY:
            seat = world.to_act
            mask = world.legal_mask()
            children = node.children
            untried: list[int] = []
            best: Node | None = None
            best_score = -math.inf
            m = mask
            while m:
                low_bit = m & -m
                m ^= low_bit
                action = low_bit.bit_length() - 1
                child = children.get(action)
                if child is None:
                    untried.append(action)
                    continue
                child.avail += 1
                if untried:
                    continue  # an untried action will be expanded: no need to score
                score = child.total / child.visits + c * math.sqrt(
                    math.log(child.avail) / child.visits
                )
                if score > best_score:
                    best_score = score
                    best = child
            if untried:
                action = untried[rng.randrange(len(untried))]
                child = Node(action, seat)
                child.avail = 1
                children[action] = child
                world.apply(action)
                path.append(child)
                return path
            assert best is not None
            world.apply(best.action)
            path.append(best)
            node = best
        return path


def _preference(node: Node) -> tuple[int, float]:
    """How a root child ranks: visits, then mean reward."""
    return node.visits, node.total / node.visits if node.visits else -math.inf
