"""What a new user tripped over (issue 27, item 13), each as it was met: real commands in
child processes, their one line of error and their exit status.

- The same rule for missing folders everywhere: ``play --save`` refused a missing folder while
  ``report --out``, ``tournament --db`` and ``tui --save`` made every missing parent.
- ``make run`` left ``tricktable.db`` untracked in the checkout; docs/tui.md said ``make run``
  opens the TUI (it serves the browser's tables).
- ``analyze`` of a Hearts match printed nothing for minutes off a terminal.
- ``--game california-jack`` with four players was "needs 2 players, got 4", and
  ``setback(players=2)`` needed ``partners=false`` spelt out.

(``serve``'s own trips, a port in use and its ``--db`` folder, are tested with the server.)
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import cli_env
from tricktable.cli.main import DEFAULT_DB
from tricktable.errors import OptionError
from tricktable.games import load_game
from tricktable.tui.command import TuiOptions, make_app

ROOT = Path(__file__).resolve().parents[1]
BOTS4 = "random,random,random,random"


def run(*args: str, cwd: Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``python -m tricktable ARGS`` in ``cwd`` (so that nothing lands in the checkout)."""
    return subprocess.run(
        [sys.executable, "-m", "tricktable", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=cli_env(),
        cwd=cwd,
        timeout=timeout,
        check=False,
    )


def one_line_error(done: subprocess.CompletedProcess[str], words: str) -> str:
    """The one ``error:`` line of a refused command (status 2), which says ``words``."""
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    assert words in lines[0], lines[0]
    return lines[0]


def everything_under(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


# ------------------------------------------------------------ the same rule for missing folders


@pytest.mark.parametrize(
    "command",
    [
        ["play", "--players", BOTS4, "--max-hands", "1", "--save", "{missing}/match.json"],
        ["tui", "--play", "--save", "{missing}/match.json"],
        ["report", "--db", "{tmp}/t.db", "--out", "{missing}/report"],
        ["tournament", "random", "heuristic", "--deals", "2", "--db", "{missing}/t.db"],
    ],
    ids=["play --save", "tui --save", "report --out", "tournament --db"],
)
def test_a_missing_folder_is_refused_in_one_line_and_nothing_is_made(
    tmp_path: Path, command: list[str]
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    missing = tmp_path / "no" / "such"
    args = [a.format(missing=missing, tmp=tmp_path) for a in command]
    line = one_line_error(run(*args, cwd=work), "no folder")  # the path, clipped where long
    assert not (tmp_path / "no").exists(), line
    assert everything_under(work) == []  # and no records/, no database, no report/


def test_a_report_that_fails_before_its_page_leaves_no_folder(tmp_path: Path) -> None:
    """``--out`` itself (one new folder in one that exists) is made with the page only."""
    out = tmp_path / "report"
    one_line_error(
        run("report", "--db", str(tmp_path / "none.db"), "--out", str(out), cwd=tmp_path),
        "no such file",
    )
    assert not out.exists()


# ------------------------------------------------------------------------------ make run


def _run_recipe() -> str:
    """The command of the Makefile's ``run`` target."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    found = re.search(r"^run:.*\n((?:\t.*\n)+)", makefile, re.MULTILINE)
    assert found, "the Makefile has no run target"
    return found.group(1).strip().splitlines()[-1].strip()


def test_the_database_make_run_writes_is_ignored_by_git() -> None:
    recipe = _run_recipe()
    assert " serve" in recipe, recipe
    given = re.search(r"--db[ =](\S+)", recipe)
    db = given.group(1) if given else DEFAULT_DB
    if "://" in db and not db.startswith("sqlite"):
        return  # a server's database: nothing in the checkout
    db = db.removeprefix("sqlite:///")
    if shutil.which("git") is None:
        pytest.fail("git is missing: this test asks git what it ignores")
    for path in (db, f"{db}-wal", f"{db}-shm", f"{db}-journal"):
        asked = subprocess.run(
            ["git", "check-ignore", "--no-index", "--quiet", path], cwd=ROOT, check=False
        )
        assert asked.returncode == 0, f"{path}, which `make run` writes, is not in .gitignore"


def test_every_page_that_names_make_run_says_what_it_runs() -> None:
    """docs/tui.md said `make run` opens the TUI; it runs ``tricktable serve``."""
    verb = _run_recipe().split("tricktable", 1)[1].split()[0]  # "serve"
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    wrong = []
    for page in pages:
        for paragraph in page.read_text(encoding="utf-8").split("\n\n"):
            if "`make run`" in paragraph and verb not in paragraph:
                wrong.append(f"{page.name}: {paragraph.strip()[:80]}")
    assert not wrong, wrong


# ------------------------------------------------------------------------ analyze's progress


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished record of two hands of Setback."""
    folder = tmp_path_factory.mktemp("analyse")
    path = folder / "two.json"
    done = run(
        "play",
        "--players",
        BOTS4,
        "--seed",
        "4",
        "--max-hands",
        "2",
        "--save",
        str(path),
        cwd=folder,
    )
    assert done.returncode == 0, done.stderr
    return path


QUICK = ("--no-sampling", "--solve-time", "0.05")


def test_analyze_off_a_terminal_says_each_hand_on_standard_error(record: Path) -> None:
    done = run("analyze", str(record), *QUICK, cwd=record.parent)
    assert done.returncode == 0, done.stderr
    said = done.stderr.strip().splitlines()
    assert said[0] == "analysing hand 1 (1 of 2)", said
    assert re.fullmatch(r"analysing hand 2 \(2 of 2\), \d+ s so far", said[1]), said
    assert re.fullmatch(r"analysed 2 hands in [\d.]+ s", said[2]) and len(said) == 3, said
    assert "analysing" not in done.stdout  # the report is as it was
    assert done.stdout.startswith("Analysis of Setback · seed 4 · 2 hands")
    chosen = run("analyze", str(record), *QUICK, "--hands", "2", cwd=record.parent)
    assert chosen.stderr.splitlines()[0] == "analysing hand 2 (1 of 1)", chosen.stderr


def test_analyze_json_off_a_terminal_adds_nothing_to_standard_error(record: Path) -> None:
    done = run("analyze", str(record), *QUICK, "--json", cwd=record.parent)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert json.loads(done.stdout)["hands"] == [1, 2]


# --------------------------------------------------------------- a table size the players say


@pytest.mark.parametrize(
    ("spec", "players", "expected"),
    [
        ("california-jack", 4, "california-jack(players=4)"),  # each for itself, as the game says
        ("california-jack", 2, "california-jack"),
        ("setback", 2, "setback(partners=false,players=2)"),
        ("setback", 3, "setback(partners=false,players=3)"),
        ("setback", 4, "setback"),
        ("setback", 6, "setback(players=6)"),  # two sides of three: Setback's own at six
        ("setback-11", 2, "setback-11(partners=false,players=2)"),
        ("setback(players=2)", None, "setback(partners=false,players=2)"),
        ("setback(players=5)", 5, "setback(partners=false,players=5)"),
        ("cinch", 3, "cinch(partners=false,players=3)"),
        ("euchre", 3, "euchre(players=3)"),
        ("two-hand-pitch", 2, "two-hand-pitch"),
    ],
)
def test_the_size_the_players_give_seats_the_game(
    spec: str, players: int | None, expected: str
) -> None:
    game = load_game(spec, players=players)
    assert game.spec() == expected
    assert game.num_players == (players or game.num_players)
    assert load_game(expected).spec() == expected  # what a record holds loads again


@pytest.mark.parametrize(
    ("spec", "players", "message"),
    [
        ("california-jack", 3, "california-jack is played by 2 or 4 players, not 3"),
        ("hearts", 7, "hearts is played by 3 to 6 players, not 7"),
        ("filippa", 3, "filippa is played by 4 players, not 3"),
        ("two-hand-pitch", 4, "'two-hand-pitch' is for 2 players, not 4; setback is played by 2"),
        ("setback(players=3)", 2, "'setback(players=3)' is for 3 players, not 2"),
        # a seating said is kept: only an unsaid one gives way
        ("setback(players=3,partners=true)", None, "partnership"),
        ("all-fours-partnership", 2, "is for 4 players, not 2"),
    ],
)
def test_a_size_the_game_does_not_allow_names_those_it_does(
    spec: str, players: int | None, message: str
) -> None:
    with pytest.raises(OptionError, match=re.escape(message)):
        load_game(spec, players=players)


def test_sizes_in_words() -> None:
    from tricktable.games import sizes_words

    assert [sizes_words(c) for c in ((4,), (2, 4), (3, 4, 5, 6), (2, 3, 4, 6), (2, 3))] == [
        "4",
        "2 or 4",
        "3 to 6",
        "2 to 4 or 6",
        "2 or 3",
    ]


def test_simulate_seats_four_at_california_jack(tmp_path: Path) -> None:
    done = run(
        "simulate",
        "--game",
        "california-jack",
        "--players",
        BOTS4,
        "--hands",
        "1",
        "--json",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["game"] == "california-jack(players=4)"
    two = run(
        "simulate",
        "--game",
        "setback(players=2)",
        "--players",
        "random,random",
        "--hands",
        "1",
        "--json",
        cwd=tmp_path,
    )
    assert two.returncode == 0, two.stderr
    three = run(
        "simulate",
        "--game",
        "california-jack",
        "--players",
        "random,random,random",
        "--hands",
        "1",
        cwd=tmp_path,
    )
    one_line_error(three, "california-jack is played by 2 or 4 players, not 3")


def test_the_tui_seats_the_players_given() -> None:
    app = make_app(TuiOptions(game="california-jack", players="you,heuristic,random,random"))
    assert app.setup.game == "california-jack(players=4)" and len(app.setup.players) == 3
    app = make_app(TuiOptions(game="setback", players="you,heuristic"))
    assert app.setup.load().num_players == 2


def test_the_tui_refuses_a_size_the_game_does_not_allow(tmp_path: Path) -> None:
    done = run("tui", "--play", "--game", "filippa", "--players", "you,random,random", cwd=tmp_path)
    one_line_error(done, "filippa is played by 4 players, not 3")
    assert everything_under(tmp_path) == []


def test_play_seats_four_at_california_jack(tmp_path: Path) -> None:
    done = run(
        "play", "--game", "california-jack", "--players", BOTS4, "--max-hands", "1", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
