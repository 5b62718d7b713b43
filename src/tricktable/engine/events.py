"""Events: what just happened at a table, each with who may see it.

The engine emits them as it deals and applies actions (when a state's ``events`` log is on);
the referee adds faults, substitutions, forfeits and chat. Every consumer — the terminal
table, the stdio and HTTP adapters, a websocket later — reads one seat's (or a spectator's)
stream instead of working out from the state what changed.

Who may see an event is one bit mask, ``audience``: bit ``s`` for seat ``s`` and
:data:`SPECTATOR` for someone watching without a seat. The log files each event into the
stream of every viewer in its audience once, so a stream never holds what its viewer may not
know; ``EventLog.since(viewer, n)`` is the reconnecting client's "what came after n".

Events are small read-only classes, built only while a state's log is on: the path bots
and search take pays nothing for them. Every stream holds the same objects (a public event
is filed once in each), so none can be changed: a field is set once, in ``__init__``, and
sequences are tuples; what one consumer (a plug-in bot, say) does to an event it was given
cannot change what another seat is told.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import FrozenInstanceError
from typing import Any, ClassVar, Final, overload

from tricktable.cards import SUITS, card_name, format_cards

#: the audience bit of spectators (seats use bits 0..7)
SPECTATOR: Final = 8
#: the audience of a public event: every seat and every spectator
EVERYONE: Final = 0x1FF


#: sets a field of a read-only event, past its own ``__setattr__``
_set: Final = object.__setattr__


class Event:
    """Something that happened; ``audience`` says who may see it (see the module)."""

    kind: ClassVar[str] = "event"
    #: the fields ``to_dict`` writes, in order
    fields: ClassVar[tuple[str, ...]] = ()

    __slots__ = ("audience",)

    audience: int

    def __init__(self, audience: int = EVERYONE) -> None:
        _set(self, "audience", audience)

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}: events are read-only")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}: events are read-only")

    def visible_to(self, viewer: int) -> bool:
        """Whether seat ``viewer`` (or :data:`SPECTATOR`) may see this event."""
        return bool(self.audience >> viewer & 1)

    def to_dict(self) -> dict[str, Any]:
        """The event as JSON-ready data: ``type``, then its ``fields``, with cards by name
        and suits by letter."""
        out: dict[str, Any] = {"type": self.kind}
        for name in self.fields:
            out[name] = _json(name, getattr(self, name))
        return out

    def __repr__(self) -> str:
        fields = ", ".join(f"{k}={v!r}" for k, v in self.to_dict().items() if k != "type")
        return f"{type(self).__name__}({fields})"


def _json(name: str, value: Any) -> Any:
    """A field's value as JSON carries it: cards by name, suits by letter, tuples as lists."""
    if name == "cards":
        if isinstance(value, int):
            return format_cards(value).split()  # a hand, as a mask
        return [card_name(c) for c in value]  # a trick, in play order
    if name == "card":
        return card_name(value)
    if name == "suit":
        return SUITS[value]
    if isinstance(value, tuple):
        return list(value)
    return value


class HandStarted(Event):
    """A new hand: its index (0-based) and dealer."""

    kind = "hand_started"
    __slots__ = ("dealer", "hand")
    fields = ("hand", "dealer")

    hand: int
    dealer: int

    def __init__(self, hand: int, dealer: int) -> None:
        super().__init__()
        _set(self, "hand", hand)
        _set(self, "dealer", dealer)


class _OwnCards(Event):
    """What ``seat`` holds (a mask): seen by that seat alone."""

    __slots__ = ("cards", "seat")
    fields = ("seat", "cards")

    seat: int
    cards: int

    def __init__(self, seat: int, cards: int) -> None:
        super().__init__(1 << seat)
        _set(self, "seat", seat)
        _set(self, "cards", cards)


class Dealt(_OwnCards):
    """The cards dealt to ``seat`` (seen by that seat only, once it may look at them)."""

    kind = "dealt"
    __slots__ = ()


class HandChanged(_OwnCards):
    """``seat`` now holds ``cards`` other than by playing: a pass received, an up-card taken."""

    kind = "hand_changed"
    __slots__ = ()


class PassReceived(Event):
    """``receiver`` is given the ``cards`` (a mask) that ``giver`` passed it.

    Seen by the receiver alone, once the passing is over and the cards change hands: until
    then the pass was the giver's own (its :class:`Acted`), and the giver, who was told of it
    then, learns nothing new. ``order`` is the seats in the order they passed, public at the
    table, so that a receiver can place the pass among those it saw being made.
    """

    kind = "pass_received"
    __slots__ = ("cards", "giver", "order", "receiver")
    fields = ("giver", "receiver", "cards", "order")

    giver: int
    receiver: int
    cards: int
    order: tuple[int, ...]

    def __init__(self, giver: int, receiver: int, cards: int, order: tuple[int, ...]) -> None:
        super().__init__(1 << receiver)
        _set(self, "giver", giver)
        _set(self, "receiver", receiver)
        _set(self, "cards", cards)
        _set(self, "order", order)


class Acted(Event):
    """An action other than playing a card: a bid, a pass, naming trump, passing cards."""

    kind = "acted"
    __slots__ = ("action", "seat", "text")

    seat: int
    action: int
    text: str

    def __init__(self, seat: int, action: int, text: str, audience: int = EVERYONE) -> None:
        super().__init__(audience)
        _set(self, "seat", seat)
        _set(self, "action", action)
        _set(self, "text", text)

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "seat": self.seat, "action": self.text}


class CardPlayed(Event):
    """``seat`` played ``card`` to the trick."""

    kind = "card_played"
    __slots__ = ("card", "seat")
    fields = ("seat", "card")

    seat: int
    card: int

    def __init__(self, seat: int, card: int) -> None:
        super().__init__()
        _set(self, "seat", seat)
        _set(self, "card", card)


class TrumpNamed(Event):
    """Trump is ``suit`` (0..3) for the hand; ``seat`` made it (-1: turned up, fixed)."""

    kind = "trump_named"
    __slots__ = ("seat", "suit")
    fields = ("seat", "suit")

    seat: int
    suit: int

    def __init__(self, seat: int, suit: int) -> None:
        super().__init__()
        _set(self, "seat", seat)
        _set(self, "suit", suit)


class TrickWon(Event):
    """A finished trick: its leader, its cards in play order, its winner and its points."""

    kind = "trick_won"
    __slots__ = ("cards", "leader", "number", "points", "winner")
    fields = ("number", "leader", "cards", "winner", "points")

    number: int
    leader: int
    cards: tuple[int, ...]
    winner: int
    points: int

    def __init__(
        self, number: int, leader: int, cards: tuple[int, ...], winner: int, points: int
    ) -> None:
        super().__init__()
        _set(self, "number", number)
        _set(self, "leader", leader)
        _set(self, "cards", cards)
        _set(self, "winner", winner)
        _set(self, "points", points)


class HandScored(Event):
    """A hand is over and scored: its index, its result and the match scores after it."""

    kind = "hand_scored"
    __slots__ = ("hand", "result", "scores")

    hand: int
    result: Any
    scores: tuple[int, ...]

    def __init__(self, hand: int, result: Any, scores: tuple[int, ...]) -> None:
        super().__init__()
        _set(self, "hand", hand)
        _set(self, "result", result)
        _set(self, "scores", scores)

    def to_dict(self) -> dict[str, Any]:
        result = self.result
        data = result.to_dict() if hasattr(result, "to_dict") else result
        return {"type": self.kind, "hand": self.hand, "result": data, "scores": list(self.scores)}


class MatchOver(Event):
    """The match has ended: the winning side (None: shared or no winner) and final scores."""

    kind = "match_over"
    __slots__ = ("scores", "winner")
    fields = ("winner", "scores")

    winner: int | None
    scores: tuple[int, ...]

    def __init__(self, winner: int | None, scores: tuple[int, ...]) -> None:
        super().__init__()
        _set(self, "winner", winner)
        _set(self, "scores", scores)


class Chat(Event):
    """A line of table talk from ``seat`` (-1: the table itself)."""

    kind = "chat"
    __slots__ = ("seat", "text")
    fields = ("seat", "text")

    seat: int
    text: str

    def __init__(self, seat: int, text: str) -> None:
        super().__init__()
        _set(self, "seat", seat)
        _set(self, "text", text)


class Fault(Event):
    """A bot's fault and its penalty. ``detail`` may name the seat's own cards (an illegal
    card it sent), so the referee emits it to that seat alone and a copy without it to others.
    """

    kind = "fault"
    __slots__ = ("detail", "fault", "penalty", "seat")

    seat: int
    fault: str
    penalty: str
    detail: str

    def __init__(self, seat: int, fault: str, penalty: str, detail: str, audience: int) -> None:
        super().__init__(audience)
        _set(self, "seat", seat)
        _set(self, "fault", fault)
        _set(self, "penalty", penalty)
        _set(self, "detail", detail)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.kind, "seat": self.seat, "fault": self.fault}
        out["penalty"] = self.penalty
        if self.detail:
            out["detail"] = self.detail
        return out


class Substituted(Event):
    """The seat is handed to another player (``player`` is its label) for the rest of the match."""

    kind = "substituted"
    __slots__ = ("player", "seat")
    fields = ("seat", "player")

    seat: int
    player: str

    def __init__(self, seat: int, player: str) -> None:
        super().__init__()
        _set(self, "seat", seat)
        _set(self, "player", player)


class Forfeited(Event):
    """The side of ``seat`` forfeits the match (it ends now)."""

    kind = "forfeited"
    __slots__ = ("seat",)
    fields = ("seat",)

    seat: int

    def __init__(self, seat: int) -> None:
        super().__init__()
        _set(self, "seat", seat)


class EventLog:
    """Every event of a match in order, and each viewer's stream of the events it may see.

    ``streams[v]`` is viewer ``v``'s stream (seats 0..n-1, then :data:`SPECTATOR`'s at
    index ``n``); positions in a stream are what :meth:`since` counts. Beside each stream,
    ``heads[v]`` is the same stream as an immutable chain of ``(before, event)`` nodes: what
    a view carries (:meth:`window`), so that a bot holds no list of the log's.
    """

    __slots__ = ("all", "heads", "n", "streams")

    def __init__(self, n: int) -> None:
        self.n = n
        self.all: list[Event] = []
        self.streams: list[list[Event]] = [[] for _ in range(n + 1)]
        self.heads: list[tuple[Any, Event] | None] = [None] * (n + 1)

    def emit(self, event: Event) -> None:
        """Add ``event`` to the log and to the stream of every viewer in its audience."""
        self.all.append(event)
        audience = event.audience
        streams, heads = self.streams, self.heads
        n = self.n
        for v in range(n + 1):
            if audience >> (v if v < n else SPECTATOR) & 1:
                streams[v].append(event)
                heads[v] = (heads[v], event)

    def _index(self, viewer: int) -> int:
        """The index in ``streams`` of seat ``viewer``, or of spectators (SPECTATOR or -1)."""
        return self.n if viewer < 0 or viewer == SPECTATOR else viewer

    def stream(self, viewer: int) -> list[Event]:
        """The stream of seat ``viewer``, or of spectators for :data:`SPECTATOR` (or -1)."""
        return self.streams[self._index(viewer)]

    def since(self, viewer: int, start: int) -> list[Event]:
        """The events ``viewer`` may see from position ``start`` of its stream on."""
        return self.stream(viewer)[max(start, 0) :]

    def window(self, viewer: int) -> Window:
        """``viewer``'s stream as it is now, read-only: what a view carries (no copy)."""
        i = self._index(viewer)
        return Window(self.heads[i], len(self.streams[i]))


class Window(Sequence[Event]):
    """A read-only snapshot of a stream's first ``size`` events, made without copying: the
    last node of the stream's immutable chain (see :class:`EventLog`).

    Reading the last k events walks k nodes back: what a bot reads at each decision (the
    events since it last looked) costs what it reads, not the length of the match.
    """

    __slots__ = ("_head", "_size")

    def __init__(self, head: tuple[Any, Event] | None, size: int) -> None:
        self._head = head
        self._size = size

    def __len__(self) -> int:
        return self._size

    def _last(self, count: int) -> list[Event]:
        """The last ``count`` events, in order."""
        out: list[Event] = []
        node = self._head
        for _ in range(count):
            assert node is not None
            out.append(node[1])
            node = node[0]
        out.reverse()
        return out

    @overload
    def __getitem__(self, index: int) -> Event: ...

    @overload
    def __getitem__(self, index: slice) -> list[Event]: ...

    def __getitem__(self, index: int | slice) -> Event | list[Event]:
        size = self._size
        if isinstance(index, slice):
            wanted = range(*index.indices(size))
            if not wanted:
                return []
            first = min(wanted[0], wanted[-1])
            tail = self._last(size - first)
            return [tail[i - first] for i in wanted]
        if not -size <= index < size:
            raise IndexError("event index out of range")
        node = self._head
        for _ in range(size - 1 - index % size):
            assert node is not None
            node = node[0]
        assert node is not None
        return node[1]

    def __iter__(self) -> Iterator[Event]:
        return iter(self._last(self._size))


def audience_of(seats: int) -> int:
    """The audience mask of the seats in the mask ``seats`` (no spectators)."""
    return seats & 0xFF
