"""Plug-in bots: Python classes loaded from a file, from a module, from an entry point."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from tricktable.bots import make_bot
from tricktable.bots.base import Bot
from tricktable.errors import BotError
from tricktable.games import load_game
from tricktable.match import Referee, play_match
from tricktable.protocols.plugins import (
    DuckBot,
    entry_point_names,
    find_entry_point_bot,
    load_plugin,
)

EXAMPLE = Path(__file__).parents[1] / "examples/bots/plugin_bot.py"

FIRST_LEGAL = """
from tricktable.bots.base import Bot

class FirstLegal(Bot):
    def act(self, view):
        return view.legal_actions()[0]
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def play(bot: Bot) -> None:
    """A few hands of Setback with ``bot`` in seat 0, no fault allowed."""
    bots = [bot] + [make_bot("heuristic") for _ in range(3)]
    referee = Referee()
    state = play_match(load_game("setback"), bots, 11, referee=referee, max_hands=5)
    assert referee.faults == []
    assert state.results


def test_example_by_path_plays() -> None:
    bot = load_plugin(f"{EXAMPLE}:CautiousBot")
    assert bot.name == "cautious"
    play(bot)


def test_make_bot_dispatches_a_path_spec() -> None:
    assert make_bot(f"{EXAMPLE}:CautiousBot").name == "cautious"


def test_relative_path_and_class_name_as_bot_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path, "bots/first.py", FIRST_LEGAL)
    monkeypatch.chdir(tmp_path)
    bot = load_plugin("bots/first.py:FirstLegal")
    assert bot.name == "FirstLegal"
    play(bot)


def test_a_class_with_only_act_is_adapted(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "duck.py",
        """
        class Duck:
            started = None
            def start_match(self, game, seat, seed):
                self.started = seat
            def act(self, view):
                return view.legal_actions()[-1]
        """,
    )
    bot = load_plugin(f"{path}:Duck")
    assert isinstance(bot, DuckBot) and bot.name == "Duck"
    play(bot)
    assert bot.inner.started == 0


def test_the_bot_may_import_its_neighbours(tmp_path: Path) -> None:
    write(tmp_path, "helper_for_plugin_test.py", "CHOICE = 0\n")
    path = write(
        tmp_path,
        "uses_helper.py",
        """
        from helper_for_plugin_test import CHOICE
        from tricktable.bots.base import Bot

        class Helped(Bot):
            def act(self, view):
                return view.legal_actions()[CHOICE]
        """,
    )
    play(load_plugin(f"{path}:Helped"))
    assert str(tmp_path) not in sys.path


def test_the_bot_folder_leaves_sys_path(tmp_path: Path) -> None:
    """Loading a bot, or failing to, leaves sys.path as it was: its folder shadows nothing later."""
    before = list(sys.path)
    write(tmp_path, "good/helper_for_path_test.py", "CHOICE = 0\n")
    good = write(
        tmp_path,
        "good/bot.py",
        """
        import helper_for_path_test
        from tricktable.bots.base import Bot

        class Good(Bot):
            def act(self, view):
                import helper_for_path_test as again  # found in sys.modules, not on the path
                return view.legal_actions()[again.CHOICE]
        """,
    )
    bad = write(tmp_path, "bad/bot.py", "import helper_missing_for_path_test\n")
    bot = load_plugin(f"{good}:Good")
    assert sys.path == before
    play(bot)
    with pytest.raises(BotError, match="ModuleNotFoundError"):
        load_plugin(f"{bad}:Bot")
    assert sys.path == before


def test_by_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, "plugpkg_t/__init__.py", "")
    write(tmp_path, "plugpkg_t/first.py", FIRST_LEGAL)
    monkeypatch.syspath_prepend(str(tmp_path))
    bot = load_plugin("plugpkg_t.first:FirstLegal")
    play(bot)
    assert make_bot("plugpkg_t.first:FirstLegal").name == "FirstLegal"


@pytest.mark.parametrize(
    ("source", "spec", "message"),
    [
        (None, "{d}/nothere.py:Bot", "nothere.py: no such file"),
        (FIRST_LEGAL, "{p}:Missing", "has no class 'Missing'; it has FirstLegal"),
        ("X = 1\n", "{p}:X", "X is not a bot class: subclass tricktable.bots.base.Bot"),
        ("class NotBot:\n    pass\n", "{p}:NotBot", "NotBot is not a bot class"),
        ("import os\nundefined_name\n", "{p}:Bot", "failed: NameError: name 'undefined_name'"),
        ("def broken(:\n", "{p}:Bot", "failed: SyntaxError: invalid syntax (line 1)"),
        (
            FIRST_LEGAL + "\nclass Needs(FirstLegal):\n    def __init__(self, x):\n        pass\n",
            "{p}:Needs",
            "Needs() failed: TypeError:",
        ),
        (None, "{d}", "write path/to/bot.py:ClassName"),
        (None, "no_such_module_xyz:Bot", "no module named 'no_such_module_xyz'"),
        (None, "{d}:Bot", "it is a folder"),
    ],
)
def test_clear_one_line_errors(tmp_path: Path, source: str | None, spec: str, message: str) -> None:
    path = tmp_path / "plugin.py"
    if source is not None:
        path.write_text(source, encoding="utf-8")
    text = spec.format(p=path, d=tmp_path)
    with pytest.raises(BotError) as info:
        load_plugin(text)
    error = str(info.value)
    assert message in error and "\n" not in error
    assert error.startswith(("cannot load bot", "bad bot"))


def test_a_dependency_missing_inside_a_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path, "needs_dep_t.py", "import not_installed_dep_xyz\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(BotError, match="importing needs_dep_t failed: ModuleNotFoundError"):
        load_plugin("needs_dep_t:Bot")


def test_entry_points_for_real(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A distribution installed on sys.path (a dist-info folder) offers bots by name."""
    write(tmp_path, "epbots_t/__init__.py", FIRST_LEGAL + "\nclass Broken:\n    pass\n")
    dist = tmp_path / "epbots_t-1.0.dist-info"
    write(dist, "METADATA", "Metadata-Version: 2.1\nName: epbots-t\nVersion: 1.0\n")
    write(
        dist,
        "entry_points.txt",
        """
        [tricktable.bots]
        tidy = epbots_t:FirstLegal
        broken = epbots_t:Broken
        ghost = epbots_t_missing:Bot
        """,
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    assert {"tidy", "broken", "ghost"} <= set(entry_point_names())
    bot = find_entry_point_bot("tidy")
    assert bot is not None and bot.name == "tidy"
    play(bot)
    assert find_entry_point_bot("TIDY") is not None
    assert find_entry_point_bot("no-such-bot") is None
    with pytest.raises(BotError, match="is not a bot class"):
        find_entry_point_bot("broken")
    with pytest.raises(BotError, match="ModuleNotFoundError"):
        find_entry_point_bot("ghost")


def test_same_file_loaded_once(tmp_path: Path) -> None:
    path = write(tmp_path, "once.py", FIRST_LEGAL)
    a, b = load_plugin(f"{path}:FirstLegal"), load_plugin(f"{path}:FirstLegal")
    assert type(a) is type(b) and a is not b
    assert sum(1 for m in sys.modules if m.startswith("tricktable_plugin_once_")) == 1
