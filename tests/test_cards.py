"""Tests of card and action notation (RULES.md "Notation") and of card sets."""

from __future__ import annotations

import pytest

from tricktable.cards import (
    JOKER,
    card_name,
    card_of,
    cards_in,
    format_cards,
    mask_of,
    parse_card,
    parse_cards,
    pretty_card,
    rank_of,
    suit_of,
)
from tricktable.engine import actions as act
from tricktable.errors import NotationError, TricktableError
from tricktable.games import load_game


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("TD", "TD"),
        ("10D", "TD"),
        ("10d", "TD"),
        ("td", "TD"),
        ("10♦", "TD"),
        ("T♦", "TD"),
        ("QS", "QS"),
        ("qs", "QS"),
        ("Q♠", "QS"),
        ("2C", "2C"),
        ("2♣", "2C"),
        ("AH", "AH"),
        ("a♥", "AH"),
        ("JK", "JK"),
        ("jk", "JK"),
        ("joker", "JK"),
        (" 9h ", "9H"),
    ],
)
def test_card_input_forms_read_to_canonical(text: str, canonical: str) -> None:
    card = parse_card(text)
    assert card_name(card) == canonical
    assert parse_card(canonical) == card


@pytest.mark.parametrize("text", ["", "XX", "1D", "11D", "ZS", "TX", "10", "D", "JKK", "JL0"])
def test_unknown_card_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError, match="unknown card"):
        parse_card(text)


def test_notation_error_is_a_value_error_and_project_error() -> None:
    with pytest.raises(ValueError):
        parse_card("XX")
    with pytest.raises(TricktableError):
        parse_card("XX")


def test_card_ints_follow_suit_times_13_plus_rank() -> None:
    assert parse_card("2C") == 0
    assert parse_card("AC") == 12
    assert parse_card("2D") == 13
    assert parse_card("TD") == card_of(1, 8) == 21
    assert parse_card("AS") == 51
    assert parse_card("JK") == JOKER == 52


def test_every_card_name_round_trips_and_is_canonical() -> None:
    for card in range(53):
        name = card_name(card)
        assert parse_card(name) == card
        assert len(name) == 2
        assert name == name.upper()
        assert name[0] in "23456789TJQKA" or name == "JK"
    assert len({card_name(c) for c in range(53)}) == 53


@pytest.mark.parametrize(
    ("card", "suit", "rank"), [("2C", 0, 0), ("TD", 1, 8), ("JH", 2, 9), ("AS", 3, 12)]
)
def test_suit_and_rank_of(card: str, suit: int, rank: int) -> None:
    assert suit_of(parse_card(card)) == suit
    assert rank_of(parse_card(card)) == rank


def test_joker_has_no_suit_or_rank() -> None:
    assert suit_of(JOKER) == -1
    assert rank_of(JOKER) == -1


@pytest.mark.parametrize(
    ("card", "pretty"), [("TD", "10♦"), ("QS", "Q♠"), ("2C", "2♣"), ("AH", "A♥"), ("JK", "JK")]
)
def test_pretty_card_for_people(card: str, pretty: str) -> None:
    assert pretty_card(parse_card(card)) == pretty
    assert parse_card(pretty) == parse_card(card)


def test_parse_cards_accepts_spaces_commas_and_lists() -> None:
    expected = [parse_card("AS"), parse_card("2C"), JOKER]
    assert parse_cards("AS 2c jk") == expected
    assert parse_cards("AS,2C, JK") == expected
    assert parse_cards(["AS", "2C", "JK"]) == expected


def test_format_cards_is_canonical_and_sorted() -> None:
    assert format_cards(parse_cards("AS 2c jk 10♦")) == "2C TD AS JK"
    assert format_cards(mask_of(parse_cards("AS 2c jk 10♦"))) == "2C TD AS JK"
    assert format_cards(0) == ""


def test_mask_and_cards_in_are_inverse() -> None:
    cards = parse_cards("2C TD QH AS JK")
    mask = mask_of(cards)
    assert mask.bit_count() == 5
    assert cards_in(mask) == sorted(cards)
    assert cards_in(0) == []


# ------------------------------------------------------------------------------ actions


@pytest.mark.parametrize(
    ("text", "code", "canonical"),
    [
        ("pass", act.PASS, "pass"),
        ("PASS", act.PASS, "pass"),
        ("  pass ", act.PASS, "pass"),
        ("bid 2", act.bid(2), "bid 2"),
        ("Bid 6", act.bid(6), "bid 6"),
        ("play TD", parse_card("TD"), "play TD"),
        ("play 10d", parse_card("TD"), "play TD"),
        ("play 10♦", parse_card("TD"), "play TD"),
        ("PLAY jk", JOKER, "play JK"),
        ("QS", parse_card("QS"), "play QS"),
    ],
)
def test_action_notation(text: str, code: int, canonical: str) -> None:
    game = load_game("setback")
    assert game.parse_action(text) == code
    assert game.action_name(code) == canonical
    assert act.parse_action(canonical) == code


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty action"),
        ("   ", "empty action"),
        ("bid", "unknown action"),
        ("bid x", "bad bid"),
        ("bid 64", "bad bid"),
        ("bid -1", "bad bid"),
        ("play", "unknown action"),
        ("play XX", "unknown card"),
        ("double", "unknown action"),
        ("play AS now", "unknown action"),
        ("bid 2 3", "unknown action"),
    ],
)
def test_bad_action_text_is_a_notation_error(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        load_game("setback").parse_action(text)


def test_action_kinds() -> None:
    assert act.is_play(0) and act.is_play(JOKER)
    assert not act.is_play(act.PASS)
    assert act.is_bid(act.bid(3))
    assert not act.is_bid(act.PASS)
    assert act.bid(3) == act.BID + 3
    with pytest.raises(NotationError):
        act.action_name(300)


def test_the_trick_winner_follows_the_engines_rule() -> None:
    # A trump beats the suit led; a card off the suit led never wins; the first card leads.
    from tricktable.engine.trick import strength, trick_winner, trump_tables

    spades = trump_tables(3, [3 * 13 + r for r in range(13)])
    led_hearts = [parse_card("5H"), parse_card("AD"), parse_card("KH"), parse_card("2S")]
    assert trick_winner(spades, led_hearts) == 3
    assert trick_winner(spades, led_hearts[:3]) == 2
    assert trick_winner(spades, [parse_card("5H"), parse_card("AD")]) == 0
    assert trick_winner(spades, []) == -1
    assert strength(spades, parse_card("AD"), spades.suit_mask[parse_card("5H")]) == -1


def test_the_trick_winner_agrees_with_the_engine_in_every_game() -> None:
    from tricktable.bots import make_bot
    from tricktable.engine.trick import TrickState, trick_winner
    from tricktable.games import load_game, names
    from tricktable.match import play_match

    checked = 0

    def listen(state: TrickState, seat: int, action: int) -> None:
        nonlocal checked
        if state.tricks and not state.trick and state.tricks[-1][1]:
            leader, cards, winner = state.tricks[-1]
            order: list[int] = []  # the seats in turn from the leader (the game's direction)
            seat = leader
            while len(order) < len(cards):
                if seat != state.skip:
                    order.append(seat)
                seat = (seat + state.step) % state.n
            assert order[trick_winner(state.tables, cards)] == winner, cards
            checked += 1

    for name in names():
        game = load_game(name)
        play_match(game, [make_bot("random") for _ in range(game.num_players)], 3, listen, 2)
    assert checked > 100


def test_a_code_that_is_no_card_is_a_notation_error_in_every_games_names() -> None:
    # A bot or a record may send any integer: naming it (for the error that refuses it) must
    # say so in one line, not fail on a table of names.
    from tricktable.errors import NotationError, TricktableError
    from tricktable.games import load_game, names

    with pytest.raises(NotationError):
        card_name(60)
    for name in names():
        state = load_game(name).new_state(3)
        state.deal()
        for code in (54, 63, (1 << 64) | (1 << 60), (1 << 65) + 63, (1 << 65) + 54, 10**30):
            with pytest.raises(TricktableError):
                state.clone().apply(code)
