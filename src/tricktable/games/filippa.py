"""Filippa: a Hearts-group game where only the players who take no penalty card score.

The rules as implemented are in ``rules/filippa.md`` (from the Filippa README of seed 001).
Everyone passes three cards to the left, the seat left of the dealer leads any card, and
after the thirteen tricks the penalty cards (Q♠ -13, A♥ -5, K♥ -4, Q♥ -3, J♥ -2, the other
hearts -1: 36 in all) count against their takers, while the seats that took none share a pool
of 36 positive points; when every seat took some, the pool carries over to the next round.
Positive points decide the match; penalties are kept beside them (``negative``).
"""

from __future__ import annotations

from typing import Any, Final

from mypy_extensions import mypyc_attr

from tricktable.cards import HEARTS, QUEEN, SPADES, card_of, mask_of
from tricktable.engine.trick import PLAY, Facts, Game, TrickState
from tricktable.games.filippa_options import FilippaOptions
from tricktable.games.hearts import queen_taker
from tricktable.games.hearts_options import pass_cycle
from tricktable.games.hearts_results import FilippaResult
from tricktable.games.passing import PassingState

__all__ = [
    "PENALTY",
    "PENALTY_CARDS",
    "POOL",
    "Filippa",
    "FilippaOptions",
    "FilippaState",
    "card_penalties",
    "filippa_winner",
    "share_pool",
]

#: the penalties of the hearts, two to ace: -1 up to the ten, then J -2, Q -3, K -4, A -5
HEART_PENALTIES: Final = (-1, -1, -1, -1, -1, -1, -1, -1, -1, -2, -3, -4, -5)
#: the penalty each card carries (0 for most), indexed by card
PENALTY: Final = [0] * 64
PENALTY[card_of(SPADES, QUEEN)] = -13
for _rank, _penalty in enumerate(HEART_PENALTIES):
    PENALTY[card_of(HEARTS, _rank)] = _penalty
#: every card with a penalty
PENALTY_CARDS: Final = sum(1 << c for c in range(64) if PENALTY[c])
#: positive points shared each round, and the total of the penalties
POOL: Final = 36
#: the hearts two to ten (-1 each), and the cards of the larger penalties
_LOW_HEARTS: Final = sum(1 << card_of(HEARTS, r) for r in range(9))
_JH: Final = card_of(HEARTS, 9)
_QH: Final = card_of(HEARTS, 10)
_KH: Final = card_of(HEARTS, 11)
_AH: Final = card_of(HEARTS, 12)
_QS: Final = card_of(SPADES, QUEEN)


def card_penalties(won: list[int]) -> list[int]:
    """The penalty (0 or negative) of the cards each seat took."""
    # Counted by the penalty's size, not card by card: made after every trick (the views'
    # facts), so thirteen times a hand.
    out = []
    for mask in won:
        total = (
            (mask & _LOW_HEARTS).bit_count()
            + 2 * (mask >> _JH & 1)
            + 3 * (mask >> _QH & 1)
            + 4 * (mask >> _KH & 1)
            + 5 * (mask >> _AH & 1)
            + 13 * (mask >> _QS & 1)
        )
        out.append(-total)
    return out


def share_pool(penalties: list[int], pool: int) -> tuple[list[int], int]:
    """The positive points each seat gets and the pool carried over.

    The seats with no penalty share ``pool`` equally; with none clean, all of it carries. The
    pool is a multiple of 36 and one to three seats can be clean, so it always divides
    exactly; a remainder would carry over.
    """
    clean = [seat for seat, pen in enumerate(penalties) if pen == 0]
    if not clean:
        return [0] * len(penalties), pool
    share = pool // len(clean)
    shares = [share if pen == 0 else 0 for pen in penalties]
    return shares, pool - share * len(clean)


def filippa_winner(scores: list[int], negative: list[int], target: int) -> int | None:
    """The match winner once some positive total reaches ``target``, or None to play on.

    The highest positive total wins; a tie goes to the fewer penalties (the negative total
    nearer zero); a tie in both plays another round.
    """
    if max(scores) < target:
        return None
    best = max(zip(scores, negative, strict=True))
    leaders = [s for s in range(len(scores)) if (scores[s], negative[s]) == best]
    return leaders[0] if len(leaders) == 1 else None


class FilippaState(PassingState):
    """A match of Filippa: passing, thirteen tricks without trump, a shared pool."""

    def __init__(self, game: Game, seed: int | None = None) -> None:
        super().__init__(game, seed)
        assert isinstance(game, Filippa)
        self.cycle: tuple[int, ...] = pass_cycle(game.options.passing)
        #: the pool carried into the next round (0 unless every seat took penalties)
        self.carry = 0
        #: each seat's penalty total over the match (0 or negative)
        self.negative = [0, 0, 0, 0]

    def _start_hand(self) -> None:
        self.pass_offset = self.cycle[(len(self.history) - 1) % len(self.cycle)]
        self._start_passing()

    def _start_play(self) -> None:
        self.phase = PLAY
        self.to_act = (self.dealer + 1) % 4

    def _trick_points(self, cards: tuple[int, ...]) -> int:
        return card_penalties([mask_of(cards)])[0]

    def _score_hand(self) -> FilippaResult:
        penalties = card_penalties(self.won)
        pool = POOL + self.carry
        shares, carried = share_pool(penalties, pool)
        self.carry = carried
        for seat in range(4):
            self.scores[seat] += shares[seat]
            self.negative[seat] += penalties[seat]
        self.winner = filippa_winner(self.scores, self.negative, self.options.target)
        return FilippaResult(
            penalties=tuple(penalties),
            pool=pool,
            shares=tuple(shares),
            carried=carried,
            scores=tuple(self.scores),
            negative=tuple(self.negative),
            queen_of_spades=queen_taker(self.won),
        )

    def _explain(self, action: int) -> str:
        if self.phase != PLAY:
            return self._explain_pass(action)
        if not 0 <= action < 64:
            return "must play a card now"
        return self._explain_play(action)

    def _clone_extra(self, other: TrickState) -> None:
        super()._clone_extra(other)
        assert isinstance(other, FilippaState)
        other.carry = self.carry
        other.negative = self.negative[:]

    def _view_extra(self, seat: int) -> dict[str, Any]:
        facts = self._passing_facts(seat)
        facts["pool"] = POOL + self.carry
        facts["negative"] = list(self.negative)
        return facts

    def _trick_facts(self) -> Facts:
        return (("penalties", tuple(card_penalties(self.won))),)


@mypyc_attr(allow_interpreted_subclasses=True)
class Filippa(Game):
    """Filippa: take no penalty card and share the pool; the first to 100 positive wins."""

    name = "filippa"
    family = "Hearts"
    title = "Filippa"
    summary = "52 cards, 13 each, pass three left; seats taking no penalty share 36 points"
    Options = FilippaOptions
    State = FilippaState
    heuristic_bot = "tricktable.bots.hearts_heuristic:HeartsHeuristic"
    presenter = "tricktable.seat.games.hearts:FilippaPresenter"
    statistics = "tricktable.stats.hearts:FilippaStats"
    private_actions = True  # a pass is seen by its receiver only

    def __init__(
        self, options: Any = None, preset: str | None = None, baseline: Any = None
    ) -> None:
        super().__init__(options, preset, baseline)
        # Set on the instance, not as a class attribute: the compiled (mypyc) engine reads
        # the instance slot and would not see a class-level override.
        self.num_scores = 4


GAME = Filippa
