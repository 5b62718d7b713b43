"""The terminal's renderer: the seat model's words and phrases drawn as Rich text.

The seat model (:mod:`tricktable.seat`) is plain data: its presenters write
:class:`~tricktable.seat.words.Words` and its snapshots carry phrases (tokens). The line
terminal, the full-screen table and the terminal reports draw both through this module, so
Rich stays on the terminal's side of the seam.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.text import Text

from tricktable.seat import games
from tricktable.seat.phrases import Phrase, Token, words_of
from tricktable.seat.words import Words


def rich_text(words: Words | str) -> Text:
    """``words`` as Rich text: the line's style, and each run in its own over it."""
    if isinstance(words, str):
        return Text(words)
    out = Text(style=words.style)
    for text, style in words.runs:
        out.append(text, style=style or None)
    return out


def rich_lines(lines: Iterable[Words | str]) -> list[Text]:
    """Several lines of words, a Rich text each."""
    return [rich_text(w) for w in lines]


def to_rich(phrase: Iterable[Token], names: Sequence[str], style: str = "") -> Text:
    """``phrase`` as Rich text: cards and suits by their symbols, seats by ``names``.

    Tokens of one style next to each other make one span, as the presenters wrote them;
    ``style`` is the whole line's (a presenter's ``Words(..., style=...)``).
    """
    out = Text(style=style)
    run, run_style = "", ""
    for token in phrase:
        words = words_of(token, names)
        token_style = token.get("s", "")
        if token_style != run_style:
            out.append(run, style=run_style or None)
            run, run_style = "", token_style
        run += words
    out.append(run, style=run_style or None)
    return out


def lines_to_rich(phrases: Iterable[Phrase], names: Sequence[str]) -> list[Text]:
    """Several phrases, one Rich text each."""
    return [to_rich(p, names) for p in phrases]


# ------------------------------------------------------- the presenters' pieces, in Rich


def card_text(card: int, trumps: int = 0) -> Text:
    """A card for people (``10♦``) as Rich text (see :func:`tricktable.seat.games.card_text`)."""
    return rich_text(games.card_text(card, trumps))


def cards_text(cards: Iterable[int], trumps: int = 0, sep: str = " ") -> Text:
    """Several cards as Rich text, in the order given."""
    return rich_text(games.cards_text(cards, trumps, sep))


def suit_text(suit: int, short: bool = False) -> Text:
    """A suit's name with its symbol as Rich text."""
    return rich_text(games.suit_text(suit, short))


def join(parts: Iterable[Text | str], sep: str = " · ") -> Text:
    """Rich texts and strings joined by ``sep``."""
    return Text(sep).join(p if isinstance(p, Text) else Text(p) for p in parts)


def line(*parts: Text | str, style: str = "") -> Text:
    """One line of Rich text from texts and strings."""
    out = Text(style=style)
    for part in parts:
        if isinstance(part, Text):
            out.append_text(part)
        else:
            out.append(part)
    return out
