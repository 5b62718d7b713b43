"""Tricks (seed 002) at the table: its presenter (see :mod:`tricktable.seat.games`)."""

from __future__ import annotations

from tricktable.engine.trick import View
from tricktable.games.tricks_results import TricksResult
from tricktable.seat.games.base import (
    HandSeen,
    Presenter,
    Seating,
    last_result,
    line,
    verb,
)
from tricktable.seat.words import Words


class TricksPresenter(Presenter):
    """Tricks: a point a trick; a bad card costs points and throws the hand in."""

    def goal(self, seating: Seating) -> str:
        """A point a trick, to the target."""
        target = self.game.options.target
        return f"a point a trick; the first to {target} wins at once"

    def deal_lines(self, seating: Seating, hand: HandSeen) -> list[Words]:
        """No trump; who leads."""
        leader = hand.opening.get("leader")
        first = seating.names[leader] if isinstance(leader, int) else "?"
        return [Words(f"No trump · {verb(first, 'lead')}")]

    def auction_lines(self, seating: Seating, hand: HandSeen) -> list[Words]:
        """No bidding (a bad card shows in the result)."""
        return []

    def result_lines(self, seating: Seating, hand: HandSeen) -> list[Words]:
        """Tricks per seat, or the bad card that threw the hand in."""
        r = last_result(hand, TricksResult)
        if r is None:
            return super().result_lines(seating, hand)
        out = [line(Words("Tricks: ", style="bold"), seating.per_seat(r.tricks))]
        bad = r.bad_card
        if bad is not None:
            penalty = self.game.options.bad_card_penalty
            out.append(
                Words(
                    f"{verb(seating.names[bad], 'play')} a bad card: -{penalty}; the hand is "
                    "thrown in and dealt again.",
                    style="bold red",
                )
            )
        return out

    def hand_line(self, seating: Seating, hand: HandSeen) -> Words:
        """Tricks per seat, or the bad card."""
        r = last_result(hand, TricksResult)
        if r is None:
            return super().hand_line(seating, hand)
        out = Words("tricks " + " ".join(f"{t:>2}" for t in r.tricks))
        bad = r.bad_card
        if bad is not None:
            out.append(f"  bad card by {seating.names[bad]}, thrown in", style="red")
        return out

    def play_facts(self, seating: Seating, view: View) -> list[Words]:
        """Tricks so far this hand."""
        return [Words("tricks " + seating.per_seat(view.tricks_won))]
