"""The doors of ``tricktable serve`` against a real uvicorn on 127.0.0.1 (issue 27): what a
stranger on the internet tries — a huge body, a half-written request, many sockets, a
foreign ``Host``, a forged ``X-Forwarded-For``, a session that should have ended, guessing
names at the login, a frame that is not UTF-8, a port already taken — each refused as
docs/protocol-web.md says. The servers are made as ``serve`` makes them (tests/doors_harness)
or are ``serve`` itself, where its memory, its log or its exit status is what is tested.
"""

from __future__ import annotations

import ssl
import statistics
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher
from sqlalchemy import create_engine, select, text, update
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.frames import Frame, Opcode
from websockets.sync.client import ClientConnection, connect

from doors_harness import (
    Person,
    door_server,
    peak_memory_kib,
    push_chunked,
    raw,
    read_answer,
    run_serve_command,
    self_signed,
    serve_process,
    status_of,
)
from tricktable.cli.serve import (
    ServeOptions,
    allowed_host,
    app_limits,
    check_tls,
    forwarded_ips,
)
from tricktable.db.models import WebSession
from tricktable.errors import TricktableError
from tricktable.web.store import User, WebStore

MIB = 1024 * 1024


@pytest.fixture(scope="module")
def process(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int, Path]]:
    """``tricktable serve`` itself, as started by hand: its URL, process id and log."""
    folder = tmp_path_factory.mktemp("serve")
    log = folder / "serve.log"
    with serve_process(folder / "web.db", log) as (base, pid):
        yield base, pid, log


def frames_until_closed(ws: ClientConnection, timeout: float = 10) -> tuple[list[dict], int]:
    """Every frame the server sends until it closes the socket; and the close code."""
    import json

    got: list[dict] = []
    deadline = time.monotonic() + timeout
    while True:
        try:
            got.append(json.loads(ws.recv(max(deadline - time.monotonic(), 0.01))))
        except ConnectionClosed as closed:
            assert closed.rcvd is not None
            return got, closed.rcvd.code


def send(ws: ClientConnection, kind: str, data: dict[str, Any] | None = None) -> None:
    import json

    ws.send(json.dumps({"type": kind, "table": None, "id": kind, "data": data or {}}))


def answer_to(ws: ClientConnection, kind: str) -> dict[str, Any]:
    """Send ``kind`` (lobby-wide) and read until its answer."""
    import json

    send(ws, kind)
    while True:
        frame = json.loads(ws.recv(10))
        if frame.get("id") == kind:
            return dict(frame)


# -- bodies -------------------------------------------------------------------------------


def test_a_declared_huge_body_is_refused_before_a_byte_of_it_is_read(
    process: tuple[str, int, Path],
) -> None:
    base, _, _ = process
    sock = raw(base)
    with sock:
        sock.sendall(
            b"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + f"Content-Length: {300 * MIB}\r\n\r\n".encode()
            + b'{"name": "ann", "password": "'
        )
        answer = read_answer(sock)
    assert status_of(answer) == 413
    assert b"at most 32768 bytes" in answer


def test_a_streamed_body_is_cut_at_the_limit_and_the_memory_stays_flat(
    process: tuple[str, int, Path],
) -> None:
    """64 MiB in chunks (no length said): read whole, it took 130 MiB more at its peak;
    refused at the limit, the peak does not move. 64 MiB shows it as well as the 300 MiB of
    the audit, in a fifth of the time."""
    base, pid, _ = process
    httpx.post(base + "/api/guest", json={"name": "Warm"}).raise_for_status()
    before = peak_memory_kib(pid)
    sock = raw(base)
    with sock:
        sock.sendall(
            b"POST /api/guest HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        sent = push_chunked(sock, 64 * MIB)
        answer = read_answer(sock)
    grown = peak_memory_kib(pid) - before
    assert grown < 16 * 1024, f"the server's peak memory grew {grown} KiB"
    assert sent < 32 * MIB, f"{sent} bytes went in before the refusal"
    if answer:  # else the server's close came first: the memory says what it read
        assert status_of(answer) == 413


# -- time and connections --------------------------------------------------------------------


def test_a_half_written_request_is_disconnected_and_a_websocket_is_not(tmp_path: Path) -> None:
    with door_server(tmp_path / "web.db", request_timeout=0.5) as base:
        for partial in (
            b"GET /api/me HTTP/1.1\r\nHost: 127.0.0.1\r\n",  # the head never ends
            b"POST /api/guest HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{",
        ):
            with raw(base) as sock:
                sock.sendall(partial)
                assert read_answer(sock) == b""  # closed, not answered, not held
        with raw(base) as sock:  # a whole request on a kept-alive connection: answered
            sock.sendall(b"GET /api/me HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert status_of(read_answer(sock)) == 200
            assert read_answer(sock) == b""  # then idle: closed
        ann = Person(base, "Ann")
        ann.guest()
        with ann.socket() as ws:
            time.sleep(1.0)  # twice the request's deadline: an open websocket stays
            assert answer_to(ws, "ping")["type"] == "pong"


def test_http_connections_past_the_concurrency_limit_get_503(tmp_path: Path) -> None:
    with door_server(tmp_path / "web.db", limit_concurrency=3) as base:
        idle = [raw(base), raw(base)]
        time.sleep(0.2)
        assert httpx.get(base + "/api/me").status_code == 503
        for sock in idle:
            sock.close()
        time.sleep(0.2)
        assert httpx.get(base + "/api/me").status_code == 200


def test_websockets_are_capped_per_account_per_address_and_in_all(tmp_path: Path) -> None:
    settings = {
        "forwarded_allow_ips": "127.0.0.1",
        "max_sockets": 5,
        "max_sockets_per_address": 3,
        "max_sockets_per_account": 2,
    }
    with door_server(tmp_path / "web.db", **settings) as base:
        people = [
            Person(base, name, address)
            for name, address in [
                ("Ann", "10.0.0.1"),
                ("Bob", "10.0.0.1"),
                ("Cy", "10.0.0.1"),
                ("Di", "10.0.0.2"),
                ("Ed", "10.0.0.2"),
                ("Flo", "10.0.0.3"),
            ]
        ]
        for person in people:
            person.guest().raise_for_status()
        ann, bob, cy, di, ed, flo = people
        open_ = [ann.socket(), ann.socket()]

        def refused(person: Person, why: str) -> None:
            frames, code = frames_until_closed(person.socket())
            assert code == 1013, person.name
            assert frames[0]["data"]["code"] == "busy"
            assert why in frames[0]["data"]["reason"]

        refused(ann, "of yours (2)")
        open_.append(bob.socket())
        refused(cy, "from your address (3)")
        open_ += [di.socket(), ed.socket()]
        refused(flo, "all the connections it takes (5)")
        for ws in open_:  # those within the caps work
            assert answer_to(ws, "ping")["type"] == "pong"
        open_.pop().close()  # one closes: another may come
        time.sleep(0.3)
        with flo.socket() as ws:
            assert answer_to(ws, "ping")["type"] == "pong"
        for ws in open_:
            ws.close()


# -- hosts and proxies --------------------------------------------------------------------------


def test_a_foreign_host_name_is_refused_on_http_and_websocket(tmp_path: Path) -> None:
    with door_server(tmp_path / "web.db", allowed_hosts=("tables.example.org",)) as base:
        port = base.rsplit(":", 1)[1]
        for host, status in [
            ("evil.example", 400),
            ("evil.example:" + port, 400),
            ("127.0.0.1.evil.example", 400),
            ("localhost:" + port, 200),
            ("[::1]:" + port, 200),
            ("127.0.0.1:" + port, 200),
            ("tables.example.org", 200),
            ("Tables.Example.Org.", 200),
        ]:
            answer = httpx.get(base + "/api/me", headers={"Host": host})
            assert answer.status_code == status, host
            if status == 400:
                assert "host name" in answer.json()["error"]
        ann = Person(base, "Ann")
        ann.guest()
        cookie = "; ".join(f"{k}={v}" for k, v in ann.http.cookies.items())
        sock = raw(base)  # a page at evil.example, rebound to this server's address
        with pytest.raises(InvalidStatus) as refused:
            connect(
                f"ws://evil.example:{port}/ws",
                sock=sock,
                additional_headers={"Cookie": cookie, "Origin": f"http://evil.example:{port}"},
            )
        assert refused.value.response.status_code == 400
        with ann.socket() as ws:  # by its own name, the same session connects
            assert answer_to(ws, "ping")["type"] == "pong"


def test_x_forwarded_for_is_believed_only_from_a_proxy_named(tmp_path: Path) -> None:
    """Three new people a minute from one address: four guests, each from a different
    forwarded address, are one address (the 4th refused) unless the proxy is named."""
    for trusted, fourth in [(None, 429), ("127.0.0.1", 200)]:
        settings = {"new_people": 3, "forwarded_allow_ips": trusted}
        with door_server(tmp_path / f"web-{fourth}.db", **settings) as base:
            statuses = [Person(base, f"G{k}", f"10.1.0.{k}").guest().status_code for k in range(4)]
            assert statuses == [200, 200, 200, fourth]


def test_https_directly_or_from_a_named_proxy_makes_the_cookie_secure(tmp_path: Path) -> None:
    cert, key = self_signed(tmp_path)
    trust = ssl.create_default_context(cafile=str(cert))
    with door_server(tmp_path / "tls.db", ssl_certfile=str(cert), ssl_keyfile=str(key)) as base:
        assert base.startswith("https://")
        ann = Person(base, "Ann", verify=trust)
        answer = ann.guest()
        assert answer.status_code == 200
        assert "secure" in answer.headers["set-cookie"].lower()
        with ann.socket(ssl=trust) as ws:  # wss, the session's cookie with it
            assert answer_to(ws, "ping")["type"] == "pong"
        ann.close()  # else the server's TLS close waits for it
    https = {"X-Forwarded-Proto": "https"}
    for trusted, secure in [(None, False), ("127.0.0.1", True)]:
        with door_server(tmp_path / f"{secure}.db", forwarded_allow_ips=trusted) as base:
            answer = httpx.post(base + "/api/guest", json={"name": "Bo"}, headers=https)
            assert ("secure" in answer.headers["set-cookie"].lower()) is secure


# -- logins ---------------------------------------------------------------------------------


def test_a_name_that_is_no_account_costs_a_login_what_an_account_does(tmp_path: Path) -> None:
    """Wrong passwords for two accounts against names no one has, interleaved: the medians
    within a factor of two (without the same work, unknown names answered ten times faster).
    The hasher costs a test's tens of milliseconds, well over an HTTP round trip."""
    hasher = PasswordHash((Argon2Hasher(time_cost=2, memory_cost=16 * 1024, parallelism=1),))
    with door_server(tmp_path / "web.db", hasher=hasher) as base:
        for name in ("ann", "bob"):
            Person(base, name).signup("the right password").raise_for_status()
        http = httpx.Client(base_url=base, timeout=10)
        known: list[float] = []
        unknown: list[float] = []
        for k in range(6):
            for name, times in ((("ann", "bob")[k % 2], known), (f"nobody{k}", unknown)):
                start = time.perf_counter()
                answer = http.post("/api/login", json={"name": name, "password": "wrong one"})
                times.append(time.perf_counter() - start)
                assert answer.status_code == 401, answer.text
        ratio = statistics.median(unknown) / statistics.median(known)
        assert 0.5 < ratio < 2, f"unknown/known = {ratio:.2f}: {unknown} against {known}"


def test_failed_logins_lock_a_name_from_that_address_only(tmp_path: Path) -> None:
    with door_server(tmp_path / "web.db", forwarded_allow_ips="127.0.0.1") as base:
        Person(base, "ann").signup("the right password").raise_for_status()
        stranger = Person(base, "ann", "10.9.9.9")
        statuses = [stranger.login("guessing").status_code for _ in range(6)]
        assert statuses == [401] * 5 + [429]
        assert stranger.login("the right password").status_code == 429
        assert Person(base, "ann", "10.0.0.7").login("the right password").status_code == 200


# -- sessions that end ------------------------------------------------------------------------


def test_logging_out_closes_the_sessions_websockets_at_once(tmp_path: Path) -> None:
    with door_server(tmp_path / "web.db") as base:
        ann = Person(base, "Ann")
        ann.guest()
        other = Person(base, "Ann")  # another session of another guest: untouched
        other.guest()
        ws, kept = ann.socket(), other.socket()
        assert answer_to(ws, "lobby")["type"] == "lobby"
        assert ann.post("/api/logout", {}).status_code == 200
        frames, code = frames_until_closed(ws)
        assert code == 4401
        assert frames[-1]["data"]["code"] == "session"
        with pytest.raises(ConnectionClosed):  # the socket made a table 6 s later
            send(ws, "create", {"game": "setback", "seats": [{"kind": "bot"}] * 4})
        assert httpx.get(base + "/api/tables").json()["tables"] == []
        assert answer_to(kept, "ping")["type"] == "pong"
        kept.close()


def test_a_password_change_ends_the_accounts_other_sessions(tmp_path: Path) -> None:
    with door_server(tmp_path / "web.db") as base:
        here, there = Person(base, "ann"), Person(base, "ann")
        here.signup("first password").raise_for_status()
        there.login("first password").raise_for_status()
        ws_here, ws_there = here.socket(), there.socket()
        assert answer_to(ws_there, "ping")["type"] == "pong"
        wrong = here.post("/api/password", {"old": "not it", "new": "second password"})
        assert wrong.status_code == 403
        assert here.http.post("/api/password", json={"old": "x", "new": "y" * 8}).status_code == 403
        changed = here.post("/api/password", {"old": "first password", "new": "second password"})
        assert changed.json() == {"ok": True, "ended_sessions": 1}
        frames, code = frames_until_closed(ws_there)
        assert code == 4401
        assert "password was changed" in frames[-1]["data"]["reason"]
        assert there.http.get("/api/me").json()["user"] is None
        assert answer_to(ws_here, "ping")["type"] == "pong"  # the changer's own goes on
        assert Person(base, "ann").login("first password").status_code == 401
        assert Person(base, "ann").login("second password").status_code == 200
        ws_here.close()
        guest = Person(base, "Gus")
        guest.guest()
        refused = guest.post("/api/password", {"old": "x", "new": "second password"})
        assert refused.status_code == 400
        assert "guest" in refused.json()["error"]


def test_an_expired_session_closes_its_websockets_and_expired_rows_are_purged(
    tmp_path: Path,
) -> None:
    db = tmp_path / "web.db"
    store = WebStore.open(str(db))
    stale_user = store.add_user("Old", "guest")
    stale, _ = store.new_session(stale_user)
    store.close()
    engine = create_engine(f"sqlite:///{db}")
    long_ago = text("'2000-01-01 00:00:00.000000'")

    def expire(sid: str) -> None:
        with engine.begin() as c:
            c.execute(update(WebSession).where(WebSession.id == sid).values(expires=long_ago))

    def rows() -> set[str]:
        with engine.connect() as c:
            return set(c.scalars(select(WebSession.id)))

    expire(stale)
    with door_server(db, session_check_s=0.2) as base:
        assert stale not in rows()  # purged as the server started
        ann = Person(base, "Ann")
        ann.guest()
        ws = ann.socket()
        assert answer_to(ws, "ping")["type"] == "pong"
        (sid,) = rows()
        expire(sid)
        frames, code = frames_until_closed(ws)
        assert code == 4401
        assert frames[-1]["data"]["code"] == "session"
    engine.dispose()


def test_the_store_ends_purges_and_checks_sessions(tmp_path: Path) -> None:
    # SQLite only: PostgreSQL's server costs this file's whole time budget to start.
    store = WebStore.open(str(tmp_path / "web.db"))
    try:
        ann = store.add_user("Ann", "account", "hash-1")
        one, _ = store.new_session(ann)
        two, _ = store.new_session(ann)
        bob = store.add_user("Bob", "guest")
        three, _ = store.new_session(bob)
        assert store.live_sessions([one, two, three, "gone"]) == {one, two, three}
        assert store.change_password(ann.id, "hash-2", keep=one) == [two]
        assert store.password(ann.id) == "hash-2"
        assert store.live_sessions([one, two, three]) == {one, three}
        assert store.purge_sessions() == 0
        assert store.session(three) == (User(bob.id, "Bob", "guest"), store.session(three)[1])
    finally:
        store.close()


# -- the log -----------------------------------------------------------------------------------


def test_a_frame_that_is_not_utf8_writes_one_line_and_no_traceback(
    process: tuple[str, int, Path],
) -> None:
    base, _, log = process
    ann = Person(base, "Ann")
    ann.guest()
    with ann.socket() as ws:
        with ws.protocol_mutex:
            ws.protocol.send_frame(Frame(Opcode.TEXT, b"\xff\xfe not UTF-8"))
            ws.send_data()
        _, code = frames_until_closed(ws)
    assert code == 1007
    httpx.get(base + "/api/me")  # the server has gone on, and logged what it logs
    time.sleep(0.2)
    written = log.read_text()
    assert "Traceback" not in written
    assert "not UTF-8" in written


# -- serve's own mistakes ------------------------------------------------------------------------


def test_serve_on_a_port_in_use_or_a_host_that_does_not_resolve_makes_nothing(
    tmp_path: Path,
) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        cases = [
            (["--port", port], "the port is in use"),
            (["--host", "no-such-host.invalid"], "is not an address here"),
            (["--db", str(tmp_path / "missing" / "web.db")], "no folder"),
            (["--allowed-host", "http://x.org/"], "--allowed-host"),
        ]
        for args, says in cases:
            if "--db" not in args:
                args = [*args, "--db", str(tmp_path / "web.db")]
            done = run_serve_command(*args, cwd=tmp_path)
            assert done.returncode == 2, (args, done.stdout, done.stderr)
            assert done.stdout == ""
            lines = done.stderr.strip().splitlines()
            assert len(lines) == 1 and says in lines[0], (args, done.stderr)
    assert list(tmp_path.iterdir()) == []  # no database, no folder


def test_the_doors_flags_are_checked_and_written_as_the_server_compares_them(
    tmp_path: Path,
) -> None:
    assert allowed_host("Tables.Example.ORG.") == "tables.example.org"
    assert allowed_host("::1") == allowed_host("[::1]") == "[::1]"
    assert allowed_host("*.example.org") == "*.example.org"
    for bad in ("http://x.org/", "x.org:8000", "", "a b", "*x.org"):
        with pytest.raises(TricktableError, match="--allowed-host"):
            allowed_host(bad)
    assert forwarded_ips(()) is None
    assert forwarded_ips(("10.0.0.2, 10.1.0.0/16", "*")) == "10.0.0.2,10.1.0.0/16,*"
    with pytest.raises(TricktableError, match="--forwarded-allow-ips 'the proxy'"):
        forwarded_ips(("the proxy",))
    for cert, key, says in [
        (str(tmp_path / "cert.pem"), None, "go together"),
        (str(tmp_path / "cert.pem"), str(tmp_path / "key.pem"), "cannot be loaded"),
    ]:
        with pytest.raises(TricktableError, match=says):
            check_tls(ServeOptions(ssl_certfile=cert, ssl_keyfile=key))
    limits = app_limits(ServeOptions(host="0.0.0.0", allowed_hosts=("example.org",)))
    assert limits.allowed_hosts == ("localhost", "127.0.0.1", "[::1]", "example.org")
    assert "[::2]" in app_limits(ServeOptions(host="::2")).allowed_hosts
