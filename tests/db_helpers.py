"""What the database tests share: the command line run in this process, SQL behind the store's
back, a file's digest, a damaged page."""

from __future__ import annotations

import hashlib
import signal
import sys
from pathlib import Path
from types import FrameType
from typing import Any

from click.testing import CliRunner
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from tricktable.cli.main import main
from tricktable.db.store import parse_target

#: how long one command may run in this process before it counts as a hang (seconds)
HANG = 30
#: SQLite's page size, which the store keeps
PAGE = 4096
#: the first byte of a leaf page of a table's b-tree
LEAF_TABLE_PAGE = 0x0D


class Hung(BaseException):
    """A command that ran past :data:`HANG` seconds (raised by an alarm)."""


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise Hung


def run_main(*args: str) -> tuple[int | str, str, str]:
    """``tricktable ARGS`` through the real entry point, in this process: status, out, err
    (status ``"hung"`` for a command still running after :data:`HANG` seconds)."""
    runner = CliRunner()
    old_argv = sys.argv
    previous = signal.signal(signal.SIGALRM, _alarm)
    with runner.isolation() as (out, err, _):
        sys.argv = ["tricktable", *args]
        signal.alarm(HANG)
        code: Any
        try:
            main()
            code = 0
        except SystemExit as stop:
            code = 0 if stop.code is None else stop.code
        except Hung:
            code = "hung"
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, previous)
            sys.argv = old_argv
        sys.stdout.flush()
        sys.stderr.flush()
        stdout = out.getvalue().decode("utf-8", "replace")
        stderr = err.getvalue().decode("utf-8", "replace")
    return code, stdout, stderr


def digest(path: Path) -> str:
    """The SHA-256 of a file's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def sql(target: str | Path, *statements: str) -> None:
    """Run SQL behind the store's back, as a hand edit or another program would."""
    engine = create_engine(parse_target(str(target))[0], poolclass=NullPool)
    try:
        with engine.begin() as connection:
            for statement in statements:
                connection.execute(text(statement))
    finally:
        engine.dispose()


def leaf_pages(data: bytes | bytearray) -> list[int]:
    """The numbers (from 0) of a SQLite file's leaf table pages."""
    return [p for p in range(1, len(data) // PAGE) if data[p * PAGE] == LEAF_TABLE_PAGE]


def damage_a_page(path: Path) -> None:
    """Overwrite the cell pointers of a leaf page of the file, a quarter of the way in."""
    data = bytearray(path.read_bytes())
    leaves = leaf_pages(data)
    page = leaves[len(leaves) // 4] * PAGE
    data[page + 8 : page + 40] = b"\xff" * 32
    path.write_bytes(bytes(data))
