"""Tournaments: the schedule (duplicate pairing, rotations, mixed partnerships), determinism
whatever the worker count, resume after a real SIGKILL, and the command line's errors."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from conftest import cli_env, run_cli
from tricktable.db.store import Store
from tricktable.errors import OptionError
from tricktable.tournament import run as run_mod
from tricktable.tournament.schedule import count, groups, units
from tricktable.tournament.spec import TournamentSpec, load_spec_file, parse_entrants


def spec(**fields: Any) -> TournamentSpec:
    base: dict[str, Any] = {
        "name": "t",
        "game": "setback",
        "entrants": (("h", "heuristic"), ("r", "random")),
        "deals": 3,
        "seed": 1,  # the same cards at every run: a spec given no seed draws one
    }
    base.update(fields)
    return TournamentSpec(**base)


def stored(path: Path, name: str = "t") -> dict[str, tuple[Any, ...]]:
    """Every stored game of a tournament: unit -> (entrant names at the seats, result, record)."""
    with Store.open(str(path)) as store:
        found = store.find_tournament(name)
        assert found is not None
        names = {e.id: e.name for e in store.entrants(found.id)}
        return {
            g.unit: (tuple(names[s] for s in g.seats), g.result, g.record)
            for g in store.games(found.id)
        }


def play(path: Path, the_spec: TournamentSpec, workers: int = 1) -> int:
    with Store.open(str(path)) as store:
        started = run_mod.start(store, the_spec)
        return run_mod.run(store, started, workers)


# ------------------------------------------------------------------------------- the schedule


def test_duplicate_tables_of_a_deal_share_the_cards_with_the_partnerships_swapped(
    tmp_path: Path,
) -> None:
    db = tmp_path / "t.db"
    assert play(db, spec()) == 6
    games = stored(db)
    for d in range(3):
        (seats0, _, record0), (seats1, _, record1) = games[f"g0/d{d}/t0"], games[f"g0/d{d}/t1"]
        assert seats0 == ("h", "r", "h", "r") and seats1 == ("r", "h", "r", "h")
        hand0, hand1 = record0["hands"][0], record1["hands"][0]
        assert hand0["deal"] == hand1["deal"] and hand0["dealer"] == hand1["dealer"]
        assert len(record0["hands"]) == 1  # a deal is one hand, from 0-0
    deals = {json.dumps(games[f"g0/d{d}/t0"][2]["hands"][0]["deal"]) for d in range(3)}
    assert len(deals) == 3  # and each deal is its own


def test_round_robin_tables_have_deals_of_their_own(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    play(db, spec(format="round-robin", deals=2))
    games = stored(db)
    assert games["g0/d0/t0"][2]["hands"][0]["deal"] != games["g0/d0/t1"][2]["hands"][0]["deal"]


def test_lone_players_sit_every_seat_of_every_deal() -> None:
    four = tuple((f"e{i}", "random") for i in range(4))
    hearts = spec(game="hearts", entrants=four, deals=2)
    listed = list(units(hearts))
    assert len(listed) == count(hearts) == 2 * 4
    for d in range(2):
        tables = [u.entrants for u in listed if u.deal == d]
        assert len({u.seed for u in listed if u.deal == d}) == 1  # the same cards at each
        for seat in range(4):
            assert sorted(t[seat] for t in tables) == [0, 1, 2, 3]  # each entrant, each seat


def test_mixed_partnerships_pair_every_entrant_with_every_other() -> None:
    four = tuple((f"e{i}", "random") for i in range(4))
    pairings = groups(spec(entrants=four))
    assert len(pairings) == 3  # {01 v 23, 02 v 13, 03 v 12}
    partners = {frozenset(side) for pairing in pairings for side in pairing}
    assert len(partners) == 6
    assert groups(spec(entrants=four, partnerships="self")) == [
        ((a,), (b,)) for a, b in [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    ]


THREE_TWOS = "setback(partners=3x2,players=6,target=11)"
TWO_THREES = "setback(players=6,target=11)"


def test_six_seat_partnerships_meet_in_every_sides_seats() -> None:
    three = tuple((f"e{i}", "random") for i in range(3))
    sides = spec(game=THREE_TWOS, entrants=three, deals=2)
    assert sides.resolved_partnerships() == "self"
    assert groups(sides) == [((0,), (1,), (2,))]
    listed = list(units(sides))
    assert len(listed) == count(sides) == 2 * 3  # three tables a deal: each side's seats once
    for d in range(2):
        seatings = [u.entrants for u in listed if u.deal == d]
        assert len({u.seed for u in listed if u.deal == d}) == 1
        for seating in seatings:  # partners sit opposite: seats s and s + 3
            assert all(seating[s] == seating[s + 3] for s in range(3))
        for side in range(3):
            assert sorted(t[side] for t in seatings) == [0, 1, 2]
    assert sides.to_dict()["side_of_seat"] == [0, 1, 2, 0, 1, 2]
    assert sides.to_dict()["num_sides"] == 3
    six = tuple((f"e{i}", "random") for i in range(6))
    mixed = groups(spec(game=THREE_TWOS, entrants=six))
    assert len(mixed) == 15  # six entrants in three pairs
    assert all(sorted(e for side in g for e in side) == list(range(6)) for g in mixed)
    alternate = groups(spec(game=TWO_THREES, entrants=six))
    assert len(alternate) == 10 and alternate[0] == ((0, 1, 2), (3, 4, 5))
    seatings = [u.entrants for u in units(spec(game=TWO_THREES, entrants=six, deals=1))][:2]
    assert seatings == [(0, 3, 1, 4, 2, 5), (3, 0, 4, 1, 5, 2)]  # sides alternate round it
    with pytest.raises(OptionError, match="give at least 3 entrants"):
        spec(game=THREE_TWOS)
    with pytest.raises(OptionError, match="at least 6 entrants"):
        spec(game=TWO_THREES, entrants=three, partnerships="mixed")
    lone = tuple((f"e{i}", "random") for i in range(3))
    cutthroat = spec(game="setback(partners=false,players=3)", entrants=lone)
    assert cutthroat.resolved_partnerships() == "none"
    assert [u.entrants for u in units(cutthroat)][:3] == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]


def test_a_six_seat_partnership_tournament_plays_and_stands(tmp_path: Path) -> None:
    from tricktable.analysis.standings import read_standings

    db = tmp_path / "t.db"
    three = (("h", "heuristic"), ("r", "random"), ("s", "heuristic"))
    assert play(db, spec(game=THREE_TWOS, entrants=three, deals=2)) == 6
    games = stored(db)
    assert games["g0/d0/t0"][0] == ("h", "r", "s", "h", "r", "s")
    assert games["g0/d0/t1"][0] == ("r", "s", "h", "r", "s", "h")
    first = [games[f"g0/d0/t{t}"][2]["hands"][0] for t in range(3)]
    assert all(h["deal"] == first[0]["deal"] for h in first)  # the same cards at each table
    assert all(len(g[1]["scores"]) == 3 for g in games.values())
    with Store.open(str(db)) as store:
        standings = read_standings(store, "t")
    assert {row.name for row in standings.rows} == {"h", "r", "s"}
    assert all(row.games == 6 for row in standings.rows)
    assert standings.complete_deals == 2


def test_a_spec_round_trips_and_refuses_what_cannot_be_played(tmp_path: Path) -> None:
    the_spec = spec(matches=2, deals=None, seed=9)
    assert TournamentSpec.from_dict(the_spec.to_dict()).to_dict() == the_spec.to_dict()
    with pytest.raises(OptionError, match="deals or matches"):
        spec(matches=2)
    with pytest.raises(OptionError, match="at least 4 entrants"):
        spec(game="hearts")
    with pytest.raises(OptionError, match="mixed partnerships"):
        spec(partnerships="mixed")
    with pytest.raises(OptionError, match="names must differ"):
        spec(entrants=(("a", "random"), ("a", "heuristic")))
    toml = tmp_path / "cup.toml"
    toml.write_text('game = "smear"\ndeals = 2\n[entrants]\nbest = "heuristic"\nrnd = "random"\n')
    loaded = load_spec_file(str(toml), seed=4)
    assert (loaded.name, loaded.game, loaded.seed, loaded.deals) == ("cup", "smear", 4, 2)
    assert loaded.entrants == (("best", "heuristic"), ("rnd", "random"))
    assert parse_entrants(["a=random", "cmd:./bot --x=1"]) == (
        ("a", "random"),
        ("cmd:./bot --x=1", "cmd:./bot --x=1"),
    )


def test_whole_matches_that_never_end_stop_at_the_hand_cap(tmp_path: Path) -> None:
    # A side of a heuristic and a random player keeps being set: its match never ends.
    four = (("a", "heuristic"), ("b", "heuristic"), ("c", "random"), ("d", "random"))
    db = tmp_path / "t.db"
    play(db, spec(entrants=four, deals=None, matches=1, max_hands=12))
    games = stored(db)
    assert len(games) == 3 * 2
    assert {r["hands"] for _, r, _ in games.values()} <= set(range(1, 13))
    assert any(r["status"] == "stopped" and r["hands"] == 12 for _, r, _ in games.values())


# -------------------------------------------------------------------------- determinism, resume


def test_the_same_tournament_whatever_the_worker_count(tmp_path: Path) -> None:
    the_spec = spec(deals=30)  # 60 tables: three batches
    play(tmp_path / "one.db", the_spec, workers=1)
    play(tmp_path / "two.db", the_spec, workers=2)
    assert stored(tmp_path / "one.db") == stored(tmp_path / "two.db")


def test_a_tournament_killed_mid_way_resumes_without_loss_or_double_count(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    args = ["tournament", "random", "heuristic", "--deals", "600", "--db", str(db)]
    args += ["--name", "k", "--workers", "2", "--json"]
    child = subprocess.Popen(
        [sys.executable, "-m", "tricktable", *args],
        env=cli_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        stored_now = 0
        while time.monotonic() < deadline and not 50 <= stored_now < 1200:
            time.sleep(0.2)
            if db.exists():
                with Store.open(str(db)) as store:
                    found = store.find_tournament("k")
                    stored_now = store.game_count(found.id) if found else 0
        assert child.poll() is None, "it finished before it could be killed"
        os.killpg(child.pid, signal.SIGKILL)  # the command and its workers, at once
        child.wait(timeout=10)
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
    resumed = run_cli(*args)
    assert resumed.returncode == 0, resumed.stderr
    summary = json.loads(resumed.stdout)
    assert summary["resumed"] and summary["stored_before"] >= 50
    assert summary["stored_before"] + summary["stored_now"] == summary["units"] == 1200
    again = stored(db, "k")
    assert len(again) == 1200
    # A killed-and-resumed tournament stores what an uninterrupted one does.
    fresh = tmp_path / "fresh.db"
    the_spec = TournamentSpec(
        name="k", game="setback", entrants=(("random", "random"), ("heuristic", "heuristic")),
        deals=600, seed=summary["seed"],  # drawn by the first run, stored, kept by the resume
    )  # fmt: skip
    sample = {u for i, u in enumerate(sorted(again)) if i % 37 == 0}
    with Store.open(str(fresh)) as store:
        started = run_mod.start(store, the_spec)
        assert started.total == 1200
        done = frozenset(u.key for u in units(the_spec) if u.key not in sample)
        run_mod.run(store, replace(started, done=done))
    fresh_games = stored(fresh, "k")
    assert {u: fresh_games[u] for u in sample} == {u: again[u] for u in sample}


# ---------------------------------------------------------------------------- the command line


def test_the_command_resumes_by_name_and_refuses_other_settings(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    first = run_cli("tournament", "random", "b=random", "--deals", "2", "--db", db, "--name", "n")
    assert first.returncode == 0, first.stderr
    assert "4 tables in all" in first.stdout
    by_name = run_cli("tournament", "--db", db, "--name", "n", "--json")
    assert by_name.returncode == 0 and json.loads(by_name.stdout)["stored_now"] == 0
    other = run_cli("tournament", "random", "b=random", "--deals", "3", "--db", db, "--name", "n")
    assert other.returncode == 2 and "other settings" in other.stderr
    assert len(other.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("random", "nosuchbot"), "entrant 'nosuchbot': unknown player"),
        (("random", "human"), "a person cannot play"),
        (("random",), "at least two entrants"),
        (("random", "heuristic", "--game", "nosuchgame"), "unknown game"),
        (("--name", "missing"), "no tournament 'missing'"),
    ],
)
def test_bad_input_is_one_line_and_stores_nothing(
    tmp_path: Path, args: tuple[str, ...], message: str
) -> None:
    db = tmp_path / "t.db"
    done = run_cli("tournament", *args, "--db", str(db))
    assert done.returncode == 2, done.stderr
    assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1
    if db.exists():
        with Store.open(str(db)) as store:
            assert store.tournaments() == []


def test_ctrl_c_stops_with_one_line_and_keeps_what_is_stored(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    args = ["tournament", "random", "heuristic", "--deals", "20000", "--db", str(db)]
    child = subprocess.Popen(
        [sys.executable, "-m", "tricktable", *args, "--workers", "2", "--json"],
        env=cli_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (db.exists() and db.stat().st_size > 100_000):
        time.sleep(0.2)
    os.killpg(child.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the command and its workers
    _, err = child.communicate(timeout=30)
    assert child.returncode == 130
    assert err.strip().splitlines() == [
        "stopped: every finished unit is stored; run the same command again to resume"
    ]  # no worker's traceback
