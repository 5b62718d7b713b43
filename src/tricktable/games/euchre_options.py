"""The rule options of Euchre: plain Python beside the compiled rules (see ``euchre.py``).

Kept apart from :mod:`tricktable.games.euchre`, which is compiled with mypyc: the option parser
reads these annotations, and a compiled module keeps none it could rely on.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tricktable.errors import OptionError


@dataclass(frozen=True, slots=True)
class EuchreOptions:
    """The rule options of Euchre; the defaults are standard North American Euchre."""

    target: int = field(
        default=10, metadata={"doc": "points that win the match", "range": (1, 1000)}
    )
    stick_the_dealer: bool = field(
        default=True,
        metadata={
            "doc": "the dealer must name trump when the second round comes round "
            "(false: if all pass the hand is thrown in and the next dealer deals)"
        },
    )
    alone: bool = field(
        default=True,
        metadata={"doc": "the maker may go alone, the partner sitting out (a march scores 4)"},
    )
    players: int = field(
        default=4,
        metadata={
            "doc": "seats at the table: 4, two partnerships; 3, cut-throat: the maker plays "
            "alone against the other two (3-4 tricks 1, all five 3, euchred: 2 to each of "
            "the others)",
            "range": (3, 4),
            "recorded": "if changed",
        },
    )

    def __post_init__(self) -> None:
        if self.players not in (3, 4):
            raise OptionError(
                f"players {self.players}: Euchre is played by 4 (partners) or 3 (cut-throat)"
            )
