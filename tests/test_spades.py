"""Tests of Spades: bidding (blind nil, nil), play (broken spades, first lead), scoring, views.

Hands are built from card text and driven with action texts, so a failing case reads like a
hand at the table. Random playouts check the invariants (13 tricks, scores, hidden cards) and
the record round trip; the heuristic bot is checked against random play.
"""

from __future__ import annotations

import io
import json
import random
from collections.abc import Iterable

import pytest

from tricktable.bots import make_bot
from tricktable.bots.spades_heuristic import SpadesHeuristic, estimate_tricks, nil_safe
from tricktable.cards import card_name, cards_in, mask_of, parse_cards
from tricktable.engine.actions import BID
from tricktable.engine.trick import AUCTION, OVER, PLAY, TrickState
from tricktable.errors import IllegalAction, NotationError, OptionError, RecordError
from tricktable.games import load_game, register
from tricktable.games.spades import (
    BLIND,
    BLIND_NIL,
    GAME,
    LOOK,
    SpadesOptions,
    SpadesState,
    TeamScore,
    match_winner,
    score_team,
)
from tricktable.games.spades_results import Nil, SpadesResult
from tricktable.match import play_match
from tricktable.records import load_record, replay, to_record

register(GAME)

#: each seat holds one whole suit: seat 3 (spades) ruffs the first trick and takes all 13
SUITS_DEAL = [
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
]
#: seat 0 holds AS KS and clubs; seat 3 the other spades, AH and KC (for broken spades)
MIXED_DEAL = [
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC AS KS",
    "AC 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
    "AD 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
    "AH KC 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS",
]


def last_result(state: TrickState) -> SpadesResult:
    """The last hand's result, checked to be Spades'."""
    result = state.results[-1]
    assert isinstance(result, SpadesResult)
    return result


def new_state(
    deal: list[str], dealer: int, spec: str = "spades", scores: Iterable[int] = (0, 0)
) -> SpadesState:
    """A dealt Spades state from four 13-card hands as text, with match scores set first."""
    state = load_game(spec).new_state(0)
    assert isinstance(state, SpadesState)
    state.scores = list(scores)
    masks = [mask_of(parse_cards(text)) for text in deal]
    assert all(m.bit_count() == 13 for m in masks) and mask_of(range(52)) == sum(masks)
    state.deal(masks, dealer=dealer)
    return state


def run(state: SpadesState, actions: str) -> SpadesState:
    """Apply comma-separated action texts."""
    for text in actions.split(","):
        if text.strip():
            state.apply(state.game.parse_action(text))
    return state


def names(state: SpadesState) -> list[str]:
    """The legal actions of the seat to act, as text."""
    return [state.game.action_name(a) for a in state.legal_actions()]


def play_lowest(state: SpadesState) -> SpadesState:
    """Finish the hand, always taking the lowest legal action."""
    while state.to_act >= 0:
        state.apply(state.legal_actions()[0])
    return state


def random_hand(state: SpadesState, rng: random.Random) -> None:
    """Deal and play one hand with uniformly random legal actions."""
    state.deal()
    while state.to_act >= 0:
        legal = state.legal_actions()
        state.apply(legal[int(rng.random() * len(legal))])


# ---------------------------------------------------------------------------- bidding


def test_bidding_goes_round_from_the_dealers_left_then_left_of_dealer_leads() -> None:
    for dealer in range(4):
        state = new_state(SUITS_DEAL, dealer)
        order = []
        for bid in ("bid 3", "bid 4", "bid nil", "bid 2"):
            order.append(state.to_act)
            assert state.phase == AUCTION
            run(state, bid)
        assert order == [(dealer + i) % 4 for i in range(1, 5)]
        assert state.phase == PLAY and state.to_act == (dealer + 1) % 4
        bids = state.view(0).info()["bids"]
        assert [bids[(dealer + i) % 4] for i in range(1, 5)] == [3, 4, "nil", 2]
    state = new_state(SUITS_DEAL, 3)
    run(state, "bid 3, bid 0, bid 13, bid nil")
    assert state.view(1).info()["bids"] == [3, "nil", 13, "nil"]
    assert state.game.action_name(state.actions[1]) == "bid nil"


def test_bids_run_from_nil_to_thirteen_and_without_nil_from_one() -> None:
    state = new_state(SUITS_DEAL, 3)
    assert names(state) == ["bid nil"] + [f"bid {n}" for n in range(1, 14)]
    state = new_state(SUITS_DEAL, 3, "spades(nil=false)")
    assert names(state) == [f"bid {n}" for n in range(1, 14)]
    with pytest.raises(IllegalAction, match="may not bid nil"):
        run(state, "bid nil")
    with pytest.raises(IllegalAction, match="must bid from 1 to 13"):
        run(state, "bid 14")


def test_blind_phase_hides_the_cards_until_the_seat_looks() -> None:
    state = new_state(SUITS_DEAL, 3, "spades(blind_nil_behind=0)")
    assert state.phase == BLIND and state.to_act == 0
    assert state.view(0).to_dict()["phase"] == "blind"
    for seat in range(4):
        view = state.view(seat)
        assert view.hand == 0 and view.dealt == 0 and view.to_dict()["hand"] == []
    assert names(state) == ["look", "bid blind-nil"]
    run(state, "look")
    assert state.phase == AUCTION and state.to_act == 0
    assert cards_in(state.view(0).hand) == parse_cards(SUITS_DEAL[0])
    assert state.view(1).hand == 0  # seat 1 has not had its turn yet
    run(state, "bid 1, bid blind-nil")
    assert state.view(1).hand == 0 and state.view(1).to_dict()["hand"] == []
    run(state, "look, bid 2, look, bid 5")
    # The blind nil bidder picks its cards up once the bidding is over.
    assert state.phase == PLAY
    assert cards_in(state.view(1).hand) == parse_cards(SUITS_DEAL[1])
    assert state.view(2).info()["bids"] == [1, "blind-nil", 2, 5]


def test_blind_nil_is_offered_only_to_a_side_behind_by_the_option() -> None:
    # Level scores: nobody is offered blind nil, every seat sees its cards from the deal.
    state = new_state(SUITS_DEAL, 3)
    assert state.phase == AUCTION and all(state.view(s).hand for s in range(4))
    with pytest.raises(IllegalAction, match="behind by 100 or more"):
        state.apply(BLIND_NIL)
    # Side 1 is behind by 100: seats 1 and 3 get the blind phase, seats 0 and 2 do not.
    state = new_state(SUITS_DEAL, 3, scores=(150, 50))
    assert state.view(0).info()["blind_nil_offered"] == [False, True, False, True]
    assert state.phase == AUCTION and state.view(0).hand and not state.view(1).hand
    run(state, "bid 2")
    assert state.phase == BLIND and state.to_act == 1
    # Behind by 99 is not enough; the option changes the margin, 0 means always.
    assert new_state(SUITS_DEAL, 3, scores=(149, 50)).offered == 0
    assert new_state(SUITS_DEAL, 3, "spades(blind_nil_behind=50)", (149, 50)).offered == 0b1010
    assert new_state(SUITS_DEAL, 3, "spades(blind_nil_behind=0)").offered == 0b1111
    state = new_state(SUITS_DEAL, 3, "spades(blind_nil=false)", (0, 1000))
    assert state.offered == 0 and state.phase == AUCTION
    with pytest.raises(IllegalAction, match="blind_nil=false"):
        state.apply(BLIND_NIL)


def test_a_seat_that_looked_can_no_longer_bid_blind_nil() -> None:
    state = new_state(SUITS_DEAL, 3, "spades(blind_nil_behind=0)")
    with pytest.raises(IllegalAction, match="must bid blind nil or look"):
        run(state, "bid 3")
    with pytest.raises(IllegalAction, match="cannot play a card during the bidding"):
        run(state, "play 2C")
    run(state, "look")
    with pytest.raises(IllegalAction, match="no longer possible"):
        state.apply(BLIND_NIL)
    with pytest.raises(IllegalAction, match="it must bid"):
        state.apply(LOOK)


# ------------------------------------------------------------------------------- play


def test_spades_may_not_be_led_until_broken() -> None:
    state = run(new_state(MIXED_DEAL, 3), "bid 2, bid 1, bid 1, bid 5")
    assert state.to_act == 0
    assert {card_name(a) for a in state.legal_actions()} == set(MIXED_DEAL[0].split()[:11])
    with pytest.raises(IllegalAction, match="may not lead a spade before spades are broken"):
        run(state, "play AS")
    # Seat 1 wins with AC, leads diamonds; seat 3 ruffs and seat 0 discards AS: now broken.
    run(state, "play 2C, play AC, play 2H, play KC")
    assert state.tricks[-1][2] == 1 and not state.broken
    run(state, "play 2D, play AD, play 2S, play AS")
    assert state.tricks[-1][2] == 0 and state.broken
    assert state.view(2).info()["spades_broken"] is True
    run(state, "play KS")  # seat 0 may lead its spade now


def test_a_hand_of_only_spades_may_lead_them_and_that_breaks_them() -> None:
    state = run(new_state(SUITS_DEAL, 2), "bid 1, bid 1, bid 1, bid 1")
    assert state.to_act == 3 and len(state.legal_actions()) == 13
    run(state, "play 2S, play 2C, play 2D, play 2H")
    assert state.broken and state.to_act == 3


def test_break_spades_off_allows_spade_leads_at_once() -> None:
    state = run(new_state(MIXED_DEAL, 3, "spades(break_spades=false)"), "bid 2,bid 1,bid 1,bid 5")
    assert "play AS" in names(state)


def test_first_lead_left_of_dealer_or_two_of_clubs() -> None:
    state = run(new_state(MIXED_DEAL, 0), "bid 2, bid 1, bid 1, bid 5")
    assert state.to_act == 1
    state = run(new_state(MIXED_DEAL, 0, "spades(first_lead=2c)"), "bid 2, bid 1, bid 1, bid 5")
    assert state.to_act == 0 and names(state) == ["play 2C"]
    with pytest.raises(IllegalAction, match="must lead 2C to the first trick"):
        run(state, "play 3C")
    run(state, "play 2C, play AC, play 2H, play KC")
    assert state.to_act == 1 and "play 2D" in names(state)
    with pytest.raises(OptionError, match="first_lead"):
        load_game("spades(first_lead=dealer)")


def test_follow_suit_and_spades_trump() -> None:
    state = run(new_state(MIXED_DEAL, 3), "bid 2, bid 1, bid 1, bid 5, play 2C")
    assert names(state) == ["play AC"]
    with pytest.raises(IllegalAction, match="must follow suit C"):
        run(state, "play 2D")
    run(state, "play AC, play 2H")
    # Seat 3 could ruff instead of following, but must follow with its KC.
    assert names(state) == ["play KC"]


# ---------------------------------------------------------------------------- scoring


@pytest.mark.parametrize(
    ("bids", "blind", "tricks", "bags", "expected"),
    [
        ((4, 3), (False, False), (4, 3), 0, TeamScore(7, True, 70, 0, 0)),  # exactly made
        ((4, 3), (False, False), (5, 4), 3, TeamScore(7, True, 72, 5, 0)),  # two bags
        ((4, 3), (False, False), (2, 4), 0, TeamScore(7, False, -70, 0, 0)),  # set
        ((0, 3), (False, False), (0, 3), 0, TeamScore(3, True, 130, 0, 0)),  # nil made
        ((0, 3), (False, False), (2, 3), 0, TeamScore(3, True, -68, 2, 0)),  # nil failed: bags
        ((0, 3), (False, False), (2, 2), 0, TeamScore(3, False, -128, 2, 0)),  # no help to bid
        ((0, 3), (True, False), (0, 4), 0, TeamScore(3, True, 231, 1, 0)),  # blind nil made
        ((0, 3), (True, False), (1, 3), 0, TeamScore(3, True, -169, 1, 0)),  # blind nil failed
        ((0, 0), (False, True), (0, 0), 0, TeamScore(0, None, 300, 0, 0)),  # both nil
        ((4, 3), (False, False), (6, 4), 8, TeamScore(7, True, -27, 1, -100)),  # 11 bags
        ((1, 1), (False, False), (13, 0), 9, TeamScore(2, True, -169, 0, -200)),  # 20 bags
    ],
)
def test_score_team(
    bids: tuple[int, int],
    blind: tuple[bool, bool],
    tricks: tuple[int, int],
    bags: int,
    expected: TeamScore,
) -> None:
    assert score_team(bids, blind, tricks, bags, SpadesOptions()) == expected


def test_score_values_are_options() -> None:
    opts = SpadesOptions(nil_value=50, blind_nil_value=300, bags_penalty=50)
    assert score_team((0, 2), (False, False), (0, 2), 0, opts).points == 70
    assert score_team((0, 2), (True, False), (1, 2), 0, opts).points == -279
    assert score_team((1, 2), (False, False), (10, 3), 0, opts).points == 30 + 10 - 50


def test_hand_with_nil_made_and_a_contract_set() -> None:
    state = play_lowest(run(new_state(SUITS_DEAL, 3), "bid nil, bid 3, bid 2, bid 5"))
    result = last_result(state)
    assert result.tricks == (0, 0, 0, 13)
    assert result.bids == (0, 3, 2, 5) and result.blind == (False,) * 4
    assert result.contracts == (2, 8) and result.made == (False, True)
    assert result.nils == (Nil(seat=0, blind=False, made=True),)
    assert result.points == (100 - 20, 80 + 5) and result.scores == (80, 85)
    assert result.bags == (0, 5) and state.view(0).info()["bags"] == [0, 5]
    assert state.needs_deal and state.winner is None
    assert result.to_dict() == {
        "bids": ["nil", 3, 2, 5],
        "tricks": [0, 0, 0, 13],
        "contracts": [2, 8],
        "made": [False, True],
        "nils": [{"seat": 0, "blind": False, "made": True}],
        "points": [80, 85],
        "bag_penalties": [0, 0],
        "bags": [0, 5],
        "scores": [80, 85],
    }


def test_failed_nil_with_bag_penalty_ends_the_match_at_lose_at() -> None:
    state = play_lowest(run(new_state(SUITS_DEAL, 3), "bid 1, bid 3, bid 1, bid nil"))
    result = last_result(state)
    # Seat 3's 13 tricks: -100 for the nil, 13 bags (+13, -100 at ten), seat 1 set (-30).
    assert result.points == (-20, -100 + 13 - 100 - 30)
    assert result.bag_penalties == (0, -100) and result.bags == (0, 3)
    assert result.nils == (Nil(seat=3, blind=False, made=False),)
    assert state.is_over and state.phase == OVER and state.winner == 0
    # With lose_at off the match goes on.
    state = new_state(SUITS_DEAL, 3, "spades(lose_at=0)")
    play_lowest(run(state, "bid 1, bid 3, bid 1, bid nil"))
    assert state.needs_deal and state.winner is None


def test_blind_nil_made_and_failed() -> None:
    state = new_state(SUITS_DEAL, 3, scores=(0, 100))
    play_lowest(run(state, "bid blind-nil, bid 2, look, bid 1, bid 4"))
    result = last_result(state)
    assert result.bid_texts() == ["blind-nil", 2, 1, 4]
    assert result.points[0] == 200 - 10
    state = new_state(SUITS_DEAL, 3, scores=(100, 0))
    play_lowest(run(state, "bid 1, look, bid 2, bid 1, bid blind-nil"))
    result = last_result(state)
    assert result.nils == (Nil(seat=3, blind=True, made=False),)
    assert result.to_dict()["nils"] == [{"seat": 3, "blind": True, "made": False}]
    assert result.points[1] == -200 + 13 - 100 - 20


def test_bags_carry_between_hands_and_cost_at_ten() -> None:
    state = new_state(SUITS_DEAL, 3, "spades(blind_nil=false)")
    for expected_bags, expected_points in ((5, 85), (0, 85 - 100), (5, 85)):
        if state.needs_deal:
            state.deal([mask_of(parse_cards(t)) for t in SUITS_DEAL], dealer=3)
        play_lowest(run(state, "bid 1, bid 3, bid 1, bid 5"))
        assert last_result(state).bags[1] == expected_bags
        assert last_result(state).points[1] == expected_points


def test_match_ends_at_target_higher_score_wins_ties_play_on() -> None:
    assert match_winner([499, 0], 500, -200) is None
    assert match_winner([500, 0], 500, -200) == 0
    assert match_winner([510, 520], 500, -200) == 1
    assert match_winner([520, 520], 500, -200) is None
    assert match_winner([100, -200], 500, -200) == 0
    assert match_winner([-250, -210], 500, -200) == 1
    assert match_winner([100, -5000], 500, 0) is None
    state = new_state(SUITS_DEAL, 3, "spades(target=80)")
    play_lowest(run(state, "bid 1, bid 3, bid 1, bid 5"))
    assert state.scores == [-20, 85] and state.winner == 1 and state.is_over
    assert state.legal_actions() == []


# ------------------------------------------------------------------ random invariants


def test_random_hands_keep_the_scoring_invariants() -> None:
    game = load_game("spades(blind_nil_behind=0,target=10000,lose_at=0)")
    opts = game.options
    rng = random.Random(4)
    state = game.new_state(4)
    assert isinstance(state, SpadesState)
    bags = [0, 0]
    scores = [0, 0]
    for _ in range(150):
        random_hand(state, rng)
        result = last_result(state)
        assert sum(result.tricks) == 13 == len(state.tricks)
        assert all(len(cards) == 4 for _, cards, _ in state.tricks)
        assert all(state.hands[s] == 0 for s in range(4))
        bids, blind = result.bids, result.blind
        for t in range(2):
            team = score_team(
                (bids[t], bids[t + 2]),
                (blind[t], blind[t + 2]),
                (result.tricks[t], result.tricks[t + 2]),
                bags[t],
                opts,
            )
            assert result.points[t] == team.points
            assert result.contracts[t] == team.contract and result.made[t] == team.made
            bags[t] = team.bags
            scores[t] += team.points
            assert 0 <= bags[t] < 10
        assert list(result.bags) == bags and list(result.scores) == scores == state.scores


def test_views_never_show_other_seats_cards() -> None:
    game = load_game("spades(blind_nil_behind=0)")
    rng = random.Random(7)
    state = game.new_state(7)
    assert isinstance(state, SpadesState)
    for _ in range(3):
        if state.is_over:
            break
        state.deal()
        while state.to_act >= 0:
            for seat in range(4):
                view = state.view(seat)
                text = json.dumps(view.to_dict())
                if state.hidden >> seat & 1:
                    assert view.to_dict()["hand"] == [] and view.hand == 0
                else:
                    assert view.hand == state.hands[seat]
                for other in range(4):
                    if other != seat:
                        for card in cards_in(state.hands[other]):
                            assert f'"{card_name(card)}"' not in text
                            assert f'play {card_name(card)}"' not in text
            legal = state.legal_actions()
            state.apply(legal[int(rng.random() * len(legal))])


def test_clone_is_independent() -> None:
    state = run(new_state(SUITS_DEAL, 3, scores=(0, 100)), "bid blind-nil, bid 2")
    other = state.clone()
    assert isinstance(other, SpadesState)
    run(other, "look, bid 4, bid 3")
    assert state.bids == [0, 2, -1, -1] and other.bids == [0, 2, 4, 3]
    assert state.hidden == 0b0101 and other.hidden == 0
    assert state.phase == BLIND and other.phase == PLAY


# ----------------------------------------------------------------- records, notation


def test_records_round_trip() -> None:
    game = load_game("spades(blind_nil_behind=0,target=150)")
    bots = [make_bot("random") for _ in range(4)]
    state = play_match(game, bots, 11)
    record = json.loads(json.dumps(to_record(state, ["r"] * 4)))
    texts = {a for hand in record["hands"] for a in hand["actions"]}
    assert {"look", "bid blind-nil"} <= texts
    again = replay(record)
    assert again.results == state.results and again.winner == state.winner
    assert again.scores == state.scores
    assert all(len(d) == 13 for hand in record["hands"] for d in hand["deal"])


def test_records_with_an_illegal_action_fail_with_its_place() -> None:
    state = play_lowest(run(new_state(SUITS_DEAL, 3), "bid nil, bid 3, bid 2, bid 5"))
    record = to_record(state)
    assert replay(load_record(_as_file(record))).results == state.results
    record["hands"][0]["actions"][4] = "play 2D"
    with pytest.raises(RecordError, match=r"hand 0 action 4: seat 0 does not hold 2D"):
        replay(record)
    record["hands"][0]["actions"][4] = "bid 3"
    with pytest.raises(RecordError, match="must play a card, the bidding is over"):
        replay(record)
    record["hands"][0]["actions"][0] = "bid blind-nil"
    with pytest.raises(RecordError, match=r"hand 0 action 0: .*behind by 100"):
        replay(record)


def _as_file(record: dict[str, object]) -> io.StringIO:
    """A record as an open text file, as ``load_record`` reads one."""
    return io.StringIO(json.dumps(record))


def test_action_notation() -> None:
    game = load_game("spades")
    for text, code in (
        ("look", LOOK),
        ("bid blind-nil", BLIND_NIL),
        ("bid blind nil", BLIND_NIL),
        ("Blind Nil", BLIND_NIL),
        ("bid nil", BID),
        ("bid 0", BID),
        ("bid 13", BID + 13),
        ("play QS", parse_cards("QS")[0]),
        ("10s", parse_cards("TS")[0]),
    ):
        assert game.parse_action(text) == code
    assert [game.action_name(a) for a in (LOOK, BLIND_NIL, BID, BID + 4, 49)] == [
        "look",
        "bid blind-nil",
        "bid nil",
        "bid 4",
        "play QS",
    ]
    with pytest.raises(NotationError, match="write look, bid blind-nil, bid nil"):
        game.parse_action("bid lots")


def test_illegal_out_of_turn_and_between_hands() -> None:
    state = play_lowest(run(new_state(SUITS_DEAL, 3), "bid nil, bid 3, bid 2, bid 5"))
    with pytest.raises(IllegalAction, match="next hand is not dealt"):
        run(state, "bid 3")
    state = new_state(SUITS_DEAL, 3)
    with pytest.raises(IllegalAction, match="cannot play a card during the bidding"):
        run(state, "play 2C")
    with pytest.raises(IllegalAction, match="not an action"):
        state.apply(-1)


def test_options_are_read_and_checked() -> None:
    game = load_game("spades(target=200,nil=false,bags_penalty=50)")
    assert game.options.target == 200 and not game.options.nil
    assert game.spec() == "spades(target=200,nil=false,bags_penalty=50)"
    with pytest.raises(OptionError, match="lose_at"):
        load_game("spades(lose_at=5)")


# ---------------------------------------------------------------------- heuristic bot


def test_heuristic_beats_random_clearly() -> None:
    game = load_game("spades(target=200)")
    wins = 0
    for seed in range(50):
        team = seed % 2
        bots = [make_bot("heuristic" if s % 2 == team else "random") for s in range(4)]
        state = play_match(game, bots, seed, max_hands=50)
        wins += state.winner == team
    assert wins >= 46


def test_heuristic_bids_strength_and_nil_with_a_weak_hand() -> None:
    strong = mask_of(parse_cards("AS KS QS 5S 4S AH KH 3H AD 4D 5C 6C 7C"))
    weak = mask_of(parse_cards("2S 3S 2H 4H 6H 8H 3D 5D 7D 9D 2C 4C 6C"))
    assert 7 <= estimate_tricks(strong) <= 9
    assert estimate_tricks(weak) < 1 and nil_safe(weak) and not nil_safe(strong)
    order = "2S 3S 2H 4H 6H 8H 3D 5D 7D 9D 2C 4C 6C"
    rest = [c for c in range(52) if c not in parse_cards(order)]
    deal = [order] + [" ".join(card_name(c) for c in rest[i * 13 : i * 13 + 13]) for i in range(3)]
    state = new_state(deal, 3)
    bot = SpadesHeuristic()
    bot.start_match(state.game, 0, 1)
    assert state.game.action_name(bot.act(state.view(0))) == "bid nil"


def test_heuristic_looks_unless_far_behind_late() -> None:
    state = new_state(SUITS_DEAL, 3, "spades(blind_nil_behind=0)")
    bot = SpadesHeuristic()
    bot.start_match(state.game, 0, 1)
    assert bot.act(state.view(0)) == LOOK
    state = new_state(SUITS_DEAL, 3, scores=(0, 400))
    bot.start_match(state.game, 0, 1)
    assert bot.act(state.view(0)) == BLIND_NIL


def test_heuristic_nil_bidder_ducks_and_sheds_high_cards() -> None:
    state = run(new_state(MIXED_DEAL, 2), "bid 4, bid nil, bid 2, bid 3")
    # Seat 3 leads AH; seat 0 (nil) cannot follow and sheds its highest club, not a spade.
    run(state, "play AH")
    bot = SpadesHeuristic()
    bot.start_match(state.game, 0, 1)
    assert state.game.action_name(bot.act(state.view(0))) == "play QC"
