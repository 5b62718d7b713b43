"""Tests of what a seat knows (``tricktable.search.knowledge``): built hands, and the truth.

Built hands check each fact a game adds (voids, passes, the up-card, the lead rules); seeded
random matches of every game and variant check that the true state never contradicts what
any seat is said to know.
"""

from __future__ import annotations

import pytest

from helpers import VARIANTS, positions, run
from table_shapes import other_shapes
from tricktable.cards import CLUBS, HEARTS, SUIT_MASKS, mask_of, parse_card, parse_cards
from tricktable.engine.trick import TrickState
from tricktable.games import load_game, names
from tricktable.games.euchre import EUCHRE_DECK
from tricktable.games.hearts import POINT_CARDS
from tricktable.search import Knowledge
from tricktable.search.rules import unsupported

FULL = (1 << 52) - 1


def cards(text: str) -> int:
    return mask_of(parse_cards(text))


def dealt(spec: str, hands: list[str], dealer: int, stock: str = "") -> TrickState:
    state = load_game(spec).new_state(0)
    state.deal([cards(h) for h in hands], dealer=dealer, stock=parse_cards(stock) or None)
    return state


# ------------------------------------------------------------------------------ Setback

SETBACK_DEAL = [
    "AS KS 2S 3H 4H 5H",
    "QS 3S 7H 3D 4D 5D",
    "JS 4S 6H 8H 9H TH",
    "TS 5S 2C 3C 4C 5C",
]


def test_setback_voids_counts_and_unseen() -> None:
    state = dealt("setback", SETBACK_DEAL, dealer=3)
    run(state, "bid 2, pass, pass, pass, AS, 3S, 4S, 5S, 3H, 7H, 6H, 2C")
    k = Knowledge(state.view(0))
    assert k.voids == [0, 0, 0, SUIT_MASKS[HEARTS]]
    assert k.cannot == k.voids
    assert k.counts == [4, 4, 4, 4]
    assert k.hand == cards("KS 2S 4H 5H")
    assert k.played == cards("AS 3S 4S 5S 3H 7H 6H 2C")
    assert k.played_by[3] == cards("5S 2C")
    # Setback deals 24 of its 53 cards: every other card is unseen, the joker too.
    assert k.unseen == k.others == mask_of(range(53)) & ~k.played & ~k.hand
    assert k.shown_void(3, SUIT_MASKS[HEARTS]) and not k.shown_void(1, SUIT_MASKS[HEARTS])
    assert k.may_hold(3) == k.unseen & ~SUIT_MASKS[HEARTS]
    assert k.may_hold(0) == k.hand


def test_may_trump_shows_no_void() -> None:
    # setback-classic: may_trump. Trumping a heart lead says nothing of the hearts held.
    state = dealt("setback-classic", SETBACK_DEAL, dealer=3)
    run(state, "bid 2, pass, pass, pass, AS, 3S, 4S, 5S, 3H, QS, 6H, 2C")
    k = Knowledge(state.view(0))
    assert k.voids == [0, 0, 0, SUIT_MASKS[HEARTS]]
    assert state.hands[1] >> parse_card("7H") & 1


def test_a_joker_follows_trump() -> None:
    deal = ["AS KS 2S 3H 4H 5H", "JK 3S 7H 3D 4D 5D", "JS 4S 6H 8H 9H TH", "TS 5S 2C 3C 4C 5C"]
    state = dealt("setback", deal, dealer=3)
    run(state, "bid 2, pass, pass, pass, AS, JK, 4S, 5S")
    assert Knowledge(state.view(2)).voids == [0, 0, 0, 0]


# ------------------------------------------------------------------------------- Hearts

BY_SUIT = [" ".join(r + s for r in "23456789TJQKA") for s in "CDHS"]


def test_hearts_passes_are_known_to_the_passer() -> None:
    state = dealt("hearts", BY_SUIT, dealer=3)
    run(state, "pass KC QC AC")
    during = Knowledge(state.view(0))
    assert during.known == [cards(BY_SUIT[0]), 0, 0, 0]  # nothing moves before all passed
    run(state, "pass AD KD QD, pass AH KH QH, pass QS KS AS")
    k0 = Knowledge(state.view(0))
    assert k0.known[1] == cards("KC QC AC")
    assert k0.known[2] == k0.known[3] == 0
    assert k0.others == FULL & ~k0.hand
    assert k0.unseen == k0.others & ~cards("KC QC AC")
    # Seat 0 leads the first trick, so it holds the 2C: everyone knows.
    k2 = Knowledge(state.view(2))
    assert k2.known[0] == cards("2C")
    assert k2.known[3] == cards("AH KH QH")
    run(state, "2C, AC")
    k0 = Knowledge(state.view(0))
    assert k0.known[1] == cards("KC QC")  # the ace is played
    assert k0.known[0] == k0.hand


def test_hearts_led_unbroken_and_points_on_the_first_trick() -> None:
    hands = [
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AS",
        "AC 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
        "AD 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS",
        BY_SUIT[HEARTS],
    ]
    state = dealt("hearts(passing=none)", hands, dealer=3)
    run(state, "2C, AC, AD, 2H")  # seat 3 holds only points: a heart on the first trick
    k = Knowledge(state.view(0))
    assert k.voids[2] == k.voids[3] == SUIT_MASKS[CLUBS]
    assert k.cannot[3] == FULL & ~POINT_CARDS
    assert k.cannot[2] == SUIT_MASKS[CLUBS]

    hands = [
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AH",
        "AC 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
        BY_SUIT[1],
        BY_SUIT[3],
    ]
    state = dealt("hearts(passing=none)", hands, dealer=3)
    run(state, "2C, AC, 2D, 2S, 2H")  # seat 1 leads a heart, hearts unbroken
    k = Knowledge(state.view(0))
    assert k.cannot[1] == FULL & ~SUIT_MASKS[HEARTS]
    assert k.voids[1] == 0


# ------------------------------------------------------------------------------- Euchre

EUCHRE_HANDS = ["9H TH JH QH KH", "9D TD JD QD KD", "9C TC JC QC KC", "9S TS JS QS KS"]
EUCHRE_STOCK = "AH AD AC AS"


def euchre(actions: str) -> TrickState:
    state = dealt("euchre", EUCHRE_HANDS, dealer=3, stock=EUCHRE_STOCK)
    return run(state, actions)


def test_euchre_up_card_on_the_stock_is_dead() -> None:
    k = Knowledge(euchre("").view(0))
    assert k.dead == cards("AH")
    assert k.unseen == mask_of(EUCHRE_DECK) & ~k.hand & ~cards("AH")
    turned = Knowledge(euchre("pass, pass, pass, pass, trump D").view(2))
    assert turned.dead == cards("AH")


def test_euchre_up_card_with_the_dealer() -> None:
    state = euchre("order-up")
    k = Knowledge(state.view(1))
    assert k.known[3] == cards("AH") and k.counts[3] == 6
    run(state, "discard 9S")
    k = Knowledge(state.view(1))
    assert k.counts == [5, 5, 5, 5]
    assert k.known == [0, k.hand, 0, 0]
    # The up-card is with the dealer or is its discard: nobody else has it.
    assert [c >> parse_card("AH") & 1 for c in k.cannot] == [1, 1, 1, 0]
    assert k.unseen >> parse_card("AH") & 1
    dealer = Knowledge(state.view(3))
    assert dealer.dead == cards("9S")
    assert dealer.hand == cards("TS JS QS KS AH")


def test_euchre_left_bower_follows_trump() -> None:
    state = euchre("order-up, discard 9S, 9H, JD, 9C")
    k = Knowledge(state.view(3))
    assert k.voids[1] == 0  # JD is hearts' left bower: it follows a trump lead
    assert k.voids[2] == state.view(3).tables.mask  # a club on a trump lead: no trumps


def test_euchre_partner_of_the_dealer_alone_leaves_the_card() -> None:
    state = euchre("pass, order-up alone")
    assert Knowledge(state.view(0)).dead == cards("AH")


# --------------------------------------------------------------------- Oh Hell, Spades


def test_oh_hell_trump_card_is_dead() -> None:
    state = load_game("oh-hell(max_cards=3)").new_state(5)
    state.deal()
    k = Knowledge(state.view(0))
    assert k.dead == 1 << state.stock[0]
    assert k.counts == [3, 3, 3, 3]
    assert k.unseen.bit_count() == 52 - 3 - 1


def test_spades_blind_seat_knows_no_cards_of_its_own() -> None:
    state = load_game("spades(blind_nil_behind=0)").new_state(3)
    state.deal()
    seat = state.to_act
    k = Knowledge(state.view(seat))
    assert k.hand == 0 and k.counts == [13] * 4
    assert k.unseen == k.others == FULL
    assert k.may_hold(seat) == FULL


# ----------------------------------------------------------------- the truth, every game


@pytest.mark.parametrize("spec", names() + VARIANTS + other_shapes())
def test_the_truth_never_contradicts_knowledge(spec: str) -> None:
    if unsupported(load_game(spec)):
        pytest.skip(f"{spec}: the search has no hooks for its stock and hidden actions yet")
    checked = 0
    own = spec in names() or spec in VARIANTS
    for seed in range(5 if own else 2):  # another table size: fewer matches
        for state in positions(spec, seed, 3):
            hands = state.hands
            for seat in range(state.n):
                view = state.view(seat)
                k = Knowledge(view)
                blind = view.hand != hands[seat]  # Spades: not looked at yet
                assert k.hand == view.hand and k.played == view.played
                held = 0
                for s in range(state.n):
                    assert k.counts[s] == hands[s].bit_count()
                    assert not hands[s] & k.cannot[s], (spec, seed, seat, s)
                    assert not hands[s] & k.voids[s]
                    if s != seat or not blind:
                        assert not k.known[s] & ~hands[s]
                    if s != seat or blind:
                        assert not hands[s] & ~k.others
                    held |= hands[s]
                assert not k.dead & held
                assert not k.unseen & (k.hand | k.played | k.dead)
                checked += 1
    assert checked > (300 if own else 50)
