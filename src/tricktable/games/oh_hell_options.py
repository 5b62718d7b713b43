"""The rule options of Oh Hell: plain Python beside the compiled rules (see ``oh_hell.py``).

Kept apart from :mod:`tricktable.games.oh_hell`, which is compiled with mypyc: mypyc erases
``Literal`` annotations, and the option parser reads them to know each option's valid values.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from tricktable.errors import OptionError

HandSequence = Literal["down-up", "up-down", "down", "up"]
Scoring = Literal["standard", "basic", "minus"]


@dataclass(frozen=True, slots=True)
class OhHellOptions:
    """The rule options of Oh Hell."""

    sequence: HandSequence = field(
        default="down-up",
        metadata={
            "doc": "hand sizes: down-up max..1..max, up-down 1..max..1, down max..1, up 1..max"
        },
    )
    max_cards: int = field(
        default=13,
        metadata={
            "doc": "the largest hand of the sequence (13, the default, means as many as the "
            "deck allows: 52 // players from five seats up)",
            "range": (1, 13),
        },
    )
    hook: bool = field(
        default=True,
        metadata={"doc": "the dealer may not bid so that the bids total the tricks"},
    )
    scoring: Scoring = field(
        default="standard",
        metadata={
            "doc": "standard: 10 + bid if exact, else 0; basic: 1 per trick + 10 if exact; "
            "minus: 10 + bid if exact, else minus the tricks missed by"
        },
    )

    players: int = field(
        default=4,
        metadata={
            "doc": "seats at the table, each for itself",
            "range": (3, 7),
            "recorded": "if changed",
        },
    )

    def __post_init__(self) -> None:
        if not 1 <= self.max_cards <= 13:
            raise OptionError(f"max_cards {self.max_cards} must be from 1 to 13")
        if not 3 <= self.players <= 7:
            raise OptionError(f"players {self.players} must be from 3 to 7")
        most = 52 // self.players
        if self.max_cards == 13 and most < 13:
            # The default asks for the largest hand the deck allows at this table.
            object.__setattr__(self, "max_cards", most)
        elif self.max_cards > most:
            raise OptionError(
                f"max_cards {self.max_cards} at {self.players} seats needs "
                f"{self.players * self.max_cards} cards; the deck has 52 (at most {most} each)"
            )
