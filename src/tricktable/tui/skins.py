"""How cards and the table look: the skins, the ASCII fallback, the terminals' limits.

Two skins, switched with ``s`` at the table: ``felt`` (a green cloth, cards as white
chips) and ``paper`` (a light table, cards framed in ink), each a set of CSS rules keyed
on a class of the screen. Nothing tells a card's state by colour alone — legal cards have
a round frame, the others a dashed one, the picked card a double one, trumps a ``*`` in
ASCII mode — so the table reads the same under ``NO_COLOR`` (which Textual honours) and on
16-colour terminals, whose palette Textual maps the colours onto.
"""

from __future__ import annotations

import os
import sys

from rich.text import Text

from tricktable.cards import card_name
from tricktable.ui.render import card_text

#: the suits' symbols and their ASCII letters, for terminals whose fonts draw ♠♥♦♣ badly
#: (and the few other symbols the table draws), each one character for one
ASCII_SUITS = str.maketrans(
    {"♣": "C", "♦": "D", "♥": "H", "♠": "S", "★": "*", "·": "-", "▶": ">", "─": "-", "✗": "x"}
    | {"→": ">", "…": "."}
)
#: the smallest window the table screen is drawn in (columns, rows)
MIN_SIZE = (100, 30)

#: the skins' rules (below: the table's layout, then these)
SKIN_CSS = """
/* felt: a green cloth with white cards (the default) */
TableScreen.-felt #felt { background: #0b4d2c; }
TableScreen.-felt .card { background: #fdfdf5; color: black; }
TableScreen.-felt .card.trump { background: #fff3c4; }
TableScreen.-felt .seat { color: #e8f5e9; }
TableScreen.-felt .seat.to-act { color: #ffd54f; text-style: bold; }
TableScreen.-felt #trick { border: round #2e8b57; }
/* paper: a light table, cards framed in ink */
TableScreen.-paper #felt { background: #efe8d8; color: black; }
TableScreen.-paper .card { background: white; color: black; }
TableScreen.-paper .card.trump { background: #e3ecff; }
TableScreen.-paper .card.legal { border: round #1a237e; }
TableScreen.-paper .card.selected { border: double #b71c1c; }
TableScreen.-paper .seat { color: #3e2723; }
TableScreen.-paper .seat.to-act { color: #b71c1c; text-style: bold; }
TableScreen.-paper #trick { border: heavy #795548; }
TableScreen.-paper #side, TableScreen.-paper #side RichLog { background: #f7f3ea; color: #212121; }
TableScreen.-paper #status { background: #d7ccc8; color: black; }
"""


def wants_ascii() -> bool:
    """Whether the terminal cannot be trusted with ♠♥♦♣: ``TRICKTABLE_ASCII`` is set, or
    standard output's encoding cannot write them (a C locale, an old Windows code page)."""
    if os.environ.get("TRICKTABLE_ASCII"):
        return True
    encoding = getattr(sys.stdout, "encoding", None) or "ascii"
    try:
        "♠♥♦♣★".encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return True
    return False


def card_label(card: int, trumps: int = 0, ascii: bool = False) -> Text:
    """A card as the table shows it: ``10♦`` (red for red suits, bold for trumps), or in
    ASCII ``TD`` with a ``*`` after a trump (the mark survives a terminal without colour)."""
    if not ascii:
        return card_text(card, trumps)
    shown = card_text(card, trumps)
    mark = "*" if trumps >> card & 1 else ""
    return Text(card_name(card) + mark, style=shown.style)


def plain(text: Text, ascii: bool) -> Text:
    """``text`` with its suit symbols turned into letters where ``ascii`` (styles kept:
    each symbol is one character, so every span keeps its place)."""
    if not ascii:
        return text
    copy = text.copy()
    copy.plain = text.plain.translate(ASCII_SUITS)
    return copy


#: the table screen's layout, then the skins
TABLE_CSS = (
    """
#status { height: 1; background: $boost; padding: 0 1; text-wrap: nowrap;
          text-overflow: ellipsis; }
#main { height: 1fr; }
#felt { width: 2fr; align-vertical: middle; }
#side { width: 1fr; min-width: 32; border-left: solid $primary; }
#tally { height: auto; max-height: 9; padding: 0 1; border-bottom: solid $primary; }
#log { height: 1fr; }
#chat { height: 7; border-top: solid $primary; }
#say { height: 3; }
.seat { height: 7; width: 1fr; content-align: center middle; text-align: center; }
#top { height: 6; }
#top .seat, #seat-S { width: 100%; height: 6; }
#top.crowded .seat { width: 1fr; }
#top.empty { display: none; }
#middle { height: 9; }
#left, #right { width: 22; }
#left .seat, #right .seat { width: 100%; }
#left.crowded .seat, #right.crowded .seat { height: 1fr; }
#trick { width: 1fr; height: 9; grid-size: 3 3; grid-rows: 1fr 1fr 1fr; }
#trick Static { width: 100%; height: 100%; content-align: center middle; }
#hand, #hand-more { height: 3; align-horizontal: center; }
#hand-more { display: none; }
.card { width: 7; height: 3; border: dashed #777777; content-align: center middle;
        text-style: dim; }
.card.legal { border: round #2e8b57; text-style: none; }
.card.selected { border: double #e0a000; text-style: bold; }
.card.marked { text-style: bold reverse; }
#hand.many .card, #hand-more .card { width: 5; }
#bids { height: auto; max-height: 6; layout: grid; grid-size: 8; grid-gutter: 0 1;
        padding: 0 1; }
.bid { width: 100%; min-width: 6; }
.bid.selected { background: $warning; color: black; }
#message { height: 1; padding: 0 1; }
#message.error { color: $error; text-style: bold; }
#hint { height: 1; padding: 0 1; }
"""
    + SKIN_CSS
)
