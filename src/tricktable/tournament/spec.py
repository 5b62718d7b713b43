"""What a tournament is: its entrants, game, format and seed — stored with it, so it resumes.

A :class:`TournamentSpec` is plain data and round-trips through JSON (the database keeps it
beside the games); :func:`load_spec_file` reads one from a small TOML file. A spec read back
from a database is data from outside: :meth:`TournamentSpec.from_dict` checks every field's
type, and :func:`outside_players` names the players in it that would start a program, load a
plug-in or reach a URL — which a stored tournament never does by itself (see
:func:`tricktable.tournament.run.plan`). A spec given no seed draws a fresh one of 64 bits,
which the tournament stores and keeps. Formats:

- ``duplicate`` — every deal (or whole match, by its seed) is played at several tables with the
  same cards: in partnership games at two tables with the partnerships swapped, in games where
  each plays alone at every rotation of the seats. The luck of the cards cancels.
- ``round-robin`` — every pairing plays in both seatings, each table with deals of its own.

Partnerships (games of sides of two or more seats: four seats as two sides of two, six as
three of two or two of three...): ``self`` — an entrant partners itself, so a pairing is one
entrant a side (A and A against B and B; at six seats as 3x2, A, B and C each in both seats of
a side); ``mixed`` — every entrant partners every other: a group is a split of as many
entrants as seats into the sides (needs as many entrants as seats). ``auto`` is ``mixed`` from
as many entrants as seats up, else ``self``.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Final

from tricktable.bots import is_builtin_player
from tricktable.errors import OptionError, TricktableError, quote
from tricktable.files import read_text, shown
from tricktable.games import load_game
from tricktable.limits import RunnerOptions
from tricktable.seeds import fresh_seed

FORMATS: Final = ("duplicate", "round-robin")
PARTNERSHIPS: Final = ("auto", "self", "mixed")
#: deals a table plays when neither deals nor matches are given
DEFAULT_DEALS: Final = 100
#: the most hands a whole match of a tournament lasts: some never end (in Setback a side that
#: keeps being set never reaches the target), and a tournament must
MAX_HANDS: Final = 300
#: a tournament's seed: any integer of 64 bits (fresh ones are drawn in [0, 2**64))
SEED_RANGE: Final = range(-(2**63), 2**64)
#: the largest TOML file of a tournament read
MAX_SPEC_FILE: Final = 1024 * 1024


@dataclass(frozen=True)
class TournamentSpec:
    """A tournament, complete: what :func:`tricktable.tournament.schedule.units` expands.

    ``entrants`` are (name, player spec) pairs; ``deals`` fixes the deals each table plays
    (each a fresh one-hand match), ``matches`` plays whole matches instead (one of the two),
    each stopped after ``max_hands`` hands if it has not ended (status ``stopped``). Without
    a ``seed``, a fresh one is drawn (so no two tournaments deal the same cards unless asked).
    """

    name: str
    game: str
    entrants: tuple[tuple[str, str], ...]
    format: str = "duplicate"
    deals: int | None = None
    matches: int | None = None
    seed: int = field(default_factory=fresh_seed)
    partnerships: str = "auto"
    limits: RunnerOptions = field(default_factory=RunnerOptions)
    substitute: str = "heuristic"
    max_hands: int = MAX_HANDS

    def __post_init__(self) -> None:
        self._check_types()
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
        seats, sides = game.num_players, game.num_scores
        if sides >= seats and len(entrants) < seats:
            raise OptionError(
                f"{game.preset} seats {seats} players each for themselves: "
                f"give at least {seats} entrants"
            )
        if sides < seats and len(entrants) < sides:
            raise OptionError(
                f"{game.spec()} seats {sides} sides of {seats // sides}: "
                f"give at least {sides} entrants"
            )
        if self.partnerships == "mixed" and sides < seats and len(entrants) < seats:
            raise OptionError(f"mixed partnerships need at least {seats} entrants")

    def _check_types(self) -> None:
        """Each field of the type it should be: a spec may come from a file or a database."""
        for what in ("name", "game", "format", "partnerships", "substitute"):
            value = getattr(self, what)
            if not isinstance(value, str):
                raise OptionError(f"{what} should be text, not {quote(value)}")
        for what in ("deals", "matches", "max_hands"):
            value = getattr(self, what)
            if value is not None and type(value) is not int:
                raise OptionError(f"{what} should be a whole number, not {quote(value)}")
        if type(self.seed) is not int:
            raise OptionError(f"seed should be a whole number, not {quote(self.seed)}")
        if self.seed not in SEED_RANGE:
            raise OptionError(f"seed {quote(self.seed)} does not fit in 64 bits")
        if not isinstance(self.limits, RunnerOptions):
            raise OptionError(f"limits should be time limits, not {quote(self.limits)}")
        if not isinstance(self.entrants, tuple | list) or not all(
            isinstance(e, tuple | list) and len(e) == 2 and all(isinstance(x, str) for x in e)
            for e in self.entrants
        ):
            raise OptionError("entrants should be (name, player spec) pairs of text")

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
        game = load_game(self.game)
        if game.num_scores >= game.num_players:
            return "none"
        if self.partnerships != "auto":
            return self.partnerships
        return "mixed" if len(self.entrants) >= game.num_players else "self"

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TournamentSpec:
        """The spec a stored tournament holds (see :meth:`to_dict`), every field checked.

        Raises :class:`OptionError` (one line, saying what is wrong) for anything that is not
        such a spec: a database is data from outside.
        """
        bad = "the stored tournament's spec is damaged"
        if not isinstance(data, Mapping):
            raise OptionError(f"{bad}: it should be a JSON object, not {quote(data)}")
        missing = [key for key in ("name", "game", "entrants", "seed") if key not in data]
        if missing:
            raise OptionError(f"{bad}: it has no {missing[0]!r}")
        entrants, limits = data["entrants"], data.get("limits", {})
        if not isinstance(entrants, list) or not all(
            isinstance(e, list) and len(e) == 2 and all(isinstance(x, str) for x in e)
            for e in entrants
        ):
            raise OptionError(f"{bad}: its entrants should be [name, player] pairs of text")
        if not isinstance(limits, Mapping) or not all(isinstance(k, str) for k in limits):
            raise OptionError(f"{bad}: its limits should be a JSON object")
        partnerships = data.get("partnerships", "auto")
        try:
            return cls(
                name=data["name"],
                game=data["game"],
                entrants=tuple((n, s) for n, s in entrants),
                format=data.get("format", "duplicate"),
                deals=data.get("deals"),
                matches=data.get("matches"),
                seed=data["seed"],
                partnerships="auto" if partnerships == "none" else partnerships,
                limits=RunnerOptions(**limits),
                substitute=data.get("substitute", "heuristic"),
                max_hands=data.get("max_hands", MAX_HANDS),
            )
        except TricktableError as exc:
            raise OptionError(f"{bad}: {_short(exc)}") from None
        except (TypeError, ValueError, RecursionError) as exc:  # RunnerOptions' fields
            raise OptionError(f"{bad}: {_short(exc)}") from None


def outside_players(spec: TournamentSpec) -> list[str]:
    """The names of ``spec``'s entrants that are not tricktable's own players
    (:func:`tricktable.bots.is_builtin_player`: a program, a URL, a plug-in, a bot option
    naming a file), and ``substitute`` if its substitute is not one either."""
    found = [name for name, player in spec.entrants if not is_builtin_player(player)]
    if not is_builtin_player(spec.substitute):
        found.append("substitute")
    return found


def _short(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return text if len(text) <= 120 else text[:119] + "…"


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


def read_spec_file(path: str) -> dict[str, Any]:
    """The fields of a tournament's TOML file, as :class:`TournamentSpec` takes them (keys as
    its own; ``[entrants]`` maps names to player specs; ``[limits]`` the time limits), and
    ``name`` the file's stem where it gives none. Checked when the spec is made."""
    text = read_text(path, "tournament file", MAX_SPEC_FILE)
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError) as exc:
        raise OptionError(f"{shown(path)} is not valid TOML: {_short(exc)}") from None
    known = {"name", "game", "entrants", "format", "deals", "matches", "seed", "partnerships"}
    known |= {"limits", "substitute", "max_hands"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise OptionError(
            f"{shown(path)}: unknown key {quote(unknown[0])}; valid: {', '.join(sorted(known))}"
        )
    entrants = data.get("entrants", {})
    if not isinstance(entrants, dict) or not all(isinstance(v, str) for v in entrants.values()):
        raise OptionError(f"{shown(path)}: [entrants] must map names to player specs")
    fields: dict[str, Any] = {k: v for k, v in data.items() if k not in ("entrants", "limits")}
    fields["entrants"] = tuple(entrants.items())
    if "limits" in data:
        try:
            fields["limits"] = RunnerOptions(**data["limits"])
        except (TypeError, OptionError) as exc:
            raise OptionError(f"{shown(path)}: bad [limits]: {_short(exc)}") from None
    fields.setdefault("name", Path(path).stem)
    return fields


def spec_of_file(path: str, fields: dict[str, Any]) -> TournamentSpec:
    """The spec of ``fields`` read from the file ``path`` (errors name the file)."""
    fields = {"game": "setback", **fields}
    try:
        return TournamentSpec(**fields)
    except (TypeError, OptionError) as exc:
        raise OptionError(f"{shown(path)}: {_short(exc)}") from None


def load_spec_file(path: str, **given: Any) -> TournamentSpec:
    """A spec from a TOML file (see :func:`read_spec_file`); ``given`` (the command line's)
    win where not None."""
    fields = read_spec_file(path)
    fields.update({k: v for k, v in given.items() if v is not None})
    return spec_of_file(path, fields)
