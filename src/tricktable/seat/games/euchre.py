"""Euchre at the table: its presenter (see :mod:`tricktable.seat.games`)."""

from __future__ import annotations

from tricktable.engine.trick import View
from tricktable.games.euchre import DISCARD
from tricktable.games.euchre_results import EuchreResult
from tricktable.seat.games.base import (
    HandSeen,
    Presenter,
    Seating,
    card_word,
    join,
    last_result,
    line,
    per_side_words,
    side_tricks,
    side_word,
    signed,
    suit_text,
    verb,
)
from tricktable.seat.words import Words


class EuchrePresenter(Presenter):
    """Euchre: the up-card, two rounds of making trump, the dealer's discard, lone hands."""

    auction_title = "Making trump"

    def goal(self, seating: Seating) -> str:
        """First side to the target."""
        return f"first side to {self.game.options.target} wins"

    def deal_lines(self, seating: Seating, hand: HandSeen) -> list[Words]:
        """The up-card."""
        up = card_word(hand.opening.get("up_card"))
        return [line("Up-card: ", up)] if up is not None else []

    def auction_lines(self, seating: Seating, hand: HandSeen) -> list[Words]:
        """The passes and who made trump, alone or not, and the dealer's pick-up."""
        said = [self.said(seating, s, a, hand.trumps) for s, a in hand.acted]
        info = hand.facts
        maker = info.get("maker")
        if not hand.playing or not isinstance(maker, int) or hand.trump < 0:
            # thrown in (the result says so), or trump not made yet
            return [line(Words(f"{self.auction_title}: ", style="bold"), join(said))]
        names, dealer = seating.names, hand.dealer
        trump = suit_text(hand.trump)
        up = card_word(info.get("up_card")) or Words("?")
        alone = bool(info.get("alone"))
        picked_up = info.get("bidding_round") == 1 and not (alone and (maker + 2) % 4 == dealer)
        if picked_up and not any(s == dealer and a >= DISCARD for s, a in hand.acted):
            said.append(self.unseen(seating, dealer, "discard a card"))  # the dealer's alone
        out = [line(Words(f"{self.auction_title}: ", style="bold"), join(said))]
        if info.get("bidding_round") == 1:
            if maker == dealer:
                text = line(f"{verb(names[maker], 'pick')} up ", up, " (dealer): trump is ", trump)
            else:
                text = line(f"{verb(names[maker], 'order')} up ", up, ": trump is ", trump)
                if not (alone and (maker + 2) % 4 == dealer):
                    text.append(f"; {names[dealer]}, the dealer, picks it up")
        else:
            text = line(f"{verb(names[maker], 'name')} ", trump, " trump")
        if alone:
            out_seat = (maker + 2) % 4
            text.append(f"; {verb(names[maker], 'go')} alone, {names[out_seat]} sitting out")
        text.append(".")
        text.stylize("bold")
        out.append(text)
        return out

    def result_lines(self, seating: Seating, hand: HandSeen) -> list[Words]:
        """The makers' tricks: made, a march, or euchred, and the points."""
        r = last_result(hand, EuchreResult)
        if r is None:
            return super().result_lines(seating, hand)
        if r.thrown_in:
            return [Words("Everyone passed twice: the deal is thrown in; nobody scores.", "bold")]
        maker, tricks, points = r.maker, r.tricks, r.points
        if maker is None:
            return self._generic_result(seating, r)
        sides = len(tricks)
        makers = maker % sides
        took = tricks[makers]
        if sides > 2:
            # Cut-throat: the maker alone against the other two, who score alike if it fails.
            text = Words(f"{seating.names[maker]} made it alone and took {took}: ")
            if r.euchred:
                others = [seating.names[s] for s in range(sides) if s != maker]
                text.append("euchred", style="bold red")
                text.append(f"; {' and '.join(others)} score {max(points)} each.")
            else:
                text.append("a march" if took == 5 else "made", style="bold green")
                text.append(f", {signed(points[maker])}.")
            return [text]
        who = f"{seating.side_name(makers)} ({seating.names[maker]} made it"
        who += " alone)" if r.alone else ")"
        text = Words(f"{who} took {took} trick{'s' * (took != 1)}: ")
        if r.euchred:
            text.append("euchred", style="bold red")
            text.append(f"; {seating.side_name(1 - makers)} score {points[1 - makers]}.")
        else:
            word = "a march" if took == 5 else "made"
            text.append(word, style="bold green")
            text.append(f", {signed(points[makers])}.")
        return [text]

    def hand_line(self, seating: Seating, hand: HandSeen) -> Words:
        """Maker, trump, alone, and what came of it."""
        r = last_result(hand, EuchreResult)
        if r is None:
            return super().hand_line(seating, hand)
        if r.thrown_in:
            return Words("all passed twice, thrown in")
        maker, tricks = r.maker, r.tricks
        if maker is None:
            return super().hand_line(seating, hand)
        trump = r.trump
        how = "ordered up" if r.bidding_round == 1 else "named"
        out = Words(f"{seating.names[maker]:<5} {how:<10} ")
        out.append_text(suit_text(trump, short=True) if trump is not None else Words("?"))
        out.append(" alone" if r.alone else "      ")
        out.append(": ")
        took = tricks[maker % len(tricks)]
        if r.euchred:
            out.append("euchred", style="red")
        else:
            out.append("march  " if took == 5 else "made   ", style="green")
        out.append(f"  makers took {took}")
        return out

    def phase_title(self, seating: Seating, view: View) -> str:
        """The round of making trump, or the discard."""
        if view.to_dict()["phase"] == "discard":
            return "Discard one card (the dealer took the up-card)"
        return f"Making trump, round {view.info().get('bidding_round', 1)}"

    def bidding_facts(self, seating: Seating, view: View) -> list[Words]:
        """The up-card, the dealer, and what the second round allows."""
        info = view.info()
        up = card_word(info.get("up_card"))
        facts: list[Words] = []
        if up is not None:
            turned = info.get("bidding_round") == 2
            facts.append(line("up-card ", up, " (turned down)" if turned else ""))
        facts.append(Words(f"{seating.names[view.dealer]} dealt"))
        return facts

    def play_facts(self, seating: Seating, view: View) -> list[Words]:
        """Who made trump, alone or not, and the tricks so far."""
        info = view.info()
        maker = info.get("maker")
        facts: list[Words] = []
        if isinstance(maker, int):
            alone = " alone" if info.get("alone") else ""
            facts.append(Words(f"{seating.names[maker]} made trump{alone}"))
        facts.append(Words("tricks " + seating.per_side(side_tricks(seating, view))))
        return facts

    def _tally(self, seating: Seating, view: View) -> list[Words]:
        """Who made trump (alone or not), the tricks of each side, what the makers still need."""
        info = view.info()
        maker = info.get("maker")
        if not isinstance(maker, int) or not seating.partners:
            out = [Words("Trump not made yet", style="bold")]
            up = card_word(info.get("up_card"))
            if up is not None:
                turned = info.get("bidding_round") == 2
                out.append(line("Up-card: ", up, " (turned down)" if turned else ""))
            return out
        makers = maker & 1
        ours = side_word(seating, view.seat, makers)
        alone = ", alone" if info.get("alone") else ""
        won = side_tricks(seating, view)
        took, against = won[makers], won[1 - makers]
        tricks = per_side_words(seating, view.seat, won)
        out = [
            Words(f"Makers: {ours} ({seating.names[maker]}{alone})"),
            Words(f"Tricks: {tricks}"),
        ]
        if took == 5:
            out.append(Words("A march: all five tricks", style="bold green"))
        elif took >= 3:
            rest = ", a march still open" if not against else ""
            out.append(Words(f"Made{rest}", style="green"))
        elif against >= 3:
            out.append(Words("Euchred!", style="bold red"))
        else:
            out.append(Words(f"Makers need {3 - took} more of {5 - took - against}"))
        return out
