"""A record is data, a save never clobbers, a bad input is one line (issue 18, items 1, 2, 6, 8).

Every reproduction of the issue that concerns records, ``--save``, ``replay``, seeds and player
specs, run for real: a child ``tricktable`` in a folder of its own, real FIFOs and devices, a
real listening socket on 127.0.0.1 to prove that nobody called it.
"""

from __future__ import annotations

import json
import os
import socket
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tricktable.bots import is_builtin_player, make_bot
from tricktable.errors import BotError, RecordError
from tricktable.records import MAX_SEED, load_record, read_seed, replay
from tricktable.runner import MatchSpec, players_of, run_match

SRC = str(Path(__file__).resolve().parents[1] / "src")
FOUR_BOTS = "random,random,random,random"
#: how long an error line may be (the root printer's cap, tricktable.cli.ERROR_LINE)
LINE = 200


def tt(
    *args: str, cwd: Path, stdin: str = "", timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m tricktable ARGS`` from the source tree in ``cwd``."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (SRC, env.get("PYTHONPATH")) if p)
    env["COLUMNS"] = "200"
    env["USER"] = "tester"
    return subprocess.run(
        [sys.executable, "-m", "tricktable", *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=timeout,
        env=env,
        cwd=cwd,
        check=False,
    )


def one_error_line(run: subprocess.CompletedProcess[str], *needles: str) -> str:
    """The one ``error:`` line of a run that exited 2, checked short and free of tracebacks."""
    assert run.returncode == 2, (run.returncode, run.stdout[-500:], run.stderr[-2000:])
    lines = run.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), run.stderr[-2000:]
    assert len(lines[0]) <= LINE and "Traceback" not in run.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A record of a short bots-only match, as ``play --save`` writes it."""
    where = tmp_path_factory.mktemp("saved")
    run = tt("play", "--players", FOUR_BOTS, "--seed", "3", "--max-hands", "2",
             "--save", "r.json", cwd=where)  # fmt: skip
    assert run.returncode == 0, run.stderr
    record = json.loads((where / "r.json").read_text(encoding="utf-8"))
    assert record["players"] == ["bot:random"] * 4
    return record


def write(path: Path, record: dict[str, Any]) -> Path:
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


# ------------------------------------------------------------------- a record is data


def test_a_record_naming_a_program_starts_nothing(saved: dict[str, Any], tmp_path: Path) -> None:
    evil = dict(saved, players=["bot:random", "bot:random", "bot:cmd:touch PWNED", "bot:random"])
    write(tmp_path / "shared.json", evil)
    run = tt("play", "--resume", "shared.json", cwd=tmp_path)
    one_error_line(
        run,
        "seat 2 is not a built-in player ('cmd:touch PWNED')",
        "never starts a program",
        "--players",
    )
    assert not (tmp_path / "PWNED").exists()
    assert run.stdout == ""


def test_a_record_naming_a_plugin_imports_nothing(saved: dict[str, Any], tmp_path: Path) -> None:
    plugin = tmp_path / "evil.py"
    plugin.write_text(
        "import pathlib\npathlib.Path('IMPORTED').touch()\n"
        "from tricktable.bots.random_bot import RandomBot as Bot\n",
        encoding="utf-8",
    )
    evil = dict(saved, players=["bot:random", f"bot:{plugin}:Bot", "bot:random", "bot:random"])
    write(tmp_path / "shared.json", evil)
    one_error_line(tt("play", "--resume", "shared.json", cwd=tmp_path), "seat 1")
    assert not (tmp_path / "IMPORTED").exists()


@pytest.fixture
def listener() -> Iterator[socket.socket]:
    """A socket listening on 127.0.0.1 that nobody should connect to."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(8)
        sock.settimeout(0.3)
        yield sock


def test_a_record_naming_a_url_contacts_nobody(
    saved: dict[str, Any], tmp_path: Path, listener: socket.socket
) -> None:
    url = f"http://127.0.0.1:{listener.getsockname()[1]}/?token=SECRET"
    evil = dict(saved, players=["bot:random", "bot:random", "bot:random", f"bot:{url}"])
    write(tmp_path / "shared.json", evil)
    one_error_line(tt("play", "--resume", "shared.json", cwd=tmp_path), "seat 3")
    with pytest.raises(TimeoutError):
        listener.accept()  # nothing connected


def test_a_record_naming_a_program_plays_on_with_players_given(
    saved: dict[str, Any], tmp_path: Path
) -> None:
    cut = dict(saved, players=["bot:cmd:touch PWNED"] * 4, hands=saved["hands"][:1])
    write(tmp_path / "shared.json", cut)
    run = tt("play", "--resume", "shared.json", "--players", FOUR_BOTS, "--max-hands", "2",
             cwd=tmp_path)  # fmt: skip
    assert run.returncode == 0, run.stderr
    again = load_record(tmp_path / "shared.json")
    assert len(again["hands"]) == 2 and again["players"] == ["bot:random"] * 4
    assert not (tmp_path / "PWNED").exists()


def test_a_records_substitute_that_is_a_program_is_never_started(
    saved: dict[str, Any], tmp_path: Path
) -> None:
    # A hand-made /2 record: seat 1 handed on, in its first hand, to "a program".
    evil = json.loads(json.dumps(saved))
    evil["format"] = "tricktable-record/2"
    marker = tmp_path / "PWNED"
    evil["hands"] = evil["hands"][:1]
    evil["hands"][0]["notes"] = [
        {"at": 0, "kind": "substitute", "seat": 1, "text": f"bot:cmd:touch {marker}"}
    ]
    assert players_of(evil) == ("random", "heuristic", "random", "random")
    outcome = run_match(MatchSpec.resuming(evil, max_hands=2))
    assert outcome.result.dealt == 2 and not marker.exists()
    # ... and with new players given, the seat still is not the record's program
    outcome = run_match(MatchSpec.resuming(evil, ("random",) * 4, max_hands=2))
    assert outcome.result.dealt == 2 and not marker.exists()


@pytest.mark.parametrize(
    ("spec", "builtin"),
    [
        ("random", True),
        ("heuristic", True),
        ("pimc(worlds=4, max_seconds=0.1)", True),
        ("edna", True),
        ("edna(base=pimc)", True),
        ("expert", True),
        ("beginner(mistakes=0.5)", True),
        ("human", True),
        ("you", True),
        ("cfr", True),
        ("cmd:touch PWNED", False),
        ("CMD:touch PWNED", False),
        ("http://127.0.0.1:9/", False),
        ("https://example.invalid/", False),
        ("bot.py:Bot", False),
        ("tricktable.bots.random_bot:RandomBot", False),
        ("cfr(db=/tmp/strategy.db)", False),
        ('edna(base="cfr(db=/tmp/x.db)")', False),
        ("no-such-entry-point", False),
        ("human(x=1)", False),
        ("pimc(worlds=4", False),
    ],
)
def test_what_a_record_may_name(spec: str, builtin: bool) -> None:
    assert is_builtin_player(spec) is builtin
    record = {"players": ["bot:random", "bot:random", "bot:random", f"bot:{spec}"]}
    if builtin:
        assert players_of(record)[3] == spec
    else:
        with pytest.raises(RecordError, match="never starts a program"):
            players_of(record)


# ----------------------------------------------------------------------------- seeds


@pytest.mark.parametrize(
    "seed",
    ['"abc"', "NaN", "Infinity", "1.5", "true", "null", "-1", str(MAX_SEED + 1), "[1]", "9" * 5000],
)
def test_a_bad_seed_is_one_line_in_replay(saved: dict[str, Any], tmp_path: Path, seed: str) -> None:
    text = json.dumps(dict(saved, seed=0)).replace('"seed": 0', f'"seed": {seed}')
    (tmp_path / "r.json").write_text(text, encoding="utf-8")
    line = one_error_line(tt("replay", "r.json", cwd=tmp_path))
    assert "seed" in line or "thousands of digits" in line
    assert len(line) < 120


def test_good_seeds(saved: dict[str, Any]) -> None:
    assert read_seed({"seed": MAX_SEED}) == MAX_SEED
    assert read_seed({"seed": 0}) == 0
    assert read_seed({}) is None  # the shared test vectors name none
    assert replay(dict(saved, seed=MAX_SEED)).seed == MAX_SEED
    with pytest.raises(RecordError, match="seed"):
        MatchSpec.resuming(dict(saved, seed=-1))


def test_a_command_line_seed_is_64_bits_at_most(tmp_path: Path) -> None:
    run = tt("play", "--players", FOUR_BOTS, "--seed", str(MAX_SEED + 1), cwd=tmp_path)
    one_error_line(run, "--seed")
    run = tt("play", "--players", FOUR_BOTS, "--seed", "-1", cwd=tmp_path)
    one_error_line(run, "--seed")


# ------------------------------------------------------------------------ --save


def test_save_never_clobbers_a_symlink(tmp_path: Path) -> None:
    precious = tmp_path / "precious.txt"
    precious.write_text("keep me", encoding="utf-8")
    (tmp_path / "r.json").symlink_to(precious)
    run = tt("play", "--players", FOUR_BOTS, "--seed", "1", "--save", "r.json", cwd=tmp_path)
    one_error_line(run, "symbolic link")
    assert "Hand" not in run.stdout  # checked before the match: nothing was played
    assert precious.read_text(encoding="utf-8") == "keep me"
    assert (tmp_path / "r.json").is_symlink()


def test_save_never_clobbers_a_fifo(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    run = tt("play", "--players", FOUR_BOTS, "--seed", "1", "--save", "pipe", cwd=tmp_path)
    one_error_line(run, "a FIFO")
    assert stat.S_ISFIFO(os.lstat(tmp_path / "pipe").st_mode)


def test_save_never_replaces_a_device(tmp_path: Path) -> None:
    run = tt("play", "--players", FOUR_BOTS, "--seed", "1", "--save", "/dev/full", cwd=tmp_path)
    one_error_line(run, "a device")
    assert "record saved" not in run.stdout and "Hand" not in run.stdout
    assert stat.S_ISCHR(os.lstat("/dev/full").st_mode)


def test_save_to_a_folder_or_a_missing_folder_fails_before_the_match(tmp_path: Path) -> None:
    (tmp_path / "dir").mkdir()
    for target, why in (("dir", "directory"), ("no/such/r.json", "no folder"),
                        ("/sys/r.json", "cannot write record")):  # fmt: skip
        start = time.monotonic()
        run = tt("play", "--players", FOUR_BOTS, "--seed", "1", "--max-hands", "30",
                 "--save", target, cwd=tmp_path)  # fmt: skip
        one_error_line(run, why)
        assert "Hand" not in run.stdout, target
        assert time.monotonic() - start < 30
    assert not (tmp_path / "no").exists()


def test_resume_saves_back_only_to_a_regular_file(saved: dict[str, Any], tmp_path: Path) -> None:
    real = write(tmp_path / "real.json", dict(saved, hands=saved["hands"][:1]))
    (tmp_path / "link.json").symlink_to(real)
    one_error_line(
        tt("play", "--resume", "link.json", cwd=tmp_path), "symbolic link", "--save"[2:0]
    )
    assert len(load_record(real)["hands"]) == 1
    run = tt("play", "--resume", "link.json", "--save", "other.json", "--max-hands", "2",
             cwd=tmp_path)  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert len(load_record(tmp_path / "other.json")["hands"]) == 2


# ---------------------------------------------------------------------- reading records


@pytest.mark.parametrize("where", ["/dev/zero", "/dev/urandom", "fifo", "folder"])
def test_replay_of_what_is_not_a_file_returns_at_once(tmp_path: Path, where: str) -> None:
    path = {"fifo": "pipe", "folder": "."}.get(where, where)
    if where == "fifo":
        os.mkfifo(tmp_path / "pipe")
    start = time.monotonic()
    one_error_line(tt("replay", path, cwd=tmp_path, timeout=20), "cannot read record")
    assert time.monotonic() - start < 15
    # click refuses a folder for --resume itself; the rest reach the one reader of files
    why = "directory" if where == "folder" else "cannot read record"
    one_error_line(tt("play", "--resume", path, cwd=tmp_path, timeout=20), why)


def test_a_resumed_record_of_thousands_of_digits(saved: dict[str, Any], tmp_path: Path) -> None:
    text = json.dumps(dict(saved, seed=0)).replace('"seed": 0', '"seed": ' + "7" * 5000)
    (tmp_path / "r.json").write_text(text, encoding="utf-8")
    one_error_line(tt("play", "--resume", "r.json", cwd=tmp_path), "thousands of digits")


def test_a_huge_bad_field_is_quoted_short(saved: dict[str, Any], tmp_path: Path) -> None:
    for field, value in (("format", "x" * 1_000_000), ("game", "y" * 1_000_000),
                         ("options", {"z" * 100_000: 1}), ("seed", "s" * 1_000_000)):  # fmt: skip
        write(tmp_path / "r.json", dict(saved, **{field: value}))
        line = one_error_line(tt("replay", "r.json", cwd=tmp_path))
        assert max(line.count(ch) for ch in "xyzs") <= 60, field  # the input quoted, short


# ------------------------------------------------------------------------ player specs


@pytest.mark.parametrize(
    "command",
    [
        ("play", "--players", "http://[::1/," + "random," * 2 + "random"),
        ("simulate", "--players", "http://[::1/,random,random,random", "--hands", "1"),
        ("duel", "http://[::1/", "random", "--deals", "1"),
        ("bot-check", "http://[::1/"),
    ],
)
def test_an_invalid_ipv6_url_is_one_line(tmp_path: Path, command: tuple[str, ...]) -> None:
    one_error_line(tt(*command, cwd=tmp_path), "Invalid IPv6 URL")


def test_an_invalid_ipv6_url_on_resume(saved: dict[str, Any], tmp_path: Path) -> None:
    write(tmp_path / "r.json", saved)
    run = tt("play", "--resume", "r.json", "--players", "http://[::1/,random,random,random",
             cwd=tmp_path)  # fmt: skip
    one_error_line(run, "Invalid IPv6 URL")
    with pytest.raises(BotError, match="Invalid IPv6 URL"):
        make_bot("http://[::1/")


@pytest.mark.parametrize(
    "body",
    [
        "raise SystemExit(0)",
        "import sys; sys.exit('bye')",
        "raise KeyError('boom')",
        "class Odd(BaseException): pass\nraise Odd('odd')",
        "raise RecursionError('deep')",
    ],
)
def test_a_plugin_raising_at_import_is_one_line(tmp_path: Path, body: str) -> None:
    (tmp_path / "bad.py").write_text(body + "\n", encoding="utf-8")
    run = tt("play", "--players", "bad.py:Bot,random,random,random", cwd=tmp_path)
    one_error_line(run, "cannot load bot")
    with pytest.raises(BotError, match="cannot load bot"):
        make_bot(f"{tmp_path / 'bad.py'}:Bot")


def test_you_is_a_person_in_play_as_in_the_tui(tmp_path: Path) -> None:
    run = tt("play", "--players", "you,random,random,random", "--seed", "2", "--save", "r.json",
             cwd=tmp_path, stdin="quit\n")  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert load_record(tmp_path / "r.json")["players"] == ["tester", *["bot:random"] * 3]


def test_a_megabyte_of_players_is_quoted_short(tmp_path: Path) -> None:
    line = one_error_line(tt("play", "--players", "x" * 100_000, cwd=tmp_path))
    assert len(line) <= LINE


def test_tricktable_alone_prints_its_usage(tmp_path: Path) -> None:
    run = tt(cwd=tmp_path)
    assert run.returncode == 2  # as click says it
    assert run.stderr.startswith("Usage:") and "error" not in run.stderr.lower()
    assert "Commands:" in run.stderr and "play" in run.stderr


def test_a_record_resumed_from_standard_input_is_saved_under_records(
    saved: dict[str, Any], tmp_path: Path
) -> None:
    cut = dict(saved, hands=saved["hands"][:1])
    run = tt("play", "--resume", "-", "--players", "human,random,random,random",
             cwd=tmp_path, stdin=json.dumps(cut))  # fmt: skip
    assert run.returncode == 0, run.stderr
    (record,) = (tmp_path / "records").iterdir()
    assert load_record(record)["hands"] == cut["hands"]


ESCAPES = ["\x1b]0;pwn\x07\x1b[2J\x1b[31mred", "a\r\nforged line", "\u202eright to left", "\x9b2J"]


@pytest.mark.parametrize("escape", ESCAPES)
@pytest.mark.parametrize("place", ["label", "note"])
def test_a_record_that_would_print_an_escape_is_refused(
    saved: dict[str, Any], tmp_path: Path, place: str, escape: str
) -> None:
    """Labels and notes are printed (replay, analyze, the tables): a control character in one
    is refused where the record is read, by every command, never sent to the terminal."""
    record = json.loads(json.dumps(saved))
    if place == "label":
        record["players"][0] = "bot:" + escape
    else:
        record["format"] = "tricktable-record/2"
        note = {"at": 0, "kind": "chat", "seat": 1, "text": escape}
        record["hands"][0].setdefault("notes", []).append(note)
    path = write(tmp_path / "esc.json", record)
    for args in (["replay", str(path)], ["analyze", str(path)], ["play", "--resume", str(path)]):
        run = tt(*args, cwd=tmp_path)
        one_error_line(run, "control character")
        assert escape not in run.stdout + run.stderr
        assert "\x1b" not in run.stdout + run.stderr
    with pytest.raises(RecordError, match="control character"):
        replay(record)


def test_an_empty_save_path_is_refused_before_the_match(tmp_path: Path) -> None:
    run = tt("play", "--players", FOUR_BOTS, "--seed", "1", "--max-hands", "2", "--save", "",
             cwd=tmp_path)  # fmt: skip
    one_error_line(run, "no record path given")
    assert run.stdout == "" and list(tmp_path.iterdir()) == []
