"""A tournament database is data from outside: it starts nothing, a damaged one is refused before
anything is written to it, the readers never write, a damaged row is one line, a tournament's
seed is its own, and SIGTERM stops a tournament as Ctrl-C does.

Every database here is a real SQLite file (or a real PostgreSQL server's database), damaged the
way a disk, a hand edit or a stranger would damage it.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import psutil
import pytest

from conftest import cli_env, run_cli
from db_helpers import damage_a_page, digest, run_main, sql
from tricktable.db.store import Store, StoreError

BOT = Path(__file__).parents[1] / "examples/bots/python/bot.py"
#: the exit status of a command stopped by Ctrl-C (and by SIGTERM)
INTERRUPTED = 130


def refused(done: subprocess.CompletedProcess[str], *words: str) -> str:
    """The one line a refused command said (exit 2, no traceback), checked for ``words``."""
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "Traceback" not in done.stderr and len(lines[0]) <= 200, lines[0]
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def tournament(db: Path | str, *args: str) -> subprocess.CompletedProcess[str]:
    return run_cli("tournament", *args, "--db", str(db), "--json")


@pytest.fixture(scope="module")
def small_made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("small") / "cup.db"
    done = tournament(db, "a=random", "b=heuristic", "--deals", "2", "--name", "cup")
    assert done.returncode == 0, done.stderr
    return db


@pytest.fixture
def small(small_made: Path, tmp_path: Path) -> Path:
    """A finished tournament 'cup' of two built-in entrants, two deals (four games)."""
    db = tmp_path / "cup.db"
    shutil.copyfile(small_made, db)
    return db


def set_entrant(db: Path, name: str, player: str, *, substitute: str | None = None) -> None:
    """Make entrant ``name`` of 'cup' the player ``player`` in its spec and in its table."""
    with closing(sqlite3.connect(db)) as connection, connection:
        (spec_text,) = connection.execute("SELECT spec FROM tournament").fetchone()
        spec = json.loads(spec_text)
        spec["entrants"] = [[n, player if n == name else p] for n, p in spec["entrants"]]
        if substitute is not None:
            spec["substitute"] = substitute
        connection.execute("UPDATE tournament SET spec = ?", (json.dumps(spec),))
        connection.execute("UPDATE entrant SET spec = ? WHERE name = ?", (player, name))
        connection.execute("DELETE FROM game WHERE unit LIKE '%/d1/%'")  # unfinished again


# -------------------------------------------------------------- a stored tournament is data


def test_a_stored_program_entrant_is_not_started_by_a_resume(small: Path, tmp_path: Path) -> None:
    marker = tmp_path / "PWNED"
    set_entrant(small, "b", f"cmd:touch {marker}")
    before = digest(small)
    line = refused(tournament(small, "--name", "cup"), "'b'", "give its entrants again")
    assert "never starts" in line
    assert not marker.exists()
    assert digest(small) == before  # refused before anything was written
    # The readers show the stored spec, and start nothing either.
    assert run_cli("standings", "--db", str(small), "--name", "cup").returncode == 0
    assert not marker.exists()


def test_a_stored_plug_in_entrant_is_not_loaded(small: Path, tmp_path: Path) -> None:
    marker = tmp_path / "IMPORTED"
    plugin = tmp_path / "evil.py"
    plugin.write_text(
        f"open({str(marker)!r}, 'w').close()\n"
        "from tricktable.bots.random_bot import RandomBot as Evil\n"
    )
    set_entrant(small, "a", f"{plugin}:Evil")
    refused(tournament(small, "--name", "cup"), "'a'", "plug-in")
    assert not marker.exists()


def test_a_stored_url_entrant_is_never_contacted(small: Path) -> None:
    calls: list[object] = []
    with socket.create_server(("127.0.0.1", 0)) as server:
        server.settimeout(0.2)
        port = server.getsockname()[1]
        stop = threading.Event()

        def listen() -> None:
            while not stop.is_set():
                try:
                    calls.append(server.accept())
                except TimeoutError:
                    continue

        listener = threading.Thread(target=listen)
        listener.start()
        try:
            set_entrant(small, "b", f"http://127.0.0.1:{port}/?token=SECRET")
            line = refused(tournament(small, "--name", "cup"), "'b'")
            assert "SECRET" not in line
        finally:
            stop.set()
            listener.join()
    assert calls == []


def test_a_stored_bot_option_naming_a_file_is_refused(small: Path, tmp_path: Path) -> None:
    set_entrant(small, "b", f"cfr(db={tmp_path / 'strategy.db'})")  # a file the bot would open
    refused(tournament(small, "--name", "cup"), "'b'", "give its entrants again")


def test_a_stored_substitute_that_runs_a_program_is_refused(small: Path, tmp_path: Path) -> None:
    set_entrant(small, "b", "heuristic", substitute=f"cmd:touch {tmp_path / 'X'}")
    refused(tournament(small, "--name", "cup"), "substitute")


def test_program_entrants_given_again_resume(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    bot = f"bot=cmd:{sys.executable} {BOT}"
    first = tournament(db, bot, "r=random", "--deals", "2", "--name", "p", "--seed", "3")
    assert first.returncode == 0, first.stderr
    with closing(sqlite3.connect(db)) as connection, connection:
        connection.execute("DELETE FROM game WHERE unit LIKE '%/d1/%'")
    refused(tournament(db, "--name", "p"), "'bot'", "give its entrants again")
    again = tournament(db, bot, "r=random", "--deals", "2", "--name", "p", "--seed", "3")
    assert again.returncode == 0, again.stderr
    summary = json.loads(again.stdout)
    assert summary["resumed"] and (summary["stored_before"], summary["stored_now"]) == (2, 2)
    # Given again without its seed: the stored one is kept.
    third = tournament(db, bot, "r=random", "--deals", "2", "--name", "p")
    assert third.returncode == 0 and json.loads(third.stdout)["seed"] == 3


def test_entrants_edited_apart_from_the_spec_are_damage(small: Path) -> None:
    with closing(sqlite3.connect(small)) as connection, connection:
        connection.execute("UPDATE entrant SET spec = 'cmd:true' WHERE name = 'a'")
    before = digest(small)
    refused(tournament(small, "--name", "cup"), "damaged")
    assert digest(small) == before


# ------------------------------------------------ a damaged database is refused, not written


def test_a_damaged_page_is_refused_before_a_game_is_stored(tmp_path: Path) -> None:
    db = tmp_path / "big.db"
    args = ("random", "heuristic", "--deals", "400", "--name", "d", "--seed", "1")
    assert tournament(db, *args).returncode == 0
    connection = sqlite3.connect(db, isolation_level=None)
    connection.execute("DELETE FROM game WHERE round_no >= 300")  # unfinished: 100 deals to go
    connection.execute("VACUUM")
    connection.close()
    damage_a_page(db)
    before = digest(db)
    line = refused(tournament(db, *args), "is damaged", "nothing was written")
    assert str(db) in line
    assert digest(db) == before
    assert not Path(f"{db}-wal").exists() or Path(f"{db}-wal").stat().st_size == 0


@pytest.mark.parametrize("command", ["standings", "report"])
def test_the_readers_refuse_an_empty_file_and_write_nothing(tmp_path: Path, command: str) -> None:
    empty = tmp_path / "empty.db"
    empty.touch()
    extra = ["--out", str(tmp_path / "out")] if command == "report" else []
    refused(run_cli(command, "--db", str(empty), *extra), "is empty", "not a tricktable database")
    assert empty.stat().st_size == 0
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("empty")) == ["empty.db"]


@pytest.mark.parametrize("command", ["standings", "report", "tournament"])
def test_a_file_that_is_no_database_is_left_as_it_was(tmp_path: Path, command: str) -> None:
    notes = tmp_path / "notes.db"
    notes.write_text("my notes, not a database\n" * 100)
    before = digest(notes)
    args = {"tournament": ["random", "heuristic"], "report": ["--out", str(tmp_path / "o")]}
    refused(run_cli(command, "--db", str(notes), *args.get(command, [])), "not a SQLite database")
    assert digest(notes) == before


@pytest.mark.parametrize("command", ["standings", "report", "tournament"])
def test_another_programs_database_is_left_as_it_was(tmp_path: Path, command: str) -> None:
    other = tmp_path / "other.db"
    with closing(sqlite3.connect(other)) as connection, connection:
        connection.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
    before = digest(other)
    args = {"tournament": ["random", "heuristic"], "report": ["--out", str(tmp_path / "o")]}
    refused(run_cli(command, "--db", str(other), *args.get(command, [])), "not a tricktable")
    assert digest(other) == before


@pytest.mark.parametrize("kind", ["folder", "fifo", "symlink"])
def test_a_database_that_is_no_regular_file_is_refused(tmp_path: Path, kind: str) -> None:
    db = tmp_path / "odd.db"
    if kind == "folder":
        db.mkdir()
    elif kind == "fifo":
        os.mkfifo(db)
    else:
        (tmp_path / "real.db").touch()
        db.symlink_to(tmp_path / "real.db")
    said = {"folder": "a folder", "fifo": "a FIFO", "symlink": "a symbolic link"}[kind]
    # No hang on a FIFO: run_cli's timeout would fail the test.
    refused(tournament(db, "random", "heuristic", "--deals", "1"), said)
    if kind == "symlink":  # written through, it would change a file elsewhere
        assert (tmp_path / "real.db").stat().st_size == 0
    else:  # read through, a link is the file it names; a folder or a FIFO is none
        refused(run_cli("standings", "--db", str(db)), said)


@pytest.mark.parametrize(
    ("statement", "words"),
    [
        ("UPDATE tournament SET spec = '{not json'", "spec is not JSON"),
        ("UPDATE tournament SET spec = '[1, 2]'", "spec should be a JSON object"),
        ("UPDATE tournament SET spec = x'7b00ff'", "spec should be JSON text"),
        ("UPDATE tournament SET spec = 5", "spec should be a JSON object"),
        ("UPDATE tournament SET spec = '{}'", "side_of_seat"),
        ("UPDATE tournament SET created = 'yesterday'", "created should be a date"),
        ("UPDATE tournament SET name = x'00ff'", "name should be text"),
        ("UPDATE game SET result = x'00' WHERE id = 2", "result should be JSON text"),
        ("UPDATE game SET result = 'null' WHERE id = 2", "result should be a JSON object"),
        ("UPDATE game SET result = '{\"scores\": NaN}' WHERE id = 2", "NaN is not JSON"),
        ("UPDATE game SET result = '[' || printf('%.*c', 5000, '[')", "nested too deeply"),
        ("UPDATE game SET seats = '[\"a\"]' WHERE id = 3", "seats should be a list"),
        ("UPDATE game SET faults = '{}' WHERE id = 3", "faults should be a list"),
        ("UPDATE game SET round_no = 'two' WHERE id = 3", "round_no should be an integer"),
        ("UPDATE game SET finished_at = 7 WHERE id = 1", "finished_at should be a date"),
        ("UPDATE game SET record = '' WHERE id = 1", "record is not JSON"),
        ("UPDATE game SET unit = x'00' WHERE id = 1", "unit"),
    ],
)
def test_a_damaged_row_is_one_line_in_every_command(
    small: Path, tmp_path: Path, statement: str, words: str
) -> None:
    sql(small, statement)
    before = digest(small)
    out = tmp_path / "report"
    db = ["--db", str(small), "--name", "cup"]
    runs = [
        run_main("report", *db, "--out", str(out)),
        run_main("standings", *db),
        run_main("tournament", *db, "--json"),
    ]
    # Not every command reads what the statement damaged (the record: the report alone); each
    # that meets the damage says so in one line, and a refused resume wrote nothing.
    said = []
    for code, _, err in runs:
        assert code in (0, 2) and "Traceback" not in err, err
        if code == 2:
            (line,) = err.strip().splitlines()
            assert len(line) <= 200
            said.append(line)
    assert any(words in line for line in said), said
    assert digest(small) == before or runs[2][0] == 0


# --------------------------------------------------------------------------------- PostgreSQL


def test_a_damaged_row_under_postgresql_is_one_line(postgres: Any) -> None:
    url = str(postgres.url(postgres.new_database()))
    done = tournament(url, "a=random", "b=heuristic", "--deals", "2", "--name", "cup")
    assert done.returncode == 0, done.stderr
    sql(url, "UPDATE game SET result = 'garbage' WHERE id = 2")
    refused(run_cli("standings", "--db", url), "game #2", "result is not JSON")
    sql(url, "UPDATE tournament SET spec = '[]'")
    refused(tournament(url, "--name", "cup"), "spec should be a JSON object")
    refused(run_cli("report", "--db", url, "--out", "/tmp"), "spec should be a JSON object")
    # An empty database is no tournament's: refused, and left without a schema.
    empty = str(postgres.url(postgres.new_database()))
    refused(run_cli("standings", "--db", empty), "is empty")
    with pytest.raises(StoreError, match="is empty"):
        Store.open(empty, readonly=True)
    with Store.open(empty) as store:  # still empty: a writer makes the schema now
        assert store.tournaments() == []


def test_a_read_only_store_cannot_write(small: Path, postgres: Any) -> None:
    url = str(postgres.url(postgres.new_database()))
    assert tournament(url, "random", "heuristic", "--deals", "1").returncode == 0
    for target in (str(small), url):
        with Store.open(target, readonly=True) as store, pytest.raises(StoreError):
            store.set_status(store.tournaments()[0].id, "hacked")


# -------------------------------------------------------------------------------------- seeds


def test_a_tournament_without_a_seed_draws_one_and_keeps_it(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    args = ("random", "heuristic", "--deals", "2")
    first, second = tournament(db, *args), tournament(tmp_path / "u.db", *args)
    seeds = [json.loads(done.stdout)["seed"] for done in (first, second)]
    assert seeds[0] != seeds[1] and all(0 <= s < 2**64 for s in seeds)
    # The same command finds it again by its name (drawn from its settings) and keeps its seed.
    again = json.loads(tournament(db, *args).stdout)
    assert again["resumed"] and again["seed"] == seeds[0] and again["stored_now"] == 0
    assert again["spec"]["seed"] == seeds[0]
    shown = run_cli("standings", "--db", str(db))
    assert f"seed {seeds[0]}" in shown.stdout
    assert (
        json.loads(run_cli("standings", "--db", str(db), "--json").stdout)["tournament"]["seed"]
        == seeds[0]
    )
    # Two tournaments without a seed deal different cards.
    with Store.open(db, readonly=True) as one, Store.open(tmp_path / "u.db", readonly=True) as two:
        deals = [
            [g.record["hands"][0]["deal"] for g in s.games(s.tournaments()[0].id) if g.record]
            for s in (one, two)
        ]
    assert deals[0] != deals[1]


# ------------------------------------------------------------------------------------ SIGTERM


def stored_count(db: Path) -> int:
    store = Store.look(db)
    if store is None:
        return 0
    with store:
        found = store.tournaments()
        return store.game_count(found[0].id) if found else 0


@pytest.fixture
def running(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], Path, list[str]]]:
    db = tmp_path / "t.db"
    args = ["tournament", "random", "heuristic", "--deals", "1000", "--db", str(db)]
    args += ["--name", "k", "--workers", "2", "--json"]
    child = subprocess.Popen(
        [sys.executable, "-m", "tricktable", *args],
        env=cli_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        yield child, db, args
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()


def test_sigterm_stops_a_tournament_as_ctrl_c_does(
    running: tuple[subprocess.Popen[str], Path, list[str]],
) -> None:
    child, db, args = running
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and stored_count(db) < 200:
        time.sleep(0.1)
    workers = psutil.Process(child.pid).children(recursive=True)
    assert child.poll() is None and len(workers) >= 2, "it finished before it could be stopped"
    stopped_at = time.monotonic()
    child.send_signal(signal.SIGTERM)  # the command alone, as `kill` or `timeout` sends it
    _, err = child.communicate(timeout=30)
    # Far sooner than the rest of the tournament would take: it stopped, not finished.
    assert time.monotonic() - stopped_at < 20
    assert child.returncode == INTERRUPTED
    assert err.strip().splitlines() == [
        "stopped: every finished unit is stored; run the same command again to resume"
    ]
    for worker in workers:  # none left behind, blocked or otherwise
        assert not worker.is_running() or worker.status() == psutil.STATUS_ZOMBIE
    kept = stored_count(db)
    assert 200 <= kept < 2000
    resumed = run_cli(*args)
    assert resumed.returncode == 0, resumed.stderr
    summary = json.loads(resumed.stdout)
    assert summary["resumed"] and summary["stored_before"] == kept
    assert summary["stored_before"] + summary["stored_now"] == summary["units"] == 2000
    assert stored_count(db) == 2000
