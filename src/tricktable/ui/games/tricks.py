"""Tricks (seed 002) at the table: its presenter (see :mod:`tricktable.ui.games`)."""

from __future__ import annotations

from rich.text import Text

from tricktable.engine.trick import TrickState, View
from tricktable.ui.games.base import (
    Presenter,
    Seating,
    _ints,
    line,
    verb,
)


class TricksPresenter(Presenter):
    """Tricks: a point a trick; a bad card costs points and throws the hand in."""

    def goal(self, seating: Seating) -> str:
        """A point a trick, to the target."""
        target = self.game.options.target
        return f"a point a trick; the first to {target} wins at once"

    def deal_lines(self, seating: Seating, state: TrickState) -> list[Text]:
        """No trump; who leads."""
        leader = state.view(0).info().get("leader")
        first = seating.names[leader] if isinstance(leader, int) else "?"
        return [Text(f"No trump · {verb(first, 'lead')}")]

    def auction_lines(self, seating: Seating, state: TrickState) -> list[Text]:
        """No bidding (a bad card shows in the result)."""
        return []

    def result_lines(self, seating: Seating, state: TrickState) -> list[Text]:
        """Tricks per seat, or the bad card that threw the hand in."""
        r = state.results[-1]
        tricks = _ints(r.get("tricks"), 4)
        if tricks is None:
            return self._generic_result(seating, r)
        out = [line(Text("Tricks: ", style="bold"), seating.per_seat(tricks))]
        bad = r.get("bad_card")
        if isinstance(bad, int) and 0 <= bad < 4:
            penalty = self.game.options.bad_card_penalty
            out.append(
                Text(
                    f"{verb(seating.names[bad], 'play')} a bad card: -{penalty}; the hand is "
                    "thrown in and dealt again.",
                    style="bold red",
                )
            )
        return out

    def hand_line(self, seating: Seating, state: TrickState) -> Text:
        """Tricks per seat, or the bad card."""
        r = state.results[-1]
        tricks = _ints(r.get("tricks"), 4)
        if tricks is None:
            return super().hand_line(seating, state)
        out = Text("tricks " + " ".join(f"{t:>2}" for t in tricks))
        bad = r.get("bad_card")
        if isinstance(bad, int) and 0 <= bad < 4:
            out.append(f"  bad card by {seating.names[bad]}, thrown in", style="red")
        return out

    def play_facts(self, seating: Seating, view: View) -> list[Text]:
        """Tricks so far this hand."""
        return [Text("tricks " + seating.per_seat(view.tricks_won))]
