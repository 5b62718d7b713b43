"""How each game is shown at the table: its actions, phases, public facts and hand results.

A :class:`Presenter` turns a game's states, views and hand results into lines of text for the
terminal table (:mod:`tricktable.ui.terminal`) and the replay account. The base class is the
generic presenter: it describes any game from ``View.info()`` and the hand's result dict, so a
new game is shown without code. Games that deserve more register a subclass under their base
game name in :data:`PRESENTERS`.

Presenters only format. The table decides when to show what, and a seat's private action (a
Hearts pass, a Euchre discard) is spelt out only for the seats :attr:`Seating.watchers` name —
the humans at the keyboard, or every seat in the account of a finished match.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from rich.text import Text

from tricktable.cards import (
    HEARTS,
    JACK,
    JOKER,
    LITTLE_JOKER,
    QUEEN,
    SPADES,
    SUIT_MASKS,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    SUITS,
    TEN,
    card_of,
    cards_in,
    parse_card,
    pretty_card,
)
from tricktable.engine import actions as act
from tricktable.engine.trick import AUCTION, PLAY, Game, TrickState, TrumpTables, View
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
    """The generic presentation of a game, built from ``View.info()`` and result dicts.

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

    def _generic_result(self, seating: Seating, result: dict[str, Any]) -> list[Text]:
        out = []
        for key, value in result.items():
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
        result = state.results[-1] if state.results else {}
        scores = result.get("scores", state.scores)
        return [Text(f"Scores: {seating.scores_text(scores)}", style="bold")]

    def hand_line(self, seating: Seating, state: TrickState) -> Text:
        """One line for a finished hand (bots playing alone), before the scores."""
        result = state.results[-1]
        parts = []
        for key, value in result.items():
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
        last = state.results[-1] if state.results else {}
        shared = last.get("winners")
        if isinstance(shared, list) and all(type(w) is int for w in shared) and shared:
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


# --------------------------------------------------------------------- Setback and Pitch


class SetbackPresenter(Presenter):
    """Setback and every Pitch preset: the auction, trump by the first lead, the points."""

    auction_title = "Auction"

    def goal(self, seating: Seating) -> str:
        """How the match is won, in words."""
        opts = self.game.options
        target = opts.target
        rule = getattr(opts, "win", "declarers")
        if rule == "first":
            return f"first to {target} wins"
        if rule == "top":
            return f"the top score once someone reaches {target} wins"
        return f"first declaring {'team' if seating.partners else 'player'} to {target} wins"

    def rules_summary(self) -> str:
        """RULES.md's Setback in full; other variants by their summary."""
        game = self.game
        opts = game.options
        told = ("target", "min_bid", "max_bid")
        plain = type(opts)()
        if game.name != "setback" or any(
            getattr(opts, k) != getattr(plain, k) for k in game.options_dict() if k not in told
        ):
            return super().rules_summary()
        return (
            f"Six cards each. One round of bids from {opts.min_bid} to {opts.max_bid}, starting"
            f" left of the dealer; if all pass the dealer is stuck at {opts.min_bid}. The"
            " declarer leads first, and the suit of that card is trump. Follow suit if you can,"
            " otherwise play anything. The joker is a trump between the 10 and the jack, and may"
            " not be led while you hold other cards. Six points: High and Low (highest and"
            " lowest trump dealt), Jack of trump, Off-jack (the other jack of trump's colour),"
            " Joker, and Game (most card points: 10 = 10, A 4, K 3, Q 2, J 1). The declaring"
            " team scores its bid if it takes that many points and loses it otherwise; the"
            f" others score what they take. The first declaring team to {opts.target} wins."
        )

    def deal_lines(self, seating: Seating, state: TrickState) -> list[Text]:
        """Nothing: trump is named by the first lead."""
        return []

    def auction_lines(self, seating: Seating, state: TrickState) -> list[Text]:
        """The whole auction, and who declares at what."""
        game = self.game
        said = " · ".join(
            f"{seating.names[s]} {game.action_name(a)}" for s, a in _hand_actions(state)
        )
        out = [line(Text("Auction: ", style="bold"), said)]
        if state.needs_deal or state.is_over:
            return out  # thrown in: the hand's result says so
        info = state.view(state.to_act).info()
        declarer, bid = info.get("declarer"), info.get("bid")
        if declarer is None or bid is None:
            return out
        name = seating.names[declarer]
        if info.get("high_bidder", -1) < 0:
            text = f"All passed: {name}, the dealer, is stuck at {bid}."
        else:
            text = f"{verb(name, 'declare')} at {bid}."
        out.append(Text(text, style="bold"))
        return out

    def lead_lines(self, seating: Seating, state: TrickState, seat: int, card: int) -> list[Text]:
        """The first lead names trump."""
        if state.trump < 0:
            return []
        lead = line(f"{verb(seating.names[seat], 'lead')} ", card_text(card, state.tables.mask))
        return [line(lead, ": trump is ", suit_text(state.trump))]

    def result_lines(self, seating: Seating, state: TrickState) -> list[Text]:
        """Each point and who earned it, then the bid made or set."""
        result = state.results[-1]
        if result.get("thrown_in"):
            return [Text("All passed: the deal is thrown in; nobody scores.", style="bold")]
        out: list[Text] = []
        points = result.get("points")
        trump = suit_index(result.get("trump"))
        if isinstance(points, dict) and points and trump >= 0:
            weights = getattr(self.game, "weights", {})
            rows: list[tuple[str, Text, str, str]] = []
            for key, side in points.items():
                label = POINT_LABELS.get(key, key.replace("_", " ").capitalize())
                weight = weights.get(key, 1) if isinstance(weights, dict) else 1
                if weight != 1:
                    label += f" ({weight})"
                card, how = self._point_detail(seating, state, key, trump, side)
                who = seating.side_name(side) if isinstance(side, int) else "—"
                rows.append((label, card, who, how))
            # Aligned by hand: a Rich Table costs as much as all the rest of a hand's output.
            wide = [max(len(r[i]) for r in rows) for i in range(3)]
            out.append(Text())
            for label, card, who, how in rows:
                row = Text(" ")
                row.append(label.ljust(wide[0]), style="bold")
                row.append("  ")
                row.append_text(card)
                row.append(" " * (wide[1] - len(card) + 2) + who.ljust(wide[2]) + "  ")
                row.append(how, style="dim")
                out.append(row)
        out.extend(self._bid_lines(seating, state))
        return out

    def _point_detail(
        self, seating: Seating, state: TrickState, key: str, trump: int, side: int | None
    ) -> tuple[Text, str]:
        """The card that made a point (or the Game count), and how it went."""
        if key == "game":
            from tricktable.games.setback import game_count

            won = state.won
            masks = [won[0] | won[2], won[1] | won[3]] if seating.partners else list(won)
            counts = [game_count(m) for m in masks]
            how = "card points" if side is not None else "card points, a tie: not awarded"
            return Text(" to ".join(map(str, counts))), how
        dealt = _or_all(state.dealt)
        card = _point_card(key, trump, dealt, state.tables)
        if card < 0 or not dealt >> card & 1:
            return Text("—"), "not dealt"
        if key == "low" and getattr(self.game.options, "low_to", "captured") == "dealt":
            holder = next(s for s, m in enumerate(state.dealt) if m >> card & 1)
            how = f"dealt to {seating.names[holder]}"
        else:
            taker = next((s for s, m in enumerate(state.won) if m >> card & 1), -1)
            how = f"taken by {seating.names[taker]}" if taker >= 0 else ""
        return card_text(card, state.tables.mask), how

    def _bid_lines(self, seating: Seating, state: TrickState) -> list[Text]:
        result = state.results[-1]
        scores = result.get("scores", state.scores)
        before = state.results[-2]["scores"] if len(state.results) > 1 else [0] * len(scores)
        declarer, bid, taken = result.get("declarer"), result.get("bid"), result.get("taken")
        if not (isinstance(declarer, int) and isinstance(bid, int) and isinstance(taken, list)):
            return []
        side = self.game.team_of(declarer)
        made = taken[side] >= bid
        out = Text(f"{seating.names[declarer]} bid {bid}; {seating.side_name(side)} took ")
        out.append(f"{taken[side]}: ")
        out.append("made" if made else "set", style="bold green" if made else "bold red")
        out.append(f", {scores[side] - before[side]:+d}.")
        for other, got in enumerate(taken):
            if other != side:
                change = scores[other] - before[other]
                out.append(f" {seating.side_name(other)} took {got}: {change:+d}.")
        return [out]

    def hand_line(self, seating: Seating, state: TrickState) -> Text:
        """Declarer, bid, trump, made or set, points taken."""
        result = state.results[-1]
        declarer, bid, taken = result.get("declarer"), result.get("bid"), result.get("taken")
        out = Text()
        trump = suit_index(result.get("trump"))
        if result.get("thrown_in"):
            out.append("all passed, thrown in")
        elif isinstance(declarer, int) and isinstance(bid, int) and isinstance(taken, list):
            made = taken[self.game.team_of(declarer)] >= bid
            out.append(f"{seating.names[declarer]:<5} bid {bid:>2} in ")
            out.append_text(suit_text(trump, short=True) if trump >= 0 else Text("?"))
            out.append(": ")
            out.append("made" if made else "set ", style="green" if made else "red")
            out.append(f"  points {'–'.join(map(str, taken))}")
        return out

    def phase_title(self, seating: Seating, view: View) -> str:
        """The auction."""
        return "Auction"

    def situation_lines(self, seating: Seating, view: View) -> list[Text]:
        """The auction so far, or the trick with the trump and the contract."""
        name = seating.names[view.seat]
        if view.phase == AUCTION:
            bids = [f"{seating.names[s]} {self.game.action_name(a)}" for s, a in view.actions]
            said = " · ".join(bids) if bids else f"{verb(name, 'bid')} first"
            return [line(Text("Auction: ", style="bold"), said)]
        return super().situation_lines(seating, view)

    def play_facts(self, seating: Seating, view: View) -> list[Text]:
        """Who declared at what."""
        info = view.info()
        declarer, bid = info.get("declarer"), info.get("bid")
        if isinstance(declarer, int) and declarer >= 0:
            return [Text(f"{seating.names[declarer]} bid {bid}")]
        return []

    def lead_prompt(self, seating: Seating, view: View, name: str) -> str:
        """Before trump is named, the lead names it."""
        if view.trump < 0:
            return f"{verb(name, 'lead')}: the suit of this card is trump."
        return f"{verb(name, 'lead')}."

    def no_trump_text(self) -> Text:
        """Trump is not named yet."""
        return Text("trump named by the lead")


def _point_card(key: str, trump: int, dealt: int, tables: TrumpTables) -> int:
    """The card a point goes with (High and Low: the highest and lowest trump dealt), or -1."""
    if key in ("high", "low"):
        # Jokers are never High or Low; other cards joining trump (an off-jack) may be.
        trumps = [c for c in cards_in(dealt & tables.mask) if c < 52]
        if not trumps:
            return -1
        pick = max if key == "high" else min
        return pick(trumps, key=tables.power.__getitem__)
    other = 3 - trump
    return {
        "jack": trump * 13 + JACK,
        "off_jack": other * 13 + JACK,
        "joker": JOKER,
        "little_joker": LITTLE_JOKER,
        "three": trump * 13 + 1,
        "five": trump * 13 + 3,
        "off_five": other * 13 + 3,
        "ten": trump * 13 + TEN,
    }.get(key, -1)


# ------------------------------------------------------------------------------- Euchre


class EuchrePresenter(Presenter):
    """Euchre: the up-card, two rounds of making trump, the dealer's discard, lone hands."""

    auction_title = "Making trump"

    def goal(self, seating: Seating) -> str:
        """First side to the target."""
        return f"first side to {self.game.options.target} wins"

    def hidden_words(self, action: int) -> str:
        """The dealer's discard is private."""
        return "discard a card"

    def deal_lines(self, seating: Seating, state: TrickState) -> list[Text]:
        """The up-card."""
        if state.stock:
            return [line("Up-card: ", card_text(state.stock[0]))]
        return []

    def auction_lines(self, seating: Seating, state: TrickState) -> list[Text]:
        """The passes and who made trump, alone or not, and the dealer's pick-up."""
        out = super().auction_lines(seating, state)
        if state.needs_deal or state.is_over:
            return out  # thrown in: the result says so
        info = state.view(0).info()
        maker = info.get("maker")
        if not isinstance(maker, int) or state.trump < 0:
            return out
        names, dealer = seating.names, state.dealer
        trump = suit_text(state.trump)
        up = card_word(info.get("up_card")) or Text("?")
        alone = bool(info.get("alone"))
        if info.get("bidding_round") == 1:
            if maker == dealer:
                text = line(f"{verb(names[maker], 'pick')} up ", up, " (dealer): trump is ", trump)
            else:
                text = line(f"{verb(names[maker], 'order')} up ", up, ": trump is ", trump)
                if not (alone and (maker + 2) % 4 == dealer):
                    text.append(f"; {names[dealer]}, the dealer, picks it up")
        else:
            text = line(f"{verb(names[maker], 'name')} ", trump, " trump")
        if alone:
            out_seat = (maker + 2) % 4
            text.append(f"; {verb(names[maker], 'go')} alone, {names[out_seat]} sitting out")
        text.append(".")
        text.stylize("bold")
        out.append(text)
        return out

    def result_lines(self, seating: Seating, state: TrickState) -> list[Text]:
        """The makers' tricks: made, a march, or euchred, and the points."""
        r = state.results[-1]
        if r.get("thrown_in"):
            return [Text("Everyone passed twice: the deal is thrown in; nobody scores.", "bold")]
        maker, tricks, points = r.get("maker"), _ints(r.get("tricks"), 2), _ints(r.get("points"), 2)
        if not isinstance(maker, int) or tricks is None or points is None:
            return self._generic_result(seating, r)
        makers = maker & 1
        took = tricks[makers]
        who = f"{seating.side_name(makers)} ({seating.names[maker]} made it"
        who += " alone)" if r.get("alone") else ")"
        text = Text(f"{who} took {took} trick{'s' * (took != 1)}: ")
        if r.get("euchred"):
            text.append("euchred", style="bold red")
            text.append(f"; {seating.side_name(1 - makers)} score {points[1 - makers]}.")
        else:
            word = "a march" if took == 5 else "made"
            text.append(word, style="bold green")
            text.append(f", {signed(points[makers])}.")
        return [text]

    def hand_line(self, seating: Seating, state: TrickState) -> Text:
        """Maker, trump, alone, and what came of it."""
        r = state.results[-1]
        if r.get("thrown_in"):
            return Text("all passed twice, thrown in")
        maker, tricks = r.get("maker"), _ints(r.get("tricks"), 2)
        if not isinstance(maker, int) or tricks is None:
            return super().hand_line(seating, state)
        trump = suit_index(r.get("trump"))
        how = "ordered up" if r.get("round") == 1 else "named"
        out = Text(f"{seating.names[maker]:<5} {how:<10} ")
        out.append_text(suit_text(trump, short=True) if trump >= 0 else Text("?"))
        out.append(" alone" if r.get("alone") else "      ")
        out.append(": ")
        took = tricks[maker & 1]
        if r.get("euchred"):
            out.append("euchred", style="red")
        else:
            out.append("march  " if took == 5 else "made   ", style="green")
        out.append(f"  makers took {took}")
        return out

    def phase_title(self, seating: Seating, view: View) -> str:
        """The round of making trump, or the discard."""
        if view.to_dict()["phase"] == "discard":
            return "Discard one card (the dealer took the up-card)"
        return f"Making trump, round {view.info().get('bidding_round', 1)}"

    def bidding_facts(self, seating: Seating, view: View) -> list[Text]:
        """The up-card, the dealer, and what the second round allows."""
        info = view.info()
        up = card_word(info.get("up_card"))
        facts: list[Text] = []
        if up is not None:
            turned = info.get("bidding_round") == 2
            facts.append(line("up-card ", up, " (turned down)" if turned else ""))
        facts.append(Text(f"{seating.names[view.dealer]} dealt"))
        return facts

    def play_facts(self, seating: Seating, view: View) -> list[Text]:
        """Who made trump, alone or not, and the tricks so far."""
        info = view.info()
        maker = info.get("maker")
        facts: list[Text] = []
        if isinstance(maker, int):
            alone = " alone" if info.get("alone") else ""
            facts.append(Text(f"{seating.names[maker]} made trump{alone}"))
        won = view.tricks_won
        facts.append(Text("tricks " + seating.per_side([won[0] + won[2], won[1] + won[3]])))
        return facts


# ----------------------------------------------------------------------- Hearts, Filippa


def _passing_direction(state: TrickState) -> str:
    info = state.view(0).info()
    direction = info.get("pass_direction")
    return direction if isinstance(direction, str) else ""


class HeartsPresenter(Presenter):
    """Hearts: the passing, the penalty points of each trick and hand, the moon."""

    def goal(self, seating: Seating) -> str:
        """Lowest score wins."""
        target = self.game.options.target
        return f"the match ends when someone reaches {target}; the lowest score wins"

    def hidden_words(self, action: int) -> str:
        """A pass others may not see."""
        return "pass 3 cards"

    def pass_title(self, direction: str) -> str:
        """The passing phase's name."""
        if direction in ("", "hold"):
            return "No passing this hand"
        return f"Passing {direction}"

    def deal_lines(self, seating: Seating, state: TrickState) -> list[Text]:
        """The pass direction; no trump."""
        return [Text(f"{self.pass_title(_passing_direction(state))} · no trump")]

    def auction_lines(self, seating: Seating, state: TrickState) -> list[Text]:
        """Each pass, spelt out for the watchers' own and those they received."""
        said = [self.said(seating, state, s, a) for s, a in self.auction_actions(state)]
        if not said:
            return []
        title = self.pass_title(_passing_direction(state))
        return [line(Text(f"{title}: ", style="bold"), join(said))]

    def penalty(self, cards: int) -> int:
        """The penalty points of some cards (a mask)."""
        return (cards & SUIT_MASKS[HEARTS]).bit_count() + (
            13 if cards >> QUEEN_OF_SPADES & 1 else 0
        )

    def trick_note(self, state: TrickState, cards: Sequence[int], winner: int) -> str:
        """The penalty points in the trick."""
        points = self.penalty(_or_all(1 << c for c in cards))
        if not points:
            return ""
        return f" ({points} point{'s' * (abs(points) != 1)})"

    def result_lines(self, seating: Seating, state: TrickState) -> list[Text]:
        """Penalty points taken, the queen of spades, the moon."""
        r = state.results[-1]
        penalties = _ints(r.get("penalties"), 4)
        if penalties is None:
            return self._generic_result(seating, r)
        out = [line(Text("Penalty points: ", style="bold"), seating.per_seat(penalties))]
        taker = next((s for s, m in enumerate(state.won) if m >> QUEEN_OF_SPADES & 1), -1)
        if taker >= 0:
            out.append(line(card_text(QUEEN_OF_SPADES), f" taken by {seating.names[taker]}."))
        moon = r.get("moon")
        if isinstance(moon, int) and 0 <= moon < 4:
            shooter = seating.names[moon]
            how = self.game.options.moon
            gain = "everyone else scores 26" if how == "add" else f"{shooter} scores -26"
            out.append(Text(f"{verb(shooter, 'shoot')} the moon: {gain}!", style="bold green"))
        return out

    def score_lines(self, seating: Seating, state: TrickState) -> list[Text]:
        """The scores, lowest best."""
        out = super().score_lines(seating, state)
        out[-1].append(" (lowest wins)", style="dim")
        return out

    def hand_line(self, seating: Seating, state: TrickState) -> Text:
        """The pass, the penalty points, the moon."""
        r = state.results[-1]
        penalties = _ints(r.get("penalties"), 4)
        if penalties is None:
            return super().hand_line(seating, state)
        out = Text(f"pass {r.get('pass', '?'):<6}  penalties ")
        out.append(" ".join(f"{p:>2}" for p in penalties))
        moon = r.get("moon")
        if isinstance(moon, int) and 0 <= moon < 4:
            out.append(f"  moon: {seating.names[moon]}", style="green")
        return out

    def win_note(self) -> str:
        """Hearts is won low."""
        return " with the lowest score"

    def phase_title(self, seating: Seating, view: View) -> str:
        """Which way the cards go."""
        info = view.info()
        direction = info.get("pass_direction", "")
        offset = {"left": 1, "across": 2, "right": 3}.get(str(direction), 0)
        to = seating.names[(view.seat + offset) % 4]
        return f"Pass three cards {direction}, to {to}"

    def bidding_facts(self, seating: Seating, view: View) -> list[Text]:
        """Nothing more: the choices say how to pass."""
        return []

    def play_facts(self, seating: Seating, view: View) -> list[Text]:
        """Penalties so far, hearts broken, what the seat received."""
        info = view.info()
        facts: list[Text] = []
        penalties = _ints(info.get("penalties"), 4)
        if penalties is not None:
            facts.append(Text("penalties " + seating.per_seat(penalties)))
        if info.get("hearts_broken") is not None:
            facts.append(Text("hearts broken" if info["hearts_broken"] else "hearts not broken"))
        received = info.get("received")
        if isinstance(received, list) and received and not view.tricks:
            facts.append(line("you received ", join((card_word(c) or c for c in received), " ")))
        return facts


class FilippaPresenter(HeartsPresenter):
    """Filippa: penalties against their takers, the pool shared by the seats that took none."""

    def goal(self, seating: Seating) -> str:
        """Highest positive total once someone reaches the target."""
        target = self.game.options.target
        return f"the clean seats share each pool; the highest once someone reaches {target} wins"

    def deal_lines(self, seating: Seating, state: TrickState) -> list[Text]:
        """The pass, no trump, the pool at stake."""
        out = super().deal_lines(seating, state)
        pool = state.view(0).info().get("pool")
        if isinstance(pool, int):
            out[0].append(f" · pool {pool}")
        return out

    def penalty(self, cards: int) -> int:
        """The penalty of some cards (negative)."""
        from tricktable.games.filippa import card_penalties

        return card_penalties([cards])[0]

    def result_lines(self, seating: Seating, state: TrickState) -> list[Text]:
        """Penalties, who stayed clean and shared the pool, or the pool carried over."""
        r = state.results[-1]
        penalties, shares = _ints(r.get("penalties"), 4), _ints(r.get("shares"), 4)
        pool = r.get("pool")
        if penalties is None or shares is None or not isinstance(pool, int):
            return self._generic_result(seating, r)
        out = [line(Text("Penalties: ", style="bold"), seating.per_seat(penalties))]
        clean = [seating.names[s] for s in range(4) if shares[s]]
        if len(clean) == 1:
            name = clean[0]
            took = f"{verb(name, 'stay')} clean and {conjugate(name, 'take')} the pool of {pool}"
            out.append(Text(f"{took}: +{pool}.", "bold"))
        elif clean:
            who = " and ".join(clean)
            share = max(shares)
            out.append(
                Text(f"{who} stay clean and share the pool of {pool}: +{share} each.", "bold")
            )
        else:
            out.append(Text(f"Nobody stayed clean: the pool of {pool} carries over.", "bold"))
        return out

    def score_lines(self, seating: Seating, state: TrickState) -> list[Text]:
        """Positive scores, and the penalty totals beside them."""
        out = Presenter.score_lines(self, seating, state)
        negative = _ints(state.results[-1].get("negative"), 4) if state.results else None
        if negative is not None:
            out.append(Text(f"Penalty totals: {seating.per_seat(negative)}", style="dim"))
        return out

    def hand_line(self, seating: Seating, state: TrickState) -> Text:
        """Penalties, and the pool shared or carried."""
        r = state.results[-1]
        penalties, shares = _ints(r.get("penalties"), 4), _ints(r.get("shares"), 4)
        if penalties is None or shares is None:
            return Presenter.hand_line(self, seating, state)
        out = Text("penalties " + " ".join(f"{p:>3}" for p in penalties))
        clean = [seating.names[s] for s in range(4) if shares[s]]
        if clean:
            out.append(f"  pool {r.get('pool')} to {', '.join(clean)} +{max(shares)}")
        else:
            out.append(f"  pool {r.get('pool')} carried")
        return out

    def win_note(self) -> str:
        """The highest positive total wins."""
        return ""

    def play_facts(self, seating: Seating, view: View) -> list[Text]:
        """Penalties so far this hand, the pool."""
        facts = super().play_facts(seating, view)
        facts = [f for f in facts if not f.plain.startswith("hearts")]
        pool = view.info().get("pool")
        if isinstance(pool, int):
            facts.append(Text(f"pool {pool}"))
        return facts


# ------------------------------------------------------------------------------- Spades


def _bid_word(bid: object) -> str:
    if bid == "blind-nil":
        return "blind nil"
    return "—" if bid is None else str(bid)


class SpadesPresenter(Presenter):
    """Spades: blind nil, bids, nils, contracts, bags."""

    auction_title = "Bids"

    def goal(self, seating: Seating) -> str:
        """The target, and the floor."""
        opts = self.game.options
        text = f"first side to {opts.target} wins"
        if opts.lose_at:
            text += f"; a side at {opts.lose_at} or below loses"
        return text

    def deal_lines(self, seating: Seating, state: TrickState) -> list[Text]:
        """Spades are trump; who may bid blind nil."""
        out = [Text("Spades are trump.")]
        offered = state.view(0).info().get("blind_nil_offered")
        if isinstance(offered, list) and any(offered):
            sides = sorted({self.game.team_of(s) for s, ok in enumerate(offered) if ok})
            who = " and ".join(seating.side_name(t) for t in sides)
            out.append(Text(f"Blind nil is open to {who}."))
        return out

    def auction_lines(self, seating: Seating, state: TrickState) -> list[Text]:
        """The bids, and each side's contract."""
        bids = state.view(0).info().get("bids")
        if not isinstance(bids, list) or len(bids) != 4:
            return super().auction_lines(seating, state)
        order = [(state.dealer + 1 + i) % 4 for i in range(4)]
        said = [f"{seating.names[s]} {_bid_word(bids[s])}" for s in order]
        out = [line(Text("Bids: ", style="bold"), " · ".join(said))]
        if seating.partners:
            sides = []
            for t in range(2):
                own = [bids[t], bids[t + 2]]
                contract = sum(b for b in own if isinstance(b, int))
                nils = [
                    f"{seating.names[s]} {_bid_word(bids[s])}"
                    for s in (t, t + 2)
                    if not isinstance(bids[s], int) or bids[s] == 0
                ]
                note = f" ({', '.join(nils)})" if nils else ""
                sides.append(f"{seating.side_name(t)} {contract}{note}")
            out.append(Text("Contracts: " + " · ".join(sides), style="bold"))
        return out

    def result_lines(self, seating: Seating, state: TrickState) -> list[Text]:
        """Bids against tricks, each side made or set, nils, bags."""
        r = state.results[-1]
        bids, tricks = r.get("bids"), _ints(r.get("tricks"), 4)
        contracts, made = _ints(r.get("contracts"), 2), r.get("made")
        points, bags = _ints(r.get("points"), 2), _ints(r.get("bags"), 2)
        if (
            not isinstance(bids, list)
            or len(bids) != 4
            or tricks is None
            or contracts is None
            or points is None
            or not isinstance(made, list)
        ):
            return self._generic_result(seating, r)
        pairs = seating.per_seat([f"{_bid_word(b)}/{t}" for b, t in zip(bids, tricks, strict=True)])
        out = [line(Text("Bid/took: ", style="bold"), pairs)]
        for t in range(2):
            took = tricks[t] + tricks[t + 2]
            text = Text(f"{seating.side_name(t)}: ")
            if made[t] is None:
                text.append("no contract")
            else:
                text.append(f"bid {contracts[t]}, took {took}: ")
                ok = bool(made[t])
                text.append("made" if ok else "set", style="bold green" if ok else "bold red")
            for nil in r.get("nils", []):
                if isinstance(nil, dict) and nil.get("seat") in (t, t + 2):
                    kind = "blind nil" if nil.get("blind") else "nil"
                    state_word = "made" if nil.get("made") else "failed"
                    text.append(f"; {seating.names[nil['seat']]}'s {kind} {state_word}")
            penalty = (r.get("bag_penalties") or [0, 0])[t]
            if penalty:
                text.append(f"; 10 bags: {penalty}")
            text.append(f"; {signed(points[t])}.")
            out.append(text)
        if bags is not None:
            out.append(Text(f"Bags: {seating.per_side(bags)}", style="dim"))
        return out

    def hand_line(self, seating: Seating, state: TrickState) -> Text:
        """Bids against tricks, and the points of each side."""
        r = state.results[-1]
        bids, tricks = r.get("bids"), _ints(r.get("tricks"), 4)
        points = _ints(r.get("points"), 2)
        if not isinstance(bids, list) or len(bids) != 4 or tricks is None or points is None:
            return super().hand_line(seating, state)
        short = {"nil": "n", "blind-nil": "bn"}
        pairs = " ".join(
            f"{short.get(str(b), str(b)):>2}/{t:<2}" for b, t in zip(bids, tricks, strict=True)
        )
        out = Text(f"bid/took {pairs}  points {points[0]:+4d} {points[1]:+4d}")
        bags = _ints(r.get("bags"), 2)
        if bags is not None:
            out.append(f"  bags {bags[0]} {bags[1]}")
        return out

    def phase_title(self, seating: Seating, view: View) -> str:
        """Blind nil first, then the bid."""
        if view.to_dict()["phase"] == "blind":
            return "Blind nil? Bid it before looking at your cards, or look"
        return "Bidding: tricks you and your partner will take (nil: none for you)"

    def bidding_facts(self, seating: Seating, view: View) -> list[Text]:
        """The bags each side carries (the bids so far are listed already)."""
        info = view.info()
        facts: list[Text] = []
        bags = _ints(info.get("bags"), 2)
        if bags is not None and seating.partners:
            facts.append(Text("bags " + seating.per_side(bags)))
        return facts

    def play_facts(self, seating: Seating, view: View) -> list[Text]:
        """Bids against tricks so far, spades broken."""
        info = view.info()
        facts: list[Text] = []
        bids = info.get("bids")
        won = view.tricks_won
        if isinstance(bids, list) and len(bids) == 4:
            pairs = [f"{_bid_word(b)}/{t}" for b, t in zip(bids, won, strict=True)]
            facts.append(Text("bid/took " + seating.per_seat(pairs)))
        if info.get("spades_broken") is not None:
            facts.append(Text("spades broken" if info["spades_broken"] else "spades not broken"))
        return facts


# ------------------------------------------------------------------------------ Oh Hell


class OhHellPresenter(Presenter):
    """Oh Hell: the hand size, the trump card, exact bids."""

    auction_title = "Bids"

    def goal(self, seating: Seating) -> str:
        """The sequence of hands; the highest total wins."""
        opts = self.game.options
        top = opts.max_cards
        sizes = getattr(self.game, "sizes", ())
        how = {
            "down-up": f"{top} cards down to 1 and back up",
            "up-down": f"1 card up to {top} and back down",
            "down": f"{top} cards down to 1",
            "up": f"1 card up to {top}",
        }.get(opts.sequence, opts.sequence)
        return f"{len(sizes)} hands, {how}; exact bids score; the highest total wins"

    def deal_lines(self, seating: Seating, state: TrickState) -> list[Text]:
        """The hand size and the trump card."""
        size = state.hand_size
        head = Text(f"{size} card{'s' * (size != 1)} each · ")
        up = card_word(state.view(0).info().get("up_card"))
        if up is not None and state.trump >= 0:
            return [line(head, "trump card ", up, ": trump is ", suit_text(state.trump))]
        return [line(head, "no trump card: no trump")]

    def auction_lines(self, seating: Seating, state: TrickState) -> list[Text]:
        """The bids in order, and their total against the tricks."""
        bids = state.view(0).info().get("bids")
        if not isinstance(bids, list) or len(bids) != 4 or None in bids:
            return super().auction_lines(seating, state)
        order = [(state.dealer + 1 + i) % 4 for i in range(4)]
        said = " · ".join(f"{seating.names[s]} {bids[s]}" for s in order)
        total, size = sum(bids), state.hand_size
        how = "over" if total > size else "under"
        note = f" — {total} bid for {size} trick{'s' * (size != 1)} ({how})"
        return [line(Text("Bids: ", style="bold"), said, Text(note, style="dim"))]

    def result_lines(self, seating: Seating, state: TrickState) -> list[Text]:
        """Each seat's bid against its tricks, exact or not, and its points."""
        r = state.results[-1]
        bids, tricks, points = (_ints(r.get(k), 4) for k in ("bids", "tricks", "points"))
        if bids is None or tricks is None or points is None:
            return self._generic_result(seating, r)
        row = Text("Bid/took: ", style="bold")
        for s in range(4):
            if s:
                row.append(" · ")
            hit = bids[s] == tricks[s]
            row.append(f"{seating.names[s]} {bids[s]}/{tricks[s]} ")
            row.append("✓" if hit else "✗", style="green" if hit else "red")
            row.append(f" {signed(points[s])}")
        exact = [seating.names[s] for s in range(4) if bids[s] == tricks[s]]
        return [row, Text("Exact: " + (", ".join(exact) if exact else "nobody"))]

    def hand_line(self, seating: Seating, state: TrickState) -> Text:
        """Hand size, trump, bids against tricks."""
        r = state.results[-1]
        bids, tricks = _ints(r.get("bids"), 4), _ints(r.get("tricks"), 4)
        if bids is None or tricks is None:
            return super().hand_line(seating, state)
        out = Text(f"{r.get('hand_size', '?'):>2} cards ")
        trump = suit_index(r.get("trump"))
        out.append_text(suit_text(trump, short=True) if trump >= 0 else Text("-"))
        pairs = " ".join(f"{b}/{t}" for b, t in zip(bids, tricks, strict=True))
        exact = sum(b == t for b, t in zip(bids, tricks, strict=True))
        out.append(f"  bid/took {pairs}  exact {exact}")
        return out

    def phase_title(self, seating: Seating, view: View) -> str:
        """The bid: exactly the tricks you will take."""
        return "Bidding: exactly the tricks you will take"

    def bidding_facts(self, seating: Seating, view: View) -> list[Text]:
        """Hand size, trump, bids so far."""
        info = view.info()
        facts: list[Text] = [Text(f"{info.get('hand_size', '?')} cards")]
        up = card_word(info.get("up_card"))
        if up is not None and view.trump >= 0:
            facts.append(line("trump ", suit_text(view.trump, short=True), " (", up, ")"))
        else:
            facts.append(Text("no trump"))
        bids = info.get("bids")
        if isinstance(bids, list):
            total = sum(b for b in bids if isinstance(b, int))
            facts.append(Text(f"bids so far total {total}"))
        return facts

    def play_facts(self, seating: Seating, view: View) -> list[Text]:
        """Bids against tricks so far."""
        bids = view.info().get("bids")
        if isinstance(bids, list) and len(bids) == 4:
            pairs = [f"{_bid_word(b)}/{t}" for b, t in zip(bids, view.tricks_won, strict=True)]
            return [Text("bid/took " + seating.per_seat(pairs))]
        return []


# ------------------------------------------------------------------------------- Tricks


class TricksPresenter(Presenter):
    """Tricks: a point a trick; a bad card costs points and throws the hand in."""

    def goal(self, seating: Seating) -> str:
        """A point a trick, to the target."""
        target = self.game.options.target
        return f"a point a trick; the first to {target} wins at once"

    def deal_lines(self, seating: Seating, state: TrickState) -> list[Text]:
        """No trump; who leads."""
        leader = state.view(0).info().get("leader")
        first = seating.names[leader] if isinstance(leader, int) else "?"
        return [Text(f"No trump · {verb(first, 'lead')}")]

    def auction_lines(self, seating: Seating, state: TrickState) -> list[Text]:
        """No bidding (a bad card shows in the result)."""
        return []

    def result_lines(self, seating: Seating, state: TrickState) -> list[Text]:
        """Tricks per seat, or the bad card that threw the hand in."""
        r = state.results[-1]
        tricks = _ints(r.get("tricks"), 4)
        if tricks is None:
            return self._generic_result(seating, r)
        out = [line(Text("Tricks: ", style="bold"), seating.per_seat(tricks))]
        bad = r.get("bad_card")
        if isinstance(bad, int) and 0 <= bad < 4:
            penalty = self.game.options.bad_card_penalty
            out.append(
                Text(
                    f"{verb(seating.names[bad], 'play')} a bad card: -{penalty}; the hand is "
                    "thrown in and dealt again.",
                    style="bold red",
                )
            )
        return out

    def hand_line(self, seating: Seating, state: TrickState) -> Text:
        """Tricks per seat, or the bad card."""
        r = state.results[-1]
        tricks = _ints(r.get("tricks"), 4)
        if tricks is None:
            return super().hand_line(seating, state)
        out = Text("tricks " + " ".join(f"{t:>2}" for t in tricks))
        bad = r.get("bad_card")
        if isinstance(bad, int) and 0 <= bad < 4:
            out.append(f"  bad card by {seating.names[bad]}, thrown in", style="red")
        return out

    def play_facts(self, seating: Seating, view: View) -> list[Text]:
        """Tricks so far this hand."""
        return [Text("tricks " + seating.per_seat(view.tricks_won))]


#: base game name -> its presenter class; games not listed get the generic :class:`Presenter`
PRESENTERS: dict[str, type[Presenter]] = {
    "setback": SetbackPresenter,
    "euchre": EuchrePresenter,
    "hearts": HeartsPresenter,
    "filippa": FilippaPresenter,
    "spades": SpadesPresenter,
    "oh-hell": OhHellPresenter,
    "tricks": TricksPresenter,
}


def presenter_for(game: Game) -> Presenter:
    """The presenter of ``game`` (by its base name), the generic one for a game without its own."""
    return PRESENTERS.get(game.name, Presenter)(game)


def safely(primary: Callable[[], list[Text]], fallback: Callable[[], list[Text]]) -> list[Text]:
    """``primary()``, or ``fallback()`` if it fails on a result or view shaped unexpectedly.

    A game whose results change shape must not stop a match at the table: its generic
    description is shown instead.
    """
    try:
        return primary()
    except (KeyError, IndexError, TypeError, ValueError, AttributeError, TricktableError):
        return fallback()
