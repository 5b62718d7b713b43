"""Hearts: four players each for themselves pass three cards, then avoid hearts and Q♠.

The rules as implemented are in ``rules/hearts.md``. Card passing is shared with Filippa
(``filippa.py``): :class:`PassingState` is the trick state with a passing phase in front of
the play, where each seat in turn (from the dealer's left) passes three cards at once as one
action, ``pass 2C 3D 4H``. The cards move only when all four have passed, and a pass stays
hidden from every other seat; its receiver sees it once the passing is over.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Literal

from tricktable.cards import HEARTS, QUEEN, SPADES, SUIT_MASKS, card_name, card_of, cards_in
from tricktable.engine.actions import PASS, PASS_CARDS
from tricktable.engine.trick import PLAY, SPECIAL, Game, TrickState
from tricktable.errors import OptionError

#: the phase of card passing, before the first trick
PASSING = 10

TWO_CLUBS = card_of(0, 0)
QUEEN_SPADES = card_of(SPADES, QUEEN)
HEART_CARDS = SUIT_MASKS[HEARTS]
QS_BIT = 1 << QUEEN_SPADES
#: every card that scores in Hearts
POINT_CARDS = HEART_CARDS | QS_BIT
#: the penalty points a hand of Hearts holds in all
HAND_POINTS = 26

#: pass offsets (seats to the left) by direction letter; 0 = hold, nothing passes
DIRECTIONS = {"l": 1, "r": 3, "a": 2, "h": 0}
DIRECTION_NAMES = {1: "left", 3: "right", 2: "across", 0: "hold"}
_WORDS = {"left": "l", "right": "r", "across": "a", "hold": "h", "none": "h"}


def pass_cycle(text: str) -> tuple[int, ...]:
    """The pass offsets, hand by hand, of a ``passing`` option: ``lrah`` -> (1, 3, 2, 0).

    A word names one direction for every hand: ``left``, ``right``, ``across``, ``none``.
    """
    word = text.strip().lower()
    letters = _WORDS.get(word, word)
    if not letters or any(ch not in DIRECTIONS for ch in letters):
        raise OptionError(
            f"bad passing {text!r}: write letters l r a h (left, right, across, hold) in "
            "the order hands cycle through them, e.g. lrah, or left, right, across, none"
        )
    return tuple(DIRECTIONS[ch] for ch in letters)


def hearts_points(won: list[int]) -> list[int]:
    """The penalty points each seat took: one per heart, 13 for the queen of spades."""
    return [(w & HEART_CARDS).bit_count() + (13 if w & QS_BIT else 0) for w in won]


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


@dataclass(frozen=True)
class HeartsOptions:
    """The rule options of Hearts; the defaults are the standard four-handed game."""

    target: int = field(
        default=100,
        metadata={"doc": "score that ends the match at the end of a hand", "range": (1, 10000)},
    )
    passing: str = field(
        default="lrah",
        metadata={
            "doc": "pass directions, one letter per hand, cycling: l(eft) r(ight) a(cross) "
            "h(old); or one word for every hand: left, right, across, none"
        },
    )
    first_trick_points: bool = field(
        default=False,
        metadata={"doc": "hearts and the queen of spades may be played to the first trick"},
    )
    breaking: bool = field(
        default=True, metadata={"doc": "hearts may not be led until a heart has been played"}
    )
    queen_breaks: bool = field(
        default=False, metadata={"doc": "playing the queen of spades also breaks hearts"}
    )
    moon: Literal["add", "subtract", "none"] = field(
        default="add",
        metadata={
            "doc": "taking all 26: add 26 to every other score, subtract 26 from the "
            "shooter's, or none (no special scoring)"
        },
    )

    def __post_init__(self) -> None:
        pass_cycle(self.passing)


class PassingState(TrickState):
    """A trick state whose hands open with every seat passing three cards.

    Subclasses set ``pass_offset`` in ``_start_hand`` (then call :meth:`_start_passing`) and
    implement :meth:`_start_play`, called once the cards have moved.
    """

    def __init__(self, game: Game, seed: int | None = None) -> None:
        super().__init__(game, seed)
        self.pass_offset = 0
        #: the cards each seat passed this hand (0 until it has passed)
        self.passed = [0, 0, 0, 0]
        #: the cards each seat received this hand (0 until all have passed)
        self.received = [0, 0, 0, 0]
        self._combo_key = -1
        self._combo_list: list[int] = []

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

    def _combos(self) -> list[int]:
        # Every three cards of the hand; cached, since apply() checks against the list again.
        seat = self.to_act
        hand = self.hands[seat]
        key = hand << 2 | seat
        if key != self._combo_key:
            # Highest card first, the combinations come in descending numeric order: reversed,
            # they are sorted without a sort. PASS_CARDS in every bit survives the ors.
            bits = [PASS_CARDS | 1 << c for c in reversed(cards_in(hand))]
            combos = [a | b | c for a, b, c in combinations(bits, 3)]
            combos.reverse()
            self._combo_list = combos
            self._combo_key = key
        return self._combo_list

    def _other_actions(self) -> list[int]:
        if self.phase != PASSING:
            return []
        return self._combos()[:]

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
        self._start_play()

    def _public(self, viewer: int, actor: int, action: int) -> bool:
        if action < PASS_CARDS:
            return True
        # A pass is seen by its receiver only once the passing is over, as at a real table
        # (cards received are picked up after one's own pass is made).
        return self.phase != PASSING and viewer == (actor + self.pass_offset) % 4

    def _clone_extra(self, other: TrickState) -> None:
        assert isinstance(other, PassingState)
        other.passed = self.passed[:]
        other.received = self.received[:]

    def _phase_name(self) -> str:
        return "passing" if self.phase == PASSING else str(self.phase)

    def _explain_pass(self, action: int) -> str:
        if action == PASS:
            return "must name the three cards to pass, e.g. 'pass 2C 3D 4H'"
        if action < PASS_CARDS or action >> 64 != 1:
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
        self.cycle = pass_cycle(game.options.passing)
        self.first_forbid = 0 if opts.first_trick_points else POINT_CARDS
        self.break_mask = POINT_CARDS if opts.queen_breaks else HEART_CARDS
        self.breaking: bool = opts.breaking
        self.broken = False

    def _start_hand(self) -> None:
        self.pass_offset = self.cycle[(len(self.history) - 1) % len(self.cycle)]
        self.broken = False
        self.lead_forbid = HEART_CARDS if self.breaking else 0
        self._start_passing()

    def _start_play(self) -> None:
        self.phase = PLAY
        self.to_act = next(s for s in range(4) if self.hands[s] >> TWO_CLUBS & 1)

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

    def _on_trick(self, winner: int) -> None:
        # Cards won were played, so a break card among them means hearts are broken.
        if not self.broken and self.won[winner] & self.break_mask:
            self.broken = True
            self.lead_forbid = 0

    def _score_hand(self) -> dict[str, Any]:
        points = hearts_points(self.won)
        delta, shooter = hearts_score(points, self.options.moon)
        scores = self.scores
        for seat in range(4):
            scores[seat] += delta[seat]
        if max(scores) >= self.options.target:
            self.winner = lowest_unique(scores)
        return {
            "pass": DIRECTION_NAMES[self.pass_offset],
            "penalties": points,
            "moon": shooter,
            "scores": list(scores),
        }

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
        facts = self._passing_facts(seat)
        facts["hearts_broken"] = self.broken
        facts["penalties"] = hearts_points(self.won)
        return facts


class Hearts(Game):
    """Hearts, four-handed, each for themselves: lowest score when someone reaches 100 wins."""

    name = "hearts"
    title = "Hearts"
    summary = "52 cards, 13 each, pass three, avoid hearts (1) and Q♠ (13); lowest score wins"
    Options = HeartsOptions
    State = HeartsState
    heuristic_bot = "tricktable.bots.hearts_heuristic:HeartsHeuristic"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Set on the instance, not as a class attribute: the compiled (mypyc) engine reads
        # the instance slot and would not see a class-level override.
        self.num_scores = 4


GAME = Hearts
