"""A perfect-information solver of the rest of a hand: Setback and the Pitch presets, All Fours,
Cinch, Hearts, Spades.

``solve(state, seat)`` takes a card-play state whose every hand is known (a real deal, or one
:func:`~tricktable.search.determinize.determinize` made) and returns the exact value of the
rest of the hand for ``seat`` under perfect play by everyone, and the value of each legal card.
Higher is always better for ``seat``; what the value counts is the game's:

* **Setback / Pitch** (:mod:`.pitch`), **All Fours** (:mod:`.all_fours`) and **Cinch**
  (:mod:`.cinch`), at any table: the hand's score change for the seat's side minus the sum of
  every other side's (cut-throat, the seat's minus all the others').
* **Hearts** (:mod:`.hearts`): the sum, over the three other seats, of their score change
  minus the seat's (the lowest score wins), moons as the game scores them.
* **Spades** (:mod:`.spades`): the seat's partnership's score change minus the other's,
  bags, nils and sets as the game scores them.

Where seats play each for themselves (Hearts, cut-throat Pitch), or in more than two sides, all
the other seats play together against the seat's side: the "paranoid" reduction, which keeps
the search a two-sided alpha-beta.

Setback, All Fours and Cinch are solved at every table they seat, two to seven seats, the turn
either way; Hearts and Spades at four seats only (:func:`supports`): Hearts at three, five or
six seats and cut-throat Spades (three) are refused, as their leaves would need scoring by any
number of sides and Hearts' first lead by the lowest club dealt, which the game modules here
do not do.
How the search works is in :mod:`.core`; each game supplies its legal cards, what of the
cards won still matters (the summary) and its own scoring functions for the leaves.

The same search is compiled in C (:mod:`.fast`, ``_dd.c``: a setuptools extension), 35 to 85
times faster; ``solve`` uses it wherever it is built (every game here, each of its options),
and the Python search, the reference, wherever it is not. Both give the same values
(docs/solver.md).

Whole Spades hands are beyond both in a decision's time (a median of a second for 13
cards), and Spades' play is bridge's: :mod:`.dds` asks DDS, the bridge solver, where the
hand's value is its sides' trick count (``solve(..., dds=True)``, and ``pimc``'s worlds); it
also plays partnership Euchre, which this solver does not.
"""

from __future__ import annotations

from tricktable.engine.game import Game
from tricktable.engine.state import TrickState
from tricktable.errors import TricktableError
from tricktable.search.solver.core import SolveResult, SolveTimeout, check_play

__all__ = ["SolveResult", "SolveTimeout", "solve", "supports"]

#: the games solved at every table they seat (two to seven seats, each for itself or in
#: partnerships of any shape, the turn either way), by the name of their base game
_ANY_TABLE = ("setback", "all-fours", "cinch")
#: the games solved at four seats only (their rules are written for four)
_FOUR_SEATS = ("hearts", "spades")


def supports(game: Game) -> bool:
    """Whether :func:`solve` handles ``game``'s hands: Setback and the Pitch presets, All Fours
    and Cinch at any table; Hearts and Spades at four seats. (Not California Jack: its
    tricks draw from a stock no seat sees, so its hands are not known until the stock is
    gone.)"""
    if game.name in _ANY_TABLE:
        return True
    return game.name in _FOUR_SEATS and game.num_players == 4


#: the cards a seat holds past which ``solve(..., dds=True)`` asks DDS (the project's own
#: solver takes milliseconds up to here, and keeps Spades' lead rule exactly)
DDS_ABOVE = 6


def solve(
    state: TrickState,
    seat: int,
    deadline: float | None = None,
    *,
    core: str = "auto",
    dds: bool = False,
) -> SolveResult:
    """Solve the rest of ``state``'s hand for ``seat`` with every hand known.

    ``deadline`` is a ``time.perf_counter()`` instant: past it the search stops with
    :class:`SolveTimeout` (it looks at the clock every 256 positions). A game :func:`supports`
    does not, a state out of card play or with hands unknown is a one-line
    :class:`~tricktable.errors.TricktableError`.

    ``core``: ``"auto"`` (the compiled core, :mod:`.fast`, where it is built and takes the
    game, else the Python search: the same values), ``"python"`` (the reference) or ``"c"``
    (the compiled core, or a one-line error where it cannot).

    ``dds``: a Spades position where the seat to play holds more than :data:`DDS_ABOVE`
    cards is valued by DDS (:mod:`.dds`) where DDS models it and is installed — a whole hand
    in tens of milliseconds, where the project's search takes seconds — else searched as
    without. DDS lets an unbroken spade lead inside its search (the legal cards valued are
    the position's own): its values were measured against this solver's (docs/solver.md).
    Partnership Euchre, which this solver does not take, is solved by DDS alone with ``dds``
    (a lone hand, or no DDS, is a one-line :class:`~tricktable.errors.TricktableError`).
    """
    if core not in ("auto", "python", "c"):
        raise TricktableError(f"solve: no core {core!r} (auto, python or c)")
    game = state.game
    if not supports(game):
        if dds and game.name == "euchre" and game.num_players == 4:
            return _euchre_by_dds(state, seat)
        raise TricktableError(f"solve: {game.name} is not a game the solver knows")
    check_play(state)
    if not 0 <= seat < state.n:
        raise TricktableError(f"solve: no seat {seat} at this table")
    # Imported here: a game's rules import its engine module, which a caller may not need.
    if game.name == "hearts":
        from tricktable.search.solver.hearts import solve_hearts

        return solve_hearts(state, seat, deadline, core)
    if game.name == "spades":
        from tricktable.search.solver.spades import solve_spades

        if dds and state.hands[state.to_act].bit_count() > DDS_ABOVE:
            found = _by_dds(state, seat)
            if found is not None:
                return found

        return solve_spades(state, seat, deadline, core)
    if game.name == "all-fours":
        from tricktable.search.solver.all_fours import solve_all_fours

        return solve_all_fours(state, seat, deadline, core)
    if game.name == "cinch":
        from tricktable.search.solver.cinch import solve_cinch

        return solve_cinch(state, seat, deadline, core)
    from tricktable.search.solver.pitch import check_pitch, solve_pitch

    return solve_pitch(check_pitch(state), seat, deadline, core)


def _by_dds(state: TrickState, seat: int) -> SolveResult | None:
    """DDS's values of a Spades position, or None where DDS is missing (told once), fails
    (told) or does not model the position."""
    from tricktable.search.solver import dds

    if not dds.available():
        dds.tell_unavailable("the project's solver")
        return None
    try:
        found: SolveResult | None = dds.spades_values(state, seat)
    except dds.DDSFailed as exc:
        dds.tell_failed(exc, "the project's solver")
        return None
    return found


def _euchre_by_dds(state: TrickState, seat: int) -> SolveResult:
    """DDS's values of a partnership Euchre position (:func:`.dds.euchre_values`)."""
    from tricktable.search.solver import dds

    if not dds.available():
        raise TricktableError(f"solve: Euchre needs DDS: {dds.unavailable_reason()}")
    found: SolveResult | None = dds.euchre_values(state, seat)
    if found is None:
        raise TricktableError("solve: a lone hand of Euchre (three seats play) is not DDS's")
    return found
