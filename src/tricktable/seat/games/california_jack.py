"""California Jack and Shasta Sam at the table: their presenter (:mod:`tricktable.seat.games`)."""

from __future__ import annotations

from tricktable.cards import parse_card
from tricktable.engine.trick import View
from tricktable.games.california_jack_results import CaliforniaJackResult
from tricktable.seat.games.base import (
    HandSeen,
    Presenter,
    Seating,
    card_text,
    cards_text,
    join,
    last_result,
    line,
    suit_text,
)
from tricktable.seat.words import Words


class CaliforniaJackPresenter(Presenter):
    """California Jack: the stock that refills the hands, and the four points won in tricks."""

    def goal(self, seating: Seating) -> str:
        """The points and the target."""
        target = self.game.options.target
        return f"High, Low, Jack and Game won in tricks; first to {target} wins"

    def deal_lines(self, seating: Seating, hand: HandSeen) -> list[Words]:
        """Trump, and whether the stock lies face up."""
        if hand.trump < 0:
            return []
        face = "face up" if self.game.options.stock == "up" else "face down"
        turned = hand.opening.get("stock_top")
        shown = line("Trump: ", suit_text(hand.trump))
        if isinstance(turned, str):
            shown = line(shown, " (", card_text(parse_card(turned), hand.trumps), " turned)")
        return [line(shown, f" · the stock lies {face}")]

    def trick_note(self, points: int) -> str:
        """The trick's count toward Game."""
        return f" ({points} toward Game)" if points else ""

    def tricks_in_hand(self, view: View) -> int:
        """Every card is played: the deck shared among the seats, whatever each holds now."""
        return len(view.game.deck) // view.game.num_players

    def play_facts(self, seating: Seating, view: View) -> list[Words]:
        """The stock: how many cards are left, and its top card where all see it; the cards
        the other seats took while all saw them and still hold ("North took Q♥")."""
        info = view.info()
        left = int(info.get("stock_left") or 0)
        took = self._took(seating, view)
        if not left:
            return [Words("Stock: gone; the last tricks are played out"), *took]
        top = info.get("stock_top")
        facts = line(f"Stock: {left} cards")
        if isinstance(top, str):
            facts = line(facts, " · top ", card_text(parse_card(top), view.tables.mask))
        return [facts, *took]

    def _took(self, seating: Seating, view: View) -> list[Words]:
        """A line per other seat holding cards it took in sight of all, if any does."""
        taken = view.info().get("taken")
        if not isinstance(taken, list):
            return []
        played = view.played
        parts: list[Words] = []
        for seat, names in enumerate(taken):
            held = [c for c in map(parse_card, names) if not played >> c & 1]
            if held and seat != view.seat and seat < len(seating.names):
                parts.append(
                    line(f"{seating.names[seat]} took ", cards_text(held, view.tables.mask))
                )
        return [join(parts)] if parts else []

    def result_lines(self, seating: Seating, hand: HandSeen) -> list[Words]:
        """Who won each point, and what each side took."""
        r = last_result(hand, CaliforniaJackResult)
        if r is None:
            return super().result_lines(seating, hand)
        won = [
            f"{name.capitalize()} {seating.side_name(side) if side is not None else '—'}"
            for name, side in r.points.items()
        ]
        return [
            line(Words("Trump card: ", style="bold"), card_text(r.trump_card, hand.trumps)),
            line(Words("Points: ", style="bold"), join(won)),
            line(Words("Taken: ", style="bold"), seating.per_side(r.taken)),
        ]

    def hand_line(self, seating: Seating, hand: HandSeen) -> Words:
        """Who won each point."""
        r = last_result(hand, CaliforniaJackResult)
        if r is None:
            return super().hand_line(seating, hand)
        won = "  ".join(
            f"{name} {seating.side_name(side) if side is not None else '-'}"
            for name, side in r.points.items()
        )
        return Words(f"trump {'CDHS'[r.trump]}  {won}")
