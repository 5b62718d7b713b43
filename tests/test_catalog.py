"""``tricktable games``, ``tricktable rules`` and house rules from a TOML file."""

from __future__ import annotations

import json
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


def test_games_lists_every_game_and_preset_on_one_line_each() -> None:
    out = run("games")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    names = [line.split()[0] for line in lines]
    assert sorted(names) == sorted([*GAMES, *PRESETS])
    assert len(PRESETS) >= 8


@pytest.mark.parametrize("name", ["setback", "smear", "setback-classic", "ten-point-pitch"])
def test_rules_prints_rules_and_every_option(name: str) -> None:
    out = run("rules", name)
    assert out.returncode == 0, out.stderr
    for option in type(load_game(name).options).__dataclass_fields__:
        assert f"- {option} = " in out.stdout
    assert "Setback" in out.stdout


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
        tmp_path, '[options]\ntarget = 11\njokers = 0\nmax_bid = 4\npoints = "high,low,jack,game"\n'
    )
    out = run("simulate", "--rules", path, "--hands", "40", "--workers", "1", "--json")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["hands"] == 40


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
