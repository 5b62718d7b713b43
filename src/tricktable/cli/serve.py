"""``tricktable serve``: the web server — lobby, tables, people — on uvicorn.

The address is bound before anything else is made (a port in use or a host that does not
resolve is one line and exit 2, no database left behind), then the database is opened and
uvicorn serves on that socket with the doors' settings: a deadline for every request,
proxies trusted only when named, TLS when given (docs/deploy.md).
"""

from __future__ import annotations

import asyncio
import gc
import ipaddress
import logging
import socket
import ssl
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from tricktable.cli import bind_problem, fail
from tricktable.errors import TricktableError

if TYPE_CHECKING:
    from tricktable.web.hub import HubLimits

#: seconds a client has to send a whole request (headers and body), from its connection
#: or the end of the last answer on it: slow half-written requests are not held
REQUEST_TIMEOUT: Final = 10.0
#: seconds an idle kept-alive connection waits for its next request (uvicorn's)
KEEP_ALIVE: Final = 5
#: the longest request head, line and headers (bytes): h11 answers 400 past it
MAX_HEAD: Final = 16 * 1024
#: the longest websocket message (bytes): closed with 1009 past it (the hub answers frames
#: over 16 KiB of text with an error; a UTF-8 character is up to four bytes)
WS_MAX_SIZE: Final = 64 * 1024
#: connections and tasks uvicorn serves at once beyond the websockets' cap (503 past it)
HTTP_HEADROOM: Final = 100


@dataclass(frozen=True)
class ServeOptions:
    """What ``tricktable serve`` was told (its flags: ``tricktable serve --help``)."""

    host: str = "127.0.0.1"
    port: int = 8000
    db: str = "tricktable.db"
    pace: float = 0.4
    new_people: int = 60
    #: host names answered besides the loopback ones and the bound host
    allowed_hosts: tuple[str, ...] = ()
    #: the proxies whose X-Forwarded-For / -Proto are believed (None: none)
    forwarded_allow_ips: str | None = None
    ssl_certfile: str | None = None
    ssl_keyfile: str | None = None
    max_sockets: int = 1000
    max_sockets_per_address: int = 50
    max_sockets_per_account: int = 10
    #: uvicorn's limit_concurrency (None: max_sockets + HTTP_HEADROOM)
    limit_concurrency: int | None = None
    request_timeout: float = REQUEST_TIMEOUT
    #: seconds within which an ended or expired session closes its websockets
    session_check_s: float = 10.0
    #: tables of bots alone played at once: in all, and of one person
    bot_tables: int = 20
    bot_tables_per_person: int = 2
    #: hands after which a match ends with the leader winning: bots alone, a person seated
    hand_cap_bots: int = 200
    hand_cap_people: int = 1000
    #: seconds a table with nobody attached is played on before it stops
    idle_stop: float = 600.0
    #: whether accounts' web-service bots may be called at local addresses
    allow_local_bots: bool = False
    #: the Redis through which many processes share the tables (None: this one alone)
    redis: str | None = None


def hub_limits(options: ServeOptions) -> HubLimits:
    """What the tables allow (:class:`~tricktable.web.hub.HubLimits`), as ``options`` set it."""
    from tricktable.web.hub import HubLimits

    return HubLimits(
        bot_tables=options.bot_tables,
        bot_tables_per_person=options.bot_tables_per_person,
        hand_cap_bots=options.hand_cap_bots,
        hand_cap_people=options.hand_cap_people,
        idle_stop=options.idle_stop,
        allow_local_bots=options.allow_local_bots,
    )


def run_serve(options: ServeOptions) -> int:
    """Serve the tables of ``options.db`` until interrupted; the exit status."""
    try:
        check_tls(options)
        check_scaled(options)
        check_database_folder(options.db)
        sock = bind(options.host, options.port)
    except TricktableError as exc:
        return fail(exc)
    # Imported once the address is ours: the database's and the web's modules take seconds.
    import uvicorn

    from tricktable.web.app import make_app
    from tricktable.web.store import WebStore

    try:
        store = WebStore.open(options.db)
    except TricktableError as exc:
        sock.close()
        return fail(exc)
    # Many tables hold many small objects that live as long as their match: the collector's
    # full passes over them all, at the default thresholds, stalled every table at once.
    gc.set_threshold(50_000, 50, 1000)
    cluster = None
    if options.redis is not None:
        from tricktable.web.redis_cluster import RedisCluster

        cluster = RedisCluster(options.redis)
    try:
        app = make_app(
            store,
            pace=options.pace,
            new_people=options.new_people,
            limits=app_limits(options),
            hub_limits=hub_limits(options),
            cluster=cluster,
        )
        port = sock.getsockname()[1]
        scheme = "https" if options.ssl_certfile else "http"
        print(
            f"tricktable serving on {scheme}://{url_host(options.host)}:{port}/  "
            f"({store.store.where})",
            flush=True,
        )
        if _is_wildcard(options.host) and not options.allowed_hosts:
            print(
                "tricktable answers only the host names localhost, 127.0.0.1 and [::1]: "
                "give the names people will use with --allowed-host",
                flush=True,
            )
        server = uvicorn.Server(server_config(app, options))
        server.run(sockets=[sock])
        return 0 if server.started else 1
    finally:
        sock.close()
        store.close()
        sys.stdout.flush()


def check_scaled(options: ServeOptions) -> None:
    """Many processes (``--redis``) share one database server: a SQLite file is one
    machine's, and its locks are not made for many servers writing one journal."""
    if options.redis is None:
        return
    if not options.redis.startswith(("redis://", "rediss://", "unix://")):
        raise TricktableError(
            f"--redis {options.redis[:60]!r}: give a URL, redis://[:PASSWORD@]HOST:PORT/DB"
        )
    if not options.db.startswith(("postgresql://", "postgresql+psycopg://")):
        raise TricktableError(
            "--redis shares the tables among server processes: give them one PostgreSQL "
            "database too (--db postgresql://USER:PASSWORD@HOST/DB; docs/deploy.md)"
        )


def app_limits(options: ServeOptions) -> Any:
    """The web application's :class:`~tricktable.web.app.Limits` for ``options``."""
    from tricktable.web.app import LOOPBACK_HOSTS, Limits

    hosts = list(LOOPBACK_HOSTS)
    if not _is_wildcard(options.host):
        hosts.append(url_host(options.host).lower())
    hosts += [allowed_host(h) for h in options.allowed_hosts]
    return Limits(
        allowed_hosts=tuple(dict.fromkeys(hosts)),
        sockets=options.max_sockets,
        sockets_per_address=options.max_sockets_per_address,
        sockets_per_account=options.max_sockets_per_account,
        session_check_s=options.session_check_s,
    )


def server_config(app: Any, options: ServeOptions) -> Any:
    """uvicorn's settings for ``app`` served as ``options`` say (a ``uvicorn.Config``)."""
    import uvicorn

    forwarded = options.forwarded_allow_ips
    concurrency = options.limit_concurrency or options.max_sockets + HTTP_HEADROOM
    config = uvicorn.Config(
        app,
        host=options.host,
        port=options.port,
        log_level="warning",
        http=timed_h11(options.request_timeout),
        timeout_keep_alive=KEEP_ALIVE,
        h11_max_incomplete_event_size=MAX_HEAD,
        limit_concurrency=concurrency,
        # uvicorn believes X-Forwarded-For from 127.0.0.1 unless told otherwise: a local
        # proxy (or anyone who reaches the server through one) would choose its address.
        proxy_headers=forwarded is not None,
        forwarded_allow_ips=forwarded if forwarded is not None else "",
        ssl_certfile=options.ssl_certfile,
        ssl_keyfile=options.ssl_keyfile,
        server_header=False,
        ws_max_size=WS_MAX_SIZE,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        # Compressing every small frame cost a fifth of the server's CPU a move and half
        # its memory a table (benchmarks/web_load.py); the frames are small JSON.
        ws_per_message_deflate=False,
        lifespan="on",
    )
    quiet_client_faults()
    return config


class TimedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request: a client that has not sent a
    whole request (head and body) within :attr:`request_timeout` of connecting, or of the end
    of the last answer on the connection, is disconnected. uvicorn arms its keep-alive timer
    only after an answer and disarms it at the first byte, so a request left half-written
    held its connection for ever."""

    request_timeout: float = REQUEST_TIMEOUT
    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        upgraded = self.transport.get_protocol() is not self  # now a websocket's
        if upgraded or self.conn.their_state not in (h11.IDLE, h11.SEND_BODY):
            self._disarm()  # the whole request is in

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self.conn.their_state is not h11.DONE:
            self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.request_timeout, self._expire)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expire(self) -> None:
        self._deadline = None
        if self.transport.get_protocol() is self and not self.transport.is_closing():
            self.transport.close()


def timed_h11(seconds: float) -> type[TimedH11Protocol]:
    """:class:`TimedH11Protocol` with a deadline of ``seconds``."""
    return type("TimedH11Protocol", (TimedH11Protocol,), {"request_timeout": seconds})


class _ClientFaultsInOneLine(logging.Filter):
    """uvicorn logs a websocket text frame that is not UTF-8 with a traceback at ERROR: it is
    a client's fault, answered by closing with 1007; one warning line says so."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and str(record.msg).startswith("Invalid UTF-8"):
            record.msg = "a websocket client sent a text frame that is not UTF-8: closed (1007)"
            record.args = ()
            record.exc_info = None
            record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def quiet_client_faults() -> None:
    """Put :class:`_ClientFaultsInOneLine` on uvicorn's error log (once)."""
    log = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, _ClientFaultsInOneLine) for f in log.filters):
        log.addFilter(_ClientFaultsInOneLine())


def bind(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` and listening (port 0: one the system picks), for
    uvicorn to serve on; a :class:`TricktableError` saying why it cannot be."""
    if not host:
        raise TricktableError("--host is empty: give an address such as 127.0.0.1")
    try:
        found = socket.getaddrinfo(host, port, 0, socket.SOCK_STREAM, 0, socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        reason = exc.strerror if isinstance(exc, socket.gaierror) else "not a host name"
        raise TricktableError(f"--host {host!r} is not an address here ({reason})") from None
    # An IPv4 address first, as uvicorn binds a name ("localhost"): then the first found.
    family, kind, proto, _, address = min(found, key=lambda f: f[0] != socket.AF_INET)
    sock = socket.socket(family, kind, proto)
    try:
        # asyncio's own servers set it: a port a closed server left in TIME_WAIT is free.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        raise TricktableError(bind_problem(host, port, exc)) from None
    sock.set_inheritable(True)
    return sock


def check_database_folder(db: str) -> None:
    """Refuse a SQLite ``--db`` whose folder is missing (as ``play --save`` does), before
    anything is made: a mistyped path makes no folders."""
    from tricktable.files import FileProblem, check_writable

    path = db
    if "://" in db:  # a URL: SQLAlchemy reads it (a bare path needs no such import)
        from tricktable.db.store import parse_target

        url, _ = parse_target(db)
        if url.get_backend_name() != "sqlite" or not url.database:
            return
        path = url.database
    try:
        check_writable(Path(path).expanduser(), "database")
    except FileProblem as exc:
        raise TricktableError(str(exc)) from None


def check_tls(options: ServeOptions) -> None:
    """Refuse a certificate without its key (or the other way round), or either unreadable,
    in one line before the server starts (uvicorn would fail with a traceback)."""
    cert, key = options.ssl_certfile, options.ssl_keyfile
    if cert is None and key is None:
        return
    if cert is None or key is None:
        raise TricktableError("--ssl-certfile and --ssl-keyfile go together: give both")
    try:
        ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(cert, key)
    except (OSError, ssl.SSLError) as exc:
        reason = getattr(exc, "strerror", None) or getattr(exc, "reason", None) or exc
        raise TricktableError(
            f"--ssl-certfile {cert!r} / --ssl-keyfile {key!r}: cannot be loaded ({reason})"
        ) from None


def allowed_host(text: str) -> str:
    """An ``--allowed-host`` value checked and written as the ``Host`` check compares it:
    lower case, an IPv6 address in brackets, no port."""
    name = text.strip().lower().rstrip(".")
    bare = name.strip("[]")
    try:
        if ipaddress.ip_address(bare).version == 6:
            return f"[{bare}]"
        return bare
    except ValueError:
        pass
    legal = set("abcdefghijklmnopqrstuvwxyz0123456789-.")
    if name == "*" or (name.startswith("*.") and set(name[2:]) <= legal and len(name) > 2):
        return name
    if not name or not set(name) <= legal or len(name) > 253:
        raise TricktableError(
            f"--allowed-host {text!r}: give a host name (example.org), *.example.org, an IP "
            "address or *, without a scheme or port"
        )
    return name


def forwarded_ips(given: tuple[str, ...]) -> str | None:
    """``--forwarded-allow-ips`` values checked and joined as uvicorn takes them (None: none
    given, no proxy believed)."""
    items = [item.strip() for text in given for item in text.split(",") if item.strip()]
    for item in items:
        if item == "*":
            continue
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError:
            raise TricktableError(
                f"--forwarded-allow-ips {item!r}: give the proxy's address (10.0.0.2), a "
                "network (10.0.0.0/8) or *"
            ) from None
    return ",".join(items) if items else None


def url_host(host: str) -> str:
    """``host`` as a URL writes it: an IPv6 address in brackets."""
    try:
        return f"[{host}]" if ipaddress.ip_address(host).version == 6 else host
    except ValueError:
        return host


def _is_wildcard(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.strip("[]")).is_unspecified
    except ValueError:
        return False
