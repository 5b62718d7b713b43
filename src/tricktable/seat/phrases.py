"""Phrases: words as small structured tokens that every renderer draws its own way.

A phrase is a list of tokens, each a JSON-ready dict:

- ``{"t": "text", "v": "bid 3", "s": "bold"}`` — words (``s``, a style like ``bold red``,
  is optional);
- ``{"t": "card", "v": "QH"}`` — a card in record notation (``2C``..``AS``, ``JK``, ``JL``);
  ``trump: true`` when it is a trump of the hand, ``s`` the style the terminal gives it;
- ``{"t": "suit", "v": "H"}`` — a suit by its letter (``s`` its style);
- ``{"t": "seat", "v": 2}`` — a seat, drawn as its name (``s`` its style).

:func:`to_plain` draws a phrase as a string; the terminal's renderer
(:func:`tricktable.ui.render.to_rich`) as Rich text, a card ``10♦`` in red and a seat by
the name given; the web page draws the same tokens as HTML.

The games' presenters (:mod:`tricktable.seat.games`) write :class:`~tricktable.seat.words.Words`;
:func:`phrase_of` reads them into tokens. It is exact because the presenters are called with
*seat markers* for names (:func:`seat_markers`: private-use characters as long as the real
names, so padding and alignment come out the same), and because a card or suit is written
only by :func:`~tricktable.seat.games.card_text` and :func:`~tricktable.seat.games.suit_text`,
whose forms (``10♦``, ``♦``, a joker in bold magenta) nothing else writes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any, Final

from tricktable.cards import SUIT_SYMBOLS, SUITS, card_name, parse_card, pretty_card
from tricktable.errors import TricktableError
from tricktable.seat.words import Words, combine

#: a token of a phrase (see the module)
Token = dict[str, Any]
#: a phrase: tokens in order
Phrase = list[Token]

#: the first private-use character of a seat marker; seat s starts with ``MARK + s``
MARK: Final = 0xE000
#: the character that pads a seat marker to the length of the seat's name
FILL: Final = "\ue0ff"
#: the seat markers' characters, as a class of a regular expression
_MARKERS: Final = "\ue000-\ue0ff"
_RANK: Final = "(?:10|[2-9JQKA])"
_SYMBOLS: Final = "".join(SUIT_SYMBOLS)
#: what a reading splits on: a seat marker, a card by its symbol, a lone suit symbol
_PIECE: Final = re.compile(
    rf"(?P<seat>[\ue000-\ue0fe]{FILL}*)|(?P<card>{_RANK}[{_SYMBOLS}])|(?P<suit>[{_SYMBOLS}])"
)
#: the jokers' names, which the terminal writes as they are (in bold magenta)
_JOKERS: Final = frozenset({"JK", "JL"})
_KINDS: Final = frozenset({"text", "card", "suit", "seat"})


# ----------------------------------------------------------------------------- tokens


def text(value: str, style: str = "") -> Token:
    """A text token."""
    return {"t": "text", "v": value, "s": style} if style else {"t": "text", "v": value}


def card(code: int, style: str = "", trump: bool = False) -> Token:
    """A card token (``code``: the engine's card number)."""
    out: Token = {"t": "card", "v": card_name(code)}
    if trump:
        out["trump"] = True
    if style:
        out["s"] = style
    return out


def suit(index: int, style: str = "") -> Token:
    """A suit token (``index``: 0..3, clubs to spades)."""
    out: Token = {"t": "suit", "v": SUITS[index]}
    if style:
        out["s"] = style
    return out


def seat(number: int, style: str = "") -> Token:
    """A seat token, drawn as the seat's name."""
    out: Token = {"t": "seat", "v": number}
    if style:
        out["s"] = style
    return out


def card_style(code: int, trump: bool = False) -> str:
    """The style the terminal draws a card in: red hearts and diamonds, bold trumps."""
    if code >= 52:
        return "bold magenta"
    if code // 13 in (1, 2):
        return "bold red" if trump else "red"
    return "bold" if trump else ""


# ---------------------------------------------------------------------------- drawing


def words_of(token: Token, names: Sequence[str]) -> str:
    """One token as the words it stands for (a card ``10♦``, a seat by ``names``)."""
    kind, value = token["t"], token["v"]
    if kind == "text":
        return str(value)
    if kind == "card":
        return pretty_card(parse_card(value))
    if kind == "suit":
        return SUIT_SYMBOLS[SUITS.index(value)]
    if kind == "seat":
        return names[value] if 0 <= value < len(names) else f"seat {value}"
    raise TricktableError(f"a phrase token is text, card, suit or seat, not {kind!r}")


def to_plain(phrase: Iterable[Token], names: Sequence[str]) -> str:
    """``phrase`` as plain text (cards as ``10♦``, seats by ``names``)."""
    return "".join(words_of(token, names) for token in phrase)


# ---------------------------------------------------------------------------- reading


def seat_markers(names: Sequence[str]) -> list[str]:
    """Stand-ins for ``names`` that :func:`phrase_of` reads back as seat tokens: seat ``s``'s
    is the character ``MARK + s`` padded to the name's length (so a presenter that aligns
    names aligns the markers the same). A name ``You`` is kept: a presenter conjugates for
    it ("You take", not "You takes"), and it stays words."""
    return [
        name if name == "You" else chr(MARK + s) + FILL * (len(name) - 1)
        for s, name in enumerate(names)
    ]


def phrase_of(words: Words | str) -> Phrase:
    """A presenter's words (written with :func:`seat_markers` for names) as a phrase."""
    if isinstance(words, str):
        words = Words(words)
    out: Phrase = []
    for run, own in words.runs:
        # fresh tokens: the reading is remembered, and the phrase is the caller's to change
        out += [dict(token) for token in _run_tokens(run, words.style, own)]
    return _merged(out)


# A snapshot reads a few dozen runs, nearly all read before (a card, "bid 3", a seat and its
# verb), so each run's reading is remembered: a third of a snapshot's time otherwise.
@lru_cache(maxsize=8192)
def _run_tokens(run: str, line: str, own: str) -> tuple[Token, ...]:
    """The tokens of one ``run`` in a line styled ``line``, its own style ``own``; shared, to
    be copied."""
    out: Phrase = []
    _read_run(run, combine(line, own), own, out)
    return tuple(out)


def forget() -> None:
    """Drop the remembered readings (see :func:`phrase_of`)."""
    _run_tokens.cache_clear()


def _read_run(run: str, style: str, own: str, out: Phrase) -> None:
    """One run of a single style: its seats, cards and suits as tokens, the rest words.

    ``own`` is the run's style without the line's: a card bold of its own is a trump."""
    bold = "bold" in own.split()
    if run in _JOKERS and bold and "magenta" in own.split():
        out.append(_styled({"t": "card", "v": run}, style))
        return
    at = 0
    for match in _PIECE.finditer(run):
        if match.start() > at:
            out.append(text(run[at : match.start()], style))
        if match.group("seat"):
            out.append(seat(ord(match.group("seat")[0]) - MARK, style))
        elif match.group("card"):
            code = parse_card(match.group("card"))
            token: Token = {"t": "card", "v": card_name(code)}
            if bold:
                token["trump"] = True
            out.append(_styled(token, style))
        else:
            out.append(suit(_SYMBOLS.index(match.group("suit")), style))
        at = match.end()
    if at < len(run):
        out.append(text(run[at:], style))


def _styled(token: Token, style: str) -> Token:
    if style:
        token["s"] = style
    return token


def _merged(phrase: Phrase) -> Phrase:
    """Neighbouring text tokens of one style as one."""
    out: Phrase = []
    for token in phrase:
        last = out[-1] if out else None
        if (
            last is not None
            and last["t"] == "text"
            and token["t"] == "text"
            and last.get("s", "") == token.get("s", "")
        ):
            last["v"] += token["v"]
        else:
            out.append(token)
    return out


def phrases_of(texts: Iterable[Words | str]) -> list[Phrase]:
    """Several presenter texts, a phrase each."""
    return [phrase_of(t) for t in texts]


# ------------------------------------------------------------------------------- JSON


def to_json(phrase: Phrase) -> list[dict[str, Any]]:
    """``phrase`` as JSON carries it (tokens are JSON already: a checked copy)."""
    return [dict(check_token(t)) for t in phrase]


def from_json(data: object) -> Phrase:
    """A phrase read from JSON, each token checked; a bad one raises :class:`TricktableError`."""
    if not isinstance(data, list):
        raise TricktableError(f"a phrase is a list of tokens, not {type(data).__name__}")
    return [dict(check_token(t)) for t in data]


def check_token(token: object) -> Token:
    """``token`` if it is a well-formed phrase token, else a :class:`TricktableError`."""
    if not isinstance(token, dict) or token.get("t") not in _KINDS:
        raise TricktableError(f"a phrase token is a dict with t in {sorted(_KINDS)}: {token!r}")
    kind, value = token["t"], token.get("v")
    if kind == "text" and not isinstance(value, str):
        raise TricktableError(f"a text token's v is a string: {token!r}")
    if kind == "card" and not (isinstance(value, str) and _is_card(value)):
        raise TricktableError(f"a card token's v is a card's name (QH, JK): {token!r}")
    if kind == "suit" and not (isinstance(value, str) and len(value) == 1 and value in SUITS):
        raise TricktableError(f"a suit token's v is a suit's letter (C D H S): {token!r}")
    if kind == "seat" and value.__class__ is not int:
        raise TricktableError(f"a seat token's v is a seat number: {token!r}")
    if not isinstance(token.get("s", ""), str):
        raise TricktableError(f"a token's s is a style name: {token!r}")
    return token


def _is_card(name: str) -> bool:
    try:
        return card_name(parse_card(name)) == name
    except (TricktableError, ValueError, IndexError):
        return False


def cards_named(phrase: Iterable[Token]) -> list[str]:
    """The cards a phrase names, in order (what a leak test reads)."""
    return [t["v"] for t in phrase if t["t"] == "card"]
