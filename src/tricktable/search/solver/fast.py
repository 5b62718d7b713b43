"""The solver's compiled core: the front end of the C search (``_dd.c``).

:func:`solve_cards` hands one :class:`~.core.Search` (a hand, its rules, trump fixed) to the
C extension when it is built and the rules say how it reads them (:attr:`.core.Rules.kernel`),
and returns each card's value: the same values as the Python search, which stays the
reference (``tests/test_csolver.py`` compares them on thousands of positions). Where the
extension is not built (the source tree, a machine without a C compiler), or a search is
beyond what it encodes (more than seven sides, fifteen point cards, a count past 255), it
returns None and the Python search answers.

What the C side is given: the hands, the cards won and the trick being played; the trump
tables (power, suit to follow), the game's move order, each card's worth and the cards never
merged; the legal hook as a few masks and the summary's shape (:class:`~.core.Kernel`); and
the rules' own ``leaf`` and ``bounds``, which it calls once per summary (and per summary and
weight left) and caches, so every score is still the game's own Python function.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any, cast

from tricktable.errors import TricktableError
from tricktable.search.solver.core import Kernel, Search, SolveTimeout, hand_cards

try:
    from tricktable.search.solver import _dd  # type: ignore[attr-defined]
except ImportError:  # not built: the Python search answers
    _dd = None

__all__ = ["available", "solve_cards"]


def available() -> bool:
    """Whether the C core is built (importable)."""
    return _dd is not None


def _tt_bits(live: int) -> int:
    """The log2 of the transposition table's slots for ``live`` cards left in hands: small
    for short hands (a Setback hand needs few), 2**19 slots from nine cards a seat of four and
    2**20 (about 90 MB in Hearts) past ten: a smaller table thrashes there (Hearts at ten cards
    a seat searched 3.3 M positions a second with 2**17 slots and 8.9 M with 2**19, a whole
    13-card hand twice as fast with 2**20 as with 2**19; docs/solver.md)."""
    if live <= 16:
        return 12
    if live <= 28:
        return 15
    if live <= 32:
        return 17
    if live <= 40:
        return 19
    return 20


def _splits(tricks: int, places: int) -> list[tuple[int, ...]]:
    """Every way ``tricks`` can fall into ``places`` places (as counts, by place)."""
    if places == 1:
        return [(tricks,)]
    return [(k, *rest) for k in range(tricks + 1) for rest in _splits(tricks - k, places - 1)]


def sure_range(search: Search, left: int) -> tuple[int, int]:
    """The least and the most tricks of the ``left`` the solving side takes on every line of
    play from a trick's start, by the runs of top trumps (as the C core's sure tricks): the
    highest trumps held by one side each win the trick they fall on, and one seat's cards
    fall on different tricks, so that side takes at least as many as its seat holding most
    of the run; the next run, the other side's, as many as its seat holding most of it less
    the first run's cards. ``(0, left)`` inside a trick."""
    state = search.state
    if state.trick:
        return 0, left
    power = search.rules.tables.power
    maximise = search.rules.maximise
    live = 0
    for hand in state.hands:
        live |= hand
    trumps = sorted(
        (c for c in range(64) if live >> c & 1 and power[c] >= 100), key=lambda c: -power[c]
    )
    runs: list[tuple[bool, dict[int, int]]] = []
    for card in trumps:
        owner = next(s for s in range(search.n) if state.hands[s] >> card & 1)
        side = bool(maximise[owner])
        if not runs or runs[-1][0] != side:
            if len(runs) == 2:
                break
            runs.append((side, {}))
        counts = runs[-1][1]
        counts[owner] = counts.get(owner, 0) + 1
    sure = {True: 0, False: 0}
    if runs:
        sure[runs[0][0]] = max(runs[0][1].values())
        if len(runs) == 2:
            first = sum(runs[0][1].values())
            sure[runs[1][0]] = max(0, max(runs[1][1].values()) - first)
    return sure[True], left - sure[False]


def trick_values(search: Search, kernel: Kernel) -> list[int] | None:
    """Where the summary is the tricks by slot (``kernel.sure``: Spades) and the value of the
    hand hangs only on the tricks the solving side takes from here, never falling as they
    grow: that value by those tricks (0 to the tricks left), checked over every way the tricks
    left can fall between the slots; else None. Only the counts the side can reach on some
    line of play are checked (:func:`sure_range`): bags past a ten that the top trumps put
    out of reach cost nothing.

    The C core then searches the trick count alone (the bridge solvers' search: one table
    entry for a position whatever was won before it) and values a card by this list at the
    most tricks the side can make sure of: for a value that never falls as the count grows,
    the best play for the count is the best play for the value. A nil still open (its
    seat's own tricks count apart) or a count that can cost in reach (bags past a ten) leave
    it to the search of the value."""
    if not kernel.sure or kernel.hearts or search.rules.bounds is None:
        return None
    state = search.state
    rules = search.rules
    n = search.n
    cards = sum(h.bit_count() for h in state.hands)
    if state.trick:
        cards += state.trick_mask.bit_count()
    if cards % n:
        return None
    left = cards // n
    if not 0 < left < 20:
        return None
    low, high = sure_range(search, left)
    slot_of = kernel.slot_of
    places = sorted(set(slot_of))
    side = [rules.maximise[slot_of.index(p)] for p in places]
    start = list(rules.summary)  # type: ignore[call-overload]
    won = [0] * n
    values: list[int | None] = [None] * (left + 1)
    for split in _splits(left, len(places)):
        tricks = start[:]
        mine = 0
        for place, mine_side, k in zip(places, side, split, strict=True):
            tricks[place] += k
            if mine_side:
                mine += k
        if not low <= mine <= high:
            continue
        value = rules.leaf(tuple(tricks), won)
        known = values[mine]
        if known is None:
            values[mine] = value
        elif known != value:
            return None
    inside = values[low : high + 1]
    if None in inside or any(b < a for a, b in pairwise(inside)):  # type: ignore[operator]
        return None
    # the counts out of reach: never the answer, kept in order
    return [cast(int, values[min(max(k, low), high)]) for k in range(left + 1)]


def _spec(search: Search, kernel: Kernel) -> dict[str, Any] | None:
    """The hand as the C core reads it, or None where it is beyond what the core encodes."""
    state = search.state
    rules = search.rules
    n = search.n
    if not 2 <= n <= 7 or not 1 <= kernel.nslots <= 7 or kernel.pmask.bit_count() > 15:
        return None
    deck = hand_cards(state)
    live = 0
    for h in state.hands:
        live |= h
    summary = kernel.to_c(rules.summary)
    if not kernel.hearts:
        # Counts are kept in a byte a slot: refuse a hand where one could pass 255.
        counts = summary[1::2]
        room = sum(kernel.cw[c] for c in range(64) if live >> c & 1) + sum(
            kernel.cw[c] for c in range(64) if state.trick_mask >> c & 1
        )
        tricks = live.bit_count() // n + 1
        if max(counts) + room + kernel.tw * tricks > 255 or min(kernel.cw) < 0:
            return None
    leaf = rules.leaf
    from_c = kernel.from_c

    def leaf_c(summary: tuple[int, ...], won: list[int]) -> int:
        return leaf(from_c(summary), won)

    bounds_c = None
    if rules.bounds is not None and kernel.bw is not None:
        bounds = rules.bounds

        def bounds_c(summary: tuple[int, ...], live: int) -> tuple[int, int]:
            return bounds(from_c(summary), live)

    mask64 = (1 << 64) - 1
    return {
        "n": n,
        "turn": search.turn,
        "maximise": [int(m) for m in rules.maximise],
        "power": rules.tables.power,
        "suit_mask": rules.tables.suit_mask,
        "order": rules.order,
        "worth": rules.worth,
        "special": search.special & mask64,
        "first_mode": kernel.first_mode,
        "first_lead": kernel.first_lead,
        "deck": deck,
        "break_mask": kernel.break_mask,
        "no_lead": kernel.no_lead,
        "first_forbid": kernel.first_forbid,
        "may_trump": kernel.may_trump,
        "trump_mask": kernel.trump_mask,
        "smode": 1 if kernel.hearts else 0,
        "me": kernel.me,
        "slot_of": kernel.slot_of,
        "nslots": kernel.nslots,
        "pmask": kernel.pmask,
        "tracked": kernel.tracked,
        "cw": kernel.cw,
        "tw": kernel.tw,
        "summary": summary,
        "bw": kernel.bw if bounds_c is not None else None,
        "leaf": leaf_c,
        "bounds": bounds_c,
        "tt_bits": _tt_bits(live.bit_count()),
        "cheap": kernel.cheap,
        "slope": kernel.slope if kernel.hearts else 0,
        "sure": kernel.sure and not kernel.hearts and bounds_c is not None,
        "tvals": trick_values(search, kernel),
    }


def solve_cards(search: Search, cards: list[int]) -> tuple[list[int], int] | None:
    """Each of ``cards``' value (legal cards of the seat to act), by the C core, and the
    positions it searched; None where the Python search must answer (``search.core`` is
    ``"python"``, the core is not built, or the rules are beyond it)."""
    if search.core == "python":
        return None
    kernel = search.rules.kernel
    spec = _spec(search, kernel) if _dd is not None and kernel is not None else None
    if spec is None:
        if search.core == "c":
            raise TricktableError("solve: the compiled core does not take this hand")
        return None
    state = search.state
    if state.trick:
        root = (
            state.to_act,
            len(state.trick),
            state.lead_mask,
            state.best_power,
            state.best_seat,
            state.trick_mask,
            state.hands,
            state.won,
        )
    else:
        root = (state.to_act, 0, 0, -1, -1, 0, state.hands, state.won)
    seconds = -1.0
    if search.deadline is not None:
        from time import perf_counter

        seconds = max(0.0, search.deadline - perf_counter())
    try:
        values, nodes = _dd.solve(spec, root, cards, None, seconds)
    except TimeoutError:
        raise SolveTimeout("solve: past its deadline") from None
    search.nodes += nodes
    return values, nodes
