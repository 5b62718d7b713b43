"""Hearts and Filippa at the table: their presenters (see :mod:`tricktable.seat.games`)."""

from __future__ import annotations

from tricktable.engine import actions as act
from tricktable.engine.trick import View
from tricktable.games.filippa import card_penalties
from tricktable.games.hearts import HAND_POINTS, hearts_points, queen_taker
from tricktable.games.hearts_options import direction_name
from tricktable.games.hearts_results import FilippaResult, HeartsResult
from tricktable.seat.games.base import (
    QUEEN_OF_SPADES,
    HandSeen,
    Presenter,
    Seating,
    _ints,
    capital,
    card_text,
    card_word,
    conjugate,
    join,
    last_result,
    line,
    seats_from,
    side_word,
    verb,
)
from tricktable.seat.words import Words

#: how far each passing direction sends the cards (seat + offset), at four seats
OFFSETS = {"left": 1, "across": 2, "right": 3}


def pass_offset(direction: str, seats: int) -> int:
    """How far a direction sends the cards at a table of ``seats`` (0: no passing)."""
    return {"left": 1, "across": seats // 2, "right": seats - 1}.get(direction, 0)


def _passing_direction(hand: HandSeen) -> str:
    direction = hand.opening.get("pass_direction")
    return direction if isinstance(direction, str) else ""


class HeartsPresenter(Presenter):
    """Hearts: the passing, the penalty points of each trick and hand, the moon."""

    trump_pending = "none"

    def goal(self, seating: Seating) -> str:
        """Lowest score wins."""
        target = self.game.options.target
        return f"the match ends when someone reaches {target}; the lowest score wins"

    def pass_title(self, direction: str) -> str:
        """The passing phase's name."""
        if direction in ("", "hold"):
            return "No passing this hand"
        return f"Passing {direction}"

    def deal_lines(self, seating: Seating, hand: HandSeen) -> list[Words]:
        """The pass direction; no trump."""
        return [Words(f"{self.pass_title(_passing_direction(hand))} · no trump")]

    def auction_lines(self, seating: Seating, hand: HandSeen) -> list[Words]:
        """Each seat's pass: in full where a watcher saw it or received it, else its count."""
        direction = _passing_direction(hand)
        passes = dict(hand.acted)
        if not passes and direction not in OFFSETS:
            return []  # a hand without passing
        said = [self.said(seating, s, a) for s, a in hand.acted]
        n = self.game.num_players
        if hand.playing:
            # The passing is over: every seat passed, from the dealer's left. A watcher saw
            # its own pass and knows what it received; of the others it knows the count.
            for giver, cards in hand.received.items():
                passes.setdefault(giver, act.PASS_CARDS | cards)
            said = [
                self.said(seating, s, passes[s])
                if s in passes
                else self.unseen(seating, s, "pass 3 cards")
                for s in ((hand.dealer + 1 + i) % n for i in range(n))
            ]
        title = self.pass_title(direction)
        return [line(Words(f"{title}: ", style="bold"), join(said))]

    def trick_note(self, points: int) -> str:
        """The penalty points in the trick."""
        if not points:
            return ""
        return f" ({points} point{'s' * (abs(points) != 1)})"

    def result_lines(self, seating: Seating, hand: HandSeen) -> list[Words]:
        """Penalty points taken, the queen of spades, the moon."""
        r = last_result(hand, HeartsResult)
        if r is None:
            return super().result_lines(seating, hand)
        out = [line(Words("Penalty points: ", style="bold"), seating.per_seat(r.penalties))]
        taker = r.queen_of_spades
        if taker is not None:
            out.append(line(card_text(QUEEN_OF_SPADES), f" taken by {seating.names[taker]}."))
        moon = r.moon
        if moon is not None:
            shooter = seating.names[moon]
            how = self.game.options.moon
            gain = "everyone else scores 26" if how == "add" else f"{shooter} scores -26"
            out.append(Words(f"{verb(shooter, 'shoot')} the moon: {gain}!", style="bold green"))
        return out

    def score_lines(self, seating: Seating, hand: HandSeen) -> list[Words]:
        """The scores, lowest best."""
        out = super().score_lines(seating, hand)
        out[-1].append(" (lowest wins)", style="dim")
        return out

    def hand_line(self, seating: Seating, hand: HandSeen) -> Words:
        """The pass, the penalty points, the moon."""
        r = last_result(hand, HeartsResult)
        if r is None:
            return super().hand_line(seating, hand)
        out = Words(f"pass {direction_name(r.pass_offset, len(r.penalties)):<6}  penalties ")
        out.append(" ".join(f"{p:>2}" for p in r.penalties))
        moon = r.moon
        if moon is not None:
            out.append(f"  moon: {seating.names[moon]}", style="green")
        return out

    def win_note(self) -> str:
        """Hearts is won low."""
        return " with the lowest score"

    def phase_title(self, seating: Seating, view: View) -> str:
        """Which way the cards go."""
        info = view.info()
        direction = info.get("pass_direction", "")
        n = self.game.num_players
        offset = pass_offset(str(direction), n)
        to = seating.names[(view.seat + offset) % n]
        return f"Pass three cards {direction}, to {to}"

    def bidding_facts(self, seating: Seating, view: View) -> list[Words]:
        """Nothing more: the choices say how to pass."""
        return []

    def play_facts(self, seating: Seating, view: View) -> list[Words]:
        """Penalties so far, hearts broken, what the seat received."""
        info = view.info()
        facts: list[Words] = []
        penalties = _ints(info.get("penalties"), self.game.num_players)
        if penalties is not None:
            facts.append(Words("penalties " + seating.per_seat(penalties)))
        if info.get("hearts_broken") is not None:
            facts.append(Words("hearts broken" if info["hearts_broken"] else "hearts not broken"))
        received = info.get("received")
        if isinstance(received, list) and received and not view.tricks:
            facts.append(line("you received ", join((card_word(c) or c for c in received), " ")))
        return facts

    def _tally(self, seating: Seating, view: View) -> list[Words]:
        """Points taken this hand by each seat, hearts broken, the points left, the moon."""
        won = view.won
        points = hearts_points(won)
        queen = queen_taker(won)
        out = []
        for seat in seats_from(view.seat, len(points)):
            got = points[seat]
            who = capital(side_word(seating, view.seat, seat))
            text = Words(f"{who}: {got} point{'s' * (got != 1)}")
            if seat == queen:
                text.append_text(line(" with ", card_text(QUEEN_OF_SPADES)))
            out.append(text)
        broken = view.info().get("hearts_broken")
        left = f"{HAND_POINTS - sum(points)} points left"
        if broken is None:
            out.append(Words(left))
        else:
            out.append(Words(f"Hearts {'broken' if broken else 'not broken'} · {left}"))
        takers = [s for s, got in enumerate(points) if got]
        if len(takers) == 1 and getattr(self.game.options, "moon", "none") != "none":
            seat = takers[0]
            name = seating.names[seat]
            watch = f"Moon watch: {verb(name, 'have')} all {points[seat]}"
            out.append(Words(watch, style="yellow"))
        return out


class FilippaPresenter(HeartsPresenter):
    """Filippa: penalties against their takers, the pool shared by the seats that took none."""

    def goal(self, seating: Seating) -> str:
        """Highest positive total once someone reaches the target."""
        target = self.game.options.target
        return f"the clean seats share each pool; the highest once someone reaches {target} wins"

    def deal_lines(self, seating: Seating, hand: HandSeen) -> list[Words]:
        """The pass, no trump, the pool at stake."""
        out = super().deal_lines(seating, hand)
        pool = hand.opening.get("pool")
        if isinstance(pool, int):
            out[0].append(f" · pool {pool}")
        return out

    def result_lines(self, seating: Seating, hand: HandSeen) -> list[Words]:
        """Penalties, who stayed clean and shared the pool, or the pool carried over."""
        r = last_result(hand, FilippaResult)
        if r is None:
            return Presenter.result_lines(self, seating, hand)
        shares, pool = r.shares, r.pool
        out = [line(Words("Penalties: ", style="bold"), seating.per_seat(r.penalties))]
        clean = [seating.names[s] for s in range(4) if shares[s]]
        if len(clean) == 1:
            name = clean[0]
            took = f"{verb(name, 'stay')} clean and {conjugate(name, 'take')} the pool of {pool}"
            out.append(Words(f"{took}: +{pool}.", "bold"))
        elif clean:
            who = " and ".join(clean)
            share = max(shares)
            out.append(
                Words(f"{who} stay clean and share the pool of {pool}: +{share} each.", "bold")
            )
        else:
            out.append(Words(f"Nobody stayed clean: the pool of {pool} carries over.", "bold"))
        return out

    def score_lines(self, seating: Seating, hand: HandSeen) -> list[Words]:
        """Positive scores, and the penalty totals beside them."""
        out = Presenter.score_lines(self, seating, hand)
        r = last_result(hand, FilippaResult)
        if r is not None:
            out.append(Words(f"Penalty totals: {seating.per_seat(r.negative)}", style="dim"))
        return out

    def hand_line(self, seating: Seating, hand: HandSeen) -> Words:
        """Penalties, and the pool shared or carried."""
        r = last_result(hand, FilippaResult)
        if r is None:
            return Presenter.hand_line(self, seating, hand)
        shares = r.shares
        out = Words("penalties " + " ".join(f"{p:>3}" for p in r.penalties))
        clean = [seating.names[s] for s in range(4) if shares[s]]
        if clean:
            out.append(f"  pool {r.pool} to {', '.join(clean)} +{max(shares)}")
        else:
            out.append(f"  pool {r.pool} carried")
        return out

    def win_note(self) -> str:
        """The highest positive total wins."""
        return ""

    def play_facts(self, seating: Seating, view: View) -> list[Words]:
        """Penalties so far this hand, the pool."""
        facts = super().play_facts(seating, view)
        facts = [f for f in facts if not f.plain.startswith("hearts")]
        pool = view.info().get("pool")
        if isinstance(pool, int):
            facts.append(Words(f"pool {pool}"))
        return facts

    def _tally(self, seating: Seating, view: View) -> list[Words]:
        """Penalties taken this hand by each seat, who is clean so far, the pool at stake."""
        penalties = card_penalties(view.won)
        order = seats_from(view.seat, len(penalties))
        out = [
            Words(f"{capital(side_word(seating, view.seat, seat))}: {penalties[seat]}")
            for seat in order
        ]
        clean = [seating.names[s] for s in order if not penalties[s]]
        out.append(Words("Clean so far: " + (", ".join(clean) if clean else "nobody")))
        pool = view.info().get("pool")
        # Once the hand is scored the view's pool is the next hand's: not this hand's tally.
        if isinstance(pool, int) and view.to_act >= 0:
            out.append(Words(f"Pool: {pool}"))
        return out
