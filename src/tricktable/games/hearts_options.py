"""The rule options of Hearts and the pass directions: plain Python beside the compiled rules.

Kept apart from :mod:`tricktable.games.hearts`, which is compiled with mypyc: mypyc erases
``Literal`` annotations, and the option parser reads them to know each option's valid values.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from tricktable.errors import OptionError

#: pass offsets (seats to the left) by direction letter; 0 = hold, nothing passes
DIRECTIONS = {"l": 1, "r": 3, "a": 2, "h": 0}
DIRECTION_NAMES = {1: "left", 3: "right", 2: "across", 0: "hold"}
_WORDS = {"left": "l", "right": "r", "across": "a", "hold": "h", "none": "h"}

#: the cards taken out so that the deck deals evenly, by table size (pagat.com's Hearts:
#: three players 17 each without 2♣, five 10 each without 2♣ 2♦, six 8 each without
#: 2♣ 2♦ 3♣ 2♠); no heart and not Q♠, so a hand still holds 26 penalty points
REMOVED: dict[int, tuple[str, ...]] = {
    3: ("2C",),
    4: (),
    5: ("2C", "2D"),
    6: ("2C", "2D", "3C", "2S"),
}
#: the default cycle of pass directions, and the one it becomes at an odd table, which has
#: no seat across
DEFAULT_PASSING = "lrah"
ODD_PASSING = "lrh"


def pass_cycle(text: str, players: int = 4) -> tuple[int, ...]:
    """The pass offsets (seats to the left), hand by hand, of a ``passing`` option at a table
    of ``players``: ``lrah`` -> (1, 3, 2, 0) at four; at three ``lrh`` -> (1, 2, 0).

    A word names one direction for every hand: ``left``, ``right``, ``across``, ``none``.
    Across is the seat ``players // 2`` to the left, so only an even table has one.
    """
    word = text.strip().lower()
    letters = _WORDS.get(word, word)
    if not letters or any(ch not in DIRECTIONS for ch in letters):
        raise OptionError(
            f"bad passing {text!r}: write letters l r a h (left, right, across, hold) in "
            "the order hands cycle through them, e.g. lrah, or left, right, across, none"
        )
    if players % 2 and "a" in letters:
        raise OptionError(
            f"passing {text!r} passes across, and {players} players have no seat across: "
            "use l r h (e.g. lrh)"
        )
    offsets = {"l": 1, "r": players - 1, "a": players // 2, "h": 0}
    return tuple(offsets[ch] for ch in letters)


def direction_name(offset: int, players: int = 4) -> str:
    """The name of a pass offset at a table of ``players``: left, right, across or hold."""
    if offset == 0:
        return "hold"
    if offset == 1:
        return "left"
    if offset == players - 1:
        return "right"
    return "across"


@dataclass(frozen=True, slots=True)
class HeartsOptions:
    """The rule options of Hearts; the defaults are the standard four-handed game."""

    target: int = field(
        default=100,
        metadata={"doc": "score that ends the match at the end of a hand", "range": (1, 10000)},
    )
    passing: str = field(
        default="lrah",
        metadata={
            "doc": "pass directions, one letter per hand, cycling: l(eft) r(ight) a(cross) "
            "h(old); or one word for every hand: left, right, across, none"
        },
    )
    first_trick_points: bool = field(
        default=False,
        metadata={"doc": "hearts and the queen of spades may be played to the first trick"},
    )
    breaking: bool = field(
        default=True, metadata={"doc": "hearts may not be led until a heart has been played"}
    )
    queen_breaks: bool = field(
        default=False, metadata={"doc": "playing the queen of spades also breaks hearts"}
    )
    moon: Literal["add", "subtract", "none"] = field(
        default="add",
        metadata={
            "doc": "taking all 26: add 26 to every other score, subtract 26 from the "
            "shooter's, or none (no special scoring)"
        },
    )

    players: int = field(
        default=4,
        metadata={
            "doc": "seats at the table, each for itself: 3 (2C out, 17 each), 4, 5 (2C 2D "
            "out, 10 each) or 6 (2C 2D 3C 2S out, 8 each); the lowest club leads",
            "range": (3, 6),
            "recorded": "if changed",
        },
    )

    def __post_init__(self) -> None:
        if not 3 <= self.players <= 6:
            raise OptionError(f"players {self.players} must be from 3 to 6")
        if self.players % 2 and self.passing == DEFAULT_PASSING:
            # The default cycle, at a table with no seat across: left, right, hold.
            object.__setattr__(self, "passing", ODD_PASSING)
        pass_cycle(self.passing, self.players)
