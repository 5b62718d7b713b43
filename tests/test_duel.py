"""``tricktable duel``: paired deals with the seats swapped, the SPRT that stops them, the CLI.

The records of a deal's two tables are read back to check that both played the same cards
with the bots' seats swapped, and replayed to check the margins; a duel gives the same deals
and stops at the same deal with one worker or two.
"""

from __future__ import annotations

import doctest
import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from tricktable.analysis import duel as duel_module
from tricktable.analysis.duel import (
    DEALS_PER_CHUNK,
    DuelError,
    deal_of,
    duel_tables,
    margin,
    prepare,
    run_duel,
    seat_sides,
)
from tricktable.analysis.sprt import SprtParams
from tricktable.cards import card_name
from tricktable.games import GAMES, load_game
from tricktable.records import replay
from tricktable.seeds import derive_seed

Cli = Callable[..., subprocess.CompletedProcess[str]]

CRASHY = """
from tricktable.bots.base import Bot


class Crashy(Bot):
    name = "crashy"

    def act(self, view):
        if view.step > 3:
            raise RuntimeError("boom")
        return view.legal_actions()[0]
"""


def without_records(result: Any) -> list[tuple[Any, ...]]:
    return [(d.index, d.seed, d.margins, d.faults) for d in result.deals]


def test_the_example_in_the_docstring_holds() -> None:
    failed, tried = doctest.testmod(duel_module)
    assert tried > 0 and failed == 0


@pytest.mark.parametrize("game_spec", ["setback", "hearts"])
def test_both_tables_of_a_deal_hold_the_same_cards_with_the_seats_swapped(game_spec: str) -> None:
    duel = prepare(game_spec, "heuristic", "random", deals=3, seed=5, sprt=None, keep_records=True)
    result = run_duel(duel, workers=1)
    game = load_game(game_spec)
    even, odd = seat_sides(game)
    assert result.n == 3
    for deal in result.deals:
        assert deal.seed == derive_seed(5, "duel", deal.index)
        assert deal.records is not None
        first, second = deal.records
        assert first["players"] == ["bot:heuristic", "bot:random"] * 2
        assert second["players"] == ["bot:random", "bot:heuristic"] * 2
        assert len(first["hands"]) == len(second["hands"]) == 1
        one, two = first["hands"][0], second["hands"][0]
        assert (one["dealer"], one["deal"]) == (two["dealer"], two["deal"])
        # ...and they are the seed's own first deal.
        expected = deal_of(game, deal.seed)
        assert one["dealer"] == expected.dealer
        assert one["deal"][: game.num_players] == [
            [card_name(c) for c in cards] for cards in expected.hands
        ]
        # The margins are what the records score: replayed, A's sides less B's.
        scores = [replay(record).scores for record in deal.records]
        assert deal.margins == (
            margin(game, scores[0], even),
            margin(game, scores[1], odd),
        )
        assert deal.difference == sum(deal.margins) / 2


def test_a_lower_score_is_better_where_the_game_says_so() -> None:
    hearts, setback = load_game("hearts"), load_game("setback")
    assert hearts.lower_wins and not setback.lower_wins
    assert all(not GAMES[name].lower_wins for name in GAMES if name != "hearts")
    # Hearts: seats 0 and 2 took 4 + 0 penalty points, seats 1 and 3 took 9 + 13.
    assert margin(hearts, [4, 9, 0, 13], frozenset({0, 2})) == 18
    assert margin(hearts, [4, 9, 0, 13], frozenset({1, 3})) == -18
    assert margin(setback, [3, 1], frozenset({0})) == 2


def test_a_game_two_bots_cannot_share_alternate_seats_is_played_a_side_at_a_time() -> None:
    odd = SimpleNamespace(name="odd", num_players=3, num_scores=3, team_of=lambda seat: seat)
    with pytest.raises(DuelError, match="even number"):
        seat_sides(odd)  # type: ignore[arg-type]
    assert duel_tables(odd) == (frozenset({0}), frozenset({1}), frozenset({2}))  # type: ignore[arg-type]
    crossed = SimpleNamespace(
        name="crossed", num_players=4, num_scores=2, team_of=lambda seat: seat // 2
    )
    with pytest.raises(DuelError, match="share a side"):
        seat_sides(crossed)  # type: ignore[arg-type]
    alone = SimpleNamespace(name="alone", num_players=3, num_scores=1, team_of=lambda seat: 0)
    with pytest.raises(DuelError, match="one side"):
        duel_tables(alone)  # type: ignore[arg-type]
    # Three sides: A's side less the mean of the others'.
    sides = load_game("setback(partners=3x2,players=6)")
    assert margin(sides, [5, 1, -2], frozenset({0})) == 5 - (1 - 2) / 2


@pytest.mark.parametrize(
    ("game_spec", "tables"),
    [
        ("setback(partners=3x2,players=6)", 3),  # partners opposite: A holds one side a table
        ("setback(players=6)", 2),  # two sides of three alternating: A in the even seats
        ("setback(partners=false,players=3)", 3),  # an odd table: A holds one seat a table
    ],
)
def test_a_deal_at_every_table_shape_holds_the_same_cards_and_each_side_once(
    game_spec: str, tables: int
) -> None:
    duel = prepare(game_spec, "heuristic", "random", deals=2, seed=4, sprt=None, keep_records=True)
    result = run_duel(duel, workers=1)
    game = load_game(game_spec)
    assert result.tables == tables == len(duel_tables(game))
    for deal in result.deals:
        assert deal.records is not None and len(deal.records) == len(deal.margins) == tables
        first = deal.records[0]["hands"][0]
        held = [0] * game.num_scores
        for record, a_sides, value in zip(
            deal.records, duel_tables(game), deal.margins, strict=True
        ):
            hand = record["hands"][0]
            assert (hand["dealer"], hand["deal"]) == (first["dealer"], first["deal"])
            a_seats = [s for s, p in enumerate(record["players"]) if p == "bot:heuristic"]
            assert {game.team_of(s) for s in a_seats} == a_sides
            for side in a_sides:
                held[side] += 1
            assert value == margin(game, replay(record).scores, a_sides)
        assert held == [1] * game.num_scores  # A held every side's cards once
        assert deal.difference == sum(deal.margins) / tables
    # Two copies of one seeded bot play alike at every table: the luck cancels exactly.
    same = run_duel(prepare(game_spec, "random", "random", deals=3, seed=4, sprt=None), 1)
    assert same.difference.mean == 0.0


def test_the_same_deals_and_the_same_stop_with_one_worker_or_two() -> None:
    deals = 4 * DEALS_PER_CHUNK + 2  # a last chunk shorter than the others
    fixed = prepare("setback", "heuristic", "random", deals=deals, seed=9, sprt=None)
    one, two = run_duel(fixed, workers=1), run_duel(fixed, workers=2)
    assert one.n == two.n == deals
    assert without_records(one) == without_records(two)
    assert one.difference == two.difference
    # Stopped by the SPRT mid-chunk: the same deal, whatever ran ahead in the other worker.
    tested = prepare("setback", "heuristic", "random", deals=500, seed=9, sprt=SprtParams())
    one, two = run_duel(tested, workers=1), run_duel(tested, workers=2)
    assert one.verdict == two.verdict == "H1"
    assert one.n == two.n < 500
    assert without_records(one) == without_records(two)
    assert one.sprt == two.sprt


def test_heuristic_against_random_accepts_h1_quickly() -> None:
    duel = prepare("setback", "heuristic", "random", deals=300, seed=1, sprt=SprtParams(d1=0.1))
    result = run_duel(duel, workers=1)
    assert result.verdict == "H1" and result.n < 100
    assert result.sprt is not None and result.sprt.llr >= result.sprt.upper
    assert result.difference.low > 0
    assert "heuristic is stronger than random" in result.sentence()


def test_random_against_random_accepts_h0_or_stays_inconclusive() -> None:
    # Two copies of one seeded bot play the same cards the same way at both tables: every
    # difference is 0, and the test accepts H0 as soon as it may (min_n deals).
    duel = prepare("setback", "random", "random", deals=200, seed=2, sprt=SprtParams())
    result = run_duel(duel, workers=1)
    assert result.verdict in ("H0", "inconclusive")
    assert result.verdict == "H0" and result.n == SprtParams().min_n
    assert result.difference.mean == 0.0 and result.difference.sd == 0.0


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_can_hold_a_duel(name: str) -> None:
    result = run_duel(prepare(name, "heuristic", "random", deals=2, seed=3, sprt=None), 1)
    assert result.n == 2 and result.verdict == "fixed"
    data = result.to_dict()
    assert json.loads(json.dumps(data)) == data


def test_faults_are_counted_against_the_bot_that_made_them(tmp_path: Path) -> None:
    bot = tmp_path / "crashy.py"
    bot.write_text(CRASHY)
    duel = prepare("setback", f"{bot}:Crashy", "random", deals=3, seed=4, sprt=None)
    result = run_duel(duel, workers=1)
    a, b = result.faults["a"], result.faults["b"]
    # Each table seats the crashing bot twice, and the heuristic substitute plays on.
    assert a.count == a.kinds["crash"] == 3 * 2 * 2 and a.substituted == a.count
    assert b.count == 0
    first = a.listed[0]
    assert (first["deal"], first["seed"], first["kind"]) == (1, derive_seed(4, "duel", 0), "crash")
    assert first["seat"] % 2 == (0 if first["table"] == 1 else 1)  # one of A's seats
    warning = result.warning()
    assert warning is not None and "faulted 12 times" in warning


def test_bad_requests_are_one_clear_error() -> None:
    with pytest.raises(DuelError, match="bot B: unknown player 'nobody'"):
        prepare("setback", "heuristic", "nobody")
    with pytest.raises(DuelError, match="'human' cannot be bot A"):
        prepare("setback", "human", "random")
    with pytest.raises(DuelError, match="at least one deal"):
        prepare("setback", "heuristic", "random", deals=0)


# ------------------------------------------------------------------------------ the CLI


def test_cli_json_is_one_object_with_the_verdict(cli: Cli) -> None:
    args = ("heuristic", "random", "--deals", "200", "--seed", "3", "--workers", "1")
    done = cli("duel", *args, "--d1", "0.2", "--json")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    lines = done.stdout.splitlines()
    assert len(lines) == 1
    report = json.loads(lines[0])
    assert (report["a"], report["b"], report["game"], report["seed"]) == (
        "heuristic", "random", "setback", 3
    )  # fmt: skip
    assert report["verdict"] == "H1" and report["deals"] < 200
    assert report["sprt"]["d1"] == 0.2 and report["sprt"]["upper"] == pytest.approx(2.944439)
    diff = report["difference"]
    assert diff["low"] < diff["mean"] < diff["high"] and diff["low"] > 0
    assert report["faults"]["count"] == 0 and report["warning"] is None
    assert (
        report["deals_won"]["a"] + report["deals_won"]["b"] + report["deals_won"]["tied"]
        == (report["deals"])
    )


def test_cli_prints_the_difference_interval_and_verdict(cli: Cli) -> None:
    done = cli("duel", "heuristic", "random", "--game", "hearts", "--no-sprt", "--deals", "12",
               "--workers", "1")  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "A - B per deal: +" in out and "95% interval" in out
    assert "the lower score wins this game" in out
    assert "verdict: 12 deals, no SPRT" in out
    assert "faults: none" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("heuristic", "nobody"), "error: bot B: unknown player 'nobody'"),
        (("heuristic", "random", "--alpha", "1.5"), "error: alpha must be between 0 and 1"),
        (("heuristic", "random", "--no-sprt", "--d1", "1"), "not with --no-sprt"),
        (("heuristic", "random", "--game", "nogame"), "error: "),
    ],
)
def test_cli_errors_are_one_line_and_status_2(
    cli: Cli, args: tuple[str, ...], message: str
) -> None:
    done = cli("duel", *args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.splitlines()) == 1 and message in done.stderr
    assert "Traceback" not in done.stderr


def test_duel_is_a_listed_command(cli: Cli) -> None:
    done = cli("duel", "--help")
    assert done.returncode == 0
    for option in ("--deals", "--sprt / --no-sprt", "--d0", "--d1", "--alpha", "--beta"):
        assert option in done.stdout
