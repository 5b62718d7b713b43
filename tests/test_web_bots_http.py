"""An account's web-service bot at a web table (issue 28 items 2 and 3): invited by name, it
is called by the server through the endpoint guard — a bot at a loopback address is refused
before any connection unless the server allows local bots (``serve --allow-local-bots``), and
then it plays the hand; either way the person's hand is scored (a refused bot is substituted,
its fault shown)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from test_http_bots import Generic, Server
from test_web_bots import Account, create_table, invite, play_until_scored
from tricktable.web.hub import HubLimits
from web_harness import serving

#: every socket.connect's address while a test watches (an audit hook cannot be removed)
_WATCHING: list[list[Any]] = []


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if event == "socket.connect" and _WATCHING:
        _WATCHING[-1].append(args[1])


sys.addaudithook(_audit)


@pytest.fixture
def bot_server() -> Iterator[Server]:
    server = Server(Generic)
    yield server
    server.close()


def _play(db: Path, url: str, allow_local: bool) -> tuple[dict[str, Any], list[Any]]:
    """A hand at a table whose seat 1 is Ann's web-service bot at ``url``: the invitation's
    answer, and the faults the table showed Ann (their details go to the record alone)."""
    with serving(db, hub_limits=HubLimits(allow_local_bots=allow_local)) as base:
        ann = Account(base)
        made = ann.post("/api/bots", {"name": "Webby", "kind": "http", "endpoint": url})
        assert made.status_code == 200, made.text
        ann.connect()
        table = create_table(ann)
        answer = invite(ann, table, "Webby")
        play_until_scored(ann, table)
        faults = [
            event["data"]
            for frame in ann.frames
            if frame["type"] == "events"
            for event in frame["data"]["events"]
            if event["kind"] == "fault"
        ]
        ann.close()
    return answer, faults


def test_a_web_service_bot_on_loopback_is_refused_without_allow_local(
    tmp_path: Path, bot_server: Server
) -> None:
    dialled: list[Any] = []
    _WATCHING.append(dialled)
    try:
        answer, faults = _play(tmp_path / "web.db", bot_server.url, allow_local=False)
    finally:
        _WATCHING.pop()
    assert answer["type"] == "table", answer
    seat = answer["data"]["seats"][1]
    assert seat["name"] == "Webby" and seat["kind"] == "bot"
    assert bot_server.requests == []  # the bot was never reached
    port = int(bot_server.url.rsplit(":", 1)[1].strip("/"))
    assert not any(isinstance(a, tuple) and a[1] == port for a in dialled)
    assert faults == [{"type": "fault", "seat": 1, "fault": "closed", "penalty": "substitute"}]


def test_a_web_service_bot_plays_a_hand_where_local_bots_are_allowed(
    tmp_path: Path, bot_server: Server
) -> None:
    answer, faults = _play(tmp_path / "web.db", bot_server.url, allow_local=True)
    assert answer["type"] == "table", answer
    assert faults == []
    events = [path.rsplit("/", 1)[1] for path, _ in bot_server.requests]
    assert events[0] == "start" and "play" in events
