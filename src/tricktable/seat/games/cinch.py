"""Cinch and its relatives at the table: its presenter (see :mod:`tricktable.seat.games`)."""

from __future__ import annotations

from collections.abc import Sequence

from tricktable.engine.trick import View
from tricktable.games.cinch_results import CinchResult
from tricktable.seat.games.base import (
    HandSeen,
    Presenter,
    Seating,
    last_result,
    line,
    suit_text,
    verb,
)
from tricktable.seat.words import Words


class CinchPresenter(Presenter):
    """Cinch: the bid, the trump named, the points each side took, made or set back."""

    auction_title = "Bidding"

    def goal(self, seating: Seating) -> str:
        """How the match is won, in words."""
        opts = self.game.options
        if opts.bidder_out:
            return f"first to {opts.target} wins; the bidder goes out first"
        return f"the top score once someone reaches {opts.target} wins"

    def win_reason(self, seating: Seating, winner: int, scores: Sequence[int]) -> str:
        """Why a side without the top score won: the bidders went out first."""
        others = [score for side, score in enumerate(scores) if side != winner]
        if not others or scores[winner] > max(others):
            return ""
        return (
            f"Several reached {self.game.options.target} in the same hand: the bidding side"
            " goes out first."
        )

    def value_text(self, seating: Seating, key: str, value: object) -> Words:
        """A fact for people: the bidder and the high bidder by name, the rest as usual."""
        names = seating.names
        if key in ("bidder", "high_bidder") and isinstance(value, int) and 0 <= value < len(names):
            return Words(names[value])
        return super().value_text(seating, key, value)

    def tricks_in_hand(self, view: View) -> int:
        """The tricks of the hand: the cards each holds for the play (not those dealt)."""
        return int(self.game.options.play_size)

    def result_lines(self, seating: Seating, hand: HandSeen) -> list[Words]:
        """The contract, trump, the points by side, and whether the bid was made."""
        r = last_result(hand, CinchResult)
        if r is None:
            return super().result_lines(seating, hand)
        if r.thrown_in or r.bidder is None or r.trump is None:
            return [Words("Everyone passed: the deal is thrown in.", style="bold")]
        bidder = seating.names[r.bidder]
        out = [line(f"{verb(bidder, 'bid')} {r.bid} in ", suit_text(r.trump))]
        points = [
            f"{name.replace('_', ' ')} {seating.side_name(side)}"
            for name, side in r.points.items()
            if side is not None
        ]
        if points:
            out.append(line(Words("Points: ", style="bold"), " · ".join(points)))
        out.append(line(Words("Taken: ", style="bold"), seating.per_side(r.taken)))
        outcome = "made the bid" if r.made else f"set back {r.bid}"
        out.append(Words(f"{bidder}: {outcome}", style="bold" if r.made else "bold red"))
        return out

    def hand_line(self, seating: Seating, hand: HandSeen) -> Words:
        """The contract, what each side took, made or set."""
        r = last_result(hand, CinchResult)
        if r is None:
            return super().hand_line(seating, hand)
        if r.thrown_in or r.bidder is None:
            return Words("thrown in")
        made = "made" if r.made else "set"
        taken = " ".join(str(t) for t in r.taken)
        return Words(f"{seating.names[r.bidder]} bid {r.bid} {made}  taken {taken}")
