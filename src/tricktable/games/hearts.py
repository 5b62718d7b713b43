"""Hearts: four players each for themselves pass three cards, then avoid hearts and Q♠.

The rules as implemented are in ``rules/hearts.md``. Card passing is shared with Filippa
(``filippa.py``): :class:`PassingState` is the trick state with a passing phase in front of
the play, where each seat in turn (from the dealer's left) passes three cards at once as one
action, ``pass 2C 3D 4H``. The cards move only when all four have passed, and a pass stays
hidden from every other seat; its receiver sees it once the passing is over (in its view's
actions, and as a ``PassReceived`` event).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, Final, cast

from mypy_extensions import i64, mypyc_attr

from tricktable.cards import (
    HEARTS,
    QUEEN,
    SPADES,
    SUIT_MASKS,
    card_name,
    card_of,
    cards_in,
    mask_of,
)
from tricktable.engine.actions import PASS, PASS_CARDS
from tricktable.engine.events import PassReceived
from tricktable.engine.trick import PLAY, SPECIAL, Game, TrickState
from tricktable.games.hearts_options import DIRECTION_NAMES, DIRECTIONS, HeartsOptions, pass_cycle
from tricktable.games.hearts_results import HeartsResult

__all__ = [
    "DIRECTIONS",
    "DIRECTION_NAMES",
    "HAND_POINTS",
    "PASSING",
    "POINT_CARDS",
    "Hearts",
    "HeartsOptions",
    "HeartsState",
    "PassingState",
    "hearts_points",
    "hearts_score",
    "lowest_unique",
    "pass_choices",
    "pass_cycle",
    "passes_combined",
    "passes_from_table",
]

# Constants are Final: compiled, a Final name is a C constant, any other global a dict lookup.

#: the phase of card passing, before the first trick
PASSING: Final = 10

TWO_CLUBS: Final = card_of(0, 0)
QUEEN_SPADES: Final = card_of(SPADES, QUEEN)
HEART_CARDS: Final = SUIT_MASKS[HEARTS]
QS_BIT: Final = 1 << QUEEN_SPADES
#: every card that scores in Hearts
POINT_CARDS: Final = HEART_CARDS | QS_BIT
#: the penalty points a hand of Hearts holds in all
HAND_POINTS: Final = 26

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


def hearts_points(won: list[int]) -> list[int]:
    """The penalty points each seat took: one per heart, 13 for the queen of spades."""
    return [(w & HEART_CARDS).bit_count() + (13 if w & QS_BIT else 0) for w in won]


def queen_taker(won: list[int]) -> int | None:
    """The seat that took the queen of spades, or None when nobody did."""
    for seat, mask in enumerate(won):
        if mask & QS_BIT:
            return seat
    return None


def hearts_score(points: list[int], moon: str) -> tuple[list[int], int | None]:
    """What each seat adds to its score for a hand, and who shot the moon (or None).

    ``moon`` is ``add`` (the shooter scores 0, every other seat 26), ``subtract`` (the
    shooter scores -26, the others 0) or ``none`` (points count as taken).
    """
    if moon != "none":
        for seat, got in enumerate(points):
            if got == HAND_POINTS:
                if moon == "add":
                    return [0 if s == seat else HAND_POINTS for s in range(len(points))], seat
                return [-HAND_POINTS if s == seat else 0 for s in range(len(points))], seat
    return list(points), None


def lowest_unique(scores: list[int]) -> int | None:
    """The seat with the lowest score, or None when two or more share it."""
    low = min(scores)
    return scores.index(low) if scores.count(low) == 1 else None


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
        #: the cards each seat passed this hand (0 until it has passed)
        self.passed = [0, 0, 0, 0]
        #: the cards each seat received this hand (0 until all have passed)
        self.received = [0, 0, 0, 0]

    def _start_passing(self) -> None:
        self.passed = [0, 0, 0, 0]
        self.received = [0, 0, 0, 0]
        if self.pass_offset == 0:
            self._start_play()
            return
        self.phase = PASSING
        self.to_act = (self.dealer + 1) % 4

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
        nxt = (seat + 1) % 4
        if nxt != (self.dealer + 1) % 4:
            self.to_act = nxt
            return
        # All four have passed: only now do the cards change hands.
        hands, passed, offset = self.hands, self.passed, self.pass_offset
        for s in range(4):
            hands[s] &= ~passed[s]
        for s in range(4):
            to = (s + offset) % 4
            hands[to] |= passed[s]
            self.received[to] = passed[s]
        events = self.events
        if events is not None:
            # Each receiver is told only now what it was given: until the cards moved, a pass
            # was its giver's secret (``_public``), and the giver knew it already.
            first = (self.dealer + 1) % 4
            order = (first, (first + 1) % 4, (first + 2) % 4, (first + 3) % 4)
            for s in order:
                events.emit(PassReceived(s, (s + offset) % 4, passed[s], order))
        self._start_play()

    def _public(self, viewer: int, actor: int, action: int) -> bool:
        if action < PASS_CARDS:
            return True
        # A pass is seen by its receiver only once the passing is over, as at a real table
        # (cards received are picked up after one's own pass is made).
        return self.phase != PASSING and viewer == (actor + self.pass_offset) % 4

    def _clone_extra(self, other: TrickState) -> None:
        # Compiled, a state has no __dict__ for clone() to copy: every field a game adds and
        # changes during a match is copied here.
        assert isinstance(other, PassingState)
        other.pass_offset = self.pass_offset
        other.passed = self.passed[:]
        other.received = self.received[:]

    def _phase_name(self) -> str:
        return "passing" if self.phase == PASSING else str(self.phase)

    def _explain_pass(self, action: int) -> str:
        if action == PASS:
            return "must name the three cards to pass, e.g. 'pass 2C 3D 4H'"
        if action < PASS_CARDS or action >> _PASS_SHIFT != 1:
            return f"must pass three cards {DIRECTION_NAMES[self.pass_offset]} first"
        mask = action ^ PASS_CARDS
        missing = mask & ~self.hands[self.to_act]
        if missing:
            return f"does not hold {card_name(cards_in(missing)[0])}"
        return f"must pass exactly three cards, not {mask.bit_count()}"

    def _passing_facts(self, seat: int) -> dict[str, Any]:
        """The passing facts a seat may know: the direction, its own pass, what it received."""
        mine = self.passed[seat] if 0 <= seat < 4 else 0
        got = self.received[seat] if 0 <= seat < 4 else 0
        return {
            "pass_direction": DIRECTION_NAMES[self.pass_offset],
            "passed": [card_name(c) for c in cards_in(mine)] if mine else None,
            "received": [card_name(c) for c in cards_in(got)] if got else None,
        }


class HeartsState(PassingState):
    """A match of Hearts: passing, then thirteen tricks without trump."""

    def __init__(self, game: Game, seed: int | None = None) -> None:
        super().__init__(game, seed)
        assert isinstance(game, Hearts)
        opts = game.options
        self.cycle: tuple[int, ...] = pass_cycle(opts.passing)
        self.first_forbid: int = 0 if opts.first_trick_points else POINT_CARDS
        self.break_mask: int = POINT_CARDS if opts.queen_breaks else HEART_CARDS
        self.breaking: bool = opts.breaking
        self.broken = False

    def _start_hand(self) -> None:
        self.pass_offset = self.cycle[(len(self.history) - 1) % len(self.cycle)]
        self.broken = False
        self.lead_forbid = HEART_CARDS if self.breaking else 0
        self._start_passing()

    def _start_play(self) -> None:
        self.phase = PLAY
        hands = self.hands
        for seat in range(4):
            if hands[seat] >> TWO_CLUBS & 1:
                self.to_act = seat
                return

    def _play_mask(self, seat: int, hand: int) -> int:
        if not self.trick:
            if not self.tricks:
                return 1 << TWO_CLUBS
            allowed = hand & ~self.lead_forbid
            return allowed or hand
        follow = hand & self.lead_mask
        if follow:
            return follow
        if not self.tricks:
            allowed = hand & ~self.first_forbid
            return allowed or hand
        return hand

    def _trick_points(self, cards: tuple[int, ...]) -> int:
        return hearts_points([mask_of(cards)])[0]

    def _on_trick(self, winner: int) -> None:
        # Cards won were played, so a break card among them means hearts are broken.
        if not self.broken and self.won[winner] & self.break_mask:
            self.broken = True
            self.lead_forbid = 0

    def _clone_extra(self, other: TrickState) -> None:
        super()._clone_extra(other)
        assert isinstance(other, HeartsState)
        other.broken = self.broken

    def _play_extra(self) -> Any:
        return self.broken

    def _restore_play_extra(self, saved: Any) -> None:
        self.broken = bool(saved)

    def _score_hand(self) -> HeartsResult:
        points = hearts_points(self.won)
        delta, shooter = hearts_score(points, self.options.moon)
        scores = self.scores
        for seat in range(4):
            scores[seat] += delta[seat]
        if max(scores) >= self.options.target:
            self.winner = lowest_unique(scores)
        return HeartsResult(
            pass_offset=self.pass_offset,
            penalties=tuple(points),
            moon=shooter,
            scores=tuple(scores),
            queen_of_spades=queen_taker(self.won),
        )

    def _explain(self, action: int) -> str:
        if self.phase == PASSING:
            return self._explain_pass(action)
        if not 0 <= action < 64:
            return "must play a card now"
        hand = self.hands[self.to_act]
        if hand >> action & 1 and (not self.trick or not hand & self.lead_mask):
            bit = 1 << action
            if not self.tricks and not self.trick:
                return f"must lead {card_name(TWO_CLUBS)} to the first trick"
            if not self.tricks and bit & self.first_forbid:
                return "may not play a heart or QS to the first trick while holding other cards"
            if not self.trick and bit & self.lead_forbid:
                return "may not lead a heart before hearts are broken while holding other cards"
        return self._explain_play(action)

    def _view_extra(self, seat: int) -> dict[str, Any]:
        return self._passing_facts(seat)

    def _trick_facts(self) -> dict[str, Any]:
        return {"hearts_broken": self.broken, "penalties": hearts_points(self.won)}


@mypyc_attr(allow_interpreted_subclasses=True)
class Hearts(Game):
    """Hearts, four-handed, each for themselves: lowest score when someone reaches 100 wins."""

    name = "hearts"
    title = "Hearts"
    summary = "52 cards, 13 each, pass three, avoid hearts (1) and Q♠ (13); lowest score wins"
    Options = HeartsOptions
    State = HeartsState
    heuristic_bot = "tricktable.bots.hearts_heuristic:HeartsHeuristic"
    presenter = "tricktable.ui.games.hearts:HeartsPresenter"
    statistics = "tricktable.stats.hearts:HeartsStats"
    private_actions = True  # a pass is seen by its receiver only
    lower_wins = True  # the lowest score wins the match (lowest_unique)

    def __init__(
        self, options: Any = None, preset: str | None = None, baseline: Any = None
    ) -> None:
        super().__init__(options, preset, baseline)
        # Set on the instance, not as a class attribute: the compiled (mypyc) engine reads
        # the instance slot and would not see a class-level override.
        self.num_scores = 4


GAME = Hearts
