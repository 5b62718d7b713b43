"""Tests of Hearts (games/hearts.py) against rules/hearts.md, and of its heuristic bot."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable
from itertools import combinations
from pathlib import Path

import pytest

from helpers import play_out, run
from tricktable.bots import make_bot
from tricktable.cards import format_cards, mask_of, parse_card, parse_cards
from tricktable.cli.replay import run_replay
from tricktable.engine.actions import PASS_CARDS
from tricktable.engine.trick import PLAY, TrickState
from tricktable.errors import IllegalAction, OptionError
from tricktable.games import load_game, register
from tricktable.games.hearts import (
    PASSING,
    Hearts,
    HeartsState,
    hearts_points,
    hearts_score,
    lowest_unique,
    pass_choices,
    pass_cycle,
    passes_combined,
    passes_from_table,
)
from tricktable.games.hearts_results import HeartsResult
from tricktable.match import play_match
from tricktable.records import replay, result_of, save_record, to_record

register(Hearts)

#: a deal where seat 0 holds every club: leading from seat 0, it takes all 13 tricks
MOON_DEAL = [
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
]
#: a mixed deal (seat 0 has 2C; seat 1 is void in clubs)
MIXED_DEAL = [
    "2C 3C 4C 5C 6C 7C 2D 3D 4D 2S 3S 4S 5S",
    "AH KH QH JH TH 9H 8H 7H 6H 5D 6D 7D 8D",
    "8C 9C TC JC 9D TD JD QD 6S 7S 8S 9S TS",
    "QC KC AC KD AD 5H 4H 3H 2H JS QS KS AS",
]


def dealt(deal: Iterable[str], spec: str = "hearts", dealer: int = 3) -> HeartsState:
    """A Hearts state with four hands given as text, dealt by ``dealer``."""
    state = load_game(spec).new_state(0)
    state.deal([mask_of(parse_cards(text)) for text in deal], dealer=dealer)
    assert isinstance(state, HeartsState)
    return state


def names(actions: list[int], state: TrickState) -> list[str]:
    return [state.game.action_name(a) for a in actions]


# ------------------------------------------------------------------------------ options


def test_pass_cycle_and_options() -> None:
    assert pass_cycle("lrah") == (1, 3, 2, 0)
    assert pass_cycle("left") == (1,)
    assert pass_cycle("none") == (0,)
    assert pass_cycle("ACROSS") == (2,)
    with pytest.raises(OptionError, match="bad passing 'lx'"):
        load_game("hearts(passing=lx)")
    with pytest.raises(OptionError, match="moon"):
        load_game("hearts(moon=double)")
    game = load_game("hearts(target=50,moon=subtract,passing=left)")
    assert game.spec() == "hearts(target=50,passing=left,moon=subtract)"
    assert game.num_scores == 4 and game.hand_size == 13


# ------------------------------------------------------------------------------ passing


@pytest.mark.parametrize(
    ("passing", "offsets"),
    [
        ("lrah", [1, 3, 2, 0, 1, 3]),
        ("left", [1, 1, 1, 1, 1, 1]),
        ("none", [0, 0, 0, 0, 0, 0]),
        ("ra", [3, 2, 3, 2, 3, 2]),
    ],
)
def test_pass_direction_per_hand(passing: str, offsets: list[int]) -> None:
    state = load_game(f"hearts(passing={passing},target=10000)").new_state(5)
    rng = random.Random(1)
    for offset in offsets:
        state.deal()
        assert isinstance(state, HeartsState)
        assert state.pass_offset == offset
        before = list(state.hands)
        if offset == 0:
            assert state.phase == PLAY
        else:
            assert state.phase == PASSING and state.to_act == (state.dealer + 1) % 4
            for _ in range(4):
                legal = state.legal_actions()
                state.apply(legal[int(rng.random() * len(legal))])
            for seat in range(4):
                gave = state.passed[seat]
                to = (seat + offset) % 4
                assert gave.bit_count() == 3 and gave & before[seat] == gave
                assert state.hands[to] & gave == gave and state.received[to] == gave
        assert all(h.bit_count() == 13 for h in state.hands)
        assert state.phase == PLAY and state.hands[state.to_act] >> parse_card("2C") & 1
        while state.to_act >= 0:
            legal = state.legal_actions()
            state.apply(legal[int(rng.random() * len(legal))])


def test_cards_move_only_when_all_have_passed() -> None:
    state = dealt(MIXED_DEAL, dealer=3)  # hand 1 passes left
    assert state.to_act == 0 and len(state.legal_actions()) == 286
    run(state, "pass 2C 3C 4C")
    assert format_cards(state.hands[1]) == format_cards(mask_of(parse_cards(MIXED_DEAL[1])))
    assert state.hands[0] >> parse_card("2C") & 1
    run(state, "pass AH KH QH, pass 8C 9C TC, pass QS KS AS")
    # Seat 1 now holds the 2C and leads it.
    assert state.phase == PLAY and state.to_act == 1
    assert state.legal_actions() == [parse_card("2C")]
    assert format_cards(state.received[1]) == "2C 3C 4C"
    assert format_cards(state.received[0]) == "QS KS AS"
    assert format_cards(state.hands[0] & mask_of(parse_cards("QS KS AS"))) == "QS KS AS"


def test_passes_are_private() -> None:
    state = dealt(MIXED_DEAL, dealer=3)
    run(state, "pass 2C 3C 4C")
    for seat in range(4):
        seen = state.view(seat).actions
        assert seen == ([(0, state.actions[0])] if seat == 0 else [])
    run(state, "pass AH KH QH, pass 8C 9C TC")
    assert state.view(1).info()["received"] is None  # not yet: seat 1 has passed, 3 has not
    run(state, "pass QS KS AS")
    for seat in range(4):
        seers = {actor for actor, action in state.view(seat).actions if action >= PASS_CARDS}
        assert seers == {seat, (seat - 1) % 4}
        info = state.view(seat).info()
        assert info["passed"] == format_cards(state.passed[seat]).split()
        assert info["received"] == format_cards(state.received[seat]).split()
        assert info["pass_direction"] == "left"


_CARD = re.compile(r"\b[2-9TJQKA][CDHS]\b")


def check_views_hide(state: TrickState) -> None:
    """No view names another seat's unplayed card, unless this seat passed it."""
    assert isinstance(state, HeartsState)
    for seat in range(4):
        text = json.dumps(state.view(seat).to_dict())
        shown = mask_of(parse_card(c) for c in _CARD.findall(text))
        others = 0
        for other in range(4):
            if other != seat:
                others |= state.hands[other]
        assert shown & others & ~state.passed[seat] == 0, (seat, format_cards(shown & others))


def test_views_never_show_other_hands() -> None:
    game = load_game("hearts(target=60)")
    state = game.new_state(11)
    rng = random.Random(11)
    for _ in range(3):
        state.deal()
        while state.to_act >= 0:
            check_views_hide(state)
            legal = state.legal_actions()
            state.apply(legal[int(rng.random() * len(legal))])


# ------------------------------------------------------------------------------ play


def test_two_of_clubs_leads_and_first_trick_has_no_points() -> None:
    state = dealt(MIXED_DEAL, "hearts(passing=none)")
    assert state.to_act == 0 and state.legal_actions() == [parse_card("2C")]
    with pytest.raises(IllegalAction, match="must lead 2C to the first trick"):
        run(state, "play 3C")
    run(state, "play 2C")
    # Seat 1 is void in clubs, holds hearts and diamonds: no heart on the first trick.
    assert names(state.legal_actions(), state) == ["play 5D", "play 6D", "play 7D", "play 8D"]
    with pytest.raises(IllegalAction, match="may not play a heart or QS to the first trick"):
        run(state, "play AH")


def test_first_trick_points_when_nothing_else() -> None:
    deal = [
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH QS",
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS AH KS AS",
        "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    ]
    state = dealt(deal, "hearts(passing=none)")
    run(state, "play 2C")
    assert len(state.legal_actions()) == 13  # only hearts and QS: any of them
    run(state, "play QS")
    assert parse_card("AH") not in state.legal_actions()  # seat 2 has spades besides AH
    loose = dealt(MIXED_DEAL, "hearts(passing=none,first_trick_points=true)")
    run(loose, "play 2C")
    assert parse_card("AH") in loose.legal_actions()


def test_hearts_must_be_broken() -> None:
    state = dealt(MIXED_DEAL, "hearts(passing=none)")
    # Trick 1: clubs, won by seat 3 (AC); seat 1 discards a diamond.
    run(state, "play 2C, play 5D, play 8C, play AC")
    assert state.to_act == 3 and not state.broken
    assert not {parse_card(c) for c in ("5H", "4H", "3H", "2H")} & set(state.legal_actions())
    with pytest.raises(IllegalAction, match="may not lead a heart before hearts are broken"):
        run(state, "play 2H")
    # Trick 2: seat 3 leads KD; seat 0 follows, seat 1 follows, seat 2 follows; all diamonds.
    run(state, "play KD, play 2D, play 6D, play 9D")
    # Trick 3: seat 3 leads QC; seat 1 void in clubs throws a heart: hearts are broken.
    run(state, "play QC, play 3C, play AH, play TC")
    assert state.broken and state.to_act == 3
    assert parse_card("2H") in state.legal_actions()


def test_only_hearts_may_be_led_unbroken_and_queen_breaks_option() -> None:
    deal = [
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AH",
        "AC 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
        "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    ]
    state = dealt(deal, "hearts(passing=none)", dealer=3)
    run(state, "play 2C, play AC")
    assert parse_card("QS") not in state.legal_actions()  # no Q♠ on the first trick
    run(state, "play 2S, play 2D")
    # Seat 1 won the trick holding only hearts: it may lead one, which breaks hearts.
    assert state.to_act == 1 and not state.broken and len(state.legal_actions()) == 12
    run(state, "play 2H, play 3S, play 3D, play AH")
    assert state.broken and state.to_act == 0
    # Q♠ breaks hearts only with queen_breaks.
    for breaks in (False, True):
        s = dealt(MIXED_DEAL, f"hearts(passing=none,queen_breaks={str(breaks).lower()})")
        run(s, "play 2C, play 5D, play 8C, play AC, play AS, play 2S, play 6D, play 6S")
        run(s, "play KS, play 3S, play 7D, play 7S, play QS, play 4S, play 8D, play 8S")
        assert s.to_act == 3 and s.broken is breaks
        assert (parse_card("2H") in s.legal_actions()) is breaks


def test_illegal_messages() -> None:
    state = dealt(MIXED_DEAL, dealer=3)
    with pytest.raises(IllegalAction, match="must name the three cards to pass"):
        run(state, "pass")
    with pytest.raises(IllegalAction, match="must pass exactly three cards, not 2"):
        run(state, "pass 2C 3C")
    with pytest.raises(IllegalAction, match="does not hold AH"):
        run(state, "pass 2C 3C AH")
    with pytest.raises(IllegalAction, match="must pass three cards left first"):
        run(state, "play 2C")
    run(state, "pass 2C 3C 4C, pass AH KH QH, pass 8C 9C TC, pass QS KS AS")
    with pytest.raises(IllegalAction, match="must play a card now"):
        run(state, "pass 5C 6C 7C")
    assert state.to_act == 1  # the 2C went from seat 0 to seat 1, which leads it
    with pytest.raises(IllegalAction, match="does not hold AH"):
        run(state, "play AH")  # passed to seat 2
    run(state, "play 2C")
    with pytest.raises(IllegalAction, match="must follow suit C"):
        run(state, "play 9D")


# ------------------------------------------------------------------------------ scoring


def test_points_and_moon_scoring() -> None:
    qs, ah = parse_card("QS"), parse_card("AH")
    won = [1 << qs | 1 << ah, mask_of(parse_cards("2H 3H KS")), 0, 0]
    assert hearts_points(won) == [14, 2, 0, 0]
    assert hearts_score([13, 5, 8, 0], "add") == ([13, 5, 8, 0], None)
    assert hearts_score([0, 26, 0, 0], "add") == ([26, 0, 26, 26], 1)
    assert hearts_score([0, 26, 0, 0], "subtract") == ([0, -26, 0, 0], 1)
    assert hearts_score([0, 26, 0, 0], "none") == ([0, 26, 0, 0], None)
    assert lowest_unique([30, 12, 100, 12]) is None
    assert lowest_unique([30, 11, 100, 12]) == 1


@pytest.mark.parametrize(
    ("moon", "scores", "shooter"),
    [("add", [0, 26, 26, 26], 0), ("subtract", [-26, 0, 0, 0], 0), ("none", [26, 0, 0, 0], None)],
)
def test_shooting_the_moon(moon: str, scores: list[int], shooter: int | None) -> None:
    state = dealt(MOON_DEAL, f"hearts(passing=none,moon={moon})", dealer=3)
    play_out(state)
    result = state.results[-1]
    assert result == HeartsResult(
        pass_offset=0,
        penalties=(26, 0, 0, 0),
        moon=shooter,
        scores=tuple(scores),
        queen_of_spades=0,
    )
    assert result.to_dict() == {
        "pass": "hold",
        "penalties": [26, 0, 0, 0],
        "moon": shooter,
        "scores": scores,
    }
    assert state.needs_deal


def test_match_end_lowest_wins_and_ties_play_on() -> None:
    state = dealt(MOON_DEAL, "hearts(passing=none,moon=none,target=30)")
    state.scores = [0, 20, 3, 30]
    play_out(state)
    assert state.scores == [26, 20, 3, 30] and state.is_over and state.winner == 2
    # A tie for lowest plays on.
    tie = dealt(MOON_DEAL, "hearts(passing=none,moon=none,target=26)")
    play_out(tie)
    assert tie.scores == [26, 0, 0, 0] and tie.winner is None and tie.needs_deal
    # Not reached: no end even with a unique lowest score.
    low = dealt(MOON_DEAL, "hearts(passing=none,moon=none,target=27)")
    low.scores = [0, 1, 2, 3]
    play_out(low)
    assert low.winner is None and low.needs_deal


def test_scoring_invariant_over_random_hands() -> None:
    rng = random.Random(2024)
    for spec in ("hearts(target=10000)", "hearts(target=10000,moon=subtract,breaking=false)"):
        game = load_game(spec)
        state = game.new_state(7)
        for _ in range(150):
            before = list(state.scores)
            state.deal()
            while state.to_act >= 0:
                legal = state.legal_actions()
                state.apply(legal[int(rng.random() * len(legal))])
            result = state.results[-1]
            assert isinstance(result, HeartsResult)
            points, shooter = list(result.penalties), result.moon
            assert sum(points) == 26
            change = [a - b for a, b in zip(state.scores, before, strict=True)]
            if shooter is None:
                assert change == points and 26 not in points
            else:
                assert points[shooter] == 26
                assert sum(change) == (78 if game.options.moon == "add" else -26)
            assert list(result.scores) == state.scores
            queen = result.queen_of_spades
            assert queen is not None and state.won[queen] >> parse_card("QS") & 1
            taken = sum(w.bit_count() for w in state.won)
            assert taken == 52 and all(h == 0 for h in state.hands)


def test_random_match_ends_properly() -> None:
    rng = random.Random(3)
    state = load_game("hearts").new_state(3)
    while not state.is_over:
        state.deal()
        while state.to_act >= 0:
            legal = state.legal_actions()
            state.apply(legal[int(rng.random() * len(legal))])
        if not state.is_over:
            assert max(state.scores) < 100 or lowest_unique(state.scores) is None
    assert max(state.scores) >= 100 and state.winner == lowest_unique(state.scores)


def test_clone_is_independent_during_passing() -> None:
    state = dealt(MIXED_DEAL, dealer=3)
    run(state, "pass 2C 3C 4C")
    copy = state.clone()
    assert isinstance(copy, HeartsState)
    run(copy, "pass AH KH QH, pass 8C 9C TC, pass QS KS AS")
    assert state.phase == PASSING and state.passed[1] == 0 and copy.received[1]
    assert state.hands[1] == mask_of(parse_cards(MIXED_DEAL[1]))


# ------------------------------------------------------------------------------ records


def test_record_round_trip_and_replay_cli(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game = load_game("hearts(target=40)")
    bots = [make_bot(n) for n in ("heuristic", "random", "heuristic", "random")]
    state = play_match(game, bots, seed=21)
    assert state.is_over
    record = json.loads(json.dumps(to_record(state, ["a", "b", "c", "d"])))
    assert record["hands"][0]["actions"][0].startswith("pass ")
    again = replay(record)
    assert result_of(again) == result_of(state) and again.scores == state.scores
    # The replay command, in process (a child process would not have Hearts registered
    # until the game is listed in GAME_MODULES).
    file = tmp_path / "hearts.json"
    save_record(record, file)
    assert run_replay(str(file), True) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(json.dumps(result_of(state)))
    assert run_replay(str(file), False) == 0
    assert "wins the match" in capsys.readouterr().out
    assert record["hands"][0]["actions"][4] == "play 2C"
    record["hands"][0]["actions"][4] = "play 3D"
    save_record(record, file)
    assert run_replay(str(file), True) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("error: hand 0 action 4: seat ")
    assert err.count("\n") == 1


# ------------------------------------------------------------------------------ the bot


def test_heuristic_beats_random() -> None:
    game = load_game("hearts(target=50)")
    mine, theirs, wins = 0.0, 0.0, 0
    matches = 48
    for m in range(matches):
        seat = m % 4
        bots = [make_bot("heuristic" if s == seat else "random") for s in range(4)]
        state = play_match(game, bots, seed=500 + m, max_hands=100)
        mine += state.scores[seat]
        theirs += sum(state.scores[s] for s in range(4) if s != seat) / 3
        wins += state.winner == seat
    assert mine < 0.5 * theirs, (mine / matches, theirs / matches)
    assert wins > matches / 2


@pytest.mark.parametrize("size", [0, 2, 3, 4, 13, 20])
def test_pass_choices_are_every_three_cards_in_order(size: int) -> None:
    # Both ways of listing passes (compiled code reads a table; interpreted code combines)
    # against the plain definition.
    rng = random.Random(size)
    for _ in range(20):
        cards = sorted(rng.sample(range(52), size))
        expected = sorted(PASS_CARDS | mask_of(trio) for trio in combinations(cards, 3))
        assert pass_choices(mask_of(cards)) == expected
        assert passes_combined(cards) == expected
        assert passes_from_table(cards) == expected
