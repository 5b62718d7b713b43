"""The one error hierarchy of tricktable.

Every error a user, a file or a bot can cause is a :class:`TricktableError`, which subclasses
``ValueError`` (as python-chess does) so that callers can catch it without importing us. Each
message says what was given, where, and why it is wrong, on one line.
"""

from __future__ import annotations


class TricktableError(ValueError):
    """The root of every error tricktable raises on bad input."""


class NotationError(TricktableError):
    """A card or an action written in a form tricktable cannot read."""


class OptionError(TricktableError):
    """An unknown game, variant or rule option, or a bad option value."""


class IllegalAction(TricktableError):
    """An action that is not legal in the current state.

    ``seat`` is who tried it, ``action`` the action's text and ``reason`` why it is not legal.
    """

    def __init__(self, seat: int, action: str, reason: str) -> None:
        self.seat = seat
        self.action = action
        self.reason = reason
        super().__init__(f"seat {seat} {reason}; {action!r} is not legal")


class RecordError(TricktableError):
    """A match record that is malformed or does not replay.

    ``hand`` and ``action`` are 0-based indices of where replay failed, when known.
    """

    def __init__(self, message: str, hand: int | None = None, action: int | None = None) -> None:
        self.hand = hand
        self.action = action
        where = ""
        if hand is not None:
            where = f"hand {hand}" + (f" action {action}" if action is not None else "") + ": "
        super().__init__(where + message)


class BotError(TricktableError):
    """A bot that failed: it crashed, timed out, or answered something unusable."""


class BotFault(BotError):
    """A bot broke the rules of its transport or of the game during a match.

    ``kind`` is one of ``timeout``, ``crash``, ``closed``, ``illegal``, ``malformed``, ``flood``,
    ``encoding``, ``match-time``; ``seat`` the bot's seat; ``detail`` what happened, precisely
    (the message received, what was expected).
    """

    def __init__(self, seat: int, kind: str, detail: str) -> None:
        self.seat = seat
        self.kind = kind
        self.detail = detail
        super().__init__(f"seat {seat}: {kind}: {detail}")
