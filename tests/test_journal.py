"""A saved match's journal (tricktable.journal): each action appended, the record written whole
when a hand ends, and a journal cut at any byte resumed from."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

import tricktable.journal as journal
from conftest import run_cli
from tricktable.bots import make_bot
from tricktable.engine.trick import TrickState
from tricktable.errors import RecordError, TricktableError
from tricktable.files import append_bytes
from tricktable.games import load_game
from tricktable.journal import journal_path
from tricktable.match import play_match
from tricktable.records import load_record, replay, save_record, to_record

PLAYERS = ["alice", "bot:heuristic", "bot:heuristic", "bot:heuristic"]


def whole(record: dict[str, Any]) -> bytes:
    """A record's bytes as written whole (as every save wrote it before journals)."""
    return (json.dumps(record, indent=1) + "\n").encode("utf-8")


def played(path: Path, seed: int = 7, max_hands: int = 30) -> list[dict[str, Any]]:
    """Play a Setback match to 11 between heuristic bots, saving at ``path`` after every
    action as a table does; the records saved, in order."""
    journal.forget(path)
    game = load_game("setback(target=11)")
    saved: list[dict[str, Any]] = []

    def listen(state: TrickState, _seat: int, _action: int) -> None:
        record = to_record(state, PLAYERS)
        save_record(record, path)
        saved.append(json.loads(json.dumps(record)))

    bots = [make_bot("heuristic") for _ in range(4)]
    state = play_match(game, bots, seed, listener=listen, max_hands=max_hands)
    final = to_record(state, PLAYERS)
    save_record(final, path)
    saved.append(final)
    return saved


def test_a_finished_match_is_the_whole_record_with_no_journal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    writes: list[Path] = []
    atomic = journal.write_atomic

    def counted(path: Any, data: Any, what: str = "file") -> Path:
        writes.append(Path(path))
        return atomic(path, data, what)

    monkeypatch.setattr(journal, "write_atomic", counted)
    path = tmp_path / "match.json"
    saved = played(path)
    assert replay(saved[-1]).is_over
    assert path.read_bytes() == whole(saved[-1])  # byte for byte as before journals
    assert not journal_path(path).exists()
    hands = len(saved[-1]["hands"])
    # Written whole once to begin and once a hand, not once an action.
    assert len(writes) <= hands + 2 < len(saved) // 4


def test_an_unfinished_match_is_its_record_and_journal(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    saved = played(path, max_hands=1)
    # Stopped after the first hand: play on into the second, as a table that is left.
    state = replay(saved[-1])
    state.deal()
    for _ in range(5):
        state.apply(state.legal_actions()[0])
        save_record(to_record(state, PLAYERS), path)
    assert journal_path(path).exists()
    notes: list[str] = []
    record = load_record(path, notes)
    assert record == to_record(state, PLAYERS) and notes == []
    assert whole(record) == whole(to_record(state, PLAYERS))  # keys in their order too


def cut_states(tmp_path: Path) -> tuple[Path, bytes, list[dict[str, Any]]]:
    """A match left in its second hand: its path, its journal's bytes, its records in order."""
    path = tmp_path / "match.json"
    saved = played(path, seed=11, max_hands=1)
    state = replay(saved[-1])
    state.deal()
    records = [to_record(state, PLAYERS)]
    save_record(records[-1], path)
    for _ in range(6):
        state.apply(state.legal_actions()[-1])
        records.append(to_record(state, PLAYERS))
        save_record(records[-1], path)
    state.chat(2, "nice trick")  # a note: the record becomes /2
    records.append(to_record(state, PLAYERS))
    save_record(records[-1], path)
    return path, journal_path(path).read_bytes(), records


def test_a_journal_cut_at_every_byte_of_its_last_line_resumes(tmp_path: Path) -> None:
    path, data, records = cut_states(tmp_path)
    start = data.rstrip(b"\n").rfind(b"\n") + 1  # the last line's first byte
    for cut in range(start, len(data) + 1):
        journal_path(path).write_bytes(data[:cut])
        notes: list[str] = []
        record = load_record(path, notes)
        if cut == len(data):
            assert record == records[-1] and notes == []
        elif cut == start:
            assert record == records[-2] and notes == []  # cut between two lines: no tear
        else:
            assert record == records[-2], cut
            assert len(notes) == 1 and "cut off" in notes[0] and "\n" not in notes[0]
        state = replay(record)  # and the match plays on from there
        while not state.is_over and len(state.history) < 4:
            if state.needs_deal:
                state.deal()
            else:
                state.apply(state.legal_actions()[0])


def test_a_journal_cut_anywhere_is_some_save_before_it(tmp_path: Path) -> None:
    path, data, records = cut_states(tmp_path)
    base = json.loads(path.read_text(encoding="utf-8"))  # the last record written whole
    last = -1
    for cut in range(len(data) + 1):
        journal_path(path).write_bytes(data[:cut])
        record = load_record(path, [])
        at = ([base, *records]).index(record)  # some save, never part of one
        assert at >= last  # and the more was written, the later
        last = at
    assert last == len(records)


def test_the_line_terminal_resumes_a_torn_journal_with_a_note(tmp_path: Path) -> None:
    path, data, records = cut_states(tmp_path)
    journal_path(path).write_bytes(data[:-3])  # killed while writing its last line
    bots = ",".join(["heuristic"] * 4)
    done = run_cli("play", "--resume", str(path), "--players", bots, "--max-hands", "3")
    assert done.returncode == 0, done.stderr
    assert "cut off" in done.stderr and done.stderr.count("cut off") == 1
    final = json.loads(path.read_text(encoding="utf-8"))
    assert len(replay(final).results) == 3
    assert path.read_bytes() == whole(final) and not journal_path(path).exists()
    first = final["hands"][1]["actions"]
    assert (
        first[: len(records[-2]["unfinished_hand"]["actions"])]
        == (records[-2]["unfinished_hand"]["actions"])
    )


def test_an_old_journal_is_ignored_with_a_note(tmp_path: Path) -> None:
    path, data, records = cut_states(tmp_path)
    journal.forget(path)
    save_record(records[-1], path)  # written whole: the journal's base is gone
    assert not journal_path(path).exists()
    journal_path(path).write_bytes(data)  # as if the process died before removing it
    notes: list[str] = []
    assert load_record(path, notes) == records[-1]
    assert len(notes) == 1 and "older than its record" in notes[0]


@pytest.mark.parametrize(
    ("line", "why"),
    [
        (b"not json\n", "line 3: not JSON"),
        (b'{"actions": "play AS"}\n', "actions must be a list"),
        (b'{"shuffle": 1}\n', "unknown entry"),
        (b"{}\n", "what a save added"),
        (b'{"deal": {"dealer": 0, "deal": []}}\n', "a deal while a hand is unfinished"),
    ],
)
def test_a_damaged_journal_line_is_one_error(tmp_path: Path, line: bytes, why: str) -> None:
    path, data, _records = cut_states(tmp_path)
    lines = data.split(b"\n")
    journal_path(path).write_bytes(lines[0] + b"\n" + lines[1] + b"\n" + line)
    with pytest.raises(RecordError, match=why):
        load_record(path)
    head = b'{"journal": "other"}\n'
    journal_path(path).write_bytes(head)
    with pytest.raises(RecordError, match="line 1: not the head"):
        load_record(path)


def test_a_record_changed_in_place_is_written_whole(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    saved = played(path, max_hands=1)
    record = saved[-1]
    record["hands"][0]["actions"][0] = "bid 4"  # what a test of a bad record does
    save_record(record, path)
    assert path.read_bytes() == whole(record) and not journal_path(path).exists()
    record["players"][1] = "bot:heuristic"
    save_record(record, path)
    assert json.loads(path.read_text(encoding="utf-8"))["players"][1] == "bot:heuristic"


def test_a_file_changed_by_another_is_written_whole(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    saved = played(path, max_hands=1)
    state = replay(saved[-1])
    state.deal()
    save_record(to_record(state, PLAYERS), path)
    path.write_text(json.dumps(saved[0]), encoding="utf-8")  # someone else wrote it
    state.apply(state.legal_actions()[0])
    save_record(to_record(state, PLAYERS), path)
    assert path.read_bytes() == whole(to_record(state, PLAYERS))


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links")
def test_a_journal_that_is_a_link_is_never_written_through(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    saved = played(path, max_hands=1)
    state = replay(saved[-1])
    state.deal()
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("keep me\n", encoding="utf-8")
    journal_path(path).symlink_to(elsewhere)
    with pytest.raises(TricktableError, match="record journal"):
        append_bytes(journal_path(path), b"x\n", "record journal")
    for _ in range(3):  # the link is not the journal this process began: written whole
        state.apply(state.legal_actions()[0])
        save_record(to_record(state, PLAYERS), path)
    assert elsewhere.read_text(encoding="utf-8") == "keep me\n"
    assert not journal_path(path).is_symlink()
    assert load_record(path) == to_record(state, PLAYERS)


def test_the_line_terminal_journals_every_action_and_ends_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tricktable.cli.play import run_play

    appended: list[bytes] = []
    append = journal.append_bytes

    def counted(path: Any, data: bytes, what: str = "file", **options: Any) -> Path:
        appended.append(data)
        return append(path, data, what, **options)

    monkeypatch.setattr(journal, "append_bytes", counted)
    path = tmp_path / "match.json"
    bots = ",".join(["heuristic"] * 4)
    assert run_play("setback", bots, 5, str(path), max_hands=2) == 0
    record = json.loads(path.read_text(encoding="utf-8"))
    assert path.read_bytes() == whole(record) and not journal_path(path).exists()
    actions = sum(len(hand["actions"]) for hand in record["hands"])
    assert len(appended) >= actions - 2 * 2  # every action but a hand's last (written whole)
    assert "record saved" in capsys.readouterr().out


def test_the_start_screen_lists_a_match_by_its_journal(tmp_path: Path) -> None:
    from tricktable.tui.model import unfinished_records

    path = tmp_path / "match.json"
    saved = played(path, max_hands=1)
    state = replay(saved[-1])
    state.deal()
    for _ in range(3):
        state.apply(state.legal_actions()[0])
        save_record(to_record(state, PLAYERS), path)
    (listed,) = unfinished_records(tmp_path)
    assert listed.path == path and listed.hands == 1
    journal_path(path).write_bytes(b"damaged\n")
    assert unfinished_records(tmp_path) == []  # not the start screen's to judge
