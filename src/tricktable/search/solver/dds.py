"""Double-dummy values from DDS, Haglund and Hein's bridge solver, through endplay's binding.

DDS answers bridge's question: four seats in two partnerships, the turn going round one way,
suit followed when held, one trump suit or none, every trick worth one — for each card the
seat to play holds, the most tricks its side takes from this trick on under perfect play by
all four. It does that with partition search and its own move ordering, an order of
magnitude faster than the project's solver (:mod:`.core`) on a whole 13-card hand
(docs/solver.md).

**Where it is used:** Spades at four seats, whose play is bridge's with spades trump
(:func:`spades_values`). Three differences, each handled:

- **The lead rule** ("spades not yet broken"; the 2♣ lead of ``first_lead=2c``): DDS lets any
  card lead. The cards valued are the position's legal ones, so the rule binds at the root;
  inside the search a side may lead an unbroken spade. How often and by how much that moves a
  value was measured against the project's exact solver (docs/solver.md); this module is
  used where the project's solver is out of reach and kept as the check on it.
- **Nil:** a seat that bid nil wants no trick while its partner wants many, which is not a
  trick count for a side. A hand with a nil bid is not given to DDS (``None``: the caller
  solves it another way).
- **Bags:** the score is a function of the side's tricks; where that function falls as the
  side takes more (ten bags passed), the trick-maximal line is not the score-maximal one.
  Such positions are not given to DDS either.

**The adapter:** a card is ``suit * 13 + rank`` here (clubs first, the two low) and DDS's
suit 0 is spades, its rank 2..14 a bit of a suit's holding; seat ``s`` is DDS's hand ``s``
when the turn goes clockwise (``step`` 1) and ``-s`` the other way (:func:`card_to_dds`,
:func:`seat_to_dds` and their inverses).

DDS's one search state is shared by every call here (thread 0), so calls are serialised by a
lock. Where endplay is not installed or its library does not load, :func:`available` is
False and one line says why (logged once); a call that fails raises :class:`DDSFailed`, a
:class:`~tricktable.errors.TricktableError`, and the caller degrades to the project's
solver.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from typing import Any, Final

from tricktable.cards import JACK, card_of
from tricktable.errors import TricktableError

__all__ = [
    "DDSFailed",
    "available",
    "card_from_dds",
    "card_to_dds",
    "euchre_code",
    "euchre_values",
    "future_tricks",
    "models",
    "seat_from_dds",
    "seat_to_dds",
    "spades_values",
    "unavailable_reason",
    "usable",
    "values",
]

_log = logging.getLogger("tricktable.dds")
_LOCK: Final = threading.Lock()
#: DDS's denomination of no trump (its suits: 0 spades, 1 hearts, 2 diamonds, 3 clubs)
NO_TRUMP: Final = 4


class DDSFailed(TricktableError):
    """DDS could not answer (not installed, its library failed, a position it refused)."""


def _load() -> tuple[Any, str]:
    try:
        from endplay import _dds
    except Exception as exc:  # ImportError, or OSError from a libdds that will not load
        return None, f"DDS is not available ({type(exc).__name__}: {exc})"
    return _dds, ""


_dds, _why = _load()
_told = False


def available() -> bool:
    """Whether DDS (endplay's binding and its library) loaded."""
    return _dds is not None


def unavailable_reason() -> str:
    """One line: why DDS is not available ("" when it is)."""
    return _why


def tell_unavailable(instead: str) -> None:
    """Log, once a process, the one line saying DDS is missing and what plays ``instead``."""
    global _told
    if not _told and _why:
        _told = True
        _log.warning("%s: falling back to %s", _why, instead)


def tell_failed(exc: Exception, instead: str) -> None:
    """Log the one line of a DDS call that failed, and what plays ``instead``."""
    _log.warning("%s: falling back to %s", exc, instead)


# ---------------------------------------------------------------------------- the adapter


def card_to_dds(card: int) -> tuple[int, int]:
    """A card (0..51) as DDS's (suit, rank): suit 0 spades .. 3 clubs, rank 2 .. 14 (ace)."""
    if not 0 <= card < 52:
        raise DDSFailed(f"DDS has no card for the code {card}")
    return 3 - card // 13, card % 13 + 2


def card_from_dds(suit: int, rank: int) -> int:
    """The card of DDS's (suit, rank) (the inverse of :func:`card_to_dds`)."""
    if not (0 <= suit < 4 and 2 <= rank <= 14):
        raise DDSFailed(f"DDS named no card with suit {suit} and rank {rank}")
    return (3 - suit) * 13 + rank - 2


def seat_to_dds(seat: int, step: int = 1) -> int:
    """Seat ``seat`` of four as DDS's hand (0 north .. 3 west, clockwise), the turn going
    from seat s to s + ``step`` (1, or 3 the other way)."""
    if not 0 <= seat < 4 or step % 4 not in (1, 3):
        raise DDSFailed(f"DDS has no hand for seat {seat} with the turn going by {step}")
    return seat * step % 4


def seat_from_dds(hand: int, step: int = 1) -> int:
    """The seat of DDS's ``hand`` (the inverse of :func:`seat_to_dds`)."""
    return seat_to_dds(hand, step)  # the map is its own inverse: 3 * 3 = 9 = 1 (mod 4)


#: how a game's cards are DDS's: a card as DDS's (suit, rank)
Code = Callable[[int], tuple[int, int]]


def euchre_code(trump: int) -> Code:
    """Euchre's cards as DDS's with ``trump`` (0 clubs .. 3 spades): the right bower (the
    trump jack) is the trump ace, the left bower (the jack of the same colour) the trump king,
    the trump ace, king and queen the queen, jack and ten, the trump ten and nine the nine and
    eight; the other suits as they are, less the left bower. DDS then follows suit and ranks
    trumps as Euchre does."""
    left = card_of(_SAME_COLOUR[trump], JACK)
    right = card_of(trump, JACK)

    def code(card: int) -> tuple[int, int]:
        if card == right:
            return 3 - trump, 14
        if card == left:
            return 3 - trump, 13
        suit, rank = card_to_dds(card)
        if card // 13 == trump:  # A, K, Q to 12, 11, 10 under the bowers; 10, 9 to 9, 8
            return suit, rank - 2 if rank >= 12 else rank - 1
        return suit, rank

    return code


#: the suit of the same colour (clubs and spades, diamonds and hearts)
_SAME_COLOUR: Final = (3, 2, 1, 0)


def future_tricks(
    hands: Sequence[int],
    trick: Sequence[int],
    leader: int,
    trump: int | None,
    step: int = 1,
    every: bool = True,
    code: Code = card_to_dds,
) -> dict[int, int]:
    """Each card the seat to play holds, with the tricks its side takes from this trick on.

    ``hands`` are the four seats' cards as masks (the cards of the current trick no longer
    in them), ``trick`` the cards played to the trick so far (at most three) from seat
    ``leader``, ``trump`` the trump suit (0 clubs .. 3 spades) or None, ``step`` the turn's
    direction. Every card the seat holds is valued, legal or not: DDS lists the cards that
    follow suit where the seat can. Without ``every``, only one best card (and those equal to
    it) is valued: about two and a half times faster from a whole hand. ``code`` gives each
    card's DDS suit and rank (:func:`card_to_dds`; :func:`euchre_code` for the bowers).
    """
    if _dds is None:
        raise DDSFailed(_why)
    if len(hands) != 4 or len(trick) > 3:
        raise DDSFailed("DDS takes four hands and at most three cards of a trick")
    deal = _dds.deal()
    deal.trump = NO_TRUMP if trump is None else 3 - trump
    deal.first = seat_to_dds(leader, step)
    for i in range(3):
        deal.currentTrickSuit[i] = deal.currentTrickRank[i] = 0
    for i, card in enumerate(trick):
        deal.currentTrickSuit[i], deal.currentTrickRank[i] = code(card)
    back: dict[tuple[int, int], int] = {}
    for seat, hand in enumerate(hands):
        if hand >> 52:
            raise DDSFailed("DDS plays a 52-card deck: no jokers")
        row = deal.remainCards[seat_to_dds(seat, step)]
        for i in range(4):
            row[i] = 0
        while hand:
            low = hand & -hand
            card = low.bit_length() - 1
            hand ^= low
            suit, rank = back_key = code(card)
            row[suit] |= 1 << rank
            back[back_key] = card
    found = _dds.futureTricks()
    try:
        with _LOCK:
            # target -1, solutions 3 (every card's most tricks) or 1 (one best card); mode
            # 1: always search
            _dds.SolveBoard(deal, -1, 3 if every else 1, 1, found, 0)
    except Exception as exc:  # endplay raises DDSError for DDS's negative return codes
        raise DDSFailed(f"DDS failed: {exc}") from exc
    out: dict[int, int] = {}
    for i in range(found.cards):
        score = found.score[i]
        if score < 0:
            continue
        suit = found.suit[i]
        ranks = 1 << found.rank[i] | found.equals[i]
        for rank in range(2, 15):
            if ranks >> rank & 1:
                named = back.get((suit, rank))
                if named is None:
                    raise DDSFailed(f"DDS named a card nobody holds (suit {suit}, rank {rank})")
                out[named] = score
    return out


# ----------------------------------------------------------------------------------- Spades


def spades_values(state: Any, seat: int) -> Any:
    """Every legal card's value for ``seat``'s side (the project solver's measure: its side's
    score change for the hand minus the other's) by DDS, as a
    :class:`~tricktable.search.solver.core.SolveResult`; None where DDS does not model the
    position. A state out of card play, with unknown hands, or of another game is a
    :class:`TricktableError`.

    The value by the tricks the side takes is the one the project's compiled core searches
    by (:func:`~tricktable.search.solver.fast.trick_values`): defined only where the hand's
    value hangs on the side's tricks alone and never falls as they grow, in reach (no nil
    open, no ten bags the side can still pass) — exactly where the most tricks is the best
    score, for both sides."""
    from tricktable.games.spades import SpadesState
    from tricktable.search.solver.core import Search, SolveResult, check_play
    from tricktable.search.solver.fast import trick_values
    from tricktable.search.solver.spades import SpadesRules

    if not isinstance(state, SpadesState) or state.n != 4:
        raise TricktableError(f"DDS values: {state.game.name} at {state.n} seats is not Spades")
    check_play(state)
    if not 0 <= seat < 4:
        raise TricktableError(f"DDS values: no seat {seat} at this table")
    rules = SpadesRules(state, seat)
    kernel = rules.kernel
    if kernel is None:
        return None
    by_tricks = trick_values(Search(state, rules), kernel)
    if by_tricks is None:
        return None
    # The seat to play holds a card for every trick left, the one being played included.
    to_act = state.to_act
    left = state.hands[to_act].bit_count()
    leader = state.trick_leader if state.trick else to_act
    tricks = future_tricks(state.hands, state.trick, leader, 3, state.step)
    mine = (seat & 1) == (to_act & 1)
    moves: dict[int, int] = {}
    for card in state.legal_actions():
        got = tricks.get(card)
        if got is None:
            raise DDSFailed(f"DDS gave no value for a legal card ({card})")
        moves[card] = by_tricks[got if mine else left - got]
    best = max(moves.values()) if mine else min(moves.values())
    return SolveResult(best, moves, 0)


# ----------------------------------------------------------------------------------- Euchre


def euchre_values(state: Any, seat: int) -> Any:
    """Every legal card's value for ``seat``'s side in partnership Euchre by DDS (its side's
    points for the hand minus the other's), as a
    :class:`~tricktable.search.solver.core.SolveResult`; None for a lone hand (three seats
    play: not bridge). The makers' points never fall as their tricks grow (euchred 2 to the
    defenders, 3 or 4 tricks 1, a march 2), so the most tricks is the best score for both
    sides; the bowers are mapped into the trump suit (:func:`euchre_code`)."""
    from tricktable.games.euchre import EuchreState, hand_points
    from tricktable.search.solver.core import SolveResult, check_play

    if not isinstance(state, EuchreState) or state.n != 4:
        raise TricktableError(f"DDS values: {state.game.name} at {state.n} seats is not Euchre")
    if not 0 <= seat < 4:
        raise TricktableError(f"DDS values: no seat {seat} at this table")
    if state.alone:
        return None
    check_play(state)
    trump = state.tables.suit
    to_act = state.to_act
    left = state.hands[to_act].bit_count()
    leader = state.trick_leader if state.trick else to_act
    tricks = future_tricks(
        state.hands, state.trick, leader, trump, state.step, code=euchre_code(trump)
    )
    makers = state.maker & 1
    won = state.tricks_won
    before = won[makers] + won[makers + 2]

    def value(maker_tricks: int) -> int:
        made, points = hand_points(maker_tricks, False)
        return points if made == (seat & 1 == makers) else -points

    moves: dict[int, int] = {}
    for card in state.legal_actions():
        got = tricks.get(card)
        if got is None:
            raise DDSFailed(f"DDS gave no value for a legal card ({card})")
        ours = got if to_act & 1 == makers else left - got
        moves[card] = value(before + ours)
    mine = (seat & 1) == (to_act & 1)
    best = max(moves.values()) if mine else min(moves.values())
    return SolveResult(best, moves, 0)


# --------------------------------------------------------------------------------- the games


def models(game: Any) -> bool:
    """Whether DDS values ``game``'s card play here (:func:`values`): Spades and Euchre at
    four seats, in partnerships."""
    return game.name in ("spades", "euchre") and game.num_players == 4


def usable(game: Any) -> bool:
    """Whether DDS values ``game``'s card play in this process: it :func:`models` the game
    and is :func:`available`."""
    return models(game) and available()


def values(state: Any, seat: int) -> Any:
    """DDS's :class:`~tricktable.search.solver.core.SolveResult` for ``seat`` in a game
    :func:`models` (None where it does not model the position)."""
    if state.game.name == "euchre":
        return euchre_values(state, seat)
    return spades_values(state, seat)
