"""Web services' bots on aiohttp's asyncio client: one deadline a decision, the async twins from
another loop while a match loop uses the same bots' loop, the one client factory, fork and exit.

Real servers on 127.0.0.1 (http.server in a thread); the seed-004 and generic schemes, and
every fault kind, are tests/test_http_bots.py's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from async_bots import both_loops_at_once
from conftest import cli_env
from tricktable.bots import make_bot
from tricktable.bots.base import Bot
from tricktable.games import load_game
from tricktable.match import Referee, play_match
from tricktable.protocols import aio
from tricktable.protocols.http import HttpBot


class FirstLegal(BaseHTTPRequestHandler):
    """A generic-scheme bot: the first legal action; news answered {}. ``server.slow`` maps an
    event to the seconds it sleeps before answering it."""

    protocol_version = "HTTP/1.1"

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
        event = self.path.rsplit("/", 1)[1]
        self.server.events.append(event)  # type: ignore[attr-defined]
        time.sleep(self.server.slow.get(event, 0))  # type: ignore[attr-defined]
        legal = body.get("legal") if isinstance(body, dict) else None
        data = json.dumps({"action": legal[0]} if legal else {}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def server() -> Iterator[ThreadingHTTPServer]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), FirstLegal)
    httpd.daemon_threads = True
    httpd.slow = {}  # type: ignore[attr-defined]
    httpd.events = []  # type: ignore[attr-defined]
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.02})
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()
    thread.join()


def url_of(httpd: ThreadingHTTPServer) -> str:
    host, port = httpd.server_address[:2]
    return f"http://{host}:{port}/"


def test_a_decision_has_one_deadline_over_the_news_sent_before_it(
    server: ThreadingHTTPServer,
) -> None:
    """Each request alone is within the decision's time; the news of a trick and the play
    after it together are not."""
    server.slow = {"trick": 0.3, "play": 0.3}  # type: ignore[attr-defined]
    game = load_game("setback")
    bots: list[Bot] = [HttpBot(url_of(server), decision_time=0.45)] + [
        make_bot("heuristic") for _ in range(3)
    ]
    referee = Referee()
    try:
        play_match(game, bots, 2, referee=referee, max_hands=1)
    finally:
        for bot in bots:
            bot.close()
    [fault] = referee.faults
    assert fault["kind"] == "timeout"
    assert "/1/play: no complete answer within 0.45 s" in fault["detail"]
    assert "of it went to the requests before" in fault["detail"]


def test_a_match_loop_and_an_asyncio_loop_use_web_bots_at_once(
    server: ThreadingHTTPServer,
) -> None:
    url = url_of(server)
    game = load_game("setback")
    sync_bots: list[Bot] = [HttpBot(url) for _ in range(4)]
    async_bots = [HttpBot(url) for _ in range(4)]
    outcome, decisions, ticks = both_loops_at_once(game, sync_bots, async_bots, Referee())
    assert outcome == {"faults": [], "hands": 2}
    assert decisions > 0 and ticks >= decisions
    events = server.events  # type: ignore[attr-defined]
    assert events.count("start") == 8 and events.count("end") == 8


def test_every_connection_comes_from_the_client_factory(server: ThreadingHTTPServer) -> None:
    """``_client`` is the one place a bot's HTTP client is made (a guarded client plugs in
    there): a fault's fresh client comes from it too."""
    made: list[aiohttp.ClientSession] = []

    class Counted(HttpBot):
        def _client(self) -> aiohttp.ClientSession:
            client = super()._client()
            made.append(client)
            return client

    server.slow = {"play": 1.0}  # type: ignore[attr-defined]  # a timeout: the client is given up
    game = load_game("setback")
    bots: list[Bot] = [Counted(url_of(server), decision_time=0.3)] + [
        make_bot("heuristic") for _ in range(3)
    ]
    referee = Referee()
    try:
        play_match(game, bots, 2, referee=referee, max_hands=1)
    finally:
        for bot in bots:
            bot.close()
    assert [f["kind"] for f in referee.faults] == ["timeout"]
    assert len(made) == 1
    assert all(client.closed for client in made)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_child_uses_web_bots_on_its_own_loop(
    server: ThreadingHTTPServer, tmp_path: Path
) -> None:
    url = url_of(server)
    game = load_game("setback")
    parent = HttpBot(url)
    parent.start_match(game, 0, 1)
    parent.post("news", {}, None)  # the parent's loop runs, with a connection open
    report = tmp_path / "child.txt"
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            parent.close()  # the parent's: nothing of it to close here
            bots: list[Bot] = [HttpBot(url) for _ in range(4)]
            referee = Referee()
            state = play_match(game, bots, 2, referee=referee, max_hands=1)
            for bot in bots:
                bot.close()
            report.write_text(f"{referee.faults == []} {len(state.results)}")
            code = 0
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert report.read_text() == "True 1"
    assert parent.post("news", {"after": "fork"}, None) is None  # its connection still serves
    parent.close()
    assert aio.started()


def test_interpreter_exit_with_a_connection_open_is_quiet(server: ThreadingHTTPServer) -> None:
    script = textwrap.dedent(
        f"""
        from tricktable.games import load_game
        from tricktable.protocols.http import HttpBot

        bot = HttpBot({url_of(server)!r})
        bot.start_match(load_game("setback"), 0, 1)
        bot.post("news", {{}}, None)
        print("posted", flush=True)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=cli_env(), timeout=60
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "posted\n", "")
