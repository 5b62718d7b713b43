"""The rule options of Spades: plain Python beside the compiled rules (see ``spades.py``).

Kept apart from :mod:`tricktable.games.spades`, which is compiled with mypyc: mypyc erases
``Literal`` annotations, and the option parser reads them to know each option's valid values.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from tricktable.errors import OptionError


@dataclass(frozen=True, slots=True)
class SpadesOptions:
    """The rule options of Spades; the defaults are the common partnership game to 500."""

    target: int = field(
        default=500,
        metadata={
            "doc": "a side reaching this at the end of a hand ends the match",
            "range": (1, 10000),
        },
    )
    lose_at: int = field(
        default=-200,
        metadata={
            "doc": "a side at or below this at the end of a hand ends the match (0: never)",
            "range": (-10000, 0),
        },
    )
    nil: bool = field(default=True, metadata={"doc": "a seat may bid nil (no tricks)"})
    blind_nil: bool = field(
        default=True, metadata={"doc": "a seat may bid blind nil, before seeing its cards"}
    )
    blind_nil_behind: int = field(
        default=100,
        metadata={
            "doc": "blind nil only for a side behind by at least this (0: always)",
            "range": (0, 10000),
        },
    )
    nil_value: int = field(
        default=100, metadata={"doc": "won by a made nil, lost by a failed one", "range": (0, 1000)}
    )
    blind_nil_value: int = field(
        default=200,
        metadata={"doc": "won by a made blind nil, lost by a failed one", "range": (0, 2000)},
    )
    bags_penalty: int = field(
        default=100,
        metadata={"doc": "points lost for every 10 bags (overtricks)", "range": (0, 1000)},
    )
    break_spades: bool = field(
        default=True,
        metadata={"doc": "spades may not be led until one has been played (or only spades held)"},
    )
    first_lead: Literal["left_of_dealer", "2c"] = field(
        default="left_of_dealer",
        metadata={"doc": "who leads the first trick: left_of_dealer, or 2c (the 2C must lead)"},
    )
    players: int = field(
        default=4,
        metadata={
            "doc": "seats at the table: 4, two partnerships; 3, cut-throat, each for itself "
            "with 17 cards each (2C taken out)",
            "range": (3, 4),
            "recorded": "if changed",
        },
    )

    def __post_init__(self) -> None:
        if self.players not in (3, 4):
            raise OptionError(
                f"players {self.players}: Spades is played by 4 (partners) or 3 (cut-throat)"
            )
