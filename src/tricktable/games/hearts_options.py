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


def pass_cycle(text: str) -> tuple[int, ...]:
    """The pass offsets, hand by hand, of a ``passing`` option: ``lrah`` -> (1, 3, 2, 0).

    A word names one direction for every hand: ``left``, ``right``, ``across``, ``none``.
    """
    word = text.strip().lower()
    letters = _WORDS.get(word, word)
    if not letters or any(ch not in DIRECTIONS for ch in letters):
        raise OptionError(
            f"bad passing {text!r}: write letters l r a h (left, right, across, hold) in "
            "the order hands cycle through them, e.g. lrah, or left, right, across, none"
        )
    return tuple(DIRECTIONS[ch] for ch in letters)


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

    def __post_init__(self) -> None:
        pass_cycle(self.passing)
