"""The runner: picklable specs, injected deals (duplicate play), resuming, faults, engine errors.

Bots that fail are real programs (``tests/bots/``); an engine bug is an event log that raises
inside ``apply``, which works the same on the compiled engine and on its source.
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from helpers import BrokenLog
from tricktable.bots.base import Bot
from tricktable.engine.trick import TrickState
from tricktable.errors import BotError
from tricktable.games import load_game
from tricktable.limits import RunnerOptions
from tricktable.match import EngineFailure, play_match
from tricktable.records import replay, to_record
from tricktable.runner import (
    BotPool,
    Deal,
    MatchOutcome,
    MatchSpec,
    MatchSpecError,
    MatchStopped,
    deals_of,
    run_match,
)

BOTS = Path(__file__).parent / "bots"
EXAMPLE = Path(__file__).parents[1] / "examples/bots/python/bot.py"
MIXED = ("heuristic", "random", "heuristic", "random")
#: quick limits for programs that fail
QUICK = RunnerOptions(decision_time=1.0, startup_time=3.0)


def program(script: Path, *args: str) -> str:
    return f"cmd:{sys.executable} {script} {' '.join(args)}".strip()


def same_json(record: dict[str, Any]) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(json.dumps(record))
    return loaded


def break_engine(state: TrickState) -> None:
    state.events = BrokenLog(state.game.num_players)


# ------------------------------------------------------------------------------ the spec


def test_the_spec_and_the_outcome_pickle() -> None:
    spec = MatchSpec("setback(target=11)", MIXED, seed=5, max_hands=6)
    assert pickle.loads(pickle.dumps(spec)) == spec
    outcome = run_match(spec)
    again = pickle.loads(pickle.dumps(outcome))
    assert isinstance(again, MatchOutcome) and again.state is None
    assert again.record == outcome.record and again.result == outcome.result
    assert again.players == MIXED


def test_run_match_plays_what_play_match_plays() -> None:
    for seed in (1, 2, 3):
        outcome = run_match(MatchSpec("setback", MIXED, seed=seed))
        from tricktable.bots import make_bot

        bots = [make_bot(p) for p in MIXED]
        state = play_match(load_game("setback"), bots, seed)
        assert outcome.record == to_record(state, [f"bot:{p}" for p in MIXED])
        result = outcome.result
        assert result.status == "finished" and result.winner == state.winner
        assert result.scores == tuple(state.scores) and result.hands == len(state.results)
        assert outcome.faults == ()


def test_a_match_stops_at_max_hands() -> None:
    outcome = run_match(MatchSpec("hearts", ("random",) * 4, seed=3, max_hands=2))
    assert outcome.result.status == "stopped" and outcome.result.hands == 2
    assert outcome.result.winner is None


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": ("random",) * 3}, "needs 4 players"),
        ({"players": ("human", "random", "random", "random")}, "seat 0 is a person's"),
        ({"players": ("random", "nobody", "random", "random")}, "seat 1: unknown player"),
    ],
)
def test_a_spec_that_cannot_be_played_fails_before_the_match(
    kwargs: dict[str, Any], message: str
) -> None:
    spec = MatchSpec(**{"game": "setback", "players": MIXED, "seed": 1, **kwargs})
    with pytest.raises(MatchSpecError, match=message):
        run_match(spec)


def test_bad_fields_are_refused() -> None:
    with pytest.raises(MatchSpecError, match="max_hands"):
        MatchSpec("setback", MIXED, max_hands=0)
    with pytest.raises(MatchSpecError, match="labels"):
        MatchSpec("setback", MIXED, labels=("a",))


def test_a_person_is_the_callers_player() -> None:
    class FirstChoice(Bot):
        name = "first"

        def act(self, view: Any) -> int:
            return int(view.legal_actions()[0])

    person = FirstChoice()
    spec = MatchSpec("setback", ("human", *MIXED[1:]), seed=4, max_hands=3)
    seen: list[int] = []
    outcome = run_match(spec, bots={0: person}, listener=lambda s, seat, a: seen.append(seat))
    assert 0 in seen and outcome.record["players"][0] == "human"
    assert outcome.result.hands == 3


# ------------------------------------------------------------------------ injected deals


def recorded_deals(seed: int, hands: int) -> tuple[Deal, ...]:
    spec = MatchSpec("setback", ("random",) * 4, seed=seed, max_hands=hands)
    return deals_of(run_match(spec).record)


def test_injected_deals_are_dealt_in_order_and_the_match_stops_when_they_run_out() -> None:
    deals = recorded_deals(11, 5)
    assert len(deals) == 5
    outcome = run_match(MatchSpec("setback", MIXED, seed=99, deals=deals))
    assert deals_of(outcome.record) == deals[: outcome.result.dealt]
    if outcome.result.status != "finished":
        assert outcome.result.status == "stopped" and outcome.result.dealt == 5
    # The record replays: its deals and actions rebuild the state exactly.
    assert to_record(replay(outcome.record), outcome.labels) == outcome.record


def test_duplicate_play_same_deals_seats_rotated_and_partnerships_swapped() -> None:
    deals = recorded_deals(21, 8)
    players = ("heuristic",) * 4
    base = run_match(MatchSpec("setback", MIXED, seed=5, deals=deals, max_hands=8))
    # Partnerships swapped: each side gets the other side's cards, the players stay.
    swapped = tuple(d.rotated(1) for d in deals)
    other = run_match(MatchSpec("setback", MIXED, seed=5, deals=swapped, max_hands=8))
    assert deals_of(base.record) == deals[: base.result.dealt]
    assert deals_of(other.record) == swapped[: other.result.dealt]
    for outcome in (base, other):
        assert to_record(replay(outcome.record), outcome.labels) == outcome.record
    for mine, theirs in zip(deals_of(base.record), deals_of(other.record), strict=False):
        assert mine.hands[0] == theirs.hands[1] and mine.hands[1] == theirs.hands[2]
        assert theirs.dealer == (mine.dealer + 1) % 4
    # Seats rotated with the deals: every player holds the same cards at the same place
    # relative to the dealer, so seat-blind deterministic players play the same cards.
    straight = run_match(MatchSpec("setback", players, seed=5, deals=deals, max_hands=8))
    turned = run_match(MatchSpec("setback", players, seed=5, deals=swapped, max_hands=8))
    for one, two in zip(straight.record["hands"], turned.record["hands"], strict=True):
        assert one["actions"] == two["actions"]
    assert straight.result.scores == turned.result.scores[::-1]


def test_a_deal_that_is_not_one_stops_with_a_clear_error() -> None:
    bad = Deal(0, ((0, 1, 2, 3, 4, 5),) * 4)  # the same six cards to every seat
    with pytest.raises(MatchStopped, match=r"deal 1: .* dealt twice") as stopped:
        run_match(MatchSpec("setback", MIXED, seed=1, deals=(bad,)))
    assert stopped.value.outcome.result.dealt == 0


# ------------------------------------------------------------------------------ resuming


def test_a_cut_record_resumes_to_the_uninterrupted_record() -> None:
    whole = run_match(MatchSpec("hearts", MIXED, seed=8, max_hands=6)).record
    n = len(whole["hands"])
    last = len(whole["hands"][-1]["actions"])
    assert n >= 3
    for hand, actions in ((1, None), (n // 2, 0), (n // 2, 9), (n - 1, last - 1)):
        cut = json.loads(json.dumps(whole))
        partial = dict(cut["hands"][hand])
        cut["hands"] = cut["hands"][:hand]
        if actions is not None:
            partial["actions"] = partial["actions"][:actions]
            cut["unfinished_hand"] = partial
        again = run_match(MatchSpec.resuming(cut, max_hands=6))
        assert same_json(again.record) == same_json(whole), (hand, actions)


def test_a_resumed_spec_names_the_records_game_and_seed() -> None:
    record = run_match(MatchSpec("smear", MIXED, seed=3, max_hands=1)).record
    spec = MatchSpec.resuming(record)
    assert (spec.game, spec.seed, spec.players) == ("smear", 3, MIXED)
    assert spec.labels == tuple(f"bot:{p}" for p in MIXED)
    with pytest.raises(MatchSpecError, match="seed"):
        run_match(MatchSpec("smear", MIXED, seed=4, resume=json.dumps(record)))


def test_a_substitution_in_the_record_stays_in_force_when_resumed() -> None:
    crash = program(BOTS / "crash.py", "--after", "15")
    players = (crash, "random", "heuristic", "random")
    spec = MatchSpec("setback", players, seed=2, limits=QUICK, max_hands=8)
    whole = same_json(run_match(spec).record)
    fault = whole["faults"][0]
    assert (fault["seat"], fault["kind"], fault["penalty"]) == (0, "crash", "substitute")
    assert whole["format"] == "tricktable-record/2"
    later = fault["hand"] + 1
    cut = json.loads(json.dumps(whole))
    cut["hands"] = cut["hands"][:later]
    again = run_match(MatchSpec.resuming(cut, limits=QUICK, max_hands=8))
    # The crashing program is not started again: the substitute goes on, the fault is kept.
    assert same_json(again.record) == whole
    assert again.players[0] == f"{crash} (substituted by heuristic in hand {later})"


# -------------------------------------------------------------------------------- faults


def test_the_substitute_is_the_specs_and_every_fault_is_in_the_outcome() -> None:
    crash = program(BOTS / "crash.py", "--after", "5")
    spec = MatchSpec(
        "hearts", (crash, "random", "random", "random"), 6, QUICK, 4, substitute="random"
    )
    outcome = run_match(spec)
    assert [(f["seat"], f["kind"], f["penalty"]) for f in outcome.faults] == [
        (0, "crash", "substitute")
    ]
    hand = outcome.faults[0]["hand"]
    assert outcome.substitutions == ((0, hand, "random"),)
    assert outcome.players[0] == f"{crash} (substituted by random in hand {hand + 1})"
    notes = [n for h in outcome.record["hands"] for n in h.get("notes", [])]
    assert [(n["kind"], n["text"]) for n in notes] == [("substitute", "bot:random")]


def test_bots_are_closed_whatever_happens(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    spec = MatchSpec(
        "setback",
        (program(BOTS / "record.py", "--pids", str(pids)), *MIXED[1:]),
        seed=3,
        max_hands=6,
    )
    with pytest.raises(MatchStopped):
        run_match(spec, on_start=break_engine)
    for pid in map(int, pids.read_text().split()):
        assert not _alive(pid), f"bot process {pid} outlived its match"


def test_a_pool_keeps_bots_between_matches_and_remakes_those_that_faulted() -> None:
    pool = BotPool()
    try:
        one = pool.bot(0, "random", QUICK)
        assert pool.bot(0, "random", QUICK) is one
        pool.discard([0])
        assert pool.bot(0, "random", QUICK) is not one
    finally:
        pool.close()


# ------------------------------------------------------------------------- engine errors


def test_an_engine_error_stops_the_match_and_blames_no_bot() -> None:
    players = (program(EXAMPLE), "heuristic", program(EXAMPLE), "heuristic")
    spec = MatchSpec("setback", players, seed=3, limits=QUICK, max_hands=10)
    with pytest.raises(MatchStopped) as stopped:
        run_match(spec, on_start=break_engine)
    cause = stopped.value.cause
    assert isinstance(cause, EngineFailure)
    assert isinstance(cause.__cause__, ZeroDivisionError)
    assert str(cause).startswith("engine error in hand 3, action ")
    assert "ZeroDivisionError: boom" in str(cause) and "\n" not in str(cause)
    outcome = stopped.value.outcome
    assert outcome.faults == () and outcome.substitutions == ()
    record = outcome.record
    assert len(record["hands"]) == 2 and "unfinished_hand" in record
    assert "faults" not in record


def test_a_failing_substitute_stops_the_match() -> None:
    crash = program(BOTS / "crash.py", "--after", "2")
    spec = MatchSpec(
        "setback", (crash, *MIXED[1:]), seed=1, limits=QUICK, substitute=crash, max_hands=5
    )
    with pytest.raises(MatchStopped) as stopped:
        run_match(spec)
    assert isinstance(stopped.value.cause, BotError)
    assert "substitute bot at seat 0 failed" in str(stopped.value)
    assert [f["penalty"] for f in stopped.value.outcome.faults] == ["substitute"]


def test_the_bots_package_does_not_import_the_match_loop() -> None:
    code = "import sys, tricktable.bots; assert 'tricktable.match' not in sys.modules"
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).parents[1] / "src"))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr


def _alive(pid: int) -> bool:
    import time

    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            return False
        if stat[stat.rindex(")") + 2] == "Z":
            return False
        time.sleep(0.02)
    return True
