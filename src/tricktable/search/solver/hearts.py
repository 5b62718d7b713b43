"""The solver's rules for Hearts (every option of the engine's ``hearts``).

**The value, and the paranoid reduction.** Four players each for themselves, the lowest score
winning: the value for the seat is the sum, over the three other seats, of their score change
minus the seat's (``sum(delta) - 4 * delta[seat]``), and the other three play together to make
it as low as they can (the "paranoid" reduction, which keeps the search a two-sided
alpha-beta). Summing the seat's differences with each opponent is what a lowest-score-wins race
rewards: without a moon the value is ``26 - 4 * points taken`` (the seat's own points decide
it, as they would for a player minimising its own score); a moon shot by the seat is worth 78
(``add``: 26 to each of the others), one shot against it -26 (26 to it and to the other two,
nothing to the shooter), exactly as :func:`~tricktable.games.hearts.hearts_score` scores it.

**Summary.** What of the cards won can still change the value is the seat's own points and who
can still shoot the moon: nobody has points yet (-1), one seat has them all (that seat), or
they are split (-2: no moon is possible any more; also always with ``moon=none``). Leaves are
scored by :func:`~tricktable.games.hearts.hearts_points` and
:func:`~tricktable.games.hearts.hearts_score` on the cards actually won, cached by that summary.

**Bounds.** At each trick's start, the points still in hands bound what the seat can still
take; with the moons still possible that gives a window of values the rest cannot leave,
scored by ``hearts_score`` too. Once the last point card is taken the value is known and the
search stops there.

**Legal cards** follow the engine's ``HeartsState._play_mask`` from what the position itself
shows: the first trick is the one played while no card has left the hands (2♣ leads it; no
point card on it unless a seat holds nothing else, unless ``first_trick_points``), and hearts
are broken once a card of ``break_mask`` (hearts, and Q♠ with ``queen_breaks``) dealt has left
the hands in a finished trick.

**Merging.** Cards merge only with cards worth the same points (any two hearts; Q♠ with none).
"""

from __future__ import annotations

from typing import Any, cast

from tricktable.errors import TricktableError
from tricktable.games.hearts import (
    HEART_CARDS,
    POINT_CARDS,
    TWO_CLUBS,
    HeartsState,
    hearts_points,
    hearts_score,
)
from tricktable.search.solver.core import (
    FIRST_EXACT,
    Kernel,
    Rules,
    Search,
    SolveResult,
    Summary,
    hand_cards,
    solve_root,
)

__all__ = ["HeartsRules", "solve_hearts"]

#: the moon-candidate field of a summary: no points taken yet / points split (no moon)
NOBODY = -1
SPLIT = -2


def solve_hearts(state: Any, seat: int, deadline: float | None, core: str = "auto") -> SolveResult:
    """Solve a Hearts hand in card play (see :func:`tricktable.search.solver.solve`)."""
    if not isinstance(state, HeartsState):
        raise TricktableError(f"solve: {state.game.name} is not Hearts")
    search = Search(state, HeartsRules(state, seat), deadline, core=core)
    return solve_root(state, lambda card: search)


class HeartsRules(Rules):
    """Hearts' legal cards, summary, scoring and bounds for one seat (paranoid)."""

    def __init__(self, state: HeartsState, seat: int) -> None:
        opts: Any = state.options
        moon: str = opts.moon
        self.tables = tables = state.tables
        self.maximise = [s == seat for s in range(4)]
        worth = [hearts_points([1 << c])[0] for c in range(64)]
        self.worth = worth
        # Point cards first (Q♠, then hearts), then by power: a seat dumping points, or
        # made to take them, is what decides most lines (half the positions of power alone).
        self.order = [worth[c] * 100 + tables.power[c] for c in range(64)]
        points = hearts_points(state.won)
        takers = [s for s in range(4) if points[s]]
        if moon == "none" or len(takers) > 1:
            candidate = SPLIT
        else:
            candidate = takers[0] if takers else NOBODY
        self.summary = (points[seat], candidate)
        # Every card of the hand: the first trick is the one played while no card has left the
        # hands but its own (the engine's "no trick finished yet"), whatever the deal's size.
        deck = hand_cards(state)
        total = hearts_points([deck])[0]  # 26 in a whole deal: the moon's condition
        two_clubs = 1 << TWO_CLUBS
        first_forbid: int = state.first_forbid
        break_mask: int = state.break_mask & deck  # those dealt
        breaking: bool = state.breaking

        def legal(hands: list[int], seat: int, pos: int, lead_mask: int, tmask: int) -> int:
            hand = hands[seat]
            if pos == 0:
                live = hands[0] | hands[1] | hands[2] | hands[3]
                if live == deck:
                    return two_clubs  # the first trick: as the engine, whoever holds it
                if breaking and live & break_mask == break_mask:
                    return hand & ~HEART_CARDS or hand  # no break card played yet
                return hand
            follow = hand & lead_mask
            if follow:
                return follow
            if first_forbid and hands[0] | hands[1] | hands[2] | hands[3] | tmask == deck:
                return hand & ~first_forbid or hand
            return hand

        trick_points: dict[int, int] = {}

        def take(summary: Summary, winner: int, tmask: int) -> Summary:
            if not tmask & POINT_CARDS:
                return summary
            got = trick_points.get(tmask)
            if got is None:
                got = trick_points[tmask] = hearts_points([tmask])[0]
            mine, candidate = cast(tuple[int, int], summary)
            if winner == seat:
                mine += got
            if candidate == NOBODY:
                candidate = winner
            elif candidate != winner:
                candidate = SPLIT
            return (mine, candidate)

        def value(points: list[int]) -> int:
            delta, _ = hearts_score(points, moon)
            return sum(delta) - 4 * delta[seat]

        def leaf(summary: Summary, won: list[int]) -> int:
            return value(hearts_points(won))

        def spread(mine: int) -> list[int]:
            """Points for the seat's ``mine``, the rest split among the others (no moon
            unless the seat has them all)."""
            out = [0] * 4
            rest = total - mine
            others = [s for s in range(4) if s != seat]
            for i, s in enumerate(others):
                out[s] = rest // 3 + (1 if i < rest % 3 else 0)
            out[seat] = mine
            return out

        cache: dict[tuple[Summary, int], tuple[int, int]] = {}

        def bounds(summary: Summary, live: int) -> tuple[int, int]:
            key = (summary, live & POINT_CARDS)
            found = cache.get(key)
            if found is None:
                mine, candidate = cast(tuple[int, int], summary)
                left = hearts_points([live])[0]
                values = []
                # Without a moon the value falls as the seat takes points: its ends are the
                # seat taking none and all of what is left (all 26: its own moon, if open,
                # and then 25 is the least). No such end when another seat has taken every
                # point: its moon is then certain.
                if not (candidate >= 0 and candidate != seat and not left):
                    values += [value(spread(mine)), value(spread(mine + left))]
                    if mine + left == total and left and moon != "none":
                        values.append(value(spread(total - 1)))
                if candidate != SPLIT and not mine:
                    for s in range(4):
                        if s != seat and candidate in (NOBODY, s):
                            values.append(value([total if t == s else 0 for t in range(4)]))
                found = cache[key] = (min(values), max(values))
            return found

        self.legal = legal
        self.take = take
        self.leaf = leaf
        self.bounds = bounds
        # The C core keeps Hearts' own summary; the bounds hang on the points left.
        self.kernel = Kernel(
            slot_of=[0] * 4,
            nslots=1,
            cw=worth,
            hearts=True,
            me=seat,
            tracked=POINT_CARDS,
            first_mode=FIRST_EXACT,
            first_lead=two_clubs,
            break_mask=break_mask if breaking else 0,
            no_lead=HEART_CARDS if breaking else 0,
            first_forbid=first_forbid,
            bw=worth,
            # Split (no moon left), every point is scored as taken: the value is the points
            # dealt less 4 times the seat's (see value()), 4 a point it takes.
            slope=4,
        )
