"""Tests of Oh Hell (games/rules/oh-hell.md): hand sizes, the trump card, bids, hook, scoring.

Rule tests deal hands from card text (the stock given top card first); invariants and records
come from seeded random play over short sequences.
"""

from __future__ import annotations

import itertools
import json
import random
import re

import pytest

from tricktable.bots import load_class, make_bot
from tricktable.cards import mask_of, parse_card, parse_cards
from tricktable.engine.actions import BID
from tricktable.engine.trick import AUCTION, OVER, PLAY, TrickState
from tricktable.errors import IllegalAction, OptionError, RecordError, TricktableError
from tricktable.games import load_game, register
from tricktable.games.oh_hell import (
    GAME,
    SHARED,
    OhHellState,
    hand_points,
    hand_sizes,
    match_winners,
)
from tricktable.games.oh_hell_results import OhHellResult
from tricktable.match import play_match
from tricktable.records import replay, result_of, to_record

register(GAME)

#: three cards each; seat 0 holds the top spades, the up-card QH makes hearts trump
THREE = ["AS KS QS", "2C 3C 4C", "2D 3D 4D", "5C 6C 7C"]


def new_state(spec: str = "oh-hell", seed: int = 0) -> OhHellState:
    """A fresh Oh Hell match."""
    state = load_game(spec).new_state(seed)
    assert isinstance(state, OhHellState)
    return state


def deal_text(state: TrickState, hands: list[str], dealer: int, up: str | None = None) -> None:
    """Deal hands given as card text; the stock is the rest of the deck, ``up`` on top."""
    masks = [mask_of(parse_cards(h)) for h in hands]
    used = 0
    for m in masks:
        used |= m
    rest = [c for c in range(52) if not used >> c & 1]
    if up is not None:
        top = parse_card(up)
        rest.remove(top)
        rest.insert(0, top)
    state.deal(masks, dealer=dealer, stock=rest)


def results(state: TrickState) -> list[OhHellResult]:
    """The results of the finished hands, checked to be Oh Hell's."""
    out = [r for r in state.results if isinstance(r, OhHellResult)]
    assert len(out) == len(state.results)
    return out


def act(state: TrickState, text: str) -> None:
    """Apply action texts separated by commas."""
    for item in text.split(","):
        state.apply(state.game.parse_action(item))


def legal_bids(state: TrickState) -> list[int]:
    """The bids the seat to act may make."""
    return [a - BID for a in state.legal_actions()]


def random_match(spec: str, seed: int) -> OhHellState:
    """A whole match of random legal actions."""
    state = new_state(spec, seed)
    rng = random.Random(seed)
    while not state.is_over:
        state.deal()
        while state.to_act >= 0:
            legal = state.legal_actions()
            state.apply(legal[int(rng.random() * len(legal))])
    return state


# ------------------------------------------------------------------------------ hand sizes


def test_hand_size_sequences() -> None:
    assert hand_sizes("down-up", 13) == (*range(13, 0, -1), *range(2, 14))
    assert len(hand_sizes("down-up", 13)) == 25
    assert hand_sizes("up-down", 3) == (1, 2, 3, 2, 1)
    assert hand_sizes("down", 4) == (4, 3, 2, 1)
    assert hand_sizes("up", 2) == (1, 2)
    assert hand_sizes("down-up", 1) == (1,)
    with pytest.raises(OptionError):
        hand_sizes("sideways", 3)


def test_options_defaults_and_bad_values() -> None:
    game = load_game("oh-hell")
    opts = game.options
    assert (opts.sequence, opts.max_cards, opts.hook, opts.scoring) == (
        "down-up",
        13,
        True,
        "standard",
    )
    assert game.num_scores == 4 and game.records_stock
    assert load_game("oh-hell(max_cards=5,hook=false)").spec() == "oh-hell(max_cards=5,hook=false)"
    for bad in ("oh-hell(max_cards=14)", "oh-hell(sequence=around)", "oh-hell(scoring=x)"):
        with pytest.raises(OptionError):
            load_game(bad)


def test_deals_follow_the_sequence_and_the_match_ends_after_the_last() -> None:
    state = random_match("oh-hell(max_cards=4,sequence=up-down)", 3)
    assert [r.hand_size for r in results(state)] == [1, 2, 3, 4, 3, 2, 1]
    assert [log.deal[0].bit_count() for log in state.history] == [1, 2, 3, 4, 3, 2, 1]
    assert state.is_over and state.phase == OVER and state.winner is not None
    with pytest.raises(TricktableError, match="cannot deal now"):
        state.deal()
    # the deal passes left each hand
    dealers = [log.dealer for log in state.history]
    assert all((b - a) % 4 == 1 for a, b in itertools.pairwise(dealers))


def test_default_match_is_25_hands_from_13_down_to_1_and_back() -> None:
    state = random_match("oh-hell", 9)
    assert [r.hand_size for r in results(state)] == list(hand_sizes("down-up", 13))


# ---------------------------------------------------------------------------------- trump


def test_up_card_names_trump_and_is_public() -> None:
    state = new_state("oh-hell(max_cards=3,sequence=down)")
    deal_text(state, THREE, dealer=0, up="QH")
    assert state.trump == 2 and state.up_card == parse_card("QH")
    assert len(state.stock) == 52 - 12 and state.stock[0] == parse_card("QH")
    for seat in range(4):
        view = state.view(seat)
        assert view.trump == 2 and view.info()["up_card"] == "QH"
        data = view.to_dict()
        assert data["trump"] == "H" and data["up_card"] == "QH" and data["hand_size"] == 3


def test_thirteen_cards_each_leaves_no_stock_and_no_trump() -> None:
    state = new_state()
    state.deal()
    assert state.hand_size == 13 and state.stock == []
    assert state.trump == -1 and state.up_card == -1
    assert state.view(0).info()["up_card"] is None
    while state.to_act >= 0:
        state.apply(state.legal_actions()[0])
    record = to_record(state)
    assert record["hands"][0]["deal"][4] == []
    first = results(state)[0]
    assert first.trump is None and first.up_card is None
    assert first.to_dict()["trump"] is None and first.to_dict()["up_card"] is None


def test_trump_wins_and_may_be_played_when_void() -> None:
    state = new_state("oh-hell(max_cards=3,sequence=down)")
    hands = ["AS KS QS", "2H 3C 4C", "2D 3D 4D", "5C 6C 7C"]
    deal_text(state, hands, dealer=3, up="QH")  # hearts trump; seat 0 bids first and leads
    act(state, "bid 3,bid 1,bid 0,bid 0")
    assert state.phase == PLAY and state.to_act == 0
    act(state, "play AS")
    assert set(state.legal_actions()) == set(parse_cards("2H 3C 4C")), "void: any card"
    act(state, "play 2H,play 2D,play 5C")
    assert state.tricks[-1][2] == 1, "the lone small trump beats the ace of the suit led"
    assert state.to_act == 1


# ------------------------------------------------------------------------------- bidding


def test_bids_go_round_from_left_of_dealer_each_zero_to_hand_size() -> None:
    state = new_state("oh-hell(max_cards=3,sequence=down)")
    deal_text(state, THREE, dealer=2, up="QH")
    assert state.phase == AUCTION and state.to_act == 3
    assert legal_bids(state) == [0, 1, 2, 3]
    act(state, "bid 2")
    assert state.to_act == 0 and state.bids == [-1, -1, -1, 2]
    act(state, "bid 0,bid 3")
    assert state.to_act == 2, "the dealer bids last"
    assert state.view(1).info()["bids"] == [0, 3, None, 2]
    act(state, "bid 0")
    assert state.phase == PLAY and state.to_act == 3, "left of the dealer leads"


def test_hook_bars_the_dealer_from_making_the_bids_total_the_tricks() -> None:
    state = new_state("oh-hell(max_cards=3,sequence=down)")
    deal_text(state, THREE, dealer=0, up="QH")
    act(state, "bid 1,bid 0,bid 1")
    assert state.to_act == 0
    assert legal_bids(state) == [0, 2, 3]
    with pytest.raises(IllegalAction, match=r"dealer may not bid 1.*3 tricks \(hook rule\)"):
        act(state, "bid 1")
    act(state, "bid 2")
    assert sum(state.bids) != 3


def test_hook_bars_nothing_when_the_others_already_overbid() -> None:
    state = new_state("oh-hell(max_cards=3,sequence=down)")
    deal_text(state, THREE, dealer=0, up="QH")
    act(state, "bid 3,bid 1,bid 0")
    assert legal_bids(state) == [0, 1, 2, 3]


def test_without_hook_the_dealer_bids_freely() -> None:
    state = new_state("oh-hell(max_cards=3,sequence=down,hook=false)")
    deal_text(state, THREE, dealer=0, up="QH")
    act(state, "bid 1,bid 0,bid 1,bid 1")
    assert sum(state.bids) == 3 and state.phase == PLAY


# ------------------------------------------------------------------------------- scoring


@pytest.mark.parametrize(
    ("scoring", "bid", "tricks", "points"),
    [
        ("standard", 0, 0, 10),
        ("standard", 3, 3, 13),
        ("standard", 3, 2, 0),
        ("standard", 0, 1, 0),
        ("basic", 2, 2, 12),
        ("basic", 2, 4, 4),
        ("basic", 0, 0, 10),
        ("minus", 2, 2, 12),
        ("minus", 2, 5, -3),
        ("minus", 4, 1, -3),
        ("minus", 0, 2, -2),
    ],
)
def test_hand_points(scoring: str, bid: int, tricks: int, points: int) -> None:
    assert hand_points(bid, tricks, scoring) == points


def test_a_hand_is_scored_from_bids_and_tricks() -> None:
    state = new_state("oh-hell(max_cards=3,sequence=down)")
    deal_text(state, THREE, dealer=3, up="QH")  # seat 0 takes all three spades tricks
    act(state, "bid 3,bid 0,bid 1,bid 0")
    act(state, "play AS,play 2C,play 2D,play 5C")
    act(state, "play KS,play 3C,play 3D,play 6C")
    act(state, "play QS,play 4C,play 4D,play 7C")
    result = results(state)[-1]
    assert result.bids == (3, 0, 1, 0) and result.tricks == (3, 0, 0, 0)
    assert result.points == (13, 10, 0, 10) and result.scores == (13, 10, 0, 10)
    assert result.trump == 2 and result.up_card == parse_card("QH") and result.hand_size == 3
    assert result.winners is None and result.shared_win() == ()
    assert result.to_dict() == {
        "hand_size": 3,
        "up_card": "QH",
        "trump": "H",
        "bids": [3, 0, 1, 0],
        "tricks": [3, 0, 0, 0],
        "points": [13, 10, 0, 10],
        "scores": [13, 10, 0, 10],
    }
    assert state.needs_deal and state.scores == [13, 10, 0, 10]


def test_match_winners_and_shared_wins() -> None:
    assert match_winners([5, 9, 2, 7]) == [1]
    assert match_winners([9, 9, 2, 7]) == [0, 1]
    seen_shared = False
    for seed in range(40):
        state = random_match("oh-hell(max_cards=2,sequence=down)", seed)
        top = max(state.scores)
        tops = [s for s, v in enumerate(state.scores) if v == top]
        last = results(state)[-1]
        assert state.winners == tops and last.winners == tuple(tops)
        assert last.to_dict()["winners"] == tops
        assert last.shared_win() == (tuple(tops) if len(tops) > 1 else ())
        assert state.winner == (tops[0] if len(tops) == 1 else SHARED)
        seen_shared = seen_shared or state.winner == SHARED
    assert seen_shared, "some of these short matches end in a shared win"


# --------------------------------------------------------------------- invariants and views


def test_invariants_over_random_matches() -> None:
    for seed in range(12):
        state = random_match("oh-hell(max_cards=6)", seed)
        totals = [0] * 4
        for h, (log, result) in enumerate(zip(state.history, results(state), strict=True)):
            size = result.hand_size
            assert sum(result.tricks) == size
            assert all(0 <= b <= size for b in result.bids)
            assert sum(result.bids) != size, "the hook always leaves someone failing"
            assert all(m.bit_count() == size for m in log.deal)
            assert len(log.stock) == 52 - 4 * size
            assert len(log.actions) == 4 + 4 * size
            totals = [t + p for t, p in zip(totals, result.points, strict=True)]
            assert totals == list(result.scores), h
        assert state.scores == totals


def test_views_never_show_other_hands_or_the_stock() -> None:
    state = new_state("oh-hell(max_cards=5,sequence=down)", 4)
    rng = random.Random(4)
    card_re = re.compile(r"\b[2-9TJQKA][CDHS]\b")
    state.deal()
    up = state.stock[0]
    assert len(state.stock) == 32
    while state.to_act >= 0:
        played = mask_of(c for _ld, cs, _w in state.tricks for c in cs) | mask_of(state.trick)
        for seat in range(4):
            view = state.view(seat)
            assert view.hand == state.hands[seat]
            text = json.dumps(view.to_dict())
            shown = mask_of(parse_card(m) for m in card_re.findall(text))
            allowed = state.hands[seat] | played | 1 << up
            assert not shown & ~allowed, f"seat {seat} sees a hidden card"
            assert not hasattr(view, "stock")
        legal = state.legal_actions()
        state.apply(legal[int(rng.random() * len(legal))])


def test_records_round_trip_with_the_stock() -> None:
    state = random_match("oh-hell(max_cards=4,scoring=minus)", 17)
    record = json.loads(json.dumps(to_record(state, ["a", "b", "c", "d"])))
    assert record["game"] == "oh-hell" and record["options"]["scoring"] == "minus"
    first = record["hands"][0]
    assert len(first["deal"]) == 5 and len(first["deal"][4]) == 52 - 4 * 4
    assert first["actions"][:4] == [a for a in first["actions"][:4] if a.startswith("bid ")]
    again = replay(record)
    assert result_of(again) == result_of(state) and again.winner == state.winner
    # a stock of the wrong size is refused with its place
    record["hands"][1]["deal"][4] = record["hands"][1]["deal"][4][1:]
    with pytest.raises(RecordError, match="hand 1: the stock has"):
        replay(record)


def test_clone_is_independent() -> None:
    state = new_state("oh-hell(max_cards=3,sequence=down)")
    deal_text(state, THREE, dealer=3, up="QH")
    act(state, "bid 1")
    other = state.clone()
    act(other, "bid 2")
    assert state.bids == [1, -1, -1, -1] and other.bids == [1, 2, -1, -1]


# -------------------------------------------------------------------------- illegal input


def test_illegal_actions_say_why() -> None:
    state = new_state("oh-hell(max_cards=3,sequence=down)")
    deal_text(state, THREE, dealer=3, up="QH")
    with pytest.raises(IllegalAction, match="must bid"):
        act(state, "play AS")
    with pytest.raises(IllegalAction, match="must bid"):
        act(state, "pass")
    with pytest.raises(IllegalAction, match="from 0 to 3"):
        act(state, "bid 4")
    act(state, "bid 3,bid 0,bid 1,bid 0")
    with pytest.raises(IllegalAction, match="must play a card, the bidding is over"):
        act(state, "bid 1")
    with pytest.raises(IllegalAction, match="does not hold 2C"):
        act(state, "play 2C")
    act(state, "play AS")
    hands = ["AS KS QS", "2S 3C 4C", "2D 3D 4D", "5C 6C 7C"]
    other = new_state("oh-hell(max_cards=3,sequence=down)")
    deal_text(other, hands, dealer=3, up="QH")
    act(other, "bid 3,bid 0,bid 1,bid 0,play AS")
    with pytest.raises(IllegalAction, match="must follow suit S"):
        act(other, "play 3C")


def test_replay_reports_an_illegal_bid_with_its_place() -> None:
    state = random_match("oh-hell(max_cards=3,sequence=down)", 2)
    record = to_record(state)
    hand = record["hands"][0]
    bids = [int(a.split()[1]) for a in hand["actions"][:3]]
    hand["actions"][3] = f"bid {3 - sum(bids)}" if 0 <= 3 - sum(bids) <= 3 else "bid 9"
    with pytest.raises(RecordError, match=r"hand 0 action 3: seat \d"):
        replay(record)


# ---------------------------------------------------------------------------------- bots


def test_heuristic_beats_random_clearly() -> None:
    game = load_game("oh-hell(max_cards=5)")
    target = game.heuristic_bot
    wins, mine, theirs = 0, 0, 0
    matches = 40
    for seed in range(matches):
        seat = seed % 4
        bots = [load_class(target)() if s == seat else make_bot("random") for s in range(4)]
        state = play_match(game, bots, seed)
        wins += state.winner == seat or (state.winner == SHARED and seat in state.winners)
        mine += state.scores[seat]
        theirs += sum(state.scores) - state.scores[seat]
    assert wins >= 0.55 * matches, f"heuristic won {wins} of {matches} (random: about 25%)"
    assert mine > 1.5 * theirs / 3


def test_heuristic_player_plays_whole_default_match() -> None:
    game = load_game("oh-hell")
    state = play_match(game, [make_bot("heuristic") for _ in range(4)], 5)
    assert state.is_over and len(state.results) == 25
    assert state.phase == OVER and state.to_act == -1
