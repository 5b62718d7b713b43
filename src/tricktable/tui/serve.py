"""``tricktable tui --serve``: the full-screen table in a browser tab, through textual-serve.

textual-serve runs a small web server whose page holds a terminal (xterm.js); each tab that
opens it gets its own app process, started from a shell command, whose screen travels over a
websocket. The command here is the app of one tab (:mod:`tricktable.tui.tab`) with the options
of ``tricktable tui`` given, less the serving ones, so a tab plays exactly the match the same
command would play in a terminal.

The doors, since whoever drives a tab's app can play, chat and open records:

- **A token.** The server draws a random token (``secrets.token_urlsafe``) at start and prints
  the URL with it; the page and its websocket answer only to it (403 otherwise), on every
  address, loopback included (another user of the machine, or a page of another site in the
  browser, cannot guess it).
- **The origin and the host.** A websocket is accepted only from the table's own page (its
  ``Origin`` header is the served scheme, host and port), and every request must name the
  served host (its ``Host`` header), so that a page of another site, even one whose name was
  pointed at this machine (DNS rebinding), cannot drive a tab.
- **A folder a tab.** Each tab gets a new folder of its own under ``records/tabs/``: its matches
  are saved there, and it resumes and replays only what is there (:mod:`tricktable.tui.tab`).
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import os
import secrets
import shlex
import socket
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from urllib.parse import urlsplit

import aiohttp_jinja2
from aiohttp import web
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int

from tricktable.cli import bind_problem
from tricktable.errors import TricktableError

#: the serving options that take a value, dropped from the command each tab runs
VALUE_OPTIONS = ("--host", "--port", "--public-url")
#: the serving flags, dropped likewise
FLAG_OPTIONS = ("--serve",)
#: the options a served tab may not take: its matches are saved and resumed in its own folder
REFUSED_OPTIONS = ("--save", "--resume")
#: how long a shutdown waits for the open tabs' apps to quit (each saves its record)
QUIT_WAIT_S = 10.0
#: random bytes in the token (secrets.token_urlsafe: 32 URL-safe characters)
TOKEN_BYTES = 24
#: the folder under which each tab gets its own (beside ``tricktable tui``'s records/)
TABS = Path("records") / "tabs"
#: the names a browser may give a loopback address
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def tab_argv(argv: Sequence[str]) -> list[str]:
    """``argv`` (the options of ``tricktable tui``) without the serving options."""
    kept: list[str] = []
    skip_value = False
    for index, arg in enumerate(argv):
        if skip_value:
            skip_value = False
        elif arg == "--":
            # Whatever follows "--" is an argument, never an option: pass it all on.
            kept.extend(argv[index:])
            break
        elif arg in FLAG_OPTIONS:
            pass
        elif arg in VALUE_OPTIONS:
            skip_value = True
        elif not arg.startswith(tuple(f"{option}=" for option in VALUE_OPTIONS)):
            kept.append(arg)
    return kept


def serve_command(argv: Sequence[str], folder: Path) -> str:
    """The shell command a browser tab runs: this Python's ``-m tricktable.tui.tab``, the
    tab's ``folder`` and ``argv`` without the serving options, quoted so that no argument is
    read by the shell."""
    tab = [sys.executable, "-m", "tricktable.tui.tab", str(folder), *tab_argv(argv)]
    command = shlex.join(tab)
    # textual-serve starts the command with "sh -c"; "exec" makes the app that process itself,
    # not a child of a shell, so the quit message and signals reach the app directly.
    return f"exec {command}" if os.name == "posix" else command


def url_host(host: str) -> str:
    """``host`` as it is written in a URL: an IPv6 address in brackets, a wildcard address
    as this machine's name (a browser cannot connect to 0.0.0.0)."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if address.is_unspecified:
        return socket.gethostname()
    return f"[{host}]" if address.version == 6 else host


def check_address(host: str, port: int) -> None:
    """Bind ``host:port`` once, as the server will, so a bad host or a taken port is one clear
    error before the server starts rather than a traceback from inside it."""
    if isinstance(port, bool) or not isinstance(port, int) or not 1 <= port <= 65535:
        raise TricktableError(f"--port {port!r}: a port is a number from 1 to 65535")
    if not host:
        raise TricktableError("--host is empty: give an address such as 127.0.0.1")
    try:
        found = socket.getaddrinfo(host, port, 0, socket.SOCK_STREAM, 0, socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        raise TricktableError(f"--host {host!r} is not an address ({exc})") from None
    for family, kind, proto, _, address in found:
        with socket.socket(family, kind, proto) as probe:
            # The options asyncio's create_server sets: without SO_REUSEADDR a port that
            # a closed server left in TIME_WAIT would look taken.
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            try:
                probe.bind(address)
            except OSError as exc:
                raise TricktableError(bind_problem(host, port, exc)) from None


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address) is this machine's loopback."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def served_hosts(host: str, port: int, url: str) -> frozenset[str]:
    """The ``host:port`` spellings a browser may use to reach the table (its ``Host`` header,
    and its page's origin): the public URL's, and for a loopback or wildcard address this
    machine's own names for it."""
    names = {urlsplit(url).netloc.lower()}
    spelled = [url_host(host)]
    if is_loopback(host) or _is_wildcard(host):
        spelled += LOOPBACK_NAMES
    if _is_wildcard(host):
        spelled += _own_names()
    names.update(f"{name.lower()}:{port}" for name in spelled)
    return frozenset(names)


def _is_wildcard(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.strip("[]")).is_unspecified
    except ValueError:
        return False


# Bounded: the Host text is a stranger's, asked before the token is checked.
@functools.lru_cache(maxsize=64)
def is_own_address(host: str) -> bool:
    """Whether ``host`` is an IP address of this machine (a name is not: the table checks
    names against its own list, so that a name pointed at this machine is no way in)."""
    try:
        address = ipaddress.ip_address(host.strip("[]") if host.startswith("[") else host)
    except ValueError:
        return False
    family = socket.AF_INET6 if address.version == 6 else socket.AF_INET
    with socket.socket(family, socket.SOCK_DGRAM) as probe:
        try:
            probe.bind((str(address), 0))  # only an address of this machine can be bound
        except OSError:
            return False
    return not address.is_unspecified and not address.is_multicast


def _own_names() -> list[str]:
    """This machine's name and addresses, as a browser writes them in a URL."""
    name = socket.gethostname()
    names = {name, socket.getfqdn()}
    try:
        for *_, address in socket.getaddrinfo(name, None, 0, socket.SOCK_STREAM):
            names.add(url_host(str(address[0])))
    except (OSError, UnicodeError):
        pass
    return sorted(names)


class TableServer(Server):
    """textual-serve's server with the doors of this module: the token, the origin and host
    checks, and a folder for each tab; it prints one line where to open it, and closes the
    open tabs' apps when it stops (so each quits and saves its record) rather than waiting."""

    def __init__(
        self,
        argv: Sequence[str],
        host: str,
        port: int,
        public_url: str,
        token: str,
        tabs: Path = TABS,
    ) -> None:
        super().__init__(
            serve_command(argv, tabs),
            host=host,
            port=port,
            title="tricktable",
            public_url=public_url,
        )
        self.argv = list(argv)
        self.token = token
        self.tabs_folder = tabs
        self.hosts = served_hosts(host, port, public_url)
        #: served on every interface: any address of this machine (not a name) is served too
        self.wildcard = _is_wildcard(host)
        self.tabs: set[asyncio.Task[object]] = set()
        #: each tab's folder, in the order the tabs opened
        self.folders: list[Path] = []

    @property
    def address(self) -> str:
        """The URL to open: the public URL with the token."""
        return f"{self.public_url}/?token={self.token}"

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        # The page's websocket carries the token in its path: textual.js adds its own query.
        app.router.add_get("/ws/{token}", self.handle_websocket, name="tab")
        app.middlewares.append(self.guard)
        return app

    @web.middleware
    async def guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Refuse what is not the table's own page and tabs: another host (DNS rebinding), no
        token or a wrong one, a websocket from another page's origin."""
        if not self.serves(request.host):
            raise web.HTTPForbidden(text="this is not the address the table was served on")
        path = request.path
        if path.startswith(("/static/", "/download/")):
            return await handler(request)  # the page's scripts; downloads have keys of their own
        given = request.match_info.get("token") if path.startswith("/ws") else None
        if path == "/":
            given = request.query.get("token")
        if not given or not secrets.compare_digest(given.encode(), self.token.encode()):
            raise web.HTTPForbidden(text="open the address tricktable printed, with its token")
        if path.startswith("/ws") and not self.own_page(request.headers.get("Origin", "")):
            raise web.HTTPForbidden(text="a tab is driven only from the table's own page")
        return await handler(request)

    def serves(self, netloc: str) -> bool:
        """Whether ``netloc`` (``host:port``, a ``Host`` header) is the table's address."""
        netloc = netloc.lower()
        if netloc in self.hosts:
            return True
        host, _, port = netloc.rpartition(":")
        return self.wildcard and port == str(self.port) and is_own_address(host)

    def own_page(self, origin: str) -> bool:
        """Whether ``origin`` (an ``Origin`` header) is the table's own page."""
        scheme, _, netloc = origin.partition("://")
        return scheme.lower() in ("http", "https") and "/" not in netloc and self.serves(netloc)

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        # textual-serve's page, whose websocket URL carries the token.
        page: Callable[..., Awaitable[dict[str, object]]]
        page = Server.handle_index.__wrapped__  # type: ignore[attr-defined]
        context = await page(self, request)
        context["app_websocket_url"] = f"{context['app_websocket_url']}/{self.token}"
        return aiohttp_jinja2.render_template("app_index.html", request, context)

    async def on_startup(self, app: web.Application) -> None:
        print(
            f"tricktable: the table is at {self.address} (open it in a browser; Ctrl+C stops)",
            flush=True,
        )

    def new_folder(self) -> Path:
        """A new folder for a tab, readable by this user alone."""
        stamp = time.strftime("%Y%m%d-%H%M%S")
        folder = self.tabs_folder / f"{stamp}-{secrets.token_hex(4)}"
        folder.mkdir(mode=0o700, parents=True)
        self.folders.append(folder)
        return folder

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """textual-serve's websocket handler, but with each tab's app in a folder of its own."""
        tab = asyncio.current_task()
        if tab is not None:
            self.tabs.add(tab)
        websocket = web.WebSocketResponse(heartbeat=15)
        width = to_int(request.query.get("width", "80"), 80)
        height = to_int(request.query.get("height", "24"), 24)
        service: AppService | None = None

        async def close() -> None:
            await websocket.close()

        try:
            await websocket.prepare(request)
            service = AppService(
                serve_command(self.argv, self.new_folder()),
                write_bytes=websocket.send_bytes,
                write_str=websocket.send_str,
                close=close,
                download_manager=self.download_manager,
                debug=self.debug,
            )
            await service.start(width, height)
            await self._process_messages(websocket, service)
        except asyncio.CancelledError:
            # A cancelled tab closes its websocket and sends its app "quit" (below): without
            # this aiohttp would wait for the browser to leave first.
            await websocket.close()
        except OSError as exc:
            print(f"tricktable: a tab could not start: {exc.strerror or exc}", flush=True)
        finally:
            if service is not None:
                await service.stop()
                await reap(service)
            if tab is not None:
                self.tabs.discard(tab)
        return websocket

    async def on_shutdown(self, app: web.Application) -> None:
        tabs = list(self.tabs)
        for tab in tabs:
            tab.cancel()
        if tabs:
            await asyncio.wait(tabs, timeout=QUIT_WAIT_S)


async def reap(service: AppService) -> None:
    """Wait for a tab's app process to exit (killing it after :data:`QUIT_WAIT_S`).

    textual-serve stops reading an app at the end of its output but never waits for it: its
    process was reaped by chance, and one left to the garbage collector after the server's
    loop closed printed a traceback.
    """
    process = getattr(service, "_process", None)  # textual-serve keeps it to itself
    if process is None:
        return
    try:
        await asyncio.wait_for(process.wait(), QUIT_WAIT_S)
    except TimeoutError:
        process.kill()
        await process.wait()


def serve(
    argv: Sequence[str],
    host: str = "127.0.0.1",
    port: int = 8000,
    public_url: str | None = None,
    tabs: Path = TABS,
) -> None:
    """Serve ``tricktable tui`` with the options ``argv`` to browsers at ``host:port`` until
    Ctrl+C (or SIGTERM); ``public_url`` is the address browsers reach it by, when that is not
    ``http://host:port`` (behind a proxy, say). Each tab's folder is made in ``tabs``."""
    kept = tab_argv(argv)
    refused = [a for a in kept if a.split("=", 1)[0] in REFUSED_OPTIONS]
    if refused:
        raise TricktableError(
            f"--serve gives each tab a match of its own, saved in its own folder: no {refused[0]}"
        )
    check_address(host, port)
    try:
        tabs.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise TricktableError(
            f"cannot make the tabs' folder {tabs}: {exc.strerror or exc}"
        ) from None
    url = public_url.rstrip("/") if public_url else f"http://{url_host(host)}:{port}"
    TableServer(argv, host, port, url, secrets.token_urlsafe(TOKEN_BYTES), tabs).serve()
