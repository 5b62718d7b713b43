"""The rule options of Tricks: plain Python beside the compiled rules (see ``tricks.py``).

Kept apart from :mod:`tricktable.games.tricks`, which is compiled with mypyc: the option parser
reads these annotations, and a compiled module keeps none it could rely on.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class TricksOptions:
    """The rule options of Tricks; the defaults are the seed's rules."""

    target: int = field(
        default=1000,
        metadata={
            "doc": "points that end the match at once, mid-hand if need be",
            "range": (1, 1000000),
        },
    )
    bad_card_penalty: int = field(
        default=100,
        metadata={
            "doc": "points a seat loses for a bad card (the hand is then redealt)",
            "range": (0, 1000000),
        },
    )
    players: int = field(
        default=4,
        metadata={
            "doc": "seats at the table, each for itself (52 // players cards each; the rest "
            "stay undealt)",
            "range": (3, 7),
            "recorded": "if changed",
        },
    )
