"""A game is declared once, in its own Game class, and shared machinery names no game.

Every registered game's declarations (heuristic bot, presenter, statistics, fault penalty)
resolve to the right kind of class; the shared modules hold no game's name; and a game defined
here, registered and nothing else, is played, shown and counted by the same machinery.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import tricktable
from tricktable.bots import make_bot
from tricktable.bots.base import Bot
from tricktable.engine.declared import declared
from tricktable.engine.trick import Game, View
from tricktable.errors import TricktableError
from tricktable.games import GAMES, PRESETS, load_game, register
from tricktable.games.hearts import Hearts
from tricktable.games.tricks import Tricks
from tricktable.match import Referee, play_match
from tricktable.seat.games import Presenter, presenter_for
from tricktable.seat.games.tricks import TricksPresenter
from tricktable.stats import GameStats, stats_for

PACKAGE = Path(tricktable.__file__).parent
#: the modules every game goes through: none may single a game out by its name
SHARED = [
    "match.py",
    "runner.py",
    "limits.py",
    "records.py",
    "simulate.py",
    "stats/__init__.py",
    "engine/declared.py",
    "bots/__init__.py",
    "bots/base.py",
    "bots/family.py",
    "seat/games/__init__.py",
    "seat/games/base.py",
    "ui/terminal.py",
    "ui/account.py",
    "table/*.py",
    "protocols/*.py",
]
#: what ``Game.fault_penalty`` may say ("": the runner's ``on_fault``)
PENALTIES = {"", "forfeit", "bad-card"}


# ------------------------------------------------------------------ the registered games


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_declaration_of_a_game_resolves(name: str) -> None:
    cls = GAMES[name]
    assert cls.name == name
    assert cls.heuristic_bot, f"{name} declares no heuristic bot"
    assert issubclass(declared(cls, "heuristic_bot", Bot), Bot)
    shown = declared(cls, "presenter", Presenter)
    assert shown is not Presenter, f"{name} declares no presenter"
    assert isinstance(presenter_for(load_game(name)), shown)
    counted = declared(cls, "statistics", GameStats)
    assert counted is not GameStats, f"{name} declares no statistics"
    assert stats_for(cls) is stats_for(load_game(name))  # one hook a game, made once
    assert isinstance(stats_for(cls), counted)
    assert cls.fault_penalty in PENALTIES
    if cls.fault_penalty == "bad-card":
        assert hasattr(cls.State, "penalize_bad_card"), f"{name} has no bad card to charge"


def test_the_base_game_declares_the_generic_companions() -> None:
    assert (Game.presenter, Game.statistics, Game.fault_penalty) == ("", "", "")
    assert declared(Game, "presenter", Presenter) is Presenter
    assert declared(Game, "statistics", GameStats) is GameStats


def _literals(path: Path) -> Iterator[tuple[int, str]]:
    """The string constants of a module that are not docstrings, with their lines."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            docstrings.add(id(body[0].value))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) in docstrings:
                continue
            yield node.lineno, node.value


def test_shared_modules_name_no_game() -> None:
    names = set(GAMES) | set(PRESETS)
    files = sorted({f for pattern in SHARED for f in PACKAGE.glob(pattern)})
    assert len(files) > len(SHARED)
    found = [
        f"{path.relative_to(PACKAGE)}:{line}: {text!r}"
        for path in files
        for line, text in _literals(path)
        if text.split("(")[0].strip() in names  # a name, or a spec such as "spades(target=5)"
    ]
    assert not found, "shared code names a game; declare it in the game's class:\n" + "\n".join(
        found
    )


def test_loading_the_games_imports_no_user_interface() -> None:
    # The presenters are text until a table shows a game: the engine, the games and the match
    # loop run where Rich is not installed.
    code = (
        "import sys, tricktable.games, tricktable.runner, tricktable.simulate\n"
        "bad = sorted(m for m in sys.modules if m.startswith(('tricktable.ui', 'rich')))\n"
        "print(','.join(bad))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip() == ""


# ------------------------------------------------------------------------- a new game


class Doubles(Tricks):
    """Tricks under another name: it declares nothing, so it has all that Tricks declares."""

    name = "doubles"
    title = "Doubles"


class Bare(Hearts):
    """Hearts under another name, with no presenter or statistics, and forfeits on a fault."""

    name = "bare"
    title = "Bare"
    presenter = ""
    statistics = ""
    fault_penalty = "forfeit"


@pytest.fixture
def new_games() -> Iterator[None]:
    """Doubles and Bare registered for one test (registering is all a new game needs)."""
    register(Doubles)
    register(Bare)
    try:
        yield
    finally:
        GAMES.pop(Doubles.name, None)
        GAMES.pop(Bare.name, None)


@pytest.mark.usefixtures("new_games")
def test_a_game_built_on_another_has_what_that_one_declares() -> None:
    game = load_game("doubles(target=30)")
    assert type(presenter_for(game)) is TricksPresenter
    assert stats_for(game).family == "tricks"
    assert game.fault_penalty == "bad-card"
    state = play_match(game, [_heuristic() for _ in range(4)], seed=3, max_hands=2)
    assert len(state.results) == 2


@pytest.mark.usefixtures("new_games")
def test_a_game_declaring_none_gets_the_generic_companions() -> None:
    game = load_game("bare(target=20)")
    assert type(presenter_for(game)) is Presenter
    assert type(stats_for(game)) is GameStats and stats_for(game).family == "generic"
    assert presenter_for(game).rules_summary()


@pytest.mark.usefixtures("new_games")
def test_the_referee_applies_the_penalty_a_game_declares() -> None:
    class Crashes(Bot):
        name = "crashes"

        def act(self, view: View) -> int:
            raise RuntimeError("no")

    game = load_game("bare")
    referee = Referee()
    state = play_match(game, [Crashes(), *(_heuristic() for _ in range(3))], 1, referee=referee)
    assert [f["penalty"] for f in referee.faults] == ["forfeit"]
    assert state.is_over


def _heuristic() -> Bot:
    return make_bot("heuristic")


class Misdeclared(Tricks):
    """A game whose declarations name nothing, or the wrong kind of class."""

    name = "misdeclared"
    presenter = "tricktable.stats:GameStats"
    statistics = "tricktable.stats.no_such_module:Hook"
    heuristic_bot = "not a target"


def test_a_bad_declaration_is_one_error_naming_the_game() -> None:
    with pytest.raises(TricktableError, match=r"Misdeclared\.presenter = .*not a subclass of"):
        declared(Misdeclared, "presenter", Presenter)
    with pytest.raises(TricktableError, match=r"Misdeclared\.statistics = .*cannot import"):
        stats_for(Misdeclared)
    with pytest.raises(TricktableError, match=r"Misdeclared\.heuristic_bot = .*'module:Class'"):
        declared(Misdeclared, "heuristic_bot", Bot)
