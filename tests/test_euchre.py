"""Tests of Euchre (rules/euchre.md): making trump, bowers, lone hands, scoring, views, records.

Hands are built from card text so a failing case reads like a deal at the table; invariants
and the heuristic bot run over seeded random matches.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable

import pytest

from helpers import play_out, run
from tricktable.bots.euchre_heuristic import EuchreHeuristic, best_discard, hand_strength
from tricktable.bots.random_bot import RandomBot
from tricktable.cards import card_name, cards_in, mask_of, parse_card, parse_cards
from tricktable.engine.actions import PASS
from tricktable.engine.trick import AUCTION, PLAY, TrickState
from tricktable.errors import IllegalAction, NotationError, RecordError, TricktableError
from tricktable.games import load_game, register
from tricktable.games.euchre import (
    DISCARDING,
    EUCHRE_DECK,
    GAME,
    ROUND2,
    Euchre,
    EuchreState,
    hand_points,
)
from tricktable.games.euchre_results import EuchreResult
from tricktable.match import play_match
from tricktable.records import replay, result_of, to_record

register(GAME)

#: seat 0 holds the five top spades; the others one suit each; the stock is the four nines
TOP_SPADES = ["JS JC AS KS QS", "AH KH QH JH TH", "AD KD QD JD TD", "AC KC QC TC TS"]
NINES = "9S 9H 9D 9C"
#: seat 0 holds three top spades and two nines that the suits of seats 1 and 3 beat
THREE_SPADES = ["JS JC AS 9H 9D", "AH KH QH JH TH", "AC KC QC TC 9C", "AD KD QD JD TD"]
THREE_STOCK = "9S KS QS TS"
_CARD = re.compile(r"\b[9TJQKA][CDHS]\b")


def make(
    hands: Iterable[str], dealer: int, stock: str = NINES, spec: str = "euchre"
) -> EuchreState:
    """A dealt Euchre state: four hands and the stock (up-card first) as card text."""
    state = load_game(spec).new_state(0)
    state.deal([mask_of(parse_cards(h)) for h in hands], dealer=dealer, stock=parse_cards(stock))
    assert isinstance(state, EuchreState)
    return state


def last_result(state: TrickState) -> EuchreResult:
    """The last hand's result, checked to be Euchre's."""
    result = state.results[-1]
    assert isinstance(result, EuchreResult)
    return result


def names(state: TrickState) -> list[str]:
    """The legal actions of the seat to act, as text."""
    return [state.game.action_name(a) for a in state.legal_actions()]


def held(state: TrickState, seat: int) -> set[str]:
    """A seat's cards now, as names."""
    return {card_name(c) for c in cards_in(state.hands[seat])}


# ------------------------------------------------------------------------------ deck, deal


def test_deck_is_24_cards_five_each_and_a_stock_of_four() -> None:
    game = load_game("euchre")
    assert isinstance(game, Euchre) and game.records_stock and game.hand_size == 5
    assert sorted(card_name(c)[0] for c in game.deck) == sorted("9TJQKA" * 4)
    state = game.new_state(7)
    state.deal()
    union = 0
    for mask in state.hands:
        assert mask.bit_count() == 5 and not union & mask
        union |= mask
    assert len(state.stock) == 4 and not union & mask_of(state.stock)
    assert union | mask_of(state.stock) == mask_of(EUCHRE_DECK)
    assert state.view(1).info()["up_card"] == card_name(state.stock[0])
    assert state.phase == AUCTION and state.to_act == (state.dealer + 1) % 4
    assert names(state) == ["pass", "order-up", "order-up alone"]


# ------------------------------------------------------------------------ bowers, following


def test_right_bower_beats_left_bower_beats_ace_of_trump() -> None:
    # Hearts trump (the up-card 9H); seat 1 holds the left bower JD.
    hands = ["AH 9C TC QC KC", "JD AC 9D TD QD", "JH KD AD KS AS", "KH QH TH 9S TS"]
    state = make(hands, dealer=3, stock="9H JC JS QS")
    run(state, "order-up, discard 9S")  # seat 0 orders up; dealer 3 takes 9H
    run(state, "play AH, play JD, play JH, play 9H")
    assert state.tricks[-1][2] == 2, "the right bower wins"
    # Now the right bower is in the stock.
    hands = ["AH 9C TC QC KC", "JD AC 9D TD QD", "KD AD KS AS QS", "KH QH TH 9S TS"]
    state = make(hands, dealer=3, stock="9H JC JS JH")
    run(state, "order-up, discard 9S, play AH")
    assert names(state) == ["play JD"], "the left bower is the only trump: it must follow"
    run(state, "play JD, play KD")  # seat 2 has no trump and may throw anything
    run(state, "play 9H")
    assert state.tricks[-1][2] == 1, "the left bower beats the ace of trump"


def test_left_bower_does_not_follow_its_printed_suit() -> None:
    hands = ["AD 9C TC QC KC", "JD AC 9S TS QS", "JH KD 9D KS AS", "KH QH TH AH TD"]
    state = make(hands, dealer=3, stock="9H JC JS QD")
    run(state, "order-up, discard TD, play AD")
    # Seat 1 holds JD but no other diamond: it is void in diamonds and may play anything.
    assert set(names(state)) == {f"play {c}" for c in ["JD", "AC", "9S", "TS", "QS"]}
    run(state, "play JD, play KD, play 9H")
    assert state.tricks[-1][2] == 1, "the left bower trumps the diamond lead"
    # The jack of the other colour stays in its own suit: JC with hearts trump is a club.
    state = make(hands, dealer=3, stock="9H JC JS QD")
    tables = state.game.trumps[2]  # type: ignore[attr-defined]
    assert tables.power[parse_card("JC")] < 100 and tables.power[parse_card("JD")] == 105


# ------------------------------------------------------------------------ round one, discard


def test_order_up_gives_the_dealer_the_up_card_and_a_private_discard() -> None:
    state = make(TOP_SPADES, dealer=3)
    run(state, "pass, order-up")  # seat 0 passes, seat 1 orders up spades
    assert state.phase == DISCARDING and state.to_act == 3 and state.maker == 1
    assert state.trump == 3 and "9S" in held(state, 3) and len(held(state, 3)) == 6
    assert names(state) == [f"discard {c}" for c in ["TC", "QC", "KC", "AC", "9S", "TS"]]
    with pytest.raises(IllegalAction, match="does not hold AH to discard"):
        run(state, "discard AH")
    with pytest.raises(IllegalAction, match="must discard"):
        run(state, "play TC")
    run(state, "discard KC")
    assert held(state, 3) == {"AC", "QC", "TC", "TS", "9S"} and state.dealt[3].bit_count() == 5
    assert state.phase == PLAY and state.to_act == 0, "the player left of the dealer leads"
    # Only the dealer sees what was discarded.
    assert any("discard" in a["action"] for a in state.view(3).to_dict()["actions"])
    for seat in (0, 1, 2):
        view = state.view(seat).to_dict()
        assert not any("discard" in a["action"] for a in view["actions"])
        assert "KC" not in json.dumps(view)


def test_the_dealer_may_pick_up_and_round_one_refuses_trump_naming() -> None:
    state = make(TOP_SPADES, dealer=2)
    run(state, "pass, pass")
    with pytest.raises(IllegalAction, match="may not name trump in the first round"):
        run(state, "trump H")
    with pytest.raises(IllegalAction, match="only the dealer discards"):
        run(state, "discard AD")
    run(state, "pass, order-up")  # seat 2, the dealer, picks it up
    assert state.maker == 2 and state.phase == DISCARDING and state.to_act == 2
    run(state, "discard 9S")  # the dealer may discard the up-card itself
    assert "9S" not in held(state, 2) and state.to_act == 3


# ---------------------------------------------------------------------------- round two


def test_round_two_cannot_name_the_turned_down_suit() -> None:
    state = make(TOP_SPADES, dealer=3)
    run(state, "pass, pass, pass, pass")
    assert state.phase == ROUND2 and state.to_act == 0
    assert names(state) == [
        "pass",
        "trump C",
        "trump D",
        "trump H",
        "trump C alone",
        "trump D alone",
        "trump H alone",
    ]
    with pytest.raises(IllegalAction, match="may not name S: the up-card's suit was turned down"):
        run(state, "trump S")
    with pytest.raises(IllegalAction, match="up-card was turned down"):
        run(state, "order-up")
    run(state, "pass, trump H")
    assert state.maker == 1 and state.trump == 2 and state.phase == PLAY and state.to_act == 0
    assert len(held(state, 3)) == 5, "nobody takes the up-card in round two"
    assert state.view(2).info()["bidding_round"] == 2


def test_stick_the_dealer_forces_the_dealer_to_name_trump() -> None:
    state = make(TOP_SPADES, dealer=3)
    run(state, "pass, pass, pass, pass, pass, pass, pass")
    assert state.to_act == 3 and "pass" not in names(state)
    with pytest.raises(IllegalAction, match="dealer is stuck"):
        state.apply(PASS)
    run(state, "trump C")
    assert state.maker == 3 and state.phase == PLAY


def test_without_stick_the_dealer_all_passing_throws_the_hand_in() -> None:
    spec = "euchre(stick_the_dealer=false)"
    state = make(TOP_SPADES, dealer=3, spec=spec)
    run(state, "pass, pass, pass, pass, pass, pass, pass, pass")
    assert state.needs_deal and state.to_act == -1 and state.scores == [0, 0]
    result = last_result(state)
    assert result.thrown_in and result.maker is None and result.points == (0, 0)
    assert result.to_dict() == {
        "maker": None,
        "trump": None,
        "alone": False,
        "thrown_in": True,
        "up_card": card_name(state.history[-1].stock[0]),
        "tricks": [0, 0],
        "points": [0, 0],
        "scores": [0, 0],
    }
    state.deal()
    assert state.dealer == 0, "the next dealer deals"


# ---------------------------------------------------------------------------- going alone


def test_alone_partner_sits_out_and_tricks_have_three_cards() -> None:
    state = make(TOP_SPADES, dealer=3)
    run(state, "order-up alone, discard TC")
    assert state.skip == 2 and state.trick_size == 3 and state.alone
    partner_hand = state.hands[2]
    actors = []
    while state.to_act >= 0:
        actors.append(state.to_act)
        state.apply(state.legal_actions()[-1])
    assert 2 not in actors and state.hands[2] == partner_hand
    assert len(state.tricks) == 5 and all(len(cards) == 3 for _l, cards, _w in state.tricks)
    result = last_result(state)
    assert result.alone and result.tricks == (5, 0) and result.points == (4, 0)
    # The partner's cards never reach the other seats' views.
    for seat in (0, 1, 3):
        text = json.dumps(state.view(seat).to_dict())
        assert not set(_CARD.findall(text)) & {card_name(c) for c in cards_in(partner_hand)}


def test_lead_skips_a_sitting_out_player_left_of_the_dealer() -> None:
    state = make(TOP_SPADES, dealer=0)
    run(state, "pass, pass, order-up alone")  # seat 3 goes alone: seat 1 sits out
    run(state, "discard QS")
    assert state.skip == 1 and state.to_act == 2
    assert state.view(0).info()["sitting_out"] == 1


def test_dealers_partner_alone_leaves_the_dealer_out_without_a_pick_up() -> None:
    state = make(TOP_SPADES, dealer=2)
    run(state, "pass, order-up alone")  # seat 0 alone; the dealer sits out
    assert state.skip == 2 and state.phase == PLAY and state.to_act == 3
    assert "9S" not in held(state, 2) and len(held(state, 2)) == 5


def test_alone_option_off_refuses_lone_hands() -> None:
    state = make(TOP_SPADES, dealer=3, spec="euchre(alone=false)")
    assert names(state) == ["pass", "order-up"]
    with pytest.raises(IllegalAction, match="alone=false"):
        run(state, "order-up alone")


# -------------------------------------------------------------------------------- scoring


@pytest.mark.parametrize(
    ("tricks", "alone", "expected"),
    [
        (0, False, (False, 2)),
        (2, False, (False, 2)),
        (2, True, (False, 2)),
        (3, False, (True, 1)),
        (4, True, (True, 1)),
        (5, False, (True, 2)),
        (5, True, (True, 4)),
    ],
)
def test_hand_points_table(tricks: int, alone: bool, expected: tuple[bool, int]) -> None:
    assert hand_points(tricks, alone) == expected


def test_march_scores_2_and_alone_march_4() -> None:
    state = play_out(run(make(TOP_SPADES, dealer=3), "order-up, discard TC"))
    assert last_result(state).tricks == (5, 0) and last_result(state).points == (2, 0)
    state = play_out(run(make(TOP_SPADES, dealer=3), "order-up alone, discard TC"))
    assert last_result(state).points == (4, 0) and state.scores == [4, 0]


def test_three_or_four_tricks_score_1() -> None:
    state = play_out(run(make(THREE_SPADES, dealer=3, stock=THREE_STOCK), "order-up"))
    result = last_result(state)
    assert result.maker == 0 and result.tricks[0] in (3, 4)
    assert result.points == (1, 0) and not result.euchred


def test_euchred_makers_give_the_defenders_2() -> None:
    state = play_out(run(make(TOP_SPADES, dealer=3), "pass, order-up"))
    result = last_result(state)
    assert result.maker == 1 and result.euchred and result.tricks == (5, 0)
    assert result.points == (2, 0) and state.scores == [2, 0]
    assert result.to_dict() == {
        "maker": 1,
        "trump": "S",
        "alone": False,
        "round": 1,
        "up_card": card_name(state.history[-1].stock[0]),
        "euchred": True,
        "tricks": [5, 0],
        "points": [2, 0],
        "scores": [2, 0],
    }


def test_match_ends_when_a_side_reaches_10() -> None:
    state = make(TOP_SPADES, dealer=3)
    state.scores = [8, 9]
    play_out(run(state, "order-up, discard TC"))
    assert state.is_over and state.winner == 0 and state.scores == [10, 9]
    with pytest.raises(TricktableError, match="match is over"):
        state.deal()
    with pytest.raises(IllegalAction, match="match is over"):
        state.apply(PASS)
    short = make(TOP_SPADES, dealer=3, spec="euchre(target=3)")
    play_out(run(short, "order-up, discard TC"))
    assert not short.is_over and short.scores == [2, 0]


# ------------------------------------------------------------------- invariants, random play


def _check_views(state: EuchreState) -> None:
    """No view names a card its seat may not know: others' hands, the stock, the discard."""
    played = 0
    for _leader, cards, _winner in state.tricks:
        played |= mask_of(cards)
    played |= mask_of(state.trick)
    public = played | 1 << state.up_card
    for seat in range(4):
        view = state.view(seat)
        allowed = {card_name(c) for c in cards_in(public | state.dealt[seat] | state.hands[seat])}
        if seat == state.dealer and state.discarded >= 0:
            allowed.add(card_name(state.discarded))
        text = json.dumps(view.to_dict())
        assert set(_CARD.findall(text)) <= allowed, (seat, text)
        assert view.hand == state.hands[seat]


def test_random_hands_keep_the_invariants() -> None:
    game = load_game("euchre(stick_the_dealer=false)")
    rng = random.Random(5)
    hands = 0
    for seed in range(40):
        state = game.new_state(seed)
        while not state.is_over and hands < 400:
            state.deal()
            assert isinstance(state, EuchreState)
            deck = mask_of(state.stock)
            for mask in state.hands:
                deck |= mask
            assert deck == mask_of(EUCHRE_DECK)
            before = list(state.scores)
            while state.to_act >= 0:
                assert state.to_act != state.skip
                if hands < 50:
                    _check_views(state)
                legal = state.legal_actions()
                state.apply(legal[int(rng.random() * len(legal))])
            hands += 1
            result = last_result(state)
            gained = tuple(a - b for a, b in zip(state.scores, before, strict=True))
            assert gained == result.points
            if result.thrown_in:
                assert gained == (0, 0) and not state.tricks
                continue
            assert len(state.tricks) == 5 and sum(result.tricks) == 5
            assert sorted(gained)[0] == 0 and max(gained) in (1, 2, 4), "one side scores"
            assert all(len(cards) == state.trick_size for _l, cards, _w in state.tricks)
            for seat in range(4):
                assert state.hands[seat] == 0 or seat == state.skip
        if state.is_over:
            winner = state.winner
            assert winner is not None and state.scores[winner] >= 10
            assert state.scores[1 - winner] < 10
    assert hands >= 300


def test_clone_is_independent() -> None:
    state = make(TOP_SPADES, dealer=3)
    run(state, "order-up alone")
    other = state.clone()
    run(other, "discard TC, play JS")
    assert state.phase == DISCARDING and len(held(state, 3)) == 6 and not state.trick
    play_out(other)
    play_out(state)
    assert state.results[-1] == other.results[-1]


# ----------------------------------------------------------------------- records, messages


def test_records_round_trip() -> None:
    for seed, spec, bots in [
        (1, "euchre", "hhhh"),
        (2, "euchre(stick_the_dealer=false,target=5)", "rrrr"),
        (3, "euchre(alone=false)", "hrhr"),
    ]:
        game = load_game(spec)
        players = [EuchreHeuristic() if b == "h" else RandomBot() for b in bots]
        state = play_match(game, players, seed)
        record = json.loads(json.dumps(to_record(state)))
        assert all(len(h["deal"]) == 5 and len(h["deal"][4]) == 4 for h in record["hands"])
        again = replay(record)
        assert result_of(again) == json.loads(json.dumps(result_of(state)))
        assert again.scores == state.scores and again.winner == state.winner
        assert [h.stock for h in again.history] == [h.stock for h in state.history]


def test_bad_records_fail_with_the_hand_and_action() -> None:
    state = play_match(load_game("euchre"), [EuchreHeuristic() for _ in range(4)], 4)
    record = json.loads(json.dumps(to_record(state)))
    hand = record["hands"][0]
    up_suit = hand["deal"][4][0][1]
    bad = json.loads(json.dumps(record))
    bad["hands"][0]["actions"] = ["pass"] * 4 + [f"trump {up_suit}"]
    with pytest.raises(RecordError, match=r"hand 0 action 4: .*turned down"):
        replay(bad)
    bad = json.loads(json.dumps(record))
    bad["hands"][0]["deal"][4] = bad["hands"][0]["deal"][4][:3]
    with pytest.raises(RecordError, match="stock has 3 cards"):
        replay(bad)
    bad = json.loads(json.dumps(record))
    bad["hands"][0]["actions"][0] = "order-up sideways"
    with pytest.raises(RecordError, match="hand 0 action 0: unknown action"):
        replay(bad)


def test_action_texts_read_and_write() -> None:
    game = load_game("euchre")
    for text in ["pass", "order-up", "order-up alone", "trump H", "trump S alone", "discard 9C"]:
        assert game.action_name(game.parse_action(text)) == text
    assert game.parse_action("pick up") == game.parse_action("Order Up")
    assert game.parse_action("trump spades alone") == game.parse_action("trump S alone")
    assert game.action_name(game.parse_action("JD")) == "play JD"
    for bad in ["trump X", "discard ZZ", "order-up now", "discard JK", ""]:
        with pytest.raises(NotationError):
            game.parse_action(bad)


def test_illegal_messages_are_clear() -> None:
    state = make(TOP_SPADES, dealer=3)
    with pytest.raises(IllegalAction, match="must order up the up-card or pass"):
        run(state, "play JS")
    with pytest.raises(IllegalAction, match="not an action"):
        state.apply("pass")  # type: ignore[arg-type]
    run(state, "order-up, discard TC")
    with pytest.raises(IllegalAction, match="must play a card"):
        run(state, "pass")
    run(state, "play QS")
    with pytest.raises(IllegalAction, match="does not hold AS"):
        run(state, "play AS")
    run(state, "play AH, play AD")
    with pytest.raises(IllegalAction, match="must follow suit S"):
        run(state, "play AC")


def test_view_trick_names_seats_around_a_sitting_out_player() -> None:
    state = make(TOP_SPADES, dealer=3)
    run(state, "pass, pass, pass, order-up alone, discard TC")  # seat 3 alone: seat 1 out
    run(state, "play JS, play TD")  # seat 0 leads, seat 2 follows (seat 1 sits out)
    assert [seat for seat, _card in state.view(0).trick] == [0, 2]


# ------------------------------------------------------------------------------ the bot


def test_heuristic_helpers() -> None:
    strong = mask_of(parse_cards("JS JC AS AH AD"))
    weak = mask_of(parse_cards("9S TH QD KC 9C"))
    assert hand_strength(strong, 3) > 8 > 4 > hand_strength(weak, 3)
    # The dealer keeps trumps and aces and discards a singleton to make a void.
    assert card_name(best_discard(mask_of(parse_cards("9S JS AH KH TD QC")), 3)) in ("TD", "QC")


def test_heuristic_beats_random_clearly() -> None:
    game = load_game("euchre")
    wins = 0
    for seed in range(60):
        side = seed % 2
        bots = [EuchreHeuristic() if s % 2 == side else RandomBot() for s in range(4)]
        state = play_match(game, bots, 1000 + seed)
        wins += state.winner == side
    assert wins >= 55


@pytest.mark.parametrize("spec", ["euchre(stick_the_dealer=false)", "euchre(alone=false)"])
def test_heuristic_is_legal_in_every_variant(spec: str) -> None:
    state = play_match(load_game(spec), [EuchreHeuristic() for _ in range(4)], 9)
    assert state.is_over and state.winner is not None
