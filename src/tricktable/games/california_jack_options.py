"""The rule options of California Jack and Shasta Sam: one frozen dataclass, California Jack's
defaults (two players, the stock face up, High Low Jack Game, to 10).

Kept apart from the compiled rules module: mypyc erases ``Literal`` annotations, and the option
parser reads them to know each option's valid values.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from tricktable.errors import OptionError

#: the points a hand may count, in the order they are scored (and break a race to the target)
CJ_POINTS: tuple[str, ...] = ("high", "low", "jack", "game")


def read_partners(value: object) -> bool:
    """The ``partners`` option as written: a yes or no (``2x2`` is the only partnership)."""
    if isinstance(value, bool):
        return value
    word = str(value).strip().lower()
    if word in ("true", "yes", "on", "1", "2x2"):
        return True
    if word in ("false", "no", "off", "0", "none"):
        return False
    raise ValueError(word)


def point_weights(text: str) -> dict[str, int]:
    """Read the ``points`` option: ``high,low,jack,game=2`` -> {"high": 1, ..., "game": 2}.

    >>> point_weights("high,game=2")
    {'high': 1, 'game': 2}
    """
    weights: dict[str, int] = {}
    for item in text.replace(" ", "").split(","):
        if not item:
            continue
        name, _, weight = item.partition("=")
        if name not in CJ_POINTS:
            raise OptionError(f"unknown point {name!r}; valid points: {', '.join(CJ_POINTS)}")
        try:
            weights[name] = int(weight) if weight else 1
        except ValueError:
            raise OptionError(f"bad weight {weight!r} for point {name!r}: write {name}=N") from None
        if weights[name] < 1:
            raise OptionError(f"point {name!r} must be worth at least 1, not {weights[name]}")
    if not weights:
        raise OptionError("points must name at least one point")
    # Scored in the rules' order, whatever the order written.
    return {name: weights[name] for name in CJ_POINTS if name in weights}


@dataclass(frozen=True, slots=True)
class CaliforniaJackOptions:
    """The rule options of California Jack; the defaults are the two-hand game of the books."""

    stock: Literal["up", "down"] = field(
        default="up",
        metadata={
            "doc": "the stock lies face up, its top card seen by all (California Jack), or face "
            "down, each draw seen by its drawer alone (Shasta Sam)"
        },
    )
    play: Literal["follow-or-trump", "may-trump", "follow"] = field(
        default="follow-or-trump",
        metadata={
            "doc": "follow-or-trump: follow suit or trump, and a seat that cannot follow must "
            "trump if it can; may-trump: follow suit or trump, and one that cannot follow "
            "plays anything (All Fours); follow: follow suit if able, else anything"
        },
    )
    target: int = field(
        default=10,
        metadata={"doc": "points that win the match", "range": (1, 1000)},
    )
    points: str = field(
        default=",".join(CJ_POINTS),
        metadata={
            "doc": "points counted, comma-separated, name=N for a weight: " + " ".join(CJ_POINTS)
        },
    )
    players: int = field(default=2, metadata={"doc": "seats at the table", "range": (2, 4)})
    partners: bool = field(
        default=False,
        metadata={
            "doc": "at four seats, 0+2 play against 1+3 (2x2); false: each for itself",
            "values": "true | false",
            "read": read_partners,
        },
    )
    direction: Literal["left", "right"] = field(
        default="left",
        metadata={"doc": "the turn, the draws and the deal pass to the left or to the right"},
    )

    def __post_init__(self) -> None:
        if self.players == 3:
            # 52 cards do not go round three seats evenly: the last draw would leave a card
            # over, and no source says what becomes of it.
            raise OptionError("players=3: California Jack is played by 2 or 4 (52 cards)")
        if self.partners and self.players != 4:
            raise OptionError(
                f"partners=true needs players=4 (two sides of two), not players={self.players}"
            )
        point_weights(self.points)


def sides_of_options(opts: CaliforniaJackOptions) -> int:
    """How many sides score: the two partnerships, or one per seat."""
    return 2 if opts.partners else opts.players
