"""Bot endpoints a server may call: never a private, loopback or otherwise local address.

A web server that lets people register bots as HTTP endpoints (seed 004's protocol) must not
become a way to reach what is behind it: its own loopback, the private network, the cloud's
metadata service at 169.254.169.254. This module is the guard, in four parts:

- :func:`check_url` — the URL's form: ``http`` or ``https``, a host, no user name or password,
  a port 1-65535. A bad one is an :class:`EndpointRefused` of one line.
- :class:`EndpointPolicy` — the rule for an address (:meth:`EndpointPolicy.refusal`), judged
  by the standard :mod:`ipaddress` module; ``allow_local=True`` (``--allow-local-bots``) lifts
  it for an operator whose bots run on its own machine or network.
- :func:`endpoint_client` — an :class:`httpx.AsyncClient` whose transport resolves every host
  itself (through an injectable :data:`Resolver`), refuses before any socket is opened if *any*
  address the name resolves to is refused, and then dials the checked address itself: nothing
  resolves the name a second time, so a DNS answer that changes between check and connect
  (rebinding) cannot slip through. The Host header and the TLS server name stay the URL's
  host. Every request is checked, each redirect hop included (at most :data:`MAX_REDIRECTS`).
- :func:`checked_connector` — the same guard for :mod:`aiohttp`, the HTTP bots' client
  (:mod:`tricktable.protocols.http`): a connector whose :class:`CheckedResolver` judges every
  address a name resolves to, and which judges address literals itself, before aiohttp dials
  anything, at every new connection. A bot's client follows no redirect (a 3xx is a fault).

:func:`post_json` makes one call of a bot under one time limit (resolution, connecting,
redirects and the whole answer) and a cap on the answer's size, and turns every failure into
one line: :class:`EndpointRefused`, or :class:`EndpointFailed` whose ``kind`` is one of
:class:`~tricktable.errors.BotFault`'s kinds, so a match can charge the seat with it::

    client = endpoint_client(EndpointPolicy(allow_local=options.allow_local_bots))
    try:
        answer = await post_json(client, url, payload, time_limit=2.0)
    except EndpointFailed as exc:
        raise BotFault(seat, exc.kind, str(exc)) from None
    ...
    await client.aclose()

One client serves many bots (connections are pooled per host and port); the client ignores
the environment's proxies and ``.netrc`` (``trust_env=False``): a proxy would dial for us,
unchecked.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import re
import socket
import ssl
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import httpcore
import httpx
from aiohttp.abc import AbstractResolver, ResolveResult
from aiohttp.tracing import Trace

from tricktable.errors import BotError, TricktableError, quote

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

#: ``resolver(host, port)``: the addresses (as text) a host name stands for
Resolver = Callable[[str, int], Awaitable[Sequence[str]]]

#: redirects followed by one call, at most
MAX_REDIRECTS = 5
#: the bytes of one answer :func:`post_json` reads, at most
MAX_ANSWER = 64 * 1024
#: how much of a bad answer an error line quotes, characters
QUOTE = 160

#: 100.64.0.0/10, shared address space (RFC 6598): ipaddress calls it neither private nor global
_SHARED = ipaddress.IPv4Network("100.64.0.0/10")
#: the NAT64 well-known prefix (RFC 6052): its addresses stand for the IPv4 address in the
#: low 32 bits, which a NAT64 gateway dials for us
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
#: a host name as httpx leaves it (IDNA already ASCII): letters, digits, ``-`` and ``_`` labels
_HOST_NAME = re.compile(r"[A-Za-z0-9_-]{1,63}(\.[A-Za-z0-9_-]{1,63})*\.?")
#: the words the refusal ends with: the one way to call such an address, and whose choice it is
_HINT = "only a server started with --allow-local-bots calls such addresses"


class EndpointRefused(BotError):
    """A bot endpoint a server may not call: a bad URL, or an address that is not public.

    ``url`` is the endpoint (a redirect's target when a hop was refused, ``via`` then the URL
    first asked), ``reason`` why, ``address`` the address it resolved to (None when the URL's
    form was refused).
    """

    def __init__(
        self, url: str, reason: str, address: str | None = None, via: str | None = None
    ) -> None:
        self.url = url
        self.reason = reason
        self.address = address
        self.via = via
        where = f"bot endpoint {quote(url, 120)}"
        if via is not None:
            where += f" (a redirect from {quote(via, 120)})"
        if address is None:
            super().__init__(f"{where}: {reason}")
        else:
            super().__init__(f"{where} resolves to {address}, {reason}: refused; {_HINT}")


class EndpointFailed(BotError):
    """A call of a bot endpoint that failed: no answer in time, too long, not JSON, an error.

    ``kind`` is a :class:`~tricktable.errors.BotFault` kind (``timeout``, ``flood``,
    ``malformed``, ``encoding``, ``crash`` for an HTTP error status, ``closed`` when no
    connection was made or it broke), ``detail`` what happened, ``where`` the request.
    """

    def __init__(self, where: str, kind: str, detail: str) -> None:
        self.where = where
        self.kind = kind
        self.detail = detail
        super().__init__(f"{where}: {detail}")


# --------------------------------------------------------------------------- the URL's form


def check_url(url: str | httpx.URL) -> httpx.URL:
    """``url`` parsed as httpx will send it, if its form is that of a bot endpoint.

    The URL that is checked is the one sent: a second parser could read the host differently.

    >>> str(check_url("http://bot.example:8080/spades"))
    'http://bot.example:8080/spades'
    >>> check_url("ftp://bot.example/")
    Traceback (most recent call last):
    ...
    tricktable.protocols.endpoints.EndpointRefused: bot endpoint 'ftp://bot.example/': the \
scheme is 'ftp'; write http://HOST[:PORT]/PATH or https://...
    """
    shown = str(url)
    try:
        parsed = url if isinstance(url, httpx.URL) else httpx.URL(url.strip())
    except (httpx.InvalidURL, TypeError, ValueError) as exc:
        raise EndpointRefused(shown, f"not a URL: {_line(exc)}") from None
    write = "write http://HOST[:PORT]/PATH or https://..."
    if parsed.scheme not in ("http", "https"):
        scheme = f"the scheme is {parsed.scheme!r}" if parsed.scheme else "no scheme"
        raise EndpointRefused(shown, f"{scheme}; {write}")
    host = parsed.raw_host.decode("ascii", "replace")  # as sent: IDNA names in xn-- form
    if not host:
        raise EndpointRefused(shown, f"no host; {write}")
    if parsed.userinfo:
        raise EndpointRefused(shown, "a user name or password in a bot's URL is not allowed")
    if parsed.port is not None and not 1 <= parsed.port <= 65535:
        raise EndpointRefused(shown, f"the port is {parsed.port}, not 1-65535")
    if _literal(host) is None and (len(host) > 253 or not _HOST_NAME.fullmatch(host)):
        raise EndpointRefused(shown, f"the host {quote(host)} is not a host name")
    return parsed


def _literal(host: str) -> IPAddress | None:
    """The address ``host`` writes, if it is an IP address literal."""
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None


def _line(exc: BaseException) -> str:
    """An exception's text on one line (some libraries' messages span several)."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 200 else text[:199] + "…"


# --------------------------------------------------------------------------- the address rule

#: the tests of an address, in the order their words are most precise; the first that holds
#: is why it is refused
_CHECKS: tuple[tuple[Callable[[Any], bool], str], ...] = (
    (lambda a: a.is_unspecified, "an unspecified address"),
    (lambda a: a.is_loopback, "a loopback address"),
    (lambda a: a.is_link_local, "a link-local address (where cloud metadata answers)"),
    (lambda a: a.is_multicast, "a multicast address"),
    (lambda a: a in _SHARED, "a shared address (100.64.0.0/10, carrier-grade NAT)"),
    (lambda a: a.is_reserved, "a reserved address"),
    (lambda a: getattr(a, "is_site_local", False), "a site-local address"),
    (lambda a: a.is_private, "a private or special-purpose address"),
    (lambda a: not a.is_global, "not a global address"),
)


def _embedded(address: IPAddress) -> tuple[ipaddress.IPv4Address, str] | None:
    """The IPv4 address an IPv6 address stands for, and the form's name, if it is one."""
    if not isinstance(address, ipaddress.IPv6Address):
        return None
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped, "IPv4-mapped form"
    if address in _NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF), "NAT64 form"
    if address.sixtofour is not None:
        return address.sixtofour, "6to4 form"
    return None


def address_refusal(address: IPAddress) -> str | None:
    """Why a server may not call ``address`` (a phrase), or None if it may: a global unicast.

    Refused: what :mod:`ipaddress` does not call global, and also multicast, reserved and
    site-local addresses it does (global-scope multicast, IPv6 space not yet allocated such as
    4000::/3, the deprecated fec0::/10). An IPv6 address that stands for an IPv4 one (mapped,
    NAT64, 6to4) is judged by that IPv4 address: ``::ffff:10.0.0.1`` is 10.0.0.1.

    >>> address_refusal(ipaddress.ip_address("169.254.169.254"))
    'a link-local address (where cloud metadata answers)'
    >>> address_refusal(ipaddress.ip_address("::ffff:10.0.0.1"))
    'the IPv4-mapped form of 10.0.0.1, a private or special-purpose address'
    >>> address_refusal(ipaddress.ip_address("8.8.8.8")) is None
    True
    """
    inside = _embedded(address)
    if inside is not None:
        ipv4, form = inside
        why = address_refusal(ipv4)
        if why is not None:
            return f"the {form} of {ipv4}, {why}"
        if form != "6to4 form":
            # Mapped and NAT64 addresses lie in ::/8, which ipaddress calls reserved as a whole:
            # the IPv4 address inside is where the connection goes, and it is global.
            return None
    for test, why in _CHECKS:
        if test(address):
            return why
    return None


@dataclass(frozen=True)
class EndpointPolicy:
    """Which addresses a server may call bots at.

    ``allow_local`` (``--allow-local-bots``) lifts the rule: an operator's choice for bots on
    its own machine or network. ``also_allow`` names networks permitted besides the public
    ones (CIDR text or ``ipaddress`` networks), e.g. the one subnet of a bot farm, or
    ``127.0.0.0/8`` alone for a test that must call loopback and nothing else local.
    """

    allow_local: bool = False
    also_allow: tuple[IPNetwork | str, ...] = ()
    #: ``also_allow`` read as networks
    networks: tuple[IPNetwork, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        networks: list[IPNetwork] = []
        for net in self.also_allow:
            try:
                networks.append(ipaddress.ip_network(net))
            except (TypeError, ValueError) as exc:
                raise TricktableError(f"bad network {quote(net)} in also_allow: {exc}") from None
        object.__setattr__(self, "networks", tuple(networks))

    def refusal(self, address: IPAddress) -> str | None:
        """Why this policy refuses ``address``, or None if a server may call it."""
        if self.allow_local or any(address in net for net in self.networks):
            return None
        inside = _embedded(address)
        if inside is not None and any(inside[0] in net for net in self.networks):
            return None
        return address_refusal(address)


# --------------------------------------------------------------------------- resolve, check, dial


async def system_resolver(host: str, port: int) -> list[str]:
    """The addresses the system's resolver gives ``host`` (the event loop's getaddrinfo)."""
    loop = asyncio.get_running_loop()
    infos = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


class _Refused(Exception):
    """An address refused at connect time (the transport names the URL)."""

    def __init__(self, address: str, reason: str) -> None:
        super().__init__(reason)
        self.address = address
        self.reason = reason


class _Unresolved(OSError):
    """A host name that gives no address to check (an OSError: aiohttp's connector reports
    its resolver's OSErrors as a failed connection)."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.strerror = text  # what aiohttp's connection error quotes


async def _addresses(resolver: Resolver, host: str, port: int) -> list[IPAddress]:
    """The addresses ``host`` stands for (itself, if it is an address literal)."""
    literal = _literal(host)
    if literal is not None:
        return [literal]
    try:
        names = await resolver(host, port)
    except OSError as exc:
        why = exc.strerror or _line(exc)  # a gaierror's text without its number
        raise _Unresolved(f"{host} does not resolve: {why}") from None
    addresses: list[IPAddress] = []
    for name in names:
        try:
            addresses.append(ipaddress.ip_address(name))
        except ValueError:
            raise _Unresolved(f"{host} resolved to {quote(name)}, not an IP address") from None
    if not addresses:
        raise _Unresolved(f"{host} resolves to no address")
    return addresses


def _judge(policy: EndpointPolicy, addresses: Sequence[IPAddress]) -> None:
    """Refuse (:class:`_Refused`) if ``policy`` refuses *any* of ``addresses``.

    Every address is judged before any is dialled: a name that resolves to a public address
    and a private one could otherwise be steered to the second.
    """
    refused = [(a, why) for a in addresses if (why := policy.refusal(a)) is not None]
    if refused:
        address, why = refused[0]
        more = f" (and {len(refused) - 1} more)" if len(refused) > 1 else ""
        raise _Refused(f"{address}{more}", why)


class _CheckedBackend(httpcore.AsyncNetworkBackend):
    """httpcore's network backend, resolving and checking before it dials a checked address.

    httpcore hands ``connect_tcp`` the URL's host; the TLS server name and the Host header
    come from the request, not from here, so they stay the name while the socket goes to
    the address that was checked.
    """

    def __init__(
        self,
        policy: EndpointPolicy,
        resolver: Resolver,
        dial: httpcore.AsyncNetworkBackend | None = None,
    ) -> None:
        self._policy = policy
        self._resolver = resolver
        self._dial = dial if dial is not None else httpcore.AnyIOBackend()

    async def _addresses(self, host: str, port: int, timeout: float | None) -> list[IPAddress]:
        try:
            async with asyncio.timeout(timeout):
                return await _addresses(self._resolver, host, port)
        except TimeoutError:
            within = "in time" if timeout is None else f"within {timeout:g} s"
            raise httpcore.ConnectTimeout(f"{host} did not resolve {within}") from None
        except _Unresolved as exc:
            raise httpcore.ConnectError(str(exc)) from None

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        addresses = await self._addresses(host, port, timeout)
        _judge(self._policy, addresses)
        failure: Exception | None = None
        for address in addresses:
            try:
                return await self._dial.connect_tcp(
                    str(address),
                    port,
                    timeout=timeout,
                    local_address=local_address,
                    socket_options=socket_options,
                )
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                failure = exc  # the next address may answer
        assert failure is not None  # addresses is never empty
        raise failure

    async def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        raise httpcore.ConnectError("bot endpoints are not Unix sockets")

    async def sleep(self, seconds: float) -> None:
        await self._dial.sleep(seconds)


class _CheckedTransport(httpx.AsyncHTTPTransport):
    """httpx's transport over a connection pool that dials through :class:`_CheckedBackend`,
    checking the form of every request's URL (the client's redirects pass through here too).

    httpx 0.28 takes no network backend (encode/httpx PR #3749 proposes one), so the pool
    httpx built is replaced by one that has ours; the rest (requests, streams, the mapping
    of httpcore's errors onto httpx's) is httpx's own.
    """

    def __init__(self, policy: EndpointPolicy, resolver: Resolver, verify: ssl.SSLContext | bool):
        context = httpx.create_ssl_context(verify=verify, trust_env=False)
        super().__init__(verify=context, trust_env=False)
        if not isinstance(getattr(self, "_pool", None), httpcore.AsyncConnectionPool):
            raise RuntimeError("httpx's transport no longer keeps its pool in _pool")
        limits = httpx.Limits()
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=context,
            max_connections=limits.max_connections,
            max_keepalive_connections=limits.max_keepalive_connections,
            keepalive_expiry=limits.keepalive_expiry,
            network_backend=_CheckedBackend(policy, resolver),
        )

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        check_url(request.url)
        try:
            return await super().handle_async_request(request)
        except _Refused as exc:
            raise EndpointRefused(str(request.url), exc.reason, exc.address) from None


class CheckedResolver(AbstractResolver):
    """aiohttp's resolver of a guarded connector (:func:`checked_connector`): a name's
    addresses, returned only if ``policy`` permits every one of them, so that aiohttp dials
    none it refuses. A refusal is the one-line :class:`EndpointRefused` (its ``url`` the host
    and port asked for); a name that does not resolve, an :class:`OSError` aiohttp reports as
    a failed connection."""

    def __init__(self, policy: EndpointPolicy, resolver: Resolver | None = None) -> None:
        self._policy = policy
        self._resolver = resolver or system_resolver

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        addresses = await _addresses(self._resolver, host, port)
        _refuse(self._policy, addresses, host, port)
        found: list[ResolveResult] = []
        for address in addresses:
            kind = socket.AF_INET6 if address.version == 6 else socket.AF_INET
            if family in (socket.AF_UNSPEC, kind):
                found.append(
                    {
                        "hostname": host,
                        "host": str(address),
                        "port": port,
                        "family": kind,
                        "proto": 0,
                        "flags": socket.AI_NUMERICHOST | socket.AI_NUMERICSERV,
                    }
                )
        if not found:
            raise _Unresolved(f"{host} resolves to no address of the family asked for")
        return found

    async def close(self) -> None:
        """Nothing to close: the addresses come from ``resolver``."""


def _refuse(policy: EndpointPolicy, addresses: Sequence[IPAddress], host: str, port: int) -> None:
    try:
        _judge(policy, addresses)
    except _Refused as exc:
        raise EndpointRefused(f"{host}:{port}", exc.reason, exc.address) from None


class _CheckedConnector(aiohttp.TCPConnector):
    """aiohttp's TCP connector, every host it is about to dial judged first: names by
    :class:`CheckedResolver` (no cache: each new connection resolves, and is checked, again),
    address literals here, since aiohttp hands those to no resolver."""

    def __init__(self, policy: EndpointPolicy, resolver: Resolver | None, **options: Any) -> None:
        if not hasattr(aiohttp.TCPConnector, "_resolve_host"):
            # The one private method overridden: without it literals would pass unchecked.
            raise RuntimeError("aiohttp's connector no longer resolves hosts in _resolve_host")
        options.update(resolver=CheckedResolver(policy, resolver), use_dns_cache=False)
        super().__init__(**options)
        self._policy = policy

    async def _resolve_host(
        self, host: str, port: int, traces: Sequence[Trace] | None = None
    ) -> list[ResolveResult]:
        literal = _literal(host)
        if literal is not None:
            _refuse(self._policy, [literal], host, port)
        return await super()._resolve_host(host, port, traces=traces)


def checked_connector(
    policy: EndpointPolicy, resolver: Resolver | None = None, **options: Any
) -> aiohttp.TCPConnector:
    """An :class:`aiohttp.TCPConnector` (``options`` are its own) that dials only addresses
    ``policy`` permits: a host, a name or an address literal, is judged before any connection
    is made, at every new connection, and aiohttp dials the addresses judged (nothing resolves
    the name a second time). A refusal raises :class:`EndpointRefused`. A client on it must
    not follow redirects by itself without checking each hop's URL (:func:`check_url`).

    ``resolver`` finds a name's addresses (default: :func:`system_resolver`).
    """
    return _CheckedConnector(policy, resolver, **options)


def endpoint_client(
    policy: EndpointPolicy | None = None,
    *,
    resolver: Resolver | None = None,
    max_redirects: int = MAX_REDIRECTS,
    verify: ssl.SSLContext | bool = True,
) -> httpx.AsyncClient:
    """An HTTP client that calls only the endpoints ``policy`` permits (public ones by default).

    ``resolver`` finds a host's addresses (default: :func:`system_resolver`); ``verify`` is
    httpx's (an :class:`ssl.SSLContext` trusting a test's own authority, say). Close it with
    ``await client.aclose()`` or use it as an ``async with``.
    """
    transport = _CheckedTransport(policy or EndpointPolicy(), resolver or system_resolver, verify)
    return httpx.AsyncClient(
        transport=transport,
        follow_redirects=True,
        max_redirects=max_redirects,
        trust_env=False,  # no proxies from the environment: a proxy dials unchecked
    )


# --------------------------------------------------------------------------- one call


_HEADERS = {
    "Content-Type": "application/json",
    "Accept": "application/json",
    # An answer is counted as it arrives; a compressed one could swell far past the cap
    # within one chunk, so none is asked for, and one sent anyway is refused.
    "Accept-Encoding": "identity",
}


async def post_json(
    client: httpx.AsyncClient,
    url: str,
    payload: Any,
    *,
    time_limit: float,
    max_bytes: int = MAX_ANSWER,
    expect_json: bool = True,
) -> Any:
    """POST ``payload`` as JSON to ``url`` with a client of :func:`endpoint_client`; the answer.

    ``time_limit`` (seconds) bounds the whole call: resolving, connecting, every redirect,
    the whole answer. An answer over ``max_bytes`` is refused as it streams. With
    ``expect_json`` False the answer is read (to the same limits) and None returned: seed
    004's ``bid`` and ``book`` need none. Raises :class:`EndpointRefused` or
    :class:`EndpointFailed`, one line each.
    """
    target = check_url(url)
    where = f"POST {target}"
    body = json.dumps(payload, separators=(",", ":")).encode()
    try:
        async with asyncio.timeout(time_limit):
            async with client.stream(
                "POST", target, content=body, headers=_HEADERS, timeout=time_limit
            ) as response:
                data = await _read(response, where, max_bytes)
    except EndpointRefused as exc:
        if exc.url == str(target):
            raise
        raise EndpointRefused(exc.url, exc.reason, exc.address, via=str(target)) from None
    except (TimeoutError, httpx.TimeoutException):
        raise EndpointFailed(
            where, "timeout", f"no complete answer within {time_limit:g} s"
        ) from None
    except httpx.TooManyRedirects:
        raise EndpointFailed(
            where, "malformed", f"more than {client.max_redirects} redirects"
        ) from None
    except httpx.ProtocolError as exc:
        raise EndpointFailed(where, "malformed", f"not an HTTP answer: {_line(exc)}") from None
    except httpx.TransportError as exc:
        raise EndpointFailed(where, "closed", f"connection failed: {_line(exc)}") from None
    if not expect_json:
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise EndpointFailed(
            where, "encoding", f"the answer is not UTF-8 (byte {exc.start})"
        ) from None
    try:
        return json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: arrays nested thousands deep
        raise EndpointFailed(where, "malformed", f"answered {_quote(text)}, not JSON") from None


async def _read(response: httpx.Response, where: str, max_bytes: int) -> bytes:
    """The body of an answer of status 2xx, at most ``max_bytes``; else a one-line error."""
    if not response.is_success:
        head = b""
        async for chunk in response.aiter_raw():  # a little of it, to quote
            head += chunk
            if len(head) >= QUOTE:
                break
        status = f"HTTP {response.status_code} {quote(response.reason_phrase, 40)}"
        raise EndpointFailed(where, "crash", f"{status}; body {_quote(head)}")
    encoding = response.headers.get("Content-Encoding", "identity").strip().lower()
    if encoding not in ("", "identity"):
        raise EndpointFailed(
            where, "malformed", f"the answer is {quote(encoding, 40)}-encoded; none was asked for"
        )
    too_long = f"the answer is longer than {max_bytes} bytes"
    length = response.headers.get("Content-Length", "")
    if length.isdigit() and int(length) > max_bytes:
        raise EndpointFailed(where, "flood", too_long)
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_raw():
        size += len(chunk)
        if size > max_bytes:
            raise EndpointFailed(where, "flood", too_long)
        chunks.append(chunk)
    return b"".join(chunks)


def _quote(data: bytes | str) -> str:
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    if len(text) > QUOTE:
        return repr(text[:QUOTE]) + f"... ({len(text)} characters)"
    return repr(text)


__all__ = [
    "MAX_ANSWER",
    "MAX_REDIRECTS",
    "CheckedResolver",
    "EndpointFailed",
    "EndpointPolicy",
    "EndpointRefused",
    "Resolver",
    "address_refusal",
    "check_url",
    "checked_connector",
    "endpoint_client",
    "post_json",
    "system_resolver",
]
