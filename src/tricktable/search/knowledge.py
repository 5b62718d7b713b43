"""What one seat knows about the cards at one decision, read from its view alone.

:class:`Knowledge` is computed once per decision from a seat's :class:`View` (its public
properties only) and holds every fact about the cards as int masks:

- ``hand``, ``played`` and ``played_by``: the seat's cards, and every card played (by whom);
- ``counts``: how many cards each seat holds now;
- ``voids``: the cards each seat has shown it lacks by failing to follow suit (following is
  the trick's ``tables.suit_mask``: jokers and the left bower belong to trump), and
  ``cannot``: those and whatever else the game's rules reveal (a heart led before hearts were
  broken: its leader holds nothing but hearts);
- ``known``: the cards known to be in each seat's hand (its own; cards it passed, which the
  receiver holds until it plays them; the 2♣ of the seat to lead the first trick; a Euchre
  dealer's up-card while it discards); ``dead``: cards known to be in no hand (a Euchre up-card
  turned down, the seat's own discard, Oh Hell's trump card);
- ``unseen``: the cards whose place the seat does not know, and ``others``: every card another
  seat may hold (``unseen`` and the known cards of the other seats).

What each game adds (passing, the up-card, the lead rules) is in :mod:`tricktable.search.rules`;
the heuristics read these facts instead of working them out again, and
:mod:`tricktable.search.determinize` samples hidden hands consistent with them.
"""

from __future__ import annotations

from typing import Final

from tricktable.cards import mask_of
from tricktable.engine.trick import View
from tricktable.search.rules import rules_for

#: action codes below this play a card, in every game (the others start at ``PASS``, 64)
CARD_ACTIONS: Final = 64

_DECKS: dict[tuple[int, ...], int] = {}


def deck_mask(deck: tuple[int, ...]) -> int:
    """The mask of a game's deck (made once per deck)."""
    mask = _DECKS.get(deck)
    if mask is None:
        mask = _DECKS[deck] = mask_of(deck)
    return mask


class Knowledge:
    """What ``view.seat`` knows of the cards now (see the module's docstring for each field)."""

    __slots__ = (
        "cannot",
        "counts",
        "dead",
        "deck",
        "hand",
        "known",
        "others",
        "played",
        "played_by",
        "seat",
        "unseen",
        "voids",
    )

    def __init__(self, view: View) -> None:
        game = view.game
        rules = rules_for(game)
        n = game.num_players
        seat = view.seat
        self.seat = seat
        self.deck = deck = deck_mask(game.deck)
        self.hand = hand = view.hand
        played_by = [0] * n
        plays: list[tuple[int, int]] = []
        for actor, action in view.actions:
            if action < CARD_ACTIONS:
                played_by[actor] |= 1 << action
                plays.append((actor, action))
        self.played_by = played_by
        played = 0
        for mask in played_by:
            played |= mask
        self.played = played
        size = rules.deal_size(view)
        self.counts = [size - mask.bit_count() for mask in played_by]
        self.voids = voids = [0] * n
        self.cannot = cannot = [0] * n
        # The plays come in trick order: each finished trick takes as many as it holds.
        suit_mask = view.tables.suit_mask
        free = rules.follow_free(view)
        lengths = [len(cards) for _leader, cards, _winner in view.tricks]
        lengths.append(len(plays) - sum(lengths))
        before = 0
        start = 0
        for number, length in enumerate(lengths):
            trick = plays[start : start + length]
            start += length
            if not trick:
                break
            leader, lead = trick[0]
            forbid = rules.lead_forbid(view, number, before)
            if forbid >> lead & 1:
                cannot[leader] |= deck & ~forbid  # it led a card it may lead only when forced
            follow = suit_mask[lead]
            discard_forbid = rules.discard_forbid(view, number)
            before |= 1 << lead
            for who, card in trick[1:]:
                before |= 1 << card
                if follow >> card & 1 or free >> card & 1:
                    continue
                voids[who] |= follow
                if discard_forbid >> card & 1:
                    cannot[who] |= deck & ~discard_forbid
        for s in range(n):
            cannot[s] |= voids[s]
        self.known = [0] * n
        self.known[seat] = hand
        self.dead = 0
        rules.note(view, self)
        self.others = others = deck & ~hand & ~played & ~self.dead
        elsewhere = 0
        for s in range(n):
            if s != seat:
                elsewhere |= self.known[s]
        self.unseen = others & ~elsewhere

    def shown_void(self, seat: int, mask: int) -> bool:
        """Whether ``seat`` has shown, by failing to follow, that it holds none of ``mask``."""
        return not mask & ~self.voids[seat]

    def may_hold(self, seat: int) -> int:
        """The cards ``seat`` may hold now: those known there, and unseen ones it may have."""
        if seat == self.seat and self.hand.bit_count() == self.counts[seat]:
            return self.hand
        return self.known[seat] | self.unseen & ~self.cannot[seat]

    def __repr__(self) -> str:
        return (
            f"Knowledge(seat={self.seat}, counts={self.counts}, unseen={self.unseen:#x}, "
            f"voids={[hex(v) for v in self.voids]})"
        )
