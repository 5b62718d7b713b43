"""Scoring of the Pitch family as pure functions: which side earns each point, and the score.

A *side* is a team in partnership games — seat s plays for side ``s % sides`` (0 = seats
0+2, 1 = seats 1+3 at four seats) — or a seat in cut-throat ones. ``dealt`` and ``won`` are
card masks by seat.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from tricktable.cards import (
    ACE,
    JACK,
    JOKER_BIT,
    KING,
    LITTLE_JOKER_BIT,
    QUEEN,
    SUIT_MASKS,
    TEN,
)

#: every point a Pitch variant may count, in the order results list them
POINT_NAMES: Final = (
    "high",
    "low",
    "jack",
    "off_jack",
    "joker",
    "little_joker",
    "three",
    "five",
    "off_five",
    "ten",
    "game",
)
#: Setback's six points (RULES.md), each worth one
SETBACK_POINTS: Final = ("high", "low", "jack", "off_jack", "joker", "game")


_JOKERS: Final = JOKER_BIT | LITTLE_JOKER_BIT


_GAME_VALUE: Final = {TEN: 10, JACK: 1, QUEEN: 2, KING: 3, ACE: 4}
# Small points of every 13-bit suit pattern, so a count is four look-ups.
_GAME_BY_SUIT: Final = [
    sum(v for r, v in _GAME_VALUE.items() if pattern >> r & 1) for pattern in range(1 << 13)
]


def game_count(mask: int) -> int:
    """Small points in a set of cards: J 1, Q 2, K 3, A 4, 10 10 (jokers and others 0)."""
    table = _GAME_BY_SUIT
    return (
        table[mask & 0x1FFF]
        + table[mask >> 13 & 0x1FFF]
        + table[mask >> 26 & 0x1FFF]
        + table[mask >> 39 & 0x1FFF]
    )


def sides_of(masks: Sequence[int], sides: int = 2) -> list[int]:
    """Masks by side: each side's seats' union (each seat's own where every seat is a side)."""
    n = len(masks)
    if sides >= n:
        return list(masks)
    if sides == 2 and n == 4:
        return [masks[0] | masks[2], masks[1] | masks[3]]
    out = [0] * sides
    for seat in range(n):
        out[seat % sides] |= masks[seat]
    return out


def high_low(
    trump: int, dealt_all: int, trump_mask: int = 0, power: Sequence[int] = ()
) -> tuple[int, int]:
    """The bits of the highest and lowest trump dealt (jokers are never High or Low).

    With only the printed suit as (non-joker) trump, bit order is rank order; when other cards
    join trump (an off-jack, an off-five) ``trump_mask`` and ``power`` rank them.
    """
    suit = SUIT_MASKS[trump]
    extra = trump_mask & ~suit & ~_JOKERS
    trumps = dealt_all & (suit | extra)
    if not trumps:
        return 0, 0
    if not extra:
        return 1 << (trumps.bit_length() - 1), trumps & -trumps
    # The trumps dealt by their bits, ranked by power (distinct for trumps): no list and no
    # key function, which compiled code calls through Python.
    high = low = -1
    high_power, low_power = -1, 1 << 30
    rest = trumps
    while rest:
        bit = rest & -rest
        rest ^= bit
        card = bit.bit_length() - 1
        p = power[card]
        if p > high_power:
            high_power, high = p, card
        if p < low_power:
            low_power, low = p, card
    return 1 << high, 1 << low


def _point_cards(trump: int) -> dict[str, int]:
    other = 3 - trump
    return {
        "jack": 1 << (trump * 13 + JACK),
        "off_jack": 1 << (other * 13 + JACK),
        "joker": JOKER_BIT,
        "little_joker": LITTLE_JOKER_BIT,
        "three": 1 << (trump * 13 + 1),
        "five": 1 << (trump * 13 + 3),
        "off_five": 1 << (other * 13 + 3),
        "ten": 1 << (trump * 13 + TEN),
    }


#: by trump suit: the card each fixed-card point is earned with
POINT_CARDS: Final = [_point_cards(t) for t in range(4)]


def _owner(everything: int, bit: int, masks: list[int]) -> int | None:
    if not everything & bit:
        return None
    for side, mask in enumerate(masks):
        if mask & bit:
            return side
    return None


def hand_points(
    trump: int,
    dealt: Sequence[int],
    won: Sequence[int],
    low_to: str = "captured",
    points: Sequence[str] = SETBACK_POINTS,
    sides: int = 2,
    trump_mask: int = 0,
    power: Sequence[int] = (),
) -> dict[str, int | None]:
    """Which side earned each point of ``points``; None when its card was not dealt or tied."""
    side_won = sides_of(won, sides)
    everything = 0
    for mask in dealt:
        everything |= mask
    cards = POINT_CARDS[trump]
    out: dict[str, int | None] = {}
    high = low = -1
    for name in points:
        if name == "high" or name == "low":
            if high < 0:
                high, low = high_low(trump, everything, trump_mask, power)
            if name == "high":
                out[name] = _owner(everything, high, side_won)
            else:
                masks = sides_of(dealt, sides) if low_to == "dealt" else side_won
                out[name] = _owner(everything, low, masks)
        elif name == "game":
            counts = [game_count(m) for m in side_won]
            best = max(counts)
            out[name] = counts.index(best) if counts.count(best) == 1 else None
        else:
            out[name] = _owner(everything, cards[name], side_won)
    return out


def score_hand(
    points: dict[str, int | None],
    declarer_side: int,
    bid: int,
    declarer_scores: str = "bid",
    sides: int = 2,
    weights: Mapping[str, int] | None = None,
) -> tuple[list[int], list[int]]:
    """(points taken by each side, change of each side's score) for a finished hand.

    The declaring side scores its bid (or what it took, with ``declarer_scores="taken"``) when it
    took at least its bid, and loses its bid otherwise; every other side scores what it took.
    """
    taken = [0] * sides
    for name, side in points.items():
        if side is not None:
            # `in` and `[]`, not .get: on a read-only map (a game's) compiled code calls .get
            # as a method, and the map's .get calls its dict's, each by name.
            taken[side] += weights[name] if weights is not None and name in weights else 1
    delta = list(taken)
    if taken[declarer_side] < bid:
        delta[declarer_side] = -bid
    elif declarer_scores == "bid":
        delta[declarer_side] = bid
    return taken, delta


def match_winner(scores: Sequence[int], declarer_side: int, target: int, rule: str) -> int | None:
    """The side that has won the match after a hand, or None if it goes on.

    ``declarers``: only the declaring side reaching the target wins (RULES.md).
    ``first``: any side reaching it wins; the declarers first if they did, else the top side.
    ``top``: once a side reaches it, the unique top score wins; a tie at the top plays on.
    """
    if rule == "declarers":
        return declarer_side if scores[declarer_side] >= target else None
    best = max(scores)
    if best < target:
        return None
    if rule == "first" and scores[declarer_side] >= target:
        return declarer_side
    return scores.index(best) if list(scores).count(best) == 1 else None


def took_every_point(points: Mapping[str, int | None], side: int) -> bool:
    """Whether ``side`` earned every point the hand awarded (and it awarded at least one).

    A point no side earned (its card not dealt, Game tied) does not spoil a sweep.
    """
    awarded = False
    for owner in points.values():
        if owner is None:
            continue
        if owner != side:
            return False
        awarded = True
    return awarded


def score_contract(
    points: dict[str, int | None],
    declarer_side: int,
    bid: int,
    declarer_scores: str = "bid",
    sides: int = 2,
    weights: Mapping[str, int] | None = None,
    *,
    moon: bool = False,
    moon_value: int = 0,
    total: int = 0,
    smudge: bool = False,
    in_hole: bool = False,
) -> tuple[list[int], list[int], bool]:
    """:func:`score_hand` with the bids that take every point: (taken, change, outright).

    ``moon``: the contract is a moon. Made (every point the hand awarded, to the declarers), it
    wins the match outright (``outright`` true, the side scoring what it took) or, with a
    ``moon_value`` N, scores N; failed, the side loses ``moon_value`` or else ``total`` (the
    hand's points). ``smudge``: the contract is the top bid of a game that plays smudge: made
    by taking every point, it wins the match outright unless the side was ``in_hole`` (below
    zero before the hand); otherwise it scores as any bid.
    """
    taken, delta = score_hand(points, declarer_side, bid, declarer_scores, sides, weights)
    swept = took_every_point(points, declarer_side)
    if moon:
        if not swept:
            delta[declarer_side] = -(moon_value or total)
            return taken, delta, False
        if moon_value:
            delta[declarer_side] = moon_value
            return taken, delta, False
        delta[declarer_side] = taken[declarer_side]
        return taken, delta, True
    outright = smudge and swept and taken[declarer_side] >= bid and not in_hole
    return taken, delta, outright
