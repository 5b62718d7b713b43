"""The rule options of Filippa: plain Python beside the compiled rules (see ``filippa.py``).

Kept apart from :mod:`tricktable.games.filippa`, which is compiled with mypyc: the option
parser reads these annotations, and a compiled module keeps none it could rely on.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tricktable.games.hearts_options import pass_cycle


@dataclass(frozen=True, slots=True)
class FilippaOptions:
    """The rule options of Filippa; the defaults are the README's game."""

    target: int = field(
        default=100,
        metadata={
            "doc": "positive points that end the match (reached: >=), checked after a round",
            "range": (1, 10000),
        },
    )
    passing: str = field(
        default="left",
        metadata={
            "doc": "pass directions, one letter per hand, cycling: l(eft) r(ight) a(cross) "
            "h(old); or one word for every hand: left, right, across, none"
        },
    )

    def __post_init__(self) -> None:
        pass_cycle(self.passing)
