"""Servers for the tests of the web server's doors (tests/test_web_doors.py), made as
``tricktable serve`` makes them: its limits, its uvicorn settings, its bound socket.

:func:`door_server` runs one in a thread of the test process (fast, any settings);
:func:`serve_process` runs ``tricktable serve`` itself (its memory and its log are its own).
Clients: raw sockets for requests no polite client sends, httpx, and ``websockets``.
"""

from __future__ import annotations

import contextlib
import datetime
import ipaddress
import os
import re
import select
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher
from websockets.sync.client import ClientConnection, connect

from tricktable.cli.serve import ServeOptions, app_limits, bind, server_config
from tricktable.web.app import make_app
from tricktable.web.store import WebStore

SRC = str(Path(__file__).resolve().parents[1] / "src")
#: argon2 as the server uses it, at a test's cost
CHEAP = PasswordHash((Argon2Hasher(time_cost=1, memory_cost=1024, parallelism=1),))


@contextlib.contextmanager
def door_server(db: Path | str, hasher: PasswordHash = CHEAP, **settings: Any) -> Iterator[str]:
    """A server for ``db`` in a thread, with ``settings`` (:class:`ServeOptions`' fields;
    port 0: a free one); its base URL (``http://`` or ``https://127.0.0.1:PORT``)."""
    options = replace(ServeOptions(host="127.0.0.1", port=0, db=str(db), pace=0.0), **settings)
    store = WebStore.open(str(db))
    app = make_app(
        store, pace=0.0, hasher=hasher, new_people=options.new_people, limits=app_limits(options)
    )
    sock = bind(options.host, 0)
    server = uvicorn.Server(server_config(app, options))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the web server did not start")
        time.sleep(0.01)
    scheme = "https" if options.ssl_certfile else "http"
    try:
        yield f"{scheme}://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()
        store.close()


@contextlib.contextmanager
def serve_process(db: Path | str, log: Path, *flags: str) -> Iterator[tuple[str, int]]:
    """``tricktable serve --port 0`` for ``db`` (a real process; its standard error in
    ``log``): its base URL and process id, once it answers."""
    env = {**os.environ, "PYTHONPATH": SRC}
    command = [sys.executable, "-m", "tricktable", "serve", "--port", "0", "--db", str(db)]
    with log.open("w") as err:
        proc = subprocess.Popen(
            [*command, "--pace", "0", *flags],
            env=env,
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
        )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        found = re.search(r"(https?://127\.0\.0\.1:\d+)/", first)
        if found is None:
            raise RuntimeError(f"tricktable serve said {first!r}; its log: {log.read_text()}")
        base = found.group(1)
        deadline = time.monotonic() + 30
        while True:
            with contextlib.suppress(httpx.HTTPError):
                httpx.get(base + "/api/me", timeout=1)
                break
            if time.monotonic() > deadline:
                raise RuntimeError("tricktable serve did not answer")
            time.sleep(0.05)
        yield base, proc.pid
    finally:
        proc.kill()
        proc.wait(10)
        if proc.stdout is not None:
            proc.stdout.close()


def run_serve_command(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``tricktable serve ARGS`` run to its end (at most 60 s) in ``cwd``."""
    env = {**os.environ, "PYTHONPATH": SRC}
    return subprocess.run(
        [sys.executable, "-m", "tricktable", "serve", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def peak_memory_kib(pid: int) -> int:
    """Process ``pid``'s peak resident memory so far (VmHWM), in KiB."""
    status = Path(f"/proc/{pid}/status").read_text()
    found = re.search(r"^VmHWM:\s+(\d+) kB", status, re.MULTILINE)
    assert found is not None, status
    return int(found.group(1))


def raw(base: str) -> socket.socket:
    """A plain TCP connection to ``base``'s server."""
    host, port = base.split("//")[1].split(":")
    return socket.create_connection((host, int(port)), timeout=10)


def read_answer(sock: socket.socket, timeout: float = 10) -> bytes:
    """What the server sends until it closes the connection or ``timeout`` passes with
    nothing more (then :class:`TimeoutError`, unless something came)."""
    sock.setblocking(True)
    sock.settimeout(timeout)
    got = b""
    try:
        while chunk := sock.recv(65536):
            got += chunk
            if b"\r\n\r\n" in got and _whole(got):
                break
    except ConnectionResetError:
        pass  # the server closed with our bytes unread: what came before still counts
    except TimeoutError:
        if not got:
            raise
    return got


def _whole(answer: bytes) -> bool:
    head, _, body = answer.partition(b"\r\n\r\n")
    found = re.search(rb"content-length: (\d+)", head, re.IGNORECASE)
    return found is not None and len(body) >= int(found.group(1))


def push_chunked(sock: socket.socket, total: int, chunk: int = 64 * 1024) -> int:
    """Send a chunked body of ``total`` bytes until the server answers, closes or stops
    reading for 5 s; the bytes sent."""
    sock.setblocking(False)
    piece = b"x" * chunk
    framed = f"{chunk:x}\r\n".encode() + piece + b"\r\n"
    sent = 0
    pending = b""
    while sent < total or pending:
        readable, writable, _ = select.select([sock], [sock], [], 5)
        if readable or not writable:
            break
        if not pending:
            pending = framed
        try:
            n = sock.send(pending)
        except (BrokenPipeError, ConnectionResetError):
            break
        pending = pending[n:]
        if not pending:
            sent += chunk
    else:
        with contextlib.suppress(OSError):
            sock.sendall(b"0\r\n\r\n")
    return sent


def status_of(answer: bytes) -> int:
    """The status code of a raw HTTP answer."""
    return int(answer.split(b" ", 2)[1])


class Person:
    """A guest (or an account) over HTTP, seen as coming from ``address`` when a proxy is
    believed (the ``X-Forwarded-For`` it sends), with websockets of its session."""

    def __init__(self, base: str, name: str, address: str | None = None, **http: Any) -> None:
        self.base = base
        self.headers = {"X-Forwarded-For": address} if address else {}
        self.http = httpx.Client(base_url=base, timeout=10, headers=self.headers, **http)
        self.csrf = ""
        self.name = name

    def guest(self) -> httpx.Response:
        """Sign in as a guest named :attr:`name`."""
        return self._signed(self.http.post("/api/guest", json={"name": self.name}))

    def signup(self, password: str) -> httpx.Response:
        """Make the account :attr:`name` with ``password``."""
        body = {"name": self.name, "password": password}
        return self._signed(self.http.post("/api/signup", json=body))

    def login(self, password: str) -> httpx.Response:
        """Log in as :attr:`name`."""
        body = {"name": self.name, "password": password}
        return self._signed(self.http.post("/api/login", json=body))

    def post(self, path: str, body: dict[str, Any]) -> httpx.Response:
        """A POST with the session's CSRF token."""
        return self.http.post(path, json=body, headers={"X-CSRF-Token": self.csrf})

    def socket(self, **options: Any) -> ClientConnection:
        """A websocket of this session."""
        cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        url = self.base.replace("http", "ws", 1) + "/ws"
        headers = {"Cookie": cookie, **self.headers}
        return connect(url, additional_headers=headers, open_timeout=10, **options)

    def _signed(self, answer: httpx.Response) -> httpx.Response:
        if answer.status_code == 200:
            self.csrf = answer.json()["csrf"]
        return answer

    def close(self) -> None:
        """Close the HTTP client."""
        self.http.close()


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 signed by its own key, and the key (PEM files)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path
