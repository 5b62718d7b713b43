"""The generic presenter and the text pieces every game's presenter is made of."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from rich.text import Text

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
from tricktable.engine.trick import PLAY, Game, TrickState, View
from tricktable.errors import TricktableError

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


def card_text(card: int, trumps: int = 0) -> Text:
    """A card for people (``10♦``), red for diamonds and hearts, bold when it is a trump."""
    if card >= 52:
        style = "bold magenta"
    else:
        style = "red" if card // 13 in (1, 2) else ""
        if trumps >> card & 1:
            style = (style + " bold").strip()
    return Text(pretty_card(card), style=style)


def cards_text(cards: Iterable[int], trumps: int = 0, sep: str = " ") -> Text:
    """Several cards, in the order given."""
    return Text(sep).join(card_text(c, trumps) for c in cards)


def suit_text(suit: int, short: bool = False) -> Text:
    """A suit's name with its symbol, ``diamonds ♦`` (``♦`` when ``short``)."""
    text = SUIT_SYMBOLS[suit] if short else f"{SUIT_NAMES[suit]} {SUIT_SYMBOLS[suit]}"
    return Text(text, style="red" if suit in (1, 2) else "")


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


def join(parts: Iterable[Text | str], sep: str = " · ") -> Text:
    """Texts and strings joined by ``sep``."""
    return Text(sep).join(p if isinstance(p, Text) else Text(p) for p in parts)


def line(*parts: Text | str, style: str = "") -> Text:
    """One line from texts and strings."""
    out = Text(style=style)
    for part in parts:
        if isinstance(part, Text):
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


def card_word(word: object) -> Text | None:
    """A card named in a result or view (``"9S"``) for people, or None if it is not one."""
    if isinstance(word, str) and _CARD_WORD.match(word):
        return card_text(parse_card(word))
    return None


def last_result(state: TrickState, cls: type[R]) -> R | None:
    """The last hand's result if it is a ``cls`` (the game's own), else None (shown generically)."""
    last = state.results[-1] if state.results else None
    return last if isinstance(last, cls) else None


def _hand_actions(state: TrickState) -> list[tuple[int, int]]:
    return list(zip(state.actors, state.actions, strict=True))


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
    """Who sits where, by name, and whose private actions may be shown.

    ``reveal`` lists the seats whose dealt cards a hand's banner shows and ``humans`` the seats
    played at the keyboard; together they are the *watchers*, whose private actions (and what
    was passed to them) may be spelt out. A *side* is what scores: a partnership, or a seat.
    """

    def __init__(self, game: Game, names: Sequence[str], reveal: Iterable[int] = ()) -> None:
        self.game = game
        self.names = list(names)
        self.reveal = list(reveal)
        self.humans: list[int] = []

    @property
    def partners(self) -> bool:
        """Whether seats play in two partnerships (0+2 against 1+3)."""
        return self.game.num_scores == 2 and len(self.names) == 4

    @property
    def watchers(self) -> list[int]:
        """The seats whose private actions may be shown."""
        return sorted(set(self.reveal) | set(self.humans))

    def side_name(self, side: int) -> str:
        """A side by its seats: "You & North" (or a seat's name when each plays alone)."""
        if self.partners:
            return f"{self.names[side]} & {self.names[side + 2]}"
        if 0 <= side < len(self.names):
            return self.names[side]
        return f"side {side}"

    def sees(self, state: TrickState, actor: int, action: int) -> bool:
        """Whether a watcher may see ``actor``'s ``action`` of the hand in play, in full."""
        watchers = self.watchers
        if actor in watchers:
            return True
        return any((actor, action) in state.view(w).actions for w in watchers)

    def per_seat(self, values: Sequence[object], fmt: Callable[[Any], str] = str) -> str:
        """One value per seat with the seats' names: "You 3 · West 13 · ..."."""
        return " · ".join(f"{self.names[s]} {fmt(v)}" for s, v in enumerate(values))

    def per_side(self, values: Sequence[object], fmt: Callable[[Any], str] = str) -> str:
        """One value per side with the sides' names."""
        return " · ".join(f"{self.side_name(t)} {fmt(v)}" for t, v in enumerate(values))

    def scores_text(self, scores: Sequence[int]) -> str:
        """The match scores with the sides' names."""
        return self.per_side(scores)


# ------------------------------------------------------------------------ the generic game


class Presenter:
    """The generic presentation of a game, built from ``View.info()`` and results' ``to_dict()``.

    Subclasses override what their game says better; every method returns text and leaves
    the printing to the table.
    """

    #: what the phases before the play are called ("Auction", "Bids", "Passing")
    auction_title = "Bidding"

    def __init__(self, game: Game) -> None:
        self.game = game

    # ------------------------------------------------------------------------ words

    def action_words(self, action: int, trumps: int = 0) -> Text:
        """An action for people: a card as ``10♦``, else its record name, cards made pretty."""
        if act.is_play(action):
            return card_text(action, trumps)
        words = self.game.action_name(action).split()
        return join((card_word(w) or w for w in words), " ")

    def hidden_words(self, action: int) -> str:
        """What others see of an action they may not see (a pass, a discard)."""
        name = self.game.action_name(action)
        first = name.split()[0] if name else "act"
        if action >= act.PASS_CARDS:
            return f"pass {(action ^ act.PASS_CARDS).bit_count()} cards"
        return f"{first} (hidden)"

    def said(self, seating: Seating, state: TrickState, actor: int, action: int) -> Text:
        """``actor``'s action as a list item: "North bid 4", "West pass 3 cards"."""
        if seating.sees(state, actor, action):
            return line(f"{seating.names[actor]} ", self.action_words(action, state.tables.mask))
        return Text(f"{seating.names[actor]} {self.hidden_words(action)}")

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

    def deal_lines(self, seating: Seating, state: TrickState) -> list[Text]:
        """Facts of a fresh deal: the trump or none, an up-card, the hand size."""
        if state.trump >= 0:
            return [line("Trump: ", suit_text(state.trump))]
        return []

    def auction_actions(self, state: TrickState) -> list[tuple[int, int]]:
        """The hand's actions before its first card."""
        out = []
        for seat, action in _hand_actions(state):
            if act.is_play(action):
                break
            out.append((seat, action))
        return out

    def auction_lines(self, seating: Seating, state: TrickState) -> list[Text]:
        """The phases before the play, once they are over (the bids, the passes)."""
        said = [self.said(seating, state, s, a) for s, a in self.auction_actions(state)]
        if not said:
            return []
        return [line(Text(f"{self.auction_title}: ", style="bold"), join(said))]

    def lead_lines(self, seating: Seating, state: TrickState, seat: int, card: int) -> list[Text]:
        """What the first card of a hand tells (Setback: the trump)."""
        return []

    def trick_note(self, state: TrickState, cards: Sequence[int], winner: int) -> str:
        """A note after a trick's winner (the penalty points in it)."""
        return ""

    def result_lines(self, seating: Seating, state: TrickState) -> list[Text]:
        """A finished hand's result in the game's terms (the scores line comes after)."""
        return self._generic_result(seating, state.results[-1])

    def _generic_result(self, seating: Seating, result: HandResult) -> list[Text]:
        out = []
        for key, value in result.to_dict().items():
            if key in ("scores", "winners", "winner") or value is None:
                continue
            text = self.value_text(seating, key, value)
            out.append(line(Text(f"{key.replace('_', ' ').capitalize()}: ", style="bold"), text))
        return out

    def value_text(self, seating: Seating, key: str, value: object) -> Text:
        """A value of a result or view for people: seats named, cards made pretty."""
        n = len(seating.names)
        if isinstance(value, bool):
            return Text("yes" if value else "no")
        if isinstance(value, int) and key in SEAT_KEYS and 0 <= value < n:
            return Text(seating.names[value])
        if isinstance(value, list):
            items = [self.value_text(seating, "", v) for v in value]
            if len(value) == n and not (seating.partners and key in ("points", "scores")):
                return join(line(f"{seating.names[s]} ", t) for s, t in enumerate(items))
            if seating.partners and len(value) == 2:
                return join(line(f"{seating.side_name(t)} ", v) for t, v in enumerate(items))
            return join(items, " ")
        if isinstance(value, dict):
            return join(line(f"{k} ", self.value_text(seating, k, v)) for k, v in value.items())
        if value is None:
            return Text("—")
        return card_word(value) or Text(str(value))

    def score_lines(self, seating: Seating, state: TrickState) -> list[Text]:
        """The match scores after a hand."""
        scores = state.results[-1].scores if state.results else state.scores
        return [Text(f"Scores: {seating.scores_text(scores)}", style="bold")]

    def hand_line(self, seating: Seating, state: TrickState) -> Text:
        """One line for a finished hand (bots playing alone), before the scores."""
        result = state.results[-1]
        parts = []
        for key, value in result.to_dict().items():
            if key in ("scores", "winners", "winner") or value is None or isinstance(value, dict):
                continue
            if isinstance(value, list):
                text = " ".join(str(v) for v in value)
            elif isinstance(value, int) and not isinstance(value, bool) and key in SEAT_KEYS:
                text = seating.names[value] if 0 <= value < len(seating.names) else str(value)
            else:
                text = str(value)
            parts.append(f"{key} {text}")
        return Text("  ".join(parts))

    def winners(self, state: TrickState) -> list[int]:
        """The sides that won the match (several when the win is shared; none after a forfeit)."""
        shared = state.results[-1].shared_win() if state.results else ()
        if shared:
            return list(shared)
        winner = state.winner
        return [winner] if winner is not None and winner >= 0 else []

    def win_note(self) -> str:
        """How the winner won, said after the winner's name (" with the lowest score")."""
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

    def play_facts(self, seating: Seating, view: View) -> list[Text]:
        """Public facts worth a glance while playing (bids, tricks, penalties so far)."""
        return self.info_facts(seating, view)

    def info_facts(self, seating: Seating, view: View) -> list[Text]:
        """Every fact of ``view.info()``, named."""
        out = []
        for key, value in view.info().items():
            if value is None:
                continue
            name = key.replace("_", " ")
            out.append(line(f"{name} ", self.value_text(seating, key, value)))
        return out

    def situation_lines(self, seating: Seating, view: View) -> list[Text]:
        """What a seat about to act needs to know, before its hand and its choices."""
        name = seating.names[view.seat]
        trumps = view.tables.mask
        if view.phase != PLAY:
            head = Text(self.phase_title(seating, view), style="bold")
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
        head = Text(f"Trick {len(view.tricks) + 1} of {total}", style="bold")
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
            out.append(Text(self.lead_prompt(seating, view, name)))
        return out

    def no_trump_text(self) -> Text:
        """How the trick header says there is no trump."""
        return Text("no trump")

    def lead_prompt(self, seating: Seating, view: View, name: str) -> str:
        """The line when the seat leads a trick."""
        return f"{verb(name, 'lead')}."

    def bidding_facts(self, seating: Seating, view: View) -> list[Text]:
        """Public facts shown during the phases before the play."""
        return self.info_facts(seating, view)


def _bid_word(bid: object) -> str:
    """A Spades or Oh Hell bid as shown: a number, `blind nil`, or a dash before it is made."""
    if bid == "blind-nil":
        return "blind nil"
    return "—" if bid is None else str(bid)


def safely(primary: Callable[[], list[Text]], fallback: Callable[[], list[Text]]) -> list[Text]:
    """``primary()``, or ``fallback()`` if it fails on a result or view shaped unexpectedly.

    A game whose results change shape must not stop a match at the table: its generic
    description is shown instead.
    """
    try:
        return primary()
    except (KeyError, IndexError, TypeError, ValueError, AttributeError, TricktableError):
        return fallback()
