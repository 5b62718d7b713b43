"""Uniform random deals of hidden cards into places of known sizes, each refusing some cards.

The hidden cards of a position go to *places*: the other seats' hands, and piles that are in
no hand (Setback's undealt cards, Euchre's buried stock...). Each place takes a known number of
cards and refuses some (a seat's shown voids). :class:`PlaceSampler` draws one assignment
uniformly from every assignment that respects both — exactly, not by rejection:

- cards that the same places accept are interchangeable, so the cards fall into a few *classes*
  (at most one per set of accepting places, usually two to six);
- the number of assignments that fill places ``b..`` from the class counts left is counted
  once, by a memoized recursion over the places, each way weighted by its binomials;
- a sample walks the places in order, picking how many cards of each class the place takes in
  proportion to the assignments that choice leaves, then which cards, uniformly.

>>> import random
>>> sampler = PlaceSampler(0b1111, [Place(2, 0b0011), Place(2, 0)])
>>> sampler.count(), sampler.sample(random.Random(1))
(1, [12, 3])
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from math import comb
from typing import NamedTuple

from tricktable.cards import cards_in, format_cards
from tricktable.errors import TricktableError


class Place(NamedTuple):
    """Where hidden cards may be: how many it takes, and the mask of cards it refuses."""

    size: int
    refuses: int = 0


#: how many cards of each class a place takes, the weights of those choices (cumulative)
#: and their total
_Options = tuple[list[tuple[int, ...]], list[int], int]


class PlaceSampler:
    """Deals the cards of ``pool`` to ``places``, uniformly among the deals every place accepts.

    Raises :class:`TricktableError` when no deal is possible (the sizes do not add up, or the
    refusals leave some card nowhere to go).
    """

    def __init__(self, pool: int, places: Sequence[Place]) -> None:
        self.pool = pool
        self.places = list(places)
        if sum(p.size for p in places) != pool.bit_count():
            raise TricktableError(
                f"cannot deal {pool.bit_count()} hidden cards to places of "
                f"{[p.size for p in places]} cards"
            )
        classes: dict[int, int] = {}
        for card in cards_in(pool):
            accepts = 0
            for i, place in enumerate(places):
                if not place.refuses >> card & 1:
                    accepts |= 1 << i
            if not accepts:
                raise TricktableError(f"no place may hold {format_cards(1 << card)}")
            classes[accepts] = classes.get(accepts, 0) | 1 << card
        #: the cards of each class, and the places (as bits) that accept them
        self.class_cards = [cards_in(mask) for mask in classes.values()]
        self.accepts = list(classes)
        # The largest place is filled last, with what is left: its choices are never listed.
        self.order = sorted(range(len(places)), key=lambda i: places[i].size)
        self._memo: dict[tuple[int, tuple[int, ...]], _Options] = {}
        self._start = tuple(len(cards) for cards in self.class_cards)
        if not self.count():
            raise TricktableError("no deal of the hidden cards respects what is known")

    def count(self) -> int:
        """How many deals respect every place (cards of a place as a set, not in order)."""
        return self._ways(0, self._start)

    def sample(self, rng: random.Random) -> list[int]:
        """One deal, as a mask per place (in the order the places were given)."""
        out = [0] * len(self.places)
        if not self.places:
            return out
        decks = []
        for cards in self.class_cards:
            deck = cards[:]
            rng.shuffle(deck)
            decks.append(deck)
        used = [0] * len(decks)
        left = self._start
        last = len(self.order) - 1
        for step in range(last):
            xs, cumulative, total = self._options(step, left)
            take = xs[bisect_right(cumulative, rng.randrange(total))]
            mask = 0
            for j, k in enumerate(take):
                if k:
                    for card in decks[j][used[j] : used[j] + k]:
                        mask |= 1 << card
                    used[j] += k
            out[self.order[step]] = mask
            left = tuple(n - k for n, k in zip(left, take, strict=True))
        mask = 0
        for j, deck in enumerate(decks):
            for card in deck[used[j] :]:
                mask |= 1 << card
        out[self.order[last]] = mask
        return out

    # ------------------------------------------------------------------------- counting

    def _ways(self, step: int, left: tuple[int, ...]) -> int:
        """Deals that fill the places from ``step`` on with the class counts ``left``."""
        if not self.order:
            return 1 if not sum(left) else 0
        if step == len(self.order) - 1:
            bit = 1 << self.order[step]
            fits = all(not n or self.accepts[j] & bit for j, n in enumerate(left))
            return 1 if fits and sum(left) == self.places[self.order[step]].size else 0
        return self._options(step, left)[2]

    def _options(self, step: int, left: tuple[int, ...]) -> _Options:
        key = (step, left)
        got = self._memo.get(key)
        if got is None:
            xs: list[tuple[int, ...]] = []
            cumulative: list[int] = []
            total = 0
            for take in self._takes(step, left):
                rest = tuple(n - k for n, k in zip(left, take, strict=True))
                ways = self._ways(step + 1, rest)
                if not ways:
                    continue
                for n, k in zip(left, take, strict=True):
                    if k:
                        ways *= comb(n, k)
                total += ways
                xs.append(take)
                cumulative.append(total)
            got = self._memo[key] = (xs, cumulative, total)
        return got

    def _takes(self, step: int, left: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        """Every way the place of ``step`` can take its size from the classes it accepts."""
        bit = 1 << self.order[step]
        size = self.places[self.order[step]].size
        limits = [n if self.accepts[j] & bit else 0 for j, n in enumerate(left)]
        take = [0] * len(left)

        def fill(j: int, need: int) -> Iterator[tuple[int, ...]]:
            if j == len(limits):
                if not need:
                    yield tuple(take)
                return
            if sum(limits[j:]) < need:
                return
            for k in range(min(limits[j], need), -1, -1):
                take[j] = k
                yield from fill(j + 1, need - k)
            take[j] = 0

        yield from fill(0, size)
