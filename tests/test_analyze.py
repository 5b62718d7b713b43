"""``tricktable analyze``: a real record of a seeded match, decision by decision, against the
solver; a record made to hold a bad card; the sampled advice blind to hidden cards; the CLI."""

from __future__ import annotations

import copy
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import tricktable
from tricktable.analysis.analyze import Analysis, AnalysisError, analyze
from tricktable.bots import make_bot
from tricktable.cards import card_name, cards_in
from tricktable.engine.actions import is_play
from tricktable.engine.trick import PLAY, TrickState
from tricktable.games import load_game
from tricktable.match import play_match
from tricktable.records import replay, save_record, to_record
from tricktable.search import determinize
from tricktable.search.solver import solve

SRC = str(Path(tricktable.__file__).resolve().parents[1])


def _cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (SRC, env.get("PYTHONPATH")) if p)
    env.update(PYTHONIOENCODING="utf-8", COLUMNS="200")
    return subprocess.run(
        [sys.executable, "-m", "tricktable", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=300,
        env=env,
        cwd=cwd,
    )


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """A record saved by ``tricktable play``: two hands, heuristic against random, seeded."""
    path = tmp_path_factory.mktemp("records") / "match.json"
    run = _cli(
        "play",
        "--players",
        "heuristic,random,heuristic,random",
        "--seed",
        "3",
        "--max-hands",
        "2",
        "--save",
        str(path),
    )
    assert run.returncode == 0, run.stderr
    return path, json.loads(path.read_text())


@pytest.fixture(scope="module")
def dd(made: tuple[Path, dict[str, Any]]) -> Analysis:
    """The double-dummy pass over the whole record."""
    return analyze(made[1], sampling=False)


def _state_before(record: dict[str, Any], hand: int, index: int) -> TrickState:
    """The match just before action ``index`` of hand ``hand``, rebuilt by the records' own
    replay (an unfinished hand replays as far as it went), not by the analyser's walk."""
    cut = {k: v for k, v in record.items() if k != "unfinished_hand"}
    cut["hands"] = record["hands"][:hand]
    played = record["hands"][hand]
    cut["unfinished_hand"] = {**played, "actions": played["actions"][:index]}
    return replay(cut)


# ---------------------------------------------------------------------------- double-dummy


def test_every_card_play_decision_is_found(made: tuple[Path, dict[str, Any]], dd: Analysis) -> None:
    record = made[1]
    plays = [
        (h, i, action)
        for h, hand in enumerate(record["hands"])
        for i, action in enumerate(hand["actions"])
        if action.startswith("play ")
    ]
    found = [(d.hand, d.index, dd.game.action_name(d.action)) for d in dd.decisions if d.playing]
    assert found == plays
    assert len(plays) == 2 * 24  # two hands of six tricks of four cards
    for d in dd.decisions:
        if not d.playing or d.forced:
            assert d.double_dummy is None  # nothing to compare (or no solver before play)
        else:
            assert d.double_dummy is not None and set(d.double_dummy.values) == set(d.legal)
    assert len({d.seat for d in dd.decisions}) == 4


def test_the_best_card_loses_nothing_and_a_loss_is_the_value_given_up(dd: Analysis) -> None:
    solved = [d for d in dd.decisions if d.double_dummy is not None]
    assert solved
    for d in solved:
        values = d.double_dummy.values  # type: ignore[union-attr]
        top = max(values.values())
        for card in d.double_dummy.best:  # type: ignore[union-attr]
            assert values[card] == top
        assert d.dd_loss() == top - values[d.action] >= 0
        assert (d.dd_loss() == 0) == (d.action in d.double_dummy.best)  # type: ignore[union-attr]
    assert any(d.dd_loss() for d in solved)  # random play gives points away


def test_double_dummy_values_agree_with_solve_on_the_same_positions(
    made: tuple[Path, dict[str, Any]], dd: Analysis
) -> None:
    record = made[1]
    solved = [d for d in dd.decisions if d.double_dummy is not None]
    # Every position from the second trick on, and the first trick's last two (the first
    # lead, with trump not named yet, costs seconds).
    chosen = [d for d in solved if d.trick >= 1] + [d for d in solved if d.trick == 0][-2:]
    for d in chosen:
        state = _state_before(record, d.hand, d.index)
        assert state.to_act == d.seat and state.phase == PLAY
        assert solve(state, d.seat).moves == d.double_dummy.values  # type: ignore[union-attr]


def _perfect_finish(state: TrickState) -> None:
    """Play the rest of the hand with a best card of the solver at every turn."""
    while state.phase == PLAY:
        state.apply(solve(state, state.to_act).best()[0])


def test_a_card_that_gives_points_away_is_flagged_with_its_loss(
    made: tuple[Path, dict[str, Any]], dd: Analysis
) -> None:
    """A record made to hold the worst card where the solver sees a loss, then perfect play:
    the analyser flags that card with exactly the points it gave up, and the hand's real
    result is the solver's value of that card."""
    record = made[1]
    target = next(
        d
        for d in dd.decisions
        if d.double_dummy is not None
        and d.trick >= 2
        and len(set(d.double_dummy.values.values())) > 1
    )
    values = target.double_dummy.values  # type: ignore[union-attr]
    worst = min(values, key=lambda c: (values[c], c))
    state = _state_before(record, target.hand, target.index)
    before = list(state.scores)
    state.apply(worst)
    _perfect_finish(state)
    assert state.needs_deal or state.is_over
    made_record = to_record(state, record["players"])
    assert "unfinished_hand" not in made_record

    analysis = analyze(made_record, hands=[target.hand], sampling=False)
    # (The random seats' own mistakes before it stay in the record.)
    flagged = [d for d in analysis.mistakes(target.hand) if d.index >= target.index]
    assert [(d.index, d.seat, d.action) for d in flagged] == [(target.index, target.seat, worst)]
    loss = max(values.values()) - values[worst]
    assert loss >= 1 and flagged[0].dd_loss() == loss
    side = state.game.team_of(target.seat)
    gains = [after - was for after, was in zip(state.scores, before, strict=True)]
    assert gains[side] - gains[1 - side] == values[worst]  # what the solver said it was worth
    later = [d for d in analysis.decisions if d.index > target.index and d.double_dummy]
    assert later and all(d.dd_loss() == 0 for d in later)  # perfect play loses nothing


# ---------------------------------------------------------------------------- with sampling


def _same_view_other_cards(record: dict[str, Any], hand: int, index: int) -> dict[str, Any]:
    """The record with the hidden cards of ``hand`` dealt otherwise — everything the seat to
    act at ``index`` has seen kept — played to its end from there by the solver's best cards.
    """
    state = _state_before(record, hand, index)
    seat = state.to_act
    world = determinize(state.view(seat), random.Random(5))
    assert world.view(seat).to_dict() == state.view(seat).to_dict()
    assert world.hands != state.hands
    # The new deal: each seat's cards in the world plus those it has played this hand.
    played = [0] * 4
    log = state.history[-1]
    for who, action in zip(log.actors, log.actions, strict=True):
        if is_play(action):
            played[who] |= 1 << action
    deal = [world.hands[s] | played[s] for s in range(4)]
    assert deal[seat] == state.dealt[seat]
    other = copy.deepcopy(record)
    other["hands"] = other["hands"][: hand + 1]
    other["hands"][hand]["deal"] = [[card_name(c) for c in cards_in(m)] for m in deal]
    rebuilt = _state_before(other, hand, index)
    rebuilt.apply(record_action(record, hand, index, rebuilt))
    _perfect_finish(rebuilt)
    return to_record(rebuilt, record["players"])


def record_action(record: dict[str, Any], hand: int, index: int, state: TrickState) -> int:
    return state.game.parse_action(record["hands"][hand]["actions"][index])


def test_the_sampled_advice_depends_on_the_seats_view_alone(
    made: tuple[Path, dict[str, Any]], dd: Analysis
) -> None:
    record = made[1]
    target = next(d for d in dd.decisions if d.double_dummy is not None and d.trick == 3)
    other = _same_view_other_cards(record, target.hand, target.index)
    assert other["hands"][target.hand]["deal"] != record["hands"][target.hand]["deal"]

    def advice(rec: dict[str, Any]) -> list[Any]:
        found = analyze(
            rec, seats=[target.seat], hands=[target.hand], budget=None, samples=3, seed=1
        )
        early = [d for d in found.decisions if d.index <= target.index]
        return [(d.index, d.sampled.hint.choices if d.sampled else None) for d in early]

    mine, theirs = advice(record), advice(other)
    assert mine == theirs
    assert sum(1 for _, choices in mine if choices) >= 3  # bids and cards were searched


def test_sampling_adds_the_bots_choice_and_its_estimated_loss(
    made: tuple[Path, dict[str, Any]],
) -> None:
    found = analyze(made[1], hands=[1], seats=[1], budget=0.1, seed=2)
    searched = [d for d in found.decisions if d.sampled is not None]
    assert searched
    for d in searched:
        assert d.sampled is not None
        loss = d.sampled.loss
        assert loss is not None and loss >= 0
        assert (d.sampled.best == d.action) <= (loss == 0)
        assert d.sampled.best in d.legal
    row = found.summary()[0]
    assert row.seat == 1 and row.sampled_decisions == len(searched)
    assert row.sampled_lost == pytest.approx(sum(d.sampled_loss() or 0 for d in searched))


# ---------------------------------------------------------------------------- bad records


def test_an_unfinished_record_is_refused(made: tuple[Path, dict[str, Any]]) -> None:
    cut = _state_before(made[1], 1, 10)
    with pytest.raises(AnalysisError, match="middle of hand 2"):
        analyze(to_record(cut), sampling=False)


def test_seats_and_hands_out_of_range_are_refused(made: tuple[Path, dict[str, Any]]) -> None:
    with pytest.raises(AnalysisError, match="no seat 4"):
        analyze(made[1], seats=[4], sampling=False)
    with pytest.raises(AnalysisError, match="no hand 3 in this record: hands are 1 to 2"):
        analyze(made[1], hands=[2], sampling=False)


def _one_line_error(run: subprocess.CompletedProcess[str], words: str) -> None:
    assert run.returncode == 2, (run.stdout, run.stderr)
    assert run.stdout == ""
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0], lines


def test_cli_errors_are_one_line(tmp_path: Path, made: tuple[Path, dict[str, Any]]) -> None:
    _one_line_error(_cli("analyze", str(tmp_path / "nope.json")), "cannot read")
    garbage = tmp_path / "garbage.json"
    garbage.write_text("not json at all")
    _one_line_error(_cli("analyze", str(garbage)), "malformed JSON")
    listed = tmp_path / "list.json"
    listed.write_text("[1, 2]")
    _one_line_error(_cli("analyze", str(listed)), "a record must be a JSON object")
    cut = tmp_path / "cut.json"
    save_record(to_record(_state_before(made[1], 0, 7)), cut)
    _one_line_error(_cli("analyze", str(cut), "--no-sampling"), "middle of hand 1")
    _one_line_error(_cli("analyze", str(made[0]), "--hands", "x"), "bad --hands")
    _one_line_error(_cli("analyze", str(made[0]), "--seat", "7"), "no seat 7")
    # A game no solver here knows, without the sampling that could analyse it.
    oh_hell = tmp_path / "oh-hell.json"
    run = _cli("play", "--game", "oh-hell", "--players", "random,random,random,random",
               "--seed", "1", "--max-hands", "1", "--save", str(oh_hell))  # fmt: skip
    assert run.returncode == 0, run.stderr
    _one_line_error(_cli("analyze", str(oh_hell), "--no-sampling"), "no double-dummy solver")


def test_cli_json_parses_and_the_text_report_names_who_lost_what(
    made: tuple[Path, dict[str, Any]], dd: Analysis
) -> None:
    path = made[0]
    second = [d for d in dd.decisions if d.hand == 1]
    run = _cli("analyze", str(path), "--no-sampling", "--json", "--hands", "2")
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["double_dummy"] is True and data["sampling"] is False
    assert data["hands"] == [2] and data["seats"] == [0, 1, 2, 3]
    assert len(data["decisions"]) == len(second)
    assert [d["action"] for d in data["decisions"]] == [
        dd.game.action_name(d.action) for d in second
    ]
    first = next(d for d in data["decisions"] if d["double_dummy"])
    assert first["action"].startswith("play ") and first["action"] in first["legal"]
    assert first["double_dummy"]["loss"] == (
        first["double_dummy"]["value"] - first["double_dummy"]["values"][first["action"]]
    )
    lost = {row["seat"]: row["double_dummy"]["lost"] for row in data["summary"]}
    assert lost == {s: sum(d.dd_loss() or 0 for d in second if d.seat == s) for s in range(4)}

    text = _cli("analyze", str(path), "--no-sampling", "--seat", "1", "--hands", "1")
    assert text.returncode == 0, text.stderr
    out = text.stdout
    assert "Analysis of Setback · seed 3 · 2 hands" in out
    assert "Hand 1 ·" in out and "Hand 2 ·" not in out and "Summary" in out
    west = analyze(made[1], seats=[1], hands=[0], sampling=False).summary()[0]
    assert west.dd_decisions and west.dd_lost == sum(
        d.dd_loss() or 0 for d in dd.decisions if d.hand == 0 and d.seat == 1
    )
    summary_row = next(line for line in out.splitlines() if line.startswith("West "))
    assert summary_row.split()[2:5] == [
        str(west.analysed), str(west.dd_mistakes), str(west.dd_lost)
    ]  # fmt: skip
    assert "South " not in out.split("Summary")[1]  # one seat asked for


def test_a_solve_out_of_time_is_given_up_with_the_rest_of_its_trick() -> None:
    """Hearts' thirteen-card hands: the first tricks are beyond a short solve time, the last
    ones are solved; where a solve ran out, the rest of its trick is not tried."""
    game = load_game("hearts")
    bots = [make_bot("heuristic"), make_bot("random")] * 2
    record = to_record(play_match(game, bots, 2, max_hands=1))
    found = analyze(record, sampling=False, solve_time=0.05)
    unsolved = [d for d in found.decisions if d.unsolved]
    solved = [d for d in found.decisions if d.double_dummy is not None]
    assert unsolved and solved
    assert min(d.trick for d in solved) > min(d.trick for d in unsolved)
    for d in unsolved:
        assert d.double_dummy is None and not d.forced
        later = [e for e in found.decisions if e.trick == d.trick and e.index > d.index]
        assert all(e.double_dummy is None for e in later)
    assert sum(row.dd_unsolved for row in found.summary()) == len(unsolved)


#: a quick sampled analysis of the first hand
QUICK = ("--hands", "1", "--budget", "0.05", "--seed", "1")


@pytest.mark.parametrize("columns", [None, "50"])
def test_a_report_piped_to_a_file_cuts_no_name(
    made: tuple[Path, dict[str, Any]], tmp_path: Path, columns: str | None
) -> None:
    """Standard output is a file here: Rich would draw the tables 80 columns wide (or
    ``COLUMNS``) and cut each player to ``bot:h…``; a report that is not on a terminal is
    drawn wide enough for every cell (sampling adds three columns to the summary)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (SRC, env.get("PYTHONPATH")) if p)
    env.pop("COLUMNS", None)
    env.update({"PYTHONIOENCODING": "utf-8"} | ({"COLUMNS": columns} if columns else {}))
    out = tmp_path / "report.txt"
    with out.open("w", encoding="utf-8") as file:
        run = subprocess.run(
            [sys.executable, "-m", "tricktable", "analyze", str(made[0]), *QUICK],
            stdout=file,
            stderr=subprocess.PIPE,
            text=True,
            timeout=300,
            env=env,
        )
    assert run.returncode == 0, run.stderr
    text = out.read_text(encoding="utf-8")
    assert "…" not in text
    summary = text.split("Summary")[1]
    for seat, label in zip(("South", "West", "North", "East"), made[1]["players"], strict=True):
        row = next(line for line in summary.splitlines() if line.startswith(seat + " "))
        assert row.split()[1] == label  # "bot:heuristic", whole
    assert "est. mistakes" in summary and "dd mistakes" in summary


def test_a_spades_hand_is_analysed_from_its_first_card() -> None:
    """Spades: DDS values every decision of a hand with no nil from the first trick (the
    hand's value is its sides' trick count), each value the one ``solve(..., dds=True)``
    gives; the project's solver alone would run out of time there."""
    game = load_game("spades")
    for seed in range(2, 40):
        bots = [make_bot("heuristic"), make_bot("random")] * 2
        record = to_record(play_match(game, bots, seed, max_hands=1))
        found = analyze(record, hands=[0], sampling=False, solve_time=0.5)
        first = [d for d in found.decisions if d.trick == 0 and not d.forced]
        state = _state_before(record, 0, first[0].index)
        if 0 not in state.bids:  # type: ignore[attr-defined]
            break
    else:
        pytest.fail("no hand without a nil in 38 seeds")
    assert all(d.double_dummy is not None for d in first), seed
    assert all(not d.unsolved for d in found.decisions)
    for d in first:
        state = _state_before(record, 0, d.index)
        assert d.double_dummy is not None
        assert d.double_dummy.values == solve(state, d.seat, dds=True).moves


def test_a_euchre_hand_is_analysed_by_dds() -> None:
    """Partnership Euchre, which the project's solver does not take: DDS values every card
    decision of a hand not played alone (a lone hand is left without a value, not unsolved)."""
    game = load_game("euchre")
    bots = [make_bot("heuristic"), make_bot("random")] * 2
    record = to_record(play_match(game, bots, 4, max_hands=3))
    found = analyze(record, sampling=False)
    played = [d for d in found.decisions if d.playing and not d.forced]
    assert played and not any(d.unsolved for d in played)
    valued = [d for d in played if d.double_dummy is not None]
    assert valued
    for d in valued[:6]:
        state = _state_before(record, d.hand, d.index)
        assert not state.alone  # type: ignore[attr-defined]
        assert d.double_dummy is not None
        assert d.double_dummy.values == solve(state, d.seat, dds=True).moves
