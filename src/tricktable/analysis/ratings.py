"""OpenSkill ratings of individual entrants, whoever they partnered: a skill estimate from games.

Each game is one match of *teams*: a side of the table is a team, its members the entrants
seated on it (one entrant twice in a self partnership is one member), ranked by the side's
score. The model is OpenSkill's Plackett-Luce (Weng & Lin 2011, the ``openskill`` package),
which rates individuals from team results: a team's strength is the sum of its members'; after
each game every member moves by its share of the surprise. A rating is ``mu`` (the skill
estimate) and ``sigma`` (its uncertainty); the *ordinal* ``mu - 3 sigma`` is the conservative
figure a leaderboard sorts by (every entrant starts at 25, 25/3: ordinal 0).

Games are rated in the order given; :func:`rate_games` is deterministic for a given order (the
model has no randomness), and :func:`tricktable.analysis.standings.read_standings` gives them
by round, group and table.

>>> games = [RatedGame.of_sides([[1], [2]], [10, 3])] * 5
>>> ratings = rate_games({1: "strong", 2: "weak"}, games, snapshots=5)
>>> ratings.order(), ratings.history[0].games, ratings.history[-1].games
(['strong', 'weak'], 0, 5)
"""

from __future__ import annotations

import functools
import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from tricktable.errors import TricktableError

#: the most snapshots of the ratings kept for the plot of ratings over time (plus the start)
SNAPSHOTS: Final = 100
#: the model's name, as the output states it
MODEL: Final = "OpenSkill Plackett-Luce"


class RatingError(TricktableError):
    """Games that cannot be rated: a team naming an entrant the tournament does not have."""


@dataclass(frozen=True, slots=True)
class RatedGame:
    """One game as the rating model sees it: ``teams`` (entrant ids) and their ``ranks``
    (0 the best; teams that tie share a rank)."""

    teams: tuple[tuple[int, ...], ...]
    ranks: tuple[int, ...]

    @classmethod
    def of_sides(
        cls,
        sides: Sequence[Sequence[int]],
        scores: Sequence[float],
        *,
        lower_wins: bool = False,
        forfeited: Collection[int] = (),
    ) -> RatedGame | None:
        """The game whose side ``i`` holds the entrants ``sides[i]`` and scored ``scores[i]``.

        Sides that share an entrant (one bot seated on two sides of an individual game) are
        one team, scoring their mean: an entrant can't play against itself. A side in
        ``forfeited`` (indices) lost whatever the scores say: it ranks below every other.
        ``None`` when fewer than two teams are left: there is nothing to learn from the game.

        >>> RatedGame.of_sides([[1, 3], [2, 4]], [5, 9])
        RatedGame(teams=((1, 3), (2, 4)), ranks=(1, 0))
        >>> RatedGame.of_sides([[1], [2], [1], [3]], [0, 26, 0, 0], lower_wins=True)
        RatedGame(teams=((1,), (2,), (3,)), ranks=(0, 2, 0))
        """
        if len(sides) != len(scores):
            raise RatingError(f"{len(sides)} sides but {len(scores)} scores")
        merged = _merge(tuple(map(tuple, sides)))
        if len(merged) < 2:
            return None
        sign = -1.0 if lower_wins else 1.0
        keys: list[tuple[int, float]] = []
        for _, indices in merged:
            mean = sum(scores[i] for i in indices) / len(indices)
            lost = any(i in forfeited for i in indices)
            # Smaller is better: a forfeit first, then the score (turned where lower wins).
            keys.append((1 if lost else 0, -sign * mean))
        # Competition ranking ("1224"): a team's rank is how many teams did strictly better.
        ranks = tuple(sum(other < key for other in keys) for key in keys)
        return cls(tuple(members for members, _ in merged), ranks)


@functools.lru_cache(maxsize=1024)  # a tournament seats its entrants few ways
def _merge(sides: tuple[tuple[int, ...], ...]) -> list[tuple[tuple[int, ...], list[int]]]:
    """The teams of ``sides``, each with the indices of its sides: sides sharing an entrant
    joined, the team holding the lowest side first, members in order of seating."""
    members = [tuple(dict.fromkeys(side)) for side in sides]
    seated = [m for team in members for m in team]
    if len(seated) == len(set(seated)):  # the usual case: nobody on two sides
        return [(team, [i]) for i, team in enumerate(members) if team]
    teams: list[tuple[list[int], list[int]]] = []
    for index, side in enumerate(members):
        if not side:
            continue
        union: list[int] = []
        indices: list[int] = []
        for team in [team for team in teams if set(team[0]) & set(side)]:
            teams.remove(team)
            union += team[0]  # teams are disjoint: no member twice
            indices += team[1]
        teams.append((union + [m for m in side if m not in union], [*indices, index]))
    teams.sort(key=lambda team: min(team[1]))
    return [(tuple(team), sorted(indices)) for team, indices in teams]


@dataclass(frozen=True, slots=True)
class Rating:
    """An entrant's rating: ``mu`` (skill) and ``sigma`` (its uncertainty)."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma``: skill at least this high with about 99.9% confidence."""
        return self.mu - 3 * self.sigma

    def to_dict(self) -> dict[str, float]:
        """The rating as JSON-ready data, its ordinal included."""
        return {"mu": self.mu, "sigma": self.sigma, "ordinal": self.ordinal}


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The ordinal of every entrant after the first ``games`` games were rated."""

    games: int
    ordinals: Mapping[str, float]

    def to_dict(self) -> dict[str, Any]:
        """The snapshot as JSON-ready data."""
        return {"games": self.games, "ordinals": dict(self.ordinals)}


@dataclass(frozen=True)
class Ratings:
    """Every entrant's rating (by name) after ``games`` rated games, and ``history``: the
    ordinals at the start, at most :data:`SNAPSHOTS` times along the way, and at the end."""

    ratings: Mapping[str, Rating]
    games: int
    history: tuple[Snapshot, ...]
    model: str = MODEL

    def order(self) -> list[str]:
        """The entrants, the highest ordinal first (ties by name)."""
        return sorted(self.ratings, key=lambda name: (-self.ratings[name].ordinal, name))

    def to_dict(self) -> dict[str, Any]:
        """The ratings as JSON-ready data."""
        return {
            "model": self.model,
            "games": self.games,
            "ratings": {name: self.ratings[name].to_dict() for name in self.order()},
            "history": [snapshot.to_dict() for snapshot in self.history],
        }


@functools.cache
def _model() -> Any:
    """OpenSkill's Plackett-Luce model, made once (it holds no ratings)."""
    from openskill.models import PlackettLuce

    return PlackettLuce()


def rate_game(game: RatedGame, before: Mapping[int, Rating]) -> dict[int, Rating]:
    """The ratings of ``game``'s entrants after it, from their ratings ``before`` (an entrant
    missing there starts where :func:`rate_games` starts everyone): one step of
    :func:`rate_games`, for ratings kept between games (the players' pages).

    >>> after = rate_game(RatedGame(((1,), (2,)), (0, 1)), {})
    >>> after[1].mu > 25 > after[2].mu
    True
    """
    model = _model()
    teams = [
        [
            model.rating()
            if (r := before.get(eid)) is None
            else model.rating(mu=r.mu, sigma=r.sigma)
            for eid in team
        ]
        for team in game.teams
    ]
    rated = model.rate(teams, ranks=list(game.ranks))
    return {
        eid: Rating(r.mu, r.sigma)
        for team, new in zip(game.teams, rated, strict=True)
        for eid, r in zip(team, new, strict=True)
    }


def rate_games(
    entrants: Mapping[int, str], games: Sequence[RatedGame], *, snapshots: int = SNAPSHOTS
) -> Ratings:
    """Rate ``games`` in the order given; ``entrants`` maps each id the teams name to a name.

    ``history`` holds the start (0 games), a snapshot every ``ceil(len(games) / snapshots)``
    games, and the end.
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current = {eid: model.rating(name=name) for eid, name in entrants.items()}

    def snapshot(done: int) -> Snapshot:
        return Snapshot(done, {entrants[eid]: r.ordinal() for eid, r in current.items()})

    every = max(1, math.ceil(len(games) / max(1, snapshots)))
    history = [snapshot(0)]
    for done, game in enumerate(games, 1):
        try:
            teams = [[current[eid] for eid in team] for team in game.teams]
        except KeyError as exc:
            raise RatingError(
                f"game {done} names entrant id {exc.args[0]}, not an entrant"
            ) from None
        rated = model.rate(teams, ranks=list(game.ranks))
        for team, new in zip(game.teams, rated, strict=True):
            for eid, rating in zip(team, new, strict=True):
                current[eid] = rating
        if done % every == 0 or done == len(games):
            history.append(snapshot(done))
    final = {entrants[eid]: Rating(r.mu, r.sigma) for eid, r in current.items()}
    return Ratings(final, len(games), tuple(history))
