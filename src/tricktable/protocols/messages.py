"""The messages of the stdin/stdout protocol, built from what one seat may see.

Every line is ``|TYPE|KEY|DATA...|END|``. A :class:`Conversation` speaks for one seat: it turns
the seat's :class:`~tricktable.engine.trick.View` into the INFO lines that seat has not had
yet, asks its QUERY, and reads the RESPONSE back into an action. It does no input or output,
so it is tested without a process.

For a game that declares ``seed_protocol`` (Tricks), played at four seats as seed 002 seats
it, the conversation is exactly seed 002's (``start game``, ``cards``, ``start hand``, ``start
trick``, ``played``, ``bad card``, ``end trick``, ``end hand``, ``end game`` and ``QUERY
card``), and nothing else is sent. Every other game, and such a game at any other table size,
speaks the same format with the messages it needs, for as many seats as the table has (see
docs/protocol-stdio.md).

Lines are built lazily: at each query and at the end of a hand the conversation reads the
events of the seat's stream it has not reported yet (:class:`~tricktable.seat.stream.SeatStream`,
which also counts what they add up to). The match loop therefore pays nothing per action for
this seat; only the bot's own turns and the ends of hands do any work.
"""

from __future__ import annotations

import json
from typing import Any

from tricktable.cards import SUITS, card_name, format_cards, parse_card
from tricktable.engine import actions as act
from tricktable.engine.events import (
    Acted,
    CardPlayed,
    Chat,
    Dealt,
    Event,
    HandChanged,
    HandStarted,
    PassReceived,
    TrickWon,
    TrumpNamed,
)
from tricktable.engine.results import HandResult
from tricktable.engine.trick import AUCTION, PLAY, Game, View
from tricktable.errors import BotFault, NotationError
from tricktable.seat.stream import SeatStream

#: the seats of seed 002's plain protocol: at any other table size a game speaks the extended one
SEED_SEATS = 4


def seat_name(seat: int) -> str:
    """The name a seat plays under: ``player1`` .. ``player4`` (seed 004's numbering), and on
    to ``player7`` at larger tables."""
    return f"player{seat + 1}"


def clean(text: str) -> str:
    """Text made safe for one field: no bar, no line break (each becomes a space)."""
    if "|" in text or "\n" in text or "\r" in text:
        return text.replace("|", " ").replace("\n", " ").replace("\r", " ")
    return text


def line(kind: str, key: str, *data: str) -> str:
    """One protocol line, newline included: ``line("INFO", "played", "p1", "AS")``."""
    return "|" + "|".join((kind, key, *data, "END")) + "|\n"


def json_field(value: Any) -> str:
    """A JSON value as one field: compact, with every bar escaped as ``\\u007c``."""
    return json.dumps(value, separators=(",", ":")).replace("|", "\\u007c")


def split_line(text: str) -> list[str] | None:
    """The fields of ``|TYPE|KEY|DATA...|END|`` (TYPE, KEY, DATA...), or None if not framed."""
    text = text.rstrip("\r")
    if len(text) < 7 or text[0] != "|" or not text.endswith("|END|"):
        return None
    fields = text[1:-5].split("|")
    if len(fields) < 2 or not fields[0] or not fields[1]:
        return None
    return fields


class BadAnswer(BotFault):
    """A framed answer that is not a legal action (``kind`` ``illegal``).

    ``answer`` is the data the bot sent, ``action`` the action it names when it names one
    (Tricks charges a bad card with the card that was sent).
    """

    def __init__(self, seat: int, detail: str, answer: str, action: int | None) -> None:
        super().__init__(seat, "illegal", detail)
        self.answer = answer
        self.action = action


class Conversation:
    """What one seat is told and asked during a match, one protocol line at a time.

    The seat's events and what they add up to (the hand, its tricks, the seat's cards, trump,
    the scores) come from its :class:`~tricktable.seat.stream.SeatStream`; the conversation
    keeps only where its own lines go.
    """

    def __init__(self, game: Game, seat: int, names: list[str] | None = None) -> None:
        self.game = game
        self.seat = seat
        self.n = game.num_players
        self.names = names if names is not None else [seat_name(s) for s in range(self.n)]
        #: seed 002's exact protocol (the game declares it speaks it, and seed 002 seats four),
        #: or the extended one
        self.plain = game.seed_protocol and self.n == SEED_SEATS
        #: trump is named by the first lead (the Pitch family), else before any card
        self.trump_by_lead = game.trump_named_by_lead
        #: the seat's events, read a sync at a time, and their tallies
        self.stream = SeatStream(game, seat)
        #: the hand whose ``end hand`` was told (-1: none): what follows it in the same hand
        #: is not told
        self.ended = -1
        # What follows is where lines go, which only the conversation knows.
        #: whether the event being told is the first since the sync or the hand began: the
        #: cards dealt then are told with the hand's start, cards seen later at the sync's end
        self.fresh = False
        #: where each action line of the current sync stands in its output (late passes)
        self.lines: dict[tuple[int, int], int] = {}
        #: the trick whose ``start trick`` was told (-1: none this hand): a seat that leads
        #: is told it at its query, before its card
        self.started = -1
        #: the cards the seat was last told it holds, less those it played since
        self.shown = 0
        #: whether the seat's cards changed in this sync (told at its end, if they differ)
        self.cards_due = False
        #: whether trump was named and not told yet (before the first card, or at the sync's
        #: end; right after the first lead where the lead names it)
        self.trump_due = False
        self.notes: dict[tuple[int, int], str] = {}
        self.pending: list[str] = []

    # ------------------------------------------------------------------------ INFO

    def start(self) -> list[str]:
        """The lines that open the match."""
        out = [line("INFO", "start game", *self.names)]
        if not self.plain:
            out.append(line("INFO", "game", clean(self.game.spec())))
            out.append(line("INFO", "seat", str(self.seat)))
        return out

    def sync(self, view: View) -> list[str]:
        """The INFO lines about the events of ``view.events`` this seat has not been told yet.

        The state must be listening (``state.listen()``): the lines are the seat's own event
        stream, read from the position this conversation reached last time.
        """
        out: list[str] = []
        stream = self.stream
        hand = stream.hand
        news = stream.news(view)
        if view.hand_number == self.ended:
            for _ in news:
                pass  # this hand was closed by end_hand; nothing follows it
            return out
        if stream.hand != hand:
            # Joined at once: the state began listening in the middle of this hand (a resumed
            # match), whose start is told from the view.
            self._open_hand(out)
            self._cards(view.dealt, out)
        self.fresh = False
        self.lines = {}
        for event in news:
            self._tell(event, out)
        if self.cards_due:
            self.cards_due = False
            if stream.known != self.shown:
                # Cards received (a pass), picked up (an up-card) or first seen (blind nil).
                self.shown = stream.known
                out.append(line("INFO", "cards", format_cards(self.shown)))
        if not self.plain:
            self._trump(out)
            if self.pending:
                out.extend(self.pending)
                self.pending = []
        return out

    def end_hand(self, view: View, result: HandResult) -> list[str]:
        """The lines that close a hand: its last events, its result (not in tricks), its end."""
        out = self.sync(view)
        if view.hand_number == self.ended:
            return out
        if not self.plain:
            out.append(line("INFO", "hand result", json_field(result.to_dict())))
            out.append(line("INFO", "scores", *map(str, view.scores)))
        self.ended = self.stream.hand
        out.append(line("INFO", "end hand", str(self.ended)))
        return out

    def end_match(self, view: View) -> list[str]:
        """The lines that close the match: anything unsaid, then every player's score."""
        out = self.sync(view) if self.stream.hand != self.ended else []
        if not self.plain and self.pending:
            out.extend(self.pending)
            self.pending = []
        scores = view.scores
        team_of = self.game.team_of
        fields = [f"{name} {scores[team_of(s)]}" for s, name in enumerate(self.names)]
        out.append(line("INFO", "end game", *fields))
        return out

    def notice(self, fault: dict[str, Any]) -> None:
        """Take note of another bot's fault (Tricks names its bad card; others get a chat)."""
        answer = fault.get("answer")
        if self.plain:
            if isinstance(answer, str) and fault.get("action") is not None:
                self.notes[(int(fault["hand"]), int(fault["action"]))] = answer
            return
        name = self.names[int(fault["seat"])]
        text = f"{name} {fault['kind']}: {fault['penalty']}"
        self.pending.append(line("INFO", "chat", "server", clean(text)))

    def _trump(self, out: list[str]) -> None:
        if self.trump_due:
            out.append(line("INFO", "trump", SUITS[self.stream.trump]))
            self.trump_due = False

    def _open_hand(self, out: list[str]) -> None:
        self.started = -1
        self.trump_due = False
        self.cards_due = False
        self.shown = 0
        out.append(line("INFO", "start hand", str(self.stream.hand)))
        if not self.plain:
            out.append(line("INFO", "dealer", self.names[self.stream.dealer]))

    def _cards(self, dealt: int, out: list[str]) -> None:
        self.shown = dealt
        if dealt or self.plain:
            out.append(line("INFO", "cards", format_cards(dealt)))

    def _tell(self, event: Event, out: list[str]) -> None:
        """The lines of one event of the seat's stream (some wait for the end of the sync);
        the stream's tallies already count it."""
        if isinstance(event, Chat):
            # Before the freshness is spent: talk between a hand's start and its cards must
            # not delay them. Seed 002 has no chat, and a bot is not told its own lines.
            if not self.plain and event.seat != self.seat:
                who = self.names[event.seat] if 0 <= event.seat < self.n else "server"
                out.append(line("INFO", "chat", who, clean(event.text)))
            return
        fresh = self.fresh
        self.fresh = False
        if isinstance(event, HandStarted):
            self._open_hand(out)
            self.fresh = True
        elif isinstance(event, CardPlayed):
            self._played(event.seat, event.card, out)
        elif isinstance(event, Acted):
            self._acted(event.seat, event.action, event.text, out)
        elif isinstance(event, Dealt):
            if fresh:  # dealt and seen at once: told with the start of the hand
                self._cards(event.cards, out)
            else:  # first seen later (blind nil): told at the end of the sync
                self.cards_due = True
        elif isinstance(event, HandChanged):
            self.cards_due = True
        elif isinstance(event, PassReceived):
            if not self.plain:
                self._received(event, out)
        elif isinstance(event, TrumpNamed):
            if not self.plain:
                self.trump_due = True
                stream = self.stream
                if self.trump_by_lead and stream.plays == 1 and len(stream.trick) == 1:
                    self._trump(out)  # named by the first lead: right after it
        elif isinstance(event, TrickWon):
            self._end_trick(event.winner, out)

    def _played(self, seat: int, card: int, out: list[str]) -> None:
        stream = self.stream
        if not self.plain and stream.plays == 1 and not self.trump_by_lead:
            self._trump(out)  # trump is told before the first card
        if self.started != stream.tricks:
            self._start_trick(seat, out)
        out.append(line("INFO", "played", self.names[seat], card_name(card)))
        if seat == self.seat:
            self.shown &= ~(1 << card)

    def _acted(self, seat: int, action: int, text: str, out: list[str]) -> None:
        if action >= act.PASS_CARDS and self.stream.received.get(seat) == action ^ act.PASS_CARDS:
            return  # the last pass, told a moment ago to its receiver as the cards moved
        name = self.names[seat]
        if self.plain:
            # The only other action of Tricks: a bad card, which throws the hand in. A fault
            # notice names it by its place among the hand's actions.
            index = len(self.stream.actions) - 1
            sent = self.notes.get((self.stream.hand, index))
            if sent is None:
                sent = text.partition(" ")[2]
            out.append(line("INFO", "bad card", name, clean(sent)))
            self.started = -1
            return
        out.append(self._action_line(name, action, text))
        self.lines[(seat, action)] = len(out) - 1

    def _action_line(self, name: str, action: int, text: str) -> str:
        if action >= act.PASS_CARDS:
            return line("INFO", "pass", name, text.partition(" ")[2])
        if action == act.PASS or act.is_bid(action) or text.startswith("bid"):
            return line("INFO", "bid", name, text)
        return line("INFO", "action", name, text)

    def _received(self, event: PassReceived, out: list[str]) -> None:
        """Tell a pass this seat receives, now that the cards have moved.

        It is told where it was made among the passes this sync tells (the seat's own may
        have come after it), which ``event.order``, the order of the passing, decides.
        """
        item = (event.giver, act.PASS_CARDS | event.cards)
        turn = event.order.index(event.giver)
        later = [
            pos
            for (seat, action), pos in self.lines.items()
            if action >= act.PASS_CARDS and event.order.index(seat) > turn
        ]
        at = min(later, default=len(out))
        text = self.game.action_name(item[1])
        out.insert(at, self._action_line(self.names[event.giver], item[1], text))
        for key, pos in self.lines.items():
            if pos >= at:
                self.lines[key] = pos + 1
        self.lines[item] = at

    def _start_trick(self, leader: int, out: list[str]) -> None:
        order = [self.names[(leader + i) % self.n] for i in range(self.n)]
        self.started = self.stream.tricks
        out.append(line("INFO", "start trick", str(self.started), *order))

    def _end_trick(self, winner: int, out: list[str]) -> None:
        stream = self.stream
        won = stream.tricks_won[winner]
        if self.plain:
            # Seed 002's server sends the winner's score after the trick.
            won += stream.scores[winner] if stream.hand > 0 else 0
        out.append(line("INFO", "end trick", str(stream.tricks - 1), self.names[winner], str(won)))

    # ------------------------------------------------------------------------ QUERY

    def query(self, view: View) -> tuple[list[str], str, list[int]]:
        """The lines to send before an answer (INFO, then the QUERY), its key, the legal actions."""
        out = self.sync(view)
        legal = view.legal_actions()
        game = self.game
        if view.phase == PLAY:
            if self.started != self.stream.tricks:
                trick = view.trick
                self._start_trick(trick[0][0] if trick else self.seat, out)
            key = "card"
            data = [] if self.plain else [" ".join(card_name(a) for a in legal)]
        elif legal and all(a >= act.PASS_CARDS for a in legal):
            key = "pass"
            data = [str((legal[0] ^ act.PASS_CARDS).bit_count())]
        else:
            key = "bid" if view.phase == AUCTION else ""
            data = [game.action_name(a) for a in legal]
        if not self.plain:
            facts = view.to_dict()
            if not key:
                key = clean(str(facts["phase"])) or "action"
            out.append(line("INFO", "view", json_field(facts)))
        out.append(line("QUERY", key, *data))
        return out, key, legal

    def answer(self, fields: list[str], key: str, legal: list[int], view: View) -> int:
        """The action a RESPONSE names; a :class:`BotFault` if it is malformed or not legal."""
        want = f"|RESPONSE|{key}|...|END|"
        if fields[0] != "RESPONSE" or fields[1] != key or len(fields) != 3:
            got = "|" + "|".join(fields) + "|END|"
            raise BotFault(self.seat, "malformed", f"answered {got!r}; expected {want}")
        text = fields[2]
        try:
            action = self._parse(key, text)
        except NotationError as exc:
            raise BadAnswer(
                self.seat, f"answered {text!r} to QUERY {key}: {exc}", text, None
            ) from None
        if action not in legal:
            reason = view.illegal(action)
            raise BadAnswer(
                self.seat, f"answered {text!r} to QUERY {key}: {reason}", text, action
            ) from None
        return action

    def _parse(self, key: str, text: str) -> int:
        text = text.strip()
        if key == "card":
            if text.lower().startswith("play "):
                text = text[5:]
            return parse_card(text)
        if key == "pass":
            words = text.replace(",", " ").split()
            if words and words[0].lower() == "pass":
                words = words[1:]
            if not words:
                raise NotationError("no cards named: write the cards to pass, like 2C 3D 4H")
            mask = 0
            for word in words:
                mask |= 1 << parse_card(word)
            return act.PASS_CARDS | mask
        return self.game.parse_action(text)
