"""``tricktable simulate``: the report, its determinism across workers, its numbers and errors."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tricktable import simulate as sim_mod
from tricktable.bots import make_bot
from tricktable.cli.simulate import run_simulate
from tricktable.engine.actions import BID, PASS
from tricktable.games import GAMES, load_game, register
from tricktable.games.hearts_results import HeartsResult
from tricktable.games.setback_results import SetbackResult
from tricktable.games.tricks import Tricks
from tricktable.match import play_hand, play_match, start_bots
from tricktable.seeds import derive_seed
from tricktable.simulate import (
    HANDS_PER_CHUNK,
    SimulationError,
    Tally,
    build_report,
    prepare,
    run,
    simulate,
)

Cli = Callable[..., subprocess.CompletedProcess[str]]
RANDOM4 = "random,random,random,random"
MIXED = "heuristic,random,heuristic,random"
POINTS = ("high", "low", "jack", "off_jack", "joker", "game")


def sim_json(cli: Cli, *args: str) -> dict[str, Any]:
    """Run ``simulate ARGS --json`` and return its one JSON object."""
    done = cli("simulate", *args, "--json")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    lines = done.stdout.splitlines()
    assert len(lines) == 1, done.stdout[:500]
    report = json.loads(lines[0])
    assert isinstance(report, dict)
    return report


def without_timing(report: dict[str, Any]) -> dict[str, Any]:
    """The deterministic part of a report."""
    return {k: v for k, v in report.items() if k != "timing"}


def test_json_is_one_object(cli: Cli) -> None:
    report = sim_json(cli, "--players", RANDOM4, "--hands", "300", "--seed", "5", "--workers", "1")
    assert report["hands"] == 300
    assert report["players"] == RANDOM4.split(",")
    assert report["seed"] == 5
    assert report["mode"] == "hands"
    assert set(report["timing"]) == {"workers", "elapsed_seconds", "hands_per_second"}
    assert report["timing"]["hands_per_second"] > 0


def test_hands_results_ignore_the_worker_count(cli: Cli) -> None:
    # 2,300 hands make three chunks, so two workers really split them.
    args = ("--players", RANDOM4, "--hands", "2300", "--seed", "7")
    one = sim_json(cli, *args, "--workers", "1")
    two = sim_json(cli, *args, "--workers", "2")
    assert two["timing"]["workers"] == 2
    assert without_timing(one) == without_timing(two)
    assert one["hands"] == 2300


def test_matches_results_ignore_the_worker_count(cli: Cli) -> None:
    args = ("--players", MIXED, "--matches", "12", "--seed", "3")
    one = sim_json(cli, *args, "--workers", "1")
    two = sim_json(cli, *args, "--workers", "2")
    assert without_timing(one) == without_timing(two)


def test_seed_changes_results() -> None:
    a = simulate(prepare("setback", RANDOM4, seed=1, hands=200), workers=1)
    b = simulate(prepare("setback", RANDOM4, seed=2, hands=200), workers=1)
    assert without_timing(a) != without_timing(b)


def test_hands_plays_exactly_n_hands() -> None:
    sim = prepare("setback", RANDOM4, seed=11, hands=HANDS_PER_CHUNK + 234)
    assert [c.count for c in sim.chunks()] == [HANDS_PER_CHUNK, 234]
    tally = run(sim, workers=1)
    assert tally.hands == HANDS_PER_CHUNK + 234
    assert sum(tally.kinds.values()) == tally.hands


def test_matches_plays_m_matches_and_wins_sum_to_m() -> None:
    report = simulate(prepare("setback", MIXED, seed=2, matches=13), workers=1)
    assert report["mode"] == "matches"
    assert report["matches"] + report["matches_stopped"] == 13
    assert report["matches_stopped"] == 0
    assert sum(report["match_wins"]) == report["matches"] == 13


def test_matches_agree_with_playing_them_directly() -> None:
    # The report's counts are those of the matches the design says are played: match i with
    # derive_seed(seed, "match", i), through play_match.
    seed, count = 4, 6
    report = simulate(prepare("setback", MIXED, seed=seed, matches=count), workers=1)
    game = load_game("setback")
    bots = [make_bot(name) for name in MIXED.split(",")]
    hands, wins, taken, change = 0, [0, 0], [0, 0], [0, 0]
    bid_counts: dict[str, int] = {}
    for i in range(count):
        state = play_match(game, bots, derive_seed(seed, "match", i))
        assert state.winner is not None
        hands += len(state.results)
        wins[state.winner] += 1
        for team in (0, 1):
            change[team] += state.scores[team]
        for log, result in zip(state.history, state.results, strict=True):
            assert isinstance(result, SetbackResult)
            taken[0] += result.taken[0]
            taken[1] += result.taken[1]
            bids = [a for a in log.actions if BID <= a < BID + 64]
            key = str(result.bid) if bids else "stuck"
            bid_counts[key] = bid_counts.get(key, 0) + 1
    assert report["hands"] == hands
    assert report["match_wins"] == wins
    assert report["points_taken"]["total"] == taken
    assert report["score_change"]["total"] == change
    assert {k: v["count"] for k, v in report["bids"].items() if v["count"]} == bid_counts


def test_numbers_are_consistent() -> None:
    report = simulate(prepare("setback", RANDOM4, seed=9, hands=1500), workers=1)
    hands = report["hands"]
    assert hands == 1500
    bids = report["bids"]
    assert list(bids) == ["2", "3", "4", "5", "6", "stuck"]
    assert sum(row["count"] for row in bids.values()) == hands
    for row in bids.values():
        assert 0 <= row["made"] <= row["count"]
        if row["count"]:
            assert row["make_rate"] == pytest.approx(row["made"] / row["count"], abs=1e-6)
    points = report["points"]
    assert list(points) == list(POINTS)
    # High, Low and Game are in play in every hand (Game possibly tied); the others when dealt.
    for name in ("high", "low", "game"):
        assert points[name]["available_rate"] == 1.0
    for name, row in points.items():
        assert sum(row["won"]) + row["tied"] == row["available"] <= hands
        assert row["won_by_declarers"] <= row["available"]
        if name != "game":
            assert row["tied"] == 0
    # Every point won is a point taken, and nothing else is.
    for team in (0, 1):
        assert report["points_taken"]["total"][team] == sum(p["won"][team] for p in points.values())
        assert report["points_taken"]["per_hand"][team] == pytest.approx(
            report["points_taken"]["total"][team] / hands, abs=1e-6
        )
    assert 0 < points["jack"]["available_rate"] < 1


def test_unfinished_matches_are_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    # Random bots bid high, go set and rarely reach the target: the cap ends their matches.
    monkeypatch.setattr(sim_mod, "MAX_HANDS_PER_MATCH", 40)
    report = simulate(prepare("setback", RANDOM4, seed=1, matches=3), workers=1)
    assert report["hands"] <= 3 * 40
    assert report["matches"] + report["matches_stopped"] == 3
    assert sum(report["match_wins"]) == report["matches"]


def _play_out(state: Any) -> None:
    while state.to_act >= 0:
        state.apply(state.legal_actions()[0])


def test_stuck_dealer_hands_are_counted_apart() -> None:
    game = load_game("setback")
    state = game.new_state(3)
    state.deal()
    for _ in range(4):
        state.apply(PASS)
    _play_out(state)
    state.deal()
    for _ in range(3):
        state.apply(PASS)
    state.apply(BID + 2)  # the dealer bids the minimum: not stuck
    _play_out(state)
    tally = Tally(2)
    tally.add_match(state)
    assert tally.hands == 2
    assert tally.stopped == 1 and tally.matches == 0
    stuck = {(kind[1], kind[2]): n for kind, n in tally.kinds.items()}
    assert stuck == {(2, True): 1, (2, False): 1}
    sim = prepare("setback", RANDOM4, seed=0, hands=2)
    report = build_report(sim, tally, workers=1, elapsed=1.0)
    assert report["bids"]["stuck"]["count"] == 1
    assert report["bids"]["2"]["count"] == 1


def test_results_without_setback_keys_still_report() -> None:
    # A game whose hand results carry only scores: the report keeps what exists.
    tally = Tally(2, hands=5, score_change=[3, -1])
    tally.kinds[(None, None, False, (), ())] = 5
    sim = prepare("setback", RANDOM4, seed=0, hands=5)
    report = build_report(sim, tally, workers=1, elapsed=0.5)
    assert report["hands"] == 5
    assert report["score_change"] == {"total": [3, -1], "per_hand": [0.6, -0.2]}
    assert "bids" not in report and "points" not in report and "points_taken" not in report


def test_readable_report(cli: Cli) -> None:
    done = cli("simulate", "--players", RANDOM4, "--hands", "200", "--seed", "1", "--workers", "1")
    assert done.returncode == 0, done.stderr
    for title in ("Teams", "Winning bids", "Points", "stuck", "off_jack", "hands/s"):
        assert title in done.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--players", "random,robot,random,random", "--hands", "10"), "robot"),
        (("--game", "nosuchgame", "--players", RANDOM4, "--hands", "10"), "nosuchgame"),
        (("--players", RANDOM4), "exactly one"),
        (("--players", RANDOM4, "--hands", "5", "--matches", "5"), "exactly one"),
        (("--players", RANDOM4, "--hands", "0"), "hands"),
    ],
)
def test_errors_are_one_line(cli: Cli, args: tuple[str, ...], message: str) -> None:
    done = cli("simulate", *args, "--json")
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("error:")
    assert message in lines[0]
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("game", "players", "message"),
    [
        ("filippa", "random,random,random", "filippa is played by 4 players, not 3"),
        ("setback", "human,random,random,random", "'human'"),
        ("setback(target=x)", RANDOM4, "target"),
        ("setback", "random,,random,random", "unknown player"),
    ],
)
def test_run_simulate_errors(
    capsys: pytest.CaptureFixture[str], game: str, players: str, message: str
) -> None:
    assert run_simulate(game, players, 10, None, 1, 1, True) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert err.startswith("error:") and message in err


@pytest.mark.parametrize(("hands", "matches"), [(None, None), (5, 5)])
def test_prepare_wants_hands_or_matches(hands: int | None, matches: int | None) -> None:
    with pytest.raises(SimulationError, match="exactly one"):
        prepare("setback", RANDOM4, seed=1, hands=hands, matches=matches)


# --------------------------------------------------------------------- every game's statistics

#: per game: a spec whose matches end soon and the players (random Setback bidders never finish)
QUICK = {
    "setback": ("setback(target=11)", MIXED),
    "tricks": ("tricks(target=60)", RANDOM4),
    "oh-hell": ("oh-hell(max_cards=4)", RANDOM4),
}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_simulates_alike_with_one_or_two_workers(
    cli: Cli, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    # Eleven matches are two chunks, so two workers really split them.
    seats = load_game(name).num_players
    spec, players = QUICK.get(name, (name, ",".join(["random"] * seats)))
    assert run_simulate(spec, players, None, 11, 6, 1, True) == 0
    one = json.loads(capsys.readouterr().out)
    two = sim_json(cli, "--game", spec, "--players", players, "--matches", "11", "--seed", "6",
                   "--workers", "2")  # fmt: skip
    assert two["timing"]["workers"] == 2
    assert without_timing(one) == without_timing(two)
    assert one["matches"] + one["matches_stopped"] == 11
    assert sum(one["match_wins"]) + one["matches_shared"] <= one["matches"]
    stats = one["game_stats"]
    assert stats["family"] == name
    assert "unread_hands" not in stats
    check_game_stats(name, stats, one["hands"])


def check_game_stats(name: str, stats: dict[str, Any], hands: int) -> None:
    """What must hold between a game's statistics and the hands played."""
    if name == "setback":
        assert stats["declared"] + stats["thrown_in"] == hands
        assert stats["made"] + stats["set"] == stats["declared"]
    elif name in ("hearts", "filippa"):
        assert sum(stats["queen_of_spades"]["taken"]) == hands
        total = 26 if name == "hearts" else -36
        assert sum(stats["penalties"]["total"]) == total * hands
        if name == "filippa":
            shared = sum(stats["pool_points"]["total"])
            assert shared % 36 == 0 and shared <= 36 * hands
    elif name == "spades":
        for kind in ("nils", "blind_nils"):
            row = stats[kind]
            assert [m + f for m, f in zip(row["made"], row["failed"], strict=True)] == row["bid"]
        contracts = stats["contracts"]
        assert all(h <= hands for h in contracts["hands"])
        assert [m + x for m, x in zip(contracts["made"], contracts["set"], strict=True)] == (
            contracts["hands"]
        )
    elif name == "tricks":
        assert sum(stats["tricks"]["total"]) <= 13 * (hands - stats["thrown_in"])
    elif name == "oh-hell":
        assert all(e <= hands for e in stats["exact"]["count"])
        assert sum(stats["bid_totals"].values()) == hands
    elif name == "euchre":
        assert sum(stats["makers"]["hands"]) + stats["thrown_in"] == hands
        makers = stats["makers"]
        assert all(m <= h for m, h in zip(makers["marches"], makers["made"], strict=True))


def test_hearts_statistics_agree_with_the_hands_played() -> None:
    report = simulate(prepare("hearts", RANDOM4, seed=2, matches=2), workers=1)
    game = load_game("hearts")
    bots = [make_bot("random") for _ in range(4)]
    penalties, queen, moon = [0] * 4, [0] * 4, [0] * 4
    for i in range(2):
        state = game.new_state(derive_seed(2, "match", i))
        start_bots(game, bots, derive_seed(2, "match", i))
        while not state.is_over:
            play_hand(state, bots)
            result = state.results[-1]
            assert isinstance(result, HeartsResult)
            for seat in range(4):
                penalties[seat] += result.penalties[seat]
                if state.won[seat] >> (3 * 13 + 10) & 1:  # QS, found apart from the result
                    queen[seat] += 1
            if result.moon is not None:
                moon[result.moon] += 1
    stats = report["game_stats"]
    assert stats["penalties"]["total"] == penalties
    assert stats["queen_of_spades"]["taken"] == queen
    assert stats["moon"]["shots"] == moon


def test_setback_statistics_agree_with_its_bids_table() -> None:
    report = simulate(prepare("setback", MIXED, seed=3, matches=4), workers=1)
    stats = report["game_stats"]
    bids = report["bids"]
    assert stats["declared"] == sum(row["count"] for row in bids.values())
    assert stats["made"] == sum(row["made"] for row in bids.values())
    assert stats["stuck"] == bids["stuck"]["count"]


class PlainTricks(Tricks):
    """Tricks under another name: a game with no statistics hook of its own."""

    name = "plain-tricks-sim"
    statistics = ""  # not Tricks' own: the generic hook


def test_a_game_without_a_hook_reports_score_changes() -> None:
    register(PlainTricks)
    try:
        report = simulate(prepare("plain-tricks-sim(target=40)", RANDOM4, seed=1, matches=3), 1)
    finally:
        GAMES.pop(PlainTricks.name, None)
    stats = report["game_stats"]
    assert stats["family"] == "generic"
    change = stats["score_change"]
    assert change["per_hand"] == report["score_change"]["per_hand"]
    assert all(
        0 <= low <= high <= 13
        for low, high in zip(change["lowest"], change["highest"], strict=True)
    )


def test_readable_report_of_another_game(cli: Cli) -> None:
    done = cli("simulate", "--game", "hearts", "--players", RANDOM4, "--matches", "1",
               "--workers", "1")  # fmt: skip
    assert done.returncode == 0, done.stderr
    for words in ("Seats", "Game statistics (hearts", "queen of spades taken", "moon rate"):
        assert words in done.stdout, words


def test_run_restores_the_collector_settings() -> None:
    # The one-process path tunes the cycle collector while it plays, and must put it back:
    # simulate() is a library call too.
    before = gc.get_threshold()
    request = sim_mod.prepare("setback", ("random",) * 4, seed=3, hands=20)
    tally = sim_mod.run(request, workers=1)
    assert tally.hands >= 20
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


# ------------------------------------------------------------------------ faults, errors

BOTS_DIR = Path(__file__).parent / "bots"
ENGINE_BUG = Path(__file__).parent / "engine_bug.py"


def crashing(after: int) -> str:
    return f"cmd:{sys.executable} {BOTS_DIR / 'crash.py'} --after {after}"


def test_every_fault_is_reported_and_the_substitutes_games_labelled(cli: Cli) -> None:
    bot = crashing(20)
    players = f'"{bot}",random,heuristic,random'
    args = ("--players", players, "--matches", "3", "--seed", "1", "--workers", "1")
    done = cli("simulate", *args, "--json")
    assert done.returncode == 1, done.stderr  # the run is complete, but a bot faulted
    report = json.loads(done.stdout)
    faults = report["faults"]
    assert faults["count"] == 3 and len(faults["listed"]) == 3
    seat = faults["by_seat"][0]
    assert (seat["player"], seat["count"], seat["kinds"]) == (bot, 3, {"crash": 3})
    assert seat["matches_substituted"] == 3 and seat["hands_by_substitute"] > 0
    assert all(s["count"] == 0 for s in faults["by_seat"][1:])
    first = faults["listed"][0]
    assert (first["match"], first["seat"], first["kind"], first["penalty"]) == (
        1, 0, "crash", "substitute"
    )  # fmt: skip
    assert first["seed"] == derive_seed(1, "match", 0)
    label = report["teams"][0]["players"][0]
    assert label == f"{bot} (substituted by heuristic in 3 of 3 matches)"
    text = cli("simulate", *args)
    assert text.returncode == 1, text.stderr
    assert "faults: 3" in text.stdout and "substituted in 3 matches" in text.stdout
    assert "match 1, seed" in text.stdout and "crash" in text.stdout


def test_a_clean_run_reports_no_faults(cli: Cli) -> None:
    report = sim_json(cli, "--players", RANDOM4, "--matches", "2", "--workers", "1")
    assert report["faults"]["count"] == 0 and report["faults"]["listed"] == []
    assert report["teams"][0]["players"] == ["random", "random"]


def test_an_engine_error_stops_the_run_with_one_line_and_status_3() -> None:
    players = f"cmd:{sys.executable} {EXAMPLE_BOT},heuristic,random,heuristic"
    done = subprocess.run(
        [sys.executable, str(ENGINE_BUG), "simulate", "--players", players, "--matches", "2",
         "--workers", "1", "--json"],
        capture_output=True, text=True, timeout=120, env=cli_env(), check=False,
    )  # fmt: skip
    assert done.returncode == 3, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: match seed ")
    assert "engine error in hand 3, action " in lines[0] and "ZeroDivisionError" in lines[0]
    assert done.stdout == ""


def cli_env() -> dict[str, str]:
    env = dict(os.environ)
    src = str(Path(__file__).parents[1] / "src")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (src, env.get("PYTHONPATH")) if p)
    return env


EXAMPLE_BOT = Path(__file__).parents[1] / "examples/bots/python/bot.py"


def test_a_player_spec_is_printed_as_text_not_rich_markup(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A program's command line may hold '[/]': the report prints it, not parse it as markup."""
    bot = Path(__file__).parents[1] / "examples/bots/python/bot.py"
    spec = f"cmd:{sys.executable} {bot} [/] [bold]"
    status = run_simulate("setback", f"{spec},random,random,random", 2, None, 1, 1, False)
    assert status in (0, 1)
    out = capsys.readouterr().out
    assert "[/]" in out.replace("\n", "")


@pytest.mark.parametrize(
    ("spec", "sides"),
    [("setback(partners=3x2,players=6)", 3), ("setback(partners=false,players=3)", 3)],
)
def test_three_sides_have_a_column_each(spec: str, sides: int, cli: Cli) -> None:
    game = load_game(spec)
    n = game.num_players
    players = ",".join(("heuristic", "random")[s % 2] for s in range(n))
    report = simulate(prepare(spec, players, seed=3, hands=300), workers=1)
    seats = [[s for s in range(n) if s % sides == t] for t in range(sides)]
    assert [team["seats"] for team in report["teams"]] == seats  # 3x2: 0+3, 1+4, 2+5
    assert len(report["match_wins"]) == sides
    assert len(report["points_taken"]["total"]) == sides
    assert len(report["score_change"]["total"]) == sides
    for row in report["points"].values():
        assert len(row["won"]) == sides
        assert sum(row["won"]) + row["tied"] == row["available"]
    for side in range(sides):
        won = sum(p["won"][side] for p in report["points"].values())
        assert report["points_taken"]["total"][side] == won
    stats = report["game_stats"]
    assert stats["family"] == "setback" and stats["declared"] + stats["thrown_in"] == 300
    # Matches: the wins of three sides and the shared ones add up to the matches played.
    matches = simulate(prepare(spec, players, seed=3, matches=3), workers=1)
    assert sum(matches["match_wins"]) + matches["matches_shared"] == matches["matches"]
    # The tables: a column per side.
    done = cli("simulate", "--game", spec, "--players", players, "--hands", "60", "--workers", "1")
    assert done.returncode == 0, done.stderr
    for side in range(sides):
        assert f"team {side}" in done.stdout  # the points table's column of each side
    assert f"team {sides}" not in done.stdout
