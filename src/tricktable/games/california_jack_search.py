"""What a seat's search may know of a California Jack hand, and how it samples the hidden cards.

The hooks of :mod:`tricktable.search.rules` for
:class:`~tricktable.games.california_jack.CaliforniaJack`: every seat holds as many cards as
the others at a trick's start (six while the stock lasts); the stock's top card, while every
seat sees it, is in no hand; a void shown before a draw is no void after it (the draw may
bring the suit back); the rest of the stock is hidden.

What all saw taken is known: the views' ``taken`` facts list, by seat and in the order drawn,
every card drawn from a face-up stock (California Jack) and the trump card turned on a
face-down one (Shasta Sam), which its taker holds until it plays it. From a face-up stock
every card a seat drew is known, so a card of a suit it showed it lacked, at any trick, can be
in its hand only if it was seen drawn.

A sampled world splits each seat's cards (those it holds and those it played) into its first
six and one draw after each trick the stock lasted: the draws all saw, in their places; the
others each in time for the trick it was played to and never held through a trick where its
seat showed it had none of its suit. Replaying the hand's actions then draws the cards again
exactly.

Registered when a :class:`CaliforniaJack` game is made (the search's rules import the games,
so a game module cannot import them at its own import).
"""

from __future__ import annotations

import random

from tricktable.cards import cards_in, parse_card
from tricktable.engine.trick import View
from tricktable.errors import TricktableError
from tricktable.games.california_jack import DEAL_SIZE, FOLLOW, OR_TRUMP, CaliforniaJack
from tricktable.search.knowledge import Knowledge
from tricktable.search.rules import Rebuilt, SearchRules, register
from tricktable.search.sampling import Place

#: the trick a card still held will be played to: after every trick
_LATER = 1 << 20


def _top(view: View) -> int:
    """The stock's top card if every seat sees it, else -1."""
    name = view.info().get("stock_top")
    return parse_card(name) if isinstance(name, str) else -1


def _draws(view: View) -> int:
    """How many times the seats have drawn this hand (once after each trick the stock lasted)."""
    game = view.game
    rounds = (len(game.deck) - DEAL_SIZE * game.num_players) // game.num_players
    return min(len(view.tricks), rounds)


def _taken(view: View) -> list[list[int]]:
    """By seat, the cards it took from the stock while every seat saw them, in draw order."""
    taken = view.info().get("taken")
    if not isinstance(taken, list):
        return [[] for _ in range(view.game.num_players)]
    return [[parse_card(name) for name in cards] for cards in taken]


def _plays(view: View) -> list[tuple[int, int, int]]:
    """This hand's cards as (trick number, seat, card), in play order."""
    n = view.game.num_players
    return [(i // n, seat, card) for i, (seat, card) in enumerate(view.actions)]


def _shown_voids(view: View) -> list[tuple[int, int, int]]:
    """(trick, seat, the cards it showed it lacked) for each card played that did not follow."""
    game = view.game
    assert isinstance(game, CaliforniaJack)
    tables = view.tables
    rule = game.play_rule
    out = []
    led = led_trick = -1
    for trick, seat, card in _plays(view):
        if trick != led_trick:
            led, led_trick = card, trick
            continue
        follow = tables.suit_mask[led]
        if follow >> card & 1:
            continue
        if tables.mask >> card & 1:
            if rule == FOLLOW:
                out.append((trick, seat, follow))
            continue
        out.append((trick, seat, follow | (tables.mask if rule == OR_TRUMP else 0)))
    return out


@register(CaliforniaJack)
class CaliforniaJackRules(SearchRules):
    """California Jack: the hands refill from the stock; its seen top card is in no hand."""

    # A void shown before a draw bounds how many of that suit came in since, which the
    # sampler's places cannot say: some worlds drawn are refused and drawn again.
    exact = False

    def deal_size(self, view: View) -> int:
        return DEAL_SIZE

    def note(self, view: View, k: Knowledge) -> None:
        n = view.game.num_players
        in_trick = 0
        for seat, _card in view.trick:
            in_trick |= 1 << seat
        held = view.hand.bit_count() + (in_trick >> view.seat & 1)  # each, at the trick's start
        for s in range(n):
            k.counts[s] = held - (in_trick >> s & 1)
        # Only a void shown since the last draw still holds.
        since = _draws(view)
        voids = [0] * n
        for trick, seat, lacked in _shown_voids(view):
            if trick >= since:
                voids[seat] |= lacked
        k.voids = voids
        k.cannot = list(voids)
        for s, cards in enumerate(_taken(view)):
            if s != view.seat:
                for card in cards:
                    k.known[s] |= 1 << card & ~k.played
        game = view.game
        assert isinstance(game, CaliforniaJack)
        if game.options.stock == "up":
            # Every card drawn is known: an unseen card was dealt, and held through every
            # trick since, where its seat may have shown it had none of its suit.
            for _trick, seat, lacked in _shown_voids(view):
                k.cannot[seat] |= lacked & ~k.known[seat]
        top = _top(view)
        if top >= 0:
            k.dead |= 1 << top

    def piles(self, view: View, k: Knowledge) -> list[Place]:
        left = int(view.info().get("stock_left") or 0) - (_top(view) >= 0)
        return [Place(left)] if left > 0 else []

    def rebuild(
        self, view: View, k: Knowledge, hands: list[int], piles: list[int], rng: random.Random
    ) -> Rebuilt:
        game = view.game
        n, step = game.num_players, game.step % game.num_players
        draws = _draws(view)
        played_at: dict[int, int] = {}
        for trick, _seat, card in _plays(view):
            played_at[card] = trick
        # A card may come no later than the trick before it is played (slot -1: the deal),
        # and not before a trick where its seat showed it had none of its suit.
        low: dict[int, int] = {}
        for trick, seat, lacked in _shown_voids(view):
            for card in cards_in((hands[seat] | k.played_by[seat]) & lacked):
                if played_at.get(card, _LATER) > trick:
                    low[card] = max(low.get(card, -1), trick)
        tricks = view.tricks
        taken = _taken(view)
        dealt = [0] * n
        drawn: list[list[int]] = []
        for s in range(n):
            cards = cards_in(hands[s] | k.played_by[s])
            if len(cards) != DEAL_SIZE + draws:
                raise TricktableError("the holding does not make a deal and its draws")
            window = {
                c: (low.get(c, -1), min(played_at.get(c, _LATER) - 1, draws - 1)) for c in cards
            }
            # The draws all saw are in their places (the first: the trump card turned).
            slots = [-1] * draws
            for slot, card in enumerate(taken[s][:draws]):
                if window.pop(card, None) is None:
                    raise TricktableError("a seat does not hold a card all saw it take")
                slots[slot] = card
            dealt[s], slots = _schedule(window, slots, rng)
            drawn.append(slots)
        stock = []
        for trick in range(draws):
            seat = tricks[trick][2]
            for _ in range(n):
                stock.append(drawn[seat][trick])
                seat = (seat + step) % n
        top = _top(view)
        if top >= 0:
            stock.append(top)
        rest = cards_in(piles[0]) if piles else []
        rng.shuffle(rest)
        return dealt, stock + rest, [action for _seat, action in view.actions]


def _schedule(
    window: dict[int, tuple[int, int]], slots: list[int], rng: random.Random
) -> tuple[int, list[int]]:
    """Six cards for the deal (slot -1) and one for each draw not yet filled, each card in its
    window of slots: earliest deadline first, ties at random. Raises when none fits."""
    order = sorted(window, key=lambda c: (window[c][1], rng.random()))
    dealt = 0
    taken = 0
    for card in list(order):
        if taken == DEAL_SIZE:
            break
        if window[card][0] < 0:
            dealt |= 1 << card
            taken += 1
            order.remove(card)
    if taken != DEAL_SIZE:
        raise TricktableError("no deal fits the cards' windows")
    for slot in range(len(slots)):
        if slots[slot] >= 0:
            continue
        for card in order:
            lo, hi = window[card]
            if lo <= slot:
                if hi < slot:
                    raise TricktableError("a card comes too late for its trick")
                slots[slot] = card
                order.remove(card)
                break
        else:
            raise TricktableError("no card fits a draw")
    return dealt, slots
