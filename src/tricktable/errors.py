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


def quote(value: object, limit: int = 60) -> str:
    """``repr(value)`` as an error line echoes a bad input: at most ``limit`` characters.

    The input is quoted so that its author finds it, never in full: a record, a rules file or a
    line from a stranger may hold a megabyte, a number of thousands of digits (which Python
    refuses to print) or lists nested thousands deep (which ``repr`` cannot walk).

    >>> quote("x" * 100, 10)
    "'xxxxxxxx…"
    >>> quote(10**500)
    'an integer of about 501 digits'
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 3 * limit:
        return f"an integer of about {int(value.bit_length() * 0.30103) + 1} digits"
    if isinstance(value, list | dict | tuple) and len(value) > limit:
        return f"a {type(value).__name__} of {len(value)} items"
    try:
        # A long string is cut before it is escaped: repr of a megabyte costs a megabyte.
        text = repr(value[: limit + 1] if isinstance(value, str) else value)
    except (ValueError, RecursionError, MemoryError):
        text = f"a {type(value).__name__} too large to show"
    return text if len(text) <= limit else text[: limit - 1] + "…"
