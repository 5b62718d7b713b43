"""The action log's parts: one hand's deal and actions (:class:`HandLog`) and the entries
that are not moves (:class:`Note`: chat, substitutions, a forfeit)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from tricktable.cards import cards_in


class Note:
    """An entry of the log that is not a move: a chat line, a substitution, a forfeit.

    ``hand`` is the hand's index (-1 before the first deal) and ``at`` the number of that
    hand's actions taken before it; ``kind`` is one of :data:`NOTE_KINDS`.
    """

    __slots__ = ("at", "hand", "kind", "seat", "text")

    def __init__(self, hand: int, at: int, kind: str, seat: int, text: str) -> None:
        self.hand = hand
        self.at = at
        self.kind = kind
        self.seat = seat
        self.text = text

    def to_dict(self) -> dict[str, Any]:
        """The note as a record writes it (its hand is implied by where it is written)."""
        out: dict[str, Any] = {"at": self.at, "kind": self.kind, "seat": self.seat}
        if self.text:
            out["text"] = self.text
        return out


#: the kinds of :class:`Note`
NOTE_KINDS: Final = ("chat", "substitute", "forfeit")


class HandLog:
    """One hand of the action log: the dealer, the deal (a mask per seat) and every action."""

    __slots__ = ("actions", "actors", "deal", "dealer", "stock")

    def __init__(
        self, dealer: int, deal: list[int], actions: list[int], actors: list[int], stock: list[int]
    ) -> None:
        self.dealer = dealer
        self.deal = deal
        self.actions = actions
        self.actors = actors
        self.stock = stock


def deal_lists(masks: Sequence[int]) -> list[list[int]]:
    """A deal as card lists (for records), from masks."""
    return [cards_in(m) for m in masks]
