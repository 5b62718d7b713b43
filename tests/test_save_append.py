"""A match saved after every action costs what each action adds (issue 27, item 9).

:class:`tricktable.records.RecordSaver` (``play --save``, the TUI) appends one line of the
record's journal a save and writes the whole record only first, when a journal has grown as
large as its record (compaction), and when told. Checked on real files: what is on disk after
every save loads as the record of the match so far, whatever the game; a journal cut in its
last line (a process killed while writing) loads as the save before it and replays; a real
``tricktable play --save`` killed with SIGKILL leaves a file that ``replay``, ``verify`` and
``play --resume`` take. The cost's figures are benchmarks/save_cost.py's, not timed here.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import tricktable.journal as journal
from conftest import cli_env, run_cli
from tricktable.bots import make_bot
from tricktable.engine.trick import TrickState
from tricktable.games import load_game
from tricktable.journal import journal_path, whole_bytes
from tricktable.match import play_match
from tricktable.records import RecordSaver, load_record, replay, to_record

FOUR = ["you", "bot:random", "bot:random", "bot:random"]


def as_read(record: dict[str, Any]) -> dict[str, Any]:
    """A record as a file gives it back (tuples are lists)."""
    loaded: dict[str, Any] = json.loads(json.dumps(record))
    return loaded


class Writes:
    """The whole writes and the journal's appends of a test, counted in bytes."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.whole: list[int] = []
        self.appended: list[int] = []
        write, append = journal.write_atomic, journal.append_bytes

        def written(path: Any, data: Any, what: str = "file") -> Path:
            self.whole.append(len(data))
            return write(path, data, what)

        def appended(path: Any, data: bytes, what: str = "file", **options: Any) -> Path:
            self.appended.append(len(data))
            return append(path, data, what, **options)

        monkeypatch.setattr(journal, "write_atomic", written)
        monkeypatch.setattr(journal, "append_bytes", appended)


def play_saving(
    spec: str,
    path: Path,
    hands: int,
    seed: int = 3,
    check: bool = True,
    chat: bool = False,
) -> TrickState:
    """Play ``hands`` hands of ``spec`` between random bots, saving at ``path`` after every
    action; with ``check``, what is on disk is loaded after each save and compared."""
    game = load_game(spec)
    labels = ["you", *(["bot:random"] * (game.num_players - 1))]
    saver = RecordSaver(path)
    faults: list[dict[str, Any]] = []

    def listen(state: TrickState, seat: int, _action: int) -> None:
        if chat and len(state.actions) % 7 == 3:  # notes mid-hand, and a fault now and then
            state.chat(seat, f"action {len(state.actions)}")
            if len(state.actions) % 2:
                faults.append(
                    {"hand": len(state.history) - 1, "action": None, "seat": seat}
                    | {"kind": "flood", "detail": "chat refused", "penalty": "none"}
                )
        saver.save(state, labels, faults)
        if check:
            assert load_record(path, []) == as_read(to_record(state, labels, faults))

    bots = [make_bot("random") for _ in range(game.num_players)]
    state = play_match(game, bots, seed, listener=listen, max_hands=hands)
    saver.save(state, labels, faults)
    assert load_record(path, []) == as_read(to_record(state, labels, faults))
    return state


@pytest.mark.parametrize(
    "spec",
    ["setback(target=10000)", "hearts", "pitch-with-kitty", "california-jack", "oh-hell"],
)
def test_every_save_loads_as_the_match_so_far(tmp_path: Path, spec: str) -> None:
    play_saving(spec, tmp_path / "match.json", hands=2)


def test_notes_and_faults_are_appended_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    writes = Writes(monkeypatch)
    path = tmp_path / "match.json"
    state = play_saving("setback(target=10000)", path, hands=3, chat=True)
    assert state.notes and load_record(path, [])["format"] == "tricktable-record/2"
    assert len(writes.whole) == 1  # the first save; every other one a line


def test_a_save_is_one_short_line_however_long_the_match(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    writes = Writes(monkeypatch)
    path = tmp_path / "match.json"
    state = play_saving("setback(target=10000)", path, hands=40, check=False)
    actions = sum(len(log.actions) for log in state.history)
    assert len(writes.whole) == 1 and len(writes.appended) == actions - 1  # the first: whole
    # A line says one action, or a deal and its first action: never the record so far.
    assert max(writes.appended) < 400 < len(whole_bytes(to_record(state, FOUR)))
    assert max(writes.appended[-50:]) <= max(writes.appended[:50])


def test_a_long_journal_is_compacted_and_the_writes_stay_linear(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(journal, "COMPACT_FLOOR", 2048)
    writes = Writes(monkeypatch)
    path = tmp_path / "match.json"
    state = play_saving("setback(target=10000)", path, hands=40, check=False)
    final = len(whole_bytes(to_record(state, FOUR)))
    assert 3 < len(writes.whole) < 20  # compacted now and then, not once a hand (40)
    # Each whole write is paid for by as many bytes appended before it: the sum of all the
    # writes is a few times the record, where writing it whole every action would be
    # hundreds of times (a thousand actions).
    assert sum(writes.whole) + sum(writes.appended) < 8 * final
    assert journal_path(path).stat().st_size <= max(2048, path.stat().st_size) + 400


def test_the_end_of_a_match_is_the_whole_record_and_no_journal(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    state = play_saving("setback(target=10000)", path, hands=2, check=False)
    saver = RecordSaver(path)
    saver.save(state, FOUR, whole=True)
    assert path.read_bytes() == whole_bytes(to_record(state, FOUR))
    assert not journal_path(path).exists()


def test_a_journal_cut_in_its_last_line_loads_the_save_before_and_replays(
    tmp_path: Path,
) -> None:
    path = tmp_path / "match.json"
    game = load_game("setback(target=10000)")
    saver = RecordSaver(path)
    saved: list[dict[str, Any]] = []
    seen = 0

    def listen(state: TrickState, _seat: int, _action: int) -> None:
        saver.save(state, FOUR)
        saved.append(as_read(to_record(state, FOUR)))

    bots = [make_bot("random") for _ in range(4)]
    play_match(game, bots, 9, listener=listen, max_hands=1)
    state = replay(saved[-1])
    state.deal()  # into the second hand: a deal line, then actions
    for _ in range(6):
        state.apply(state.legal_actions()[0])
        listen(state, 0, 0)
    data = journal_path(path).read_bytes()
    start = data.rstrip(b"\n").rfind(b"\n") + 1  # the last line's first byte
    for cut in range(start + 1, len(data)):
        journal_path(path).write_bytes(data[:cut])
        notes: list[str] = []
        record = load_record(path, notes)
        assert record == saved[-2] and len(notes) == 1 and "cut off" in notes[0]
        seen += 1
        assert len(replay(record).history[-1].actions) == 5  # the last action is lost
    assert seen > 10


def test_the_saver_writes_whole_where_another_wrote(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    state = play_saving("setback(target=10000)", path, hands=1, check=False)
    saver = RecordSaver(path)
    saver.save(state, FOUR)
    path.write_text("{}", encoding="utf-8")  # someone else's file now
    state.deal()
    state.apply(state.legal_actions()[0])
    saver.save(state, FOUR)
    assert path.read_bytes() == whole_bytes(to_record(state, FOUR))
    assert not journal_path(path).exists()


def test_a_chat_between_hands_is_written_whole(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    state = play_saving("setback(target=10000)", path, hands=1, check=False)
    saver = RecordSaver(path)
    saver.save(state, FOUR)
    state.deal()
    state.apply(state.legal_actions()[0])
    saver.save(state, FOUR)
    assert journal_path(path).is_file()
    for _ in range(200):  # to the end of the hand
        if state.needs_deal:
            break
        state.apply(state.legal_actions()[0])
        saver.save(state, FOUR)
    state.chat(1, "well played")  # a note of the hand just ended
    saver.save(state, FOUR)
    assert load_record(path, []) == as_read(to_record(state, FOUR))


# ------------------------------------------------------------- the command, killed for real


def test_play_save_killed_mid_match_replays_verifies_and_resumes(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    cmd = [sys.executable, "-m", "tricktable", "play", "--game", "setback(target=10000)"]
    cmd += ["--players", "random,random,random,random", "--seed", "5", "--max-hands", "100000"]
    child = subprocess.Popen(
        [*cmd, "--save", str(path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=cli_env(),
    )
    try:
        deadline = time.monotonic() + 60
        # Past a few hands, and the journal growing: killed at some action.
        while time.monotonic() < deadline:
            grown = journal_path(path).is_file() and journal_path(path).stat().st_size > 4000
            if grown and path.is_file():
                break
            time.sleep(0.02)
        else:
            pytest.fail("no journal grew within 60 s")
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
    # A write torn in the middle of its line, as a kill inside write() would leave it.
    data = journal_path(path).read_bytes()
    journal_path(path).write_bytes(data + b'{"actions":["pla')
    shown = run_cli("replay", str(path), "--json")
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout)["winner"] is None
    assert shown.stderr.count("cut off") == 1 and "Traceback" not in shown.stderr
    checked = run_cli("verify", str(path))
    assert checked.returncode == 0 and "verified" in checked.stdout, checked.stderr
    record = load_record(path, [])
    played = len(record["hands"])
    resumed = run_cli("play", "--resume", str(path), "--max-hands", str(played + 2))
    assert resumed.returncode == 0, resumed.stderr
    final = json.loads(path.read_text(encoding="utf-8"))
    assert len(final["hands"]) == played + 2 and not journal_path(path).exists()
    assert final["hands"][:played] == record["hands"]
