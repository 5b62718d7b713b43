"""``tricktable games``, ``tricktable rules`` and house rules from a TOML file."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tricktable.errors import OptionError
from tricktable.games import GAMES, PRESETS, load_game, rules_file_spec


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tricktable", *args], capture_output=True, text=True, timeout=120
    )


def test_games_lists_every_game_and_preset_on_one_line_each_by_family() -> None:
    out = run("games")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    names = [line.split()[0] for line in lines if line.startswith("  ")]
    assert sorted(names) == sorted([*GAMES, *PRESETS])
    assert len(PRESETS) >= 8
    headings = [line for line in lines if not line.startswith("  ")]
    assert "All Fours (" in out.stdout and len(headings) == len({g.family for g in GAMES.values()})
    setback = next(line for line in lines if line.split()[0] == "setback")
    assert "seats 2-7" in setback


@pytest.mark.parametrize("name", ["setback", "smear", "setback-classic", "ten-point-pitch"])
def test_rules_prints_rules_and_every_option(name: str) -> None:
    out = run("rules", name)
    assert out.returncode == 0, out.stderr
    for option in type(load_game(name).options).__dataclass_fields__:
        assert f"- {option} = " in out.stdout
    assert out.stdout.startswith(f"# {name}")


#: what a user of the installed command does not have: the repository's files and seeds
REPOSITORY_PATHS = re.compile(
    r"shared/|RULES\.md|\w\.md\b|src/|docs/|\.txt\b|seed \d{3}|presets\.toml"
)


@pytest.mark.parametrize("name", sorted(p for p in PRESETS if PRESETS[p].game == "setback"))
def test_rules_of_every_pitch_preset_read_as_that_preset(name: str) -> None:
    out = run("rules", name)
    assert out.returncode == 0, out.stderr
    opts = load_game(name).options
    rules = out.stdout.split("## Options of")[0]
    deck = " ".join(rules.split("**Deck and deal.**")[1].split("**Auction.**")[0].split())
    end = " ".join(rules.split("**End.**")[1].split("\n\n")[0].split())
    assert deck.startswith(f"{52 + opts.jokers} cards"), deck
    assert f"dealt {opts.hand_size} cards" in deck
    assert str(opts.target) in end and "21" not in end.replace(str(opts.target), "")
    assert f"from {opts.min_bid} to {opts.max_bid}" in rules
    if not opts.jokers:
        assert "joker" not in rules.lower().replace("no joker", "").replace("play jk", "")
    assert ("trumping is allowed" in rules) == opts.may_trump
    assert not REPOSITORY_PATHS.search(out.stdout), REPOSITORY_PATHS.search(out.stdout)


@pytest.mark.parametrize("name", sorted([*GAMES, *PRESETS]))
def test_rules_of_every_game_speak_of_no_repository_file(name: str) -> None:
    out = run("rules", name)
    assert out.returncode == 0, out.stderr
    assert not REPOSITORY_PATHS.search(out.stdout), REPOSITORY_PATHS.search(out.stdout)


def test_rules_with_options_follow_the_options() -> None:
    out = run("rules", 'smear(target=7,jokers=1,points="high,low,jack,joker,game")')
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())
    assert "53 cards: the 52 plus one joker" in text and "The first side to reach 7 wins" in text
    assert "to 11" not in text  # smear's own summary is not shown for other options
    assert "Points (up to 5 a hand)" in text


def test_rules_of_unknown_game_is_one_line() -> None:
    out = run("rules", "whist-of-doom")
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and "unknown game" in out.stderr


def test_a_variant_is_data_alone() -> None:
    game = load_game("setback-jick")
    # The jick joins trump just below the jack, as the preset's single option says.
    hearts = game.trumps[2]  # type: ignore[attr-defined]
    assert hearts.power[1 * 13 + 9] == hearts.power[2 * 13 + 9] - 1
    assert load_game(game.spec()).options == game.options


def test_spec_round_trips_through_text_for_every_preset() -> None:
    for name in PRESETS:
        game = load_game(name)
        assert load_game(game.spec()).options == game.options, name


def test_options_combine_at_will() -> None:
    game = load_game("setback(target=11,may_trump=true)")
    assert game.options.target == 11 and game.options.may_trump is True
    game = load_game('smear(points="high,low,game",max_bid=3)')
    assert game.options.points == "high,low,game" and game.options.off_jack_trump


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "house.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_house_rules_file_sets_options(tmp_path: Path) -> None:
    path = write(tmp_path, 'game = "smear"\n[options]\ntarget = 7\nmay_trump = false\n')
    game = load_game(rules_file_spec(path))
    assert (game.preset, game.options.target, game.options.may_trump) == ("smear", 7, False)


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ('game = "setback"\n[options]\ntarget = "x"\n', "valid: integer"),
        ('game = "setback"\n[options]\ntrumps = 3\n', "valid options: target"),
        ('game = "bridge"\n', "unknown game 'bridge'"),
        ("gme = 1\n", "valid keys: game, options"),
        ("game = [\n", "not valid TOML"),
        ("[options]\ntarget = 11\n", 'names no game; add game = "setback"'),
        ('game = "setback"\n[options]\ntarget = [[1]]\n', "bad value \\[\\[1\\]\\]"),
        ("a = " + "[" * 5000 + "]" * 5000 + "\n", "nested too deeply"),
        ("a = " + "9" * 5000 + "\n", "not valid TOML"),
        ('game = "setback(target=5,target=7)"\n', "given twice"),
    ],
)
def test_bad_house_rules_are_one_line_errors(tmp_path: Path, text: str, needle: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(OptionError, match=needle.replace("(", r"\(")):
        rules_file_spec(path)
    out = run("simulate", "--rules", path, "--hands", "5", "--json")
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr


def test_simulate_with_house_rules(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        'game = "setback"\n[options]\ntarget = 11\njokers = 0\nmax_bid = 4\n'
        'points = "high,low,jack,game"\n',
    )
    out = run("simulate", "--rules", path, "--hands", "40", "--workers", "1", "--json")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["hands"] == 40


def test_a_rules_file_without_a_game_plays_the_game_given(tmp_path: Path) -> None:
    path = write(tmp_path, "[options]\ntarget = 7\n")
    assert load_game(rules_file_spec(path, "smear")).options.target == 7
    out = run("simulate", "--rules", path, "--game", "smear", "--hands", "2", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["game"].startswith("smear")
    out = run("simulate", "--rules", path, "--hands", "2", "--json")
    assert out.returncode == 2 and "names no game" in out.stderr


@pytest.mark.parametrize("where", ["/dev/zero", "fifo", "folder"])
def test_a_rules_file_that_is_no_file_is_refused_at_once(tmp_path: Path, where: str) -> None:
    path = {"fifo": tmp_path / "fifo", "folder": tmp_path}.get(where, Path(where))
    if where == "fifo":
        os.mkfifo(path)
    out = run("play", "--rules", str(path), "--players", "random,random,random,random")
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.startswith("error: ") and out.stderr.count("\n") == 1
    # click refuses a folder itself; a device and a FIFO reach the one reader of files
    assert ("cannot read rules file" if where != "folder" else "is a directory") in out.stderr


def test_replay_under_other_options(tmp_path: Path) -> None:
    vectors = Path(__file__).resolve().parents[2] / "shared" / "vectors" / "setback"
    if not vectors.is_dir():
        pytest.skip("shared/vectors is not beside the repository")
    record = str(vectors / "match-00.record.json")
    same = run("replay", record, "--json")
    short = run("replay", record, "--json", "--game", "setback(target=11)")
    assert same.returncode == 0 and short.returncode == 0, short.stderr
    # The same deals and actions; a lower target can only end the match sooner.
    assert len(json.loads(short.stdout)["hands"]) <= len(json.loads(same.stdout)["hands"])
    bad = run("replay", record, "--json", "--game", "setback(jokers=0)")
    assert bad.returncode == 2 and bad.stdout == "" and bad.stderr.count("\n") == 1
