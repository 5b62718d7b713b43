"""Tests of Tricks (games/rules/tricks.md): rotation, a point per trick, the target, bad cards.

States are built from card text where a rule needs a particular deal, and from seeded random
play for the invariants; records go through ``tricktable.records`` as every saved match does.
"""

from __future__ import annotations

import json
import random
import re

import pytest

from tricktable.bots import load_class, make_bot
from tricktable.cards import SUIT_MASKS, card_name, cards_in, mask_of, parse_card, parse_cards
from tricktable.engine.trick import DEAL, PLAY, TrickState
from tricktable.errors import IllegalAction, NotationError, OptionError, RecordError
from tricktable.games import load_game, register
from tricktable.games.tricks import BAD_CARD, GAME, TricksState
from tricktable.games.tricks_results import TricksResult
from tricktable.match import play_match
from tricktable.records import replay, result_of, to_record

register(GAME)

#: each seat holds one whole suit: seat 0 clubs, 1 diamonds, 2 hearts, 3 spades
BY_SUIT = [" ".join(r + s for r in "23456789TJQKA") for s in "CDHS"]


def new_state(spec: str = "tricks", seed: int = 0) -> TricksState:
    """A fresh Tricks match."""
    state = load_game(spec).new_state(seed)
    assert isinstance(state, TricksState)
    return state


def deal_text(state: TrickState, hands: list[str], dealer: int | None = None) -> None:
    """Deal four hands given as card text."""
    state.deal([mask_of(parse_cards(h)) for h in hands], dealer=dealer)


def play(state: TrickState, text: str) -> None:
    """Apply action texts separated by commas."""
    for item in text.split(","):
        state.apply(state.game.parse_action(item))


def result_at(state: TrickState, h: int) -> TricksResult:
    """Hand ``h``'s result, checked to be Tricks'."""
    result = state.results[h]
    assert isinstance(result, TricksResult)
    return result


def random_hand(state: TrickState, rng: random.Random) -> None:
    """Deal and play one hand with random legal cards."""
    state.deal()
    while state.to_act >= 0:
        legal = state.legal_actions()
        state.apply(legal[int(rng.random() * len(legal))])


# ------------------------------------------------------------------------- table and turn


def test_options_defaults_and_bad_values() -> None:
    game = load_game("tricks")
    assert game.options.target == 1000 and game.options.bad_card_penalty == 100
    assert game.num_scores == 4 and len(game.deck) == 52 and game.hand_size == 13
    assert load_game("tricks(target=50)").spec() == "tricks(target=50)"
    with pytest.raises(OptionError, match="target"):
        load_game("tricks(target=0)")
    with pytest.raises(OptionError, match="unknown option"):
        load_game("tricks(trump=S)")


def test_first_player_rotates_one_seat_each_hand() -> None:
    state = new_state(seed=3)
    rng = random.Random(3)
    for h in range(9):
        random_hand(state, rng)
        log = state.history[h]
        assert log.dealer == (h - 1) % 4
        # the first trick of hand h is led by seat h mod 4
        assert result_at(state, h).leader == h % 4


def test_first_trick_led_by_left_of_dealer_and_winner_leads_next() -> None:
    state = new_state()
    deal_text(state, BY_SUIT, dealer=1)
    assert state.to_act == 2 and state.phase == PLAY
    play(state, "play 2H,play AS,play 3C,play 4D")  # hearts led: seat 2 wins (only heart)
    assert state.tricks[-1] == (2, tuple(parse_cards("2H AS 3C 4D")), 2)
    assert state.to_act == 2


def test_each_trick_scores_one_point_to_its_winner_at_once() -> None:
    state = new_state()
    hands = ["AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2D"]
    hands += ["2C AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D"]
    hands += [BY_SUIT[2], BY_SUIT[3]]
    deal_text(state, hands, dealer=3)
    play(state, "play AC,play 2C,play 2H,play 2S")
    assert state.scores == [1, 0, 0, 0]
    play(state, "play 2D,play AD,play 3H,play 3S")  # diamonds led: seat 1's ace wins
    assert state.scores == [1, 1, 0, 0] and state.to_act == 1


def test_highest_of_the_suit_led_wins_no_trump() -> None:
    state = new_state()
    deal_text(state, BY_SUIT, dealer=3)
    play(state, "play 2C,play AD,play AH,play AS")  # only the club counts
    assert state.tricks[-1][2] == 0


def test_hand_result_and_scores_over_a_full_hand() -> None:
    state = new_state(seed=11)
    random_hand(state, random.Random(11))
    result = result_at(state, -1)
    assert sum(result.tricks) == 13
    assert result.points == result.tricks == result.scores
    assert result.bad_card is None and result.thrown_in is False
    assert result.to_dict()["bad_card"] is None and result.to_dict()["thrown_in"] is False
    assert state.needs_deal and not state.is_over


# ------------------------------------------------------------------------------ the target


def test_match_stops_mid_hand_when_a_seat_reaches_the_target() -> None:
    state = new_state("tricks(target=5)")
    deal_text(state, BY_SUIT, dealer=3)  # seat 0 leads clubs and takes every trick
    for rank in "23456":
        play(state, f"play {rank}C,play {rank}D,play {rank}H,play {rank}S")
    assert state.is_over and state.winner == 0 and state.to_act == -1
    assert state.scores == [5, 0, 0, 0]
    result = result_at(state, -1)
    assert result.tricks == (5, 0, 0, 0) and result.points == (5, 0, 0, 0)
    assert len(state.tricks) == 5 and state.hands[0].bit_count() == 8
    with pytest.raises(IllegalAction, match="match is over"):
        play(state, "play 7C")
    # the record of the cut-short hand is complete and replays to the same end
    record = json.loads(json.dumps(to_record(state)))
    assert len(record["hands"]) == 1 and "unfinished_hand" not in record
    again = replay(record)
    assert again.is_over and again.winner == 0 and result_of(again) == result_of(state)
    record["hands"][0]["actions"].append("play 7C")
    with pytest.raises(RecordError, match="one action too many"):
        replay(record)


def test_target_reached_on_the_last_trick_ends_the_match_too() -> None:
    state = new_state("tricks(target=13)")
    deal_text(state, BY_SUIT, dealer=3)
    for rank in "23456789TJQKA":
        play(state, f"play {rank}C,play {rank}D,play {rank}H,play {rank}S")
    assert state.is_over and state.winner == 0 and len(state.results) == 1


def test_random_matches_end_exactly_at_the_target() -> None:
    for seed in range(5):
        state = new_state("tricks(target=30)", seed)
        rng = random.Random(seed)
        while not state.is_over:
            random_hand(state, rng)
        assert state.winner is not None and state.scores[state.winner] == 30
        assert max(s for i, s in enumerate(state.scores) if i != state.winner) < 30
        assert result_of(replay(to_record(state))) == result_of(state)


# ----------------------------------------------------------------------------- bad cards


def test_bad_card_costs_the_penalty_and_the_same_dealer_redeals() -> None:
    state = new_state(seed=5)
    deal_text(state, BY_SUIT, dealer=3)
    play(state, "play AC,play 2D,play 2H,play 2S")  # seat 0 scores a trick
    play(state, "play KC,play 3D")
    assert state.to_act == 2
    state.penalize_bad_card(2, parse_card("AS"))  # seat 2 does not hold the ace of spades
    assert state.scores == [1, 0, -100, 0]
    assert state.needs_deal and state.to_act == -1 and not state.is_over
    result = result_at(state, -1)
    assert result.thrown_in is True and result.bad_card == 2
    assert result.tricks == (1, 0, 0, 0) and result.points == (1, 0, -100, 0)
    assert result.to_dict() == {
        "leader": result.leader,
        "tricks": [1, 0, 0, 0],
        "points": [1, 0, -100, 0],
        "bad_card": 2,
        "thrown_in": True,
        "scores": [1, 0, -100, 0],
    }
    assert state.history[-1].actions[-1] == parse_card("AS") + 256
    assert state.game.action_name(state.history[-1].actions[-1]) == "bad-card AS"
    state.deal()
    assert state.dealer == 3 and state.to_act == 0, "same dealer, same first player"
    assert all(m.bit_count() == 13 for m in state.hands)
    assert state.trick == [] and state.tricks == [] and state.tricks_won == [0, 0, 0, 0]
    # the next complete hand passes the deal on as usual
    rng = random.Random(1)
    while state.to_act >= 0:
        legal = state.legal_actions()
        state.apply(legal[int(rng.random() * len(legal))])
    state.deal()
    assert state.dealer == 0 and state.to_act == 1


def test_bad_card_that_names_no_card_and_a_custom_penalty() -> None:
    state = new_state("tricks(bad_card_penalty=7)")
    state.deal()
    state.penalize_bad_card(state.to_act)
    assert state.scores == [-7, 0, 0, 0] and result_at(state, -1).bad_card == 0
    assert state.game.action_name(BAD_CARD) == "bad-card"


#: seat 0 holds the clubs but the ace, and 2D; seat 1 the ace of clubs and the other diamonds
CLUB_LEAD = [
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC 2D",
    "AC " + BY_SUIT[1][3:],
    BY_SUIT[2],
    BY_SUIT[3],
]


def test_a_held_card_that_does_not_follow_suit_is_a_bad_card_too() -> None:
    state = new_state()
    deal_text(state, CLUB_LEAD, dealer=3)
    play(state, "play 2C")
    state.penalize_bad_card(1, parse_card("3D"))  # held, but seat 1 must follow with AC
    assert state.scores == [0, -100, 0, 0]
    assert state.game.action_name(state.history[0].actions[-1]) == "bad-card 3D"


def test_bad_card_refused_when_legal_out_of_turn_or_between_hands() -> None:
    state = new_state()
    deal_text(state, BY_SUIT, dealer=3)
    with pytest.raises(IllegalAction, match="may play 2C, so it is not a bad card"):
        state.penalize_bad_card(0, parse_card("2C"))
    with pytest.raises(IllegalAction, match="is not to play"):
        state.penalize_bad_card(1, parse_card("2C"))
    assert state.scores == [0, 0, 0, 0] and state.actions == []
    state.penalize_bad_card(0, parse_card("2D"))
    with pytest.raises(IllegalAction, match="not dealt yet"):
        state.penalize_bad_card(0)
    assert all(a < 64 for a in state.legal_actions())


def test_bad_card_is_never_offered_as_a_legal_action() -> None:
    state = new_state(seed=2)
    rng = random.Random(2)
    for _ in range(5):
        state.deal()
        while state.to_act >= 0:
            legal = state.legal_actions()
            assert legal and all(0 <= a < 52 for a in legal)
            assert state.legal_mask() >> 64 == 0
            state.apply(legal[int(rng.random() * len(legal))])


def test_record_with_bad_cards_replays_exactly() -> None:
    state = new_state("tricks(target=40)", seed=8)
    rng = random.Random(8)
    # bad cards in hands 0 and 2 (after a random number of cards); the rest play to the target
    bad_at = {0: rng.randrange(52), 2: rng.randrange(52)}
    while not state.is_over:
        state.deal()
        moves = 0
        while state.to_act >= 0:
            if bad_at.get(len(state.history) - 1) == moves:
                hand = state.hands[state.to_act]
                outside = [c for c in range(52) if not hand >> c & 1]
                state.penalize_bad_card(state.to_act, rng.choice([None, *outside]))
                break
            legal = state.legal_actions()
            state.apply(legal[int(rng.random() * len(legal))])
            moves += 1
    thrown = [h for h in range(len(state.results)) if result_at(state, h).thrown_in]
    assert thrown == [0, 2]
    record = json.loads(json.dumps(to_record(state, ["a", "b", "c", "d"])))
    assert any(a.startswith("bad-card") for h in record["hands"] for a in h["actions"])
    again = replay(record)
    assert result_of(again) == result_of(state) and again.scores == state.scores
    assert [log.dealer for log in again.history] == [log.dealer for log in state.history]


def test_replay_refuses_a_bad_card_that_was_legal() -> None:
    state = new_state()
    deal_text(state, BY_SUIT, dealer=3)
    state.penalize_bad_card(0, parse_card("AS"))
    record = to_record(state)
    record["hands"][0]["actions"] = ["bad-card 2C"]
    with pytest.raises(RecordError, match=r"hand 0 action 0: .*not a bad card"):
        replay(record)


# --------------------------------------------------------------------- invariants and views


def test_invariants_over_many_random_hands() -> None:
    state = new_state(seed=21)
    rng = random.Random(21)
    for _ in range(150):
        before = state.scores[:]
        random_hand(state, rng)
        assert len(state.tricks) == 13
        played = 0
        for _leader, cards, _winner in state.tricks:
            assert len(cards) == 4
            played |= mask_of(cards)
        assert played == (1 << 52) - 1, "every card played exactly once"
        result = result_at(state, -1)
        assert sum(result.tricks) == 13
        assert [b + p for b, p in zip(before, result.points, strict=True)] == state.scores
        # the winner of each trick holds the highest card of the suit led
        for leader, cards, winner in state.tricks:
            led = cards[0] // 13
            best = max(c for c in cards if c // 13 == led)
            assert (leader + cards.index(best)) % 4 == winner


def test_views_never_show_other_hands() -> None:
    state = new_state(seed=4)
    rng = random.Random(4)
    state.deal()
    card_re = re.compile(r"\b[2-9TJQKA][CDHS]\b")
    while state.to_act >= 0:
        played = mask_of(c for _ld, cs, _w in state.tricks for c in cs) | mask_of(state.trick)
        for seat in range(4):
            view = state.view(seat)
            assert view.hand == state.hands[seat]
            text = json.dumps(view.to_dict())
            shown = mask_of(parse_card(m) for m in card_re.findall(text))
            assert not shown & ~(state.hands[seat] | played), f"seat {seat} sees a hidden card"
            assert view.legal_actions() == (state.legal_actions() if seat == state.to_act else [])
        legal = state.legal_actions()
        state.apply(legal[int(rng.random() * len(legal))])


def test_clone_is_independent() -> None:
    state = new_state(seed=6)
    state.deal()
    play(state, state.game.action_name(state.legal_actions()[0]))
    other = state.clone()
    assert isinstance(other, TricksState)
    other.penalize_bad_card(other.to_act)
    assert state.phase == PLAY and state.scores == [0, 0, 0, 0]
    assert other.phase == DEAL and other.scores[state.to_act] == -100


# -------------------------------------------------------------------------- illegal input


def test_illegal_actions_say_why() -> None:
    state = new_state()
    deal_text(state, CLUB_LEAD, dealer=3)
    with pytest.raises(IllegalAction, match="does not hold AS"):
        play(state, "play AS")
    with pytest.raises(IllegalAction, match="must play a card"):
        play(state, "bid 3")
    with pytest.raises(IllegalAction, match="must play a card"):
        play(state, "pass")
    play(state, "play 2C")
    with pytest.raises(IllegalAction, match="must follow suit C"):
        play(state, "play 3D")
    for text in ("bad-card XX", "bad-card AS KS", "play"):
        with pytest.raises(NotationError):
            state.game.parse_action(text)
    assert state.game.parse_action("BAD-CARD qs") == 256 + parse_card("QS")
    with pytest.raises(IllegalAction, match="not an action"):
        state.apply(-1)


def test_replay_reports_illegal_play_with_its_place() -> None:
    state = new_state(seed=1)
    random_hand(state, random.Random(1))
    record = to_record(state)
    actions = record["hands"][0]["actions"]
    hands = record["hands"][0]["deal"]
    # the first leader plays a card from another seat's hand
    leader = 0
    stranger = hands[(leader + 1) % 4][0]
    actions[0] = f"play {stranger}"
    with pytest.raises(RecordError, match=rf"hand 0 action 0: seat 0 does not hold {stranger}"):
        replay(record)


def test_suit_masks_and_card_names_agree() -> None:
    # a guard for the text-based deals above: every suit string holds its whole suit
    for suit, text in enumerate(BY_SUIT):
        assert mask_of(parse_cards(text)) == SUIT_MASKS[suit]
        assert {card_name(c)[1] for c in cards_in(SUIT_MASKS[suit])} == {"CDHS"[suit]}


# ---------------------------------------------------------------------------------- bots


def test_heuristic_beats_random_clearly() -> None:
    game = load_game("tricks(target=50)")
    target = game.heuristic_bot
    wins = 0
    matches = 40
    for seed in range(matches):
        seat = seed % 4
        bots = [load_class(target)() if s == seat else make_bot("random") for s in range(4)]
        state = play_match(game, bots, seed)
        wins += state.winner == seat
    assert wins >= 0.75 * matches, f"heuristic won {wins} of {matches} (random: about 25%)"


def test_heuristic_player_name_resolves_to_the_tricks_bot() -> None:
    game = load_game("tricks(target=20)")
    bots = [make_bot("heuristic") for _ in range(4)]
    state = play_match(game, bots, 7)
    assert state.is_over and state.winner is not None
