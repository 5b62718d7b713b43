"""The rule options of All Fours (Seven Up, Old Sledge, Trinidad's All Fours): one frozen
dataclass, kept apart from the compiled rules module (mypyc erases ``Literal`` annotations, and
the option parser reads them to know each option's valid values).

The defaults are the four-hand partnership game of the American books (Foster's Complete
Hoyle, "All Fours, Seven-Up, or Old Sledge"): the dealer turns up trump and kicks a jack for a
point, the eldest hand stands or begs, the dealer gives one or runs the cards, High and Low to
the players dealt them, Jack to its captor, Game on the card points, to 7.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from tricktable.cards import RANKS
from tricktable.errors import OptionError
from tricktable.games.seating import check_partners, read_partners


def read_kick(text: str) -> dict[int, int]:
    """Read the ``kick`` option: ``J=1`` or ``A=1,6=2,J=3`` -> {rank index: points}.

    ``none`` (or nothing) kicks nothing. Ranks are written as cards write them (2-9, T, J, Q,
    K, A; ``10`` for T).
    """
    out: dict[int, int] = {}
    word = text.replace(" ", "").upper()
    if word in ("", "NONE"):
        return out
    for item in word.split(","):
        rank, eq, value = item.partition("=")
        rank = "T" if rank == "10" else rank
        if not eq or len(rank) != 1 or rank not in RANKS:
            raise OptionError(
                f"bad kick {item!r}: write RANK=POINTS, comma-separated (e.g. A=1,6=2,J=3)"
            )
        try:
            points = int(value)
        except ValueError:
            raise OptionError(f"bad kick {item!r}: the points must be a whole number") from None
        if not 0 <= points <= 10:
            raise OptionError(f"bad kick {item!r}: the points must be 0..10")
        out[RANKS.index(rank)] = points
    return out


@dataclass(frozen=True, slots=True)
class AllFoursOptions:
    """The rule options of All Fours; the defaults are the four-hand partnership Seven Up."""

    target: int = field(
        default=7, metadata={"doc": "points that win the match (see count_out)", "range": (1, 1000)}
    )
    players: int = field(default=4, metadata={"doc": "seats at the table", "range": (2, 6)})
    partners: bool | str = field(
        default=True,
        metadata={
            "doc": "true: two sides sitting alternately (0+2 v 1+3); false: each for itself; "
            "SIDESxSIZE, e.g. 3x2: three sides of two at six seats",
            "values": "true | false | SIDESxSIZE (2x2, 3x2, 2x3)",
            "read": read_partners,
        },
    )
    direction: Literal["left", "right"] = field(
        default="left",
        metadata={
            "doc": "the turn and the deal pass to the left (clockwise) or to the right "
            "(Trinidad); the eldest hand sits next to the dealer that way"
        },
    )
    begging: bool = field(
        default=True,
        metadata={
            "doc": "the eldest hand may beg (refuse the turned-up suit); false: it always stands"
        },
    )
    gift: int = field(
        default=1,
        metadata={
            "doc": "points the dealer gives each other side to keep the turned-up suit when begged",
            "range": (1, 10),
        },
    )
    gift_wins: bool = field(
        default=True,
        metadata={
            "doc": "the dealer may give a gift that brings a side to the target; false: the "
            "dealer must then run the cards"
        },
    )
    run_cards: Literal["until-new-suit", "once"] = field(
        default="until-new-suit",
        metadata={
            "doc": "running the cards deals three more each and turns a new card, again while "
            "it is of the refused suit (until-new-suit), or once whatever it turns (once)"
        },
    )
    kick: str = field(
        default="J=1",
        metadata={
            "doc": "points the dealer's side scores at once when the card turned up to name "
            "trump is of these ranks: RANK=N,... (Trinidad: A=1,6=2,J=3; none for no kick)",
            "values": "none | RANK=N,... (e.g. J=1 or A=1,6=2,J=3)",
        },
    )
    low_to: Literal["dealt", "captured"] = field(
        default="dealt",
        metadata={"doc": "Low goes to the side that was dealt it, or that captures it"},
    )
    hang_jack: int = field(
        default=1,
        metadata={
            "doc": "points for the jack of trump when captured by an opponent of the side "
            "dealt it (Trinidad's hang jack: 3); otherwise it scores 1 to its captor",
            "range": (1, 10),
        },
    )
    game_tie: Literal["none", "eldest"] = field(
        default="none",
        metadata={
            "doc": "a tie for Game gives it to nobody, or to the tied side nearest the eldest "
            "hand (the non-dealer in two-hand)"
        },
    )
    count_out: bool = field(
        default=True,
        metadata={
            "doc": "the first side to reach the target wins at once, the points counting in "
            "order kick, gift, High, Low, Jack, Game; false: after the hand, the one top "
            "score at or above the target wins (a tie plays on)"
        },
    )
    may_trump: bool = field(
        default=True,
        metadata={"doc": "a player may trump even when able to follow suit (false: must follow)"},
    )

    def __post_init__(self) -> None:
        object.__setattr__(self, "partners", check_partners(self.partners, self.players))
        read_kick(self.kick)
