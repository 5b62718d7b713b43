"""The rule options of Setback and the Pitch family: one frozen dataclass, RULES.md's defaults.

Kept apart from the compiled rules module: mypyc erases ``Literal`` annotations, and the option
parser reads them to know each option's valid values.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from tricktable.errors import OptionError
from tricktable.games.pitch_scoring import POINT_NAMES, SETBACK_POINTS
from tricktable.games.seating import check_partners, read_partners


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
    partners: bool | str = field(
        default=True,
        metadata={
            "doc": "true: two sides sitting alternately (0+2 v 1+3; at six seats 0+2+4 v "
            "1+3+5); false: each for itself; SIDESxSIZE, e.g. 3x2: three sides of two, "
            "partners sitting evenly round the table",
            "values": "true | false | SIDESxSIZE (3x2, 2x3, 2x2)",
            "read": read_partners,
        },
    )
    players: int = field(
        default=4,
        metadata={"doc": "seats at the table", "range": (2, 7), "recorded": "if changed"},
    )
    direction: Literal["left", "right"] = field(
        default="left",
        metadata={
            "doc": "the turn and the deal pass to the left (clockwise) or to the right",
            "recorded": "if changed",
        },
    )

    kitty: int = field(
        default=0,
        metadata={
            "doc": "cards dealt face down to a kitty (widow); the auction's winner takes them "
            "and discards as many, face down, before leading; the discard counts as a trick "
            "the declarer's side won",
            "range": (0, 30),
            "recorded": "if changed",
        },
    )
    moon: bool = field(
        default=False,
        metadata={
            "doc": "a bid of 'moon' (shoot the moon), above every number: the declarer's side "
            "must take every point of the hand; made, it wins the match (see moon_value); "
            "failed, it loses the hand's points",
            "recorded": "if changed",
        },
    )
    moon_value: int = field(
        default=0,
        metadata={
            "doc": "what a moon scores: 0 wins the match outright when made (and a failed moon "
            "loses the hand's points); N scores N made and loses N failed",
            "range": (0, 1000),
            "recorded": "if changed",
        },
    )
    smudge: bool = field(
        default=False,
        metadata={
            "doc": "smudge: the top bid (max_bid) made by taking every point of the hand wins "
            "the match outright, unless the declarer's side began the hand in the hole "
            "(below zero)",
            "recorded": "if changed",
        },
    )

    def __post_init__(self) -> None:
        if self.min_bid > self.max_bid:
            raise OptionError(f"min_bid {self.min_bid} is above max_bid {self.max_bid}")
        object.__setattr__(self, "partners", check_partners(self.partners, self.players))
        deck = 52 + self.jokers
        if self.players * self.hand_size + self.kitty > deck:
            kitty = f" and a kitty of {self.kitty}" if self.kitty else ""
            raise OptionError(
                f"{self.players} hands of {self.hand_size}{kitty} need "
                f"{self.players * self.hand_size + self.kitty} cards; the deck has {deck}"
            )
        if self.moon_value and not self.moon:
            raise OptionError(f"moon_value={self.moon_value} needs moon=true (a moon bid)")
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
