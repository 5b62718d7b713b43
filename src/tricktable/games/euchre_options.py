"""The rule options of Euchre: plain Python beside the compiled rules (see ``euchre.py``).

Kept apart from :mod:`tricktable.games.euchre`, which is compiled with mypyc: the option parser
reads these annotations, and a compiled module keeps none it could rely on.
"""

from __future__ import annotations

from dataclasses import dataclass, field


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
