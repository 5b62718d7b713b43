"""Tests of the ``pimc`` bot: legal in every game its solver supports, seeded, true to the
solver, blind to all but its view, bidding by simulation, weighing worlds by inference, and
stronger than random play."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tricktable.analysis.duel import prepare, run_duel
from tricktable.bots import make_bot
from tricktable.bots.pimc import PimcBot
from tricktable.bots.search_base import other_phases_bot
from tricktable.cards import parse_cards
from tricktable.engine.actions import BID, PASS, is_bid
from tricktable.engine.trick import AUCTION, PLAY, TrickState
from tricktable.errors import BotError
from tricktable.games import load_game
from tricktable.match import Referee, play_match
from tricktable.search import Determinizer, determinize
from tricktable.search.inference import Inference
from tricktable.search.solver import solve, supports

SMALL = f"{Path(__file__).parent / 'bots' / 'pimc_small.py'}:SmallPimc"

#: the games pimc must play; those its solver does not support yet are left to the refusal test
GAMES = ("setback", "smear", "cutthroat-pitch", "hearts", "spades")


def _tiny(**options: object) -> PimcBot:
    """A pimc with a budget small enough for whole matches in a test."""
    return PimcBot(worlds=2, max_seconds=0.02, bid_worlds=3, **options)  # type: ignore[arg-type]


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


@pytest.mark.parametrize("name", GAMES)
def test_plays_whole_matches_legally(name: str) -> None:
    """A whole (short) match with a tiny budget: no fault, the match ends, worlds were used."""
    short = {"hearts": "hearts(target=26)", "spades": "spades(target=100)"}
    game = load_game(short.get(name, f"{name}(target=5)"))
    if not supports(game):
        # A game the solver does not play (supports(game) is false): refused in one line.
        with pytest.raises(BotError, match=f"cannot play {game.name}"):
            PimcBot().start_match(game, 0, 1)
        return
    bots = [_tiny(), make_bot("heuristic"), _tiny(inference=False), make_bot("heuristic")]
    referee = Referee()
    state = play_match(game, bots, 3, max_hands=40, referee=referee)
    assert referee.faults == [], referee.faults
    assert state.winner is not None
    assert bots[0].decisions > 0  # type: ignore[attr-defined]


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


# ----------------------------------------------------------------------------- inference


@pytest.mark.parametrize("name", ["setback", "hearts", "spades"])
def test_the_true_deal_of_heuristic_players_weighs_one(name: str) -> None:
    """Where every seat bid and played as the heuristic does, the real deal fits fully; other
    worlds of the same view (Hearts: its passes hidden and sampled) mostly do not."""
    game = load_game(name)
    positions = _late_positions(name, 8)
    assert positions
    for state in positions[:: max(len(positions) // 3, 1)]:
        view = state.view(state.to_act)
        model = other_phases_bot(game)
        model.start_match(game, state.to_act, 0)
        assert Inference(model).weight(state, view) == 1.0
        assert Inference(model, plays=False).weight(state, view) == 1.0
    state = positions[-1]
    view = state.view(state.to_act)
    model = other_phases_bot(game)
    model.start_match(game, state.to_act, 0)
    weigh = Inference(model)
    sampler = Determinizer(view)
    rng = random.Random(2)
    assert min(weigh.weight(sampler.sample(rng), view) for _ in range(20)) < 1.0


def _model_plays(state: TrickState, index: int) -> int:
    """What a fresh heuristic plays for the actor of the ``index``-th action of the hand."""
    game = state.game
    replay = game.new_state(0)
    replay.deal(list(state.dealt), dealer=state.dealer)
    for action in state.actions[:index]:
        replay.apply(action)
    model = other_phases_bot(game)
    model.start_match(game, state.actors[index], 0)
    return model.act(replay.view(state.actors[index]))


def test_a_world_whose_plays_the_model_contradicts_weighs_less() -> None:
    """Among worlds of one view, those where another seat's recorded card is not the model's
    choice weigh ``play_mismatch`` per such card; the true deal of heuristic players weighs 1."""
    state = _late_positions("setback", 12)[-1]
    seat = state.to_act
    view = state.view(seat)
    game = state.game
    model = other_phases_bot(game)
    model.start_match(game, seat, 0)
    weigh = Inference(model, bid_mismatch=0.25, play_mismatch=0.5)
    assert weigh.weight(state, view) == 1.0
    sampler = Determinizer(view)
    rng = random.Random(1)
    lower = 0
    for _ in range(30):
        world = sampler.sample(rng)
        misses = [
            i
            for i, actor in enumerate(world.actors)
            if actor != seat and _model_plays(world, i) != world.actions[i]
        ]
        bids = sum(1 for i in misses if world.actions[i] >= 64)
        expected = 0.25**bids * 0.5 ** (len(misses) - bids)
        assert weigh.weight(world, view) == pytest.approx(expected)
        lower += expected < 1.0
    assert lower > 0  # some sampled world contradicts a play or a bid
    bot = PimcBot(mismatch=0.25, play_mismatch=0.5)
    bot.start_match(game, seat, 0)
    assert bot.world_weight(world, view) == weigh.weight(world, view)
    assert bot.auction_weight(world, view) >= bot.world_weight(world, view)
    plays_off = Inference(model, play_mismatch=0.5, plays=False)
    assert plays_off.weight(state, view) == 1.0
    assert weigh.cached > 0  # the model's answers are reused across worlds


def test_inference_factors_are_checked() -> None:
    model = other_phases_bot(load_game("setback"))
    with pytest.raises(BotError, match="play_mismatch"):
        Inference(model, play_mismatch=0.0)
    with pytest.raises(BotError, match="mismatch"):
        PimcBot(mismatch=1.5)
    with pytest.raises(BotError, match="bidding"):
        PimcBot(bidding="guess")


# ------------------------------------------------------------------------------- bidding


def _auction_view(name: str, seed: int, bids: int) -> tuple[TrickState, int]:
    """A seeded deal after ``bids`` heuristic bids: the state and the seat to bid."""
    game = load_game(name)
    state = game.new_state(seed)
    state.deal()
    for _ in range(bids):
        bot = make_bot("heuristic")
        bot.start_match(game, state.to_act, 0)
        state.apply(bot.act(state.view(state.to_act)))
    assert state.phase == AUCTION
    return state, state.to_act


@pytest.mark.parametrize("name", ["setback", "smear", "cutthroat-pitch"])
def test_bids_by_simulation_legally_and_seeded(name: str) -> None:
    for seed in (1, 2, 3):
        state, seat = _auction_view(name, seed, seed % 4)
        view = state.view(seat)
        answers = set()
        for _ in range(2):
            bot = PimcBot(max_seconds=None, bid_worlds=3)
            bot.start_match(state.game, seat, 5)
            answers.add(bot.act(view))
            assert bot.bid_decisions == 1 and bot.bid_worlds_used == 3
        assert len(answers) == 1 and answers <= set(view.legal_actions())
        hint = PimcBot(max_seconds=None, bid_worlds=3)
        hint.start_match(state.game, seat, 5)
        ranked = hint.hint(view)
        assert ranked[0][0] in answers  # margin 0: the hint's best is played
        assert sorted(a for a, _, _ in ranked) == view.legal_actions()
        assert {w for _, _, w in ranked} == {3}
        values = [v for _, v, _ in ranked]
        assert values == sorted(values, reverse=True)


def _dealt(state: TrickState, seat: int, hand: str) -> None:
    """Deal ``hand`` to ``seat`` and the rest of the deck at random to the others."""
    mine = 0
    for card in parse_cards(hand):
        mine |= 1 << card
    rest = [c for c in state.game.deck if not mine >> c & 1]
    random.Random(4).shuffle(rest)
    hands = []
    for s in range(4):
        if s == seat:
            hands.append(mine)
        else:
            take, rest = rest[:6], rest[6:]
            hands.append(sum(1 << c for c in take))
    state.deal(hands, dealer=3)


def test_bids_high_with_a_dominating_hand_and_passes_a_hopeless_one() -> None:
    game = load_game("setback")
    strong = game.new_state(1)
    _dealt(strong, 0, "AS KS QS JS JC JK")  # every top trump: High, Jack, Off-jack, Joker
    bot = PimcBot(max_seconds=None, bid_worlds=12)
    bot.start_match(game, 0, 1)
    action = bot.act(strong.view(0))
    assert is_bid(action) and action - BID >= 4, game.action_name(action)
    weak = game.new_state(1)
    _dealt(weak, 0, "2C 4D 3H 5H 7S 8C")
    bot = PimcBot(max_seconds=None, bid_worlds=12)
    bot.start_match(game, 0, 1)
    assert bot.act(weak.view(0)) == PASS


def test_the_hint_ranks_bids_by_the_margin_the_bot_bids_by() -> None:
    """A bid needing to beat passing by ``bid_margin``: the hint's first is the bot's bid."""
    game = load_game("setback")
    state = game.new_state(1)
    _dealt(state, 0, "AS KS QS JS JC JK")
    view = state.view(0)
    for margin in (0.0, 2.0, 50.0):
        bot = PimcBot(max_seconds=None, bid_worlds=6, bid_margin=margin)
        bot.start_match(game, 0, 1)
        action = bot.act(view)
        hinter = PimcBot(max_seconds=None, bid_worlds=6, bid_margin=margin)
        hinter.start_match(game, 0, 1)
        ranked = hinter.hint(view)
        assert ranked[0][0] == action, (margin, game.action_name(action))
        judged = [v - (margin if is_bid(a) else 0.0) for a, v, _ in ranked]
        assert judged == sorted(judged, reverse=True)
    assert action == PASS  # no bid beats passing by 50 points


def test_heuristic_bidding_is_the_heuristics() -> None:
    for seed in (1, 2):
        state, seat = _auction_view("setback", seed, 1)
        view = state.view(seat)
        bot = PimcBot(bidding="heuristic")
        bot.start_match(state.game, seat, 1)
        heuristic = make_bot("heuristic")
        heuristic.start_match(state.game, seat, 1)
        assert bot.act(view) == heuristic.act(view)
        assert bot.bid_decisions == 0 and bot.hint(view) == []


def test_sampled_auction_worlds_never_contradict_the_view() -> None:
    """Worlds drawn at a bid decision hold the seat's cards and replay the bids it saw."""
    for name in ("setback", "ten-point-pitch", "cutthroat-pitch"):
        for seed in range(1, 6):
            state, seat = _auction_view(name, seed, seed % 4)
            view = state.view(seat)
            sampler = Determinizer(view)
            rng = random.Random(seed)
            for _ in range(10):
                world = sampler.sample(rng)
                seen = world.view(seat)
                assert seen.hand == view.hand
                assert seen.actions == view.actions and seen.info() == view.info()
                assert world.to_act == seat and world.phase == AUCTION
                dealt = 0
                for s, mask in enumerate(world.hands):
                    assert mask.bit_count() == state.hands[s].bit_count()
                    assert not dealt & mask
                    dealt |= mask


# ------------------------------------------------------------------------------- games


def test_refuses_a_game_without_a_solver() -> None:
    with pytest.raises(BotError, match="cannot play oh-hell"):
        PimcBot().start_match(load_game("oh-hell"), 0, 1)
    # Euchre is DDS's alone: asked not to use it, pimc cannot play it (nor cut-throat Euchre)
    with pytest.raises(BotError, match="cannot play euchre: pimc was asked not to use DDS"):
        PimcBot(dds=False).start_match(load_game("euchre"), 0, 1)
    with pytest.raises(BotError, match="cannot play euchre"):
        PimcBot().start_match(load_game("euchre(players=3)"), 0, 1)


def test_beats_random_in_setback() -> None:
    duel = prepare("setback", SMALL, "random", deals=10, seed=1, sprt=None)
    assert run_duel(duel, workers=1).difference.mean > 2


def test_the_budget_may_count_cpu_time() -> None:
    """On the CPU clock a small budget still stops the search, and the card is legal."""
    state = _late_positions("setback", 6)[-1]  # a late trick: a world solves in milliseconds
    view = state.view(state.to_act)
    bot = PimcBot(worlds=10_000, max_seconds=0.1, clock="cpu")
    bot.start_match(state.game, state.to_act, 1)
    assert bot.act(view) in view.legal_actions()
    assert 0 < bot.last_worlds < 10_000
    with pytest.raises(BotError, match="clock"):
        PimcBot(clock="sundial")


@pytest.mark.parametrize("spec", ["setback(partners=3x2,players=6)", "hearts(players=5)"])
def test_a_table_the_solver_does_not_seat_is_refused_in_one_line(spec: str) -> None:
    game = load_game(spec)
    if supports(game):
        pytest.skip(f"the solver plays {spec}")
    with pytest.raises(BotError, match=r"its solver plays .* at four seats, not") as refused:
        PimcBot().start_match(game, 0, 1)
    assert "\n" not in str(refused.value)


def test_inference_replays_an_all_fours_hand_whose_cards_were_run() -> None:
    """The worlds are weighed from the hand as it was dealt: cards run since are in ``dealt``
    and gone from the stock, and a replay from those refused the seats' real cards."""
    from tricktable.games.all_fours import BEG, RUN

    game = load_game("seven-up")
    model = other_phases_bot(game)
    runs = 0
    for seed in range(60):
        state = game.new_state(seed)
        state.deal()
        rng = random.Random(seed)
        while state.to_act >= 0 and state.phase != PLAY:
            legal = state.legal_actions()
            # Beg, then run: cards are dealt again from the stock.
            state.apply(BEG if BEG in legal else RUN if RUN in legal else rng.choice(legal))
        if state.phase != PLAY or RUN not in state.actions:
            continue
        runs += 1
        inference = Inference(model)
        while state.to_act >= 0:
            view = state.view(state.to_act)
            world = determinize(view, random.Random(seed))
            assert 0.0 < inference.weight(world, view) <= 1.0
            state.apply(rng.choice(state.legal_actions()))
        if runs == 5:
            return
    pytest.fail(f"only {runs} deals of seven-up were run in 60 seeds")
