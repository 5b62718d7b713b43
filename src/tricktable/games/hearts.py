"""Hearts: three to six players each for themselves pass three cards, then avoid hearts and Q♠.

The rules as implemented are in ``rules/hearts.md``. At a table other than four, a few low
cards are taken out so that the deck deals evenly (``REMOVED``), and the lowest club left
leads the first trick. Card passing, which Filippa shares, is
:class:`~tricktable.games.passing.PassingState` (``passing.py``).
"""

from __future__ import annotations

from typing import Any, Final

from mypy_extensions import mypyc_attr

from tricktable.cards import (
    HEARTS,
    QUEEN,
    SPADES,
    SUIT_MASKS,
    card_name,
    card_of,
    mask_of,
    parse_card,
)
from tricktable.engine.trick import PLAY, Facts, Game, TrickState
from tricktable.games.hearts_options import (
    DIRECTION_NAMES,
    DIRECTIONS,
    REMOVED,
    HeartsOptions,
    direction_name,
    pass_cycle,
)
from tricktable.games.hearts_results import HeartsResult
from tricktable.games.passing import (
    PASSING,
    PassingState,
    pass_choices,
    passes_combined,
    passes_from_table,
)

__all__ = [
    "DIRECTIONS",
    "DIRECTION_NAMES",
    "HAND_POINTS",
    "PASSING",
    "POINT_CARDS",
    "REMOVED",
    "Hearts",
    "HeartsOptions",
    "HeartsState",
    "PassingState",
    "direction_name",
    "hearts_deck",
    "hearts_points",
    "hearts_score",
    "lowest_unique",
    "pass_choices",
    "pass_cycle",
    "passes_combined",
    "passes_from_table",
]

# Constants are Final: compiled, a Final name is a C constant, any other global a dict lookup.

TWO_CLUBS: Final = card_of(0, 0)
QUEEN_SPADES: Final = card_of(SPADES, QUEEN)
HEART_CARDS: Final = SUIT_MASKS[HEARTS]
QS_BIT: Final = 1 << QUEEN_SPADES
#: every card that scores in Hearts
POINT_CARDS: Final = HEART_CARDS | QS_BIT
#: the penalty points a hand of Hearts holds in all
HAND_POINTS: Final = 26


def hearts_deck(players: int) -> tuple[int, ...]:
    """The cards dealt at a table of ``players``: the 52 less ``REMOVED[players]``."""
    out = 0
    for text in REMOVED[players]:
        out |= 1 << parse_card(text)
    return tuple([c for c in range(52) if not out >> c & 1])


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


class HeartsState(PassingState):
    """A match of Hearts: passing, then thirteen tricks without trump."""

    def __init__(self, game: Game, seed: int | None = None) -> None:
        super().__init__(game, seed)
        assert isinstance(game, Hearts)
        opts = game.options
        self.cycle: tuple[int, ...] = pass_cycle(opts.passing, self.n)
        #: the card that leads the first trick: the lowest club dealt
        self.first_card: int = game.first_card
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
        first = self.first_card
        for seat in range(self.n):
            if hands[seat] >> first & 1:
                self.to_act = seat
                return

    def _play_mask(self, seat: int, hand: int) -> int:
        if not self.trick:
            if not self.tricks:
                return 1 << self.first_card
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
        for seat in range(self.n):
            scores[seat] += delta[seat]
        if max(scores) >= self.options.target:
            self.winner = lowest_unique(scores)
        return HeartsResult(
            pass_offset=self.pass_offset,
            penalties=tuple(points),
            moon=shooter,
            scores=tuple(scores),
            queen_of_spades=queen_taker(self.won),
            seats=self.n,
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
                return f"must lead {card_name(self.first_card)} to the first trick"
            if not self.tricks and bit & self.first_forbid:
                return "may not play a heart or QS to the first trick while holding other cards"
            if not self.trick and bit & self.lead_forbid:
                return "may not lead a heart before hearts are broken while holding other cards"
        return self._explain_play(action)

    def _view_extra(self, seat: int) -> dict[str, Any]:
        return self._passing_facts(seat)

    def _trick_facts(self) -> Facts:
        return (("hearts_broken", self.broken), ("penalties", tuple(hearts_points(self.won))))


@mypyc_attr(allow_interpreted_subclasses=True)
class Hearts(Game):
    """Hearts, three to six each for themselves: lowest score when someone reaches 100 wins."""

    name = "hearts"
    family = "Hearts"
    title = "Hearts"
    summary = "52 cards, 13 each, pass three, avoid hearts (1) and Q♠ (13); lowest score wins"
    Options = HeartsOptions
    State = HeartsState
    heuristic_bot = "tricktable.bots.hearts_heuristic:HeartsHeuristic"
    presenter = "tricktable.seat.games.hearts:HeartsPresenter"
    statistics = "tricktable.stats.hearts:HeartsStats"
    private_actions = True  # a pass is seen by its receiver only
    lower_wins = True  # the lowest score wins the match (lowest_unique)
    seat_counts = (3, 4, 5, 6)

    def __init__(
        self, options: Any = None, preset: str | None = None, baseline: Any = None
    ) -> None:
        super().__init__(options, preset, baseline)
        # Set on the instance, not as a class attribute: the compiled (mypyc) engine reads
        # the instance slot and would not see a class-level override.
        self.num_scores = self.num_players
        self.deck = hearts_deck(self.num_players)
        self.hand_size = self._hand_size()
        #: the lowest club dealt, which leads the first trick (2C at four seats)
        self.first_card = min(c for c in self.deck if c < 13)


GAME = Hearts
