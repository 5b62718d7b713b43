"""The solver's rules for Setback and the Pitch presets.

The value: the hand's score change for the seat's side minus the sum of every other side's, at
any table (seat s plays for side ``s % sides``): with two sides, the seat's side's change minus
the other's; cut-throat (a side a seat), the seat's minus the sum of all the others'; with
three partnerships of two at six seats, its pair's minus the other two pairs'. Every seat of
another side plays to make that value as low as it can: the "paranoid" reduction, the rest of
the table one coalition against the seat's side, which keeps the search a two-sided
alpha-beta. (A seat of another side really plays for its own side alone; what the solver
gives the seat is what it can make sure of whatever they do.)

What matters of the cards won is only which point cards each side holds (High, Low, the jacks,
jokers... fixed for the hand once trump is named: ``hand_points`` decides High and Low from
the cards *dealt*) and each side's Game count. Leaves are scored by
:func:`~tricktable.games.pitch_scoring.hand_points` and
:func:`~tricktable.games.pitch_scoring.score_hand`, cached by exactly that summary.

When trump is not yet named (the first lead) each card is solved with the trump it names.
"""

from __future__ import annotations

from typing import Any

from tricktable.cards import JOKER_BIT, LITTLE_JOKER_BIT
from tricktable.engine.tables import TrumpTables
from tricktable.errors import TricktableError
from tricktable.games.pitch_scoring import (
    POINT_CARDS,
    game_count,
    hand_points,
    high_low,
    score_contract,
    score_hand,
    sides_of,
)
from tricktable.games.setback import SetbackState
from tricktable.search.solver.core import (
    Kernel,
    Rules,
    Search,
    SolveResult,
    Summary,
    follow_or_trump,
    solve_root,
)


def solve_pitch(
    state: SetbackState, seat: int, deadline: float | None, core: str = "auto"
) -> SolveResult:
    """Solve a Setback hand in card play (see :func:`tricktable.search.solver.solve`)."""
    if state.tables.suit >= 0:
        rules = PitchRules(state, seat, state.tables, state.lead_forbid)
        search = Search(state, rules, deadline, core=core)
        return solve_root(state, lambda card: search)
    searches: dict[int, Search] = {}

    def by_trump(card: int) -> Search:
        suit = card // 13
        if suit not in searches:
            rules = PitchRules(state, seat, state.trumps[suit], state.joker_forbid)
            searches[suit] = Search(state, rules, deadline, core=core)
        return searches[suit]

    return solve_root(state, by_trump)


def check_pitch(state: Any) -> SetbackState:
    """``state`` as a Setback state, or a one-line error."""
    if not isinstance(state, SetbackState):
        raise TricktableError(f"solve: {state.game.name} is not a Pitch-family game")
    return state


class PitchRules(Rules):
    """Setback's legal cards, summary and scoring for one hand with trump ``tables``."""

    def __init__(self, state: SetbackState, seat: int, tables: TrumpTables, forbid: int) -> None:
        opts: Any = state.options
        n = len(state.hands)
        nsides = len(state.scores)
        side_of = [s % nsides for s in range(n)]
        me = side_of[seat]
        self.tables = tables
        self.maximise = [side_of[s] == me for s in range(n)]
        self.order = tables.power
        point_list: list[str] = list(state.point_list)
        counts_game = "game" in point_list
        dealt_all = 0
        for mask in state.dealt:
            dealt_all |= mask
        trump = tables.suit
        # The cards whose owner can change a point: fixed once trump is named.
        high, low = high_low(trump, dealt_all, tables.mask, tables.power)
        pmask = high | low
        for name in point_list:
            if name in POINT_CARDS[trump]:
                pmask |= POINT_CARDS[trump][name]
        pmask &= dealt_all
        # Point cards, and the cards the lead rules single out, are never merged.
        self.special = pmask | forbid | JOKER_BIT | LITTLE_JOKER_BIT
        self.worth = [game_count(1 << c) if counts_game else 0 for c in range(64)]
        # A kitty's discard counts as a trick the declarer won (as the game scores it).
        discards: int = state.discards
        declarer_seat = state.declarer
        won_before = state.won[:]
        won_before[declarer_seat] |= discards
        start: list[int] = []
        for taken in sides_of(won_before, nsides):
            start += [taken & pmask, game_count(taken) if counts_game else 0]
        self.summary = tuple(start)
        declarer = side_of[state.declarer]
        point_names = state.point_list
        weights = state.weights
        dealt = state.dealt
        low_to = opts.low_to
        declarer_scores = opts.declarer_scores
        bid = state.bid
        nscores = len(state.scores)
        trump_mask, power = tables.mask, tables.power
        may_trump: bool = state.may_trump

        def take(summary: Summary, winner: int, tmask: int) -> Summary:
            out = list(summary)  # type: ignore[call-overload]
            i = 2 * side_of[winner]
            out[i] |= tmask & pmask
            if counts_game:
                out[i + 1] += game_count(tmask)
            return tuple(out)

        # A moon bid, or smudge's top bid: scored by score_contract, as the game does.
        moon = state.moon_level > 0 and bid == state.moon_level
        contract = moon or opts.smudge
        moon_value: int = opts.moon_value
        total: int = getattr(state.game, "total_points", 0)
        smudge: bool = opts.smudge and bid == opts.max_bid
        in_hole = state.scores[declarer] < 0

        def leaf(summary: Summary, won: list[int]) -> int:
            if discards:
                won = won[:]
                won[declarer_seat] |= discards
            points = hand_points(trump, dealt, won, low_to, point_names, nsides, trump_mask, power)
            if contract:
                delta = score_contract(
                    points,
                    declarer,
                    bid,
                    declarer_scores,
                    nscores,
                    weights,
                    moon=moon,
                    moon_value=moon_value,
                    total=total,
                    smudge=smudge,
                    in_hole=in_hole,
                )[1]
            else:
                delta = score_hand(points, declarer, bid, declarer_scores, nscores, weights)[1]
            return 2 * delta[me] - sum(delta)

        self.legal = follow_or_trump(trump_mask, may_trump, forbid)
        # The summary is already the C core's: (point cards, Game count) by side.
        self.kernel = Kernel(
            slot_of=side_of,
            nslots=nsides,
            cw=self.worth,
            pmask=pmask,
            no_lead=forbid,
            may_trump=may_trump,
            trump_mask=trump_mask,
        )
        self.take = take
        self.leaf = leaf
