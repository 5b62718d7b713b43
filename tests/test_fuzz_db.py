"""Fuzz the tournament database (issue 18, item 6): a real small tournament file damaged in
many ways — bytes overwritten at random offsets, truncated, emptied, garbage in every column,
a table dropped, the schema's revision changed — then read by ``standings`` and ``report`` and
resumed by ``tournament``. Every command ends with exit 0 or 2, at most one line of at most 200
characters on standard error, never a traceback, never a hang; and a file a command refused is
byte for byte what it was (the readers never write at all).

The commands run in this process through the real entry point, for speed; two run as real
children at the end. The suite's run is derandomized (the same on every machine);
``TRICKTABLE_FUZZ=N`` runs N times as many examples, freshly drawn.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from conftest import cli_env
from db_helpers import PAGE, digest, run_main
from helpers import fuzz_settings

FUZZ = fuzz_settings(150)
#: the longest line a command may say (characters)
LINE = 200
#: the columns of each table, and garbage to put in them
COLUMNS = {
    "tournament": ("id", "name", "created", "spec", "status"),
    "entrant": ("id", "tournament_id", "name", "spec"),
    "game": (
        "id",
        "tournament_id",
        "unit",
        "round_no",
        "table_no",
        "seats",
        "seed",
        "record",
        "result",
        "faults",
        "finished_at",
    ),
    "alembic_version": ("version_num",),
}
TROUBLE: list[Any] = [
    None,
    "",
    "null",
    "{",
    "[]",
    "{}",
    '{"scores": NaN}',
    '{"scores": [1e999, 2]}',
    "[" * 3000 + "]" * 3000,
    '{"seed": ' + "9" * 5000 + "}",
    "9" * 5000,
    '"text"',
    '{"scores": [1, 2, 3], "winner": 7, "forfeited_by": -1}',
    '{"game": "setback", "hands": [{"deal": 5}]}',
    # records that are almost records: what the report's strategy reader replays
    '{"game": "setback", "seed": 1, "hands": [{"deal": [["AS"]], "dealer": 9, "actions": []}]}',
    '{"game": "setback", "hands": [{"deal": [[], [], [], []], "dealer": -1, "actions": ["x"]}]}',
    '{"game": "setback", "options": {"target": ' + "[" * 500 + "]" * 500 + '}, "hands": []}',
    '{"game": "' + "setback(" * 1000 + '", "hands": []}',
    '{"game": "hearts", "seed": 1e400, "hands": [{"deal": null}]}',
    '{"game": "setback", "options": {"target": -5, "hand_size": 99}, "hands": [{}]}',
    '{"name": "cup", "game": "nosuchgame", "entrants": [["a", "random"]], "seed": 1}',
    '{"name": "cup", "game": "setback", "entrants": [["a", "cmd:touch x"]], "seed": 1.5}',
    "[[1, 2]]",
    "\x00\xff",
    b"\x00\xff\xfe",
    -1,
    2**63 - 1,
    1.5,
    "0042",
    "x" * 100_000,
]
VALUES = st.sampled_from(TROUBLE) | st.text(max_size=40) | st.integers() | st.binary(max_size=20)


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An unfinished tournament 'cup' (its last deal not played), closed: no -wal beside it."""
    db = tmp_path_factory.mktemp("template") / "cup.db"
    code, _, err = run_main(
        "tournament", "a=random", "b=heuristic", "--deals", "3", "--name", "cup", "--seed", "7",
        "--db", str(db), "--workers", "1", "--json",
    )  # fmt: skip
    assert code == 0, err
    with closing(sqlite3.connect(db)) as connection, connection:
        connection.execute("DELETE FROM game WHERE round_no = 2")
    assert not Path(f"{db}-wal").exists()
    return db


# ------------------------------------------------------------------------------- the damage


@st.composite
def overwritten(draw: st.DrawFn, size: int) -> tuple[str, Any]:
    """Bytes overwritten at offsets anywhere, in the header, or at the start of a page."""
    spots = (
        st.integers(0, size - 1)
        | st.integers(0, 99)
        | st.integers(1, size // PAGE - 1).map(lambda page: page * PAGE)
    )
    edits = draw(st.lists(st.tuples(spots, st.binary(min_size=1, max_size=64)), min_size=1,
                          max_size=6))  # fmt: skip
    return "overwrite", edits


@st.composite
def damage(draw: st.DrawFn, size: int) -> tuple[str, Any]:
    kind = draw(st.sampled_from(["overwrite", "truncate", "empty", "column", "drop", "version"]))
    if kind == "overwrite":
        return draw(overwritten(size))
    if kind == "truncate":
        return kind, draw(st.integers(1, size - 1))
    if kind == "empty":
        return kind, None
    if kind == "column":
        table = draw(st.sampled_from(sorted(COLUMNS)))
        return kind, (table, draw(st.sampled_from(COLUMNS[table])), draw(VALUES))
    if kind == "drop":
        return kind, draw(st.sampled_from(sorted(COLUMNS)))
    return kind, draw(VALUES)


def apply(path: Path, harm: tuple[str, Any]) -> None:
    kind, what = harm
    if kind == "overwrite":
        data = bytearray(path.read_bytes())
        for offset, chunk in what:
            data[offset : offset + len(chunk)] = chunk
        path.write_bytes(bytes(data[: path.stat().st_size]))
    elif kind == "truncate":
        os.truncate(path, what)
    elif kind == "empty":
        os.truncate(path, 0)
    else:
        with closing(sqlite3.connect(path, isolation_level=None)) as connection:
            connection.execute("PRAGMA foreign_keys=OFF")
            if kind == "column":
                table, column, value = what
                # Every row; where the column's constraints refuse the value, plain garbage,
                # and where they refuse that too (an integer key), nothing.
                for stored in (value, "garbage"):
                    try:
                        connection.execute(f"UPDATE {table} SET {column} = ?", (stored,))
                        break
                    except (sqlite3.IntegrityError, OverflowError):
                        continue
            elif kind == "drop":
                connection.execute(f"DROP TABLE {what}")
            else:
                try:
                    connection.execute("UPDATE alembic_version SET version_num = ?", (what,))
                except (sqlite3.IntegrityError, OverflowError):
                    connection.execute("DELETE FROM alembic_version")


# ---------------------------------------------------------------------------------- the fuzz


def check(args: list[str], code: Any, err: str) -> None:
    assert code != "hung", f"hung: {args}"
    assert code in (0, 2), f"exit {code}: {args}\n{err[-3000:]}"
    assert "Traceback" not in err, err[-3000:]
    lines = err.strip().splitlines()
    for line in lines:
        assert len(line) <= LINE, line[:300]
    if code == 2:
        assert len(lines) == 1, err


#: the same tournament, given again in full
AGAIN = ["a=random", "b=heuristic", "--deals", "3", "--name", "cup", "--seed", "7"]
COMMANDS = st.sampled_from(
    [
        ["standings"],
        ["standings", "--json", "--name", "cup"],
        ["report", "--out", "{out}"],
        ["tournament", "--name", "cup", "--workers", "1", "--json"],
        ["tournament", *AGAIN, "--workers", "1", "--json"],
    ]
)


@FUZZ
@given(data=st.data(), command=COMMANDS)
def test_a_damaged_database_is_one_line_or_read_and_never_written_when_refused(
    template: Path,
    tmp_path_factory: pytest.TempPathFactory,
    data: st.DataObject,
    command: list[str],
) -> None:
    root = tmp_path_factory.mktemp("case")
    db = root / "cup.db"
    shutil.copyfile(template, db)
    harm = data.draw(damage(db.stat().st_size))
    apply(db, harm)
    event(harm[0])
    before = digest(db)
    args = [part.replace("{out}", str(root / "out")) for part in command] + ["--db", str(db)]
    code, _, err = run_main(*args)
    event(f"{command[0]}: exit {code}")
    check(args, code, err)
    if code == 2 or command[0] != "tournament":
        assert digest(db) == before, f"{args} changed the file it refused: {err}"


def test_two_damaged_databases_in_real_children(template: Path, tmp_path: Path) -> None:
    """The same promises from a real ``python -m tricktable``: a truncated file and a garbage
    result, each read and resumed."""
    truncated, garbage = tmp_path / "truncated.db", tmp_path / "garbage.db"
    shutil.copyfile(template, truncated)
    os.truncate(truncated, 3 * PAGE + 17)
    shutil.copyfile(template, garbage)
    with closing(sqlite3.connect(garbage, isolation_level=None)) as connection:
        connection.execute("UPDATE game SET result = 'null'")
    for db in (truncated, garbage):
        for command in (["standings"], ["tournament", "--name", "cup", "--json"]):
            before = digest(db)
            done = subprocess.run(
                [sys.executable, "-m", "tricktable", *command, "--db", str(db)],
                capture_output=True,
                text=True,
                env=cli_env(),
                timeout=60,
                check=False,
            )
            check(command, done.returncode, done.stderr)
            if done.returncode == 2:
                assert digest(db) == before
            if command[0] == "standings" and db == garbage:
                assert done.returncode == 2 and "result should be a JSON object" in done.stderr
    resumed = json.loads(
        subprocess.run(
            [sys.executable, "-m", "tricktable", "tournament", "--name", "cup", "--json",
             "--db", str(garbage)],
            capture_output=True, text=True, env=cli_env(), timeout=60, check=True,
        ).stdout
    )  # fmt: skip
    assert resumed["stored_now"] == 0  # resumed before: nothing twice


@pytest.mark.parametrize("record", [t for t in TROUBLE if isinstance(t, str) and '"hands"' in t])
def test_records_that_are_almost_records_leave_the_report_standing(
    template: Path, tmp_path: Path, record: str
) -> None:
    """A stored record the strategy reader cannot replay is counted unreadable, not a crash."""
    db = tmp_path / "cup.db"
    shutil.copyfile(template, db)
    with closing(sqlite3.connect(db, isolation_level=None)) as connection:
        connection.execute("UPDATE game SET record = ?", (record,))
    args = ["report", "--db", str(db), "--out", str(tmp_path / "out")]
    code, _, err = run_main(*args)
    check(args, code, err)
    assert code == 0 and (tmp_path / "out/index.html").is_file(), err
