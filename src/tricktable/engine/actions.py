"""Actions as ints, so that a phase's legal actions are one int bit mask.

Cards played are the card ints 0..63; ``pass`` is 64; ``bid N`` is 128 + N (N < 64); games may
add their own codes from 256 up to 1023 (see each game's ``action_name`` and ``parse_action``).
Passing cards to another seat (``pass 2C 3D 4H``) is ``PASS_CARDS | mask``: those codes are too
many for a mask, so a passing phase lists its legal actions itself (see ``TrickState``).
"""

from __future__ import annotations

from typing import Final

from tricktable.cards import card_name, cards_in, parse_card
from tricktable.errors import NotationError

# Final: compiled code reads these as constants, not from the module's dict at every use.
PASS: Final = 64
BID: Final = 128
PASS_BIT: Final = 1 << PASS
PASS_CARDS: Final = 1 << 64


def pass_cards(mask: int) -> int:
    """The action of passing the cards of ``mask``."""
    return PASS_CARDS | mask


def bid(n: int) -> int:
    """The action ``bid n``."""
    return BID + n


def is_play(action: int) -> bool:
    """Whether an action plays a card."""
    return 0 <= action < 64


def is_bid(action: int) -> bool:
    """Whether an action is ``bid N``."""
    return BID <= action < BID + 64


def action_name(action: int) -> str:
    """The text of a standard action: ``play TD``, ``pass``, ``bid 3``."""
    if 0 <= action < 64:
        return "play " + card_name(action)
    if action == PASS:
        return "pass"
    if BID <= action < BID + 64:
        return f"bid {action - BID}"
    if action > PASS_CARDS and action >> 64 == 1:
        return "pass " + " ".join(card_name(c) for c in cards_in(action ^ PASS_CARDS))
    raise NotationError(f"unknown action code {action}")


def parse_action(text: str) -> int:
    """Read a standard action; ``play`` may be left out before a card (``TD``)."""
    words = text.strip().lower().split()
    if not words:
        raise NotationError("empty action: write pass, bid N or play CARD")
    if words == ["pass"]:
        return PASS
    if words[0] == "pass":
        mask = 0
        for word in words[1:]:
            mask |= 1 << parse_card(word)
        return PASS_CARDS | mask
    if words[0] == "bid" and len(words) == 2:
        try:
            n = int(words[1])
        except ValueError:
            raise NotationError(
                f"bad bid {text.strip()!r}: write bid N, N a whole number"
            ) from None
        if not 0 <= n < 64:
            raise NotationError(f"bad bid {text.strip()!r}: N must be 0..63")
        return BID + n
    if words[0] == "play" and len(words) == 2:
        return parse_card(words[1])
    if len(words) == 1:
        try:
            return parse_card(words[0])
        except NotationError:
            pass
    raise NotationError(f"unknown action {text.strip()!r}: write pass, bid N or play CARD")


# A legal-action mask decodes like a card mask: the set bits, lowest first.
actions_in = cards_in

#: the action lists of the masks of phases other than card play, decoded once: bid and trump
#: codes pass 63 bits, and decoding such a big int at every turn cost more than the rest of
#: the bid (a game has a few dozen such masks; one that changes every hand, like Euchre's
#: discard, is better listed by the game's own ``_other_list``)
_LISTED: Final[dict[int, list[int]]] = {}


def listed(mask: int) -> list[int]:
    """The actions of ``mask``, lowest first (a new list), decoded once per mask."""
    out = _LISTED.get(mask)
    if out is None:
        if len(_LISTED) >= 4096:
            _LISTED.clear()  # a safety net: a game whose masks change every hand
        out = _LISTED[mask] = actions_in(mask)
    return out[:]
