"""A perfect-information solver of the rest of a Setback (or Pitch preset) hand.

``solve(state, seat)`` takes a play-phase state whose every hand is known (a real deal, or one
:func:`~tricktable.search.determinize.determinize` made) and returns the exact value of the rest
of the hand for ``seat``'s side under perfect play by everyone: the hand's score change for the
seat's side minus the other side's (minus the sum of the other seats' in cut-throat games,
where the other three play together against the seat: the "paranoid" reduction), and the value
of each legal card at the root.

How it searches (``benchmarks/solver_speed.py``: about 100,000 positions a second in pure
Python against about 39,000 for plain minimax through the engine's ``push``/``undo``, whose
last card of a hand clones the whole state to score it):

* **Its own representation.** Four hand masks, the trick as arguments of the recursive call,
  and per side the cards won; the trump tables are the engine's own (``power``, ``suit_mask``),
  so who wins a trick is decided exactly as :class:`~tricktable.engine.state.TrickState` does.
* **Scoring by the game's own functions.** What matters of the cards won is only which point
  cards each side holds (High, Low, the jacks, jokers... fixed for the hand once trump is
  named: ``hand_points`` decides High and Low from the cards *dealt*) and each side's Game
  count. Leaves are scored by :func:`~tricktable.games.pitch_scoring.hand_points` and
  :func:`~tricktable.games.pitch_scoring.score_hand`, cached by exactly that summary.
* **Alpha-beta, fail-soft, with a transposition table** keyed by the hands, the seat to act,
  the trick so far and that summary; entries keep a lower and an upper bound and the best card,
  which is tried first. Then cards by power, highest first.
* **Equal cards merged.** Two cards of one hand are one move when they follow the same suit
  (same legality), neither is a point card (nor a joker the lead rules single out), they count
  the same toward Game, and no card between them in power is still live elsewhere (in another
  hand or in the trick being played). Swapping such cards changes no trick's winner and no
  side's points, so only the highest is searched and the others share its value.

When trump is not yet named (the first lead) each card is solved with the trump it names.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from time import perf_counter
from typing import Any, Final, TypeGuard

from tricktable.cards import JOKER_BIT, LITTLE_JOKER_BIT
from tricktable.engine.phases import PLAY
from tricktable.engine.state import TrickState
from tricktable.engine.tables import TrumpTables
from tricktable.errors import TricktableError
from tricktable.games.pitch_scoring import (
    POINT_CARDS,
    game_count,
    hand_points,
    high_low,
    score_hand,
)
from tricktable.games.setback import SetbackState

__all__ = ["SolveResult", "solve"]

#: beyond any hand's value
INF: Final = 1 << 20


@dataclass
class SolveResult:
    """The exact value of the rest of a hand for one seat's side, and of each legal card."""

    #: the value for ``seat``'s side under perfect play (score change, its side minus the rest)
    value: int
    #: every legal card of the seat to act, with its value for ``seat``'s side
    moves: dict[int, int] = field(default_factory=dict)
    #: positions searched (nodes), for benchmarks
    nodes: int = 0

    def best(self) -> list[int]:
        """The legal cards that reach :attr:`value`, lowest code first."""
        return sorted(c for c, v in self.moves.items() if v == self.value)


class SolveTimeout(TricktableError):
    """A solve given a deadline passed it (sampling bots stop and use the worlds solved)."""


def solve(state: TrickState, seat: int, deadline: float | None = None) -> SolveResult:
    """Solve the rest of ``state``'s hand for ``seat``'s side with every hand known.

    ``deadline`` is a ``time.perf_counter()`` instant: past it the search stops with
    :class:`SolveTimeout` (it looks at the clock every 256 positions).
    """
    if not _check(state):
        raise AssertionError  # unreachable: _check raises
    if not 0 <= seat < 4:
        raise TricktableError(f"solve: no seat {seat} at this table")
    legal = state.legal_actions()
    maximise = _side(state, state.to_act) == _side(state, seat)
    moves: dict[int, int] = {}
    nodes = 0
    if state.tables.suit >= 0:
        search = _Search(state, seat, state.tables, state.lead_forbid, deadline)
        for card in legal:
            moves[card] = search.move_value(card)
        nodes = search.nodes
    else:
        game: Any = state.game
        searches: dict[int, _Search] = {}
        for card in legal:
            suit = card // 13
            if suit not in searches:
                searches[suit] = _Search(
                    state, seat, game.trumps[suit], game.joker_forbid, deadline
                )
            moves[card] = searches[suit].move_value(card)
        nodes = sum(s.nodes for s in searches.values())
    values = moves.values()
    value = max(values) if maximise else min(values)
    return SolveResult(value, moves, nodes)


def _check(state: TrickState) -> TypeGuard[SetbackState]:
    """Whether ``state`` can be solved (always True: raises a :class:`TricktableError` if not)."""
    if state.phase != PLAY:
        raise TricktableError(f"solve: the state is not in card play (phase {state.phase})")
    if not isinstance(state, SetbackState):
        raise TricktableError(f"solve: {state.game.name} is not a Pitch-family game")
    if state.n != 4 or state.trick_size != 4 or state.skip >= 0:
        raise TricktableError("solve: four seats each playing to every trick are needed")
    sizes = {
        h.bit_count() + (1 if s in _trick_seats(state) else 0) for s, h in enumerate(state.hands)
    }
    if len(sizes) != 1:
        raise TricktableError("solve: the hands are not all known (sizes differ)")
    return True


def _trick_seats(state: TrickState) -> set[int]:
    return {(state.trick_leader + i) % 4 for i in range(len(state.trick))}


def _side(state: TrickState, seat: int) -> int:
    return seat & 1 if state.options.partners else seat


class _Search:
    """One search of one hand with trump fixed (the state itself is never changed)."""

    def __init__(
        self,
        state: SetbackState,
        seat: int,
        tables: TrumpTables,
        forbid: int,
        deadline: float | None = None,
    ) -> None:
        opts: Any = state.options
        self.state = state
        self.deadline = deadline
        self.tables = tables
        self.forbid = forbid
        self.partners: bool = opts.partners
        sides = 2 if self.partners else 4
        self.side_of = [_side(state, s) for s in range(4)]
        self.me = self.side_of[seat]
        self.nodes = 0
        point_list: list[str] = list(state.point_list)
        self.counts_game = "game" in point_list
        dealt_all = 0
        for mask in state.dealt:
            dealt_all |= mask
        trump = tables.suit
        # The cards whose owner can change a point: fixed once trump is named.
        high, low = high_low(trump, dealt_all, tables.mask, tables.power)
        pmask = high | low
        for name in point_list:
            if name in POINT_CARDS[trump]:
                pmask |= POINT_CARDS[trump][name]
        self.pmask = pmask & dealt_all
        won = [0] * sides
        for s in range(4):
            won[self.side_of[s]] |= state.won[s]
        self.won = won
        self.game = [game_count(w) if self.counts_game else 0 for w in won]
        self.leaves: dict[tuple[int, ...], int] = {}
        self.tt: dict[tuple[Any, ...], tuple[int, int, int]] = {}
        # Above[c]: the cards that follow the same suit as c and outrank it (for merging).
        power = tables.power
        suit_mask = tables.suit_mask
        deck = [c for c in range(64) if dealt_all >> c & 1]
        above = [0] * 64
        for c in deck:
            for d in deck:
                if suit_mask[d] == suit_mask[c] and power[d] > power[c]:
                    above[c] |= 1 << d
        self.above = above
        gv = [game_count(1 << c) if self.counts_game else 0 for c in range(64)]
        self.gv = gv
        # Cards that may never merge: point cards and those the lead rules single out.
        self.special = self.pmask | forbid | JOKER_BIT | LITTLE_JOKER_BIT
        self.hands: list[int] = state.hands[:]
        self.key: tuple[int, ...] = ()
        self.play, self.summary = self._make_search()

    def leaf(self, key: tuple[int, ...]) -> int:
        """The value of a finished hand (cards won as ``self.won``), by the game's scoring."""
        value = self.leaves.get(key)
        if value is None:
            state = self.state
            opts = state.options
            won = self.won if not self.partners else [self.won[0], self.won[1], 0, 0]
            tables = self.tables
            points = hand_points(
                tables.suit,
                state.dealt,
                won,
                opts.low_to,
                state.point_list,
                opts.partners,
                tables.mask,
                tables.power,
            )
            declarer = self.side_of[state.declarer]
            _, delta = score_hand(
                points, declarer, state.bid, opts.declarer_scores, len(self.won), state.weights
            )
            value = 2 * delta[self.me] - sum(delta)
            self.leaves[key] = value
        return value

    def move_value(self, card: int) -> int:
        """The exact value of playing ``card`` now at the root."""
        state = self.state
        trick = list(state.trick)
        if trick:
            lead_mask, best_power, best_seat = state.lead_mask, state.best_power, state.best_seat
        else:
            lead_mask, best_power, best_seat = 0, -1, -1
        code = 0
        tmask = 0
        for c in trick:
            code = code * 64 + c + 1
            tmask |= 1 << c
        self.hands = state.hands[:]
        self.key = self.summary()
        seat = state.to_act
        return self.play(seat, len(trick), lead_mask, best_power, best_seat, code, tmask, card)

    def _make_search(self) -> tuple[Callable[..., int], Callable[[], tuple[int, ...]]]:
        """The recursive search as closures over locals (much faster than attribute access).

        Returns the play of a card at the root (``step`` with a full window) and ``summary``.
        """
        tables = self.tables
        power = tables.power
        suit_mask = tables.suit_mask
        trump_mask = tables.mask
        state = self.state
        may_trump: bool = state.may_trump
        forbid = self.forbid
        side_of = self.side_of
        me = self.me
        won = self.won
        game = self.game
        pmask = self.pmask
        above = self.above
        gv = self.gv
        special = self.special
        counts_game = self.counts_game
        tt = self.tt
        nsides = len(won)
        search = self
        deadline = self.deadline

        def summary() -> tuple[int, ...]:
            """What of the cards won can still matter: point cards and Game count, by side."""
            out: list[int] = []
            for i in range(nsides):
                out.append(won[i] & pmask)
                out.append(game[i])
            return tuple(out)

        def moves_of(hands: list[int], seat: int, legal: int, tmask: int, first: int) -> list[int]:
            """The legal cards to search, equal cards merged, best guesses first."""
            live = tmask
            for s in range(4):
                if s != seat:
                    live |= hands[s]
            cards: list[int] = []
            rest = legal
            while rest:
                bit = rest & -rest
                rest ^= bit
                cards.append(bit.bit_length() - 1)
            if len(cards) > 1:
                cards.sort(key=power.__getitem__, reverse=True)
                kept: list[int] = []
                last: dict[int, int] = {}
                for c in cards:
                    g = suit_mask[c]
                    prev = last.get(g, -1)
                    last[g] = c
                    if (
                        prev >= 0
                        and not (special >> c & 1 or special >> prev & 1)
                        and gv[c] == gv[prev]
                        and not live & above[c] & ~above[prev] & ~(1 << prev)
                    ):
                        continue  # equal to the higher card just kept (or merged)
                    kept.append(c)
                cards = kept
            if first >= 0 and first in cards and cards[0] != first:
                cards.remove(first)
                cards.insert(0, first)
            return cards

        def ab(
            seat: int,
            pos: int,
            lead_mask: int,
            best_power: int,
            best_seat: int,
            code: int,
            tmask: int,
            alpha: int,
            beta: int,
        ) -> int:
            hands = search.hands
            hand = hands[seat]
            if pos == 0:
                if not hand:
                    return search.leaf(search.key)
                legal = hand & ~forbid or hand
            else:
                follow = hand & lead_mask
                if not follow:
                    legal = hand
                elif may_trump:
                    legal = follow | hand & trump_mask
                else:
                    legal = follow
            search.nodes += 1
            if deadline is not None and not search.nodes & 255 and perf_counter() > deadline:
                raise SolveTimeout("solve: past its deadline")
            key = (hands[0], hands[1], hands[2], hands[3], seat, code, search.key)
            entry = tt.get(key)
            first = -1
            lo, hi = -INF, INF
            if entry is not None:
                lo, hi, first = entry
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo == hi:
                    return lo
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
            maximise = side_of[seat] == me
            window_low, window_high = alpha, beta
            best = -INF if maximise else INF
            best_card = -1
            for card in moves_of(hands, seat, legal, tmask, first):
                value = step(
                    seat, pos, lead_mask, best_power, best_seat, code, tmask, card, alpha, beta
                )
                if maximise:
                    if value > best:
                        best, best_card = value, card
                        if value > alpha:
                            alpha = value
                elif value < best:
                    best, best_card = value, card
                    if value < beta:
                        beta = value
                if alpha >= beta:
                    break
            # Fail-soft: at or below the window the value is an upper bound, at or above it a
            # lower bound, inside it exact.
            if best <= window_low:
                hi = best
            elif best >= window_high:
                lo = best
            else:
                lo = hi = best
            tt[key] = (lo, hi, best_card)
            return best

        def step(
            seat: int,
            pos: int,
            lead_mask: int,
            best_power: int,
            best_seat: int,
            code: int,
            tmask: int,
            card: int,
            alpha: int = -INF,
            beta: int = INF,
        ) -> int:
            """Play ``card`` and search on (a full window, from the root, by default)."""
            hands = search.hands
            bit = 1 << card
            hands[seat] ^= bit
            p = power[card]
            if pos == 0:
                lead_mask = suit_mask[card]
                best_power, best_seat = p, seat
            else:
                if p < 100 and not bit & lead_mask:
                    p = -1
                if p > best_power:
                    best_power, best_seat = p, seat
            if pos == 3:
                tm = tmask | bit
                side = side_of[best_seat]
                old_won, old_game, old_key = won[side], game[side], search.key
                won[side] = old_won | tm
                if counts_game:
                    game[side] = old_game + game_count(tm)
                search.key = summary()
                value = ab(best_seat, 0, 0, -1, -1, 0, 0, alpha, beta)
                won[side], game[side], search.key = old_won, old_game, old_key
            else:
                value = ab(
                    (seat + 1) & 3,
                    pos + 1,
                    lead_mask,
                    best_power,
                    best_seat,
                    code * 64 + card + 1,
                    tmask | bit,
                    alpha,
                    beta,
                )
            hands[seat] ^= bit
            return value

        return step, summary
