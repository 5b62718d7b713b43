"""Tests of match records (RECORD-FORMAT.md): the shared vectors, errors, round trips, the CLI.

The command-line contract is tested through a real child process
(``python -m tricktable replay PATH --json``), as a user or another implementation runs it.
"""

from __future__ import annotations

import copy
import io
import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tricktable.bots import make_bot
from tricktable.errors import RecordError, TricktableError
from tricktable.games import load_game
from tricktable.match import play_match
from tricktable.records import FORMAT, load_record, replay, result_of, save_record, to_record

Cli = Callable[..., subprocess.CompletedProcess[str]]

MATCHES = [f"match-{i:02d}" for i in range(12)]
ILLEGAL = [f"illegal-{i:02d}" for i in range(6)]


def read_json(path: Path) -> Any:
    """A JSON file's value."""
    return json.loads(path.read_text(encoding="utf-8"))


def illegal_expected(vectors: Path, name: str) -> dict[str, Any]:
    """The entry of ``illegal-expected.json`` for one illegal record."""
    entries = read_json(vectors / "illegal-expected.json")
    (entry,) = [e for e in entries if e["record"] == f"{name}.record.json"]
    return entry


def as_json(value: Any) -> Any:
    """A value as JSON would carry it (tuples become lists...)."""
    return json.loads(json.dumps(value))


def assert_one_line_error(proc: subprocess.CompletedProcess[str], *needles: str) -> str:
    """Check the contract of an invalid input: status 2, no stdout, one clear line on stderr."""
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    return lines[0]


# ------------------------------------------------------------------------------ the vectors


@pytest.mark.parametrize("name", MATCHES)
def test_vector_replays_to_the_expected_result(vectors: Path, name: str) -> None:
    record = load_record(vectors / f"{name}.record.json")
    state = replay(record)
    expected = read_json(vectors / f"{name}.result.json")
    assert as_json(result_of(state)) == expected
    # every hand of a valid record is complete: 24 plays each
    for log in state.history:
        plays = [a for a in log.actions if 0 <= a < 64]
        assert len(plays) == 24


@pytest.mark.parametrize("name", ILLEGAL)
def test_illegal_vector_names_hand_and_action(vectors: Path, name: str) -> None:
    expected = illegal_expected(vectors, name)
    record = load_record(vectors / f"{name}.record.json")
    assert (
        record["hands"][expected["hand"]]["actions"][expected["action"]]
        == (expected["action_text"])
    )
    with pytest.raises(RecordError) as info:
        replay(record)
    assert (info.value.hand, info.value.action) == (expected["hand"], expected["action"])
    message = str(info.value)
    assert message.startswith(f"hand {expected['hand']} action {expected['action']}: seat ")
    assert f"{expected['action_text']!r} is not legal" in message
    assert "\n" not in message


@pytest.mark.parametrize("name", MATCHES)
def test_cli_replays_vector_as_one_json_object(vectors: Path, cli: Cli, name: str) -> None:
    proc = cli("replay", str(vectors / f"{name}.record.json"), "--json")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    decoder = json.JSONDecoder()
    text = proc.stdout.strip()
    value, end = decoder.raw_decode(text)
    assert end == len(text), "exactly one JSON object on standard output"
    assert isinstance(value, dict)
    assert value == read_json(vectors / f"{name}.result.json")


@pytest.mark.parametrize("name", ILLEGAL)
def test_cli_illegal_vector_exits_2_with_one_line(vectors: Path, cli: Cli, name: str) -> None:
    expected = illegal_expected(vectors, name)
    proc = cli("replay", str(vectors / f"{name}.record.json"), "--json")
    line = assert_one_line_error(
        proc,
        f"hand {expected['hand']} action {expected['action']}",
        f"{expected['action_text']!r}",
        "not legal",
    )
    assert "seat " in line


def test_cli_reads_standard_input(vectors: Path, cli: Cli) -> None:
    text = (vectors / "match-06.record.json").read_text(encoding="utf-8")
    proc = cli("replay", "-", "--json", stdin=text)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == read_json(vectors / "match-06.result.json")


def test_cli_reads_an_illegal_record_from_standard_input(vectors: Path, cli: Cli) -> None:
    text = (vectors / "illegal-00.record.json").read_text(encoding="utf-8")
    expected = illegal_expected(vectors, "illegal-00")
    proc = cli("replay", "-", "--json", stdin=text)
    assert_one_line_error(proc, f"hand {expected['hand']} action {expected['action']}")


def test_cli_malformed_standard_input(cli: Cli) -> None:
    assert_one_line_error(cli("replay", "-", "--json", stdin="{nope"), "malformed JSON")


def test_cli_missing_file(cli: Cli, tmp_path: Path) -> None:
    assert_one_line_error(
        cli("replay", str(tmp_path / "absent.json"), "--json"), "absent.json", "cannot read"
    )


# --------------------------------------------------------------------------- bad records

#: a small valid record to break in each case: match-06 ends the match after 11 hands
BASE = "match-06"


def broken(vectors: Path, case: str) -> tuple[str, str, int | None, int | None]:
    """The text of a broken record, what its error must say, and the hand and action named."""
    rec = read_json(vectors / f"{BASE}.record.json")
    first = rec["hands"][0]
    if case == "malformed JSON":
        return json.dumps(rec)[:-20], "malformed JSON", None, None
    if case == "not JSON at all":
        return "hello", "malformed JSON", None, None
    if case == "unknown card":
        first["deal"][2][3] = "XY"
        return json.dumps(rec), "unknown card 'XY'", 0, None
    if case == "card not a string":
        first["deal"][1][0] = 7
        return json.dumps(rec), "unknown card 7", 0, None
    if case == "second joker":
        first["deal"][1][0] = "JL"
        return json.dumps(rec), "JL", 0, None
    if case == "duplicate card":
        first["deal"][1][0] = first["deal"][0][0]
        return json.dumps(rec), f"{first['deal'][0][0]} is dealt twice", 0, None
    if case == "five cards":
        first["deal"][3].pop()
        return json.dumps(rec), "seat 3 was dealt 5 cards", 0, None
    if case == "seven cards":
        dealt = {card for cards in first["deal"] for card in cards}
        first["deal"][0].append("JK" if "JK" not in dealt else "2C")
        return json.dumps(rec), "seat 0 was dealt 7 cards", 0, None
    if case == "three hands dealt":
        first["deal"].pop()
        return json.dumps(rec), "deal has 3", 0, None
    if case == "unknown format":
        rec["format"] = "tricktable-record/9"
        return json.dumps(rec), "unknown format 'tricktable-record/9'", None, None
    if case == "missing format":
        del rec["format"]
        return json.dumps(rec), "unknown format None", None, None
    if case == "unknown game":
        rec["game"] = "canasta"
        return json.dumps(rec), "unknown game 'canasta'", None, None
    if case == "bad option":
        rec["options"] = {"target": "lots"}
        return json.dumps(rec), "'target'", None, None
    if case == "unknown option":
        rec["options"] = {"colour": "red"}
        return json.dumps(rec), "unknown option 'colour'", None, None
    if case == "options not an object":
        rec["options"] = [1, 2]
        return json.dumps(rec), "bad 'options'", None, None
    if case == "top level is a list":
        return json.dumps([rec]), "must be a JSON object", None, None
    if case == "top level is a number":
        return "42", "must be a JSON object", None, None
    if case == "missing hands":
        del rec["hands"]
        return json.dumps(rec), "'hands'", None, None
    if case == "hands not a list":
        rec["hands"] = {"0": first}
        return json.dumps(rec), "'hands'", None, None
    if case == "hand not an object":
        rec["hands"][1] = "hand"
        return json.dumps(rec), "a hand must be an object", 1, None
    if case == "bad dealer":
        first["dealer"] = 4
        return json.dumps(rec), "bad dealer 4", 0, None
    if case == "dealer not a number":
        first["dealer"] = "north"
        return json.dumps(rec), "bad dealer 'north'", 0, None
    if case == "deal missing":
        del first["deal"]
        return json.dumps(rec), "bad 'deal'", 0, None
    if case == "actions not strings":
        first["actions"][0] = 64
        return json.dumps(rec), "bad 'actions'", 0, None
    if case == "unreadable action":
        first["actions"][0] = "shout"
        return json.dumps(rec), "unknown action 'shout'", 0, 0
    if case == "hand cut short":
        n = len(rec["hands"][2]["actions"])
        rec["hands"][2]["actions"].pop()
        return json.dumps(rec), "stops before its end", 2, n - 1
    if case == "hand with no actions":
        rec["hands"][3]["actions"] = []
        return json.dumps(rec), "stops before its end", 3, 0
    if case == "one action too many":
        n = len(first["actions"])
        first["actions"].append("pass")
        return json.dumps(rec), "one action too many", 0, n
    if case == "extra hand after the match ended":
        rec["hands"].append(copy.deepcopy(first))
        return json.dumps(rec), "already over", len(rec["hands"]) - 1, None
    raise AssertionError(case)


CASES = [
    "malformed JSON",
    "not JSON at all",
    "unknown card",
    "card not a string",
    "second joker",
    "duplicate card",
    "five cards",
    "seven cards",
    "three hands dealt",
    "unknown format",
    "missing format",
    "unknown game",
    "bad option",
    "unknown option",
    "options not an object",
    "top level is a list",
    "top level is a number",
    "missing hands",
    "hands not a list",
    "hand not an object",
    "bad dealer",
    "dealer not a number",
    "deal missing",
    "actions not strings",
    "unreadable action",
    "hand cut short",
    "hand with no actions",
    "one action too many",
    "extra hand after the match ended",
]


@pytest.mark.parametrize("case", CASES)
def test_bad_record_is_a_record_error(vectors: Path, case: str) -> None:
    text, needle, hand, action = broken(vectors, case)
    with pytest.raises(RecordError) as info:
        replay(load_record(io.StringIO(text)))
    message = str(info.value)
    assert needle in message
    assert "\n" not in message
    assert (info.value.hand, info.value.action) == (hand, action)
    if hand is not None:
        where = f"hand {hand}" + (f" action {action}" if action is not None else "")
        assert message.startswith(where + ": ")


# The CLI cases the issue names, plus a few; each costs a child process, so not all of CASES.
CLI_CASES = [
    "malformed JSON",
    "unknown card",
    "duplicate card",
    "five cards",
    "seven cards",
    "unknown format",
    "unknown game",
    "top level is a list",
    "missing hands",
    "hand cut short",
    "extra hand after the match ended",
    "dealer not a number",
]


@pytest.mark.parametrize("case", CLI_CASES)
def test_cli_bad_record_exits_2_with_one_line(
    vectors: Path, cli: Cli, tmp_path: Path, case: str
) -> None:
    text, needle, hand, action = broken(vectors, case)
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    where = (
        []
        if hand is None
        else [f"hand {hand}" + (f" action {action}" if action is not None else "")]
    )
    assert_one_line_error(cli("replay", str(path), "--json"), needle, *where)


def test_record_errors_are_project_errors() -> None:
    with pytest.raises(TricktableError):
        replay({"format": "nope"})
    with pytest.raises(ValueError):
        replay({"format": "nope"})


def test_minimal_record_and_unknown_keys(vectors: Path) -> None:
    rec = read_json(vectors / f"{BASE}.record.json")
    expected = read_json(vectors / f"{BASE}.result.json")
    minimal = {"format": rec["format"], "game": rec["game"], "hands": rec["hands"]}
    assert as_json(result_of(replay(minimal))) == expected
    extra = dict(minimal, comment="kept by nobody", players=["a", "b", "c", "d"], seed=3)
    assert as_json(result_of(replay(extra))) == expected
    # an options object with the default values changes nothing
    with_defaults = dict(minimal, options={"target": 21, "low_to": "captured"})
    assert as_json(result_of(replay(with_defaults))) == expected


def test_a_record_may_stop_before_the_match_ends(vectors: Path) -> None:
    rec = read_json(vectors / f"{BASE}.record.json")
    expected = read_json(vectors / f"{BASE}.result.json")
    rec["hands"] = rec["hands"][:4]
    result = as_json(result_of(replay(rec)))
    assert result == {"hands": expected["hands"][:4], "winner": None}
    assert replay(dict(rec, hands=[])).results == []


def test_deal_order_within_a_seat_does_not_matter(vectors: Path) -> None:
    rec = read_json(vectors / f"{BASE}.record.json")
    expected = read_json(vectors / f"{BASE}.result.json")
    for hand in rec["hands"]:
        hand["deal"] = [list(reversed(cards)) for cards in hand["deal"]]
        hand["deal"][0] = [c.lower() for c in hand["deal"][0]]  # input notation is lenient
    assert as_json(result_of(replay(rec))) == expected


# ------------------------------------------------------------------------------ round trip


def bots(n: int = 4) -> list[Any]:
    """Four random bots."""
    return [make_bot("random") for _ in range(n)]


@pytest.mark.parametrize(
    ("spec", "seed"),
    [
        ("setback", 1),
        ("setback", 2),
        ("setback(target=11,low_to=dealt)", 3),
        ("setback(declarer_scores=taken,min_bid=3)", 4),
        ("setback(max_bid=5)", 5),
    ],
)
def test_round_trip_of_a_played_match(spec: str, seed: int, tmp_path: Path) -> None:
    game = load_game(spec)
    state = play_match(game, bots(), seed, max_hands=40)
    players = ["bot:random"] * 4
    record = to_record(state, players)
    assert record["format"] == FORMAT
    assert record["players"] == players
    assert record["seed"] == seed
    assert "unfinished_hand" not in record
    again = replay(json.loads(json.dumps(record)))
    assert result_of(again) == result_of(state)
    assert again.scores == state.scores
    assert again.winner == state.winner
    assert again.options == state.options
    # and through a file
    path = tmp_path / "match.json"
    save_record(record, path)
    assert load_record(path) == as_json(record)
    assert result_of(replay(load_record(path))) == result_of(state)
    # a record of the replayed state is the same record
    assert as_json(to_record(again, players)) == as_json(record)


def test_round_trip_through_the_cli(cli: Cli, tmp_path: Path) -> None:
    state = play_match(load_game("setback(target=11)"), bots(), 17, max_hands=300)
    path = tmp_path / "m.json"
    save_record(to_record(state, ["bot:random"] * 4), path)
    proc = cli("replay", str(path), "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == as_json(result_of(state))


@pytest.mark.parametrize(
    "spec",
    ["setback(partners=false,players=5)", "setback(partners=3x2,players=6)", "setback(players=6)"],
)
def test_a_five_or_six_seat_record_round_trips_through_a_file_and_the_cli(
    spec: str, cli: Cli, tmp_path: Path
) -> None:
    game = load_game(spec)
    n = game.num_players
    state = play_match(game, bots(n), 21, max_hands=4)
    record = to_record(state, ["bot:random"] * n)
    assert record["options"]["players"] == n and len(record["hands"][0]["deal"]) >= n
    path = tmp_path / "m.json"
    save_record(record, path)
    again = replay(load_record(path))
    assert again.game.num_players == n and again.game.num_scores == game.num_scores
    assert result_of(again) == result_of(state)
    assert as_json(to_record(again, ["bot:random"] * n)) == as_json(record)
    proc = cli("replay", str(path), "--json")
    assert proc.returncode == 0, proc.stderr
    shown = json.loads(proc.stdout)
    assert shown == as_json(result_of(state))
    assert all(len(h["scores"]) == game.num_scores for h in shown["hands"])


def test_record_of_a_match_cut_short_mid_hand_still_replays() -> None:
    game = load_game("setback")
    players = bots()
    state = play_match(game, players, 8, max_hands=2)
    assert len(state.results) == 2 and state.needs_deal
    # a third hand begins and stops after a few actions, as when a person presses Ctrl-C
    state.deal()
    for _ in range(9):
        state.apply(state.legal_actions()[-1])
    record = json.loads(json.dumps(to_record(state, ["bot:random"] * 4)))
    assert len(record["hands"]) == 2
    assert len(record["unfinished_hand"]["actions"]) == 9
    again = replay(record)
    assert result_of(again)["hands"] == as_json([r.to_dict() for r in state.results])
    assert result_of(again)["winner"] is None
    assert again.scores == state.scores


def test_to_record_between_hands_has_no_unfinished_hand() -> None:
    state = play_match(load_game("setback"), bots(), 9, max_hands=3)
    record = to_record(state)
    assert "unfinished_hand" not in record and "players" not in record
    assert len(record["hands"]) == 3
    for hand in record["hands"]:
        assert sorted(len(d) for d in hand["deal"]) == [6, 6, 6, 6]
        assert all(isinstance(a, str) for a in hand["actions"])


def test_record_options_name_every_rule(vectors: Path) -> None:
    record = to_record(load_game("setback(target=11,low_to=dealt)").new_state(1))
    options = record["options"]
    assert options["target"] == 11 and options["low_to"] == "dealt"
    assert options["declarer_scores"] == "bid"
    assert record["hands"] == []


DEEP_JSON = "[" * 100_000 + "]" * 100_000


def test_deeply_nested_json_is_a_record_error() -> None:
    with pytest.raises(RecordError, match="JSON"):
        load_record(io.StringIO(DEEP_JSON))


def test_cli_deeply_nested_json_exits_2_with_one_line(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text(DEEP_JSON, encoding="utf-8")
    assert_one_line_error(cli("replay", str(path), "--json"), "JSON")


def test_file_that_is_not_utf8(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "latin.json"
    path.write_bytes(b"\xff\xfe{}")
    with pytest.raises(RecordError, match="not UTF-8"):
        load_record(path)
    assert_one_line_error(cli("replay", str(path), "--json"), "not UTF-8")


def test_directory_instead_of_a_file(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        load_record(tmp_path)
