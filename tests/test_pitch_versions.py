"""The Pitch versions of games/presets/pitch.toml and the options they use: the kitty (widow),
the moon, smudge, every table from two to seven seats."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from tricktable.bots import make_bot
from tricktable.bots.pitch_heuristic import PitchHeuristic
from tricktable.cards import card_name, mask_of, parse_cards
from tricktable.engine.trick import PLAY
from tricktable.errors import OptionError
from tricktable.games import PRESETS, load_game
from tricktable.games.pitch_scoring import hand_points
from tricktable.games.setback import DISCARD, DISCARDING, MOON, SetbackState
from tricktable.games.setback_results import SetbackResult
from tricktable.match import end_bots, play_match, play_on, start_bots
from tricktable.records import replay, result_of, to_record
from tricktable.search.determinize import determinize

#: the versions pitch.toml adds
VERSIONS = (
    "two-hand-pitch",
    "three-hand-pitch",
    "five-hand-pitch",
    "six-hand-pitch",
    "seven-hand-pitch",
    "six-hand-smear",
    "three-team-smear",
    "smear-with-widow",
    "pitch-with-kitty",
    "nine-card-pitch",
    "widow-pitch",
    "smudge",
    "moon-pitch",
)
#: a version of each new option
KITTY = ("smear-with-widow", "pitch-with-kitty", "nine-card-pitch", "widow-pitch")

#: two seats, each for itself, four points, the given extra options
TWO = 'setback(players=2,partners=false,jokers=0,points="high,low,jack,game",max_bid=4,target=50'


def state_of(spec: str, hands: list[str], dealer: int, stock: str = "") -> SetbackState:
    """A state of ``spec`` dealt ``hands`` (text) by ``dealer``, its stock (the kitty first)."""
    game = load_game(spec)
    state = game.new_state(0)
    masks = [mask_of(parse_cards(text)) for text in hands]
    state.deal(masks, dealer=dealer, stock=parse_cards(stock) if stock else None)
    assert isinstance(state, SetbackState)
    return state


def act(state: SetbackState, *texts: str) -> SetbackState:
    for text in texts:
        state.apply(state.game.parse_action(text))
    return state


def last(state: SetbackState) -> SetbackResult:
    result = state.results[-1]
    assert isinstance(result, SetbackResult)
    return result


def named(mask: int) -> set[str]:
    return {card_name(c) for c in range(64) if mask >> c & 1}


# ------------------------------------------------------------------------- the versions


def test_every_version_is_registered_with_a_summary_and_a_source() -> None:
    for name in VERSIONS:
        preset = PRESETS[name]
        assert preset.game == "setback"
        assert preset.summary and preset.source, name
        load_game(name)  # its options are possible
    sizes = {load_game(n).num_players for n in VERSIONS}
    assert sizes == {2, 3, 4, 5, 6, 7}
    shapes = {(load_game(n).num_players, load_game(n).num_scores) for n in VERSIONS}
    assert {(6, 2), (6, 3), (6, 6)} <= shapes  # two sides of three, three of two, each alone


def test_the_default_options_record_none_of_the_new_fields() -> None:
    recorded = load_game("setback").options_dict()
    for field in ("kitty", "moon", "moon_value", "smudge", "players", "direction"):
        assert field not in recorded
    assert load_game("setback(kitty=4)").options_dict()["kitty"] == 4


@pytest.mark.parametrize("name", VERSIONS)
def test_a_version_plays_replays_and_resumes(name: str) -> None:
    game = load_game(name)
    n = game.num_players
    # Random play: every hand complete, the record replays to the same results.
    state = play_match(game, [make_bot("random") for _ in range(n)], 3, max_hands=30)
    assert all(len(log.actions) for log in state.history)
    record = json.loads(json.dumps(to_record(state)))
    assert result_of(replay(record)) == result_of(state)
    # Whole matches: the heuristic against random (its side's seats), and alone.
    for players in (
        ["heuristic" if game.team_of(s) == 0 else "random" for s in range(n)],
        ["heuristic"] * n,
    ):
        whole = play_match(game, [make_bot(p) for p in players], 5, max_hands=400)
        assert whole.is_over, f"{name}: {players} did not finish in 400 hands"
        record = json.loads(json.dumps(to_record(whole, players)))
        again = replay(record)
        assert result_of(again) == result_of(whole) and again.winner == whole.winner
    # Resumed from its record cut in the middle of a hand, it plays on exactly.
    players = ["heuristic" if s % 2 else "random" for s in range(n)]
    whole = play_match(game, [make_bot(p) for p in players], 7, max_hands=6)
    full = json.loads(json.dumps(to_record(whole, players)))
    hands = full["hands"]
    for h in range(min(len(hands), 3)):
        # (with a kitty, 5 and 7 cut four seats' hands during the discard)
        for cut in (0, 3, 5, 7, len(hands[h]["actions"]) // 2):
            part = json.loads(json.dumps(full))
            unfinished = dict(hands[h])
            unfinished["actions"] = unfinished["actions"][:cut]
            unfinished.pop("notes", None)
            part["hands"] = hands[:h]
            part["unfinished_hand"] = unfinished
            resumed = replay(part)
            bots = [make_bot(p) for p in players]
            start_bots(resumed.game, bots, 7)
            play_on(resumed, bots, max_hands=6)
            end_bots(resumed, bots)
            assert to_record(resumed, players) == full, f"{name}: cut at {h}, {cut}"


# ---------------------------------------------------------------------------- the kitty


KITTY_DEAL = [
    "AS KS 9S 4H 5H 6H",
    "2C 3C 4C 5C 6C 7C",
    "2D 3D 4D 5D 6D 7D",
    "8C 9C TC 8D 9D TD",
]


def kitty_state() -> SetbackState:
    """pitch-with-kitty dealt by seat 3, the kitty QS JS 2H 3H: seat 0 bids first."""
    kitty = parse_cards("QS JS 2H 3H")
    used = mask_of(parse_cards(" ".join(KITTY_DEAL))) | mask_of(kitty)
    rest = [c for c in load_game("pitch-with-kitty").deck if not used >> c & 1]
    stock = " ".join(card_name(c) for c in [*kitty, *rest])
    return state_of("pitch-with-kitty", KITTY_DEAL, dealer=3, stock=stock)


def test_the_declarer_takes_the_kitty_then_discards_as_many() -> None:
    state = act(kitty_state(), "bid 3", "pass", "pass", "pass")
    assert state.phase == DISCARDING and state.to_act == 0
    kitty = named(mask_of(parse_cards("QS JS 2H 3H")))
    assert named(state.hands[0]) == named(mask_of(parse_cards(KITTY_DEAL[0]))) | kitty
    assert set(state.view(0).info()["kitty"]) == kitty
    assert state.view(1).info()["kitty"] is None
    assert all(a >= DISCARD for a in state.legal_actions())
    act(state, "discard 4H", "discard 5H", "discard 2H")
    assert state.phase == DISCARDING and state.view(2).info()["discarded"] == 3
    act(state, "discard 3H")
    assert state.phase == PLAY and state.to_act == 0
    assert named(state.hands[0]) == {"AS", "KS", "QS", "JS", "9S", "6H"}
    # Only the declarer sees its discards, in its view's actions and nowhere else.
    mine = [state.game.action_name(a) for s, a in state.view(0).actions if s == 0]
    assert mine == ["bid 3", "discard 4H", "discard 5H", "discard 2H", "discard 3H"]
    for seat in (1, 2, 3):
        view = state.view(seat)
        assert [a for _s, a in view.actions if a >= DISCARD] == []
        text = json.dumps(view.to_dict())
        for card in kitty | {"4H", "5H"}:
            assert card not in text, f"seat {seat} sees {card}"


def test_the_discard_counts_as_the_declarers_trick() -> None:
    state = act(kitty_state(), "bid 2", "pass", "pass", "pass")
    act(state, "discard 4H", "discard 5H", "discard 2H", "discard 3H")
    discards = mask_of(parse_cards("4H 5H 2H 3H"))
    while state.phase == PLAY:
        act(state, state.game.action_name(state.legal_actions()[0]))
    result = last(state)
    assert result.trump is not None
    won = list(state.won)
    assert not any(w & discards for w in won)
    won[0] |= discards
    expected = hand_points(
        result.trump, state.dealt, won, "captured", ["high", "low", "jack", "game"], 2
    )
    assert dict(result.points) == expected
    everything = 0
    for mask in won:
        everything |= mask
    assert everything == state.dealt[0] | state.dealt[1] | state.dealt[2] | state.dealt[3]


def test_the_declarer_keeps_a_card_other_than_a_joker() -> None:
    spec = "setback(kitty=2,hand_size=2,players=2,partners=false,jokers=2)"
    state = state_of(spec, ["JK JL", "3D 4D"], dealer=1, stock="5D 6D")
    act(state, "bid 2", "pass", "discard 5D")
    assert state.phase == DISCARDING
    legal = {state.game.action_name(a) for a in state.legal_actions()}
    assert legal == {"discard JK", "discard JL"}  # 6D must stay, to name trump
    for text, says in (("discard 6D", "other than a joker"), ("bid 3", "discard 1 more")):
        error = state.view(0).illegal(state.game.parse_action(text))
        assert "\n" not in str(error) and says in str(error), str(error)


@pytest.mark.parametrize("name", KITTY)
def test_worlds_sampled_from_any_view_agree_with_it(name: str) -> None:
    game = load_game(name)
    state = game.new_state(11)
    rng = random.Random(11)
    while len(state.history) <= 2 and not state.is_over:
        if state.needs_deal:
            state.deal()
            continue
        for seat in range(state.n):
            world = determinize(state.view(seat), rng)
            assert (world.phase, world.to_act) == (state.phase, state.to_act)
            assert world.hands[seat] == state.hands[seat]
            if seat == state.to_act:
                assert world.legal_actions() == state.legal_actions()
        state.apply(rng.choice(state.legal_actions()))


# ----------------------------------------------------------------------- moon and smudge


SWEEP = ["AS KS QS JS TS 2S", "3H 4H 5H 6H 7H 8H"]
FAIL = ["3H 4H 5H 6H 7H 8H", "AH KH QH JH TH 2S"]


def test_a_moon_made_wins_the_match() -> None:
    state = state_of(TWO + ",moon=true)", SWEEP, dealer=1)
    assert MOON in state.legal_actions() and state.game.action_name(MOON) == "moon"
    act(state, "moon")
    assert state.phase == PLAY and state.bid == 5  # the auction ends at once
    while not state.is_over:
        act(state, state.game.action_name(state.legal_actions()[-1]))
    result = last(state)
    assert result.moon and result.outright and state.winner == 0
    assert result.to_dict()["moon"] is True


def test_a_moon_failed_loses_the_hands_points() -> None:
    state = state_of(TWO + ",moon=true)", FAIL, dealer=1)
    act(state, "moon")
    while state.phase == PLAY:
        act(state, state.game.action_name(state.legal_actions()[0]))
    assert state.scores[0] == -4 and not last(state).outright


def test_a_moon_with_a_value_scores_it_and_the_dealer_may_take_it() -> None:
    state = state_of(TWO + ",moon=true,moon_value=10,dealer_takes=true)", SWEEP[::-1], dealer=1)
    act(state, "moon")
    assert state.legal_actions() == [state.game.parse_action(t) for t in ("pass", "moon")]
    act(state, "moon")  # the dealer takes it
    assert state.declarer == 1
    while state.phase == PLAY:
        act(state, state.game.action_name(state.legal_actions()[-1]))
    assert state.scores == [0, 10] and not state.is_over


@pytest.mark.parametrize(("before", "outright"), [(0, True), (-3, False)])
def test_smudge_wins_unless_in_the_hole(before: int, outright: bool) -> None:
    state = state_of(TWO + ",smudge=true)", SWEEP, dealer=1)
    state.scores = [before, 0]
    act(state, "bid 4")
    while state.phase == PLAY:
        act(state, state.game.action_name(state.legal_actions()[-1]))
    assert last(state).outright is outright
    assert state.is_over is outright
    assert state.scores[0] == before + 4


def test_a_smaller_bid_taking_every_point_is_no_smudge() -> None:
    state = state_of(TWO + ",smudge=true)", SWEEP, dealer=1)
    act(state, "bid 3", "pass")
    while state.phase == PLAY:
        act(state, state.game.action_name(state.legal_actions()[-1]))
    assert not last(state).outright and state.scores == [3, 0]


# ------------------------------------------------------------------- impossible options


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        (
            "setback(players=7,partners=false,kitty=12)",
            "7 hands of 6 and a kitty of 12 need 54 cards; the deck has 53",
        ),
        ("setback(players=4,hand_size=12,kitty=6)", "the deck has 53"),
        ("setback(moon_value=5)", "moon_value=5 needs moon=true"),
    ],
)
def test_impossible_combinations_are_one_line(spec: str, says: str) -> None:
    with pytest.raises(OptionError, match=says) as error:
        load_game(spec)
    assert "\n" not in str(error.value)


def test_moon_and_discard_are_read_and_written() -> None:
    game = load_game("moon-pitch")
    assert game.parse_action("shoot the moon") == MOON == game.parse_action("bid moon")
    assert game.action_name(game.parse_action("discard JK")) == "discard JK"


# ------------------------------------------------------------------------- the heuristic


def test_the_heuristic_discards_the_weakest_and_keeps_the_trumps() -> None:
    state = act(kitty_state(), "bid 3", "pass", "pass", "pass")
    bot = PitchHeuristic()
    bot.start_match(state.game, 0, 1)
    while state.phase == DISCARDING:
        act(state, state.game.action_name(bot.act(state.view(0))))
    assert {"AS", "KS", "QS", "JS", "9S"} <= named(state.hands[0])


def test_the_heuristic_shoots_the_moon_only_with_an_overwhelming_hand() -> None:
    strong = state_of(TWO + ",moon=true)", ["AS KS QS JS TS 3S", "2H 4H 5H 6H 7H 8H"], 1)
    weak = state_of(TWO + ",moon=true)", ["AS 4S 3D 5H 7C 9C", "2H 4H 5H 6H 7H 8H"], 1)
    for state, moon in ((strong, True), (weak, False)):
        bot = PitchHeuristic()
        bot.start_match(state.game, 0, 1)
        assert (bot.act(state.view(0)) == MOON) is moon


#: every table shape, the heuristic's seats (side 0) against random
SHAPES = (
    "setback(players=2,partners=false)",
    "setback(players=3,partners=false)",
    "setback(players=5,partners=false)",
    "setback(players=6,partners=3x2)",
    "setback(players=6)",
    "setback(players=7,partners=false)",
    "pitch-with-kitty",
    "widow-pitch",
    "moon-pitch",
)


@pytest.mark.parametrize("spec", SHAPES)
def test_the_heuristic_beats_random_at_every_table(spec: str) -> None:
    game = load_game(spec)
    matches = 16
    wins = 0
    for seed in range(matches):
        seats: list[Any] = [
            make_bot("heuristic" if game.team_of(s) == 0 else "random")
            for s in range(game.num_players)
        ]
        state = play_match(game, seats, seed, max_hands=300)
        wins += state.winner == 0
    fair = matches / game.num_scores
    assert wins >= min(2 * fair, 0.75 * matches), f"{spec}: {wins} of {matches}"
