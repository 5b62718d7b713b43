"""Plug-in bots that hang or raise anything: one referee, in ``play``'s loop and at a table.

A plug-in (``path/to/bot.py:Class``) runs in this process. Whatever it does — sleep for ever,
spin, call ``sys.exit``, raise ``KeyboardInterrupt``, ``GeneratorExit`` or a ``BaseException``
of its own, in ``act``, ``end_hand`` or ``start_match`` — the match goes on: the fault is timed
and charged by the referee's clock (:mod:`tricktable.botcalls`) exactly as the table's asyncio
driver charges it, and ``tricktable play`` saves the record and exits 0, with no traceback.
The package's own bots are never put in a thread.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from conftest import run_cli
from tricktable.botcalls import untrusted
from tricktable.bots import make_bot
from tricktable.bots.base import Bot
from tricktable.games import load_game
from tricktable.match import Referee, RunnerOptions, play_match
from tricktable.protocols.plugins import load_plugin
from tricktable.table import Table, run

LIMIT = 0.2
GRACE = 0.1
OPTIONS = RunnerOptions(decision_time=LIMIT, startup_time=0.5)

PLUGIN = '''
import sys, time
from tricktable.bots.base import Bot


class Mine(BaseException):
    pass


class Misbehaves(Bot):
    """Plays its first legal action, then from its third decision misbehaves (``how``)."""

    how = "nothing"
    where = "act"

    def __init__(self):
        self.calls = 0

    def misbehave(self):
        how = self.how
        if how == "hang":
            time.sleep(3600)
        elif how == "spin":
            while True:
                pass
        elif how == "exit":
            sys.exit(3)
        elif how == "interrupt":
            raise KeyboardInterrupt
        elif how == "generator":
            raise GeneratorExit
        elif how == "base":
            raise Mine("mine")

    def start_match(self, game, seat, seed):
        super().start_match(game, seat, seed)
        if self.where == "start":
            self.misbehave()

    def act(self, view):
        self.calls += 1
        if self.where == "act" and self.calls >= 3:
            self.misbehave()
        return view.legal_actions()[0]

    def end_hand(self, view, result):
        if self.where == "end_hand":
            self.misbehave()

    def end_match(self, view):
        if self.where == "end_match":
            self.misbehave()

    def close(self):
        if self.where == "close":
            self.misbehave()


class Hang(Misbehaves):
    how = "hang"


class Spin(Misbehaves):
    how = "spin"


class Exit(Misbehaves):
    how = "exit"


class Interrupt(Misbehaves):
    how = "interrupt"


class Generator(Misbehaves):
    how = "generator"


class Base(Misbehaves):
    how = "base"


class ExitAtHandEnd(Misbehaves):
    how = "exit"
    where = "end_hand"


class HangAtHandEnd(Misbehaves):
    how = "hang"
    where = "end_hand"


class ExitAtMatchEnd(Misbehaves):
    how = "exit"
    where = "end_match"


class ExitAtClose(Misbehaves):
    how = "exit"
    where = "close"


class HangAtClose(Misbehaves):
    how = "hang"
    where = "close"
'''

#: (class, fault kind, words in its detail)
CASES = [
    ("Hang", "timeout", "no answer within"),
    ("Spin", "timeout", "no answer within"),
    ("Exit", "crash", "raised SystemExit: 3"),
    ("Interrupt", "crash", "raised KeyboardInterrupt"),
    ("Generator", "crash", "raised GeneratorExit"),
    ("Base", "crash", "raised Mine: mine"),
    ("ExitAtHandEnd", "crash", "raised SystemExit: 3"),
    ("HangAtHandEnd", "timeout", "no answer within"),
]


@pytest.fixture
def plugin(tmp_path: Path) -> Path:
    path = tmp_path / "misbehaving.py"
    path.write_text(PLUGIN, encoding="utf-8")
    return path


def in_loop(game_spec: str, bot: Bot, seed: int = 5) -> list[dict[str, Any]]:
    """The faults of a match played by the match loop (``play``'s), ``bot`` in seat 1."""
    game = load_game(game_spec)
    bots = [make_bot("heuristic") for _ in range(game.num_players)]
    bots[1] = bot
    referee = Referee(OPTIONS)
    referee.clock.grace = GRACE
    state = play_match(game, bots, seed, max_hands=3, referee=referee)
    assert len(state.history) >= 1
    return referee.faults


def at_table(game_spec: str, bot: Bot, seed: int = 5) -> list[dict[str, Any]]:
    """The faults of the same match played at a table by the asyncio driver."""
    game = load_game(game_spec)
    seats: list[Bot | str] = ["heuristic"] * game.num_players
    seats[1] = bot
    table = Table(game, seats, seed, Referee(OPTIONS), talk=False)
    try:
        asyncio.run(run(table, max_hands=3, grace=GRACE))
    finally:
        table.close()
    return table.referee.faults


def seat_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("tricktable-seat-")]


@pytest.mark.parametrize(("cls", "kind", "words"), CASES)
def test_a_plug_in_is_refereed_in_plays_loop_as_at_a_table(
    plugin: Path, cls: str, kind: str, words: str
) -> None:
    began = time.monotonic()
    looped = in_loop("setback", load_plugin(f"{plugin}:{cls}"))
    took = time.monotonic() - began
    tabled = at_table("setback", load_plugin(f"{plugin}:{cls}"))
    assert [(f["kind"], f["penalty"]) for f in looped] == [(kind, "substitute")]
    assert words in looped[0]["detail"]
    # One referee: the same fault, at the same place, with the same penalty and detail.
    assert looped == tabled
    # A timeout costs the decision's limit and the grace, not more (a second is slack).
    assert took < LIMIT + GRACE + 1.0 + 3.0


def test_a_plug_in_that_spins_is_stopped_not_left_running(plugin: Path) -> None:
    before = set(seat_threads())
    in_loop("setback", load_plugin(f"{plugin}:Spin"))
    deadline = time.monotonic() + 5
    while {t for t in seat_threads() if t.is_alive()} - before and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not {t for t in seat_threads() if t.is_alive()} - before


@pytest.mark.parametrize("how", ["exit", "hang", "base"])
def test_a_plug_in_that_fails_to_start_is_a_fault_before_the_first_hand(
    plugin: Path, how: str
) -> None:
    source = plugin.read_text(encoding="utf-8")
    plugin.write_text(
        f"{source}\n\nclass AtStart(Misbehaves):\n    how = {how!r}\n    where = 'start'\n"
    )
    looped = in_loop("tricks(target=30)", load_plugin(f"{plugin}:AtStart"))
    tabled = at_table("tricks(target=30)", load_plugin(f"{plugin}:AtStart"))
    kind = "timeout" if how == "hang" else "crash"
    # Not while deciding, even in Tricks: no bad card, the seat handed on before hand 1.
    assert [(f["hand"], f["action"], f["kind"], f["penalty"]) for f in looped] == [
        (-1, None, kind, "substitute")
    ]
    assert looped == tabled


def test_the_packages_own_bots_are_trusted_and_never_threaded() -> None:
    for spec in ("random", "heuristic", "edna", "expert"):
        assert not untrusted(make_bot(spec)), spec
    before = threading.active_count()
    referee = Referee(OPTIONS)
    game = load_game("setback")
    play_match(game, [make_bot("random") for _ in range(4)], 3, max_hands=5, referee=referee)
    assert referee.clock.threads == {} and referee.clock.used == {}
    assert threading.active_count() == before


def test_a_plug_in_is_untrusted_and_a_built_in_named_as_a_plug_in_is_not(plugin: Path) -> None:
    assert untrusted(load_plugin(f"{plugin}:Hang"))
    assert not untrusted(load_plugin("tricktable.bots.random_bot:RandomBot"))


def test_a_plug_in_within_its_limits_plays_in_its_thread(plugin: Path) -> None:
    faults = in_loop("setback", load_plugin(f"{plugin}:Misbehaves"))
    assert faults == []


def play_cli(tmp_path: Path, players: str) -> tuple[subprocess.CompletedProcess[str], float]:
    """``tricktable play`` of three hands saved to match.json in ``tmp_path``, and its time."""
    began = time.monotonic()
    done = run_cli(
        "play",
        "--players",
        players,
        "--seed",
        "3",
        "--max-hands",
        "3",
        "--decision-time",
        str(LIMIT),
        "--save",
        str(tmp_path / "match.json"),
        timeout=120,
    )
    return done, time.monotonic() - began


@pytest.mark.parametrize(("cls", "kind", "words"), [CASES[0], CASES[1], CASES[2], CASES[5]])
def test_play_saves_the_record_of_a_plug_in_that_hangs_or_exits(
    plugin: Path, tmp_path: Path, cls: str, kind: str, words: str
) -> None:
    done, took = play_cli(tmp_path, f"{plugin}:{cls},heuristic,heuristic,heuristic")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    record = json.loads((tmp_path / "match.json").read_text(encoding="utf-8"))
    faults = record["faults"]
    assert [(f["seat"], f["kind"], f["penalty"]) for f in faults] == [(0, kind, "substitute")]
    assert words in faults[0]["detail"]
    # The abandoned thread holds nothing at exit: the process ends with its match.
    assert took < 30


@pytest.mark.parametrize("cls", ["ExitAtMatchEnd", "ExitAtClose", "HangAtClose"])
def test_play_ends_well_whatever_a_plug_in_does_at_the_end(
    plugin: Path, tmp_path: Path, cls: str
) -> None:
    done, took = play_cli(tmp_path, f"{plugin}:{cls},heuristic,heuristic,heuristic")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    assert json.loads((tmp_path / "match.json").read_text(encoding="utf-8"))["hands"]
    # The match was decided: saying goodbye badly costs nothing, and a close that hangs is
    # given up after a few seconds.
    assert took < 30


def test_a_series_of_matches_leaves_no_thread_behind(plugin: Path) -> None:
    from tricktable.runner import BotPool, MatchSpec, run_match

    pool = BotPool()
    players = (f"{plugin}:Misbehaves", "random", "random", "random")
    before = threading.active_count()
    try:
        for seed in range(12):
            outcome = run_match(
                MatchSpec("setback", players, seed, OPTIONS, max_hands=2), pool=pool
            )
            assert outcome.faults == ()
    finally:
        pool.close()
    deadline = time.monotonic() + 5
    while threading.active_count() > before and time.monotonic() < deadline:
        time.sleep(0.02)
    assert threading.active_count() == before
