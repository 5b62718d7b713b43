"""HTTP bots: the engine POSTs JSON to ``{base}/{gameId}/{playerId}/{event}`` and reads JSON back.

``playerId`` is the seat counted from 1 (seat 0 is player 1), as in seed 004's ``player1_…``
fields. A game names its adapter in ``Game.http_adapter``: Spades names :class:`SpadesEvents`,
whose events and payloads are exactly seed 004's (``blind``, ``deal``, ``bid``, ``play``,
``book``), so a bot written to that document plays unchanged — at four seats, which that
document's fields number; at any other size, and in every other game, a bot gets the generic
events (``start``, ``deal``, one per decision phase, ``trick``, ``hand``, ``end``) whose bodies
are the seat's :meth:`View.to_dict`. docs/protocol-http.md specifies both.

The bot is driven by the match loop, which only calls :meth:`HttpBot.act` when it is this
seat's turn: events that tell the bot what happened meanwhile (a finished book, the bids) are
sent, in order, just before the next request or at the end of the hand.

Requests go through :mod:`aiohttp`'s client on the one loop every outside bot shares
(:mod:`tricktable.protocols.aio`); the synchronous methods wait for it, and each has an
``async`` twin (:meth:`HttpBot.act_async`...) that an asyncio caller awaits instead. One
keep-alive connection is reused per bot. Each call — a decision, a hand's end, the match's —
has one deadline (``decision_time``, or what is left of ``match_time``) over everything it
sends: every request's connection, sending and whole answer, however the server drips it.

Every way an endpoint can fail — an error status, no connection, a timeout, more than
``max_response`` bytes, bytes that are not UTF-8 JSON, a missing field, an unknown or illegal
card — raises :class:`BotFault` with the request and the answer; the match runner applies the
game's penalty (seed 004: the team forfeits).

Chat: an answer's ``"say"`` is held for the table, throttled, and taken by the match loop
after each decision (:meth:`HttpBot.take_chat`); the generic events tell a bot the others'
lines as the news event ``chat``, whose failures are forgiven (Spades sends none: seed 004).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import os
import secrets
import socket
import ssl
import urllib.parse
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any, TypeVar

import aiohttp
import httpx
from aiohttp.client_proto import ResponseHandler
from yarl import URL

from tricktable.bots.base import Bot
from tricktable.chat.rules import ChatThrottle
from tricktable.engine.declared import declared
from tricktable.engine.results import HandResult
from tricktable.engine.trick import Game, View
from tricktable.errors import BotError, BotFault, quote
from tricktable.protocols import aio
from tricktable.protocols.endpoints import (
    EndpointPolicy,
    EndpointRefused,
    check_url,
    checked_connector,
)
from tricktable.protocols.http_events import (
    QUOTE,
    GenericEvents,
    SpadesEvents,
    _action_text,
    _Adapter,
    _quote,
    decision_event,
    spades_card,
)
from tricktable.protocols.messages import BadAnswer

__all__ = [
    "DEFAULT_DECISION_TIME",
    "MAX_RESPONSE",
    "MAX_SAY",
    "QUOTE",
    "GenericEvents",
    "HttpBot",
    "SpadesEvents",
    "decision_event",
    "spades_card",
]

T = TypeVar("T")

#: the default per-call time limit, seconds (issue 5)
DEFAULT_DECISION_TIME = 2.0
#: the default limit on one answer's body
MAX_RESPONSE = 1 << 20
#: the characters of an answer's ``say`` kept (the table clips a chat line shorter still)
MAX_SAY = 1000

_HEADERS = {
    "Content-Type": "application/json",
    "Accept": "application/json",
    # The answer is counted as it arrives, against max_response: a compressed one could
    # swell far past it, so none is asked for (and one sent anyway is not decoded).
    "Accept-Encoding": "identity",
}

#: Linux's TCP_QUICKACK (0 elsewhere): acknowledge at once rather than after up to 40 ms
_QUICKACK: int = getattr(socket, "TCP_QUICKACK", 0)


class _QuickAck(ResponseHandler):
    """aiohttp's protocol of a connection, acknowledging what it receives at once.

    Servers that write headers and body apart (Python's http.server does) would otherwise wait
    for our delayed ACK under Nagle's algorithm: 40 ms a request. Setting TCP_QUICKACK sends an
    ACK the kernel holds back; Linux clears it by itself as the exchange goes on, so it is set
    again after every read.
    """

    _socket: socket.socket | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self._socket = transport.get_extra_info("socket")

    def data_received(self, data: bytes) -> None:
        if self._socket is not None:
            with contextlib.suppress(OSError):
                self._socket.setsockopt(socket.IPPROTO_TCP, _QUICKACK, 1)
        super().data_received(data)


def _quick_ack(loop: asyncio.AbstractEventLoop) -> ResponseHandler:
    """A new :class:`_QuickAck` (the connector's protocol factory)."""
    return _QuickAck(loop)


#: a forked child's clients of its parent, held untouched: aiohttp's connector, collected,
#: closes its connections through the parent's event loop, whose epoll the child shares, and
#: so would take the parent's sockets off the parent's own loop
_FORKED: list[aiohttp.ClientSession] = []

#: no limit of aiohttp's own: each call's deadline is :meth:`HttpBot._within`'s
_NO_TIMEOUT = aiohttp.ClientTimeout(total=None, connect=None, sock_read=None, sock_connect=None)


class _Flood(Exception):
    """An answer longer than the limit."""


class _Cut(Exception):
    """An answer whose body stopped short (the connection closed under it)."""

    def __init__(self, received: int) -> None:
        super().__init__(received)
        self.received = received


@dataclass
class _Call:
    """One call of the bot (a decision, a hand's end...): its requests share one deadline."""

    start: float
    limit: float
    kind: str  # the fault of a late answer: ``timeout``, or ``match-time``
    #: on the loop's clock
    deadline: float


def _reason(exc: BaseException) -> str:
    """What went wrong under a client's error, in words: the deepest cause that says something
    (a failed connection's error wraps the socket's own)."""
    text = str(exc) or type(exc).__name__
    seen: set[int] = set()
    cause = exc.__cause__ or exc.__context__
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        if str(cause):
            text = str(cause)
        cause = cause.__cause__ or cause.__context__
    return text


class HttpBot(Bot):
    """A bot behind an HTTP endpoint: ``HttpBot("http://127.0.0.1:9000/")``.

    ``decision_time`` limits each call (seconds: a decision and the news sent before it),
    ``match_time`` (optional) the total time the endpoint may take over a match,
    ``max_response`` the bytes of one answer.
    """

    wants_events = True  # its conversation reads the seat's event stream
    chats = True  # what it says goes to the table (take_chat)

    name = "http"

    def __init__(
        self,
        url: str,
        decision_time: float = DEFAULT_DECISION_TIME,
        match_time: float | None = None,
        max_response: int = MAX_RESPONSE,
        name: str | None = None,
        policy: EndpointPolicy | None = None,
    ) -> None:
        shown = quote(url.strip())
        try:
            parts = urllib.parse.urlsplit(url.strip())
        except ValueError as exc:  # "Invalid IPv6 URL": a bracket not closed
            raise BotError(f"bad bot URL {shown}: {exc}") from None
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise BotError(f"bad bot URL {shown}: write http://HOST:PORT/PATH or https://...")
        try:
            parts.port  # noqa: B018  # read for its check
        except ValueError:
            raise BotError(f"bad bot URL {shown}: the port is not a number 1-65535") from None
        if decision_time <= 0:
            raise BotError(f"decision time must be positive, got {decision_time}")
        if policy is not None:
            check_url(url.strip())  # a server's bot: the URL's form by the guard's rule too
        self.url = url.strip()
        self.name = name or self.url
        #: the addresses this bot may reach (a server's bots: public ones, unless the server
        #: allows local bots); None for the bots a person runs from the command line, whose
        #: own machine is where their bots usually are
        self.policy = policy
        self._https = parts.scheme == "https"
        self._base = parts.path.rstrip("/")
        self._query = f"?{parts.query}" if parts.query else ""
        # What goes on the wire is the URL as httpx (this client's before aiohttp) quoted it:
        # yarl would rewrite a query's escapes (%41 as A, a space as +), and a bot's key with
        # them. The host is in its IDNA form, the path's dot segments resolved.
        try:
            sent = urllib.parse.urlsplit(str(httpx.URL(self.url)))
        except (httpx.InvalidURL, ValueError):
            sent = parts
        self._origin = urllib.parse.urlunsplit((sent.scheme, sent.netloc, "", "", ""))
        self._sent_base = sent.path.rstrip("/")
        self._sent_query = f"?{sent.query}" if sent.query else ""
        #: each event's URL, made once a match
        self._urls: dict[str, URL] = {}
        self.decision_time = decision_time
        self.match_time = match_time
        self.max_response = max_response
        self._http: aiohttp.ClientSession | None = None
        #: clients given up (a fault left their connection in an unknown state), to close
        self._retired: list[aiohttp.ClientSession] = []
        self._owner = 0  # the process whose loop the clients belong to
        #: the last answer's connection stays open (a failure on it may be a stale one)
        self._warm = False
        self._call: _Call | None = None
        self._serial = aio.Serial()
        self._adapter: _Adapter | None = None
        self.game_id = ""
        self.seat = 0
        #: seconds spent waiting for this endpoint in the current match
        self.used = 0.0
        #: requests made in the current match
        self.requests = 0
        #: the ``say`` lines of its answers, held for the table (``take_chat``)
        self.throttle = ChatThrottle()

    # ------------------------------------------------------------------------ Bot interface

    def start_match(self, game: Game, seat: int, seed: int) -> None:
        super().start_match(game, seat, seed)
        # Unique per match and connection; a service playing several seats keys its state by
        # (gameId, playerId), which stays unique either way.
        self.game_id = f"{game.name}-{secrets.token_hex(6)}"
        self.used = 0.0
        self.requests = 0
        self.throttle = ChatThrottle()
        self._urls = {}
        adapter = declared(type(game), "http_adapter", _Adapter)
        if adapter is _Adapter or not adapter.speaks_for(game.num_players):
            adapter = GenericEvents  # seed 004's Spades endpoints seat four: elsewhere generic
        self._adapter = adapter(self)

    def act(self, view: View) -> int:
        return aio.run(self._within(self._act(view)))

    def take_chat(self) -> tuple[list[str], str]:
        """The ``say`` lines of its answers since last asked (throttled), and why some were
        dropped ("" if none were, or if that was said already this match)."""
        return self.throttle.take()

    def end_hand(self, view: View, result: HandResult) -> None:
        aio.run(self._within(self._events().end_hand(view, result)))

    def end_match(self, view: View) -> None:
        aio.run(self._within(self._events().end_match(view)))

    def close(self) -> None:
        if self._holds():
            aio.run(self._close(), cancel=False)

    # ------------------------------------------------------------ the same, for asyncio

    async def start_match_async(self, game: Game, seat: int, seed: int) -> None:
        """:meth:`start_match` (which sends nothing: the first request waits for a turn)."""
        self.start_match(game, seat, seed)

    async def act_async(self, view: View) -> int:
        """:meth:`act`, awaited from any event loop."""
        return await aio.call(self._within(self._act(view)))

    async def end_hand_async(self, view: View, result: HandResult) -> None:
        """:meth:`end_hand`, awaited from any event loop."""
        await aio.call(self._within(self._events().end_hand(view, result)))

    async def end_match_async(self, view: View) -> None:
        """:meth:`end_match`, awaited from any event loop."""
        await aio.call(self._within(self._events().end_match(view)))

    async def close_async(self) -> None:
        """:meth:`close`, awaited from any event loop."""
        if self._holds():
            await aio.call(self._close())

    async def _act(self, view: View) -> int:
        self.throttle.decision(view.hand_number)
        return await self._events().act(view)

    def _events(self) -> _Adapter:
        if self._adapter is None:
            raise BotError(f"HTTP bot {self.url} was not started")
        return self._adapter

    async def _within(self, work: Awaitable[T]) -> T:
        """``work``, one call, under one deadline: ``decision_time``, or what is left of
        ``match_time`` where that is less."""
        async with self._serial.held():
            limit, kind = self.decision_time, "timeout"
            if self.match_time is not None and 0 < self.match_time - self.used < limit:
                limit, kind = self.match_time - self.used, "match-time"
            start = asyncio.get_running_loop().time()
            self._call = _Call(start, limit, kind, start + limit)
            try:
                return await work
            finally:
                self._call = None

    # ----------------------------------------------------------------------------- requests

    def path(self, event: str) -> str:
        """The request path of an event for this match and seat."""
        return f"{self._base}/{self.game_id}/{self.seat + 1}/{event}{self._query}"

    def fault(self, kind: str, detail: str) -> BotFault:
        """A fault of this bot (its connection is given up: its state is unknown)."""
        self._drop()
        return BotFault(self.seat, kind, detail)

    def _client(self) -> aiohttp.ClientSession:
        """A new HTTP client for this bot's requests: one keep-alive connection, kept until the
        server closes it, no time limit of its own (each call's deadline is :meth:`_within`'s),
        no proxy from the environment, no redirect followed (an answer of 3xx is a fault, as
        any other status but 2xx), no answer decompressed (the body is counted as it comes)."""
        # The system's trusted authorities, as http.client's default (SSL_CERT_FILE honoured).
        context: ssl.SSLContext | bool = ssl.create_default_context() if self._https else False
        options: dict[str, Any] = {"limit": 1, "keepalive_timeout": None, "ssl": context}
        if self.policy is not None:
            # Resolved, checked and dialled by the guard, never twice: a redirect is a fault
            # anyway (allow_redirects=False), and each new connection is checked again.
            connector = checked_connector(self.policy, **options)
        else:
            connector = aiohttp.TCPConnector(**options)
        if _QUICKACK:
            if not isinstance(getattr(connector, "_factory", None), functools.partial):
                raise RuntimeError("aiohttp's connector no longer makes protocols by _factory")
            here = asyncio.get_running_loop()
            connector._factory = functools.partial(_quick_ack, loop=here)
        return aiohttp.ClientSession(
            connector=connector,
            timeout=_NO_TIMEOUT,
            auto_decompress=False,
            trust_env=False,
            # Cookies a bot sets are kept and sent back, those of an address host too.
            cookie_jar=aiohttp.CookieJar(unsafe=True),
        )

    def _holds(self) -> bool:
        """Whether a client (or one to close) is open, made by this process (not a parent's:
        a fork's child has no loop of the parent's to close it on)."""
        if self._owner != os.getpid():
            _FORKED.extend(self._retired)
            if self._http is not None:
                _FORKED.append(self._http)
            self._http, self._retired, self._warm = None, [], False
        return self._http is not None or bool(self._retired)

    def _drop(self) -> None:
        if self._http is not None:
            self._retired.append(self._http)
            self._http = None
        self._warm = False

    async def _close(self) -> None:
        async with self._serial.held():
            self._drop()
            await self._close_retired()
            aio.untrack(self)

    async def _close_retired(self) -> None:
        retired, self._retired = self._retired, []
        for client in retired:
            with contextlib.suppress(Exception):
                await client.close()

    def post(self, event: str, payload: Any, want: str | None, forgive: bool = False) -> Any:
        """:meth:`post_async` from a synchronous caller (a call of its own)."""
        return aio.run(self.post_async(event, payload, want, forgive))

    async def post_async(
        self, event: str, payload: Any, want: str | None, forgive: bool = False
    ) -> Any:
        """POST ``payload`` to ``event``; the decoded JSON answer, or None when ``want`` is None.

        ``want`` describes the expected answer, for fault messages (e.g. ``{"card": "Ac"}``).
        Raises :class:`BotFault` on every failure; with ``forgive``, a status other than 2xx
        whose answer was read in full returns None instead, and the connection is kept.
        Within a call (a decision...) it shares the call's deadline; alone it is a call.
        """
        call = self._call
        if call is None:
            return await self._within(self.post_async(event, payload, want, forgive))
        body = json.dumps(payload, separators=(",", ":")).encode()
        path = self.path(event)
        where = f"POST {path}"
        if self.match_time is not None and self.used >= self.match_time:
            raise self.fault("match-time", f"used its {self.match_time:g} s for the match")
        clock = asyncio.get_running_loop()
        start = clock.time()
        status, reason, data = 0, "", b""
        try:
            async with asyncio.timeout_at(call.deadline):
                status, reason, data = await self._exchange(event, body)
        except _Flood:
            raise self.fault(
                "flood", f"{where}: the answer is longer than {self.max_response} bytes"
            ) from None
        except TimeoutError:
            before = start - call.start
            spent = f"; {before:.3g} s of it went to the requests before" if before > 1e-3 else ""
            detail = f"{where}: no complete answer within {call.limit:g} s{spent}"
            raise self.fault(call.kind, detail) from None
        except _Cut as exc:
            raise self.fault(
                "closed", f"{where}: the answer stopped after {exc.received} bytes"
            ) from None
        except EndpointRefused as exc:
            raise self.fault("closed", f"{where}: {exc}") from None
        except aiohttp.ServerDisconnectedError:
            raise self.fault(
                "closed", f"{where}: the bot closed the connection without an answer"
            ) from None
        except aiohttp.ClientResponseError as exc:  # what came back does not parse as HTTP
            # aiohttp's parser spreads its words over lines, with a caret under the byte
            said = " ".join(str(exc.message).replace("^", "").split()) or _reason(exc)
            raise self.fault("malformed", f"{where}: not an HTTP answer: {_quote(said)}") from None
        except aiohttp.ClientConnectorError as exc:
            if isinstance(exc.os_error, ConnectionRefusedError):
                raise self.fault(
                    "closed", f"{where}: connection refused (is the bot running?)"
                ) from None
            raise self.fault("closed", f"{where}: connection failed: {_reason(exc)}") from None
        except (aiohttp.ClientError, OSError) as exc:
            raise self.fault("closed", f"{where}: connection failed: {_reason(exc)}") from None
        finally:
            self.requests += 1
            self.used += clock.time() - start
        if not 200 <= status < 300:
            if forgive:
                return None  # the answer was read in full: the connection is still in step
            raise self.fault("crash", f"{where}: HTTP {status} {reason}; body {_quote(data)}")
        if want is None:
            return None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise self.fault(
                "encoding", f"{where}: the answer is not UTF-8 (byte {exc.start}); expected {want}"
            ) from None
        try:
            answer = json.loads(text)
        except ValueError:
            raise self.fault(
                "malformed", f"{where}: answered {_quote(text)}, not JSON; expected {want}"
            ) from None
        if isinstance(answer, dict) and isinstance(answer.get("say"), str):
            self.throttle.hear(answer["say"][:MAX_SAY])  # a line for the table, checked there
        return answer

    async def _exchange(self, event: str, body: bytes) -> tuple[int, str, bytes]:
        """One request and its whole answer: (status, reason, body). A kept-alive connection
        the server had closed meanwhile gets one fresh try."""
        await self._close_retired()
        for attempt in (0, 1):
            if self._http is None:
                self._http = self._client()
                self._owner = os.getpid()
                aio.track(self)
            reused = self._warm
            try:
                return await self._once(self._http, event, body)
            except (aiohttp.ServerDisconnectedError, aiohttp.ClientOSError) as exc:
                # aiohttp retries no POST itself. A connection error is a stale one only where
                # the connection had served before (a new one failing to connect is not).
                stale = not isinstance(exc, aiohttp.ClientConnectorError)
                if not (stale and reused) or attempt:
                    raise
                self._drop()
                await self._close_retired()
        raise AssertionError("unreachable")

    async def _once(
        self, client: aiohttp.ClientSession, event: str, body: bytes
    ) -> tuple[int, str, bytes]:
        url = self._urls.get(event)
        if url is None:  # self.path(event) as sent
            sent = f"{self._sent_base}/{self.game_id}/{self.seat + 1}/{event}{self._sent_query}"
            url = self._urls[event] = URL(self._origin + sent, encoded=True)
        async with client.post(url, data=body, headers=_HEADERS, allow_redirects=False) as answer:
            length = answer.content_length
            if length is not None and length > self.max_response:
                raise _Flood()
            data = bytearray()
            try:
                async for chunk in answer.content.iter_any():
                    data += chunk
                    if len(data) > self.max_response:
                        raise _Flood()
            except aiohttp.ClientPayloadError:
                raise _Cut(len(data)) from None
            connection = answer.headers.get("Connection", "").lower()
            self._warm = connection != "close" and (
                (answer.version or (1, 1)) >= (1, 1) or connection == "keep-alive"
            )
            return answer.status, answer.reason or "", bytes(data)

    async def news_async(self, event: str, payload: Any) -> None:
        """POST news a bot may ignore (``chat``): any failure is forgiven, only its time
        counts (a bot written before the event existed answers 404, and plays on).

        A complete answer of any status keeps the connection for the next request; only a
        failure that leaves it in an unknown state (a timeout, a cut answer) drops it.
        """
        with contextlib.suppress(BotFault):
            await self.post_async(event, payload, None, forgive=True)

    def field(self, event: str, answer: Any, key: str, want: str) -> Any:
        """``answer[key]``, or a ``malformed`` fault saying what was expected."""
        if not isinstance(answer, dict) or key not in answer:
            got = json.dumps(answer)
            raise self.fault(
                "malformed", f"POST {self.path(event)}: answered {_quote(got)}; expected {want}"
            )
        return answer[key]

    def check_legal(self, view: View, action: int, event: str, got: str) -> int:
        """``action`` if it is legal for this seat now, else an ``illegal`` fault.

        The fault is a :class:`~tricktable.protocols.messages.BadAnswer`, which carries the
        answer and the action, as the stdio transport's do (Tricks charges the card sent).
        """
        if action in view.legal_actions():
            return action
        why = view.illegal(action).reason
        name = _action_text(view.game, action)
        # The connection is sound: where the game lets the bot play on (Tricks), it may.
        raise BadAnswer(
            self.seat,
            f"POST {self.path(event)}: answered {got}: {name!r} is illegal: {why}",
            got,
            action,
        )
