"""What a tournament is: its entrants, game, format and seed — stored with it, so it resumes.

A :class:`TournamentSpec` is plain data and round-trips through JSON (the database keeps it
beside the games); :func:`load_spec_file` reads one from a small TOML file. Formats:

- ``duplicate`` — every deal (or whole match, by its seed) is played at several tables with the
  same cards: in partnership games at two tables with the partnerships swapped, in games where
  each plays alone at every rotation of the seats. The luck of the cards cancels.
- ``round-robin`` — every pairing plays in both seatings, each table with deals of its own.

Partnerships (four-seat partnership games): ``self`` — an entrant partners itself, so a
pairing is two entrants (A and A against B and B); ``mixed`` — every entrant partners every
other: a pairing is two disjoint pairs of entrants (needs four or more). ``auto`` is ``mixed``
from four entrants up, else ``self``.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Final

from tricktable.errors import OptionError
from tricktable.games import load_game
from tricktable.limits import RunnerOptions

FORMATS: Final = ("duplicate", "round-robin")
PARTNERSHIPS: Final = ("auto", "self", "mixed")
#: deals a table plays when neither deals nor matches are given
DEFAULT_DEALS: Final = 100
#: the most hands a whole match of a tournament lasts: some never end (in Setback a side that
#: keeps being set never reaches the target), and a tournament must
MAX_HANDS: Final = 300


@dataclass(frozen=True)
class TournamentSpec:
    """A tournament, complete: what :func:`tricktable.tournament.schedule.units` expands.

    ``entrants`` are (name, player spec) pairs; ``deals`` fixes the deals each table plays
    (each a fresh one-hand match), ``matches`` plays whole matches instead (one of the two),
    each stopped after ``max_hands`` hands if it has not ended (status ``stopped``).
    """

    name: str
    game: str
    entrants: tuple[tuple[str, str], ...]
    format: str = "duplicate"
    deals: int | None = None
    matches: int | None = None
    seed: int = 1
    partnerships: str = "auto"
    limits: RunnerOptions = field(default_factory=RunnerOptions)
    substitute: str = "heuristic"
    max_hands: int = MAX_HANDS

    def __post_init__(self) -> None:
        entrants = tuple((str(n), str(s)) for n, s in self.entrants)
        object.__setattr__(self, "entrants", entrants)
        if self.format not in FORMATS:
            raise OptionError(f"unknown format {self.format!r}; valid: {', '.join(FORMATS)}")
        if self.partnerships not in PARTNERSHIPS:
            raise OptionError(
                f"unknown partnerships {self.partnerships!r}; valid: {', '.join(PARTNERSHIPS)}"
            )
        if self.deals is not None and self.matches is not None:
            raise OptionError("give deals or matches, not both")
        if self.deals is None and self.matches is None:
            object.__setattr__(self, "deals", DEFAULT_DEALS)
        for what in ("deals", "matches"):
            value = getattr(self, what)
            if value is not None and value < 1:
                raise OptionError(f"{what} must be at least 1")
        if self.max_hands < 1:
            raise OptionError("max_hands must be at least 1")
        if len(entrants) < 2:
            raise OptionError("a tournament needs at least two entrants")
        names = [n for n, _ in entrants]
        if len(set(names)) != len(names):
            raise OptionError("entrant names must differ (name them: NAME=SPEC)")
        game = load_game(self.game)  # a bad game spec fails now, with the game's own message
        if game.num_scores != 2 and len(entrants) < game.num_players:
            raise OptionError(
                f"{game.preset} seats {game.num_players} players each for themselves: "
                f"give at least {game.num_players} entrants"
            )
        if self.partnerships == "mixed" and game.num_scores == 2 and len(entrants) < 4:
            raise OptionError("mixed partnerships need at least four entrants")

    @property
    def unit_hands(self) -> int:
        """Hands a table plays at most: one a deal, or ``max_hands`` for a whole match."""
        return 1 if self.deals is not None else self.max_hands

    @property
    def rounds(self) -> int:
        """Deals (or matches) each table plays."""
        count = self.deals if self.deals is not None else self.matches
        assert count is not None
        return count

    def to_dict(self) -> dict[str, Any]:
        """The spec as JSON-ready data, with what readers need to score a game without the engine:
        each seat's side, the number of sides and whether the lowest score wins."""
        game = load_game(self.game)
        out = asdict(self)
        out["entrants"] = [list(e) for e in self.entrants]
        out["side_of_seat"] = [game.team_of(s) for s in range(game.num_players)]
        out["num_sides"] = game.num_scores
        out["lower_wins"] = bool(type(game).lower_wins)
        out["partnerships"] = self.resolved_partnerships()
        return out

    def resolved_partnerships(self) -> str:
        """``self``, ``mixed`` or ``none`` (a game where each plays alone)."""
        if load_game(self.game).num_scores != 2:
            return "none"
        if self.partnerships != "auto":
            return self.partnerships
        return "mixed" if len(self.entrants) >= 4 else "self"

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TournamentSpec:
        """The spec a stored tournament holds (see :meth:`to_dict`)."""
        try:
            limits = RunnerOptions(**data.get("limits", {}))
            partnerships = data.get("partnerships", "auto")
            return cls(
                name=str(data["name"]),
                game=str(data["game"]),
                entrants=tuple((str(n), str(s)) for n, s in data["entrants"]),
                format=str(data.get("format", "duplicate")),
                deals=data.get("deals"),
                matches=data.get("matches"),
                seed=int(data.get("seed", 1)),
                partnerships="auto" if partnerships == "none" else partnerships,
                limits=limits,
                substitute=str(data.get("substitute", "heuristic")),
                max_hands=int(data.get("max_hands", MAX_HANDS)),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise OptionError(f"the stored tournament's spec is not one: {exc}") from None


def parse_entrants(items: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """Entrants from the command line: ``SPEC`` (named by its spec) or ``NAME=SPEC``.

    >>> parse_entrants(["heuristic", "rnd=random", "pimc(worlds=9)"])
    (('heuristic', 'heuristic'), ('rnd', 'random'), ('pimc(worlds=9)', 'pimc(worlds=9)'))
    """
    out = []
    for item in items:
        name, sep, spec = item.partition("=")
        if sep and name.strip() and not any(ch in name for ch in ":/("):
            out.append((name.strip(), spec.strip()))
        else:
            out.append((item.strip(), item.strip()))
    return tuple(out)


def load_spec_file(path: str, **given: Any) -> TournamentSpec:
    """A spec from a TOML file (keys as :class:`TournamentSpec`'s; ``[entrants]`` maps names to
    player specs; ``[limits]`` the time limits); ``given`` (the command line's) win."""
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise OptionError(f"cannot read {path}: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise OptionError(f"{path} is not valid TOML: {exc}") from None
    known = {"name", "game", "entrants", "format", "deals", "matches", "seed", "partnerships"}
    known |= {"limits", "substitute", "max_hands"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise OptionError(f"{path}: unknown key {unknown[0]!r}; valid: {', '.join(sorted(known))}")
    entrants = data.get("entrants", {})
    if not isinstance(entrants, dict) or not all(isinstance(v, str) for v in entrants.values()):
        raise OptionError(f"{path}: [entrants] must map names to player specs")
    fields: dict[str, Any] = {k: v for k, v in data.items() if k not in ("entrants", "limits")}
    fields["entrants"] = tuple(entrants.items())
    if "limits" in data:
        try:
            fields["limits"] = RunnerOptions(**data["limits"])
        except TypeError as exc:
            raise OptionError(f"{path}: bad [limits]: {exc}") from None
    fields.setdefault("name", Path(path).stem)
    fields.setdefault("game", "setback")
    fields.update({k: v for k, v in given.items() if v is not None})
    try:
        return TournamentSpec(**fields)
    except TypeError as exc:
        raise OptionError(f"{path}: {exc}") from None
