"""league/night.py's pure functions: the seating of a night, its units (the same seed at every
table of a deal), duplicate scoring's invariants (Hypothesis) and the standings' order."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tricktable.errors import OptionError
from tricktable.league.night import (
    Board,
    check_game,
    deal_seed,
    duplicate_scores,
    seating,
    standings,
    units,
)


def test_every_deal_gives_half_the_tables_each_sides_cards() -> None:
    pairs = [(0, 1), (2, 3), (4, 5), (6, 7)]
    for deal in range(6):
        firsts = [seating(p, deal, t, 4)[0] == p[0] for t, p in enumerate(pairs)]
        assert sorted(firsts) == [False, False, True, True]
    # over a night a team holds both sides' cards
    assert {seating((0, 1), d, 0, 4)[0] for d in range(2)} == {0, 1}


def test_a_night_with_a_person_rotates_by_table_and_keeps_their_seat() -> None:
    members = [["user:ann", "heuristic"], ["random"], ["heuristic"], ["random", "beginner"]]
    night = units("setback", members, [(0, 3), (1, 2)], 4, seed=7)
    ann = [u for u in night if "user:ann" in u.players]
    assert len(ann) == 4 and {u.players.index("user:ann") for u in ann} == {0}
    assert {u.table for u in ann} == {0}
    # half the tables still give each kind of team the other side's cards, deal after deal
    for deal in range(4):
        firsts = [u.entrants[0] for u in night if u.deal == deal]
        assert firsts == [0, 2]
    # a night of bots alone rotates by deal, as before
    bots = units("setback", [["random"], ["heuristic"]], [(0, 1)], 2, seed=7)
    assert [u.entrants[0] for u in bots] == [0, 1]


def test_units_share_a_deals_seed_across_tables_and_fill_seats_by_turns() -> None:
    made = units("spades", [["random"], ["heuristic", "edna"]], [(0, 1), (1, 0)], 3, seed=9)
    assert len(made) == 6
    for deal in range(3):
        at = [u for u in made if u.deal == deal]
        assert {u.seed for u in at} == {deal_seed(9, deal)}
        assert len({u.entrants for u in at}) == 1  # (0, 1) then (1, 0) rotated: same teams
    first = made[0]
    assert first.entrants == (0, 1, 0, 1)
    assert first.players == ("random", "heuristic", "random", "edna")
    assert len({deal_seed(9, d) for d in range(100)}) == 100


def test_a_game_of_more_than_two_sides_is_refused_in_one_line() -> None:
    check_game("spades")
    with pytest.raises(OptionError, match="two sides") as refused:
        check_game("hearts")
    assert "\n" not in str(refused.value)


scores = st.tuples(st.integers(-300, 300), st.integers(-300, 300))


@given(st.lists(st.lists(scores, min_size=2, max_size=2), min_size=1, max_size=5))
def test_duplicate_scores_cancel_at_each_table_and_over_the_field(
    deals: list[list[tuple[int, int]]],
) -> None:
    # two tables, teams 0-1 and 2-3, seats rotated by seating()
    boards = [
        Board(d, seating(pair, d, t, 2), (float(a), float(b)))
        for d, tables in enumerate(deals)
        for t, (pair, (a, b)) in enumerate(zip([(0, 1), (2, 3)], tables, strict=True))
    ]
    got = duplicate_scores(boards)
    assert sorted(got) == [0, 1, 2, 3]
    for d in range(len(deals)):
        by_team = {team: dict(v)[d] for team, v in got.items()}
        assert by_team[0] == pytest.approx(-by_team[1])
        assert by_team[2] == pytest.approx(-by_team[3])
        assert sum(by_team.values()) == pytest.approx(0.0, abs=1e-9)
    # the same cards played the same way at both tables: nobody gains
    same = [Board(0, (0, 1), (50.0, 20.0)), Board(0, (3, 2), (50.0, 20.0))]
    assert all(v == [(0, 0.0)] for v in duplicate_scores(same).values())


def test_standings_rank_by_total_with_an_interval_and_a_rating() -> None:
    night = [
        Board(0, (0, 1), (100.0, 0.0)),  # team 0 beats team 1 by 100 holding side 0
        Board(0, (3, 2), (20.0, 0.0)),  # team 3 beat team 2 by only 20 with the same cards
    ]
    rows = standings({0: "A", 1: "B", 2: "C", 3: "D"}, [night])
    assert [r.team for r in rows] == ["A", "C", "B", "D"]  # ties: rating, then name
    assert [r.total for r in rows] == [40.0, 40.0, -40.0, -40.0]
    assert all(r.nights == 1 and r.per_deal is not None for r in rows)
    assert rows[0].rating > rows[-1].rating
