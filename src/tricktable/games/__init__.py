"""The registry of games and their presets (variants as named option sets).

A game is declared once, in its module's ``Game`` subclass: its rules, options, heuristic bot,
presenter, statistics and fault penalty (see :class:`~tricktable.engine.trick.Game`). Adding a
game is writing that module and listing it in :data:`GAME_MODULES`; nothing else names it.

>>> load_game("setback(target=11)").options.target
11
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import random
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from tricktable.engine.game import set_rebuilder
from tricktable.engine.options import build_options, parse_spec
from tricktable.engine.trick import Game
from tricktable.errors import OptionError, quote

if TYPE_CHECKING:
    from tricktable.engine.trick import TrickState, View

GAMES: dict[str, type[Game]] = {}
#: the most a house-rules file may hold (bytes): a few options, with room for comments
RULES_FILE_BYTES = 1 << 20


@dataclass(frozen=True)
class Preset:
    """A named variant: a base game and the options that differ from its defaults."""

    name: str
    game: str
    summary: str
    options: Mapping[str, object] = field(default_factory=dict)
    source: str = ""


PRESETS: dict[str, Preset] = {}


def register(game: type[Game]) -> type[Game]:
    """Add a game class to the registry (usable as a decorator)."""
    GAMES[game.name] = game
    return game


def register_preset(preset: Preset) -> Preset:
    """Add a named variant; its options are checked now, so a bad preset fails at import."""
    if preset.game not in GAMES:
        raise OptionError(f"preset {preset.name!r} names unknown game {preset.game!r}")
    cls = GAMES[preset.game]
    build_options(cls.Options, preset.options, preset.name)
    PRESETS[preset.name] = preset
    return preset


#: the games' modules, each defining ``GAME``, its Game class: one list rather than a search of
#: this folder, which also holds the games' companion modules and whose every import would
#: count in a command's start-up time
GAME_MODULES: tuple[str, ...] = (
    "setback",
    "euchre",
    "hearts",
    "filippa",
    "spades",
    "tricks",
    "oh_hell",
    "california_jack",
    "cinch",
    "all_fours",
)


def _rebuild(view: View, rng: random.Random) -> TrickState:
    """The search's :func:`~tricktable.search.determinize.determinize`, imported at the
    first refusal a game words (:meth:`Game.explain`): importing it registers it in place of
    this stand-in."""
    from tricktable.search.determinize import determinize

    return determinize(view, rng)


# Every game module lives in this package, so every game, made here or directly (Setback()),
# words its refusals from the search's rebuilt state; the search imports the games, so it is
# not imported here but when first needed: a command that refuses nothing never loads it.
set_rebuilder(_rebuild)


def _load_games() -> None:
    for module in GAME_MODULES:
        register(importlib.import_module(f"tricktable.games.{module}").GAME)


_load_games()


def _preset_files() -> list[Path]:
    """presets.toml beside this module, then presets/*.toml (one file a family), by name."""
    here = Path(__file__).parent
    return [here / "presets.toml", *sorted((here / "presets").glob("*.toml"))]


def _load_presets() -> None:
    # Variants are data: the preset files (see presets.toml's header).
    for path in _preset_files():
        _load_preset_file(path)


def _load_preset_file(path: Path) -> None:
    for name, table in tomllib.loads(path.read_text(encoding="utf-8")).items():
        if name in PRESETS or name in GAMES:
            raise OptionError(f"preset {name!r} of {path.name} is named twice")
        register_preset(
            Preset(
                name=name,
                game=table["game"],
                summary=table.get("summary", ""),
                options=table.get("options", {}),
                source=table.get("source", ""),
            )
        )


_load_presets()


def names() -> list[str]:
    """Every game and preset name."""
    return sorted(set(GAMES) | set(PRESETS))


def load_game(
    spec: str,
    extra: Mapping[str, object] | None = None,
    options: Mapping[str, object] | None = None,
    *,
    players: int | None = None,
) -> Game:
    """The game named by ``spec`` (a game or preset, options in parentheses allowed).

    ``options`` (e.g. a record's) apply first, then the spec's own, then ``extra`` (house rules).
    ``players``: the table size the players given imply (``--players`` names four): a game
    whose options seat it takes that size unless its spec or variant sets one, and any other
    size is an :class:`OptionError` naming the sizes allowed.

    A table size given (here or as ``players=N``) with no ``partners`` said sits as the
    game's own seating where that size allows it, and each for itself where it does not:
    ``setback(players=2)`` needs no ``partners=false`` spelt out.

    >>> load_game("california-jack", players=4).spec()
    'california-jack(players=4)'
    >>> load_game("setback(players=3)").options.partners
    False
    """
    name, values = parse_spec(spec)
    preset = PRESETS.get(name)
    base_name = preset.game if preset else name
    cls = GAMES.get(base_name)
    if cls is None:
        # The games alone: with every variant the line would not fit on one screen line.
        raise OptionError(
            f"unknown game {quote(name, 40)}; valid: {', '.join(sorted(GAMES))} or one of "
            "their variants ('tricktable games' lists them)"
        )
    fixed = dict(preset.options) if preset else {}
    start = build_options(cls.Options, fixed, name)
    merged: dict[str, object] = dict(options or {})
    merged.update(values)
    merged.update(extra or {})
    said = {_option_name(key) for key in (*merged, *fixed)}
    fields = {f.name for f in dataclasses.fields(cls.Options)}
    if players is not None and "players" not in said:
        if players not in cls.seat_counts:
            raise OptionError(
                f"{name} is played by {sizes_words(cls.seat_counts)} players, not {players}"
            )
        if "players" in fields and players != getattr(start, "players", None):
            merged["players"] = players
    opts = _seated(cls, merged, name, start, "partners" in fields and "partners" not in said)
    game = cls(opts, preset=name)
    game.baseline = start
    if players is not None and game.num_players != players:
        also = ""
        if players in cls.seat_counts and base_name != spec.strip():
            also = f"; {base_name} is played by {sizes_words(cls.seat_counts)} players"
        raise OptionError(
            f"{quote(spec.strip(), 40)} is for {game.num_players} players, not {players}{also}"
        )
    return game


def _option_name(key: str) -> str:
    return key.strip().replace("-", "_")


def _seated(
    cls: type[Game], merged: dict[str, object], name: str, start: object, free: bool
) -> object:
    """The options of ``merged`` over ``start``; where a table size is given and the seating
    is ``free`` (no ``partners`` said, by the spec or the variant), a seating that size cannot
    take gives way to each for itself (the game's own check says which cannot)."""
    sized = free and any(_option_name(key) == "players" for key in merged)
    try:
        return build_options(cls.Options, merged, name, base=start)
    except OptionError:
        if not sized:
            raise
    # The error now is the one that matters: partners=false was not what failed.
    return build_options(cls.Options, {**merged, "partners": False}, name, base=start)


def sizes_words(counts: tuple[int, ...]) -> str:
    """Table sizes in words: "4", "2 or 4", "3 to 6", "2 to 4 or 6".

    >>> sizes_words((2, 3, 4, 6))
    '2 to 4 or 6'
    """
    runs: list[list[int]] = []
    for n in sorted(counts):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    parts: list[str] = []
    for run in runs:
        parts += [f"{run[0]} to {run[-1]}"] if len(run) > 2 else [str(n) for n in run]
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} or {parts[-1]}"


#: games loaded by :func:`shared_game`, by name and options (JSON text, keys sorted)
_SHARED: dict[tuple[str, str], Game] = {}


def shared_game(spec: str, options: Mapping[str, object] | None = None) -> Game:
    """``load_game(spec, options=options)``, made once per distinct spec and options.

    A Game is immutable, so readers of many records or matches of one variant share it:
    loading one (options checked, tables built) costs as much as replaying a hand.
    """
    key = (spec, json.dumps(dict(options or {}), sort_keys=True, default=str))
    game = _SHARED.get(key)
    if game is None:
        if len(_SHARED) >= 256:
            _SHARED.clear()  # a safety net: a reader of very many variants
        game = _SHARED[key] = load_game(spec, options=options)
    return game


def rules_file_spec(path: str, game_spec: str | None = None) -> str:
    """The game spec a house-rules TOML file describes (``game`` and an ``[options]`` table).

    ``game`` names a base game or variant; a file without one plays ``game_spec`` (``--game``),
    and without either it is an error, not a silent Setback. The file is read as
    :func:`tricktable.files.read_text` reads one (a regular file of at most 1 MiB), and
    every option is checked now, so that a bad file fails with one line listing what is valid.
    """
    from tricktable.files import FileProblem, read_text, shown

    where = shown(path)
    try:
        data = tomllib.loads(read_text(path, "rules file", limit=RULES_FILE_BYTES))
    except FileProblem as exc:
        raise OptionError(str(exc)) from None
    except tomllib.TOMLDecodeError as exc:
        raise OptionError(f"rules file {where} is not valid TOML: {exc}") from None
    except RecursionError:
        raise OptionError(f"rules file {where} is not valid TOML: nested too deeply") from None
    except ValueError:  # a number of more digits than Python reads (int_max_str_digits)
        raise OptionError(f"rules file {where} is not valid TOML: a number too long") from None
    unknown = sorted(set(data) - {"game", "options", "name", "description"})
    if unknown:
        raise OptionError(
            f"rules file {where}: unknown key {quote(unknown[0], 40)}; valid keys: game, "
            "options, name, description"
        )
    base = data.get("game", game_spec)
    if base is None:
        raise OptionError(
            f'rules file {where} names no game; add game = "setback" (or another) or give --game'
        )
    options = data.get("options", {})
    if not isinstance(base, str) or not isinstance(options, dict):
        raise OptionError(f"rules file {where}: 'game' must be a name and [options] a table")
    return load_game(base, extra=options).spec()
