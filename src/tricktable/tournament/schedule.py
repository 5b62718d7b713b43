"""A tournament as units of play: one table's play of one deal (or one whole match).

:func:`units` lists them in one fixed order, each with everything a worker needs (picklable)
and a key unique in its tournament (``g3/d17/t1``: group 3, deal 17, table 1). The key is what
makes a tournament resumable: the database stores a unit once, so a unit played again after a
kill is never counted twice, and a resumed run plays exactly the units not stored.

Groups: in a partnership game a group is a pairing of two partnerships; where each plays
alone, a group of as many entrants as seats. A unit's seed is derived from the tournament's
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
    """The sides of each group: a pairing of two partnerships, or a group of lone players.

    A partnership is a tuple of entrant indices (``(0,)``: entrant 0 partners itself).
    """
    game = load_game(spec.game)
    n = len(spec.entrants)
    if game.num_scores != 2:
        return [tuple((e,) for e in group) for group in combinations(range(n), game.num_players)]
    if spec.resolved_partnerships() == "self":
        return [((a,), (b,)) for a, b in combinations(range(n), 2)]
    out: list[tuple[tuple[int, ...], ...]] = []
    for four in combinations(range(n), 4):
        first = four[0]
        for partner in four[1:]:
            us = (first, partner)
            them = tuple(e for e in four if e not in us)
            out.append((us, them))
    return out


def tables(sides: tuple[tuple[int, ...], ...], num_players: int) -> list[tuple[int, ...]]:
    """The seatings of a group: the entrant at each seat, for every table of a deal.

    Two partnerships: table 0 seats the first at 0 and 2, table 1 swaps the sides. Lone
    players: table ``r`` seats player ``(s + r) % n`` at seat ``s``, every rotation once.
    """
    if len(sides) == 2 and num_players == 4:
        (a, b) = sides
        first = (a[0], b[0], a[-1], b[-1])
        second = (b[0], a[0], b[-1], a[-1])
        return [first, second]
    players = [side[0] for side in sides]
    n = len(players)
    return [tuple(players[(s + r) % n] for s in range(n)) for r in range(n)]


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
