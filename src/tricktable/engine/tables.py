"""What trump changes, as tables indexed by card: power in a trick and the suit to follow."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import FrozenInstanceError
from typing import Final

from tricktable.cards import SUIT_MASKS, mask_of


class TrumpTables:
    """What trump changes, as tables indexed by card (a plain class: native fields when compiled).

    ``mask`` holds every trump card; ``power[c]`` ranks a card in a trick (trumps 100 and up,
    other cards by rank, beaten by any trump and only counting in the suit led);
    ``suit_mask[c]`` is the mask of the suit card ``c`` belongs to for following suit.

    Read-only: a game makes its tables once and every match of it shares them, and bots reach
    them through their views (``view.tables``), so a field is set once, in ``__init__``, and
    the tables are tuples.
    """

    __slots__ = ("mask", "power", "suit", "suit_mask")

    suit: int
    mask: int
    power: tuple[int, ...]
    suit_mask: tuple[int, ...]

    def __init__(
        self, suit: int, mask: int, power: Sequence[int], suit_mask: Sequence[int]
    ) -> None:
        # object.__setattr__ past our own refusal; compiled, each is a plain store.
        object.__setattr__(self, "suit", suit)
        object.__setattr__(self, "mask", mask)
        object.__setattr__(self, "power", tuple(power))
        object.__setattr__(self, "suit_mask", tuple(suit_mask))

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}: trump tables are read-only")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}: trump tables are read-only")


def trump_tables(trump: int, trump_order: Sequence[int]) -> TrumpTables:
    """Tables for a trump suit (-1 for none) whose trump cards, lowest first, are ``trump_order``.

    Cards in ``trump_order`` outside the printed suit (a joker, a left bower) join trump for
    following suit; the printed suits keep every other card.
    """
    mask = mask_of(trump_order)
    suit_masks = [SUIT_MASKS[s] & ~mask for s in range(4)]
    if trump >= 0:
        suit_masks[trump] = mask
    power = [c % 13 if c < 52 else -1 for c in range(64)]
    suit_mask = [suit_masks[c // 13] if c < 52 else 0 for c in range(64)]
    for i, card in enumerate(trump_order):
        power[card] = 100 + i
        suit_mask[card] = mask
    return TrumpTables(trump, mask, power, suit_mask)


NO_TRUMP: Final = trump_tables(-1, ())


def strength(tables: TrumpTables, card: int, led: int) -> int:
    """How strong ``card`` is in a trick whose suit led is the mask ``led``: its power if it
    is a trump or follows suit, else -1 (it cannot win). The engine's own rule
    (``TrickState._play``), for the readers of a trick that is not theirs to play."""
    power = tables.power[card]
    return power if power >= 100 or led >> card & 1 else -1


def trick_winner(tables: TrumpTables, cards: Sequence[int]) -> int:
    """The index in ``cards`` (a trick so far, in order of play) of the card winning it; -1
    for an empty trick."""
    if not cards:
        return -1
    led = tables.suit_mask[cards[0]]
    best, top = 0, tables.power[cards[0]]
    for i in range(1, len(cards)):
        p = strength(tables, cards[i], led)
        if p > top:
            best, top = i, p
    return best
