"""Spades at the table: its presenter (see :mod:`tricktable.seat.games`)."""

from __future__ import annotations

from tricktable.engine.trick import View
from tricktable.games.spades_results import SpadesResult
from tricktable.seat.games.base import (
    HandSeen,
    Presenter,
    Seating,
    _bid_word,
    _ints,
    capital,
    last_result,
    line,
    per_side_words,
    seats_from,
    side_of,
    side_word,
    signed,
)
from tricktable.seat.words import Words


class SpadesPresenter(Presenter):
    """Spades: blind nil, bids, nils, contracts, bags."""

    auction_title = "Bids"

    def goal(self, seating: Seating) -> str:
        """The target, and the floor."""
        opts = self.game.options
        text = f"first side to {opts.target} wins"
        if opts.lose_at:
            text += f"; a side at {opts.lose_at} or below loses"
        return text

    def deal_lines(self, seating: Seating, hand: HandSeen) -> list[Words]:
        """Spades are trump; who may bid blind nil."""
        out = [Words("Spades are trump.")]
        offered = hand.opening.get("blind_nil_offered")
        if isinstance(offered, list) and any(offered):
            sides = sorted({self.game.team_of(s) for s, ok in enumerate(offered) if ok})
            who = " and ".join(seating.side_name(t) for t in sides)
            out.append(Words(f"Blind nil is open to {who}."))
        return out

    def auction_lines(self, seating: Seating, hand: HandSeen) -> list[Words]:
        """The bids, and each side's contract."""
        bids = hand.facts.get("bids")
        n = self.game.num_players
        if not isinstance(bids, list) or len(bids) != n:
            return super().auction_lines(seating, hand)
        order = [(hand.dealer + 1 + i) % n for i in range(n)]
        said = [f"{seating.names[s]} {_bid_word(bids[s])}" for s in order]
        out = [line(Words("Bids: ", style="bold"), " · ".join(said))]
        if seating.partners:
            sides = []
            for t in range(2):
                own = [bids[t], bids[t + 2]]
                contract = sum(b for b in own if isinstance(b, int))
                nils = [
                    f"{seating.names[s]} {_bid_word(bids[s])}"
                    for s in (t, t + 2)
                    if not isinstance(bids[s], int) or bids[s] == 0
                ]
                note = f" ({', '.join(nils)})" if nils else ""
                sides.append(f"{seating.side_name(t)} {contract}{note}")
            out.append(Words("Contracts: " + " · ".join(sides), style="bold"))
        return out

    def result_lines(self, seating: Seating, hand: HandSeen) -> list[Words]:
        """Bids against tricks, each side made or set, nils, bags."""
        r = last_result(hand, SpadesResult)
        if r is None:
            return super().result_lines(seating, hand)
        bids, tricks, contracts, made = r.bid_texts(), r.tricks, r.contracts, r.made
        pairs = seating.per_seat([f"{_bid_word(b)}/{t}" for b, t in zip(bids, tricks, strict=True)])
        out = [line(Words("Bid/took: ", style="bold"), pairs)]
        n, sides = len(tricks), len(contracts)
        for t in range(sides):
            side = range(t, n, sides)  # partners, or (cut-throat) the seat alone
            took = sum(tricks[s] for s in side)
            text = Words(f"{seating.side_name(t)}: ")
            if made[t] is None:
                text.append("no contract")
            else:
                text.append(f"bid {contracts[t]}, took {took}: ")
                ok = bool(made[t])
                text.append("made" if ok else "set", style="bold green" if ok else "bold red")
            for nil in r.nils:
                if nil.seat in side:
                    kind = "blind nil" if nil.blind else "nil"
                    state_word = "made" if nil.made else "failed"
                    text.append(f"; {seating.names[nil.seat]}'s {kind} {state_word}")
            penalty = r.bag_penalties[t]
            if penalty:
                text.append(f"; 10 bags: {penalty}")
            text.append(f"; {signed(r.points[t])}.")
            out.append(text)
        out.append(Words(f"Bags: {seating.per_side(r.bags)}", style="dim"))
        return out

    def hand_line(self, seating: Seating, hand: HandSeen) -> Words:
        """Bids against tricks, and the points of each side."""
        r = last_result(hand, SpadesResult)
        if r is None:
            return super().hand_line(seating, hand)
        bids, tricks, points = r.bid_texts(), r.tricks, r.points
        short = {"nil": "n", "blind-nil": "bn"}
        pairs = " ".join(
            f"{short.get(str(b), str(b)):>2}/{t:<2}" for b, t in zip(bids, tricks, strict=True)
        )
        out = Words(f"bid/took {pairs}  points {' '.join(f'{p:+4d}' for p in points)}")
        out.append(f"  bags {' '.join(str(b) for b in r.bags)}")
        return out

    def phase_title(self, seating: Seating, view: View) -> str:
        """Blind nil first, then the bid."""
        if view.to_dict()["phase"] == "blind":
            return "Blind nil? Bid it before looking at your cards, or look"
        return "Bidding: tricks you and your partner will take (nil: none for you)"

    def bidding_facts(self, seating: Seating, view: View) -> list[Words]:
        """The bags each side carries (the bids so far are listed already)."""
        info = view.info()
        facts: list[Words] = []
        bags = _ints(info.get("bags"), 2)
        if bags is not None and seating.partners:
            facts.append(Words("bags " + seating.per_side(bags)))
        return facts

    def play_facts(self, seating: Seating, view: View) -> list[Words]:
        """Bids against tricks so far, spades broken."""
        info = view.info()
        facts: list[Words] = []
        bids = info.get("bids")
        won = view.tricks_won
        if isinstance(bids, list) and len(bids) == 4:
            pairs = [f"{_bid_word(b)}/{t}" for b, t in zip(bids, won, strict=True)]
            facts.append(Words("bid/took " + seating.per_seat(pairs)))
        if info.get("spades_broken") is not None:
            facts.append(Words("spades broken" if info["spades_broken"] else "spades not broken"))
        return facts

    def _tally(self, seating: Seating, view: View) -> list[Words]:
        """Each side's bid against the tricks that count for it, the nils, the bags so far."""
        if not seating.partners:
            return self._tricks_tally(seating, view)
        info = view.info()
        bids = info.get("bids")
        if not isinstance(bids, list) or len(bids) != 4:
            return self._tricks_tally(seating, view)
        won = view.tricks_won
        carried = _ints(info.get("bags"), 2) or [0, 0]
        sides: list[Words] = []
        nils: list[Words] = []
        bags = list(carried)
        for side in seats_from(side_of(seating, view.seat), 2):
            seats = (side, side + 2)
            who = capital(side_word(seating, view.seat, side))
            # As score_team counts: a nil's tricks are bags, the others' go to the contract.
            numbers = [bids[s] for s in seats if isinstance(bids[s], int) and bids[s] > 0]
            took = sum(won[s] for s in seats if isinstance(bids[s], int) and bids[s] > 0)
            for s in seats:
                if isinstance(bids[s], str):  # nil or blind nil
                    bags[side] += won[s]
                    kind = _bid_word(bids[s])
                    state = "safe so far" if not won[s] else f"failed ({won[s]} taken)"
                    name = seating.names[s]
                    whose = "Your" if name == "You" else f"{name}'s"
                    nils.append(Words(f"{whose} {kind}: {state}"))
            if bids[side] is None or bids[side + 2] is None:
                said = " & ".join(_bid_word(bids[s]) for s in seats)
                sides.append(Words(f"{who}: bids {said}"))
            elif not numbers:
                sides.append(Words(f"{who}: no contract (nil)"))
            else:
                contract = sum(numbers)
                bags[side] += max(took - contract, 0)
                sides.append(Words(f"{who}: bid {contract}, took {took}"))
        if view.to_act < 0:
            bags = list(carried)  # the hand is scored: its bags are in the view's count
        text = per_side_words(seating, view.seat, bags)
        return [*sides, *nils, Words(f"Bags so far: {text}", style="dim")]
