"""Tests of the ``ismcts`` bot: legal in every game, seeded, blind to all but its view, and
stronger than random card play."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from tricktable.analysis.duel import prepare, run_duel
from tricktable.bots import make_bot
from tricktable.bots.base import Bot
from tricktable.bots.ismcts import IsmctsBot
from tricktable.engine.trick import PLAY, TrickState
from tricktable.errors import BotError
from tricktable.games import load_game, names
from tricktable.match import Referee, play_match
from tricktable.records import to_record
from tricktable.search import determinize
from tricktable.search.rules import unsupported

BOTS = Path(__file__).parent / "bots" / "ismcts_small.py"
SMALL = f"{BOTS}:SmallIsmcts"
BID_RANDOM_PLAY = f"{BOTS}:HeuristicBidRandomPlay"


def _small() -> IsmctsBot:
    return IsmctsBot(iterations=24, max_seconds=None)


def _bots(n: int) -> list[Bot]:
    others = ["heuristic", "random"]
    return [_small() if s % 2 == 0 else make_bot(others[s // 2 % 2]) for s in range(n)]


@pytest.mark.parametrize("name", names())
def test_plays_every_game_legally(name: str) -> None:
    game = load_game(name)
    if unsupported(game):
        # A game whose stock or hidden actions the search cannot sample yet: one line.
        with pytest.raises(BotError, match=f"ismcts bot cannot play {game.name}: ") as refused:
            _small().start_match(game, 0, 1)
        assert "\n" not in str(refused.value)
        return
    for seed in (1, 2):
        referee = Referee()
        state = play_match(game, _bots(game.num_players), seed, max_hands=2, referee=referee)
        assert state.history, name
        assert referee.faults == [], referee.faults


def test_the_same_seed_plays_the_same_match() -> None:
    game = load_game("hearts")
    records = [json.dumps(to_record(play_match(game, _bots(4), 11, max_hands=1))) for _ in range(2)]
    assert records[0] == records[1]


def _play_positions(name: str, seed: int) -> list[TrickState]:
    """Card-play positions of one seeded hand with a real choice (random play)."""
    game = load_game(name)
    state = game.new_state(seed)
    state.deal()
    rng = random.Random(seed)
    found = []
    while state.to_act >= 0:
        legal = state.legal_actions()
        if state.phase == PLAY and len(legal) > 1:
            found.append(state.clone())
        state.apply(legal[rng.randrange(len(legal))] if state.phase == PLAY else legal[0])
    return found[::5]


@pytest.mark.parametrize("name", ["setback", "hearts", "spades", "euchre", "oh-hell"])
def test_decides_from_the_view_alone(name: str) -> None:
    """Two worlds the seat cannot tell apart get the same answer, and the hint agrees."""
    for state in _play_positions(name, 3):
        seat = state.to_act
        view = state.view(seat)
        other = determinize(view, random.Random(seat))  # other hidden cards, same view
        bot = _small()
        bot.start_match(state.game, seat, 5)
        action = bot.act(view)
        assert action in view.legal_actions()
        assert bot.act(other.view(seat)) == action
        hint = bot.hint(view)
        assert hint[0][0] == action
        assert sum(visits for _, visits, _ in hint) == bot.last_iterations == 24


def test_delegates_the_auction_and_hints_nothing_there() -> None:
    game = load_game("setback")
    state = game.new_state(4)
    state.deal()
    assert state.phase != PLAY
    bot = _small()
    bot.start_match(game, state.to_act, 1)
    heuristic = make_bot("heuristic")
    heuristic.start_match(game, state.to_act, 1)
    view = state.view(state.to_act)
    assert bot.act(view) == heuristic.act(view)
    assert bot.hint(view) == []


def test_beats_random_and_random_card_play_in_setback() -> None:
    """Paired deals: against ``random``, and against the same bidding with random cards."""
    duel = prepare("setback", SMALL, "random", deals=10, seed=1, sprt=None)
    assert run_duel(duel, workers=1).difference.mean > 2
    # The bidding is the same heuristic on both sides here: what is left is the card play.
    duel = prepare("setback", SMALL, BID_RANDOM_PLAY, deals=30, seed=1, sprt=None)
    assert run_duel(duel, workers=1).difference.mean > 0
