"""What the full-screen table is asked to play, and how it is drawn.

:class:`MatchSetup` is what the start screen hands the table screen (and what the command
line fills in): the game, house rules, the players beside you and the seed.
:class:`Settings` are the screen's own choices (skin, ASCII cards, animations), which
change nothing of the match. Saved matches that can be resumed are found by
:func:`unfinished_records`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tricktable.errors import TricktableError

if TYPE_CHECKING:  # the command line reads SKINS from here: it must not load the engine
    from tricktable.engine.trick import Game

#: the players beside you when none are chosen, at a table of four: three characters
DEFAULT_BOTS = ("edna", "vinnie", "rosa")
#: the characters that fill the seats of a larger table, in order (the roster's names: this
#: module must not load the engine)
MORE_BOTS = ("ada", "moe", "kit")


def default_bots(count: int) -> tuple[str, ...]:
    """The players beside you when none are chosen, for ``count`` seats beside yours: the
    characters in order (the heuristic for a seat beyond them)."""
    known = DEFAULT_BOTS + MORE_BOTS
    return tuple(known[i] if i < len(known) else "heuristic" for i in range(count))


#: the skins of the table screen, by name (``tui/skins.py`` draws them)
SKINS = ("felt", "paper")
#: where matches are saved when no path is given
RECORDS = Path("records")


@dataclass(frozen=True)
class MatchSetup:
    """A match to play at the table screen: you at seat 0 and a bot at each other seat.

    ``game`` is a game spec (a game or variant, options in parentheses allowed: see
    :func:`tricktable.games.load_game`); ``rules`` a house-rules TOML file applied to it;
    ``options`` further house rules (the target among them), applied last. ``players`` are
    the bots' specs for seats 1, 2... (a character, ``heuristic``, ``expert``,
    ``edna(base=ismcts)``…); the defaults, given for another table size, are fitted to the
    game's (:meth:`fitted`).
    ``seed`` None: a fresh one when the match starts.
    """

    game: str = "setback"
    players: tuple[str, ...] = DEFAULT_BOTS
    seed: int | None = None
    rules: str | None = None
    options: Mapping[str, object] = field(default_factory=dict)

    def spec(self) -> str:
        """The game spec with the rules file and the options applied (checked)."""
        from tricktable.games import load_game, rules_file_spec

        base = rules_file_spec(self.rules, self.game) if self.rules else self.game
        return load_game(base, extra=dict(self.options)).spec()

    def load(self) -> Game:
        """The game to play (a bad spec, file or option raises one clear error)."""
        from tricktable.games import load_game

        return load_game(self.spec())

    def fitted(self, seats: int) -> MatchSetup:
        """This setup for a game of ``seats`` seats: the default players (left as they
        were, for four) become the defaults for that size; players chosen stay as chosen."""
        if self.players == DEFAULT_BOTS and seats - 1 != len(self.players):
            return replace(self, players=default_bots(seats - 1))
        return self

    def with_seed(self, seed: int | None) -> MatchSetup:
        return replace(self, seed=seed)


@dataclass(frozen=True)
class Settings:
    """How the table screen is drawn and paced; none of it changes the match.

    ``skin``: one of :data:`SKINS`. ``ascii``: cards and suits in plain letters (``QH``,
    ``TS``) for terminals whose fonts draw ♠♥♦♣ badly. ``animate``: cards slide in and
    tricks pause before they are collected. ``paced``: characters pause before acting, as
    at a real table (tests turn it off). ``hint_budget``: seconds a hint's search may take.
    ``records``: the folder matches are saved in.
    """

    skin: str = SKINS[0]
    ascii: bool = False
    animate: bool = True
    paced: bool = True
    hint_budget: float = 0.5
    records: Path = RECORDS

    def __post_init__(self) -> None:
        if self.skin not in SKINS:
            raise TricktableError(f"unknown skin {self.skin!r}; valid: {', '.join(SKINS)}")


#: what the start screen can ask for: a new match, a saved one played on, a record replayed
START_ACTIONS = ("play", "resume", "replay")


@dataclass(frozen=True)
class Chosen:
    """What the start screen hands back: ``action`` (one of :data:`START_ACTIONS`), the
    match set up, the screen's settings, and for ``resume``/``replay`` the record's path."""

    action: str
    setup: MatchSetup
    settings: Settings
    path: Path | None = None

    def __post_init__(self) -> None:
        if self.action not in START_ACTIONS:
            raise TricktableError(f"unknown start action {self.action!r}")
        if (self.path is None) != (self.action == "play"):
            raise TricktableError(
                f"{self.action} {'needs' if self.path is None else 'takes no'} path"
            )


@dataclass(frozen=True)
class SavedMatch:
    """A saved match that has not ended: where it is and what it is, for the start screen."""

    path: Path
    game: str
    players: tuple[str, ...]
    #: hands scored so far
    hands: int
    scores: tuple[int, ...]

    def line(self) -> str:
        """One line: the game, the players, how far it got."""
        who = ", ".join(p.removeprefix("bot:") for p in self.players[1:])
        scores = " ".join(map(str, self.scores))
        return f"{self.game} v {who} · hand {self.hands + 1} · scores {scores} · {self.path.name}"


def unfinished_records(
    folder: Path = RECORDS, limit: int = 20, look: int = 200
) -> list[SavedMatch]:
    """The saved matches in ``folder`` that have not ended, newest first (at most ``limit``).

    Each record is replayed (a few milliseconds): unfinished is not over. Only the newest
    ``look`` files are read, so a folder of years of matches opens the start screen as fast
    as a new one. Files that are not records, or do not replay, are passed over silently:
    they are not the start screen's to judge, and resuming one says what is wrong with it.
    """
    # Imported when the start screen lists matches, as _saved_match imports replay: the
    # settings and setup read here stay light for the command line (start-up speed).
    from tricktable.journal import journal_path
    from tricktable.records import load_record

    stamped: list[tuple[float, Path]] = []
    try:
        for path in folder.glob("*.json"):
            with contextlib.suppress(OSError):
                # A match in play grows its journal: its last action is the journal's time.
                when = path.stat().st_mtime
                with contextlib.suppress(OSError):
                    when = max(when, journal_path(path).stat().st_mtime)
                stamped.append((when, path))
    except OSError:
        return []
    stamped.sort(reverse=True)
    found: list[SavedMatch] = []
    for _, path in stamped[:look]:
        try:
            data = load_record(path, [])  # with its journal: the match as last saved
        except TricktableError:
            continue
        saved = _saved_match(path, data)
        if saved is not None:
            found.append(saved)
            if len(found) == limit:
                break
    return found


def _saved_match(path: Path, data: Any) -> SavedMatch | None:
    from tricktable.records import replay

    if not isinstance(data, dict):
        return None
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        return None
    if not players or players[0].startswith("bot:"):
        return None  # nobody sat at seat 0: not a match of this screen
    try:
        state = replay(data)
    except (TricktableError, ValueError, TypeError, KeyError):
        return None
    if state.is_over:
        return None
    return SavedMatch(
        path, state.game.spec(), tuple(players), len(state.results), tuple(state.scores)
    )
