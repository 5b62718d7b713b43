"""A PostgreSQL server of the tests' own: initdb in a temporary folder, a free loopback port.

Debian's ``postgresql`` package provides the binaries (``make test`` installs it when missing).
initdb refuses to run as root, so under root (as in CI) the server runs as the ``postgres`` user
the package creates, in a folder handed to that user. fsync is off: the tests need no
durability, and every database they make costs milliseconds rather than a second.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg

from helpers import unused_port

#: where Debian puts each major version's server binaries
DEBIAN_BINARIES = Path("/usr/lib/postgresql")


class PostgresMissing(RuntimeError):
    """No PostgreSQL server binaries on this machine, or no ``postgres`` user to run them."""


def find_binaries() -> Path:
    """The folder of the newest installed PostgreSQL's ``initdb`` and ``pg_ctl``."""
    found = sorted(
        DEBIAN_BINARIES.glob("*/bin/initdb"),
        key=lambda p: int(p.parts[-3]) if p.parts[-3].isdigit() else 0,
    )
    if found:
        return found[-1].parent
    on_path = shutil.which("initdb")
    if on_path and shutil.which("pg_ctl"):
        return Path(on_path).parent
    raise PostgresMissing(
        "PostgreSQL's server binaries are missing (no /usr/lib/postgresql/*/bin/initdb): "
        "run `make test`, or `apt-get install -y postgresql`"
    )


class LocalPostgres:
    """A running throw-away server; :meth:`new_database` gives each test a fresh database."""

    def __init__(self, bindir: Path, root: Path, port: int, as_user: list[str]) -> None:
        self.bindir = bindir
        self.root = root
        self.port = port
        self._as_user = as_user

    @classmethod
    @contextmanager
    def running(cls) -> Iterator[LocalPostgres]:
        """Start a server (initdb and pg_ctl start), yield it, stop it and remove its files."""
        bindir = find_binaries()
        as_user: list[str] = []
        root = Path(tempfile.mkdtemp(prefix="tricktable-pg-"))
        try:
            if os.geteuid() == 0:
                try:
                    user = pwd.getpwnam("postgres")
                except KeyError:
                    raise PostgresMissing(
                        "no 'postgres' user to run the test server as (root may not): "
                        "install Debian's postgresql package"
                    ) from None
                os.chown(root, user.pw_uid, user.pw_gid)
                as_user = ["runuser", "-u", "postgres", "--"]
            server = cls(bindir, root, unused_port(), as_user)
            server._initdb()
            server._start()
            try:
                yield server
            finally:
                server._stop()
        finally:
            shutil.rmtree(root, ignore_errors=True)

    @property
    def data(self) -> Path:
        """The server's data folder."""
        return self.root / "data"

    def url(self, database: str = "postgres") -> str:
        """The SQLAlchemy URL of ``database`` on this server."""
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def connect(self, database: str = "postgres") -> psycopg.Connection[tuple[object, ...]]:
        """A plain autocommit psycopg connection, for what the tests do behind the store's back."""
        return psycopg.connect(
            host="127.0.0.1", port=self.port, user="postgres", dbname=database, autocommit=True
        )

    def new_database(self) -> str:
        """Create an empty database; its name."""
        name = "t_" + uuid.uuid4().hex[:12]
        with self.connect() as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
        return name

    def run_as_server_user(self, *command: str) -> None:
        """Run a command as the user the server runs as (to give it folders and files)."""
        self._run([*command])

    def _run(self, command: list[str]) -> None:
        done = subprocess.run(
            [*self._as_user, *command], capture_output=True, text=True, timeout=60, check=False
        )
        if done.returncode != 0:
            log = self.root / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(
                f"{' '.join(command)} failed ({done.returncode}): {done.stderr.strip()} {tail}"
            )

    def _initdb(self) -> None:
        self._run(
            [
                str(self.bindir / "initdb"),
                "-D",
                str(self.data),
                "-U",
                "postgres",
                "--auth=trust",
                "--encoding=UTF8",
                "--locale=C",
                "--no-sync",
                "--no-instructions",
            ]
        )

    def _start(self) -> None:
        options = (
            f"-h 127.0.0.1 -p {self.port} -k {self.root} "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        )
        self._run(
            [
                str(self.bindir / "pg_ctl"),
                "-D",
                str(self.data),
                "-l",
                str(self.root / "server.log"),
                "-o",
                options,
                "-w",
                "-t",
                "30",
                "start",
            ]
        )

    def _stop(self) -> None:
        self._run([str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"])
