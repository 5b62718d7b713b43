"""What a seat's search may know of a California Jack hand, and how it samples the hidden cards.

The hooks of :mod:`tricktable.search.rules` for
:class:`~tricktable.games.california_jack.CaliforniaJack`: every seat holds as many cards as
the others at a trick's start (six while the stock lasts); the stock's top card, while every
seat sees it, is in no hand; a void shown before a draw is no void after it (the draw may
bring the suit back); the rest of the stock is hidden.

A sampled world splits each seat's cards (those it holds and those it played) into its first
six and one draw after each trick the stock lasted, each card in time for the trick it was
played to and never held through a trick where its seat showed it had none of its suit; the
first card drawn, the one turned for trump, is a trump drawn by the first trick's winner.
Replaying the hand's actions then draws the cards again exactly. The views tell no past
draw, so none is placed by what was seen.

Registered when a :class:`CaliforniaJack` game is made (the search's rules import the games,
so a game module cannot import them at its own import).
"""

from __future__ import annotations

import random

from tricktable.cards import SUIT_MASKS, cards_in, parse_card
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
        first = tricks[0][2] if draws else -1
        trumps = SUIT_MASKS[view.trump]
        dealt = [0] * n
        drawn: list[list[int]] = []
        for s in range(n):
            cards = cards_in(hands[s] | k.played_by[s])
            if len(cards) != DEAL_SIZE + draws:
                raise TricktableError("the holding does not make a deal and its draws")
            window = {
                c: (low.get(c, -1), min(played_at.get(c, _LATER) - 1, draws - 1)) for c in cards
            }
            slots = [-1] * draws
            if s == first:
                turned = [c for c in cards if trumps >> c & 1 and window[c][0] <= 0 <= window[c][1]]
                if not turned:
                    raise TricktableError("the first trick's winner drew no trump")
                card = rng.choice(turned)
                slots[0] = card
                del window[card]
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
