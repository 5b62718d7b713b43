"""Cards as small ints and sets of cards as int bit masks.

A card is ``suit * 13 + rank`` with suits ``C D H S`` = 0..3 and ranks ``2..A`` = 0..12; the
jokers are 52 (``JK``, the only joker of Setback, also the "big" joker) and 53 (``JL``, the
little joker of games with two). A set of cards is an int whose bit ``c`` is set when card ``c``
is in it.

>>> parse_card("10d") == parse_card("TD") == card_of(1, 8)
True
>>> format_cards(parse_cards("AS 2c jk"))
'2C AS JK'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from tricktable.errors import NotationError

# Final: compiled code reads these as constants, not from the module's dict at every use.
SUITS: Final = "CDHS"
RANKS: Final = "23456789TJQKA"
SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS: Final = "♣♦♥♠"
CLUBS: Final = 0
DIAMONDS: Final = 1
HEARTS: Final = 2
SPADES: Final = 3
TEN: Final = 8
JACK: Final = 9
QUEEN: Final = 10
KING: Final = 11
ACE: Final = 12

JOKER: Final = 52
LITTLE_JOKER: Final = 53
NUM_CARDS: Final = 54

SUIT_MASKS: Final = tuple(0x1FFF << (13 * s) for s in range(4))
JOKER_BIT: Final = 1 << JOKER
LITTLE_JOKER_BIT: Final = 1 << LITTLE_JOKER


def card_of(suit: int, rank: int) -> int:
    """The card of a suit (0..3) and a rank (0 = two .. 12 = ace)."""
    return suit * 13 + rank


def suit_of(card: int) -> int:
    """The printed suit of a card (0..3); jokers have none and give -1."""
    return card // 13 if card < 52 else -1


def rank_of(card: int) -> int:
    """The printed rank of a card (0 = two .. 12 = ace); jokers give -1."""
    return card % 13 if card < 52 else -1


_NAMES = [r + s for s in SUITS for r in RANKS] + ["JK", "JL"]
_BY_NAME: dict[str, int] = {name: i for i, name in enumerate(_NAMES)}
for _i, _name in enumerate(_NAMES[:52]):
    _ranks = [_name[0], "10"] if _name[0] == "T" else [_name[0]]
    for _rank in _ranks:
        for _suit in (_name[1], SUIT_SYMBOLS[_i // 13], "♧♢♡♤"[_i // 13]):
            _BY_NAME[_rank + _suit] = _i
_BY_NAME.update({"JOKER": JOKER, "BJ": JOKER, "LJ": LITTLE_JOKER, "🃏": JOKER})


def spellings() -> dict[str, int]:
    """Every spelling :func:`parse_card` reads (upper case, as it compares them) and its card:
    the one notation of cards, which the chat check reads too (:mod:`tricktable.chat`)."""
    return dict(_BY_NAME)


def card_name(card: int) -> str:
    """The canonical name of a card: ``TD``, ``QS``, ``JK``; a code that is no card (one a
    bot or a record sent) is a :class:`NotationError`."""
    if not 0 <= card < len(_NAMES):
        raise NotationError(f"no card has the code {card}")
    return _NAMES[card]


def parse_card(text: str) -> int:
    """Read a card: canonical ``TD``, also ``10d``, ``t♦`` and ``joker``."""
    card = _BY_NAME.get(text.strip().upper())
    if card is None:
        raise NotationError(f"unknown card {text!r}: write rank then suit, like TD, 10D, QS or JK")
    return card


def parse_cards(text: str | Iterable[str]) -> list[int]:
    """Read cards separated by spaces or commas, or an iterable of card names."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_card(item) for item in items]


def mask_of(cards: Iterable[int]) -> int:
    """The bit mask of some cards."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_in(mask: int) -> list[int]:
    """The cards of a mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def format_cards(cards: Iterable[int] | int) -> str:
    """Canonical names of cards (or of a mask), space-separated, in card order."""
    items = cards_in(cards) if isinstance(cards, int) else sorted(cards)
    return " ".join(_NAMES[c] for c in items)


def pretty_card(card: int) -> str:
    """A card with its suit symbol, for people: ``10♦``, ``Q♠``, ``🃏``."""
    if card >= 52:
        return "JK" if card == JOKER else "JL"
    rank = RANKS[card % 13]
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS[card // 13]
