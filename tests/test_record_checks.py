"""What a record may hold, checked where it is read (issue 27, item 12).

``replay`` checks the dealer's rotation with the check ``verify`` makes (one function); a key
given twice and a value of the wrong type are refused with their place; a plug-in whose import
raises anything — ``KeyboardInterrupt`` included — is a load error, while a real Ctrl-C
during its import still interrupts. Real files, real child processes for the one-line errors.
"""

from __future__ import annotations

import copy
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from conftest import cli_env, run_cli
from tricktable.bots import make_bot
from tricktable.errors import BotError, RecordError
from tricktable.games import GAMES, load_game
from tricktable.match import play_match
from tricktable.records import load_record, replay, to_record

LINE = 200  # the longest error line (tricktable.cli.ERROR_LINE)
THREE = "random,random,random"


@pytest.fixture(scope="module")
def played() -> dict[str, Any]:
    """A seeded Setback record of three hands between random bots (the target out of reach)."""
    game = load_game("setback(target=10000)")
    state = play_match(game, [make_bot("random") for _ in range(4)], 5, max_hands=3)
    record: dict[str, Any] = json.loads(json.dumps(to_record(state, ["me", *["bot:random"] * 3])))
    return record


def turned(hand: dict[str, Any], k: int) -> None:
    """Deal ``hand`` from ``k`` seats further left, each seat's cards with it: the same
    actions stay legal, played by other seats (and scored to the other side, for k odd)."""
    n = len(hand["deal"])
    hand["dealer"] = (hand["dealer"] + k) % n
    hand["deal"] = [hand["deal"][(seat - k) % n] for seat in range(n)]


def one_error(run: subprocess.CompletedProcess[str], *needles: str) -> str:
    """The one ``error:`` line of a run that exited 2, with each of ``needles``."""
    assert run.returncode == 2, (run.returncode, run.stdout[-300:], run.stderr[-1500:])
    assert run.stdout == ""
    lines = run.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), run.stderr[-1500:]
    assert len(lines[0]) <= LINE and "Traceback" not in run.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def write(path: Path, record: Any) -> Path:
    path.write_text(record if isinstance(record, str) else json.dumps(record), encoding="utf-8")
    return path


# ------------------------------------------------------------------------ the dealer's turn


def test_a_hand_not_dealt_in_turn_is_refused_by_replay_as_by_verify(
    played: dict[str, Any], tmp_path: Path
) -> None:
    record = copy.deepcopy(played)
    last = record["hands"][-1]
    expected = last["dealer"]
    turned(last, 1)
    # Before: replay took it (every action legal, scored to the other side).
    with pytest.raises(RecordError) as info:
        replay(record)
    assert info.value.hand == 2
    said = f"hand 2: dealt by seat {last['dealer']}; the deal passes to seat {expected}"
    assert str(info.value) == said
    path = write(tmp_path / "turned.json", record)
    assert one_error(run_cli("replay", str(path), "--json")) == f"error: {said}"
    assert one_error(run_cli("verify", str(path))) == f"error: {said}"  # the same check


def test_verify_alone_checks_the_first_dealer_against_the_seed(
    played: dict[str, Any], tmp_path: Path
) -> None:
    record = copy.deepcopy(played)
    record["hands"] = record["hands"][:1]
    seed_dealer = record["hands"][0]["dealer"]
    turned(record["hands"][0], 2)
    replay(record)  # a record's seed may be another program's: its first dealer is free
    path = write(tmp_path / "first.json", record)
    one_error(
        run_cli("verify", str(path)),
        f"hand 0: dealt by seat {record['hands'][0]['dealer']}; "
        f"the seed has seat {seed_dealer} deal first",
    )


def test_the_unfinished_hand_is_dealt_in_turn_too(played: dict[str, Any]) -> None:
    record = copy.deepcopy(played)
    unfinished = record["hands"].pop()
    unfinished["actions"] = unfinished["actions"][:5]
    record["unfinished_hand"] = unfinished
    replay(record)
    turned(unfinished, 3)
    with pytest.raises(RecordError, match=r"^hand 2: dealt by seat"):
        replay(record)


def test_honest_records_of_every_dealing_rule_replay() -> None:
    # The deal passes as each game passes it (Tricks and All Fours keep the dealer after a
    # hand thrown in): every game's records, as played, replay.
    for name in sorted(GAMES):
        game = load_game(name)
        state = play_match(game, [make_bot("random") for _ in range(game.num_players)], 8, None, 6)
        again = replay(to_record(state))
        assert [log.dealer for log in again.history] == [log.dealer for log in state.history]


# ----------------------------------------------------------------------------- duplicate keys


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('{"format": "tricktable-record/1", "game": "setback", "game": "hearts", "hands": []}',
         "duplicate key 'game' in the record"),
        ('{"format": "tricktable-record/1", "game": "setback", "hands": [{"dealer": 0, '
         '"dealer": 1, "deal": [], "actions": []}]}', "duplicate key 'dealer' in hands[0]"),
        ('{"format": "tricktable-record/1", "game": "setback", "hands": [], "faults": '
         '[{"seat": 1, "seat": 2}]}', "duplicate key 'seat' in faults[0]"),
    ],
)  # fmt: skip
def test_a_key_given_twice_is_refused_with_its_place(tmp_path: Path, text: str, said: str) -> None:
    path = write(tmp_path / "twice.json", text)
    with pytest.raises(RecordError) as info:
        load_record(path)
    assert str(info.value) == said


def test_a_key_given_twice_is_one_line_from_every_command(
    played: dict[str, Any], tmp_path: Path
) -> None:
    text = json.dumps(played)
    text = text.replace('"seed": ', '"seed": 1, "seed": ', 1)
    path = write(tmp_path / "twice.json", text)
    for args in (("replay", str(path), "--json"), ("verify", str(path))):
        one_error(run_cli(*args), "duplicate key 'seed' in the record")
    one_error(run_cli("replay", "-", "--json", stdin=text), "duplicate key 'seed'")
    bots = "random,random,random,random"
    one_error(run_cli("play", "--resume", str(path), "--players", bots), "duplicate key 'seed'")


# ------------------------------------------------------------------------------ wrong types


@pytest.mark.parametrize(
    ("faults", "said"),
    [
        ("x", "bad 'faults': expected a list, got 'x'"),
        ({"seat": 1}, "bad 'faults': expected a list, got {'seat': 1}"),
        ([7], "bad 'faults[0]': expected an object, got 7"),
        ([{"kind": "crash", "detail": "", "penalty": "none"}],
         "bad 'faults[0].seat': expected a seat 0..3, got None"),
        ([{"seat": 4, "kind": "crash", "detail": "", "penalty": "none"}],
         "bad 'faults[0].seat': expected a seat 0..3, got 4"),
        ([{"seat": True, "kind": "crash", "detail": "", "penalty": "none"}],
         "bad 'faults[0].seat': expected a seat 0..3, got True"),
        ([{"seat": 1, "kind": 3, "detail": "", "penalty": "none"}],
         "bad 'faults[0].kind': expected text, got 3"),
        ([{"seat": 1, "kind": "crash", "penalty": "none"}],
         "bad 'faults[0].detail': expected text, got nothing"),
        ([{"seat": 1, "kind": "crash", "detail": "", "penalty": "none", "hand": "2"}],
         "bad 'faults[0].hand': expected a hand number, got '2'"),
        ([{"seat": 1, "kind": "crash", "detail": "", "penalty": "none", "action": -1}],
         "bad 'faults[0].action': expected an action number or null, got -1"),
    ],
)  # fmt: skip
def test_faults_of_the_wrong_type_are_refused_with_their_place(
    played: dict[str, Any], faults: Any, said: str
) -> None:
    record = copy.deepcopy(played)
    fine = {"hand": 0, "action": None, "seat": 2, "kind": "crash", "detail": "", "penalty": "none"}
    record["faults"] = [fine]
    replay(record)  # a fault as the referee writes it
    record["faults"] = faults
    with pytest.raises(RecordError) as info:
        replay(record)
    assert str(info.value) == said


@pytest.mark.parametrize("options", [[], 0, "", False, None, "target=11"])
def test_options_that_are_not_an_object_are_refused(played: dict[str, Any], options: Any) -> None:
    record = copy.deepcopy(played)
    record["options"] = options
    with pytest.raises(RecordError, match=r"^bad 'options': expected an object, got "):
        replay(record)


def test_a_wrong_type_is_one_line_from_every_command(
    played: dict[str, Any], tmp_path: Path
) -> None:
    record = copy.deepcopy(played)
    record["faults"] = "x"
    path = write(tmp_path / "faults.json", record)
    said = "bad 'faults': expected a list, got 'x'"
    assert one_error(run_cli("replay", str(path), "--json")) == f"error: {said}"
    assert one_error(run_cli("verify", str(path))) == f"error: {said}"
    bots = "random,random,random,random"
    one_error(run_cli("play", "--resume", str(path), "--players", bots), said)
    assert json.loads(path.read_text(encoding="utf-8"))["faults"] == "x"  # left as it was


# --------------------------------------------------------------------- plug-ins that raise


@pytest.mark.parametrize(
    "body",
    [
        "raise KeyboardInterrupt",
        "raise KeyboardInterrupt('from the bot')",
        "raise GeneratorExit",
        "import signal, os\nraise KeyboardInterrupt",
    ],
)
def test_a_plugin_raising_an_interrupt_at_import_is_a_load_error(tmp_path: Path, body: str) -> None:
    (tmp_path / "bad.py").write_text(body + "\n", encoding="utf-8")
    before = signal.getsignal(signal.SIGINT)
    with pytest.raises(BotError, match=r"^cannot load bot .*bad\.py failed: "):
        make_bot(f"{tmp_path / 'bad.py'}:Bot")
    assert signal.getsignal(signal.SIGINT) is before  # its handler given back


def test_a_plugin_class_raising_an_interrupt_is_a_load_error(tmp_path: Path) -> None:
    source = "from tricktable.bots.base import Bot\n\nclass Shy(Bot):\n"
    source += "    def __init__(self):\n        raise KeyboardInterrupt\n"
    (tmp_path / "shy.py").write_text(source, encoding="utf-8")
    with pytest.raises(BotError, match=r"Shy\(\) failed: KeyboardInterrupt"):
        make_bot(f"{tmp_path / 'shy.py'}:Shy")


def test_a_plugin_module_raising_an_interrupt_is_a_load_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "interrupting_bot_module.py").write_text("raise KeyboardInterrupt\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(BotError, match="importing interrupting_bot_module failed"):
        make_bot("interrupting_bot_module:Bot")
    sys.modules.pop("interrupting_bot_module", None)


def test_a_plugin_raising_an_interrupt_is_one_line_from_the_command(tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_text("raise KeyboardInterrupt\n", encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "tricktable", "play", "--players", "bad.py:Bot," + THREE],
        capture_output=True,
        text=True,
        env=cli_env(),
        cwd=tmp_path,
        timeout=60,
        check=False,
    )
    one_error(run, "cannot load bot", "KeyboardInterrupt")
    assert "interrupted" not in run.stderr


@pytest.mark.parametrize("sent", [signal.SIGINT, signal.SIGTERM])
def test_a_real_interrupt_while_a_plugin_loads_still_interrupts(
    tmp_path: Path, sent: signal.Signals
) -> None:
    marker = tmp_path / "loading"
    (tmp_path / "slow.py").write_text(
        f"import pathlib, time\npathlib.Path({str(marker)!r}).touch()\ntime.sleep(30)\n",
        encoding="utf-8",
    )
    child = subprocess.Popen(
        [sys.executable, "-m", "tricktable", "play", "--players", "slow.py:Bot," + THREE],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=cli_env(),
        cwd=tmp_path,
    )
    try:
        deadline = time.monotonic() + 30
        while not marker.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        assert marker.exists(), "the plug-in never began to load"
        os.kill(child.pid, sent)
        _out, err = child.communicate(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 130, err
    assert "interrupted" in err and "cannot load" not in err and "Traceback" not in err
