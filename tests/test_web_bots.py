"""Accounts' bots at a web table (issue 28 item 2), on a real server on 127.0.0.1.

The example bots of ``examples/bots/`` run as real processes (Python, and Node where it has a
WebSocket) and each plays a hand at a table a person made and invited it to; tokens are
refused when wrong, and a rotation or a deletion closes the bot's open socket; guests make no
bots; bad names and bad invitations get one line; a bot's frames name no card its seat may not
know (the leak test's check, applied to a bot playing a whole match).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from test_web_leaks import frames_leak, knowledge, play_match
from tricktable.web.bots import MAX_BOTS
from tricktable.web.hub import TokenBucket
from web_harness import PACE_BURST, PACE_RATE, Client, first_act, serving

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "bots"


def _blank(client: Client) -> None:
    """What :class:`Client` starts with besides its HTTP session (made otherwise here)."""
    client.ws = None
    client.frames = []
    client.version = None
    client.snapshot = None
    client.you = {}
    client._n = 0
    client._pace = TokenBucket(PACE_RATE, PACE_BURST)


class Account(Client):
    """A person with an account (a guest may not own bots): signed up over HTTP."""

    def __init__(self, base: str, name: str = "ann") -> None:
        self.base = base
        self.http = httpx.Client(base_url=base, timeout=10)
        answer = self.http.post("/api/signup", json={"name": name, "password": "secret-pw"})
        answer.raise_for_status()
        self.user = answer.json()["user"]
        self.csrf = answer.json()["csrf"]
        _blank(self)

    def make_bot(self, name: str) -> str:
        """A new websocket bot's token."""
        answer = self.post("/api/bots", {"name": name})
        assert answer.status_code == 200, answer.text
        token = answer.json()["token"]
        assert isinstance(token, str)
        return token


class BotClient(Client):
    """A bot's websocket, driven by the test as :class:`Client` drives a person's."""

    def __init__(self, base: str, token: str) -> None:
        self.base = base
        self.http = httpx.Client(base_url=base, timeout=10)
        self.token = token
        self.user = {"id": "bot"}
        _blank(self)

    def connect(self, origin: str | None = None) -> ClientConnection:
        headers = {"Authorization": f"Bearer {self.token}"}
        if origin is not None:
            headers["Origin"] = origin
        self.ws = connect(self.base.replace("http", "ws") + "/ws", additional_headers=headers)
        return self.ws


@pytest.fixture
def base(tmp_path: Path) -> Iterator[str]:
    with serving(tmp_path / "web.db") as url:
        yield url


def create_table(person: Client, game: str = "setback(target=5)") -> str:
    """A table ``person`` made and says hello to: them at seat 0, seat 1 open, bots after."""
    person.send(
        "create",
        None,
        {
            "game": game,
            "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}],
        },
        id="c1",
    )
    table = person.until("created", id="c1")["data"]["table"]["id"]
    person.send("hello", table, {"since": None}, id="h1")
    person.until("table", id="h1")
    return str(table)


def invite(person: Client, table: str, bot: str, seat: int = 1, tries: int = 200) -> dict[str, Any]:
    """Invite ``bot`` until it has connected (a process just started); the answer."""
    for n in range(tries):
        person.send("invite", table, {"seat": seat, "bot": bot}, id=f"i{n}")
        while True:
            frame = person.recv()
            if frame.get("id") == f"i{n}":
                break
        if frame["type"] == "table" or "is not connected" not in frame["data"]["reason"]:
            return frame
        time.sleep(0.05)
    raise AssertionError(f"{bot} never connected")


def play_until_scored(person: Client, table: str, seconds: float = 60) -> None:
    """``person`` plays their first legal action at each turn until a hand is scored."""
    deadline = time.monotonic() + seconds
    n = 0
    while time.monotonic() < deadline:
        frame = person.recv(deadline - time.monotonic())
        if frame["type"] == "events" and any(
            e["kind"] == "scored" for e in frame["data"]["events"]
        ):
            return
        snap = person.snapshot
        if snap and snap.get("decision") and snap["version"] == person.version:
            n += 1
            person.send("act", table, first_act(snap), id=f"p{n}")
    raise AssertionError("no hand was scored")


def _node() -> list[str] | None:
    node = shutil.which("node")
    if node is None:
        return None
    version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout
    major = int(version.strip().lstrip("v").split(".")[0] or 0)
    if major >= 22:
        return [node]
    return [node, "--experimental-websocket"] if major >= 20 else None


@pytest.mark.parametrize("language", ["python", "javascript"])
def test_an_example_bot_plays_a_hand_at_a_persons_table(base: str, language: str) -> None:
    if language == "python":
        command = [sys.executable, str(EXAMPLES / "ws_bot.py")]
    else:
        node = _node()
        if node is None:
            pytest.skip("no Node with a WebSocket here")
        command = [*node, str(EXAMPLES / "ws_bot.js")]
    ann = Account(base)
    token = ann.make_bot("Robo")
    ann.connect()
    table = create_table(ann)
    env = {**os.environ, "TRICKTABLE_BOT_TOKEN": token}
    url = base.replace("http", "ws") + "/ws"
    bot = subprocess.Popen(
        [*command, url, "--hands", "1"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        answer = invite(ann, table, "Robo")
        assert answer["type"] == "table", answer
        seat = answer["data"]["seats"][1]
        assert (seat["name"], seat["kind"], seat["bot"]) == ("Robo", "person", True)
        play_until_scored(ann, table)
        out, _ = bot.communicate(timeout=60)
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()
    assert bot.returncode == 0, out
    lines = out.splitlines()
    assert any(f"seated at table {table}" in line for line in lines), out
    assert any(f"table {table} hand 1: scores" in line for line in lines), out
    assert not any(line.startswith(("refused", "error")) for line in lines), out
    ann.close()


def test_a_bad_token_is_refused_and_a_rotation_closes_the_open_socket(base: str) -> None:
    ann = Account(base)
    token = ann.make_bot("Tok")
    for wrong in ("nonsense", "ttbot_" + "x" * 43, token + "x"):
        with connect(
            base.replace("http", "ws") + "/ws",
            additional_headers={"Authorization": f"Bearer {wrong}"},
        ) as ws:
            said = json.loads(ws.recv(10))
            assert said["data"]["code"] == "session", said
            assert "opens nothing" in said["data"]["reason"]
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401

    bot = BotClient(base, token)
    bot.connect(origin="http://evil.example")  # a bearer token: the Origin is not asked
    bot.send("ping", None, {}, id="p")
    assert bot.until("pong", id="p")
    answer = ann.post("/api/bots/Tok/token", {})
    assert answer.status_code == 200 and answer.json()["closed"] == 1
    new = answer.json()["token"]
    error = bot.until("error")
    assert error["data"]["code"] == "session" and "replaced" in error["data"]["reason"]
    with pytest.raises(ConnectionClosed):
        bot.recv(10)

    stale = BotClient(base, token)
    stale.connect()
    assert "opens nothing" in stale.until("error")["data"]["reason"]
    fresh = BotClient(base, new)
    fresh.connect()
    fresh.send("ping", None, {}, id="p")
    fresh.until("pong", id="p")
    gone = ann.http.delete("/api/bots/Tok")
    assert gone.status_code == 403  # no CSRF token: refused as a POST would be
    gone = ann.http.delete("/api/bots/Tok", headers={"X-CSRF-Token": ann.csrf})
    assert gone.status_code == 200 and gone.json()["closed"] == 1
    assert "deleted" in fresh.until("error")["data"]["reason"]
    assert ann.http.get("/api/bots").json() == {"bots": []}
    ann.close()


def test_who_may_make_bots_and_what_they_may_be_called(base: str) -> None:
    guest = Client(base, "Gus")
    answer = guest.post("/api/bots", {"name": "Mine"})
    assert answer.status_code == 403 and "guest" in answer.json()["error"]
    ann = Account(base)
    assert ann.http.post("/api/bots", json={"name": "x"}).status_code == 403  # no CSRF token
    bad = [
        ({"name": "<b>bold</b>"}, 400),
        ({"name": "<script>alert(1)</script>"}, 400),
        ({"name": ""}, 400),
        ({"name": "x" * 41}, 400),
        ({"name": 7}, 400),
        ({"name": "ok", "kind": "telepathy"}, 400),
        ({"name": "ok", "kind": "program", "endpoint": "rm -rf /"}, 403),
        ({"name": "ok", "kind": "http", "endpoint": "ftp://bot.example/"}, 400),
        ({"name": "ok", "kind": "http"}, 400),
        ({"name": "ok", "kind": "websocket", "endpoint": "http://x.example/"}, 400),
        ({"name": "ann"}, 409),  # an account's name
    ]
    for body, status in bad:
        answer = ann.post("/api/bots", body)
        assert answer.status_code == status, (body, answer.text)
        error = answer.json()["error"]
        assert isinstance(error, str) and "\n" not in error and error, body
    web = ann.post(
        "/api/bots", {"name": "Webby", "kind": "http", "endpoint": "http://bot.example/p"}
    )
    assert web.status_code == 200, web.text
    assert web.json()["token"] is None and web.json()["bot"]["endpoint"] == "http://bot.example/p"
    for n in range(MAX_BOTS - 1):
        ann.make_bot(f"Bot {n}")
    over = ann.post("/api/bots", {"name": "One too many"})
    assert over.status_code == 409 and f"{MAX_BOTS} at most" in over.json()["error"]
    assert len(ann.http.get("/api/bots").json()["bots"]) == MAX_BOTS
    # A bot's name is nobody else's: neither an account's nor a guest's.
    assert (
        httpx.post(base + "/api/signup", json={"name": "webby", "password": "12345678"}).status_code
        == 409
    )
    assert httpx.post(base + "/api/guest", json={"name": "Webby"}).status_code == 409
    # and nobody signs in as a bot (it has no password)
    assert (
        httpx.post(base + "/api/login", json={"name": "Webby", "password": ""}).status_code == 401
    )
    other = Account(base, "bob")
    assert other.post("/api/bots/Webby/token", {}).status_code == 404  # not bob's
    guest.close()
    ann.close()
    other.close()


def test_an_invitation_refused_is_one_line(base: str) -> None:
    ann = Account(base)
    ann.make_bot("Sleepy")
    ann.connect()
    table = create_table(ann)
    cases = [
        ({"seat": 1, "bot": "Nobody"}, "there is no bot named 'Nobody'"),
        ({"seat": 1, "bot": "Sleepy"}, "Sleepy is not connected: start it, then invite it again"),
        ({"seat": 0, "bot": "Sleepy"}, "seat 0 is not free"),
        ({"seat": 9, "bot": "Sleepy"}, "no seat '9'"),
        ({"seat": 1, "bot": "<i>x</i>"}, "a bot's name is letters"),
    ]
    for n, (data, reason) in enumerate(cases):
        ann.send("invite", table, data, id=f"x{n}")
        error = ann.until("error", id=f"x{n}")["data"]["reason"]
        assert error.startswith(reason) and "\n" not in error, (data, error)
    bob = Client(base, "Bob")
    bob.connect()
    bob.send("invite", table, {"seat": 1, "bot": "Sleepy"}, id="b")
    assert bob.until("error", id="b")["data"]["reason"] == "only the table's creator invites a bot"
    ann.close()
    bob.close()


def test_a_bots_frames_name_no_card_its_seat_may_not_know(tmp_path: Path) -> None:
    db = tmp_path / "web.db"
    spec = "setback(target=5)"
    with serving(db) as base:
        ann = Account(base)
        bot = BotClient(base, ann.make_bot("Peeker"))
        bot.connect()
        ann.connect()
        table = create_table(ann, spec)
        assert invite(ann, table, "Peeker")["type"] == "table"
        with contextlib.suppress(TimeoutError):
            bot.recv(1)
        play_match([ann, bot], table)
        may = knowledge(db, table, spec, [1])
        assert frames_leak(bot, 1, may[1]) == []
        assert any(f["type"] == "events" for f in bot.frames)
        ann.close()
        bot.close()


def test_the_operator_adds_a_program_bot_from_the_command_line(tmp_path: Path) -> None:
    db = tmp_path / "web.db"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    cli = [sys.executable, "-m", "tricktable.cli.main", "bots", "add-program"]
    made = subprocess.run(
        [*cli, "Local", "--db", str(db), "--", "python", "bot.py"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert made.returncode == 0 and "Local" in made.stdout, made.stderr
    again = subprocess.run(
        [*cli, "local", "--db", str(db), "--", "x"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert again.returncode == 2 and again.stderr.count("\n") == 1, again.stderr
    with serving(db) as base:
        ann = Account(base)
        ann.connect()
        table = create_table(ann)
        # The operator's program sits where a table's creator invites it (the server runs
        # it: a bot's seat, the command never shown)
        ann.send("invite", table, {"seat": 1, "bot": "Local"}, id="i")
        seat = ann.until("table", id="i")["data"]["seats"][1]
        assert (seat["name"], seat["kind"]) == ("Local", "bot")
        assert "bot.py" not in json.dumps(seat)
        assert ann.post("/api/bots", {"name": "LOCAL"}).status_code == 409
        ann.close()
