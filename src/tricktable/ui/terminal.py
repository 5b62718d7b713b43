"""The terminal table: the match drawn with Rich as it happens, and the human at the keyboard.

:class:`TableDisplay` is a ``match.play_hand`` listener that prints each hand's deal, its
bidding (or passing, or making of trump), each trick and each hand's result; :class:`HumanPlayer`
is a :class:`~tricktable.bots.base.Bot` whose ``act`` shows the seat's situation and reads an
answer. What is said about each game — its actions, facts and results — comes from its
:class:`~tricktable.ui.games.Presenter`; the table only decides when. Rich drops colours by
itself when standard output is not a terminal, so the same code gives a plain transcript in a
pipe.
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
from tricktable.cards import SUIT_SYMBOLS, SUITS, card_name, cards_in, parse_card
from tricktable.engine import actions as act
from tricktable.engine.trick import PLAY, Game, TrickState, View
from tricktable.errors import IllegalAction, NotationError, TricktableError
from tricktable.ui.games import (
    Presenter,
    Seating,
    card_text,
    cards_text,
    join,
    line,
    presenter_for,
    safely,
    suit_text,
    verb,
)

__all__ = [
    "HumanPlayer",
    "QuitGame",
    "TableDisplay",
    "card_text",
    "cards_text",
    "make_console",
    "read_answer",
    "seat_names",
    "suit_text",
]

COMPASS = ("South", "West", "North", "East")
QUIT_WORDS = ("quit", "exit", "q")
HELP_WORDS = ("help", "?", "h")
SHOW_WORDS = ("hand", "table", "show")
_NUMBER = re.compile(r"[0-9]+")
#: a choice by its number in the list, at any prompt: ``#2`` (a bare ``2`` is a bid in an auction)
_CHOICE = re.compile(r"#\s*([0-9]+)")
#: the most of an answer that is repeated back (in an error line, or echoing piped input)
SHOWN_CHARS = 40


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
    "✓": "v",
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


# ------------------------------------------------------------------------- reading answers


def clip(text: str, limit: int = SHOWN_CHARS) -> str:
    """An answer as it is repeated back: stripped, and cut to ``limit`` characters with "…"."""
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _clip_answer(message: str, text: str) -> str:
    """``message`` with every long piece of the answer ``text`` that it quotes clipped."""
    words = text.replace(",", " ").strip().lower().split()
    pieces = {text.strip(), text.strip().lower(), " ".join(words), *words}
    for piece in sorted(pieces, key=len, reverse=True):
        if len(piece) > SHOWN_CHARS:
            message = message.replace(repr(piece), repr(clip(piece)))
    return message


def _number(digits: str) -> int:
    """The value of a typed number; a huge one (past what any rule allows) stays huge but cheap."""
    return int(digits) if len(digits) <= 9 else 10**9


def _is_passing(legal: Sequence[int]) -> bool:
    """Whether the choices are cards to pass (``pass 2C 3D 4H``)."""
    return bool(legal) and all(a > act.PASS_CARDS for a in legal)


def read_answer(text: str, view: View) -> int:
    """The legal action a typed answer names, for the seat of ``view`` (whose turn it is).

    Accepted: any action in the game's words (``pass``, ``bid 3``, ``order-up alone``,
    ``trump S``, ``discard 9C``, ``play TD``), just a card (``TD``, ``10d``, ``t♦``), the last
    words of a choice when they name one (``S`` for ``trump S``, ``9C`` for ``discard 9C``),
    and numbers. Where bids are allowed a bare number is always a bid (``3`` is ``bid 3``, and
    ``1`` is ``bid 1``, legal or not); anywhere else it is the 1-based number of a listed choice.
    ``#N`` is choice N of the list at any prompt (``#1`` passes in a Setback auction). Cards to
    pass are three cards, or their numbers in the hand, in any order.
    Raises :class:`NotationError` for what cannot be read and :class:`IllegalAction` (the
    engine's reason) for what the rules forbid now.
    """
    game = view.game
    legal = view.legal_actions()
    words = text.replace(",", " ").strip().lower().split()
    if _is_passing(legal):
        return _read_pass(words, view, legal)
    choice = _CHOICE.fullmatch(text.strip())
    if choice:
        n = _number(choice.group(1))
        if 1 <= n <= len(legal):
            return legal[n - 1]
        raise NotationError(
            f"there is no choice #{clip(choice.group(1))}: pick #1 to #{len(legal)}"
        )
    bids = any(act.is_bid(a) for a in legal)
    if len(words) > 1 and all(_NUMBER.fullmatch(w) for w in words):
        if bids:
            raise NotationError("one bid at a time: type one number (the bid), or pass")
        raise NotationError(f"one choice at a time: type one number, from 1 to {len(legal)}")
    if len(words) == 1 and _NUMBER.fullmatch(words[0]):
        n = _number(words[0])
        if not bids:
            if 1 <= n <= len(legal):
                return legal[n - 1]
            raise NotationError(f"there is no choice {clip(words[0])}: pick 1 to {len(legal)}")
        words = ["bid", words[0]]
    if words == ["p"]:
        words = ["pass"]
    if len(words) == 2 and words[0] == "bid" and re.fullmatch(r"-?[0-9]+", words[1]):
        n = _number(words[1].lstrip("-")) * (-1 if words[1].startswith("-") else 1)
        if not 0 <= n < 64:
            # The notation stops at 63; the rules' reason ("must bid from 2 to 6") says more.
            reason = view.illegal(act.bid(63 if n > 0 else 0)).reason
            raise IllegalAction(view.seat, clip(f"bid {words[1]}"), reason)
        action = act.bid(n)
    else:
        try:
            action = game.parse_action(" ".join(words))
        except NotationError:
            named = _named(words, game, legal)
            if named is None:
                raise
            return named
    if action not in legal:
        named = _named([card_name(action).lower()], game, legal) if act.is_play(action) else None
        if named is not None:
            return named  # a bare card for a choice that takes one: "9C" for "discard 9C"
        raise view.illegal(action)
    return action


def _named(words: list[str], game: Game, legal: Sequence[int]) -> int | None:
    """The one legal action whose name is ``words`` or ends with them, or None."""
    if not words:
        return None
    names = {a: game.action_name(a).lower().split() for a in legal}
    exact = [a for a, name in names.items() if name == words]
    if len(exact) == 1:
        return exact[0]
    ending = [a for a, name in names.items() if name[-len(words) :] == words]
    return ending[0] if len(ending) == 1 else None


def _read_pass(words: list[str], view: View, legal: Sequence[int]) -> int:
    """The pass an answer names: cards or their 1-based numbers in the hand, in any order."""
    count = (legal[0] ^ act.PASS_CARDS).bit_count()
    if words and words[0] == "pass":
        words = words[1:]
    hand = cards_in(view.hand)
    if len(words) != count:
        raise NotationError(
            f"pass {count} cards: name them (like {' '.join(card_name(c) for c in hand[:count])})"
            f" or give their numbers in your hand (like {' '.join(map(str, range(1, count + 1)))})"
        )
    mask = 0
    for word in words:
        if _NUMBER.fullmatch(word):
            n = _number(word)
            if not 1 <= n <= len(hand):
                raise NotationError(
                    f"there is no card {clip(word)} in your hand: pick 1 to {len(hand)}"
                )
            card = hand[n - 1]
        else:
            card = parse_card(word)
        if mask >> card & 1:
            raise NotationError(f"{card_name(card)} is named twice: pass {count} different cards")
        mask |= 1 << card
    action = act.PASS_CARDS | mask
    if action not in legal:
        raise view.illegal(action)
    return action


# ----------------------------------------------------------------------------- the table


class TableDisplay(Seating):
    """The table as people see it: a ``play_hand`` listener plus what a human's turn shows.

    ``names`` name the seats, ``reveal`` lists the seats whose dealt cards each hand's banner
    shows (all of them in an account of a finished match), and ``compact`` prints one line per
    hand instead of every trick (bots playing alone). ``humans`` (set by the caller) are the
    seats at the keyboard: with ``reveal`` they decide whose private actions are spelt out.
    """

    def __init__(
        self,
        console: Console,
        game: Game,
        names: Sequence[str],
        reveal: Iterable[int] = (),
        compact: bool = False,
    ) -> None:
        super().__init__(game, names, reveal)
        self.console = console
        self.compact = compact
        self.presenter = presenter_for(game)
        self.generic = Presenter(game)
        self.state: TrickState | None = None
        self._banner_for = -1
        self._auction_for = -1

    def _print(self, lines: Iterable[Text]) -> None:
        for text in lines:
            self.console.print(text)

    def goal_text(self) -> str:
        """How the match is won, in words."""
        return self.presenter.goal(self)

    # ---------------------------------------------------------------------- the match

    def start(self, state: TrickState) -> None:
        """Follow ``state``, a match about to be played or replayed."""
        self.state = state
        self._banner_for = -1
        self._auction_for = -1

    def title(self) -> str:
        """The game's title, with its variant and options when not plain."""
        game = self.game
        spec = game.spec()
        name = game.title or game.name
        return name if spec == game.name else f"{name} ({spec})"

    def show_seats(self, players: Sequence[str]) -> None:
        """Who sits where, the partnerships and how the match is won."""
        text = Text("Seats: ")
        text.append(" · ".join(f"{self.names[s]}: {p}" for s, p in enumerate(players)))
        self.console.print(text)
        goal = self.goal_text()
        if self.partners:
            teams = " vs ".join(self.side_name(t) for t in range(2))
            self.console.print(f"Teams: {teams}" + (f" ({goal})" if goal else ""))
        elif goal:
            self.console.print(f"Each for themselves; {goal}.")

    def hand_banner(self, state: TrickState) -> None:
        """Announce the hand in play (once per hand): number, dealer, deal facts, hands shown."""
        number = len(state.history)
        if self.compact or number == self._banner_for:
            return
        self._banner_for = number
        console = self.console
        console.print()
        dealer = verb(self.names[state.dealer], "deal")
        console.rule(Text(f"Hand {number} · {dealer}", style="bold"))
        self._print(
            safely(
                lambda: self.presenter.deal_lines(self, state),
                lambda: self.generic.deal_lines(self, state),
            )
        )
        width = max(len(n) for n in self.names)
        for seat in self.reveal:
            row = Text(f"  {self.names[seat]:<{width}}  ")
            row.append_text(cards_text(cards_in(state.dealt[seat])))
            console.print(row)

    def __call__(self, state: TrickState, seat: int, action: int) -> None:
        """Show one action just applied to ``state`` (the ``play_hand`` listener)."""
        number = len(state.history)
        # After an action the hand is over exactly when a deal (or nothing) comes next; a
        # forfeit ends the match with the hand unscored.
        hand_over = state.needs_deal or state.is_over
        scored = hand_over and len(state.results) == number
        if self.compact:
            if scored:
                self.show_hand_line(state)
            return
        self.hand_banner(state)
        if not act.is_play(action):
            if (state.phase == PLAY or hand_over) and self._auction_for != number:
                self.show_auction(state)
            if scored:
                self.show_hand_result(state)
            return
        if not state.tricks and len(state.trick) == 1:
            self._print(safely(lambda: self.presenter.lead_lines(self, state, seat, action), list))
        if not state.trick and state.tricks:
            leader, cards, winner = state.tricks[-1]
            note = safely(lambda: [Text(self.presenter.trick_note(state, cards, winner))], list)
            self.show_trick(
                len(state.tricks),
                leader,
                cards,
                winner,
                state.tables.mask,
                skip=state.skip,
                note=note[0].plain if note else "",
            )
        if scored:
            self.show_hand_result(state)

    def show_auction(self, state: TrickState) -> None:
        """The phases before the play (bids, passes, trump made), once they are over."""
        self._auction_for = len(state.history)
        self._print(
            safely(
                lambda: self.presenter.auction_lines(self, state),
                lambda: self.generic.auction_lines(self, state),
            )
        )

    def show_trick(
        self,
        number: int,
        leader: int,
        cards: Sequence[int],
        winner: int,
        trumps: int = 0,
        skip: int = -1,
        note: str = "",
    ) -> None:
        """One finished trick: the cards in play order and who took it."""
        n = len(self.names)
        text = Text(f"  {number}. ")
        seat = leader
        for i, card in enumerate(cards):
            if i:
                text.append(" · ")
            text.append(f"{self.names[seat]} ")
            shown = card_text(card, trumps)
            if seat == winner:
                shown.stylize("underline")
            text.append_text(shown)
            seat = (seat + 1) % n
            if seat == skip:  # a seat sitting the hand out plays no card
                seat = (seat + 1) % n
        text.append(f"  → {verb(self.names[winner], 'take')} it{note}", style="bold")
        self.console.print(text)

    def show_hand_result(self, state: TrickState) -> None:
        """A finished hand in the game's terms, then the match scores."""
        self._print(
            safely(
                lambda: self.presenter.result_lines(self, state),
                lambda: self.generic.result_lines(self, state),
            )
        )
        self._print(
            safely(
                lambda: self.presenter.score_lines(self, state),
                lambda: self.generic.score_lines(self, state),
            )
        )

    def show_hand_line(self, state: TrickState) -> None:
        """One line for a finished hand (bots alone): what happened, then the scores."""
        values = state.results[-1].scores
        scores = " to ".join(map(str, values)) if len(values) == 2 else " ".join(map(str, values))
        text = Text(f"Hand {len(state.results):>3}: ")
        body = safely(
            lambda: [self.presenter.hand_line(self, state)],
            lambda: [self.generic.hand_line(self, state)],
        )
        text.append_text(body[0])
        text.append(f"  scores {scores}")
        self.console.print(text)

    def show_match_end(self, state: TrickState, forfeit: bool | None = None) -> None:
        """The winner (or winners, or none after a forfeit) and the final scores.

        A forfeit is seen in a hand left without a result; ``forfeit`` says so for a state
        replayed from a record, which keeps complete hands only.
        """
        if not state.is_over:
            return
        sides = self.presenter.winners(state)
        scores = state.scores
        hands = len(state.results)
        after = f"after {hands} hand{'s' * (hands != 1)}"
        if forfeit is None:
            forfeit = hands < len(state.history)
        how = " by forfeit" if forfeit else ""
        if len(scores) == 2 and len(sides) == 1:
            final = f"{scores[sides[0]]} to {scores[1 - sides[0]]}"
        else:
            final = self.scores_text(scores)
        text = Text()
        if len(self.humans) == 1 and sides:
            mine = self.game.team_of(self.humans[0])
            if mine not in sides:
                text.append("You lose. ", style="bold")
            else:
                text.append("You win! " if len(sides) == 1 else "You share the win! ", "bold")
        if not sides:
            message = f"The match ended{how} without a winner: {final}, {after}."
        elif len(sides) == 1:
            name = self.side_name(sides[0])
            word = "win" if self.partners or name == "You" else "wins"
            note = self.presenter.win_note()
            message = f"{name} {word} the match{how}{note}, {final}, {after}."
        else:
            names = " and ".join(self.side_name(s) for s in sides)
            message = f"{names} share the win{how}, {final}, {after}."
        text.append(message, style="bold green")
        self.console.print()
        self.console.print(text)

    # ------------------------------------------------------------------ a human's turn

    def show_situation(self, view: View) -> None:
        """What the seat to act needs to decide: the phase or trick, its hand, its choices."""
        console = self.console
        console.print()
        self._print(
            safely(
                lambda: self.presenter.situation_lines(self, view),
                lambda: self.generic.situation_lines(self, view),
            )
        )
        name = self.names[view.seat]
        label = Text("Your hand: " if name == "You" else f"{name}, your hand: ", style="bold")
        cards = cards_in(view.hand)
        trumps = view.tables.mask
        if not cards and view.phase != PLAY:
            label.append("not looked at yet")
        elif _is_passing(view.legal_actions()):
            label.append_text(
                join((line(f"{i + 1}) ", card_text(c, trumps)) for i, c in enumerate(cards)), "  ")
            )
        else:
            label.append_text(cards_text(cards, trumps))
        console.print(label)
        console.print(self.choices_text(view))

    def choices_text(self, view: View) -> Text:
        """The legal actions: numbered cards or choices, the bids, or how to pass cards."""
        legal = view.legal_actions()
        presenter = self.presenter
        trumps = view.tables.mask
        text = Text("Choices: ", style="bold")
        if _is_passing(legal):
            count = (legal[0] ^ act.PASS_CARDS).bit_count()
            hand = cards_in(view.hand)[:count]
            text.append(f"pass {count} cards: type them, like ")
            text.append_text(cards_text(hand))
            text.append(f", or their numbers, like {' '.join(map(str, range(1, count + 1)))}")
            return text
        if legal and all(act.is_play(a) for a in legal):
            for i, action in enumerate(legal):
                if i:
                    text.append("  ")
                text.append(f"{i + 1}) ")
                text.append_text(presenter.action_words(action, trumps))
            text.append("   (a number or a card)", style="dim")
            return text
        bids = [a - act.BID for a in legal if act.is_bid(a)]
        if bids:
            text.append_text(join(presenter.action_words(a, trumps) for a in legal))
            if act.PASS in legal:
                hint = f"   (pass, or a bid like {bids[0]})"
            else:
                hint = f"   (a number: the bid, like {bids[len(bids) // 2]})"
            text.append(hint, style="dim")
            return text
        for i, action in enumerate(legal):
            if i:
                text.append("  ")
            text.append(f"{i + 1}) ")
            text.append_text(presenter.action_words(action, trumps))
        text.append("   (a number or the words)", style="dim")
        return text

    def show_help(self, view: View) -> None:
        """How to answer, the rules in brief, and the choices now."""
        console = self.console
        console.print(Text("How to answer", style="bold"))
        legal = view.legal_actions()
        if _is_passing(legal):
            how = "three cards (2c 3d 4h, 10♦, t♦) or their numbers in your hand (1 5 9)"
        elif legal and all(act.is_play(a) for a in legal):
            how = "a number from the list of cards, or a card: play TD, TD, 10d, t♦, 10♦, JK"
        else:
            names = [self.game.action_name(a) for a in legal[:4]]
            how = "a number from the list, or a choice in words: " + " · ".join(names)
            if any(act.is_bid(a) for a in legal):
                listed = " · ".join(names)
                how = f"a bid (bid 3, or just 3: here a number is always a bid) or {listed}"
        answers = (
            f"{how}\n"
            "#N: choice N of the list, in the order shown (#1 is the first) at any prompt\n"
            "hand: show the table again · help or ?: this help · quit: stop (the record is saved)"
        )
        console.print(Padding(answers, (0, 0, 0, 2), expand=False), soft_wrap=False)
        console.print(Text("The rules in brief", style="bold"))
        summary = self.presenter.rules_summary()
        console.print(Padding(summary, (0, 0, 0, 2), expand=False), soft_wrap=False)
        console.print(self.choices_text(view))

    def show_error(self, seat: int, text: str, exc: TricktableError) -> None:
        """One line saying why an answer was refused."""
        if isinstance(exc, IllegalAction):
            name = self.names[seat]
            reason = exc.reason
            if name == "You":
                reason = _second_person(reason)
            reason = re.sub(r"\bsuit ([CDHS])\b", lambda m: f"suit {_symbol(m.group(1))}", reason)
            message = f"{clip(text)!r} is not legal: {name if name != 'You' else 'you'} {reason}"
        else:
            message = _clip_answer(str(exc), text)
        row = Text(f"  ✗ {message}", style="red")
        row.append("  (? for help)", style="dim")
        self.console.print(row)

    def show_fault(self, notice: dict[str, object]) -> None:
        """A bot's fault as the referee reports it (``match.Referee``), and its penalty."""
        seat = notice.get("seat")
        if not isinstance(seat, int) or not 0 <= seat < len(self.names):
            return
        name = self.names[seat]
        penalty = str(notice.get("penalty", ""))
        what = {
            "substitute": f"the heuristic bot plays for {name} from now on",
            "forfeit": f"{self.side_name(self.game.team_of(seat))} forfeit the match",
            "bad-card": "a bad card: the penalty and a new deal",
        }
        steps = [what.get(p, p) for p in penalty.split("+") if p and p != "none"]
        text = Text(f"  ! {name}'s bot failed ({notice.get('kind')}: {notice.get('detail')})")
        if steps:
            text.append(": " + "; ".join(steps))
        self.console.print(text, style="yellow")


def _second_person(reason: str) -> str:
    """An engine reason ("does not hold 2S", "has looked at its cards") said to "you"."""
    for third, second in (("does ", "do "), ("has ", "have "), ("is ", "are ")):
        if reason.startswith(third):
            reason = second + reason[len(third) :]
            break
    return re.sub(r"\bits\b", "your", reason)


def _symbol(letter: str) -> str:
    """A suit letter's symbol: ``H`` -> ``♥``."""
    return SUIT_SYMBOLS[SUITS.index(letter)]


class HumanPlayer(Bot):
    """A person at the keyboard: each turn shows the situation and reads an answer.

    ``read`` reads one line after a prompt (the console's ``input``, which raises ``EOFError``
    at the end of input); ``echo`` repeats each answer, so that a transcript of piped input reads
    like a session.
    """

    name = "human"
    interactive = True

    def __init__(
        self,
        display: TableDisplay,
        read: Callable[[Text], str] | None = None,
        echo: bool | None = None,
    ) -> None:
        self.display = display
        self._read = read if read is not None else display.console.input
        self._echo = (not sys.stdin.isatty()) if echo is None else echo

    def fault_notice(self, notice: dict[str, object]) -> None:
        """Another seat's bot failed: say so at the table (the referee calls this)."""
        self.display.show_fault(notice)

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
                display.console.print(Text(clip(text)))
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
