"""``tricktable tui --serve``: the full-screen table in a browser tab, through textual-serve.

textual-serve runs a small web server whose page holds a terminal (xterm.js); each tab that
opens it gets its own app process, started from a shell command, whose screen travels over a
websocket. The command here is ``tricktable tui`` with the options given, less the serving ones,
so a tab plays exactly the match the same command would play in a terminal.
"""

from __future__ import annotations

import asyncio
import errno
import ipaddress
import os
import shlex
import socket
import sys
from collections.abc import Sequence

from aiohttp import web
from textual_serve.server import Server

from tricktable.errors import TricktableError

#: the serving options that take a value, dropped from the command each tab runs
VALUE_OPTIONS = ("--host", "--port", "--public-url")
#: the serving flags, dropped likewise
FLAG_OPTIONS = ("--serve",)
#: how long a shutdown waits for the open tabs' apps to quit (each saves its record)
QUIT_WAIT_S = 10.0


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


def serve_command(argv: Sequence[str]) -> str:
    """The shell command each browser tab runs: this Python's ``-m tricktable tui`` and
    ``argv`` without the serving options, quoted so that no argument is read by the shell."""
    command = shlex.join([sys.executable, "-m", "tricktable", "tui", *tab_argv(argv)])
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


def bind_problem(host: str, port: int, exc: OSError) -> str:
    """The one-line message for a failed bind of ``host:port``."""
    if exc.errno == errno.EADDRINUSE:
        return f"--port {port}: the port is in use on {host}; choose another with --port"
    if exc.errno == errno.EACCES:
        return f"--port {port}: this user may not serve on that port; choose one above 1023"
    if exc.errno == errno.EADDRNOTAVAIL:
        return f"--host {host!r} is not an address of this machine"
    return f"cannot serve on {host} port {port}: {exc.strerror or exc}"


class TableServer(Server):
    """textual-serve's server, printing one line where to open it, and closing the open tabs'
    apps when it stops (so each quits and saves its record) rather than waiting on them."""

    def __init__(self, command: str, host: str, port: int, public_url: str) -> None:
        super().__init__(command, host=host, port=port, title="tricktable", public_url=public_url)
        self.tabs: set[asyncio.Task[object]] = set()

    async def on_startup(self, app: web.Application) -> None:
        print(
            f"tricktable: the table is at {self.public_url} (open it in a browser; Ctrl+C stops)",
            flush=True,
        )

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        tab = asyncio.current_task()
        if tab is not None:
            self.tabs.add(tab)
        try:
            return await super().handle_websocket(request)
        finally:
            if tab is not None:
                self.tabs.discard(tab)

    async def on_shutdown(self, app: web.Application) -> None:
        # A cancelled tab closes its websocket and sends its app "quit" (textual-serve's own
        # handling); without this aiohttp waits for the browser to leave first.
        tabs = list(self.tabs)
        for tab in tabs:
            tab.cancel()
        if tabs:
            await asyncio.wait(tabs, timeout=QUIT_WAIT_S)


def serve(
    argv: Sequence[str],
    host: str = "127.0.0.1",
    port: int = 8000,
    public_url: str | None = None,
) -> None:
    """Serve ``tricktable tui`` with the options ``argv`` to browsers at ``host:port`` until
    Ctrl+C (or SIGTERM); ``public_url`` is the address browsers reach it by, when that is not
    ``http://host:port`` (behind a proxy, say)."""
    check_address(host, port)
    url = public_url.rstrip("/") if public_url else f"http://{url_host(host)}:{port}"
    TableServer(serve_command(argv), host, port, url).serve()
