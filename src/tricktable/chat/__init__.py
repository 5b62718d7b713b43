"""Chat at a table: what a line may say, how often, who hears it, and which cards it names.

- :mod:`tricktable.chat.rules`: the rules — :func:`checked_line` (text, length, the cards a
  line may name), the bots' rate (:class:`ChatThrottle`), who hears whom (:func:`hears`);
- :mod:`tricktable.chat.notation`: which cards a line names, in every spelling a person reads
  (:func:`named_cards`).

The names here are those of both, for the callers of ``tricktable.chat``.
"""

from tricktable.chat.notation import OTHER_RANK_WORDS, RANK_WORDS, WORDS, named_cards, normalised
from tricktable.chat.rules import (
    MAX_CHAT,
    SAY_PER_DECISION,
    SAY_PER_HAND,
    ChatThrottle,
    checked_line,
    checked_say,
    hears,
    public_cards,
)

__all__ = [
    "MAX_CHAT",
    "OTHER_RANK_WORDS",
    "RANK_WORDS",
    "SAY_PER_DECISION",
    "SAY_PER_HAND",
    "WORDS",
    "ChatThrottle",
    "checked_line",
    "checked_say",
    "hears",
    "named_cards",
    "normalised",
    "public_cards",
]
