"""A real tricktable web server on 127.0.0.1 for the web tests, and clients to talk to it.

:func:`serving` runs uvicorn in a thread of the test process (its own event loop) on a free
port with a real SQLite file; :func:`server_process` runs ``tricktable serve`` itself, for the
tests that kill it. :class:`Client` is a websocket client (the ``websockets`` library, sync
API) holding a session cookie made over HTTP (httpx). The database is a SQLite file or a
PostgreSQL URL: the ``web_db`` fixture gives a test each in turn (PostgreSQL: the tests' own
server, ``postgres`` in conftest.py, a new database a test); :func:`journal_acts` reads either.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher
from websockets.sync.client import ClientConnection, connect

from tricktable.web.app import make_app
from tricktable.web.hub import HubLimits, TokenBucket
from tricktable.web.store import WebStore

SRC = str(Path(__file__).resolve().parents[1] / "src")
#: the harness's own pace (messages a second, a burst): under the server's 20 and 40, so that
#: a test playing a whole match as fast as it can is never refused as a flood
PACE_RATE = 15.0
PACE_BURST = 30.0


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def serving(
    db: Path | str, pace: float = 0.0, hub_limits: HubLimits | None = None
) -> Iterator[str]:
    """A server for ``db`` (a SQLite file or a URL) in a thread; its base URL
    (``http://127.0.0.1:PORT``)."""
    store = WebStore.open(str(db))
    # argon2 as the server uses it, with a test's cost (the default takes 64 MiB a hash)
    hasher = PasswordHash((Argon2Hasher(time_cost=1, memory_cost=1024, parallelism=1),))
    app = make_app(store, pace=pace, hasher=hasher, hub_limits=hub_limits)
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the web server did not start")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
        store.close()


@contextlib.contextmanager
def server_process(db: Path | str, port: int) -> Iterator[subprocess.Popen[str]]:
    """``tricktable serve`` on ``port`` for ``db``, a real process (killed at the end)."""
    env = {**os.environ, "PYTHONPATH": SRC}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tricktable",
            "serve",
            "--port",
            str(port),
            "--db",
            str(db),
            "--pace",
            "0",
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        wait_up(f"http://127.0.0.1:{port}", proc)
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)
        if proc.stdout is not None:
            proc.stdout.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def web_db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new database for a server: a SQLite file, then a PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "web.db")
    server = request.getfixturevalue("postgres")
    return str(server.url(server.new_database()))


def journal_rows(db: Path | str, table: str) -> list[tuple[int, list[Any]]]:
    """Table ``table``'s journal in ``db`` (a file or a URL): each row's seq and steps."""
    store = WebStore.open(str(db))
    try:
        return [(row.seq, row.steps) for row in store.journal(table)]
    finally:
        store.close()


def journal_acts(db: Path | str, table: str) -> list[str]:
    """The ids of the acts in table ``table``'s journal, in order."""
    return [
        s[3] for _, steps in journal_rows(db, table) for s in steps if s[0] == "act" and len(s) > 3
    ]


def wait_up(base: str, proc: subprocess.Popen[str] | None = None, seconds: float = 30) -> None:
    """Wait until ``base`` answers (or fail, with the process's output)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            out = proc.stdout.read() if proc.stdout else ""
            raise RuntimeError(f"the server exited: {out}")
        with contextlib.suppress(httpx.HTTPError):
            httpx.get(base + "/api/me", timeout=1)
            return
        time.sleep(0.05)
    raise RuntimeError("the server did not answer")


class Client:
    """A person: an HTTP session (cookie, CSRF token) and a websocket."""

    def __init__(self, base: str, name: str = "Ann") -> None:
        self.base = base
        self.http = httpx.Client(base_url=base, timeout=10)
        answer = self.http.post("/api/guest", json={"name": name})
        answer.raise_for_status()
        self.user = answer.json()["user"]
        self.csrf = answer.json()["csrf"]
        self.ws: ClientConnection | None = None
        #: every frame received, in order
        self.frames: list[dict[str, Any]] = []
        self.version: int | None = None
        self.snapshot: dict[str, Any] | None = None
        self.you: dict[str, Any] = {}
        self._n = 0
        self._pace = TokenBucket(PACE_RATE, PACE_BURST)

    def post(self, path: str, body: dict[str, Any]) -> httpx.Response:
        """A POST with the session's CSRF token."""
        return self.http.post(path, json=body, headers={"X-CSRF-Token": self.csrf})

    def connect(self, origin: str | None = None) -> ClientConnection:
        """Open the websocket with the session's cookie."""
        cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        headers = {"Cookie": cookie}
        if origin is not None:
            headers["Origin"] = origin
        self.ws = connect(self.base.replace("http", "ws") + "/ws", additional_headers=headers)
        return self.ws

    def send(
        self,
        kind: str,
        table: str | None = None,
        data: dict[str, Any] | None = None,
        id: str | None = None,
    ) -> None:
        """Send one envelope, within the server's documented rate (docs/protocol-web.md: 20
        messages a second, bursts of 40), with a margin: the server counts arrivals, which a
        busy loop can bunch together."""
        assert self.ws is not None
        while not self._pace.allow():
            time.sleep(self._pace.wait())
        self.ws.send(json.dumps({"type": kind, "table": table, "id": id, "data": data or {}}))

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        """The next frame (kept in :attr:`frames`; a snapshot or version remembered)."""
        assert self.ws is not None
        frame = json.loads(self.ws.recv(timeout))
        self.frames.append(frame)
        kind, data = frame["type"], frame["data"]
        if frame.get("v") is not None and kind in ("snapshot", "events", "confirm", "refuse"):
            self.version = frame["v"]
        if kind == "snapshot":
            self.snapshot = data
        elif kind in ("confirm", "refuse") and "snapshot" in data:
            self.snapshot = data["snapshot"]
        elif kind == "table":
            self.you = data["you"]
        return frame

    def until(self, kind: str, timeout: float = 20, **match: Any) -> dict[str, Any]:
        """Read frames until one of type ``kind`` (with ``match``'s envelope fields)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no {kind} frame")
            try:
                frame = self.recv(left)
            except TimeoutError:
                # Say what did come: a refusal or an error where a confirm was awaited is the
                # usual story of a timeout here.
                seen = [
                    f"{f['type']}(v={f.get('v')}, id={f.get('id')}"
                    + (f", {f['data'].get('reason')!r}" if "reason" in f["data"] else "")
                    + (f", status={f['data'].get('status')}" if f["type"] == "table" else "")
                    + ")"
                    for f in self.frames[-8:]
                ]
                raise TimeoutError(
                    f"no {kind} frame {match} in {timeout:.0f} s; last: {seen}"
                ) from None
            if frame["type"] == kind and all(frame.get(k) == v for k, v in match.items()):
                return frame

    def next_id(self) -> str:
        """A new act id."""
        self._n += 1
        return f"{self.user['id']}-{self._n}"

    def close(self) -> None:
        """Close the websocket and the HTTP client."""
        if self.ws is not None:
            self.ws.close()
        self.http.close()


def my_turn(client: Client, timeout: float = 20) -> dict[str, Any]:
    """Read until a snapshot where the client is to act; that snapshot."""
    deadline = time.monotonic() + timeout
    while True:
        snap = client.snapshot
        if snap is not None and snap.get("decision") and snap["version"] == client.version:
            return dict(snap)
        client.recv(max(deadline - time.monotonic(), 0.01))


def first_act(snap: dict[str, Any]) -> dict[str, Any]:
    """The data of an ``act`` making the first choice a snapshot's decision offers: its first
    legal action, or the fewest cards a choice of cards takes (the first of them)."""
    decision = snap["decision"]
    if decision["kind"] == "cards":
        sets = decision.get("sets")
        return {"cards": sets[0] if sets else decision["cards"][: decision["min"]]}
    return {"action": snap["legal"][0]["action"]}
