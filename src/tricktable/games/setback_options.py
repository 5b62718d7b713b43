"""The rule options of Setback and the Pitch family: one frozen dataclass, RULES.md's defaults.

Kept apart from the compiled rules module: mypyc erases ``Literal`` annotations, and the option
parser reads them to know each option's valid values.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from tricktable.errors import OptionError
from tricktable.games.pitch_scoring import POINT_NAMES, SETBACK_POINTS


@dataclass(frozen=True, slots=True)
class SetbackOptions:
    """The rule options of the Pitch family; the defaults are RULES.md's Setback."""

    target: int = field(
        default=21, metadata={"doc": "score that ends the match (see win)", "range": (1, 10000)}
    )
    min_bid: int = field(default=2, metadata={"doc": "lowest bid", "range": (1, 30)})
    max_bid: int = field(
        default=6,
        metadata={"doc": "highest bid; it ends the auction at once", "range": (1, 30)},
    )
    low_to: Literal["captured", "dealt"] = field(
        default="captured",
        metadata={"doc": "Low goes to the side that captures it, or that was dealt it"},
    )
    declarer_scores: Literal["bid", "taken"] = field(
        default="bid", metadata={"doc": "a made bid scores the bid, or the points taken"}
    )
    jokers: int = field(
        default=1,
        metadata={
            "doc": "jokers in the deck (trumps between the ten and the jacks)",
            "range": (0, 2),
        },
    )
    hand_size: int = field(
        default=6, metadata={"doc": "cards dealt to each seat", "range": (2, 13)}
    )
    points: str = field(
        default=",".join(SETBACK_POINTS),
        metadata={
            "doc": "points counted, comma-separated, name=N for a weight: " + " ".join(POINT_NAMES)
        },
    )
    off_jack_trump: bool = field(
        default=False, metadata={"doc": "the off-jack is a trump, just below the jack"}
    )
    off_five_trump: bool = field(
        default=False, metadata={"doc": "the off-five is a trump, just below the five"}
    )
    may_trump: bool = field(
        default=False, metadata={"doc": "a player may trump even when able to follow suit"}
    )
    joker_lead: Literal["last", "any"] = field(
        default="last",
        metadata={"doc": "the joker may open a trick only as the last card, or any time"},
    )
    dealer_takes: bool = field(
        default=False, metadata={"doc": "the dealer may take the high bid at the same level"}
    )
    all_pass: Literal["stuck", "redeal"] = field(
        default="stuck",
        metadata={"doc": "when all pass: the dealer is stuck at min_bid, or the deal is thrown in"},
    )
    win: Literal["declarers", "first", "top"] = field(
        default="declarers",
        metadata={
            "doc": "declarers: only declarers reaching target win; first: first to target "
            "(declarers first); top: a unique top score at or above target"
        },
    )
    partners: bool = field(
        default=True, metadata={"doc": "partnerships (0+2 v 1+3), or each for itself"}
    )

    def __post_init__(self) -> None:
        if self.min_bid > self.max_bid:
            raise OptionError(f"min_bid {self.min_bid} is above max_bid {self.max_bid}")
        if 4 * self.hand_size > 52 + self.jokers:
            raise OptionError(
                f"hand_size {self.hand_size} needs more than the {52 + self.jokers} cards"
            )
        weights = point_weights(self.points)
        needs = 2 if "little_joker" in weights else 1 if "joker" in weights else 0
        if self.jokers < needs:
            raise OptionError(f"points {self.points!r} count a joker the deck does not have")
        if self.max_bid > sum(weights.values()):
            raise OptionError(
                f"max_bid {self.max_bid} is more than the {sum(weights.values())} points"
            )


def point_weights(text: str) -> dict[str, int]:
    """Read the ``points`` option: ``high,low,three=3`` -> {"high": 1, "low": 1, "three": 3}."""
    weights: dict[str, int] = {}
    for item in text.replace(" ", "").split(","):
        if not item:
            continue
        name, _, weight = item.partition("=")
        if name not in POINT_NAMES:
            raise OptionError(f"unknown point {name!r}; valid points: {', '.join(POINT_NAMES)}")
        try:
            weights[name] = int(weight) if weight else 1
        except ValueError:
            raise OptionError(f"bad weight {weight!r} for point {name!r}: write {name}=N") from None
    if not weights:
        raise OptionError("points must name at least one point")
    return weights
