"""Tests of every rule of RULES.md that the Setback state enforces: table, deal, auction, play.

Each test builds a state from card text (the ``make_state`` fixture of conftest) and applies
action texts, so a failing case reads like a hand at the table. Scoring of whole hands and the
end of the match are here too; the pure scoring functions are in ``test_scoring.py``.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from tricktable.cards import (
    JOKER,
    SPADES,
    SUIT_MASKS,
    SUITS,
    card_name,
    cards_in,
    mask_of,
    parse_card,
    parse_cards,
)
from tricktable.engine import actions as act
from tricktable.engine.trick import AUCTION, OVER, PLAY, TrickState
from tricktable.errors import IllegalAction, TricktableError
from tricktable.games import load_game
from tricktable.games.setback import SetbackState
from tricktable.games.setback_results import SetbackResult

MakeState = Callable[..., SetbackState]
Apply = Callable[..., SetbackState]

#: seat 0 holds the five top spades and the joker; the others one low suit each
SWEEP = ["AS KS QS JS TS JK", "2H 3H 4H 5H 6H 7H", "2D 3D 4D 5D 6D 7D", "2C 3C 4C 5C 6C 7C"]
#: nothing above a nine and no joker: only High and Low can be won, Game is a 0-0 tie
LOW_CARDS = ["9S 2H 3H 4H 5H 6H", "2S 7H 8H 9H 2D 3D", "4D 5D 6D 7D 8D 9D", "2C 3C 4C 5C 6C 7C"]


def names(state: SetbackState) -> list[str]:
    """The legal actions of the seat to act, as text."""
    return [state.game.action_name(a) for a in state.legal_actions()]


def play_out(state: TrickState) -> TrickState:
    """Finish the hand in progress, always taking the lowest legal action."""
    while state.to_act >= 0:
        state.apply(state.legal_actions()[0])
    return state


def last_result(state: TrickState) -> SetbackResult:
    """The last hand's result, checked to be Setback's."""
    result = state.results[-1]
    assert isinstance(result, SetbackResult)
    return result


def hand_of(state: SetbackState, seat: int) -> set[str]:
    """The cards a seat holds now, as canonical names."""
    return {card_name(c) for c in cards_in(state.hands[seat])}


# ------------------------------------------------------------------------------ table, deal


def test_first_dealer_comes_from_the_seed() -> None:
    game = load_game("setback")
    for seed in range(20):
        assert game.new_state(seed).dealer == game.new_state(seed).dealer
    # the seed really decides it: every seat deals first for some seed
    assert {game.new_state(seed).dealer for seed in range(100)} == {0, 1, 2, 3}
    assert 0 <= game.new_state(None).dealer < 4


def test_random_deal_is_six_cards_each_from_53_and_repeats_with_the_seed() -> None:
    game = load_game("setback")
    a, b = game.new_state(99), game.new_state(99)
    a.deal()
    b.deal()
    assert a.hands == b.hands and a.dealt == a.hands
    assert all(m.bit_count() == 6 for m in a.hands)
    union = 0
    for m in a.hands:
        assert not union & m, "a card was dealt twice"
        union |= m
    assert union.bit_count() == 24
    assert not union >> 53, "only the 52 cards and the joker are dealt"
    # over many deals the joker does turn up (the deck has 53 cards)
    seen = 0
    for seed in range(40):
        state = game.new_state(seed)
        state.deal()
        for m in state.hands:
            seen |= m
    assert seen >> JOKER & 1


def test_deal_passes_to_the_left_after_every_hand(make_state: MakeState) -> None:
    state = make_state(LOW_CARDS, dealer=2)
    dealers = [state.dealer]
    for _ in range(5):
        play_out(state)
        assert state.needs_deal
        state.deal()
        dealers.append(state.dealer)
    assert dealers == [2, 3, 0, 1, 2, 3]
    assert [log.dealer for log in state.history] == dealers


def test_deal_while_a_hand_is_in_play_is_an_error(make_state: MakeState) -> None:
    state = make_state(SWEEP, dealer=0)
    with pytest.raises(TricktableError, match="cannot deal now"):
        state.deal()


def test_partnerships() -> None:
    game = load_game("setback")
    assert [game.team_of(s) for s in range(4)] == [0, 1, 0, 1]


# ---------------------------------------------------------------------------------- auction


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_auction_goes_once_around_from_left_of_dealer_and_ends_with_dealer(
    make_state: MakeState, dealer: int
) -> None:
    state = make_state(SWEEP, dealer=dealer)
    assert state.phase == AUCTION
    order = []
    while state.phase == AUCTION:
        order.append(state.to_act)
        state.apply(act.PASS)
    assert order == [(dealer + i) % 4 for i in (1, 2, 3, 4)]
    assert state.phase == PLAY


@pytest.mark.parametrize(("options", "bid"), [("", 2), ("min_bid=3", 3), ("min_bid=2", 2)])
@pytest.mark.parametrize("dealer", [0, 3])
def test_stuck_dealer_declares_at_the_minimum_bid(
    make_state: MakeState, apply_actions: Apply, options: str, bid: int, dealer: int
) -> None:
    state = apply_actions(make_state(SWEEP, dealer, options), "pass,pass,pass,pass")
    assert (state.declarer, state.bid) == (dealer, bid)
    assert state.phase == PLAY
    assert state.to_act == dealer, "the declarer leads the first trick"


def test_dealer_may_bid_after_three_passes(make_state: MakeState, apply_actions: Apply) -> None:
    state = apply_actions(make_state(SWEEP, 1), "pass,pass,pass")
    assert state.to_act == 1
    assert names(state) == ["pass", "bid 2", "bid 3", "bid 4", "bid 5", "bid 6"]
    apply_actions(state, "bid 4")
    assert (state.declarer, state.bid, state.to_act) == (1, 4, 1)


@pytest.mark.parametrize(
    ("dealer", "before", "bidder"),
    [(3, "", 0), (3, "pass", 1), (3, "bid 2,bid 3", 2), (0, "pass,pass", 3), (2, "bid 5", 0)],
)
def test_a_bid_of_6_ends_the_auction_at_once(
    make_state: MakeState, apply_actions: Apply, dealer: int, before: str, bidder: int
) -> None:
    state = apply_actions(make_state(SWEEP, dealer), before)
    assert state.to_act == bidder
    apply_actions(state, "bid 6")
    assert state.phase == PLAY
    assert (state.declarer, state.bid) == (bidder, 6)
    assert state.to_act == bidder
    assert len(state.actions) == len([a for a in before.split(",") if a]) + 1
    with pytest.raises(IllegalAction, match="must play a card, the auction is over"):
        state.apply(act.PASS)


def test_max_bid_5_ends_the_auction_at_5(make_state: MakeState, apply_actions: Apply) -> None:
    state = make_state(SWEEP, 3, "max_bid=5")
    assert names(state) == ["pass", "bid 2", "bid 3", "bid 4", "bid 5"]
    with pytest.raises(IllegalAction, match="must bid from 2 to 5"):
        state.apply(act.bid(6))
    apply_actions(state, "pass,bid 5")
    assert (state.phase, state.declarer, state.bid) == (PLAY, 1, 5)


def test_max_bid_6_does_not_end_the_auction_at_5(
    make_state: MakeState, apply_actions: Apply
) -> None:
    state = apply_actions(make_state(SWEEP, 3, "max_bid=6"), "pass,bid 5")
    assert state.phase == AUCTION
    assert names(state) == ["pass", "bid 6"]


@pytest.mark.parametrize(
    ("options", "before", "legal"),
    [
        ("", "", "pass,bid 2,bid 3,bid 4,bid 5,bid 6"),
        ("", "bid 2", "pass,bid 3,bid 4,bid 5,bid 6"),
        ("", "bid 4", "pass,bid 5,bid 6"),
        ("", "bid 5", "pass,bid 6"),
        ("", "bid 3,pass", "pass,bid 4,bid 5,bid 6"),
        ("", "pass,pass,pass", "pass,bid 2,bid 3,bid 4,bid 5,bid 6"),
        ("min_bid=3", "", "pass,bid 3,bid 4,bid 5,bid 6"),
        ("min_bid=4,max_bid=5", "", "pass,bid 4,bid 5"),
        ("max_bid=4", "bid 3", "pass,bid 4"),
    ],
)
def test_legal_bids(
    make_state: MakeState, apply_actions: Apply, options: str, before: str, legal: str
) -> None:
    state = apply_actions(make_state(SWEEP, 3, options), before)
    assert names(state) == legal.split(",")


@pytest.mark.parametrize(
    ("before", "bid", "message"),
    [
        ("bid 3", "bid 3", "seat 1 must bid more than the high bid of 3; 'bid 3' is not legal"),
        ("bid 3", "bid 2", "seat 1 must bid more than the high bid of 3; 'bid 2' is not legal"),
        (
            "bid 5,pass",
            "bid 4",
            "seat 2 must bid more than the high bid of 5; 'bid 4' is not legal",
        ),
        ("", "bid 1", "seat 0 must bid from 2 to 6; 'bid 1' is not legal"),
        ("", "bid 7", "seat 0 must bid from 2 to 6; 'bid 7' is not legal"),
        ("", "bid 0", "seat 0 must bid from 2 to 6; 'bid 0' is not legal"),
        ("", "play AS", "seat 0 must bid or pass during the auction; 'play AS' is not legal"),
    ],
)
def test_a_bid_not_above_the_high_bid_is_illegal(
    make_state: MakeState, apply_actions: Apply, before: str, bid: str, message: str
) -> None:
    state = apply_actions(make_state(SWEEP, 3), before)
    actions_before = list(state.actions)
    with pytest.raises(IllegalAction) as info:
        apply_actions(state, bid)
    assert str(info.value) == message
    assert info.value.seat == state.to_act
    assert info.value.action == bid
    assert state.actions == actions_before, "an illegal action changes nothing"


def test_highest_bidder_declares(make_state: MakeState, apply_actions: Apply) -> None:
    state = apply_actions(make_state(SWEEP, 0), "bid 2,pass,bid 4")
    assert (state.high_bid, state.high_bidder) == (4, 3)
    assert state.view(1).info()["high_bid"] == 4
    apply_actions(state, "pass")
    assert (state.declarer, state.bid, state.to_act) == (3, 4, 3)
    assert state.declarer & 1 == 1, "the declaring partnership is seats 1 and 3"


# ------------------------------------------------------------------------------------- play


def test_declarer_leads_and_the_first_card_names_trump(
    make_state: MakeState, apply_actions: Apply
) -> None:
    state = apply_actions(make_state(LOW_CARDS, 0), "pass,bid 3,pass,pass")
    assert state.to_act == 2 and state.trump == -1
    assert state.view(0).trump == -1
    apply_actions(state, "play 6D")
    assert state.trump == SUITS.index("D")
    assert state.view(3).to_dict()["trump"] == "D"
    assert state.to_act == 3


@pytest.mark.parametrize("lead", ["AS", "KS", "QS", "JS", "TS"])
def test_joker_cannot_open_a_trick_while_other_cards_remain(
    make_state: MakeState, apply_actions: Apply, lead: str
) -> None:
    state = apply_actions(make_state(SWEEP, 3), "bid 2,pass,pass,pass")
    assert "play JK" not in names(state)
    with pytest.raises(IllegalAction) as info:
        apply_actions(state, "play JK")
    assert str(info.value) == (
        "seat 0 may not lead the joker while holding other cards; 'play JK' is not legal"
    )
    # nor later in the hand, while it holds another card
    apply_actions(state, f"play {lead}")
    play_out_trick(state)
    assert state.to_act == 0
    assert "play JK" not in names(state)


def play_out_trick(state: SetbackState) -> None:
    """Play the lowest legal card until the current trick is complete."""
    while state.trick:
        state.apply(state.legal_actions()[0])


def test_joker_can_open_the_last_trick(make_state: MakeState, apply_actions: Apply) -> None:
    state = apply_actions(make_state(SWEEP, 3), "bid 2,pass,pass,pass")
    for lead in ["AS", "KS", "QS", "JS", "TS"]:
        apply_actions(state, f"play {lead}")
        play_out_trick(state)
        assert state.to_act == 0
    assert hand_of(state, 0) == {"JK"}
    assert names(state) == ["play JK"]
    apply_actions(state, "play JK")
    play_out_trick(state)
    assert state.tricks[-1][0] == 0 and state.tricks[-1][2] == 0
    assert state.needs_deal


#: two jokers, two cards each: seat 0 holds nothing but the jokers
ONLY_JOKERS = ["JK JL", "AS 2H", "KD 3C", "QH 4S"]


@pytest.mark.parametrize("joker_lead", ["last", "any"])
@pytest.mark.parametrize(
    ("dealer", "auction"),
    [(3, "bid 2,pass,pass,pass"), (0, "pass,pass,pass,pass"), (1, "bid 2,pass,bid 3,pass")],
)
def test_a_declarer_holding_only_jokers_throws_the_deal_in(
    apply_actions: Apply, joker_lead: str, dealer: int, auction: str
) -> None:
    """The first lead names trump and a joker names none: the deal is thrown in, not crashed."""
    game = load_game(f"setback(jokers=2,hand_size=2,joker_lead={joker_lead})")
    state = game.new_state(0)
    assert isinstance(state, SetbackState)
    state.deal([mask_of(parse_cards(text)) for text in ONLY_JOKERS], dealer=dealer)
    apply_actions(state, auction)  # seat 0 ends the auction as the declarer
    assert state.needs_deal and state.to_act == -1
    assert state.scores == [0, 0] and len(state.results) == 1
    state.deal()
    assert state.dealer == (dealer + 1) % 4


def test_random_play_with_two_jokers_and_two_cards_each() -> None:
    for joker_lead in ("last", "any"):
        game = load_game(f"setback(jokers=2,hand_size=2,joker_lead={joker_lead},may_trump=true)")
        for seed in range(20):
            state = game.new_state(seed)
            rng = random.Random(seed)
            for _ in range(100):
                if state.is_over:
                    break
                state.deal()
                while state.to_act >= 0:
                    state.apply(rng.choice(state.legal_actions()))


def test_joker_must_follow_a_trump_lead_when_it_is_the_only_trump(
    make_state: MakeState, apply_actions: Apply
) -> None:
    deal = ["AS 2H 3H 4H 5H 6H", "JK 7H 8H 9H 2D 3D", "4D 5D 6D 7D 8D 9D", "2C 3C 4C 5C 6C 7C"]
    state = apply_actions(make_state(deal, 3), "bid 2,pass,pass,pass,play AS")
    assert state.to_act == 1
    assert names(state) == ["play JK"]
    with pytest.raises(IllegalAction) as info:
        apply_actions(state, "play 7H")
    assert str(info.value) == "seat 1 must follow suit S; 'play 7H' is not legal"


def test_joker_or_a_trump_may_follow_a_trump_lead(
    make_state: MakeState, apply_actions: Apply
) -> None:
    deal = ["AS 2H 3H 4H 5H 6H", "JK 2S 8H 9H 2D 3D", "4D 5D 6D 7D 8D 9D", "2C 3C 4C 5C 6C 7C"]
    state = apply_actions(make_state(deal, 3), "bid 2,pass,pass,pass,play AS")
    assert sorted(names(state)) == ["play 2S", "play JK"]


def test_joker_may_not_be_played_on_another_suit_when_one_can_follow(
    make_state: MakeState, apply_actions: Apply
) -> None:
    deal = ["AS 2H 3H 4H 5H 6H", "JK 2S 8H 9H 2D 3D", "4D 5D 6D 7D 8D 9D", "2C 3C 4C 5C 6C 7C"]
    state = apply_actions(make_state(deal, 3), "bid 2,pass,pass,pass,play AS,play 2S")
    play_out_trick(state)
    apply_actions(state, "play 2H")  # seat 0 won with AS and leads a heart
    assert sorted(names(state)) == ["play 8H", "play 9H"]
    with pytest.raises(IllegalAction, match="seat 1 must follow suit H; 'play JK' is not legal"):
        apply_actions(state, "play JK")


def test_off_jack_follows_its_own_suit(make_state: MakeState, apply_actions: Apply) -> None:
    # trump hearts: the jack of diamonds is the off-jack, and stays a diamond
    deal = ["2H AD KD 2S 3S 4S", "JD 5D 2C 3C 4C 5C", "6C 7C 8C 9C TC QC", "5S 6S 7S 8S 9S TS"]
    state = apply_actions(make_state(deal, 3), "bid 2,pass,pass,pass,play 2H")
    # seat 1 holds no heart: the off-jack does not have to follow the trump lead
    assert sorted(names(state)) == sorted(f"play {c}" for c in deal[1].split())
    apply_actions(state, "play JD")
    play_out_trick(state)
    assert state.tricks[-1][2] == 0, "the off-jack is no trump: 2H wins"
    # on a diamond lead the off-jack must follow as a diamond
    apply_actions(state, "play AD")
    assert names(state) == ["play 5D"]
    apply_actions(state, "play 5D")
    play_out_trick(state)
    assert state.tricks[-1][2] == 0


def test_off_jack_must_follow_its_own_suit_and_loses_to_higher_cards_of_it(
    make_state: MakeState, apply_actions: Apply
) -> None:
    deal = ["2H 3H KD 2S 3S 4S", "JD 2C 3C 4C 5C 6C", "QD 7C 8C 9C TC QC", "5S 6S 7S 8S 9S TS"]
    state = apply_actions(make_state(deal, 3), "bid 2,pass,pass,pass,play 2H")
    play_out_trick(state)
    assert state.tricks[-1][2] == 0
    apply_actions(state, "play 3H")
    play_out_trick(state)
    apply_actions(state, "play KD")
    assert names(state) == ["play JD"], "seat 1 must follow diamonds with its off-jack"
    assert hand_of(state, 1) == {"JD", "4C", "5C", "6C"}
    with pytest.raises(IllegalAction, match="seat 1 must follow suit D; 'play 4C' is not legal"):
        apply_actions(state, "play 4C")
    apply_actions(state, "play JD,play QD,play 7S")
    assert state.tricks[-1][2] == 0, "the king of diamonds beats the off-jack, no trump"


@pytest.mark.parametrize(
    ("trick", "winner"),
    [
        # trump is spades; seat 0 leads, then seats 1, 2, 3
        ("KH 2H AH 3H", 2),  # highest of the suit led
        ("2H AC AD 3H", 3),  # other suits never win
        ("KH AC 2H 3H", 0),
        ("KH 5S AH 3H", 1),  # a trump beats the suit led
        ("KH 5S 6S 3H", 2),  # highest trump
        ("KH JK 6S 3H", 1),  # the joker is a trump
        ("KH JK TS 3H", 1),  # the joker beats the ten
        ("KH JK JS 3H", 2),  # and loses to the jack of trump
        ("KH JK QS 9S", 2),
        ("TS JK 9S 8S", 1),
        ("JS JK 9S 8S", 0),
        ("5S JK 6S 7S", 1),
        ("QS JK KS 9S", 2),
        ("5S JC 6H 7H", 0),  # the off-jack is no trump
        ("JC 2D QC KH", 2),  # the off-jack led is a club: the queen of clubs beats it
        ("2D JC 3D 4H", 2),  # the off-jack on a diamond lead counts for nothing
        ("2D JC 3D 5S", 3),
        ("TC JC QC KC", 3),
    ],
)
def test_trick_won_by_highest_trump_or_highest_of_suit_led(
    make_state: MakeState, apply_actions: Apply, trick: str, winner: int
) -> None:
    cards = trick.split()
    first = ["AS", "2S", "3S", "4S"]  # seat 0 wins the first trick and names spades trump
    lead = parse_card(cards[0])
    follow = SUIT_MASKS[3] | 1 << JOKER if cards[0].endswith("S") else SUIT_MASKS[lead // 13]
    used = mask_of(parse_cards(first + cards))
    fillers = [c for c in range(52) if not (SUIT_MASKS[3] | follow | used) >> c & 1]
    deal = [
        " ".join([first[s], cards[s], *map(card_name, fillers[4 * s : 4 * s + 4])])
        for s in range(4)
    ]
    state = apply_actions(make_state(deal, 3), "bid 2,pass,pass,pass")
    apply_actions(state, [f"play {c}" for c in first])
    assert state.trump == 3 and state.to_act == 0
    apply_actions(state, [f"play {c}" for c in cards])
    assert state.tricks[-1] == (0, tuple(parse_cards(cards)), winner)
    assert state.to_act == winner, "the winner leads the next trick"
    assert state.tricks_won[winner] == 1 + (winner == 0)
    assert state.won[winner] & mask_of(parse_cards(cards)) == mask_of(parse_cards(cards))


def test_strict_follow_no_trumping_when_able_to_follow(
    make_state: MakeState, apply_actions: Apply
) -> None:
    deal = ["AS KH 2D 3D 4D 5D", "2S 2H 3S 6D 7D 8D", "4S 3H 9D TD JD QD", "5S 4H 2C 3C 4C 5C"]
    state = apply_actions(make_state(deal, 3), "bid 2,pass,pass,pass,play AS")
    play_out_trick(state)
    apply_actions(state, "play KH")
    assert names(state) == ["play 2H"]
    with pytest.raises(IllegalAction) as info:
        apply_actions(state, "play 3S")
    assert str(info.value) == "seat 1 must follow suit H; 'play 3S' is not legal"
    assert (info.value.seat, info.value.action) == (1, "play 3S")


def test_void_player_may_play_any_card(make_state: MakeState, apply_actions: Apply) -> None:
    deal = ["AS KH 2D 3D 4D 5D", "2S 3S 6S 6D 7D 8D", "4S 3H 9D TD JD QD", "5S 4H 2C 3C 4C 5C"]
    state = apply_actions(make_state(deal, 3), "bid 2,pass,pass,pass,play AS,play 2S")
    play_out_trick(state)
    apply_actions(state, "play KH")
    assert sorted(names(state)) == ["play 3S", "play 6D", "play 6S", "play 7D", "play 8D"]


@pytest.mark.parametrize(
    ("actions", "message"),
    [
        ("play 2H", "seat 0 does not hold 2H; 'play 2H' is not legal"),
        ("play AS,play 2S", "seat 1 does not hold 2S; 'play 2S' is not legal"),
        ("pass", "seat 0 must play a card, the auction is over; 'pass' is not legal"),
        ("bid 3", "seat 0 must play a card, the auction is over; 'bid 3' is not legal"),
    ],
)
def test_illegal_play_messages_name_seat_and_reason(
    make_state: MakeState, apply_actions: Apply, actions: str, message: str
) -> None:
    state = apply_actions(make_state(SWEEP, 3), "bid 2,pass,pass,pass")
    with pytest.raises(IllegalAction) as info:
        apply_actions(state, actions)
    assert str(info.value) == message
    assert "\n" not in str(info.value)


def test_no_action_between_hands_or_after_the_match(
    make_state: MakeState, apply_actions: Apply
) -> None:
    state = play_out(apply_actions(make_state(SWEEP, 3), "bid 2,pass,pass,pass"))
    assert state.needs_deal and state.to_act == -1 and state.legal_actions() == []
    with pytest.raises(IllegalAction, match="cannot act: the next hand is not dealt yet"):
        state.apply(act.PASS)
    state = play_out(apply_actions(make_state(SWEEP, 3, "target=2"), "bid 2,pass,pass,pass"))
    assert state.is_over and state.phase == OVER and state.legal_actions() == []
    with pytest.raises(IllegalAction, match="cannot act: the match is over"):
        state.apply(act.PASS)
    with pytest.raises(TricktableError, match="cannot deal now"):
        state.deal()


@pytest.mark.parametrize("bad", ["pass", None, 1.0, -1, 999, True])
def test_a_non_action_is_refused_clearly(make_state: MakeState, bad: object) -> None:
    state = make_state(SWEEP, 3)
    with pytest.raises(IllegalAction) as info:
        state.apply(bad)
    assert str(info.value).startswith("seat 0 ")
    assert state.actions == []


def test_six_tricks_make_a_hand(make_state: MakeState, apply_actions: Apply) -> None:
    state = play_out(apply_actions(make_state(LOW_CARDS, 3), "bid 2,pass,pass,pass"))
    assert len(state.tricks) == 6
    assert sum(state.tricks_won) == 6
    assert len(state.actions) == 4 + 24
    won = 0
    for m in state.won:
        won |= m
    dealt = 0
    for m in state.dealt:
        dealt |= m
    assert won == dealt, "every dealt card is played and captured"
    assert state.hands == [0, 0, 0, 0]


# -------------------------------------------------------------------- whole hands, scoring


@pytest.mark.parametrize(
    ("options", "auction", "scores"),
    [
        ("", "bid 2,pass,pass,pass", [2, 0]),
        ("", "bid 5,pass,pass,pass", [5, 0]),  # taking exactly the bid makes it
        ("declarer_scores=bid", "bid 3,pass,pass,pass", [3, 0]),
        ("declarer_scores=taken", "bid 2,pass,pass,pass", [5, 0]),
        ("", "bid 6", [-6, 0]),  # the declarer is set and goes negative
        ("declarer_scores=taken", "bid 6", [-6, 0]),
    ],
)
def test_sweep_hand_points_and_scores(
    make_state: MakeState, apply_actions: Apply, options: str, auction: str, scores: list[int]
) -> None:
    state = play_out(apply_actions(make_state(SWEEP, 3, options), auction))
    result = last_result(state)
    assert result.declarer == 0
    assert result.trump == SPADES and result.to_dict()["trump"] == "S"
    assert result.points == {
        "high": 0,
        "low": 0,  # the ten: the joker is never Low
        "jack": 0,
        "off_jack": None,  # the jack of clubs was not dealt
        "joker": 0,
        "game": 0,
    }
    assert result.taken == (5, 0)
    assert list(result.scores) == scores == state.scores


@pytest.mark.parametrize(
    ("options", "auction", "low", "taken", "scores"),
    [
        ("", "bid 2,pass,pass,pass", 0, [2, 0], [2, 0]),
        ("low_to=captured", "bid 2,pass,pass,pass", 0, [2, 0], [2, 0]),
        ("", "bid 3,pass,pass,pass", 0, [2, 0], [-3, 0]),
        ("low_to=dealt", "bid 2,pass,pass,pass", 1, [1, 1], [-2, 1]),
        ("low_to=dealt,declarer_scores=taken", "bid 2,pass,pass,pass", 1, [1, 1], [-2, 1]),
    ],
)
def test_low_cards_hand_with_game_tie_and_absent_cards(
    make_state: MakeState,
    apply_actions: Apply,
    options: str,
    auction: str,
    low: int,
    taken: list[int],
    scores: list[int],
) -> None:
    state = make_state(LOW_CARDS, 3, options)
    apply_actions(state, auction + ",play 9S")
    assert names(state) == ["play 2S"], "seat 1 must follow trump with its only spade"
    play_out(state)
    result = last_result(state)
    assert result.points == {
        "high": 0,  # 9S, captured by seat 0
        "low": low,  # 2S, dealt to seat 1 and captured by seat 0
        "jack": None,
        "off_jack": None,
        "joker": None,
        "game": None,  # no card counts for Game: 0 to 0 is a tie
    }
    assert list(result.taken) == taken
    assert list(result.scores) == scores


def test_low_to_captured_gives_low_to_the_capturing_team(
    make_state: MakeState, apply_actions: Apply
) -> None:
    deal = ["2S 2H 3H 4H 5H 6H", "AS KS 7D 8D 9D TD", "7H 8H 9H QH 2D 3D", "2C 3C 4C 5C 6C 7C"]
    for options, low in (("", 1), ("low_to=captured", 1), ("low_to=dealt", 0)):
        state = make_state(deal, 0, options)
        apply_actions(state, "bid 2,pass,pass,pass,play AS")
        apply_actions(state, "play 2D,play 2C")  # seats 2 and 3 hold no spade
        assert names(state) == ["play 2S"]
        play_out(state)
        points = last_result(state).points
        assert (points["high"], points["low"]) == (1, low), options


def test_one_trump_dealt_earns_both_high_and_low(
    make_state: MakeState, apply_actions: Apply
) -> None:
    deal = ["9S AH KH QH 2D 3D", "2H 3H 4H 5H 6H 7H", "4D 5D 6D 7D 8D 9D", "2C 3C 4C 5C 6C 7C"]
    for options in ("", "low_to=dealt"):
        state = make_state(deal, 3, options)
        play_out(apply_actions(state, "bid 2,pass,pass,pass,play 9S"))
        result = last_result(state)
        assert result.trump == SPADES
        assert result.points["high"] == 0
        assert result.points["low"] == 0
        assert result.points["jack"] is None
        assert result.points["joker"] is None
        assert result.taken[0] >= 2


def test_match_ends_when_declarers_reach_the_target(
    make_state: MakeState, apply_actions: Apply
) -> None:
    state = play_out(apply_actions(make_state(SWEEP, 3, "target=2"), "bid 2,pass,pass,pass"))
    assert state.is_over and state.winner == 0 and state.scores == [2, 0]


def test_match_goes_on_below_the_target(make_state: MakeState, apply_actions: Apply) -> None:
    state = play_out(apply_actions(make_state(SWEEP, 3, "target=3"), "bid 2,pass,pass,pass"))
    assert state.needs_deal and state.winner is None


def test_defenders_reaching_the_target_do_not_end_the_match(
    make_state: MakeState, apply_actions: Apply
) -> None:
    # target 1: the defenders take Low (low_to=dealt) and pass the target; the match goes on
    state = make_state(LOW_CARDS, 3, "target=1,low_to=dealt")
    play_out(apply_actions(state, "bid 2,pass,pass,pass,play 9S"))
    assert state.scores == [-2, 1]
    assert not state.is_over and state.winner is None and state.needs_deal
    # next hand, dealt by seat 0: seat 1 declares, makes its bid and wins the match
    sweep_for_1 = [SWEEP[1], SWEEP[0], SWEEP[2], SWEEP[3]]
    state.deal([mask_of(parse_cards(t)) for t in sweep_for_1])
    assert state.dealer == 0 and state.to_act == 1
    play_out(apply_actions(state, "bid 2,pass,pass,pass"))
    assert state.is_over and state.winner == 1 and state.scores == [-2, 3]


def test_declarers_win_even_when_the_defenders_have_more(
    make_state: MakeState, apply_actions: Apply
) -> None:
    state = make_state(SWEEP, 2, "target=21")
    state.scores = [19, 40]  # as if earlier hands had left the match here
    apply_actions(state, "pass,bid 2,pass,pass")
    assert state.declarer == 0
    play_out(state)
    assert state.scores == [21, 40]
    assert state.is_over and state.winner == 0


def test_defenders_past_target_and_declarers_set_goes_on(
    make_state: MakeState, apply_actions: Apply
) -> None:
    state = make_state(LOW_CARDS, 3, "target=21,low_to=dealt")
    state.scores = [5, 25]
    play_out(apply_actions(state, "bid 2,pass,pass,pass,play 9S"))
    assert state.scores == [3, 26]
    assert state.winner is None and state.needs_deal


# ----------------------------------------------------------------------------- clone, view


def test_clone_is_independent(make_state: MakeState, apply_actions: Apply) -> None:
    state = apply_actions(make_state(SWEEP, 3), "bid 2,pass,pass,pass,play AS")
    before = (state.to_act, list(state.hands), list(state.trick), list(state.actions))
    copy = state.clone()
    assert isinstance(copy, SetbackState) and copy is not state
    assert copy.legal_actions() == state.legal_actions()
    play_out(copy)
    assert copy.needs_deal and copy.results
    assert (state.to_act, state.hands, state.trick, state.actions) == before
    assert state.results == [] and len(state.history[-1].actions) == 5
    assert len(copy.history[-1].actions) == 28
    # and the other way round: the original goes on; the clone does not move
    copy_scores = list(copy.scores)
    play_out(state)
    assert copy.scores == copy_scores
    assert state.results == copy.results


def test_clone_keeps_the_random_generator(make_state: MakeState) -> None:
    state = load_game("setback").new_state(7)
    copy = state.clone()
    state.deal()
    copy.deal()
    assert state.hands == copy.hands
    state.apply(act.PASS)
    assert copy.actions == [] and copy.to_act == state.actors[0]


def test_view_shows_own_hand_and_legal_actions_only_to_the_seat_to_act(
    make_state: MakeState, apply_actions: Apply
) -> None:
    state = apply_actions(make_state(SWEEP, 3), "bid 3,pass")
    for seat in range(4):
        view = state.view(seat)
        assert view.hand == state.hands[seat] == view.dealt
        assert view.to_dict()["hand"] == sorted(SWEEP[seat].split(), key=lambda c: parse_card(c))
        if seat == 2:
            assert view.legal_actions() == state.legal_actions()
            assert view.to_dict()["legal"] == ["pass", "bid 4", "bid 5", "bid 6"]
        else:
            assert view.legal_actions() == [] and view.legal_mask() == 0
    info = state.view(0).info()
    assert info == {"high_bid": 3, "high_bidder": 0, "declarer": None, "bid": None}
    assert state.view(3).actions == [(0, act.bid(3)), (1, act.PASS)]


def test_view_dealt_stays_the_dealt_hand_during_the_last_trick(
    make_state: MakeState, apply_actions: Apply
) -> None:
    state = apply_actions(make_state(SWEEP, 3), "bid 2,pass,pass,pass")
    for lead in ["AS", "KS", "QS", "JS", "TS"]:
        apply_actions(state, f"play {lead}")
        play_out_trick(state)
    apply_actions(state, "play JK")  # seat 0 has played its last card; seats 1-3 still to play
    assert state.to_act == 1
    assert state.view(0).dealt == mask_of(parse_cards(SWEEP[0]))


# -------------------------------------------- the kitty, the moon and smudge with other rules


def test_a_number_no_longer_ends_the_auction_where_a_moon_may_follow(
    make_state: MakeState, apply_actions: Apply
) -> None:
    state = apply_actions(make_state(SWEEP, 3, "moon=true"), "bid 6, pass")
    assert state.phase == AUCTION and state.to_act == 2
    apply_actions(state, "moon")  # the moon ends the auction at once
    assert state.phase == PLAY and (state.declarer, state.bid) == (2, 7)
    assert state.view(0).info()["moon"] is True


def test_the_dealer_may_take_a_moon(make_state: MakeState, apply_actions: Apply) -> None:
    state = apply_actions(make_state(SWEEP, 3, "moon=true,dealer_takes=true"), "moon")
    assert state.to_act == 3  # only the dealer may still act: take it or not
    names = [state.game.action_name(a) for a in state.legal_actions()]
    assert names == ["pass", "moon"]
    apply_actions(state, "pass")
    assert (state.declarer, state.bid) == (0, 7)


def test_a_moon_where_the_game_has_none_is_refused(make_state: MakeState) -> None:
    state = make_state(SWEEP, 3)
    with pytest.raises(IllegalAction, match="moon=false"):
        state.apply(state.game.parse_action("moon"))


def test_the_kitty_counter_clockwise_to_a_stuck_dealer(
    make_state: MakeState, apply_actions: Apply
) -> None:
    # A deal given without its stock: the kitty is the lowest cards left (8C 9C TC JC).
    state = make_state(SWEEP, 0, "kitty=4,direction=right")
    assert state.to_act == 3  # the dealer's right bids first
    apply_actions(state, "pass, pass, pass, pass")
    assert state.declarer == 0 and state.hands[0].bit_count() == 10
    assert state.hands[0] & mask_of(parse_cards("8C 9C TC JC")) == mask_of(
        parse_cards("8C 9C TC JC")
    )
    with pytest.raises(IllegalAction, match="discard 4 more"):
        state.apply(state.game.parse_action("play AS"))
    apply_actions(state, "discard 8C, discard 9C, discard TC, discard JC, play AS")
    assert state.trump == SPADES and state.to_act == 3  # the play goes to the right too
