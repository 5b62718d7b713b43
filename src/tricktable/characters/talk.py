"""Table talk: characters speak in their voice about what happens, from public events alone.

A :class:`Talker` serves the character seats of one match. After each change the match loop
(``run_match``: as a listener) or the table (``Table``: as an observer) calls
:meth:`Talker.step`, in which each character's :class:`Speaker` reads the new events of **the
spectators' stream** through its :class:`~tricktable.seat.stream.SeatStream`: only what someone
watching may see (no dealt hand, no passed cards, no private action). A speaker hears those
its own seat sees too, turns them into event kinds (a bid, the jack taken, a partner's fine
play, being set, match point, the end...) and sometimes says a line.

What a speaker knows is therefore what anyone watching knows: names, bids, cards already
played, scores. Its own hand never reaches it, so no line can reveal a card it holds or
another seat's. As a second guard, every line goes through the one chat check,
:func:`tricktable.chat.checked_line` (``Table.chat``'s, and ``chat.checked_say``'s without a
table): a line naming a card that is not face up is refused, and :meth:`Talker.say` drops it.

Lines name seats by their display names (:func:`display_name`), never by their labels: a
label can hold a secret (a program's command line, a web service's URL), and every seat,
bots included, hears what a character says. A person who gave no name is named by no line
(:func:`fill`: "Thank you!", "That's my partner!").

Talk never changes play: speakers draw from their own generators (from the match's seed and
the seat), bots never read them, and a chat line is a note of the log, not a move. A
speaker is varied (never its own last line again), not too chatty (``Style.budget`` lines a
hand about the play), and answers people: greetings, praise, taunts, "what's the score?",
and its own name (one character answers a line; the one named, or the first willing).
"""

from __future__ import annotations

import contextlib
import random
import re
import string
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tricktable.cards import JACK, JOKER, LITTLE_JOKER, QUEEN, SPADES, TEN, card_of, pretty_card
from tricktable.characters.style import Character
from tricktable.chat.rules import checked_say
from tricktable.engine.events import (
    SPECTATOR,
    Acted,
    Chat,
    Event,
    HandScored,
    HandStarted,
    MatchOver,
    TrickWon,
)
from tricktable.engine.trick import Game, TrickState
from tricktable.errors import TricktableError
from tricktable.games.euchre import Euchre
from tricktable.games.setback import Setback
from tricktable.seat.stream import SeatStream
from tricktable.seeds import derive_seed

#: how much a match's share of the target counts as match point (0.8: within a fifth)
MATCH_POINT = 0.8
#: answers a character gives to people in one hand at most (a flood gets silence)
ANSWERS_PER_HAND = 4
#: lines about the play after one action at most, whoever says them (the first characters
#: to speak go round the table), besides the last words of a match
LINES_PER_STEP = 2

_GREET = re.compile(r"\b(hi|hello|hey|hiya|howdy|evening|morning|afternoon|greetings|yo)\b")
_PRAISE = re.compile(
    r"\b(nice|well played|good (job|play|one|game)|great|bravo|wp|gg|brilliant|thanks|"
    r"thank you|love it|impressive|clever|lovely)\b"
)
_TAUNT = re.compile(
    r"\b(lose|loser|losing|bad|terrible|awful|going down|crush|beat you|suck|sucks|"
    r"hopeless|weak|pathetic|ha ha|haha|lol|easy|cry)\b"
)
_SCORE = re.compile(r"\b(score|scores|standing|who'?s winning|how are we doing)\b")
_FORMATTER = string.Formatter()

#: says ``line`` for ``seat`` at the table (``state.chat``, or ``Table.chat``)
Say = Callable[[int, str], Any]


#: what a person who gave no name is called in a label: the characters then name them not at
#: all ("Thank you!", "That's my partner!"), never "Thank you, you"
UNNAMED = frozenset({"", "you", "human", "person", "remote", "me"})
#: the names a program's and a web service's seats show: their labels hold a command line or
#: a URL, which can carry a secret (``--api-key=...``, ``?token=...``) and is never shown
PROGRAM = "Program"
WEB_BOT = "Web bot"
#: a bot's name shown as it is: a word, short (else it is "Bot")
_SHOWN = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,23}")


def display_name(label: str) -> str:
    """The name a seat shows at the table, in talk and on its avatar, from its label (as the
    table and the record have it): ``bot:edna`` -> Edna, ``bot:pimc(...)`` -> Pimc, a
    person's name as it is (``you`` for ``human`` or none).

    Bots hear names, never labels: a label can hold a secret, so a program's seat is
    :data:`PROGRAM` (``bot:cmd:./bot --api-key=...``), a web service's :data:`WEB_BOT`
    (``bot:http://host/?token=...``), a plug-in's its class's name (``bot:path/x.py:MyBot``
    -> MyBot), and any other spec that is not a short word "Bot". A name shown is its own
    display name (``Program`` -> Program).
    """
    from tricktable.characters.roster import CHARACTERS

    text = label.strip()
    if not text.startswith("bot:"):
        return text if text.lower() not in ("", "human") else "you"
    spec = text[4:].strip()
    low = spec.lower()
    if low.startswith("cmd:"):
        return PROGRAM
    if "://" in low:
        return WEB_BOT
    base = spec.partition("(")[0].strip()
    found = CHARACTERS.get(base.lower())
    if found is not None:
        return found.display
    base = base.rpartition(":")[2].strip()  # a plug-in: path/to/bot.py:Class or module:Class
    if not _SHOWN.fullmatch(base):
        return "Bot"
    return base[:1].upper() + base[1:]


def fields_of(line: str) -> set[str]:
    """The fields a line uses (``{name}``, ``{card}``...)."""
    return {f for _, f, _, _ in _FORMATTER.parse(line) if f}


# Where a person without a name is called by it: after a comma before punctuation ("Thank
# you, {name}."), as a whole sentence ("Hmph. {name}."), first in a sentence before a comma
# or "!" ("{name}! Pull up a chair"). A sentence starts a line or follows ". ", "! ", "? ".
_SENTENCE = r"(?:^|(?<=[.!?] ))"
_CALLED = (
    re.compile(r",\s*\{name\}(?=[.!?,:;])"),
    re.compile(_SENTENCE + r"\{name\}[.!?](?: |$)"),
)
_CALLED_FIRST = re.compile(_SENTENCE + r"\{name\}[,!:] (.)")
_PARTNER_SUBJECT = re.compile(_SENTENCE + r"\{partner\}(?= [a-z])")
_PARTNER_FIRST = re.compile(_SENTENCE + r"\{partner\}")


def fill(line: str, fields: Mapping[str, str]) -> str | None:
    """``line`` filled in from ``fields``, or None where it uses a field not given.

    A ``name`` or ``partner`` given as "" is a person who gave no name (:data:`UNNAMED`),
    whom a line calls nothing rather than "you" or "friend": where a line speaks to them by
    ``{name}`` it is left out ("Thank you, {name}." -> "Thank you."), a line that speaks
    *about* them by it is not said (None), and ``{partner}`` is the word ("That's my
    partner!", "Beautiful, partner!", "My partner bids 3!").
    """
    if fields.get("name") == "" and "{name}" in line:
        for called in _CALLED:
            line = called.sub("", line)
        line = _CALLED_FIRST.sub(lambda m: m[1].upper(), line).rstrip()
        if "{name}" in line or not line:
            return None
    if fields.get("partner") == "" and "{partner}" in line:
        line = _PARTNER_SUBJECT.sub("My partner", line)
        line = _PARTNER_FIRST.sub("Partner", line).replace("{partner}", "partner")
    if not fields_of(line) <= fields.keys():
        return None
    return line.format_map(fields)


class Speaker:
    """One character's voice at one seat: reads public events, now and then says a line."""

    def __init__(
        self,
        character: Character,
        seat: int,
        game: Game,
        names: Sequence[str],
        seed: int,
        stream: SeatStream | None = None,
    ) -> None:
        self.character = character
        self.seat = seat
        self.game = game
        self.names = list(names)
        self.rng = random.Random(derive_seed(seed, "talk", seat))
        self.mood = character.style.mood
        self.team = game.team_of(seat)
        #: the Pitch family, where the jack, the jokers and the ten of trump carry points;
        #: with Euchre, the games where taking the jack is worth a word
        self.pitch = isinstance(game, Setback)
        self.jack_counts = self.pitch or isinstance(game, Euchre)
        #: the seat's partners (none where each plays alone; two each at six seats as 2x3),
        #: and the first of them, whom ``{partner}`` names unless a line is about another
        self.partners: tuple[int, ...] = ()
        if game.num_scores < game.num_players:
            self.partners = tuple(
                s for s in range(game.num_players) if s != seat and game.team_of(s) == self.team
            )
        self.partner = self.partners[0] if self.partners else -1
        #: what it hears, read from the spectators' stream: its tallies (trump, the scores)
        #: are those of the event it is hearing, whatever the other speakers have heard
        self.stream = stream if stream is not None else SeatStream(game, SPECTATOR)
        self.last = ""
        self.said = 0
        self.answers = 0
        self.bidder = -1
        self.sitting_out = -1
        self.told_match_point: set[int] = set()
        #: public events heard, lines said, and every line said (for measures)
        self.heard = 0
        self.lines: list[str] = []

    # ------------------------------------------------------------------------- hearing

    def hear(self, event: Event) -> tuple[str, dict[str, str]] | None:
        """The kind of line ``event`` calls for and its fields, if any: an event read through
        :attr:`stream`, whose tallies count it already."""
        self.heard += 1
        if isinstance(event, HandStarted):
            self.said = 0
            self.answers = 0
            self.bidder = -1
            self.sitting_out = -1
            return "deal", {"name": self.names[event.dealer]}
        if isinstance(event, Acted):
            return self._acted(event)
        if isinstance(event, TrickWon):
            return self._trick(event)
        if isinstance(event, HandScored):
            return self._scored()
        if isinstance(event, MatchOver):
            if event.winner is None:
                return None
            return ("win" if event.winner == self.team else "lose"), {}
        return None

    def _acted(self, event: Acted) -> tuple[str, dict[str, str]] | None:
        text = event.text.lower()
        name = {"name": self.names[event.seat]}
        if text.startswith("bid "):
            self.bidder = event.seat
            bid = {**name, "bid": text[4:]}
            if event.seat == self.seat:
                return "bid_self", bid
            if event.seat in self.partners:
                return "bid_partner", {**bid, "partner": self.names[event.seat]}
            return "bid_opponent", bid
        if "nil" in text:
            return "nil", name
        if "alone" in text:
            self.bidder = event.seat
            game = self.game
            if game.num_scores < game.num_players:  # the partner sits out
                side = game.team_of(event.seat)
                self.sitting_out = next(
                    s
                    for s in range(game.num_players)
                    if s != event.seat and game.team_of(s) == side
                )
            return "alone", name
        if text.startswith(("order", "trump", "call")):
            self.bidder = event.seat
            return "call", name
        return None

    def _trick(self, event: TrickWon) -> tuple[str, dict[str, str]] | None:
        winner = event.winner
        ours = self.game.team_of(winner) == self.team
        side = "us" if ours else "them"
        cards = event.cards
        name = self.names[winner]
        trump = self.stream.trump
        jack = card_of(trump, JACK) if trump >= 0 else -1
        if self.game.lower_wins:
            queen = card_of(SPADES, QUEEN)
            if queen in cards:
                kind = "queen_me" if winner == self.seat else "queen_other"
                return kind, {"name": name, "card": pretty_card(queen)}
            return None
        if not self.jack_counts:
            return None  # no single card of the trick is worth a word (Spades, Oh Hell...)
        key = [c for c in cards if c in (jack, JOKER, LITTLE_JOKER)]
        # The partner the trick is about: the one who won it, else the first whose card is a
        # point lost (one partner at four seats).
        partner = winner if winner in self.partners else self.partner
        points = _key_cards(trump) if self.pitch else ()
        if not ours:
            for mate in self.partners:
                if self._card_of(event, mate) in points:
                    partner = mate
                    break
        partner_card = self._card_of(event, partner)
        about = {"partner": self.names[partner]} if partner >= 0 else {}
        if partner >= 0 and partner_card in points and not ours:
            return "partner_poor", {"card": pretty_card(partner_card), **about}
        if key:
            card = key[0]
            kind = ("jack_" if card == jack else "joker_") + side
            if winner == partner >= 0 and partner_card == card and self.rng.random() < 0.5:
                return "partner_fine", {"card": pretty_card(card), **about}
            return kind, {"name": name, "card": pretty_card(card)}
        if winner == partner >= 0 and event.points >= 10:
            return "partner_fine", {"card": pretty_card(partner_card), **about}
        return None

    def _card_of(self, event: TrickWon, seat: int) -> int:
        """The card ``seat`` played to the trick (-1: none, or it sat out)."""
        if seat < 0 or seat == self.sitting_out:
            return -1
        n = self.game.num_players
        order = [(event.leader + i) % n for i in range(n)]
        played = [s for s in order if s != self.sitting_out][: len(event.cards)]
        return event.cards[played.index(seat)] if seat in played else -1

    def _scored(self) -> tuple[str, dict[str, str]] | None:
        delta = self.stream.gained
        mine = delta[self.team] if self.team < len(delta) else 0
        others = [d for i, d in enumerate(delta) if i != self.team] or [0]
        lower = self.game.lower_wins
        temper = self.character.style.temper
        kind: str
        if not lower and mine < 0:
            kind, shift = "set_us", -1.0
        elif not lower and min(others) < 0:
            kind, shift = "set_them", 0.6
        elif (mine > max(others)) != lower and mine != max(others):
            kind, shift = "hand_good", 0.4
        elif mine != max(others) or (lower and mine > 0):
            kind, shift = "hand_bad", -0.4
        else:
            return None
        self.mood = max(-1.0, min(1.0, self.mood + temper * shift))
        point = self._match_point()
        if point is not None:
            return point, {}
        if kind == "set_them" and self.bidder >= 0:
            return kind, {"name": self.names[self.bidder]}
        return kind, {}

    def _match_point(self) -> str | None:
        target = getattr(self.game.options, "target", 0)
        if self.game.lower_wins or not isinstance(target, int) or target <= 0:
            return None
        for side, score in enumerate(self.stream.scores):
            if score >= MATCH_POINT * target and side not in self.told_match_point:
                self.told_match_point.add(side)
                return "match_point_us" if side == self.team else "match_point_them"
        return None

    def answer(self, seat: int, text: str) -> tuple[str, dict[str, str]] | None:
        """The kind of answer a person's line at ``seat`` calls for, if any."""
        words = text.lower()
        name = {"name": self.names[seat]}
        if _SCORE.search(words):
            return "score", name
        if _TAUNT.search(words):
            return "retort", name
        if _PRAISE.search(words):
            return "thanks", name
        if _GREET.search(words):
            return "greet", name
        if self.character.display.lower() in re.findall(r"\w+", words):
            return "named", name
        return None

    # -------------------------------------------------------------------------- speaking

    def line(self, kind: str, given: Mapping[str, str], answering: bool = False) -> str | None:
        """A line of ``kind``, filled in, or None (not this time, over budget, nothing new)."""
        style = self.character.style
        chance = style.talk.get(kind, 0.0)
        if answering:
            if self.answers >= ANSWERS_PER_HAND:
                return None
        elif kind not in ("win", "lose") and self.said >= style.budget:
            return None
        if chance <= 0.0 or self.rng.random() >= chance:
            return None
        fields = self._fields(given)
        fresh = [
            said
            for said in (fill(x, fields) for x in self._lines(kind))
            if said is not None and said != self.last
        ]
        if not fresh:
            return None
        said = self.rng.choice(fresh)
        self.last = said
        if answering:
            self.answers += 1
        else:
            self.said += 1
        self.lines.append(said)
        return said

    def _lines(self, kind: str) -> tuple[str, ...]:
        voice = self.character.voice
        if self.mood > 0.3 and f"{kind}+" in voice:
            return voice[f"{kind}+"]
        if self.mood < -0.3 and f"{kind}-" in voice:
            return voice[f"{kind}-"]
        return voice.get(kind, ())

    def _fields(self, given: Mapping[str, str]) -> dict[str, str]:
        fields = {"me": self.character.display}
        if self.partner >= 0:
            fields["partner"] = self.names[self.partner]
        scores = self.stream.scores
        if len(scores) > self.team:
            fields["us"] = str(scores[self.team])
            others = [s for i, s in enumerate(scores) if i != self.team]
            if others:
                best = min(others) if self.game.lower_wins else max(others)
                fields["them"] = str(best)
        fields.update(given)
        return fields


def _key_cards(trump: int) -> tuple[int, ...]:
    """The cards whose loss to the other side is a partner's poor play: the jack and ten of
    trump, the jokers (in the Pitch family; elsewhere none of them is dealt or counts)."""
    if trump < 0:
        return (JOKER, LITTLE_JOKER)
    return (card_of(trump, JACK), card_of(trump, TEN), JOKER, LITTLE_JOKER)


class Talker:
    """The talk of one match's character seats (see the module).

    ``speakers`` maps a seat to its character; ``labels`` are every seat's labels (as the
    record has them: lines name seats by their :func:`display_name`, never by these);
    ``people`` the seats whose chat is answered; ``say`` puts a line at the table.
    """

    def __init__(
        self,
        state: TrickState,
        speakers: Mapping[int, Character],
        labels: Sequence[str],
        say: Say,
        people: Sequence[int] = (),
    ) -> None:
        self.state = state
        log = state.listen()
        # A person who gave no name is named by no line ("" is no name: see fill).
        names = [
            "" if not label.startswith("bot:") and shown.lower() in UNNAMED else shown
            for label, shown in ((label.strip(), display_name(label)) for label in labels)
        ]
        game = state.game
        # Only what happens from now on is talked about (a resumed match's past is not).
        now = len(log.stream(SPECTATOR))
        self.speakers = {
            seat: Speaker(
                character,
                seat,
                game,
                names,
                state.seed,
                SeatStream(game, SPECTATOR, start=now, scores=state.scores),
            )
            for seat, character in sorted(speakers.items())
        }
        self.people = set(people)
        self.say_to_table = say
        self._busy = False
        #: lines said in this step, and the step's count (who speaks first goes round)
        self._spoken = 0
        self._steps = 0

    def step(self) -> None:
        """Read each character seat's new events and say what comes of them."""
        if self._busy:
            return  # a line said now is itself an event: read at the next step
        self._busy = True
        self._spoken = 0
        self._steps += 1
        seats = sorted(self.speakers, key=lambda s: (s - self._steps) % self.state.n)
        try:
            log = self.state.events
            assert log is not None
            # The public events are the spectators' stream, as it stands now: a line said
            # in this step is an event too, heard at the next.
            stream = log.window(SPECTATOR)
            for seat in seats:
                speaker = self.speakers[seat]
                for event in speaker.stream.read(stream):
                    # A seat's own stream holds all of these but the public copy of its own
                    # fault (it has the detailed one): what it hears is public and its own.
                    if event.visible_to(seat):
                        self._hear(speaker, event)
        finally:
            self._busy = False

    def _hear(self, speaker: Speaker, event: Event) -> None:
        if isinstance(event, Chat):
            if event.seat in self.people:
                self._answer(speaker, event)
            return
        heard = speaker.hear(event)
        if heard is None:
            return
        if self._spoken >= LINES_PER_STEP and heard[0] not in ("win", "lose"):
            return  # others have spoken to this: hold back
        line = speaker.line(*heard)
        if line is not None:
            self._spoken += 1
            self.say(speaker.seat, line)

    def _answer(self, speaker: Speaker, event: Chat) -> None:
        """Answer a person's line: the character it names, else the first willing one after
        the speaker in seat order (one answer a line)."""
        order = sorted(self.speakers, key=lambda s: (s - event.seat) % self.state.n)
        if speaker.seat != order[0]:
            return  # the first character in order decides for all, once
        words = set(re.findall(r"\w+", event.text.lower()))
        named = [s for s in order if self.speakers[s].character.display.lower() in words]
        for seat in named or order:
            one = self.speakers[seat]
            asked = one.answer(event.seat, event.text)
            if asked is None:
                continue
            line = one.line(*asked, answering=True)
            if line is not None:
                self.say(seat, line)
                return

    def say(self, seat: int, line: str) -> None:
        """Put ``line`` at the table for ``seat`` (the table's checks refuse a card not face
        up); a line refused is not said, and play goes on."""
        with contextlib.suppress(TricktableError):
            self.say_to_table(seat, line)

    def listener(
        self, then: Callable[[TrickState, int, int], None] | None
    ) -> Callable[[TrickState, int, int], None]:
        """A match loop's listener that talks, then calls ``then`` (if any)."""

        def listen(state: TrickState, seat: int, action: int) -> None:
            self.step()
            if then is not None:
                then(state, seat, action)

        return listen


def speakers_of(players: Sequence[Any]) -> dict[int, Character]:
    """The seats whose players are characters with a voice, and their characters."""
    out: dict[int, Character] = {}
    for seat, player in enumerate(players):
        if player.talks:  # a CharacterBot (Bot.talks)
            character: Character = player.character
            if character.voice:
                out[seat] = character
    return out


def match_talker(state: TrickState, players: Sequence[Any], labels: Sequence[str]) -> Talker | None:
    """The talker of a match between bots (``run_match``), or None when no character sits."""
    speakers = speakers_of(players)
    if not speakers:
        return None
    return Talker(state, speakers, labels, checked_say(state))  # Table.chat's checks, no table


def seat_table(table: Any, talk: bool = True) -> Talker | None:
    """Seat the characters at a :class:`~tricktable.table.Table`: their tempo where people
    sit, and their talk (an observer of the table; None when no character speaks)."""
    people = [s for s in range(len(table.players)) if table.is_person(s)]
    if people:
        for player in table.players:
            if player.talks:  # a CharacterBot (Bot.talks), beginner's included
                player.paced = True
    speakers = speakers_of(table.players)
    if not talk or not speakers:
        return None
    talker = Talker(table.state, speakers, table.labels, table.chat, people)
    table.watch(lambda _table: talker.step())
    return talker
