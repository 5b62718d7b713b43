"""The tournaments' tests' helpers (web/tournaments.py): an account to start them, and a wait
for one's progress. The servers are web_harness's (``serving``, ``server_process``)."""

from __future__ import annotations

import time
from typing import Any

import httpx


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
