"""The solver's rules for Spades (every option of the engine's ``spades``).

**The value:** the seat's partnership's score change for the hand minus the other's, as
:func:`~tricktable.games.spades.score_team` scores them from the bids (known in card play),
the blind-nil flags, the tricks each seat takes and the bags each side carries: contracts
made or set, nils and blind nils made or failed, bags and their penalty.

**Summary.** Only the number of tricks matters, and only per seat for a seat that bid nil: a
side whose two seats both bid tricks counts them together (``score_team`` adds them up). So
the summary is the tricks by *slot*, the partner of such a side counting into its partner's.
Leaves are scored by ``score_team`` from the summary alone.

**Bounds.** At each trick's start, the value of every way the tricks left could fall between
the slots (at most 560 ways for 13 tricks), cached by summary and tricks left: once the
outcome is decided (a set side that cannot make any more difference, the last tricks with
no nil open...) the search stops there.

**Legal cards** follow the engine from what the position shows: the first trick is the one
played while no card has left the hands (with ``first_lead=2c`` the 2♣ leads it), and spades
are broken once a spade has left the hands in a finished trick (or from the start without
``break_spades``). Every card is worth the same, so equal cards merge by rank alone.
"""

from __future__ import annotations

from typing import Any

from tricktable.errors import TricktableError
from tricktable.games.spades import SPADE_MASK, SpadesState, score_team
from tricktable.search.solver.core import (
    FIRST_NONE,
    FIRST_PREFER,
    Kernel,
    Rules,
    Search,
    SolveResult,
    Summary,
    hand_cards,
    solve_root,
)


def solve_spades(state: Any, seat: int, deadline: float | None, core: str = "auto") -> SolveResult:
    """Solve a Spades hand in card play (see :func:`tricktable.search.solver.solve`)."""
    if not isinstance(state, SpadesState):
        raise TricktableError(f"solve: {state.game.name} is not Spades")
    search = Search(state, SpadesRules(state, seat), deadline, core=core)
    return solve_root(state, lambda card: search)


def _with_cards(summary: Summary) -> tuple[int, ...]:
    """Spades' summary (tricks by slot) in the C core's form, with no point cards."""
    out: list[int] = []
    for tricks in summary:  # type: ignore[attr-defined]
        out += [0, tricks]
    return tuple(out)


def _counts_only(pairs: tuple[int, ...]) -> Summary:
    """Spades' summary from the C core's form."""
    return pairs[1::2]


def splits(tricks: int, slots: int) -> list[tuple[int, ...]]:
    """Every way ``tricks`` can fall into ``slots`` places (as counts, by place)."""
    if slots == 1:
        return [(tricks,)]
    return [(k, *rest) for k in range(tricks + 1) for rest in splits(tricks - k, slots - 1)]


class SpadesRules(Rules):
    """Spades' legal cards, summary, scoring and bounds for one seat's partnership."""

    def __init__(self, state: SpadesState, seat: int) -> None:
        opts: Any = state.options
        self.tables = tables = state.tables
        self.maximise = [(s & 1) == (seat & 1) for s in range(4)]
        self.order = tables.power
        self.worth = [0] * 64
        bids = state.bids[:]
        blind = [bool(state.blind >> s & 1) for s in range(4)]
        bags = state.bags[:]
        # A seat's tricks count in its own slot, or its partner's when neither bid nil.
        slot = list(range(4))
        for t in (0, 1):
            if bids[t] and bids[t + 2]:
                slot[t + 2] = t
        places = sorted(set(slot))
        start = [0] * 4
        for s in range(4):
            start[slot[s]] += state.tricks_won[s]
        self.summary = tuple(start)
        mine = seat & 1
        deck = hand_cards(state)
        spades = SPADE_MASK & deck  # the spades dealt
        first_2c: bool = state.first_2c
        breaking: bool = opts.break_spades

        def legal(hands: list[int], seat: int, pos: int, lead_mask: int, tmask: int) -> int:
            hand = hands[seat]
            if pos == 0:
                live = hands[0] | hands[1] | hands[2] | hands[3]
                if first_2c and live == deck:
                    return hand & 1 or hand  # the 2C leads the first trick
                if breaking and live & spades == spades:
                    return hand & ~SPADE_MASK or hand  # no spade played yet
                return hand
            return hand & lead_mask or hand

        def take(summary: Summary, winner: int, tmask: int) -> Summary:
            out = list(summary)  # type: ignore[call-overload]
            out[slot[winner]] += 1
            return tuple(out)

        def score(tricks: tuple[int, ...]) -> int:
            points = [
                score_team(
                    (bids[t], bids[t + 2]),
                    (blind[t], blind[t + 2]),
                    (tricks[t], tricks[t + 2]),
                    bags[t],
                    opts,
                ).points
                for t in (0, 1)
            ]
            return points[mine] - points[1 - mine]

        def leaf(summary: Summary, won: list[int]) -> int:
            return score(summary)  # type: ignore[arg-type]

        cache: dict[tuple[Summary, int], tuple[int, int]] = {}

        def bounds(summary: Summary, live: int) -> tuple[int, int]:
            left = live.bit_count() >> 2
            key = (summary, left)
            found = cache.get(key)
            if found is None:
                values = []
                for split in splits(left, len(places)):
                    tricks = list(summary)  # type: ignore[call-overload]
                    for place, k in zip(places, split, strict=True):
                        tricks[place] += k
                    values.append(score(tuple(tricks)))
                found = cache[key] = (min(values), max(values))
            return found

        self.legal = legal
        # The C core counts tricks by slot (one a trick, no card counted) and bounds by
        # the cards left; the first lead and the break as masks.
        self.kernel = Kernel(
            slot_of=slot,
            nslots=4,
            cw=[0] * 64,
            tw=1,
            first_mode=FIRST_PREFER if first_2c else FIRST_NONE,
            first_lead=1,
            break_mask=spades if breaking else 0,
            no_lead=SPADE_MASK if breaking else 0,
            bw=[1] * 64,
            cheap=True,
            sure=True,
            to_c=_with_cards,
            from_c=_counts_only,
        )
        self.take = take
        self.leaf = leaf
        self.bounds = bounds
