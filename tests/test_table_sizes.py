"""Tables of two to seven seats above the engine: what plays there, and what refuses in one line.

The layers with tests of their own (tournaments, duels, protocols, records, simulate,
characters) test their tables there; here are the few that only need to say what they do
at another size: OpenSpiel's four-seat Hearts, the double-dummy solver behind ``analyze``,
the analysis by sampling at six seats, and the duel command's table count.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tricktable.analysis.analyze import AnalysisError, analyze
from tricktable.bridges.openspiel import load_openspiel_hearts
from tricktable.errors import BotError
from tricktable.games import load_game
from tricktable.runner import MatchSpec, run_match

Cli = Callable[..., subprocess.CompletedProcess[str]]


@pytest.mark.parametrize("spec", ["hearts(players=3)", "hearts(players=5)", "hearts(players=6)"])
def test_openspiel_hearts_refuses_another_table_size_in_one_line(spec: str) -> None:
    game = load_game(spec)
    with pytest.raises(BotError, match="OpenSpiel's Hearts seats four players") as refused:
        load_openspiel_hearts(game)  # refused before pyspiel is even looked for
    assert "\n" not in str(refused.value)


def _six_seat_record(spec: str) -> dict[str, object]:
    n = load_game(spec).num_players
    players = tuple(("heuristic", "random")[s % 2] for s in range(n))
    outcome = run_match(MatchSpec(game=spec, players=players, seed=2, max_hands=1))
    return json.loads(json.dumps(outcome.record))


def test_analyze_at_six_seats_samples_and_refuses_double_dummy_in_one_line() -> None:
    # Setback is solved at every table; Hearts at four seats only.
    hearts = _six_seat_record("hearts(players=6)")
    with pytest.raises(AnalysisError, match=r"no double-dummy solver for hearts\(") as refused:
        analyze(hearts, sampling=False)
    assert "\n" not in str(refused.value)
    record = _six_seat_record("setback(partners=3x2,players=6)")
    analysis = analyze(record, seats=[0], budget=0.2, samples=4)
    assert analysis.seats == [0] and analysis.decisions
    assert all(d.seat == 0 for d in analysis.decisions)


def test_the_duel_command_says_how_many_tables_a_deal_is_played_at(cli: Cli) -> None:
    done = cli("duel", "heuristic", "random", "--game", "setback(partners=3x2,players=6)",
               "--no-sprt", "--deals", "2", "--workers", "1")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "2 deals, each at 3 tables, A a side at each (6 hands)" in done.stdout


def test_bot_check_puts_the_bot_in_every_seat_of_the_table_by_default(cli: Cli) -> None:
    done = cli("bot-check", "random", "--game", "setback(partners=3x2,players=6)",
               "--max-hands", "1", "--json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["matches"] == 6  # one a seat: each seat in turn


def test_the_analyze_command_reads_a_six_seat_record(cli: Cli, tmp_path: Path) -> None:
    spec = "hearts(players=6)"
    path = tmp_path / "six.json"
    path.write_text(json.dumps(_six_seat_record(spec)), encoding="utf-8")
    done = cli("analyze", str(path), "--seat", "0", "--budget", "0.1")
    assert done.returncode == 0, done.stderr
    assert f"no double-dummy solver for {spec}" in done.stdout
    assert "Summary" in done.stdout
