"""Tests of rule options: parsing game specs, defaults from RULES.md, and clear errors."""

from __future__ import annotations

import pytest

from tricktable.engine.options import build_options, option_rows, options_dict, parse_spec
from tricktable.errors import OptionError, TricktableError
from tricktable.games import load_game, names
from tricktable.games.setback import Setback, SetbackOptions

DEFAULTS = {
    "target": 21,
    "min_bid": 2,
    "max_bid": 6,
    "low_to": "captured",
    "declarer_scores": "bid",
}


def test_defaults_are_those_of_rules_md() -> None:
    game = load_game("setback")
    assert isinstance(game, Setback)
    # the five options RULES.md names (the game may have more, for other variants)
    assert {k: game.options_dict()[k] for k in DEFAULTS} == DEFAULTS
    assert {k: options_dict(SetbackOptions())[k] for k in DEFAULTS} == DEFAULTS
    assert game.spec() == "setback"


def test_load_game_with_two_options() -> None:
    game = load_game("setback(target=11,low_to=dealt)")
    assert game.options.target == 11
    assert game.options.low_to == "dealt"
    assert game.options.declarer_scores == "bid"
    assert game.spec() == "setback(target=11,low_to=dealt)"
    assert load_game(game.spec()).options == game.options


@pytest.mark.parametrize(
    ("spec", "key", "value"),
    [
        ("setback(target=21)", "target", 21),
        ("setback(target=11)", "target", 11),
        ("setback(target=1)", "target", 1),
        ("setback(min_bid=2)", "min_bid", 2),
        ("setback(min_bid=3)", "min_bid", 3),
        ("setback(max_bid=6)", "max_bid", 6),
        ("setback(max_bid=5)", "max_bid", 5),
        ("setback(low_to=captured)", "low_to", "captured"),
        ("setback(low_to=dealt)", "low_to", "dealt"),
        ("setback(declarer_scores=bid)", "declarer_scores", "bid"),
        ("setback(declarer_scores=taken)", "declarer_scores", "taken"),
        ("Setback( target = 11 )", "target", 11),
        ("setback(low-to=DEALT)", "low_to", "dealt"),
        ("setback(declarer_scores='taken')", "declarer_scores", "taken"),
        ("setback()", "target", 21),
    ],
)
def test_every_option_reads_both_values(spec: str, key: str, value: object) -> None:
    game = load_game(spec)
    assert getattr(game.options, key) == value
    # the spec round-trips through the game's own text
    assert load_game(game.spec()).options == game.options


def test_options_argument_then_spec_then_extra() -> None:
    game = load_game("setback(target=11)", extra={"low_to": "dealt"}, options={"target": 7})
    assert game.options.target == 11  # the spec's own beats the record's options
    assert game.options.low_to == "dealt"
    game = load_game("setback", options={"target": 7, "declarer_scores": "taken"})
    assert game.options.target == 7
    assert game.options.declarer_scores == "taken"
    game = load_game("setback(target=11)", extra={"target": 5})
    assert game.options.target == 5


def test_record_style_option_values_are_accepted() -> None:
    # records carry JSON values: ints as ints, strings as strings
    game = load_game("setback", options={"target": 11, "min_bid": "3", "low_to": "dealt"})
    assert (game.options.target, game.options.min_bid) == (11, 3)


@pytest.mark.parametrize(
    ("spec", "needles"),
    [
        (
            "setback(colour=red)",
            [
                "unknown option 'colour'",
                "valid options",
                "target",
                "min_bid",
                "max_bid",
                "low_to",
                "declarer_scores",
            ],
        ),
        ("setback(target=abc)", ["bad value", "'target'", "integer 1..10000"]),
        ("setback(target=0)", ["bad value", "'target'"]),
        ("setback(target=true)", ["bad value", "'target'"]),
        ("setback(min_bid=0)", ["bad value", "'min_bid'", "integer"]),
        ("setback(min_bid=x)", ["bad value", "'min_bid'", "integer"]),
        ("setback(max_bid=0)", ["bad value", "'max_bid'"]),
        ("setback(low_to=lowest)", ["bad value", "'low_to'", "captured | dealt"]),
        ("setback(declarer_scores=all)", ["bad value", "'declarer_scores'", "bid | taken"]),
        ("setback(min_bid=5,max_bid=4)", ["min_bid 5 is above max_bid 4"]),
        ("setback(target)", ["cannot read option 'target'", "key=value"]),
        ("setback(=3)", ["cannot read option", "key=value"]),
        ("setback(target=11", ["cannot read game", "NAME(option=value,...)"]),
        ("", ["cannot read game"]),
        ("set back", ["cannot read game"]),
        ("9setback", ["cannot read game"]),
        ("whist", ["unknown game 'whist'", "valid", "setback", "hearts"]),
        ("hearts(jd_bonus=true)", ["unknown option 'jd_bonus'", "valid options", "moon"]),
        ("setback(target=5,target=7)", ["option 'target' is given twice"]),
        ("setback(target=5, low_to=dealt, target=5)", ["'target' is given twice"]),
        ("setback(target=" + "9" * 5000 + ")", ["bad value", "'target'"]),
        ("x" * 100_000, ["unknown game 'xxx", "valid"]),
    ],
)
def test_bad_specs_say_what_is_valid(spec: str, needles: list[str]) -> None:
    with pytest.raises(OptionError) as info:
        load_game(spec)
    message = str(info.value)
    assert "\n" not in message
    for needle in needles:
        assert needle in message, (needle, message)


def test_an_error_quotes_at_most_a_short_piece_of_the_input() -> None:
    for spec in ("x" * 100_000, "setback(" + "k" * 100_000 + "=1)", "setback(target=" + "9" * 99):
        with pytest.raises(OptionError) as info:
            load_game(spec)
        assert max(str(info.value).count(ch) for ch in "xk9") <= 60, str(info.value)[:300]


def test_values_that_no_option_takes() -> None:
    # a record's options and a rules file's are JSON and TOML: lists and tables are no value
    for value in ([1], {"a": 1}, [[[]]], None):
        with pytest.raises(OptionError, match="bad value"):
            load_game("setback", options={"target": value})


def test_option_error_is_a_project_error() -> None:
    with pytest.raises(TricktableError):
        load_game("setback(nope=1)")
    with pytest.raises(ValueError):
        load_game("setback(nope=1)")


def test_bad_option_from_options_mapping() -> None:
    with pytest.raises(OptionError, match="unknown option 'trumps'"):
        load_game("setback", options={"trumps": "S"})
    with pytest.raises(OptionError, match="'low_to'"):
        load_game("setback", options={"low_to": None})


@pytest.mark.parametrize(
    ("text", "name", "values"),
    [
        ("setback", "setback", {}),
        ("SETBACK", "setback", {}),
        ("setback(target=11, low_to=dealt)", "setback", {"target": "11", "low_to": "dealt"}),
        ("setback(target=11,)", "setback", {"target": "11"}),
        ("  setback ( )  ", "setback", {}),
    ],
)
def test_parse_spec(text: str, name: str, values: dict[str, str]) -> None:
    assert parse_spec(text) == (name, values)


def test_build_options_on_a_base() -> None:
    base = build_options(SetbackOptions, {"target": "11"}, "setback")
    opts = build_options(SetbackOptions, {"low_to": "dealt"}, "setback", base=base)
    assert (opts.target, opts.low_to) == (11, "dealt")
    assert base.low_to == "captured"  # options are immutable


def test_option_rows_describe_each_option() -> None:
    rows = option_rows(SetbackOptions())
    assert set(DEFAULTS) <= {r[0] for r in rows}
    by_name = {r[0]: r for r in rows}
    assert by_name["low_to"][1] == "captured | dealt"
    assert by_name["target"][2] == "21"
    assert all(r[3] for r in rows)  # every option is documented


def test_setback_is_registered() -> None:
    assert "setback" in names()


@pytest.mark.parametrize("text", ["٥", "1_0", "+5", "５", "0x5", "5.0", "1e1"])
def test_an_integer_option_is_ascii_digits(text: str) -> None:
    """int() reads each of these; an option value is written in digits, or refused."""
    with pytest.raises(OptionError, match="bad value"):
        load_game(f"setback(target={text})")
