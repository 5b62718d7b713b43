"""``tricktable tui --serve``: the table served to browsers by textual-serve, on loopback.

The real server runs in a subprocess; the test is the browser: it fetches the page, then speaks
textual-serve's websocket protocol as its textual.js does (``["resize", {...}]`` in, the app's
terminal output back as binary frames), so a real ``tricktable tui`` process plays behind it.
And the test is a hostile page too: without the token printed at start, from another page's
origin, or through another host name, the server answers 403 and starts no app.
"""

from __future__ import annotations

import asyncio
import os
import re
import shlex
import signal
import socket
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import psutil
import pytest

from tricktable.errors import TricktableError
from tricktable.tui.serve import serve, serve_command, served_hosts, tab_argv, url_host

SRC = Path(__file__).parents[1] / "src"
#: the terminal a tab asks for, as textual.js does from the page's size
WIDTH, HEIGHT = 150, 48
#: text the app draws on its first screen: the start screen's title or the table's header
MARKER = re.compile(r"tricktable|Setback")
ANSI = re.compile(r"\x1b(\[[0-9;?$]*[ -/]*[@-~]|\][^\x07]*\x07|[()][0-9A-Za-z])")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Served:
    """A ``serve`` subprocess on 127.0.0.1 and its port."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.folder = folder
        self.argv = ["--seed", "3", "--serve", "--port", "1"]
        self.log = folder / "server.log"
        env = dict(
            os.environ, PYTHONPATH=os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])
        )
        code = f"from tricktable.tui.serve import serve; serve({self.argv!r}, port={self.port})"
        with self.log.open("w") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-c", code], cwd=folder, env=env, stdout=log, stderr=log
            )

    def wait_until_listening(self, seconds: float = 30.0) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(f"the server exited {self.process.returncode}: {self.output()}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.1)
        pytest.fail(f"the server did not answer in {seconds} s: {self.output()}")

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    @property
    def token(self) -> str:
        """The token the server printed in its address."""
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            found = re.search(r"/\?token=([A-Za-z0-9_-]+) ", self.output())
            if found:
                return found[1]
            time.sleep(0.05)
        pytest.fail(f"no token in what the server printed: {self.output()}")

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def tabs(self) -> list[Path]:
        """The tabs' folders."""
        return list((self.folder / "records" / "tabs").iterdir())

    def apps(self) -> list[psutil.Process]:
        """The live processes under the server (one app per open tab)."""
        try:
            kids = psutil.Process(self.process.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            return []
        return [k for k in kids if alive(k)]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def alive(process: psutil.Process) -> bool:
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


async def wait_gone(process: psutil.Process, seconds: float = 20.0) -> None:
    """Wait until ``process`` has ended: a hang guard, not a timing claim."""
    deadline = time.monotonic() + seconds
    while alive(process):
        if time.monotonic() > deadline:
            process.kill()
            raise AssertionError(f"the app process {process.pid} outlived its tab")
        await asyncio.sleep(0.05)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    server = Served(tmp_path)
    try:
        server.wait_until_listening()
        yield server
    finally:
        leftovers = server.apps()
        server.stop()
        for app in leftovers:
            app.kill()
        assert not leftovers, f"processes left behind: {leftovers}"


async def open_tab(
    session: aiohttp.ClientSession, served: Served
) -> aiohttp.ClientWebSocketResponse:
    """Connect as textual.js does from the table's page: the token in the path, the size in
    the query, the page's origin; then a resize message."""
    url = f"ws://127.0.0.1:{served.port}/ws/{served.token}?width={WIDTH}&height={HEIGHT}"
    ws = await session.ws_connect(url, origin=served.origin)
    await ws.send_json(["resize", {"width": WIDTH, "height": HEIGHT}])
    return ws


async def screen_text(ws: aiohttp.ClientWebSocketResponse, seconds: float = 45.0) -> str:
    """The app's output as plain text, read until its first screen shows ``MARKER``."""
    output = b""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        message = await ws.receive(timeout=deadline - time.monotonic())
        if message.type != aiohttp.WSMsgType.BINARY:
            raise AssertionError(f"the tab got {message.type.name} before the table: {output!r}")
        output += message.data
        text = ANSI.sub("", output.decode("utf-8", "replace"))
        if MARKER.search(text):
            return text
    raise AssertionError(f"no {MARKER.pattern!r} in the app's output: {output[-2000:]!r}")


def test_the_page_serves_the_table_and_each_tab_gets_its_own_app(served: Served) -> None:
    port, token = served.port, served.token

    async def browse() -> None:
        async with aiohttp.ClientSession() as session:
            async with session.get(f"http://127.0.0.1:{port}/?token={token}") as page:
                assert page.status == 200
                assert page.content_type == "text/html"
                html = await page.text()
            assert 'class="textual-terminal"' in html
            assert f'data-session-websocket-url="ws://127.0.0.1:{port}/ws/{token}"' in html
            assert f"http://127.0.0.1:{port}/static/js/textual.js" in html
            assert "<div>tricktable</div>" in html
            async with session.get(f"http://127.0.0.1:{port}/static/js/textual.js") as script:
                assert script.status == 200

            # First tab: the app runs, draws its screen, and quits when the tab closes.
            ws = await open_tab(session, served)
            await screen_text(ws)
            (app,) = served.apps()
            # One process per tab (no shell between), in a folder of its own, with the options
            # less the serving ones.
            (first,) = served.tabs()
            assert stat.S_IMODE(first.stat().st_mode) == 0o700
            tab = [sys.executable, "-m", "tricktable.tui.tab", "records/tabs/" + first.name]
            assert app.cmdline() == [*tab, "--seed", "3"]
            await ws.close()
            await wait_gone(app)

            # Second tab, still open when the server is stopped by Ctrl+C: its app quits too.
            ws = await open_tab(session, served)
            await screen_text(ws)
            (app,) = served.apps()
            (second,) = set(served.tabs()) - {first}  # a new folder, the first one kept
            assert app.cmdline()[3] == "records/tabs/" + second.name
            served.process.send_signal(signal.SIGINT)
            # A hang guard: without closing its tabs aiohttp's shutdown waits ~20 s for them.
            closed = await ws.receive(timeout=15)
            while closed.type == aiohttp.WSMsgType.BINARY:  # the screen still being drawn
                closed = await ws.receive(timeout=15)
            assert closed.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
            await wait_gone(app)
            await ws.close()

    asyncio.run(browse())
    assert served.process.wait(timeout=20) == 0
    assert f"tricktable: the table is at http://127.0.0.1:{port}/?token={token} " in served.output()
    assert "Traceback" not in served.output()


def test_serve_command_drops_only_the_serving_options() -> None:
    argv = ["--serve", "--game", "setback(target=11)", "--host", "0.0.0.0", "--port=8001"]
    argv += ["--seed", "7", "--port", "9", "--host=::1", "--public-url", "http://x", "--ascii"]
    assert tab_argv(argv) == ["--game", "setback(target=11)", "--seed", "7", "--ascii"]
    # After "--" everything is an argument, passed on as given.
    assert tab_argv(["--seed", "1", "--", "--port", "2"]) == ["--seed", "1", "--", "--port", "2"]
    assert tab_argv([]) == []


def test_serve_command_quotes_every_argument_for_the_shell() -> None:
    hostile = ["--rules", "a b;rm -rf x $(id) `id` 'q' \"d\".toml", "--players", "you,edna,*,rosa"]
    command = serve_command(["--serve", *hostile], Path("records/tabs/t 1;x"))
    assert command.startswith("exec ")
    words = shlex.split(command.removeprefix("exec "))
    assert words == [sys.executable, "-m", "tricktable.tui.tab", "records/tabs/t 1;x", *hostile]


def test_the_shell_runs_the_command_as_one_process_with_the_arguments_intact(
    tmp_path: Path,
) -> None:
    # The real /bin/sh, as textual-serve's create_subprocess_shell uses it, with a stand-in for
    # "python -m tricktable" that prints its arguments: quoting survives, nothing else runs.
    command = serve_command(["--rules", "$HOME/a b;touch pwned", "--serve"], Path("t"))
    command = command.replace("-m tricktable.tui.tab", "-c 'import sys; print(sys.argv[1:])'")
    result = subprocess.run(
        ["/bin/sh", "-c", command], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == str(["t", "--rules", "$HOME/a b;touch pwned"])
    assert not (tmp_path / "pwned").exists()


def test_a_port_in_use_is_one_clear_error() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(TricktableError, match=rf"^--port {port}: the port is in use") as error:
            serve(["--seed", "1"], host="127.0.0.1", port=port)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize(
    ("host", "port", "message"),
    [
        ("127.0.0.1", 0, r"^--port 0: a port is a number from 1 to 65535$"),
        ("127.0.0.1", 65536, r"^--port 65536: a port is"),
        ("127.0.0.1", -5, r"^--port -5: a port is"),
        ("bad host!", 8000, r"^--host 'bad host!' is not an address \("),
        ("192.0.2.1", 8000, r"^--host '192.0.2.1' is not an address of this machine$"),
        ("", 8000, r"^--host is empty"),
    ],
)
def test_a_bad_host_or_port_is_one_clear_error(host: str, port: int, message: str) -> None:
    with pytest.raises(TricktableError, match=message) as error:
        serve(["--seed", "1"], host=host, port=port)
    assert "\n" not in str(error.value)


def test_urls_write_the_host_as_browsers_need_it() -> None:
    assert url_host("127.0.0.1") == "127.0.0.1"
    assert url_host("localhost") == "localhost"
    assert url_host("::1") == "[::1]"
    assert url_host("0.0.0.0") == socket.gethostname()


# ------------------------------------------------------------------------------------ doors


def test_without_the_token_nothing_is_served_but_the_scripts(served: Served) -> None:
    port, token = served.port, served.token
    assert len(token) >= 32  # secrets.token_urlsafe(24)

    async def knock() -> None:
        async with aiohttp.ClientSession() as session:
            base = f"http://127.0.0.1:{port}"
            for path in ("/", "/?token=", f"/?token={token[:-1]}", f"/?token={token}x"):
                async with session.get(base + path) as page:
                    assert page.status == 403, path
                    assert token not in await page.text()
            async with session.get(f"{base}/static/js/textual.js") as script:
                assert script.status == 200
            for path in ("/ws", "/ws/", f"/ws/{token[::-1]}", f"/ws?token={token}"):
                with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                    await session.ws_connect(base + path, origin=served.origin)
                assert refused.value.status in (403, 404), path

    asyncio.run(knock())
    assert served.apps() == [] and served.tabs() == []  # no app started, no folder made


def test_a_websocket_from_another_page_is_refused(served: Served) -> None:
    # What a page of another site the person visits would do: its origin, the right path (a
    # token leaked, say, or guessed) — refused before any app starts.
    port, token = served.port, served.token
    url = f"ws://127.0.0.1:{port}/ws/{token}?width={WIDTH}&height={HEIGHT}"

    async def knock() -> None:
        async with aiohttp.ClientSession() as session:
            for origin in (
                "http://evil.example",
                f"http://evil.example:{port}",
                f"http://127.0.0.1:{port + 1}",
                f"https://127.0.0.1.evil.example:{port}",
                "null",
                None,
            ):
                with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                    await session.ws_connect(url, origin=origin)
                assert refused.value.status == 403, origin
            assert served.apps() == [] and served.tabs() == []
            # The same page reached as localhost is the table's own page: let in.
            ws = await session.ws_connect(url, origin=f"http://localhost:{port}")
            await ws.send_json(["resize", {"width": WIDTH, "height": HEIGHT}])
            await screen_text(ws)
            (app,) = served.apps()
            await ws.close()
            await wait_gone(app)

    asyncio.run(knock())


def test_another_host_name_is_refused_even_with_the_token(served: Served) -> None:
    # DNS rebinding: a name of another site pointed at 127.0.0.1 makes the browser send that
    # name as the Host, and its page as the origin.
    port, token = served.port, served.token

    async def knock() -> None:
        async with aiohttp.ClientSession() as session:
            for host in (f"evil.example:{port}", "evil.example", f"127.0.0.1:{port + 1}"):
                headers = {"Host": host}
                async with session.get(
                    f"http://127.0.0.1:{port}/?token={token}", headers=headers
                ) as page:
                    assert page.status == 403, host
                with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                    await session.ws_connect(
                        f"ws://127.0.0.1:{port}/ws/{token}",
                        origin=f"http://{host}",
                        headers=headers,
                    )
                assert refused.value.status == 403, host
            async with session.get(
                f"http://127.0.0.1:{port}/?token={token}", headers={"Host": f"localhost:{port}"}
            ) as page:
                assert page.status == 200

    asyncio.run(knock())
    assert served.apps() == []


@pytest.mark.parametrize("option", ["--save", "--resume", "--save=x.json"])
def test_a_served_table_never_shares_a_record_path(option: str, tmp_path: Path) -> None:
    argv = ["--seed", "1", option] + ([] if "=" in option else [str(tmp_path / "x.json")])
    with pytest.raises(TricktableError, match="each tab a match of its own") as error:
        serve(argv, port=free_port(), tabs=tmp_path / "tabs")
    assert "\n" not in str(error.value) and not (tmp_path / "tabs").exists()


def test_the_hosts_a_browser_may_name() -> None:
    loopback = served_hosts("127.0.0.1", 8000, "http://127.0.0.1:8000")
    assert loopback == {"127.0.0.1:8000", "localhost:8000", "[::1]:8000"}
    assert served_hosts("::1", 9, "http://[::1]:9") == {"[::1]:9", "localhost:9", "127.0.0.1:9"}
    behind = served_hosts("127.0.0.1", 8000, "https://cards.example.org")
    assert "cards.example.org" in behind and "127.0.0.1:8000" in behind
    everywhere = served_hosts("0.0.0.0", 8000, f"http://{socket.gethostname()}:8000")
    assert f"{socket.gethostname().lower()}:8000" in everywhere and "localhost:8000" in everywhere
    assert not any(name.startswith("evil") for name in everywhere)


def test_on_every_interface_any_address_of_the_machine_is_served_but_no_other_name() -> None:
    from tricktable.tui.serve import TableServer

    everywhere = TableServer(["--seed", "1"], "0.0.0.0", 8000, "http://x:8000", "t")
    assert everywhere.serves("127.0.0.1:8000") and everywhere.serves("127.0.0.2:8000")
    assert everywhere.serves("LOCALHOST:8000") and everywhere.serves("[::1]:8000")
    assert not everywhere.serves("127.0.0.1:8001")  # another port
    assert not everywhere.serves("192.0.2.1:8000")  # an address of another machine
    assert not everywhere.serves("evil.example:8000")  # a name pointed here
    assert everywhere.own_page("http://127.0.0.1:8000")
    assert not everywhere.own_page("http://127.0.0.1:8000/x")
    assert not everywhere.own_page("ftp://127.0.0.1:8000") and not everywhere.own_page("")
    loopback = TableServer(["--seed", "1"], "127.0.0.1", 8000, "http://127.0.0.1:8000", "t")
    assert loopback.serves("localhost:8000") and not loopback.serves("127.0.0.2:8000")
