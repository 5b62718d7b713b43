"""Bot endpoints a server may call (tricktable.protocols.endpoints), against real servers on
127.0.0.1.

Names of the tests' own (``public.test``, ``bot.private.test``, ``internal.test``) are given
addresses by resolvers the tests inject. Every connection this process opens while a test
watches is seen by an audit hook (``socket.connect``): the hook records it, and stops any that
would leave loopback, so a test proves that a refused endpoint was never dialled and nothing
here can reach another machine even if the guard were broken.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import ipaddress
import json
import socket
import ssl
import sys
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import aiohttp
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tricktable.errors import BotError, TricktableError
from tricktable.protocols.endpoints import (
    MAX_REDIRECTS,
    EndpointFailed,
    EndpointPolicy,
    EndpointRefused,
    Resolver,
    address_refusal,
    check_url,
    checked_connector,
    endpoint_client,
    post_json,
    system_resolver,
)

# ----------------------------------------------------------------- every connection, watched

LOOPBACK = ("127.0.0.1", "::1")


class _Watch:
    """What the audit hook saw while ``on``; hooks cannot be removed, so it is switched."""

    on = False
    connects: ClassVar[list[Any]] = []


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if event != "socket.connect" or not _Watch.on:
        return
    address = args[1]
    _Watch.connects.append(address)
    host = address[0] if isinstance(address, tuple) else address
    if host not in LOOPBACK:
        raise ConnectionRefusedError(f"test guard: stopped a connection to {address!r}")


sys.addaudithook(_audit)


@pytest.fixture
def connects() -> Iterator[list[Any]]:
    """The addresses of every ``socket.connect`` during the test (only loopback ever passes)."""
    _Watch.connects = []
    _Watch.on = True
    try:
        yield _Watch.connects
    finally:
        _Watch.on = False


def resolver(table: dict[str, list[str]]) -> Resolver:
    """A resolver that knows the names in ``table`` and no other."""

    async def resolve(host: str, port: int) -> list[str]:
        if host not in table:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return table[host]

    return resolve


LOOPBACK_ONLY = EndpointPolicy(also_allow=("127.0.0.0/8",))

# ----------------------------------------------------------------------- a bot on loopback


def response(status: str, body: bytes, *headers: str) -> bytes:
    lines = [f"HTTP/1.1 {status}", f"Content-Length: {len(body)}", "Connection: close"]
    return ("\r\n".join([*lines, *headers]) + "\r\n\r\n").encode() + body


@dataclass
class Bot:
    """An HTTP endpoint on 127.0.0.1 answering by path; ``seen`` is (method, path, Host)."""

    port: int = 0
    seen: list[tuple[str, str, str]] = field(default_factory=list)
    sni: list[str | None] = field(default_factory=list)

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
            method, path, _ = head[0].split(" ", 2)
            headers = {
                k.strip().lower(): v.strip()
                for k, _, v in (x.partition(":") for x in head[1:] if x)
            }
            body = await reader.readexactly(int(headers.get("content-length", "0")))
            self.seen.append((method, path, headers.get("host", "")))
            await self.answer(path, headers, body, writer)
            await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError):
            pass  # the client hung up: the point of several tests
        finally:
            writer.close()

    async def answer(
        self, path: str, headers: dict[str, str], body: bytes, writer: asyncio.StreamWriter
    ) -> None:
        if path == "/json":
            got = json.loads(body) if body else None
            answer = {"card": "Ac", "host": headers.get("host"), "got": got}
            writer.write(response("200 OK", json.dumps(answer).encode()))
        elif path == "/hang":
            await asyncio.Event().wait()  # accepted, read, never answered
        elif path in ("/big", "/big-chunked"):
            chunked = path == "/big-chunked"
            length = "Transfer-Encoding: chunked" if chunked else "Content-Length: 10000000"
            writer.write(f"HTTP/1.1 200 OK\r\n{length}\r\n\r\n".encode())
            block = b"[" * 65536
            for _ in range(10_000_000 // len(block)):
                writer.write(b"10000\r\n" + block + b"\r\n" if chunked else block)
                await writer.drain()
        elif path.startswith("/to/"):
            target = path.removeprefix("/to/").replace("PORT", str(self.port))
            writer.write(response("307 Temporary Redirect", b"", f"Location: {target}"))
        else:
            writer.write(FIXED.get(path, response("404 Not Found", b"no such path")))


#: the answers that are always the same, by path
FIXED = {
    "/empty": response("200 OK", b""),
    "/garbage": response("200 OK", b"<html>I am a web page</html>"),
    "/latin": response("200 OK", '{"card": "Dé"}'.encode("latin-1")),
    "/deep": response("200 OK", b"[" * 60_000),
    "/gzip": response("200 OK", b"\x1f\x8b...", "Content-Encoding: gzip"),
    "/error": response("500 Internal Server Error", b"Traceback: KeyError 'hand'"),
    "/nonsense": b"hello there\r\n\r\n",
    "/loop": response("307 Temporary Redirect", b"", "Location: /loop"),
}


@contextlib.asynccontextmanager
async def serving(tls: ssl.SSLContext | None = None) -> AsyncIterator[Bot]:
    bot = Bot()
    if tls is not None:
        tls.sni_callback = lambda sock, name, ctx: bot.sni.append(name)
    server = await asyncio.start_server(bot.handle, "127.0.0.1", 0, ssl=tls)
    bot.port = server.sockets[0].getsockname()[1]
    async with server:
        yield bot


def run(main: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(main())


def one_line(exc: BaseException) -> str:
    text = str(exc)
    assert "\n" not in text and text, text
    return text


# -------------------------------------------------------------------- refused before dialling

PRIVATE = [
    ("10.1.2.3", "a private or special-purpose address"),
    ("192.168.1.5", "a private or special-purpose address"),
    ("169.254.169.254", "a link-local address (where cloud metadata answers)"),
    ("::1", "a loopback address"),
    ("fe80::1", "a link-local address (where cloud metadata answers)"),
    ("::ffff:10.0.0.1", "the IPv4-mapped form of 10.0.0.1, a private or special-purpose address"),
    ("100.64.0.1", "a shared address (100.64.0.0/10, carrier-grade NAT)"),
    ("0.0.0.0", "an unspecified address"),
    ("127.0.0.1", "a loopback address"),
    ("224.0.0.1", "a multicast address"),
    ("240.0.0.1", "a reserved address"),
    ("fec0::1", "a site-local address"),
    ("fd00::5", "a private or special-purpose address"),
    ("64:ff9b::a9fe:a9fe", "the NAT64 form of 169.254.169.254, a link-local address"),
    ("2002:a00:1::", "the 6to4 form of 10.0.0.1, a private or special-purpose address"),
]


@pytest.mark.parametrize(("address", "why"), PRIVATE)
def test_a_name_resolving_to_a_private_address_is_refused_before_any_connection(
    address: str, why: str, connects: list[Any]
) -> None:
    async def main() -> None:
        async with endpoint_client(resolver=resolver({"bot.private.test": [address]})) as client:
            with pytest.raises(EndpointRefused) as caught:
                await post_json(client, "http://bot.private.test/spades", {}, time_limit=5)
            line = one_line(caught.value)
            shown = ipaddress.ip_address(address)  # ::ffff:10.0.0.1 is ::ffff:a00:1 before 3.13
            assert line.startswith(
                f"bot endpoint 'http://bot.private.test/spades' resolves to {shown}, {why}"
            ), line
            assert line.endswith(
                ": refused; only a server started with --allow-local-bots calls such addresses"
            )
            assert caught.value.address == str(shown) and isinstance(caught.value, BotError)
            # The client alone (no post_json) refuses the same way.
            with pytest.raises(EndpointRefused, match="resolves to"):
                await client.get("https://bot.private.test:8443/")
            with pytest.raises(EndpointRefused) as caught:  # no path: still no redirect
                await post_json(client, "http://bot.private.test", {}, time_limit=5)
            assert "redirect" not in str(caught.value)

    run(main)
    assert connects == []


def test_one_refused_address_among_permitted_ones_refuses_the_name(connects: list[Any]) -> None:
    """Dialling the first good address would leave the bad one for a reconnect to find."""
    names = resolver({"public.test": ["127.0.0.1", "10.0.0.1", "192.168.0.1"]})

    async def main() -> None:
        async with endpoint_client(LOOPBACK_ONLY, resolver=names) as client:
            with pytest.raises(EndpointRefused) as caught:
                await post_json(client, "http://public.test:9/json", {}, time_limit=5)
            assert "resolves to 10.0.0.1 (and 1 more), a private" in one_line(caught.value)

    run(main)
    assert connects == []


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("http://127.0.0.1:{port}/json", "resolves to 127.0.0.1, a loopback address"),
        ("http://[::ffff:127.0.0.1]:{port}/json", "the IPv4-mapped form of 127.0.0.1"),
        ("http://localhost:{port}/json", "a loopback address"),
        ("http://2130706433:{port}/json", "resolves to 127.0.0.1, a loopback address"),
        ("http://127.1:{port}/json", "resolves to 127.0.0.1, a loopback address"),
    ],
)
def test_the_system_resolver_and_literals_are_checked(
    url: str, why: str, connects: list[Any]
) -> None:
    """Literals, localhost (/etc/hosts) and numbers getaddrinfo reads as addresses."""

    async def main() -> None:
        async with serving() as bot, endpoint_client() as client:
            with pytest.raises(EndpointRefused, match=why):
                await post_json(client, url.format(port=bot.port), {}, time_limit=5)
            assert bot.seen == []

    run(main)
    assert connects == []


def test_the_system_resolver_gives_addresses_as_text() -> None:
    assert "127.0.0.1" in asyncio.run(system_resolver("localhost", 80))


# -------------------------------------------------------------------------------- redirects


def test_a_redirect_to_a_private_address_is_refused_before_dialling(connects: list[Any]) -> None:
    names = resolver({"public.test": ["127.0.0.1"], "internal.test": ["10.9.9.9"]})

    async def main() -> None:
        async with serving() as bot, endpoint_client(LOOPBACK_ONLY, resolver=names) as client:
            url = f"http://public.test:{bot.port}/to/http://internal.test:PORT/json"
            with pytest.raises(EndpointRefused) as caught:
                await post_json(client, url, {"hand": 1}, time_limit=5)
            assert one_line(caught.value).startswith(
                f"bot endpoint 'http://internal.test:{bot.port}/json' (a redirect from "
                f"'{url}') resolves to 10.9.9.9, a private or special-purpose address: refused"
            )
            assert bot.seen == [("POST", url.split(str(bot.port))[1], f"public.test:{bot.port}")]
            # The client's own redirects pass through the same check.
            with pytest.raises(EndpointRefused, match=r"internal\.test.*10\.9\.9\.9"):
                await client.post(url, json={})
            assert connects == [("127.0.0.1", bot.port)] * 2

    run(main)


@pytest.mark.parametrize(
    ("target", "why"),
    [
        ("ftp://public.test/bot", "the scheme is 'ftp'"),
        ("file:///etc/passwd", "the scheme is 'file'"),
        ("http://user:secret@public.test:PORT/json", "a user name or password"),
        ("http://[::ffff:10.0.0.1]:PORT/json", "IPv4-mapped form of 10.0.0.1"),
        ("http://169.254.169.254/latest/meta-data/", "a link-local address"),
        ("http://public.test:99999/json", "the port is 99999"),
    ],
)
def test_redirects_to_other_schemes_and_addresses_are_refused(
    target: str, why: str, connects: list[Any]
) -> None:
    names = resolver({"public.test": ["127.0.0.1"]})

    async def main() -> None:
        async with serving() as bot, endpoint_client(LOOPBACK_ONLY, resolver=names) as client:
            url = f"http://public.test:{bot.port}/to/{target}"
            with pytest.raises(EndpointRefused, match=why) as caught:
                await post_json(client, url, {}, time_limit=5)
            assert f"(a redirect from '{url}')" in one_line(caught.value)
            assert connects == [("127.0.0.1", bot.port)]

    run(main)


def test_a_redirect_loop_stops_after_the_limit(connects: list[Any]) -> None:
    async def main() -> None:
        names = resolver({"public.test": ["127.0.0.1"]})
        async with serving() as bot, endpoint_client(LOOPBACK_ONLY, resolver=names) as client:
            url = f"http://public.test:{bot.port}/loop"
            with pytest.raises(EndpointFailed) as caught:
                await post_json(client, url, {}, time_limit=5)
            assert one_line(caught.value) == f"POST {url}: more than {MAX_REDIRECTS} redirects"
            assert caught.value.kind == "malformed"
            assert len(bot.seen) == MAX_REDIRECTS + 1

    run(main)


def test_a_permitted_redirect_is_followed_with_its_own_host() -> None:
    names = resolver({"public.test": ["127.0.0.1"], "other.test": ["127.0.0.2"]})

    async def main() -> None:
        async with serving() as bot, endpoint_client(LOOPBACK_ONLY, resolver=names) as client:
            # 127.0.0.2 is loopback too, but the server listens on 127.0.0.1 only: the hop
            # is dialled at the address its own name resolved to, not the first hop's.
            url = f"http://public.test:{bot.port}/to/http://other.test:PORT/json"
            with pytest.raises(EndpointFailed, match="connection failed") as caught:
                await post_json(client, url, {}, time_limit=5)
            assert caught.value.kind == "closed"
            url = f"http://public.test:{bot.port}/to/http://public.test:PORT/json"
            answer = await post_json(client, url, {"n": 1}, time_limit=5)
            assert answer == {"card": "Ac", "host": f"public.test:{bot.port}", "got": {"n": 1}}

    run(main)


# ----------------------------------------------------------------------- permitted endpoints


def test_allow_local_reaches_a_loopback_bot(connects: list[Any]) -> None:
    names = resolver({"public.test": ["127.0.0.1"]})

    async def main() -> None:
        policy = EndpointPolicy(allow_local=True)
        async with serving() as bot, endpoint_client(policy, resolver=names) as client:
            url = f"http://127.0.0.1:{bot.port}/json"
            answer = await post_json(client, url, {"hand": ["As"]}, time_limit=5)
            assert answer == {
                "card": "Ac",
                "host": f"127.0.0.1:{bot.port}",
                "got": {"hand": ["As"]},
            }
            # By name: dialled at the address, asked with the name (the Host header).
            answer = await post_json(client, f"http://public.test:{bot.port}/json", 7, time_limit=5)
            assert answer["host"] == f"public.test:{bot.port}"
            empty = f"http://public.test:{bot.port}/empty"
            assert await post_json(client, empty, {}, time_limit=5, expect_json=False) is None

    run(main)
    assert [address[0] for address in connects] == ["127.0.0.1"] * 3


def test_a_narrowed_policy_permits_its_network_and_nothing_else_local(connects: list[Any]) -> None:
    names = resolver({"public.test": ["127.0.0.1"], "six.test": ["::1"], "lan.test": ["10.0.0.7"]})

    async def main() -> None:
        async with serving() as bot, endpoint_client(LOOPBACK_ONLY, resolver=names) as client:
            answer = await post_json(client, f"http://public.test:{bot.port}/json", 1, time_limit=5)
            assert answer["got"] == 1
            for name in ("six.test", "lan.test"):
                with pytest.raises(EndpointRefused):
                    await post_json(client, f"http://{name}:{bot.port}/json", 1, time_limit=5)

    run(main)
    assert connects == [("127.0.0.1", connects[0][1])]


def test_each_connection_is_checked_and_dialled_at_the_address_checked(
    connects: list[Any],
) -> None:
    """A name that turns private between two calls (DNS rebinding) is refused the second time;
    within one connection it is resolved once, and the socket goes where the check said."""
    answers = [["127.0.0.1"], ["10.0.0.1"]]
    asked: list[str] = []

    async def rebinding(host: str, port: int) -> list[str]:
        asked.append(host)
        return answers[len(asked) - 1]

    async def main() -> None:
        async with serving() as bot, endpoint_client(LOOPBACK_ONLY, resolver=rebinding) as client:
            url = f"http://public.test:{bot.port}/json"
            assert (await post_json(client, url, {}, time_limit=5))["card"] == "Ac"
            with pytest.raises(EndpointRefused, match=r"resolves to 10\.0\.0\.1"):
                await post_json(client, url, {}, time_limit=5)  # the bot closed the first
            assert connects == [("127.0.0.1", bot.port)]

    run(main)
    assert asked == ["public.test", "public.test"]


def self_signed(folder: Path, name: str) -> tuple[Path, Path]:
    """A certificate for the host ``name``, its own authority, and its key (PEM files)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
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


def test_tls_keeps_the_name_while_dialling_the_address(tmp_path: Path) -> None:
    cert, key = self_signed(tmp_path, "public.test")
    server = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server.load_cert_chain(cert, key)
    trust = ssl.create_default_context(cafile=str(cert))
    names = resolver({"public.test": ["127.0.0.1"], "other.test": ["127.0.0.1"]})

    async def main() -> None:
        async with serving(tls=server) as bot:
            async with endpoint_client(LOOPBACK_ONLY, resolver=names, verify=trust) as client:
                url = f"https://public.test:{bot.port}/json"
                answer = await post_json(client, url, {"tls": True}, time_limit=5)
                assert answer["host"] == f"public.test:{bot.port}"
                # The certificate is checked against the URL's name, not the address dialled.
                with pytest.raises(EndpointFailed, match="CERTIFICATE_VERIFY_FAILED"):
                    await post_json(client, f"https://other.test:{bot.port}/json", 1, time_limit=5)
            assert bot.sni[0] == "public.test"
            assert "other.test" in bot.sni

    run(main)


def test_the_environment_s_proxies_are_ignored(
    monkeypatch: pytest.MonkeyPatch, connects: list[Any]
) -> None:
    """A proxy would dial for us, unchecked: the client takes none from the environment."""

    async def main() -> None:
        async with serving() as proxy, serving() as bot:
            for variable in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "all_proxy"):
                monkeypatch.setenv(variable, f"http://127.0.0.1:{proxy.port}")
            names = resolver({"public.test": ["127.0.0.1"], "bot.private.test": ["10.0.0.1"]})
            async with endpoint_client(LOOPBACK_ONLY, resolver=names) as client:
                assert await post_json(
                    client, f"http://public.test:{bot.port}/json", 1, time_limit=5
                )
                with pytest.raises(EndpointRefused):
                    await post_json(client, "http://bot.private.test/json", 1, time_limit=5)
            assert proxy.seen == [] and len(bot.seen) == 1

    run(main)
    assert len(connects) == 1


# ----------------------------------------------------------------- one deadline, one line each


def failure(path: str, time_limit: float = 5, names: Resolver | None = None) -> EndpointFailed:
    """The one-line failure of calling ``path`` of a loopback bot."""
    caught: list[EndpointFailed] = []

    async def main() -> None:
        resolve = names or resolver({"public.test": ["127.0.0.1"]})
        async with serving() as bot, endpoint_client(LOOPBACK_ONLY, resolver=resolve) as client:
            url = f"http://public.test:{bot.port}{path}"
            try:
                await post_json(client, url, {"hand": 1}, time_limit=time_limit)
            except EndpointFailed as exc:
                assert str(exc).startswith(f"POST {url}: ")
                caught.append(exc)

    run(main)
    assert caught, f"{path} did not fail"
    one_line(caught[0])
    return caught[0]


@pytest.mark.parametrize(
    ("path", "kind", "detail"),
    [
        ("/hang", "timeout", "no complete answer within 0.5 s"),
        ("/big", "flood", "the answer is longer than 65536 bytes"),
        ("/big-chunked", "flood", "the answer is longer than 65536 bytes"),
        ("/garbage", "malformed", "answered '<html>I am a web page</html>', not JSON"),
        ("/deep", "malformed", "not JSON"),
        ("/latin", "encoding", "the answer is not UTF-8 (byte 11)"),
        ("/gzip", "malformed", "the answer is 'gzip'-encoded; none was asked for"),
        (
            "/error",
            "crash",
            "HTTP 500 'Internal Server Error'; body \"Traceback: KeyError 'hand'\"",
        ),
        ("/nonsense", "malformed", "not an HTTP answer"),
    ],
)
def test_every_failure_is_one_line_of_its_kind(
    path: str, kind: str, detail: str, connects: list[Any]
) -> None:
    exc = failure(path, time_limit=0.5 if path == "/hang" else 5)
    assert exc.kind == kind
    assert detail in exc.detail, exc.detail
    assert all(address[0] == "127.0.0.1" for address in connects)


def test_a_resolver_that_never_answers_stops_at_the_deadline() -> None:
    async def silent(host: str, port: int) -> list[str]:
        await asyncio.Event().wait()
        return []

    exc = failure("/json", time_limit=0.3, names=silent)
    assert exc.kind == "timeout" and exc.detail == "no complete answer within 0.3 s"


def test_no_connection_and_no_name_are_closed() -> None:
    exc = failure("/json", names=resolver({}))
    assert exc.kind == "closed"
    assert (
        exc.detail == "connection failed: public.test does not resolve: Name or service not known"
    )

    async def main() -> None:
        with socket.socket() as idle:
            idle.bind(("127.0.0.1", 0))  # bound, never listening: connections are refused
            port = idle.getsockname()[1]
            async with endpoint_client(EndpointPolicy(allow_local=True)) as client:
                with pytest.raises(EndpointFailed, match="connection failed") as caught:
                    await post_json(client, f"http://127.0.0.1:{port}/", 1, time_limit=5)
                assert caught.value.kind == "closed"
                one_line(caught.value)

    run(main)


# ----------------------------------------------------------------------------- the URL's form


WRITE = "write http://HOST[:PORT]/PATH or https://..."


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("ftp://bot.test/", f"the scheme is 'ftp'; {WRITE}"),
        ("bot.test/spades", f"no scheme; {WRITE}"),
        ("http:///spades", f"no host; {WRITE}"),
        ("http://me:pw@bot.test/", "a user name or password in a bot's URL is not allowed"),
        ("http://bot.test:0/", "the port is 0, not 1-65535"),
        ("http://bot.test:70000/", "the port is 70000, not 1-65535"),
        ("http://bot.test:-1/", "the port is -1, not 1-65535"),
        ("http://bot test/", "the host 'bot%20test' is not a host name"),
        ("http://[::1/", "not a URL: Invalid port: ':1'"),
        ("http://Ⓐ.test/", "not a URL: Invalid IDNA hostname: 'Ⓐ.test'"),
    ],
)
def test_a_bad_url_is_one_line(url: str, why: str) -> None:
    with pytest.raises(EndpointRefused) as caught:
        check_url(url)
    assert one_line(caught.value) == f"bot endpoint {url!r}: {why}"
    assert caught.value.address is None


def test_good_urls_pass_as_httpx_will_send_them() -> None:
    assert str(check_url(" HTTPS://Bot.Example:8443/spades?key=1 ")) == (
        "https://bot.example:8443/spades?key=1"
    )
    assert check_url("http://[2001:db8::1]/").host == "2001:db8::1"
    assert check_url("http://bücher.example/").raw_host == b"xn--bcher-kva.example"


def test_a_bad_network_in_a_policy_is_one_line() -> None:
    with pytest.raises(TricktableError, match=r"^bad network '10\.0\.0\.0/33' in also_allow: "):
        EndpointPolicy(also_allow=("10.0.0.0/33",))
    assert EndpointPolicy(also_allow=("fd00::/8",)).refusal(ipaddress.ip_address("fd00::1")) is None


# --------------------------------------------------------------------- the rule, against ipaddress

SPECIAL = [
    "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
    "192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24", "192.168.0.0/16", "198.18.0.0/15",
    "198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4", "::/8", "64:ff9b::/96",
    "64:ff9b:1::/48", "100::/64", "2001::/23", "2001:db8::/32", "2002::/16", "fc00::/7",
    "fe80::/10", "fec0::/10", "ff00::/8", "4000::/3",
]  # fmt: skip

ADDRESSES = st.one_of(
    st.ip_addresses(),
    st.sampled_from(SPECIAL).flatmap(lambda net: st.ip_addresses(network=net)),
    st.ip_addresses(v=4).map(lambda a: ipaddress.IPv6Address(f"::ffff:{a}")),
    st.ip_addresses(v=4).map(lambda a: ipaddress.IPv6Address(int(a) | (0x64FF9B << 96))),
    st.ip_addresses(v=4).map(lambda a: ipaddress.IPv6Address((0x2002 << 112) | (int(a) << 80))),
)


def inside(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 one stands for (mapped, NAT64, 6to4), as the rule reads it."""
    if isinstance(address, ipaddress.IPv4Address):
        return None
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address in ipaddress.IPv6Network("64:ff9b::/96"):
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return address.sixtofour


@given(ADDRESSES)
def test_the_rule_agrees_with_ipaddress_is_global_but_where_it_is_stricter(
    address: ipaddress.IPv4Address | ipaddress.IPv6Address,
) -> None:
    """Never more permissive than ``is_global``; stricter exactly for multicast, reserved and
    site-local addresses ``ipaddress`` calls global, and for an IPv6 form of a refused IPv4
    address (the connection goes to the IPv4 one)."""
    why = address_refusal(address)
    ipv4 = inside(address)
    if why is None:
        assert address.is_global
        assert ipv4 is None or ipv4.is_global
    elif address.is_global:
        site_local = isinstance(address, ipaddress.IPv6Address) and address.is_site_local
        stricter = address.is_multicast or address.is_reserved or site_local
        assert stricter or (ipv4 is not None and address_refusal(ipv4) is not None), why
        if ipv4 is not None and address_refusal(ipv4) is not None:
            assert why.startswith("the ") and str(ipv4) in why
    # allow_local lifts the rule; an extra network permits what is in it
    assert EndpointPolicy(allow_local=True).refusal(address) is None
    assert (
        EndpointPolicy(also_allow=(f"{address}/{address.max_prefixlen}",)).refusal(address) is None
    )


# ------------------------------------------------- aiohttp's connector (the HTTP bots' client)


def checked_session(names: Resolver, policy: EndpointPolicy = LOOPBACK_ONLY) -> Any:
    """An aiohttp client on :func:`checked_connector`, following redirects by itself."""
    return aiohttp.ClientSession(connector=checked_connector(policy, names))


@pytest.mark.parametrize(
    ("url", "shown", "why"),
    [
        ("http://bot.private.test/json", "bot.private.test:80", "10.0.0.1, a private"),
        ("http://mixed.test:9/json", "mixed.test:9", "192.168.0.1, a private"),
        ("http://10.0.0.1:9/json", "10.0.0.1:9", "10.0.0.1, a private"),
        ("http://169.254.169.254/latest/", "169.254.169.254:80", "a link-local address"),
        ("http://[::ffff:10.0.0.1]:9/", "::ffff:a00:1:9", "the IPv4-mapped form of 10.0.0.1"),
    ],
)
def test_the_checked_connector_refuses_names_and_literals_before_any_connection(
    url: str, shown: str, why: str, connects: list[Any]
) -> None:
    """Names through its resolver, every address judged (one bad one among good ones is
    enough); address literals, which aiohttp resolves without a resolver, by the connector."""
    names = resolver({"bot.private.test": ["10.0.0.1"], "mixed.test": ["127.0.0.1", "192.168.0.1"]})

    async def main() -> None:
        async with checked_session(names) as session:
            with pytest.raises(EndpointRefused) as caught:
                await session.post(url, json={})
            line = one_line(caught.value)
            assert line.startswith(f"bot endpoint {shown!r} resolves to "), line
            assert why in line and line.endswith("--allow-local-bots calls such addresses")

    run(main)
    assert connects == []


def test_the_checked_connector_checks_every_redirect_hop_before_dialling(
    connects: list[Any],
) -> None:
    names = resolver({"public.test": ["127.0.0.1"], "internal.test": ["10.9.9.9"]})

    async def main() -> None:
        async with serving() as bot, checked_session(names) as session:
            for target, why in (
                ("http://internal.test:PORT/json", r"internal\.test:\d+' resolves to 10\.9\.9\.9"),
                ("http://169.254.169.254/latest/", "169.254.169.254:80' resolves to"),
            ):
                url = f"http://public.test:{bot.port}/to/{target}"
                with pytest.raises(EndpointRefused, match=why):
                    await session.post(url, json={})
            # a permitted hop is followed, dialled at its own name's address, asked by name
            url = f"http://public.test:{bot.port}/to/http://public.test:PORT/json"
            async with session.post(url, json={"n": 1}) as answer:
                got = await answer.json(content_type=None)
            assert got == {"card": "Ac", "host": f"public.test:{bot.port}", "got": {"n": 1}}
            assert connects == [("127.0.0.1", bot.port)] * 4

    run(main)


def test_the_checked_connector_resolves_and_checks_each_new_connection(
    connects: list[Any],
) -> None:
    """No DNS cache: a name that turns private between two connections (DNS rebinding) is
    refused at the second."""
    answers = [["127.0.0.1"], ["10.0.0.1"]]
    asked: list[str] = []

    async def rebinding(host: str, port: int) -> list[str]:
        asked.append(host)
        return answers[len(asked) - 1]

    async def main() -> None:
        async with serving() as bot, checked_session(rebinding) as session:
            url = f"http://public.test:{bot.port}/json"
            async with session.post(url, json={}) as answer:
                assert answer.status == 200  # the bot closes the connection after it
            with pytest.raises(EndpointRefused, match=r"resolves to 10\.0\.0\.1"):
                await session.post(url, json={})
            assert connects == [("127.0.0.1", bot.port)]

    run(main)
    assert asked == ["public.test", "public.test"]


def test_the_checked_connector_lets_allow_local_reach_loopback(connects: list[Any]) -> None:
    async def main() -> None:
        policy = EndpointPolicy(allow_local=True)
        async with serving() as bot, checked_session(resolver({}), policy) as session:
            async with session.post(f"http://127.0.0.1:{bot.port}/json", json=1) as answer:
                assert (await answer.json(content_type=None))["got"] == 1
            with pytest.raises(aiohttp.ClientConnectorError, match="does not resolve"):
                await session.post(f"http://nowhere.test:{bot.port}/json", json=1)

    run(main)
    assert connects == [("127.0.0.1", connects[0][1])]
