"""The server's limits (docs/protocol-web.md, "Limits"), beginning with the driver's cap
of hands: a match that reaches it ends with the leader winning, as a forfeit of the side
furthest behind that the record replays."""

from __future__ import annotations

import asyncio

import pytest

from tricktable.games import load_game
from tricktable.records import replay
from tricktable.table.driver import run, trailing
from tricktable.table.table import Table


@pytest.mark.parametrize(
    ("spec", "scores", "seat"),
    [
        ("setback", [5, 3], 1),
        ("setback", [3, 5], 0),
        ("setback", [4, 4], None),  # level: the next hand decides
        ("hearts", [10, 40, 20, 40], 3),  # the lowest wins: the last of the highest forfeits
        ("hearts", [50, 10, 20, 30], 0),
        ("setback(players=6,partners=3x2)", [2, 1, 1], 2),
    ],
)
def test_the_seat_that_forfeits_at_the_cap(spec: str, scores: list[int], seat: int | None) -> None:
    state = load_game(spec).new_state(1)
    state.scores = scores
    assert trailing(state) == seat


def test_a_match_of_lone_players_ends_at_the_cap_with_no_winner_and_replays() -> None:
    # Hearts, each for themselves: a forfeit names no winner (the record can say no more);
    # the line at the table gives the scores.
    table = Table(load_game("hearts"), ["beginner"] * 4, seed=7)
    try:
        state = asyncio.run(run(table, hand_cap=2))
    finally:
        table.close()
    assert state.is_over and len(state.history) == 2 and state.winner is None
    again = replay(table.record())
    assert again.is_over and again.scores == state.scores
    assert [n.kind for n in again.notes][-2:] == ["chat", "forfeit"]
