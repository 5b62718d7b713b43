"""Tests of Filippa (games/filippa.py) against rules/filippa.md, and of its heuristic bot."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable
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
from tricktable.games.filippa import (
    PENALTY,
    Filippa,
    FilippaState,
    card_penalties,
    filippa_winner,
    share_pool,
)
from tricktable.games.hearts import PASSING
from tricktable.games.hearts_results import FilippaResult
from tricktable.match import play_match
from tricktable.records import replay, result_of, save_record, to_record

register(Filippa)

#: seat 0 holds every club: leading (dealer 3), it takes all 13 tricks and every penalty
SWEEP_DEAL = [
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
]
#: a deal whose first four tricks (see SPREAD_PLAY) give every seat a penalty card
SPREAD_DEAL = [
    "AH 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC",
    "KH AC QS 2D 3D 4D 5D 6D 7D 8D 9D TD JD",
    "QH TH AD QD KD 2S 3S 4S 5S 6S 7S 8S 9S",
    "JH 9H 2H 3H 4H 5H 6H 7H 8H AS TS JS KS",
]
SPREAD_PLAY = (
    "play AH, play KH, play QH, play JH,"  # seat 0 wins -14
    "play 2C, play AC, play TH, play 2H,"  # seat 1 wins -2
    "play 2D, play AD, play 3H, play 3C,"  # seat 2 wins -1
    "play 2S, play AS, play 4C, play QS"  # seat 3 wins -13
)


def dealt(
    deal: Iterable[str], spec: str = "filippa(passing=none)", dealer: int = 3
) -> FilippaState:
    """A Filippa state with four hands given as text, dealt by ``dealer``."""
    state = load_game(spec).new_state(0)
    state.deal([mask_of(parse_cards(text)) for text in deal], dealer=dealer)
    assert isinstance(state, FilippaState)
    return state


def last_result(state: TrickState) -> FilippaResult:
    """The last hand's result, checked to be Filippa's."""
    result = state.results[-1]
    assert isinstance(result, FilippaResult)
    return result


def random_hand(state: TrickState, rng: random.Random) -> None:
    state.deal()
    while state.to_act >= 0:
        legal = state.legal_actions()
        state.apply(legal[int(rng.random() * len(legal))])


# ------------------------------------------------------------------------------ rules


def test_penalty_table_and_options() -> None:
    assert sum(PENALTY) == -36
    assert [PENALTY[parse_card(c)] for c in ("QS", "AH", "KH", "QH", "JH", "TH", "2H")] == [
        -13,
        -5,
        -4,
        -3,
        -2,
        -1,
        -1,
    ]
    assert PENALTY[parse_card("KS")] == 0 and PENALTY[parse_card("AD")] == 0
    game = load_game("filippa")
    assert game.options.target == 100 and game.options.passing == "left"
    assert game.num_scores == 4 and game.hand_size == 13
    with pytest.raises(OptionError, match="bad passing"):
        load_game("filippa(passing=up)")


def test_pass_to_the_left_every_hand_and_leader_left_of_dealer() -> None:
    state = load_game("filippa(target=10000)").new_state(9)
    rng = random.Random(9)
    for _ in range(5):
        state.deal()
        assert isinstance(state, FilippaState)
        assert state.phase == PASSING and state.pass_offset == 1
        assert state.to_act == (state.dealer + 1) % 4
        before = list(state.hands)
        for _ in range(4):
            legal = state.legal_actions()
            assert len(legal) == 286
            state.apply(legal[int(rng.random() * len(legal))])
        for seat in range(4):
            gave = state.passed[seat]
            assert gave & before[seat] == gave and gave.bit_count() == 3
            assert state.received[(seat + 1) % 4] == gave
            assert state.hands[(seat + 1) % 4] & gave == gave
        # The seat left of the dealer leads, any card it holds.
        leader = (state.dealer + 1) % 4
        assert state.phase == PLAY and state.to_act == leader
        assert len(state.legal_actions()) == 13
        while state.to_act >= 0:
            legal = state.legal_actions()
            state.apply(legal[int(rng.random() * len(legal))])


def test_follow_suit_no_breaking_no_first_trick_rule() -> None:
    state = dealt(SPREAD_DEAL)
    assert state.to_act == 0 and parse_card("AH") in state.legal_actions()
    run(state, "play AH")
    with pytest.raises(IllegalAction, match="must follow suit H"):
        run(state, "play AC")
    run(state, "play KH, play QH, play JH")
    assert state.to_act == 0 and state.won[0].bit_count() == 4


def test_clean_seats_share_the_pool() -> None:
    state = dealt(SWEEP_DEAL)
    play_out(state)
    result = state.results[-1]
    assert result == FilippaResult(
        penalties=(-36, 0, 0, 0),
        pool=36,
        shares=(0, 12, 12, 12),
        carried=0,
        scores=(0, 12, 12, 12),
        negative=(-36, 0, 0, 0),
        queen_of_spades=0,
    )
    assert result.to_dict() == {
        "penalties": [-36, 0, 0, 0],
        "pool": 36,
        "shares": [0, 12, 12, 12],
        "carried": 0,
        "scores": [0, 12, 12, 12],
        "negative": [-36, 0, 0, 0],
    }


def test_pool_carries_over_when_everyone_has_penalties() -> None:
    state = dealt(SPREAD_DEAL)
    run(state, SPREAD_PLAY)
    assert [state.won[s].bit_count() for s in range(4)] == [4, 4, 4, 4]
    play_out(state)
    first = last_result(state)
    assert first.pool == 36 and first.shares == (0, 0, 0, 0) and first.carried == 36
    assert first.scores == (0, 0, 0, 0) and sum(first.penalties) == -36
    assert all(p < 0 for p in first.penalties)
    assert state.view(2).info()["pool"] == 72
    # The next round shares 72: seat 0 takes everything, the three others get 24 each.
    state.deal([mask_of(parse_cards(text)) for text in SWEEP_DEAL], dealer=3)
    play_out(state)
    second = last_result(state)
    assert second.pool == 72 and second.shares == (0, 24, 24, 24)
    assert second.carried == 0 and state.scores == [0, 24, 24, 24]
    assert second.negative == (first.penalties[0] - 36, *first.penalties[1:])


def test_share_pool_and_winner_functions() -> None:
    assert share_pool([-36, 0, 0, 0], 36) == ([0, 12, 12, 12], 0)
    assert share_pool([-30, -6, 0, 0], 108) == ([0, 0, 54, 54], 0)
    assert share_pool([-30, -3, -2, 0], 72) == ([0, 0, 0, 72], 0)
    assert share_pool([-30, -3, -2, -1], 72) == ([0, 0, 0, 0], 72)
    assert share_pool([-1, 0, 0, 0], 37) == ([0, 12, 12, 12], 1)  # never happens: 36k pools
    assert card_penalties([mask_of(parse_cards("QS AH 2H AS")), 0, 0, 0]) == [-19, 0, 0, 0]
    assert filippa_winner([99, 50, 0, 0], [0, 0, 0, 0], 100) is None
    assert filippa_winner([100, 50, 0, 0], [-40, 0, 0, 0], 100) == 0  # reaching is enough
    assert filippa_winner([112, 112, 0, 0], [-40, -12, 0, 0], 100) == 1
    assert filippa_winner([112, 112, 0, 0], [-12, -12, 0, 0], 100) is None


def test_match_end() -> None:
    state = dealt(SWEEP_DEAL, "filippa(passing=none)")
    state.scores = [0, 88, 70, 0]
    play_out(state)
    assert state.scores == [0, 100, 82, 12] and state.is_over and state.winner == 1
    tie = dealt(SWEEP_DEAL, "filippa(passing=none)")
    tie.scores = [0, 88, 88, 0]
    tie.negative = [0, -5, -5, 0]
    play_out(tie)
    assert tie.scores == [0, 100, 100, 12] and tie.winner is None and tie.needs_deal
    broken = dealt(SWEEP_DEAL, "filippa(passing=none)")
    broken.scores = [0, 88, 88, 0]
    broken.negative = [0, -5, -4, 0]
    play_out(broken)
    assert broken.winner == 2 and broken.is_over


def test_scoring_invariant_over_random_hands() -> None:
    rng = random.Random(77)
    state = load_game("filippa(target=10000)").new_state(77)
    assert isinstance(state, FilippaState)
    carries = shares = 0
    for _ in range(200):
        before, carry_in = list(state.scores), state.carry
        random_hand(state, rng)
        result = last_result(state)
        assert sum(result.penalties) == -36
        assert list(result.penalties) == card_penalties(state.won)
        assert result.pool == 36 + carry_in and result.pool % 36 == 0
        clean = [s for s in range(4) if result.penalties[s] == 0]
        assert len(clean) <= 3
        if clean:
            shares += 1
            assert result.carried == 0 and sum(result.shares) == result.pool
            assert {result.shares[s] for s in clean} == {result.pool // len(clean)}
        else:
            carries += 1
            assert result.carried == result.pool and result.shares == (0, 0, 0, 0)
        change = tuple(a - b for a, b in zip(state.scores, before, strict=True))
        assert change == result.shares and list(result.scores) == state.scores
        queen = result.queen_of_spades
        assert queen is not None and state.won[queen] >> parse_card("QS") & 1
    assert carries and shares  # both cases happen in random play
    assert sum(state.negative) == -36 * 200


# ------------------------------------------------------------------------------ views


_CARD = re.compile(r"\b[2-9TJQKA][CDHS]\b")


def test_views_hide_hands_and_passes() -> None:
    state = load_game("filippa(target=60)").new_state(4)
    rng = random.Random(4)
    for _ in range(2):
        state.deal()
        assert isinstance(state, FilippaState)
        while state.to_act >= 0:
            for seat in range(4):
                view = state.view(seat)
                shown = mask_of(parse_card(c) for c in _CARD.findall(json.dumps(view.to_dict())))
                others = 0
                for other in range(4):
                    if other != seat:
                        others |= state.hands[other]
                assert shown & others & ~state.passed[seat] == 0
                for actor, action in view.actions:
                    if action >= PASS_CARDS and actor != seat:
                        assert state.phase == PLAY and actor == (seat - 1) % 4
            legal = state.legal_actions()
            state.apply(legal[int(rng.random() * len(legal))])
        for seat in range(4):
            info = state.view(seat).info()
            assert info["received"] == format_cards(state.passed[(seat - 1) % 4]).split()
            passes = [a for s, a in state.view(seat).actions if a >= PASS_CARDS]
            assert len(passes) == 2


def test_illegal_messages() -> None:
    state = dealt(SPREAD_DEAL, "filippa")
    assert state.to_act == 0
    with pytest.raises(IllegalAction, match="must pass three cards left first"):
        run(state, "play AH")
    with pytest.raises(IllegalAction, match="must pass exactly three cards, not 4"):
        run(state, "pass AH 2C 3C 4C")
    with pytest.raises(IllegalAction, match="does not hold QS"):
        run(state, "pass AH 2C QS")
    run(state, "pass AH 2C 3C, pass KH AC QS, pass QH TH AD, pass JH 9H AS")
    with pytest.raises(IllegalAction, match="must play a card now"):
        run(state, "pass 4C 5C 6C")
    with pytest.raises(IllegalAction, match="does not hold AH"):
        run(state, "play AH")
    run(state, "play JH")  # received from seat 3
    with pytest.raises(IllegalAction, match="seat 1 must follow suit H"):
        run(state, "play 2D")


# ------------------------------------------------------------------------------ records


def test_record_round_trip(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = load_game("filippa(target=60)")
    bots = [make_bot(n) for n in ("random", "heuristic", "random", "heuristic")]
    state = play_match(game, bots, seed=33)
    assert state.is_over
    record = json.loads(json.dumps(to_record(state)))
    again = replay(record)
    assert isinstance(again, FilippaState) and isinstance(state, FilippaState)
    assert result_of(again) == result_of(state)
    assert again.scores == state.scores and again.negative == state.negative

    file = tmp_path / "filippa.json"
    save_record(record, file)
    assert run_replay(str(file), True) == 0
    assert json.loads(capsys.readouterr().out)["winner"] == state.winner
    record["hands"][0]["actions"][1] = "pass 2C 3C"
    save_record(record, file)
    assert run_replay(str(file), True) == 2
    assert "hand 0 action 1: seat" in capsys.readouterr().err


# ------------------------------------------------------------------------------ the bot


def test_heuristic_beats_random() -> None:
    game = load_game("filippa(target=50)")
    mine, theirs, wins = 0.0, 0.0, 0
    matches = 40
    for m in range(matches):
        seat = m % 4
        bots = [make_bot("heuristic" if s == seat else "random") for s in range(4)]
        state = play_match(game, bots, seed=900 + m, max_hands=100)
        mine += state.scores[seat]
        theirs += sum(state.scores[s] for s in range(4) if s != seat) / 3
        wins += state.winner == seat
    assert mine > 2 * theirs, (mine / matches, theirs / matches)
    assert wins > matches / 2
