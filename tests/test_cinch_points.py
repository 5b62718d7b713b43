"""The state's scoring path of Cinch (``side_points``) gives what ``hand_points`` gives."""

from __future__ import annotations

import random

import pytest

from tricktable.games import PRESETS, load_game
from tricktable.games.cinch import Cinch
from tricktable.games.cinch_scoring import (
    HIGH_POINT,
    LOW_POINT,
    hand_points,
    point_card,
    point_cards,
    side_points,
)

CINCH_GAMES = ["cinch", *sorted(name for name, p in PRESETS.items() if p.game == "cinch")]


def test_point_cards_mark_high_and_low() -> None:
    names = ["high", "low", "jack", "game", "pedro", "left_pedro"]
    cards = point_cards(names, 2)
    assert cards[:2] == [HIGH_POINT, LOW_POINT]
    assert cards[2:] == [point_card(name, 2) for name in names[2:]]


@pytest.mark.parametrize("spec", CINCH_GAMES)
def test_side_points_are_hand_points(spec: str) -> None:
    game = load_game(spec)
    assert isinstance(game, Cinch)
    names = list(game.weights)
    rng = random.Random(spec)
    deck = list(game.deck)
    for _ in range(200):
        trump = rng.randrange(4)
        tables = game.trumps[trump]
        sides = rng.choice([2, 3, 4])
        rng.shuffle(deck)
        in_play = deck[: rng.randrange(0, len(deck))]
        won = [0] * sides
        held = [0] * sides
        for card in in_play:
            won[rng.randrange(sides)] |= 1 << card
            held[rng.randrange(sides)] |= 1 << card
        for low_to in ("captured", "held"):
            want = hand_points(names, trump, won, held, tables.mask, tables.power, low_to)
            got = side_points(
                names,
                point_cards(names, trump),
                won,
                held if low_to == "held" else won,
                tables.mask,
                tables.power,
            )
            assert got == want
            assert list(got) == list(want)  # the same order: the result's points follow it
