"""All Fours, Seven Up and Trinidad's All Fours at the table: their presenter (see
:mod:`tricktable.seat.games`)."""

from __future__ import annotations

from tricktable.cards import parse_card
from tricktable.engine.trick import View
from tricktable.games.all_fours import POINT_ORDER
from tricktable.games.all_fours_results import AllFoursResult
from tricktable.seat.games.base import (
    HandSeen,
    Presenter,
    Seating,
    card_text,
    join,
    last_result,
    line,
    suit_text,
)
from tricktable.seat.words import Words


class AllFoursPresenter(Presenter):
    """All Fours: the up-card and its kick, begging and running, the four points."""

    def goal(self, seating: Seating) -> str:
        """The points and the target."""
        return f"High, Low, Jack and Game; first to {self.game.options.target} wins"

    def deal_lines(self, seating: Seating, hand: HandSeen) -> list[Words]:
        """The card turned up, which proposes trump."""
        up = hand.opening.get("up_card")
        if not isinstance(up, str):
            return []
        return [line("Turned up: ", card_text(parse_card(up)))]

    def auction_lines(self, seating: Seating, hand: HandSeen) -> list[Words]:
        """The begging, and the card the run turned up (it named trump)."""
        lines = super().auction_lines(seating, hand)
        first, last = hand.opening.get("up_card"), hand.facts.get("up_card")
        if lines and isinstance(last, str) and last != first:
            runs = int(hand.facts.get("runs") or 0)
            ran = "once" if runs == 1 else f"{runs} times"
            turned = card_text(parse_card(last), hand.trumps)
            lines.append(line(f"The cards were run {ran}; turned up: ", turned))
        return lines

    def trick_note(self, points: int) -> str:
        """The trick's count toward Game."""
        return f" ({points} toward Game)" if points else ""

    def play_facts(self, seating: Seating, view: View) -> list[Words]:
        """The up-card, how often the cards were run, what the kick and gift gave."""
        info = view.info()
        up = info.get("up_card")
        facts = []
        if isinstance(up, str):
            fact = line("Up-card: ", card_text(parse_card(up), view.tables.mask))
            runs = int(info.get("runs") or 0)
            if runs:
                fact = line(fact, f" · the cards were run {runs}×")
            facts.append(fact)
        gained = info.get("gained") or []
        if any(gained):
            facts.append(line("Kick and gift so far: ", seating.per_side(gained)))
        return facts

    def result_lines(self, seating: Seating, hand: HandSeen) -> list[Words]:
        """Trump, who won each point, and what each side gained."""
        r = last_result(hand, AllFoursResult)
        if r is None:
            return super().result_lines(seating, hand)
        if r.thrown_in:
            return [Words("The stock ran out: the deal is thrown in and dealt again.")]
        trump = r.trump if r.trump is not None else -1
        won = [f"{name.capitalize()} {_who(seating, r, name, '—')}" for name in POINT_ORDER]
        how = "stood" if not r.begged else "given" if r.gave else f"run {r.runs}×"
        out = [line(Words("Trump: ", style="bold"), suit_text(trump), f" ({how})")]
        out.append(line(Words("Points: ", style="bold"), join(won)))
        if r.hanged:
            out.append(Words("The jack was hanged."))
        out.append(line(Words("Gained: ", style="bold"), seating.per_side(r.gained)))
        return out

    def hand_line(self, seating: Seating, hand: HandSeen) -> Words:
        """Trump, how it was settled, and who won each point."""
        r = last_result(hand, AllFoursResult)
        if r is None:
            return super().hand_line(seating, hand)
        if r.thrown_in:
            return Words(f"thrown in after {r.runs} runs")
        how = "stood" if not r.begged else "given" if r.gave else f"run {r.runs}"
        won = "  ".join(f"{name} {_who(seating, r, name, '-')}" for name in POINT_ORDER)
        trump = "CDHS"[r.trump] if r.trump is not None else "-"
        return Words(f"trump {trump} ({how})  {won}  gained {seating.per_side(r.gained)}")


def _who(seating: Seating, result: AllFoursResult, name: str, none: str) -> str:
    """The side that earned the point ``name``, or ``none``."""
    side = result.points.get(name)
    return seating.side_name(side) if side is not None else none
