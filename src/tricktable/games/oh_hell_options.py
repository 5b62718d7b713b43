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
        default=13, metadata={"doc": "the largest hand of the sequence", "range": (1, 13)}
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

    def __post_init__(self) -> None:
        if not 1 <= self.max_cards <= 13:
            raise OptionError(f"max_cards {self.max_cards} must be from 1 to 13")
