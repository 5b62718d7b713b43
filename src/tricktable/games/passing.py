"""The passing phase Hearts and Filippa share: every seat passes three cards before the play.

:class:`PassingState` is the trick state with a passing phase in front of the play, where each
seat in turn (from the dealer's left) passes three cards at once as one action,
``pass 2C 3D 4H``. The cards move only when every seat has passed, and a pass stays hidden from
every other seat; its receiver sees it once the passing is over (in its view's actions, and as
a ``PassReceived`` event).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, Final, cast

from mypy_extensions import i64, mypyc_attr

from tricktable.cards import card_name, cards_in
from tricktable.engine.actions import PASS, PASS_CARDS
from tricktable.engine.events import PassReceived
from tricktable.engine.trick import SPECIAL, Game, TrickState
from tricktable.games.hearts_options import direction_name

#: the phase of card passing, before the first trick
PASSING: Final = 10

#: where the PASS_CARDS flag sits in a pass action's code
_PASS_SHIFT: Final = PASS_CARDS.bit_length() - 1
#: whether this module runs compiled (mypyc), which changes the fastest way to list passes
_COMPILED: Final = __file__.endswith((".so", ".pyd"))

#: the pass action of cards a < b < c of the 52 at index C(c, 3) + C(b, 2) + a, their rank in
#: numeric order; made on the first passing (22,100 codes, a few milliseconds) by compiled code
#: only. Every code is a big int (the flag is bit 64), and building 286 of them for each seat
#: at each passing was most of the cost of a hand of Hearts. (Typed Any: compiled code then
#: hands the objects on as they are, rather than unboxing and boxing each again.)
_PASSES: Final[list[Any]] = []


def pass_choices(hand: int) -> list[int]:
    """Every ``pass`` action of three cards of ``hand``, lowest code first (a new list).

    The order is the codes' numeric order, so the highest card decides first: c over b over a.
    """
    cards = cards_in(hand)
    # Interpreted, a loop per code costs more than making the code; jokers, which no passing
    # game deals, have no place in the table.
    if not _COMPILED or (cards and cards[-1] >= 52):
        return passes_combined(cards)
    return passes_from_table(cards)


def passes_combined(cards: list[int]) -> list[int]:
    """:func:`pass_choices` of ``cards`` (ascending) made by ``itertools.combinations``."""
    # Highest card first, the combinations come in descending numeric order: reversed, they
    # are sorted without a sort.
    bits = [PASS_CARDS | 1 << c for c in reversed(cards)]
    combos = [a | b | c for a, b, c in combinations(bits, 3)]
    combos.reverse()
    return combos


def passes_from_table(cards: list[int]) -> list[int]:
    """:func:`pass_choices` of ``cards`` (ascending, all below 52) read from ``_PASSES``."""
    table = _PASSES
    if not table:
        masks = [1 << a | 1 << b | 1 << c for c in range(52) for b in range(c) for a in range(b)]
        # Any: compiled, an Any | Any is one plain PyNumber_Or, without int's own conversions.
        flag: Any = PASS_CARDS
        table.extend([flag | mask for mask in cast(list[Any], masks)])
    # Native ints (i64) and a list made at its full size keep these loops in plain C.
    n: i64 = len(cards)
    out: list[Any] = [None] * (n * (n - 1) * (n - 2) // 6)
    pos: i64 = 0
    k: i64
    j: i64
    i: i64
    for k in range(2, n):
        high: i64 = cards[k]
        above: i64 = high * (high - 1) * (high - 2) // 6
        for j in range(1, k):
            mid: i64 = cards[j]
            base: i64 = above + mid * (mid - 1) // 2
            for i in range(j):
                out[pos] = table[base + cards[i]]
                pos += 1
    return out


@mypyc_attr(allow_interpreted_subclasses=True)
class PassingState(TrickState):
    """A trick state whose hands open with every seat passing three cards.

    Subclasses set ``pass_offset`` in ``_start_hand`` (then call :meth:`_start_passing`) and
    implement :meth:`_start_play`, called once the cards have moved. Any three cards held may
    be passed: a game that allows fewer choices overrides both :meth:`_other_actions` (the
    list) and :meth:`_other_allows` (the check ``apply`` makes).
    """

    def __init__(self, game: Game, seed: int | None = None) -> None:
        super().__init__(game, seed)
        self.pass_offset = 0
        #: the name of this hand's pass, made once a hand (the options' module is plain
        #: Python: a call there at every view cost more than the view's other facts)
        self.pass_direction = direction_name(0, self.n)
        #: the cards each seat passed this hand (0 until it has passed)
        self.passed = [0] * self.n
        #: the cards each seat received this hand (0 until all have passed)
        self.received = [0] * self.n

    def _start_passing(self) -> None:
        self.pass_direction = direction_name(self.pass_offset, self.n)
        self.passed = [0] * self.n
        self.received = [0] * self.n
        if self.pass_offset == 0:
            self._start_play()
            return
        self.phase = PASSING
        self.to_act = (self.dealer + 1) % self.n

    def _start_play(self) -> None:
        raise NotImplementedError

    def _other_legal(self) -> int:
        return SPECIAL if self.phase == PASSING else 0

    def _other_actions(self) -> list[int]:
        if self.phase != PASSING:
            return []
        return pass_choices(self.hands[self.to_act])

    def _other_allows(self, action: int) -> bool:
        """Whether ``action`` passes three cards that the seat to act holds."""
        # Known from the mask: looking it up among the 286 choices compared big ints one by
        # one (a sixth of a hand's cost).
        if self.phase != PASSING or action >> _PASS_SHIFT != 1:
            return False
        mask = action ^ PASS_CARDS
        return not mask & ~self.hands[self.to_act] and mask.bit_count() == 3

    def _apply_other(self, action: int) -> None:
        seat = self.to_act
        self.passed[seat] = action ^ PASS_CARDS
        n = self.n
        nxt = (seat + 1) % n
        if nxt != (self.dealer + 1) % n:
            self.to_act = nxt
            return
        # Every seat has passed: only now do the cards change hands.
        hands, passed, offset = self.hands, self.passed, self.pass_offset
        for s in range(n):
            hands[s] &= ~passed[s]
        for s in range(n):
            to = (s + offset) % n
            hands[to] |= passed[s]
            self.received[to] = passed[s]
        events = self.events
        if events is not None:
            # Each receiver is told only now what it was given: until the cards moved, a pass
            # was its giver's secret (``_public``), and the giver knew it already.
            first = (self.dealer + 1) % n
            order = tuple([(first + i) % n for i in range(n)])
            for s in order:
                events.emit(PassReceived(s, (s + offset) % n, passed[s], order))
        self._start_play()

    def _private(self, action: int) -> bool:
        return action >= PASS_CARDS

    def _public(self, viewer: int, actor: int, action: int) -> bool:
        if action < PASS_CARDS:
            return True
        # A pass is seen by its receiver only once the passing is over, as at a real table
        # (cards received are picked up after one's own pass is made).
        return self.phase != PASSING and viewer == (actor + self.pass_offset) % self.n

    def _clone_extra(self, other: TrickState) -> None:
        # Compiled, a state has no __dict__ for clone() to copy: every field a game adds and
        # changes during a match is copied here.
        assert isinstance(other, PassingState)
        other.pass_offset = self.pass_offset
        other.pass_direction = self.pass_direction
        other.passed = self.passed[:]
        other.received = self.received[:]

    def _phase_name(self) -> str:
        return "passing" if self.phase == PASSING else str(self.phase)

    def _explain_pass(self, action: int) -> str:
        if action == PASS:
            return "must name the three cards to pass, e.g. 'pass 2C 3D 4H'"
        if action < PASS_CARDS or action >> _PASS_SHIFT != 1:
            return f"must pass three cards {direction_name(self.pass_offset, self.n)} first"
        mask = action ^ PASS_CARDS
        missing = mask & ~self.hands[self.to_act]
        if missing:
            return f"does not hold {card_name(cards_in(missing)[0])}"
        return f"must pass exactly three cards, not {mask.bit_count()}"

    def _passing_facts(self, seat: int) -> dict[str, Any]:
        """The passing facts a seat may know: the direction, its own pass, what it received."""
        mine = self.passed[seat] if 0 <= seat < self.n else 0
        got = self.received[seat] if 0 <= seat < self.n else 0
        return {
            "pass_direction": self.pass_direction,
            "passed": [card_name(c) for c in cards_in(mine)] if mine else None,
            "received": [card_name(c) for c in cards_in(got)] if got else None,
        }
