"""Tests of the ``pimc`` bot: legal in the Pitch family, seeded, true to the solver, blind to
all but its view, and stronger than random play."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tricktable.analysis.duel import prepare, run_duel
from tricktable.bots import make_bot
from tricktable.bots.pimc import PimcBot
from tricktable.engine.trick import PLAY, TrickState
from tricktable.errors import BotError
from tricktable.games import load_game
from tricktable.match import Referee, play_match
from tricktable.search import Determinizer, determinize
from tricktable.search.solver import solve

SMALL = f"{Path(__file__).parent / 'bots' / 'pimc_small.py'}:SmallPimc"


@pytest.mark.parametrize("name", ["setback", "smear"])
def test_plays_legally(name: str) -> None:
    game = load_game(name)
    for seed in (1, 2):
        bots = [PimcBot(worlds=3, max_seconds=0.1), make_bot("heuristic")] * 2
        bots[2] = PimcBot(worlds=3, max_seconds=0.1)
        referee = Referee()
        state = play_match(game, bots, seed, max_hands=1, referee=referee)
        assert state.history
        assert referee.faults == [], referee.faults


def _late_positions(name: str, seed: int) -> list[TrickState]:
    """Card-play positions from the third trick on with a real choice (heuristic play)."""
    game = load_game(name)
    state = game.new_state(seed)
    state.deal()
    bots = [make_bot("heuristic") for _ in range(4)]
    for seat, bot in enumerate(bots):
        bot.start_match(game, seat, seed)
    found = []
    while state.to_act >= 0:
        view = state.view(state.to_act)
        if state.phase == PLAY and len(state.tricks) >= 2 and len(view.legal_actions()) > 1:
            found.append(state.clone())
        state.apply(bots[state.to_act].act(view))
    return found


@pytest.mark.parametrize("name", ["setback", "smear"])
def test_seeded_and_decides_from_the_view_alone(name: str) -> None:
    """The same seed answers the same, in two worlds the seat cannot tell apart."""
    positions = [p for seed in (3, 4, 5) for p in _late_positions(name, seed)]
    assert positions
    for state in positions:
        seat = state.to_act
        view = state.view(seat)
        other = determinize(view, random.Random(seat))
        bot = PimcBot(worlds=4, max_seconds=None)
        bot.start_match(state.game, seat, 7)
        action = bot.act(view)
        assert action in view.legal_actions()
        assert bot.act(other.view(seat)) == action
        assert bot.last_worlds == 4
        hint = bot.hint(view)
        assert hint[0][0] == action and {w for _, _, w in hint} == {4}


def test_one_world_plays_a_best_card_of_the_solver() -> None:
    """With one world the choice and the hint are the solver's, on the world the bot drew."""
    for state in _late_positions("setback", 6) + _late_positions("smear", 6):
        seat = state.to_act
        view = state.view(seat)
        bot = PimcBot(worlds=1, max_seconds=None, inference=False)
        bot.start_match(state.game, seat, 9)
        world = Determinizer(view).sample(bot._rng(view))
        result = solve(world, seat)
        assert bot.act(view) == result.best()[0]
        assert {card: value for card, value, _ in bot.hint(view)} == result.moves


def test_auction_weight_is_one_for_the_true_deal_of_heuristic_bidders() -> None:
    """Where every seat bid as the heuristic does, the real deal fits the auction fully."""
    for state in _late_positions("setback", 8)[:3]:
        bot = PimcBot()
        bot.start_match(state.game, state.to_act, 1)
        assert bot.auction_weight(state, state.view(state.to_act)) == 1.0


def test_refuses_a_game_without_a_solver() -> None:
    with pytest.raises(BotError, match="Pitch"):
        PimcBot().start_match(load_game("hearts"), 0, 1)


def test_beats_random_in_setback() -> None:
    duel = prepare("setback", SMALL, "random", deals=10, seed=1, sprt=None)
    assert run_duel(duel, workers=1).difference.mean > 2
