"""The terminal table: the match drawn with Rich as it happens, and the human at the keyboard.

:class:`TableDisplay` is a ``match.play_hand`` listener that prints the auction, the trump, each
trick and each hand's points; :class:`HumanPlayer` is a :class:`~tricktable.bots.base.Bot` whose
``act`` shows the seat's situation and reads an answer. Rich drops colours by itself when
standard output is not a terminal, so the same code gives a plain transcript in a pipe.
"""

from __future__ import annotations

import codecs
import io
import re
import sys
from collections.abc import Callable, Iterable, Sequence

from rich.console import Console
from rich.padding import Padding
from rich.text import Text

from tricktable.bots.base import Bot
from tricktable.cards import (
    JACK,
    JOKER,
    LITTLE_JOKER,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    SUITS,
    TEN,
    cards_in,
    pretty_card,
)
from tricktable.engine import actions as act
from tricktable.engine.trick import AUCTION, Game, TrickState, TrumpTables, View
from tricktable.errors import IllegalAction, NotationError, TricktableError
from tricktable.games import PRESETS
from tricktable.games.setback import game_count

COMPASS = ("South", "West", "North", "East")
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
QUIT_WORDS = ("quit", "exit", "q")
HELP_WORDS = ("help", "?", "h")
SHOW_WORDS = ("hand", "table", "show")


class QuitGame(Exception):
    """The human typed ``quit``: stop the match (the caller saves the record so far)."""


#: plain stand-ins for the symbols the table prints, for streams that cannot encode them
ASCII_FALLBACK = {
    "♣": "C",
    "♦": "D",
    "♥": "H",
    "♠": "S",
    "·": "|",
    "→": "->",
    "✗": "x",
    "─": "-",
    "—": "-",
    "–": "-",
}


def _ascii_fallback(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    bad = exc.object[exc.start : exc.end]
    return "".join(ASCII_FALLBACK.get(ch, "?") for ch in bad), exc.end


codecs.register_error("tricktable-ascii", _ascii_fallback)


def make_console() -> Console:
    """The console the table prints on: standard output, colours only on a terminal."""
    stream = sys.stdout
    encoding = getattr(stream, "encoding", None) or "utf-8"
    if isinstance(stream, io.TextIOWrapper) and not _can_encode(encoding, "♦·→✗─"):
        # An ASCII or Latin-1 locale: 10D and -> rather than "?" or a traceback.
        stream.reconfigure(errors="tricktable-ascii")
    # Soft wrap leaves long lines to the terminal: a third of the cost of Rich's own wrapping,
    # and piped transcripts keep one event per line. Paragraphs (help) ask for wrapping.
    return Console(highlight=False, emoji=False, soft_wrap=True)


def _can_encode(encoding: str, text: str) -> bool:
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def seat_names(humans: Sequence[int], num_players: int = 4) -> list[str]:
    """The name of each seat: with one human, "You" and the others by where they sit from you.

    Seat + 1 is to the left, so a human at seat 0 (South) has West on the left, North opposite.
    """
    if num_players != 4:
        return [f"Seat {s}" for s in range(num_players)]
    if len(humans) == 1:
        relative = ("You", "West", "North", "East")
        return [relative[(seat - humans[0]) % 4] for seat in range(4)]
    return list(COMPASS)


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


def action_text(game: Game, action: int, trumps: int = 0) -> Text:
    """An action for people: a card as ``10♦``, anything else as its name (``bid 3``)."""
    if act.is_play(action):
        return card_text(action, trumps)
    return Text(game.action_name(action))


def _verb(name: str, verb: str) -> str:
    """``name`` with ``verb`` agreeing: "You take", "North takes"."""
    return f"{name} {verb}" if name == "You" else f"{name} {verb}s"


def _is_bid_amount(game: Game, n: int) -> bool:
    """Whether the rules allow a bid of ``n`` at all (so that a bare number means a bid)."""
    low = getattr(game.options, "min_bid", 1)
    high = getattr(game.options, "max_bid", 63)
    return bool(low <= n <= high)


def read_answer(text: str, view: View) -> int:
    """The legal action a typed answer names, for the seat of ``view`` (whose turn it is).

    Accepted: ``pass`` (or ``p``), ``bid 3``, ``play TD`` or just a card (``TD``, ``10d``,
    ``t♦``), and a bare number: in the auction a bid (``3``), except ``1`` when no bid can be 1,
    which is the first choice (pass); in play a 1-based index into the legal cards. Raises
    :class:`NotationError` for what cannot be read and :class:`IllegalAction` (the engine's
    reason) for what the rules forbid now.
    """
    game = view.game
    legal = view.legal_actions()
    words = text.strip().lower().split()
    auction = any(not act.is_play(a) for a in legal)
    if len(words) == 1 and re.fullmatch(r"[0-9]+", words[0]):
        n = int(words[0])
        if not auction:
            if 1 <= n <= len(legal):
                return legal[n - 1]
            raise NotationError(f"there is no choice {n}: pick 1 to {len(legal)}")
        if n == 1 and not _is_bid_amount(game, 1):
            return legal[0]  # the first choice: pass
        words = ["bid", words[0]]
    if words == ["p"]:
        words = ["pass"]
    if len(words) == 2 and words[0] == "bid" and re.fullmatch(r"-?[0-9]+", words[1]):
        n = int(words[1])
        if not 0 <= n < 64:
            # The notation stops at 63; the rules' reason ("must bid from 2 to 6") says more.
            reason = view.illegal(act.bid(63 if n > 0 else 0)).reason
            raise IllegalAction(view.seat, f"bid {n}", reason)
        action = act.bid(n)
    else:
        action = game.parse_action(" ".join(words))
    if action not in legal:
        raise view.illegal(action)
    return action


class TableDisplay:
    """The table as people see it: a ``play_hand`` listener plus what a human's turn shows.

    ``names`` name the seats, ``reveal`` lists the seats whose dealt cards each hand's banner
    shows (all of them in an account of a finished match), and ``compact`` prints one line per
    hand instead of every trick (bots playing alone). A *side* is what scores: a partnership, or
    a seat in cut-throat variants.
    """

    def __init__(
        self,
        console: Console,
        game: Game,
        names: Sequence[str],
        reveal: Iterable[int] = (),
        compact: bool = False,
    ) -> None:
        self.console = console
        self.game = game
        self.names = list(names)
        self.reveal = list(reveal)
        self.compact = compact
        self.humans: list[int] = []
        self.state: TrickState | None = None
        self._banner_for = -1

    # ------------------------------------------------------------------------- naming

    @property
    def partners(self) -> bool:
        """Whether seats play in two partnerships (0+2 against 1+3)."""
        return self.game.num_scores == 2 and len(self.names) == 4

    def side_name(self, side: int) -> str:
        """A side by its seats: "You & North" (or a seat's name when each plays alone)."""
        if self.partners:
            return f"{self.names[side]} & {self.names[side + 2]}"
        return self.names[side]

    def side_masks(self, masks: Sequence[int]) -> list[int]:
        """Card masks by seat gathered by side."""
        if self.partners:
            return [masks[0] | masks[2], masks[1] | masks[3]]
        return list(masks)

    def scores_text(self, scores: Sequence[int]) -> str:
        """The match scores with the sides' names."""
        return " · ".join(f"{self.side_name(t)} {s}" for t, s in enumerate(scores))

    def goal_text(self) -> str:
        """How the match is won, in words."""
        opts = self.game.options
        target = getattr(opts, "target", None)
        if target is None:
            return ""
        rule = getattr(opts, "win", "declarers")
        if rule == "first":
            return f"first to {target} wins"
        if rule == "top":
            return f"the top score once someone reaches {target} wins"
        return f"first declaring {'team' if self.partners else 'player'} to {target} wins"

    # ---------------------------------------------------------------------- the match

    def start(self, state: TrickState) -> None:
        """Follow ``state``, a match about to be played or replayed."""
        self.state = state
        self._banner_for = -1

    def title(self) -> str:
        """The game's title, with its variant and options when not plain."""
        game = self.game
        spec = game.spec()
        name = game.title or game.name
        return name if spec == game.name else f"{name} ({spec})"

    def show_seats(self, players: Sequence[str]) -> None:
        """Who sits where, the partnerships and how the match is won."""
        line = Text("Seats: ")
        line.append(" · ".join(f"{self.names[s]}: {p}" for s, p in enumerate(players)))
        self.console.print(line)
        goal = self.goal_text()
        if self.partners:
            teams = " vs ".join(self.side_name(t) for t in range(2))
            self.console.print(f"Teams: {teams}" + (f" ({goal})" if goal else ""))
        elif goal:
            self.console.print(f"Each for themselves; {goal}.")

    def hand_banner(self, state: TrickState) -> None:
        """Announce the hand in play (once per hand): its number, the dealer, revealed hands."""
        number = len(state.history)
        if self.compact or number == self._banner_for:
            return
        self._banner_for = number
        console = self.console
        console.print()
        dealer = _verb(self.names[state.dealer], "deal")
        console.rule(Text(f"Hand {number} · {dealer}", style="bold"))
        width = max(len(n) for n in self.names)
        for seat in self.reveal:
            line = Text(f"  {self.names[seat]:<{width}}  ")
            line.append_text(cards_text(cards_in(state.dealt[seat])))
            console.print(line)

    def __call__(self, state: TrickState, seat: int, action: int) -> None:
        """Show one action just applied to ``state`` (the ``play_hand`` listener)."""
        # After an action the hand is over exactly when a deal (or nothing) comes next.
        hand_over = state.needs_deal or state.is_over
        if self.compact:
            if hand_over:
                self.show_hand_line(state)
            return
        self.hand_banner(state)
        if not act.is_play(action):
            if state.phase != AUCTION:
                self.show_auction(state)
                if hand_over:
                    self.show_hand_result(state)
            return
        trumps = state.tables.mask
        if not state.tricks and len(state.trick) == 1 and state.trump >= 0:
            line = Text(f"{_verb(self.names[seat], 'lead')} ")
            line.append_text(card_text(action, trumps))
            line.append(": trump is ")
            line.append_text(suit_text(state.trump))
            self.console.print(line)
        if not state.trick:
            leader, cards, winner = state.tricks[-1]
            self.show_trick(len(state.tricks), leader, cards, winner, trumps)
            if hand_over:
                self.show_hand_result(state)

    def show_auction(self, state: TrickState) -> None:
        """The whole auction of the hand, once it is over, and who declares."""
        game = self.game
        line = Text("Auction: ", style="bold")
        line.append(
            " · ".join(f"{self.names[s]} {game.action_name(a)}" for s, a in _hand_actions(state))
        )
        self.console.print(line)
        if state.needs_deal or state.is_over:
            return  # thrown in: the hand's result says so
        info = state.view(state.to_act).info()
        declarer, bid = info.get("declarer"), info.get("bid")
        if declarer is None or bid is None:
            return
        name = self.names[declarer]
        if info.get("high_bidder", -1) < 0:
            text = f"All passed: {name}, the dealer, is stuck at {bid}."
        else:
            text = f"{_verb(name, 'declare')} at {bid}."
        self.console.print(Text(text, style="bold"))

    def show_trick(
        self, number: int, leader: int, cards: Sequence[int], winner: int, trumps: int = 0
    ) -> None:
        """One finished trick: the cards in play order and who took it."""
        n = len(self.names)
        line = Text(f"  {number}. ")
        for i, card in enumerate(cards):
            seat = (leader + i) % n
            if i:
                line.append(" · ")
            line.append(f"{self.names[seat]} ")
            text = card_text(card, trumps)
            if seat == winner:
                text.stylize("underline")
            line.append_text(text)
        line.append(f"  → {_verb(self.names[winner], 'take')} it", style="bold")
        self.console.print(line)

    def show_hand_result(self, state: TrickState) -> None:
        """A finished hand: each point and who earned it, the bid made or set, the scores."""
        result = state.results[-1]
        console = self.console
        if result.get("thrown_in"):
            console.print(Text("All passed: the deal is thrown in; nobody scores.", style="bold"))
            return
        points = result.get("points")
        trump = _suit_index(result.get("trump"))
        if isinstance(points, dict) and points and trump >= 0:
            weights = getattr(self.game, "weights", {})
            rows: list[tuple[str, Text, str, str]] = []
            for key, side in points.items():
                label = POINT_LABELS.get(key, key.replace("_", " ").capitalize())
                weight = weights.get(key, 1) if isinstance(weights, dict) else 1
                if weight != 1:
                    label += f" ({weight})"
                card, how = self._point_detail(state, key, trump, side)
                who = self.side_name(side) if isinstance(side, int) else "—"
                rows.append((label, card, who, how))
            # Aligned by hand: a Rich Table costs as much as all the rest of a hand's output.
            wide = [max(len(r[i]) for r in rows) for i in range(3)]
            console.print()
            for label, card, who, how in rows:
                line = Text(" ")
                line.append(label.ljust(wide[0]), style="bold")
                line.append("  ")
                line.append_text(card)
                line.append(" " * (wide[1] - len(card) + 2) + who.ljust(wide[2]) + "  ")
                line.append(how, style="dim")
                console.print(line)
        for line in self._score_lines(state):
            console.print(line)

    def _point_detail(
        self, state: TrickState, key: str, trump: int, side: int | None
    ) -> tuple[Text, str]:
        """The card that made a point (or the Game count), and how it went."""
        if key == "game":
            counts = [game_count(m) for m in self.side_masks(state.won)]
            how = "card points" if side is not None else "card points, a tie: not awarded"
            return Text(" to ".join(map(str, counts))), how
        dealt = _or_all(state.dealt)
        card = _point_card(key, trump, dealt, state.tables)
        if card < 0 or not dealt >> card & 1:
            return Text("—"), "not dealt"
        if key == "low" and getattr(self.game.options, "low_to", "captured") == "dealt":
            holder = next(s for s, m in enumerate(state.dealt) if m >> card & 1)
            how = f"dealt to {self.names[holder]}"
        else:
            taker = next((s for s, m in enumerate(state.won) if m >> card & 1), -1)
            how = f"taken by {self.names[taker]}" if taker >= 0 else ""
        return card_text(card, state.tables.mask), how

    def _score_lines(self, state: TrickState) -> list[Text]:
        """The bid made or set, what each side scored, and the match scores."""
        result = state.results[-1]
        scores = result.get("scores", state.scores)
        before = state.results[-2]["scores"] if len(state.results) > 1 else [0] * len(scores)
        lines = []
        declarer, bid, taken = result.get("declarer"), result.get("bid"), result.get("taken")
        if isinstance(declarer, int) and isinstance(bid, int) and isinstance(taken, list):
            side = self.game.team_of(declarer)
            made = taken[side] >= bid
            line = Text(f"{self.names[declarer]} bid {bid}; {self.side_name(side)} took ")
            line.append(f"{taken[side]}: ")
            line.append("made" if made else "set", style="bold green" if made else "bold red")
            line.append(f", {scores[side] - before[side]:+d}.")
            for other, got in enumerate(taken):
                if other != side:
                    change = scores[other] - before[other]
                    line.append(f" {self.side_name(other)} took {got}: {change:+d}.")
            lines.append(line)
        lines.append(Text(f"Scores: {self.scores_text(scores)}", style="bold"))
        return lines

    def show_hand_line(self, state: TrickState) -> None:
        """One line for a finished hand (bots alone): declarer, bid, trump, points, scores."""
        result = state.results[-1]
        declarer, bid, taken = result.get("declarer"), result.get("bid"), result.get("taken")
        scores = " to ".join(str(s) for s in result.get("scores", state.scores))
        line = Text(f"Hand {len(state.results):>3}: ")
        trump = _suit_index(result.get("trump"))
        if result.get("thrown_in"):
            line.append("all passed, thrown in")
        elif isinstance(declarer, int) and isinstance(bid, int) and isinstance(taken, list):
            made = taken[self.game.team_of(declarer)] >= bid
            line.append(f"{self.names[declarer]:<5} bid {bid:>2} in ")
            line.append_text(suit_text(trump, short=True) if trump >= 0 else Text("?"))
            line.append(": ")
            line.append("made" if made else "set ", style="green" if made else "red")
            line.append(f"  points {'–'.join(map(str, taken))}")
        line.append(f"  scores {scores}")
        self.console.print(line)

    def show_match_end(self, state: TrickState) -> None:
        """The winner and the final scores."""
        winner = state.winner
        if winner is None:
            return
        scores = state.scores
        if len(scores) == 2:
            final = f"{scores[winner]} to {scores[1 - winner]}"
        else:
            final = self.scores_text(scores)
        text = Text()
        if len(self.humans) == 1:
            you_won = self.game.team_of(self.humans[0]) == winner
            text.append("You win! " if you_won else "You lose. ", style="bold")
        name = self.side_name(winner)
        verb = "win" if self.partners or name == "You" else "wins"
        hands = len(state.results)
        text.append(f"{name} {verb} the match, {final}, after {hands} hands.", style="bold green")
        self.console.print()
        self.console.print(text)

    # ------------------------------------------------------------------ a human's turn

    def show_situation(self, view: View) -> None:
        """What the seat to act needs to decide: its hand, the auction or trick, its choices."""
        console = self.console
        name = self.names[view.seat]
        trumps = view.tables.mask
        console.print()
        if view.phase == AUCTION:
            line = Text("Auction: ", style="bold")
            bids = [f"{self.names[s]} {self.game.action_name(a)}" for s, a in view.actions]
            line.append(" · ".join(bids) if bids else f"{_verb(name, 'bid')} first")
            console.print(line)
        else:
            info = view.info()
            head = Text(f"Trick {len(view.tricks) + 1} of {self.game.hand_size}", style="bold")
            if view.trump >= 0:
                head.append(" · trump ")
                head.append_text(suit_text(view.trump, short=True))
            declarer, bid = info.get("declarer"), info.get("bid")
            if declarer is not None:
                head.append(f" · {self.names[declarer]} bid {bid}")
            console.print(head)
            trick = view.trick
            if trick:
                line = Text("On the table: ")
                for i, (s, card) in enumerate(trick):
                    if i:
                        line.append(" · ")
                    line.append(f"{self.names[s]} ")
                    line.append_text(card_text(card, trumps))
                console.print(line)
            elif view.trump < 0:
                console.print(f"{_verb(name, 'lead')}: the suit of this card is trump.")
            else:
                console.print(f"{_verb(name, 'lead')}.")
        line = Text("Your hand: " if name == "You" else f"{name}, your hand: ", style="bold")
        line.append_text(cards_text(cards_in(view.hand), trumps))
        console.print(line)
        console.print(self.choices_text(view))

    def choices_text(self, view: View) -> Text:
        """The legal actions: numbered cards, or the bids and pass."""
        legal = view.legal_actions()
        line = Text("Choices: ", style="bold")
        if any(not act.is_play(a) for a in legal):
            line.append(" · ".join(self.game.action_name(a) for a in legal))
            bids = [a - act.BID for a in legal if act.is_bid(a)]
            example = f", or a bid like {bids[0]}" if bids else ""
            line.append(f"   (pass{example})", style="dim")
            return line
        for i, action in enumerate(legal):
            if i:
                line.append("  ")
            line.append(f"{i + 1}) ")
            line.append_text(action_text(self.game, action, view.tables.mask))
        line.append("   (a number or a card)", style="dim")
        return line

    def show_help(self, view: View) -> None:
        """How to answer, the rules in brief, and the choices now."""
        console = self.console
        console.print(Text("How to answer", style="bold"))
        answers = (
            "pass · bid 3 (or just 3) · play TD (or TD, 10d, t♦, 10♦, JK) · a number from the"
            " list of cards (in the auction 1 means pass)\n"
            "hand: show the table again · help or ?: this help · quit: stop (the record is saved)"
        )
        console.print(Padding(answers, (0, 0, 0, 2), expand=False), soft_wrap=False)
        console.print(Text("The rules in brief", style="bold"))
        console.print(
            Padding(_rules_summary(self.game), (0, 0, 0, 2), expand=False), soft_wrap=False
        )
        console.print(self.choices_text(view))

    def show_error(self, seat: int, text: str, exc: TricktableError) -> None:
        """One line saying why an answer was refused."""
        if isinstance(exc, IllegalAction):
            name = self.names[seat]
            reason = exc.reason
            if name == "You" and reason.startswith("does not "):
                reason = "do not " + reason[len("does not ") :]
            reason = re.sub(r"\bsuit ([CDHS])\b", lambda m: f"suit {_symbol(m.group(1))}", reason)
            message = f"{text.strip()!r} is not legal: {name if name != 'You' else 'you'} {reason}"
        else:
            message = str(exc)
        line = Text(f"  ✗ {message}", style="red")
        line.append("  (? for help)", style="dim")
        self.console.print(line)


def _symbol(letter: str) -> str:
    """A suit letter's symbol: ``H`` -> ``♥``."""
    return SUIT_SYMBOLS[SUITS.index(letter)]


def _suit_index(letter: object) -> int:
    """The suit of a result's ``trump`` letter, or -1 (none, as in a hand thrown in)."""
    return (
        SUITS.index(letter)
        if isinstance(letter, str) and len(letter) == 1 and letter in SUITS
        else -1
    )


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


def _rules_summary(game: Game) -> str:
    """The rules in a few sentences: RULES.md's Setback in full, other variants by summary."""
    opts = game.options
    told = ("target", "min_bid", "max_bid")
    plain = type(opts)()
    if game.name != "setback" or any(
        getattr(opts, k) != getattr(plain, k) for k in game.options_dict() if k not in told
    ):
        preset = PRESETS.get(game.preset)
        summary = preset.summary if preset is not None and preset.summary else game.summary
        return f"{summary}. Options: {game.spec()}."
    return (
        f"Six cards each. One round of bids from {opts.min_bid} to {opts.max_bid}, starting"
        f" left of the dealer; if all pass the dealer is stuck at {opts.min_bid}. The declarer"
        " leads first, and the suit of that card is trump. Follow suit if you can, otherwise"
        " play anything. The joker is a trump between the 10 and the jack, and may not be led"
        " while you hold other cards. Six points: High and Low (highest and lowest trump"
        " dealt), Jack of trump, Off-jack (the other jack of trump's colour), Joker, and Game"
        " (most card points: 10 = 10, A 4, K 3, Q 2, J 1). The declaring team scores its bid if"
        " it takes that many points and loses it otherwise; the others score what they take."
        f" The first declaring team to {opts.target} wins."
    )


class HumanPlayer(Bot):
    """A person at the keyboard: each turn shows the situation and reads an answer.

    ``read`` reads one line after a prompt (the console's ``input``, which raises ``EOFError``
    at the end of input); ``echo`` repeats each answer, so that a transcript of piped input reads
    like a session.
    """

    name = "human"

    def __init__(
        self,
        display: TableDisplay,
        read: Callable[[Text], str] | None = None,
        echo: bool | None = None,
    ) -> None:
        self.display = display
        self._read = read if read is not None else display.console.input
        self._echo = (not sys.stdin.isatty()) if echo is None else echo

    def act(self, view: View) -> int:
        """Show the table and ask until the answer is a legal action."""
        display = self.display
        state = display.state
        assert state is not None, "start() the display before a human acts"
        display.hand_banner(state)
        display.show_situation(view)
        prompt = Text(f"{display.names[self.seat]} > ", style="bold cyan")
        while True:
            text = self._read(prompt)
            if self._echo:
                display.console.print(Text(text))
            word = text.strip().lower()
            if word in QUIT_WORDS:
                raise QuitGame()
            if word in HELP_WORDS:
                display.show_help(view)
                continue
            if word in SHOW_WORDS:
                display.show_situation(view)
                continue
            if not word:
                display.console.print(display.choices_text(view))
                continue
            try:
                return read_answer(text, view)
            except TricktableError as exc:
                display.show_error(self.seat, text, exc)


def _or_all(masks: Iterable[int]) -> int:
    out = 0
    for mask in masks:
        out |= mask
    return out


def _hand_actions(state: TrickState) -> list[tuple[int, int]]:
    """This hand's (seat, action) pairs so far."""
    return list(zip(state.actors, state.actions, strict=True))
