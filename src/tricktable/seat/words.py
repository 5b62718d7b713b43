"""Words: styled text the games' presenters write, as plain data (no renderer's types).

A :class:`Words` is a line of words made of *runs*, each a piece of text with the style it
was written in ("bold", "red", "dim"), plus the style of the whole line. Presenters build it
as they would a terminal's styled text (``append``, ``append_text``, ``join``, ``stylize``),
and every door draws it its own way: :mod:`tricktable.seat.phrases` reads it into tokens
(cards, suits, seats, words) for the web page and the snapshot, and the terminal's renderer
(:mod:`tricktable.ui.render`) makes Rich text of it. The seat model therefore needs no
renderer, and what a presenter says is the same on every screen.

A style is a few words: attributes (``bold``, ``dim``, ``italic``...), a colour, and
``on`` a background colour. Styles combine as a terminal combines them — a later colour wins,
attributes add up — and are written in one order (``bold red``, never ``red bold``), so two
equal styles are equal strings.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import Final

#: text attributes, in the order a style names them
ATTRIBUTES: Final = (
    "bold",
    "dim",
    "italic",
    "underline",
    "blink",
    "blink2",
    "reverse",
    "conceal",
    "strike",
    "underline2",
    "frame",
    "encircle",
    "overline",
)
_ATTRIBUTE_SET: Final = frozenset(ATTRIBUTES)


# A pure function of a few strings, called for every run of every line a presenter writes (a
# fifth of a snapshot's time): the styles in use are few, so it is remembered.
@lru_cache(maxsize=1024)
def combine(*styles: str) -> str:
    """``styles`` laid over one another, left to right, in the one order a style is written."""
    on: set[str] = set()
    colour = background = ""
    for style in styles:
        words = style.split()
        i = 0
        while i < len(words):
            word = words[i]
            if word == "on" and i + 1 < len(words):
                background = words[i + 1]
                i += 2
                continue
            if word in _ATTRIBUTE_SET:
                on.add(word)
            elif word not in ("", "none"):
                colour = word
            i += 1
    out: list[str] = [a for a in ATTRIBUTES if a in on]
    if colour:
        out.append(colour)
    if background:
        out += ["on", background]
    return " ".join(out)


class Words:
    """A line of styled words (see the module): ``Words("bid 3", style="bold")``."""

    __slots__ = ("_runs", "style")

    def __init__(self, text: str = "", style: str = "") -> None:
        #: the whole line's style (a renderer lays the runs' styles over it)
        self.style = combine(style)
        #: (text, own style) pieces in order; own styles exclude the line's
        self._runs: list[tuple[str, str]] = [(text, "")] if text else []

    # ------------------------------------------------------------------------ reading

    @property
    def plain(self) -> str:
        """The words without their styles."""
        return "".join(text for text, _ in self._runs)

    @property
    def runs(self) -> list[tuple[str, str]]:
        """The (text, style) pieces in order, each style without the line's."""
        return list(self._runs)

    def __len__(self) -> int:
        return sum(len(text) for text, _ in self._runs)

    def __str__(self) -> str:
        return self.plain

    def __repr__(self) -> str:
        return f"Words({self.plain!r}, style={self.style!r})"

    def __contains__(self, other: object) -> bool:
        if isinstance(other, Words):
            other = other.plain
        return isinstance(other, str) and other in self.plain

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Words):
            return NotImplemented
        return self.style == other.style and self._merged() == other._merged()

    __hash__ = None  # type: ignore[assignment]  # mutable, as a line being written is

    def _merged(self) -> list[tuple[str, str]]:
        """The runs with neighbours of one style joined (how two equal lines compare)."""
        out: list[tuple[str, str]] = []
        for text, style in self._runs:
            if out and out[-1][1] == style:
                out[-1] = (out[-1][0] + text, style)
            elif text:
                out.append((text, style))
        return out

    # ------------------------------------------------------------------------ writing

    def append(self, text: str | Words, style: str | None = None) -> Words:
        """Add ``text`` at the end (a string in ``style``; a :class:`Words` in its own)."""
        if isinstance(text, Words):
            return self.append_text(text if style is None else text._restyled(style))
        if text:
            self._runs.append((text, combine(style or "")))
        return self

    def append_text(self, other: Words) -> Words:
        """Add ``other`` at the end: its line style becomes its runs' (under their own)."""
        for text, style in other._runs:
            if text:
                self._runs.append((text, combine(other.style, style)))
        return self

    def _restyled(self, style: str) -> Words:
        out = self.copy()
        out.style = combine(out.style, style)
        return out

    def stylize(self, style: str) -> Words:
        """Lay ``style`` over every run (a later colour wins)."""
        self._runs = [(text, combine(own, style)) for text, own in self._runs]
        return self

    def join(self, lines: Iterable[Words]) -> Words:
        """``lines`` joined with these words between them; the result has this line's style."""
        out = Words(style=self.style)
        sep = self.copy()
        for i, piece in enumerate(lines):
            if i and sep._runs:
                out.append_text(sep)
            out.append_text(piece)
        return out

    def copy(self) -> Words:
        """A copy to write on."""
        out = Words(style=self.style)
        out._runs = list(self._runs)
        return out

    def __add__(self, other: object) -> Words:
        if isinstance(other, str | Words):
            return self.copy().append(other)
        return NotImplemented

    def __iter__(self) -> Iterator[tuple[str, str]]:
        """The runs, each style laid over the line's: what a renderer draws."""
        for text, own in self._runs:
            yield text, combine(self.style, own)
