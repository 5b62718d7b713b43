"""The generic presenter and the text pieces every game's presenter is made of."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from tricktable.cards import (
    QUEEN,
    SPADES,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    SUITS,
    card_of,
    parse_card,
    pretty_card,
)
from tricktable.engine import actions as act
from tricktable.engine.results import HandResult
from tricktable.engine.trick import NO_TRUMP, PLAY, Game, TrumpTables, View
from tricktable.errors import TricktableError
from tricktable.seat.words import Words

POINT_LABELS = {
    "high": "High",
    "low": "Low",
    "jack": "Jack",
    "off_jack": "Off-jack",
    "joker": "Joker",
    "little_joker": "Little joker",
    "three": "Three",
    "five": "Five",
    "off_five": "Off-five",
    "ten": "Ten",
    "game": "Game",
}
#: result keys whose int value is a seat (the generic presenter names it)
SEAT_KEYS = frozenset({"declarer", "maker", "leader", "moon", "bad_card", "dealer", "seat"})
QUEEN_OF_SPADES = card_of(SPADES, QUEEN)
_CARD_WORD = re.compile(r"^(?:[2-9TJQKA][CDHS]|JK|JL)$")
R = TypeVar("R", bound=HandResult)


# ------------------------------------------------------------------------------ text pieces


def card_text(card: int, trumps: int = 0) -> Words:
    """A card for people (``10♦``), red for diamonds and hearts, bold when it is a trump."""
    if card >= 52:
        style = "bold magenta"
    else:
        style = "red" if card // 13 in (1, 2) else ""
        if trumps >> card & 1:
            style = (style + " bold").strip()
    return Words(pretty_card(card), style=style)


def cards_text(cards: Iterable[int], trumps: int = 0, sep: str = " ") -> Words:
    """Several cards, in the order given."""
    return Words(sep).join(card_text(c, trumps) for c in cards)


def suit_text(suit: int, short: bool = False) -> Words:
    """A suit's name with its symbol, ``diamonds ♦`` (``♦`` when ``short``)."""
    text = SUIT_SYMBOLS[suit] if short else f"{SUIT_NAMES[suit]} {SUIT_SYMBOLS[suit]}"
    return Words(text, style="red" if suit in (1, 2) else "")


def conjugate(name: str, word: str) -> str:
    """The verb ``word`` agreeing with ``name``: "take" for You, "takes" for North."""
    if name == "You":
        return word
    first, _, rest = word.partition(" ")
    if first == "have":
        first = "has"
    elif first.endswith(("s", "sh", "ch", "x", "o")):
        first += "es"
    else:
        first += "s"
    return first + (f" {rest}" if rest else "")


def verb(name: str, word: str) -> str:
    """``name`` with the verb ``word`` agreeing: "You take", "North takes", "East passes"."""
    return f"{name} {conjugate(name, word)}"


def join(parts: Iterable[Words | str], sep: str = " · ") -> Words:
    """Texts and strings joined by ``sep``."""
    return Words(sep).join(p if isinstance(p, Words) else Words(p) for p in parts)


def line(*parts: Words | str, style: str = "") -> Words:
    """One line from texts and strings."""
    out = Words(style=style)
    for part in parts:
        if isinstance(part, Words):
            out.append_text(part)
        else:
            out.append(part)
    return out


def signed(n: int) -> str:
    """A score change: ``+3``, ``-2``, ``0``."""
    return f"{n:+d}" if n else "0"


def suit_index(letter: object) -> int:
    """The suit of a result's ``trump`` letter, or -1 (none, as in a hand thrown in)."""
    if isinstance(letter, str) and len(letter) == 1 and letter in SUITS:
        return SUITS.index(letter)
    return -1


def card_word(word: object) -> Words | None:
    """A card named in a result or view (``"9S"``) for people, or None if it is not one."""
    if isinstance(word, str) and _CARD_WORD.match(word):
        return card_text(parse_card(word))
    return None


def last_result(hand: HandSeen, cls: type[R]) -> R | None:
    """The hand's result if it is a ``cls`` (the game's own), else None (shown generically)."""
    result = hand.result
    return result if isinstance(result, cls) else None


def _or_all(masks: Iterable[int]) -> int:
    out = 0
    for mask in masks:
        out |= mask
    return out


def _ints(value: object, count: int) -> list[int] | None:
    """``value`` if it is a list of ``count`` ints, else None."""
    if isinstance(value, list) and len(value) == count and all(type(v) is int for v in value):
        return value
    return None


# ---------------------------------------------------------------------------------- seating


class Seating:
    """Who sits where, by name, and whose eyes the table shows the match through.

    ``reveal`` lists the seats whose dealt cards a hand's banner shows and ``humans`` the seats
    played at the keyboard; together they are the *watchers*: the table shows the events their
    streams hold, so a private action (a Hearts pass) is spelt out only where one of them may
    see it. A *side* is what scores: a partnership, or a seat.
    """

    def __init__(self, game: Game, names: Sequence[str], reveal: Iterable[int] = ()) -> None:
        self.game = game
        self.names = list(names)
        self.reveal = list(reveal)
        self.humans: list[int] = []

    @property
    def sides(self) -> int:
        """How many sides score: partnerships, or one per seat."""
        return self.game.num_scores

    @property
    def partners(self) -> bool:
        """Whether seats play in partnerships (some side holds several seats): 0+2 against
        1+3 at four, and at any size seat s plays for side ``s % sides``."""
        sides = self.sides
        return 0 < sides < len(self.names)

    @property
    def watchers(self) -> list[int]:
        """The seats whose events the table shows (none: what everyone may see)."""
        return sorted(set(self.reveal) | set(self.humans))

    def seats_of(self, side: int) -> list[int]:
        """The seats that play for ``side``, in seat order (one: each plays alone)."""
        sides = self.sides
        if not self.partners:
            return [side] if 0 <= side < len(self.names) else []
        return [s for s in range(len(self.names)) if s % sides == side]

    def side_name(self, side: int) -> str:
        """A side by its seats: "You & North", "You & Ann & Bob" (or a seat's name when each
        plays alone)."""
        seats = self.seats_of(side)
        if not seats:
            return f"side {side}"
        return " & ".join(self.names[s] for s in seats)

    def per_seat(self, values: Sequence[object], fmt: Callable[[Any], str] = str) -> str:
        """One value per seat with the seats' names: "You 3 · West 13 · ..."."""
        return " · ".join(f"{self.names[s]} {fmt(v)}" for s, v in enumerate(values))

    def per_side(self, values: Sequence[object], fmt: Callable[[Any], str] = str) -> str:
        """One value per side with the sides' names."""
        return " · ".join(f"{self.side_name(t)} {fmt(v)}" for t, v in enumerate(values))

    def scores_text(self, scores: Sequence[int]) -> str:
        """The match scores with the sides' names."""
        return self.per_side(scores)


# ---------------------------------------------------------------------- what was seen


class HandSeen:
    """What the watchers have seen of one hand: its events, gathered as the table shows them.

    Events tell what happened: the actions the watchers may see (``acted``), the passes they
    received, trump named, each card played and by whom, the cards each seat took in its
    tricks, the result, and the match scores after it (``before``: those it started from).
    ``facts`` are a watcher's facts of the hand as they stand (``View.info()`` of the view
    taken with the latest events: the declarer, the bids), and ``opening`` those of the fresh
    deal (Hearts' direction, Euchre's up-card, Oh Hell's hand size): no event carries them.
    ``tables`` are the hand's trump tables once trump is known (which cards are trumps: the
    joker, the left bower...).
    """

    def __init__(self, number: int, dealer: int, seats: int, scores: Sequence[int]) -> None:
        self.number = number
        self.dealer = dealer
        self.opening: dict[str, Any] = {}
        self.facts: dict[str, Any] = {}
        #: whether the phases before the play are over (the play has begun)
        self.playing = False
        #: each seat's dealt cards, as far as the watchers were shown them (0: not shown)
        self.dealt = [0] * seats
        self.acted: list[tuple[int, int]] = []
        #: the passes the watchers received (Hearts): the giver's seat -> the cards
        self.received: dict[int, int] = {}
        self.trump = -1
        self.tables: TrumpTables = NO_TRUMP
        #: every card played this hand, as (seat, card) in order
        self.plays: list[tuple[int, int]] = []
        #: the trick in progress, as (seat, card) in order
        self.trick: list[tuple[int, int]] = []
        self.won = [0] * seats
        self.result: HandResult | None = None
        self.before: tuple[int, ...] = tuple(scores)
        self.scores: tuple[int, ...] = tuple(scores)

    @property
    def trumps(self) -> int:
        """The trump cards of the hand (a mask; 0 before trump is known)."""
        return self.tables.mask

    def played_by(self, card: int) -> int:
        """The seat that played ``card`` this hand, or -1."""
        return next((s for s, c in self.plays if c == card), -1)


# ------------------------------------------------------------------------ the generic game


class Presenter:
    """The generic presentation of a game, built from ``View.info()`` and results' ``to_dict()``.

    What happened in a hand comes to it as a :class:`HandSeen` (what the watchers' events
    told), a seat's turn as its ``View``. Subclasses override what their game says better;
    every method returns text and leaves the printing to the table.
    """

    #: what the phases before the play are called ("Auction", "Bids", "Passing")
    auction_title = "Bidding"

    def __init__(self, game: Game) -> None:
        self.game = game

    # ------------------------------------------------------------------------ words

    def action_words(self, action: int, trumps: int = 0) -> Words:
        """An action for people: a card as ``10♦``, else its record name, cards made pretty."""
        if act.is_play(action):
            return card_text(action, trumps)
        words = self.game.action_name(action).split()
        return join((card_word(w) or w for w in words), " ")

    def said(self, seating: Seating, actor: int, action: int, trumps: int = 0) -> Words:
        """``actor``'s action as a list item: "North bid 4", "You pass 2♣ 3♦ 4♥"."""
        return line(f"{seating.names[actor]} ", self.action_words(action, trumps))

    def unseen(self, seating: Seating, actor: int, words: str) -> Words:
        """An action the watchers were not shown, as a list item: "West pass 3 cards"."""
        return Words(f"{seating.names[actor]} {words}")

    def goal(self, seating: Seating) -> str:
        """How the match is won, in words."""
        target = getattr(self.game.options, "target", None)
        return f"first to {target} wins" if isinstance(target, int) else ""

    def rules_summary(self) -> str:
        """The rules in a sentence or two."""
        from tricktable.games import PRESETS

        game = self.game
        preset = PRESETS.get(game.preset)
        summary = preset.summary if preset is not None and preset.summary else game.summary
        spec = game.spec()
        options = f" Options: {spec}." if spec != game.preset else ""
        return f"{summary}.{options} The full rules: tricktable rules {game.preset}."

    # ---------------------------------------------------------------------- the hand

    def deal_lines(self, seating: Seating, hand: HandSeen) -> list[Words]:
        """Facts of a fresh deal: the trump or none, an up-card, the hand size."""
        if hand.trump >= 0:
            return [line("Trump: ", suit_text(hand.trump))]
        return []

    def auction_lines(self, seating: Seating, hand: HandSeen) -> list[Words]:
        """The phases before the play, once they are over (the bids, the passes)."""
        said = [self.said(seating, s, a, hand.trumps) for s, a in hand.acted]
        if not said:
            return []
        return [line(Words(f"{self.auction_title}: ", style="bold"), join(said))]

    def lead_lines(self, seating: Seating, hand: HandSeen, seat: int, card: int) -> list[Words]:
        """What a card that names trump tells (Setback's first lead)."""
        return []

    def trick_note(self, points: int) -> str:
        """A note after a trick's winner: the ``points`` its cards carry, where they count."""
        return ""

    def result_lines(self, seating: Seating, hand: HandSeen) -> list[Words]:
        """A finished hand's result in the game's terms (the scores line comes after)."""
        assert hand.result is not None
        return self._generic_result(seating, hand.result)

    def _generic_result(self, seating: Seating, result: HandResult) -> list[Words]:
        out = []
        for key, value in result.to_dict().items():
            if key in ("scores", "winners", "winner") or value is None:
                continue
            text = self.value_text(seating, key, value)
            out.append(line(Words(f"{key.replace('_', ' ').capitalize()}: ", style="bold"), text))
        return out

    def value_text(self, seating: Seating, key: str, value: object) -> Words:
        """A value of a result or view for people: seats named, cards made pretty."""
        n = len(seating.names)
        if isinstance(value, bool):
            return Words("yes" if value else "no")
        if isinstance(value, int) and key in SEAT_KEYS and 0 <= value < n:
            return Words(seating.names[value])
        if isinstance(value, list):
            items = [self.value_text(seating, "", v) for v in value]
            if len(value) == n and not (seating.partners and key in ("points", "scores")):
                return join(line(f"{seating.names[s]} ", t) for s, t in enumerate(items))
            if seating.partners and len(value) == seating.sides:
                return join(line(f"{seating.side_name(t)} ", v) for t, v in enumerate(items))
            return join(items, " ")
        if isinstance(value, dict):
            return join(line(f"{k} ", self.value_text(seating, k, v)) for k, v in value.items())
        if value is None:
            return Words("—")
        return card_word(value) or Words(str(value))

    def score_lines(self, seating: Seating, hand: HandSeen) -> list[Words]:
        """The match scores after a hand."""
        return [Words(f"Scores: {seating.scores_text(hand.scores)}", style="bold")]

    def hand_line(self, seating: Seating, hand: HandSeen) -> Words:
        """One line for a finished hand (bots playing alone), before the scores."""
        assert hand.result is not None
        parts = []
        for key, value in hand.result.to_dict().items():
            if key in ("scores", "winners", "winner") or value is None or isinstance(value, dict):
                continue
            if isinstance(value, list):
                text = " ".join(str(v) for v in value)
            elif isinstance(value, int) and not isinstance(value, bool) and key in SEAT_KEYS:
                text = seating.names[value] if 0 <= value < len(seating.names) else str(value)
            else:
                text = str(value)
            parts.append(f"{key} {text}")
        return Words("  ".join(parts))

    def winners(self, last: HandResult | None, winner: int | None) -> list[int]:
        """The sides that won the match (several when the win is shared; none after a forfeit),
        from the last hand's result and the winner the match ended with."""
        shared = last.shared_win() if last is not None else ()
        if shared:
            return list(shared)
        return [winner] if winner is not None and winner >= 0 else []

    def win_note(self) -> str:
        """How the winner won, said after the winner's name (" with the lowest score")."""
        return ""

    def win_reason(self, seating: Seating, winner: int, scores: Sequence[int]) -> str:
        """A sentence saying why side ``winner`` won where the final ``scores`` alone do not
        (a side with fewer points won by the game's rule); "" where they do."""
        return ""

    # ----------------------------------------------------------------- a human's turn

    def tricks_in_hand(self, view: View) -> int:
        """How many tricks the hand in play has (the seat to act holds a card for each)."""
        played = any(s == view.seat for s, _ in view.trick)
        return len(view.tricks) + view.hand.bit_count() + (1 if played else 0)

    def phase_title(self, seating: Seating, view: View) -> str:
        """The name of the phase a seat acts in, before the play."""
        name = view.to_dict()["phase"]
        return str(name).replace("-", " ").capitalize()

    def play_facts(self, seating: Seating, view: View) -> list[Words]:
        """Public facts worth a glance while playing (bids, tricks, penalties so far)."""
        return self.info_facts(seating, view)

    def info_facts(self, seating: Seating, view: View) -> list[Words]:
        """Every fact of ``view.info()``, named."""
        out = []
        for key, value in view.info().items():
            if value is None:
                continue
            name = key.replace("_", " ")
            out.append(line(f"{name} ", self.value_text(seating, key, value)))
        return out

    def situation_lines(self, seating: Seating, view: View) -> list[Words]:
        """What a seat about to act needs to know, before its hand and its choices."""
        name = seating.names[view.seat]
        trumps = view.tables.mask
        if view.phase != PLAY:
            head = Words(self.phase_title(seating, view), style="bold")
            # A view lists only the actions its seat may see: others' passes are left out.
            said = [
                line(f"{seating.names[s]} ", self.action_words(a, trumps)) for s, a in view.actions
            ]
            out = [head]
            if said:
                out.append(line("So far: ", join(said)))
            facts = self.bidding_facts(seating, view)
            if facts:
                out.append(join(facts))
            return out
        total = self.tricks_in_hand(view)
        head = Words(f"Trick {len(view.tricks) + 1} of {total}", style="bold")
        head.append(" · ")
        if view.trump >= 0:
            head.append("trump ")
            head.append_text(suit_text(view.trump, short=True))
        else:
            head.append_text(self.no_trump_text())
        out = [head]
        facts = self.play_facts(seating, view)
        if facts:
            out.append(join(facts))
        trick = view.trick
        if trick:
            table = [line(f"{seating.names[s]} ", card_text(c, trumps)) for s, c in trick]
            out.append(line("On the table: ", join(table)))
        else:
            out.append(Words(self.lead_prompt(seating, view, name)))
        return out

    def no_trump_text(self) -> Words:
        """How the trick header says there is no trump."""
        return Words("no trump")

    #: what a status line says of trump before it is named (a game without trump: "none")
    trump_pending = "not named"

    def lead_prompt(self, seating: Seating, view: View, name: str) -> str:
        """The line when the seat leads a trick."""
        return f"{verb(name, 'lead')}."

    def bidding_facts(self, seating: Seating, view: View) -> list[Words]:
        """Public facts shown during the phases before the play."""
        return self.info_facts(seating, view)

    # ------------------------------------------------------------------ the running tally

    def tally_lines(self, seating: Seating, view: View) -> list[Words]:
        """The hand's running tally for a side panel: what a player at the table keeps count of.

        It is read from ``view`` alone and told from its seat's side ("us", "them", "yours"):
        the cards played, who took them, the bids, the seat's own cards, never a card the seat
        may not know. A few short lines: the game's own (:meth:`_tally`), or the generic tally
        (:meth:`_tricks_tally`) if that fails on a view shaped unexpectedly.
        """
        return safely(lambda: self._tally(seating, view), lambda: self._tricks_tally(seating, view))

    def _tally(self, seating: Seating, view: View) -> list[Words]:
        """The game's own tally (a presenter overrides this); here, the generic one."""
        return self._tricks_tally(seating, view)

    def _tricks_tally(self, seating: Seating, view: View) -> list[Words]:
        """The generic tally: the tricks each side has won, and the tricks left to play."""
        won = side_tricks(seating, view)
        out = []
        for side in seats_from(side_of(seating, view.seat), len(won)):
            n = won[side]
            who = capital(side_word(seating, view.seat, side))
            out.append(Words(f"{who}: {n} trick{'s' * (n != 1)}"))
        if view.phase == PLAY:
            left = self.tricks_in_hand(view) - len(view.tricks)
            out.append(Words(f"{left} trick{'s' * (left != 1)} to play", style="dim"))
        return out


def _bid_word(bid: object) -> str:
    """A Spades or Oh Hell bid as shown: a number, `blind nil`, or a dash before it is made."""
    if bid == "blind-nil":
        return "blind nil"
    return "—" if bid is None else str(bid)


def safely(primary: Callable[[], list[Words]], fallback: Callable[[], list[Words]]) -> list[Words]:
    """``primary()``, or ``fallback()`` if it fails on a result or view shaped unexpectedly.

    A game whose results change shape must not stop a match at the table: its generic
    description is shown instead.
    """
    try:
        return primary()
    except (KeyError, IndexError, TypeError, ValueError, AttributeError, TricktableError):
        return fallback()


# ------------------------------------------------------------------ tally pieces


def side_of(seating: Seating, seat: int) -> int:
    """The side ``seat`` plays for: its partnership (seats 0+2, 1+3), or the seat itself."""
    return seating.game.team_of(seat)


def side_word(seating: Seating, viewer: int, side: int) -> str:
    """A side as ``viewer`` says it: "us" or "them" with two partnerships ("us" and each
    other side by its seats with more), else the seat's name. A viewer with no seat (a
    spectator) names every side by its seats: it is on none."""
    if not 0 <= viewer < len(seating.names):
        return seating.side_name(side)
    if seating.partners:
        if side == side_of(seating, viewer):
            return "us"
        return "them" if seating.sides == 2 else seating.side_name(side)
    name = seating.side_name(side)
    return "you" if name == "You" else name


def capital(word: str) -> str:
    """``word`` with its first letter capital ("us" -> "Us"), the rest as it is."""
    return word[:1].upper() + word[1:]


def seats_from(viewer: int, count: int) -> list[int]:
    """Every seat, ``viewer`` first and then round the table to its left."""
    return [(viewer + i) % count for i in range(count)]


def side_tricks(seating: Seating, view: View) -> list[int]:
    """The tricks each side has won this hand (a side: see :func:`side_of`)."""
    won = view.tricks_won
    if seating.partners:
        return [sum(won[s] for s in seating.seats_of(t)) for t in range(seating.sides)]
    return won


def per_side_words(seating: Seating, viewer: int, values: Sequence[object]) -> str:
    """One value per side, the viewer's first, each side as it says it: "us 14 · them 3"."""
    order = seats_from(side_of(seating, viewer), len(values))
    return " · ".join(f"{side_word(seating, viewer, t)} {values[t]}" for t in order)
