"""Tests of ``pimc``'s newer parts: solved bids, cards valued by rollouts where a solve is out
of reach (the model plays every seat, the seat's own later cards too), and the inference's
mismatch counts that the fit of its factors reads."""

from __future__ import annotations

import random

import pytest

from tricktable.bots import make_bot
from tricktable.bots.pimc import PimcBot
from tricktable.bots.search_base import other_phases_bot
from tricktable.engine.actions import BID, PASS, is_bid
from tricktable.engine.trick import PLAY, TrickState
from tricktable.errors import BotError
from tricktable.games import load_game
from tricktable.search import Determinizer
from tricktable.search.inference import Inference
from tricktable.search.solver import solve
from tricktable.search.solver.fast import available as compiled


def _played_to(name: str, seed: int, cards_left: int) -> TrickState:
    """A heuristic-played hand of ``name`` in card play, with ``cards_left`` cards a seat."""
    game = load_game(name)
    state = game.new_state(seed)
    state.deal()
    bots = [make_bot("heuristic") for _ in range(game.num_players)]
    for s, bot in enumerate(bots):
        bot.start_match(game, s, seed)
    while not (state.phase == PLAY and not state.trick and _left(state) == cards_left):
        state.apply(bots[state.to_act].act(state.view(state.to_act)))
    return state


def _left(state: TrickState) -> int:
    return int(state.hands[state.to_act].bit_count())


#: solved bids need the solver's compiled core to be quick (the Python one takes ~0.1 s a solve)
needs_core = pytest.mark.skipif(not compiled(), reason="the solver's C core is not built")


@pytest.mark.parametrize("bidding", [pytest.param("solve", marks=needs_core), "simulate"])
def test_both_bid_valuations_bid_a_dominating_hand_and_pass_a_hopeless_one(bidding: str) -> None:
    game = load_game("setback")
    for hand, strong in (("AS KS QS JS JC JK", True), ("2C 4D 3H 5H 7S 8C", False)):
        state = game.new_state(1)
        mine = sum(1 << game.parse_action(f"play {c}") for c in hand.split())
        rest = [c for c in game.deck if not mine >> c & 1]
        random.Random(4).shuffle(rest)
        hands = [mine] + [sum(1 << c for c in rest[6 * i : 6 * i + 6]) for i in range(3)]
        state.deal(hands, dealer=3)
        bot = PimcBot(max_seconds=None, bid_worlds=8, bidding=bidding)
        bot.start_match(game, 0, 1)
        action = bot.act(state.view(0))
        if strong:
            assert is_bid(action) and action - BID >= 4, game.action_name(action)
        else:
            assert action == PASS
        assert bot.bid_worlds_used == 8


@needs_core
def test_solved_bids_are_seeded() -> None:
    game = load_game("setback")
    state = game.new_state(3)
    state.deal()
    seat = state.to_act
    answers = set()
    for _ in range(2):
        bot = PimcBot(max_seconds=None, bid_worlds=5, bidding="solve")
        bot.start_match(game, seat, 2)
        answers.add(bot.act(state.view(seat)))
    assert len(answers) == 1 and answers <= set(state.view(seat).legal_actions())


def test_at_the_last_trick_a_rollout_is_the_solve() -> None:
    """One card a seat: the play is forced, so the rollout's value is the solver's."""
    for name in ("setback", "hearts", "spades"):
        state = _played_to(name, 2, 1)
        seat = state.to_act
        bot = PimcBot(max_seconds=None)
        bot.start_match(state.game, seat, 1)
        card = state.view(seat).legal_actions()[0]
        assert bot._rollouts(state, seat, [card]) == {card: float(solve(state, seat).value)}


@pytest.mark.parametrize("name", ["hearts", "spades", "setback"])
def test_rollouts_value_every_legal_card_and_play_one(name: str) -> None:
    state = _played_to(name, 1, 11 if name != "setback" else 6)
    seat = state.to_act
    view = state.view(seat)
    bot = PimcBot(max_seconds=None, worlds=2, cards="rollout")
    bot.start_match(state.game, seat, 1)
    assert bot.act(view) in view.legal_actions()
    assert bot.worlds_used == 2 and bot.fallbacks == 0
    ranked = bot.hint(view)
    assert sorted(c for c, _, _ in ranked) == view.legal_actions()


def test_auto_solves_late_and_plays_out_early() -> None:
    early = _played_to("hearts", 1, 12)
    late = _played_to("hearts", 1, 5)
    bot = PimcBot()
    bot.start_match(early.game, early.to_act, 1)
    assert not bot._solves(early.view(early.to_act))
    assert bot._solves(late.view(late.to_act))
    assert PimcBot(cards="solve")._solves(early.view(early.to_act))


def test_mismatch_counts_give_the_weight() -> None:
    state = _played_to("setback", 1, 3)
    seat = state.to_act
    view = state.view(seat)
    model = other_phases_bot(state.game)
    model.start_match(state.game, seat, 1)
    weigh = Inference(model, bid_mismatch=0.3, play_mismatch=0.6)
    sampler = Determinizer(view)
    rng = random.Random(2)
    seen = set()
    for _ in range(20):
        world = sampler.sample(rng)
        bids, plays = weigh.mismatches(world, view)
        seen.add((bids, plays))
        assert weigh.weight(world, view) == pytest.approx(0.3**bids * 0.6**plays)
    assert weigh.mismatches(state, view) == (0, 0)  # the true deal of heuristic players
    assert len(seen) > 1


def test_new_options_are_checked() -> None:
    with pytest.raises(BotError, match="cards"):
        PimcBot(cards="guess")
    with pytest.raises(BotError, match="bidding"):
        PimcBot(bidding="dream")
    assert make_bot("pimc(bidding=simulate,cards=solve,solve_cards=8)").name == "pimc"
