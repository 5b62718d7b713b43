"""Uniform random deals of hidden cards into places of known sizes, each refusing some cards.

The hidden cards of a position go to *places*: the other seats' hands, and piles that are in
no hand (Setback's undealt cards, Euchre's buried stock...). Each place takes a known number of
cards and refuses some (a seat's shown voids). :class:`PlaceSampler` draws one assignment
uniformly from every assignment that respects both — exactly, not by rejection:

- cards that the same places accept are interchangeable, so the cards fall into a few *classes*
  (at most one per set of accepting places, in practice one per suit or fewer);
- the assignments that fill the places from some class counts are counted by a memoized
  recursion over the places (smallest first), each way weighted by its binomials; the last two
  places need no recursion: cards both accept split between them in C(both, m) ways
  (Vandermonde's identity), whatever their classes;
- a sample walks the places in the same order, picking how many cards of each class a place
  takes in proportion to the assignments that choice leaves, then which cards, uniformly.

>>> import random
>>> sampler = PlaceSampler(0b1111, [Place(2, 0b0011), Place(2, 0)])
>>> sampler.count(), sampler.sample(random.Random(1))
(1, [12, 3])
>>> PlaceSampler(0b111111, [Place(2), Place(2), Place(2)]).count()  # 6! / (2! 2! 2!)
90
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from itertools import product
from math import comb, prod
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

#: the most combinations of class counts filtered at once rather than built one by one
_PRODUCT_LIMIT = 4096


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
        self.class_masks = list(classes.values())
        self.class_cards = [cards_in(mask) for mask in self.class_masks]
        self.accepts = list(classes)
        # Small places first: the large ones (a Setback's undealt cards) come last, where the
        # split needs no listing of choices.
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
        order = self.order
        if not order:
            return out
        decks = [cards[:] for cards in self.class_cards]
        used = [0] * len(decks)
        left = self._start
        rest = self.pool
        for step in range(len(order) - 2):
            xs, cumulative, total = self._options(step, left)
            take = xs[bisect_right(cumulative, rng.randrange(total))] if len(xs) > 1 else xs[0]
            mask = 0
            for j, k in enumerate(take):
                if k:
                    deck = decks[j]
                    mask |= _draw(deck, used[j], k, rng)
                    used[j] += k
            out[order[step]] = mask
            rest &= ~mask
            left = tuple(n - k for n, k in zip(left, take, strict=True))
        if len(order) == 1:
            out[order[0]] = rest
            return out
        # The last two places: the cards only the first accepts go there, and enough of
        # those both accept, drawn uniformly; the second takes what is left.
        first, second = order[-2], order[-1]
        bit, both_bit = 1 << first, 1 << first | 1 << second
        forced = both = 0
        for j, accepts in enumerate(self.accepts):
            if accepts & both_bit == both_bit:
                both |= self.class_masks[j]
            elif accepts & bit:
                forced |= self.class_masks[j]
        forced &= rest
        shared = cards_in(both & rest)
        mask = forced | _draw(shared, 0, self.places[first].size - forced.bit_count(), rng)
        out[first] = mask
        out[second] = rest & ~mask
        return out

    # ------------------------------------------------------------------------- counting

    def _ways(self, step: int, left: tuple[int, ...]) -> int:
        """Deals that fill the places from ``step`` on with the class counts ``left``."""
        last = len(self.order) - 1
        if last < 0:
            return 0 if sum(left) else 1
        if step == last:
            bit = 1 << self.order[step]
            return 0 if any(n and not self.accepts[j] & bit for j, n in enumerate(left)) else 1
        if step == last - 1:
            return self._split(step, left)
        return self._options(step, left)[2]

    def _split(self, step: int, left: tuple[int, ...]) -> int:
        """Deals of the counts ``left`` to the last two places: one binomial."""
        first, second = self.order[step], self.order[step + 1]
        both = forced = 0
        for j, n in enumerate(left):
            if n:
                accepts = self.accepts[j]
                if accepts >> first & 1 and accepts >> second & 1:
                    both += n
                elif accepts >> first & 1:
                    forced += n
                elif not accepts >> second & 1:
                    return 0
        need = self.places[first].size - forced
        return comb(both, need) if 0 <= need <= both else 0

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
        limits = [min(n, size) if self.accepts[j] & bit else 0 for j, n in enumerate(left)]
        if prod(n + 1 for n in limits) <= _PRODUCT_LIMIT:
            ranges = [range(n + 1) for n in limits]
            yield from (take for take in product(*ranges) if sum(take) == size)
            return
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


def _draw(deck: list[int], start: int, k: int, rng: random.Random) -> int:
    """``k`` cards drawn uniformly from ``deck[start:]`` (moved to its front), as a mask.

    A partial Fisher-Yates: ``k`` draws, not a shuffle of the whole deck.
    """
    rnd = rng.random
    size = len(deck)
    mask = 0
    for i in range(start, start + k):
        r = i + int(rnd() * (size - i))
        card = deck[r]
        deck[r] = deck[i]
        deck[i] = card
        mask |= 1 << card
    return mask
