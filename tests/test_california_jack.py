"""California Jack and Shasta Sam: the draws after each trick and who sees them, the last
tricks without stock, the play rules, scoring and its race to the target, every preset through
whole matches, records and resumes, and the heuristic against random play."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from helpers import card_names
from tricktable.bots import make_bot
from tricktable.cards import card_name, mask_of, parse_card, parse_cards
from tricktable.engine.events import HandChanged
from tricktable.engine.trick import PLAY, TrickState
from tricktable.errors import IllegalAction, OptionError
from tricktable.games import PRESETS, load_game
from tricktable.games.california_jack import CaliforniaJackState
from tricktable.games.california_jack_results import CaliforniaJackResult
from tricktable.match import end_bots, play_match, play_on, start_bots
from tricktable.records import replay, result_of, to_record

SPECS = [
    "california-jack",
    *sorted(p for p in PRESETS if PRESETS[p].game == "california-jack"),
    "california-jack(players=4,partners=true)",
    "california-jack(players=4,direction=right)",
]


def cards(text: str) -> int:
    return mask_of(parse_cards(text))


def dealt_state(spec: str, hands: list[str], stock: str, dealer: int = 1) -> TrickState:
    """A state of ``spec`` dealt ``hands`` and ``stock`` (top card first) by ``dealer``."""
    state = load_game(spec).new_state(1)
    state.deal([cards(h) for h in hands], dealer=dealer, stock=parse_cards(stock))
    return state


def rest_of_deck(*hands: str) -> str:
    used = 0
    for hand in hands:
        used |= cards(hand)
    return " ".join(card_name(c) for c in range(52) if not used >> c & 1)


def play(state: TrickState, *names: str) -> None:
    for name in names:
        state.apply(parse_card(name))


# ------------------------------------------------------------------------------ the draws

HAND0 = "AS KS 2H 3H 4H 5H"
HAND1 = "QS 6H 7H 8H 9H TH"


def two_hand(spec: str = "california-jack", top: str = "2S 3C") -> TrickState:
    stock = top + " " + rest_of_deck(HAND0, HAND1, top)
    return dealt_state(spec, [HAND0, HAND1], stock)


def test_the_top_card_names_trump_and_the_winner_draws_it_first() -> None:
    state = two_hand()
    assert state.trump == 3 and state.phase == PLAY and state.to_act == 0
    assert state.hand_size == 26  # the tricks of the hand: every card is played
    play(state, "3H", "TH")  # seat 1 wins with the ten
    assert state.hands[1] & cards("2S") and state.hands[0] & cards("3C")
    assert state.hands[0].bit_count() == state.hands[1].bit_count() == 6
    assert state.dealt[1] & cards("2S")  # a drawn card counts as held
    assert len(state.stock) == 38 and state.to_act == 1


def test_four_seats_draw_from_the_winner_in_turn_order() -> None:
    hands = ["2C 3C 4C 5C 6C 7C", "2D 3D 4D 5D 6D 7D", "8C 9C TC JC QC KC", "8D 9D TD JD QD KD"]
    top = "2S 3S 4S 5S"
    for spec, order in (
        ("california-jack(players=4)", [2, 3, 0, 1]),
        ("california-jack(players=4,direction=right)", [2, 1, 0, 3]),
    ):
        stock = top + " " + rest_of_deck(*hands, top)
        state = dealt_state(spec, hands, stock, dealer=3 if "right" not in spec else 1)
        assert state.to_act == 0
        step = state.step
        play(state, "2C", "2D" if step == 1 else "8D", "KC", "8D" if step == 1 else "2D")
        assert state.tricks[-1][2] == 2
        for card, seat in zip(parse_cards(top), order, strict=True):
            assert state.hands[seat] >> card & 1, (spec, card_name(card), seat)


def test_the_last_six_tricks_are_played_without_stock() -> None:
    state = load_game("california-jack").new_state(5)
    state.deal()
    while state.stock:
        state.apply(state.legal_actions()[0])
        if not state.trick:
            assert [h.bit_count() for h in state.hands] == [6, 6]
    assert len(state.tricks) == 20
    assert [h.bit_count() for h in state.hands] == [6, 6]
    while state.phase == PLAY:
        state.apply(state.legal_actions()[-1])
    assert len(state.tricks) == 26 and state.phase != PLAY and not state.stock
    assert sum(w.bit_count() for w in state.won) == 52


def test_push_and_undo_take_the_draws_back() -> None:
    state = two_hand()
    before = (state.hands[:], state.dealt[:], state.stock[:])
    state.push(parse_card("3H"))
    state.push(parse_card("TH"))
    assert len(state.stock) == 38
    state.undo()
    state.undo()
    assert (state.hands, state.dealt, state.stock) == before


# ------------------------------------------------------------------------------ who sees


def test_a_face_up_stock_shows_its_top_card_to_every_seat() -> None:
    state = two_hand()
    play(state, "3H", "TH")
    top = card_name(state.stock[0])
    for seat in (0, 1):
        info = state.view(seat).info()
        assert info["stock_top"] == top and info["stock_left"] == 38


def test_a_face_down_stock_shows_the_trump_card_until_it_is_drawn() -> None:
    state = two_hand("shasta-sam")
    assert state.view(0).info()["stock_top"] == "2S"
    play(state, "3H", "TH")
    for seat in (0, 1):
        assert state.view(seat).info()["stock_top"] is None


@pytest.mark.parametrize("spec", ["shasta-sam", "california-jack(stock=down,players=4)"])
def test_a_face_down_draw_reaches_no_other_seat(spec: str) -> None:
    state = load_game(spec).new_state(3)
    events = state.listen()
    rng = random.Random(3)
    state.deal()
    turned = 1 << state.trump_card  # type: ignore[attr-defined]
    while state.phase == PLAY:
        state.apply(rng.choice(state.legal_actions()))
        played = 0
        for won in state.won:
            played |= won
        played |= mask_of(state.trick)
        for seat in range(state.n):
            allowed = state.dealt[seat] | played | turned
            shown = card_names(json.dumps(state.view(seat).to_dict()))
            assert not shown & ~allowed, f"seat {seat} sees {shown & ~allowed:#x}"
            for event in events.stream(seat):
                told = card_names(json.dumps(event.to_dict()))
                assert not told & ~allowed, f"seat {seat} told {event!r}"
                if isinstance(event, HandChanged):
                    assert event.seat == seat


def test_each_seat_is_told_its_own_new_card() -> None:
    state = two_hand("shasta-sam")
    events = state.listen()
    play(state, "3H", "TH")
    for seat in (0, 1):
        changed = [e for e in events.stream(seat) if isinstance(e, HandChanged)]
        assert [e.cards for e in changed] == [state.hands[seat]]


# ------------------------------------------------------------------------------ play rules


def test_follow_or_trump_makes_a_void_seat_trump() -> None:
    hand1 = "QS 6D 7D 8D 9D TD"  # void in hearts, one trump
    stock = "2S " + rest_of_deck(HAND0, hand1, "2S")
    state = dealt_state("california-jack", [HAND0, hand1], stock)
    play(state, "3H")
    assert state.legal_actions() == [parse_card("QS")]
    with pytest.raises(IllegalAction, match="must trump"):
        state.apply(parse_card("6D"))
    assert "must trump" in state.view(1).illegal(parse_card("6D")).reason
    may = dealt_state("california-jack-foster", [HAND0, hand1], stock)
    play(may, "3H")
    assert len(may.legal_actions()) == 6


def test_a_seat_that_can_follow_may_trump_unless_strict() -> None:
    stock = "2S " + rest_of_deck(HAND0, HAND1, "2S")
    state = dealt_state("california-jack", [HAND0, HAND1], stock)
    play(state, "3H")
    assert set(state.legal_actions()) == set(parse_cards("QS 6H 7H 8H 9H TH"))
    strict = dealt_state("california-jack(play=follow)", [HAND0, HAND1], stock)
    play(strict, "3H")
    assert parse_card("QS") not in strict.legal_actions()
    with pytest.raises(IllegalAction, match="must follow suit H"):
        strict.apply(parse_card("QS"))


# ------------------------------------------------------------------------------ scoring


def scored(spec: str, won: list[str], scores: list[int]) -> tuple[TrickState, Any]:
    """A hand of ``spec`` (spades trump) whose seats won ``won``, scored from ``scores``."""
    state = two_hand(spec)
    assert isinstance(state, CaliforniaJackState)
    state.won = [cards(w) for w in won]
    state.dealt = list(state.won)
    state.scores = list(scores)
    return state, state._score_hand()


def test_each_point_goes_to_the_side_that_won_its_card() -> None:
    state, result = scored("california-jack", ["AS 2S TC TD", "JS KC"], [0, 0])
    assert isinstance(result, CaliforniaJackResult)
    assert dict(result.points) == {"high": 0, "low": 0, "jack": 1, "game": 0}
    assert result.taken == (3, 1) and state.scores == [3, 1] and state.winner is None
    assert result.to_dict()["trump_card"] == "2S"


def test_a_tied_game_point_goes_to_nobody() -> None:
    _state, result = scored("california-jack", ["AS TC", "2S JS TD KC"], [0, 0])
    assert result.points["game"] is None and result.taken == (1, 2)


def test_points_count_in_order_when_both_reach_the_target() -> None:
    # Both reach 10 in this hand: Low (seat 1) counts before Jack and Game (seat 0).
    state, _result = scored("california-jack", ["AS JS TC TD", "2S KC"], [8, 9])
    assert state.scores == [11, 10] and state.winner == 1
    state, _result = scored("california-jack", ["2S JS TC", "AS KC"], [9, 9])
    assert state.winner == 1  # High first


def test_bad_options_are_refused() -> None:
    with pytest.raises(OptionError, match="2 or 4"):
        load_game("california-jack(players=3)")
    with pytest.raises(OptionError, match="players=4"):
        load_game("california-jack(partners=true)")
    with pytest.raises(OptionError, match="unknown point"):
        load_game("california-jack", extra={"points": "high,off_jack"})


# ------------------------------------------------------------------------------ whole matches


@pytest.mark.parametrize("spec", SPECS)
def test_every_version_plays_replays_and_resumes(spec: str) -> None:
    game = load_game(spec)
    players = ["heuristic", "random"] * (game.num_players // 2)
    state = play_match(game, [make_bot(p) for p in players], 11)
    assert state.is_over and state.winner is not None
    assert max(state.scores) >= game.options.target
    for log in state.history:
        assert len(log.stock) == 52 - 6 * game.num_players
    record = json.loads(json.dumps(to_record(state, players)))
    again = replay(record)
    assert result_of(again) == result_of(state) and again.scores == state.scores
    # Cut in the middle of the second hand and resumed, it plays on exactly.
    cut = json.loads(json.dumps(record))
    partial = dict(cut["hands"][1])
    partial["actions"] = partial["actions"][:17]
    partial.pop("notes", None)
    cut["hands"] = cut["hands"][:1]
    cut["unfinished_hand"] = partial
    resumed = replay(cut)
    bots = [make_bot(p) for p in players]
    start_bots(resumed.game, bots, 11)
    play_on(resumed, bots)
    end_bots(resumed, bots)
    assert json.loads(json.dumps(to_record(resumed, players))) == record


def test_the_rules_text_follows_the_options() -> None:
    from tricktable.cli.catalog import rules_page

    page = rules_page("shasta-sam")
    assert "face down" in page and "Foster" in page
    assert "to reach 10" in rules_page("california-jack")
    assert "0+2 play against 1+3" in rules_page("california-jack(players=4,partners=true)")


def test_the_heuristic_beats_random_play() -> None:
    wins = 0
    matches = 200
    for seed in range(matches):
        seat = seed % 2  # the heuristic sits at each seat in turn
        bots = [make_bot("random"), make_bot("random")]
        bots[seat] = make_bot("heuristic")
        spec = "california-jack" if seed % 4 < 2 else "shasta-sam"
        state = play_match(load_game(spec), bots, 1000 + seed)
        wins += state.winner == seat
    assert wins >= 0.7 * matches, wins


# ------------------------------------------------------------------------------ search


@pytest.mark.parametrize(
    "spec", ["california-jack", "shasta-sam", "california-jack(play=follow,direction=right)"]
)
def test_knowledge_holds_and_every_sample_replays(spec: str) -> None:
    from tricktable.search.determinize import Determinizer
    from tricktable.search.knowledge import Knowledge

    rng = random.Random(2)
    samples = 0
    for seed in range(3):
        state = load_game(spec).new_state(seed)
        moves = random.Random(seed)
        state.deal()
        while state.phase == PLAY:
            if moves.random() < 0.3:
                for seat in range(state.n):
                    view = state.view(seat)
                    k = Knowledge(view)
                    for s in range(state.n):
                        assert k.counts[s] == state.hands[s].bit_count()
                        assert not state.hands[s] & (k.cannot[s] | k.dead)
                    world = Determinizer(view, k).sample(rng)
                    assert world.hands[seat] == state.hands[seat]
                    assert world.to_act == state.to_act and len(world.stock) == len(state.stock)
                    if state.stock and k.dead:
                        assert world.stock[0] == state.stock[0]  # the top card all see
                    samples += 1
            state.apply(moves.choice(state.legal_actions()))
    assert samples > 50


def test_a_void_shown_before_a_draw_is_no_void_after_it() -> None:
    from tricktable.search.knowledge import Knowledge

    hand1 = "QC 6D 7D 8D 9D TD"  # no heart, no spade
    stock = "2S 6H " + rest_of_deck(HAND0, hand1, "2S 6H")
    # Face down (Shasta Sam): seat 1's draw is its own (California Jack's face-up draws are
    # known to all: tests/test_california_jack_public.py).
    state = dealt_state("shasta-sam", [HAND0, hand1], stock)
    play(state, "3H", "6D")  # seat 1 shows it has neither hearts nor trumps; seat 0 wins
    assert state.hands[1] >> parse_card("6H") & 1  # and draws a heart
    assert not Knowledge(state.view(0)).cannot[1]


# ------------------------------------------------------------------------------ the table


def test_the_presenter_and_statistics_speak_of_points_and_stock() -> None:
    from tricktable.seat.games import presenter_for
    from tricktable.seat.games.base import HandSeen, Seating
    from tricktable.stats import stats_for

    game = load_game("california-jack")
    state = play_match(game, [make_bot("heuristic"), make_bot("random")], 4)
    shown = presenter_for(game)
    seating = Seating(game, ["Ann", "Bob"])
    hand = HandSeen(0, 0, 2, (0, 0))
    hand.result = state.results[0]
    text = " ".join(t.plain for t in shown.result_lines(seating, hand))
    assert "Points: High" in text and "Trump card:" in text
    assert "high" in shown.hand_line(seating, hand).plain
    view = two_hand().view(0)
    assert shown.tricks_in_hand(view) == 26
    assert "top" in shown.play_facts(seating, view)[0].plain
    hook = stats_for(game)
    counts: dict[Any, int] = {}
    before: tuple[int, ...] = (0, 0)
    for result in state.results:
        key = hook.key(result, before)
        counts[key] = counts.get(key, 0) + 1
        before = result.scores
    report = hook.report(game, counts, len(state.results))
    assert report["family"] == "california-jack"
    assert sum(report["points"]["high"]["count"]) == len(state.results)  # High is always won


def test_a_deal_given_without_its_stock_takes_the_rest_of_the_deck() -> None:
    state = load_game("california-jack").new_state(1)
    state.deal([cards(HAND0), cards(HAND1)], dealer=1)
    assert state.stock[0] == parse_card("2C") and len(state.stock) == 40
    assert state.history[-1].stock == state.stock and state.trump == 0
