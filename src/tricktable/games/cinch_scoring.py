"""Scoring of Cinch and its relatives as pure functions: who took each point, and the score.

Every point goes to the side that wins the trick holding its card (Low, optionally, to the
side that held it for the play). ``in_play`` is every card played this hand; ``won`` and
``held`` are card masks by side.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from tricktable.cards import JACK, JOKER, TEN

#: the rank index of each fixed-card point in the trump suit (the left Pedro is the five of
#: the other suit of trump's colour, the joker is the joker)
_RANKS: Final = {"jack": JACK, "game": TEN, "three": 1, "pedro": 3, "nine": 7}


def point_card(name: str, trump: int) -> int:
    """The card that earns point ``name`` (not High or Low) with ``trump`` trump."""
    if name == "left_pedro":
        return (3 - trump) * 13 + 3
    if name == "joker":
        return JOKER
    return trump * 13 + _RANKS[name]


def high_low(in_play: int, trump_mask: int, power: Sequence[int]) -> tuple[int, int]:
    """The highest and lowest trump in play (never the joker), or (-1, -1) when none is."""
    trumps = in_play & trump_mask & ~(1 << JOKER)
    high = low = -1
    while trumps:
        bit = trumps & -trumps
        trumps ^= bit
        card = bit.bit_length() - 1
        if high < 0 or power[card] > power[high]:
            high = card
        if low < 0 or power[card] < power[low]:
            low = card
    return high, low


def _owner(card: int, masks: Sequence[int]) -> int | None:
    if card < 0:
        return None
    for side, mask in enumerate(masks):
        if mask >> card & 1:
            return side
    return None


def hand_points(
    names: Sequence[str],
    trump: int,
    won: Sequence[int],
    held: Sequence[int],
    trump_mask: int,
    power: Sequence[int],
    low_to: str = "captured",
) -> dict[str, int | None]:
    """Which side took each point of ``names``; None when its card was not in play."""
    in_play = 0
    for mask in won:
        in_play |= mask
    high, low = high_low(in_play, trump_mask, power)
    out: dict[str, int | None] = {}
    for name in names:
        if name == "high":
            out[name] = _owner(high, won)
        elif name == "low":
            out[name] = _owner(low, held if low_to == "held" else won)
        else:
            out[name] = _owner(point_card(name, trump), won)
    return out


#: in :func:`point_cards`' lists: the point goes with the highest, or the lowest, trump in play
HIGH_POINT: Final = -2
LOW_POINT: Final = -3


def point_cards(names: Sequence[str], trump: int) -> list[int]:
    """The card of each point of ``names`` with ``trump`` trump, for :func:`side_points`:
    :data:`HIGH_POINT` and :data:`LOW_POINT` for High and Low, whose cards the play decides."""
    return [
        HIGH_POINT if name == "high" else LOW_POINT if name == "low" else point_card(name, trump)
        for name in names
    ]


def side_points(
    names: list[str],
    cards: list[int],
    won: list[int],
    low_masks: list[int],
    trump_mask: int,
    power: Sequence[int],
) -> dict[str, int | None]:
    """:func:`hand_points` with each point's card looked up once a game (``cards``, from
    :func:`point_cards`) and Low's masks given (``held`` or ``won``): the state's hot path,
    lists indexed in native loops rather than sequences iterated (a tenth of a hand's time)."""
    in_play = 0
    for i in range(len(won)):
        in_play |= won[i]
    high, low = high_low(in_play, trump_mask, power)
    out: dict[str, int | None] = {}
    for i in range(len(names)):
        card = cards[i]
        masks = won
        if card == HIGH_POINT:
            card = high
        elif card == LOW_POINT:
            card = low
            masks = low_masks
        owner: int | None = None
        if card >= 0:
            for side in range(len(masks)):
                if masks[side] >> card & 1:
                    owner = side
                    break
        out[names[i]] = owner
    return out


def score_hand(
    points: Mapping[str, int | None],
    weights: Mapping[str, int],
    bidder_side: int,
    bid: int,
    sides: int,
    scoring: str = "taken",
) -> tuple[list[int], list[int], bool]:
    """(points each side took, change of each side's score, whether the bid was made).

    ``taken``: every side scores what it took; a bidding side short of its bid loses the bid
    instead. ``difference`` (two sides): a made bid gives the side that took more the
    difference; a failed one gives the other side what it took and the bid, the bidders
    nothing.
    """
    taken = [0] * sides
    for name, side in points.items():
        if side is not None:
            taken[side] += weights[name]
    made = taken[bidder_side] >= bid
    if scoring == "difference":
        other = 1 - bidder_side
        delta = [0, 0]
        if made:
            diff = taken[bidder_side] - taken[other]
            if diff > 0:
                delta[bidder_side] = diff
            else:
                delta[other] = -diff
        else:
            delta[other] = taken[other] + bid
        return taken, delta, made
    delta = list(taken)
    if not made:
        delta[bidder_side] = -bid
    return taken, delta, made
