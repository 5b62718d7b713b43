"""Setback's rules in words (games/setback_text.py): each sentence follows the options."""

from __future__ import annotations

import re

import pytest

from tricktable.games import PRESETS, load_game
from tricktable.games.setback_options import SetbackOptions, point_weights
from tricktable.games.setback_text import rules_text


def paragraph(text: str, heading: str) -> str:
    """The paragraph that starts with ``**heading`` (its lines joined)."""
    found = re.search(rf"^\*\*{re.escape(heading)}.*?(?=\n\n|\Z)", text, re.M | re.S)
    assert found, f"no paragraph {heading!r} in:\n{text}"
    return " ".join(found.group(0).split())


def words(**options: object) -> str:
    return " ".join(rules_text(SetbackOptions(**options)).split())  # type: ignore[arg-type]


def test_the_defaults_are_setback() -> None:
    text = rules_text(SetbackOptions())
    assert text.startswith("## Setback")
    assert "53 cards: the 52 plus one joker" in paragraph(text, "Deck")
    assert "dealt 6 cards; the 29 others" in paragraph(text, "Deck")
    assert "from 2 to 6" in paragraph(text, "Auction")
    assert "the dealer is declarer at 2" in paragraph(text, "Auction")
    assert "no trumping while able to follow" in paragraph(text, "Play")
    assert "Points (up to 6 a hand)" in text
    assert "finish with 21 or more" in paragraph(text, "End")
    assert all(len(line) <= 96 for line in text.splitlines())


@pytest.mark.parametrize(
    ("jokers", "deck", "absent"),
    [
        (0, "52 cards, no joker", "joker is a trump"),
        (1, "53 cards: the 52 plus one joker", "two jokers"),
        (2, "54 cards: the 52 plus two jokers", "one joker"),
    ],
)
def test_the_deck_follows_the_jokers(jokers: int, deck: str, absent: str) -> None:
    points = "high,low,jack,game"
    text = words(jokers=jokers, points=points, max_bid=4)
    assert deck in text and absent not in text
    if not jokers:
        assert "joker" not in text.split("## Actions")[0].replace("no joker", "")


def test_trumping_dealer_takes_and_redeal() -> None:
    text = words(may_trump=True, dealer_takes=True, all_pass="redeal")
    assert "trumping is allowed while able to follow" in text
    assert "the dealer may instead take the high bid at the same level" in text
    assert "the deal is thrown in: nobody scores" in text
    assert "stuck" not in text


def test_points_and_weights_come_from_the_points_option() -> None:
    text = words(jokers=0, points="high,low,jack,ten,five=5,off_five=5", low_to="dealt", max_bid=14)
    assert "Points (up to 14 a hand)" in text
    assert "Five (right pedro): the side capturing the five of trump, if dealt, worth 5" in text
    assert "Low: the side that was dealt the lowest trump" in text
    assert "Game:" not in text and "Off-jack (the jick):" not in text


def test_cut_throat_speaks_of_players() -> None:
    text = words(partners=False, win="first", target=7)
    assert "each playing for itself" in text
    assert "The declarer scores its bid if it took" in text
    assert "The first player to reach 7 wins" in text
    assert "side" not in text


@pytest.mark.parametrize(
    ("win", "says"),
    [
        ("declarers", "in which the declarers finish with 11 or more"),
        ("first", "The first side to reach 11 wins"),
        ("top", "Once a side has 11 or more after a hand, the one side with the top score wins"),
    ],
)
def test_the_end_follows_win_and_target(win: str, says: str) -> None:
    assert says in words(win=win, target=11)


def test_two_jokers_in_two_card_hands_say_what_happens() -> None:
    text = words(jokers=2, hand_size=2, points="high,low,game", max_bid=3)
    assert "a declarer holding only the two jokers throws the deal in" in text


@pytest.mark.parametrize("name", sorted(p for p in PRESETS if PRESETS[p].game == "setback"))
def test_every_pitch_preset_reads_as_itself(name: str) -> None:
    opts = load_game(name).options
    assert isinstance(opts, SetbackOptions)
    text = rules_text(opts, name)
    assert f"{52 + opts.jokers} cards" in paragraph(text, "Deck")
    assert f"dealt {opts.hand_size} cards" in paragraph(text, "Deck")
    assert str(opts.target) in paragraph(text, "End")
    assert f"up to {sum(point_weights(opts.points).values())} a hand" in text
    assert f"from {opts.min_bid} to {opts.max_bid}" in paragraph(text, "Auction")


def test_any_table_size_and_direction() -> None:
    text = rules_text(SetbackOptions(players=6, partners="3x2", direction="right"))
    table = paragraph(text, "Table")
    assert "Six seats, 0..5 counter-clockwise; 3 sides" in table
    assert "0+3, 1+4, 2+5" in table and "passes to the right" in table
    assert "from the dealer's right" in paragraph(text, "Auction")
    assert "the 17 others take no part" in paragraph(text, "Deck")
    assert "If all pass" in paragraph(text, "Auction")
    alone = words(players=3, partners=False)
    assert "Three seats, 0..2 clockwise, each playing for itself" in alone


def test_the_kitty_moon_and_smudge_are_told() -> None:
    text = rules_text(SetbackOptions(kitty=4, moon=True, smudge=True))
    deck = paragraph(text, "Deck")
    assert "the 25 others take no part" in deck and "4 more are dealt face down" in deck
    assert "counts as a trick the declarer's side won" in deck
    assert 'bid "moon"' in paragraph(text, "Auction")
    assert "A bid of moon ends the auction" in paragraph(text, "Auction")
    score = paragraph(text, "Score")
    assert "wins the match at once; failed, it loses 6" in score
    assert "Smudge: a bid of 6" in score and "in the hole" in score
    actions = text.split("## Actions")[1]
    assert "`moon`" in actions and "`discard CARD`" in actions
    assert "scores 20; failed, it loses 20" in words(moon=True, moon_value=20)
    plain = rules_text(SetbackOptions())
    for absent in ("kitty", "moon", "Smudge", "discard"):
        assert absent not in plain


@pytest.mark.parametrize("name", sorted(n for n, p in PRESETS.items() if p.game == "setback"))
def test_every_pitch_version_reads_as_itself(name: str) -> None:
    opts = load_game(name).options
    text = " ".join(rules_text(opts, name).split())
    assert f"dealt {opts.hand_size} cards" in text
    assert ("kitty" in text) is bool(opts.kitty)
    assert ('"moon"' in text) is opts.moon
    assert ("Smudge:" in text) is opts.smudge
