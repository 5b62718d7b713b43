"""The messages of the stdin/stdout protocol, built from what one seat may see.

Every line is ``|TYPE|KEY|DATA...|END|``. A :class:`Conversation` speaks for one seat: it turns
the seat's :class:`~tricktable.engine.trick.View` into the INFO lines that seat has not had
yet, asks its QUERY, and reads the RESPONSE back into an action. It does no input or output,
so it is tested without a process.

For ``tricks`` the conversation is exactly seed 002's (``start game``, ``cards``, ``start
hand``, ``start trick``, ``played``, ``bad card``, ``end trick``, ``end hand``, ``end game``
and ``QUERY card``), and nothing else is sent. Every other game speaks the same format with the
messages it needs (see docs/protocol-stdio.md).

Events are built lazily: at each query and at the end of a hand the conversation walks the
actions of the hand it has not reported yet. The match loop therefore pays nothing per action
for this seat; only the bot's own turns and the ends of hands do any work.
"""

from __future__ import annotations

import json
from typing import Any

from tricktable.cards import SUITS, card_name, format_cards, parse_card
from tricktable.engine import actions as act
from tricktable.engine.results import HandResult
from tricktable.engine.trick import AUCTION, PLAY, Game, View
from tricktable.errors import BotFault, NotationError

#: the game whose protocol is seed 002's, word for word
SEED_GAME = "tricks"


def seat_name(seat: int) -> str:
    """The name a seat plays under: ``player1`` .. ``player4`` (seed 004's numbering)."""
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
    """What one seat is told and asked during a match, one protocol line at a time."""

    def __init__(self, game: Game, seat: int, names: list[str] | None = None) -> None:
        self.game = game
        self.seat = seat
        self.n = game.num_players
        self.names = names if names is not None else [seat_name(s) for s in range(self.n)]
        #: seed 002's exact protocol (tricks), or the extended one
        self.plain = game.name == SEED_GAME
        #: the Pitch family names trump by the first lead; other games before any card
        self.trump_by_lead = game.name == "setback"
        self.hand = -1
        self.hand_open = False
        self.seen: list[tuple[int, int]] = []
        self.trick = 0
        self.in_trick = 0
        self.trick_open = False
        self.plays = 0
        self.known = 0
        self.trump = -1
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
        """The INFO lines about everything this seat may see and has not been told yet."""
        out: list[str] = []
        if view.hand_number != self.hand or not self.hand_open:
            if view.hand_number == self.hand:
                return out  # this hand was closed by end_hand; nothing follows it
            self._open_hand(view, out)
        actions = view.actions
        seen = self.seen
        k = len(seen)
        if len(actions) >= k and actions[:k] == seen:
            for i in range(k, len(actions)):
                seat, action = actions[i]
                self._event(view, seat, action, i, out)
        else:
            for seat, action in _unseen(seen, actions):
                self._event(view, seat, action, -1, out)
        self.seen = actions
        hand = view.hand
        if hand != self.known:
            # Cards received (a pass), picked up (an up-card) or first seen (blind nil).
            self.known = hand
            out.append(line("INFO", "cards", format_cards(hand)))
        if not self.plain:
            self._trump(view, out)
            if self.pending:
                out.extend(self.pending)
                self.pending = []
        return out

    def end_hand(self, view: View, result: HandResult) -> list[str]:
        """The lines that close a hand: its last events, its result (not in tricks), its end."""
        out = self.sync(view)
        if not self.hand_open:
            return out
        if not self.plain:
            out.append(line("INFO", "hand result", json_field(result.to_dict())))
            out.append(line("INFO", "scores", *map(str, view.scores)))
        out.append(line("INFO", "end hand", str(self.hand)))
        self.hand_open = False
        return out

    def end_match(self, view: View) -> list[str]:
        """The lines that close the match: anything unsaid, then every player's score."""
        out = self.sync(view) if self.hand_open else []
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

    def _trump(self, view: View, out: list[str]) -> None:
        trump = view.trump
        if trump >= 0 and self.trump < 0:
            out.append(line("INFO", "trump", SUITS[trump]))
        self.trump = trump

    def _open_hand(self, view: View, out: list[str]) -> None:
        self.hand = view.hand_number
        self.hand_open = True
        self.seen = []
        self.trick = 0
        self.in_trick = 0
        self.trick_open = False
        self.plays = 0
        self.trump = -1
        out.append(line("INFO", "start hand", str(self.hand)))
        if not self.plain:
            out.append(line("INFO", "dealer", self.names[view.dealer]))
        dealt = view.dealt
        self.known = dealt
        if dealt or self.plain:
            out.append(line("INFO", "cards", format_cards(dealt)))

    def _event(self, view: View, seat: int, action: int, index: int, out: list[str]) -> None:
        game = self.game
        name = self.names[seat]
        if 0 <= action < 64:
            trump_first = not self.plain and self.plays == 0
            self.plays += 1
            if trump_first and not self.trump_by_lead:
                self._trump(view, out)
            if not self.trick_open:
                self._start_trick(seat, out)
            out.append(line("INFO", "played", name, card_name(action)))
            if trump_first and self.trump_by_lead:
                self._trump(view, out)
            if seat == self.seat:
                self.known &= ~(1 << action)
            self.in_trick += 1
            tricks = view.tricks
            if self.trick < len(tricks) and self.in_trick == len(tricks[self.trick][1]):
                self._end_trick(view, tricks, out)
            return
        text = game.action_name(action)
        if self.plain:
            # The only other action of Tricks: a bad card, which throws the hand in.
            sent = self.notes.get((self.hand, index))
            if sent is None:
                sent = text.partition(" ")[2]
            out.append(line("INFO", "bad card", name, clean(sent)))
            self.trick_open = False
            return
        if action >= act.PASS_CARDS:
            out.append(line("INFO", "pass", name, text.partition(" ")[2]))
        elif action == act.PASS or act.is_bid(action) or text.startswith("bid"):
            out.append(line("INFO", "bid", name, text))
        else:
            out.append(line("INFO", "action", name, text))

    def _start_trick(self, leader: int, out: list[str]) -> None:
        order = [self.names[(leader + i) % self.n] for i in range(self.n)]
        out.append(line("INFO", "start trick", str(self.trick), *order))
        self.trick_open = True
        self.in_trick = 0

    def _end_trick(
        self, view: View, tricks: list[tuple[int, tuple[int, ...], int]], out: list[str]
    ) -> None:
        t = self.trick
        winner = tricks[t][2]
        won = sum(1 for i in range(t + 1) if tricks[i][2] == winner)
        if self.plain:
            # Seed 002's server sends the winner's score after the trick.
            results = view.results
            base = results[self.hand - 1].scores[winner] if 0 < self.hand <= len(results) else 0
            won += base
        out.append(line("INFO", "end trick", str(t), self.names[winner], str(won)))
        self.trick += 1
        self.trick_open = False

    # ------------------------------------------------------------------------ QUERY

    def query(self, view: View) -> tuple[list[str], str, list[int]]:
        """The lines to send before an answer (INFO, then the QUERY), its key, the legal actions."""
        out = self.sync(view)
        legal = view.legal_actions()
        game = self.game
        if view.phase == PLAY:
            if not self.trick_open:
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


def _unseen(seen: list[tuple[int, int]], now: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The items of ``now`` not matched, in order, by ``seen`` (a subsequence of it).

    A seat's visible actions grow at the end, except that an action hidden until later (a
    card pass, seen by its receiver once the passing is over) appears in the middle.
    """
    out = []
    i = 0
    for item in now:
        if i < len(seen) and seen[i] == item:
            i += 1
        else:
            out.append(item)
    return out
