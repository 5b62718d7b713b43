"""DDS (endplay's binding) against the project's solver, its adapter, and what happens without it.

DDS is the ``dds`` extra, which ``make test`` installs (``all``), so none of these tests is
skipped for want of it.
"""

from __future__ import annotations

import random
import subprocess
import sys
import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tricktable.bots.pimc import PimcBot
from tricktable.bots.search_base import other_phases_bot
from tricktable.engine.trick import PLAY, TrickState
from tricktable.games import load_game
from tricktable.search.solver import dds, solve
from tricktable.search.solver.fast import available as compiled

pytestmark = pytest.mark.skipif(not compiled(), reason="the solver's C core is not built")


def played_to(spec: str, seed: int, cards: int, inside: int = 0) -> TrickState:
    """A seeded deal of ``spec`` bid and played by the heuristic to the trick where each
    seat holds ``cards`` cards, ``inside`` cards into it."""
    game = load_game(spec)
    state = game.new_state(seed)
    state.deal()
    bots = [other_phases_bot(game) for _ in range(4)]  # the game's heuristic
    for seat, bot in enumerate(bots):
        bot.start_match(game, seat, seed)
    while not (
        state.phase == PLAY
        and state.hands[state.to_act].bit_count() <= cards
        and len(state.trick) == inside
    ):
        state.apply(bots[state.to_act].act(state.view(state.to_act)))
    return state


def test_dds_is_installed() -> None:
    assert dds.available(), dds.unavailable_reason()


@pytest.mark.parametrize("cards", [6, 7, 8])
def test_dds_equals_the_solver_where_the_rules_agree(cards: int) -> None:
    # Without the lead rule (spades may lead at any time) Spades' play is bridge's: every
    # card's value must be the project's exact solver's, at a trick's lead and inside one.
    modeled = 0
    for seed in range(12):
        state = played_to("spades(break_spades=false)", 1000 * cards + seed, cards, seed % 4)
        seat = state.to_act
        found = dds.spades_values(state, seat)
        if found is None:
            continue  # a nil open or bags in reach: not DDS's question
        modeled += 1
        exact = solve(state, seat)
        assert found.moves == exact.moves, (seed, cards)
        assert found.value == exact.value
        # and for a seat of the other side: the same hand, the values turned round
        other = (seat + 1) % 4
        assert dds.spades_values(state, other).moves == solve(state, other).moves
    assert modeled >= 8  # most hands have no nil: the comparison is not empty


def test_solve_with_dds_answers_a_whole_hand() -> None:
    state = played_to("spades", 7, 13)
    seat = state.to_act
    found = solve(state, seat, dds=True)
    assert set(found.moves) == set(state.legal_actions())
    # the legal cards only: an unbroken spade is not valued where another suit is held
    assert all(card < 39 for card in found.moves) or state.hands[seat] >> 39 == state.hands[seat]


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 51), st.sampled_from([1, 3]), st.integers(0, 3))
def test_the_adapter_maps_cards_and_seats_both_ways(card: int, step: int, seat: int) -> None:
    suit, rank = dds.card_to_dds(card)
    assert 0 <= suit < 4 and 2 <= rank <= 14
    assert dds.card_from_dds(suit, rank) == card
    hand = dds.seat_to_dds(seat, step)
    assert dds.seat_from_dds(hand, step) == seat
    # partners stay partners, and the turn's order is DDS's (north, east, south, west)
    assert dds.seat_to_dds((seat + 2) % 4, step) == (hand + 2) % 4
    assert dds.seat_to_dds((seat + step) % 4, step) == (hand + 1) % 4


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 4), st.integers(0, 3))
def test_every_card_of_the_seat_to_play_comes_back(seed: int, size: int, leader: int) -> None:
    # A random deal of ``size`` cards a seat: DDS values every card the leader holds (the
    # cards are mapped there and back), and a side's tricks never exceed the tricks left.
    rng = random.Random(seed)
    deck = rng.sample(range(52), 4 * size)
    hands = [sum(1 << c for c in deck[i * size : (i + 1) * size]) for i in range(4)]
    found = dds.future_tricks(hands, [], leader, rng.choice([None, 0, 1, 2, 3]), 1)
    assert set(found) == {c for c in range(52) if hands[leader] >> c & 1}
    assert all(0 <= v <= size for v in found.values())


def test_the_adapter_refuses_what_is_no_card() -> None:
    with pytest.raises(dds.DDSFailed):
        dds.card_to_dds(52)  # a joker
    with pytest.raises(dds.DDSFailed):
        dds.card_from_dds(4, 2)
    with pytest.raises(dds.DDSFailed):
        dds.future_tricks([1 << 52, 0, 0, 0], [], 0, None)


def test_pimc_values_spades_worlds_by_dds_from_the_first_trick() -> None:
    game = load_game("spades")
    state = played_to("spades", 11, 13)
    bot = PimcBot(worlds=3, max_seconds=None)
    bot.start_match(game, state.to_act, 5)
    card = bot.act(state.view(state.to_act))
    assert card in state.legal_actions()
    assert bot.dd_worlds + bot.dd_declined == 3


def test_a_failing_dds_degrades_with_one_line(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(*args: object) -> None:
        raise OSError("libdds: a failure for the test")

    monkeypatch.setattr(dds._dds, "SolveBoard", broken)
    game = load_game("spades")
    state = played_to("spades", 3, 13)
    bot = PimcBot(worlds=4, max_seconds=None)
    bot.start_match(game, state.to_act, 5)
    with caplog.at_level("WARNING"):
        card = bot.act(state.view(state.to_act))
        assert card in state.legal_actions()
        bot.act(state.view(state.to_act))  # not asked again
    lines = [r.getMessage() for r in caplog.records if "DDS failed" in r.getMessage()]
    assert lines == [
        "DDS failed: libdds: a failure for the test: falling back to the heuristic's rollouts"
    ]
    assert bot.dd_worlds == 0
    # solve(dds=True) answers with the project's solver
    small = played_to("spades", 3, 7)
    assert solve(small, small.to_act, dds=True).moves == solve(small, small.to_act).moves


def test_a_missing_dds_degrades_with_one_line() -> None:
    # A process where endplay cannot be imported plays a Spades hand with pimc: one line on
    # stderr says DDS is missing and what plays instead; no traceback, exit 0.
    script = textwrap.dedent(
        """
        import sys
        sys.modules["endplay"] = None  # import endplay now fails: not installed
        from tricktable.bots.pimc import PimcBot
        from tricktable.bots.registry import make_builtin
        from tricktable.engine.trick import PLAY
        from tricktable.games import load_game
        game = load_game("spades")
        state = game.new_state(9)
        state.deal()
        bots = [PimcBot(worlds=2, max_seconds=None)] + [make_builtin("heuristic") for _ in range(3)]
        for seat, bot in enumerate(bots):
            bot.start_match(game, seat, 9)
        while not state.results:
            state.apply(bots[state.to_act].act(state.view(state.to_act)))
        print("played", len(state.tricks), bots[0].dd_worlds)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[0] == "played"
    assert done.stdout.split()[2] == "0"
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("DDS is not available (ModuleNotFoundError")
    assert lines[0].endswith(": falling back to the heuristic's rollouts")


def euchre_in_play(seed: int, inside: int) -> TrickState | None:
    """A seeded partnership Euchre deal, trump made by the heuristic, played by it
    ``inside`` cards on (None for a lone hand or a throw-in)."""
    game = load_game("euchre")
    state = game.new_state(seed)
    state.deal()
    bots = [other_phases_bot(game) for _ in range(4)]
    for seat, bot in enumerate(bots):
        bot.start_match(game, seat, seed)
    while state.phase != PLAY:
        if state.results:
            return None
        state.apply(bots[state.to_act].act(state.view(state.to_act)))
    if state.alone:  # type: ignore[attr-defined]
        return None
    for _ in range(inside):
        state.apply(bots[state.to_act].act(state.view(state.to_act)))
    return state


def brute_force(state: TrickState, seat: int) -> dict[int, int]:
    """Each legal card's value for ``seat``'s side by plain minimax through the engine's own
    push and undo, the hand scored by the game (its result's points)."""

    def walk() -> int:
        if state.phase != PLAY:
            points = state.results[-1].points
            return points[seat & 1] - points[1 - (seat & 1)]
        found = []
        for card in state.legal_actions():
            state.push(card)
            found.append(walk())
            state.undo()
        return max(found) if state.to_act & 1 == seat & 1 else min(found)

    out = {}
    for card in state.legal_actions():
        state.push(card)
        out[card] = walk()
        state.undo()
    return out


def test_dds_plays_euchre_as_the_engine_does() -> None:
    # The bowers mapped into trump: every card's value by DDS equals plain minimax through the
    # engine, which knows the bowers by its own tables, from every place of the third trick
    # (three cards a seat: minimax is quick in Python).
    compared = 0
    for seed in range(40):
        state = euchre_in_play(seed, 8 + seed % 4)
        if state is None:
            continue
        for seat in (state.to_act, (state.to_act + 1) % 4):
            found = dds.euchre_values(state, seat)
            assert found is not None
            assert found.moves == brute_force(state, seat), seed
        compared += 1
    assert compared >= 20


def test_pimc_plays_euchre_by_dds() -> None:
    game = load_game("euchre")
    state = None
    seed = 0
    while state is None or len(state.legal_actions()) < 2:
        seed += 1
        state = euchre_in_play(seed, 0)
    bot = PimcBot(worlds=5, max_seconds=None)
    bot.start_match(game, state.to_act, 1)
    assert bot.act(state.view(state.to_act)) in state.legal_actions()
    assert bot.dd_worlds == 5
