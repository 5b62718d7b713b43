"""A server's web-service bots through the endpoint guard (protocols/endpoints): an address
that is not public is refused before any socket is opened, as a ``closed`` fault of one line;
a server that allows local bots (or a network of its own) plays them as any other."""

from __future__ import annotations

import sys
from http.server import BaseHTTPRequestHandler
from typing import Any

import pytest

from test_http_bots import Generic, Server
from tricktable.bots import make_bot
from tricktable.bots.base import Bot
from tricktable.errors import BotError
from tricktable.games import load_game
from tricktable.match import Referee, play_match
from tricktable.protocols.endpoints import EndpointPolicy
from tricktable.protocols.http import HttpBot

#: every socket.connect's address while a test watches (an audit hook cannot be removed: it
#: records only while ``_WATCHING`` holds a list)
_WATCHING: list[list[Any]] = []


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if event == "socket.connect" and _WATCHING:
        _WATCHING[-1].append(args[1])


sys.addaudithook(_audit)


def _match(url: str, policy: EndpointPolicy) -> tuple[Referee, list[Any]]:
    """Two hands of Setback with the web bot at seats 0 and 2; the referee and every address
    this process connected to meanwhile."""
    dialled: list[Any] = []
    bots: list[Bot] = [
        HttpBot(url, policy=policy) if s % 2 == 0 else make_bot("heuristic") for s in range(4)
    ]
    referee = Referee()
    _WATCHING.append(dialled)
    try:
        play_match(load_game("setback(target=11)"), bots, 7, referee=referee, max_hands=2)
    finally:
        _WATCHING.pop()
        for bot in bots:
            bot.close()
    return referee, dialled


@pytest.mark.parametrize(
    "url", ["http://10.1.2.3:9/", "http://169.254.169.254/", "http://[::ffff:192.168.0.1]:80/"]
)
def test_a_private_address_is_refused_before_any_connection(url: str) -> None:
    referee, dialled = _match(url, EndpointPolicy())
    assert dialled == []
    first = referee.faults[0]
    assert first["kind"] == "closed" and first["seat"] == 0
    assert "refused" in first["detail"] and "--allow-local-bots" in first["detail"]
    assert "\n" not in first["detail"]


def test_loopback_is_refused_unless_the_server_allows_local_bots() -> None:
    server = Server(Generic)
    try:
        refused, dialled = _match(server.url, EndpointPolicy())
        assert dialled == [] and refused.faults[0]["kind"] == "closed"
        assert "127.0.0.1" in refused.faults[0]["detail"]
        allowed, dialled = _match(server.url, EndpointPolicy(allow_local=True))
        assert allowed.faults == [] and server.requests
        assert {address[0] for address in dialled} == {"127.0.0.1"}
        narrow, _ = _match(server.url, EndpointPolicy(also_allow=("127.0.0.0/8",)))
        assert narrow.faults == []
    finally:
        server.close()


@pytest.mark.parametrize("url", ["http://user:pw@example.com/", "ftp://example.com/"])
def test_a_servers_bot_url_of_a_bad_form_is_one_line(url: str) -> None:
    with pytest.raises(BotError) as caught:
        HttpBot(url, policy=EndpointPolicy())
    assert "\n" not in str(caught.value)


class Redirecting(BaseHTTPRequestHandler):
    """Answers every request with a redirect to the server's ``target``."""

    protocol_version = "HTTP/1.1"

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.server.requests.append(self.path)  # type: ignore[attr-defined]
        self.send_response(307)
        self.send_header("Location", self.server.target)  # type: ignore[attr-defined]
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.mark.parametrize("target", ["http://10.9.9.9/bot", "http://169.254.169.254/latest/"])
def test_a_redirect_is_a_fault_and_its_target_never_dialled(target: str) -> None:
    server = Server(Redirecting, target=target)
    try:
        referee, dialled = _match(server.url, EndpointPolicy(also_allow=("127.0.0.0/8",)))
    finally:
        server.close()
    first = referee.faults[0]
    assert first["kind"] == "crash" and "HTTP 307" in first["detail"]
    assert {address[0] for address in dialled} == {"127.0.0.1"} and server.requests


def test_a_name_is_checked_after_it_resolves() -> None:
    """``localhost`` is a name (the system's resolver gives it a loopback address): refused
    before any connection, as the address it stands for would be."""
    server = Server(Generic)
    try:
        url = server.url.replace("127.0.0.1", "localhost")
        refused, dialled = _match(url, EndpointPolicy())
        assert dialled == [] and not server.requests
        first = refused.faults[0]
        assert first["kind"] == "closed" and "'localhost:" in first["detail"]
        assert "a loopback address: refused" in first["detail"]
    finally:
        server.close()
