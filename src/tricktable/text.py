"""What text from outside may hold before anyone prints it: no control characters.

A record's labels and notes, chat lines and names are shown on people's terminals and pages.
A control character there (an ANSI escape sets the window's title or clears the screen; a
carriage return overwrites a line), a line or paragraph separator, a lone surrogate, or a
bidirectional override or isolate (which reorders what is shown) would let the text act on the
screen instead of being read, so such text is refused where it is read, not cleaned where it
is printed.
"""

from __future__ import annotations

import unicodedata
from typing import Final

#: bidirectional overrides and isolates: they reorder what follows them on the screen
BIDI: Final = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
#: Unicode categories never shown as text: controls, surrogates, line and paragraph separators
_UNSHOWN: Final = frozenset(("Cc", "Cs", "Zl", "Zp"))


def unshowable(text: str) -> str | None:
    """The first character of ``text`` that acts on a screen rather than being read, or None."""
    if text.isprintable():  # the common case, in C: no control, separator or format character
        return None
    for ch in text:
        if ch in BIDI or unicodedata.category(ch) in _UNSHOWN:
            return ch
    return None


def codepoint(ch: str) -> str:
    """``U+001B``: a character as an error line names it."""
    return f"U+{ord(ch):04X}"
