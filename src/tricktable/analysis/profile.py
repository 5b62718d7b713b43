"""A finished match summed up a seat at a time, for the players' pages: pure, from a state.

:func:`summarize` reads a match's final state (or :func:`summarize_record` a record, replayed)
and gives a :class:`MatchSummary`: for every seat its player, side, result (``won``,
``lost`` or ``drawn``), the points its side scored and the other sides scored, and the
contracts it made and was set on in the games that have them. Nothing here reads or writes a
database: :mod:`tricktable.analysis.profile_store` stores the rows and keeps the ratings.

**Results.** A match that ended with a winner: that side won, every other lost. A shared win
(Oh Hell's tie at the top): the sharing sides drew, the rest lost. A match without a winner —
a tournament's unit cut after some hands, or a lone player's forfeit — is decided by the
scores: the best (the lowest where lower wins) won, several best drew, a forfeiting side lost.

**Bids made and set.** A *bid* here is a contract a seat undertook, one a hand at most:
Setback's and Pitch's declarer (made when the declaring side's score did not fall: set, it
loses the bid), Cinch's bidder, Euchre's maker (set: euchred), each seat's bid in Spades (a nil
made by taking no trick, a number by the side's contract) and in Oh Hell (made exactly).
Games without bids (Hearts, California Jack...) have none: ``bids_made`` is None there.

**Players.** A seat's player is a key that names one player everywhere:
``account:NAME`` (the name folded), ``guest:ID``, ``bot:SPEC`` or ``character:NAME``.
Tournaments' records label their seats ``bot:SPEC`` (:func:`key_of_label` reads them; a
character's spec names the character), and the web server knows its seats.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final

from tricktable.analysis.intervals import wilson
from tricktable.analysis.ratings import RatedGame
from tricktable.engine.results import HandResult
from tricktable.engine.trick import Game, TrickState
from tricktable.games.cinch_results import CinchResult
from tricktable.games.euchre_results import EuchreResult
from tricktable.games.oh_hell_results import OhHellResult
from tricktable.games.setback_results import SetbackResult
from tricktable.games.spades_results import SpadesResult

#: the results a seat's row holds
RESULTS: Final = ("won", "lost", "drawn")
#: the kinds of player a key names, as its prefix says
KINDS: Final = ("account", "guest", "bot", "character", "name")


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """One seat of a finished match: who, which side, how it came out (see the module)."""

    seat: int
    side: int
    player: str
    name: str
    result: str
    points_for: int
    points_against: float
    bids_made: int | None
    bids_set: int | None


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """A finished match a seat at a time: its ``game`` (the record's name), ``hands`` scored,
    whether it reached its end (``over``), and every seat's :class:`SeatSummary`."""

    game: str
    hands: int
    over: bool
    lower_wins: bool
    seats: tuple[SeatSummary, ...]


# ------------------------------------------------------------------------------ players


def key_of_label(label: str) -> str:
    """The player key of a record's seat label: ``bot:SPEC`` is a bot, or the character its
    spec names (``bot:edna(base=ismcts)`` is ``character:edna``); ``user:NAME`` an account
    (a league night's person: its name folded as accounts are told apart); any other label is
    a name alone (``name:LABEL``), which no server knows more of.

    >>> key_of_label("bot:heuristic"), key_of_label("bot:Vinnie"), key_of_label("Ann")
    ('bot:heuristic', 'character:vinnie', 'name:Ann')
    >>> key_of_label("user:Nell  Gwyn")
    'account:nell gwyn'
    """
    if label.startswith("bot:"):
        spec = label[4:]
        character = character_of(spec)
        return f"character:{character}" if character else f"bot:{spec}"
    if label.startswith("user:"):
        # web.store.fold's rule, written here: the core does not import the web's modules
        return "account:" + " ".join(label[5:].casefold().split())
    return f"name:{label}"


def character_of(spec: str) -> str | None:
    """The character a player spec names (``edna``, ``Edna(base=ismcts)``), or None."""
    from tricktable.characters.roster import CHARACTERS

    base = spec.split("(", 1)[0].strip().lower()
    return base if base in CHARACTERS else None


# ------------------------------------------------------------------------------- results


def summarize(
    state: TrickState, players: Sequence[str], names: Sequence[str] | None = None
) -> MatchSummary:
    """The summary of the match ``state`` holds (finished, or cut short: see the module);
    ``players`` are the seats' keys, ``names`` their labels (the keys if None)."""
    game = state.game
    n = game.num_players
    if len(players) != n or (names is not None and len(names) != n):
        raise ValueError(f"{game.preset} has {n} seats: give a player and a name for each")
    labels = list(names) if names is not None else list(players)
    lower = bool(type(game).lower_wins)
    sides = game.num_scores
    start = list(game.new_state(0).scores)
    final = list(state.scores)
    gained = [final[s] - start[s] for s in range(sides)]
    outcome = _outcome(state, gained, lower)
    made, set_ = _contracts(game, state)
    has_bids = any(isinstance(r, _BIDDING) for r in state.results)
    out = []
    for seat in range(n):
        side = game.team_of(seat)
        others = [gained[s] for s in range(sides) if s != side]
        out.append(
            SeatSummary(
                seat=seat,
                side=side,
                player=players[seat],
                name=labels[seat],
                result=outcome[side],
                points_for=gained[side],
                points_against=sum(others) / len(others) if others else 0.0,
                bids_made=made[seat] if has_bids else None,
                bids_set=set_[seat] if has_bids else None,
            )
        )
    return MatchSummary(game.preset, len(state.results), state.is_over, lower, tuple(out))


def summarize_record(record: dict[str, Any], players: Sequence[str] | None = None) -> MatchSummary:
    """The summary of a match record (replayed and checked: a :class:`RecordError` if it does
    not replay); ``players`` default to the keys of its labels (:func:`key_of_label`)."""
    from tricktable.records import read_labels, replay

    state = replay(record)
    n = state.game.num_players
    labels = read_labels(record, n) or [f"seat {i}" for i in range(n)]
    keys = list(players) if players is not None else [key_of_label(x) for x in labels]
    return summarize(state, keys, labels)


def _outcome(state: TrickState, gained: Sequence[int], lower: bool) -> list[str]:
    """Each side's result (see the module)."""
    sides = len(gained)
    results = state.results
    shared = results[-1].shared_win() if state.is_over and results else ()
    if shared:
        return ["drawn" if s in shared else "lost" for s in range(sides)]
    if state.is_over and state.winner is not None:
        return ["won" if s == state.winner else "lost" for s in range(sides)]
    game = state.game
    forfeited = {game.team_of(n.seat) for n in state.notes if n.kind == "forfeit"}
    playing = [s for s in range(sides) if s not in forfeited]
    if not playing:
        return ["lost"] * sides
    sign = -1 if lower else 1
    best = max(sign * gained[s] for s in playing)
    top = [s for s in playing if sign * gained[s] == best]
    won = "won" if len(top) == 1 else "drawn"
    return [won if s in top else "lost" for s in range(sides)]


# ------------------------------------------------------------------------------ contracts

#: (seat, made) for each contract of a hand, given its result, the scores before it and
#: the game
Reader = Callable[[Any, Sequence[int], Game], Iterator[tuple[int, bool]]]


def _setback(r: SetbackResult, before: Sequence[int], game: Game) -> Iterator[tuple[int, bool]]:
    if r.declarer is not None and not r.thrown_in:
        side = game.team_of(r.declarer)
        # Set, the declaring side loses (the bid, or a moon's value); made, it never does.
        yield r.declarer, r.scores[side] >= before[side]


def _cinch(r: CinchResult, before: Sequence[int], game: Game) -> Iterator[tuple[int, bool]]:
    if r.bidder is not None and not r.thrown_in:
        yield r.bidder, r.made


def _euchre(r: EuchreResult, before: Sequence[int], game: Game) -> Iterator[tuple[int, bool]]:
    if r.maker is not None and not r.thrown_in:
        yield r.maker, not r.euchred


def _spades(r: SpadesResult, before: Sequence[int], game: Game) -> Iterator[tuple[int, bool]]:
    for seat, bid in enumerate(r.bids):
        if bid == 0:
            yield seat, r.tricks[seat] == 0  # a nil: made by taking no trick
        else:
            made = r.made[game.team_of(seat)]
            if made is not None:
                yield seat, made


def _oh_hell(r: OhHellResult, before: Sequence[int], game: Game) -> Iterator[tuple[int, bool]]:
    for seat, bid in enumerate(r.bids):
        yield seat, r.tricks[seat] == bid


#: the games with bids, by the class of their hands' results (a sealed result is a subclass)
READERS: Final[tuple[tuple[type[HandResult], Reader], ...]] = (
    (SetbackResult, _setback),
    (CinchResult, _cinch),
    (EuchreResult, _euchre),
    (SpadesResult, _spades),
    (OhHellResult, _oh_hell),
)
_BIDDING: Final = tuple(cls for cls, _ in READERS)


def _contracts(game: Game, state: TrickState) -> tuple[list[int], list[int]]:
    """Contracts made and set by each seat over the match's scored hands."""
    n = game.num_players
    made, set_ = [0] * n, [0] * n
    before = list(game.new_state(0).scores)
    for result in state.results:
        for cls, read in READERS:
            if isinstance(result, cls):
                for seat, ok in read(result, before, game):
                    if ok:
                        made[seat] += 1
                    else:
                        set_[seat] += 1
                break
        before = list(result.scores)
    return made, set_


# -------------------------------------------------------------------------------- ratings

#: a side's result as the rating model ranks it, before its points
_ORDER: Final = {"won": 2, "drawn": 1, "lost": 0}


@dataclass(frozen=True, slots=True)
class RatedMatch:
    """A match as the rating model sees it: ``game``'s teams name *slots*, ``players[slot]``
    the player in each; the ratings of ``fixed`` players are used but not changed."""

    game: RatedGame
    players: tuple[str, ...]
    fixed: frozenset[str]


def rated_match(seats: Sequence[tuple[str, int, str, int]], lower_wins: bool) -> RatedMatch | None:
    """The match as the rating model sees it, from its seats' ``(player, side, result,
    points_for)``: each side a team of its players, ranked by result, then by points (where
    lower wins, the fewer the better; teams level on both share a rank).

    A player seated on two sides (a bot against itself: two "Seasoned bot"s at a web table)
    plays on each at its rating, which the match does not change — a match against oneself
    says nothing of one's skill — while everyone else is rated as usual. None where nobody is
    left to rate, or fewer than two sides.

    >>> m = rated_match([("a", 0, "won", 5), ("b", 1, "lost", 2)], lower_wins=False)
    >>> m.game.ranks, m.players, sorted(m.fixed)
    ((0, 1), ('a', 'b'), [])
    >>> m = rated_match([("a", 0, "won", 5), ("x", 0, "won", 5), ("x", 1, "lost", 2),
    ...                  ("b", 1, "lost", 2)], lower_wins=False)
    >>> m.game.teams, m.players, sorted(m.fixed)
    (((0, 1), (2, 3)), ('a', 'x', 'x', 'b'), ['x'])
    """
    by_side: dict[int, list[str]] = {}
    keys: dict[int, float] = {}
    for player, side, result, points in seats:
        members = by_side.setdefault(side, [])
        if player not in members:  # one player twice on a side is one member
            members.append(player)
        # The result first, by a margin no score reaches; then the points.
        keys[side] = _ORDER[result] * 1e12 + (-points if lower_wins else points)
    order = sorted(by_side)
    if len(order) < 2:
        return None
    sides_of: dict[str, int] = {}
    for side in order:
        for player in by_side[side]:
            sides_of[player] = sides_of.get(player, 0) + 1
    fixed = frozenset(p for p, n in sides_of.items() if n > 1)
    if len(fixed) == len(sides_of):
        return None
    players: list[str] = []
    teams: list[tuple[int, ...]] = []
    for side in order:
        teams.append(tuple(range(len(players), len(players) + len(by_side[side]))))
        players += by_side[side]
    # Competition ranking ("1224"): a team's rank is how many teams did strictly better.
    ranks = tuple(sum(keys[o] > keys[s] for o in order) for s in order)
    return RatedMatch(RatedGame(tuple(teams), ranks), tuple(players), fixed)


# ------------------------------------------------------------------------------- figures


def record_line(won: int, lost: int, drawn: int) -> dict[str, Any]:
    """Won-lost(-drawn) with the win rate and its 95% Wilson interval (a draw counts half).

    >>> line = record_line(8, 2, 0)
    >>> line["rate"], round(line["low"], 4), round(line["high"], 4)
    (0.8, 0.4902, 0.9433)
    """
    n = won + lost + drawn
    out: dict[str, Any] = {"matches": n, "won": won, "lost": lost, "drawn": drawn}
    if n == 0:
        return {**out, "rate": None, "low": None, "high": None}
    p = wilson(won + drawn / 2, n)
    return {**out, "rate": p.rate, "low": p.low, "high": p.high}


def bids_line(made: int, set_: int) -> dict[str, Any]:
    """Bids made and set, with the rate made and its 95% interval (None where no bid)."""
    n = made + set_
    if n == 0:
        return {"made": 0, "set": 0, "rate": None, "low": None, "high": None}
    p = wilson(made, n)
    return {"made": made, "set": set_, "rate": p.rate, "low": p.low, "high": p.high}


__all__ = [
    "KINDS",
    "READERS",
    "RESULTS",
    "MatchSummary",
    "RatedMatch",
    "SeatSummary",
    "bids_line",
    "character_of",
    "key_of_label",
    "rated_match",
    "record_line",
    "summarize",
    "summarize_record",
]
