"""A Redis server of the tests' own: Debian's ``redis-server`` on a free loopback port, with a
password, nothing saved to disk (``make test`` installs the package when it is missing).

:meth:`LocalRedis.restart` stops it and starts it again on the same port, empty: what a
Redis restarted without persistence looks like to the servers using it.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from helpers import unused_port

PASSWORD = "tests-only-password"


class RedisMissing(RuntimeError):
    """No ``redis-server`` on this machine."""


class LocalRedis:
    """A running throw-away Redis (see the module)."""

    def __init__(self, root: Path, port: int) -> None:
        self.root = root
        self.port = port
        self.proc: subprocess.Popen[bytes] | None = None

    @classmethod
    @contextmanager
    def running(cls) -> Iterator[LocalRedis]:
        """Start a server, yield it, stop it and remove its folder."""
        if shutil.which("redis-server") is None:
            raise RedisMissing(
                "redis-server is missing: run `make test`, or `apt-get install -y redis-server`"
            )
        root = Path(tempfile.mkdtemp(prefix="tricktable-redis-"))
        server = cls(root, unused_port())
        try:
            server.start()
            yield server
        finally:
            server.stop()
            shutil.rmtree(root, ignore_errors=True)

    @property
    def url(self) -> str:
        """The URL a server process is given (``--redis``)."""
        return f"redis://:{PASSWORD}@127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start the server (empty) and wait until it answers."""
        self.proc = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--requirepass",
                PASSWORD,
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.root),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                    s.sendall(f"AUTH {PASSWORD}\r\nPING\r\n".encode())
                    if b"PONG" in s.recv(100):
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        """Stop the server (its data gone: nothing is saved)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self.proc = None

    def restart(self, down_s: float = 0.0) -> None:
        """Stop the server, wait ``down_s`` seconds, start it again on the same port, empty."""
        self.stop()
        time.sleep(down_s)
        self.start()
