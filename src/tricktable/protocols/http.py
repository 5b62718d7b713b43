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

Every way an endpoint can fail — an error status, no connection, a timeout, more than
``max_response`` bytes, bytes that are not UTF-8 JSON, a missing field, an unknown or illegal
card — raises :class:`BotFault` with the request and the answer; the match runner applies the
game's penalty (seed 004: the team forfeits). One keep-alive connection is reused per bot, and
every request has its own deadline (``decision_time``) enforced on each socket read, so a bot
that drips bytes cannot stretch it.

Chat: an answer's ``"say"`` is held for the table, throttled, and taken by the match loop
after each decision (:meth:`HttpBot.take_chat`); the generic events tell a bot the others'
lines as the news event ``chat``, whose failures are forgiven (Spades sends none: seed 004).
"""

from __future__ import annotations

import contextlib
import http.client
import io
import json
import secrets
import socket
import time
import urllib.parse
from typing import Any

from tricktable.bots.base import Bot
from tricktable.cards import JOKER, RANKS, card_name, cards_in, parse_card
from tricktable.chat.rules import ChatThrottle
from tricktable.engine.actions import BID
from tricktable.engine.declared import declared
from tricktable.engine.events import Chat, Dealt, TrickWon
from tricktable.engine.results import HandResult
from tricktable.engine.trick import AUCTION, OVER, PLAY, Game, View
from tricktable.errors import BotError, BotFault, NotationError, quote
from tricktable.protocols.messages import BadAnswer
from tricktable.seat.stream import SeatStream

#: the default per-request time limit, seconds (issue 5)
DEFAULT_DECISION_TIME = 2.0
#: the default limit on one response, status line and headers included
MAX_RESPONSE = 1 << 20
#: how much of a bad answer a fault quotes
QUOTE = 160
#: the characters of an answer's ``say`` kept (the table clips a chat line shorter still)
MAX_SAY = 1000


#: Linux's TCP_QUICKACK (0 elsewhere): acknowledge at once rather than after up to 40 ms
_QUICKACK: int = getattr(socket, "TCP_QUICKACK", 0)


class _Flood(Exception):
    """A response longer than the limit (raised from inside http.client's reads)."""


class _DeadlineReader(io.RawIOBase):
    """A socket reader that stops at a deadline and after ``limit`` bytes.

    http.client reads the status line, headers and body through this, so one slow byte at a
    time cannot stretch a request past its deadline, nor a huge answer fill memory.
    """

    def __init__(self, raw: io.RawIOBase, sock: socket.socket, deadline: float, limit: int):
        super().__init__()
        self._raw = raw
        self._sock = sock
        self._deadline = deadline
        self._left = limit

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        remaining = self._deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError("deadline passed")
        sock = self._sock
        sock.settimeout(remaining)
        if _QUICKACK:
            # Servers that write headers and body apart (Python's http.server does) would
            # otherwise wait for our delayed ACK under Nagle's algorithm: 40 ms a request.
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, _QUICKACK, 1)
        n = self._raw.readinto(buffer) or 0
        self._left -= n
        if self._left < 0:
            raise _Flood()
        return n

    def close(self) -> None:
        self._raw.close()  # releases the socket's reference from makefile()
        super().close()


class _Response(http.client.HTTPResponse):
    """An HTTP response read through a :class:`_DeadlineReader`."""

    def __init__(self, sock: socket.socket, deadline: float, limit: int, **kwargs: Any) -> None:
        super().__init__(sock, **kwargs)
        self.fp.close()
        raw = sock.makefile("rb", buffering=0)
        self.fp = io.BufferedReader(_DeadlineReader(raw, sock, deadline, limit))


class _HTTP(http.client.HTTPConnection):
    """A connection with a per-request deadline and size limit, sending each request whole.

    http.client writes the headers and the body apart; two segments cost a loopback round
    trip about a tenth more, and tempt Nagle's algorithm. ``send`` collects, ``flush`` sends.
    """

    deadline = 0.0
    limit = MAX_RESPONSE

    def __init__(self, host: str, port: int | None) -> None:
        super().__init__(host, port)
        self.response_class = self._response  # type: ignore[assignment]
        self._out: list[bytes] = []

    def _response(self, sock: socket.socket, *args: Any, **kwargs: Any) -> _Response:
        if args:  # debuglevel, passed positionally by http.client when debugging
            kwargs["debuglevel"] = args[0]
        return _Response(sock, self.deadline, self.limit, **kwargs)

    def send(self, data: Any) -> None:
        self._out.append(bytes(data))

    def flush(self) -> None:
        """Send what the request wrote, in one piece."""
        data = b"".join(self._out)
        self._out = []
        super().send(data)


class _HTTPS(_HTTP, http.client.HTTPSConnection):
    """The same over TLS."""


def _quote(data: bytes | str) -> str:
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    if len(text) > QUOTE:
        return repr(text[:QUOTE]) + f"... ({len(text)} characters)"
    return repr(text)


class HttpBot(Bot):
    """A bot behind an HTTP endpoint: ``HttpBot("http://127.0.0.1:9000/")``.

    ``decision_time`` limits each request (seconds), ``match_time`` (optional) the total time
    the endpoint may take over a match, ``max_response`` the bytes of one answer.
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
    ) -> None:
        shown = quote(url.strip())
        try:
            parts = urllib.parse.urlsplit(url.strip())
        except ValueError as exc:  # "Invalid IPv6 URL": a bracket not closed
            raise BotError(f"bad bot URL {shown}: {exc}") from None
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise BotError(f"bad bot URL {shown}: write http://HOST:PORT/PATH or https://...")
        try:
            port = parts.port
        except ValueError:
            raise BotError(f"bad bot URL {shown}: the port is not a number 1-65535") from None
        if decision_time <= 0:
            raise BotError(f"decision time must be positive, got {decision_time}")
        self.url = url.strip()
        self.name = name or self.url
        self._host = parts.hostname
        self._port = port
        self._https = parts.scheme == "https"
        self._base = parts.path.rstrip("/")
        self._query = f"?{parts.query}" if parts.query else ""
        self.decision_time = decision_time
        self.match_time = match_time
        self.max_response = max_response
        self._conn: _HTTP | _HTTPS | None = None
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
        adapter = declared(type(game), "http_adapter", _Adapter)
        if adapter is _Adapter or not adapter.speaks_for(game.num_players):
            adapter = GenericEvents  # seed 004's Spades endpoints seat four: elsewhere generic
        self._adapter = adapter(self)

    def act(self, view: View) -> int:
        self.throttle.decision(view.hand_number)
        return self._events().act(view)

    def take_chat(self) -> tuple[list[str], str]:
        """The ``say`` lines of its answers since last asked (throttled), and why some were
        dropped ("" if none were, or if that was said already this match)."""
        return self.throttle.take()

    def end_hand(self, view: View, result: HandResult) -> None:
        self._events().end_hand(view, result)

    def end_match(self, view: View) -> None:
        self._events().end_match(view)

    def close(self) -> None:
        self._drop()

    def _events(self) -> _Adapter:
        if self._adapter is None:
            raise BotError(f"HTTP bot {self.url} was not started")
        return self._adapter

    # ----------------------------------------------------------------------------- requests

    def path(self, event: str) -> str:
        """The request path of an event for this match and seat."""
        return f"{self._base}/{self.game_id}/{self.seat + 1}/{event}{self._query}"

    def fault(self, kind: str, detail: str) -> BotFault:
        """A fault of this bot (the connection is dropped: its state is unknown)."""
        self._drop()
        return BotFault(self.seat, kind, detail)

    def _drop(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def _connection(self) -> _HTTP | _HTTPS:
        if self._conn is None:
            self._conn = (_HTTPS if self._https else _HTTP)(self._host, self._port)
        return self._conn

    def post(self, event: str, payload: Any, want: str | None, forgive: bool = False) -> Any:
        """POST ``payload`` to ``event``; the decoded JSON answer, or None when ``want`` is None.

        ``want`` describes the expected answer, for fault messages (e.g. ``{"card": "Ac"}``).
        Raises :class:`BotFault` on every failure; with ``forgive``, a status other than 2xx
        whose answer was read in full returns None instead, and the connection is kept.
        """
        body = json.dumps(payload, separators=(",", ":")).encode()
        path = self.path(event)
        where = f"POST {path}"
        limit = self.decision_time
        kind_late = "timeout"
        if self.match_time is not None:
            left = self.match_time - self.used
            if left <= 0:
                raise self.fault("match-time", f"used its {self.match_time:g} s for the match")
            if left < limit:
                limit, kind_late = left, "match-time"
        start = time.monotonic()
        deadline = start + limit
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        status, reason, data = 0, "", b""
        try:
            for attempt in (0, 1):
                conn = self._connection()
                reused = conn.sock is not None
                conn.deadline = deadline
                conn.limit = self.max_response
                conn.timeout = max(deadline - time.monotonic(), 0.001)
                if conn.sock is not None:
                    conn.sock.settimeout(conn.timeout)
                try:
                    conn.request("POST", path, body, headers)
                    conn.flush()
                    response = conn.getresponse()
                    length = response.getheader("Content-Length")
                    if length and length.isdigit() and int(length) > self.max_response:
                        raise _Flood()
                    data = response.read()
                    status, reason = response.status, response.reason
                    break
                except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                    # A kept-alive connection the server had closed: one fresh try.
                    self._drop()
                    if not reused or attempt:
                        raise
        except _Flood:
            raise self.fault(
                "flood", f"{where}: the answer is longer than {self.max_response} bytes"
            ) from None
        except TimeoutError:
            raise self.fault(kind_late, f"{where}: no complete answer within {limit:g} s") from None
        except ConnectionRefusedError:
            raise self.fault(
                "closed", f"{where}: connection refused (is the bot running?)"
            ) from None
        except http.client.RemoteDisconnected:
            raise self.fault(
                "closed", f"{where}: the bot closed the connection without an answer"
            ) from None
        except http.client.IncompleteRead as exc:
            raise self.fault(
                "closed", f"{where}: the answer stopped after {len(exc.partial)} bytes"
            ) from None
        except http.client.HTTPException as exc:
            text = _quote(str(exc)) if str(exc) else type(exc).__name__
            raise self.fault("malformed", f"{where}: not an HTTP answer: {text}") from None
        except OSError as exc:
            text = str(exc) or type(exc).__name__
            raise self.fault("closed", f"{where}: connection failed: {text}") from None
        finally:
            self.requests += 1
            self.used += time.monotonic() - start
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

    def news(self, event: str, payload: Any) -> None:
        """POST news a bot may ignore (``chat``): any failure is forgiven, only its time
        counts (a bot written before the event existed answers 404, and plays on).

        A complete answer of any status keeps the connection for the next request; only a
        failure that leaves it in an unknown state (a timeout, a cut answer) drops it.
        """
        with contextlib.suppress(BotFault):
            self.post(event, payload, None, forgive=True)

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


def _action_text(game: Game, action: int) -> str:
    try:
        return game.action_name(action)
    except NotationError:
        return f"action {action}"


class _Adapter:
    """How a game's turns and news become HTTP events (one per game family).

    A game names its own in ``Game.http_adapter`` ("module:Class"); :class:`GenericEvents`
    serves every game that names none.
    """

    #: the table sizes the adapter speaks for (None: any); at another size a game's bots get
    #: the generic events
    seats: tuple[int, ...] | None = None

    def __init__(self, bot: HttpBot) -> None:
        self.bot = bot
        #: the seat's events, read at each request and the hand's end
        self.stream = SeatStream(bot.game, bot.seat)

    @classmethod
    def speaks_for(cls, players: int) -> bool:
        """Whether the adapter speaks for a table of ``players`` seats."""
        return cls.seats is None or players in cls.seats

    def act(self, view: View) -> int:
        raise NotImplementedError

    def end_hand(self, view: View, result: HandResult) -> None:
        """The hand is over."""

    def end_match(self, view: View) -> None:
        """The match is over."""


# ------------------------------------------------------------------------- the generic scheme


def decision_event(view: View) -> str:
    """The event of a decision: ``bid`` in the auction, ``play`` in card play, else the phase."""
    phase = view.phase
    if phase == AUCTION:
        return "bid"
    if phase == PLAY:
        return "play"
    return str(view.to_dict()["phase"])


class GenericEvents(_Adapter):
    """Every game but spades: ``start``, ``deal``, decisions, ``trick``, ``hand``, ``end``."""

    def __init__(self, bot: HttpBot) -> None:
        super().__init__(bot)
        self.started = False

    def _catch_up(self, view: View) -> None:
        bot = self.bot
        if not self.started:
            game = view.game
            bot.post(
                "start",
                {
                    "game": game.spec(),
                    "title": game.title,
                    "seat": view.seat,
                    "players": game.num_players,
                    "options": game.options_dict(),
                },
                None,
            )
            self.started = True
        hand = view.hand_number
        new_hand = hand != self.stream.hand
        fresh = self.stream.news(view)
        if new_hand:
            bot.post("deal", view.to_dict(), None)
        for event in fresh:
            if isinstance(event, Chat):
                if event.seat != view.seat:  # a bot is not told its own lines
                    bot.news("chat", {"hand_number": hand, "seat": event.seat, "text": event.text})
            elif isinstance(event, TrickWon):
                bot.post(
                    "trick",
                    {
                        "hand_number": hand,
                        "leader": event.leader,
                        "cards": [card_name(c) for c in event.cards],
                        "winner": event.winner,
                    },
                    None,
                )

    def act(self, view: View) -> int:
        self._catch_up(view)
        bot = self.bot
        event = decision_event(view)
        want = '{"action": "<one of the legal actions>"}'
        answer = bot.post(event, view.to_dict(), want)
        game = view.game
        if isinstance(answer, dict) and "action" not in answer:
            if view.phase == PLAY and "card" in answer:
                return _card_answer(bot, view, event, answer["card"], want)
            if view.phase == AUCTION and "bid" in answer:
                n = answer["bid"]
                if type(n) is not int or not 0 <= n < 64:
                    raise bot.fault(
                        "malformed",
                        f"POST {bot.path(event)}: answered bid {_quote(json.dumps(n))}; "
                        "expected a whole number of 0 or more",
                    )
                return bot.check_legal(view, BID + n, event, f"bid {n}")
        text = bot.field(event, answer, "action", want)
        if not isinstance(text, str):
            raise bot.fault(
                "malformed",
                f"POST {bot.path(event)}: answered action {_quote(json.dumps(text))}; "
                f"expected text like {_legal_example(view)}",
            )
        try:
            action = game.parse_action(text)
        except NotationError as exc:
            raise bot.fault("malformed", f"POST {bot.path(event)}: {exc}") from None
        return bot.check_legal(view, action, event, repr(text))

    def end_hand(self, view: View, result: HandResult) -> None:
        self._catch_up(view)
        self.bot.post(
            "hand",
            {"hand_number": view.hand_number, "result": result.to_dict(), "scores": view.scores},
            None,
        )

    def end_match(self, view: View) -> None:
        if not self.started:
            return
        self.bot.post(
            "end",
            {"hands": view.hand_number + 1, "scores": view.scores, "over": view.phase == OVER},
            None,
        )


def _legal_example(view: View) -> str:
    legal = view.legal_actions()
    names = [repr(_action_text(view.game, a)) for a in legal[:4]]
    return ", ".join(names) + (" ..." if len(legal) > 4 else "")


def _card_answer(bot: HttpBot, view: View, event: str, value: Any, want: str) -> int:
    """The action of a ``{"card": ...}`` answer (a legal card), or a fault."""
    if not isinstance(value, str):
        raise bot.fault(
            "malformed",
            f"POST {bot.path(event)}: answered card {_quote(json.dumps(value))}; expected {want}",
        )
    try:
        card = parse_card(value)
    except NotationError:
        raise bot.fault(
            "malformed",
            f"POST {bot.path(event)}: answered card {_quote(value)}, not a card; expected {want}",
        ) from None
    return bot.check_legal(view, card, event, repr(value))


# ------------------------------------------------------------------- spades: seed 004 exactly


def spades_card(card: int) -> str:
    """A card as seed 004 writes it: rank then lower-case suit, ``10`` for ten (``10s``, ``Ac``)."""
    if card >= JOKER:
        return card_name(card)
    rank = RANKS[card % 13]
    return ("10" if rank == "T" else rank) + "cdhs"[card // 13]


def _player(seat: int) -> int:
    return seat + 1


class SpadesEvents(_Adapter):
    """Seed 004's five endpoints, mapped onto the spades game's phases.

    Per hand, for this seat: ``blind`` then ``deal`` at its turn to bid (a blind nil bidder
    gets ``deal`` once it may see its cards, at the start of play, and its answer is ignored);
    ``bid`` once all four have bid; ``play`` at each turn; ``book`` after every book.
    """

    #: seed 004's document seats four players (``player1`` .. ``player4``, two teams)
    seats = (4,)
    BLIND_WANT = '{"blind": true} or {"blind": false}'
    DEAL_WANT = '{"bid": N}, N a whole number of tricks 0-13'
    PLAY_WANT = '{"card": "Ac"}, a card in your hand written rank then suit (10s, Qh, 2c)'

    def __init__(self, bot: HttpBot) -> None:
        super().__init__(bot)
        # What the bot was sent this hand (what happened is the stream's).
        self.blind_sent = False
        self.deal_pending = False  # bid blind nil; the hand comes once it may look
        self.bids_sent = False

    # The spades module is imported lazily: the engine and the other games need none of it.
    @staticmethod
    def _codes() -> tuple[int, int, int]:
        from tricktable.games import spades

        return spades.BLIND, spades.LOOK, spades.BLIND_NIL

    def _bids(self, view: View) -> list[int | None]:
        out: list[int | None] = []
        for bid in view.info().get("bids", [None] * 4):
            if bid is None or isinstance(bid, int):
                out.append(bid)
            else:
                out.append(-1 if bid == "blind-nil" else 0)  # our reading: blind nil is -1
        return out

    def _round(self, view: View) -> dict[str, int | None]:
        return {f"player{p + 1}_bid": bid for p, bid in enumerate(self._bids(view))}

    def _game(self, view: View) -> dict[str, int | None]:
        scores = view.scores
        leader: int | None = _player((view.dealer + 1) % 4)
        if view.game.options.first_lead != "left_of_dealer":
            # The 2C holder leads: unknown (and secret) until play begins.
            tricks = view.tricks
            if tricks:
                leader = _player(tricks[0][0])
            elif view.trick:
                leader = _player(view.trick[0][0])
            elif view.phase == PLAY:
                leader = _player(view.to_act)
            else:
                leader = None
        out: dict[str, int | None] = {"dealer": _player(view.dealer), "leader": leader}
        for team in range(4):
            out[f"team{team + 1}_score"] = scores[team & 1]  # teamN = player N's side
        return out

    def _deal_body(self, view: View) -> dict[str, Any]:
        return {
            "hand": [spades_card(c) for c in reversed(cards_in(view.hand))],
            "round": self._round(view),
            "game": self._game(view),
        }

    def _book(
        self, leader: int, cards: list[tuple[int, int]], winner: int | None
    ) -> dict[str, Any]:
        body: dict[str, Any] = {"leader": _player(leader)}
        played = dict(cards)
        for seat in range(4):
            card = played.get(seat)
            body[f"player{seat + 1}_card"] = None if card is None else spades_card(card)
        if winner is not None:
            body["winner"] = _player(winner)
        return body

    def _catch_up(self, view: View) -> None:
        bot = self.bot
        if view.hand_number != self.stream.hand:
            self.blind_sent = self.deal_pending = self.bids_sent = False
        fresh = list(self.stream.news(view))
        seat = view.seat
        # A blind nil bidder picks its cards up as play begins.
        looked = any(isinstance(event, Dealt) and event.seat == seat for event in fresh)
        if self.deal_pending and looked:
            self.deal_pending = False
            bot.post("deal", self._deal_body(view), None)  # the seed ignores this answer
        # The view holds every bid made so far, those before a resumed match's stream too.
        bids_made = sum(bid is not None for bid in self._bids(view))
        if not self.bids_sent and bids_made == view.game.num_players:
            self.bids_sent = True
            bot.post("bid", self._round(view), None)
        for event in fresh:
            if isinstance(event, TrickWon):
                leader = event.leader
                order = [((leader + i) % 4, c) for i, c in enumerate(event.cards)]
                bot.post("book", self._book(leader, order, event.winner), None)

    def _ask_blind(self, view: View) -> bool:
        bot = self.bot
        self.blind_sent = True
        body = {"round": self._round(view), "game": self._game(view)}
        answer = bot.post("blind", body, self.BLIND_WANT)
        value = bot.field("blind", answer, "blind", self.BLIND_WANT)
        if not isinstance(value, bool):
            raise bot.fault(
                "malformed",
                f"POST {bot.path('blind')}: answered blind {_quote(json.dumps(value))}; "
                f"expected {self.BLIND_WANT}",
            )
        return value

    def act(self, view: View) -> int:
        self._catch_up(view)
        bot = self.bot
        blind_phase, look, blind_nil = self._codes()
        phase = view.phase
        if phase == blind_phase:
            if self._ask_blind(view):
                self.deal_pending = True
                return blind_nil
            return look
        if phase == AUCTION:
            wants_blind = False
            if not self.blind_sent:
                # Seed 004 always asks first. Where our rules offer no blind nil (by default
                # only to a side 100 or more behind), "true" gets the nearest bid, nil.
                wants_blind = self._ask_blind(view)
            if wants_blind and BID in view.legal_actions():
                bot.post("deal", self._deal_body(view), None)  # the seed ignores this answer
                return BID
            answer = bot.post("deal", self._deal_body(view), self.DEAL_WANT)
            n = bot.field("deal", answer, "bid", self.DEAL_WANT)
            if isinstance(n, float) and n.is_integer():
                n = int(n)
            if type(n) is not int:
                raise bot.fault(
                    "malformed",
                    f"POST {bot.path('deal')}: answered bid {_quote(json.dumps(n))}; "
                    f"expected {self.DEAL_WANT}",
                )
            n = min(max(n, 0), 63)  # the seed: "responses of < 0 are treated as 0"
            return bot.check_legal(view, BID + n, "deal", f"bid {answer['bid']}")
        if phase == PLAY:
            trick = view.trick
            leader = trick[0][0] if trick else view.seat
            answer = bot.post("play", self._book(leader, trick, None), self.PLAY_WANT)
            value = bot.field("play", answer, "card", self.PLAY_WANT)
            return _card_answer(bot, view, "play", value, self.PLAY_WANT)
        raise bot.fault("illegal", f"spades has no HTTP event for phase {phase}")

    def end_hand(self, view: View, result: HandResult) -> None:
        self._catch_up(view)
