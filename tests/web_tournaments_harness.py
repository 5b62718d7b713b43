"""A real web server for the tournaments' tests (web/tournaments.py, mounted by app.py): in a
thread of the test process, or as a process of its own to kill."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher
from starlette.applications import Starlette

from tricktable.web import app as web_app
from tricktable.web.store import WebStore
from web_harness import SRC, free_port, wait_up


def make_app(store: WebStore) -> Starlette:
    """The server's app, with argon2 at a test's cost."""
    hasher = PasswordHash((Argon2Hasher(time_cost=1, memory_cost=1024, parallelism=1),))
    return web_app.make_app(store, pace=0.0, hasher=hasher)


@contextlib.contextmanager
def serving(db: Path | str) -> Iterator[str]:
    """A server for ``db`` in a thread; its base URL."""
    store = WebStore.open(str(db))
    port = free_port()
    config = uvicorn.Config(
        make_app(store), host="127.0.0.1", port=port, log_level="error", lifespan="on"
    )
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


#: a server's process: this app on uvicorn, nothing else
PROCESS = """
import sys, uvicorn
sys.path.insert(0, sys.argv[3])
from web_tournaments_harness import make_app
from tricktable.web.store import WebStore
uvicorn.run(make_app(WebStore.open(sys.argv[1])), host="127.0.0.1", port=int(sys.argv[2]),
            log_level="error")
"""


@contextlib.contextmanager
def server_process(db: Path | str, port: int) -> Iterator[subprocess.Popen[str]]:
    """The server as a real process on ``port`` (killed at the end: its tournaments' processes
    die with it)."""
    tests = str(Path(__file__).resolve().parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join((SRC, tests))}
    proc = subprocess.Popen(
        [sys.executable, "-c", PROCESS, str(db), str(port), tests],
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


def account(base: str, name: str = "ann") -> tuple[httpx.Client, str]:
    """A new account's HTTP client and its CSRF token."""
    client = httpx.Client(base_url=base, timeout=30)
    answer = client.post("/api/signup", json={"name": name, "password": "password-1"})
    answer.raise_for_status()
    return client, str(answer.json()["csrf"])


def wait_until(client: httpx.Client, tid: int, done: Any, seconds: float = 300) -> dict[str, Any]:
    """Poll tournament ``tid`` every 0.2 s until ``done(detail)``; its detail then (a
    deadline only so that a broken server ends the test)."""
    deadline = time.monotonic() + seconds
    while True:
        detail: dict[str, Any] = client.get(f"/api/tournaments/{tid}").json()
        if done(detail):
            return detail
        if time.monotonic() > deadline:
            raise TimeoutError(f"tournament {tid}: {detail['status']} {detail['done']}")
        time.sleep(0.2)
