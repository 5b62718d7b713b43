"""The rule options of Cinch (Double Pedro) and its relatives: one frozen dataclass.

The defaults are four-hand Cinch in partnerships as pagat.com/allfours/cinch.html and Foster's
Complete Hoyle (1897) describe it; every relative (cut-throat and six-hand Cinch, Pedro Sancho,
Dom Pedro, Catch Five...) is a preset of these options in ``presets/cinch.toml``.

Kept apart from the compiled rules module: mypyc erases ``Literal`` annotations, and the option
parser reads them to know each option's valid values.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Literal

from tricktable.errors import OptionError
from tricktable.games.seating import check_partners, read_partners, sides_of_options

#: every point a Cinch variant may count, in the order results list them: High and Low (the
#: highest and lowest trump in play, never the joker), the jack, Game (the ten of trump), the
#: three, the Pedro (five of trump), the Left Pedro (the other five of trump's colour), the
#: nine (Sancho) and the joker (Dom Pedro's Snoozer)
POINT_NAMES: Final = (
    "high",
    "low",
    "jack",
    "game",
    "three",
    "pedro",
    "left_pedro",
    "nine",
    "joker",
)
#: Cinch's points: High, Low, Jack and Game one each, the two Pedros five each (14)
CINCH_POINTS: Final = "high,low,jack,game,pedro=5,left_pedro=5"


def point_weights(text: str) -> dict[str, int]:
    """Read the ``points`` option: ``high,low,pedro=5`` -> {"high": 1, "low": 1, "pedro": 5}."""
    weights: dict[str, int] = {}
    for item in text.replace(" ", "").split(","):
        if not item:
            continue
        name, _, weight = item.partition("=")
        if name not in POINT_NAMES:
            raise OptionError(f"unknown point {name!r}; valid points: {', '.join(POINT_NAMES)}")
        try:
            value = int(weight) if weight else 1
        except ValueError:
            raise OptionError(f"bad weight {weight!r} for point {name!r}: write {name}=N") from None
        if not 1 <= value <= 99:
            raise OptionError(f"weight {value} of point {name!r} must be 1..99")
        weights[name] = value
    if not weights:
        raise OptionError("points must name at least one point")
    return weights


@dataclass(frozen=True, slots=True)
class CinchOptions:
    """The rule options of the Cinch family; the defaults are four-hand Cinch."""

    target: int = field(
        default=51,
        metadata={"doc": "score that wins the match (see bidder_out)", "range": (1, 10000)},
    )
    min_bid: int = field(default=6, metadata={"doc": "lowest bid", "range": (1, 99)})
    max_bid: int = field(
        default=14,
        metadata={
            "doc": "highest bid (at most the points of a hand); it ends the auction",
            "range": (1, 99),
        },
    )
    points: str = field(
        default=CINCH_POINTS,
        metadata={
            "doc": "points counted, comma-separated, name=N for a weight: " + " ".join(POINT_NAMES)
        },
    )
    left_pedro_trump: bool = field(
        default=True,
        metadata={
            "doc": "the five of the other suit of trump's colour is a trump, just below the five"
        },
    )
    jokers: int = field(
        default=0,
        metadata={
            "doc": "a joker (the Snoozer) joins the deck as the lowest trump, below the two",
            "range": (0, 1),
        },
    )
    hand_size: int = field(
        default=9, metadata={"doc": "cards dealt to each seat", "range": (1, 13)}
    )
    play_size: int = field(
        default=6,
        metadata={
            "doc": "cards each seat holds for the play, after the discard and the draw",
            "range": (1, 13),
        },
    )
    discard: Literal["non-trumps", "any", "down", "none"] = field(
        default="non-trumps",
        metadata={
            "doc": "after trump is named each seat in turn: non-trumps: throws every non-trump "
            "(and, holding more than play_size trumps, the excess, shown) and draws up to "
            "play_size; any: throws what it likes and draws up to play_size; down: throws down "
            "to play_size and draws nothing; none: no discard (deal play_size)"
        },
    )
    dealer_robs: bool = field(
        default=True,
        metadata={
            "doc": "the dealer does not discard: after the others have drawn he takes the rest "
            "of the pack and keeps play_size cards of his choice"
        },
    )
    dealer_takes: bool = field(
        default=False, metadata={"doc": "the dealer may take the high bid at the same level"}
    )
    all_pass: Literal["redeal", "dealer-bids"] = field(
        default="redeal",
        metadata={
            "doc": "when all before the dealer pass: the deal is thrown in if the dealer "
            "passes too, or the dealer must bid"
        },
    )
    scoring: Literal["taken", "difference"] = field(
        default="taken",
        metadata={
            "doc": "taken: every side scores the points it took, a failed bidding side loses "
            "its bid instead; difference (Foster, two sides): a made bid gives the side that "
            "took more the difference, a failed one gives the other side its points and the bid"
        },
    )
    low_to: Literal["captured", "held"] = field(
        default="captured",
        metadata={"doc": "Low goes to the side that captures it, or that held it for the play"},
    )
    may_trump: bool = field(
        default=True, metadata={"doc": "a player may trump even when able to follow suit"}
    )
    bidder_out: bool = field(
        default=True,
        metadata={
            "doc": "when several sides reach target in one hand the bidding side wins if it is "
            "among them (else the top score); false: the top score always (a tie plays on)"
        },
    )
    partners: bool | str = field(
        default=True,
        metadata={
            "doc": "true: two sides sitting alternately (at six seats 0+2+4 v 1+3+5); false: "
            "each for itself; SIDESxSIZE, e.g. 3x2: three sides of two",
            "values": "true | false | SIDESxSIZE (3x2, 2x3, 2x2)",
            "read": read_partners,
        },
    )
    players: int = field(default=4, metadata={"doc": "seats at the table", "range": (2, 6)})

    def __post_init__(self) -> None:
        if self.min_bid > self.max_bid:
            raise OptionError(f"min_bid {self.min_bid} is above max_bid {self.max_bid}")
        object.__setattr__(self, "partners", check_partners(self.partners, self.players))
        deck = 52 + self.jokers
        if self.players * self.hand_size > deck:
            raise OptionError(
                f"{self.players} hands of {self.hand_size} need "
                f"{self.players * self.hand_size} cards; the deck has {deck}"
            )
        if self.play_size > self.hand_size:
            raise OptionError(
                f"play_size {self.play_size} is more than the {self.hand_size} cards dealt"
            )
        if self.discard == "none" and self.play_size != self.hand_size:
            raise OptionError(
                f"discard=none plays the cards dealt: play_size {self.play_size} must equal "
                f"hand_size {self.hand_size}"
            )
        weights = point_weights(self.points)
        if "joker" in weights and not self.jokers:
            raise OptionError(f"points {self.points!r} count a joker the deck does not have")
        total = sum(weights.values())
        if self.max_bid > total:
            raise OptionError(f"max_bid {self.max_bid} is more than the {total} points")
        if self.scoring == "difference" and sides_of_options(self) != 2:
            raise OptionError("scoring=difference needs two sides: write scoring=taken")
