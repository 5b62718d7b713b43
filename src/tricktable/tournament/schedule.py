"""A tournament as units of play: one table's play of one deal (or one whole match).

:func:`units` lists them in one fixed order, each with everything a worker needs (picklable)
and a key unique in its tournament (``g3/d17/t1``: group 3, deal 17, table 1). The key is what
makes a tournament resumable: the database stores a unit once, so a unit played again after a
kill is never counted twice, and a resumed run plays exactly the units not stored.

Groups: in a partnership game a group is a meeting of as many partnerships as the game has
sides (two at four seats; three of two at six with ``partners=3x2``), each partnership
as many entrants as a side has seats (or one entrant in every seat of its side); where each
plays alone, a group of as many entrants as seats. A unit's seed is derived from the tournament's
seed, its group and its deal — not its table: the tables of a deal share the seed, so they
get the same cards seat for seat (the engine deals hand ``h`` from the seed and ``h`` alone),
and the players are moved, not the cards.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass
from itertools import combinations

from tricktable.games import load_game
from tricktable.limits import RunnerOptions
from tricktable.seeds import derive_seed
from tricktable.tournament.spec import TournamentSpec


@dataclass(frozen=True)
class Unit:
    """One table's play: ``entrants`` holds the entrant index at each seat."""

    key: str
    group: int
    deal: int
    table: int
    entrants: tuple[int, ...]
    players: tuple[str, ...]
    game: str
    seed: int
    max_hands: int
    limits: RunnerOptions
    substitute: str


def groups(spec: TournamentSpec) -> list[tuple[tuple[int, ...], ...]]:
    """The sides of each group: a meeting of partnerships, or a group of lone players.

    A partnership is a tuple of entrant indices (``(0,)``: entrant 0 partners itself). With
    ``mixed`` partnerships, every way of splitting each choice of entrants into sides is a
    group, the first entrant's side first (four entrants and two sides of two: three groups).
    """
    game = load_game(spec.game)
    n = len(spec.entrants)
    sides = game.num_scores
    if sides >= game.num_players:
        return [tuple((e,) for e in group) for group in combinations(range(n), game.num_players)]
    if spec.resolved_partnerships() == "self":
        return [tuple((e,) for e in group) for group in combinations(range(n), sides)]
    size = game.num_players // sides
    out: list[tuple[tuple[int, ...], ...]] = []
    for chosen in combinations(range(n), game.num_players):
        out.extend(_splits(chosen, size))
    return out


def _splits(entrants: tuple[int, ...], size: int) -> list[tuple[tuple[int, ...], ...]]:
    """Every way to split ``entrants`` into sides of ``size``: the first entrant's side first,
    with each choice of partners in order, then the splits of the rest.

    >>> _splits((0, 1, 2, 3), 2)
    [((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2))]
    """
    if not entrants:
        return [()]
    first, rest = entrants[0], entrants[1:]
    out: list[tuple[tuple[int, ...], ...]] = []
    for partners in combinations(rest, size - 1):
        side = (first, *partners)
        others = tuple(e for e in rest if e not in partners)
        out.extend((side, *split) for split in _splits(others, size))
    return out


def tables(sides: tuple[tuple[int, ...], ...], num_players: int) -> list[tuple[int, ...]]:
    """The seatings of a group: the entrant at each seat, for every table of a deal.

    Seat ``s`` plays for side ``s % k`` of the ``k`` sides (partners sit evenly round the
    table), the ``s // k``-th member of its side. Table ``r`` seats the group's side
    ``(i + r) % k`` at the table's side ``i``: every side sits in every side's seats once.
    Two partnerships at four seats: table 0 seats the first at 0 and 2, table 1 swaps them;
    lone players: table ``r`` seats player ``(s + r) % n`` at seat ``s``.

    >>> tables(((0, 1), (2, 3), (4, 5)), 6)
    [(0, 2, 4, 1, 3, 5), (2, 4, 0, 3, 5, 1), (4, 0, 2, 5, 1, 3)]
    """
    k = len(sides)
    out = []
    for r in range(k):
        seating = []
        for s in range(num_players):
            side = sides[(s % k + r) % k]
            seating.append(side[(s // k) % len(side)])
        out.append(tuple(seating))
    return out


def units(spec: TournamentSpec, skip: Collection[str] = frozenset()) -> Iterator[Unit]:
    """Every unit of the tournament, in a fixed order: group, deal, table.

    Units whose key is in ``skip`` (those stored already, on resume) are left out before their
    seed is derived, so a resumed run does no work for them.
    """
    game = load_game(spec.game)
    players = [p for _, p in spec.entrants]
    for g, sides in enumerate(groups(spec)):
        seatings = tables(sides, game.num_players)
        for d in range(spec.rounds):
            shared: int | None = None
            for t, seating in enumerate(seatings):
                key = f"g{g}/d{d}/t{t}"
                if key in skip:
                    continue
                if spec.format == "round-robin":
                    seed = derive_seed(spec.seed, "tournament", g, d, t)  # a table's own deals
                else:
                    if shared is None:
                        shared = derive_seed(spec.seed, "tournament", g, d)
                    seed = shared
                yield Unit(
                    key=key,
                    group=g,
                    deal=d,
                    table=t,
                    entrants=seating,
                    players=tuple(players[e] for e in seating),
                    game=spec.game,
                    seed=seed,
                    max_hands=spec.unit_hands,
                    limits=spec.limits,
                    substitute=spec.substitute,
                )


def count(spec: TournamentSpec) -> int:
    """How many units the tournament has."""
    game = load_game(spec.game)
    return sum(len(tables(s, game.num_players)) for s in groups(spec)) * spec.rounds
