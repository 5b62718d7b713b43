"""Oh Hell at the table: its presenter (see :mod:`tricktable.seat.games`)."""

from __future__ import annotations

from tricktable.engine.trick import View
from tricktable.games.oh_hell_results import OhHellResult
from tricktable.seat.games.base import (
    HandSeen,
    Presenter,
    Seating,
    _bid_word,
    capital,
    card_word,
    last_result,
    line,
    seats_from,
    side_word,
    signed,
    suit_text,
)
from tricktable.seat.words import Words


class OhHellPresenter(Presenter):
    """Oh Hell: the hand size, the trump card, exact bids."""

    auction_title = "Bids"

    def goal(self, seating: Seating) -> str:
        """The sequence of hands; the highest total wins."""
        opts = self.game.options
        top = opts.max_cards
        sizes = getattr(self.game, "sizes", ())
        how = {
            "down-up": f"{top} cards down to 1 and back up",
            "up-down": f"1 card up to {top} and back down",
            "down": f"{top} cards down to 1",
            "up": f"1 card up to {top}",
        }.get(opts.sequence, opts.sequence)
        return f"{len(sizes)} hands, {how}; exact bids score; the highest total wins"

    def deal_lines(self, seating: Seating, hand: HandSeen) -> list[Words]:
        """The hand size and the trump card."""
        size = hand.opening.get("hand_size")
        if type(size) is not int:
            return super().deal_lines(seating, hand)
        head = Words(f"{size} card{'s' * (size != 1)} each · ")
        up = card_word(hand.opening.get("up_card"))
        if up is not None and hand.trump >= 0:
            return [line(head, "trump card ", up, ": trump is ", suit_text(hand.trump))]
        return [line(head, "no trump card: no trump")]

    def auction_lines(self, seating: Seating, hand: HandSeen) -> list[Words]:
        """The bids in order, and their total against the tricks."""
        bids = hand.facts.get("bids")
        size = hand.opening.get("hand_size")
        n = self.game.num_players
        if not isinstance(bids, list) or len(bids) != n or None in bids or type(size) is not int:
            return super().auction_lines(seating, hand)
        order = [(hand.dealer + 1 + i) % n for i in range(n)]
        said = " · ".join(f"{seating.names[s]} {bids[s]}" for s in order)
        total = sum(bids)
        how = "over" if total > size else "under"
        note = f" — {total} bid for {size} trick{'s' * (size != 1)} ({how})"
        return [line(Words("Bids: ", style="bold"), said, Words(note, style="dim"))]

    def result_lines(self, seating: Seating, hand: HandSeen) -> list[Words]:
        """Each seat's bid against its tricks, exact or not, and its points."""
        r = last_result(hand, OhHellResult)
        if r is None:
            return super().result_lines(seating, hand)
        bids, tricks, points = r.bids, r.tricks, r.points
        row = Words("Bid/took: ", style="bold")
        n = len(bids)
        for s in range(n):
            if s:
                row.append(" · ")
            hit = bids[s] == tricks[s]
            row.append(f"{seating.names[s]} {bids[s]}/{tricks[s]} ")
            row.append("✓" if hit else "✗", style="green" if hit else "red")
            row.append(f" {signed(points[s])}")
        exact = [seating.names[s] for s in range(n) if bids[s] == tricks[s]]
        return [row, Words("Exact: " + (", ".join(exact) if exact else "nobody"))]

    def hand_line(self, seating: Seating, hand: HandSeen) -> Words:
        """Hand size, trump, bids against tricks."""
        r = last_result(hand, OhHellResult)
        if r is None:
            return super().hand_line(seating, hand)
        bids, tricks = r.bids, r.tricks
        out = Words(f"{r.hand_size:>2} cards ")
        trump = r.trump
        out.append_text(suit_text(trump, short=True) if trump is not None else Words("-"))
        pairs = " ".join(f"{b}/{t}" for b, t in zip(bids, tricks, strict=True))
        exact = sum(b == t for b, t in zip(bids, tricks, strict=True))
        out.append(f"  bid/took {pairs}  exact {exact}")
        return out

    def phase_title(self, seating: Seating, view: View) -> str:
        """The bid: exactly the tricks you will take."""
        return "Bidding: exactly the tricks you will take"

    def bidding_facts(self, seating: Seating, view: View) -> list[Words]:
        """Hand size, trump, bids so far."""
        info = view.info()
        facts: list[Words] = [Words(f"{info.get('hand_size', '?')} cards")]
        up = card_word(info.get("up_card"))
        if up is not None and view.trump >= 0:
            facts.append(line("trump ", suit_text(view.trump, short=True), " (", up, ")"))
        else:
            facts.append(Words("no trump"))
        bids = info.get("bids")
        if isinstance(bids, list):
            total = sum(b for b in bids if isinstance(b, int))
            facts.append(Words(f"bids so far total {total}"))
        return facts

    def play_facts(self, seating: Seating, view: View) -> list[Words]:
        """Bids against tricks so far."""
        bids = view.info().get("bids")
        if isinstance(bids, list) and len(bids) == 4:
            pairs = [f"{_bid_word(b)}/{t}" for b, t in zip(bids, view.tricks_won, strict=True)]
            return [Words("bid/took " + seating.per_seat(pairs))]
        return []

    def _tally(self, seating: Seating, view: View) -> list[Words]:
        """Each seat's bid against its tricks so far, and the bids' total against the tricks."""
        info = view.info()
        bids = info.get("bids")
        if not isinstance(bids, list) or len(bids) != len(seating.names):
            return self._tricks_tally(seating, view)
        won = view.tricks_won
        out = []
        for seat in seats_from(view.seat, len(bids)):
            bid, took = bids[seat], won[seat]
            text = Words(f"{capital(side_word(seating, view.seat, seat))}: ")
            if not isinstance(bid, int):
                text.append("no bid yet")
            else:
                text.append(f"bid {bid}, took {took}")
                if took > bid:
                    text.append(" (over)", style="red")
                elif took == bid:
                    text.append(" (exact)", style="green")
            out.append(text)
        size = info.get("hand_size")
        if type(size) is int and all(isinstance(b, int) for b in bids):
            total = sum(bids)
            how = "over" if total > size else "under" if total < size else "even"
            out.append(Words(f"Bids {total} for {size} trick{'s' * (size != 1)} ({how})", "dim"))
        return out
