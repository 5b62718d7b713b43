"""HTTP bots on real servers on loopback: seed 004's Spades bot, the generic scheme, faults.

The seed-004 bot is examples/bots/http_spades_bot.py, written only to the SpadesBot document;
it runs as a child process (as a bot author would run it) and, for the tests that look at
every request, in a server thread of this process, subclassed to record or to misbehave.
"""

from __future__ import annotations

import importlib.util
import io
import json
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tricktable.bots import make_bot
from tricktable.bots.base import Bot
from tricktable.cards import card_name, cards_in
from tricktable.errors import BotError, TricktableError
from tricktable.games import load_game, register
from tricktable.games.spades import GAME as SPADES
from tricktable.match import Referee, RunnerOptions, play_match
from tricktable.protocols.http import GenericEvents, HttpBot, SpadesEvents, spades_card

register(SPADES)

EXAMPLE = Path(__file__).parents[1] / "examples/bots/http_spades_bot.py"
CARD = re.compile(r"^(10|[2-9JQKA])[shdc]$")


def load_example() -> ModuleType:
    """The seed-004 example bot as a module (for its request handler)."""
    spec = importlib.util.spec_from_file_location("http_spades_bot", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SEED_BOT = load_example()


class Server:
    """A threaded HTTP server on 127.0.0.1 with an ephemeral port, stopped by ``close``."""

    def __init__(self, handler: type[BaseHTTPRequestHandler], **attrs: Any) -> None:
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        # A misbehaving handler's broken pipes are the point of the test, not news.
        self.httpd.handle_error = lambda request, address: None  # type: ignore[method-assign]
        for key, value in attrs.items():
            setattr(self.httpd, key, value)
        self.httpd.requests = []  # type: ignore[attr-defined]
        self.httpd.clients = set()  # type: ignore[attr-defined]
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self.thread.start()
        host, port = self.httpd.server_address[:2]
        self.url = f"http://{host}:{port}/"

    @property
    def requests(self) -> list[tuple[str, dict[str, Any]]]:
        """(path, body) of every request, in order."""
        return self.httpd.requests  # type: ignore[attr-defined, no-any-return]

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class Recording(SEED_BOT.Handler):  # type: ignore[name-defined, misc]
    """The seed-004 bot, recording every request and the client connections."""

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        self.server.requests.append((self.path, json.loads(raw)))  # type: ignore[attr-defined]
        self.server.clients.add(self.client_address)  # type: ignore[attr-defined]
        reread(self, raw)


def reread(handler: Any, raw: bytes) -> None:
    """Let the seed bot's own ``do_POST`` read a body this handler has read already."""
    original = handler.rfile
    handler.rfile = io.BytesIO(raw)
    try:
        SEED_BOT.Handler.do_POST(handler)
    finally:
        handler.rfile = original


@pytest.fixture
def recording() -> Iterator[Server]:
    server = Server(Recording)
    yield server
    server.close()


@pytest.fixture(scope="module")
def seed_bot_process() -> Iterator[str]:
    """examples/bots/http_spades_bot.py as its own process; yields its URL."""
    proc = subprocess.Popen(
        [sys.executable, str(EXAMPLE), "--port", "0"], stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("listening on "), line
        yield line.split()[-1]
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def spades_match(
    url: str, game_spec: str = "spades", seats: tuple[int, ...] = (0, 2), seed: int = 1, **kw: Any
) -> tuple[Any, Referee, list[Bot]]:
    game = load_game(game_spec)
    max_hands = kw.pop("max_hands", None)
    bots: list[Bot] = [
        HttpBot(url, **kw) if s in seats else make_bot("heuristic") for s in range(4)
    ]
    referee = Referee(RunnerOptions())
    state = play_match(game, bots, seed, referee=referee, max_hands=max_hands)
    for bot in bots:
        bot.close()
    return state, referee, bots


# --------------------------------------------------------------------------- seed 004 spades


def test_seed_bot_process_plays_full_spades_matches(seed_bot_process: str) -> None:
    for seed, seats in ((1, (0, 2)), (2, (1, 3))):
        state, referee, bots = spades_match(seed_bot_process, seats=seats, seed=seed)
        assert referee.faults == []
        assert state.is_over and state.winner in (0, 1)
        assert len(state.results) == len(state.history) >= 2
        http = [b for b in bots if isinstance(b, HttpBot)]
        # blind, deal, bid and 13 plays and 13 books per hand
        assert all(b.requests == 29 * len(state.history) for b in http)


def test_seed_004_requests_exactly(recording: Server) -> None:
    state, referee, _ = spades_match(recording.url, seats=(0,), seed=5, max_hands=1)
    assert referee.faults == []
    reqs = recording.requests
    events = [path.rsplit("/", 1)[1] for path, _ in reqs]
    assert events[:3] == ["blind", "deal", "bid"]
    assert events[3:].count("play") == 13 and events[3:].count("book") == 13
    assert len(events) == 29
    game_ids = {path.split("/")[1] for path, _ in reqs}
    assert len(game_ids) == 1 and all(path.split("/")[2] == "1" for path, _ in reqs)

    blind, deal, bid = (body for _, body in reqs[:3])
    assert set(blind) == {"round", "game"}
    assert set(blind["round"]) == {f"player{p}_bid" for p in range(1, 5)}
    assert set(blind["game"]) == {"dealer", "leader"} | {f"team{t}_score" for t in range(1, 5)}
    dealer = state.history[0].dealer
    assert blind["game"]["dealer"] == dealer + 1
    assert blind["game"]["leader"] == (dealer + 1) % 4 + 1  # the seed: dealer 1, leader 2
    assert set(deal) == {"hand", "round", "game"}
    assert all(CARD.match(c) for c in deal["hand"])
    assert sorted(deal["hand"]) == sorted(spades_card(c) for c in cards_in(state.dealt[0]))
    assert set(bid) == {f"player{p}_bid" for p in range(1, 5)}
    assert all(isinstance(v, int) for v in bid.values())
    # bids so far: seats after the dealer bid first, null for those still to bid
    order = [(dealer + 1 + i) % 4 for i in range(4)]
    before = order[: order.index(0)]
    assert all(
        (blind["round"][f"player{s + 1}_bid"] is None) == (s not in before) for s in range(4)
    )

    plays = [body for path, body in reqs if path.endswith("/play")]
    books = [body for path, body in reqs if path.endswith("/book")]
    for play in plays:
        assert set(play) == {"leader"} | {f"player{p}_card" for p in range(1, 5)}
        assert play["player1_card"] is None
    for (leader, cards, winner), book in zip(state.tricks, books, strict=True):
        assert book["leader"] == leader + 1 and book["winner"] == winner + 1
        for i, card in enumerate(cards):
            assert book[f"player{(leader + i) % 4 + 1}_card"] == spades_card(card)
    assert len(recording.httpd.clients) == 1  # type: ignore[attr-defined]  # kept alive


def test_blind_nil_is_asked_then_dealt(recording: Server) -> None:
    SEED_BOT.BLIND = True
    try:
        state, referee, _ = spades_match(
            recording.url, "spades(blind_nil_behind=0)", seats=(0,), seed=3, max_hands=1
        )
    finally:
        SEED_BOT.BLIND = False
    assert referee.faults == []
    assert state.results[0].to_dict()["bids"][0] == "blind-nil"
    events = [path.rsplit("/", 1)[1] for path, _ in recording.requests]
    # the deal of a blind nil bidder comes once it may see its cards: after all have bid
    assert events[:4] == ["blind", "deal", "bid", "play"]
    deal = recording.requests[1][1]
    assert all(v is not None for v in deal["round"].values())
    assert deal["round"]["player1_bid"] == -1  # our reading: blind nil is -1


def test_blind_when_not_offered_is_a_nil_bid(recording: Server) -> None:
    SEED_BOT.BLIND = True
    try:
        state, referee, _ = spades_match(recording.url, seats=(0,), seed=3, max_hands=1)
    finally:
        SEED_BOT.BLIND = False
    assert referee.faults == []
    assert state.results[0].to_dict()["bids"][0] == "nil"


# ------------------------------------------------------------------------------ faults


#: the decision time of the fault tests: a loaded CI run once took more than 0.4 s for the seed
#: bot's sound ``blind`` answer, so the faults are well past a limit a sound answer meets
DECISION = 1.5


class Broken(SEED_BOT.Handler):  # type: ignore[name-defined, misc]
    """The seed bot, answering its first ``play`` in the way ``server.mode`` says."""

    def do_POST(self) -> None:
        if not self.path.endswith("/play"):
            super().do_POST()
            return
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        mode = self.server.mode  # type: ignore[attr-defined]
        if mode == "500":
            self.raw(500, b"Internal error: boom")
        elif mode == "slow":
            time.sleep(2 * DECISION)
            reread(self, raw)
        elif mode == "slow-ok":
            time.sleep(0.05)
            reread(self, raw)
        elif mode == "json":
            self.raw(200, b'{"card": "Ac"')
        elif mode == "missing":
            self.raw(200, b'{"kard": "Ac"}')
        elif mode == "notacard":
            self.raw(200, b'{"card": "Xz"}')
        elif mode == "illegal":
            parts = self.path.strip("/").split("/")
            hand = SEED_BOT.seat_of(parts[0], parts[1]).hand
            other = next(spades_card(c) for c in range(52) if spades_card(c) not in hand)
            self.raw(200, json.dumps({"card": other}).encode())
        elif mode == "flood":
            self.raw(200, b'{"card": "Ac", "pad": "' + b"x" * 2_000_000 + b'"}')
        elif mode == "flood-unsized":
            self.send_response(200)
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            for _ in range(40):
                self.wfile.write(b"x" * 65536)
        elif mode == "utf8":
            self.raw(200, b'{"card": "A\xffc"}')
        elif mode == "garbage":
            self.wfile.write(b"hello there\r\n\r\n")
            self.close_connection = True
        elif mode == "short":
            self.send_response(200)
            self.send_header("Content-Length", "100")
            self.end_headers()
            self.wfile.write(b'{"car')
            self.close_connection = True
        elif mode == "close":
            self.close_connection = True  # no answer at all
        elif mode == "drip":
            self.send_response(200)
            self.send_header("Content-Length", "100")
            self.end_headers()
            for _ in range(int(2 * DECISION / 0.02)):
                self.wfile.write(b" ")
                self.wfile.flush()
                time.sleep(0.02)

    def raw(self, status: int, data: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@pytest.mark.parametrize(
    ("mode", "kind", "words"),
    [
        ("500", "crash", "HTTP 500"),
        ("slow", "timeout", f"within {DECISION:g} s"),
        ("drip", "timeout", f"within {DECISION:g} s"),
        ("json", "malformed", "not JSON"),
        ("missing", "malformed", "kard"),
        ("notacard", "malformed", "'Xz', not a card"),
        ("illegal", "illegal", "is illegal"),
        ("flood", "flood", "longer than"),
        ("flood-unsized", "flood", "longer than"),
        ("utf8", "encoding", "not UTF-8"),
        ("close", "closed", "closed the connection without an answer"),
        ("garbage", "malformed", "not an HTTP answer"),
        ("short", "closed", "the answer stopped after 5 bytes"),
    ],
)
def test_broken_bot_forfeits_spades(mode: str, kind: str, words: str) -> None:
    server = Server(Broken, mode=mode)
    try:
        started = time.monotonic()
        state, referee, _ = spades_match(server.url, seats=(0,), seed=2, decision_time=DECISION)
        assert time.monotonic() - started < 10 * DECISION  # a deadline for a hang, not a measure
    finally:
        server.close()
    assert len(referee.faults) == 1, referee.faults
    fault = referee.faults[0]
    assert (fault["seat"], fault["kind"], fault["penalty"]) == (0, kind, "forfeit")
    assert words in fault["detail"] and "/1/play" in fault["detail"]
    assert state.is_over and state.winner == 1  # seat 0's side forfeits (seed 004)


def test_slow_within_the_limit_is_fine() -> None:
    server = Server(Broken, mode="slow-ok")
    try:
        state, referee, _ = spades_match(server.url, seats=(0,), seed=2, max_hands=1)
    finally:
        server.close()
    assert referee.faults == [] and len(state.results) == 1


def test_nothing_listening_is_a_closed_fault() -> None:
    server = Server(Broken, mode="500")
    url = server.url
    server.close()
    state, referee, _ = spades_match(url, seats=(1,), seed=2)
    assert [(f["kind"], f["seat"]) for f in referee.faults] == [("closed", 1)]
    assert "connection refused" in referee.faults[0]["detail"]
    assert state.winner == 0


def test_match_time_limit() -> None:
    server = Server(Broken, mode="slow-ok")
    try:
        _, referee, _ = spades_match(server.url, seats=(0,), seed=2, match_time=0.3)
    finally:
        server.close()
    assert [f["kind"] for f in referee.faults] == ["match-time"]


class OneShot(SEED_BOT.Handler):  # type: ignore[name-defined, misc]
    """Closes each connection after answering, without saying so (a stale keep-alive)."""

    def do_POST(self) -> None:
        super().do_POST()
        self.close_connection = True


class OldServer(SEED_BOT.Handler):  # type: ignore[name-defined, misc]
    """An HTTP/1.0 server: one connection per request."""

    protocol_version = "HTTP/1.0"


@pytest.mark.parametrize("handler", [OneShot, OldServer])
def test_connections_that_do_not_stay_open(handler: type[BaseHTTPRequestHandler]) -> None:
    server = Server(handler)
    try:
        state, referee, _ = spades_match(server.url, seats=(0,), seed=4, max_hands=1)
    finally:
        server.close()
    assert referee.faults == [] and len(state.results) == 1


@pytest.mark.parametrize(
    "url", ["ftp://127.0.0.1/", "http://", "http://127.0.0.1:99999/", "127.0.0.1:9000"]
)
def test_bad_urls(url: str) -> None:
    with pytest.raises(BotError, match="bad bot URL"):
        HttpBot(url)


def test_the_bots_url_goes_on_the_wire_as_written_quoted_where_it_must_be() -> None:
    """A path's spaces and letters beyond ASCII are escaped; a query's escapes are kept as the
    bot's owner wrote them (its key may hold them), never decoded or re-encoded."""
    server = Server(Recording)
    try:
        bot = HttpBot(server.url + "my bot/é/../spades?key=a b&x=%41%2B+")
        bot.start_match(load_game("spades"), 0, 1)
        bot.post("news", {}, None, forgive=True)  # the seed's bot knows no such event: 404
        bot.close()
    finally:
        server.close()
    [(path, _)] = server.requests
    assert re.fullmatch(r"/my%20bot/spades/spades-[0-9a-f]{12}/1/news\?key=a%20b&x=%41%2B\+", path)


# ---------------------------------------------------------------------- the generic scheme


class Generic(BaseHTTPRequestHandler):
    """A generic-scheme bot: it plays the first legal action and records every request."""

    protocol_version = "HTTP/1.1"

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length))
        self.server.requests.append((self.path, body))  # type: ignore[attr-defined]
        event = self.path.rsplit("/", 1)[1]
        answer: dict[str, Any] = {}
        legal = body.get("legal")
        if event == "play":
            answer = {"card": legal[0][5:]}  # the short answer to a play
        elif legal:
            answer = {"action": legal[0]}
        data = json.dumps(answer).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        pass


def test_generic_scheme_on_setback() -> None:
    server = Server(Generic)
    game = load_game("setback(target=11)")
    bots: list[Bot] = [
        HttpBot(server.url) if s % 2 == 0 else make_bot("heuristic") for s in range(4)
    ]
    referee = Referee()
    try:
        state = play_match(game, bots, 7, referee=referee, max_hands=40)
    finally:
        for bot in bots:
            bot.close()
        server.close()
    assert referee.faults == []
    reqs = server.requests
    by_player: dict[str, list[str]] = {"1": [], "3": []}
    for path, _ in reqs:
        _, _, player, event = path.split("/")
        by_player[player].append(event)
    for player, events in by_player.items():
        assert events[0] == "start" and events[1] == "deal" and events[-1] == "end"
        assert events.count("hand") == len(state.results), player
        assert events.count("deal") == len(state.history)
        assert {"bid", "play", "trick"} <= set(events)
    start = reqs[0][1]
    assert start["game"] == "setback(target=11)" and start["players"] == 4
    # a seat is only ever sent its own hand
    for path, body in reqs:
        if "hand" in body and isinstance(body["hand"], list):
            seat = int(path.split("/")[2]) - 1
            hand_no = body["hand_number"]
            dealt = {card_name(c) for c in cards_in(state.history[hand_no].deal[seat])}
            assert set(body["hand"]) <= dealt


def test_generic_illegal_action_is_a_fault() -> None:
    class Passer(Generic):
        def do_POST(self) -> None:
            if not self.path.endswith("/play"):
                super().do_POST()
                return
            self.rfile.read(int(self.headers["Content-Length"]))
            data = b'{"action": "bid 9"}'
            self.send_response(200)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    server = Server(Passer)
    game = load_game("setback")
    bots: list[Bot] = [HttpBot(server.url)] + [make_bot("heuristic") for _ in range(3)]
    referee = Referee(RunnerOptions(on_fault="substitute"))
    try:
        state = play_match(game, bots, 3, referee=referee, max_hands=5)
    finally:
        server.close()
    assert [f["kind"] for f in referee.faults] == ["illegal"]
    assert "'bid 9' is illegal" in referee.faults[0]["detail"]
    assert referee.faults[0]["penalty"] == "substitute" and len(state.history) >= 1


class NoChat(Generic):
    """A generic-scheme bot written before ``chat`` (which it answers 404) that says a line
    with each decision; it counts the connections it accepts."""

    def setup(self) -> None:
        super().setup()
        self.server.connections += 1  # type: ignore[attr-defined]

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append((self.path, body))  # type: ignore[attr-defined]
        legal = body.get("legal")
        status, data = 200, json.dumps({"action": legal[0], "say": "hm"} if legal else {}).encode()
        if self.path.endswith("/chat"):  # as a web framework answers a route it lacks: kept open
            status, data = 404, b"Not Found"
        self.send_response(status)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def test_a_chat_a_bot_does_not_know_keeps_the_connection() -> None:
    server = Server(NoChat, connections=0)
    bots = [HttpBot(server.url), make_bot("heuristic"), HttpBot(server.url), make_bot("heuristic")]
    referee = Referee()
    try:
        state = play_match(load_game("setback"), bots, 4, referee=referee, max_hands=2)
    finally:
        for bot in bots:
            bot.close()
        server.close()
    assert referee.faults == [] and len(state.results) >= 1
    events = [path.rsplit("/", 1)[1] for path, _ in server.requests]
    assert events.count("chat") >= 2 and "play" in events[events.index("chat") :]
    # One connection a seat for the whole match: no 404 to a chat line cost one.
    assert server.httpd.connections == 2  # type: ignore[attr-defined]


def all_games() -> list[str]:
    """Every game module's game, registered (the registry may not list new ones yet)."""
    import pkgutil

    import tricktable.games as games

    for info in pkgutil.iter_modules(games.__path__):
        module = importlib.import_module(f"tricktable.games.{info.name}")
        if hasattr(module, "GAME"):
            register(module.GAME)
    return sorted(name for name in games.GAMES if name != "spades")


@pytest.mark.parametrize("game_spec", all_games())
def test_generic_scheme_plays_every_game(game_spec: str) -> None:
    server = Server(Generic)
    game = load_game(game_spec)
    n = game.num_players
    bots: list[Bot] = [
        HttpBot(server.url) if s in (0, 1) else make_bot("heuristic") for s in range(n)
    ]
    referee = Referee()
    try:
        state = play_match(game, bots, 5, referee=referee, max_hands=3)
    finally:
        for bot in bots:
            bot.close()
        server.close()
    assert referee.faults == []
    assert len(state.results) >= 1
    events = {path.rsplit("/", 1)[1] for path, _ in server.requests}
    assert {"start", "deal", "hand", "end"} <= events


@pytest.mark.parametrize(
    "game_spec",
    [
        "setback(partners=3x2,players=6)",  # three sides of two, partners opposite
        "setback(players=6)",  # two sides of three, alternating
        "setback(partners=false,players=3)",  # three each for themselves
        "spades(players=3)",  # seed 004's four-seat endpoints give way to the generic events
    ],
)
def test_any_table_size_plays_over_http(game_spec: str) -> None:
    server = Server(Generic)
    try:
        game = load_game(game_spec)
    except TricktableError as exc:
        pytest.skip(f"{game_spec} does not load: {exc}")
    n = game.num_players
    bots: list[Bot] = [HttpBot(server.url) for _ in range(n)]
    referee = Referee()
    try:
        state = play_match(game, bots, 6, referee=referee, max_hands=2)
    finally:
        for bot in bots:
            bot.close()
        server.close()
    assert referee.faults == [] and state.history
    players = set()
    for path, body in server.requests:
        _, _, player, event = path.split("/")
        seat = int(player) - 1
        players.add(seat)
        if event == "start":
            assert body["players"] == n and body["seat"] == seat
        if event == "hand":
            assert len(body["scores"]) == game.num_scores
        if isinstance(body.get("hand"), list):  # a seat is only ever sent its own cards
            hand_no = body["hand_number"]
            dealt = {card_name(c) for c in cards_in(state.history[hand_no].deal[seat])}
            assert set(body["hand"]) <= dealt
    assert players == set(range(n))


def test_a_game_declares_its_http_events() -> None:
    bot = HttpBot("http://127.0.0.1:9/")  # nothing is sent before the first decision
    shapes = (("spades", SpadesEvents), ("hearts", GenericEvents))
    if 3 in SPADES.seat_counts:  # seed 004's endpoints seat four
        shapes += (("spades(players=3)", GenericEvents),)
    for spec, adapter in shapes:
        bot.start_match(load_game(spec), 0, 1)
        assert type(bot._adapter) is adapter, spec
    assert SPADES.http_adapter == "tricktable.protocols.http:SpadesEvents"


def test_https_with_a_trusted_certificate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """HTTPS on loopback: a self-signed certificate the client is told to trust."""
    import shutil
    import ssl

    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("openssl is needed to make a test certificate")
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    made = subprocess.run(
        [openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-keyout", str(key), "-out", str(cert), "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1"],
        capture_output=True, check=False, timeout=60,
    )  # fmt: skip
    if made.returncode != 0:
        pytest.skip(f"openssl could not make a certificate: {made.stderr[-200:]!r}")
    server = Server(SEED_BOT.Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.httpd.socket = context.wrap_socket(server.httpd.socket, server_side=True)
    url = server.url.replace("http://", "https://")
    try:
        _, untrusted, _ = spades_match(url, seats=(0,), seed=1, max_hands=1)
        assert [f["kind"] for f in untrusted.faults] == ["closed"]
        assert "CERTIFICATE_VERIFY_FAILED" in untrusted.faults[0]["detail"]
        monkeypatch.setenv("SSL_CERT_FILE", str(cert))
        state, referee, _ = spades_match(url, seats=(0,), seed=1, max_hands=1)
        assert referee.faults == [] and len(state.results) == 1
    finally:
        server.close()
