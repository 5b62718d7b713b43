"""The rules of chat at a table: what a line may say, how often, and who hears it.

Every line said at a table — a person's, a character's, a program's, an HTTP bot's — passes
one check, :func:`checked_line` (``Table.chat``, :func:`checked_say` for a match without a
table, and the web's lobby and watchers use it):

- **Text.** It is a string with no control character; its spaces are tidied; an empty line
  is refused.
- **Length.** A line over :data:`MAX_CHAT` characters is clipped, with an ellipsis.
- **Cards.** It names no card of the game's deck that is not face up (:func:`public_cards`;
  which cards a line names: :func:`tricktable.chat.notation.named_cards`). Every seat and
  spectator reads a seat's chat, so a line may name only what they all may know.
- **Rate.** A bot passes on at most :data:`SAY_PER_DECISION` lines a decision and
  :data:`SAY_PER_HAND` a hand; the rest are dropped, and the throttle is said once
  (:class:`ChatThrottle`).
- **Who hears whom.** The seats' chat reaches everyone; a spectator's reaches the other
  spectators always, but the players only between hands (:func:`hears`): a watcher who sees
  every hand must not tell a player what it holds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from tricktable.cards import format_cards, mask_of
from tricktable.chat.notation import named_cards
from tricktable.errors import TricktableError
from tricktable.text import codepoint, unshowable

if TYPE_CHECKING:
    from tricktable.engine.trick import TrickState

#: chat lines longer than this are clipped (with an ellipsis)
MAX_CHAT: Final = 200
#: chat lines a bot may pass on to the table, at most, per decision and per hand; more are
#: dropped, and the throttle is recorded once a match (a ``flood`` fault that costs nothing)
SAY_PER_DECISION: Final = 3
SAY_PER_HAND: Final = 10


def public_cards(state: TrickState) -> int:
    """The cards face up for every seat and spectator now: played this hand, the up-card."""
    known = mask_of(state.trick)
    for won in state.won:
        known |= won
    if state.game.records_stock and state.stock:
        known |= 1 << state.stock[0]  # the turned-up card (Euchre's, Oh Hell's trump card)
    return known


def tidied(text: object) -> str:
    """``text`` as a line of chat: spaces tidied and clipped at :data:`MAX_CHAT`, or a
    :class:`TricktableError` when it is no text, holds control characters or is empty.

    >>> tidied("  well   played ")
    'well played'
    """
    if not isinstance(text, str):
        raise TricktableError("a chat line must be text")
    bad = unshowable(text)
    if bad is not None:
        raise TricktableError(
            f"a chat line may not hold control characters (found {codepoint(bad)})"
        )
    line = " ".join(text.split())
    if not line:
        raise TricktableError("empty chat line: there is nothing to say")
    if len(line) > MAX_CHAT:
        line = line[: MAX_CHAT - 1].rstrip() + "…"
    return line


def hidden_named(state: TrickState, line: str) -> int:
    """The cards of the game's deck that ``line`` names and that are not face up, as a mask."""
    return mask_of(named_cards(line)) & mask_of(state.game.deck) & ~public_cards(state)


def checked_line(state: TrickState, text: object) -> str:
    """``text`` as the table would say it in ``state`` (spaces tidied, clipped at
    :data:`MAX_CHAT`), or a :class:`TricktableError` saying why it may not be said: empty,
    control characters, or a card of the deck that is not face up (every seat and spectator
    reads chat, so it may name only what they all may know). Tables and bot-only matches both
    use it."""
    line = tidied(text)
    hidden = hidden_named(state, line)
    if hidden:
        raise TricktableError(
            "a chat line may name only cards face up on the table; "
            f"{format_cards(hidden)} {'is' if hidden.bit_count() == 1 else 'are'} not"
        )
    return line


def checked_say(state: TrickState) -> Callable[[int, str], None]:
    """What says a line in a match without a table: ``state.chat`` after :func:`checked_line`
    (which raises :class:`TricktableError` for a line it refuses)."""
    return lambda seat, text: state.chat(seat, checked_line(state, text))


def hand_on(is_over: bool, to_act: int) -> bool:
    """Whether a hand is being played: the match is not over and a seat is to act."""
    return not is_over and to_act >= 0


def hears(listener_watches: bool, speaker_watches: bool, during_hand: bool) -> bool:
    """Whether a line reaches a listener: a seat's line reaches everyone; a spectator's
    reaches spectators, and players only between hands.

    >>> hears(listener_watches=False, speaker_watches=True, during_hand=True)
    False
    >>> hears(listener_watches=True, speaker_watches=True, during_hand=True)
    True
    """
    return listener_watches or not speaker_watches or not during_hand


class ChatThrottle:
    """The chat lines a program or HTTP bot said, held for the table (``said``) and throttled
    at :data:`SAY_PER_DECISION` lines a decision and :data:`SAY_PER_HAND` a hand.

    Call :meth:`decision` when a decision begins, :meth:`hear` with each line said. What the
    table's checks refuse is the match's business (``match.relay_chat``).
    """

    def __init__(self) -> None:
        self.said: list[str] = []
        #: the throttle's note, said once (empty until a line is dropped)
        self.dropped = ""
        self.throttled = False
        self.in_decision = 0
        self.in_hand = 0
        self.hand = -1

    def decision(self, hand: int) -> None:
        """A decision of hand ``hand`` begins."""
        self.in_decision = 0
        if hand != self.hand:
            self.hand, self.in_hand = hand, 0

    def hear(self, text: str) -> None:
        """A line the bot said: kept for the table, or dropped over the throttle."""
        self.in_decision += 1
        if self.in_decision <= SAY_PER_DECISION and self.in_hand < SAY_PER_HAND:
            self.in_hand += 1
            self.said.append(text)
        elif not self.throttled:
            self.throttled = True
            self.dropped = (
                f"chat throttled: over {SAY_PER_DECISION} lines a decision or "
                f"{SAY_PER_HAND} a hand; the rest are dropped"
            )

    def said_elsewhere(self) -> None:
        """Drop the throttle's note: a fault says it already (not a second one)."""
        self.dropped = ""

    def take(self) -> tuple[list[str], str]:
        """The lines kept since last asked, and the throttle's note ("" unless new)."""
        said, dropped = self.said, self.dropped
        self.said, self.dropped = [], ""
        return said, dropped


__all__ = [
    "MAX_CHAT",
    "SAY_PER_DECISION",
    "SAY_PER_HAND",
    "ChatThrottle",
    "checked_line",
    "checked_say",
    "hand_on",
    "hears",
    "hidden_named",
    "public_cards",
    "tidied",
]
